// SPDX-License-Identifier: GPL-2.0
/*
 * The rss counter designs: Linux 6.1's per-task cache synced into atomics,
 * 6.18's percpu_counters (6.2's f1a7941243c1), Dorminy's per-node atomics,
 * Desnoyers' counter tree, Krisman's lazy counters and Kairui Song's
 * per-CPU cache, each as the mm operations cases/rss.c times
 * (cases/rss_designs.h). Where each line of their kernel code comes from:
 * include/mmscale/linux-6.18/mm/rss_stat.h and rss_stat_designs.h.
 */
#include <stdlib.h>

#include "mmscale/errorf.h"
#include "mmscale/kernel/cpumask.h"
#include "mmscale/kernel/machine.h"
#include "mmscale/mm/config.h"
#include "mmscale/linux-6.18/mm/rss_stat.h"
#include "mmscale/linux-6.18/mm/rss_stat_designs.h"
#include "rss_designs.h"


#define CLAIM(out, count, value) do {				\
	(out)->which |= MMSCALE_COUNT_BIT(count);		\
	(out)->v[count] = (value);				\
} while (0)

/* --set percpu_counter_batch's, else compute_batch_value's: 6.18's batch. */
static uint64_t batch_6_18(void)
{
	int knob = mm_config()->percpu_counter_batch;

	return (uint64_t)(knob != MM_KNOB_AUTO ? knob : percpu_counter_batch_6_18);
}

/* -- Linux 6.1: SPLIT_RSS_COUNTING, the task's cache and the mm's atomics -- */

static size_t mm_size_6_1(void)
{
	return sizeof(struct mm_struct_6_1);
}

/* copy_process's memset of the task's cache, mm_init's of the mm's */
static int mm_init_6_1(void *mm)
{
	current_rss_6_1.rss_stat = (struct task_rss_stat){ 0 };
	current_rss_6_1.mm = mm;
	mm_init_rss_6_1(mm);
	return 0;
}

/* A task of the process on this thread: its mm, an empty cache (once: a task already there stays). */
static void task_enter_6_1(void *mm)
{
	if (current_rss_6_1.mm == mm)
		return;
	current_rss_6_1.mm = mm;
	current_rss_6_1.rss_stat = (struct task_rss_stat){ 0 };
}

/* exit_mm's sync_mm_rss, if this thread's task is the mm's. */
static void task_exit_6_1(void *mm)
{
	if (current_rss_6_1.mm != mm)
		return;
	sync_mm_rss_6_1(mm);
	current_rss_6_1.mm = NULL;
}

/* The last task's exit_mm, then check_mm's four reads. */
static long mm_free_6_1(void *mm)
{
	task_exit_6_1(mm);
	return check_mm_6_1(mm);
}

/* handle_mm_fault's check_sync_rss_stat(current), then inc_mm_counter_fast */
static void fault_6_1(void *mm)
{
	check_sync_rss_stat_6_1(&current_rss_6_1);
	add_mm_counter_fast_6_1(mm, MM_ANONPAGES, 1);
}

/* 6.1's add_mm_rss_vec (zap_pte_range, copy_pte_range): the mm's atomic directly, not the task's cache. */
static void add_6_1(void *mm, long pages)
{
	add_mm_counter_6_1(mm, MM_ANONPAGES, pages);
}

static unsigned long read_6_1(void *mm, int member)
{
	return get_mm_counter_6_1(mm, member);
}

/*
 * Each task's cache holds up to 66 faults: the sync comes at the start of
 * the 66th fault after the last sync (events was 65), whose own add then
 * stays in the cache with the 65 after it (rss/drift found 66, not the 65
 * first written here). 66 per thread of the mm.
 */
static unsigned long error_bound_6_1(void *mm, unsigned int nr_threads)
{
	(void)mm;
	return (unsigned long)(TASK_RSS_EVENTS_THRESH + 2) * nr_threads;
}

