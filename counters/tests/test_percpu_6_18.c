// SPDX-License-Identifier: GPL-2.0
/*
 * Linux 6.18's percpu_counter (kernel/linux-6.18/lib/percpu_counter.c) and the
 * mm's rss counters of 6.1 and 6.18 (kernel/linux-6.18/mm/rss_stat.c) on a 4-CPU
 * machine: the add's fold point at several batches, both signs; the sum;
 * __percpu_counter_compare's rough and precise paths; every path of
 * __percpu_counter_limited_add; init_many's one allocation and the global
 * list; compute_batch_value; 6.1's sync every 66th fault and its direct
 * path for another mm; the positive reads of both.
 */
#define _GNU_SOURCE
#include <string.h>

#include "test_machine.h"
#include "mmscale/kernel/cpumask.h"
#include "mmscale/kernel/percpu.h"
#include "mmscale/linux-6.18/mm/rss_stat.h"

#define MACHINE "synthetic:node:2 core:2 pu:1"

static s32 *slot(struct percpu_counter *fbc, int cpu)
{
	return per_cpu_ptr(fbc->counters, cpu);
}

/*
 * percpu_counter_add_batch (93-117): the fast path while |count + amount|
 * < batch, so from 0 the batch-th +1 folds count + amount = batch and
 * leaves 0; an amount of batch or more folds at once.
 */
static void test_add_batch(void)
{
	static const int batches[] = { 1, 2, 32, 2048 };
	struct percpu_counter fbc;

	CHECK_EQ_LL(__percpu_counter_init_many_6_18(&fbc, 5, 1), 0);
	CHECK_EQ_LL(fbc.count, 5);
	for (size_t i = 0; i < ARRAY_SIZE(batches); i++) {
		int b = batches[i], calls = 0;
		u64 folds = test_count(MMSCALE_FOLDS), locks = test_count(MMSCALE_LOCK_ACQUIRES);
		s64 before = fbc.count;

		while (test_count(MMSCALE_FOLDS) == folds && calls < 5000) {
			percpu_counter_add_batch_6_18(&fbc, 1, b);
			calls++;
		}
		CHECK_EQ_LL(calls, b);
		CHECK_EQ_LL(fbc.count - before, b);
		CHECK_EQ_LL(*slot(&fbc, 0), 0);
		CHECK_EQ_LL(test_count(MMSCALE_LOCK_ACQUIRES) - locks, 1);
		/* Down: the batch-th -1 folds -batch. */
		calls = 0;
		folds = test_count(MMSCALE_FOLDS);
		while (test_count(MMSCALE_FOLDS) == folds && calls < 5000) {
			percpu_counter_add_batch_6_18(&fbc, -1, b);
			calls++;
		}
		CHECK_EQ_LL(calls, b);
		CHECK_EQ_LL(fbc.count, before);
	}
	/* Partly filled, then a big amount: count and amount folded together. */
	percpu_counter_add_batch_6_18(&fbc, 7, 32);
	CHECK_EQ_LL(*slot(&fbc, 0), 7);
	percpu_counter_add_batch_6_18(&fbc, 25, 32);	/* 7 + 25 = 32 >= 32 */
	CHECK_EQ_LL(*slot(&fbc, 0), 0);
	CHECK_EQ_LL(fbc.count, 5 + 32);
	percpu_counter_add_batch_6_18(&fbc, 24, 32);	/* 24 < 32: stays */
	CHECK_EQ_LL(*slot(&fbc, 0), 24);
	/* Other CPUs' slots count in the sum, not in the read. */
	*slot(&fbc, 1) = -3;
	*slot(&fbc, 3) = 10;
	{
		u64 slots = test_count(MMSCALE_PERCPU_SUM_SLOTS);

		CHECK_EQ_LL(__percpu_counter_sum_6_18(&fbc), 37 + 24 - 3 + 10);
		CHECK_EQ_LL(test_count(MMSCALE_PERCPU_SUM_SLOTS) - slots, 4);
		CHECK_EQ_LL(percpu_counter_read_positive_6_18(&fbc), 37);
	}
	fbc.count = -2;
	CHECK_EQ_LL(percpu_counter_read_positive_6_18(&fbc), 0);	/* 6.18: 0, 2.6.31: 1 */
	percpu_counter_destroy_many_6_18(&fbc, 1);
	CHECK(fbc.counters == NULL);
}

