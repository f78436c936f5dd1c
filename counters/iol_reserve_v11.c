// SPDX-License-Identifier: GPL-2.0
/*
 * IO-less variant "reserve-v11": the bdi reserve area as posted in v11
 * ("[PATCH 10/18] writeback: dirty position control - bdi reserve area",
 * Wu Fengguang, 4 Sep 2011, ../shared/kernel/patches/): the reserve is
 * x_intercept = min(write_bw, freerun) pages instead of bdi_thresh / 2,
 * the same 8x cap. Applied to 3.2's bdi_position_ratio: v11's own
 * 02/18, on which 10/18 sits, is not in ../shared/kernel (its README), and
 * Wu's tree of 14 Sep 2011 that the seed's "bdi-reserve" column ran had
 * 3.2's 1/4 floor of the bdi control line (the bdi-freerun patch's context).
 */
#include "iol_variants.h"

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

#include "iol_control.h"

const struct iol_variant_ops iol_ops_reserve_v11 = {
	.bdi_position_ratio = bdi_position_ratio,
	.bdi_update_dirty_ratelimit = bdi_update_dirty_ratelimit,
};
