// SPDX-License-Identifier: GPL-2.0
/*
 * The counters' exact arithmetic (issue 14): scripted sequences whose every
 * effect is worked out by hand from Linux 2.6.31 (../shared/kernel/2.6.31)
 * and asserted exactly, where test_vmstat and test_percpu_counter check
 * bounds.
 *
 * 1. vmstat: __mod_zone_page_state, __inc_zone_state, __dec_zone_state and
 *    refresh_cpu_vm_stats on one zone and one CPU with a known
 *    stat_threshold (20, from calculate_threshold), asserting after every
 *    call the per-CPU delta, the zone and global counters and the folds;
 *    then an odd threshold (7) and the cap (125) set by hand.
 * 2. calculate_threshold: the fls steps and the 125 cap (what test_vmstat's
 *    table lacks).
 * 3. percpu_counter: adds around BDI_STAT_BATCH and percpu_counter_batch,
 *    the slot, fbc->count, folds and locks after each; the reads and sums
 *    and their counts; BDI_STAT_BATCH and bdi_stat_error over CPU counts.
 *
 * Kernel line numbers: mm/vmstat.c, lib/percpu_counter.c,
 * include/linux/vmstat.h, include/linux/percpu_counter.h and
 * include/linux/backing-dev.h of 2.6.31. No timing: the one other CPU is a
 * thread that is joined before anything is looked at.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <string.h>

#include "check.h"
#include "mmscale/cpu.h"
#include "mmscale/kernel/cpumask.h"
#include "mmscale/kernel/machine.h"
#include "mmscale/linux-2.6/mm/backing-dev.h"
#include "mmscale/linux-2.6/mm/vmstat.h"
#include "mmscale/notice.h"

#define COUNT(c)	((long long)mmscale_this_counts.v[(c)])

/* ---------------------------------------------------------------------- */
/* 2. calculate_threshold                                                  */

/* calculate_threshold for cpus online CPUs and a zone of pages pages (no machine). */
static int threshold_of(unsigned int cpus, unsigned long pages)
{
	struct zone z;

	memset(&z, 0, sizeof(z));
	zone_layout = zone_layouts[MM_ZONE_LAYOUT_2_6_38];
	zone_present_pages(&z) = pages;
	nr_cpu_ids = cpus;
	cpumask_setall(&__cpu_online_mask);
	return calculate_threshold(&z);
}

#define UNIT	(1UL << (27 - PAGE_SHIFT))	/* 128 MB in pages: mem's unit */

static void test_calculate_threshold(void)
{
	/*
	 * mm/vmstat.c:117-124:
	 *   mem = present_pages >> (27 - PAGE_SHIFT);
	 *   threshold = 2 * fls(num_online_cpus()) * (1 + fls(mem));
	 *   threshold = min(125, threshold);
	 * fls(0) = 0, fls(1) = 1, fls(2..3) = 2, fls(4..7) = 3, fls(8..15) = 4.
	 */
	/* The smallest: 1 CPU, mem 0 (< 128 MB): 2 * 1 * (1 + 0) = 2. */
	CHECK_EQ_LL(threshold_of(1, 1), 2);
	/* mem steps: UNIT - 1 pages is mem 0 -> 2; UNIT is mem 1 -> 2*1*2 = 4. */
	CHECK_EQ_LL(threshold_of(1, UNIT - 1), 2);
	CHECK_EQ_LL(threshold_of(1, UNIT), 4);
	/* mem 3 (fls 2) -> 2*1*3 = 6; mem 4 (fls 3) -> 2*1*4 = 8. */
	CHECK_EQ_LL(threshold_of(1, 4 * UNIT - 1), 6);
	CHECK_EQ_LL(threshold_of(1, 4 * UNIT), 8);
	/* CPU steps, mem 0: 3 CPUs fls 2 -> 4; 4 CPUs fls 3 -> 6; 7 -> 6; 8 fls 4 -> 8. */
	CHECK_EQ_LL(threshold_of(3, 1), 4);
	CHECK_EQ_LL(threshold_of(4, 1), 6);
	CHECK_EQ_LL(threshold_of(7, 1), 6);
	CHECK_EQ_LL(threshold_of(8, 1), 8);
	/* This file's machine: 2 CPUs, 1.5 GiB zones: mem 12, fls 4: 2*2*5 = 20. */
	CHECK_EQ_LL(threshold_of(2, 12 * UNIT), 20);
	/*
	 * The cap: 64 CPUs (fls 7). mem 127 (16 GB - 128 MB, fls 7):
	 * 2*7*8 = 112; mem 128 (16 GB, fls 8): 2*7*9 = 126 -> min(125, 126) = 125.
	 * 32 CPUs (fls 6): mem 511 (fls 9) 2*6*10 = 120; mem 512 (fls 10)
	 * 2*6*11 = 132 -> 125.
	 */
	CHECK_EQ_LL(threshold_of(64, 128 * UNIT - 1), 112);
	CHECK_EQ_LL(threshold_of(64, 128 * UNIT), 125);
	CHECK_EQ_LL(threshold_of(32, 512 * UNIT - 1), 120);
	CHECK_EQ_LL(threshold_of(32, 512 * UNIT), 125);
	/* 4096 CPUs (fls 13), mem 0: 26, not capped; mem 4 (fls 3): 2*13*4 = 104; mem 8: 130 -> 125. */
	CHECK_EQ_LL(threshold_of(4096, 1), 26);
	CHECK_EQ_LL(threshold_of(4096, 4 * UNIT), 104);
	CHECK_EQ_LL(threshold_of(4096, 8 * UNIT), 125);
	/* 1 CPU, 1 TiB: mem 8192 (fls 14): 2*1*15 = 30. */
	CHECK_EQ_LL(threshold_of(1, 8192 * UNIT), 30);
	nr_cpu_ids = 0;
	cpumask_clear(&__cpu_online_mask);
}

