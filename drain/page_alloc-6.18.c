// SPDX-License-Identifier: GPL-2.0
/*
 * The page allocator of Linux 6.18 (mm/page_alloc.c, blob ed82ee55; see
 * include/mmscale/mm/page_alloc-6.18.h for what is here and where).
 */
#include "mmscale/kernel/cpumask.h"
#include "mmscale/kernel/machine.h"
#include "mmscale/mm/page_alloc-6.18.h"

#define SZ_1M		(1UL << 20)

static unsigned long rounddown_pow_of_two(unsigned long n)
{
	return 1UL << ilog2(n);
}

static unsigned long zone_managed(struct zone *zone)
{
	return (unsigned long)atomic_long_read(&zone->managed_pages);
}

int zone_batchsize(struct zone *zone)
{
	int batch;

	/*
	 * The number of pages to batch allocate is either ~0.1%
	 * of the zone or 1MB, whichever is smaller. The batch
	 * size is striking a balance between allocation latency
	 * and zone lock contention.
	 */
	batch = (int)min(zone_managed(zone) >> 10, SZ_1M / PAGE_SIZE);
	batch /= 4;		/* We effectively *= 4 below */
	if (batch < 1)
		batch = 1;

	/*
	 * Clamp the batch to a 2^n - 1 value. Having a power
	 * of 2 value was found to be more likely to have
	 * suboptimal cache aliasing properties in some cases.
	 */
	batch = (int)rounddown_pow_of_two((unsigned long)(batch + batch / 2)) - 1;

	return batch;
}

/* cpumask_weight(cpumask_of_node(nid)): the online emulated CPUs on the node. */
static int node_online_cpus(int nid)
{
	unsigned int cpu;
	int n = 0;

	for_each_online_cpu(cpu)
		if (cpu_to_node((int)cpu) == nid)
			n++;
	return n;
}

int zone_highsize(struct zone *zone, int batch, int cpu_online, int high_fraction)
{
	int high;
	int nr_split_cpus;
	unsigned long total_pages;

	if (!high_fraction) {
		/*
		 * By default, the high value of the pcp is based on the zone
		 * low watermark so that if they are full then background
		 * reclaim will not be started prematurely.
		 */
		total_pages = low_wmark_pages(zone);
	} else {
		/*
		 * If percpu_pagelist_high_fraction is configured, the high
		 * value is based on a fraction of the managed pages in the
		 * zone.
		 */
		total_pages = zone_managed(zone) / (unsigned long)high_fraction;
	}

	/*
	 * Split the high value across all online CPUs local to the zone. For
	 * memory nodes that have no CPUs, split the high value across all
	 * online CPUs to mitigate the risk that reclaim is triggered
	 * prematurely due to pages stored on pcp lists.
	 */
	nr_split_cpus = node_online_cpus(zone->node) + cpu_online;
	if (!nr_split_cpus)
		nr_split_cpus = (int)num_online_cpus();
	high = (int)(total_pages / (unsigned long)nr_split_cpus);

	/*
	 * Ensure high is at least batch*4. The multiple is based on the
	 * historical relationship between high and batch.
	 */
	high = max(high, batch << 2);

	return high;
}

void zone_pageset_high_and_batch_6_18(struct zone *zone, int cpu_online, int high_fraction,
				      int *high_min, int *high_max, int *batch)
{
	*batch = max(1, zone_batchsize(zone));
	if (high_fraction) {
		*high_min = zone_highsize(zone, *batch, cpu_online, high_fraction);
		/*
		 * PCP high is tuned manually, disable auto-tuning via
		 * setting high_min and high_max to the manual value.
		 */
		*high_max = *high_min;
	} else {
		*high_min = zone_highsize(zone, *batch, cpu_online, 0);
		*high_max = zone_highsize(zone, *batch, cpu_online,
					  MIN_PERCPU_PAGELIST_HIGH_FRACTION);
	}
}
