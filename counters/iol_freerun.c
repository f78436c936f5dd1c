// SPDX-License-Identifier: GPL-2.0
/*
 * IO-less variant "freerun": v11 with Wu Fengguang's bdi-freerun patch
 * (attached to his reply of 18 Sep 2011, ../shared/kernel/patches/): the
 * reserve area's lines are removed from bdi_position_ratio, so pos_ratio is
 * the global and bdi control lines alone; and balance_dirty_pages leaves
 * without a pause while bdi_dirty is below the bdi's own freerun point.
 * On v11 as Wu's tree ran it: with 07/18's think time compensation and
 * 11/18's underrun break, as reserve-v11 (counters/iol_reserve_v11.c).
 */
#include "iol_variants.h"

/* Nor has v11 with the bdi-freerun patch 3.2's floor for an inactive bdi. */
static unsigned long bdi_reserve_thresh(unsigned long bdi_thresh, unsigned long limit,
					unsigned long dirty)
{
	(void)limit;
	(void)dirty;
	return bdi_thresh;
}

static unsigned long bdi_reserve_area(unsigned long pos_ratio, unsigned long bdi_thresh,
				      unsigned long bdi_dirty, unsigned long write_bw,
				      unsigned long freerun)
{
	(void)bdi_thresh;
	(void)bdi_dirty;
	(void)write_bw;
	(void)freerun;
	return pos_ratio;
}


/*
 * The patch's hunk in balance_dirty_pages: never throttle a bdi below its
 * own freerun point, 1/8 of min(write_bw + 4 MiB, the room left under
 * global_dirty_limit), unless the limits are exceeded; and, as before the
 * patch (v11 11/18), while the bdi's async queue underruns.
 */
static bool bdi_below_own_freerun(struct backing_dev_info *bdi, unsigned long nr_dirty,
				  unsigned long bdi_dirty, bool dirty_exceeded)
{
	unsigned long freerun;

	freerun = min(bdi->avg_write_bandwidth + MIN_WRITEBACK_PAGES,
		      global_dirty_limit - nr_dirty) / 8;
	if (!dirty_exceeded) {
		if (unlikely(bdi_dirty < freerun))
			return true;
		if (unlikely(bdi_async_underrun(bdi)))
			return true;
	}
	return false;
}

#define IOL_THINK_TIME	/* v11 07/18 */
#include "iol_balance.h"

const struct iol_variant_ops IOL_OPS(iol_ops_freerun) = IOL_VARIANT_OPS;
