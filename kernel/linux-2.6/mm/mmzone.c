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
#include "mmscale/linux-2.6/mm/vmstat.h"

pg_data_t **node_data;
int nr_node_ids;

static size_t vm_stat_bytes;

#define DMA32_LIMIT_PAGES	((4ULL << 30) >> PAGE_SHIFT)

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

/*
 * The layouts of struct zone (mm/mmzone.h says which variant runs on
 * which), x86_64, SMP, NUMA, SPARSEMEM, 64-byte lines, a 4-byte spinlock_t:
 *
 * 2.6.38 (reconstructed: ../shared/kernel has no 2.6.38 mmzone.h; 2.6.31's
 * struct zone with the fields 2.6.32-2.6.38 added where 2.6.38's
 * page_alloc.c and the 3.x trees use them): watermark[3] 0,
 * percpu_drift_mark 24, lowmem_reserve[4] 32, node 64, min_unmapped_pages
 * 72, min_slab_pages 80, pageset 88, lock 96, all_unreclaimable 100,
 * span_seqlock 104 (MEMORY_HOTPLUG, as the 2.6.32 row), free_area[11] of 88
 * bytes (free_list[5], nr_free) from 112: free_area[0].free_list
 * [MIGRATE_MOVABLE = 2] at 144 (line 2) and its nr_free at 192 (line 3),
 * off the lock's line, as a helper's check against 3.2's struct zone (the
 * same first group) found; _pad1_ 1088; after it, 2.6.31's offsets (its
 * mmzone.h lines 274-414): lru_lock +0, lru[5] +8, reclaim_stat +88,
 * pages_scanned +160, flags +168, vm_stat +176 (25 items, to +376);
 * _pad2_ 1472: the read-mostly group, kept together at zone_pgdat +0,
 * present_pages +8, name +16 (their own offsets differ, their line does
 * not). 1536 bytes.
 *
 * 2.6.32 (2.6.31's struct zone, lines 274-414, with 2.6.32's reclaim_stat
 * holding nr_saved_scan: the same size; a helper read three 2.6.32.y
 * copies - zybsyzlz/linux-2.6.32 ec78931d, chenbq83/Linux-2.6.32.69,
 * xuguangmin/linux-2.6.32.67 - and no copy of 2.6.32.9's own; 2.6.32.9
 * has no percpu_drift_mark, its page_alloc.c uses zone_pcp()): watermark[3]
 * 0, lowmem_reserve[4] 24, node 56, min_unmapped_pages 64, min_slab_pages
 * 72, pageset[4096] 80, lock 80 + 8 x 4096 = 32848 (line 513, byte 16),
 * span_seqlock 32852 (MEMORY_HOTPLUG), free_area[0] 32864 (its
 * free_list[MIGRATE_MOVABLE], list 2 of 5, at 32896; nr_free at +80,
 * 32944: line 514); _pad1_ 64 x (17 + 4096 / 8) = 33856, then 2.6.31's
 * offsets (pages_scanned 34016, flags 34024, vm_stat 34032; 2.6.32's 29
 * items end at 34264, prev_priority, inactive_ratio); _pad2_ 34304:
 * wait_table 0, its two sizes 8 and 16, zone_pgdat 24, zone_start_pfn 32,
 * spanned_pages 40, present_pages 48, name 56. 34368 bytes.
 *
 * 6.1 (CONFIG_CMA=y, MEMORY_HOTPLUG, COMPACTION, MEMORY_ISOLATION,
 * ZONE_DEVICE: a helper's reconstruction from unifreq/linux-6.1.y
 * include/linux/mmzone.h at 2a59ec93, checked field by field against the
 * BTF layouts of Ubuntu's 5.19 and 6.2 kernels, and e6ad640bc404's
 * CACHELINE_PADDING; v6.1's own file was not found): _watermark[4] 0,
 * watermark_boost 32, nr_reserved_highatomic 40, lowmem_reserve[5] 48,
 * node 88, zone_pgdat 96, per_cpu_pageset 104, per_cpu_zonestats 112,
 * pageset_high 120, pageset_batch 124, zone_start_pfn 128, managed_pages
 * 136, spanned 144, present 152, present_early 160, cma 168, name 176,
 * nr_isolate_pageblock 184, span_seqlock 192, initialized 200; _pad1_ 256:
 * free_area[11] of 104 bytes (free_list[6], nr_free) to 1400, so
 * free_area[0].free_list[MIGRATE_MOVABLE = 1] at 272 and its nr_free at
 * 352; flags 1400 (line 21), lock 1408 (line 22, alone); _pad2_ 1472
 * (percpu_drift_mark, compaction); _pad3_ 1536: vm_stat[11],
 * vm_numa_event[6] to 1672: 1728 bytes. The emulation's 25-item vm_stat
 * runs to 1736: 1792.
 */
