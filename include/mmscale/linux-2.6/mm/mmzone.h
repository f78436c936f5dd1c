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

#include "mmscale/kernel/atomic.h"
#include "mmscale/kernel/compiler.h"
#include "mmscale/kernel/list.h"
#include "mmscale/kernel/percpu.h"
#include "mmscale/kernel/processor.h"
#include "mmscale/kernel/spinlock.h"
#include "mmscale/mm/config.h"

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
/*
 * 6.1's NR_FREE_CMA_PAGES, item 10 of its 11 zone items: __rmqueue reads it
 * at 6.1's offset; the emulated zone's slot 10 is 2.6.31's NR_FILE_DIRTY,
 * which no drain path writes (drain/drain_remote.c).
 */
#define NR_FREE_CMA_PAGES_6_1	((enum zone_stat_item)10)

/* 6.1's enum numa_stat_item: counted per CPU in vm_numa_event[], never folded on the fast path. */
enum numa_stat_item {
	NUMA_HIT_6_1,
	NUMA_MISS_6_1,
	NUMA_FOREIGN_6_1,
	NUMA_INTERLEAVE_HIT_6_1,
	NUMA_LOCAL_6_1,
	NUMA_OTHER_6_1,
	NR_VM_NUMA_EVENT_ITEMS
};

