// SPDX-License-Identifier: GPL-2.0
/*
 * Linux 6.18's vmstat (kernel/linux-6.18/mm/vmstat.c) on a 4-CPU, 2-node machine
 * with 10 GiB (node 0: DMA32 4 GiB and Normal 1 GiB; node 1: Normal 5 GiB):
 * the thresholds calculate_normal_threshold gives, the fold
 * points and oversteps of every update form at several thresholds
 * (including 0, 1 and the 125 cap), the per-CPU diffs against a shadow,
 * the shepherd's reads, the NUMA-event fold's cost, the accounting check
 * (and that it fails when the books are wrong), and the items' order
 * against the running kernel's /proc/vmstat where that kernel is a 6.18.
 * And the per-CPU pagesets' batch and high bounds (kernel/linux-6.18/mm/page_alloc.c)
 * against figures a 6.18 kernel showed.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "test_machine.h"
#include "mmscale/kernel/cpumask.h"
#include "mmscale/linux-6.18/mm/page_alloc.h"
#include "mmscale/linux-6.18/mm/vmstat.h"

#define MACHINE "synthetic:node:2 core:2 pu:1"
#define MEM	(10ULL << 30)

/* calculate_normal_threshold of a zone with managed bytes, cpus online. */
static int threshold_for(unsigned int cpus, unsigned long managed_bytes)
{
	struct cpumask saved = __cpu_online_mask;
	unsigned int saved_ids = nr_cpu_ids;
	struct zone z;
	int t;

	memset(&z, 0, sizeof(z));
	atomic_long_set(&z.managed_pages, (long)(managed_bytes >> PAGE_SHIFT));
	z.present_pages = 2 * (managed_bytes >> PAGE_SHIFT);	/* must not count */
	nr_cpu_ids = cpus;
	cpumask_setall(&__cpu_online_mask);
	t = calculate_normal_threshold(&z);
	nr_cpu_ids = saved_ids;
	__cpu_online_mask = saved;
	return t;
}

static void test_thresholds(void)
{
	/* The rows of the kernel's table whose labels give its value (see test_vmstat.c). */
	CHECK_EQ_LL(threshold_for(1, 7UL << 27), 8);
	CHECK_EQ_LL(threshold_for(2, 12UL << 27), 20);
	CHECK_EQ_LL(threshold_for(2, 3UL << 30), 24);	/* this project's 2-CPU box: DMA32 */
	CHECK_EQ_LL(threshold_for(4, 12UL << 30), 48);
	CHECK_EQ_LL(threshold_for(16, 100UL << 20), 10);
	CHECK_EQ_LL(threshold_for(1024, 12UL << 30), 125);	/* the cap */
	CHECK_EQ_LL(threshold_for(1, 0), 2);			/* an empty zone: fls(0) = 0 */
	CHECK_EQ_LL(threshold_for(256, 3UL << 30), 108);

	/*
	 * The machine, 4 CPUs (2 * fls(4) = 6): DMA32 4 GiB (mem 32, 1 + fls
	 * = 7: 42), node 0's Normal 1 GiB (mem 8: 5, 30), node 1's Normal
	 * 5 GiB (mem 40: 7, 42). A node's threshold is its largest zone's.
	 */
	{
		static const struct { int nid, zid, zone_t, node_t; } want[] = {
			{ 0, ZONE_DMA32, 42, 42 }, { 0, ZONE_NORMAL, 30, 42 },
			{ 1, ZONE_NORMAL, 42, 42 },
		};

		CHECK(!populated_zone(&NODE_DATA(1)->node_zones[ZONE_DMA32]));
		for (size_t i = 0; i < ARRAY_SIZE(want); i++) {
			pg_data_t *pgdat = NODE_DATA(want[i].nid);
			struct zone *z = &pgdat->node_zones[want[i].zid];

			CHECK(populated_zone(z));
			CHECK_EQ_LL(calculate_normal_threshold(z), want[i].zone_t);
			for (unsigned int cpu = 0; cpu < 4; cpu++) {
				CHECK_EQ_LL(per_cpu_ptr(z->per_cpu_zonestats, cpu)->stat_threshold,
					    want[i].zone_t);
				CHECK_EQ_LL(per_cpu_ptr(pgdat->per_cpu_nodestats, cpu)->stat_threshold,
					    want[i].node_t);
			}
		}
	}
	CHECK((uintptr_t)vm_node_stat % L1_CACHE_BYTES == 0);
	CHECK((uintptr_t)vm_zone_stat % L1_CACHE_BYTES == 0);
	CHECK((uintptr_t)vm_numa_event % L1_CACHE_BYTES == 0);
}