/* ---------------------------------------------------------------------- */
/* 3a. BDI_STAT_BATCH and bdi_stat_error over nr_cpu_ids                   */

static void test_bdi_stat_batch(void)
{
	/*
	 * include/linux/backing-dev.h:40: BDI_STAT_BATCH (8*(1+ilog2(nr_cpu_ids)));
	 * :143-146: bdi_stat_error = nr_cpu_ids * BDI_STAT_BATCH (CONFIG_SMP).
	 *   nr    ilog2  batch  error
	 *   1     0      8      8
	 *   2     1      16     32
	 *   3     1      16     48
	 *   4     2      24     96
	 *   5     2      24     120
	 *   8     3      32     256
	 *   64    6      56     3584
	 *   1024  10     88     90112
	 *   4096  12     104    425984
	 */
	static const struct { unsigned int nr; long batch, error; } rows[] = {
		{ 1, 8, 8 }, { 2, 16, 32 }, { 3, 16, 48 }, { 4, 24, 96 }, { 5, 24, 120 },
		{ 8, 32, 256 }, { 64, 56, 3584 }, { 1024, 88, 90112 }, { 4096, 104, 425984 },
	};
	struct backing_dev_info bdi;

	memset(&bdi, 0, sizeof(bdi));
	for (size_t i = 0; i < ARRAY_SIZE(rows); i++) {
		nr_cpu_ids = rows[i].nr;
		CHECK_EQ_LL(BDI_STAT_BATCH, rows[i].batch);
		CHECK_EQ_LL(bdi_stat_error(&bdi), rows[i].error);
	}
	nr_cpu_ids = 0;
}

/* ---------------------------------------------------------------------- */
/* Running a few calls as the other emulated CPU (a thread, joined).       */

struct on_cpu {
	int cpu;
	void (*fn)(void *arg);
	void *arg;
	struct mmscale_counts counts;	/* what the thread counted */
	int ok;
};

static void *on_cpu_thread(void *arg)
{
	struct on_cpu *o = arg;
	char err[256];

	if (mmscale_cpu_enter(o->cpu, err, sizeof(err)) != 0) {
		fprintf(stderr, "%s\n", err);
		return NULL;
	}
	mmscale_counts_reset();
	o->fn(o->arg);
	mmscale_counts_snapshot(&o->counts);
	mmscale_cpu_leave();
	o->ok = 1;
	return NULL;
}

static void run_on_cpu(int cpu, void (*fn)(void *arg), void *arg, struct mmscale_counts *counts)
{
	struct on_cpu o = { .cpu = cpu, .fn = fn, .arg = arg };
	pthread_t th;

	CHECK(pthread_create(&th, NULL, on_cpu_thread, &o) == 0);
	pthread_join(th, NULL);
	CHECK(o.ok);
	if (counts)
		*counts = o.counts;
}

/* ---------------------------------------------------------------------- */
/* 1. vmstat                                                               */

static struct zone *zone_a, *zone_b;	/* node 0 DMA32, node 1 Normal */

static long diff_of(struct zone *zone, int cpu, enum zone_stat_item item)
{
	return zone_pcp(zone, cpu)->vm_stat_diff[item];
}

/* The state after a call: CPU 0's delta, the zone counter, the global counter, the folds. */
#define EXPECT_VM(zone_, item_, diff_, zval_, gval_, folds_) do {		\
	CHECK_EQ_LL(diff_of((zone_), 0, (item_)), (diff_));			\
	CHECK_EQ_LL(atomic_long_read(&zone_vm_stat(zone_)[(item_)]), (zval_));	\
	CHECK_EQ_LL(atomic_long_read(vm_stat_slot(item_)), (gval_));		\
	CHECK_EQ_LL(COUNT(MMSCALE_FOLDS), (folds_));				\
} while (0)