/*
 * __percpu_counter_compare (292-311): when |read - rhs| > batch * online
 * the read decides; else the sum does.
 */
static void test_compare(void)
{
	struct percpu_counter fbc;
	u64 slots;

	CHECK_EQ_LL(__percpu_counter_init_many_6_18(&fbc, 1000, 1), 0);
	*slot(&fbc, 2) = 5;	/* exact: 1005 */
	slots = test_count(MMSCALE_PERCPU_SUM_SLOTS);
	CHECK_EQ_LL(__percpu_counter_compare_6_18(&fbc, 1000 - 4 * 32 - 1, 32), 1);	/* rough */
	CHECK_EQ_LL(__percpu_counter_compare_6_18(&fbc, 1000 + 4 * 32 + 1, 32), -1);
	CHECK_EQ_LL(test_count(MMSCALE_PERCPU_SUM_SLOTS) - slots, 0);
	CHECK_EQ_LL(__percpu_counter_compare_6_18(&fbc, 1000 - 4 * 32, 32), 1);	/* precise */
	CHECK_EQ_LL(__percpu_counter_compare_6_18(&fbc, 1005, 32), 0);
	CHECK_EQ_LL(__percpu_counter_compare_6_18(&fbc, 1006, 32), -1);
	CHECK_EQ_LL(test_count(MMSCALE_PERCPU_SUM_SLOTS) - slots, 3 * 4);
	percpu_counter_destroy_many_6_18(&fbc, 1);
}

/*
 * __percpu_counter_limited_add (327-385) with batch 8 on 4 CPUs (unknown
 * = 32): no lock while |count + amount| <= batch and the count is 32 from
 * the limit; under the lock, good or out without a sum while 32 decides;
 * the sum otherwise.
 */
static void test_limited_add(void)
{
	struct percpu_counter fbc;
	u64 locks, slots;

	CHECK_EQ_LL(__percpu_counter_init_many_6_18(&fbc, 0, 1), 0);
	locks = test_count(MMSCALE_LOCK_ACQUIRES);
	CHECK(__percpu_counter_limited_add_6_18(&fbc, 100, 8, 8));	/* 0 + 32 <= 100: fast */
	CHECK_EQ_LL(*slot(&fbc, 0), 8);
	CHECK_EQ_LL(test_count(MMSCALE_LOCK_ACQUIRES) - locks, 0);
	CHECK(__percpu_counter_limited_add_6_18(&fbc, 100, 0, 8));	/* nothing to add */
	/* 8 + 1 > 8: the lock; 1 + 32 <= 100: good, the CPU's 8 folded with it. */
	CHECK(__percpu_counter_limited_add_6_18(&fbc, 100, 1, 8));
	CHECK_EQ_LL(fbc.count, 9);
	CHECK_EQ_LL(*slot(&fbc, 0), 0);
	CHECK_EQ_LL(test_count(MMSCALE_LOCK_ACQUIRES) - locks, 1);
	/* Far past the limit without a sum: 9 + 200 - 32 > 100. */
	slots = test_count(MMSCALE_PERCPU_SUM_SLOTS);
	CHECK(!__percpu_counter_limited_add_6_18(&fbc, 100, 200, 8));
	CHECK_EQ_LL(fbc.count, 9);
	CHECK_EQ_LL(test_count(MMSCALE_PERCPU_SUM_SLOTS) - slots, 0);
	/* Near the limit: the sum decides. Exact 9 + 20 (CPU 1) = 29; +71 = 100 fits. */
	*slot(&fbc, 1) = 20;
	CHECK(__percpu_counter_limited_add_6_18(&fbc, 100, 71, 8));
	CHECK_EQ_LL(test_count(MMSCALE_PERCPU_SUM_SLOTS) - slots, 4);
	CHECK_EQ_LL(fbc.count, 80);
	CHECK(!__percpu_counter_limited_add_6_18(&fbc, 100, 1, 8));	/* 101 > 100 */
	CHECK_EQ_LL(test_count(MMSCALE_PERCPU_SUM_SLOTS) - slots, 8);
	/* Negative amounts against a lower limit. */
	CHECK(__percpu_counter_limited_add_6_18(&fbc, 0, -80, 8));	/* exact 100 - 80 >= 0 */
	CHECK(!__percpu_counter_limited_add_6_18(&fbc, 0, -21, 8));	/* 20 - 21 < 0 */
	CHECK_EQ_LL(__percpu_counter_sum_6_18(&fbc), 20);
	percpu_counter_destroy_many_6_18(&fbc, 1);
}

