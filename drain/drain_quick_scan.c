// SPDX-License-Identifier: GPL-2.0
/*
 * "[PATCH] - Improve drain pages performance on large systems", Jack
 * Steiner, 15 February 2011 (seed 002_a4923e43b84f14f0), posted against a
 * 2.6.38-rc tree before 2ff754fa (its hunk is at 2.6.38's
 * free_pcppages_bulk: to_free, zone->all_unreclaimable), here on
 * drain_ipi_all.c's drain_pages without the pcp->count check:
 * free_pcppages_bulk() first scans the
 * MIGRATE_PCPTYPES lists and returns before taking zone->lock when all are
 * empty. The patch changes free_pcppages_bulk itself, so the scan also
 * runs on every free that overflows pcp->high (David Rientjes' concern for
 * small machines): this variant's free path uses it too.
 */
#include "mmscale/linux-2.6/mm/page_alloc.h"

#include "drain_variants.h"

/* free_pcppages_bulk of 2.6.38 (kernel/linux-2.6/mm/page_alloc.c) with the patch's scan. */
static void free_pcppages_bulk_quick_scan(struct zone *zone, int count,
					  struct per_cpu_pages *pcp)
{
	int migratetype;

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

	/* From here on, the patch leaves 2.6.38's free path unchanged. */
	free_pcppages_bulk(zone, count, pcp);
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

/*
 * on_each_cpu: a call to every other CPU; the scan keeps zone->lock for a
 * list that holds pages, which one hold frees whole; interrupts off for
 * each CPU's whole call.
 */
static void drain_claim(const struct drain_shape *m, struct drain_cost *c)
{
	c->locks = m->lists_with_pages;
	c->locked_ops = c->locks;
	c->call_targets = m->cpus - 1;
	c->zone_locks = c->locks;
	c->zone_hold_pages_max = m->list_pages_max;
	c->irqoff_pages_max = m->cpu_pages_max;
}

const struct drain_variant_ops drain_ops_quick_scan = {
	.drain_all_pages = drain_all_pages,
	.smp = &smp_global_queue,	/* 2.6.38 kernel/smp.c */
	.claim = drain_claim,
	.machine = &(const struct drain_machine_2_6){
		.free_pcppages_bulk = free_pcppages_bulk_quick_scan,
	},
};
