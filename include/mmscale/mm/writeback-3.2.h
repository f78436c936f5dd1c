/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The IO-less dirty throttling of Linux 3.2 (mm/page-writeback.c of 3.2,
 * ../shared/kernel/3.2: blob 50f08241, and its include/linux/writeback.h
 * and backing-dev.h): the dirty limits it adds (dirty_freerun_ceiling,
 * hard_dirty_limit, global_dirty_limit with update_dirty_limit), the write
 * bandwidth estimate (bdi_update_write_bandwidth), the position ratio
 * (bdi_position_ratio), the dirty ratelimit (bdi_update_dirty_ratelimit),
 * the pause and poll bounds (bdi_max_pause, dirty_poll_interval), and
 * balance_dirty_pages with its ratelimiting (counters/iol_balance.h). Ported
 * line by line with the kernel's integer types: div_s64 and div_u64 take a
 * 32-bit divisor, and a negative long long shifts right arithmetically
 * (GCC, as the kernel's build).
 *
 * They run in the virtual-time world of include/mmscale/mm/throttle.h,
 * whose counts are exact: the types here carry 3.2's names (struct
 * backing_dev_info, enum bdi_stat_item) and so must not meet 2.6.31's
 * (backing-dev.h) in one file: a file includes one or the other.
 */
#ifndef MMSCALE_MM_WRITEBACK_3_2_H
#define MMSCALE_MM_WRITEBACK_3_2_H

#ifdef MMSCALE_MM_BACKING_DEV_H
#error "writeback-3.2.h and 2.6.31's backing-dev.h name the same types: include one"
#endif

#include <stdbool.h>

#include "../kernel/compiler.h"

/*
 * The code says 3.2's names; the linker sees them apart from 2.6.31's
 * (counters/page-writeback.c), which are the same.
 */
#define dirty_background_ratio		dirty_background_ratio_3_2
#define dirty_background_bytes		dirty_background_bytes_3_2
#define vm_dirty_ratio			vm_dirty_ratio_3_2
#define vm_dirty_bytes			vm_dirty_bytes_3_2
#define ratelimit_pages			ratelimit_pages_3_2
#define global_dirty_limit		global_dirty_limit_3_2
#define determine_dirtyable_memory	determine_dirtyable_memory_3_2
#define global_dirty_limits		global_dirty_limits_3_2
#define bdi_dirty_limit			bdi_dirty_limit_3_2
#define writeback_set_ratelimit		writeback_set_ratelimit_3_2
#define task_dirty_inc			task_dirty_inc_3_1
#define task_dirties_fraction		task_dirties_fraction_3_1
#define bdi_writeout_fraction		bdi_writeout_fraction_3_2
#define global_page_state		global_page_state_3_2
#define global_reclaimable_pages	global_reclaimable_pages_3_2
#define bdi_stat			bdi_stat_3_2
#define bdi_stat_sum			bdi_stat_sum_3_2
#define bdi_stat_error			bdi_stat_error_3_2
#define writeback_in_progress		writeback_in_progress_3_2
#define bdi_start_background_writeback	bdi_start_background_writeback_3_2

#define HZ		1000
/* Sleep at most 200ms at a time in balance_dirty_pages() (3.2 line 42). */
#define MAX_PAUSE		max(HZ/5, 1)
/* Estimate write bandwidth at 200ms intervals (line 47). */
#define BANDWIDTH_INTERVAL	max(HZ/5, 1)
#define RATELIMIT_CALC_SHIFT	10
/* include/linux/writeback.h of 3.2, lines 23 and 29 (4 KiB pages). */
#define DIRTY_SCOPE		8
#define MIN_WRITEBACK_PAGES	(4096UL >> (12 - 10))

/* include/linux/backing-dev.h of 3.2, lines 40-46. */
enum bdi_stat_item {
	BDI_RECLAIMABLE,
	BDI_WRITEBACK,
	BDI_DIRTIED,
	BDI_WRITTEN,
	NR_BDI_STAT_ITEMS
};

/*
 * bdi->completions: lib/proportions.c's prop_local_percpu, its counts
 * exact here (the world has no per-CPU deltas).
 */
struct prop_local_exact {
	s64 events;
	unsigned long period;
};

/*
 * 3.2's struct backing_dev_info (include/linux/backing-dev.h of 3.2, lines
 * 65-96): the fields balance_dirty_pages and the bandwidth estimation use,
 * in the kernel's order; the per-bdi stats are exact counts.
 */
struct backing_dev_info {
	s64 bdi_stat[NR_BDI_STAT_ITEMS];

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

	struct prop_local_exact completions;
	int dirty_exceeded;

	unsigned int min_ratio;
	unsigned int max_ratio, max_prop_frac;
};

/* 3.2 keeps the slowly following dirty limit in a global (line 112). */
extern unsigned long global_dirty_limit;

unsigned long dirty_freerun_ceiling(unsigned long thresh, unsigned long bg_thresh);
unsigned long hard_dirty_limit(unsigned long thresh);
void update_dirty_limit(unsigned long thresh, unsigned long dirty);
void bdi_update_write_bandwidth(struct backing_dev_info *bdi, unsigned long elapsed,
				unsigned long written);
unsigned long dirty_poll_interval(unsigned long dirty, unsigned long thresh);
unsigned long bdi_max_pause(struct backing_dev_info *bdi, unsigned long bdi_dirty);

struct address_space;
struct throttle_task;

/*
 * What differs between the IO-less variants (counters/iol_*.c, rows in
 * counters/iol_variants.h): the end of bdi_position_ratio (3.2's bdi
 * reserve area, v11's, or none) and, for freerun, a break in
 * balance_dirty_pages; the functions that call them come with each.
 * balance_dirty_pages_ratelimited_nr and balance_dirty_pages_resume run
 * balance_dirty_pages split where it sleeps (counters/iol_balance.h).
 */
struct iol_variant_ops {
	unsigned long (*bdi_position_ratio)(struct backing_dev_info *bdi,
					    unsigned long thresh, unsigned long bg_thresh,
					    unsigned long dirty, unsigned long bdi_thresh,
					    unsigned long bdi_dirty);
	void (*bdi_update_dirty_ratelimit)(struct backing_dev_info *bdi,
					   unsigned long thresh, unsigned long bg_thresh,
					   unsigned long dirty, unsigned long bdi_thresh,
					   unsigned long bdi_dirty, unsigned long dirtied,
					   unsigned long elapsed);
	/* freerun's break (false in the others), for the tests */
	bool (*bdi_below_own_freerun)(struct backing_dev_info *bdi, unsigned long nr_dirty,
				      unsigned long bdi_dirty, bool dirty_exceeded);
	long (*balance_dirty_pages_ratelimited_nr)(struct address_space *mapping,
						   unsigned long nr_pages_dirtied);
	long (*balance_dirty_pages_resume)(struct address_space *mapping);
	/* Its kernel's writeback_set_ratelimit (3.1's differs), at boot. */
	void (*writeback_set_ratelimit)(void);
	/* 3.1: account_page_dirtied calls task_dirty_inc (3.2's does not). */
	bool counts_task_dirties;
};

#endif /* MMSCALE_MM_WRITEBACK_3_2_H */
