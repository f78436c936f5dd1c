// SPDX-License-Identifier: GPL-2.0
/*
 * The emulated memory of the plan: one pg_data_t per planned node (on that
 * node's memory), its zones, their per-CPU pagesets (in each CPU's per-CPU
 * unit, on the CPU's node) and the global vm_stat[] (node 0, as the
 * kernel's static data).
 */
#include <stdlib.h>
#include <string.h>

#include "mmscale/kernel/cpumask.h"
#include "mmscale/kernel/machine.h"
#include "mmscale/mm/vmstat.h"

pg_data_t **node_data;
int nr_node_ids;

static size_t vm_stat_bytes;

#define DMA32_LIMIT_PAGES	((4ULL << 30) >> PAGE_SHIFT)

int cpu_to_node(int cpu)
{
	return the_machine->cpu_node[cpu];
}

struct zone *local_zone(int cpu)
{
	pg_data_t *pgdat = NODE_DATA(cpu_to_node(cpu));

	if (populated_zone(&pgdat->node_zones[ZONE_NORMAL]))
		return &pgdat->node_zones[ZONE_NORMAL];
	return &pgdat->node_zones[ZONE_DMA32];
}

int nr_populated_zones(void)
{
	struct zone *zone;
	int n = 0;

	for_each_populated_zone(zone)
		n++;
	return n;
}

static int init_zone(struct zone *zone, pg_data_t *pgdat, enum zone_type type,
		     unsigned long pages, char *err, size_t errlen)
{
	static const char *const names[MAX_NR_ZONES] = { "DMA32", "Normal" };

	memset(zone, 0, sizeof(*zone));
	zone->node = pgdat->node_id;
	zone->zone_pgdat = pgdat;
	zone->name = names[type];
	zone->present_pages = pages;
	spin_lock_init(&zone->lock);
	INIT_LIST_HEAD(&zone->free_list);
	for (int i = 0; i < NR_VM_ZONE_STAT_ITEMS; i++)
		atomic_long_set(&zone->vm_stat[i], 0);
	if (!pages)
		return 0;
	zone->pageset = alloc_percpu(struct per_cpu_pageset);
	if (!zone->pageset)
		return mmscale_errorf(err, errlen, "per-CPU units full: cannot allocate "
				      "the pagesets of node %d zone %s", zone->node, zone->name);
	for (unsigned int cpu = 0; cpu < nr_cpu_ids; cpu++) {
		struct per_cpu_pages *pcp = &per_cpu_ptr(zone->pageset, cpu)->pcp;

		for (int mt = 0; mt < MIGRATE_PCPTYPES; mt++)
			INIT_LIST_HEAD(&pcp->lists[mt]);
	}
	return 0;
}

/* The running machine's parameters (mm_machine_setup_config keeps a copy). */
static struct mm_machine_config machine_config;

void mm_config_set_vmstat_interval(struct mm_machine_config *cfg, unsigned int interval_ms)
{
	cfg->vmstat_interval_ns = (u64)interval_ms * 1000000u;
	/* HZ/10 = 100000 us in the kernel; at least 1 us so the period never vanishes. */
	cfg->vmstat_interval_scaled_ns = cfg->vmstat_interval_ns * cfg->congestion_wait_us / 100000u;
	if (!cfg->vmstat_interval_scaled_ns)
		cfg->vmstat_interval_scaled_ns = 1000u;
}

void mm_config_default(struct mm_machine_config *cfg, uint64_t mem_bytes)
{
	*cfg = (struct mm_machine_config){
		.mem_bytes = mem_bytes,
		.counter_layout = MMSCALE_LAYOUT_PACKED,
		.congestion_wait_us = MM_DEFAULT_CONGESTION_WAIT_US,
		.device_pages_per_ms = MM_DEFAULT_DEVICE_PAGES_PER_MS,
		.swap = MM_DEFAULT_SWAP,
	};
	mm_config_set_vmstat_interval(cfg, MM_DEFAULT_VMSTAT_INTERVAL_MS);
}

const struct mm_machine_config *mm_config(void)
{
	return &machine_config;
}

