// SPDX-License-Identifier: GPL-2.0
/*
 * The layouts of include/mmscale/mm/mmzone.h against the kernel's, at run
 * time: the same offsets its _Static_asserts hold (so a change is a test
 * failure with the numbers, not only a build break), and the placement a
 * freshly set-up machine gives the objects: vm_stat[] line aligned in both
 * counter layouts (VM_STAT_ALIGN), every zone and every CPU's pageset line
 * aligned, so the line of each field below is the line it has in memory.
 *
 * The expected numbers are worked out by hand from the kernel's structs on
 * x86_64 (SMP, NUMA; mmzone.h quotes them):
 *
 * struct per_cpu_pageset, 2.6.32 to 2.6.38: pcp.count 0, pcp.high 4,
 * pcp.batch 8, (4-byte hole: list_head is 8-byte aligned), pcp.lists[3]
 * 16..63; expire 64, stat_threshold 65, vm_stat_diff[] 66..; sizeof 128,
 * cacheline aligned. pcp is line 0, the vmstat deltas line 1. The 6.1 pcp
 * lock takes the hole: 12.
 *
 * struct zone, 2.6.38: node 64, pageset 88, lock 96, all_unreclaimable
 * 100 (line 1); after _pad1_ (a line boundary): lru_lock +0, lru[5] +8,
 * reclaim_stat +88, pages_scanned +160, flags +168, vm_stat[] +176 (2.6.31:
 * the same after _pad1_). So pages_scanned is two lines past _pad1_'s,
 * with flags and vm_stat[0..1]; vm_stat[2] starts the next line.
 */
#include <stdint.h>
#include <string.h>

#include "check.h"
#include "mmscale/cpu.h"
#include "mmscale/kernel/cpumask.h"
#include "mmscale/mm/vmstat.h"
#include "mmscale/params.h"

#define LINE(off)	((long long)(off) / L1_CACHE_BYTES)
#define ADDR_LINE(p)	((long long)((uintptr_t)(p) / L1_CACHE_BYTES))

static void test_pageset_layout(void)
{
	CHECK_EQ_LL(offsetof(struct per_cpu_pages, count), 0);
	CHECK_EQ_LL(offsetof(struct per_cpu_pages, high), 4);
	CHECK_EQ_LL(offsetof(struct per_cpu_pages, batch), 8);
	CHECK_EQ_LL(offsetof(struct per_cpu_pages, lock), 12);	/* 6.1 only, in 2.6.x's hole */
	CHECK_EQ_LL(offsetof(struct per_cpu_pages, lists), 16);
	CHECK_EQ_LL(sizeof(struct per_cpu_pages), 64);

	CHECK_EQ_LL(offsetof(struct per_cpu_pageset, pcp), 0);
	CHECK_EQ_LL(offsetof(struct per_cpu_pageset, expire), 64);
	CHECK_EQ_LL(offsetof(struct per_cpu_pageset, stat_threshold), 65);
	CHECK_EQ_LL(offsetof(struct per_cpu_pageset, vm_stat_diff), 66);
	CHECK_EQ_LL(sizeof(struct per_cpu_pageset), 128);
	CHECK_EQ_LL(_Alignof(struct per_cpu_pageset), L1_CACHE_BYTES);

	/* Line by line: the whole pcp on line 0, threshold and every delta on line 1. */
	CHECK_EQ_LL(LINE(offsetof(struct per_cpu_pageset, pcp.count)), 0);
	CHECK_EQ_LL(LINE(offsetof(struct per_cpu_pageset, pcp.lock)), 0);
	CHECK_EQ_LL(LINE(offsetof(struct per_cpu_pageset, pcp.lists[MIGRATE_PCPTYPES - 1]) +
			 sizeof(struct list_head) - 1), 0);
	CHECK_EQ_LL(LINE(offsetof(struct per_cpu_pageset, stat_threshold)), 1);
	CHECK_EQ_LL(LINE(offsetof(struct per_cpu_pageset, vm_stat_diff[0])), 1);
	CHECK_EQ_LL(LINE(offsetof(struct per_cpu_pageset,
				  vm_stat_diff[NR_VM_ZONE_STAT_ITEMS - 1])), 1);
	/* 2.6.38's 32 items would still end on line 1 (66 + 32 - 1 = 97). */
	CHECK(66 + 32 - 1 < 2 * L1_CACHE_BYTES);
}

