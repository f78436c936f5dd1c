// SPDX-License-Identifier: GPL-2.0
/*
 * The parts of Linux 3.2's IO-less dirty throttling that every IO-less
 * variant shares (mm/page-writeback.c of 3.2; line numbers are that
 * file's): the freerun ceiling and the hard limit, global_dirty_limit
 * following the threshold, the write bandwidth estimate, the poll interval
 * and the pause bound. What differs per variant, bdi_position_ratio and
 * its caller bdi_update_dirty_ratelimit, is in counters/iol_control.h.
 */
#include "mmscale/mm/writeback-3.2.h"

unsigned long global_dirty_limit;

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
 * roundup_pow_of_two(3 * HZ); avg_write_bandwidth moves an eighth of the
 * way towards it only when both agree on the direction.
 */
void bdi_update_write_bandwidth(struct bdi_writeback_control_3_2 *bdi, unsigned long elapsed,
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
 * Lines 965-1000: 20ms for one dd, 20ms more per doubling of the dirtiers
 * (write_bw / dirty_ratelimit), at most what 1/8 of the bdi's dirty pages
 * take to write, within [4, MAX_PAUSE] jiffies.
 */
unsigned long bdi_max_pause(struct bdi_writeback_control_3_2 *bdi, unsigned long bdi_dirty)
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
