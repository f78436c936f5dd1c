// SPDX-License-Identifier: GPL-2.0
/*
 * Linux 6.18's balance_dirty_pages with the throttled pass storing
 * wb->dirty_exceeded (page-writeback.c 1908) and bdi->last_bdp_sleep
 * (1978) only when the value changes, where 6.18 stores the first on every
 * pass that is not free-running and the second on every pass that sleeps.
 * Both stores are 2024 changes: the unconditional dirty_exceeded store is
 * Kemeng Shi's "writeback: factor out wb_dirty_exceeded to remove repeated
 * code" (6.11, <20240514125254.142203-8-shikemeng@huaweicloud.com>), which
 * removed Jan Kara's "if (dirty_exceeded != wb->dirty_exceeded)" store
 * (e92eebbb0921, 6.0; 3.2 to 5.19 also stored the flag only when it
 * changed), so this row's first half is the kernel's own 6.0-6.10 code;
 * last_bdp_sleep moved into the bdi with f814bdda774c (6.8, "blk-wbt: Fix
 * detection of dirty-throttled tasks"), and storing it only when it
 * changes is an experiment no kernel made. Both lines are read by every
 * pass (the first holds the wb's completion period, the second the bdi's
 * ratios and wb->state), so with many CPUs throttled on one wb each store
 * pulls the line from the others; the question is what that costs against
 * the same pass without it.
 *
 * A copy of kernel/linux-6.18/mm/page-writeback.c's balance_dirty_pages_loop
 * with those two stores changed (the comments say where); nothing else
 * differs. What the stores are for is kept: dirty_exceeded still follows
 * the pass's finding (balance_dirty_pages_ratelimited_flags reads it), and
 * last_bdp_sleep still holds the jiffy of the last throttled sleep (blk-wbt
 * reads it), which changes at most once a jiffy. (On the bench's machine
 * jiffies does not move while a run is timed: the second store then never
 * happens after the first.)
 */
#include <errno.h>
#include <limits.h>

#include "mmscale/linux-6.18/mm/vmstat.h"
#include "mmscale/linux-6.18/mm/writeback.h"

#include "bdp_variants-6.18.h"

/* The kernel mixes long and unsigned long in these comparisons; kept as it is. */
#pragma GCC diagnostic ignored "-Wsign-compare"

/* This file's copy of the loop, not 6.18's symbol. */
#undef balance_dirty_pages_loop

