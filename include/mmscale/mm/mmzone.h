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
 * struct zone and struct per_cpu_pageset have 2.6.38's layout (the drain
 * kernel; what the counters touch shares lines as it does in 2.6.31):
 * each says how, and _Static_asserts hold the offsets
 * (counters/tests/test_layout.c checks them at run time).
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
#include "config.h"

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

/*
 * The global vm_stat[] slots of 3.2's enum zone_stat_item (3.2 mmzone.h,
 * x86-8/linux-3.2 at 55cbae72; helper-checked against a second stored
 * version): what an item of 2.6.31's enum above is numbered there.
 * NR_VM_ZONE_STAT_ITEMS_3_2 is 3.2's count (with
 * NR_ANON_TRANSPARENT_HUGEPAGES, unconditional in 3.2).
 */
#define NR_VM_ZONE_STAT_ITEMS_3_2	33
#define VM_STAT_3_2_INDEX(item)						\
	((item) <= NR_PAGETABLE ? (int)(item) :				\
	 (item) <= NR_VMSCAN_WRITE ? (int)(item) + 1 :			\
	 (item) == NR_WRITEBACK_TEMP ? 20 :				\
	 (int)(item) - NUMA_HIT + 26)
BUILD_BUG_ON(VM_STAT_3_2_INDEX(NR_UNSTABLE_NFS) != 16);	/* after NR_KERNEL_STACK (15) */
BUILD_BUG_ON(VM_STAT_3_2_INDEX(NR_VMSCAN_WRITE) != 18);
BUILD_BUG_ON(VM_STAT_3_2_INDEX(NR_WRITEBACK_TEMP) != 20);	/* after NR_VMSCAN_IMMEDIATE */
BUILD_BUG_ON(VM_STAT_3_2_INDEX(NUMA_OTHER) != 31);	/* NR_ANON_TRANSPARENT_HUGEPAGES: 32 */
/* 3.2's balance_dirty_pages reads: FILE_DIRTY, WRITEBACK on line 1, UNSTABLE_NFS on line 2. */
BUILD_BUG_ON(VM_STAT_3_2_INDEX(NR_FILE_DIRTY) / 8 != 1 || VM_STAT_3_2_INDEX(NR_WRITEBACK) / 8 != 1 ||
	     VM_STAT_3_2_INDEX(NR_UNSTABLE_NFS) / 8 != 2);

/*
 * Where the global vm_stat[] starts (mm_machine_setup checks it, the tests
 * too): on a cache line. 2.6.31 declares it plainly in mm/vmstat.c
 * ("atomic_long_t vm_stat[NR_VM_ZONE_STAT_ITEMS];", in .data), so there its
 * lines begin wherever the linker put it, 8-byte aligned: in five of the
 * eight possible starts NR_FILE_DIRTY and NR_UNSTABLE_NFS fall on different
 * lines, and .data neighbours share its first and last line. The emulation
 * takes the start the enum's "First 128 byte cacheline" comment assumes and
 * that the kernel later declared (a1cb2c60ddc9, "mm: vmstat: cache align
 * vm_stat", Sivanich, posted October 2011: __cacheline_aligned_in_smp): the
 * packed layout's eight to a line, 8k..8k+7, the same in every run and
 * the grouping the seeds argued about. It is allocated alone (page-granular,
 * on node 0, so in fact page aligned), so the neighbours' false sharing is
 * not emulated.
 */
#define VM_STAT_ALIGN		L1_CACHE_BYTES

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