/*
 * The task's cache is synced into the mm's atomics when its events
 * counter was past TASK_RSS_EVENTS_THRESH (64) before the fault: the 66th
 * fault, then every 66th (the sync sets events to 0 after its
 * increment); one atomic add.
 */
static void fault_claim_6_1(uint64_t nr_ops, struct mmscale_claim *out)
{
	uint64_t folds = nr_ops / (TASK_RSS_EVENTS_THRESH + 2);

	CLAIM(out, MMSCALE_FOLDS, folds);
	CLAIM(out, MMSCALE_LOCK_ACQUIRES, 0);
	CLAIM(out, MMSCALE_LOCKED_OPS, folds);
}

/* get_mm_counter: atomic_long_read, not counted as a percpu_counter read. */
static void read_claim_6_1(bool sum, unsigned int tasks, struct mmscale_claim *out)
{
	(void)tasks;
	(void)sum;
	CLAIM(out, MMSCALE_BDI_READS, 0);
	CLAIM(out, MMSCALE_PERCPU_SUM_SLOTS, 0);
	CLAIM(out, MMSCALE_LOCK_ACQUIRES, 0);
	CLAIM(out, MMSCALE_LOCKED_OPS, 0);
}

/* The caches set to zero, a sync with nothing to add, four plain loads. */
static void fork_exit_claim_6_1(bool second_thread, struct mmscale_claim *out)
{
	(void)second_thread;
	CLAIM(out, MMSCALE_PERCPU_SUM_SLOTS, 0);
	CLAIM(out, MMSCALE_LOCK_ACQUIRES, 0);
	CLAIM(out, MMSCALE_LOCKED_OPS, 0);
	CLAIM(out, MMSCALE_PERCPU_ALLOCS, 0);
}

const struct rss_design rss_design_6_1 = {
	.mm_size = mm_size_6_1, .mm_init = mm_init_6_1, .mm_free = mm_free_6_1,
	.fault = fault_6_1, .add = add_6_1, .task_enter = task_enter_6_1, .task_exit = task_exit_6_1,
	.read = read_6_1, .error_bound = error_bound_6_1, .fault_claim = fault_claim_6_1,
	.read_claim = read_claim_6_1, .fork_exit_claim = fork_exit_claim_6_1,
};

/* -- Linux 6.18 (6.2+): percpu_counter -- */

static size_t mm_size_6_18(void)
{
	return sizeof(struct mm_struct_6_18);
}

/* The hotplug callback, as it has run for every CPU online in this run. */
static int boot_6_18(char *err, size_t errlen)
{
	(void)err;
	(void)errlen;
	compute_batch_value_6_18();
	return 0;
}

static int mm_init_6_18(void *mm)
{
	return mm_init_rss_6_18(mm);
}

static long mm_free_6_18(void *mm)
{
	return mm_free_rss_6_18(mm);
}

/* inc_mm_counter */
static void fault_6_18(void *mm)
{
	add_mm_counter_6_18(mm, MM_ANONPAGES, 1);
}

static void add_6_18(void *mm, long pages)
{
	add_mm_counter_6_18(mm, MM_ANONPAGES, pages);
}

static unsigned long read_6_18(void *mm, int member)
{
	return get_mm_counter_6_18(mm, member);
}

static unsigned long sum_6_18(void *mm, int member)
{
	return get_mm_counter_sum_6_18(mm, member);
}

/* Each online CPU's s32 stays within +-(batch - 1) (the fast path's test; a fold zeroes it). */
static unsigned long error_bound_6_18(void *mm, unsigned int nr_threads)
{
	uint64_t batch = batch_6_18();

	(void)mm;
	(void)nr_threads;
	return (unsigned long)((batch > 1 ? batch - 1 : 0) * num_online_cpus());
}

/*
 * percpu_counter_add folds the CPU's s32 when count + 1 reaches the batch:
 * every batch-th fault, every fault for a batch of 0 or 1; under fbc->lock.
 */
