/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The mm's rss counters as four postings of 2022-2026 would have them,
 * three on the emulated 6.18 (the mm code they change is 6.18's:
 * include/linux/mm.h get_mm_counter/add_mm_counter, kernel/fork.c
 * mm_init/check_mm/__mmdrop), Kairui Song's 2022 one on 6.1's atomics,
 * beside 6.1's split counters and 6.18's percpu_counter (rss_stat.h).
 * None is merged; the rows say so.
 *
 * - Per-NUMA-node atomics, Sweet Tea Dorminy, "[RFC PATCH v2] mm: use
 *   per-numa-node atomics instead of percpu_counters"
 *   <20250331223516.7810-2-sweettea-kernel@dorminy.me> (31 Mar 2025, on
 *   akpm/mm-unstable, base e026356e4192; v1
 *   <20250325221550.396212-1-sweettea-kernel@dorminy.me> not stored), the
 *   b- file in ../shared/kernel/patches: struct mm_pernuma_counter, one
 *   atomic64 global and _MM_NUMA_COUNTERS = MIN(MAX_NUMNODES, 32) node
 *   atomics; an update is atomic64_add_return on numa_node_id() % 32's
 *   atomic and, once |val| >= _MM_NUMA_COUNTERS_BATCH, two more atomics
 *   moving val to the global; get_mm_counter reads the global,
 *   check_mm's get_mm_counter_slow adds all 33; no per-CPU memory, no
 *   lock. MAX_NUMNODES is 1 << CONFIG_NODES_SHIFT, 10 on x86-64
 *   distributions (this machine's 6.18 too), so 32 node atomics, and the
 *   batch max(32, (num_possible_cpus() >> 10) * 2) is 32 below 17408
 *   CPUs. Its 33 atomics per counter sit unpadded, 8 to a line, as in the
 *   RFC. Its bound, 31 per node atomic in use, holds for one updater of an
 *   atomic at a time (rss_error_bound_pernuma says why not otherwise). The RFC's mm_init leaves the counters as dup_mm's memcpy copied
 *   them from the parent (the posting has no initialisation); the row
 *   zeroes them, as a fixed version must, and counts the lines.
 *   The RFC has no precise get_mm_counter_sum; the OOM fix (5898aa8f9a0b)
 *   came later: its row uses get_mm_counter_slow, the RFC's exact sum.
 *
 * - Hierarchical per-CPU counters, Mathieu Desnoyers (lib:
 *   linux-6.18/lib/percpu_counter_tree.h says which text): struct
 *   percpu_counter_tree rss_stat[NR_MM_COUNTERS] with the tree items
 *   after the mm's fixed fields (percpu_counter_tree_items_size() each,
 *   zeroed at mm_init), RSS_STAT_BATCH_SIZE 32 (kernel/fork.c of RFC v8
 *   2/2 <20251107172216.515754-3-mathieu.desnoyers@efficios.com>);
 *   get_mm_counter the approximate sum, get_mm_counter_sum the precise
 *   one, check_mm percpu_counter_tree_precise_compare_value(counter, 0)
 *   (RFC v8 2/2). The v17 mm patch ("mm: improve RSS counter
 *   approximation accuracy for proc interfaces") was not found stored:
 *   mm_init and __mmdrop here call the lib's init_many/destroy_many, the
 *   form its items argument exists for (the v17 s390 thread: the items in
 *   the mm's flexible array, NR_MM_COUNTERS x the items' size); v8 called
 *   init and destroy once per counter.
 *
 * - Lazy (dual-mode) counters, Gabriel Krisman Bertazi, "[RFC PATCH 0/4]
 *   Optimize rss_stat initialization/teardown for single-threaded tasks"
 *   <20251127233635.4170047-1-krisman@suse.de> (27 Nov 2025, not merged;
 *   the lib: linux-6.18/lib/lazy_percpu_counter.h): 3/4 (-4-krisman@suse.de)
 *   makes rss_stat lazy_percpu_counters, initialised without an
 *   allocation in mm_init, upgraded in copy_mm when any CLONE_VM child
 *   shares the mm (a second thread, and vfork or posix_spawn too), check_mm's lazy_percpu_counter_sum_local
 *   (a cmpxchg per counter while lazy); 4/4 (-5-krisman@suse.de) sends
 *   do_anonymous_page's and add_mm_rss_vec's updates through
 *   add_mm_counter_other, lazy_percpu_counter_add_atomic: a cmpxchg while
 *   lazy, percpu_counter_add once upgraded (3/4 alone had the owning
 *   task's plain add there). The series as a whole is the row.
 *
 * - A per-CPU RSS cache, Kairui Song, "[RFC PATCH 0/7] Replace per-task RSS
 *   cache with per-CPU RSS cache" <20220728204511.56348-1-ryncsn@gmail.com>
 *   (29 Jul 2022, on 5.19-rc; raised again 2025; not merged): 4/7 "mm:
 *   introduce a generic per-CPU RSS cache"
 *   <20220728204511.56348-5-ryncsn@gmail.com>, the b- file. 1/7-3/7
 *   (removing the per-task cache) are not stored; what 4/7 builds on is
 *   6.1's mm_rss_stat atomics without the task cache, which is what the
 *   row has. Each CPU's struct mm_rss_cache (DEFINE_PER_CPU_SHARED_ALIGNED:
 *   in_use and count[] on the owner's line, mm and sync_count on the
 *   next) caches the updates for its active_mm: add_mm_counter_fast is
 *   a this_cpu_add when the mm is the cached one, the atomic otherwise;
 *   context_switch's switch_pcp_rss_cache_no_irq flushes the cache to
 *   the old mm (a cmpxchg marking it, an atomic add per counter) and
 *   takes the next; get_mm_counter adds every possible CPU's cache that
 *   holds the mm (no lock, two sync_count reads around each); __mmdrop's
 *   check_discard_rss_cache takes each CPU's cache of the dying mm with a
 *   cmpxchg. 4/7's get_mm_rss reads an uninitialised update (and its
 *   sum is comma expressions): not ported; the OOM scan uses
 *   get_mm_counter per counter. 6/7-7/7 (mm_cpumask on x86) are not
 *   stored: every possible CPU is walked, as in the generic 4/7.
 *
 * As in rss_stat.h, each mm's counters start a line of their own (the
 * node atomics then pack as the RFC's do), the tree's items on lines of
 * their own (____cacheline_aligned_in_smp in the kernel
 * too), and mm_trace_rss_stat (a tracepoint, off) is left out.
 */