/*
 * The per-CPU pageset of 2.6.32 to 2.6.38 (the drain variants' kernels up to
 * count-check), include/linux/mmzone.h:
 *
 *	struct per_cpu_pages {
 *		int count;
 *		int high;
 *		int batch;
 *		struct list_head lists[MIGRATE_PCPTYPES];
 *	};
 *	struct per_cpu_pageset {
 *		struct per_cpu_pages pcp;
 *		s8 expire;			(CONFIG_NUMA)
 *		s8 stat_threshold;		(CONFIG_SMP)
 *		s8 vm_stat_diff[NR_VM_ZONE_STAT_ITEMS];
 *	} ____cacheline_aligned_in_smp;
 *
 * On x86_64: count 0, high 4, batch 8, a 4-byte hole (list_head is 8-byte
 * aligned), lists 16, 32, 48; sizeof(pcp) 64, so pcp is the whole first
 * line and expire 64, stat_threshold 65, vm_stat_diff 66.. are on the
 * second (2.6.38's 32 items end at 97, these 25 at 90); sizeof 128. A
 * remote reader of pcp->count (ipi-mask, workqueue, remote) shares a line
 * with the owner's list operations, never with its vmstat deltas.
 *
 * 2.6.31 (the counters' kernel) had one list (struct list_head list: pcp
 * 32 bytes, stat_threshold 33, vm_stat_diff 34.., one line in all). The
 * counters cases never touch pcp and only the owning CPU writes its
 * vm_stat_diff, so where in its own pageset the deltas sit changes no
 * sharing; the one type serves both.
 *
 * Linux 6.1 (the `remote` variant, 443c2accd1b6) protects the lists with
 * pcp->lock, and its layout is another: 5.14 (28f836b6777b) split the
 * pageset into two per-CPU allocations, zone->per_cpu_pageset (struct
 * per_cpu_pages: lock, count, high, batch, free_factor, expire, lists[]
 * NR_PCP_LISTS, ____cacheline_aligned_in_smp) and zone->per_cpu_zonestats
 * (struct per_cpu_zonestat: vm_stat_diff[], stat_threshold, vm_numa_event[])
 * - 6.1-rc7 mm/page_alloc.c setup_zone_pageset() allocates both. What the
 * remote drain relies on is that the lock sits with count and the lists and
 * apart from the owner's vmstat deltas; here the 6.1-only lock fills the
 * 2.6.x layout's hole at offset 12, so no 2.6.x offset moves and the lock
 * is on the lists' line, away from vm_stat_diff, as in 6.1. 6.1's
 * free_factor (the adaptive nr_pcp_free) has no room on that line here: it
 * follows vm_stat_diff on the second line, which only the owning CPU
 * writes, as only the owner (under pcp->lock) writes free_factor in 6.1;
 * the remote drainer never touches it. Not emulated for 6.1: its per-order
 * lists (NR_PCP_LISTS; order 0 only, whose pindex is the migratetype).
 */
struct per_cpu_pages {
	int count;		/* number of pages in the list */
	int high;		/* high watermark, emptying needed */
	int batch;		/* chunk size for buddy add/remove */
	/*
	 * 6.1 only: taken by the remote variant's own (6.1) allocator paths
	 * and its drain (drain/drain_remote.c). In 2.6.x's padding.
	 */
	spinlock_t lock;

	/* Lists of pages, one per migrate type stored on the pcp-lists */
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
	short free_factor;	/* 6.1 only (struct per_cpu_pages there): see above */
} ____cacheline_aligned_in_smp;

/* The 2.6.38 x86_64 offsets above, by hand; every 2.6.x field where the kernel has it. */
BUILD_BUG_ON(offsetof(struct per_cpu_pages, count) != 0);
BUILD_BUG_ON(offsetof(struct per_cpu_pages, high) != 4);
BUILD_BUG_ON(offsetof(struct per_cpu_pages, batch) != 8);
BUILD_BUG_ON(offsetof(struct per_cpu_pages, lists) != 16);
BUILD_BUG_ON(sizeof(struct per_cpu_pages) != 64);
/* The 6.1 lock lives in the hole between batch and lists[]. */
BUILD_BUG_ON(offsetof(struct per_cpu_pages, lock) != 12);
BUILD_BUG_ON(offsetof(struct per_cpu_pages, lock) + sizeof(spinlock_t) >
	     offsetof(struct per_cpu_pages, lists));
