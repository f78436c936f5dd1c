// SPDX-License-Identifier: GPL-2.0
/*
 * The rss counter designs of cases/rss_designs.c beyond one CPU's claims
 * (tests/test_claims.c has those): Desnoyers' counter tree
 * (kernel/linux-6.18/lib/percpu_counter_tree.c) against an exact shadow
 * count, its shape and accuracy range at 2, 8 and 1024 CPUs; Dorminy's
 * per-node atomics (kernel/linux-6.18/mm/rss_stat_designs.c) folding per
 * node; Krisman's lazy counters and their upgrade; Kairui Song's per-CPU
 * cache, its switch and its discard; rss/oom_scan's choice with each read;
 * and rss/drift's walk, whose worst error is checked against the
 * test's own shadow of every fault and unmap, for every design, and whose
 * bound check fails a design that strays past its bound.
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "test_machine.h"
#include "mmscale/kernel/cpumask.h"
#include "mmscale/kernel/machine.h"
#include "mmscale/kernel/percpu.h"
#include "mmscale/kernel/processor.h"
#include "mmscale/linux-6.18/mm/rss_stat_designs.h"
#include "../../cases/rss_designs.h"

/* A zeroed mm on a line of its own, as the kernel's mm_cachep gives (its types ask for 64). */
static void *zalloc_mm(size_t size)
{
	size_t rounded = (size + SMP_CACHE_BYTES - 1) / SMP_CACHE_BYTES * SMP_CACHE_BYTES;
	void *mm = aligned_alloc(SMP_CACHE_BYTES, rounded);

	if (mm)
		memset(mm, 0, rounded);
	return mm;
}

static uint64_t rng = 0x2545f4914f6cdd1dULL;