/* batch, high_min, high_max of a zone on node 0 (2 CPUs here), at a high fraction. */
static void check_pageset(unsigned long managed, unsigned long low, int fraction,
			  int batch, int high_min, int high_max)
{
	struct zone z;
	int b, lo, hi;

	memset(&z, 0, sizeof(z));
	atomic_long_set(&z.managed_pages, (long)managed);
	z._watermark[WMARK_LOW] = low;
	zone_pageset_high_and_batch_6_18(&z, 0, fraction, &lo, &hi, &b);
	CHECK_EQ_LL(b, batch);
	CHECK_EQ_LL(lo, high_min);
	CHECK_EQ_LL(hi, high_max);
}

/*
 * zone_batchsize: min(managed / 1024, 256) / 4, at least 1, then
 * rounddown_pow_of_two(b + b / 2) - 1, at least 1. zone_highsize: the low
 * watermark (or managed / fraction) over the node's online CPUs, at least
 * 4 * batch; high_max at fraction 8. The first two rows are what a 6.18
 * kernel (6.18.44, 2 CPUs, one node) showed in /proc/zoneinfo for its DMA
 * and DMA32 zones; the rest are worked out by hand.
 */
static void test_pagesets(void)
{
	check_pageset(3840, 46, 0, 1, 23, 240);
	check_pageset(772798, 9451, 0, 63, 4725, 48299);
	check_pageset(950272, 11621, 0, 63, 5810, 59392);
	check_pageset(1UL << 30, 100000, 0, 63, 50000, (1 << 30) / 8 / 2);	/* batch capped at 1 MiB */
	check_pageset(100UL << 10, 4, 0, 31, 124, 6400);	/* 100 / 4 = 25; 37 -> 32 - 1 */
	check_pageset(4096, 4, 0, 1, 4, 256);		/* 4 / 2 = 2 < 4 * batch */
	check_pageset(772798, 9451, 16, 63, 772798 / 16 / 2, 772798 / 16 / 2);	/* set by hand */
}

static pg_data_t *pgdat0(void)
{
	return NODE_DATA(0);
}

static s8 *diff0(enum node_stat_item item)
{
	return &this_cpu_ptr(pgdat0()->per_cpu_nodestats)->vm_node_stat_diff[item];
}

static void set_threshold(int t)
{
	this_cpu_ptr(pgdat0()->per_cpu_nodestats)->stat_threshold = (s8)t;
}

/*
 * Call op until it folds (MMSCALE_FOLDS moves); the calls it took, the
 * amount folded into the node counter, and the diff left behind.
 */
static int calls_to_fold(void (*op)(void), long *folded, int *left)
{
	long before = atomic_long_read(&pgdat0()->vm_stat[NR_FILE_DIRTY]);
	long global_before = atomic_long_read(&vm_node_stat[NR_FILE_DIRTY]);
	u64 folds = test_count(MMSCALE_FOLDS);
	int calls = 0;

	while (test_count(MMSCALE_FOLDS) == folds && calls < 1000) {
		op();
		calls++;
	}
	*folded = atomic_long_read(&pgdat0()->vm_stat[NR_FILE_DIRTY]) - before;
	CHECK_EQ_LL(atomic_long_read(&vm_node_stat[NR_FILE_DIRTY]) - global_before, *folded);
	*left = *diff0(NR_FILE_DIRTY);
	return calls;
}