BUILD_BUG_ON(offsetof(struct per_cpu_pageset, pcp) != 0);
BUILD_BUG_ON(offsetof(struct per_cpu_pageset, expire) != 64);
BUILD_BUG_ON(offsetof(struct per_cpu_pageset, stat_threshold) != 65);
BUILD_BUG_ON(offsetof(struct per_cpu_pageset, vm_stat_diff) != 66);
BUILD_BUG_ON(sizeof(struct per_cpu_pageset) != 128);
BUILD_BUG_ON(_Alignof(struct per_cpu_pageset) != L1_CACHE_BYTES);
/* pcp (with the 6.1 lock) on line 0; stat_threshold and every delta on line 1. */
BUILD_BUG_ON((offsetof(struct per_cpu_pageset, vm_stat_diff) + NR_VM_ZONE_STAT_ITEMS - 1) /
	     L1_CACHE_BYTES != 1);
/* The 6.1-only free_factor after them, on the owner's second line too. */
BUILD_BUG_ON(offsetof(struct per_cpu_pageset, free_factor) / L1_CACHE_BYTES != 1);

struct pglist_data;

/*
 * zone->lock and zone->lru_lock are two of the hottest locks in the kernel.
 * So add a wild amount of padding here to ensure that they fall into separate
 * cachelines.  There are very few zone structures in the machine, so space
 * consumption is not a concern here.
 *
 * (include/linux/mmzone.h, CONFIG_SMP.) x86_64 without CONFIG_X86_VSMP has
 * INTERNODE_CACHE_SHIFT == L1_CACHE_SHIFT: the padding is a zero-size
 * member that starts a new line.
 */
#define ____cacheline_internodealigned_in_smp \
	__attribute__((__aligned__(1 << L1_CACHE_SHIFT)))

struct zone_padding {
	char x[0];
} ____cacheline_internodealigned_in_smp;
#define ZONE_PADDING(name)	struct zone_padding name;

BUILD_BUG_ON(sizeof(struct zone_padding) != 0);

/* The kernel's names; not otherwise emulated (no page reclaim). */
enum zone_watermarks {
	WMARK_MIN,
	WMARK_LOW,
	WMARK_HIGH,
	NR_WMARK
};

#define LRU_BASE 0
#define LRU_ACTIVE 1
#define LRU_FILE 2

enum lru_list {
	LRU_INACTIVE_ANON = LRU_BASE,
	LRU_ACTIVE_ANON = LRU_BASE + LRU_ACTIVE,
	LRU_INACTIVE_FILE = LRU_BASE + LRU_FILE,
	LRU_ACTIVE_FILE = LRU_BASE + LRU_FILE + LRU_ACTIVE,
	LRU_UNEVICTABLE,
	NR_LRU_LISTS
};

/* 2.6.32 to 2.6.38 (2.6.38 free_area_init_core() clears nr_saved_scan here). */
struct zone_reclaim_stat {
	unsigned long		recent_rotated[2];
	unsigned long		recent_scanned[2];
	unsigned long		nr_saved_scan[NR_LRU_LISTS];
};

/* x86_64's MAX_NR_ZONES in the kernel (DMA, DMA32, NORMAL, MOVABLE), for lowmem_reserve[]. */
#define KERNEL_MAX_NR_ZONES	4