static void cpu1_mod_dirty(void *arg)
{
	(void)arg;
	/* CPU 1's delta: 0 + 3 = 3, within 20: no fold (mm/vmstat.c:156-162). */
	__mod_zone_page_state(zone_a, NR_FILE_DIRTY, 3);
}

/*
 * __mod_zone_page_state (mm/vmstat.c:156-162) on CPU 0's delta of one item
 * with T = 20, after twenty +1s left it at 20: each step, by hand.
 */
struct mod_step {
	int delta;
	long diff, zone, global;	/* CPU 0's delta, the zone's and vm_stat's counts after */
	long long folds;		/* MMSCALE_FOLDS so far */
	const char *why;
};

static const struct mod_step mod_steps[] = {
	{ 1, 0, 21, 21, 1, "one past: x = 21 > 20: fold 21, delta 0" },
	{ -7, -7, 21, 21, 1, "negative: x = -7" },
	{ -13, -20, 21, 21, 1, "x = -7 - 13 = -20, not < -20: no fold" },
	{ -1, 0, 0, 0, 2, "one past -T: x = -21 < -20: fold -21: 21 - 21 = 0" },
	{ 50, 0, 50, 50, 3, "a delta larger than T folds whole: x = 50: 0 + 50" },
	{ -3, -3, 50, 50, 3, "x = -3" },
	{ -45, 0, 2, 2, 4, "x = -3 - 45 = -48 < -20: fold -48: 50 - 48 = 2" },
	/* The test is on x, not on delta: none of these folds. */
	{ 3, 3, 2, 2, 4, "x = 3" },
	{ -3, 0, 2, 2, 4, "x = 0" },
	{ 20, 20, 2, 2, 4, "x = 20, not > 20" },
	{ -40, -20, 2, 2, 4, "a step of 40: x = -20, not < -20" },
	{ 40, 20, 2, 2, 4, "a step of 40: x = 20" },
	{ -20, 0, 2, 2, 4, "x = 0" },
};

