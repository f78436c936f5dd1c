// SPDX-License-Identifier: GPL-2.0
/*
 * Dirty throttling of Linux 6.18: mm/page-writeback.c of
 * ../shared/kernel/6.18 (blob 757bc4d3), line by line, in the
 * configuration include/mmscale/linux-6.18/mm/writeback.h names (no
 * CONFIG_CGROUP_WRITEBACK, no HIGHMEM):
 * - the globals and sysctls (68-120), global_dirtyable_memory (325-341),
 *   domain_dirty_limits (355-419), global_dirty_limits (428-437);
 * - the completions' period (549-640: wp_next_time, wb_domain_writeout_add,
 *   __wb_writeout_add, wb_writeout_inc, writeout_period, wb_domain_init);
 * - wb_min_max_ratio (218-223), dirty_freerun_ceiling, hard_dirty_limit,
 *   domain_dirty_avail (821-880, its global branch), __wb_calc_thresh and
 *   wb_calc_thresh (900-951), pos_ratio_polynom and wb_position_ratio
 *   (979-1232), the bandwidth and ratelimit updates (1234-1540),
 *   dirty_poll_interval, wb_max_pause and wb_min_pause (1565-1666),
 *   wb_dirty_limits to balance_wb_limits (1668-1808);
 * - balance_dirty_pages (1810-2009), split where it sleeps (the header
 *   says how), balance_dirty_pages_ratelimited_flags (2046-2109) and
 *   writeback_set_ratelimit (2245-2256);
 * - built for the throttle world only (MMSCALE_WB_6_18_WORLD, at the end):
 *   the flusher's side, wb_update_bandwidth and wb_bandwidth_estimate_start
 *   (1532-1555), wb_over_bg_thresh (2121-2172), do_writepages (2593-2629)
 *   and the inode writeback count (2963-2981).
 * And mm/backing-dev.c's bdi_init and wb_init for the fields these read.
 *
 * Emulated, beside the header's configuration:
 * - fields other CPUs read while one writes (wb->dirty_exceeded,
 *   bdi->last_bdp_sleep, the bandwidths and stamps, dom->dirty_limit)
 *   are READ_ONCE/WRITE_ONCE where the kernel has plain accesses: the same
 *   single mov, atomic to ThreadSanitizer;
 * - rt_or_dl_task(current) is false: the tasks are SCHED_OTHER;
 * - the tracepoints are left out.
 */
#include <errno.h>
#include <limits.h>
#include <string.h>

#include "mmscale/kernel/percpu.h"
#include "mmscale/kernel/processor.h"
#ifdef MMSCALE_WB_6_18_WORLD
#include "mmscale/linux-6.18/mm/mmzone.h"	/* the items; the world keeps the counts */
#else
#include "mmscale/linux-6.18/mm/vmstat.h"
#endif
#include "mmscale/linux-6.18/mm/writeback.h"
#include "mmscale/mm/config.h"

/* The kernel mixes long and unsigned long in these comparisons; kept as it is. */
#pragma GCC diagnostic ignored "-Wsign-compare"

#define rt_or_dl_task(tsk)	((void)(tsk), 0)

/*
 * After a CPU has dirtied this many pages, balance_dirty_pages_ratelimited
 * will look to see if it needs to force writeback or throttling.
 */
long ratelimit_pages = 32;

/* The following parameters are exported via /proc/sys/vm */

/*
 * Start background writeback (via writeback threads) at this percentage
 */
int dirty_background_ratio = 10;

/*
 * dirty_background_bytes starts at 0 (disabled) so that it is a function of
 * dirty_background_ratio * the amount of dirtyable memory
 */
unsigned long dirty_background_bytes;

/*
 * The generator of dirty data starts writeback at this percentage
 */
int vm_dirty_ratio = 20;

/*
 * vm_dirty_bytes starts at 0 (disabled) so that it is a function of
 * vm_dirty_ratio * the amount of dirtyable memory
 */
unsigned long vm_dirty_bytes;

/*
 * Flag that puts the machine in "laptop mode". Doubles as a timeout in jiffies:
 * a full sync is triggered after this time elapses without any disk activity.
 */
int laptop_mode;

/* End of sysctl-exported parameters */

/* The kernel's is static data; the environment allocates it (on node 0). */
struct wb_domain *global_wb_domain;

/*
 * mm/page_alloc.c's calculate_totalreserve_pages: each zone's largest
 * lowmem_reserve plus its high watermark. The environment sets it.
 */
unsigned long totalreserve_pages;

/*
 * bdi_min_ratio keeps the sum of the minimum dirty shares of all
 * registered backing devices (654): none here sets one.
 */
static unsigned int bdi_min_ratio;

int *bdp_ratelimits;
int *dirty_throttle_leaks;

void writeback_6_18_reset(void)
{
	ratelimit_pages = 32;
	dirty_background_ratio = 10;
	dirty_background_bytes = 0;
	vm_dirty_ratio = 20;
	vm_dirty_bytes = 0;
	laptop_mode = 0;
	totalreserve_pages = 0;
}

/*
 * Length of period for aging writeout fractions of bdis. This is an
 * arbitrarily chosen number. The longer the period, the slower fractions will
 * reflect changes in current writeout rate.
 */
#define VM_COMPLETIONS_PERIOD_LEN (3*HZ)

/* Without CONFIG_CGROUP_WRITEBACK (191-225): one domain, no memcg dtc. */
#define GDTC_INIT(__wb)		.wb = (__wb),				\
				.wb_completions = &(__wb)->completions

/*
 * The kernel's &global_wb_domain is a link-time constant; here it is a
 * pointer the environment sets (one more load of a read-mostly global).
 */
static struct wb_domain *dtc_dom(struct dirty_throttle_control *dtc)
{
	(void)dtc;
	return global_wb_domain;
}

static struct dirty_throttle_control *mdtc_gdtc(struct dirty_throttle_control *mdtc)
{
	(void)mdtc;
	return NULL;
}

static void wb_min_max_ratio(struct bdi_writeback *wb,
			     unsigned long *minp, unsigned long *maxp)
{
	*minp = wb->bdi->min_ratio;
	*maxp = wb->bdi->max_ratio;
}

/*
 * global_dirtyable_memory - number of globally dirtyable pages
 * (highmem_dirtyable_memory is 0 without CONFIG_HIGHMEM)
 */