static void fault_claim_6_18(uint64_t nr_ops, struct mmscale_claim *out)
{
	uint64_t batch = batch_6_18();
	uint64_t folds = nr_ops / (batch > 1 ? batch : 1);

	CLAIM(out, MMSCALE_FOLDS, folds);
	CLAIM(out, MMSCALE_LOCK_ACQUIRES, folds);
	CLAIM(out, MMSCALE_LOCKED_OPS, folds);
}

/*
 * get_mm_counter: percpu_counter_read_positive, one load of fbc->count;
 * get_mm_counter_sum: __percpu_counter_sum, fbc->lock and every online
 * CPU's s32 (percpu_counter.c 171-185), the lock one locked instruction
 * when no one else holds or waits for it.
 */
static void read_claim_6_18(bool sum, unsigned int tasks, struct mmscale_claim *out)
{
	(void)tasks;
	CLAIM(out, MMSCALE_BDI_READS, !sum);
	CLAIM(out, MMSCALE_PERCPU_SUM_SLOTS, sum ? num_online_cpus() : 0);
	CLAIM(out, MMSCALE_LOCK_ACQUIRES, sum);
	CLAIM(out, MMSCALE_LOCKED_OPS, sum);
}

/*
 * percpu_counter_init_many allocates the NR_MM_COUNTERS counters' per-CPU
 * s32s at once through pcpu_alloc (pcpu_alloc_mutex, a cmpxchg to take
 * and one to give back, and pcpu_lock: mm/percpu.c 1781-1829), zeroed in
 * every CPU's unit, then takes percpu_counters_lock once to link them
 * (percpu_counter.c 218-221); check_mm sums each counter (its lock, every
 * online CPU); percpu_counter_destroy_many takes percpu_counters_lock
 * again to unlink them (241-246) and free_percpu takes pcpu_lock (2243).
 * Each spin lock is one locked operation. Still a lower bound of the
 * kernel's: the memcg charge and uncharge of GFP_KERNEL_ACCOUNT are not
 * emulated (linux-6.18/mm/percpu.h).
 */
static void fork_exit_claim_6_18(bool second_thread, struct mmscale_claim *out)
{
	(void)second_thread;
	CLAIM(out, MMSCALE_PERCPU_SUM_SLOTS, (uint64_t)NR_MM_COUNTERS * num_online_cpus());
	/* the sums' locks, percpu_counters_lock twice, pcpu_lock twice; and the mutex's two */
	CLAIM(out, MMSCALE_LOCK_ACQUIRES, NR_MM_COUNTERS + 2 + 2);
	CLAIM(out, MMSCALE_LOCKED_OPS, NR_MM_COUNTERS + 2 + 2 + 2);
	CLAIM(out, MMSCALE_PERCPU_ALLOCS, 1);
}

const struct rss_design rss_design_6_18 = {
	.mm_size = mm_size_6_18, .boot = boot_6_18, .mm_init = mm_init_6_18,
	.mm_free = mm_free_6_18, .fault = fault_6_18, .add = add_6_18, .read = read_6_18, .sum = sum_6_18,
	.error_bound = error_bound_6_18, .fault_claim = fault_claim_6_18,
	.read_claim = read_claim_6_18, .fork_exit_claim = fork_exit_claim_6_18,
};

/* -- Dorminy's per-NUMA-node atomics (RFC v2, 2025) on 6.18 -- */

static size_t mm_size_pernuma(void)
{
	return sizeof(struct mm_struct_pernuma);
}

static int mm_init_pernuma(void *mm)
{
	mm_init_rss_pernuma(mm);
	return 0;
}

static long mm_free_pernuma(void *mm)
{
	return mm_free_rss_pernuma(mm);
}

static void fault_pernuma(void *mm)
{
	add_mm_counter_pernuma(mm, MM_ANONPAGES, 1);
}

static void add_pernuma(void *mm, long pages)
{
	add_mm_counter_pernuma(mm, MM_ANONPAGES, pages);
}

static unsigned long read_pernuma(void *mm, int member)
{
	return get_mm_counter_pernuma(mm, member);
}