static void op_inc(void) { inc_node_state(pgdat0(), NR_FILE_DIRTY); }
static void op_dec(void) { dec_node_state_6_18(pgdat0(), NR_FILE_DIRTY); }
static void op_mod(void) { mod_node_page_state(pgdat0(), NR_FILE_DIRTY, 1); }
static void op_mod_down(void) { mod_node_page_state(pgdat0(), NR_FILE_DIRTY, -1); }
static void op___inc(void) { __inc_node_state(pgdat0(), NR_FILE_DIRTY); }
static void op___dec(void) { __dec_node_state(pgdat0(), NR_FILE_DIRTY); }
static void op___mod(void) { __mod_node_page_state(pgdat0(), NR_FILE_DIRTY, 1); }

/*
 * mod_node_state (vmstat.c 640-676) at threshold t: n = delta + o; when
 * |n| > t, z = n + mode * (t >> 1) goes to the node and -mode * (t >> 1)
 * stays. From a zero diff, +1 steps fold at the (t+1)th call; the
 * half-threshold overstep (inc) leaves -(t >> 1), so every later fold
 * comes after t + 1 + (t >> 1) calls. __inc/__dec_node_state (455-535)
 * fold the same way; __mod_node_page_state (373-402) like mod (no overstep).
 */
static void test_fold_points(void)
{
	static const int thresholds[] = { 0, 1, 2, 30, 124, 125 };
	long folded;
	int left;

	for (size_t i = 0; i < ARRAY_SIZE(thresholds); i++) {
		int t = thresholds[i], os = t >> 1;

		set_threshold(t);
		*diff0(NR_FILE_DIRTY) = 0;
		CHECK_EQ_LL(calls_to_fold(op_inc, &folded, &left), t + 1);
		CHECK_EQ_LL(folded, t + 1 + os);
		CHECK_EQ_LL(left, -os);
		CHECK_EQ_LL(calls_to_fold(op_inc, &folded, &left), t + 1 + os);
		CHECK_EQ_LL(folded, t + 1 + os);

		*diff0(NR_FILE_DIRTY) = 0;
		CHECK_EQ_LL(calls_to_fold(op_dec, &folded, &left), t + 1);
		CHECK_EQ_LL(folded, -(t + 1 + os));
		CHECK_EQ_LL(left, os);

		*diff0(NR_FILE_DIRTY) = 0;
		CHECK_EQ_LL(calls_to_fold(op_mod, &folded, &left), t + 1);
		CHECK_EQ_LL(folded, t + 1);
		CHECK_EQ_LL(left, 0);
		CHECK_EQ_LL(calls_to_fold(op_mod_down, &folded, &left), t + 1);
		CHECK_EQ_LL(folded, -(t + 1));

		*diff0(NR_FILE_DIRTY) = 0;
		CHECK_EQ_LL(calls_to_fold(op___inc, &folded, &left), t + 1);
		CHECK_EQ_LL(folded, t + 1 + os);
		CHECK_EQ_LL(left, -os);
		*diff0(NR_FILE_DIRTY) = 0;
		CHECK_EQ_LL(calls_to_fold(op___dec, &folded, &left), t + 1);
		CHECK_EQ_LL(folded, -(t + 1 + os));
		CHECK_EQ_LL(left, os);
		*diff0(NR_FILE_DIRTY) = 0;
		CHECK_EQ_LL(calls_to_fold(op___mod, &folded, &left), t + 1);
		CHECK_EQ_LL(folded, t + 1);
		CHECK_EQ_LL(left, 0);
	}
	/* A delta past the threshold folds at once, all of it, in every form. */
	set_threshold(30);
	*diff0(NR_FILE_DIRTY) = 0;
	mod_node_page_state(pgdat0(), NR_FILE_DIRTY, 31);
	CHECK_EQ_LL(*diff0(NR_FILE_DIRTY), 0);
	mod_node_page_state(pgdat0(), NR_FILE_DIRTY, 30);
	CHECK_EQ_LL(*diff0(NR_FILE_DIRTY), 30);
	__mod_node_page_state(pgdat0(), NR_FILE_DIRTY, -61);
	CHECK_EQ_LL(*diff0(NR_FILE_DIRTY), 0);	/* |30 - 61| = 31 > 30: all of it folded */
	*diff0(NR_FILE_DIRTY) = 0;
	/* The zone form (mod_zone_state, 560-600) folds into zone and vm_zone_stat. */
	{
		struct zone *z = &pgdat0()->node_zones[ZONE_DMA32];
		long zone_before = atomic_long_read(&z->vm_stat[NR_MLOCK]);
		long global_before = atomic_long_read(&vm_zone_stat[NR_MLOCK]);

		/* DMA32's threshold is 42: the 43rd +1 folds all 43. */
		for (int i = 0; i < 43; i++)
			mod_zone_page_state(z, NR_MLOCK, 1);
		CHECK_EQ_LL(atomic_long_read(&z->vm_stat[NR_MLOCK]) - zone_before, 43);
		CHECK_EQ_LL(atomic_long_read(&vm_zone_stat[NR_MLOCK]) - global_before, 43);
		__mod_zone_page_state(z, NR_MLOCK, -43);
		CHECK_EQ_LL(atomic_long_read(&z->vm_stat[NR_MLOCK]), zone_before);
	}
}

