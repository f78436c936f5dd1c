// SPDX-License-Identifier: GPL-2.0
/*
 * Hierarchical per-CPU counters: lib/percpu_counter_tree.c of
 * linux-mm/linux-mm at 23b86b4b6be96493949f862179a984eda136471d (Mathieu
 * Desnoyers, later than the v17 posting; not in a release), line by line
 * for what the mm's rss counters call; the header says where it comes from
 * and how it is counted. Left out: the WARN_ONs, the exports, the
 * single-counter wrappers and the two-counter comparisons.
 */
#include "mmscale/errorf.h"
#include "mmscale/kernel/cpumask.h"
#include "mmscale/kernel/percpu.h"
#include "mmscale/linux-6.18/mm/percpu.h"
#include "mmscale/linux-6.18/lib/percpu_counter_tree.h"

#include <stdlib.h>
#include <string.h>

#define MAX_NR_LEVELS 5

/* The tree's shape for 2^order CPUs, selected at boot. */
struct counter_config {
	unsigned int nr_items;		/* items of levels 1 up to the approximate sum */
	unsigned char nr_levels;	/* levels, the approximate sum excluded */
	unsigned char n_arity_order[MAX_NR_LEVELS];	/* log2 of each level's arity */
};

static const struct counter_config per_nr_cpu_order_config[] = {
	[0] =	{ .nr_items = 0,	.nr_levels = 0,		.n_arity_order = { 0 } },
	[1] =	{ .nr_items = 1,	.nr_levels = 1,		.n_arity_order = { 1 } },
	[2] =	{ .nr_items = 3,	.nr_levels = 2,		.n_arity_order = { 1, 1 } },
	[3] =	{ .nr_items = 7,	.nr_levels = 3,		.n_arity_order = { 1, 1, 1 } },
	[4] =	{ .nr_items = 7,	.nr_levels = 3,		.n_arity_order = { 2, 1, 1 } },
	[5] =	{ .nr_items = 11,	.nr_levels = 3,		.n_arity_order = { 2, 2, 1 } },
	[6] =	{ .nr_items = 21,	.nr_levels = 3,		.n_arity_order = { 2, 2, 2 } },
	[7] =	{ .nr_items = 21,	.nr_levels = 3,		.n_arity_order = { 3, 2, 2 } },
	[8] =	{ .nr_items = 37,	.nr_levels = 3,		.n_arity_order = { 3, 3, 2 } },
	[9] =	{ .nr_items = 73,	.nr_levels = 3,		.n_arity_order = { 3, 3, 3 } },
	[10] =	{ .nr_items = 149,	.nr_levels = 4,		.n_arity_order = { 3, 3, 2, 2 } },
	[11] =	{ .nr_items = 293,	.nr_levels = 4,		.n_arity_order = { 3, 3, 3, 2 } },
	[12] =	{ .nr_items = 585,	.nr_levels = 4,		.n_arity_order = { 3, 3, 3, 3 } },
	[13] =	{ .nr_items = 1173,	.nr_levels = 5,		.n_arity_order = { 3, 3, 3, 2, 2 } },
	[14] =	{ .nr_items = 2341,	.nr_levels = 5,		.n_arity_order = { 3, 3, 3, 3, 2 } },
	[15] =	{ .nr_items = 4681,	.nr_levels = 5,		.n_arity_order = { 3, 3, 3, 3, 3 } },
	[16] =	{ .nr_items = 4681,	.nr_levels = 5,		.n_arity_order = { 4, 3, 3, 3, 3 } },
	[17] =	{ .nr_items = 8777,	.nr_levels = 5,		.n_arity_order = { 4, 4, 3, 3, 3 } },
	[18] =	{ .nr_items = 17481,	.nr_levels = 5,		.n_arity_order = { 4, 4, 4, 3, 3 } },
	[19] =	{ .nr_items = 34953,	.nr_levels = 5,		.n_arity_order = { 4, 4, 4, 4, 3 } },
	[20] =	{ .nr_items = 69905,	.nr_levels = 5,		.n_arity_order = { 4, 4, 4, 4, 4 } },
};

static const struct counter_config *counter_config;
static unsigned int nr_cpus_order;
static unsigned long accuracy_multiplier;
static size_t __percpu_counter_tree_items_size = SIZE_MAX;

/* get_count_order: the order of the smallest power of 2 >= n (n >= 1). */
static unsigned int get_count_order(unsigned long n)
{
	unsigned int order = (unsigned int)ilog2(n);

	return (n & (n - 1)) ? order + 1 : order;
}