static void test_zone_layout(void)
{
	size_t pad1 = offsetof(struct zone, _pad1_);

	CHECK_EQ_LL(sizeof(struct zone_padding), 0);

	CHECK_EQ_LL(offsetof(struct zone, node), 64);
	CHECK_EQ_LL(offsetof(struct zone, pageset), 88);
	CHECK_EQ_LL(offsetof(struct zone, lock), 96);
	CHECK_EQ_LL(offsetof(struct zone, all_unreclaimable), 100);
	CHECK_EQ_LL(LINE(offsetof(struct zone, lock)), 1);
	CHECK_EQ_LL(LINE(offsetof(struct zone, pageset)), 1);
	CHECK_EQ_LL(LINE(offsetof(struct zone, all_unreclaimable)), 1);
	/* The emulated free list (free_area[]) stays in the allocator's group. */
	CHECK(offsetof(struct zone, free_list) > offsetof(struct zone, lock));
	CHECK(offsetof(struct zone, nr_free) + sizeof(unsigned long) <= pad1);

	CHECK_EQ_LL(pad1 % L1_CACHE_BYTES, 0);
	CHECK_EQ_LL(offsetof(struct zone, lru_lock) - pad1, 0);
	CHECK_EQ_LL(offsetof(struct zone, lru) - pad1, 8);
	CHECK_EQ_LL(offsetof(struct zone, reclaim_stat) - pad1, 88);
	CHECK_EQ_LL(offsetof(struct zone, pages_scanned) - pad1, 160);
	CHECK_EQ_LL(offsetof(struct zone, flags) - pad1, 168);
	CHECK_EQ_LL(offsetof(struct zone, vm_stat) - pad1, 176);

	/* Lines relative to _pad1_'s: lru_lock 0, pages_scanned 2 with flags and items 0-1. */
	CHECK_EQ_LL(LINE(offsetof(struct zone, pages_scanned)) - LINE(pad1), 2);
	CHECK(LINE(offsetof(struct zone, pages_scanned)) != LINE(offsetof(struct zone, lock)));
	CHECK_EQ_LL(LINE(offsetof(struct zone, flags)), LINE(offsetof(struct zone, pages_scanned)));
	CHECK_EQ_LL(LINE(offsetof(struct zone, vm_stat[NR_FREE_PAGES])),
		    LINE(offsetof(struct zone, pages_scanned)));
	CHECK_EQ_LL(LINE(offsetof(struct zone, vm_stat[NR_INACTIVE_ANON])),
		    LINE(offsetof(struct zone, pages_scanned)));
	CHECK_EQ_LL(LINE(offsetof(struct zone, vm_stat[NR_ACTIVE_ANON])),
		    LINE(offsetof(struct zone, pages_scanned)) + 1);
	/* The zone's dirty counters: 10, 11 and 15 on one line (items 10-17), 9 on the one before. */
	CHECK_EQ_LL(LINE(offsetof(struct zone, vm_stat[NR_FILE_DIRTY])),
		    LINE(offsetof(struct zone, vm_stat[NR_UNSTABLE_NFS])));
	CHECK_EQ_LL(LINE(offsetof(struct zone, vm_stat[NR_FILE_PAGES])) + 1,
		    LINE(offsetof(struct zone, vm_stat[NR_FILE_DIRTY])));

	/* _pad2_: the read-mostly group starts a line after the last vm_stat item. */
	CHECK_EQ_LL(offsetof(struct zone, _pad2_) % L1_CACHE_BYTES, 0);
	CHECK(LINE(offsetof(struct zone, vm_stat[NR_VM_ZONE_STAT_ITEMS - 1])) <
	      LINE(offsetof(struct zone, zone_pgdat)));
	CHECK_EQ_LL(offsetof(struct zone, zone_pgdat), offsetof(struct zone, _pad2_));
	CHECK_EQ_LL(LINE(offsetof(struct zone, present_pages)),
		    LINE(offsetof(struct zone, zone_pgdat)));
	CHECK_EQ_LL(sizeof(struct zone) % L1_CACHE_BYTES, 0);
	CHECK_EQ_LL(_Alignof(struct zone), L1_CACHE_BYTES);
}

