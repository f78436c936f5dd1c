/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Emulated zones, nodes and per-CPU pagesets (include/linux/mmzone.h).
 *
 * zone_stat_item is the list of Linux 2.6.31 (the balance_dirty_pages
 * seeds): CONFIG_UNEVICTABLE_LRU is unconditional there, NR_KERNEL_STACK,
 * NR_ISOLATED_* and NR_SHMEM arrive in 2.6.32. The order matters: vm_stat[]
 * is contiguous, so with 8-byte counters items 8..15 (NR_FILE_MAPPED ..
 * NR_UNSTABLE_NFS) share one cache line - NR_FILE_DIRTY, NR_WRITEBACK and
 * NR_UNSTABLE_NFS, which every dirtying CPU folds into and
 * balance_dirty_pages reads, sit together.
 *
 * Zones: ZONE_DMA32 on node 0 (the first 4 GiB; the PCI hole is ignored)
 * and ZONE_NORMAL on every node, so for_each_populated_zone walks what an
 * x86_64 NUMA machine walks. ZONE_DMA (16 MiB), HIGHMEM and MOVABLE are not
 * emulated.
 */
#ifndef MMSCALE_MM_MMZONE_H
#define MMSCALE_MM_MMZONE_H

#include "../kernel/atomic.h"
#include "../kernel/compiler.h"
#include "../kernel/list.h"
#include "../kernel/percpu.h"
#include "../kernel/spinlock.h"

#define PAGE_SHIFT	12
#define PAGE_SIZE	(1UL << PAGE_SHIFT)
#define PAGE_CACHE_SIZE	PAGE_SIZE

enum zone_stat_item {
	/* First 128 byte cacheline (assuming 64 bit words) */
	NR_FREE_PAGES,
	NR_LRU_BASE,
	NR_INACTIVE_ANON = NR_LRU_BASE, /* must match order of LRU_[IN]ACTIVE */
	NR_ACTIVE_ANON,
	NR_INACTIVE_FILE,
	NR_ACTIVE_FILE,
	NR_UNEVICTABLE,
	NR_MLOCK,		/* mlock()ed pages found and moved off LRU */
	NR_ANON_PAGES,		/* Mapped anonymous pages */
	NR_FILE_MAPPED,		/* pagecache pages mapped into pagetables */
	NR_FILE_PAGES,
	NR_FILE_DIRTY,
	NR_WRITEBACK,
	NR_SLAB_RECLAIMABLE,
	NR_SLAB_UNRECLAIMABLE,
	NR_PAGETABLE,		/* used for pagetables */
	NR_UNSTABLE_NFS,	/* NFS unstable pages */
	NR_BOUNCE,
	NR_VMSCAN_WRITE,
	/* Second 128 byte cacheline */
	NR_WRITEBACK_TEMP,	/* Writeback using temporary buffers */
	NUMA_HIT,		/* allocated in intended node */
	NUMA_MISS,		/* allocated in non intended node */
	NUMA_FOREIGN,		/* was intended here, hit elsewhere */
	NUMA_INTERLEAVE_HIT,	/* interleaver preferred this zone */
	NUMA_LOCAL,		/* allocation from local node */
	NUMA_OTHER,		/* allocation from other node */
	NR_VM_ZONE_STAT_ITEMS
};

BUILD_BUG_ON(NR_FILE_DIRTY / 8 != NR_WRITEBACK / 8 || NR_WRITEBACK / 8 != NR_UNSTABLE_NFS / 8);

/* The kernel's names for the vmstat items, for tables and tests. */
extern const char *const vmstat_text[NR_VM_ZONE_STAT_ITEMS];

enum zone_type {
	ZONE_DMA32,
	ZONE_NORMAL,
	MAX_NR_ZONES
};

/* The pcp lists of 2.6.32+ (one per migrate type); drain/ fills them. */
#define MIGRATE_UNMOVABLE	0
#define MIGRATE_RECLAIMABLE	1
#define MIGRATE_MOVABLE		2
#define MIGRATE_PCPTYPES	3