/*
 * struct zone as Linux 2.6.38 lays it out (x86_64, SMP, NUMA, SPARSEMEM),
 * for the fields the emulation has; the fields in between that it does not
 * emulate are kept, unused, so that every emulated field sits at the
 * kernel's offset and shares a line with what it shares in the kernel.
 *
 * Three groups split by ZONE_PADDING: what the page allocator touches
 * (watermarks, the pageset pointer every CPU reads, zone->lock and the free
 * lists); after _pad1_ what page reclaim touches (lru_lock, the LRUs,
 * pages_scanned, flags) and the zone's vm_stat[]; after _pad2_ the
 * read-mostly rest (zone_pgdat, present_pages, name).
 *
 * free_pcppages_bulk (2.6.38) takes zone->lock, writes all_unreclaimable =
 * 0 (an int again since KOSAKI's "restore zone->all_unreclaimable to
 * independence word" took it out of zone->flags; free_one_page writes it
 * under the lock on every free; beside lock as in the 3.x trees - the
 * January 2010 posting had it after flags, and no 2.6.38 mmzone.h is in
 * ../shared/kernel) and pages_scanned = 0 (after _pad1_). So
 * even a drain of empty lists that takes the lock dirties two lines per
 * zone: the lock's line and pages_scanned's, which also holds zone->flags
 * and vm_stat[NR_FREE_PAGES], the item every allocating and freeing CPU
 * folds into. 2.6.32 (ipi-all) clears ZONE_ALL_UNRECLAIMABLE in zone->flags
 * with clear_bit instead: the same second line.
 *
 * Offsets by hand, 2.6.38. Those before _pad1_ are reconstructed, not
 * read: ../shared/kernel has 2.6.31's mmzone.h but no 2.6.38 one, so they
 * come from 2.6.31's struct zone with the fields 2.6.32-2.6.38 added where
 * 2.6.38's mm/page_alloc.c and the later trees use them (watermark[] for
 * pages_min/low/high, percpu_drift_mark, all_unreclaimable beside lock,
 * compact_*). Only lock's and pageset's line (0-127 here) matters to any
 * count or to the sharing; a difference there would move at most which
 * of the first group's fields share lock's line. Those after _pad1_ are
 * 2.6.31's, read from its mmzone.h. watermark[3] 0, percpu_drift_mark 24,
 * lowmem_reserve[4] 32, node 64, min_unmapped_pages 72, min_slab_pages 80,
 * pageset 88, lock 96, all_unreclaimable 100, then (span_seqlock with
 * MEMORY_HOTPLUG) free_area[MAX_ORDER] from 104 or 112 (11 x 88 bytes) and
 * compact_considered/compact_defer_shift: _pad1_ at 1088. After _pad1_:
 * lru_lock +0, lru[5] +8, reclaim_stat (9 longs) +88, pages_scanned +160,
 * flags +168, vm_stat[] +176. 2.6.31 has the same offsets after _pad1_
 * (nr_saved_scan was in each lru[] entry, reclaim_stat 4 longs: 8 + 120 +
 * 32 = 160), so the counters' zone->vm_stat[] lines are 2.6.31's too: items
 * 0-1 with pages_scanned and flags, then 2-9, 10-17, 18-24. The emulation's
 * one free list and nr_free stand for free_area[] (order 0 only, no buddy
 * merging): they stay in the first group, after the lock, so _pad1_ comes
 * at 128 here instead of 1088; nothing is emulated in between.
 */
struct zone {
	/* Fields commonly accessed by the page allocator */

	/* zone watermarks, access with *_wmark_pages(zone) macros (not emulated) */
	unsigned long watermark[NR_WMARK];

	/* not emulated */
	unsigned long percpu_drift_mark;
	unsigned long		lowmem_reserve[KERNEL_MAX_NR_ZONES];

	int node;
	/* zone reclaim (not emulated) */
	unsigned long		min_unmapped_pages;
	unsigned long		min_slab_pages;
	struct per_cpu_pageset	*pageset;	/* percpu pointer */
	/*
	 * free areas of different sizes
	 */
	spinlock_t		lock;
	int			all_unreclaimable; /* All pages pinned */
	/* free_area[] (order 0 only): drain/ adds the free list here */
	struct list_head	free_list;
	unsigned long		nr_free;

	ZONE_PADDING(_pad1_)

	/* Fields commonly accessed by the page reclaim scanner (not emulated) */
	spinlock_t		lru_lock;
	struct zone_lru {
		struct list_head list;
	} lru[NR_LRU_LISTS];

	struct zone_reclaim_stat reclaim_stat;