static unsigned long global_dirtyable_memory(void)
{
	unsigned long x;

	x = global_zone_page_state(NR_FREE_PAGES);
	/*
	 * Pages reserved for the kernel should not be considered
	 * dirtyable, to prevent a situation where reclaim has to
	 * clean pages in order to balance the zones.
	 */
	x -= min(x, totalreserve_pages);

	x += global_node_page_state(NR_INACTIVE_FILE);
	x += global_node_page_state(NR_ACTIVE_FILE);

	return x + 1;	/* Ensure that we never return 0 */
}

/*
 * domain_dirty_limits - calculate thresh and bg_thresh for a wb_domain
 * (the memcg branch, gdtc != NULL, is never taken here)
 */
void domain_dirty_limits(struct dirty_throttle_control *dtc)
{
	const unsigned long available_memory = dtc->avail;
	struct dirty_throttle_control *gdtc = mdtc_gdtc(dtc);
	unsigned long bytes = vm_dirty_bytes;
	unsigned long bg_bytes = dirty_background_bytes;
	/* convert ratios to per-PAGE_SIZE for higher precision */
	unsigned long ratio = (vm_dirty_ratio * PAGE_SIZE) / 100;
	unsigned long bg_ratio = (dirty_background_ratio * PAGE_SIZE) / 100;
	unsigned long thresh;
	unsigned long bg_thresh;
	struct task_6_18 *tsk;

	(void)gdtc;
	if (bytes)
		thresh = DIV_ROUND_UP(bytes, PAGE_SIZE);
	else
		thresh = (ratio * available_memory) / PAGE_SIZE;

	if (bg_bytes)
		bg_thresh = DIV_ROUND_UP(bg_bytes, PAGE_SIZE);
	else
		bg_thresh = (bg_ratio * available_memory) / PAGE_SIZE;

	tsk = current;
	if (rt_or_dl_task(tsk)) {
		bg_thresh += bg_thresh / 4 + global_wb_domain->dirty_limit / 32;
		thresh += thresh / 4 + global_wb_domain->dirty_limit / 32;
	}
	/*
	 * Dirty throttling logic assumes the limits in page units fit into
	 * 32-bits. This gives 16TB dirty limits max which is hopefully enough.
	 */
	if (thresh > UINT_MAX)
		thresh = UINT_MAX;
	/* This makes sure bg_thresh is within 32-bits as well */
	if (bg_thresh >= thresh)
		bg_thresh = thresh / 2;
	dtc->thresh = thresh;
	dtc->bg_thresh = bg_thresh;
}

/*
 * global_dirty_limits - background-writeback and dirty-throttling thresholds
 */
void global_dirty_limits(unsigned long *pbackground, unsigned long *pdirty)
{
	struct dirty_throttle_control gdtc = { 0 };

	gdtc.avail = global_dirtyable_memory();
	domain_dirty_limits(&gdtc);

	*pbackground = gdtc.bg_thresh;
	*pdirty = gdtc.thresh;
}

static unsigned long wp_next_time(unsigned long cur_time)
{
	cur_time += VM_COMPLETIONS_PERIOD_LEN;
	/* 0 has a special meaning... */
	if (!cur_time)
		return 1;
	return cur_time;
}

static void wb_domain_writeout_add(struct wb_domain *dom,
				   struct fprop_local_percpu *completions,
				   unsigned int max_prop_frac, long nr)
{
	__fprop_add_percpu_max_6_18(&dom->completions, completions,
				    (int)max_prop_frac, nr);
	/* First event after period switching was turned off? */
	if (unlikely(!READ_ONCE(dom->period_time))) {
		/*
		 * We can race with other wb_domain_writeout_add calls here but
		 * it does not cause any harm since the resulting time when
		 * timer will fire and what is in writeout_period_time will be
		 * roughly the same.
		 */
		WRITE_ONCE(dom->period_time, wp_next_time(jiffies));
		wb_6_18_mod_period_timer(dom, dom->period_time);
	}
}

/*
 * Increment @wb's writeout completion count and the global writeout
 * completion count. Called from __folio_end_writeback().
 * (mem_cgroup_wb_domain is NULL without CONFIG_CGROUP_WRITEBACK.)
 */
static inline void __wb_writeout_add(struct bdi_writeback *wb, long nr)
{
	wb_stat_mod(wb, WB_WRITTEN, nr);
	wb_domain_writeout_add(global_wb_domain, &wb->completions,
			       wb->bdi->max_prop_frac, nr);
}

void wb_writeout_inc(struct bdi_writeback *wb)
{
	unsigned long flags;

	local_irq_save(flags);
	__wb_writeout_add(wb, 1);
	local_irq_restore(flags);
}

/*
 * On idle system, we can be called long after we scheduled because we use
 * deferred timers so count with missed periods.
 */
void writeout_period(struct wb_domain *dom)
{
	int miss_periods = (int)((jiffies - dom->period_time) /
				 VM_COMPLETIONS_PERIOD_LEN);

	if (fprop_new_period_6_18(&dom->completions, miss_periods + 1)) {
		WRITE_ONCE(dom->period_time, wp_next_time(dom->period_time +
				miss_periods * VM_COMPLETIONS_PERIOD_LEN));
		wb_6_18_mod_period_timer(dom, dom->period_time);
	} else {
		/*
		 * Aging has zeroed all fractions. Stop wasting CPU on period
		 * updates.
		 */
		WRITE_ONCE(dom->period_time, 0);
	}
}

int wb_domain_init(struct wb_domain *dom)
{
	memset(dom, 0, sizeof(*dom));

	spin_lock_init(&dom->lock);

	/* timer_setup(&dom->period_timer, writeout_period, TIMER_DEFERRABLE): the environment's */

	dom->dirty_limit_tstamp = jiffies;

	return fprop_global_init_6_18(&dom->completions);
}

void wb_domain_exit(struct wb_domain *dom)
{
	fprop_global_destroy_6_18(&dom->completions);
}

static unsigned long dirty_freerun_ceiling(unsigned long thresh,
					   unsigned long bg_thresh)
{
	return (thresh + bg_thresh) / 2;
}

static unsigned long hard_dirty_limit(struct wb_domain *dom,
				      unsigned long thresh)
{
	return max(thresh, READ_ONCE(dom->dirty_limit));
}

static inline bool dtc_is_global(struct dirty_throttle_control *dtc)
{
	return mdtc_gdtc(dtc) == NULL;
}

/*
 * Dirty background will ignore pages being written as we're trying to
 * decide whether to put more under writeback.
 */
static void domain_dirty_avail(struct dirty_throttle_control *dtc,
			       bool include_writeback)
{
	if (dtc_is_global(dtc)) {
		dtc->avail = global_dirtyable_memory();
		dtc->dirty = global_node_page_state(NR_FILE_DIRTY);
		if (include_writeback)
			dtc->dirty += global_node_page_state(NR_WRITEBACK);
	}
	/* else: mem_cgroup_wb_stats and mdtc_calc_avail, never here */
}

