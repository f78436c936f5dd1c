// SPDX-License-Identifier: GPL-2.0
/*
 * Two posted rss counter designs on the emulated 6.18 (Dorminy's
 * per-node atomics, Desnoyers' counter tree):
 * include/mmscale/linux-6.18/mm/rss_stat_designs.h says which postings and
 * what differs.
 */
#include <stdlib.h>
#include <string.h>

#include "mmscale/kernel/cpumask.h"
#include "mmscale/kernel/processor.h"
#include "mmscale/linux-6.18/mm/rss_stat_designs.h"

/* Dorminy RFC v2, include/linux/mm.h: get_mm_counter_slow */
long get_mm_counter_slow_pernuma(struct mm_struct_pernuma *mm, int member)
{
	long ret = atomic_long_read(&mm->rss_stat[member].global);

	for (int i = 0; i < _MM_NUMA_COUNTERS; i++)
		ret += atomic_long_read(&mm->rss_stat[member].numa_counters[i]);
	mmscale_count_add(MMSCALE_PERCPU_SUM_SLOTS, _MM_NUMA_COUNTERS);
	return ret;
}

/* get_mm_counter: the global only */
unsigned long get_mm_counter_pernuma(struct mm_struct_pernuma *mm, int member)
{
	long val = atomic_long_read(&mm->rss_stat[member].global);

	mmscale_count_inc(MMSCALE_BDI_READS);
	if (val < 0)
		return 0;
	return (unsigned long)val;
}

/* __mm_update_numa_counter, which add/inc/dec_mm_counter call */
void add_mm_counter_pernuma(struct mm_struct_pernuma *mm, int member, long value)
{
	size_t index = (size_t)numa_node_id() % _MM_NUMA_COUNTERS;
	struct mm_pernuma_counter *rss_stat = &mm->rss_stat[member];
	atomic_long_t *numa_counter = &rss_stat->numa_counters[index];
	long val = atomic_long_add_return(value, numa_counter);

	if (labs(val) >= _MM_NUMA_COUNTERS_BATCH) {
		mmscale_count_inc(MMSCALE_FOLDS);
		atomic_long_add(val, &rss_stat->global);
		atomic_long_add(-val, numa_counter);
	}
}

/* Not in the RFC (dup_mm's memcpy would leave the parent's counts): see the header. */
void mm_init_rss_pernuma(struct mm_struct_pernuma *mm)
{
	memset(mm->rss_stat, 0, sizeof(mm->rss_stat));
	mmscale_count_add(MMSCALE_LINES_ZEROED, DIV_ROUND_UP(sizeof(mm->rss_stat), SMP_CACHE_BYTES));
}

/* check_mm: get_mm_counter_slow of each; __mmdrop frees nothing of the counters. */
long mm_free_rss_pernuma(struct mm_struct_pernuma *mm)
{
	long sum = 0;

	for (int i = 0; i < NR_MM_COUNTERS; i++)
		sum += get_mm_counter_slow_pernuma(mm, i);
	return sum;
}

/*
 * Each node atomic in use ends an update below the batch in magnitude
 * (|val| <= batch - 1) and the global holds the rest: get_mm_counter is
 * off by at most (batch - 1) per node atomic in use, min(nodes, 32).
 * The RFC's "32 times the number of NUMA nodes".
 */
unsigned long rss_error_bound_pernuma(int nr_nodes)
{
	long used = nr_nodes < _MM_NUMA_COUNTERS ? nr_nodes : _MM_NUMA_COUNTERS;

	return (unsigned long)((_MM_NUMA_COUNTERS_BATCH - 1) * used);
}

size_t mm_struct_tree_size(void)
{
	return sizeof(struct mm_struct_tree) + NR_MM_COUNTERS * percpu_counter_tree_items_size();
}

/* RFC v8 2/2, include/linux/mm.h */
unsigned long get_mm_counter_tree(struct mm_struct_tree *mm, int member)
{
	return (unsigned long)percpu_counter_tree_approximate_sum_positive(&mm->rss_stat[member]);
}

unsigned long get_mm_counter_sum_tree(struct mm_struct_tree *mm, int member)
{
	return (unsigned long)percpu_counter_tree_precise_sum_positive(&mm->rss_stat[member]);
}

void add_mm_counter_tree(struct mm_struct_tree *mm, int member, long value)
{
	percpu_counter_tree_add(&mm->rss_stat[member], value);
}

/* mm_init: the NR_MM_COUNTERS trees in one call, their items in the mm. */
int mm_init_rss_tree(struct mm_struct_tree *mm)
{
	return percpu_counter_tree_init_many(mm->rss_stat, mm->items, NR_MM_COUNTERS,
					     RSS_STAT_BATCH_SIZE);
}

/*
 * check_mm (RFC v8 2/2): percpu_counter_tree_precise_compare_value(counter,
 * 0), whose approximate read decides whether the precise sum is needed (it
 * is, for a settled zero: 0 is within the range); the pr_alert's precise
 * sum where a counter is not zero, which is the sum returned. Then
 * __mmdrop's destroy.
 */
long mm_free_rss_tree(struct mm_struct_tree *mm)
{
	long sum = 0;

	for (int i = 0; i < NR_MM_COUNTERS; i++)
		if (unlikely(percpu_counter_tree_precise_compare_value(&mm->rss_stat[i], 0) != 0))
			sum += percpu_counter_tree_precise_sum(&mm->rss_stat[i]);
	percpu_counter_tree_destroy_many(mm->rss_stat, NR_MM_COUNTERS);
	return sum;
}

/* Krisman RFC 3/4, include/linux/mm.h */
unsigned long get_mm_counter_lazy(struct mm_struct_lazy *mm, int member)
{
	return (unsigned long)lazy_percpu_counter_read_positive(&mm->rss_stat[member]);
}

unsigned long get_mm_counter_sum_lazy(struct mm_struct_lazy *mm, int member)
{
	return (unsigned long)lazy_percpu_counter_sum_positive(&mm->rss_stat[member]);
}

/* 4/4 */
void add_mm_counter_other_lazy(struct mm_struct_lazy *mm, int member, long value)
{
	lazy_percpu_counter_add_atomic(&mm->rss_stat[member], value);
}

/* 3/4, kernel/fork.c mm_init */
void mm_init_rss_lazy(struct mm_struct_lazy *mm)
{
	lazy_percpu_counter_init_many(mm->rss_stat, 0, NR_MM_COUNTERS);
}

/* 3/4, kernel/fork.c copy_mm: clone_flags & CLONE_VM */
int copy_mm_clone_vm_lazy(struct mm_struct_lazy *mm)
{
	return lazy_percpu_counter_upgrade_many(mm->rss_stat, NR_MM_COUNTERS);
}

bool mm_rss_lazy_upgraded(struct mm_struct_lazy *mm)
{
	return lazy_percpu_counter_initialized(&mm->rss_stat[0]);
}

/* 3/4, check_mm and __mmdrop */
long mm_free_rss_lazy(struct mm_struct_lazy *mm)
{
	long sum = 0;

	for (int i = 0; i < NR_MM_COUNTERS; i++)
		sum += (long)lazy_percpu_counter_sum_local(&mm->rss_stat[i]);
	lazy_percpu_counter_destroy_many(mm->rss_stat, NR_MM_COUNTERS);
	return sum;
}
