// SPDX-License-Identifier: GPL-2.0
/*
 * The dirty limits of Richard Kennedy's RFC v2 (seed 000_6ce0e1f67d0313fe,
 * 4 September 2009, against 2.6.31-rc8): its first hunk takes
 * clip_bdi_dirty_limit() out of get_dirty_limits(). Shared by the variants
 * built on the patch (cached-locals-v2, cached-locals-v2+wu), which call it
 * by its kernel name with BDP_CACHED_LOCALS_LIMITS defined
 * (include/mmscale/linux-2.6/mm/writeback.h).
 */
#define BDP_CACHED_LOCALS_LIMITS
#include "mmscale/linux-2.6/mm/writeback.h"

/* The kernel mixes long and unsigned long in these comparisons; kept verbatim. */
#pragma GCC diagnostic ignored "-Wsign-compare"

/*
 * 2.6.31-rc8's get_dirty_limits less clip_bdi_dirty_limit (the patch's first
 * hunk). Named get_dirty_limits here (BDP_CACHED_LOCALS_LIMITS); its symbol
 * is get_dirty_limits_v2.
 */
void get_dirty_limits(unsigned long *pbackground, unsigned long *pdirty,
		      unsigned long *pbdi_dirty, struct backing_dev_info *bdi)
{
	unsigned long background;
	unsigned long dirty;
	unsigned long available_memory = determine_dirtyable_memory();
	struct task_struct *tsk;

	if (vm_dirty_bytes)
		dirty = DIV_ROUND_UP(vm_dirty_bytes, PAGE_SIZE);
	else {
		int dirty_ratio;

		dirty_ratio = vm_dirty_ratio;
		if (dirty_ratio < 5)
			dirty_ratio = 5;
		dirty = ((unsigned long)dirty_ratio * available_memory) / 100;
	}

	if (dirty_background_bytes)
		background = DIV_ROUND_UP(dirty_background_bytes, PAGE_SIZE);
	else
		background = ((unsigned long)dirty_background_ratio * available_memory) / 100;

	if (background >= dirty)
		background = dirty / 2;
	tsk = current;
	if (tsk->flags & PF_LESS_THROTTLE || rt_task(tsk)) {
		background += background / 4;
		dirty += dirty / 4;
	}
	*pbackground = background;
	*pdirty = dirty;

	if (bdi) {
		u64 bdi_dirty;
		long numerator, denominator;

		/*
		 * Calculate this BDI's share of the dirty ratio.
		 */
		bdi_writeout_fraction(bdi, &numerator, &denominator);

		bdi_dirty = (dirty * (100 - bdi_min_ratio)) / 100;
		bdi_dirty *= (u64)numerator;
		bdi_dirty /= (u64)denominator;
		bdi_dirty += (dirty * bdi->min_ratio) / 100;
		if (bdi_dirty > (dirty * bdi->max_ratio) / 100)
			bdi_dirty = dirty * bdi->max_ratio / 100;

		*pbdi_dirty = bdi_dirty;
		task_dirty_limit(current, pbdi_dirty);
	}
}

/*
 * For a claim (counters/bdp_variants.h): the bdi threshold these limits
 * give, which a v2 call tests against 2 * bdi_stat_error before it reads
 * or sums the bdi's counters.
 */
unsigned long bdi_thresh_v2(struct backing_dev_info *bdi)
{
	unsigned long background_thresh, dirty_thresh, bdi_thresh;

	get_dirty_limits(&background_thresh, &dirty_thresh, &bdi_thresh, bdi);
	return bdi_thresh;
}
