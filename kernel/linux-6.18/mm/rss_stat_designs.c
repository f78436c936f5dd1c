// SPDX-License-Identifier: GPL-2.0
/*
 * Four posted rss counter designs, none merged: Dorminy's per-node atomics,
 * Desnoyers' counter tree and Krisman's lazy counters on the emulated 6.18,
 * Kairui Song's per-CPU cache on 6.1's atomics:
 * include/mmscale/linux-6.18/mm/rss_stat_designs.h says which postings and
 * what differs.
 */
#include <stdlib.h>
#include <string.h>

#include "mmscale/kernel/cpumask.h"
#include "mmscale/kernel/percpu.h"
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
 * The RFC's "32 times the number of NUMA nodes". Only with one updater of
 * a node atomic at a time: two CPUs of a node adding 1 at 31 both see
 * 32 or more and both fold (+32 and +33 to the global, -65 to the
 * atomic, which ends at -32), three leave it at -65, so under contention
 * the bound does not hold (rss/drift and rss/read have one writer).
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

/* Kairui Song RFC 4/7, mm/memory.c */
static struct mm_rss_cache *cpu_rss_cache;	/* __percpu */

int pcp_rss_cache_boot(void)
{
	if (!cpu_rss_cache)
		cpu_rss_cache = __alloc_percpu(sizeof(struct mm_rss_cache), SMP_CACHE_BYTES);
	return cpu_rss_cache ? 0 : -1;
}

void pcp_rss_cache_halt(void)
{
	free_percpu(cpu_rss_cache);
	cpu_rss_cache = NULL;
}

static uintptr_t pcp_rss_mm_mark(uintptr_t mm)
{
	return mm | RSS_CACHE_MM_SYNCING_MASK;
}

static uintptr_t pcp_rss_mm_unmark(uintptr_t mm)
{
	return mm & ~RSS_CACHE_MM_SYNCING_MASK;
}

/*
 * Every possible CPU that caches mm: its count, if the cache was not
 * flushed while read (sync_count and mm the same after). smp_rmb is a
 * compiler barrier on x86.
 */
unsigned long get_mm_counter_pcpcache(struct mm_struct_pcpcache *mm, int member)
{
	unsigned int cpu;
	long ret, update, sync_count;

	ret = atomic_long_read(&mm->rss_stat.count[member]);
	for (cpu = 0; cpu < nr_cpu_ids; cpu++) {	/* for_each_possible_cpu */
		struct mm_rss_cache *c = per_cpu_ptr(cpu_rss_cache, cpu);

		if ((uintptr_t)atomic_long_read(&c->mm) != (uintptr_t)mm)
			continue;
		sync_count = READ_ONCE(c->sync_count);
		barrier();
		update = READ_ONCE(c->count[member]);
		barrier();
		if (READ_ONCE(c->sync_count) == sync_count &&
		    (uintptr_t)atomic_long_read(&c->mm) == (uintptr_t)mm)
			ret += update;
	}
	mmscale_count_add(MMSCALE_PERCPU_SUM_SLOTS, nr_cpu_ids);
	if (ret < 0)
		ret = 0;
	return (unsigned long)ret;
}

void switch_pcp_rss_cache_no_irq(struct mm_struct_pcpcache *next_mm)
{
	struct mm_rss_cache *c = this_cpu_ptr(cpu_rss_cache);
	uintptr_t cpu_mm = (uintptr_t)atomic_long_read(&c->mm);
	long count;

	if (cpu_mm == (uintptr_t)next_mm)
		return;
	/* in_use is held with preemption off: non-zero, an interrupt switching the mm */
	if (READ_ONCE(c->in_use))
		return;
	if (!cpu_mm)
		goto commit_done;
	/* Race with check_discard_rss_cache */
	if ((uintptr_t)atomic_long_cmpxchg(&c->mm, (long)cpu_mm, (long)pcp_rss_mm_mark(cpu_mm)) !=
	    cpu_mm)
		goto commit_done;
	for (int i = 0; i < NR_MM_COUNTERS; i++) {
		count = READ_ONCE(c->count[i]);
		if (count) {
			add_mm_counter_6_1((struct mm_struct_6_1 *)(void *)cpu_mm, i, count);
			mmscale_count_inc(MMSCALE_FOLDS);
		}
	}
commit_done:
	for (int i = 0; i < NR_MM_COUNTERS; i++)
		WRITE_ONCE(c->count[i], 0);
	/* smp_wmb (a compiler barrier on x86): the new mm and sync counter have zeroed counters */
	barrier();
	atomic_long_set(&c->mm, (long)(uintptr_t)next_mm);
	this_cpu_add_long(&c->sync_count, 1);
}

