/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Emulated backing_dev_info and its per-bdi statistics, as
 * include/linux/backing-dev.h of Linux 2.6.31: two percpu_counters
 * (BDI_RECLAIMABLE, BDI_WRITEBACK) with BDI_STAT_BATCH, bdi_stat_error, the
 * writeout-completion proportion (struct prop_local_percpu completions,
 * lib/proportions.c: kernel/lib/proportions.c), and the fields
 * balance_dirty_pages uses.
 */
#ifndef MMSCALE_MM_BACKING_DEV_H
#define MMSCALE_MM_BACKING_DEV_H

#include "mmscale/kernel/atomic.h"
#include "mmscale/kernel/bitops.h"
#include "mmscale/kernel/cpumask.h"
#include "mmscale/kernel/processor.h"
#include "mmscale/mm/config.h"
#include "mmscale/lib/percpu_counter.h"
#include "mmscale/lib/proportions.h"

enum bdi_stat_item {
	BDI_RECLAIMABLE,
	BDI_WRITEBACK,
	NR_BDI_STAT_ITEMS
};

/* mmscale: --set BDI_STAT_BATCH=N in place of the formula (mm/config.h). */
#define BDI_STAT_BATCH MM_KNOB_OR(mm_config()->bdi_stat_batch, (8*(1+ilog2(nr_cpu_ids))))

/* bdi->state bits (2.6.31: pdflush works one bdi at a time). */
enum bdi_state {
	BDI_pdflush,		/* A pdflush thread is working this device */
};

/*
 * 2.6.31's layout (include/linux/backing-dev.h lines 42-65, with
 * CONFIG_HOTPLUG_CPU and CONFIG_DEBUG_FS): the block layer's hooks, which
 * nothing here calls, keep their place so that bdi_stat[], completions and
 * dirty_exceeded fall on the kernel's lines.
 */
struct backing_dev_info {
	unsigned long ra_pages;	/* max readahead in PAGE_CACHE_SIZE units */
	unsigned long state;	/* Always use atomic bitops on this */
	unsigned int capabilities; /* Device capabilities */
	int (*congested_fn)(void *, int); /* Function pointer if device is md/dm */
	void *congested_data;	/* Pointer to aux data for congested func */
	void (*unplug_io_fn)(struct backing_dev_info *, void *page);
	void *unplug_io_data;

	struct percpu_counter bdi_stat[NR_BDI_STAT_ITEMS];

	struct prop_local_percpu completions;
	int dirty_exceeded;

	unsigned int min_ratio;
	unsigned int max_ratio, max_prop_frac;

	void *dev;		/* struct device * */
	void *debug_dir;	/* CONFIG_DEBUG_FS: struct dentry * */
	void *debug_stats;
};

/* The offsets the kernel's lines follow from (x86_64, 64-byte lines). */
BUILD_BUG_ON(offsetof(struct backing_dev_info, bdi_stat) != 56);
BUILD_BUG_ON(offsetof(struct backing_dev_info, completions) != 136);
BUILD_BUG_ON(offsetof(struct backing_dev_info, dirty_exceeded) != 200);
BUILD_BUG_ON(offsetof(struct backing_dev_info, max_prop_frac) != 212);
BUILD_BUG_ON(sizeof(struct backing_dev_info) != 240);

int bdi_init(struct backing_dev_info *bdi);
void bdi_destroy(struct backing_dev_info *bdi);

void bdi_writeout_inc(struct backing_dev_info *bdi);
int bdi_set_max_ratio(struct backing_dev_info *bdi, unsigned int max_ratio);

static inline void __add_bdi_stat(struct backing_dev_info *bdi,
				  enum bdi_stat_item item, s64 amount)
{
	__percpu_counter_add(&bdi->bdi_stat[item], amount, BDI_STAT_BATCH);
}

static inline void __inc_bdi_stat(struct backing_dev_info *bdi,
				  enum bdi_stat_item item)
{
	__add_bdi_stat(bdi, item, 1);
}

static inline void inc_bdi_stat(struct backing_dev_info *bdi,
				enum bdi_stat_item item)
{
	unsigned long flags;

	local_irq_save(flags);
	__inc_bdi_stat(bdi, item);
	local_irq_restore(flags);
}

static inline void __dec_bdi_stat(struct backing_dev_info *bdi,
				  enum bdi_stat_item item)
{
	__add_bdi_stat(bdi, item, -1);
}

static inline void dec_bdi_stat(struct backing_dev_info *bdi,
				enum bdi_stat_item item)
{
	unsigned long flags;

	local_irq_save(flags);
	__dec_bdi_stat(bdi, item);
	local_irq_restore(flags);
}

#include "mmscale/mm/bdi_stat.h"

/* bdi->capabilities (include/linux/backing-dev.h:181-188, 2.6.31); the emulated bdi has none set. */
#define BDI_CAP_NO_ACCT_DIRTY	0x00000001
#define BDI_CAP_NO_WRITEBACK	0x00000002
#define BDI_CAP_NO_ACCT_WB	0x00000080

static inline bool bdi_cap_writeback_dirty(struct backing_dev_info *bdi)
{
	return !(bdi->capabilities & BDI_CAP_NO_WRITEBACK);
}

static inline int writeback_in_progress(struct backing_dev_info *bdi)
{
	return test_bit(BDI_pdflush, &bdi->state);
}

#endif /* MMSCALE_MM_BACKING_DEV_H */
