// SPDX-License-Identifier: GPL-2.0
/*
 * drain_all_pages() of Linux 2.6.38: commit 2ff754fa ("mm: clear pages_scanned
 * only if draining a pcp adds pages to the buddy allocator", Feb 2011, the
 * upstream form of the seed's idea): drain_pages() calls
 * free_pcppages_bulk() only when pcp->count, so an empty list costs a load,
 * not zone->lock. Still on_each_cpu: every CPU takes the IPI.
 *
 * Its drain_pages is unchanged in 3.4 (3.4 mm/page_alloc.c drain_pages),
 * and 4.11 keeps its logic in drain_pages_zone (split out in 3.19):
 * ipi-mask and workqueue call it from here (drain_pages_count_check).
 */
#include "mmscale/mm/page_alloc.h"

#include "drain_variants.h"

/*
 * Drain pages of the indicated processor.
 *
 * The processor must either be the current processor and the
 * thread pinned to the current processor or a processor that
 * is not online.
 */
void drain_pages_count_check(unsigned int cpu)
{
	unsigned long flags;
	struct zone *zone;

	for_each_populated_zone(zone) {
		struct per_cpu_pageset *pset;
		struct per_cpu_pages *pcp;

		pset = per_cpu_ptr(zone->pageset, cpu);

		local_irq_save(flags);
		pcp = &pset->pcp;
		if (pcp->count) {
			count_add(MMSCALE_PAGES_DRAINED, (u64)pcp->count);	/* thread-local: no store the kernel makes */
			free_pcppages_bulk(zone, pcp->count, pcp);
			WRITE_ONCE(pcp->count, 0);
		}
		local_irq_restore(flags);
	}
}

/*
 * Spill all of this CPU's per-cpu pages back into the buddy allocator.
 */
void drain_local_pages_count_check(void *arg)
{
	(void)arg;
	drain_pages_count_check((unsigned int)smp_processor_id());
}

/*
 * Spill all the per-cpu pages from all CPUs back into the buddy allocator
 */
static void drain_all_pages(void)
{
	on_each_cpu(drain_local_pages_count_check, NULL, 1);
}

const struct drain_variant_ops drain_ops_count_check = {
	.drain_all_pages = drain_all_pages,
	.free_pcppages_bulk = free_pcppages_bulk,
	.smp = &smp_global_queue,	/* 2.6.38 kernel/smp.c */
};