/* balance_dirty_pages_loop of kernel/linux-6.18/mm/page-writeback.c, changed where marked. */
static long balance_dirty_pages_loop(struct bdi_writeback *wb)
{
	struct dirty_throttle_control * const gdtc = &current->bdp.gdtc;
	struct dirty_throttle_control *sdtc;
	unsigned long nr_dirty;
	long period;
	long pause;
	long max_pause;
	long min_pause;
	int nr_dirtied_pause;
	unsigned long task_ratelimit;
	unsigned long dirty_ratelimit;
	unsigned long pages_dirtied = current->bdp.pages_dirtied;
	struct backing_dev_info *bdi = wb->bdi;
	bool strictlimit = bdi->capabilities & BDI_CAP_STRICTLIMIT;
	unsigned long now = jiffies;

	nr_dirty = global_node_page_state(NR_FILE_DIRTY);

	balance_domain_limits(gdtc, strictlimit);

	/*
	 * In laptop mode, we wait until hitting the higher threshold
	 * before starting background writeout, and then write out all
	 * the way down to the lower threshold.  So slow writers cause
	 * minimal disk activity.
	 *
	 * In normal mode, we start background writeout at the lower
	 * background_thresh, to keep the amount of dirty memory low.
	 */
	if (!laptop_mode && nr_dirty > gdtc->bg_thresh &&
	    !writeback_in_progress(wb))
		wb_start_background_writeback_6_18(wb);

	/*
	 * If memcg domain is in effect, @dirty should be under
	 * both global and memcg freerun ceilings.
	 */
	if (gdtc->freerun) {
		unsigned long intv;
		unsigned long m_intv;

free_running:
		intv = domain_poll_intv(gdtc, strictlimit);
		m_intv = ULONG_MAX;

		current->dirty_paused_when = now;
		current->nr_dirtied = 0;
		current->nr_dirtied_pause = (int)min(intv, m_intv);
		return -1;	/* break */
	}

	/* Start writeback even when in laptop mode */
	if (unlikely(!writeback_in_progress(wb)))
		wb_start_background_writeback_6_18(wb);

	/* mem_cgroup_flush_foreign(wb): nothing without CONFIG_CGROUP_WRITEBACK */

	/*
	 * Calculate global domain's pos_ratio and select the
	 * global dtc by default.
	 */
	balance_wb_limits(gdtc, strictlimit);
	if (gdtc->freerun)
		goto free_running;
	sdtc = gdtc;

	/* the experiment: store only a change (6.18 stores every pass) */
	if (READ_ONCE(wb->dirty_exceeded) != gdtc->dirty_exceeded)
		WRITE_ONCE_BDI(wb->dirty_exceeded, gdtc->dirty_exceeded);
	if (time_is_before_jiffies(READ_ONCE(wb->bw_time_stamp) +
				   BANDWIDTH_INTERVAL))
		__wb_update_bandwidth(gdtc, NULL, true);

	/* throttle according to the chosen dtc */
	dirty_ratelimit = READ_ONCE(wb->dirty_ratelimit);
	task_ratelimit = ((u64)dirty_ratelimit * sdtc->pos_ratio) >>
						RATELIMIT_CALC_SHIFT;
	max_pause = (long)wb_max_pause(wb, sdtc->wb_dirty);
	min_pause = wb_min_pause(wb, max_pause,
				 task_ratelimit, dirty_ratelimit,
				 &nr_dirtied_pause);

	if (unlikely(task_ratelimit == 0)) {
		period = max_pause;
		pause = max_pause;
		goto pause;
	}
	period = (long)(HZ * pages_dirtied / task_ratelimit);
	pause = period;
	if (current->dirty_paused_when)
		pause -= (long)(now - current->dirty_paused_when);
	/*
	 * For less than 1s think time (ext3/4 may block the dirtier
	 * for up to 800ms from time to time on 1-HDD; so does xfs,
	 * however at much less frequency), try to compensate it in
	 * future periods by updating the virtual time; otherwise just
	 * do a reset, as it may be a light dirtier.
	 */
	if (pause < min_pause) {
		if (pause < -HZ) {
			current->dirty_paused_when = now;
			current->nr_dirtied = 0;
		} else if (period) {
			current->dirty_paused_when += (unsigned long)period;
			current->nr_dirtied = 0;
		} else if ((unsigned long)current->nr_dirtied_pause <= pages_dirtied)
			current->nr_dirtied_pause += (int)pages_dirtied;
		return -1;	/* break */
	}
	if (unlikely(pause > max_pause)) {
		/* for occasional dropped task_ratelimit */
		now += (unsigned long)min(pause - max_pause, max_pause);
		pause = max_pause;
	}

pause:
	if (current->bdp.flags & BDP_ASYNC) {
		current->bdp.ret = -EAGAIN;
		return -1;	/* break */
	}
	/* __set_current_state(TASK_KILLABLE): the caller sleeps */
	/* the experiment: store only a change (at most once a jiffy) */
	if (READ_ONCE(bdi->last_bdp_sleep) != jiffies)
		WRITE_ONCE_BDI(bdi->last_bdp_sleep, jiffies);
	current->bdp.sdtc = sdtc;
	current->bdp.now = now;
	current->bdp.pause = pause;
	current->bdp.task_ratelimit = task_ratelimit;
	current->bdp.nr_dirtied_pause = nr_dirtied_pause;
	return pause;	/* io_schedule_timeout(pause) */
}

MMSCALE_VARIANT_SYMBOL(bdp_6_18_store_if_changed, balance_dirty_pages_loop);