static void test_vmstat_sequence(void)
{
	const enum zone_stat_item D = NR_FILE_DIRTY, W = NR_WRITEBACK;
	struct mmscale_counts c1;
	unsigned int cpu;
	int i;

	/*
	 * refresh_zone_stat_thresholds (mm/vmstat.c:138-142) gave every online
	 * CPU's pageset of each populated zone calculate_threshold(zone):
	 * 2 CPUs (fls 2), 1.5 GiB = 12 units (fls 4): 2 * 2 * (1 + 4) = 20.
	 * T = 20, the overstep T / 2 = 10 (mm/vmstat.c:211, 232).
	 */
	for_each_online_cpu(cpu) {
		CHECK_EQ_LL(zone_pcp(zone_a, cpu)->stat_threshold, 20);
		CHECK_EQ_LL(zone_pcp(zone_b, cpu)->stat_threshold, 20);
	}
	mmscale_counts_reset();
	EXPECT_VM(zone_a, D, 0, 0, 0, 0);

	/*
	 * __mod_zone_page_state (mm/vmstat.c:156-162): x = delta + *p; if
	 * x > T or x < -T, zone_page_state_add(x) (include/linux/vmstat.h:
	 * 141-146: x to the zone and to vm_stat) and *p = 0; else *p = x.
	 *
	 * +1 twenty times: x = 1..20, never > 20: the delta is i, nothing folds;
	 * at i = 20 the delta sits at the threshold ('>' not '>=').
	 */
	for (i = 1; i <= 20; i++) {
		__mod_zone_page_state(zone_a, D, 1);
		EXPECT_VM(zone_a, D, i, 0, 0, 0);
	}
	for (size_t k = 0; k < ARRAY_SIZE(mod_steps); k++) {
		const struct mod_step *m = &mod_steps[k];

		__mod_zone_page_state(zone_a, D, m->delta);
		CHECK_MSG(diff_of(zone_a, 0, D) == m->diff &&
			  atomic_long_read(&zone_vm_stat(zone_a)[D]) == m->zone &&
			  atomic_long_read(vm_stat_slot(D)) == m->global &&
			  COUNT(MMSCALE_FOLDS) == m->folds,
			  "__mod_zone_page_state(%+d), %s: delta %ld, zone %ld, global %ld, "
			  "%llu folds (want %ld, %ld, %ld, %lld)", m->delta, m->why,
			  (long)diff_of(zone_a, 0, D), atomic_long_read(&zone_vm_stat(zone_a)[D]),
			  atomic_long_read(vm_stat_slot(D)), (unsigned long long)COUNT(MMSCALE_FOLDS),
			  m->diff, m->zone, m->global, m->folds);
	}

	/*
	 * __inc_zone_state (mm/vmstat.c:208-215): (*p)++; if *p > T:
	 * overstep = T / 2 = 10, zone_page_state_add(*p + overstep), *p = -overstep.
	 * From 0: twenty increments reach 20, no fold.
	 */
	for (i = 1; i <= 20; i++) {
		__inc_zone_state(zone_a, D);
		EXPECT_VM(zone_a, D, i, 2, 2, 4);
	}
	/* The 21st: *p = 21 > 20: add 21 + 10 = 31 (2 + 31 = 33), *p = -10. */
	__inc_zone_state(zone_a, D);
	EXPECT_VM(zone_a, D, -10, 33, 33, 5);
	CHECK_EQ_LL(vm_stat_exact(D), 23);	/* 33 - 10 = 2 + 21 increments */
	/* The overstep buys T + T/2 + 1 = 31 increments to the next fold: 30 reach 20... */
	for (i = 1; i <= 30; i++)
		__inc_zone_state(zone_a, D);
	EXPECT_VM(zone_a, D, 20, 33, 33, 5);
	/* ...the 31st folds 21 + 10 = 31 again: 33 + 31 = 64, *p = -10. */
	__inc_zone_state(zone_a, D);
	EXPECT_VM(zone_a, D, -10, 64, 64, 6);
	CHECK_EQ_LL(vm_stat_exact(D), 54);	/* 2 + 21 + 31 */

	/*
	 * __dec_zone_state (mm/vmstat.c:229-236): (*p)--; if *p < -T:
	 * overstep = 10, zone_page_state_add(*p - overstep), *p = +overstep.
	 * From -10: ten decrements reach -20, no fold.
	 */
	for (i = 1; i <= 10; i++) {
		__dec_zone_state(zone_a, D);
		EXPECT_VM(zone_a, D, -10 - i, 64, 64, 6);
	}
	/* The 11th: *p = -21 < -20: add -21 - 10 = -31 (64 - 31 = 33), *p = +10. */
	__dec_zone_state(zone_a, D);
	EXPECT_VM(zone_a, D, 10, 33, 33, 7);
	CHECK_EQ_LL(vm_stat_exact(D), 43);	/* 54 - 11 */
	/* From +10: 30 decrements reach -20, the 31st folds -31: 33 - 31 = 2. */
	for (i = 1; i <= 30; i++)
		__dec_zone_state(zone_a, D);
	EXPECT_VM(zone_a, D, -20, 33, 33, 7);
	__dec_zone_state(zone_a, D);
	EXPECT_VM(zone_a, D, 10, 2, 2, 8);
	CHECK_EQ_LL(vm_stat_exact(D), 12);	/* 43 - 31 */
	/* Back up from +10: 10 increments reach 20, the 11th folds 31: 33, -10. */
	for (i = 1; i <= 10; i++)
		__inc_zone_state(zone_a, D);
	EXPECT_VM(zone_a, D, 20, 2, 2, 8);
	__inc_zone_state(zone_a, D);
	EXPECT_VM(zone_a, D, -10, 33, 33, 9);
	CHECK_EQ_LL(vm_stat_exact(D), 23);	/* 12 + 11 */
	/* None of it read a global counter or took a lock. */
	CHECK_EQ_LL(COUNT(MMSCALE_GLOBAL_READS), 0);
	CHECK_EQ_LL(COUNT(MMSCALE_LOCK_ACQUIRES), 0);

	/*
	 * refresh_cpu_vm_stats (mm/vmstat.c:300-320, 350-352): for each
	 * populated zone, each item with a non-zero delta of that CPU: the
	 * delta to the zone counter (one fold each here), summed into
	 * global_diff; then global_diff[i] to vm_stat[i] once per item.
	 *
	 * Pending before it: CPU 0: zone A D -10 (above), zone A W +7, zone B
	 * D +5 (both within 20, no fold); CPU 1: zone A D +3.
	 */
	__mod_zone_page_state(zone_a, W, 7);
	__mod_zone_page_state(zone_b, D, 5);
	run_on_cpu(1, cpu1_mod_dirty, NULL, &c1);
	CHECK_EQ_LL(c1.v[MMSCALE_FOLDS], 0);
	EXPECT_VM(zone_a, D, -10, 33, 33, 9);
	EXPECT_VM(zone_a, W, 7, 0, 0, 9);
	EXPECT_VM(zone_b, D, 5, 0, 33, 9);
	CHECK_EQ_LL(diff_of(zone_a, 1, D), 3);
	CHECK_EQ_LL(vm_stat_exact(D), 31);	/* 33 - 10 + 5 + 3 */
	CHECK_EQ_LL(vm_stat_exact(W), 7);
	/*
	 * CPU 0's fold: zone A D 33 - 10 = 23, zone A W 0 + 7 = 7, zone B D
	 * 0 + 5 = 5: three folds (9 + 3 = 12). Global D 33 + (-10 + 5) = 28,
	 * global W 0 + 7 = 7. CPU 1's +3 stays pending.
	 */
	refresh_cpu_vm_stats(0);
	EXPECT_VM(zone_a, D, 0, 23, 28, 12);
	EXPECT_VM(zone_a, W, 0, 7, 7, 12);
	EXPECT_VM(zone_b, D, 0, 5, 28, 12);
	CHECK_EQ_LL(diff_of(zone_a, 1, D), 3);
	CHECK_EQ_LL(vm_stat_exact(D), 31);
	/* Nothing pending on CPU 0: a second refresh changes nothing, no fold. */
	refresh_cpu_vm_stats(0);
	EXPECT_VM(zone_a, D, 0, 23, 28, 12);
	EXPECT_VM(zone_b, D, 0, 5, 28, 12);
	/* CPU 1 (no thread running): its +3: zone A D 26, global 31, one fold (13). */
	refresh_cpu_vm_stats(1);
	EXPECT_VM(zone_a, D, 0, 26, 31, 13);
	CHECK_EQ_LL(diff_of(zone_a, 1, D), 0);
	CHECK_EQ_LL(vm_stat_exact(D), 31);

	/*
	 * The reads: global_page_state (include/linux/vmstat.h:148-156) is
	 * one read of vm_stat, clamped at 0 (CONFIG_SMP). 31 -> 31, one read.
	 */
	CHECK_EQ_LL(global_page_state(D), 31);
	CHECK_EQ_LL(COUNT(MMSCALE_GLOBAL_READS), 1);
	/* W: 7 - 30: x = -30 < -20, fold: zone A W -23, global -23 (folds 14). */
	__mod_zone_page_state(zone_a, W, -30);
	EXPECT_VM(zone_a, W, 0, -23, -23, 14);
	CHECK_EQ_LL(global_page_state(W), 0);	/* clamped */
	CHECK_EQ_LL(zone_page_state(zone_a, W), 0);
	CHECK_EQ_LL(vm_stat_exact(W), -23);
	CHECK_EQ_LL(COUNT(MMSCALE_GLOBAL_READS), 2);	/* zone_page_state is not a global read */
	/*
	 * global_lru_pages (mm/vmscan.c, not in ../shared/kernel): four global
	 * reads; the LRU counters are 0.
	 */
	CHECK_EQ_LL(global_lru_pages(), 0);
	CHECK_EQ_LL(COUNT(MMSCALE_GLOBAL_READS), 6);
	CHECK_EQ_LL(COUNT(MMSCALE_LOCK_ACQUIRES), 0);
}

