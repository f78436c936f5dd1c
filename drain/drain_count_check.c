// SPDX-License-Identifier: GPL-2.0
/*
 * drain_all_pages() of Linux 2.6.38: commit 2ff754fa ("mm: clear pages_scanned
 * only if draining a pcp adds pages to the buddy allocator", Feb 2011, the
 * upstream form of the seed's idea): drain_pages() calls
 * free_pcppages_bulk() only when pcp->count, so an empty list costs a load,
 * not zone->lock. Still on_each_cpu: every CPU takes the IPI. Its
 * drain_pages (drain_pages_count_check) is kernel/linux-2.6/mm/page_alloc.c's, which the
 * later variants share.
 */
#include "mmscale/linux-2.6/mm/page_alloc.h"

#include "drain_variants.h"

/*
 * Spill all the per-cpu pages from all CPUs back into the buddy allocator
 */
static void drain_all_pages(void)
{
	on_each_cpu(drain_local_pages_count_check, NULL, 1);
}

/*
 * on_each_cpu: a call to every other CPU; free_pcppages_bulk, with its
 * zone->lock, only for a list that holds pages, which one hold frees
 * whole; interrupts off for each CPU's whole call.
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

const struct drain_variant_ops drain_ops_count_check = {
	.drain_all_pages = drain_all_pages,
	.smp = &smp_global_queue,	/* 2.6.38 kernel/smp.c */
	.claim = drain_claim,
	.machine = &(const struct drain_machine_2_6){
		.free_pcppages_bulk = free_pcppages_bulk,
	},
};