/*
 * init_many (188-225): one allocation, the counters' s32s side by side,
 * each on the list. The allocation takes pcpu_alloc_mutex (two locked
 * cmpxchgs) and pcpu_lock, the list percpu_counters_lock; the destroy
 * percpu_counters_lock and free_percpu's pcpu_lock.
 */
static void test_init_many(void)
{
	struct percpu_counter fbc[NR_MM_COUNTERS];
	u64 locks = test_count(MMSCALE_LOCK_ACQUIRES);
	u64 locked = test_count(MMSCALE_LOCKED_OPS);

	CHECK_EQ_LL(__percpu_counter_init_many_6_18(fbc, 3, NR_MM_COUNTERS), 0);
	CHECK_EQ_LL(test_count(MMSCALE_LOCK_ACQUIRES) - locks, 2);
	CHECK_EQ_LL(test_count(MMSCALE_LOCKED_OPS) - locked, 4);
	for (int i = 0; i < NR_MM_COUNTERS; i++) {
		CHECK_EQ_LL(fbc[i].count, 3);
		CHECK((char *)fbc[i].counters == (char *)fbc[0].counters + i * sizeof(s32));
		for (int cpu = 0; cpu < 4; cpu++)
			CHECK_EQ_LL(*slot(&fbc[i], cpu), 0);
	}
	/* Linked newest first, each after the last: fbc[3] .. fbc[0] on the global list. */
	CHECK(fbc[3].list.next == &fbc[2].list && fbc[1].list.next == &fbc[0].list);
	percpu_counter_destroy_many_6_18(fbc, NR_MM_COUNTERS);
	CHECK_EQ_LL(test_count(MMSCALE_LOCK_ACQUIRES) - locks, 4);
	CHECK_EQ_LL(test_count(MMSCALE_LOCKED_OPS) - locked, 6);
	for (int i = 0; i < NR_MM_COUNTERS; i++)
		CHECK(fbc[i].counters == NULL);
}

static void test_batch_value(void)
{
	struct cpumask saved = __cpu_online_mask;
	unsigned int saved_ids = nr_cpu_ids;
	static const struct { unsigned int cpus; int batch; } rows[] = {
		{ 1, 32 }, { 4, 32 }, { 16, 32 }, { 17, 34 }, { 1024, 2048 },
	};

	for (size_t i = 0; i < ARRAY_SIZE(rows); i++) {
		nr_cpu_ids = rows[i].cpus;
		cpumask_setall(&__cpu_online_mask);
		compute_batch_value_6_18();
		CHECK_EQ_LL(percpu_counter_batch_6_18, rows[i].batch);
	}
	nr_cpu_ids = saved_ids;
	__cpu_online_mask = saved;
	compute_batch_value_6_18();
	CHECK_EQ_LL(percpu_counter_batch_6_18, 32);
}

/*
 * 6.1's fault path (mm/memory.c 185-205): the count goes to the task's
 * cache; check_sync_rss_stat syncs when events was 65 - the 66th call -
 * moving every non-zero cached count to the mm with one
 * atomic_long_add_return each. Another mm's count goes straight there.
 */
