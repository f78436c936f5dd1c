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
 * The same code runs in two environments, each a translation of what the
 * kernel reads: the virtual-time world of include/mmscale/linux-3.2/world/throttle.h,
 * whose counts are exact (throttle/), and, compiled a second time with
 * MMSCALE_IOL_MACHINE, pinned threads on the emulated machine's per-CPU
 * vmstat and percpu_counters (include/mmscale/linux-3.2/machine.h: the per-call bdp/ and
 * bdp_throttled/ rows). include/mmscale/linux-3.2/env.h picks one. The types here carry
 * 3.2's names (struct backing_dev_info, enum bdi_stat_item) and so must not
 * meet 2.6.31's (backing-dev.h) in one file: a file includes one or the
 * other.
 */
#ifndef MMSCALE_MM_WRITEBACK_3_2_H
#define MMSCALE_MM_WRITEBACK_3_2_H

#ifdef MMSCALE_MM_BACKING_DEV_H
#error "linux-3.2/mm/writeback.h and 2.6.31's backing-dev.h name the same types: include one"
#endif

#include <stdbool.h>

#include "mmscale/kernel/compiler.h"
#include "mmscale/kernel/list.h"
#ifdef MMSCALE_IOL_MACHINE
#include "mmscale/lib/percpu_counter.h"
#include "mmscale/lib/proportions.h"
#endif

/*
 * The code says 3.2's names; the linker sees them apart from 2.6.31's
 * (kernel/linux-2.6/mm/page-writeback.c), which are the same, and each environment's
 * apart from the other's.
 */
#ifdef MMSCALE_IOL_MACHINE
#define IOL_SYMBOL(name)	name##_3_2_machine
/* A variant's ops (counters/iol_*.c), as compiled for the machine. */
#define IOL_OPS(symbol)		symbol##_on_machine
#define iol_variant_ops		iol_machine_ops
#else
#define IOL_SYMBOL(name)	name##_3_2
#define IOL_OPS(symbol)		symbol
#endif
#define dirty_background_ratio		IOL_SYMBOL(dirty_background_ratio)
#define dirty_background_bytes		IOL_SYMBOL(dirty_background_bytes)
#define vm_dirty_ratio			IOL_SYMBOL(vm_dirty_ratio)
#define vm_dirty_bytes			IOL_SYMBOL(vm_dirty_bytes)
#define ratelimit_pages			IOL_SYMBOL(ratelimit_pages)
#define global_dirty_limit		IOL_SYMBOL(global_dirty_limit)
#define determine_dirtyable_memory	IOL_SYMBOL(determine_dirtyable_memory)
#define global_dirty_limits		IOL_SYMBOL(global_dirty_limits)
#define bdi_dirty_limit			IOL_SYMBOL(bdi_dirty_limit)
#define writeback_set_ratelimit		IOL_SYMBOL(writeback_set_ratelimit)
#define dirty_freerun_ceiling		IOL_SYMBOL(dirty_freerun_ceiling)
#define hard_dirty_limit		IOL_SYMBOL(hard_dirty_limit)
#define update_dirty_limit		IOL_SYMBOL(update_dirty_limit)
#define bdi_update_write_bandwidth	IOL_SYMBOL(bdi_update_write_bandwidth)
#define dirty_poll_interval		IOL_SYMBOL(dirty_poll_interval)
#define bdi_max_pause			IOL_SYMBOL(bdi_max_pause)
#define global_update_bandwidth		IOL_SYMBOL(global_update_bandwidth)
#define writeback_3_2_reset		IOL_SYMBOL(writeback_3_2_reset)
/* What the environment provides as functions (below). */
#define task_dirty_inc			IOL_SYMBOL(task_dirty_inc)
#define task_dirties_fraction		IOL_SYMBOL(task_dirties_fraction)
#define bdi_writeout_fraction		IOL_SYMBOL(bdi_writeout_fraction)
#define global_reclaimable_pages	IOL_SYMBOL(global_reclaimable_pages)
#define writeback_in_progress		IOL_SYMBOL(writeback_in_progress)
#define bdi_start_background_writeback	IOL_SYMBOL(bdi_start_background_writeback)
#define throttle_writeback_inodes_wb	IOL_SYMBOL(throttle_writeback_inodes_wb)
#define throttle_total_pages		IOL_SYMBOL(throttle_total_pages)
#ifndef MMSCALE_IOL_MACHINE
/* The world's exact counts stand in for the kernel's inline readers. */
#define global_page_state		IOL_SYMBOL(global_page_state)
#define bdi_stat			IOL_SYMBOL(bdi_stat)
#define bdi_stat_sum			IOL_SYMBOL(bdi_stat_sum)
#define bdi_stat_error			IOL_SYMBOL(bdi_stat_error)
#endif

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
 * bdi->completions in the world: lib/proportions.c's prop_local_percpu, its
 * counts exact (the world has no per-CPU deltas).
 */
