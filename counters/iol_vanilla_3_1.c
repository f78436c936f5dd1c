// SPDX-License-Identifier: GPL-2.0
/*
 * Throttle variant "vanilla-3.1": Linux 3.1's balance_dirty_pages, the last
 * that writes back from the dirtier's context (mm/page-writeback.c of
 * 3.1.3, ../shared/kernel/3.1.3; line numbers are that file's): over its
 * task's share of the bdi's threshold, the dirtier submits writeback
 * itself (writeback_inodes_wb, up to 1.5 times the pages it dirtied), then
 * sleeps 1, 2, 4 ... up to HZ/10 jiffies and looks again. The thread's
 * second table compares it with IO-less over the same 19 cases.
 *
 * Its own here: sync_writeback_pages (lines 61-67), task_dirty_limit and
 * task_min_dirty_limit (285-305, on the per-task vm_dirties proportion),
 * __bdi_update_bandwidth and bdi_update_bandwidth (594-643, without the
 * ratelimit 3.2 added), balance_dirty_pages (652-789),
 * balance_dirty_pages_ratelimited_nr (817-846) and writeback_set_ratelimit
 * (949-956). 3.1.3's global_dirty_limits, bdi_dirty_limit,
 * bdi_update_write_bandwidth, update_dirty_limit, global_update_bandwidth
 * and hard_dirty_limit are 3.2's, line for line (comments aside), and run
 * from kernel/linux-3.2/mm/page-writeback.c.
 *
 * Split where it sleeps, as counters/iol_balance.h is: in
 * io_schedule_timeout (line 747), and in writeback_inodes_wb when the
 * disk's request queue is full (get_request_wait, in the block layer): the
 * loop's locals live in current->bdp31 meanwhile.
 */
#include "iol_variants.h"
#include "mmscale/linux-3.2/env.h"
#include "mmscale/mm/config.h"

enum { BDP31_LOOP, BDP31_IN_WRITEBACK, BDP31_IN_PAUSE };

/* Lines 61-67. */
static inline long sync_writeback_pages(unsigned long dirtied)
{
	if (dirtied < (unsigned long)ratelimit_pages)
		dirtied = (unsigned long)ratelimit_pages;

	return (long)(dirtied + dirtied / 2);
}

/* Lines 284-299: dirty -= (dirty / 8) * p_task, at least half. */
#define TASK_LIMIT_FRACTION 8
static unsigned long task_dirty_limit(struct throttle_task *tsk, unsigned long bdi_dirty)
{
	long numerator, denominator;
	unsigned long dirty = bdi_dirty;
	u64 inv = dirty / TASK_LIMIT_FRACTION;

	task_dirties_fraction(tsk, &numerator, &denominator);
	inv *= (u64)numerator;
	inv /= (u32)denominator;	/* do_div */

	dirty -= inv;

	return max(dirty, bdi_dirty/2);
}

/* Lines 302-305: the minimum limit for any task. */
static unsigned long task_min_dirty_limit(unsigned long bdi_dirty)
{
	return bdi_dirty - bdi_dirty / TASK_LIMIT_FRACTION;
}

/* Lines 594-628: the write bandwidth alone (3.1 has no dirty ratelimit). */
static void __bdi_update_bandwidth(struct backing_dev_info *bdi,
				   unsigned long thresh, unsigned long dirty,
				   unsigned long bdi_thresh, unsigned long bdi_dirty,
				   unsigned long start_time)
{
	unsigned long now = jiffies;
	unsigned long elapsed = now - bdi->bw_time_stamp;
	unsigned long written;

	(void)bdi_thresh;
	(void)bdi_dirty;
	/* rate-limit, only update once every 200ms (the int converted, as in C) */
	if (elapsed < (unsigned long)BANDWIDTH_INTERVAL)
		return;
	throttle_count_bw_sample();	/* the world's count, not the kernel's */

	written = (unsigned long)bdi_counter_read(bdi, BDI_WRITTEN);

	/* Skip quiet periods when disk bandwidth is under-utilized. */
	if (elapsed > HZ && time_before(bdi->bw_time_stamp, start_time))
		goto snapshot;

	if (thresh)
		global_update_bandwidth(thresh, dirty, now);

	bdi_update_write_bandwidth(bdi, elapsed, written);

snapshot:
	bdi->written_stamp = written;
	bdi->bw_time_stamp = now;
}

/* Lines 630-643 (bdi->wb.list_lock: one thread). */
static void bdi_update_bandwidth(struct backing_dev_info *bdi,
				 unsigned long thresh, unsigned long dirty,
				 unsigned long bdi_thresh, unsigned long bdi_dirty,
				 unsigned long start_time)
{
	if (time_is_after_eq_jiffies(bdi->bw_time_stamp + BANDWIDTH_INTERVAL))
		return;
	__bdi_update_bandwidth(bdi, thresh, dirty, bdi_thresh, bdi_dirty, start_time);
}

