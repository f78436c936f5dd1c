// SPDX-License-Identifier: GPL-2.0
/*
 * The layouts of include/mmscale/linux-2.6/mm/mmzone.h against the kernel's, at run
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
 * 100 (line 1), span_seqlock 104, free_area[0] 112 (its MOVABLE list 144,
 * line 2; nr_free 192, line 3); after _pad1_ (1088, a line boundary): lru_lock +0, lru[5] +8,
 * reclaim_stat +88, pages_scanned +160, flags +168, vm_stat[] +176 (2.6.31:
 * the same after _pad1_). So pages_scanned is two lines past _pad1_'s,
 * with flags and vm_stat[0..1]; vm_stat[2] starts the next line.
 */
#include <stdint.h>
#include <string.h>

#include "check.h"
#include "mmscale/cpu.h"
#include "mmscale/kernel/cpumask.h"
#include "mmscale/linux-2.6/mm/vmstat.h"
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
	CHECK_EQ_LL(sizeof(struct per_cpu_pageset), 192);
	/* 6.1's vm_numa_event[] on a third line: the 2.6.x pageset's two lines unchanged. */
	CHECK_EQ_LL(offsetof(struct per_cpu_pageset, vm_numa_event), 128);
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

/* Every field a layout has, for "alone on its line". */
static long long lines_of(const struct zone_layout *l, long long line, size_t except)
{
	const size_t fields[] = {
		l->node, l->pageset, l->lock, l->all_unreclaimable, l->free_list, l->nr_free,
		l->pages_scanned, l->flags, l->vm_stat, l->zone_pgdat, l->present_pages, l->name,
		l->nr_reserved_highatomic, l->watermark_boost,
	};
	long long n = 0;

	for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]); i++)
		n += fields[i] != except && fields[i] != ZONE_NO_FIELD && LINE(fields[i]) == line;
	return n;
}