/*
 * __wb_calc_thresh - @wb's share of dirty threshold
 */
unsigned long __wb_calc_thresh(struct dirty_throttle_control *dtc,
			       unsigned long thresh)
{
	struct wb_domain *dom = dtc_dom(dtc);
	struct bdi_writeback *wb = dtc->wb;
	u64 wb_thresh;
	u64 wb_max_thresh;
	unsigned long numerator, denominator;
	unsigned long wb_min_ratio, wb_max_ratio;

	/*
	 * Calculate this wb's share of the thresh ratio.
	 */
	fprop_fraction_percpu_6_18(&dom->completions, dtc->wb_completions,
				   &numerator, &denominator);

	wb_thresh = (thresh * (100 * BDI_RATIO_SCALE - bdi_min_ratio)) /
		    (100 * BDI_RATIO_SCALE);
	wb_thresh *= numerator;
	wb_thresh = div64_ul(wb_thresh, denominator);

	wb_min_max_ratio(wb, &wb_min_ratio, &wb_max_ratio);

	wb_thresh += (thresh * wb_min_ratio) / (100 * BDI_RATIO_SCALE);

	/*
	 * It's very possible that wb_thresh is close to 0 not because the
	 * device is slow, but that it has remained inactive for long time.
	 * Honour such devices a reasonable good (hopefully IO efficient)
	 * threshold, so that the occasional writes won't be blocked and active
	 * writes can rampup the threshold quickly.
	 */
	if (thresh > dtc->dirty) {
		if (unlikely(wb->bdi->capabilities & BDI_CAP_STRICTLIMIT))
			wb_thresh = max(wb_thresh, (u64)((thresh - dtc->dirty) / 100));
		else
			wb_thresh = max(wb_thresh, (u64)((thresh - dtc->dirty) / 8));
	}

	wb_max_thresh = thresh * wb_max_ratio / (100 * BDI_RATIO_SCALE);
	if (wb_thresh > wb_max_thresh)
		wb_thresh = wb_max_thresh;

	return (unsigned long)wb_thresh;
}

unsigned long wb_calc_thresh(struct bdi_writeback *wb, unsigned long thresh)
{
	struct dirty_throttle_control gdtc = { GDTC_INIT(wb) };

	domain_dirty_avail(&gdtc, true);
	return __wb_calc_thresh(&gdtc, thresh);
}

/*
 *                           setpoint - dirty 3
 *        f(dirty) := 1.0 + (----------------)
 *                           limit - setpoint
 *
 * it's a 3rd order polynomial that subjects to
 *
 * (1) f(freerun)  = 2.0 => rampup dirty_ratelimit reasonably fast
 * (2) f(setpoint) = 1.0 => the balance point
 * (3) f(limit)    = 0   => the hard limit
 * (4) df/dx      <= 0	 => negative feedback control
 * (5) the closer to setpoint, the smaller |df/dx| (and the reverse)
 *     => fast response on large errors; small oscillation near setpoint
 */
long long pos_ratio_polynom(unsigned long setpoint,
			    unsigned long dirty,
			    unsigned long limit)
{
	long long pos_ratio;
	long x;

	/*
	 * The kernel shifts the signed difference left; its build
	 * (-fno-strict-overflow) makes that two's complement, which C leaves
	 * undefined for a negative value: the same bits, shifted unsigned.
	 */
	x = div64_s64((s64)((u64)((s64)setpoint - (s64)dirty) << RATELIMIT_CALC_SHIFT),
		      (s64)((limit - setpoint) | 1));
	pos_ratio = x;
	pos_ratio = pos_ratio * x >> RATELIMIT_CALC_SHIFT;
	pos_ratio = pos_ratio * x >> RATELIMIT_CALC_SHIFT;
	pos_ratio += 1 << RATELIMIT_CALC_SHIFT;

	return clamp_t(long long, pos_ratio, 0LL, 2LL << RATELIMIT_CALC_SHIFT);
}

/*
 * Dirty position control (page-writeback.c 1003-1070 draw the global and
 * the wb control lines this computes).
 */
