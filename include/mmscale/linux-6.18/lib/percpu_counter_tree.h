/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Mathieu Desnoyers' hierarchical per-CPU counters, posted to linux-mm as
 * "Introduce Hierarchical Per-CPU Counters" (RFC v2
 * <20250408160508.991738-1-mathieu.desnoyers@efficios.com> to v17
 * <20260217161006.1105611-1-mathieu.desnoyers@efficios.com>, "Improve proc
 * RSS accuracy", 17 Feb 2026) and carried in akpm's mm-unstable, not merged
 * in a release. Ported from the newest text stored whole:
 * include/linux/percpu_counter_tree.h of linux-mm/linux-mm at
 * 2f1e5706062c9c6476e0335288557c6c18b71090 and lib/percpu_counter_tree.c at
 * 23b86b4b6be96493949f862179a984eda136471d (later than v17: it adds
 * __percpu_counter_tree_items_size and the note that two counters are read
 * independently; copies and git blobs in /work/ref/issue42, SOURCES.md).
 * The CONFIG_SMP half only, and only what the mm's rss counters call.
 *
 * The design: each CPU adds to its own level-0 long (this_cpu_add_return,
 * x86's unlocked xadd: kernel/percpu.h); a carry out of the batch's bit
 * climbs a tree of shared items (atomic_long_add_return, one cache line
 * each) whose shape is fixed at boot from nr_cpu_ids
 * (per_nr_cpu_order_config); the root item is the approximate sum, read
 * with one load. The precise sum walks every possible CPU's level 0, with
 * no lock. The accuracy range is per counter: batch_size x
 * accuracy_multiplier below, (batch_size - 1) x it above, for a settled
 * counter.
 *
 * Counts: a carry out of level 0 is MMSCALE_FOLDS (it reaches shared
 * memory); each tree item add is a locked op (atomic.h); the approximate
 * read is MMSCALE_BDI_READS (the approximate-read count), the precise
 * sum adds nr_cpu_ids to MMSCALE_PERCPU_SUM_SLOTS.
 *
 * subsystem_init runs at boot in the kernel; here once per run, after the
 * machine's nr_cpu_ids is set (cases/rss.c's setup).
 */
#ifndef MMSCALE_LINUX_6_18_PERCPU_COUNTER_TREE_H
#define MMSCALE_LINUX_6_18_PERCPU_COUNTER_TREE_H

#include <stddef.h>

#include "mmscale/kernel/atomic.h"
#include "mmscale/kernel/compiler.h"

struct percpu_counter_tree_level_item {
	atomic_long_t count;		/* the carries at this tree level */
} ____cacheline_aligned_in_smp;

struct percpu_counter_tree {
	/* Fast-path fields. */
	unsigned long *level0;		/* __percpu: each CPU's split counter */
	unsigned long level0_bit_mask;	/* the carry bit out of level 0 */
	union {
		unsigned long *i;	/* approximate sum, single-CPU topology */
		atomic_long_t *a;	/* approximate sum, SMP topology */
	} approx_sum;
	long bias;
	/* Slow-path fields. */
	struct percpu_counter_tree_level_item *items;	/* levels 1 to N */
	unsigned long batch_size;	/* > 1, a power of 2 */
	struct {
		unsigned long under;
		unsigned long over;
	} approx_accuracy_range;
};

/* The size of one counter's tree items on this machine (nr_cpu_ids): boot-time invariant. */
size_t percpu_counter_tree_items_size(void);

int percpu_counter_tree_init_many(struct percpu_counter_tree *counters,
				  struct percpu_counter_tree_level_item *items,
				  unsigned int nr_counters, unsigned long batch_size);
void percpu_counter_tree_destroy_many(struct percpu_counter_tree *counters,
				      unsigned int nr_counters);
void percpu_counter_tree_add(struct percpu_counter_tree *counter, long inc);
long percpu_counter_tree_precise_sum(struct percpu_counter_tree *counter);
int percpu_counter_tree_precise_compare_value(struct percpu_counter_tree *counter, long v);
/* For nr_cpu_ids; -1 (and one line in err) when the machine has more CPUs than the tables. */
int percpu_counter_tree_subsystem_init(char *err, size_t errlen);
/* mmscale, for the claims: the tree's levels (the approximate sum excluded) and arities. */
unsigned int percpu_counter_tree_nr_levels(void);
unsigned int percpu_counter_tree_arity_order(unsigned int level);

static inline long percpu_counter_tree_approximate_sum(struct percpu_counter_tree *counter)
{
	unsigned long v;

	mmscale_count_inc(MMSCALE_BDI_READS);
	if (!counter->level0_bit_mask)
		v = READ_ONCE(*counter->approx_sum.i);
	else
		v = (unsigned long)atomic_long_read(counter->approx_sum.a);
	return (long)(v + (unsigned long)READ_ONCE(counter->bias));
}

static inline void percpu_counter_tree_approximate_accuracy_range(struct percpu_counter_tree *counter,
								  unsigned long *under,
								  unsigned long *over)
{
	*under += counter->approx_accuracy_range.under;
	*over += counter->approx_accuracy_range.over;
}

static inline long percpu_counter_tree_approximate_sum_positive(struct percpu_counter_tree *counter)
{
	long v = percpu_counter_tree_approximate_sum(counter);

	return v > 0 ? v : 0;
}

static inline long percpu_counter_tree_precise_sum_positive(struct percpu_counter_tree *counter)
{
	long v = percpu_counter_tree_precise_sum(counter);

	return v > 0 ? v : 0;
}

#endif /* MMSCALE_LINUX_6_18_PERCPU_COUNTER_TREE_H */
