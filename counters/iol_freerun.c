// SPDX-License-Identifier: GPL-2.0
/*
 * IO-less variant "freerun": v11 with Wu Fengguang's bdi-freerun patch
 * (attached to his reply of 18 Sep 2011, ../shared/kernel/patches/): the
 * reserve area's lines are removed from bdi_position_ratio, so pos_ratio is
 * the global and bdi control lines alone. The patch's other half, the break
 * out of balance_dirty_pages while bdi_dirty is below the bdi's own freerun
 * point, comes with balance_dirty_pages (not yet ported: issue 11).
 */
#include "iol_variants.h"

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

#include "iol_control.h"

const struct iol_variant_ops iol_ops_freerun = {
	.bdi_position_ratio = bdi_position_ratio,
	.bdi_update_dirty_ratelimit = bdi_update_dirty_ratelimit,
};