/* Lines 771-789, after the loop. Returns -1: no more sleep. */
static long balance_dirty_pages_tail(struct address_space *mapping)
{
	struct backing_dev_info *bdi = mapping->backing_dev_info;
	typeof(current->bdp31) *f = &current->bdp31;

	f->stage = BDP31_LOOP;
	/* Clear dirty_exceeded flag only when no task can exceed the limit */
	if (f->clear_dirty_exceeded && bdi->dirty_exceeded)
		WRITE_ONCE_BDI(bdi->dirty_exceeded, 0);

	if (writeback_in_progress(bdi))
		return -1;

	/* laptop_mode is off */
	if (f->nr_reclaimable > f->background_thresh)
		bdi_start_background_writeback(bdi);
	return -1;
}

static long balance_dirty_pages_loop(struct address_space *mapping);

/*
 * Lines 739-747: the writeback the dirtier does itself (writeback_inodes_wb
 * may wait for the request queue: THROTTLE_WAIT_QUEUE, then again here),
 * then its pause.
 */
static long balance_dirty_pages_writeback(struct address_space *mapping)
{
	struct backing_dev_info *bdi = mapping->backing_dev_info;
	typeof(current->bdp31) *f = &current->bdp31;
	bool blocked = false;
	long written = throttle_writeback_inodes_wb(bdi, f->wb_left, &blocked);

	f->wb_left -= written;
	f->wb_done += written;
	if (blocked && f->wb_left > 0) {
		f->stage = BDP31_IN_WRITEBACK;
		return THROTTLE_WAIT_QUEUE;
	}
	f->pages_written += (unsigned long)f->wb_done;
	if (f->pages_written >= f->write_chunk)
		return balance_dirty_pages_tail(mapping);	/* We've done our duty */
	f->stage = BDP31_IN_PAUSE;
	return (long)f->pause;	/* io_schedule_timeout(pause) */
}

/* Lines 670-747: the loop from its top to a sleep, or the tail. */
static long balance_dirty_pages_loop(struct address_space *mapping)
{
	struct backing_dev_info *bdi = mapping->backing_dev_info;
	typeof(current->bdp31) *f = &current->bdp31;
	unsigned long min_task_bdi_thresh;

	f->nr_reclaimable = global_page_state(NR_FILE_DIRTY) +
				global_page_state(NR_UNSTABLE_NFS);
	f->nr_dirty = f->nr_reclaimable + global_page_state(NR_WRITEBACK);

	global_dirty_limits(&f->background_thresh, &f->dirty_thresh);

	/*
	 * Throttle it only when the background writeback cannot catch-up.
	 */
	throttle_count_bdp_pass(f->nr_dirty > (f->background_thresh + f->dirty_thresh) / 2);
	if (f->nr_dirty <= (f->background_thresh + f->dirty_thresh) / 2)
		return balance_dirty_pages_tail(mapping);

	f->bdi_thresh = bdi_dirty_limit(bdi, f->dirty_thresh);
	min_task_bdi_thresh = task_min_dirty_limit(f->bdi_thresh);
	f->task_bdi_thresh = task_dirty_limit(current, f->bdi_thresh);

	/* accurately count the 'dirty' pages when the threshold is low */
	if (f->task_bdi_thresh < 2 * bdi_stat_error(bdi)) {
		f->bdi_nr_reclaimable = (unsigned long)bdi_stat_sum(bdi, BDI_RECLAIMABLE);
		f->bdi_dirty = f->bdi_nr_reclaimable +
			       (unsigned long)bdi_stat_sum(bdi, BDI_WRITEBACK);
	} else {
		f->bdi_nr_reclaimable = (unsigned long)bdi_stat(bdi, BDI_RECLAIMABLE);
		f->bdi_dirty = f->bdi_nr_reclaimable +
			       (unsigned long)bdi_stat(bdi, BDI_WRITEBACK);
	}

	f->dirty_exceeded = (f->bdi_dirty > f->task_bdi_thresh) ||
			    (f->nr_dirty > f->dirty_thresh);
	f->clear_dirty_exceeded = (f->bdi_dirty <= min_task_bdi_thresh) &&
				  (f->nr_dirty <= f->dirty_thresh);

	if (!f->dirty_exceeded)
		return balance_dirty_pages_tail(mapping);

	if (!bdi->dirty_exceeded)
		WRITE_ONCE_BDI(bdi->dirty_exceeded, 1);

	bdi_update_bandwidth(bdi, f->dirty_thresh, f->nr_dirty,
			     f->bdi_thresh, f->bdi_dirty, f->start_time);

	/* Only move pages to writeback if this bdi is over its threshold */
	if (f->bdi_nr_reclaimable > f->task_bdi_thresh) {
		f->wb_left = (long)f->write_chunk;
		f->wb_done = 0;
		return balance_dirty_pages_writeback(mapping);
	}
	f->stage = BDP31_IN_PAUSE;
	return (long)f->pause;	/* io_schedule_timeout(pause) */
}

