// SPDX-License-Identifier: GPL-2.0
/*
 * IO-less variant "3.2": as merged in Linux 3.2, the bdi reserve area of v12
 * ("[PATCH 10/11] writeback: dirty position control - bdi reserve area",
 * 3 Oct 2011): an inactive bdi's threshold is at least 1/8 of the room
 * under the limit (mm/page-writeback.c of 3.2, lines 602-609), and below
 * half that threshold a bdi's pos_ratio is raised by x_intercept /
 * bdi_dirty, at most 8 times (lines 633-644).
 */
#include "iol_variants.h"

/*
 * Lines 602-609, added by the same commit: an inactive bdi gets at least
 * 1/8 of the room left under the limit.
 */
static unsigned long bdi_reserve_thresh(unsigned long bdi_thresh, unsigned long limit,
					unsigned long dirty)
{
	return max(bdi_thresh, (limit - dirty) / 8);
}

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


/* 3.2 has no such break. */
static bool bdi_below_own_freerun(struct backing_dev_info *bdi, unsigned long nr_dirty,
				  unsigned long bdi_dirty, bool dirty_exceeded)
{
	(void)bdi;
	(void)nr_dirty;
	(void)bdi_dirty;
	(void)dirty_exceeded;
	return false;
}

#include "iol_balance.h"

const struct iol_variant_ops IOL_OPS(iol_ops_3_2) = IOL_VARIANT_OPS;