void wb_position_ratio(struct dirty_throttle_control *dtc)
{
	struct bdi_writeback *wb = dtc->wb;
	unsigned long write_bw = READ_ONCE(wb->avg_write_bandwidth);
	unsigned long freerun = dirty_freerun_ceiling(dtc->thresh, dtc->bg_thresh);
	unsigned long limit = dtc->limit = hard_dirty_limit(dtc_dom(dtc), dtc->thresh);
	unsigned long wb_thresh = dtc->wb_thresh;
	unsigned long x_intercept;
	unsigned long setpoint;		/* dirty pages' target balance point */
	unsigned long wb_setpoint;
	unsigned long span;
	long long pos_ratio;		/* for scaling up/down the rate limit */
	long x;

	dtc->pos_ratio = 0;

	if (unlikely(dtc->dirty >= limit))
		return;

	/*
	 * global setpoint
	 *
	 * See comment for pos_ratio_polynom().
	 */
	setpoint = (freerun + limit) / 2;
	pos_ratio = pos_ratio_polynom(setpoint, dtc->dirty, limit);

	/*
	 * The strictlimit feature is a tool preventing mistrusted filesystems
	 * from growing a large number of dirty pages before throttling. For
	 * such filesystems balance_dirty_pages always checks wb counters
	 * against wb limits. Even if global "nr_dirty" is under "freerun".
	 * (1098-1120 give the example of fuse's 1% max_ratio.)
	 */
	if (unlikely(wb->bdi->capabilities & BDI_CAP_STRICTLIMIT)) {
		long long wb_pos_ratio;

		if (dtc->wb_dirty >= wb_thresh)
			return;

		wb_setpoint = dirty_freerun_ceiling(wb_thresh,
						    dtc->wb_bg_thresh);

		if (wb_setpoint == 0 || wb_setpoint == wb_thresh)
			return;

		wb_pos_ratio = pos_ratio_polynom(wb_setpoint, dtc->wb_dirty,
						 wb_thresh);

		/*
		 * Typically, for strictlimit case, wb_setpoint << setpoint
		 * and pos_ratio >> wb_pos_ratio; min() gives the global
		 * pos_ratio precedence where global limits are exceeded
		 * (1136-1157).
		 */
		dtc->pos_ratio = (unsigned long)min(pos_ratio, wb_pos_ratio);
		return;
	}

	/*
	 * We have computed basic pos_ratio above based on global situation. If
	 * the wb is over/under its share of dirty pages, we want to scale
	 * pos_ratio further down/up. That is done by the following mechanism.
	 */

	/*
	 * wb setpoint
	 *
	 *        f(wb_dirty) := 1.0 + k * (wb_dirty - wb_setpoint)
	 *
	 *                        x_intercept - wb_dirty
	 *                     := --------------------------
	 *                        x_intercept - wb_setpoint
	 *
	 * The main wb control line is a linear function that subjects to
	 *
	 * (1) f(wb_setpoint) = 1.0
	 * (2) k = - 1 / (8 * write_bw)  (in single wb case)
	 *     or equally: x_intercept = wb_setpoint + 8 * write_bw
	 *
	 * For JBOD case, wb_thresh (not wb_dirty!) could fluctuate up to its
	 * own size, so move the slope over accordingly and choose a slope that
	 * yields 100% pos_ratio fluctuation on suddenly doubled wb_thresh.
	 */
	if (unlikely(wb_thresh > dtc->thresh))
		wb_thresh = dtc->thresh;
	/*
	 * scale global setpoint to wb's:
	 *	wb_setpoint = setpoint * wb_thresh / thresh
	 */
	x = (long)div_u64((u64)wb_thresh << 16, (u32)(dtc->thresh | 1));
	wb_setpoint = setpoint * (u64)x >> 16;
	/*
	 * Use span=(8*write_bw) in single wb case as indicated by
	 * (thresh - wb_thresh ~= 0) and transit to wb_thresh in JBOD case.
	 *
	 *        wb_thresh                    thresh - wb_thresh
	 * span = --------- * (8 * write_bw) + ------------------ * wb_thresh
	 *         thresh                           thresh
	 */
	span = (dtc->thresh - wb_thresh + 8 * write_bw) * (u64)x >> 16;
	x_intercept = wb_setpoint + span;

	if (dtc->wb_dirty < x_intercept - span / 4) {
		pos_ratio = (long long)div64_u64((u64)pos_ratio * (x_intercept - dtc->wb_dirty),
						 (x_intercept - wb_setpoint) | 1);
	} else
		pos_ratio /= 4;

	/*
	 * wb reserve area, safeguard against dirty pool underrun and disk idle
	 * It may push the desired control point of global dirty pages higher
	 * than setpoint.
	 */
	x_intercept = wb_thresh / 2;
	if (dtc->wb_dirty < x_intercept) {
		if (dtc->wb_dirty > x_intercept / 8)
			pos_ratio = (long long)div_u64((u64)pos_ratio * x_intercept,
						       (u32)dtc->wb_dirty);
		else
			pos_ratio *= 8;
	}

	dtc->pos_ratio = (unsigned long)pos_ratio;
}

static void wb_update_write_bandwidth(struct bdi_writeback *wb,
				      unsigned long elapsed,
				      unsigned long written)
{
	const unsigned long period = roundup_pow_of_two(3 * HZ);
	unsigned long avg = wb->avg_write_bandwidth;
	unsigned long old = wb->write_bandwidth;
	u64 bw;

	/*
	 * bw = written * HZ / elapsed
	 *
	 *                   bw * elapsed + write_bandwidth * (period - elapsed)
	 * write_bandwidth = ---------------------------------------------------
	 *                                          period
	 *
	 * @written may have decreased due to folio_redirty_for_writepage().
	 * Avoid underflowing @bw calculation.
	 */
	bw = written - min(written, wb->written_stamp);
	bw *= HZ;
	if (unlikely(elapsed > period)) {
		bw = div64_ul(bw, elapsed);
		avg = (unsigned long)bw;
		goto out;
	}
	bw += (u64)wb->write_bandwidth * (period - elapsed);
	bw >>= ilog2(period);

	/*
	 * one more level of smoothing, for filtering out sudden spikes
	 */
	if (avg > old && old >= (unsigned long)bw)
		avg -= (avg - old) >> 3;

	if (avg < old && old <= (unsigned long)bw)
		avg += (old - avg) >> 3;

out:
	/* keep avg > 0 to guarantee that tot > 0 if there are dirty wbs */
	avg = max(avg, 1LU);
	if (wb_has_dirty_io(wb)) {
		long delta = (long)(avg - wb->avg_write_bandwidth);

		atomic_fetch_add(&wb->bdi->tot_write_bandwidth, delta);
	}
	wb->write_bandwidth = (unsigned long)bw;
	WRITE_ONCE(wb->avg_write_bandwidth, avg);
}

static void update_dirty_limit(struct dirty_throttle_control *dtc)
{
	struct wb_domain *dom = dtc_dom(dtc);
	unsigned long thresh = dtc->thresh;
	unsigned long limit = dom->dirty_limit;

	/*
	 * Follow up in one step.
	 */
	if (limit < thresh) {
		limit = thresh;
		goto update;
	}

	/*
	 * Follow down slowly. Use the higher one as the target, because thresh
	 * may drop below dirty. This is exactly the reason to introduce
	 * dom->dirty_limit which is guaranteed to lie above the dirty pages.
	 */
	thresh = max(thresh, dtc->dirty);
	if (limit > thresh) {
		limit -= (limit - thresh) >> 5;
		goto update;
	}
	return;
update:
	WRITE_ONCE(dom->dirty_limit, limit);
}

static void domain_update_dirty_limit(struct dirty_throttle_control *dtc,
				      unsigned long now)
{
	struct wb_domain *dom = dtc_dom(dtc);

	/*
	 * check locklessly first to optimize away locking for the most time
	 */
	if (time_before(now, READ_ONCE(dom->dirty_limit_tstamp) + BANDWIDTH_INTERVAL))
		return;

	spin_lock(&dom->lock);
	if (time_after_eq(now, dom->dirty_limit_tstamp + BANDWIDTH_INTERVAL)) {
		update_dirty_limit(dtc);
		WRITE_ONCE(dom->dirty_limit_tstamp, now);
	}
	spin_unlock(&dom->lock);
}

/*
 * Maintain wb->dirty_ratelimit, the base dirty throttle rate.
 *
 * Normal wb tasks will be curbed at or below it in long term.
 * Obviously it should be around (write_bw / N) when there are N dd tasks.
 * (1370-1429 derive the balanced rate; 1431-1452 the step's filter.)
 */
