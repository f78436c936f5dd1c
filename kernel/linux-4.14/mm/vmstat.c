// SPDX-License-Identifier: GPL-2.0
/*
 * Linux 4.14's NUMA statistics (see include/mmscale/linux-4.14/mm/vmstat.h for
 * the files and blobs): __inc_numa_state (mm/vmstat.c 867-880) and
 * zone_statistics (mm/page_alloc.c 2741-2757), on a zone per node of the
 * emulated machine, and what the vmstat/numa_stat case needs around them
 * (mmscale/mm/numa_stat.h).
 */
#include <stdlib.h>
#include <string.h>

#include "mmscale/errorf.h"
#include "mmscale/kernel/cpumask.h"
#include "mmscale/kernel/machine.h"
#include "mmscale/kernel/percpu.h"
#include "mmscale/kernel/processor.h"
#include "mmscale/linux-4.14/mm/vmstat.h"
#include "mmscale/mm/numa_stat.h"

atomic_long_t *vm_numa_stat;

/* The zone of each node (4.14's node_zones[ZONE_NORMAL]); [cpu_to_node(cpu)] is a CPU's local one. */
static struct zone **node_zone;
static int nr_zones;

void __inc_numa_state(struct zone *zone,
				 enum numa_stat_item item)
{
	/* __this_cpu_inc_return on the pageset's u16: this CPU's own, so a plain increment */
	struct per_cpu_pageset *pcp = this_cpu_ptr(zone->pageset);
	u16 *p = pcp->vm_numa_stat_diff + item;
	u16 v;

	v = ++*p;

	if (unlikely(v > NUMA_STATS_THRESHOLD)) {
		zone_numa_state_add(v, zone, item);
		*p = 0;		/* __this_cpu_write(*p, 0) */
	}
}

void zone_statistics(struct zone *preferred_zone, struct zone *z)
{
	enum numa_stat_item local_stat = NUMA_LOCAL;

	if (z->node != numa_node_id())
		local_stat = NUMA_OTHER;

	if (z->node == preferred_zone->node)
		__inc_numa_state(z, NUMA_HIT);
	else {
		__inc_numa_state(z, NUMA_MISS);
		__inc_numa_state(preferred_zone, NUMA_FOREIGN);
	}
	__inc_numa_state(z, local_stat);
}

void numa_stat_4_14_teardown(void)
{
	for (int n = 0; node_zone && n < nr_zones; n++) {
		if (node_zone[n]) {
			free_percpu(node_zone[n]->pageset);
			free_on_node(node_zone[n], sizeof(struct zone));
		}
	}
	free(node_zone);
	node_zone = NULL;
	nr_zones = 0;
	if (vm_numa_stat)
		free_on_node(vm_numa_stat, sizeof(atomic_long_t) * NR_VM_NUMA_STAT_ITEMS);
	vm_numa_stat = NULL;
}

int numa_stat_4_14_setup(char *err, size_t errlen)
{
	numa_stat_4_14_teardown();
	vm_numa_stat = alloc_global(sizeof(atomic_long_t) * NR_VM_NUMA_STAT_ITEMS, err, errlen);
	node_zone = calloc((size_t)the_machine->nr_nodes, sizeof(*node_zone));
	if (!vm_numa_stat || !node_zone) {
		numa_stat_4_14_teardown();
		return vm_numa_stat ? mmscale_errorf(err, errlen, "out of memory") : -1;
	}
	memset(vm_numa_stat, 0, sizeof(atomic_long_t) * NR_VM_NUMA_STAT_ITEMS);
	nr_zones = the_machine->nr_nodes;
	for (int n = 0; n < nr_zones; n++) {
		struct zone *z = alloc_on_node(n, sizeof(*z), err, errlen);

		node_zone[n] = z;
		if (!z) {
			numa_stat_4_14_teardown();
			return -1;
		}
		memset(z, 0, sizeof(*z));
		z->node = n;
		z->pageset = alloc_percpu(struct per_cpu_pageset);
		if (!z->pageset) {
			numa_stat_4_14_teardown();
			return mmscale_errorf(err, errlen, "per-CPU units full");
		}
	}
	return 0;
}

void numa_stat_4_14_local_alloc(void)
{
	struct zone *z = node_zone[numa_node_id()];

	zone_statistics(z, z);
}

int numa_stat_4_14_check(uint64_t local_allocs, char *err, size_t errlen)
{
	static const enum numa_stat_item counted[] = { NUMA_HIT, NUMA_LOCAL };

	for (size_t i = 0; i < ARRAY_SIZE(counted); i++) {
		enum numa_stat_item item = counted[i];
		long global = atomic_long_read(&vm_numa_stat[item]), zones = 0, diffs = 0;

		for (int n = 0; n < nr_zones; n++) {
			zones += atomic_long_read(&node_zone[n]->vm_numa_stat[item]);
			for (unsigned int cpu = 0; cpu < nr_cpu_ids; cpu++)
				diffs += per_cpu_ptr(node_zone[n]->pageset, cpu)->vm_numa_stat_diff[item];
		}
		if (zones != global || (uint64_t)(global + diffs) != local_allocs)
			return mmscale_errorf(err, errlen, "4.14 NUMA item %d: zones %ld, global %ld, "
					      "per-CPU diffs %ld, %llu allocations made", (int)item,
					      zones, global, diffs, (unsigned long long)local_allocs);
	}
	return 0;
}

/* Each item folds its diff once it passes NUMA_STATS_THRESHOLD, back to 0. */
uint64_t numa_stat_4_14_folds(uint64_t n)
{
	return 2 * (n / (NUMA_STATS_THRESHOLD + 1));
}