#ifndef MMSCALE_LINUX_6_18_MM_RSS_STAT_DESIGNS_H
#define MMSCALE_LINUX_6_18_MM_RSS_STAT_DESIGNS_H

#include "mmscale/kernel/atomic.h"
#include "mmscale/linux-6.18/lib/lazy_percpu_counter.h"
#include "mmscale/linux-6.18/lib/percpu_counter_tree.h"
#include "mmscale/linux-6.18/mm/rss_stat.h"

/* Dorminy RFC v2: include/linux/mm_types.h, MAX_NUMNODES = 1 << 10 */
#define _MM_NUMA_COUNTERS	32
#define _MM_NUMA_COUNTERS_BATCH	max(32L, (long)(nr_cpu_ids >> 10) * 2)	/* num_possible_cpus() >> NODES_SHIFT */

struct mm_pernuma_counter {
	atomic_long_t global;			/* atomic64_t */
	atomic_long_t numa_counters[_MM_NUMA_COUNTERS];
};

struct mm_struct_pernuma {
	struct mm_pernuma_counter rss_stat[NR_MM_COUNTERS] ____cacheline_aligned;
};

unsigned long get_mm_counter_pernuma(struct mm_struct_pernuma *mm, int member);
long get_mm_counter_slow_pernuma(struct mm_struct_pernuma *mm, int member);
void add_mm_counter_pernuma(struct mm_struct_pernuma *mm, int member, long value);
void mm_init_rss_pernuma(struct mm_struct_pernuma *mm);
/* check_mm's get_mm_counter_slow of each counter; nothing to free. The sum. */
long mm_free_rss_pernuma(struct mm_struct_pernuma *mm);
/* The most get_mm_counter can be below or above the true count, settled. */
unsigned long rss_error_bound_pernuma(int nr_nodes);

