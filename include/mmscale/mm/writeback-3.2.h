/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The IO-less dirty throttling control of Linux 3.2 (mm/page-writeback.c of
 * 3.2, ../shared/kernel/3.2: blob 50f08241): the dirty limits it adds
 * (dirty_freerun_ceiling, hard_dirty_limit, global_dirty_limit with
 * update_dirty_limit), the write bandwidth estimate
 * (bdi_update_write_bandwidth), the position ratio (bdi_position_ratio),
 * the dirty ratelimit (bdi_update_dirty_ratelimit) and the pause and poll
 * bounds (bdi_max_pause, dirty_poll_interval). Ported line by line, with
 * the kernel's integer types: div_s64 and div_u64 take a 32-bit divisor,
 * and a negative long long shifts right arithmetically (GCC, as the
 * kernel's build).
 *
 * Not yet here (issue 11): balance_dirty_pages and its ratelimiting, the
 * flusher, and the per-call and virtual-time cases that will drive them.
 */
#ifndef MMSCALE_MM_WRITEBACK_3_2_H
#define MMSCALE_MM_WRITEBACK_3_2_H

#include "../kernel/compiler.h"
#include "writeback.h"		/* HZ */

/* Sleep at most 200ms at a time in balance_dirty_pages() (3.2 line 41). */
#define MAX_PAUSE		max(HZ/5, 1)
/* Estimate write bandwidth at 200ms intervals (line 46). */
#define BANDWIDTH_INTERVAL	max(HZ/5, 1)
#define RATELIMIT_CALC_SHIFT	10

/*
 * The fields of 3.2's struct backing_dev_info (include/linux/backing-dev.h
 * of 3.2, lines 77-93) that the control reads and writes, in the kernel's
 * order, under a name of their own: 2.6.31's struct backing_dev_info
 * (backing-dev.h) lives in the same program. All in pages, pages per
 * second and jiffies, as in the kernel.
 */
struct bdi_writeback_control_3_2 {
	unsigned long bw_time_stamp;	/* last time write bw is updated */
	unsigned long dirtied_stamp;
	unsigned long written_stamp;	/* pages written at bw_time_stamp */
	unsigned long write_bandwidth;	/* the estimated write bandwidth */
	unsigned long avg_write_bandwidth; /* further smoothed write bw */
	/*
	 * The base dirty throttle rate, re-calculated on every 200ms; it
	 * tracks balanced_dirty_ratelimit in small steps.
	 */
	unsigned long dirty_ratelimit;
	unsigned long balanced_dirty_ratelimit;
	int dirty_exceeded;
};

/* 3.2 keeps the slowly following dirty limit in a global (line 115). */
extern unsigned long global_dirty_limit;

unsigned long dirty_freerun_ceiling(unsigned long thresh, unsigned long bg_thresh);
unsigned long hard_dirty_limit(unsigned long thresh);
void update_dirty_limit(unsigned long thresh, unsigned long dirty);
void bdi_update_write_bandwidth(struct bdi_writeback_control_3_2 *bdi, unsigned long elapsed,
				unsigned long written);
unsigned long dirty_poll_interval(unsigned long dirty, unsigned long thresh);
unsigned long bdi_max_pause(struct bdi_writeback_control_3_2 *bdi, unsigned long bdi_dirty);

/*
 * What differs between the IO-less variants (counters/iol_*.c, rows in
 * counters/iol_variants.h): the end of bdi_position_ratio (3.2's bdi reserve
 * area, v11's, or none), and bdi_update_dirty_ratelimit, which calls it.
 */
struct iol_variant_ops {
	unsigned long (*bdi_position_ratio)(struct bdi_writeback_control_3_2 *bdi,
					    unsigned long thresh, unsigned long bg_thresh,
					    unsigned long dirty, unsigned long bdi_thresh,
					    unsigned long bdi_dirty);
	void (*bdi_update_dirty_ratelimit)(struct bdi_writeback_control_3_2 *bdi,
					   unsigned long thresh, unsigned long bg_thresh,
					   unsigned long dirty, unsigned long bdi_thresh,
					   unsigned long bdi_dirty, unsigned long dirtied,
					   unsigned long elapsed);
};

#endif /* MMSCALE_MM_WRITEBACK_3_2_H */