struct per_cpu_pageset {
	struct per_cpu_pages pcp;
	s8 expire;
	s8 stat_threshold;
	s8 vm_stat_diff[NR_VM_ZONE_STAT_ITEMS];
	short free_factor;	/* 6.1 only (struct per_cpu_pages there): see above */
	/*
	 * 6.1 only (struct per_cpu_zonestat there, with the vmstat deltas):
	 * the NUMA events the allocator counts (__count_numa_events), on a
	 * third line of this CPU's own; nothing reads them here (6.1 folds
	 * them when /proc/vmstat or zoneinfo is read).
	 */
	unsigned long vm_numa_event[NR_VM_NUMA_EVENT_ITEMS] ____cacheline_aligned_in_smp;
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
BUILD_BUG_ON(offsetof(struct per_cpu_pageset, vm_numa_event) != 128);
BUILD_BUG_ON(sizeof(struct per_cpu_pageset) != 192);
BUILD_BUG_ON(_Alignof(struct per_cpu_pageset) != L1_CACHE_BYTES);
/* pcp (with the 6.1 lock) on line 0; stat_threshold and every delta on line 1. */
BUILD_BUG_ON((offsetof(struct per_cpu_pageset, vm_stat_diff) + NR_VM_ZONE_STAT_ITEMS - 1) /
	     L1_CACHE_BYTES != 1);
/* The 6.1-only free_factor after them, on the owner's second line too. */
BUILD_BUG_ON(offsetof(struct per_cpu_pageset, free_factor) / L1_CACHE_BYTES != 1);

struct pglist_data;

/* The kernel's names; not otherwise emulated (no page reclaim). */
enum zone_watermarks {
	WMARK_MIN,
	WMARK_LOW,
	WMARK_HIGH,
	NR_WMARK
};

/* zone_flags(zone) bits: 2.6.32's (ZONE_ALL_UNRECLAIMABLE) and 6.1's (enum zone_flags). */
#define ZONE_ALL_UNRECLAIMABLE		0	/* 2.6.31, 2.6.32 */
#define ZONE_BOOSTED_WATERMARK		0	/* 6.1 */
#define ZONE_RECLAIM_ACTIVE		1	/* 6.1 */

/*
 * struct zone as the run's kernel lays it out (x86_64, SMP, NUMA,
 * SPARSEMEM): the emulated fields at that kernel's offsets, every other
 * byte kept, unused, so that each field shares a line with what it shares
 * in the kernel. A run picks one layout (mm_machine_config.zone_layout,
 * from the drain variant's kernel; the counters' cases take 2.6.38's, the
 * same as 2.6.31's after _pad1_); the code reaches the fields through the
 * accessors below, whose offsets are the run's. Three layouts, the offsets
 * by hand in kernel/linux-2.6/mm/mmzone.c (zone_layouts[], with static asserts), each
 * with its sources:
 *
 * - 2.6.38 (quick-scan, count-check; and ipi-mask and workqueue, whose
 *   3.4 zone has the same first group - 4.11's is not emulated): the
 *   per-CPU pageset pointer, node and all_unreclaimable on zone_lock(zone)'s
 *   line, so every allocation and free reads the line a lock holder writes;
 *   the order-0 MOVABLE free list and nr_free on the two lines after it;
 *   pages_scanned, flags and vm_stat[0..1] on the line after _pad1_ + 128.
 * - 2.6.32 (ipi-all): struct per_cpu_pageset *pageset[NR_CPUS] inline from
 *   byte 80 (NR_CPUS 4096, CONFIG_MAXSMP, as a 2011 distro kernel for the
 *   seed's 128-node UV), so zone_lock(zone) sits at 80 + 8 * 4096, alone with
 *   the last two CPUs' pointers and the order-0 free lists' heads; each
 *   CPU reads its pointer from a read-mostly line.
 * - 6.1 (remote, CONFIG_CMA=y as distro kernels): per_cpu_pageset, node
 *   and zone_pgdat on line 1, the free areas after _pad1_ (256), flags on
 *   line 21 with the tail of free_area[10], zone_lock(zone) alone on line 22,
 *   vm_stat[] after _pad3_ (1536).
 *
 * The emulation's one free list and nr_free stand for free_area[0]'s
 * MIGRATE_MOVABLE list and nr_free (order 0 only, no buddy merging), at
 * their offsets. The per-zone vm_stat[] keeps 2.6.31's item numbering in
 * every layout (25 items; 2.6.32 has 29 and 6.1 11 zone items): its first
 * item, NR_FREE_PAGES, is where each kernel has it.
 */
struct zone_layout {
	unsigned int kind;		/* enum mm_zone_layout_kind */
	const char *kernel;
	size_t watermark;		/* unsigned long [NR_WMARK] (6.1: _watermark[4]) */
	size_t lowmem_reserve;		/* long [] */
	size_t node;			/* int */
	size_t pageset;			/* the per-CPU pointer, or 2.6.32's pointer array */
	bool pageset_array;		/* 2.6.32: struct per_cpu_pageset *pageset[NR_CPUS] */
	size_t lock;			/* spinlock_t */
	size_t all_unreclaimable;	/* int (2.6.38); ZONE_NO_FIELD elsewhere */
	size_t free_list;		/* free_area[0].free_list[MIGRATE_MOVABLE] */
	size_t nr_free;			/* free_area[0].nr_free */
	size_t pages_scanned;		/* unsigned long (2.6.x); ZONE_NO_FIELD in 6.1 */
	size_t flags;			/* unsigned long */
	size_t vm_stat;			/* atomic_long_t [NR_VM_ZONE_STAT_ITEMS] */
	size_t zone_pgdat, present_pages, name;
	size_t nr_reserved_highatomic;	/* 6.1; ZONE_NO_FIELD elsewhere */
	size_t watermark_boost;		/* 6.1; ZONE_NO_FIELD elsewhere */
	size_t size;			/* sizeof(struct zone) there, to the line */
};

/* A field the kernel of the layout has not: a run that reaches it faults. */
#define ZONE_NO_FIELD		((size_t)1 << 40)

enum mm_zone_layout_kind {
	MM_ZONE_LAYOUT_2_6_38,	/* the default: the counters' cases, 2.6.38 to 3.4 */
	MM_ZONE_LAYOUT_2_6_32,
	MM_ZONE_LAYOUT_6_1,
	MM_NR_ZONE_LAYOUTS
};

extern const struct zone_layout zone_layouts[MM_NR_ZONE_LAYOUTS];
/* The run's (mm_machine_setup_config): a copy, so that a field costs one load of its offset. */
extern struct zone_layout zone_layout;

/* The largest layout, 2.6.32's with NR_CPUS 4096 (34368 bytes). */
#define ZONE_BYTES		34368

struct zone {
	unsigned char bytes[ZONE_BYTES];
} __attribute__((__aligned__(L1_CACHE_BYTES)));

#define ZONE_AT(z, type, field)	(*(type *)(void *)((char *)(z) + zone_layout.field))

#define zone_node(z)		ZONE_AT(z, int, node)
#define zone_lock(z)		ZONE_AT(z, spinlock_t, lock)
#define zone_all_unreclaimable(z) ZONE_AT(z, int, all_unreclaimable)
#define zone_free_list(z)	ZONE_AT(z, struct list_head, free_list)
#define zone_nr_free(z)		ZONE_AT(z, unsigned long, nr_free)
#define zone_pages_scanned(z)	ZONE_AT(z, unsigned long, pages_scanned)
#define zone_flags(z)		ZONE_AT(z, unsigned long, flags)
#define zone_pgdat(z)		ZONE_AT(z, struct pglist_data *, zone_pgdat)
#define zone_present_pages(z)	ZONE_AT(z, unsigned long, present_pages)
#define zone_name(z)		ZONE_AT(z, const char *, name)
#define zone_nr_reserved_highatomic(z) ZONE_AT(z, unsigned long, nr_reserved_highatomic)
#define zone_watermark_boost(z)	ZONE_AT(z, unsigned long, watermark_boost)
#define zone_vm_stat(z)		(&ZONE_AT(z, atomic_long_t, vm_stat))
#define zone_watermark(z)	(&ZONE_AT(z, unsigned long, watermark))
#define zone_lowmem_reserve(z)	(&ZONE_AT(z, long, lowmem_reserve))
/* zone_idx(): the kernel's index, which counts ZONE_DMA (0, not emulated): DMA32 1, Normal 2. */
#define zone_idx(z)		((int)((z) - zone_pgdat(z)->node_zones) + 1)

/*
 * The CPU's pageset of the zone: zone_pcp(zone, cpu) (2.6.38;
 * 6.1: zone->per_cpu_pageset), or 2.6.32's zone_pcp(), zone->pageset[cpu].
 * The pointer (or the array's entry) is read where the layout has it.
 */
static __always_inline struct per_cpu_pageset *zone_pcp(struct zone *z, unsigned int cpu)
{
	if (zone_layout.pageset_array)
		return (&ZONE_AT(z, struct per_cpu_pageset *, pageset))[cpu];
	return per_cpu_ptr(ZONE_AT(z, struct per_cpu_pageset *, pageset), cpu);
}

#define zone_this_pcp(z)	zone_pcp(z, (unsigned int)smp_processor_id())

typedef struct pglist_data {
	struct zone node_zones[MAX_NR_ZONES];
	int nr_zones;
	int node_id;
	/* Not the kernel's: each zone's per-CPU allocation, to free (2.6.32 keeps pointers only). */
	struct per_cpu_pageset *pageset_alloc[MAX_NR_ZONES];
} pg_data_t;

/* Set up by mm_machine_setup(): one pg_data_t per planned node, on that node. */
extern pg_data_t **node_data;
extern int nr_node_ids;
#define NODE_DATA(nid)		(node_data[(nid)])

static inline bool populated_zone(struct zone *zone)
{
	return zone_present_pages(zone) != 0;
}

static inline struct zone *first_zone(void)
{
	return nr_node_ids ? &NODE_DATA(0)->node_zones[0] : NULL;
}

static inline struct zone *next_zone(struct zone *zone)
{
	pg_data_t *pgdat = zone_pgdat(zone);

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

static inline int zone_to_nid(struct zone *zone)
{
	return zone_node(zone);
}

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
