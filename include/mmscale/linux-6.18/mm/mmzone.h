/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Zones, nodes and their per-CPU statistics as Linux 6.18 has them
 * (../shared/kernel/6.18/include/linux/mmzone.h, blob 7fb7331c): the
 * enums zone_stat_item (159-179), node_stat_item (181-263) and
 * numa_stat_item (146-154), struct per_cpu_zonestat (762-775) and
 * struct per_cpu_nodestat (777-780), and the fields of struct zone (879-)
 * and pglist_data (1385-) that the 6.18 vmstat code touches.
 *
 * The configuration is the one this project's machines boot (a 6.18 x86-64
 * kernel: CONFIG_NUMA, CONFIG_SMP, CONFIG_ZSMALLOC, CONFIG_IOMMU_SUPPORT,
 * CONFIG_SWAP, CONFIG_NUMA_BALANCING, CONFIG_HUGETLB_PAGE, no
 * CONFIG_UNACCEPTED_MEMORY, no CONFIG_SHADOW_CALL_STACK): 11 zone items,
 * 51 node items, the first 68 lines of its /proc/vmstat in this order
 * (counters/tests/test_vmstat_6_18.c checks the names against the running
 * kernel's /proc/vmstat where it is a 6.18).
 *
 * Since 5.14 (28f836b6777b) a zone's per-CPU statistics are an allocation
 * of their own, zone->per_cpu_zonestats, apart from the page lists
 * (zone->per_cpu_pageset); node statistics (since 4.8) have per-CPU diffs
 * of their own (pgdat->per_cpu_nodestats). Dirty and writeback pages are
 * node items now.
 *
 * The structures here carry the kernel's names and so must not meet
 * 2.6.31's (mmzone.h) in one file: a file includes one or the other. The
 * functions of the 6.18 code have the suffix _6_18 for the linker
 * (include/mmscale/linux-6.18/map.h maps the kernel's names to them).
 *
 * Not the kernel's byte offsets: struct zone and pglist_data keep only the
 * fields used, but in the kernel's line groups (struct zone says which).
 */
#ifndef MMSCALE_MM_MMZONE_6_18_H
#define MMSCALE_MM_MMZONE_6_18_H

#ifdef MMSCALE_MM_MMZONE_H
#error "linux-6.18/mm/mmzone.h and 2.6.31's mmzone.h name the same types: include one"
#endif

#include "mmscale/kernel/atomic.h"
#include "mmscale/kernel/compiler.h"
#include "mmscale/kernel/list.h"
#include "mmscale/kernel/spinlock.h"

#define PAGE_SHIFT	12
#define PAGE_SIZE	(1UL << PAGE_SHIFT)

enum numa_stat_item {
	NUMA_HIT,		/* allocated in intended node */
	NUMA_MISS,		/* allocated in non intended node */
	NUMA_FOREIGN,		/* was intended here, hit elsewhere */
	NUMA_INTERLEAVE_HIT,	/* interleaver preferred this zone */
	NUMA_LOCAL,		/* allocation from local node */
	NUMA_OTHER,		/* allocation from other node */
	NR_VM_NUMA_EVENT_ITEMS
};

enum zone_stat_item {
	/* First 128 byte cacheline (assuming 64 bit words) */
	NR_FREE_PAGES,
	NR_FREE_PAGES_BLOCKS,
	NR_ZONE_LRU_BASE, /* Used only for compaction and reclaim retry */
	NR_ZONE_INACTIVE_ANON = NR_ZONE_LRU_BASE,
	NR_ZONE_ACTIVE_ANON,
	NR_ZONE_INACTIVE_FILE,
	NR_ZONE_ACTIVE_FILE,
	NR_ZONE_UNEVICTABLE,
	NR_ZONE_WRITE_PENDING,	/* Count of dirty, writeback and unstable pages */
	NR_MLOCK,		/* mlock()ed pages found and moved off LRU */
	/* Second 128 byte cacheline */
	NR_ZSPAGES,		/* allocated in zsmalloc (CONFIG_ZSMALLOC) */
	NR_FREE_CMA_PAGES,
	NR_VM_ZONE_STAT_ITEMS };

enum node_stat_item {
	NR_LRU_BASE,
	NR_INACTIVE_ANON = NR_LRU_BASE, /* must match order of LRU_[IN]ACTIVE */
	NR_ACTIVE_ANON,
	NR_INACTIVE_FILE,
	NR_ACTIVE_FILE,
	NR_UNEVICTABLE,
	NR_SLAB_RECLAIMABLE_B,
	NR_SLAB_UNRECLAIMABLE_B,
	NR_ISOLATED_ANON,	/* Temporary isolated pages from anon lru */
	NR_ISOLATED_FILE,	/* Temporary isolated pages from file lru */
	WORKINGSET_NODES,
	WORKINGSET_REFAULT_BASE,
	WORKINGSET_REFAULT_ANON = WORKINGSET_REFAULT_BASE,
	WORKINGSET_REFAULT_FILE,
	WORKINGSET_ACTIVATE_BASE,
	WORKINGSET_ACTIVATE_ANON = WORKINGSET_ACTIVATE_BASE,
	WORKINGSET_ACTIVATE_FILE,
	WORKINGSET_RESTORE_BASE,
	WORKINGSET_RESTORE_ANON = WORKINGSET_RESTORE_BASE,
	WORKINGSET_RESTORE_FILE,
	WORKINGSET_NODERECLAIM,
	NR_ANON_MAPPED,	/* Mapped anonymous pages */
	NR_FILE_MAPPED,	/* pagecache pages mapped into pagetables. */
	NR_FILE_PAGES,
	NR_FILE_DIRTY,
	NR_WRITEBACK,
	NR_SHMEM,		/* shmem pages (included tmpfs/GEM pages) */
	NR_SHMEM_THPS,
	NR_SHMEM_PMDMAPPED,
	NR_FILE_THPS,
	NR_FILE_PMDMAPPED,
	NR_ANON_THPS,
	NR_VMSCAN_WRITE,
	NR_VMSCAN_IMMEDIATE,	/* Prioritise for reclaim when writeback ends */
	NR_DIRTIED,		/* page dirtyings since bootup */
	NR_WRITTEN,		/* page writings since bootup */
	NR_THROTTLED_WRITTEN,	/* NR_WRITTEN while reclaim throttled */
	NR_KERNEL_MISC_RECLAIMABLE,	/* reclaimable non-slab kernel pages */
	NR_FOLL_PIN_ACQUIRED,	/* via: pin_user_page(), gup flag: FOLL_PIN */
	NR_FOLL_PIN_RELEASED,	/* pages returned via unpin_user_page() */
	NR_KERNEL_STACK_KB,	/* measured in KiB */
	NR_PAGETABLE,		/* used for pagetables */
	NR_SECONDARY_PAGETABLE, /* secondary pagetables, KVM & IOMMU */
	NR_IOMMU_PAGES,		/* # of pages allocated by IOMMU (CONFIG_IOMMU_SUPPORT) */
	NR_SWAPCACHE,		/* CONFIG_SWAP */
	PGPROMOTE_SUCCESS,	/* promote successfully (CONFIG_NUMA_BALANCING) */
	PGPROMOTE_CANDIDATE,
	PGPROMOTE_CANDIDATE_NRL,
	/* PGDEMOTE_*: pages demoted */
	PGDEMOTE_KSWAPD,
	PGDEMOTE_DIRECT,
	PGDEMOTE_KHUGEPAGED,
	PGDEMOTE_PROACTIVE,
	NR_HUGETLB,		/* CONFIG_HUGETLB_PAGE */
	NR_BALLOON_PAGES,
	NR_KERNEL_FILE_PAGES,
	NR_VM_NODE_STAT_ITEMS
};

BUILD_BUG_ON(NR_VM_ZONE_STAT_ITEMS != 11);
BUILD_BUG_ON(NR_VM_NODE_STAT_ITEMS != 51);

/*
 * The per-CPU statistics of a zone, in the CPU's own unit. vm_stat_diff[]
 * is s8 (a pending delta never passes stat_threshold, at most 125);
 * vm_numa_event[] is unsigned long and never folded on the fast path (the
 * comment below is the kernel's). With 11 zone items: diffs at 0-10,
 * stat_threshold at 11, the six events at 16-63: 64 bytes. In the kernel
 * each zone's is allocated just before its own pageset and after the
 * previous zone's 256-byte, line-aligned per_cpu_pages (setup_zone_pageset,
 * page_alloc.c 6045-6060), so it starts a line; the emulation allocates it
 * line-aligned for the same placement.
 */
struct per_cpu_zonestat {
	s8 vm_stat_diff[NR_VM_ZONE_STAT_ITEMS];
	s8 stat_threshold;
	/*
	 * Low priority inaccurate counters that are only folded
	 * on demand. Use a large type to avoid the overhead of
	 * folding during refresh_cpu_vm_stats.
	 */
	unsigned long vm_numa_event[NR_VM_NUMA_EVENT_ITEMS];
};

BUILD_BUG_ON(offsetof(struct per_cpu_zonestat, stat_threshold) != NR_VM_ZONE_STAT_ITEMS);
BUILD_BUG_ON(offsetof(struct per_cpu_zonestat, vm_numa_event) != 16);
BUILD_BUG_ON(sizeof(struct per_cpu_zonestat) != L1_CACHE_BYTES);

/*
 * The node's: the threshold first, then 51 diffs: 52 bytes (allocated
 * line-aligned here, so one line: see per_cpu_zonestat).
 */
struct per_cpu_nodestat {
	s8 stat_threshold;
	s8 vm_node_stat_diff[NR_VM_NODE_STAT_ITEMS];
};

BUILD_BUG_ON(sizeof(struct per_cpu_nodestat) != 1 + NR_VM_NODE_STAT_ITEMS);

/* The kernel's x86-64 zones are DMA, DMA32, Normal, Movable (and Device); emulated: two. */
enum zone_type {
	ZONE_DMA32,
	ZONE_NORMAL,
	MAX_NR_ZONES
};

/*
 * (64-90) CONFIG_CMA, as distributions build 6.18 (Debian, Ubuntu, Fedora,
 * RHEL; this VM's 6.18 has it off), and as the 6.1 row's zones have it
 * (linux-2.6/mm/mmzone.h): one choice for the comparison. And
 * CONFIG_MEMORY_ISOLATION. Not CONFIG_UNACCEPTED_MEMORY (off in this VM's
 * 6.18; distributions that build TDX or SEV-SNP guest support set it,
 * which puts 48 bytes, unaccepted_pages and unaccepted_cleanup, between
 * the free areas and zone->flags, and adds NR_UNACCEPTED).
 */
enum migratetype {
	MIGRATE_UNMOVABLE,
	MIGRATE_MOVABLE,
	MIGRATE_RECLAIMABLE,
	MIGRATE_PCPTYPES,	/* the number of types on the pcp lists */
	MIGRATE_HIGHATOMIC = MIGRATE_PCPTYPES,
	MIGRATE_CMA,		/* CONFIG_CMA: only movable pages, from the CMA area */
	MIGRATE_ISOLATE,	/* can't allocate from here */
	MIGRATE_TYPES
};

#define PAGE_ALLOC_COSTLY_ORDER	3
#define HPAGE_PMD_ORDER		9
#define pageblock_order		HPAGE_PMD_ORDER
#define MAX_PAGE_ORDER		10
#define NR_PAGE_ORDERS		(MAX_PAGE_ORDER + 1)

/*
 * One per migratetype for each PAGE_ALLOC_COSTLY_ORDER. Two additional lists
 * are added for THP (CONFIG_TRANSPARENT_HUGEPAGE). One PCP list is used by
 * GPF_MOVABLE, and the other PCP list is used by GFP_UNMOVABLE and
 * GFP_RECLAIMABLE. (mmzone.h 715-727)
 */
#define NR_PCP_THP 2
#define NR_LOWORDER_PCP_LISTS (MIGRATE_PCPTYPES * (PAGE_ALLOC_COSTLY_ORDER + 1))
#define NR_PCP_LISTS (NR_LOWORDER_PCP_LISTS + NR_PCP_THP)

/* CONFIG_PCP_BATCH_SCALE_MAX, as this project's 6.18 kernel has it (the default). */
#define CONFIG_PCP_BATCH_SCALE_MAX	5

#define	PCPF_PREV_FREE_HIGH_ORDER	(1 << 0)
#define	PCPF_FREE_HIGH_BATCH		(1 << 1)

/*
 * struct per_cpu_pages (744-760): the lock, the counters and the flags on
 * the first 32 bytes of its line, then NR_PCP_LISTS list heads. Since 5.14
 * an allocation of its own (zone->per_cpu_pageset), apart from the
 * statistics.
 */
struct per_cpu_pages {
	spinlock_t lock;	/* Protects lists field */
	int count;		/* number of pages in the list */
	int high;		/* high watermark, emptying needed */
	int high_min;		/* min high watermark */
	int high_max;		/* max high watermark */
	int batch;		/* chunk size for buddy add/remove */
	u8 flags;		/* protected by pcp->lock */
	u8 alloc_factor;	/* batch scaling factor during allocate */
	u8 expire;		/* When 0, remote pagesets are drained (CONFIG_NUMA) */
	short free_count;	/* consecutive free count */

	/* Lists of pages, one per migrate type stored on the pcp-lists */
	struct list_head lists[NR_PCP_LISTS];
} ____cacheline_aligned;

/* Everything a free, an allocation or a drain reads and writes but the lists: one line. */
BUILD_BUG_ON(offsetof(struct per_cpu_pages, free_count) != 28);
BUILD_BUG_ON(offsetof(struct per_cpu_pages, lists) != 32);
BUILD_BUG_ON(sizeof(struct per_cpu_pages) != 4 * L1_CACHE_BYTES);

/*
 * A page, or a block of 2^order pages, as the buddy and the pcp lists hold
 * it: the list node (buddy_list and pcp_list share it in struct page, at
 * byte 8 after page->flags), and what page_to_pfn and
 * get_pfnblock_migratetype would give. 64 bytes, as the kernel's struct
 * page on x86_64 and as the 2.6.x machine's: a drain touches one line per
 * page in every generation (a smaller page here would pack 2.7 to a line
 * and make 6.18's drains look cheaper per page than the older rows').
 * Padded rather than aligned, as the 2.6.x machine's (its page_alloc.h
 * says why); the pools are page aligned.
 */
struct page {
	unsigned long flags;
	struct list_head pcp_list;
	unsigned int order;
	int migratetype;
	char __pad[64 - 32];
};

BUILD_BUG_ON(sizeof(struct page) != 64);

/*
 * The buddy allocator's free lists per order and migratetype, the kernel's
 * struct free_area. Emulated without splitting or merging: an order's
 * blocks stay that order (the cases allocate and free one order each), so
 * __rmqueue takes the first block of its order and __free_one_page puts it
 * back.
 */
struct free_area {
	struct list_head free_list[MIGRATE_TYPES];
	unsigned long nr_free;
};

enum zone_flags {
	ZONE_BOOSTED_WATERMARK,
	ZONE_RECLAIM_ACTIVE,
	ZONE_BELOW_HIGH,
};

enum zone_watermarks {
	WMARK_MIN,
	WMARK_LOW,
	WMARK_HIGH,
	WMARK_PROMO,
	NR_WMARK
};

struct pglist_data;

/*
 * struct zone (879-1060), the fields the 6.18 vmstat and pcp code use, in
 * the kernel's groups: the read-mostly part (the per-CPU pointers, sizes,
 * pgdat); after _pad1_ the free areas (11 orders of 6 migratetypes with
 * CONFIG_CMA: 1144 bytes), then flags on the last 8 bytes of the free
 * areas' last line and lock and trylock_free_pages on the next line
 * (996-1016), so a test_bit of zone->flags reads the line of order 10's
 * free lists and not the lock's, as in a CONFIG_CMA kernel (without CMA,
 * 968 bytes of free areas, flags and lock share a line); and vm_stat[]
 * with vm_numa_event[] after _pad3_ on lines of
 * their own. Not the kernel's byte offsets: the fields between are left
 * out. ZONE_DMA (16 MiB), HIGHMEM, MOVABLE and DEVICE are not emulated:
 * ZONE_DMA32 on node 0 (all of the first 4 GiB: no PCI hole) and
 * ZONE_NORMAL on every node, as mm/mmzone.h's 2.6.31 machine has them.
 */
struct zone {
	/* Read-mostly fields */

	/* zone watermarks, access with *_wmark_pages(zone) macros */
	unsigned long _watermark[NR_WMARK];
	unsigned long watermark_boost;
	struct pglist_data *zone_pgdat;
	struct per_cpu_pages *per_cpu_pageset;		/* percpu pointer */
	struct per_cpu_zonestat *per_cpu_zonestats;	/* percpu pointer */
	/*
	 * the high and batch values are copied to individual pagesets for
	 * faster access
	 */
	int pageset_high_min;
	int pageset_high_max;
	int pageset_batch;
	int node;
	atomic_long_t managed_pages;
	unsigned long present_pages;
	const char *name;

	/* Write-intensive fields used from the page allocator */

	/* free areas of different sizes (after CACHELINE_PADDING(_pad1_)) */
	struct free_area free_area[NR_PAGE_ORDERS] ____cacheline_aligned;

	/* zone flags, see below */
	unsigned long flags;

	/* Primarily protects free_area */
	spinlock_t lock;

	/* Pages to be freed when next trylock succeeds (struct llist_head) */
	void *trylock_free_pages;

	/* Zone statistics */
	atomic_long_t vm_stat[NR_VM_ZONE_STAT_ITEMS] ____cacheline_aligned;	/* _pad3_ */
	atomic_long_t vm_numa_event[NR_VM_NUMA_EVENT_ITEMS];
} ____cacheline_aligned;

/* With CONFIG_CMA flags ends the free areas' last line, and the lock starts the next. */
BUILD_BUG_ON(offsetof(struct zone, flags) / L1_CACHE_BYTES !=
	     offsetof(struct zone, free_area[NR_PAGE_ORDERS - 1].nr_free) / L1_CACHE_BYTES);
BUILD_BUG_ON(offsetof(struct zone, lock) % L1_CACHE_BYTES != 0);
BUILD_BUG_ON(offsetof(struct zone, lock) - offsetof(struct zone, free_area) != 11 * 104 + 8);

typedef struct pglist_data {
	struct zone node_zones[MAX_NR_ZONES];
	int nr_zones;
	int node_id;
	/* Per-node vmstats, after CACHELINE_PADDING(_pad2_) */
	struct per_cpu_nodestat *per_cpu_nodestats ____cacheline_aligned;	/* percpu */
	atomic_long_t vm_stat[NR_VM_NODE_STAT_ITEMS];
} pg_data_t;

static inline unsigned long wmark_pages(const struct zone *z, enum zone_watermarks w)
{
	return z->_watermark[w] + z->watermark_boost;
}

static inline unsigned long low_wmark_pages(const struct zone *z)
{
	return wmark_pages(z, WMARK_LOW);
}

#endif /* MMSCALE_MM_MMZONE_6_18_H */