/* get_mm_counter_slow, the exact sum the RFC has (check_mm's) */
static unsigned long sum_pernuma(void *mm, int member)
{
	long v = get_mm_counter_slow_pernuma(mm, member);

	return v > 0 ? (unsigned long)v : 0;
}

static unsigned long error_bound_pernuma(void *mm, unsigned int nr_threads)
{
	(void)mm;
	(void)nr_threads;
	return rss_error_bound_pernuma(the_machine->nr_nodes);
}

/*
 * Every fault an atomic64_add_return on its node's atomic; from a fresh
 * mm on one CPU the atomic reaches the batch (32) at every 32nd fault,
 * which adds it to the global and takes it back: two more atomics.
 */
static void fault_claim_pernuma(uint64_t nr_ops, struct mmscale_claim *out)
{
	uint64_t folds = nr_ops / (uint64_t)_MM_NUMA_COUNTERS_BATCH;

	CLAIM(out, MMSCALE_FOLDS, folds);
	CLAIM(out, MMSCALE_LOCK_ACQUIRES, 0);
	CLAIM(out, MMSCALE_LOCKED_OPS, nr_ops + 2 * folds);
}

/* get_mm_counter: one load of the global; get_mm_counter_slow: the global and 32 node atomics. */
static void read_claim_pernuma(bool sum, unsigned int tasks, struct mmscale_claim *out)
{
	(void)tasks;
	CLAIM(out, MMSCALE_BDI_READS, !sum);
	CLAIM(out, MMSCALE_PERCPU_SUM_SLOTS, sum ? _MM_NUMA_COUNTERS : 0);
	CLAIM(out, MMSCALE_LOCK_ACQUIRES, 0);
	CLAIM(out, MMSCALE_LOCKED_OPS, 0);
}

/* No allocation, no lock: the counters zeroed, check_mm's get_mm_counter_slow of each. */
static void fork_exit_claim_pernuma(bool second_thread, struct mmscale_claim *out)
{
	(void)second_thread;
	CLAIM(out, MMSCALE_PERCPU_SUM_SLOTS, (uint64_t)NR_MM_COUNTERS * _MM_NUMA_COUNTERS);
	CLAIM(out, MMSCALE_LOCK_ACQUIRES, 0);
	CLAIM(out, MMSCALE_LOCKED_OPS, 0);
	CLAIM(out, MMSCALE_PERCPU_ALLOCS, 0);
}

const struct rss_design rss_design_pernuma = {
	.mm_size = mm_size_pernuma, .mm_init = mm_init_pernuma, .mm_free = mm_free_pernuma,
	.fault = fault_pernuma, .add = add_pernuma, .read = read_pernuma, .sum = sum_pernuma,
	.error_bound = error_bound_pernuma, .fault_claim = fault_claim_pernuma,
	.read_claim = read_claim_pernuma, .fork_exit_claim = fork_exit_claim_pernuma,
};

/* -- Desnoyers' hierarchical per-CPU counters (2025-2026) on 6.18 -- */

static size_t mm_size_tree(void)
{
	return mm_struct_tree_size();
}

static int boot_tree(char *err, size_t errlen)
{
	return percpu_counter_tree_subsystem_init(err, errlen);
}

static int mm_init_tree(void *mm)
{
	return mm_init_rss_tree(mm);
}

static long mm_free_tree(void *mm)
{
	return mm_free_rss_tree(mm);
}

static void fault_tree(void *mm)
{
	add_mm_counter_tree(mm, MM_ANONPAGES, 1);
}

static void add_tree(void *mm, long pages)
{
	add_mm_counter_tree(mm, MM_ANONPAGES, pages);
}

static unsigned long read_tree(void *mm, int member)
{
	return get_mm_counter_tree(mm, member);
}

static unsigned long sum_tree(void *mm, int member)
{
	return get_mm_counter_sum_tree(mm, member);
}

