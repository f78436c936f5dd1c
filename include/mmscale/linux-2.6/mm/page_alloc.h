/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The emulated page allocator around the per-CPU page lists, as
 * mm/page_alloc.c of Linux 2.6.38: buffered_rmqueue/rmqueue_bulk refill a
 * CPU's pcp list a batch at a time under zone->lock; free_hot_cold_page
 * frees to it and, past pcp->high, free_pcppages_bulk returns a batch to
 * the zone with its round-robin over the migrate types.
 *
 * Emulated minimally: order-0 pages only (no buddy merging: a zone's free
 * list is a list of struct page), all pages MIGRATE_MOVABLE unless a test
 * says otherwise, a pool of struct page per zone (allocated on the zone's
 * node) rather than all of its memory. NR_FREE_PAGES and the NUMA
 * statistics go through the emulated vmstat (kernel/linux-2.6/mm/vmstat.c).
 */
#ifndef MMSCALE_MM_PAGE_ALLOC_H
#define MMSCALE_MM_PAGE_ALLOC_H

#include "mmscale/kernel/smp.h"
#include "mmscale/mm/drain_world.h"
#include "mmscale/linux-2.6/mm/vmstat.h"

/* Where a page is (tests check that every page is on exactly one list). */
#define PAGE_IN_BUDDY	(-1)
#define PAGE_HELD	(-2)	/* allocated: a CPU holds it */

/*
 * 64 bytes, as the kernel's struct page on x86_64; padded rather than
 * aligned, because list_for_each_entry forms a struct page pointer from a
 * list head that is not in one (as the kernel does) and that pointer must
 * not claim an alignment it lacks. The pools are page aligned, so every
 * page of them starts a cache line anyway.
 */
struct page {
	unsigned long flags;
	unsigned long private;		/* the migratetype, while on a pcp list */
	struct list_head lru;
	struct zone *zone;
	int where;			/* PAGE_IN_BUDDY, PAGE_HELD, or the pcp's CPU */
	char __pad[64 - 44];
};

BUILD_BUG_ON(sizeof(struct page) != 64);

#define page_zone(page)			((page)->zone)
#define page_private(page)		((page)->private)
#define set_page_private(page, v)	((page)->private = (v))

/*
 * spin_lock(&zone->lock) and spin_unlock(&zone->lock), as every 2.6.32-6.1
 * path on this machine takes it: counted apart from the pcp locks
 * (MMSCALE_ZONE_LOCKS, so that a drain's zone->lock holds are exact for
 * every row), and each hold told to drain/full's hold accounting
 * (mmscale/opcount.h; a load and a branch when it is off).
 */
static __always_inline void spin_lock_zone(struct zone *zone)
{
	spin_lock(&zone_lock(zone));
	mmscale_count_inc(MMSCALE_ZONE_LOCKS);
	if (mmscale_holds_counted())
		mmscale_zone_hold_begin();
}

static __always_inline void spin_unlock_zone(struct zone *zone)
{
	if (mmscale_holds_counted())
		mmscale_zone_hold_end();
	spin_unlock(&zone_lock(zone));
}

#define spin_lock_zone_irqsave(zone, flags)	do {			\
	local_irq_save(flags);						\
	spin_lock_zone(zone);						\
} while (0)
#define spin_unlock_zone_irqrestore(zone, flags) do {			\
	spin_unlock_zone(zone);						\
	local_irq_restore(flags);					\
} while (0)

typedef unsigned int gfp_t;
#define __GFP_COLD	0x100u

/*
 * The paths of a drain_all_pages variant's kernel on the 2.6.x machine of
 * this header (struct drain_variant_ops.machine, mm/drain_world.h).
 */
struct drain_machine_2_6 {
	/* free_pcppages_bulk as the variant's kernel has it (quick-scan changes it). */
	void (*free_pcppages_bulk)(struct zone *zone, int count, struct per_cpu_pages *pcp);
	/*
	 * The allocator's order-0 paths of the variant's kernel, behind
	 * alloc_local_page() and free_local_page(); NULL for 2.6.38's
	 * buffered_rmqueue and free_hot_cold_page (which call the
	 * free_pcppages_bulk above). remote (6.1) has its own.
	 */
	struct page *(*rmqueue)(struct zone *preferred_zone, struct zone *zone, int migratetype);
	void (*free_page)(struct page *page);
	/* its kernel's struct zone (enum mm_zone_layout_kind, mm/mmzone.h; 0: 2.6.38's) */
	unsigned int zone_layout;
};

void free_pcppages_bulk(struct zone *zone, int count, struct per_cpu_pages *pcp);
void __free_one_page(struct page *page, struct zone *zone, unsigned int order,
		     int migratetype);
struct page *buffered_rmqueue(struct zone *preferred_zone, struct zone *zone, int order,
			      gfp_t gfp_flags, int migratetype);
void free_hot_cold_page(struct page *page, int cold);
/*
 * The calling CPU allocates one order-0 page from its local zone, or frees
 * one, through the running variant's paths (drain_kernel_boot: rmqueue/free_page).
 */
struct page *alloc_local_page(void);
void free_local_page(struct page *page);

/*
 * The order-0 buddy free list of the emulation (no merging): 2.6.38's
 * __free_one_page puts the page back, __rmqueue takes the first one; both
 * under zone->lock, which the callers hold.
 */
struct page *__rmqueue(struct zone *zone, unsigned int order, int migratetype);

/*
 * mm/vmstat.c zone_statistics of 2.6.38 (NUMA_HIT/MISS/FOREIGN, LOCAL/OTHER
 * through __inc_zone_state); remote (6.1) shares it: see drain_remote.c.
 */
/* 6.1's vm_numa_stat_key: false where --set numa_stat=0 (drain_mm_setup). */
extern bool vm_numa_stat_key_6_1;
void zone_statistics(struct zone *preferred_zone, struct zone *z);

/*
 * Page pools, pcp high/batch (zone_batchsize, setup_pageset), per run;
 * needs mm_machine_setup(). pool_pages: pages per zone (0: sized by the
 * CPUs of its node). Returns -1 with err.
 */
int drain_mm_setup(long pool_pages, char *err, size_t errlen);
void drain_mm_teardown(void);

/*
 * Conservation: every page of every pool is on exactly one list (a zone
 * free list, one CPU's pcp list) or held, and the counts agree
 * (zone->nr_free, pcp->count, NR_FREE_PAGES after a fold). Returns -1 with
 * the first discrepancy in err. Call with no CPU allocating.
 */
int pages_conserved(long held, char *err, size_t errlen);
long drain_pool_total(void);

/*
 * 2.6.38's drain_pages, with the pcp->count check of 2ff754fa (unchanged in
 * 3.4; 4.11 keeps its logic in drain_pages_zone), and drain_local_pages
 * around it (kernel/linux-2.6/mm/page_alloc.c): count-check, ipi-mask and workqueue run it.
 */
void drain_pages_count_check(unsigned int cpu);
void drain_local_pages_count_check(void *arg);

#endif /* MMSCALE_MM_PAGE_ALLOC_H */