int mm_machine_setup(uint64_t mem_bytes, char *err, size_t errlen)
{
	struct mm_machine_config cfg;

	mm_config_default(&cfg, mem_bytes);
	return mm_machine_setup_config(&cfg, err, errlen);
}

int mm_machine_setup_config(const struct mm_machine_config *cfg, char *err, size_t errlen)
{
	int nodes;
	unsigned long long per_node;
	struct zone *zone;

	if (!the_machine)
		return mmscale_errorf(err, errlen, "mm_machine_setup before the machine");
	mm_machine_teardown();
	machine_config = *cfg;
	nodes = the_machine->nr_nodes;
	per_node = (cfg->mem_bytes >> PAGE_SHIFT) / (unsigned long long)nodes;
	node_data = calloc((size_t)nodes, sizeof(*node_data));
	if (!node_data)
		return mmscale_errorf(err, errlen, "out of memory");
	nr_node_ids = nodes;
	for (int nid = 0; nid < nodes; nid++) {
		pg_data_t *pgdat = alloc_on_node(nid, sizeof(*pgdat), err, errlen);
		unsigned long long dma32 = nid == 0 ? min(per_node, DMA32_LIMIT_PAGES) : 0;

		if (!pgdat) {
			nr_node_ids = nid;
			mm_machine_teardown();
			return -1;
		}
		node_data[nid] = pgdat;
		pgdat->node_id = nid;
		pgdat->nr_zones = MAX_NR_ZONES;
		if (init_zone(&pgdat->node_zones[ZONE_DMA32], pgdat, ZONE_DMA32,
			      (unsigned long)dma32, err, errlen) ||
		    init_zone(&pgdat->node_zones[ZONE_NORMAL], pgdat, ZONE_NORMAL,
			      (unsigned long)(per_node - dma32), err, errlen)) {
			nr_node_ids = nid + 1;
			mm_machine_teardown();
			return -1;
		}
	}
	vm_stat_stride = cfg->counter_layout == MMSCALE_LAYOUT_PADDED ?
			 L1_CACHE_BYTES : sizeof(atomic_long_t);
	for (int i = 0; i < NR_VM_ZONE_STAT_ITEMS; i++)
		vm_stat_index[i] = (unsigned char)(cfg->vm_stat_numbering == MM_VM_STAT_3_2 ?
						   VM_STAT_3_2_INDEX(i) : i);
	vm_stat_bytes = vm_stat_stride * (cfg->vm_stat_numbering == MM_VM_STAT_3_2 ?
					  NR_VM_ZONE_STAT_ITEMS_3_2 : NR_VM_ZONE_STAT_ITEMS);
	/*
	 * Line aligned (VM_STAT_ALIGN, mmzone.h says why): the packed array's
	 * items 8k..8k+7 share a line in every run. The node-0 allocation is
	 * page-granular, which gives that and keeps other data off its lines.
	 */
	vm_stat_base = alloc_global(vm_stat_bytes, err, errlen);
	if (!vm_stat_base) {
		mm_machine_teardown();
		return -1;
	}
	if ((uintptr_t)vm_stat_base % VM_STAT_ALIGN) {
		mm_machine_teardown();
		return mmscale_errorf(err, errlen, "vm_stat[] is not %d-byte aligned", VM_STAT_ALIGN);
	}
	refresh_zone_stat_thresholds();
	/* Boot: every page free. */
	for_each_populated_zone(zone)
		zone_page_state_add((long)zone->present_pages, zone, NR_FREE_PAGES);
	return 0;
}

void mm_machine_teardown(void)
{
	for (int nid = 0; node_data && nid < nr_node_ids; nid++) {
		pg_data_t *pgdat = node_data[nid];

		if (!pgdat)
			continue;
		for (int z = 0; z < MAX_NR_ZONES; z++)
			free_percpu(pgdat->node_zones[z].pageset);
		free_on_node(pgdat, sizeof(*pgdat));
	}
	free(node_data);
	node_data = NULL;
	nr_node_ids = 0;
	free_on_node(vm_stat_base, vm_stat_bytes);
	vm_stat_base = NULL;
}