/* The counter's own accuracy range; the wider side ("under": batch x the multiplier). */
static unsigned long error_bound_tree(void *mm, unsigned int nr_threads)
{
	struct mm_struct_tree *tree = mm;
	unsigned long under = 0, over = 0;

	(void)nr_threads;
	percpu_counter_tree_approximate_accuracy_range(&tree->rss_stat[MM_ANONPAGES], &under, &over);
	return under > over ? under : over;
}

/*
 * A carry out of level 0 every 32nd fault from a fresh mm on one CPU (a
 * fold: the first shared line), an atomic add at level 1; each level's
 * item carries on when its count crosses its own bit, 2^arity carries of
 * the level below: level l's add comes every 32 << (arity orders below
 * it) faults, and the last carry is the approximate sum's add. One CPU in
 * all (nr_cpus_order 0): level 0 is the sum, nothing carries.
 */
static void fault_claim_tree(uint64_t nr_ops, struct mmscale_claim *out)
{
	unsigned int levels = percpu_counter_tree_nr_levels(), shift = 0;
	uint64_t locked = 0;

	for (unsigned int l = 0; l < levels; l++) {
		locked += nr_ops / ((uint64_t)RSS_STAT_BATCH_SIZE << shift);
		shift += percpu_counter_tree_arity_order(l);
	}
	CLAIM(out, MMSCALE_FOLDS, levels ? nr_ops / RSS_STAT_BATCH_SIZE : 0);
	CLAIM(out, MMSCALE_LOCK_ACQUIRES, 0);
	CLAIM(out, MMSCALE_LOCKED_OPS, locked);
}

/* The approximate sum: one load of the root item; the precise sum: every possible CPU, no lock. */
static void read_claim_tree(bool sum, unsigned int tasks, struct mmscale_claim *out)
{
	(void)tasks;
	CLAIM(out, MMSCALE_BDI_READS, !sum);
	CLAIM(out, MMSCALE_PERCPU_SUM_SLOTS, sum ? nr_cpu_ids : 0);
	CLAIM(out, MMSCALE_LOCK_ACQUIRES, 0);
	CLAIM(out, MMSCALE_LOCKED_OPS, 0);
}

/*
 * init_many: the items zeroed in the mm, one pcpu_alloc for the four
 * counters' level 0 (the mutex's two cmpxchgs, pcpu_lock), no hotplug
 * list; check_mm: each counter's approximate read, within the range of
 * 0, so its precise sum over every possible CPU; destroy_many: free_percpu
 * (pcpu_lock).
 */
static void fork_exit_claim_tree(bool second_thread, struct mmscale_claim *out)
{
	(void)second_thread;
	CLAIM(out, MMSCALE_BDI_READS, NR_MM_COUNTERS);
	CLAIM(out, MMSCALE_PERCPU_SUM_SLOTS, (uint64_t)NR_MM_COUNTERS * nr_cpu_ids);
	CLAIM(out, MMSCALE_LOCK_ACQUIRES, 2);
	CLAIM(out, MMSCALE_LOCKED_OPS, 2 + 2);
	CLAIM(out, MMSCALE_PERCPU_ALLOCS, 1);
}

const struct rss_design rss_design_tree = {
	.mm_size = mm_size_tree, .boot = boot_tree, .mm_init = mm_init_tree,
	.mm_free = mm_free_tree, .fault = fault_tree, .add = add_tree, .read = read_tree, .sum = sum_tree,
	.error_bound = error_bound_tree, .fault_claim = fault_claim_tree,
	.read_claim = read_claim_tree, .fork_exit_claim = fork_exit_claim_tree,
};


/* -- Krisman's lazy (dual-mode) counters (RFC 1-4/4, 2025) on 6.18 -- */

static size_t mm_size_lazy(void)
{
	return sizeof(struct mm_struct_lazy);
}

static int mm_init_lazy(void *mm)
{
	mm_init_rss_lazy(mm);
	return 0;
}

static long mm_free_lazy(void *mm)
{
	return mm_free_rss_lazy(mm);
}

static int clone_vm_lazy(void *mm)
{
	return copy_mm_clone_vm_lazy(mm);
}