void wb_update_dirty_ratelimit(struct dirty_throttle_control *dtc,
			       unsigned long dirtied,
			       unsigned long elapsed)
{
	struct bdi_writeback *wb = dtc->wb;
	unsigned long dirty = dtc->dirty;
	unsigned long freerun = dirty_freerun_ceiling(dtc->thresh, dtc->bg_thresh);
	unsigned long limit = hard_dirty_limit(dtc_dom(dtc), dtc->thresh);
	unsigned long setpoint = (freerun + limit) / 2;
	unsigned long write_bw = wb->avg_write_bandwidth;
	unsigned long dirty_ratelimit = wb->dirty_ratelimit;
	unsigned long dirty_rate;
	unsigned long task_ratelimit;
	unsigned long balanced_dirty_ratelimit;
	unsigned long step;
	unsigned long x;
	unsigned long shift;

	/*
	 * The dirty rate will match the writeout rate in long term, except
	 * when dirty pages are truncated by userspace or re-dirtied by FS.
	 */
	dirty_rate = (dirtied - wb->dirtied_stamp) * HZ / elapsed;

	/*
	 * task_ratelimit reflects each dd's dirty rate for the past 200ms.
	 */
	task_ratelimit = (u64)dirty_ratelimit *
					dtc->pos_ratio >> RATELIMIT_CALC_SHIFT;
	task_ratelimit++; /* it helps rampup dirty_ratelimit from tiny values */

	/*
	 * A linear estimation of the "balanced" throttle rate: with N dd
	 * tasks each throttled at task_ratelimit, the wb's dirty_rate is
	 * N * task_ratelimit, and this yields write_bw / N.
	 */
	balanced_dirty_ratelimit = (unsigned long)div_u64((u64)task_ratelimit * write_bw,
							  (u32)(dirty_rate | 1));
	/*
	 * balanced_dirty_ratelimit ~= (write_bw / N) <= write_bw
	 */
	if (unlikely(balanced_dirty_ratelimit > write_bw))
		balanced_dirty_ratelimit = write_bw;

	/*
	 * dirty_ratelimit will follow balanced_dirty_ratelimit iff
	 * task_ratelimit is on the same side of dirty_ratelimit, too.
	 */
	step = 0;

	/*
	 * For strictlimit case, calculations above were based on wb counters
	 * and limits (starting from pos_ratio = wb_position_ratio() and up to
	 * balanced_dirty_ratelimit = task_ratelimit * write_bw / dirty_rate).
	 * Hence, to calculate "step" properly, we have to use wb_dirty as
	 * "dirty" and wb_setpoint as "setpoint".
	 */
	if (unlikely(wb->bdi->capabilities & BDI_CAP_STRICTLIMIT)) {
		dirty = dtc->wb_dirty;
		setpoint = (dtc->wb_thresh + dtc->wb_bg_thresh) / 2;
	}

	if (dirty < setpoint) {
		x = min(min(wb->balanced_dirty_ratelimit,
			    balanced_dirty_ratelimit), task_ratelimit);	/* min3 */
		if (dirty_ratelimit < x)
			step = x - dirty_ratelimit;
	} else {
		x = max(max(wb->balanced_dirty_ratelimit,
			    balanced_dirty_ratelimit), task_ratelimit);	/* max3 */
		if (dirty_ratelimit > x)
			step = dirty_ratelimit - x;
	}

	/*
	 * Don't pursue 100% rate matching. It's impossible since the balanced
	 * rate itself is constantly fluctuating. So decrease the track speed
	 * when it gets close to the target. Helps eliminate pointless tremors.
	 */
	shift = dirty_ratelimit / (2 * step + 1);
	if (shift < BITS_PER_LONG)
		step = DIV_ROUND_UP(step >> shift, 8);
	else
		step = 0;

	if (dirty_ratelimit < balanced_dirty_ratelimit)
		dirty_ratelimit += step;
	else
		dirty_ratelimit -= step;

	WRITE_ONCE(wb->dirty_ratelimit, max(dirty_ratelimit, 1UL));
	wb->balanced_dirty_ratelimit = balanced_dirty_ratelimit;
}

void __wb_update_bandwidth(struct dirty_throttle_control *gdtc,
				  struct dirty_throttle_control *mdtc,
				  bool update_ratelimit)
{
	struct bdi_writeback *wb = gdtc->wb;
	unsigned long now = jiffies;
	unsigned long elapsed;
	unsigned long dirtied;
	unsigned long written;

	(void)mdtc;	/* always NULL without CONFIG_CGROUP_WRITEBACK */
	spin_lock(&wb->list_lock);

	/*
	 * Lockless checks for elapsed time are racy and delayed update after
	 * IO completion doesn't do it at all (to make sure written pages are
	 * accounted reasonably quickly). Make sure elapsed >= 1 to avoid
	 * division errors.
	 */
	elapsed = max(now - wb->bw_time_stamp, 1UL);
	dirtied = (unsigned long)percpu_counter_read(&wb->stat[WB_DIRTIED]);
	written = (unsigned long)percpu_counter_read(&wb->stat[WB_WRITTEN]);

	if (update_ratelimit) {
		domain_update_dirty_limit(gdtc, now);
		wb_update_dirty_ratelimit(gdtc, dirtied, elapsed);
	}
	wb_update_write_bandwidth(wb, elapsed, written);

	wb->dirtied_stamp = dirtied;
	wb->written_stamp = written;
	WRITE_ONCE(wb->bw_time_stamp, now);
	spin_unlock(&wb->list_lock);
}

/*
 * After a task dirtied this many pages, balance_dirty_pages_ratelimited()
 * will look to see if it needs to start dirty throttling.
 *
 * If dirty_poll_interval is too low, big NUMA machines will call the expensive
 * global_zone_page_state() too often. So scale it near-sqrt to the safety margin
 * (the number of pages we may dirty without exceeding the dirty limits).
 */
unsigned long dirty_poll_interval(unsigned long dirty, unsigned long thresh)
{
	if (thresh > dirty)
		return 1UL << (ilog2(thresh - dirty) >> 1);

	return 1;
}

unsigned long wb_max_pause(struct bdi_writeback *wb, unsigned long wb_dirty)
{
	unsigned long bw = READ_ONCE(wb->avg_write_bandwidth);
	unsigned long t;

	/*
	 * Limit pause time for small memory systems. If sleeping for too long
	 * time, a small pool of dirty/writeback pages may go empty and disk go
	 * idle.
	 *
	 * 8 serves as the safety ratio.
	 */
	t = wb_dirty / (1 + bw / roundup_pow_of_two(1 + HZ / 8));
	t++;

	return min_t(unsigned long, t, MAX_PAUSE);
}

