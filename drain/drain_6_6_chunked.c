// SPDX-License-Identifier: GPL-2.0
/*
 * drain_pages_zone() as Linux 6.6.y has it since its stable releases of
 * August 2024: 6.1's remote drain (drain/drain_remote.c, 443c2accd1b6),
 * with Lucas Stach's 55f77df7d715 ("mm: page_alloc: control latency caused
 * by zone PCP draining", 6.10; the 6.6-stable copy,
 * <20240807150020.651468680@linuxfoundation.org>, in
 * ../shared/kernel/patches/g-stable-6.6-038-121-*) and Li Zhijian's fix
 * 66eca1021a42 ("mm/page_alloc: Fix pcp->count race between
 * drain_pages_zone() vs __rmqueue_pcplist()", 6.11, its v3
 * <20240723064428.1179519-1-lizhijian@fujitsu.com>, g-v3-*; the first
 * came to 6.6-stable as its Stable-dep-of): a full list is freed batch <<
 * CONFIG_PCP_BATCH_SCALE_MAX pages at a time, pcp->lock and zone->lock
 * dropped between chunks, the count read again under the lock each time,
 * so an empty list on a drained CPU still costs one pcp->lock. Shorter
 * holds, more acquisitions.
 *
 * Everything else is 6.1's code (drain/drain_6_1.h): its allocator paths,
 * free_pcppages_bulk and __drain_all_pages, and 6.1's locking, where
 * pcp->lock is taken irqsave and zone->lock plainly under it; 6.6 takes
 * pcp->lock plainly (the stable diff's context line) and zone->lock irqsave
 * inside free_pcppages_bulk (as 6.18 does, its page_alloc.c 1459; the
 * diff does not show that function), so a chunk is one interrupts-off
 * section either way. 6.6 has no pcp->high
 * tuning (51a755c56dc0 is 6.7): 6.1's fixed high is 6.6's. The ticket
 * lock, as on the rest of the 2.6.x machine (6.6 has qspinlock).
 */
#include "mmscale/linux-2.6/mm/page_alloc.h"

#include "drain_6_1.h"
#include "drain_variants.h"

#define CONFIG_PCP_BATCH_SCALE_MAX	DRAIN_CHUNK_SHIFT

/*
 * Drain pcplists of the indicated processor and zone.
 */
static void drain_pages_zone(unsigned int cpu, struct zone *zone)
{
	struct per_cpu_pages *pcp = &zone_pcp(zone, cpu)->pcp;
	int count;

	do {
		unsigned long flags;

		/* 6.1's irq-safe pcp->lock (see above) */
		spin_lock_irqsave(&pcp->lock, flags);
		count = pcp->count;
		if (count) {
			int to_drain = min(count,
				pcp->batch << CONFIG_PCP_BATCH_SCALE_MAX);

			mmscale_count_add(MMSCALE_PAGES_DRAINED, (u64)to_drain);	/* thread-local: no store the kernel makes */
			free_pcppages_bulk_6_1(zone, to_drain, pcp, 0);
			count -= to_drain;
		}
		spin_unlock_irqrestore(&pcp->lock, flags);
	} while (count);
}

static void drain_all_pages(void)
{
	__drain_all_pages_6_1(drain_pages_zone);
}

/*
 * No call at all, as remote: the caller drains every CPU with pages. For
 * each of them every populated zone takes pcp->lock once for an empty
 * list, and for a list with pages once per chunk, each chunk freed under
 * one zone->lock hold, with interrupts off from pcp->lock to its unlock.
 */
static void drain_claim(const struct drain_shape *m, struct drain_cost *c)
{
	unsigned long empty_lists = (unsigned long)m->cpus_with_pages * m->zones -
				    m->lists_with_pages;

	c->zone_locks = m->list_chunks;
	c->locks = empty_lists + 2 * m->list_chunks;
	c->locked_ops = 2 + m->cpus + c->locks;	/* the mutex, the mask's bitops, the locks */
	c->call_targets = 0;
	c->zone_hold_pages_max = m->chunk_pages_max;
	c->irqoff_pages_max = m->chunk_pages_max;
}

const struct drain_variant_ops drain_ops_6_6_chunked = {
	.drain_all_pages = drain_all_pages,
	.smp = &smp_llist,	/* 6.6 (no IPI here) */
	.claim = drain_claim,
	.machine = &drain_machine_6_1,
};