/* Random updates of every form against a shadow: counter + diff is exact at every step. */
static void test_shadow(void)
{
	unsigned int seed = 618;
	long shadow = atomic_long_read(&pgdat0()->vm_stat[NR_FILE_PAGES]) + *diff0(NR_FILE_PAGES);
	int bad = 0;

	set_threshold(30);
	for (int i = 0; i < 100000; i++) {
		int r = rand_r(&seed) % 6, d = rand_r(&seed) % 61 - 30;

		switch (r) {
		case 0: inc_node_state(pgdat0(), NR_FILE_PAGES); shadow++; break;
		case 1: dec_node_state_6_18(pgdat0(), NR_FILE_PAGES); shadow--; break;
		case 2: __inc_node_state(pgdat0(), NR_FILE_PAGES); shadow++; break;
		case 3: __dec_node_state(pgdat0(), NR_FILE_PAGES); shadow--; break;
		case 4: mod_node_page_state(pgdat0(), NR_FILE_PAGES, d); shadow += d; break;
		default: __mod_node_page_state(pgdat0(), NR_FILE_PAGES, d); shadow += d; break;
		}
		if (atomic_long_read(&pgdat0()->vm_stat[NR_FILE_PAGES]) + *diff0(NR_FILE_PAGES) != shadow ||
		    abs(*diff0(NR_FILE_PAGES)) > 30)
			bad++;
	}
	CHECK_EQ_LL(bad, 0);
	/* vmstat_update's fold leaves no diff and says how many global items it changed. */
	CHECK(refresh_cpu_vm_stats(false) >= 1);
	CHECK_EQ_LL(*diff0(NR_FILE_PAGES), 0);
	CHECK_EQ_LL(atomic_long_read(&pgdat0()->vm_stat[NR_FILE_PAGES]), shadow);
	CHECK_EQ_LL(refresh_cpu_vm_stats(false), 0);
}

/*
 * need_update reads, per CPU, each populated zone's zonestat and each
 * node's nodestat once (node 0: DMA32, its nodestat, Normal; node 1:
 * Normal, its nodestat): 5 per CPU when nothing is pending, fewer when a
 * diff stops it early.
 */