long wb_min_pause(struct bdi_writeback *wb,
		  long max_pause,
		  unsigned long task_ratelimit,
		  unsigned long dirty_ratelimit,
		  int *nr_dirtied_pause)
{
	long hi = ilog2(READ_ONCE(wb->avg_write_bandwidth));
	long lo = ilog2(READ_ONCE(wb->dirty_ratelimit));
	long t;		/* target pause */
	long pause;	/* estimated next pause */
	int pages;	/* target nr_dirtied_pause */

	/* target for 10ms pause on 1-dd case */
	t = max(1, HZ / 100);

	/*
	 * Scale up pause time for concurrent dirtiers in order to reduce CPU
	 * overheads.
	 *
	 * (N * 10ms) on 2^N concurrent tasks.
	 */
	if (hi > lo)
		t += (hi - lo) * (10 * HZ) / 1024;

	/*
	 * Try to base the next nr_dirtied_pause on the stabler
	 * dirty_ratelimit (rules 1 and 2 of 1621-1636):
	 * 1) use a lower nr_dirtied_pause so as not to exceed max_pause;
	 * 2) limit the target pause time to max_pause/2.
	 */
	t = min(t, 1 + max_pause / 2);
	pages = (int)(dirty_ratelimit * t / roundup_pow_of_two(HZ));

	/*
	 * Tiny nr_dirtied_pause is found to hurt I/O performance in the test
	 * case fio-mmap-randwrite-64k, which does 16*{sync read, async write}.
	 * When the 16 consecutive reads are often interrupted by some dirty
	 * throttling pause during the async writes, cfq will go into idles
	 * (deadline is fine). So push nr_dirtied_pause as high as possible
	 * until reaches DIRTY_POLL_THRESH=32 pages.
	 */
	if (pages < DIRTY_POLL_THRESH) {
		t = max_pause;
		pages = (int)(dirty_ratelimit * t / roundup_pow_of_two(HZ));
		if (pages > DIRTY_POLL_THRESH) {
			pages = DIRTY_POLL_THRESH;
			t = (long)(HZ * DIRTY_POLL_THRESH / dirty_ratelimit);
		}
	}

	pause = (long)(HZ * pages / (task_ratelimit + 1));
	if (pause > max_pause) {
		t = max_pause;
		pages = (int)(task_ratelimit * t / roundup_pow_of_two(HZ));
	}

	*nr_dirtied_pause = pages;
	/*
	 * The minimal pause time will normally be half the target pause time.
	 */
	return pages >= DIRTY_POLL_THRESH ? 1 + t / 2 : t;
}

static inline void wb_dirty_limits(struct dirty_throttle_control *dtc)
{
	struct bdi_writeback *wb = dtc->wb;
	unsigned long wb_reclaimable;

	/*
	 * wb_thresh is not treated as some limiting factor as
	 * dirty_thresh (1672-1684 say why: JBOD, and a USB key that starts
	 * high); the auxiliary wb control line in wb_position_ratio() lets
	 * the dirtier progress at some rate <= (write_bw / 2) instead.
	 */
	dtc->wb_thresh = __wb_calc_thresh(dtc, dtc->thresh);
	dtc->wb_bg_thresh = dtc->thresh ?
		(unsigned long)div_u64((u64)dtc->wb_thresh * dtc->bg_thresh,
				       (u32)dtc->thresh) : 0;

	/*
	 * In order to avoid the stacked BDI deadlock we need
	 * to ensure we accurately count the 'dirty' pages when
	 * the threshold is low.
	 *
	 * Otherwise it would be possible to get thresh+n pages
	 * reported dirty, even though there are thresh-m pages
	 * actually dirty; with m+n sitting in the percpu
	 * deltas.
	 */
	if (dtc->wb_thresh < 2 * wb_stat_error()) {
		wb_reclaimable = (unsigned long)wb_stat_sum(wb, WB_RECLAIMABLE);
		dtc->wb_dirty = wb_reclaimable + (unsigned long)wb_stat_sum(wb, WB_WRITEBACK);
	} else {
		wb_reclaimable = (unsigned long)wb_stat(wb, WB_RECLAIMABLE);
		dtc->wb_dirty = wb_reclaimable + (unsigned long)wb_stat(wb, WB_WRITEBACK);
	}
}

unsigned long domain_poll_intv(struct dirty_throttle_control *dtc,
				      bool strictlimit)
{
	unsigned long dirty, thresh;

	if (strictlimit) {
		dirty = dtc->wb_dirty;
		thresh = dtc->wb_thresh;
	} else {
		dirty = dtc->dirty;
		thresh = dtc->thresh;
	}

	return dirty_poll_interval(dirty, thresh);
}

/*
 * Throttle it only when the background writeback cannot catch-up. This avoids
 * (excessively) small writeouts when the wb limits are ramping up in case of
 * !strictlimit.
 *
 * In strictlimit case make decision based on the wb counters and limits. Small
 * writeouts when the wb limits are ramping up are the price we consciously pay
 * for strictlimit-ing.
 */
static void domain_dirty_freerun(struct dirty_throttle_control *dtc,
				 bool strictlimit)
{
	unsigned long dirty, thresh, bg_thresh;

	if (unlikely(strictlimit)) {
		wb_dirty_limits(dtc);
		dirty = dtc->wb_dirty;
		thresh = dtc->wb_thresh;
		bg_thresh = dtc->wb_bg_thresh;
	} else {
		dirty = dtc->dirty;
		thresh = dtc->thresh;
		bg_thresh = dtc->bg_thresh;
	}
	dtc->freerun = dirty <= dirty_freerun_ceiling(thresh, bg_thresh);
}

void balance_domain_limits(struct dirty_throttle_control *dtc,
				  bool strictlimit)
{
	domain_dirty_avail(dtc, true);
	domain_dirty_limits(dtc);
	domain_dirty_freerun(dtc, strictlimit);
}

static void wb_dirty_freerun(struct dirty_throttle_control *dtc,
			     bool strictlimit)
{
	dtc->freerun = false;

	/* was already handled in domain_dirty_freerun */
	if (strictlimit)
		return;

	wb_dirty_limits(dtc);
	/*
	 * LOCAL_THROTTLE tasks must not be throttled when below the per-wb
	 * freerun ceiling.
	 */
	if (!(current->flags & PF_LOCAL_THROTTLE))
		return;

	dtc->freerun = dtc->wb_dirty <
		       dirty_freerun_ceiling(dtc->wb_thresh, dtc->wb_bg_thresh);
}

static inline void wb_dirty_exceeded(struct dirty_throttle_control *dtc,
				     bool strictlimit)
{
	dtc->dirty_exceeded = (dtc->wb_dirty > dtc->wb_thresh) &&
		((dtc->dirty > dtc->thresh) || strictlimit);
}

/*
 * The limits fields dirty_exceeded and pos_ratio won't be updated if wb is
 * in freerun state. Please don't use these invalid fields in freerun case.
 */
