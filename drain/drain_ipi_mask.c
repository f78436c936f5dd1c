// SPDX-License-Identifier: GPL-2.0
/*
 * drain_all_pages() after commit 74046494ea68 ("mm: only IPI CPUs to drain
 * local pages if they exist", Gilad Ben-Yossef, v3.4): the caller first
 * looks at every CPU's pcp counts and sends the IPI with on_each_cpu_mask
 * only to CPUs that have pages ("85%+ IPIs saved"); drain_pages keeps the
 * pcp->count check of 2.6.38 (drain_pages_count_check, kernel/linux-2.6/mm/page_alloc.c).
 *
 * As in 3.4, cpus_with_pcps is one static mask in the kernel's .bss that
 * every caller writes bit by bit with locked set_bit/clear_bit, and that
 * smp_call_function_many copies (cpumask_and) while other callers change
 * it: nothing serialises concurrent callers in 3.4 (pcpu_drain_mutex came
 * in 4.11), so with several drainers each one's IPIs follow whatever the
 * mask holds when its call reads it.
 */
#include "mmscale/linux-2.6/mm/page_alloc.h"

#include "drain_variants.h"

/*
 * Spill all the per-cpu pages from all CPUs back into the buddy allocator.
 *
 * Note that this code is protected against sending an IPI to an offline
 * CPU but does not guarantee sending an IPI to newly hotplugged CPUs:
 * on_each_cpu_mask() blocks hotplug and won't talk to offlined CPUs but
 * nothing keeps CPUs from showing up after we populated the cpumask and
 * before the call to on_each_cpu_mask().
 */
static void drain_all_pages(void)
{
	unsigned int cpu;
	struct per_cpu_pageset *pcp;
	struct zone *zone;

	/*
	 * Allocate in the BSS so we wont require allocation in
	 * direct reclaim path for CONFIG_CPUMASK_OFFSTACK=y
	 */
	static cpumask_t cpus_with_pcps;

	/*
	 * We don't care about racing with CPU hotplug event
	 * as offline notification will cause the notified
	 * cpu to drain that CPU pcps and on_each_cpu_mask
	 * disables preemption as part of its processing
	 */
	for_each_online_cpu(cpu) {
		bool has_pcps = false;
		for_each_populated_zone(zone) {
			pcp = zone_pcp(zone, cpu);
			if (READ_ONCE(pcp->pcp.count)) {
				has_pcps = true;
				break;
			}
		}
		if (has_pcps)
			cpumask_set_cpu(cpu, &cpus_with_pcps);
		else
			cpumask_clear_cpu(cpu, &cpus_with_pcps);
	}
	on_each_cpu_mask(&cpus_with_pcps, drain_local_pages_count_check, NULL, 1);
}

/*
 * on_each_cpu_mask(cpus_with_pcps): a call to every other CPU with pages
 * (the caller drains its own without one); drain_pages_count_check takes
 * zone->lock only for a list that holds pages. Locked ops: a set_bit or
 * clear_bit of the mask for every online CPU, and each lock.
 */
static void drain_claim(const struct drain_shape *m, struct drain_cost *c)
{
	c->locks = m->lists_with_pages;
	c->locked_ops = m->cpus + c->locks;
	c->call_targets = m->cpus_with_pages - m->caller_has_pages;
	c->zone_locks = c->locks;
	c->zone_hold_pages_max = m->list_pages_max;	/* one hold per list */
	c->irqoff_pages_max = m->cpu_pages_max;	/* each CPU's whole call */
}

const struct drain_variant_ops drain_ops_ipi_mask = {
	.drain_all_pages = drain_all_pages,
	.smp = &smp_global_queue,	/* 3.4 kernel/smp.c */
	.claim = drain_claim,
	.machine = &(const struct drain_machine_2_6){
		.free_pcppages_bulk = free_pcppages_bulk,
	},
};