/* The row's mm is 6.1's atomics: struct mm_struct_6_1 has just them (rss_stat.h). */
BUILD_BUG_ON(offsetof(struct mm_struct_pcpcache, rss_stat) !=
	     offsetof(struct mm_struct_6_1, rss_stat));

void add_mm_counter_pcpcache(struct mm_struct_pcpcache *mm, int member, long value)
{
	add_mm_counter_6_1((struct mm_struct_6_1 *)(void *)mm, member, value);
}

void add_mm_counter_fast_pcpcache(struct mm_struct_pcpcache *mm, int member, int val)
{
	struct mm_rss_cache *c = this_cpu_ptr(cpu_rss_cache);

	/* preempt_disable: the task and its mm stay on this CPU */
	this_cpu_add_long(&c->in_use, 1);
	if (likely((uintptr_t)mm == (uintptr_t)atomic_long_read(&c->mm))) {
		this_cpu_add_long(&c->count[member], val);
		this_cpu_add_long(&c->in_use, -1);
		/* preempt_enable_no_resched */
	} else {
		this_cpu_add_long(&c->in_use, -1);
		add_mm_counter_pcpcache(mm, member, val);
	}
}

/* mm_init's memset of the counters (1/7-3/7 took the task's cache away). */
void mm_init_rss_pcpcache(struct mm_struct_pcpcache *mm)
{
	for (int i = 0; i < NR_MM_COUNTERS; i++)
		atomic_long_set(&mm->rss_stat.count[i], 0);
}

/*
 * check_discard_rss_cache: each possible CPU caching mm gives its counts
 * up with a cmpxchg of its mm to NULL, unless its cache is being flushed
 * (mm marked: cpu_mm equals itself marked), which is waited for. The sum, which check_mm
 * would report if not zero.
 */
long mm_free_rss_pcpcache(struct mm_struct_pcpcache *mm)
{
	long cached_count[NR_MM_COUNTERS] = { 0 };
	long sum = 0;
	unsigned int cpu;

	for (cpu = 0; cpu < nr_cpu_ids; cpu++) {
		struct mm_rss_cache *c = per_cpu_ptr(cpu_rss_cache, cpu);
		uintptr_t cpu_mm = (uintptr_t)atomic_long_read(&c->mm);
		unsigned int spins = 0;

		if (pcp_rss_mm_unmark(cpu_mm) != (uintptr_t)mm)
			continue;
		if (cpu_mm != pcp_rss_mm_mark(cpu_mm)) {
			long count[NR_MM_COUNTERS];

			for (int i = 0; i < NR_MM_COUNTERS; i++)
				count[i] = READ_ONCE(c->count[i]);
			cpu_mm = (uintptr_t)atomic_long_cmpxchg(&c->mm, (long)(uintptr_t)mm, 0);
			if (cpu_mm == (uintptr_t)mm) {
				for (int i = 0; i < NR_MM_COUNTERS; i++)
					cached_count[i] += count[i];
				continue;
			}
		}
		/* It's being flushed: busy wait, the critical section is short */
		do {
			spin_wait_step(&spins);
			cpu_mm = (uintptr_t)atomic_long_read(&c->mm);
		} while (cpu_mm == pcp_rss_mm_mark((uintptr_t)mm));
	}
	mmscale_count_add(MMSCALE_PERCPU_SUM_SLOTS, nr_cpu_ids);
	for (int i = 0; i < NR_MM_COUNTERS; i++)
		sum += atomic_long_read(&mm->rss_stat.count[i]) + cached_count[i];
	return sum;
}
