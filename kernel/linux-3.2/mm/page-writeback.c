// SPDX-License-Identifier: GPL-2.0
/*
 * The parts of Linux 3.2's IO-less dirty throttling that every IO-less
 * variant shares (mm/page-writeback.c of 3.2; line numbers are that
 * file's): the freerun ceiling and the hard limit, global_dirty_limit
 * following the threshold, the write bandwidth estimate, the poll interval
 * and the pause bound, the dirty limits (global_dirty_limits,
 * bdi_dirty_limit) and the ratelimit. What differs per variant,
 * bdi_position_ratio and its callers, is in counters/iol_control.h and
 * counters/iol_balance.h. The counts they read are those of the environment
 * the file is built for (include/mmscale/linux-3.2/env.h): the virtual-time world's or
 * the emulated machine's.
 */
#include "mmscale/linux-3.2/env.h"
#include "mmscale/mm/config.h"

/* The sysctls, with 3.2's defaults (lines 62-85); a scenario sets them. */
int dirty_background_ratio = 10;
unsigned long dirty_background_bytes;
int vm_dirty_ratio = 20;
unsigned long vm_dirty_bytes;

/* Line 55; writeback_set_ratelimit sets it from the threshold. */
long ratelimit_pages = 32;

unsigned long global_dirty_limit;

/* Sum of every bdi's min_ratio (line 251): none is set. */
static unsigned int bdi_min_ratio;

/*
 * Lines 343-353, without highmem (x86-64): free pages and the reclaimable
 * page cache, + 1.
 */
unsigned long determine_dirtyable_memory(void)
{
	unsigned long x;

	x = global_page_state(NR_FREE_PAGES) + global_reclaimable_pages();

	return x + 1;	/* Ensure that we never return 0 */
}

/*
 * Lines 375-405. The PF_LESS_THROTTLE and real-time boost (lines 398-401)
 * is left out: no dd task is nfsd or real-time.
 */
void global_dirty_limits(unsigned long *pbackground, unsigned long *pdirty)
{
	unsigned long background;
	unsigned long dirty;
	unsigned long available_memory = 0;

	if (!vm_dirty_bytes || !dirty_background_bytes)
		available_memory = determine_dirtyable_memory();

	if (vm_dirty_bytes)
		dirty = DIV_ROUND_UP(vm_dirty_bytes, 4096);
	else
		dirty = ((unsigned long)vm_dirty_ratio * available_memory) / 100;

	if (dirty_background_bytes)
		background = DIV_ROUND_UP(dirty_background_bytes, 4096);
	else
		background = ((unsigned long)dirty_background_ratio * available_memory) / 100;

	if (background >= dirty)
		background = dirty / 2;
	*pbackground = background;
	*pdirty = dirty;
}

/* Lines 429-446: the bdi's share of dirty by its writeout fraction. */
unsigned long bdi_dirty_limit(struct backing_dev_info *bdi, unsigned long dirty)
{
	u64 bdi_dirty;
	long numerator, denominator;

	bdi_writeout_fraction(bdi, &numerator, &denominator);

	bdi_dirty = (dirty * (100 - bdi_min_ratio)) / 100;
	bdi_dirty *= (u64)numerator;
	bdi_dirty /= (u32)denominator;	/* do_div */

	bdi_dirty += (dirty * bdi->min_ratio) / 100;
	if (bdi_dirty > (dirty * bdi->max_ratio) / 100)
		bdi_dirty = dirty * bdi->max_ratio / 100;

	return (unsigned long)bdi_dirty;
}

/*
 * Lines 1366-1374: at most 1/32 over the threshold with every CPU
 * dirtying; the world's CPUs are its scenario's, the machine's its online
 * ones.
 */
void writeback_set_ratelimit(void)
{
	unsigned long background_thresh;
	unsigned long dirty_thresh;

	global_dirty_limits(&background_thresh, &dirty_thresh);
	ratelimit_pages = (long)(dirty_thresh / ((unsigned long)throttle_nr_cpus() * 32));
	if (ratelimit_pages < 16)
		ratelimit_pages = 16;
	/* mmscale: --set ratelimit_pages=N (mm/config.h). */
	ratelimit_pages = MM_KNOB_OR(mm_config()->writeback_ratelimit_pages, ratelimit_pages);
}

