/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Linux 4.14's NUMA statistics, as Kemi Wang's series left them: 3a321d2a3dde
 * ("mm: change the call sites of numa statistics items") took NUMA_HIT ...
 * NUMA_OTHER out of the zone's vm_stat[] into a vm_numa_stat[] of their own,
 * with per-CPU diffs beside the zone diffs; 1d90ca897cb0 ("mm: update NUMA
 * counter threshold size") made those diffs u16 and their threshold a
 * constant, NUMA_STATS_THRESHOLD = U16_MAX - 2, folded without overstep.
 * Postings: v2 0/3 and 2/3, <1503568801-21305-1-git-send-email-kemi.wang@intel.com>
 * and -3- (../shared/kernel/patches/f-*). Files: v4.14 (4.14.0)
 * include/linux/mmzone.h (blob c9c4a81b9767: enum numa_stat_item 119-127,
 * enum zone_stat_item 132-151, struct per_cpu_pageset 282-292, struct zone's
 * statistics 504-507), include/linux/vmstat.h (blob 1e0cb72e0598:
 * zone_numa_state_add 115-120), mm/vmstat.c (blob 4bb13e72ac97:
 * NUMA_STATS_THRESHOLD 33, vm_numa_stat[] 92, __inc_numa_state 867-880) and
 * mm/page_alloc.c (blob 77e4d3c5c57b: zone_statistics 2741-2757), from
 * hxxful/linux-4.14.0-friendlyarm d126cfb95d17, the same blobs in
 * David-Croose/add_jz2440_to_linux4.14.1 287fba45515e.
 *
 * Only what a local allocation's zone_statistics and its fold touch: a zone
 * per node (its node, its per-CPU pagesets, the statistics at its end, where
 * 4.14 puts them after a ZONE_PADDING), and the per-CPU pageset with the
 * diffs beside its pcp list head. The zone's own items and diffs are laid
 * out as 4.14 has them (13 items: CONFIG_ZSMALLOC, as distributions build
 * it) but nothing here writes them. Not emulated: the vmstat work's
 * once-a-second fold of these diffs (refresh_cpu_vm_stats 703-713), the
 * reads (zone_numa_state_snapshot, /proc), and 4.15's vm.numa_stat switch
 * (4518085e127d).
 */
#ifndef MMSCALE_LINUX_4_14_MM_VMSTAT_H
#define MMSCALE_LINUX_4_14_MM_VMSTAT_H

#include <stdint.h>

#include "mmscale/kernel/atomic.h"
#include "mmscale/kernel/compiler.h"
#include "mmscale/kernel/list.h"
#include "mmscale/opcount.h"

#include "../map.h"

#define U16_MAX			((u16)~0U)
#define NUMA_STATS_THRESHOLD	(U16_MAX - 2)
#define MIGRATE_PCPTYPES	3

enum numa_stat_item {
	NUMA_HIT,		/* allocated in intended node */
	NUMA_MISS,		/* allocated in non intended node */
	NUMA_FOREIGN,		/* was intended here, hit elsewhere */
	NUMA_INTERLEAVE_HIT,	/* interleaver preferred this zone */
	NUMA_LOCAL,		/* allocation from local node */
	NUMA_OTHER,		/* allocation from other node */
	NR_VM_NUMA_STAT_ITEMS
};

enum zone_stat_item {
	/* First 128 byte cacheline (assuming 64 bit words) */
	NR_FREE_PAGES,
	NR_ZONE_LRU_BASE, /* Used only for compaction and reclaim retry */
	NR_ZONE_INACTIVE_ANON = NR_ZONE_LRU_BASE,
	NR_ZONE_ACTIVE_ANON,
	NR_ZONE_INACTIVE_FILE,
	NR_ZONE_ACTIVE_FILE,
	NR_ZONE_UNEVICTABLE,
	NR_ZONE_WRITE_PENDING,	/* Count of dirty, writeback and unstable pages */
	NR_MLOCK,		/* mlock()ed pages found and moved off LRU */
	NR_PAGETABLE,		/* used for pagetables */
	NR_KERNEL_STACK_KB,	/* measured in KiB */
	/* Second 128 byte cacheline */
	NR_BOUNCE,
	NR_ZSPAGES,		/* allocated in zsmalloc */
	NR_FREE_CMA_PAGES,
	NR_VM_ZONE_STAT_ITEMS };

struct per_cpu_pages {
	int count;		/* number of pages in the list */
	int high;		/* high watermark, emptying needed */
	int batch;		/* chunk size for buddy add/remove */

	/* Lists of pages, one per migrate type stored on the pcp-lists */
	struct list_head lists[MIGRATE_PCPTYPES];
};

struct per_cpu_pageset {
	struct per_cpu_pages pcp;
	s8 expire;
	u16 vm_numa_stat_diff[NR_VM_NUMA_STAT_ITEMS];
	s8 stat_threshold;
	s8 vm_stat_diff[NR_VM_ZONE_STAT_ITEMS];
};

/* 1d90ca897cb0's check in need_update, at build time here. */
BUILD_BUG_ON(sizeof(((struct per_cpu_pageset *)0)->vm_numa_stat_diff[0]) != 2);

struct zone {
	int node;
	struct per_cpu_pageset *pageset;	/* __percpu */

	/* ZONE_PADDING(_pad3_) */
	/* Zone statistics */
	atomic_long_t vm_stat[NR_VM_ZONE_STAT_ITEMS] ____cacheline_aligned;
	atomic_long_t vm_numa_stat[NR_VM_NUMA_STAT_ITEMS];
} ____cacheline_aligned;

extern atomic_long_t *vm_numa_stat;	/* [NR_VM_NUMA_STAT_ITEMS], line aligned */

static inline void zone_numa_state_add(long x, struct zone *zone,
				 enum numa_stat_item item)
{
	atomic_long_add(x, &zone->vm_numa_stat[item]);
	atomic_long_add(x, &vm_numa_stat[item]);
	mmscale_count_inc(MMSCALE_FOLDS);	/* mmscale: a fold, as 2.6.31's */
}

void __inc_numa_state(struct zone *zone, enum numa_stat_item item);
void zone_statistics(struct zone *preferred_zone, struct zone *z);

#endif /* MMSCALE_LINUX_4_14_MM_VMSTAT_H */