/* do_anonymous_page's add_mm_counter_other (4/4) */
static void fault_lazy(void *mm)
{
	add_mm_counter_other_lazy(mm, MM_ANONPAGES, 1);
}

static void add_lazy(void *mm, long pages)
{
	add_mm_counter_other_lazy(mm, MM_ANONPAGES, pages);
}

static unsigned long read_lazy(void *mm, int member)
{
	return get_mm_counter_lazy(mm, member);
}

static unsigned long sum_lazy(void *mm, int member)
{
	return get_mm_counter_sum_lazy(mm, member);
}

/*
 * Lazy: the remote atomic and the owner's plain count, read together:
 * exact. Upgraded: 6.18's, once the cloning CPU has updated the counter
 * again; until then the count at the upgrade too, which add_local left on
 * that CPU's s32 (test_rss_designs shows it): no walk here clones.
 */
static unsigned long error_bound_lazy(void *mm, unsigned int nr_threads)
{
	return mm_rss_lazy_upgraded(mm) ? error_bound_6_18(mm, nr_threads) : 0;
}

/* A single task's mm stays lazy: every fault one cmpxchg on the remote atomic, no fold, no lock. */
static void fault_claim_lazy(uint64_t nr_ops, struct mmscale_claim *out)
{
	CLAIM(out, MMSCALE_FOLDS, 0);
	CLAIM(out, MMSCALE_LOCK_ACQUIRES, 0);
	CLAIM(out, MMSCALE_LOCKED_OPS, nr_ops);
}

/* Lazy: two plain loads, no percpu_counter read; upgraded (more than one task): 6.18's. */
static void read_claim_lazy(bool sum, unsigned int tasks, struct mmscale_claim *out)
{
	if (tasks > 1) {
		read_claim_6_18(sum, tasks, out);
		return;
	}
	CLAIM(out, MMSCALE_BDI_READS, 0);
	CLAIM(out, MMSCALE_PERCPU_SUM_SLOTS, 0);
	CLAIM(out, MMSCALE_LOCK_ACQUIRES, 0);
	CLAIM(out, MMSCALE_LOCKED_OPS, 0);
}

/*
 * Single-threaded: no allocation; check_mm's sum_local adds the owner's
 * count with a cmpxchg per counter (4 locked ops), destroy_many nothing.
 * With a second thread cloned: the upgrade's pcpu_alloc (the mutex's two
 * cmpxchgs, pcpu_lock), an xchg per counter, percpu_counters_lock to
 * link them; then 6.18's exit: four sums (lock, online CPUs),
 * percpu_counters_lock, free_percpu's pcpu_lock.
 */
static void fork_exit_claim_lazy(bool second_thread, struct mmscale_claim *out)
{
	if (!second_thread) {
		CLAIM(out, MMSCALE_PERCPU_SUM_SLOTS, 0);
		CLAIM(out, MMSCALE_LOCK_ACQUIRES, 0);
		CLAIM(out, MMSCALE_LOCKED_OPS, NR_MM_COUNTERS);
		CLAIM(out, MMSCALE_PERCPU_ALLOCS, 0);
		return;
	}
	CLAIM(out, MMSCALE_PERCPU_SUM_SLOTS, (uint64_t)NR_MM_COUNTERS * num_online_cpus());
	CLAIM(out, MMSCALE_LOCK_ACQUIRES, 2 + 2 + NR_MM_COUNTERS);
	CLAIM(out, MMSCALE_LOCKED_OPS, 2 + 2 + NR_MM_COUNTERS + 2 + NR_MM_COUNTERS);
	CLAIM(out, MMSCALE_PERCPU_ALLOCS, 1);
}

const struct rss_design rss_design_lazy = {
	.mm_size = mm_size_lazy, .boot = boot_6_18, .mm_init = mm_init_lazy,
	.mm_free = mm_free_lazy, .clone_vm = clone_vm_lazy, .fault = fault_lazy, .add = add_lazy,
	.read = read_lazy, .sum = sum_lazy, .error_bound = error_bound_lazy,
	.fault_claim = fault_claim_lazy, .read_claim = read_claim_lazy,
	.fork_exit_claim = fork_exit_claim_lazy,
};

