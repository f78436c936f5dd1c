// SPDX-License-Identifier: GPL-2.0
/*
 * IO-less variant "3.2": as merged in Linux 3.2, the bdi reserve area of v12
 * ("[PATCH 10/11] writeback: dirty position control - bdi reserve area",
 * 3 Oct 2011): below half its (adjusted) bdi_thresh a bdi's pos_ratio is
 * raised by x_intercept / bdi_dirty, at most 8 times
 * (mm/page-writeback.c of 3.2, lines 633-644).
 */
#include "iol_variants.h"

static unsigned long bdi_reserve_area(unsigned long pos_ratio, unsigned long bdi_thresh,
				      unsigned long bdi_dirty, unsigned long write_bw,
				      unsigned long freerun)
{
	unsigned long x_intercept;

	(void)write_bw;
	(void)freerun;
	x_intercept = bdi_thresh / 2;
	if (bdi_dirty < x_intercept) {
		if (bdi_dirty > x_intercept / 8)
			pos_ratio = (unsigned long)((u64)pos_ratio * x_intercept / (u32)bdi_dirty);
		else
			pos_ratio *= 8;
	}
	return pos_ratio;
}

#include "iol_control.h"

const struct iol_variant_ops iol_ops_3_2 = {
	.bdi_position_ratio = bdi_position_ratio,
	.bdi_update_dirty_ratelimit = bdi_update_dirty_ratelimit,
};