const struct zone_layout zone_layouts[MM_NR_ZONE_LAYOUTS] = {
	[MM_ZONE_LAYOUT_2_6_38] = {
		.kind = MM_ZONE_LAYOUT_2_6_38, .kernel = "2.6.38", .watermark = 0, .lowmem_reserve = 32, .node = 64,
		.pageset = 88, .lock = 96, .all_unreclaimable = 100,
		.free_list = 112 + 2 * 16, .nr_free = 112 + 80,
		.pages_scanned = 1088 + 160, .flags = 1088 + 168, .vm_stat = 1088 + 176,
		.zone_pgdat = 1472, .present_pages = 1480, .name = 1488,
		.nr_reserved_highatomic = ZONE_NO_FIELD, .watermark_boost = ZONE_NO_FIELD,
		.size = 1536,
	},
	[MM_ZONE_LAYOUT_2_6_32] = {
		.kind = MM_ZONE_LAYOUT_2_6_32, .kernel = "2.6.32", .watermark = 0, .lowmem_reserve = 24, .node = 56,
		.pageset = 80, .pageset_array = true, .lock = 80 + 8 * NR_CPUS,
		.all_unreclaimable = ZONE_NO_FIELD,
		.free_list = 32864 + 2 * 16, .nr_free = 32864 + 80,
		.pages_scanned = 33856 + 160, .flags = 33856 + 168, .vm_stat = 33856 + 176,
		.zone_pgdat = 34304 + 24, .present_pages = 34304 + 48, .name = 34304 + 56,
		.nr_reserved_highatomic = ZONE_NO_FIELD, .watermark_boost = ZONE_NO_FIELD,
		.size = 34368,
	},
	[MM_ZONE_LAYOUT_6_1] = {
		.kind = MM_ZONE_LAYOUT_6_1, .kernel = "6.1", .watermark = 0, .lowmem_reserve = 48, .node = 88,
		.pageset = 104, .lock = 1408, .all_unreclaimable = ZONE_NO_FIELD,
		.free_list = 256 + 16, .nr_free = 256 + 96,
		.pages_scanned = ZONE_NO_FIELD, .flags = 1400, .vm_stat = 1536,
		.zone_pgdat = 96, .present_pages = 152, .name = 176,
		.nr_reserved_highatomic = 40, .watermark_boost = 32,
		.size = 1792,
	},
};

/* The lines the sharing follows from (counters/tests/test_layout.c checks them in memory). */
#define LINE(off)	((off) / L1_CACHE_BYTES)
/* 2.6.38: pageset, node and all_unreclaimable on lock's line; pages_scanned off it. */
BUILD_BUG_ON(LINE(88) != LINE(96) || LINE(64) != LINE(96) || LINE(1088 + 160) == LINE(96));
/* 2.6.38: the order-0 MOVABLE list on line 2, nr_free on 3; _pad1_ after free_area[10]. */
BUILD_BUG_ON(LINE(144) != 2 || LINE(192) != 3 || 112 + 11 * 88 > 1088 || 1088 % L1_CACHE_BYTES);
/* 2.6.32: lock alone but for pageset[4094], [4095]; CPU 0's pointer on line 1. */
BUILD_BUG_ON(80 + 8 * NR_CPUS != 32848 || LINE(32848) != 513 || LINE(80 + 8 * (NR_CPUS - 2)) != 513 ||
	     LINE(80 + 8 * (NR_CPUS - 3)) != 512 || LINE(80) != 1);
