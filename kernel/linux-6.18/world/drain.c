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

/* The chunks a drain's claim counts (struct drain_shape) are 6.18's. */
BUILD_BUG_ON(DRAIN_CHUNK_SHIFT != CONFIG_PCP_BATCH_SCALE_MAX);

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
		unsigned long on_cpu = 0;

		for_each_populated_zone(zone) {
			struct per_cpu_pages *pcp = per_cpu_ptr(zone->per_cpu_pageset, cpu);

			drain_shape_add_list(m, (unsigned long)pcp->count, (unsigned long)pcp->batch);
			on_cpu += (unsigned long)pcp->count;
		}
		m->cpus_with_pages += on_cpu != 0;
		if (on_cpu > m->cpu_pages_max)
			m->cpu_pages_max = on_cpu;
		if (cpu == (unsigned int)smp_processor_id())
			m->caller_has_pages = on_cpu != 0;
	}
}

/*
 * drain/full's fill: n order-0 blocks onto this CPU's own list
 * (pcp_6_18_fill, where a free puts them), with NR_FREE_PAGES lowered by
 * the CPU's own vmstat diff under zone->lock's interrupts-off, as
 * rmqueue_bulk's __rmqueue accounts them, so that world_conserved holds
 * with the lists full. Not a kernel path: its counts are the caller's to
 * exclude.
 */
static unsigned long world_fill_local(unsigned long n)
{
	struct zone *zone = local_zone_6_18(smp_processor_id());
	unsigned long flags, filled;

	spin_lock_irqsave(&zone->lock, flags);
	filled = pcp_6_18_fill(zone, (unsigned int)smp_processor_id(), 0, n);
	__mod_zone_page_state(zone, NR_FREE_PAGES, -(long)filled);
	spin_unlock_irqrestore(&zone->lock, flags);
	return filled;
}

/* A list "full": high_min, the high 6.18 boots with (6.1's formula), before any tuning. */
static unsigned long world_list_high(unsigned int cpu)
{
	return (unsigned long)local_zone_6_18((int)cpu)->pageset_high_min;
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
	.fill_local = world_fill_local,
	.list_high = world_list_high,
};