static void test_shepherd(void)
{
	_Atomic unsigned char *pending = alloc_percpu(_Atomic unsigned char);
	u64 before;

	CHECK(pending != NULL);
	if (!pending)
		return;
	before = test_count(MMSCALE_PERCPU_SUM_SLOTS);
	CHECK_EQ_LL(vmstat_shepherd(pending), 0);
	CHECK_EQ_LL(test_count(MMSCALE_PERCPU_SUM_SLOTS) - before, 4 * 5);

	/* CPU 2 has a diff in node 1's statistics: found at its 5th read, its work queued. */
	per_cpu_ptr(NODE_DATA(1)->per_cpu_nodestats, 2)->vm_node_stat_diff[NR_SHMEM] = 3;
	before = test_count(MMSCALE_PERCPU_SUM_SLOTS);
	CHECK_EQ_LL(vmstat_shepherd(pending), 1);
	CHECK_EQ_LL(test_count(MMSCALE_PERCPU_SUM_SLOTS) - before, 4 * 5);
	CHECK_EQ_LL(atomic_load(per_cpu_ptr(pending, 2)), 1);
	/* Next pass: CPU 2's work is pending, so need_update does not run there. */
	before = test_count(MMSCALE_PERCPU_SUM_SLOTS);
	CHECK_EQ_LL(vmstat_shepherd(pending), 0);
	CHECK_EQ_LL(test_count(MMSCALE_PERCPU_SUM_SLOTS) - before, 3 * 5);
	/* A diff in CPU 1's first zone stops its scan at the first read; CPU 3's Normal at its 3rd. */
	atomic_store(per_cpu_ptr(pending, 2), 0);
	per_cpu_ptr(NODE_DATA(0)->node_zones[ZONE_DMA32].per_cpu_zonestats, 1)->vm_stat_diff[0] = -1;
	per_cpu_ptr(NODE_DATA(0)->node_zones[ZONE_NORMAL].per_cpu_zonestats, 3)->vm_stat_diff[2] = 1;
	before = test_count(MMSCALE_PERCPU_SUM_SLOTS);
	CHECK_EQ_LL(vmstat_shepherd(pending), 3);
	CHECK_EQ_LL(test_count(MMSCALE_PERCPU_SUM_SLOTS) - before, 5 + 1 + 5 + 3);
	free_percpu(pending);
	/* The folds of CPUs 1 and 2 (no thread runs there): the books balance. */
	cpu_vm_stats_fold(1);
	cpu_vm_stats_fold(2);
	cpu_vm_stats_fold(3);
}

/* fold_vm_numa_events: every populated zone, every online CPU's six events (vmstat.c 171-196). */
static void test_numa_events(void)
{
	struct zone *z = &pgdat0()->node_zones[ZONE_DMA32];
	u64 locked, slots, reads;
	unsigned long hit;

	for (int i = 0; i < 10; i++)
		__count_numa_event(z, NUMA_HIT);
	per_cpu_ptr(NODE_DATA(1)->node_zones[ZONE_NORMAL].per_cpu_zonestats, 3)
		->vm_numa_event[NUMA_HIT] = 5;
	locked = test_count(MMSCALE_LOCKED_OPS);
	slots = test_count(MMSCALE_PERCPU_SUM_SLOTS);
	reads = test_count(MMSCALE_GLOBAL_READS);
	fold_vm_numa_events();
	hit = global_numa_event_state(NUMA_HIT);
	CHECK_EQ_LL(hit, 15);
	CHECK_EQ_LL(zone_numa_event_state(z, NUMA_HIT), 10);
	CHECK_EQ_LL(test_count(MMSCALE_LOCKED_OPS) - locked, 3 * (4 * 6 + 2 * 6));
	CHECK_EQ_LL(test_count(MMSCALE_PERCPU_SUM_SLOTS) - slots, 3 * 4);
	CHECK_EQ_LL(test_count(MMSCALE_GLOBAL_READS) - reads, 1);
	CHECK_EQ_LL(this_cpu_ptr(z->per_cpu_zonestats)->vm_numa_event[NUMA_HIT], 0);
}

static void test_check(void)
{
	char err[256] = "";

	CHECK_MSG(vmstat_6_18_check(err, sizeof(err)) == 0, "%s", err);
	atomic_long_add(1, &vm_node_stat[NR_WRITEBACK]);
	CHECK(vmstat_6_18_check(err, sizeof(err)) != 0);
	CHECK_MSG(strstr(err, "node item 21") != NULL, "%s", err);
	atomic_long_sub(1, &vm_node_stat[NR_WRITEBACK]);
}