BUILD_BUG_ON(LINE(32896) != 514 || LINE(32944) != 514 || 33856 % L1_CACHE_BYTES != 0);
/* 6.1: flags on line 21, lock alone on 22, the pageset pointer on line 1. */
BUILD_BUG_ON(LINE(1400) != 21 || LINE(1408) != 22 || LINE(104) != 1 || LINE(88) != 1);
BUILD_BUG_ON(1536 + 8 * NR_VM_ZONE_STAT_ITEMS > 1792 || 34368 > ZONE_BYTES);

/* The run's (mm_machine_setup_config copies its row): no zone exists before. */
struct zone_layout zone_layout;

static int init_zone(struct zone *zone, pg_data_t *pgdat, enum zone_type type,
		     unsigned long pages, char *err, size_t errlen)
{
	static const char *const names[MAX_NR_ZONES] = { "DMA32", "Normal" };
	struct per_cpu_pageset *pageset;

	memset(zone, 0, sizeof(*zone));
	zone_node(zone) = pgdat->node_id;
	zone_pgdat(zone) = pgdat;
	zone_name(zone) = names[type];
	zone_present_pages(zone) = pages;
	spin_lock_init(&zone_lock(zone));
	INIT_LIST_HEAD(&zone_free_list(zone));
	for (int i = 0; i < NR_VM_ZONE_STAT_ITEMS; i++)
		atomic_long_set(&zone_vm_stat(zone)[i], 0);
	if (!pages)
		return 0;
	pageset = alloc_percpu(struct per_cpu_pageset);
	if (!pageset)
		return mmscale_errorf(err, errlen, "per-CPU units full: cannot allocate "
				      "the pagesets of node %d zone %s", pgdat->node_id, names[type]);
	pgdat->pageset_alloc[type] = pageset;
	/* 2.6.32: each CPU's pointer in zone->pageset[]; later, the per-CPU pointer. */
	if (zone_layout.pageset_array)
		for (unsigned int cpu = 0; cpu < nr_cpu_ids; cpu++)
			(&ZONE_AT(zone, struct per_cpu_pageset *, pageset))[cpu] =
				per_cpu_ptr(pageset, cpu);
	else
		ZONE_AT(zone, struct per_cpu_pageset *, pageset) = pageset;
	for (unsigned int cpu = 0; cpu < nr_cpu_ids; cpu++) {
		struct per_cpu_pages *pcp = &zone_pcp(zone, cpu)->pcp;

		for (int mt = 0; mt < MIGRATE_PCPTYPES; mt++)
			INIT_LIST_HEAD(&pcp->lists[mt]);
	}
	return 0;
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
	if (cfg->zone_layout >= MM_NR_ZONE_LAYOUTS)
		return mmscale_errorf(err, errlen, "no zone layout %u", cfg->zone_layout);
	mm_running_config = *cfg;
	zone_layout = zone_layouts[cfg->zone_layout];
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
		memset(pgdat, 0, sizeof(*pgdat));
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
		zone_page_state_add((long)zone_present_pages(zone), zone, NR_FREE_PAGES);
	return 0;
}

void mm_machine_teardown(void)
{
	for (int nid = 0; node_data && nid < nr_node_ids; nid++) {
		pg_data_t *pgdat = node_data[nid];

		if (!pgdat)
			continue;
		for (int z = 0; z < MAX_NR_ZONES; z++)
			free_percpu(pgdat->pageset_alloc[z]);
		free_on_node(pgdat, sizeof(*pgdat));
	}
	free(node_data);
	node_data = NULL;
	nr_node_ids = 0;
	free_on_node(vm_stat_base, vm_stat_bytes);
	vm_stat_base = NULL;
}
