// SPDX-License-Identifier: GPL-2.0
/*
 * drain_all_pages() after commit 443c2accd1b6 ("mm/page_alloc: remotely
 * drain per-cpu lists", Nicolas Saenz Julienne, v6.1): each per-CPU list
 * has a spinlock, so the caller drains the lists of the CPUs that have
 * pages itself, one after the other, with no IPI and no work item. The
 * price moves to the fast paths: every allocation and free to a pcp list
 * takes that (normally uncontended) lock. 6.1 takes it with
 * pcp_spin_trylock_irqsave and falls back to the buddy under zone->lock
 * (6.1-rc7 mm/page_alloc.c); the emulated allocator blocks on it instead
 * while this variant runs (pcp_locking; issue 12, item 5).
 */
#include <pthread.h>

#include "mmscale/mm/page_alloc.h"

static pthread_mutex_t pcpu_drain_mutex = PTHREAD_MUTEX_INITIALIZER;


/*
 * Drain pcplists of the indicated processor and zone.
 */
static void drain_pages_zone(unsigned int cpu, struct zone *zone)
{
	struct per_cpu_pages *pcp;

	pcp = &per_cpu_ptr(zone->pageset, cpu)->pcp;
	if (READ_ONCE(pcp->count)) {
		spin_lock(&pcp->lock);
		count_add(MMSCALE_PAGES_DRAINED, (u64)pcp->count);	/* thread-local: no store the kernel makes */
		free_pcppages_bulk(zone, pcp->count, pcp);
		WRITE_ONCE(pcp->count, 0);
		spin_unlock(&pcp->lock);
	}
}

/*
 * Drain pcplists of all zones on the indicated processor.
 */
static void drain_pages(unsigned int cpu)
{
	struct zone *zone;

	for_each_populated_zone(zone) {
		drain_pages_zone(cpu, zone);
	}
}

static void drain_all_pages(void)
{
	unsigned int cpu;
	struct zone *zone;
	static _Thread_local cpumask_t cpus_with_pcps;

	/*
	 * Do not drain if one is already in progress unless it's specific to
	 * a zone. Such callers are primarily CMA and memory hotplug and need
	 * the drain to be complete when the call returns.
	 */
	if (pthread_mutex_trylock(&pcpu_drain_mutex) != 0) {
		count_inc(MMSCALE_DRAINS_SKIPPED);
		return;
	}

	/*
	 * We don't care about racing with CPU hotplug event
	 * as offline notification will cause the notified
	 * cpu to drain that CPU pcps and on_each_cpu_mask
	 * disables preemption as part of its processing
	 */
	for_each_online_cpu(cpu) {
		struct per_cpu_pages *pcp;
		bool has_pcps = false;

		for_each_populated_zone(zone) {
			pcp = &per_cpu_ptr(zone->pageset, cpu)->pcp;
			if (READ_ONCE(pcp->count)) {
				has_pcps = true;
				break;
			}
		}

		if (has_pcps)
			cpumask_set_cpu(cpu, &cpus_with_pcps);
		else
			cpumask_clear_cpu(cpu, &cpus_with_pcps);
	}

	for_each_cpu(cpu, &cpus_with_pcps) {
		drain_pages(cpu);
	}

	pthread_mutex_unlock(&pcpu_drain_mutex);
}

const struct drain_variant_ops drain_ops_remote = {
	.drain_all_pages = drain_all_pages,
	.free_pcppages_bulk = free_pcppages_bulk,
	.pcp_locking = true,
	.smp_model = MMSCALE_SMP_PERCPU,	/* 6.1 (no IPI here) */
};