static void test_split_rss(void)
{
	static struct mm_struct_6_1 mm, other;
	int calls = 0;
	u64 folds, locked;

	mm_init_rss_6_1(&mm);
	mm_init_rss_6_1(&other);
	current_rss_6_1.mm = &mm;
	current_rss_6_1.rss_stat = (struct task_rss_stat){ 0 };
	folds = test_count(MMSCALE_FOLDS);
	while (test_count(MMSCALE_FOLDS) == folds && calls < 1000) {
		check_sync_rss_stat_6_1(&current_rss_6_1);
		add_mm_counter_fast_6_1(&mm, MM_ANONPAGES, 1);
		if (calls % 11 == 0)
			add_mm_counter_fast_6_1(&mm, MM_FILEPAGES, 1);
		calls++;
	}
	/* The 66th call synced the 65 anon and 6 file pages the calls before it cached. */
	CHECK_EQ_LL(calls, TASK_RSS_EVENTS_THRESH + 2);
	CHECK_EQ_LL(get_mm_counter_6_1(&mm, MM_ANONPAGES), 65);
	CHECK_EQ_LL(get_mm_counter_6_1(&mm, MM_FILEPAGES), 6);
	CHECK_EQ_LL(test_count(MMSCALE_FOLDS) - folds, 2);
	CHECK_EQ_LL(current_rss_6_1.rss_stat.events, 0);
	CHECK_EQ_LL(current_rss_6_1.rss_stat.count[MM_ANONPAGES], 1);
	/* Another task's mm: the atomic at once. */
	locked = test_count(MMSCALE_LOCKED_OPS);
	add_mm_counter_fast_6_1(&other, MM_SWAPENTS, -2);
	CHECK_EQ_LL(test_count(MMSCALE_LOCKED_OPS) - locked, 1);
	CHECK_EQ_LL(atomic_long_read(&other.rss_stat.count[MM_SWAPENTS]), -2);
	CHECK_EQ_LL(get_mm_counter_6_1(&other, MM_SWAPENTS), 0);	/* never below 0 */
	/* A task that is not current never syncs. */
	{
		struct task_rss_6_1 not_current = { &mm, { TASK_RSS_EVENTS_THRESH + 1, { 0 } } };

		folds = test_count(MMSCALE_FOLDS);
		check_sync_rss_stat_6_1(&not_current);
		CHECK_EQ_LL(test_count(MMSCALE_FOLDS) - folds, 0);
	}
	sync_mm_rss_6_1(&mm);	/* exit_mm */
	CHECK_EQ_LL(check_mm_6_1(&mm), 72);
	current_rss_6_1.mm = NULL;
}

/* 6.18's mm: per-mm init and free; the fault path's add is percpu_counter_add. */
static void test_rss_6_18(void)
{
	static struct mm_struct_6_18 mm;
	u64 slots, locks;

	compute_batch_value_6_18();
	CHECK_EQ_LL(mm_init_rss_6_18(&mm), 0);
	for (int i = 0; i < 40; i++)
		add_mm_counter_6_18(&mm, MM_ANONPAGES, 1);	/* batch 32: one fold, 8 left */
	CHECK_EQ_LL(get_mm_counter_6_18(&mm, MM_ANONPAGES), 32);
	CHECK_EQ_LL(get_mm_counter_sum_6_18(&mm, MM_ANONPAGES), 40);
	slots = test_count(MMSCALE_PERCPU_SUM_SLOTS);
	locks = test_count(MMSCALE_LOCK_ACQUIRES);
	CHECK_EQ_LL(mm_free_rss_6_18(&mm), 40);
	CHECK_EQ_LL(test_count(MMSCALE_PERCPU_SUM_SLOTS) - slots, NR_MM_COUNTERS * 4);
	/* the four sums' locks, percpu_counters_lock, free_percpu's pcpu_lock */
	CHECK_EQ_LL(test_count(MMSCALE_LOCK_ACQUIRES) - locks, NR_MM_COUNTERS + 2);
	CHECK(mm.rss_stat[0].counters == NULL);
}

/*
 * The lock kind each generation's code takes (kernel/spinlock.h): 6.18's
 * the queued spinlock, whose released word is 0 again (unlock clears the
 * locked byte); 2.6.31's the ticket lock, whose release leaves head ==
 * tail == the number of acquisitions.
 */
static void test_lock_kinds(void)
{
	struct percpu_counter fbc;
	u32 word;

	CHECK_EQ_LL(__percpu_counter_init_many_6_18(&fbc, 0, 1), 0);
	__percpu_counter_sum_6_18(&fbc);
	memcpy(&word, &fbc.lock, sizeof(word));
	CHECK_EQ_LL(word, 0);
	__percpu_counter_sum(&fbc);	/* 2.6.31's, on the same (released) lock */
	memcpy(&word, &fbc.lock, sizeof(word));
	CHECK_EQ_LL(word, 0x00010001);
	percpu_counter_destroy_many_6_18(&fbc, 1);
}

static void tests(void)
{
	test_lock_kinds();
	test_add_batch();
	test_compare();
	test_limited_add();
	test_init_many();
	test_batch_value();
	test_split_rss();
	test_rss_6_18();
}

int main(void)
{
	return test_machine_main("test_percpu_6_18", MACHINE, tests);
}