/* -- Kairui Song's per-CPU RSS cache (RFC 4/7, 2022) on 6.1's atomics -- */

static size_t mm_size_pcpcache(void)
{
	return sizeof(struct mm_struct_pcpcache);
}

static int boot_pcpcache(char *err, size_t errlen)
{
	if (pcp_rss_cache_boot() != 0)
		return mmscale_errorf(err, errlen, "per-CPU units full: cpu_rss_cache");
	return 0;
}

/* mm_init's memset; the child then runs on this CPU: context_switch takes its mm. */
static int mm_init_pcpcache(void *mm)
{
	mm_init_rss_pcpcache(mm);
	switch_pcp_rss_cache_no_irq(mm);
	return 0;
}

static long mm_free_pcpcache(void *mm)
{
	return mm_free_rss_pcpcache(mm);
}

static void task_enter_pcpcache(void *mm)
{
	switch_pcp_rss_cache_no_irq(mm);
}

static void fault_pcpcache(void *mm)
{
	add_mm_counter_fast_pcpcache(mm, MM_ANONPAGES, 1);
}

static void add_pcpcache(void *mm, long pages)
{
	add_mm_counter_pcpcache(mm, MM_ANONPAGES, pages);
}

static unsigned long read_pcpcache(void *mm, int member)
{
	return get_mm_counter_pcpcache(mm, member);
}

/* Every CPU's cache of the mm is read: exact, settled. */
static unsigned long error_bound_pcpcache(void *mm, unsigned int nr_threads)
{
	(void)mm;
	(void)nr_threads;
	return 0;
}

/* The CPU's cache holds the mm (its task runs there): this_cpu_adds only. */
static void fault_claim_pcpcache(uint64_t nr_ops, struct mmscale_claim *out)
{
	(void)nr_ops;
	CLAIM(out, MMSCALE_FOLDS, 0);
	CLAIM(out, MMSCALE_LOCK_ACQUIRES, 0);
	CLAIM(out, MMSCALE_LOCKED_OPS, 0);
}

/* get_mm_counter is the sum: the atomic and every possible CPU's cache, no lock. */
static void read_claim_pcpcache(bool sum, unsigned int tasks, struct mmscale_claim *out)
{
	(void)sum;
	(void)tasks;
	CLAIM(out, MMSCALE_BDI_READS, 0);
	CLAIM(out, MMSCALE_PERCPU_SUM_SLOTS, nr_cpu_ids);
	CLAIM(out, MMSCALE_LOCK_ACQUIRES, 0);
	CLAIM(out, MMSCALE_LOCKED_OPS, 0);
}

/*
 * The exit walks every possible CPU and takes the one cache holding the
 * mm (the CPU its task ran on) with a cmpxchg; the next mm_init's switch
 * finds that cache empty (NULL): no flush. The design's other cost, a
 * context switch between two mms flushing the cache (a cmpxchg and an
 * atomic per counter not zero), no case here times or claims:
 * test_pcpcache counts it.
 */
static void fork_exit_claim_pcpcache(bool second_thread, struct mmscale_claim *out)
{
	(void)second_thread;
	CLAIM(out, MMSCALE_PERCPU_SUM_SLOTS, nr_cpu_ids);
	CLAIM(out, MMSCALE_LOCK_ACQUIRES, 0);
	CLAIM(out, MMSCALE_LOCKED_OPS, 1);
	CLAIM(out, MMSCALE_PERCPU_ALLOCS, 0);
}