struct prop_local_exact {
	s64 events;
	unsigned long period;
};

/* include/linux/backing-dev.h of 3.2, lines 28-36 (bdi->state bits). */
enum bdi_state {
	BDI_pending,		/* On its way to being activated */
	BDI_wb_alloc,		/* Default embedded wb allocated */
	BDI_async_congested,	/* The async (write) queue is getting full */
	BDI_sync_congested,	/* The sync queue is getting full */
	BDI_registered,		/* bdi_register() was done */
	BDI_writeback_running,	/* Writeback is in progress */
	/*
	 * v11 11/18 (Message-Id <20110904020916.070059502@intel.com>,
	 * docs/postings/; not in 3.2): the block layer sets it when the async
	 * requests are all in flight, clears it when 3 more are queued.
	 */
	BDI_async_underrun,	/* The async queue is getting underrun */
	BDI_unused,		/* Available bits start here */
};

typedef int (congested_fn)(void *, int);

/*
 * 3.2's struct backing_dev_info (include/linux/backing-dev.h of 3.2, lines
 * 65-96): the fields up to max_prop_frac in the kernel's order; the
 * writeback and timer fields after them (struct bdi_writeback wb and on,
 * which the emulated paths do not touch) are left out. On the machine the
 * per-bdi stats are percpu_counters with CONFIG_HOTPLUG_CPU's list (40
 * bytes, as 3.2's), so every field lies at 3.2's offset (asserted below);
 * the world keeps them and the completions as exact counts.
 */
struct backing_dev_info {
	struct list_head bdi_list;
	unsigned long ra_pages;	/* max readahead in PAGE_CACHE_SIZE units */
	unsigned long state;	/* Always use atomic bitops on this */
	unsigned int capabilities; /* Device capabilities */
	congested_fn *congested_fn; /* Function pointer if device is md/dm */
	void *congested_data;	/* Pointer to aux data for congested func */

	char *name;

#ifdef MMSCALE_IOL_MACHINE
	struct percpu_counter bdi_stat[NR_BDI_STAT_ITEMS];
#else
	s64 bdi_stat[NR_BDI_STAT_ITEMS];
#endif

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

#ifdef MMSCALE_IOL_MACHINE
	struct prop_local_percpu completions;
#else
	struct prop_local_exact completions;
#endif
	int dirty_exceeded;

	unsigned int min_ratio;
	unsigned int max_ratio, max_prop_frac;
};

/* v11 11/18 (include/linux/backing-dev.h there): the v11 rows' break reads it. */
static inline int bdi_async_underrun(struct backing_dev_info *bdi)
{
	return (int)(bdi->state & (1UL << BDI_async_underrun));
}

#ifdef MMSCALE_IOL_MACHINE
/* 3.2's offsets with CONFIG_HOTPLUG_CPU (x86_64): the lines balance_dirty_pages reads. */
BUILD_BUG_ON(offsetof(struct backing_dev_info, bdi_stat) != 64);
BUILD_BUG_ON(offsetof(struct backing_dev_info, bw_time_stamp) != 224);
BUILD_BUG_ON(offsetof(struct backing_dev_info, avg_write_bandwidth) != 256);
BUILD_BUG_ON(offsetof(struct backing_dev_info, dirty_ratelimit) != 264);
BUILD_BUG_ON(offsetof(struct backing_dev_info, completions) != 280);
BUILD_BUG_ON(offsetof(struct backing_dev_info, dirty_exceeded) != 344);
BUILD_BUG_ON(offsetof(struct backing_dev_info, max_prop_frac) != 356);
#endif

/* A dd task: task_struct's dirty fields and balance_dirty_pages' frame. */
struct throttle_task {
	int nr_dirtied;			/* task_struct's, ints in 3.2 */
	int nr_dirtied_pause;
	/* v11 07/18 (the v11 rows): start of a write-and-pause period */
	unsigned long dirty_paused_when;
#ifdef MMSCALE_IOL_MACHINE
	struct prop_local_single dirties;	/* 3.1: vm_dirties (task_dirty_inc) */
#else
	struct prop_local_exact dirties;
#endif
	/* 3.1's balance_dirty_pages' locals, kept across its sleeps */
	struct {
		unsigned long write_chunk, pages_written, pause;
		unsigned long nr_reclaimable, nr_dirty, bdi_nr_reclaimable, bdi_dirty;
		unsigned long background_thresh, dirty_thresh, bdi_thresh, task_bdi_thresh;
		bool dirty_exceeded, clear_dirty_exceeded;
		unsigned long start_time;
		int stage;		/* where it sleeps: in writeback, or its pause */
		long wb_left, wb_done;	/* writeback_inodes_wb's pages left, written */
	} bdp31;
	/* balance_dirty_pages' locals, kept across its sleep */
	struct {
		unsigned long pages_dirtied;
		unsigned long nr_reclaimable, nr_dirty, bdi_dirty;
		unsigned long background_thresh, dirty_thresh, bdi_thresh;
		long pause, max_pause;
		bool dirty_exceeded;
		unsigned long task_ratelimit, dirty_ratelimit, pos_ratio;
		unsigned long start_time;
		unsigned long now;	/* v11 07/18: jiffies at the top of the loop */
		long period;		/* v11 07/18 */
	} bdp;
};

