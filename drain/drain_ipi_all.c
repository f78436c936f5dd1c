// SPDX-License-Identifier: GPL-2.0
/*
 * drain_all_pages()/drain_pages() of Linux 2.6.32 (seed
 * 002_a4923e43b84f14f0 was tested on a 2.6.32 distro kernel):
 * on_each_cpu(drain_local_pages); every CPU calls free_pcppages_bulk() for
 * every populated zone, taking zone->lock even when its lists are empty.
 * free_pcppages_bulk is 2.6.38's (zone->all_unreclaimable = 0,
 * NR_FREE_PAGES after the loop); 2.6.32's instead does
 * zone_clear_flag(ZONE_ALL_UNRECLAIMABLE), an atomic RMW on zone->flags,
 * and __mod_zone_page_state before the loop (2.6.32 mm/page_alloc.c
 * free_pcppages_bulk): not yet emulated (issue 12, item 5).
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
		count_add(MMSCALE_PAGES_DRAINED, (u64)pcp->count);	/* thread-local: no store the kernel makes */
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
