// SPDX-License-Identifier: GPL-2.0
/*
 * drain_all_pages() of Linux 2.6.32, what the seed's 128-node test ran
 * (seed 002_a4923e43b84f14f0): on_each_cpu(drain_local_pages); every CPU
 * calls free_pcppages_bulk() for every populated zone, taking zone->lock
 * and writing zone->all_unreclaimable and zone->pages_scanned even when
 * its lists are empty.
 */
#include "mmscale/mm/page_alloc.h"

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
		free_pcppages_bulk(zone, pcp->count, pcp);
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

const struct drain_variant_ops drain_ops_ipi_all = {
	.drain_all_pages = drain_all_pages,
	.free_pcppages_bulk = free_pcppages_bulk,
};