/* Desnoyers: RFC v8 2/2's kernel/fork.c */
#define RSS_STAT_BATCH_SIZE	32

struct mm_struct_tree {
	struct percpu_counter_tree rss_stat[NR_MM_COUNTERS] ____cacheline_aligned;
	/* then NR_MM_COUNTERS x percpu_counter_tree_items_size() of items */
	struct percpu_counter_tree_level_item items[];
};

/* The mm's size on this machine (its flexible array: the items). */
size_t mm_struct_tree_size(void);
unsigned long get_mm_counter_tree(struct mm_struct_tree *mm, int member);
unsigned long get_mm_counter_sum_tree(struct mm_struct_tree *mm, int member);
void add_mm_counter_tree(struct mm_struct_tree *mm, int member, long value);
/* -1 when the per-CPU units are full. */
int mm_init_rss_tree(struct mm_struct_tree *mm);
/* check_mm's compares (and the precise sum where one is off), destroy_many; the sum. */
long mm_free_rss_tree(struct mm_struct_tree *mm);

/* Krisman RFC 1-4/4 */
struct mm_struct_lazy {
	struct lazy_percpu_counter rss_stat[NR_MM_COUNTERS] ____cacheline_aligned;
};

unsigned long get_mm_counter_lazy(struct mm_struct_lazy *mm, int member);
unsigned long get_mm_counter_sum_lazy(struct mm_struct_lazy *mm, int member);
/* add_mm_counter_other (4/4): the anonymous fault's and add_mm_rss_vec's. */
void add_mm_counter_other_lazy(struct mm_struct_lazy *mm, int member, long value);
void mm_init_rss_lazy(struct mm_struct_lazy *mm);
/* copy_mm with CLONE_VM: lazy_percpu_counter_upgrade_many; -1 when the units are full. */
int copy_mm_clone_vm_lazy(struct mm_struct_lazy *mm);
bool mm_rss_lazy_upgraded(struct mm_struct_lazy *mm);
/* check_mm's lazy_percpu_counter_sum_local of each, then destroy_many; the sum. */
long mm_free_rss_lazy(struct mm_struct_lazy *mm);

/* Kairui Song RFC 4/7: include/linux/mm_types_task.h */
struct mm_rss_cache {
	/* CPU local only variables, hot path for RSS caching. Readonly for other CPUs. */
	long in_use;			/* unsigned long */
	long count[NR_MM_COUNTERS];
	/* Avoid false sharing when other CPUs collect RSS counter */
	atomic_long_t mm ____cacheline_aligned;	/* struct mm_struct *; bit 0: syncing */
	/* Avoid ABA problem and RSS being accounted for wrong mm */
	long sync_count;		/* unsigned long */
};

/* lowest bit of *mm is never used, so use it as a syncing flag */
#define RSS_CACHE_MM_SYNCING_MASK 1UL

struct mm_struct_pcpcache {
	struct mm_rss_stat rss_stat ____cacheline_aligned;	/* 6.1's atomics, no task cache */
};

/* DEFINE_PER_CPU_SHARED_ALIGNED(struct mm_rss_cache, cpu_rss_cache): per run, -1 when full. */
int pcp_rss_cache_boot(void);
void pcp_rss_cache_halt(void);
unsigned long get_mm_counter_pcpcache(struct mm_struct_pcpcache *mm, int member);
/* context_switch to a task of next_mm on this CPU */
void switch_pcp_rss_cache_no_irq(struct mm_struct_pcpcache *next_mm);
/* do_anonymous_page's inc_mm_counter_fast */
void add_mm_counter_fast_pcpcache(struct mm_struct_pcpcache *mm, int member, int val);
/* add_mm_counter: the atomic (add_mm_rss_vec) */
void add_mm_counter_pcpcache(struct mm_struct_pcpcache *mm, int member, long value);
void mm_init_rss_pcpcache(struct mm_struct_pcpcache *mm);
/* __mmdrop's check_discard_mm: every CPU's cache of mm taken; the sum. */
long mm_free_rss_pcpcache(struct mm_struct_pcpcache *mm);

#endif /* MMSCALE_LINUX_6_18_MM_RSS_STAT_DESIGNS_H */
