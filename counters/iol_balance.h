/* SPDX-License-Identifier: GPL-2.0 */
/*
 * balance_dirty_pages of Linux 3.2 and what calls it (mm/page-writeback.c
 * of 3.2: __bdi_update_bandwidth lines 889-930, bdi_update_bandwidth
 * 932-945, balance_dirty_pages 1008-1203, balance_dirty_pages_ratelimited_nr
 * 1231-1268), once per IO-less variant, after counters/iol_control.h. The
 * variant's file also defines
 *
 *	static bool bdi_below_own_freerun(struct backing_dev_info *bdi,
 *					  unsigned long nr_dirty,
 *					  unsigned long bdi_dirty,
 *					  bool dirty_exceeded);
 *
 * its break after the bandwidth update (false in 3.2; the v11 rows':
 * 11/18's bdi_async_underrun, and Wu's bdi-freerun break), and the v11
 * rows define IOL_THINK_TIME before including this file: v11 07/18's
 * think time compensation ("[PATCH 07/18] writeback: dirty ratelimit -
 * think time compensation", Message-Id <20110904020915.512367354@intel.com>,
 * docs/postings/): the pause is what is left of the period since the last
 * one ended (current->dirty_paused_when), and nr_dirtied is reset where
 * that period restarts instead of at every exit. 3.2 has neither.
 *
 * The world has no threads, so the function is split where it sleeps
 * (io_schedule_timeout, line 1141): balance_dirty_pages runs the loop up
 * to the sleep and returns the pause in jiffies; the task sleeps that long
 * in virtual time and calls balance_dirty_pages_resume, which runs the
 * lines after the sleep and either loops again (another pause) or leaves
 * (-1). The loop's locals live in current->bdp across the sleep. On the
 * emulated machine (bdp/, bdp_throttled/) a call is balance_dirty_pages up
 * to that sleep. The tracepoints and fatal_signal_pending (no signals) are
 * left out, and bdi->wb.list_lock around the bandwidth update: the world
 * has one thread, and on the machine jiffies does not move, so no call
 * passes the update's 200 ms gate (include/mmscale/linux-3.2/machine.h).
 */
#ifndef MMSCALE_IOL_BALANCE_H
#define MMSCALE_IOL_BALANCE_H

#include "iol_control.h"
#include "mmscale/linux-3.2/env.h"

static bool bdi_below_own_freerun(struct backing_dev_info *bdi, unsigned long nr_dirty,
				  unsigned long bdi_dirty, bool dirty_exceeded);

/* Lines 889-930: at most every 200ms, the ratelimit and then the bandwidth. */
static void __bdi_update_bandwidth(struct backing_dev_info *bdi,
				   unsigned long thresh, unsigned long bg_thresh,
				   unsigned long dirty, unsigned long bdi_thresh,
				   unsigned long bdi_dirty, unsigned long start_time)
{
	unsigned long now = jiffies;
	unsigned long elapsed = now - bdi->bw_time_stamp;
	unsigned long dirtied;
	unsigned long written;

	/* rate-limit, only update once every 200ms (the int converted, as in C) */
	if (elapsed < (unsigned long)BANDWIDTH_INTERVAL)
		return;
	throttle_count_bw_sample();	/* the world's count, not the kernel's */

	dirtied = (unsigned long)bdi_counter_read(bdi, BDI_DIRTIED);
	written = (unsigned long)bdi_counter_read(bdi, BDI_WRITTEN);

	/*
	 * Skip quiet periods when disk bandwidth is under-utilized.
	 * (at least 1s idle time between two flusher runs)
	 */
	if (elapsed > HZ && time_before(bdi->bw_time_stamp, start_time))
		goto snapshot;

	if (thresh) {
		global_update_bandwidth(thresh, dirty, now);
		bdi_update_dirty_ratelimit(bdi, thresh, bg_thresh, dirty,
					   bdi_thresh, bdi_dirty,
					   dirtied, elapsed);
	}
	bdi_update_write_bandwidth(bdi, elapsed, written);

snapshot:
	bdi->dirtied_stamp = dirtied;
	bdi->written_stamp = written;
	bdi->bw_time_stamp = now;
}

/* Lines 932-945 (the lock: one thread). */
static void bdi_update_bandwidth(struct backing_dev_info *bdi,
				 unsigned long thresh, unsigned long bg_thresh,
				 unsigned long dirty, unsigned long bdi_thresh,
				 unsigned long bdi_dirty, unsigned long start_time)
{
	if (time_is_after_eq_jiffies(bdi->bw_time_stamp + BANDWIDTH_INTERVAL))
		return;
	__bdi_update_bandwidth(bdi, thresh, bg_thresh, dirty,
			       bdi_thresh, bdi_dirty, start_time);
}

/*
 * Lines 1168-1198, after the loop: the next poll interval, and background
 * writeback if over the background threshold. Returns -1: no more sleep.
 */