size_t percpu_counter_tree_items_size(void)
{
	return __percpu_counter_tree_items_size;
}

unsigned int percpu_counter_tree_nr_levels(void)
{
	return counter_config->nr_levels;
}

unsigned int percpu_counter_tree_arity_order(unsigned int level)
{
	return counter_config->n_arity_order[level];
}

static int __percpu_counter_tree_init(struct percpu_counter_tree *counter,
				      unsigned long batch_size, unsigned long *level0,
				      struct percpu_counter_tree_level_item *items)
{
	/* Batch size must be greater than 1, and a power of 2. */
	if (batch_size <= 1 || (batch_size & (batch_size - 1)))
		return -1;	/* -EINVAL */
	counter->batch_size = batch_size;
	counter->bias = 0;
	counter->level0 = level0;
	counter->items = items;
	if (!nr_cpus_order) {
		counter->approx_sum.i = per_cpu_ptr(counter->level0, 0);
		counter->level0_bit_mask = 0;
	} else {
		counter->approx_sum.a = &counter->items[counter_config->nr_items - 1].count;
		counter->level0_bit_mask = 1UL << get_count_order(batch_size);
	}
	/* A signed item's negative range is one unit greater than its positive range. */
	counter->approx_accuracy_range.under = batch_size * accuracy_multiplier;
	counter->approx_accuracy_range.over = (batch_size - 1) * accuracy_multiplier;
	return 0;
}

/*
 * The items are the caller's (the mm's, after its fixed fields): zeroed
 * here; the level-0 longs of all nr_counters in one per-CPU allocation
 * (6.18's pcpu_alloc, its locks: linux-6.18/mm/percpu.h).
 */
int percpu_counter_tree_init_many(struct percpu_counter_tree *counters,
				  struct percpu_counter_tree_level_item *items,
				  unsigned int nr_counters, unsigned long batch_size)
{
	size_t counter_size = sizeof(*counters->level0),
	       items_size = percpu_counter_tree_items_size();
	char *level0, *level0_iter, *items_iter;
	unsigned int i;
	int ret;

	memset(items, 0, items_size * nr_counters);
	mmscale_count_add(MMSCALE_LINES_ZEROED, (items_size * nr_counters) / SMP_CACHE_BYTES);
	level0 = __alloc_percpu_gfp_6_18(nr_counters * counter_size, __alignof__(*counters->level0));
	if (!level0)
		return -1;	/* -ENOMEM */
	level0_iter = level0;
	items_iter = (char *)items;
	for (i = 0; i < nr_counters; i++) {
		ret = __percpu_counter_tree_init(&counters[i], batch_size,
						 (unsigned long *)(void *)level0_iter,
						 (struct percpu_counter_tree_level_item *)(void *)items_iter);
		if (ret)
			goto free_level0;
		level0_iter += counter_size;
		items_iter += items_size;
	}
	return 0;

free_level0:
	free_percpu_6_18(level0);
	return ret;
}

void percpu_counter_tree_destroy_many(struct percpu_counter_tree *counters, unsigned int nr_counters)
{
	(void)nr_counters;
	free_percpu_6_18(counters->level0);
}

static long percpu_counter_tree_carry(long orig, long res, long inc, unsigned long bit_mask)
{
	if (inc < 0) {
		inc = -(long)((unsigned long)-inc & ~(bit_mask - 1));
		/* xor bit_mask: underflow */
		if ((inc ^ orig ^ res) & (long)bit_mask)
			inc -= (long)bit_mask;
	} else {
		inc &= ~(long)(bit_mask - 1);
		/* xor bit_mask: overflow */
		if ((inc ^ orig ^ res) & (long)bit_mask)
			inc += (long)bit_mask;
	}
	return inc;
}

/*
 * The carry climbs from the calling CPU's item at each level (cpu &
 * (level_items - 1)); no preemption control: any path up is correct, the
 * CPU only picks a nearby one.
 */