/*
 * An odd threshold, set by hand (stat_threshold is the pageset's field, as
 * in the kernel): T = 7, the overstep 7 / 2 = 3 (integer division).
 */
static void test_vmstat_odd_threshold(void)
{
	const enum zone_stat_item B = NR_BOUNCE;
	struct per_cpu_pageset *pcp = zone_pcp(zone_b, 0);
	int i;

	pcp->stat_threshold = 7;
	mmscale_counts_reset();
	for (i = 1; i <= 7; i++)
		__inc_zone_state(zone_b, B);
	EXPECT_VM(zone_b, B, 7, 0, 0, 0);
	/* 8 > 7: add 8 + 3 = 11, *p = -3. */
	__inc_zone_state(zone_b, B);
	EXPECT_VM(zone_b, B, -3, 11, 11, 1);
	/* -3 down to -7: four decrements, no fold; the fifth: -8 < -7: add -8 - 3 = -11, *p = 3. */
	for (i = 1; i <= 4; i++)
		__dec_zone_state(zone_b, B);
	EXPECT_VM(zone_b, B, -7, 11, 11, 1);
	__dec_zone_state(zone_b, B);
	EXPECT_VM(zone_b, B, 3, 0, 0, 2);
	/* __mod from 3: +4 = 7 (no fold), +1 = 8 > 7: fold 8, *p = 0 (no overstep in __mod). */
	__mod_zone_page_state(zone_b, B, 4);
	EXPECT_VM(zone_b, B, 7, 0, 0, 2);
	__mod_zone_page_state(zone_b, B, 1);
	EXPECT_VM(zone_b, B, 0, 8, 8, 3);
	CHECK_EQ_LL(vm_stat_exact(B), 8);	/* 8 inc - 5 dec + 5 */

	/*
	 * The cap, T = 125 (the largest calculate_threshold gives; the s8
	 * delta reaches 126 before the fold): overstep 62.
	 */
	pcp->stat_threshold = 125;
	__mod_zone_page_state(zone_b, B, 125);		/* x = 125, not > 125 */
	EXPECT_VM(zone_b, B, 125, 8, 8, 3);
	__inc_zone_state(zone_b, B);			/* 126 > 125: add 126 + 62 = 188 */
	EXPECT_VM(zone_b, B, -62, 196, 196, 4);
	__mod_zone_page_state(zone_b, B, -63);		/* x = -125, not < -125 */
	EXPECT_VM(zone_b, B, -125, 196, 196, 4);
	__dec_zone_state(zone_b, B);			/* -126 < -125: add -126 - 62 = -188 */
	EXPECT_VM(zone_b, B, 62, 8, 8, 5);
	CHECK_EQ_LL(vm_stat_exact(B), 70);		/* 8 + 125 + 1 - 63 - 1 */
	/* refresh_cpu_vm_stats folds the +62: 70, one fold. */
	refresh_cpu_vm_stats(0);
	EXPECT_VM(zone_b, B, 0, 70, 70, 6);
	pcp->stat_threshold = 20;
}