const struct rss_design rss_design_pcpcache = {
	.mm_size = mm_size_pcpcache, .boot = boot_pcpcache, .halt = pcp_rss_cache_halt,
	.mm_init = mm_init_pcpcache, .mm_free = mm_free_pcpcache,
	.task_enter = task_enter_pcpcache, .fault = fault_pcpcache, .add = add_pcpcache,
	.read = read_pcpcache, .sum = read_pcpcache, .error_bound = error_bound_pcpcache,
	.fault_claim = fault_claim_pcpcache, .read_claim = read_claim_pcpcache,
	.fork_exit_claim = fork_exit_claim_pcpcache,
};

static uint64_t xorshift64(uint64_t *state)
{
	uint64_t x = *state;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	*state = x;
	return x;
}

/* Bursts up to twice the designs' batch of 32: some fold, some stay per CPU. */
#define DRIFT_MAX_BURST	64

void rss_drift_walk(const struct rss_design *d, void *mm, struct rss_drift *dr,
		    unsigned long steps)
{
	unsigned int cpus = num_online_cpus();
	int home = smp_processor_id();

	if (d->task_enter)
		d->task_enter(mm);
	for (unsigned long i = 0; i < steps; i++) {
		uint64_t r = xorshift64(&dr->seed);
		long burst = 1 + (long)((r >> 8) % DRIFT_MAX_BURST);
		unsigned long read;
		long err;

		machine_task_migrate((int)((r >> 32) % cpus));
		if (d->task_enter)	/* context_switch on the CPU it came to */
			d->task_enter(mm);
		/* 5 bursts in 8 fault: the process grows, as a working one does. */
		if ((r & 7) < 5 || dr->true_pages < burst) {
			for (long p = 0; p < burst; p++)
				d->fault(mm);
			dr->true_pages += burst;
		} else {
			d->add(mm, -burst);
			dr->true_pages -= burst;
		}
		if (dr->true_pages > dr->true_max)
			dr->true_max = dr->true_pages;
		read = d->read(mm, MM_ANONPAGES);
		err = (long)read - dr->true_pages;
		if ((unsigned long)labs(err) > dr->worst)
			dr->worst = (unsigned long)labs(err);
		dr->steps++;
	}
	machine_task_migrate(home);
	if (d->task_exit)
		d->task_exit(mm);
}

int rss_drift_check(const char *row, const struct rss_drift *dr, unsigned long bound,
		    char *err, size_t errlen)
{
	if (dr->worst <= bound)
		return 0;
	return mmscale_errorf(err, errlen, "%s: get_mm_counter was %lu pages off in the drift "
			      "walk, beyond its bound of %lu", row, dr->worst, bound);
}

long rss_oom_pages(int i)
{
	return OOM_BASE_PAGES + (long)OOM_STEP_PAGES * i + OOM_SPREAD_CPUS;
}

void rss_oom_populate(const struct rss_design *d, void *mm, int i)
{
	unsigned int cpus = num_online_cpus();
	int home = smp_processor_id();

	d->add(mm, OOM_BASE_PAGES + (long)OOM_STEP_PAGES * i);
	if (d->task_enter)
		d->task_enter(mm);
	for (unsigned int k = 0; k < OOM_SPREAD_CPUS; k++) {
		machine_task_migrate((int)((k * 7919u + (unsigned int)i) % cpus));
		d->fault(mm);
	}
	machine_task_migrate(home);
	if (d->task_exit)
		d->task_exit(mm);
}

/* oom_badness's score of one process, without the page tables (not emulated). */
static unsigned long oom_points(const struct rss_design *d, void *mm, bool sums)
{
	unsigned long (*get)(void *mm, int member) = sums ? d->sum : d->read;

	return get(mm, MM_FILEPAGES) + get(mm, MM_ANONPAGES) + get(mm, MM_SHMEMPAGES) +
	       get(mm, MM_SWAPENTS);
}

int rss_oom_select(const struct rss_design *d, void *const *mms, int n, bool sums)
{
	unsigned long chosen_points = 0;
	int chosen = -1;

	for (int i = 0; i < n; i++) {
		unsigned long points = oom_points(d, mms[i], sums);

		if (points > chosen_points || chosen < 0) {
			chosen = i;
			chosen_points = points;
		}
	}
	return chosen;
}