static void test_zone_layouts(void)
{
	const struct zone_layout *l38 = &zone_layouts[MM_ZONE_LAYOUT_2_6_38];
	const struct zone_layout *l32 = &zone_layouts[MM_ZONE_LAYOUT_2_6_32];
	const struct zone_layout *l61 = &zone_layouts[MM_ZONE_LAYOUT_6_1];
	size_t pad1;

	/* 2.6.38: node 64, pageset 88, lock 96, all_unreclaimable 100, all on line 1. */
	CHECK_EQ_LL(l38->node, 64);
	CHECK_EQ_LL(l38->pageset, 88);
	CHECK_EQ_LL(l38->lock, 96);
	CHECK_EQ_LL(l38->all_unreclaimable, 100);
	CHECK_EQ_LL(LINE(l38->lock), 1);
	CHECK_EQ_LL(LINE(l38->pageset), 1);
	CHECK_EQ_LL(LINE(l38->node), 1);
	CHECK(!l38->pageset_array);
	/*
	 * free_area[] from 112 (after span_seqlock at 104), 88 bytes an order:
	 * order 0's MOVABLE list (2 of 5) at 144, line 2; its nr_free at 192,
	 * line 3; _pad1_ after the 11 orders, at 1088.
	 */
	pad1 = 1088;
	CHECK_EQ_LL(l38->free_list, 144);
	CHECK_EQ_LL(l38->nr_free, 192);
	CHECK_EQ_LL(LINE(l38->free_list), 2);
	CHECK_EQ_LL(LINE(l38->nr_free), 3);
	CHECK_EQ_LL(l38->pages_scanned - pad1, 160);
	CHECK_EQ_LL(l38->flags - pad1, 168);
	CHECK_EQ_LL(l38->vm_stat - pad1, 176);
	/* pages_scanned two lines past _pad1_'s, with flags and vm_stat[0..1]. */
	CHECK_EQ_LL(LINE(l38->pages_scanned) - LINE(pad1), 2);
	CHECK_EQ_LL(LINE(l38->flags), LINE(l38->pages_scanned));
	CHECK_EQ_LL(LINE(l38->vm_stat + 8 * NR_INACTIVE_ANON), LINE(l38->pages_scanned));
	CHECK_EQ_LL(LINE(l38->vm_stat + 8 * NR_ACTIVE_ANON), LINE(l38->pages_scanned) + 1);
	/* The zone's dirty counters: 10, 11 and 15 on one line (items 10-17), 9 on the one before. */
	CHECK_EQ_LL(LINE(l38->vm_stat + 8 * NR_FILE_DIRTY), LINE(l38->vm_stat + 8 * NR_UNSTABLE_NFS));
	CHECK_EQ_LL(LINE(l38->vm_stat + 8 * NR_FILE_PAGES) + 1, LINE(l38->vm_stat + 8 * NR_FILE_DIRTY));
	/* _pad2_: the read-mostly group a line after the last vm_stat item. */
	CHECK(LINE(l38->vm_stat + 8 * (NR_VM_ZONE_STAT_ITEMS - 1)) < LINE(l38->zone_pgdat));
	CHECK_EQ_LL(l38->zone_pgdat % L1_CACHE_BYTES, 0);
	CHECK_EQ_LL(LINE(l38->present_pages), LINE(l38->zone_pgdat));

	/*
	 * 2.6.32, NR_CPUS 4096: pageset[4096] from 80, lock at 80 + 32768 =
	 * 32848, line 513 with pageset[4094] (80 + 32752 = 32832) and [4095]
	 * only; pageset[4093] (32824) on line 512; CPU 0's on line 1; the
	 * order-0 MOVABLE free list and nr_free on line 514.
	 */
	CHECK(l32->pageset_array);
	CHECK_EQ_LL(l32->pageset, 80);
	CHECK_EQ_LL(l32->lock, 32848);
	CHECK_EQ_LL(LINE(l32->lock), 513);
	CHECK_EQ_LL(LINE(l32->pageset + 8 * 4094), 513);
	CHECK_EQ_LL(LINE(l32->pageset + 8 * 4093), 512);
	CHECK_EQ_LL(LINE(l32->pageset), 1);
	CHECK_EQ_LL(LINE(l32->node), 0);
	CHECK_EQ_LL(lines_of(l32, LINE(l32->lock), l32->lock), 0);
	CHECK_EQ_LL(LINE(l32->free_list), 514);
	CHECK_EQ_LL(LINE(l32->nr_free), 514);
	/* _pad1_ at 64 x (17 + 512) = 33856: the same relative offsets as 2.6.38's. */
	CHECK_EQ_LL(l32->pages_scanned - 33856, 160);
	CHECK_EQ_LL(l32->vm_stat - 33856, 176);
	CHECK_EQ_LL(LINE(l32->flags), LINE(l32->pages_scanned));
	CHECK_EQ_LL(LINE(l32->vm_stat), LINE(l32->pages_scanned));
	CHECK_EQ_LL(l32->size, 64 * (25 + 4096 / 8));
	CHECK(l32->size <= sizeof(struct zone));

	/*
	 * 6.1 (CMA): node 88, zone_pgdat 96, per_cpu_pageset 104 on line 1;
	 * free_area[0].free_list[1] 272 (line 4), nr_free 352 (line 5); flags
	 * 1400 (line 21); lock 1408, alone on line 22; vm_stat 1536 (line 24).
	 */
	CHECK_EQ_LL(LINE(l61->node), 1);
	CHECK_EQ_LL(LINE(l61->zone_pgdat), 1);
	CHECK_EQ_LL(LINE(l61->pageset), 1);
	CHECK_EQ_LL(l61->free_list, 272);
	CHECK_EQ_LL(l61->nr_free, 352);
	CHECK_EQ_LL(l61->flags, 1400);
	CHECK_EQ_LL(LINE(l61->flags), 21);
	CHECK_EQ_LL(l61->lock, 1408);
	CHECK_EQ_LL(LINE(l61->lock), 22);
	CHECK_EQ_LL(lines_of(l61, LINE(l61->lock), l61->lock), 0);
	CHECK_EQ_LL(l61->vm_stat, 1536);
	CHECK_EQ_LL(LINE(l61->vm_stat), 24);
	CHECK_EQ_LL(LINE(l61->nr_reserved_highatomic), 0);
	CHECK(l61->vm_stat + 8 * NR_VM_ZONE_STAT_ITEMS <= l61->size);
	CHECK_EQ_LL(l61->pages_scanned, ZONE_NO_FIELD);

	CHECK_EQ_LL(sizeof(struct zone) % L1_CACHE_BYTES, 0);
	CHECK_EQ_LL(_Alignof(struct zone), L1_CACHE_BYTES);
}