/* ---------------------------------------------------------------------- */
/* 3b. percpu_counter                                                      */

static long slot_of(struct percpu_counter *fbc, int cpu)
{
	return READ_ONCE(*per_cpu_ptr(fbc->counters, cpu));
}

/* CPU 0's slot, fbc->count, folds and lock acquisitions of this thread. */
#define EXPECT_PC(fbc_, slot_, count_, folds_, locks_) do {			\
	CHECK_EQ_LL(slot_of((fbc_), 0), (slot_));				\
	CHECK_EQ_LL(READ_ONCE((fbc_)->count), (count_));			\
	CHECK_EQ_LL(COUNT(MMSCALE_FOLDS), (folds_));				\
	CHECK_EQ_LL(COUNT(MMSCALE_LOCK_ACQUIRES), (locks_));			\
} while (0)

static struct backing_dev_info test_bdi;

/* Run as CPU 1: __add_bdi_stat(BDI_RECLAIMABLE, arg), on CPU 1's own slot. */
static void cpu1_add(void *arg)
{
	__add_bdi_stat(&test_bdi, BDI_RECLAIMABLE, (s64)(intptr_t)arg);
}

/*
 * CPU 1 adds amount: it folds `folds` times (one lock each) and leaves its
 * slot at slot; from here, percpu_counter_read and bdi_stat then see read
 * and bdi, the exact percpu_counter_sum sum.
 */
static void expect_cpu1_add(struct percpu_counter *fbc, long amount, long long folds,
			    long long slot, long long read, long long bdi, long long sum)
{
	struct mmscale_counts c1;

	run_on_cpu(1, cpu1_add, (void *)(intptr_t)amount, &c1);
	CHECK_EQ_LL(c1.v[MMSCALE_FOLDS], folds);
	CHECK_EQ_LL(c1.v[MMSCALE_LOCK_ACQUIRES], folds);
	CHECK_EQ_LL(slot_of(fbc, 1), slot);
	CHECK_EQ_LL(percpu_counter_read(fbc), read);
	CHECK_EQ_LL(bdi_stat(&test_bdi, BDI_RECLAIMABLE), bdi);
	CHECK_EQ_LL(percpu_counter_sum(fbc), sum);
}