/* A fresh machine: where the objects the layouts describe actually are. */
static void check_machine(enum mmscale_counter_layout layout)
{
	char err[256];
	struct zone *zone;
	int zones = 0;

	struct mm_machine_config cfg;

	mm_config_default(&cfg, 1ULL << 30);
	cfg.counter_layout = layout;
	if (mm_machine_setup_config(&cfg, err, sizeof(err)) != 0) {
		fprintf(stderr, "%s\n", err);
		CHECK(0);
		return;
	}
	CHECK_EQ_LL((uintptr_t)vm_stat_base % VM_STAT_ALIGN, 0);
	CHECK_EQ_LL(VM_STAT_ALIGN, L1_CACHE_BYTES);
	if (layout == MMSCALE_LAYOUT_PACKED) {
		CHECK_EQ_LL(vm_stat_stride, sizeof(atomic_long_t));
		/* Eight to a line, from a line start: 0-7, 8-15 (the dirty counters), 16-23, 24. */
		for (int i = 0; i < NR_VM_ZONE_STAT_ITEMS; i++)
			CHECK_EQ_LL(ADDR_LINE(vm_stat_slot(i)) - ADDR_LINE(vm_stat_base), i / 8);
		CHECK_EQ_LL(ADDR_LINE(vm_stat_slot(NR_FILE_DIRTY)),
			    ADDR_LINE(vm_stat_slot(NR_UNSTABLE_NFS)));
	} else {
		CHECK_EQ_LL(vm_stat_stride, L1_CACHE_BYTES);
		for (int i = 0; i < NR_VM_ZONE_STAT_ITEMS; i++)
			CHECK_EQ_LL(ADDR_LINE(vm_stat_slot(i)) - ADDR_LINE(vm_stat_base), i);
	}

	for_each_zone(zone) {
		CHECK_EQ_LL((uintptr_t)zone % L1_CACHE_BYTES, 0);
		/* In memory, not only in offsetof: pages_scanned off the lock's line, on vm_stat[0]'s. */
		CHECK(ADDR_LINE(&zone->pages_scanned) != ADDR_LINE(&zone->lock));
		CHECK_EQ_LL(ADDR_LINE(&zone->pages_scanned), ADDR_LINE(&zone->vm_stat[NR_FREE_PAGES]));
		CHECK_EQ_LL(ADDR_LINE(&zone->lock), ADDR_LINE(&zone->pageset));
		if (!populated_zone(zone)) {
			CHECK(zone->pageset == NULL);
			continue;
		}
		zones++;
		for (unsigned int cpu = 0; cpu < nr_cpu_ids; cpu++) {
			struct per_cpu_pageset *p = per_cpu_ptr(zone->pageset, cpu);

			CHECK_EQ_LL((uintptr_t)p % L1_CACHE_BYTES, 0);
			CHECK_EQ_LL(ADDR_LINE(&p->pcp.count), ADDR_LINE(p));
			CHECK_EQ_LL(ADDR_LINE(&p->pcp.lock), ADDR_LINE(p));
			CHECK_EQ_LL(ADDR_LINE(&p->stat_threshold), ADDR_LINE(p) + 1);
			CHECK_EQ_LL(ADDR_LINE(&p->vm_stat_diff[NR_VM_ZONE_STAT_ITEMS - 1]),
				    ADDR_LINE(p) + 1);
			CHECK(p->stat_threshold > 0);
		}
	}
	CHECK_EQ_LL(zones, nr_populated_zones());
	CHECK(zones >= 2);
	mm_machine_teardown();
}