/* Lines 652-669: the entry. */
static long balance_dirty_pages(struct address_space *mapping, unsigned long write_chunk)
{
	typeof(current->bdp31) *f = &current->bdp31;

	throttle_count_bdp_call();
	f->write_chunk = write_chunk;
	f->pages_written = 0;
	f->pause = 1;
	f->dirty_exceeded = false;
	f->clear_dirty_exceeded = true;
	f->start_time = jiffies;
	return balance_dirty_pages_loop(mapping);
}

/* After a sleep: in writeback_inodes_wb (go on writing), or lines 750-768. */
static long balance_dirty_pages_resume(struct address_space *mapping)
{
	typeof(current->bdp31) *f = &current->bdp31;

	if (f->stage == BDP31_IN_WRITEBACK)
		return balance_dirty_pages_writeback(mapping);

	f->dirty_thresh = hard_dirty_limit(f->dirty_thresh);
	/*
	 * max-pause area. If dirty exceeded but still within this area, no
	 * need to sleep for more than 200ms.
	 */
	if (f->nr_dirty < f->dirty_thresh &&
	    f->bdi_dirty < (f->task_bdi_thresh + f->bdi_thresh) / 2 &&
	    time_before(f->start_time + MAX_PAUSE, jiffies))	/* time_after */
		return balance_dirty_pages_tail(mapping);

	/* Increase the delay for each loop, up to our previous default of 100ms. */
	f->pause <<= 1;
	if (f->pause > HZ / 10)
		f->pause = HZ / 10;
	return balance_dirty_pages_loop(mapping);
}

/* Lines 817-846: every ratelimit_pages pages on a CPU (8 when exceeded). */
static long balance_dirty_pages_ratelimited_nr(struct address_space *mapping,
					       unsigned long nr_pages_dirtied)
{
	struct backing_dev_info *bdi = mapping->backing_dev_info;
	unsigned long ratelimit;
	int *p;

	ratelimit = (unsigned long)ratelimit_pages;
	if (mapping->backing_dev_info->dirty_exceeded)
		ratelimit = 8;

	(void)bdi;
	p = throttle_bdp_ratelimits();	/* an unsigned long in 3.1; never above ratelimit */
	*p += (int)nr_pages_dirtied;
	if (unlikely((unsigned long)*p >= ratelimit)) {
		ratelimit = (unsigned long)sync_writeback_pages((unsigned long)*p);
		*p = 0;
		return balance_dirty_pages(mapping, ratelimit);
	}
	return -1;
}

/*
 * Lines 949-956: vm_total_pages over 32 per CPU, between 16 pages and
 * 4 MiB.
 */
static void writeback_set_ratelimit_3_1(void)
{
	ratelimit_pages = (long)(throttle_total_pages() / ((unsigned long)throttle_nr_cpus() * 32));
	if (ratelimit_pages < 16)
		ratelimit_pages = 16;
	if (ratelimit_pages * 4096 > 4096 * 1024)
		ratelimit_pages = (4096 * 1024) / 4096;
	/* mmscale: --set ratelimit_pages=N (mm/config.h). */
	ratelimit_pages = MM_KNOB_OR(mm_config()->writeback_ratelimit_pages, ratelimit_pages);
}

/* 3.1 has no bdi_below_own_freerun; the control lines are 3.2's alone. */
static bool no_own_freerun(struct backing_dev_info *bdi, unsigned long nr_dirty,
			   unsigned long bdi_dirty, bool dirty_exceeded)
{
	(void)bdi;
	(void)nr_dirty;
	(void)bdi_dirty;
	(void)dirty_exceeded;
	return false;
}

const struct iol_variant_ops IOL_OPS(iol_ops_vanilla_3_1) = {
	.bdi_position_ratio = NULL,		/* 3.1 has no position control */
	.bdi_update_dirty_ratelimit = NULL,
	.bdi_below_own_freerun = no_own_freerun,
	.balance_dirty_pages = balance_dirty_pages,
	.balance_dirty_pages_ratelimited_nr = balance_dirty_pages_ratelimited_nr,
	.balance_dirty_pages_resume = balance_dirty_pages_resume,
	.writeback_set_ratelimit = writeback_set_ratelimit_3_1,
	.counts_task_dirties = true,
};