/* A fresh machine: where the objects the layouts describe actually are. */
static void check_machine(enum mmscale_counter_layout layout, enum mm_zone_layout_kind kind)
{
	char err[256];
	struct zone *zone;
	int zones = 0;

	struct mm_machine_config cfg;

	mm_config_default(&cfg, 1ULL << 30);
	cfg.counter_layout = layout;
	cfg.zone_layout = kind;
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

	CHECK_EQ_LL(zone_layout.lock, zone_layouts[kind].lock);
	for_each_zone(zone) {
		CHECK_EQ_LL((uintptr_t)zone % L1_CACHE_BYTES, 0);
		if (kind != MM_ZONE_LAYOUT_6_1) {
			/* In memory: pages_scanned off the lock's line, on vm_stat[0]'s. */
			CHECK(ADDR_LINE(&zone_pages_scanned(zone)) != ADDR_LINE(&zone_lock(zone)));
			CHECK_EQ_LL(ADDR_LINE(&zone_pages_scanned(zone)),
				    ADDR_LINE(&zone_vm_stat(zone)[NR_FREE_PAGES]));
		}
		if (!populated_zone(zone))
			continue;
		zones++;
		for (unsigned int cpu = 0; cpu < nr_cpu_ids; cpu++) {
			struct per_cpu_pageset *p = zone_pcp(zone, cpu);
			/* Where this CPU reads its pageset pointer from. */
			void *ptr = zone_layout.pageset_array ?
				    (void *)&(&ZONE_AT(zone, struct per_cpu_pageset *, pageset))[cpu] :
				    (void *)&ZONE_AT(zone, struct per_cpu_pageset *, pageset);

			/* 2.6.38: on zone->lock's line; 2.6.32 and 6.1: not. */
			CHECK_EQ_LL(ADDR_LINE(ptr) == ADDR_LINE(&zone_lock(zone)),
				    kind == MM_ZONE_LAYOUT_2_6_38);

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
	test_zone_layouts();

	if (mmscale_topology_load(&t, "synthetic:node:2 core:2 pu:1", err, sizeof(err)) != 0 ||
	    mmscale_plan_build(&p, &t, MMSCALE_PLACE_COMPACT, NULL, err, sizeof(err)) != 0 ||
	    mmscale_machine_setup(&p, MMSCALE_SPIN_YIELD, err, sizeof(err)) != 0) {
		fprintf(stderr, "%s\n", err);
		return 1;
	}
	check_machine(MMSCALE_LAYOUT_PACKED, MM_ZONE_LAYOUT_2_6_38);
	check_machine(MMSCALE_LAYOUT_PADDED, MM_ZONE_LAYOUT_2_6_38);
	check_machine(MMSCALE_LAYOUT_PACKED, MM_ZONE_LAYOUT_2_6_32);
	check_machine(MMSCALE_LAYOUT_PACKED, MM_ZONE_LAYOUT_6_1);
	check_machine(MMSCALE_LAYOUT_PACKED, MM_ZONE_LAYOUT_2_6_38);
	check_numbering(MM_VM_STAT_2_6_31, 2);
	check_numbering(MM_VM_STAT_3_2, 3);
	mmscale_machine_teardown();
	mmscale_plan_destroy(&p);
	mmscale_topology_destroy(&t);
	return check_report("test_layout");
}
