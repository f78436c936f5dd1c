// SPDX-License-Identifier: GPL-2.0
/*
 * IO-less variant "reserve-v11": the bdi reserve area as posted in v11
 * ("[PATCH 10/18] writeback: dirty position control - bdi reserve area",
 * Wu Fengguang, 4 Sep 2011, ../shared/kernel/patches/): the reserve is
 * x_intercept = min(write_bw, freerun) pages instead of bdi_thresh / 2,
 * the same 8x cap, and without 3.2's floor for an inactive bdi (lines
 * 602-609 of 3.2 came with v12's reserve area; v12's 02/11, in
 * ../shared/kernel/patches, has not it). Applied to 3.2's
 * bdi_position_ratio otherwise: v11's own 02/18, on which 10/18 sits, is
 * not in ../shared/kernel (its README); 10/18's context shows a bdi line
 * without the 1/4 floor, but Wu's tree of 14 Sep 2011 that the seed's
 * "bdi-reserve" column ran had the floor (the bdi-freerun patch's context).
 * That tree ran the whole v11 series (../shared/seeds/004_*'s thread
 * overview), so this variant also has what 3.2 has not of it: 07/18's
 * think time compensation in balance_dirty_pages (IOL_THINK_TIME,
 * counters/iol_balance.h) and 11/18's break while the bdi's async queue
 * underruns (bdi_async_underrun, set and cleared by the world's block
 * queue as 11/18's blk-core.c does), both ported from the postings in
 * docs/postings/ (Message-Ids <20110904020915.512367354@intel.com> and
 * <20110904020916.070059502@intel.com>).
 */
#include "iol_variants.h"

/* v11 has not 3.2's floor for an inactive bdi (it came with v12's reserve area). */
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
	unsigned long x_intercept;

	(void)bdi_thresh;
	x_intercept = min(write_bw, freerun);
	if (bdi_dirty < x_intercept) {
		if (bdi_dirty > x_intercept / 8) {
			/* pos_ratio *= x_intercept; do_div(pos_ratio, bdi_dirty) */
			pos_ratio = (unsigned long)((u64)pos_ratio * x_intercept / (u32)bdi_dirty);
		} else
			pos_ratio *= 8;
	}
	return pos_ratio;
}


/*
 * No freerun of its own (that is the freerun row's patch); 11/18's break,
 * right after bdi_update_bandwidth: "if (unlikely(!dirty_exceeded &&
 * bdi_async_underrun(bdi))) break;".
 */
static bool bdi_below_own_freerun(struct backing_dev_info *bdi, unsigned long nr_dirty,
				  unsigned long bdi_dirty, bool dirty_exceeded)
{
	(void)nr_dirty;
	(void)bdi_dirty;
	return unlikely(!dirty_exceeded && bdi_async_underrun(bdi));
}

#define IOL_THINK_TIME	/* v11 07/18 */
#include "iol_balance.h"

const struct iol_variant_ops IOL_OPS(iol_ops_reserve_v11) = IOL_VARIANT_OPS;