/* Lines 355-359. */
unsigned long dirty_freerun_ceiling(unsigned long thresh, unsigned long bg_thresh)
{
	return (thresh + bg_thresh) / 2;
}

/* Lines 361-364. */
unsigned long hard_dirty_limit(unsigned long thresh)
{
	return max(thresh, global_dirty_limit);
}

/*
 * Lines 649-687: write_bandwidth averages the bandwidth of the last
 * elapsed jiffies with the old estimate over a period of
 * roundup_pow_of_two(3 * HZ) (after a longer gap it is the new bandwidth
 * alone, and so is avg); avg_write_bandwidth moves an eighth of the way
 * towards the old estimate, and only when the old estimate lies between it
 * and the new one.
 */
void bdi_update_write_bandwidth(struct backing_dev_info *bdi, unsigned long elapsed,
				unsigned long written)
{
	const unsigned long period = roundup_pow_of_two(3 * HZ);
	unsigned long avg = bdi->avg_write_bandwidth;
	unsigned long old = bdi->write_bandwidth;
	u64 bw;

	bw = written - bdi->written_stamp;
	bw *= HZ;
	if (unlikely(elapsed > period)) {
		bw /= (u32)elapsed;	/* do_div: a 32-bit divisor */
		avg = bw;
		goto out;
	}
	bw += (u64)bdi->write_bandwidth * (period - elapsed);
	bw >>= ilog2(period);

	/* one more level of smoothing, for filtering out sudden spikes */
	if (avg > old && old >= (unsigned long)bw)
		avg -= (avg - old) >> 3;

	if (avg < old && old <= (unsigned long)bw)
		avg += (old - avg) >> 3;

out:
	bdi->write_bandwidth = bw;
	bdi->avg_write_bandwidth = avg;
}

/*
 * Lines 697-722: follow a rising threshold in one step, a falling one by
 * 1/32 of the gap per call, never below the dirty pages.
 */
void update_dirty_limit(unsigned long thresh, unsigned long dirty)
{
	unsigned long limit = global_dirty_limit;

	if (limit < thresh) {
		limit = thresh;
		goto update;
	}

	thresh = max(thresh, dirty);
	if (limit > thresh) {
		limit -= (limit - thresh) >> 5;
		goto update;
	}
	return;
update:
	global_dirty_limit = limit;
}

/* global_update_bandwidth's static update_time (line 729), per world. */
static unsigned long update_time;

void writeback_3_2_reset(void)
{
	global_dirty_limit = 0;
	update_time = 0;
	ratelimit_pages = 32;
}

/* Lines 724-742 (dirty_lock: one thread). */
void global_update_bandwidth(unsigned long thresh, unsigned long dirty, unsigned long now)
{
	/* check locklessly first to optimize away locking for the most time */
	if (time_before(now, update_time + BANDWIDTH_INTERVAL))
		return;

	if (!time_before(now, update_time + BANDWIDTH_INTERVAL)) {	/* time_after_eq */
		update_dirty_limit(thresh, dirty);
		update_time = now;
	}
}

/*
 * Lines 956-963: how many pages a task may dirty before it looks again,
 * near the square root of the safety margin.
 */
unsigned long dirty_poll_interval(unsigned long dirty, unsigned long thresh)
{
	if (thresh > dirty)
		return 1UL << (ilog2(thresh - dirty) >> 1);

	return 1;
}

/*
 * Lines 965-999: 20ms for one dd, 20ms more per doubling of the dirtiers
 * (write_bw / dirty_ratelimit), at most what 1/8 of the bdi's dirty pages
 * take to write, within [4, MAX_PAUSE] jiffies.
 */
unsigned long bdi_max_pause(struct backing_dev_info *bdi, unsigned long bdi_dirty)
{
	unsigned long bw = bdi->avg_write_bandwidth;
	unsigned long hi = (unsigned long)ilog2(bw);
	unsigned long lo = (unsigned long)ilog2(bdi->dirty_ratelimit);
	unsigned long t;

	t = HZ / 50;
	if (hi > lo)
		t += (hi - lo) * (20 * HZ) / 1024;
	t = min(t, bdi_dirty * HZ / (8 * bw + 1));
	return clamp_t(unsigned long, t, 4, MAX_PAUSE);
}