static long balance_dirty_pages_tail(struct address_space *mapping)
{
	struct backing_dev_info *bdi = mapping->backing_dev_info;
	typeof(current->bdp) *f = &current->bdp;
	unsigned long pages_dirtied = f->pages_dirtied;

	if (!f->dirty_exceeded && bdi->dirty_exceeded)
		WRITE_ONCE_BDI(bdi->dirty_exceeded, 0);

#ifndef IOL_THINK_TIME	/* 07/18 resets it where the period restarts instead */
	current->nr_dirtied = 0;
#endif
	if (f->pause == 0) { /* in freerun area */
		current->nr_dirtied_pause =
				(int)dirty_poll_interval(f->nr_dirty, f->dirty_thresh);
	} else if (f->pause <= f->max_pause / 4 &&
		   pages_dirtied >= (unsigned long)current->nr_dirtied_pause) {
		current->nr_dirtied_pause = (int)clamp_t(unsigned long,
					f->dirty_ratelimit * (unsigned long)(f->max_pause / 2) / HZ,
					pages_dirtied + pages_dirtied / 8,
					pages_dirtied * 4);
	} else if (f->pause >= f->max_pause) {
		current->nr_dirtied_pause = 1 | (int)clamp_t(unsigned long,
					f->dirty_ratelimit * (unsigned long)(f->max_pause / 2) / HZ,
					pages_dirtied / 4,
					pages_dirtied - pages_dirtied / 8);
	}

	if (writeback_in_progress(bdi))
		return -1;

	/* laptop_mode is off */
	if (f->nr_reclaimable > f->background_thresh)
		bdi_start_background_writeback(bdi);
	return -1;
}

/*
 * The loop of lines 1028-1166 from its top to the sleep: the pause, or the
 * tail's -1 when it breaks out.
 */
static long balance_dirty_pages_loop(struct address_space *mapping)
{
	struct backing_dev_info *bdi = mapping->backing_dev_info;
	typeof(current->bdp) *f = &current->bdp;
	unsigned long freerun;
#ifdef IOL_THINK_TIME
	unsigned long now = jiffies;

	f->now = now;
#endif

	/*
	 * Unstable writes are a feature of certain networked filesystems (i.e.
	 * NFS): none here, but the kernel reads the item.
	 */
	f->nr_reclaimable = global_page_state(NR_FILE_DIRTY) +
				global_page_state(NR_UNSTABLE_NFS);
	f->nr_dirty = f->nr_reclaimable + global_page_state(NR_WRITEBACK);

	global_dirty_limits(&f->background_thresh, &f->dirty_thresh);

	/*
	 * Throttle it only when the background writeback cannot catch-up.
	 */
	freerun = dirty_freerun_ceiling(f->dirty_thresh, f->background_thresh);
	throttle_count_bdp_pass(f->nr_dirty > freerun);	/* the world's count */
	if (f->nr_dirty <= freerun) {
#ifdef IOL_THINK_TIME
		current->dirty_paused_when = now;
		current->nr_dirtied = 0;
#endif
		return balance_dirty_pages_tail(mapping);
	}

	if (unlikely(!writeback_in_progress(bdi)))
		bdi_start_background_writeback(bdi);

	/* bdi_thresh is not treated as some limiting factor as dirty_thresh */
	f->bdi_thresh = bdi_dirty_limit(bdi, f->dirty_thresh);

	/*
	 * In order to avoid the stacked BDI deadlock we need to ensure we
	 * accurately count the 'dirty' pages when the threshold is low.
	 */
	if (f->bdi_thresh < 2 * bdi_stat_error(bdi)) {
		unsigned long bdi_reclaimable = (unsigned long)bdi_stat_sum(bdi, BDI_RECLAIMABLE);

		f->bdi_dirty = bdi_reclaimable +
			       (unsigned long)bdi_stat_sum(bdi, BDI_WRITEBACK);
	} else {
		unsigned long bdi_reclaimable = (unsigned long)bdi_stat(bdi, BDI_RECLAIMABLE);

		f->bdi_dirty = bdi_reclaimable +
			       (unsigned long)bdi_stat(bdi, BDI_WRITEBACK);
	}

	f->dirty_exceeded = (f->bdi_dirty > f->bdi_thresh) ||
			    (f->nr_dirty > f->dirty_thresh);
	if (f->dirty_exceeded && !bdi->dirty_exceeded)
		WRITE_ONCE_BDI(bdi->dirty_exceeded, 1);

	bdi_update_bandwidth(bdi, f->dirty_thresh, f->background_thresh,
			     f->nr_dirty, f->bdi_thresh, f->bdi_dirty,
			     f->start_time);

	/* the variant's break (Wu's bdi-freerun patch; none in the others) */
	if (bdi_below_own_freerun(bdi, f->nr_dirty, f->bdi_dirty, f->dirty_exceeded))
		return balance_dirty_pages_tail(mapping);

	f->max_pause = (long)bdi_max_pause(bdi, f->bdi_dirty);

	f->dirty_ratelimit = bdi->dirty_ratelimit;
	f->pos_ratio = bdi_position_ratio(bdi, f->dirty_thresh,
					  f->background_thresh, f->nr_dirty,
					  f->bdi_thresh, f->bdi_dirty);
	f->task_ratelimit = ((u64)f->dirty_ratelimit * f->pos_ratio) >>
							RATELIMIT_CALC_SHIFT;
	if (unlikely(f->task_ratelimit == 0)) {
#ifdef IOL_THINK_TIME
		f->period = f->max_pause;	/* 07/18: MAX_PAUSE; max_pause after 13/18 */
#endif
		f->pause = f->max_pause;
		return f->pause;	/* goto pause */
	}
#ifdef IOL_THINK_TIME
	f->period = (long)(HZ * f->pages_dirtied / f->task_ratelimit);
	f->pause = (long)(current->dirty_paused_when + (unsigned long)f->period - now);
	/*
	 * For less than 1s think time (ext3/4 may block the dirtier
	 * for up to 800ms from time to time on 1-HDD; so does xfs,
	 * however at much less frequency), try to compensate it in
	 * future periods by updating the virtual time; otherwise just
	 * do a reset, as it may be a light dirtier.
	 */
	if (unlikely(f->pause <= 0)) {
		if (f->pause < -HZ) {
			current->dirty_paused_when = now;
			current->nr_dirtied = 0;
		} else if (f->period) {
			current->dirty_paused_when += (unsigned long)f->period;
			current->nr_dirtied = 0;
		}
		f->pause = 1; /* avoid resetting nr_dirtied_pause below */
		return balance_dirty_pages_tail(mapping);
	}
#else
	f->pause = (long)(HZ * f->pages_dirtied / f->task_ratelimit);
	if (unlikely(f->pause <= 0)) {
		f->pause = 1; /* avoid resetting nr_dirtied_pause below */
		return balance_dirty_pages_tail(mapping);
	}
#endif
	f->pause = min(f->pause, f->max_pause);
	return f->pause;	/* io_schedule_timeout(pause) */
}