static void test_percpu_counter(void)
{
	struct percpu_counter *fbc = &test_bdi.bdi_stat[BDI_RECLAIMABLE];
	struct percpu_counter *wb = &test_bdi.bdi_stat[BDI_WRITEBACK];
	int i;

	CHECK(bdi_init(&test_bdi) == 0);
	/*
	 * 2 CPUs: BDI_STAT_BATCH = 8 * (1 + ilog2(2)) = 16; percpu_counter_batch
	 * = compute_batch_value() (lib/percpu_counter.c:105-110) = max(32, 2*2) = 32.
	 */
	CHECK_EQ_LL(BDI_STAT_BATCH, 16);
	CHECK_EQ_LL(percpu_counter_batch, 32);
	CHECK_EQ_LL(bdi_stat_error(&test_bdi), 32);
	mmscale_counts_reset();
	EXPECT_PC(fbc, 0, 0, 0, 0);

	/*
	 * __percpu_counter_add (lib/percpu_counter.c:35-44): count = *pcount +
	 * amount; if count >= batch or count <= -batch: under fbc->lock,
	 * fbc->count += count, *pcount = 0; else *pcount = count. B = 16.
	 */
	__add_bdi_stat(&test_bdi, BDI_RECLAIMABLE, 15);		/* batch - 1: 15 < 16 */
	EXPECT_PC(fbc, 15, 0, 0, 0);
	__inc_bdi_stat(&test_bdi, BDI_RECLAIMABLE);		/* 16 >= 16: fold 16 */
	EXPECT_PC(fbc, 0, 16, 1, 1);
	__add_bdi_stat(&test_bdi, BDI_RECLAIMABLE, 16);		/* batch from 0: fold 16 */
	EXPECT_PC(fbc, 0, 32, 2, 2);
	__add_bdi_stat(&test_bdi, BDI_RECLAIMABLE, 17);		/* batch + 1: fold 17 */
	EXPECT_PC(fbc, 0, 49, 3, 3);
	__add_bdi_stat(&test_bdi, BDI_RECLAIMABLE, -15);	/* -15 > -16 */
	EXPECT_PC(fbc, -15, 49, 3, 3);
	__dec_bdi_stat(&test_bdi, BDI_RECLAIMABLE);		/* -16 <= -16: fold -16 */
	EXPECT_PC(fbc, 0, 33, 4, 4);
	__add_bdi_stat(&test_bdi, BDI_RECLAIMABLE, -16);	/* -batch: fold -16 */
	EXPECT_PC(fbc, 0, 17, 5, 5);
	__add_bdi_stat(&test_bdi, BDI_RECLAIMABLE, -17);	/* -(batch + 1): fold -17 */
	EXPECT_PC(fbc, 0, 0, 6, 6);
	/* The fold takes the whole slot, not the batch: 10, then 10 + 10 = 20 folds 20. */
	__add_bdi_stat(&test_bdi, BDI_RECLAIMABLE, 10);
	EXPECT_PC(fbc, 10, 0, 6, 6);
	__add_bdi_stat(&test_bdi, BDI_RECLAIMABLE, 10);
	EXPECT_PC(fbc, 0, 20, 7, 7);
	__add_bdi_stat(&test_bdi, BDI_RECLAIMABLE, -30);	/* -30: fold, 20 - 30 = -10 */
	EXPECT_PC(fbc, 0, -10, 8, 8);
	__add_bdi_stat(&test_bdi, BDI_RECLAIMABLE, 5);
	EXPECT_PC(fbc, 5, -10, 8, 8);

	/*
	 * Reads (include/linux/percpu_counter.h:60-78): percpu_counter_read is
	 * fbc->count (-10); read_positive (bdi_stat) returns 1 for a negative
	 * count in 2.6.31. Each is one MMSCALE_BDI_READS, no lock.
	 */
	mmscale_counts_reset();
	CHECK_EQ_LL(percpu_counter_read(fbc), -10);
	CHECK_EQ_LL(bdi_stat(&test_bdi, BDI_RECLAIMABLE), 1);
	CHECK_EQ_LL(COUNT(MMSCALE_BDI_READS), 2);
	CHECK_EQ_LL(COUNT(MMSCALE_LOCK_ACQUIRES), 0);
	/*
	 * __percpu_counter_sum (lib/percpu_counter.c:58-64): under the lock,
	 * count + every online CPU's slot: -10 + 5 + 0 = -5; sum_positive
	 * (percpu_counter.h:49-53, bdi_stat_sum) clamps to 0. Two slots and one
	 * lock each.
	 */
	CHECK_EQ_LL(percpu_counter_sum(fbc), -5);
	CHECK_EQ_LL(bdi_stat_sum(&test_bdi, BDI_RECLAIMABLE), 0);
	CHECK_EQ_LL(COUNT(MMSCALE_PERCPU_SUM_SLOTS), 4);
	CHECK_EQ_LL(COUNT(MMSCALE_LOCK_ACQUIRES), 2);
	CHECK_EQ_LL(COUNT(MMSCALE_BDI_READS), 2);
	CHECK_EQ_LL(COUNT(MMSCALE_FOLDS), 0);

	/*
	 * CPU 1 adds 12: its slot 0 + 12 = 12 < 16, no fold; the read still
	 * -10 (bdi_stat 1), the sum sees it: -10 + 5 + 12 = 7.
	 */
	expect_cpu1_add(fbc, 12, 0, 12, -10, 1, 7);
	CHECK_EQ_LL(percpu_counter_sum_positive(fbc), 7);
	/*
	 * CPU 1 adds 4: 12 + 4 = 16 >= 16: it folds 16 under the lock: count
	 * -10 + 16 = 6, its slot 0; the sum 6 + 5 + 0 = 11.
	 */
	expect_cpu1_add(fbc, 4, 1, 0, 6, 6, 11);
	CHECK_EQ_LL(bdi_stat_sum(&test_bdi, BDI_RECLAIMABLE), 11);
	/* This thread: 6 reads, 6 sums of 2 slots (one lock each), no fold. */
	CHECK_EQ_LL(COUNT(MMSCALE_BDI_READS), 6);
	CHECK_EQ_LL(COUNT(MMSCALE_PERCPU_SUM_SLOTS), 12);
	CHECK_EQ_LL(COUNT(MMSCALE_LOCK_ACQUIRES), 6);
	CHECK_EQ_LL(COUNT(MMSCALE_FOLDS), 0);

	/* percpu_counter_set (lib/percpu_counter.c:19-25): slots 0, count 100, one lock. */
	mmscale_counts_reset();
	percpu_counter_set(fbc, 100);
	EXPECT_PC(fbc, 0, 100, 0, 1);
	CHECK_EQ_LL(percpu_counter_sum(fbc), 100);

	/*
	 * percpu_counter_add/inc/dec (percpu_counter.h:44-47, 134-142) use
	 * percpu_counter_batch = 32: 31 stays, the 32nd folds 32; 31
	 * decrements reach -31, the 32nd folds -32.
	 */
	mmscale_counts_reset();
	percpu_counter_add(wb, 31);
	EXPECT_PC(wb, 31, 0, 0, 0);
	percpu_counter_inc(wb);
	EXPECT_PC(wb, 0, 32, 1, 1);
	for (i = 1; i <= 31; i++)
		percpu_counter_dec(wb);
	EXPECT_PC(wb, -31, 32, 1, 1);
	percpu_counter_dec(wb);
	EXPECT_PC(wb, 0, 0, 2, 2);
	percpu_counter_add(wb, -33);				/* -(batch + 1): fold */
	EXPECT_PC(wb, 0, -33, 3, 3);
	CHECK_EQ_LL(percpu_counter_read_positive(wb), 1);
	CHECK_EQ_LL(percpu_counter_sum_positive(wb), 0);

	bdi_destroy(&test_bdi);
}

