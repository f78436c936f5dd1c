/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bdi_position_ratio and bdi_update_dirty_ratelimit of Linux 3.2
 * (mm/page-writeback.c lines 525-647 and 751-887), once per IO-less
 * variant: a variant's file (counters/iol_*.c) defines
 *
 *	static unsigned long bdi_reserve_thresh(unsigned long bdi_thresh,
 *						unsigned long limit,
 *						unsigned long dirty);
 *	static unsigned long bdi_reserve_area(unsigned long pos_ratio,
 *					      unsigned long bdi_thresh,
 *					      unsigned long bdi_dirty,
 *					      unsigned long write_bw,
 *					      unsigned long freerun);
 *
 * with the lines its kernel has where the bdi threshold is taken (3.2's
 * line 609, which came with its reserve area) and after the bdi control
 * line (3.2's lines 633-644), then includes this file: each variant's
 * bdi_position_ratio is the kernel's with its own lines. bdi_thresh is the
 * value bdi_position_ratio has at that point.
 */
#ifndef MMSCALE_IOL_CONTROL_H
#define MMSCALE_IOL_CONTROL_H

#include "mmscale/linux-3.2/mm/writeback.h"

static unsigned long bdi_reserve_thresh(unsigned long bdi_thresh, unsigned long limit,
					unsigned long dirty);
static unsigned long bdi_reserve_area(unsigned long pos_ratio, unsigned long bdi_thresh,
				      unsigned long bdi_dirty, unsigned long write_bw,
				      unsigned long freerun);

/*
 * Lines 525-647. The global control line is the cubic
 * 1 + ((setpoint - dirty) / (limit - setpoint))^3 in units of
 * 1 << RATELIMIT_CALC_SHIFT, 2.0 at freerun, 1.0 at the setpoint, 0 at the
 * limit; the bdi control line scales it by (x_intercept - bdi_dirty) /
 * (x_intercept - bdi_setpoint), never below 1/4.
 */
static unsigned long bdi_position_ratio(struct backing_dev_info *bdi,
					unsigned long thresh, unsigned long bg_thresh,
					unsigned long dirty, unsigned long bdi_thresh,
					unsigned long bdi_dirty)
{
	unsigned long write_bw = bdi->avg_write_bandwidth;
	unsigned long freerun = dirty_freerun_ceiling(thresh, bg_thresh);
	unsigned long limit = hard_dirty_limit(thresh);
	unsigned long x_intercept;
	unsigned long setpoint;		/* dirty pages' target balance point */
	unsigned long bdi_setpoint;
	unsigned long span;
	long long pos_ratio;		/* for scaling up/down the rate limit */
	long x;

	if (unlikely(dirty >= limit))
		return 0;

	/* global setpoint: the cubic (lines 545-567) */
	setpoint = (freerun + limit) / 2;
	/*
	 * div_s64(s64, s32): the unsigned difference, shifted, read as
	 * signed (negative above the setpoint), over a 32-bit divisor.
	 */
	x = (long)((s64)((setpoint - dirty) << RATELIMIT_CALC_SHIFT) /
		   (s32)(limit - setpoint + 1));
	pos_ratio = x;
	pos_ratio = pos_ratio * x >> RATELIMIT_CALC_SHIFT;
	pos_ratio = pos_ratio * x >> RATELIMIT_CALC_SHIFT;
	pos_ratio += 1 << RATELIMIT_CALC_SHIFT;

	/* bdi setpoint (lines 575-631) */
	if (unlikely(bdi_thresh > thresh))
		bdi_thresh = thresh;
	/* the variant's: 3.2 honours an inactive bdi (lines 602-609) */
	bdi_thresh = bdi_reserve_thresh(bdi_thresh, limit, dirty);
	/* bdi_setpoint = setpoint * bdi_thresh / thresh; div_u64: u32 divisor */
	x = (long)(((u64)bdi_thresh << 16) / (u32)(thresh + 1));
	bdi_setpoint = setpoint * (u64)x >> 16;
	/*
	 * span = bdi_thresh / thresh * (8 * write_bw) +
	 *        (thresh - bdi_thresh) / thresh * bdi_thresh
	 */
	span = (thresh - bdi_thresh + 8 * write_bw) * (u64)x >> 16;
	x_intercept = bdi_setpoint + span;

	if (bdi_dirty < x_intercept - span / 4) {
		pos_ratio = (long long)((u64)pos_ratio * (x_intercept - bdi_dirty) /
					(u32)(x_intercept - bdi_setpoint + 1));
	} else
		pos_ratio /= 4;

	/* the variant's own lines: 3.2's are lines 638-644 */
	return bdi_reserve_area((unsigned long)pos_ratio, bdi_thresh, bdi_dirty, write_bw,
				freerun);
}

/*
 * Lines 751-887: balanced_dirty_ratelimit = task_ratelimit * write_bw /
 * dirty_rate, which dirty_ratelimit follows in steps of about an eighth of
 * its distance to the nearest of the three rates on its side, only where
 * task_ratelimit agrees on the direction, more slowly as it gets close.
 */
static void bdi_update_dirty_ratelimit(struct backing_dev_info *bdi,
				       unsigned long thresh, unsigned long bg_thresh,
				       unsigned long dirty, unsigned long bdi_thresh,
				       unsigned long bdi_dirty, unsigned long dirtied,
				       unsigned long elapsed)
{
	unsigned long freerun = dirty_freerun_ceiling(thresh, bg_thresh);
	unsigned long limit = hard_dirty_limit(thresh);
	unsigned long setpoint = (freerun + limit) / 2;
	unsigned long write_bw = bdi->avg_write_bandwidth;
	unsigned long dirty_ratelimit = bdi->dirty_ratelimit;
	unsigned long dirty_rate;
	unsigned long task_ratelimit;
	unsigned long balanced_dirty_ratelimit;
	unsigned long pos_ratio;
	unsigned long step;
	unsigned long x;

	/* The dirty rate will match the writeout rate in long term. */
	dirty_rate = (dirtied - bdi->dirtied_stamp) * HZ / elapsed;

	pos_ratio = bdi_position_ratio(bdi, thresh, bg_thresh, dirty, bdi_thresh, bdi_dirty);
	/* task_ratelimit reflects each dd's dirty rate for the past 200ms. */
	task_ratelimit = (u64)dirty_ratelimit * pos_ratio >> RATELIMIT_CALC_SHIFT;
	task_ratelimit++; /* it helps rampup dirty_ratelimit from tiny values */

	/* div_u64: a 32-bit divisor */
	balanced_dirty_ratelimit = (unsigned long)((u64)task_ratelimit * write_bw /
						   (u32)(dirty_rate | 1));

	/*
	 * dirty_ratelimit follows balanced_dirty_ratelimit only if
	 * task_ratelimit is on the same side of it, by at most
	 * |task_ratelimit - dirty_ratelimit| (lines 837-865).
	 */
	step = 0;
	if (dirty < setpoint) {
		x = min(bdi->balanced_dirty_ratelimit,
			min(balanced_dirty_ratelimit, task_ratelimit));
		if (dirty_ratelimit < x)
			step = x - dirty_ratelimit;
	} else {
		x = max(bdi->balanced_dirty_ratelimit,
			max(balanced_dirty_ratelimit, task_ratelimit));
		if (dirty_ratelimit > x)
			step = dirty_ratelimit - x;
	}

	/*
	 * Slower close to the target, against pointless tremors. The count
	 * can pass 63; x86-64's shift uses its low 6 bits (what the kernel's
	 * build runs), where C would leave it undefined: masked here.
	 */
	step >>= (dirty_ratelimit / (2 * step + 1)) & 63;
	/* limit the tracking speed to avoid overshooting */
	step = (step + 7) / 8;

	if (dirty_ratelimit < balanced_dirty_ratelimit)
		dirty_ratelimit += step;
	else
		dirty_ratelimit -= step;

	bdi->dirty_ratelimit = max(dirty_ratelimit, 1UL);
	bdi->balanced_dirty_ratelimit = balanced_dirty_ratelimit;
}

#endif /* MMSCALE_IOL_CONTROL_H */