void balance_wb_limits(struct dirty_throttle_control *dtc,
			      bool strictlimit)
{
	wb_dirty_freerun(dtc, strictlimit);
	if (dtc->freerun)
		return;

	wb_dirty_exceeded(dtc, strictlimit);
	wb_position_ratio(dtc);
}

/*
 * balance_dirty_pages() must be called by processes which are generating dirty
 * data.  It looks at the number of dirty pages in the machine and will force
 * the caller to wait once crossing the (background_thresh + dirty_thresh) / 2.
 * If we're over `background_thresh' then the writeback threads are woken to
 * perform some writeout.
 *
 * Lines 1810-2009, the loop's body up to io_schedule_timeout (1979): the
 * pause to sleep, or -1 when the loop ends (the header says how). A
 * variant of 6.18's call is a copy of this function (docs/adding-a-variant.md).
 */
long balance_dirty_pages_loop(struct bdi_writeback *wb)
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
	WRITE_ONCE_BDI(bdi->last_bdp_sleep, jiffies);
	current->bdp.sdtc = sdtc;
	current->bdp.now = now;
	current->bdp.pause = pause;
	current->bdp.task_ratelimit = task_ratelimit;
	current->bdp.nr_dirtied_pause = nr_dirtied_pause;
	return pause;	/* io_schedule_timeout(pause) */
}

long balance_dirty_pages_variant(balance_dirty_pages_loop_fn loop, struct bdi_writeback *wb,
				 unsigned long pages_dirtied, unsigned int flags)
{
	current->bdp.loop = loop;
	memset(&current->bdp.gdtc, 0, sizeof(current->bdp.gdtc));
	current->bdp.gdtc.wb = wb;
	current->bdp.gdtc.wb_completions = &wb->completions;
	current->bdp.pages_dirtied = pages_dirtied;
	current->bdp.flags = flags;
	current->bdp.start_time = jiffies;
	current->bdp.ret = 0;
	return loop(wb);
}

long balance_dirty_pages(struct bdi_writeback *wb, unsigned long pages_dirtied,
			 unsigned int flags)
{
	return balance_dirty_pages_variant(balance_dirty_pages_loop, wb, pages_dirtied, flags);
}

/* Lines 1981-2006, after the sleep: leave, or loop again. */
long balance_dirty_pages_resume(struct bdi_writeback *wb)
{
	current->dirty_paused_when = current->bdp.now + (unsigned long)current->bdp.pause;
	current->nr_dirtied = 0;
	current->nr_dirtied_pause = current->bdp.nr_dirtied_pause;

	/*
	 * This is typically equal to (dirty < thresh) and can also
	 * keep "1000+ dd on a slow USB stick" under control.
	 */
	if (current->bdp.task_ratelimit)
		return -1;

	/*
	 * In the case of an unresponsive NFS server and the NFS dirty
	 * pages exceeds dirty_thresh, give the other good wb's a pipe
	 * to go through, so that tasks on them still remain responsive.
	 *
	 * In theory 1 page is enough to keep the consumer-producer
	 * pipe going: the flusher cleans 1 page => the task dirties 1
	 * more page. However wb_dirty has accounting errors.  So use
	 * the larger and more IO friendly wb_stat_error.
	 */
	if (current->bdp.sdtc->wb_dirty <= wb_stat_error())
		return -1;

	/* fatal_signal_pending(current): no signals */
	return current->bdp.loop(wb);
}

/*
 * balance_dirty_pages_ratelimited_flags - Balance dirty memory state
 * (inode_cgwb_enabled is false: the bdi's own wb; wb_put is nothing for it).
 */
long balance_dirty_pages_ratelimited_flags(struct backing_dev_info *bdi, unsigned int flags)
{
	struct bdi_writeback *wb = NULL;
	int ratelimit;
	int *p;

	current->bdp.ret = 0;
	if (!(bdi->capabilities & BDI_CAP_WRITEBACK))
		return -1;

	if (!wb)
		wb = &bdi->wb;

	ratelimit = current->nr_dirtied_pause;
	if (READ_ONCE(wb->dirty_exceeded))
		ratelimit = min(ratelimit, 32 >> (PAGE_SHIFT - 10));

	preempt_disable();
	/*
	 * This prevents one CPU to accumulate too many dirtied pages without
	 * calling into balance_dirty_pages(), which can happen when there are
	 * 1000+ tasks, all of them start dirtying pages at exactly the same
	 * time, hence all honoured too large initial task->nr_dirtied_pause.
	 */
	p = this_cpu_ptr(bdp_ratelimits);
	if (unlikely(current->nr_dirtied >= ratelimit))
		*p = 0;
	else if (unlikely(*p >= ratelimit_pages)) {
		*p = 0;
		ratelimit = 0;
	}
	/*
	 * Pick up the dirtied pages by the exited tasks. This avoids lots of
	 * short-lived tasks (eg. gcc invocations in a kernel build) escaping
	 * the dirty throttling and livelock other long-run dirtiers.
	 */
	p = this_cpu_ptr(dirty_throttle_leaks);
	if (*p > 0 && current->nr_dirtied < ratelimit) {
		unsigned long nr_pages_dirtied;

		nr_pages_dirtied = (unsigned long)min(*p, ratelimit - current->nr_dirtied);
		*p -= (int)nr_pages_dirtied;
		current->nr_dirtied += (int)nr_pages_dirtied;
	}
	preempt_enable();

	if (unlikely(current->nr_dirtied >= ratelimit))
		return balance_dirty_pages(wb, (unsigned long)current->nr_dirtied, flags);

	return -1;
}

/*
 * Here we set ratelimit_pages to a level which ensures that when all CPUs are
 * dirtying in parallel, we cannot go more than 3% (1/32) over the dirty memory
 * thresholds.
 */
void writeback_set_ratelimit(void)
{
	struct wb_domain *dom = global_wb_domain;
	unsigned long background_thresh;
	unsigned long dirty_thresh;

	global_dirty_limits(&background_thresh, &dirty_thresh);
	WRITE_ONCE(dom->dirty_limit, dirty_thresh);
	ratelimit_pages = (long)(dirty_thresh / (num_online_cpus() * 32));
	if (ratelimit_pages < 16)
		ratelimit_pages = 16;
	/* mmscale: --set ratelimit_pages=N (mm/config.h). */
	ratelimit_pages = MM_KNOB_OR(mm_config()->writeback_ratelimit_pages, ratelimit_pages);
}