/* The items' names, in the enums' order (mm/vmstat.c vmstat_text, 1174-1290). */
static const char *const names_6_18[] = {
	"nr_free_pages", "nr_free_pages_blocks", "nr_zone_inactive_anon", "nr_zone_active_anon",
	"nr_zone_inactive_file", "nr_zone_active_file", "nr_zone_unevictable",
	"nr_zone_write_pending", "nr_mlock", "nr_zspages", "nr_free_cma",
	"numa_hit", "numa_miss", "numa_foreign", "numa_interleave", "numa_local", "numa_other",
	"nr_inactive_anon", "nr_active_anon", "nr_inactive_file", "nr_active_file",
	"nr_unevictable", "nr_slab_reclaimable", "nr_slab_unreclaimable", "nr_isolated_anon",
	"nr_isolated_file", "workingset_nodes", "workingset_refault_anon",
	"workingset_refault_file", "workingset_activate_anon", "workingset_activate_file",
	"workingset_restore_anon", "workingset_restore_file", "workingset_nodereclaim",
	"nr_anon_pages", "nr_mapped", "nr_file_pages", "nr_dirty", "nr_writeback", "nr_shmem",
	"nr_shmem_hugepages", "nr_shmem_pmdmapped", "nr_file_hugepages", "nr_file_pmdmapped",
	"nr_anon_transparent_hugepages", "nr_vmscan_write", "nr_vmscan_immediate_reclaim",
	"nr_dirtied", "nr_written", "nr_throttled_written", "nr_kernel_misc_reclaimable",
	"nr_foll_pin_acquired", "nr_foll_pin_released", "nr_kernel_stack", "nr_page_table_pages",
	"nr_sec_page_table_pages", "nr_iommu_pages", "nr_swapcached", "pgpromote_success",
	"pgpromote_candidate", "pgpromote_candidate_nrl", "pgdemote_kswapd", "pgdemote_direct",
	"pgdemote_khugepaged", "pgdemote_proactive", "nr_hugetlb", "nr_balloon_pages",
	"nr_kernel_file_pages",
};

BUILD_BUG_ON(ARRAY_SIZE(names_6_18) !=
	     NR_VM_ZONE_STAT_ITEMS + NR_VM_NUMA_EVENT_ITEMS + NR_VM_NODE_STAT_ITEMS);

static void test_proc_vmstat(void)
{
	struct utsname u;
	char line[256], name[128];
	size_t i = 0;
	FILE *f;

	CHECK_EQ_LL(strcmp(names_6_18[NR_VM_ZONE_STAT_ITEMS + NR_VM_NUMA_EVENT_ITEMS + NR_FILE_DIRTY],
			   "nr_dirty"), 0);
	if (uname(&u) != 0 || strncmp(u.release, "6.18", 4) != 0 ||
	    (u.release[4] != '.' && u.release[4] != '-' && u.release[4] != '\0')) {
		printf("test_vmstat_6_18: /proc/vmstat not compared: this kernel is %s, not a 6.18\n",
		       uname(&u) == 0 ? u.release : "unknown");
		return;
	}
	f = fopen("/proc/vmstat", "r");
	if (!f) {
		printf("test_vmstat_6_18: /proc/vmstat not compared: cannot open it\n");
		return;
	}
	while (i < ARRAY_SIZE(names_6_18) && fgets(line, sizeof(line), f) &&
	       sscanf(line, "%127s", name) == 1) {
		CHECK_MSG(strcmp(name, names_6_18[i]) == 0, "/proc/vmstat line %zu is %s, "
			  "the emulation's item %zu is %s (a kernel configured otherwise?)",
			  i + 1, name, i, names_6_18[i]);
		i++;
	}
	fclose(f);
	CHECK_EQ_LL(i, ARRAY_SIZE(names_6_18));
}

/*
 * --set stat_threshold reaches 6.18's set-up itself (cfg's knobs, whatever
 * an earlier set-up left in mm_config()): every zone's and node's
 * threshold is the knob's, at 0 and at an s8's largest.
 */