/*
 * Lines 1008-1027: a task over its ratelimit enters. Returns the pause to
 * sleep (then balance_dirty_pages_resume), or -1.
 */
static long balance_dirty_pages(struct address_space *mapping, unsigned long pages_dirtied)
{
	typeof(current->bdp) *f = &current->bdp;

	throttle_count_bdp_call();
	f->pages_dirtied = pages_dirtied;
	f->pause = 0;
	f->max_pause = 0;
	f->dirty_exceeded = false;
	f->dirty_ratelimit = 0;
	f->start_time = jiffies;
	return balance_dirty_pages_loop(mapping);
}

/* Lines 1144-1166, after the sleep: leave, or loop again. */
static long balance_dirty_pages_resume(struct address_space *mapping)
{
	struct backing_dev_info *bdi = mapping->backing_dev_info;
	typeof(current->bdp) *f = &current->bdp;

#ifdef IOL_THINK_TIME
	current->dirty_paused_when = f->now + (unsigned long)f->pause;
	current->nr_dirtied = 0;
#endif
	/*
	 * This is typically equal to (nr_dirty < dirty_thresh) and can also
	 * keep "1000+ dd on a slow USB stick" under control.
	 */
	if (f->task_ratelimit)
		return balance_dirty_pages_tail(mapping);

	/* give the other good bdi's a pipe to go through */
	if (f->bdi_dirty <= bdi_stat_error(bdi))
		return balance_dirty_pages_tail(mapping);

	return balance_dirty_pages_loop(mapping);
}

/*
 * Lines 1231-1268: called after each page a task dirties (nr_pages_dirtied
 * 1 from generic_perform_write). Returns what balance_dirty_pages returns,
 * or -1 when it was not called.
 */
static long balance_dirty_pages_ratelimited_nr(struct address_space *mapping,
					       unsigned long nr_pages_dirtied)
{
	struct backing_dev_info *bdi = mapping->backing_dev_info;
	int ratelimit;
	int *p;

	ratelimit = current->nr_dirtied_pause;
	if (bdi->dirty_exceeded)
		ratelimit = min(ratelimit, 32 >> (12 - 10));

	current->nr_dirtied += (int)nr_pages_dirtied;

	/*
	 * This prevents one CPU to accumulate too many dirtied pages without
	 * calling into balance_dirty_pages().
	 */
	p = throttle_bdp_ratelimits();
	if (unlikely(current->nr_dirtied >= ratelimit))
		*p = 0;
	else {
		*p += (int)nr_pages_dirtied;
		if (unlikely(*p >= ratelimit_pages)) {
			*p = 0;
			ratelimit = 0;
		}
	}

	if (unlikely(current->nr_dirtied >= ratelimit))
		return balance_dirty_pages(mapping, (unsigned long)current->nr_dirtied);
	return -1;
}

#define IOL_VARIANT_OPS {						\
	.bdi_position_ratio = bdi_position_ratio,			\
	.bdi_update_dirty_ratelimit = bdi_update_dirty_ratelimit,	\
	.bdi_below_own_freerun = bdi_below_own_freerun,			\
	.balance_dirty_pages = balance_dirty_pages,			\
	.balance_dirty_pages_ratelimited_nr = balance_dirty_pages_ratelimited_nr, \
	.balance_dirty_pages_resume = balance_dirty_pages_resume,	\
	.writeback_set_ratelimit = writeback_set_ratelimit,		\
}

#endif /* MMSCALE_IOL_BALANCE_H */