/*
 * The lines the global reads of an unthrottled balance_dirty_pages touch:
 * NR_FREE_PAGES, the file LRUs (global_reclaimable_pages), NR_FILE_DIRTY,
 * NR_WRITEBACK, NR_UNSTABLE_NFS. 2.6.31's numbering (items 0, 3, 4 | 10,
 * 11, 15): two lines; 3.2's, where NR_KERNEL_STACK (15) pushes
 * NR_UNSTABLE_NFS to 16: three (0, 3, 4 | 10, 11 | 16).
 */
static void check_numbering(enum mm_vm_stat_numbering numbering, int want_lines)
{
	static const enum zone_stat_item reads[] = {
		NR_FREE_PAGES, NR_ACTIVE_FILE, NR_INACTIVE_FILE,
		NR_FILE_DIRTY, NR_WRITEBACK, NR_UNSTABLE_NFS,
	};
	uintptr_t lines[ARRAY_SIZE(reads)];
	struct mm_machine_config cfg;
	char err[256];
	int distinct = 0;

	mm_config_default(&cfg, 1ULL << 30);
	cfg.vm_stat_numbering = numbering;
	if (mm_machine_setup_config(&cfg, err, sizeof(err)) != 0) {
		fprintf(stderr, "%s\n", err);
		CHECK(0);
		return;
	}
	for (size_t i = 0; i < ARRAY_SIZE(reads); i++) {
		bool seen = false;

		lines[i] = ADDR_LINE(vm_stat_slot(reads[i]));
		for (size_t j = 0; j < i; j++)
			seen = seen || lines[j] == lines[i];
		distinct += !seen;
	}
	CHECK_EQ_LL(distinct, want_lines);
	/* Each item has a slot of its own, inside the array the machine allocated. */
	for (int i = 0; i < NR_VM_ZONE_STAT_ITEMS; i++) {
		CHECK((char *)vm_stat_slot(i) - vm_stat_base <
		      (numbering == MM_VM_STAT_3_2 ? NR_VM_ZONE_STAT_ITEMS_3_2 :
		       NR_VM_ZONE_STAT_ITEMS) * (long)sizeof(atomic_long_t));
		for (int j = 0; j < i; j++)
			CHECK(vm_stat_slot(i) != vm_stat_slot(j));
	}
	if (numbering == MM_VM_STAT_3_2)
		CHECK_EQ_LL((char *)vm_stat_slot(NR_UNSTABLE_NFS) - vm_stat_base,
			    16 * (long)sizeof(atomic_long_t));
	mm_machine_teardown();
}

int main(void)
{
	struct mmscale_topology t;
	struct mmscale_plan p;
	char err[256];

	test_pageset_layout();
	test_zone_layout();

	if (mmscale_topology_load(&t, "synthetic:node:2 core:2 pu:1", err, sizeof(err)) != 0 ||
	    mmscale_plan_build(&p, &t, MMSCALE_PLACE_COMPACT, NULL, err, sizeof(err)) != 0 ||
	    mmscale_machine_setup(&p, MMSCALE_SPIN_YIELD, err, sizeof(err)) != 0) {
		fprintf(stderr, "%s\n", err);
		return 1;
	}
	check_machine(MMSCALE_LAYOUT_PACKED);
	check_machine(MMSCALE_LAYOUT_PADDED);
	check_machine(MMSCALE_LAYOUT_PACKED);
	check_numbering(MM_VM_STAT_2_6_31, 2);
	check_numbering(MM_VM_STAT_3_2, 3);
	mmscale_machine_teardown();
	mmscale_plan_destroy(&p);
	mmscale_topology_destroy(&t);
	return check_report("test_layout");
}