static void percpu_counter_tree_add_slowpath(struct percpu_counter_tree *counter, long inc)
{
	unsigned int level_items, nr_levels = counter_config->nr_levels, level, n_arity_order;
	unsigned long bit_mask;
	struct percpu_counter_tree_level_item *item = counter->items;
	unsigned int cpu = (unsigned int)smp_processor_id();	/* raw_smp_processor_id */

	n_arity_order = counter_config->n_arity_order[0];
	bit_mask = counter->level0_bit_mask << n_arity_order;
	level_items = 1U << (nr_cpus_order - n_arity_order);

	for (level = 1; level < nr_levels; level++) {
		/* Intermediate levels keep only the bits that matter for the carry. */
		if (labs(inc) & (long)(bit_mask - 1)) {
			atomic_long_t *count = &item[cpu & (level_items - 1)].count;
			unsigned long orig, res;

			res = (unsigned long)atomic_long_add_return(inc, count);	/* _relaxed */
			orig = res - (unsigned long)inc;
			inc = percpu_counter_tree_carry((long)orig, (long)res, inc, bit_mask);
			if (likely(!inc))
				return;
		}
		item += level_items;
		n_arity_order = counter_config->n_arity_order[level];
		level_items >>= n_arity_order;
		bit_mask <<= n_arity_order;
	}
	atomic_long_add(inc, counter->approx_sum.a);
}

void percpu_counter_tree_add(struct percpu_counter_tree *counter, long inc)
{
	unsigned long bit_mask = counter->level0_bit_mask, orig, res;

	res = this_cpu_add_return_ulong(this_cpu_ptr(counter->level0), (unsigned long)inc);
	orig = res - (unsigned long)inc;
	inc = percpu_counter_tree_carry((long)orig, (long)res, inc, bit_mask);
	if (likely(!inc))
		return;
	mmscale_count_inc(MMSCALE_FOLDS);
	percpu_counter_tree_add_slowpath(counter, inc);
}

static long percpu_counter_tree_precise_sum_unbiased(struct percpu_counter_tree *counter)
{
	unsigned long sum = 0;
	unsigned int cpu;

	for (cpu = 0; cpu < nr_cpu_ids; cpu++)	/* for_each_possible_cpu */
		sum += READ_ONCE(*per_cpu_ptr(counter->level0, cpu));
	mmscale_count_add(MMSCALE_PERCPU_SUM_SLOTS, nr_cpu_ids);
	return (long)sum;
}

long percpu_counter_tree_precise_sum(struct percpu_counter_tree *counter)
{
	return percpu_counter_tree_precise_sum_unbiased(counter) + READ_ONCE(counter->bias);
}

static int compare_delta(long delta, unsigned long accuracy_neg, unsigned long accuracy_pos)
{
	if (delta >= 0)
		return (unsigned long)delta <= accuracy_pos ? 0 : 1;
	return (unsigned long)-delta <= accuracy_neg ? 0 : -1;
}

/* The approximate sum first; the precise one only within the accuracy range. */
int percpu_counter_tree_precise_compare_value(struct percpu_counter_tree *counter, long v)
{
	long count = percpu_counter_tree_approximate_sum(counter);
	int res;

	res = compare_delta(v - count, counter->approx_accuracy_range.under,
			    counter->approx_accuracy_range.over);
	if (res)
		return res;
	count = percpu_counter_tree_precise_sum(counter);
	if (v - count < 0)
		return -1;
	if (v - count > 0)
		return 1;
	return 0;
}

static void calculate_accuracy_topology(void)
{
	unsigned int nr_levels = counter_config->nr_levels, level;
	unsigned int level_items = 1U << nr_cpus_order;
	unsigned long batch_size = 1;

	accuracy_multiplier = 0;	/* mmscale: once per run, not once per boot */
	for (level = 0; level < nr_levels; level++) {
		unsigned int n_arity_order = counter_config->n_arity_order[level];

		/* For a batch size of 1: the accuracy at init is one multiplication. */
		accuracy_multiplier += batch_size * level_items;
		batch_size <<= n_arity_order;
		level_items >>= n_arity_order;
	}
}

int percpu_counter_tree_subsystem_init(char *err, size_t errlen)
{
	nr_cpus_order = get_count_order(nr_cpu_ids);
	if (nr_cpus_order >= ARRAY_SIZE(per_nr_cpu_order_config))
		return mmscale_errorf(err, errlen, "percpu_counter_tree: unsupported number of CPUs (%u)",
				      nr_cpu_ids);
	counter_config = &per_nr_cpu_order_config[nr_cpus_order];
	if (!nr_cpus_order)
		__percpu_counter_tree_items_size = 0;
	else
		__percpu_counter_tree_items_size = counter_config->nr_items *
			sizeof(struct percpu_counter_tree_level_item);
	calculate_accuracy_topology();
	return 0;
}