static void test_threshold_knob(void)
{
	static const int tries[] = { 0, 7, MM_STAT_THRESHOLD_MAX };
	struct mm_machine_config cfg;
	char err[256];
	struct zone *zone;

	for (size_t i = 0; i < ARRAY_SIZE(tries); i++) {
		mm_config_default(&cfg, MEM);
		cfg.stat_threshold = tries[i];
		if (vmstat_6_18_setup(&cfg, err, sizeof(err)) != 0) {
			CHECK_MSG(0, "setup: %s", err);
			return;
		}
		for_each_populated_zone(zone)
			for (unsigned int cpu = 0; cpu < 4; cpu++) {
				CHECK_EQ_LL(per_cpu_ptr(zone->per_cpu_zonestats, cpu)->stat_threshold,
					    tries[i]);
				CHECK_EQ_LL(per_cpu_ptr(zone->zone_pgdat->per_cpu_nodestats,
							cpu)->stat_threshold, tries[i]);
			}
		vmstat_6_18_teardown();
	}
	mm_config_default(&cfg, MEM);
	mm_config_set_knobs(&cfg);
}

/*
 * zone_statistics (page_alloc.c 3128-3148) under --set numa_stat: on this
 * CPU (0, node 0), an allocation from its own zone counts NUMA_HIT and
 * NUMA_LOCAL; one from node 1's zone, preferred, NUMA_HIT and NUMA_OTHER;
 * from node 1's zone where node 0's was preferred, NUMA_MISS there,
 * NUMA_FOREIGN on node 0's, NUMA_OTHER. At numa_stat 0 none of them.
 */
static void test_numa_stat_knob(void)
{
	static const long long tries[] = { MM_KNOB_AUTO, 1, 0 };
	struct mm_machine_config cfg;
	char err[256];

	for (size_t i = 0; i < ARRAY_SIZE(tries); i++) {
		struct zone *near, *far;
		unsigned long want;

		mm_config_default(&cfg, MEM);
		cfg.numa_stat = tries[i];
		if (vmstat_6_18_setup(&cfg, err, sizeof(err)) != 0) {
			CHECK_MSG(0, "setup: %s", err);
			return;
		}
		want = tries[i] != 0;
		near = &pgdat0()->node_zones[ZONE_DMA32];
		far = &NODE_DATA(1)->node_zones[ZONE_NORMAL];
		zone_statistics(near, near, 1);
		zone_statistics(far, far, 2);
		zone_statistics(near, far, 3);
#define EVENT(z, item) (this_cpu_ptr((z)->per_cpu_zonestats)->vm_numa_event[item])
		CHECK_EQ_LL(EVENT(near, NUMA_HIT), want);
		CHECK_EQ_LL(EVENT(near, NUMA_LOCAL), want);
		CHECK_EQ_LL(EVENT(near, NUMA_FOREIGN), 3 * want);
		CHECK_EQ_LL(EVENT(far, NUMA_HIT), 2 * want);
		CHECK_EQ_LL(EVENT(far, NUMA_MISS), 3 * want);
		CHECK_EQ_LL(EVENT(far, NUMA_OTHER), 5 * want);
#undef EVENT
		vmstat_6_18_teardown();
	}
	mm_config_default(&cfg, MEM);
	mm_config_set_knobs(&cfg);
}

static void tests(void)
{
	char err[256];
	struct mm_machine_config cfg;

	mm_config_default(&cfg, MEM);
	if (vmstat_6_18_setup(&cfg, err, sizeof(err)) != 0) {
		CHECK_MSG(0, "setup: %s", err);
		return;
	}
	test_thresholds();
	test_pagesets();
	test_fold_points();
	test_shadow();
	test_shepherd();
	test_numa_events();
	test_check();
	test_proc_vmstat();
	vmstat_6_18_teardown();
	test_threshold_knob();
	test_numa_stat_knob();
}

int main(void)
{
	return test_machine_main("test_vmstat_6_18", MACHINE, tests);
}