struct per_cpu_pages {
	/*
	 * Linux 6.1+ (443c2accd1b6 and its series) protects the lists with a
	 * per-pcp spinlock so that other CPUs can drain them; the allocator
	 * paths take it only while the `remote` drain variant runs.
	 */
	spinlock_t lock;
	int count;		/* number of pages in the list */
	int high;		/* high watermark, emptying needed */
	int batch;		/* chunk size for buddy add/remove */
	struct list_head lists[MIGRATE_PCPTYPES];
};

/*
 * One per zone per CPU, in that CPU's per-CPU unit (on its node), as the
 * kernel's zone->pageset. vm_stat_diff[] is s8: a CPU's pending delta for
 * an item never exceeds stat_threshold (at most 125).
 */
struct per_cpu_pageset {
	struct per_cpu_pages pcp;
	s8 expire;
	s8 stat_threshold;
	s8 vm_stat_diff[NR_VM_ZONE_STAT_ITEMS];
} ____cacheline_aligned_in_smp;

struct pglist_data;

struct zone {
	/* Fields commonly accessed by the page allocator */
	unsigned long pages_min, pages_low, pages_high;
	int node;
	struct per_cpu_pageset *pageset;	/* percpu pointer */
	/*
	 * free areas of different sizes: drain/ adds the free list here. The
	 * fields free_pcppages_bulk writes sit next to the lock, as in 2.6.38.
	 */
	spinlock_t lock;
	int all_unreclaimable;
	unsigned long pages_scanned;
	struct list_head free_list;
	unsigned long nr_free;

	/* Zone statistics, on lines of their own (the kernel's ZONE_PADDING). */
	atomic_long_t vm_stat[NR_VM_ZONE_STAT_ITEMS] ____cacheline_aligned_in_smp;

	struct pglist_data *zone_pgdat;
	unsigned long present_pages;	/* amount of memory (excluding holes) */
	const char *name;
} ____cacheline_aligned_in_smp;

typedef struct pglist_data {
	struct zone node_zones[MAX_NR_ZONES];
	int nr_zones;
	int node_id;
} pg_data_t;

/* Set up by mm_machine_setup(): one pg_data_t per planned node, on that node. */
extern pg_data_t **node_data;
extern int nr_node_ids;
#define NODE_DATA(nid)		(node_data[(nid)])

static inline bool populated_zone(const struct zone *zone)
{
	return zone->present_pages != 0;
}

static inline struct zone *first_zone(void)
{
	return nr_node_ids ? &NODE_DATA(0)->node_zones[0] : NULL;
}

static inline struct zone *next_zone(struct zone *zone)
{
	pg_data_t *pgdat = zone->zone_pgdat;

	if (zone < pgdat->node_zones + MAX_NR_ZONES - 1)
		return zone + 1;
	if (pgdat->node_id + 1 < nr_node_ids)
		return &NODE_DATA(pgdat->node_id + 1)->node_zones[0];
	return NULL;
}

#define for_each_zone(zone) \
	for (zone = first_zone(); zone; zone = next_zone(zone))

#define for_each_populated_zone(zone)				\
	for (zone = first_zone(); zone; zone = next_zone(zone))	\
		if (!populated_zone(zone))			\
			; /* do nothing */			\
		else

static inline int zone_to_nid(const struct zone *zone)
{
	return zone->node;
}

/* The planned node of an emulated CPU (cpu_to_node). */
int cpu_to_node(int cpu);
#define numa_node_id()	cpu_to_node(smp_processor_id())

/* The zone an emulated CPU's own allocations come from: its node's NORMAL, else DMA32. */
struct zone *local_zone(int cpu);

/*
 * Build the emulated memory for the machine's plan: mem bytes over the
 * planned nodes, zones, pagesets with stat thresholds, vm_stat. Idempotent
 * per run: mm_machine_teardown() frees it all. Returns -1 with err.
 */
int mm_machine_setup(uint64_t mem_bytes, char *err, size_t errlen);
void mm_machine_teardown(void);

/* Number of populated zones (what a drain walks per CPU). */
int nr_populated_zones(void);

#endif /* MMSCALE_MM_MMZONE_H */
