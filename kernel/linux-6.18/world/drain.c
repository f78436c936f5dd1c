// SPDX-License-Identifier: GPL-2.0
/*
 * Linux 6.18's page allocator as a drain world (mmscale/mm/drain_world.h):
 * the 6.18 zones and statistics (kernel/linux-6.18/mm/vmstat.c) and per-CPU page
 * lists (kernel/linux-6.18/mm/page_alloc.c) behind the drain/ cases' allocations, frees and
 * drains, so that the "6.18" row of drain/empty and drain/swap_cpuset
 * (drain/drain_6_18.c) runs the kernel's own paths beside the older rows.
 *
 * The pagesets as 6.18 boots them: percpu_pagelist_high_fraction 0 (high
 * auto-tuned between high_min and high_max), PCPF_FREE_HIGH_BATCH set as on
 * bare-metal x86 (the case choice pcp/drain makes too), order-0 lists only
 * (the drain/ cases allocate single pages), and pools sized as the 2.6.x
 * machine's: 1024 pages per zone and room for every CPU of its node to
 * hold high_max + 2 x batch.
 */
#include "mmscale/errorf.h"
#include "mmscale/mm/drain_world.h"
#include "mmscale/linux-6.18/mm/pcp.h"
#include "mmscale/linux-6.18/mm/vmstat.h"

#define POOL_BASE_PAGES	1024

static int world_setup(const struct mm_machine_config *cfg, char *err, size_t errlen)
{
	const struct pcp_6_18_config pc = {
		.orders = { 0 }, .nr_orders = 1, .free_high_batch = true,
		.nr_blocks = POOL_BASE_PAGES, .room_for_lists = true,
	};

	if (vmstat_6_18_setup(cfg, err, errlen) != 0)
		return -1;
	if (pcp_6_18_setup(&pc, err, errlen) != 0) {
		vmstat_6_18_teardown();
		return -1;
	}
	return 0;
}

static void world_teardown(void)
{
	pcp_6_18_teardown();
	vmstat_6_18_teardown();
}

static unsigned long pages_on_pcp_lists(struct zone *zone)
{
	unsigned long pages = 0;

	for (unsigned int cpu = 0; cpu < nr_cpu_ids; cpu++)
		pages += (unsigned long)per_cpu_ptr(zone->per_cpu_pageset, cpu)->count;
	return pages;
}

/*
 * The lists and the pools agree (pcp_6_18_check), the statistics fold to
 * their global sums (vmstat_6_18_check, which folds every CPU's diffs), and
 * then each zone's NR_FREE_PAGES is its managed pages less those on pcp
 * lists: every page of the pool began free in both, and the buddy accounts
 * each block it gives or takes back (account_freepages).
 */
static int world_conserved(char *err, size_t errlen)
{
	struct zone *zone;

	if (pcp_6_18_check(err, errlen) != 0 || vmstat_6_18_check(err, errlen) != 0)
		return -1;
	for_each_populated_zone(zone) {
		long free = atomic_long_read(&zone->vm_stat[NR_FREE_PAGES]);
		long want = (long)zone_managed_pages(zone) - (long)pages_on_pcp_lists(zone);

		if (free != want)
			return mmscale_errorf(err, errlen, "6.18: node %d zone %s: NR_FREE_PAGES "
					      "%ld, managed less pcp lists %ld", zone->node,
					      zone->name, free, want);
	}
	return 0;
}

static void *world_alloc_local(void)
{
	return alloc_local_page_6_18();
}

/* free_frozen_pages(page, 0): the page's zone is the CPU's local one, where it came from. */
static void world_free_local(void *page)
{
	free_frozen_pages_6_18(local_zone_6_18(smp_processor_id()), page);
}

static void world_shape(struct drain_shape *m)
{
	struct zone *zone;
	unsigned int cpu;

	*m = (struct drain_shape){ .cpus = num_online_cpus(), .zones = nr_populated_zones_6_18() };
	for_each_online_cpu(cpu) {
		bool has_pages = false;

		for_each_populated_zone(zone)
			if (per_cpu_ptr(zone->per_cpu_pageset, cpu)->count) {
				m->lists_with_pages++;
				has_pages = true;
			}
		m->cpus_with_pages += has_pages;
		if (cpu == (unsigned int)smp_processor_id())
			m->caller_has_pages = has_pages;
	}
}

static unsigned long world_pages_on_lists(void)
{
	struct zone *zone;
	unsigned long pages = 0;

	for_each_populated_zone(zone)
		pages += pages_on_pcp_lists(zone);
	return pages;
}

void drain_all_pages_6_18_all_zones(void)
{
	drain_all_pages_6_18(NULL);
}

const struct drain_world drain_world_6_18 = {
	.setup = world_setup,
	.teardown = world_teardown,
	.conserved = world_conserved,
	.populated_zones = nr_populated_zones_6_18,
	.alloc_local = world_alloc_local,
	.free_local = world_free_local,
	.shape = world_shape,
	.pages_on_lists = world_pages_on_lists,
};
