// SPDX-License-Identifier: GPL-2.0
/*
 * drain_all_pages() of Linux 6.18 (mm/page_alloc.c of ../shared/kernel/6.18,
 * __drain_all_pages 2662-2728): as 6.1's remote row, the caller drains the
 * lists of every CPU with pages itself, under each pcp->lock, with no IPI;
 * since then the lists hold high orders too (NR_PCP_LISTS), pcp->high is
 * tuned at run time, and drain_pages_zone takes pcp->lock for every zone
 * of a CPU it drains, rounds of batch << CONFIG_PCP_BATCH_SCALE_MAX pages
 * at a time. It runs on 6.18's own zones and lists (kernel/linux-6.18/mm/page_alloc.c,
 * kernel/linux-6.18/mm/vmstat.c) through its drain world (kernel/linux-6.18/world/drain.c):
 * allocations take get_page_from_freelist's fast path, rmqueue_pcplist
 * with its trylock, and zone_statistics; frees take __free_frozen_pages'.
 */
#include "mmscale/kernel/smp.h"
#include "mmscale/mm/drain_world.h"

#include "drain_variants.h"

/*
 * No call at all. The mutex (a trylock and an unlock: two locked ops), a
 * locked bitop on cpus_with_pcps for every online CPU, then for each CPU
 * with pages drain_pages: every populated zone's drain_pages_zone takes
 * that CPU's pcp->lock once for an empty list, and for a list with pages
 * once per chunk of batch << CONFIG_PCP_BATCH_SCALE_MAX pages (the count
 * re-read under the lock, 66eca1021a42), each chunk freed under one
 * zone->lock hold in free_pcppages_bulk: that hold, irqsave, is the only
 * section with interrupts off.
 */
static void drain_claim(const struct drain_shape *m, struct drain_cost *c)
{
	unsigned long empty_lists = (unsigned long)m->cpus_with_pages * m->zones -
				    m->lists_with_pages;

	c->zone_locks = m->list_chunks;
	c->locks = empty_lists + 2 * m->list_chunks;
	c->locked_ops = 2 + m->cpus + c->locks;
	c->call_targets = 0;
	c->zone_hold_pages_max = m->chunk_pages_max;
	c->irqoff_pages_max = m->chunk_pages_max;
}

const struct drain_variant_ops drain_ops_6_18 = {
	.drain_all_pages = drain_all_pages_6_18_all_zones,
	.smp = &smp_llist,	/* 6.18's kernel/smp.c (no IPI here) */
	.claim = drain_claim,
	.world = &drain_world_6_18,
};