/* compute_batch_value's max(32, 2 * online CPUs) at its boundary: 16 CPUs 32, 17 CPUs 34. */
static void test_percpu_counter_batch(void)
{
	struct mmscale_topology t;
	struct mmscale_plan p;
	struct percpu_counter fbc;
	char err[256];

	if (mmscale_topology_load(&t, "synthetic:node:1 core:17 pu:1", err, sizeof(err)) != 0 ||
	    mmscale_plan_build(&p, &t, MMSCALE_PLACE_COMPACT, NULL, err, sizeof(err)) != 0 ||
	    mmscale_machine_setup(&p, MMSCALE_SPIN_YIELD, err, sizeof(err)) != 0) {
		fprintf(stderr, "%s\n", err);
		CHECK(0);
		return;
	}
	machine_online_cpus(16);
	CHECK(percpu_counter_init(&fbc, 0) == 0);
	CHECK_EQ_LL(percpu_counter_batch, 32);		/* max(32, 32) */
	percpu_counter_destroy(&fbc);
	machine_online_cpus(17);
	CHECK(percpu_counter_init(&fbc, 0) == 0);
	CHECK_EQ_LL(percpu_counter_batch, 34);		/* max(32, 34) */
	/* BDI_STAT_BATCH: 8 * (1 + ilog2(17)) = 8 * 5 = 40. */
	CHECK_EQ_LL(BDI_STAT_BATCH, 40);
	percpu_counter_destroy(&fbc);
	mmscale_machine_teardown();
	mmscale_plan_destroy(&p);
	mmscale_topology_destroy(&t);
}

int main(void)
{
	struct mmscale_topology t;
	struct mmscale_plan p;
	char err[256];

	mmscale_notices_quiet = 1;
	test_calculate_threshold();
	test_bdi_stat_batch();

	/*
	 * 2 CPUs on 2 nodes, 3 GiB: node 0 has DMA32 only (1.5 GiB, zone A),
	 * node 1 Normal (1.5 GiB, zone B). This thread is CPU 0.
	 */
	if (mmscale_topology_load(&t, "synthetic:node:2 core:1 pu:1", err, sizeof(err)) != 0 ||
	    mmscale_plan_build(&p, &t, MMSCALE_PLACE_COMPACT, NULL, err, sizeof(err)) != 0 ||
	    mmscale_machine_setup(&p, MMSCALE_SPIN_YIELD, err, sizeof(err)) != 0 ||
	    mm_machine_setup(3ULL << 30, err, sizeof(err)) != 0 ||
	    mmscale_cpu_enter(0, err, sizeof(err)) != 0) {
		fprintf(stderr, "%s\n", err);
		return 1;
	}
	CHECK_EQ_LL(nr_cpu_ids, 2);
	CHECK_EQ_LL(nr_populated_zones(), 2);
	zone_a = &NODE_DATA(0)->node_zones[ZONE_DMA32];
	zone_b = &NODE_DATA(1)->node_zones[ZONE_NORMAL];
	CHECK_EQ_LL(zone_present_pages(zone_a), 12 * UNIT);
	CHECK_EQ_LL(zone_present_pages(zone_b), 12 * UNIT);
	test_vmstat_sequence();
	test_vmstat_odd_threshold();
	test_percpu_counter();
	mmscale_cpu_leave();
	mm_machine_teardown();
	mmscale_machine_teardown();
	mmscale_plan_destroy(&p);
	mmscale_topology_destroy(&t);

	test_percpu_counter_batch();
	return check_report("test_arith_counters");
}