struct address_space {
	struct backing_dev_info *backing_dev_info;
	int file;			/* the world's file of this mapping */
};

/* The sysctls and globals that 3.2's code reads (kernel/linux-3.2/mm/page-writeback.c). */
extern int dirty_background_ratio;
extern unsigned long dirty_background_bytes;
extern int vm_dirty_ratio;
extern unsigned long vm_dirty_bytes;
extern long ratelimit_pages;

/* include/linux/jiffies.h (jiffies is the environment's) */
#define time_before(a, b)	((long)((a) - (b)) < 0)
#define time_is_after_eq_jiffies(a) ((long)(jiffies - (a)) <= 0)

/*
 * What each environment provides as functions (the world in
 * kernel/linux-3.2/world/throttle.c, the machine in counters/iol_machine.c); the
 * inline readers (global_page_state, bdi_stat, bdi_stat_sum,
 * bdi_counter_read, bdi_stat_error), current, jiffies and the counts
 * of the world are each environment's header's.
 */
/* mm/vmscan.c: the file LRUs (no swap: the anon LRUs do not count). */
unsigned long global_reclaimable_pages(void);
int writeback_in_progress(struct backing_dev_info *bdi);
void bdi_start_background_writeback(struct backing_dev_info *bdi);
void bdi_writeout_fraction(struct backing_dev_info *bdi, long *numerator, long *denominator);
/* Returned by a variant's entry points: wait for a request of this disk to complete. */
#define THROTTLE_WAIT_QUEUE	(-2L)
/*
 * 3.1's writeback from the dirtier (fs-writeback.c's writeback_inodes_wb,
 * not in ../shared/kernel: the world's flusher path, see kernel/linux-3.2/world/throttle.c):
 * submit up to nr_pages dirty pages of the bdi's files; returns how many;
 * *blocked when the request queue filled first (the caller waits, then
 * goes on with the rest).
 */
long throttle_writeback_inodes_wb(struct backing_dev_info *bdi, long nr_pages, bool *blocked);
/* 3.1's task_dirty_inc and task_dirties_fraction on vm_dirties. */
void task_dirty_inc(struct throttle_task *tsk);
void task_dirties_fraction(struct throttle_task *tsk, long *numerator, long *denominator);
/* vm_total_pages: the memory. */
unsigned long throttle_total_pages(void);

/* 3.2's functions (kernel/linux-3.2/mm/page-writeback.c). */
unsigned long determine_dirtyable_memory(void);
void global_dirty_limits(unsigned long *pbackground, unsigned long *pdirty);
unsigned long bdi_dirty_limit(struct backing_dev_info *bdi, unsigned long dirty);
void writeback_set_ratelimit(void);
/* Lines 724-742: global_dirty_limit follows thresh every 200ms. */
void global_update_bandwidth(unsigned long thresh, unsigned long dirty, unsigned long now);
/* A new world: global_dirty_limit and global_update_bandwidth's time at 0. */
void writeback_3_2_reset(void);

/* 3.2 keeps the slowly following dirty limit in a global (line 112). */
extern unsigned long global_dirty_limit;

unsigned long dirty_freerun_ceiling(unsigned long thresh, unsigned long bg_thresh);
unsigned long hard_dirty_limit(unsigned long thresh);
void update_dirty_limit(unsigned long thresh, unsigned long dirty);
void bdi_update_write_bandwidth(struct backing_dev_info *bdi, unsigned long elapsed,
				unsigned long written);
unsigned long dirty_poll_interval(unsigned long dirty, unsigned long thresh);
unsigned long bdi_max_pause(struct backing_dev_info *bdi, unsigned long bdi_dirty);

/*
 * What differs between the IO-less variants (counters/iol_*.c, rows in
 * counters/iol_variant_list.h): the end of bdi_position_ratio (3.2's bdi
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
	/*
	 * balance_dirty_pages itself, as its ratelimit calls it (3.1: with
	 * the write chunk): the pause to sleep, or -1. The per-call bdp/ rows
	 * call it.
	 */
	long (*balance_dirty_pages)(struct address_space *mapping, unsigned long pages);
	long (*balance_dirty_pages_ratelimited_nr)(struct address_space *mapping,
						   unsigned long nr_pages_dirtied);
	long (*balance_dirty_pages_resume)(struct address_space *mapping);
	/* Its kernel's writeback_set_ratelimit (3.1's differs), at boot. */
	void (*writeback_set_ratelimit)(void);
	/* 3.1: account_page_dirtied calls task_dirty_inc (3.2's does not). */
	bool counts_task_dirties;
};

#endif /* MMSCALE_MM_WRITEBACK_3_2_H */