static uint64_t next_random(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/*
 * The accuracy range of a settled counter: batch x accuracy_multiplier
 * under, (batch - 1) x it over, the multiplier the sum over the levels of
 * (that level's batch per unit) x (its items): 2 CPUs 2; 8 CPUs 8 + 4 x 2 +
 * 2 x 4 = 24 (the lib's own example: +-768 at a batch of 32); 1024 CPUs
 * (arities 3, 3, 2, 2) 1024 + 128 x 8 + 16 x 64 + 4 x 256 = 4096.
 */
static void test_tree_shape(unsigned int cpus, unsigned long multiplier, size_t nr_items)
{
	struct mm_struct_tree *mm;
	unsigned long under = 0, over = 0;
	char err[128];

	CHECK_EQ_LL(nr_cpu_ids, cpus);
	CHECK(percpu_counter_tree_subsystem_init(err, sizeof(err)) == 0);
	CHECK_EQ_LL(percpu_counter_tree_items_size(), nr_items * 64);
	mm = zalloc_mm(mm_struct_tree_size());
	CHECK(mm && mm_init_rss_tree(mm) == 0);
	percpu_counter_tree_approximate_accuracy_range(&mm->rss_stat[MM_ANONPAGES], &under, &over);
	CHECK_MSG(under == RSS_STAT_BATCH_SIZE * multiplier &&
		  over == (RSS_STAT_BATCH_SIZE - 1) * multiplier,
		  "%u CPUs: accuracy range %lu under, %lu over", cpus, under, over);
	CHECK_EQ_LL(mm_free_rss_tree(mm), 0);
	free(mm);
}

/*
 * Adds of either sign and of any size, up to 3 batches, each from a random
 * CPU: after every one the precise sum is the shadow exactly and the
 * approximate sum within the range of it.
 */
static void test_tree_against_shadow(void)
{
	struct mm_struct_tree *mm = zalloc_mm(mm_struct_tree_size());
	struct percpu_counter_tree *c;
	unsigned long under = 0, over = 0;
	long shadow = 0;
	int bad = 0;
	char err[128];

	CHECK(percpu_counter_tree_subsystem_init(err, sizeof(err)) == 0);
	CHECK(mm && mm_init_rss_tree(mm) == 0);
	c = &mm->rss_stat[MM_FILEPAGES];
	percpu_counter_tree_approximate_accuracy_range(c, &under, &over);
	for (int i = 0; i < 20000 && bad < 5; i++) {
		uint64_t r = next_random();
		long inc = (long)(r % (3 * RSS_STAT_BATCH_SIZE + 1)) - (long)(3 * RSS_STAT_BATCH_SIZE / 2);
		long approx, precise;

		machine_task_migrate((int)((r >> 32) % nr_cpu_ids));
		percpu_counter_tree_add(c, inc);
		shadow += inc;
		precise = percpu_counter_tree_precise_sum(c);
		approx = percpu_counter_tree_approximate_sum(c);
		if (precise != shadow || approx < shadow - (long)under || approx > shadow + (long)over) {
			CHECK_MSG(false, "add %d (%ld): precise %ld, approximate %ld, true %ld, range "
				  "-%lu/+%lu", i, inc, precise, approx, shadow, under, over);
			bad++;
		}
	}
	machine_task_migrate(0);
	/* check_mm finds the counter not zero: its precise sum is what mm_free returns. */
	CHECK_EQ_LL(mm_free_rss_tree(mm), shadow);
	free(mm);
}

/*
 * A carry climbs from the item of the CPU that made it: on 8 CPUs level 1
 * has 4 items, CPU c's is c & 3 (CPUs c and c + 4 share it, the lib's
 * own mapping), so 32 faults on CPU 5 put their carry in item 1, not 0:
 * which line a carry writes is what the tree spreads.
 */
static void test_tree_carry_path(void)
{
	struct mm_struct_tree *mm = zalloc_mm(mm_struct_tree_size());
	struct percpu_counter_tree *c;
	char err[128];

	CHECK(percpu_counter_tree_subsystem_init(err, sizeof(err)) == 0);
	CHECK(mm && mm_init_rss_tree(mm) == 0);
	c = &mm->rss_stat[MM_ANONPAGES];
	machine_task_migrate(5);
	for (int i = 0; i < RSS_STAT_BATCH_SIZE; i++)
		percpu_counter_tree_add(c, 1);
	machine_task_migrate(0);
	CHECK_EQ_LL(atomic_long_read(&c->items[1].count), RSS_STAT_BATCH_SIZE);
	CHECK_EQ_LL(atomic_long_read(&c->items[0].count), 0);
	CHECK_EQ_LL(mm_free_rss_tree(mm), RSS_STAT_BATCH_SIZE);
	free(mm);
}

/* Node n's CPUs add to numa_counters[n % 32]; at 32 in magnitude it moves to the global. */
static void test_pernuma_folds(void)
{
	struct mm_struct_pernuma mm;
	struct mm_pernuma_counter *c = &mm.rss_stat[MM_ANONPAGES];
	int cpu1 = (int)nr_cpu_ids - 1, node1 = cpu_to_node(cpu1);
	u64 folds = test_count(MMSCALE_FOLDS);

	CHECK(node1 != cpu_to_node(0));
	mm_init_rss_pernuma(&mm);
	for (int i = 0; i < 31; i++)
		add_mm_counter_pernuma(&mm, MM_ANONPAGES, 1);
	machine_task_migrate(cpu1);
	add_mm_counter_pernuma(&mm, MM_ANONPAGES, -5);
	machine_task_migrate(0);
	CHECK_EQ_LL(atomic_long_read(&c->numa_counters[cpu_to_node(0)]), 31);
	CHECK_EQ_LL(atomic_long_read(&c->numa_counters[node1]), -5);
	CHECK_EQ_LL(get_mm_counter_pernuma(&mm, MM_ANONPAGES), 0);
	CHECK_EQ_LL(test_count(MMSCALE_FOLDS) - folds, 0);
	add_mm_counter_pernuma(&mm, MM_ANONPAGES, 1);	/* 32: into the global */
	CHECK_EQ_LL(atomic_long_read(&c->numa_counters[cpu_to_node(0)]), 0);
	CHECK_EQ_LL(get_mm_counter_pernuma(&mm, MM_ANONPAGES), 32);
	CHECK_EQ_LL(test_count(MMSCALE_FOLDS) - folds, 1);
	CHECK_EQ_LL(get_mm_counter_slow_pernuma(&mm, MM_ANONPAGES), 27);
	machine_task_migrate(cpu1);
	add_mm_counter_pernuma(&mm, MM_ANONPAGES, -40);	/* -45: all of it to the global */
	machine_task_migrate(0);
	CHECK_EQ_LL(atomic_long_read(&c->numa_counters[node1]), 0);
	CHECK_EQ_LL(get_mm_counter_pernuma(&mm, MM_ANONPAGES), 0);	/* -13, read as 0 */
	CHECK_EQ_LL(get_mm_counter_slow_pernuma(&mm, MM_ANONPAGES), -13);
	CHECK_EQ_LL(rss_error_bound_pernuma(2), 62);
	CHECK_EQ_LL(rss_error_bound_pernuma(128), 31 * 32);
}

/*
 * Krisman's lazy counter: one task's updates are a cmpxchg on the remote
 * atomic (4/4's add_mm_counter_other), read exactly; a CLONE_VM child
 * upgrades it (one pcpu_alloc), the remote's value going to the cloning
 * CPU's s32 with percpu_counter_add_local (batch INT_MAX): so after the
 * upgrade get_mm_counter (fbc->count) misses every page counted before
 * it, until that CPU next updates the counter and folds (|s32 + 1| >=
 * the batch). The sum stays exact throughout.
 */
static void test_lazy_upgrade(void)
{
	struct mm_struct_lazy mm;
	int cpu1 = (int)nr_cpu_ids - 1;
	u64 locked = test_count(MMSCALE_LOCKED_OPS), allocs = test_count(MMSCALE_PERCPU_ALLOCS);

	mm_init_rss_lazy(&mm);
	CHECK_EQ_LL(test_count(MMSCALE_PERCPU_ALLOCS) - allocs, 0);
	for (int i = 0; i < 1000; i++)
		add_mm_counter_other_lazy(&mm, MM_ANONPAGES, 1);
	CHECK_EQ_LL(test_count(MMSCALE_LOCKED_OPS) - locked, 1000);
	CHECK_EQ_LL(get_mm_counter_lazy(&mm, MM_ANONPAGES), 1000);
	CHECK(!mm_rss_lazy_upgraded(&mm));
	CHECK_EQ_LL(copy_mm_clone_vm_lazy(&mm), 0);
	CHECK(mm_rss_lazy_upgraded(&mm));
	CHECK_EQ_LL(test_count(MMSCALE_PERCPU_ALLOCS) - allocs, 1);
	CHECK_EQ_LL(*per_cpu_ptr(mm.rss_stat[MM_ANONPAGES].c.counters, 0), 1000);
	CHECK_EQ_LL(get_mm_counter_lazy(&mm, MM_ANONPAGES), 0);		/* 1000 pages missing */
	CHECK_EQ_LL(get_mm_counter_sum_lazy(&mm, MM_ANONPAGES), 1000);
	machine_task_migrate(cpu1);					/* another CPU: still missing */
	add_mm_counter_other_lazy(&mm, MM_ANONPAGES, 1);
	machine_task_migrate(0);
	CHECK_EQ_LL(get_mm_counter_lazy(&mm, MM_ANONPAGES), 0);
	add_mm_counter_other_lazy(&mm, MM_ANONPAGES, 1);		/* the cloning CPU: folds */
	CHECK_EQ_LL(get_mm_counter_lazy(&mm, MM_ANONPAGES), 1001);
	CHECK_EQ_LL(get_mm_counter_sum_lazy(&mm, MM_ANONPAGES), 1002);
	CHECK_EQ_LL(mm_free_rss_lazy(&mm), 1002);
}

/*
 * Kairui Song's per-CPU cache: CPU 0 caches mm a (its mm_init ran there),
 * CPU 1 caches a once a's task runs there; faults there are this_cpu_adds,
 * get_mm_counter adds both caches to the atomic; a context switch to mm b
 * on CPU 1 flushes a's cache into a's atomic (one cmpxchg, one atomic add)
 * and caches b; __mmdrop's discard takes CPU 0's cache of a (a cmpxchg)
 * and leaves b's alone.
 */
static void test_pcpcache(void)
{
	struct mm_struct_pcpcache a, b;
	char err[128];
	u64 locked;

	CHECK(rss_design_pcpcache.boot(err, sizeof(err)) == 0);
	CHECK_EQ_LL(rss_design_pcpcache.mm_init(&a), 0);
	rss_design_pcpcache.fault(&a);				/* CPU 0's cache */
	machine_task_migrate(1);
	rss_design_pcpcache.fault(&a);				/* CPU 1 caches another mm: atomic */
	CHECK_EQ_LL(atomic_long_read(&a.rss_stat.count[MM_ANONPAGES]), 1);
	switch_pcp_rss_cache_no_irq(&a);
	locked = test_count(MMSCALE_LOCKED_OPS);
	for (int i = 0; i < 10; i++)
		rss_design_pcpcache.fault(&a);
	CHECK_EQ_LL(test_count(MMSCALE_LOCKED_OPS) - locked, 0);
	CHECK_EQ_LL(atomic_long_read(&a.rss_stat.count[MM_ANONPAGES]), 1);
	CHECK_EQ_LL(get_mm_counter_pcpcache(&a, MM_ANONPAGES), 12);
	mm_init_rss_pcpcache(&b);
	switch_pcp_rss_cache_no_irq(&b);			/* flushes a's 10 */
	CHECK_EQ_LL(test_count(MMSCALE_LOCKED_OPS) - locked, 2);
	CHECK_EQ_LL(atomic_long_read(&a.rss_stat.count[MM_ANONPAGES]), 11);
	CHECK_EQ_LL(get_mm_counter_pcpcache(&a, MM_ANONPAGES), 12);
	rss_design_pcpcache.fault(&b);
	machine_task_migrate(0);
	locked = test_count(MMSCALE_LOCKED_OPS);
	CHECK_EQ_LL(mm_free_rss_pcpcache(&a), 12);		/* CPU 0's 1 taken */
	CHECK_EQ_LL(test_count(MMSCALE_LOCKED_OPS) - locked, 1);
	CHECK_EQ_LL(get_mm_counter_pcpcache(&b, MM_ANONPAGES), 1);
	CHECK_EQ_LL(mm_free_rss_pcpcache(&b), 1);
	pcp_rss_cache_halt();
}

/* The walk through a design whose every fault, unmap and read the test sees. */
static const struct rss_design *real;
static long shadow;
static unsigned long shadow_worst;

static void seen_fault(void *mm)
{
	real->fault(mm);
	shadow++;
}

static void seen_add(void *mm, long pages)
{
	real->add(mm, pages);
	shadow += pages;
}

static unsigned long seen_read(void *mm, int member)
{
	unsigned long v = real->read(mm, member);
	unsigned long off = (unsigned long)labs((long)v - shadow);

	if (off > shadow_worst)
		shadow_worst = off;
	return v;
}

static void test_drift(const char *name, const struct rss_design *d)
{
	struct rss_design seen = *d;
	struct rss_drift dr = { .seed = 12345 };
	unsigned long bound;
	char err[256];
	void *mm;

	real = d;
	shadow = 0;
	shadow_worst = 0;
	seen.fault = seen_fault;
	seen.add = seen_add;
	seen.read = seen_read;
	if (d->boot)
		CHECK(d->boot(err, sizeof(err)) == 0);
	mm = zalloc_mm(d->mm_size());
	CHECK(mm && d->mm_init(mm) == 0);
	rss_drift_walk(&seen, mm, &dr, 4 * nr_cpu_ids);
	bound = d->error_bound(mm, 1);
	printf("  %-8s drift over %lu stops: worst %lu pages, bound %lu, true %ld\n", name,
	       dr.steps, dr.worst, bound, dr.true_pages);
	CHECK_EQ_LL(smp_processor_id(), 0);	/* migrated home */
	CHECK_EQ_LL(dr.steps, 4 * nr_cpu_ids);
	CHECK_EQ_LL(dr.true_pages, shadow);
	CHECK_MSG(dr.worst == shadow_worst, "%s: the walk says %lu pages, the shadow %lu", name,
		  dr.worst, shadow_worst);
	CHECK(rss_drift_check(name, &dr, bound, err, sizeof(err)) == 0);
	if (bound == 0) {	/* the lazy counter of one task: exact */
		CHECK_EQ_LL(dr.worst, 0);
	} else {
		CHECK(dr.worst > 0);
		/* A bound one page short of what the walk saw: the run fails, naming the row. */
		CHECK(rss_drift_check(name, &dr, dr.worst - 1, err, sizeof(err)) != 0);
		CHECK(strstr(err, name) && strstr(err, "beyond its bound"));
	}
	CHECK_EQ_LL(d->mm_free(mm), shadow);
	if (d->halt)
		d->halt();
	free(mm);
}

/*
 * The bounds are reached: 6.1's task cache holds 66 faults just before
 * its sync (the 66th fault after a sync syncs 65 and keeps its own);
 * 6.18's CPUs each hold batch - 1; the node atomics 31 each (one CPU of
 * each node faulting 31 times: more would fold a node's). So a bound
 * one lower fails rss/drift's check on these walks.
 */
static unsigned long worst_of(const struct rss_design *d, int per_cpu, unsigned int stride)
{
	char err[128];
	void *mm = zalloc_mm(d->mm_size());
	unsigned long worst = 0;
	long faults = 0;

	if (d->boot)
		CHECK(d->boot(err, sizeof(err)) == 0);
	CHECK(mm && d->mm_init(mm) == 0);
	if (d->task_enter)
		d->task_enter(mm);
	for (unsigned int cpu = 0; cpu < (stride ? nr_cpu_ids : 1); cpu += stride ? stride : 1) {
		machine_task_migrate((int)cpu);
		for (int i = 0; i < per_cpu; i++) {
			unsigned long off;

			d->fault(mm);
			faults++;
			off = (unsigned long)labs((long)d->read(mm, MM_ANONPAGES) - faults);
			if (off > worst)
				worst = off;
		}
	}
	machine_task_migrate(0);
	if (d->task_exit)
		d->task_exit(mm);
	CHECK_EQ_LL(d->mm_free(mm), faults);
	free(mm);
	return worst;
}

static void test_bounds_reached(void)
{
	unsigned int per_node = nr_cpu_ids / (unsigned int)the_machine->nr_nodes;

	CHECK_EQ_LL(worst_of(&rss_design_6_1, 300, 0), rss_design_6_1.error_bound(NULL, 1));
	CHECK_EQ_LL(worst_of(&rss_design_6_1, 300, 0), 66);
	CHECK_EQ_LL(worst_of(&rss_design_6_18, 31, 1), rss_design_6_18.error_bound(NULL, 1));
	CHECK_EQ_LL(worst_of(&rss_design_pernuma, 31, per_node),
		    rss_design_pernuma.error_bound(NULL, 1));
}

/*
 * rss/oom_scan's choice, for every design and read: 20 processes of 1000 +
 * 7i + 64 pages. The precise reads choose the largest; an approximate read
 * may choose another, but only one whose true size is within the read's
 * error of the largest's (the scan compares reads, each off by at most the
 * bound: only the anon counter holds residues here), as the tree's does
 * on these 8 CPUs.
 */
static void test_oom_select(const char *name, const struct rss_design *d)
{
	enum { N = 20 };
	void *mms[N];
	char err[128];
	int precise, approx;
	unsigned long bound;

	if (d->boot)
		CHECK(d->boot(err, sizeof(err)) == 0);
	for (int i = 0; i < N; i++) {
		mms[i] = zalloc_mm(d->mm_size());
		CHECK(mms[i] && d->mm_init(mms[i]) == 0);
		rss_oom_populate(d, mms[i], i);
	}
	bound = d->error_bound(mms[0], 1);
	approx = rss_oom_select(d, mms, N, false);
	printf("  %-8s OOM scan of %d: get_mm_counter chose %d", name, N, approx);
	CHECK(approx >= 0 && rss_oom_pages(N - 1) - rss_oom_pages(approx) <= 2 * (long)bound);
	if (d->sum) {
		precise = rss_oom_select(d, mms, N, true);
		printf(", the precise sum %d", precise);
		CHECK_EQ_LL(precise, N - 1);
	}
	printf(" (bound %lu pages)\n", bound);
	if (d == &rss_design_tree)	/* its root moves in carries of 32 pages and more */
		CHECK(approx != N - 1);
	for (int i = 0; i < N; i++) {
		CHECK_EQ_LL(d->mm_free(mms[i]), rss_oom_pages(i));
		free(mms[i]);
	}
	if (d->halt)
		d->halt();
}

int main(void)
{
	struct test_machine m;

	if (test_machine_up(&m, "synthetic:node:1 core:2 pu:1") != 0)
		return 1;
	test_tree_shape(2, 2, 1);
	test_machine_down(&m);
	if (test_machine_up(&m, "synthetic:node:2 core:4 pu:1") != 0)
		return 1;
	test_tree_shape(8, 24, 7);
	test_tree_against_shadow();
	test_tree_carry_path();
	test_pernuma_folds();
	test_bounds_reached();
	test_drift("6.1", &rss_design_6_1);
	test_drift("6.18", &rss_design_6_18);
	test_drift("pernuma", &rss_design_pernuma);
	test_drift("tree", &rss_design_tree);
	test_drift("lazy", &rss_design_lazy);
	test_drift("pcpcache", &rss_design_pcpcache);
	test_lazy_upgrade();
	test_pcpcache();
	test_oom_select("6.1", &rss_design_6_1);
	test_oom_select("6.18", &rss_design_6_18);
	test_oom_select("pernuma", &rss_design_pernuma);
	test_oom_select("tree", &rss_design_tree);
	test_oom_select("lazy", &rss_design_lazy);
	test_oom_select("pcpcache", &rss_design_pcpcache);
	test_machine_down(&m);
	if (test_machine_up(&m, "synthetic:node:8 core:128 pu:1") != 0)
		return 1;
	test_tree_shape(1024, 4096, 149);
	test_tree_against_shadow();
	test_drift("6.18", &rss_design_6_18);
	test_drift("tree", &rss_design_tree);
	test_machine_down(&m);
	return check_report("test_rss_designs");
}
