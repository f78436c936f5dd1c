// SPDX-License-Identifier: GPL-2.0
/*
 * drain_all_pages(), drain_pages() and free_pcppages_bulk() of Linux
 * 2.6.32 (mm/page_alloc.c 2.6.32.9; seed 002_a4923e43b84f14f0 was tested
 * on a 2.6.32 distro kernel): on_each_cpu(drain_local_pages); every CPU
 * calls free_pcppages_bulk() for every populated zone, taking zone->lock,
 * clearing ZONE_ALL_UNRECLAIMABLE with an atomic bit operation on
 * zone->flags and zeroing zone->pages_scanned (both on the line after
 * _pad1_), and adding its count to NR_FREE_PAGES, even when its lists are
 * empty. The same free_pcppages_bulk serves this variant's free path. On
 * 2.6.32's struct zone (mm/mmzone.h): each CPU reads its pageset pointer
 * from zone->pageset[cpu], not from zone->lock's line.
 */
#include "mmscale/kernel/bitops.h"
#include "mmscale/linux-2.6/mm/page_alloc.h"

#include "drain_variants.h"

/* include/linux/mmzone.h (2.6.31, 2.6.32): zone_flags_t's ZONE_ALL_UNRECLAIMABLE (mm/mmzone.h) */
static inline void zone_clear_flag(struct zone *zone, int flag)
{
	clear_bit(flag, &zone_flags(zone));
}

/*
 * Frees a number of pages from the PCP lists
 * Assumes all pages on list are in same zone, and of same order.
 * count is the number of pages to free.
 *
 * If the zone was previously in an "all pages pinned" state then look to
 * see if this freeing clears that state.
 *
 * And clear the zone's pages_scanned counter, to hold off the "all pages are
 * pinned" detection logic.
 */
static void free_pcppages_bulk_2_6_32(struct zone *zone, int count,
				      struct per_cpu_pages *pcp)
{
	int migratetype = 0;
	int batch_free = 0;

	spin_lock_zone(zone);
	zone_clear_flag(zone, ZONE_ALL_UNRECLAIMABLE);
	zone_pages_scanned(zone) = 0;

	__mod_zone_page_state(zone, NR_FREE_PAGES, count);
	while (count) {
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

		do {
			page = list_entry(list->prev, struct page, lru);
			/* must delete as __free_one_page list manipulates */
			list_del(&page->lru);
			/* MIGRATE_MOVABLE list may include MIGRATE_RESERVEs */
			__free_one_page(page, zone, 0, (int)page_private(page));
			mmscale_count_inc(MMSCALE_PAGES_MOVED);
		} while (--count && --batch_free && !list_empty(list));
	}
	spin_unlock_zone(zone);
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

		pset = zone_pcp(zone, cpu);

		pcp = &pset->pcp;
		local_irq_save(flags);
		mmscale_count_add(MMSCALE_PAGES_DRAINED, (u64)pcp->count);	/* thread-local: no store the kernel makes */
		free_pcppages_bulk_2_6_32(zone, pcp->count, pcp);
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

/*
 * on_each_cpu: a call to every other CPU; every CPU's drain_pages calls
 * free_pcppages_bulk for every populated zone, which takes zone->lock
 * whatever the list holds (and frees it all under that one lock) and
 * clears ZONE_ALL_UNRECLAIMABLE with a locked clear_bit: two locked ops
 * per CPU and zone. Interrupts stay off for the whole call on every CPU
 * (the IPI handler; on_each_cpu's own call on the caller), so one section
 * frees all of a CPU's pages.
 */
static void drain_claim(const struct drain_shape *m, struct drain_cost *c)
{
	c->locks = (unsigned long)m->cpus * m->zones;
	c->locked_ops = 2 * c->locks;
	c->call_targets = m->cpus - 1;
	c->zone_locks = c->locks;
	c->zone_hold_pages_max = m->list_pages_max;
	c->irqoff_pages_max = m->cpu_pages_max;
}

const struct drain_variant_ops drain_ops_ipi_all = {
	.drain_all_pages = drain_all_pages,
	.smp = &smp_global_queue_2_6_32,	/* 2.6.32 kernel/smp.c */
	.claim = drain_claim,
	.machine = &(const struct drain_machine_2_6){
		.free_pcppages_bulk = free_pcppages_bulk_2_6_32,
		.zone_layout = MM_ZONE_LAYOUT_2_6_32,	/* pageset[NR_CPUS] before zone->lock */
	},
};