/* mm/backing-dev.c of 6.18: bdi_init, wb_init (the header says which fields). */
int bdi_init_6_18(struct backing_dev_info *bdi)
{
	struct bdi_writeback *wb = &bdi->wb;

	memset(bdi, 0, sizeof(*bdi));
	bdi->refcnt = 1;
	bdi->last_bdp_sleep = jiffies;
	bdi->min_ratio = 0;
	bdi->max_ratio = 100 * BDI_RATIO_SCALE;
	bdi->max_prop_frac = FPROP_FRAC_BASE;
	bdi->capabilities = BDI_CAP_WRITEBACK | BDI_CAP_WRITEBACK_ACCT;
	INIT_LIST_HEAD(&bdi->bdi_list);
	INIT_LIST_HEAD(&bdi->wb_list);

	wb->bdi = bdi;
	wb->last_old_flush = jiffies;
	INIT_LIST_HEAD(&wb->b_dirty);
	INIT_LIST_HEAD(&wb->b_io);
	INIT_LIST_HEAD(&wb->b_more_io);
	INIT_LIST_HEAD(&wb->b_dirty_time);
	spin_lock_init(&wb->list_lock);

	atomic_init(&wb->writeback_inodes, 0);
	wb->bw_time_stamp = jiffies;
	wb->balanced_dirty_ratelimit = INIT_BW;
	wb->dirty_ratelimit = INIT_BW;
	wb->write_bandwidth = INIT_BW;
	wb->avg_write_bandwidth = INIT_BW;

	spin_lock_init(&wb->work_lock);
	INIT_LIST_HEAD(&wb->work_list);

	if (fprop_local_init_percpu_6_18(&wb->completions) != 0)
		return -1;
	if (__percpu_counter_init_many_6_18(wb->stat, 0, NR_WB_STAT_ITEMS) != 0) {
		fprop_local_destroy_percpu_6_18(&wb->completions);
		return -1;
	}
	return 0;
}

void bdi_exit_6_18(struct backing_dev_info *bdi)
{
	percpu_counter_destroy_many_6_18(bdi->wb.stat, NR_WB_STAT_ITEMS);
	fprop_local_destroy_percpu_6_18(&bdi->wb.completions);
}

#ifdef MMSCALE_WB_6_18_WORLD
/*
 * The flusher's side, which only the virtual-time world drives
 * (kernel/linux-6.18/world/throttle.c): the bandwidth updates writeback makes
 * (1532-1555), the background threshold test (2121-2172), do_writepages
 * (2593-2629) split around the filesystem's ->writepages, which is the
 * world's, and the inode writeback count (2963-2981).
 */
void wb_update_bandwidth(struct bdi_writeback *wb)
{
	struct dirty_throttle_control gdtc = { GDTC_INIT(wb) };

	__wb_update_bandwidth(&gdtc, NULL, false);
}

/* Interval after which we consider wb idle and don't estimate bandwidth */
#define WB_BANDWIDTH_IDLE_JIF (HZ)

static void wb_bandwidth_estimate_start(struct bdi_writeback *wb)
{
	unsigned long now = jiffies;
	unsigned long elapsed = now - READ_ONCE(wb->bw_time_stamp);

	if (elapsed > WB_BANDWIDTH_IDLE_JIF &&
	    !atomic_load(&wb->writeback_inodes)) {
		spin_lock(&wb->list_lock);
		wb->dirtied_stamp = (unsigned long)wb_stat(wb, WB_DIRTIED);
		wb->written_stamp = (unsigned long)wb_stat(wb, WB_WRITTEN);
		WRITE_ONCE(wb->bw_time_stamp, now);
		spin_unlock(&wb->list_lock);
	}
}

/*
 * Similar to wb_dirty_limits, wb_bg_dirty_limits also calculates dirty
 * and thresh, but it's for background writeback.
 */
static void wb_bg_dirty_limits(struct dirty_throttle_control *dtc)
{
	struct bdi_writeback *wb = dtc->wb;

	dtc->wb_bg_thresh = __wb_calc_thresh(dtc, dtc->bg_thresh);
	if (dtc->wb_bg_thresh < 2 * wb_stat_error())
		dtc->wb_dirty = (unsigned long)wb_stat_sum(wb, WB_RECLAIMABLE);
	else
		dtc->wb_dirty = (unsigned long)wb_stat(wb, WB_RECLAIMABLE);
}

static bool domain_over_bg_thresh(struct dirty_throttle_control *dtc)
{
	domain_dirty_avail(dtc, false);
	domain_dirty_limits(dtc);
	if (dtc->dirty > dtc->bg_thresh)
		return true;

	wb_bg_dirty_limits(dtc);
	if (dtc->wb_dirty > dtc->wb_bg_thresh)
		return true;

	return false;
}

/* wb_over_bg_thresh - does @wb need to be written back? (no memcg domain: mdtc_valid is false) */
bool wb_over_bg_thresh(struct bdi_writeback *wb)
{
	struct dirty_throttle_control gdtc = { GDTC_INIT(wb) };

	if (domain_over_bg_thresh(&gdtc))
		return true;

	return false;
}

/* do_writepages up to ->writepages (wbc->nr_to_write > 0: the world's chunk is not empty). */
void do_writepages_start(struct bdi_writeback *wb)
{
	wb_bandwidth_estimate_start(wb);
}

/* ... and after it (the WB_SYNC_ALL -ENOMEM retry never happens: background work). */
void do_writepages_end(struct bdi_writeback *wb)
{
	/*
	 * Usually few pages are written by now from those we've just submitted
	 * but if there's constant writeback being submitted, this makes sure
	 * writeback bandwidth is updated once in a while.
	 */
	if (time_is_before_jiffies(READ_ONCE(wb->bw_time_stamp) +
				   BANDWIDTH_INTERVAL))
		wb_update_bandwidth(wb);
}

void wb_inode_writeback_start(struct bdi_writeback *wb)
{
	atomic_fetch_add(&wb->writeback_inodes, 1);
}

void wb_inode_writeback_end(struct bdi_writeback *wb)
{
	unsigned long flags;

	atomic_fetch_sub(&wb->writeback_inodes, 1);
	/*
	 * Make sure estimate of writeback throughput gets updated after
	 * writeback completed. We delay the update by BANDWIDTH_INTERVAL
	 * (which is the interval other bandwidth updates use for batching) so
	 * that if multiple inodes end writeback at a similar time, they get
	 * batched into one bandwidth update.
	 */
	spin_lock_irqsave(&wb->work_lock, flags);
	if (test_bit(WB_registered, &wb->state))
		wb_6_18_queue_bw_dwork(wb, BANDWIDTH_INTERVAL);
	spin_unlock_irqrestore(&wb->work_lock, flags);
}
#endif
