/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Emulated vmstat, as include/linux/vmstat.h and mm/vmstat.c of Linux
 * 2.6.31: global counters vm_stat[], per-zone counters zone->vm_stat[], and
 * per-CPU s8 deltas folded in when they pass stat_threshold.
 *
 * The global array is the kernel's layout by default (contiguous
 * atomic_long_t, eight to a line: that sharing is what the seeds measured);
 * --counter-layout=padded gives each counter its own line. The two differ
 * only in vm_stat_stride, so both layouts run the same code.
 *
 * Counts: global_page_state() counts MMSCALE_GLOBAL_READS; every fold of a
 * per-CPU delta into the shared counters counts MMSCALE_FOLDS.
 */
#ifndef MMSCALE_MM_VMSTAT_H
#define MMSCALE_MM_VMSTAT_H

#include "mmscale/opcount.h"
#include "mmscale/linux-2.6/mm/mmzone.h"
#include "mmscale/mm/vm_stat.h"

/*
 * vm_stat[item] lives at vm_stat_base + vm_stat_index[item] *
 * vm_stat_stride: its slot in the numbering of the run's kernel
 * (mm_machine_config.vm_stat_numbering: 2.6.31's or 3.2's).
 */
extern unsigned char vm_stat_index[NR_VM_ZONE_STAT_ITEMS];

#define vm_stat_slot(item)	vm_stat_at(vm_stat_index[item])

static inline void zone_page_state_add(long x, struct zone *zone,
				       enum zone_stat_item item)
{
	atomic_long_add(x, &zone_vm_stat(zone)[item]);
	atomic_long_add(x, vm_stat_slot(item));
	mmscale_count_inc(MMSCALE_FOLDS);
}

static inline unsigned long global_page_state(enum zone_stat_item item)
{
	long x = atomic_long_read(vm_stat_slot(item));

	mmscale_count_inc(MMSCALE_GLOBAL_READS);
	/* CONFIG_SMP: per-CPU deltas not yet folded can make it negative. */
	if (x < 0)
		x = 0;
	return (unsigned long)x;
}

static inline unsigned long zone_page_state(struct zone *zone,
					    enum zone_stat_item item)
{
	long x = atomic_long_read(&zone_vm_stat(zone)[item]);

	if (x < 0)
		x = 0;
	return (unsigned long)x;
}

/* The exact value: the global counter plus every CPU's pending delta (tests). */
long vm_stat_exact(enum zone_stat_item item);

int calculate_threshold(struct zone *zone);
void refresh_zone_stat_thresholds(void);

void __mod_zone_page_state(struct zone *zone, enum zone_stat_item item, int delta);
void __inc_zone_state(struct zone *zone, enum zone_stat_item item);
void __dec_zone_state(struct zone *zone, enum zone_stat_item item);
void mod_zone_page_state(struct zone *zone, enum zone_stat_item item, int delta);
void inc_zone_state(struct zone *zone, enum zone_stat_item item);
void dec_zone_state(struct zone *zone, enum zone_stat_item item);

/*
 * Fold cpu's deltas into the zone and global counters. The cpu must be the
 * calling emulated CPU, or one with no thread running (the final fold).
 */
void refresh_cpu_vm_stats(int cpu);

/*
 * The per-CPU vmstat work (vmstat_update every sysctl_stat_interval, 1 s in
 * the kernel): call at an interrupt point of the calling CPU with the period
 * (at least one coarse clock tick in fact); it looks at a coarse clock every
 * 64 calls and folds when the period passed.
 */
void vmstat_work_tick(u64 interval_ns);

/* mm/vmscan.c of 2.6.31: the four LRU lists. */
unsigned long global_lru_pages(void);

#endif /* MMSCALE_MM_VMSTAT_H */