	unsigned long		pages_scanned;	   /* since last reclaim */
	unsigned long		flags;		   /* zone flags (not emulated) */

	/* Zone statistics */
	atomic_long_t		vm_stat[NR_VM_ZONE_STAT_ITEMS];

	ZONE_PADDING(_pad2_)
	/* Rarely used or read-mostly fields */

	struct pglist_data	*zone_pgdat;
	unsigned long		present_pages;	/* amount of memory (excluding holes) */
	const char		*name;
} ____cacheline_internodealigned_in_smp;

#define zone_line(field)	(offsetof(struct zone, field) / L1_CACHE_BYTES)
#define zone_pad1_off(field)	(offsetof(struct zone, field) - offsetof(struct zone, _pad1_))

/* The first group at 2.6.38's offsets: lock on the line every CPU reads zone->pageset from. */
BUILD_BUG_ON(offsetof(struct zone, node) != 64);
BUILD_BUG_ON(offsetof(struct zone, pageset) != 88);
BUILD_BUG_ON(offsetof(struct zone, lock) != 96);
BUILD_BUG_ON(offsetof(struct zone, all_unreclaimable) != 100);
BUILD_BUG_ON(zone_line(node) != zone_line(lock) || zone_line(pageset) != zone_line(lock) ||
	     zone_line(all_unreclaimable) != zone_line(lock));
BUILD_BUG_ON(offsetof(struct zone, nr_free) + sizeof(unsigned long) >
	     offsetof(struct zone, _pad1_));
/* _pad1_ starts a line: pages_scanned is never on zone->lock's line. */
BUILD_BUG_ON(offsetof(struct zone, _pad1_) % L1_CACHE_BYTES != 0);
BUILD_BUG_ON(zone_pad1_off(lru_lock) != 0);
BUILD_BUG_ON(zone_pad1_off(pages_scanned) != 160);
BUILD_BUG_ON(zone_pad1_off(flags) != 168);
BUILD_BUG_ON(zone_pad1_off(vm_stat) != 176);
BUILD_BUG_ON(zone_line(pages_scanned) == zone_line(lock));
/* ... and it shares its line with flags and vm_stat[NR_FREE_PAGES], NR_INACTIVE_ANON. */
BUILD_BUG_ON(zone_line(pages_scanned) != zone_line(flags) ||
	     zone_line(pages_scanned) != zone_line(vm_stat[NR_FREE_PAGES]) ||
	     zone_line(pages_scanned) != zone_line(vm_stat[NR_INACTIVE_ANON]) ||
	     zone_line(pages_scanned) == zone_line(vm_stat[NR_ACTIVE_ANON]));
/* _pad2_: the read-mostly fields never share a line with vm_stat[] (folded into by every CPU). */
BUILD_BUG_ON(offsetof(struct zone, _pad2_) % L1_CACHE_BYTES != 0);
BUILD_BUG_ON(offsetof(struct zone, _pad2_) <
	     offsetof(struct zone, vm_stat) + sizeof(atomic_long_t) * NR_VM_ZONE_STAT_ITEMS);
BUILD_BUG_ON(offsetof(struct zone, zone_pgdat) != offsetof(struct zone, _pad2_));
BUILD_BUG_ON(sizeof(struct zone) % L1_CACHE_BYTES != 0);

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
 * Build the emulated memory for the machine's plan: cfg->mem_bytes over the
 * planned nodes, zones, pagesets with stat thresholds, vm_stat. Idempotent
 * per run: mm_machine_teardown() frees it all. Returns -1 with err.
 */
int mm_machine_setup_config(const struct mm_machine_config *cfg, char *err, size_t errlen);
/* mm_machine_setup_config() with mm_config_default(mem_bytes). */
int mm_machine_setup(uint64_t mem_bytes, char *err, size_t errlen);
void mm_machine_teardown(void);

/* Number of populated zones (what a drain walks per CPU). */
int nr_populated_zones(void);

#endif /* MMSCALE_MM_MMZONE_H */
