// SPDX-License-Identifier: GPL-2.0
/*
 * "[PATCH] - Improve drain pages performance on large systems", Jack
 * Steiner, 15 February 2011 (seed 002_a4923e43b84f14f0), on the 2.6.32
 * drain of drain_ipi_all.c: free_pcppages_bulk() first scans the
 * MIGRATE_PCPTYPES lists and returns before taking zone->lock when all are
 * empty. The patch changes free_pcppages_bulk itself, so the scan also
 * runs on every free that overflows pcp->high (David Rientjes' concern for
 * small machines): this variant's free path uses it too.
 */
#include "mmscale/mm/page_alloc.h"

/* free_pcppages_bulk of 2.6.38 (drain/page_alloc.c) with the patch's scan. */
static void free_pcppages_bulk_quick_scan(struct zone *zone, int count,
					  struct per_cpu_pages *pcp)
{
	int migratetype = 0;
	int batch_free = 0;
	int to_free = count;

	/*
	 * Quick scan of zones. If all are empty, there is nothing to do.
	 */
	for (migratetype = 0; migratetype < MIGRATE_PCPTYPES; migratetype++) {
		struct list_head *list;

		list = &pcp->lists[migratetype];
		if (!list_empty(list))
			break;
	}
	if (migratetype == MIGRATE_PCPTYPES)
		return;

	spin_lock(&zone->lock);
	zone->all_unreclaimable = 0;
	zone->pages_scanned = 0;

	migratetype = 0;
	while (to_free) {
		struct page *page;
		struct list_head *list;

		/*
		 * Remove pages from lists in a round-robin fashion. A
		 * batch_free count is maintained that is incremented when an
		 * empty list is encountered.  This is so more pages are freed
		 * off fuller lists instead of spinning excessively around empty
		 * lists
		 */
		do {
			batch_free++;
			if (++migratetype == MIGRATE_PCPTYPES)
				migratetype = 0;
			list = &pcp->lists[migratetype];
		} while (list_empty(list));

		/* This is the only non-empty list. Free them all. */
		if (batch_free == MIGRATE_PCPTYPES)
			batch_free = to_free;

		do {
			page = list_entry(list->prev, struct page, lru);
			/* must delete as __free_one_page list manipulates */
			list_del(&page->lru);
			/* MIGRATE_MOVABLE list may include MIGRATE_RESERVEs */
			__free_one_page(page, zone, 0, (int)page_private(page));
			count_inc(MMSCALE_PAGES_MOVED);
		} while (--to_free && --batch_free && !list_empty(list));
	}
	__mod_zone_page_state(zone, NR_FREE_PAGES, count);
	spin_unlock(&zone->lock);
}

/*
 * Drain pages of the indicated processor.
 *
 * The processor must either be the current processor and the
 * thread pinned to the current processor or a processor that
 * is not online.
 */
static void drain_pages(unsigned int cpu)
{
	unsigned long flags;
	struct zone *zone;

	for_each_populated_zone(zone) {
		struct per_cpu_pageset *pset;
		struct per_cpu_pages *pcp;

		pset = per_cpu_ptr(zone->pageset, cpu);

		pcp = &pset->pcp;
		local_irq_save(flags);
		atomic_long_add(pcp->count, &pages_drained);
		free_pcppages_bulk_quick_scan(zone, pcp->count, pcp);
		WRITE_ONCE(pcp->count, 0);
		local_irq_restore(flags);
	}
}

/*
 * Spill all of this CPU's per-cpu pages back into the buddy allocator.
 */
static void drain_local_pages(void *arg)
{
	(void)arg;
	drain_pages((unsigned int)smp_processor_id());
}

/*
 * Spill all the per-cpu pages from all CPUs back into the buddy allocator
 */
static void drain_all_pages(void)
{
	on_each_cpu(drain_local_pages, NULL, 1);
}

const struct drain_variant_ops drain_ops_quick_scan = {
	.drain_all_pages = drain_all_pages,
	.free_pcppages_bulk = free_pcppages_bulk_quick_scan,
};
