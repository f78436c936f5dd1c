/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A process's resident-set counters (mm->rss_stat) in two generations:
 *
 * - Linux 6.1, SPLIT_RSS_COUNTING (defined on x86-64 SMP, where NR_CPUS >=
 *   SPLIT_PTLOCK_CPUS): one atomic_long_t per counter in the mm, and in
 *   each task a cache (struct task_rss_stat) that the fault path updates
 *   with plain adds and syncs into the mm's atomics every
 *   TASK_RSS_EVENTS_THRESH events. Ported from mm/memory.c of
 *   github.com/unifreq/linux-6.1.y at commit
 *   3f562c740933ac63541fa514af11dd954058e5ac (git hash-object of the file
 *   c2f48f8003c2ec23d1dcd52a53eac7fe3c985707), lines 170-215 (sync_mm_rss,
 *   add_mm_counter_fast, TASK_RSS_EVENTS_THRESH, check_sync_rss_stat),
 *   which are the same text in Debian's linux-source-6.1 6.1.192 and in
 *   tianrenz2/linux-6.1.0 (4cbdaf33); get_mm_counter and add_mm_counter
 *   from include/linux/mm.h of 6.1 (Debian linux-source-6.1 6.1.192-3,
 *   hash-object 279c121e, 2175-2197), struct task_rss_stat and
 *   mm_rss_stat from include/linux/mm_types_task.h (the same package,
 *   0bb4b6da, 31-50).
 *
 * - Linux 6.18 (since 6.2, f1a7941243c1, Shakeel Butt's "convert mm's rss
 *   stats into percpu_counter"): struct percpu_counter
 *   rss_stat[NR_MM_COUNTERS] in the mm (mm_types.h 1122 of
 *   ../shared/kernel/6.18), updated with percpu_counter_add
 *   (add_mm_counter, include/linux/mm.h 2699: not saved, line numbers in
 *   ../shared/kernel/README.md), read with percpu_counter_read_positive
 *   (get_mm_counter, 2687) or summed (get_mm_counter_sum, 2692), set up
 *   per mm with percpu_counter_init_many (kernel/fork.c 1086) and torn
 *   down after check_mm sums every counter (586) with
 *   percpu_counter_destroy_many (691).
 *
 * The mm's counters here are alone on their lines (the kernel's place in
 * struct mm_struct, among other fields, is not emulated). The task cache
 * is the calling thread's (a task is a thread), in its own stack mapping.
 */
#ifndef MMSCALE_MM_RSS_STAT_H
#define MMSCALE_MM_RSS_STAT_H

#include "mmscale/kernel/atomic.h"
#include "mmscale/linux-6.18/lib/percpu_counter.h"

enum {
	MM_FILEPAGES,	/* Resident file mapping pages */
	MM_ANONPAGES,	/* Resident anonymous pages */
	MM_SWAPENTS,	/* Anonymous swap entries */
	MM_SHMEMPAGES,	/* Resident shared memory pages */
	NR_MM_COUNTERS
};

/* sync counter once per 64 page faults (6.1 mm/memory.c 197-198) */
#define TASK_RSS_EVENTS_THRESH	(64)

/* 6.1: the mm's counters, and each task's cache. */
struct mm_rss_stat {
	atomic_long_t count[NR_MM_COUNTERS];
};

/* per-thread cached information, */
struct task_rss_stat {
	int events;	/* for synchronization threshold */
	int count[NR_MM_COUNTERS];
};

struct mm_struct_6_1 {
	struct mm_rss_stat rss_stat ____cacheline_aligned;
};

struct mm_struct_6_18 {
	struct percpu_counter rss_stat[NR_MM_COUNTERS] ____cacheline_aligned;
};

/* current: the calling thread's task (its mm and, for 6.1, its cache). */
struct task_rss_6_1 {
	struct mm_struct_6_1 *mm;
	struct task_rss_stat rss_stat;
};
extern _Thread_local struct task_rss_6_1 current_rss_6_1;

/* 6.1 */
unsigned long get_mm_counter_6_1(struct mm_struct_6_1 *mm, int member);
void add_mm_counter_6_1(struct mm_struct_6_1 *mm, int member, long value);
void sync_mm_rss_6_1(struct mm_struct_6_1 *mm);
/* The fault path: handle_mm_fault's check_sync_rss_stat(current), then inc_mm_counter_fast. */
void check_sync_rss_stat_6_1(struct task_rss_6_1 *task);
void add_mm_counter_fast_6_1(struct mm_struct_6_1 *mm, int member, int val);
/* mm_init's memset of the counters, and check_mm's reads (6.1 kernel/fork.c 768-790, 1152). */
void mm_init_rss_6_1(struct mm_struct_6_1 *mm);
long check_mm_6_1(struct mm_struct_6_1 *mm);

/* 6.18 */
unsigned long get_mm_counter_6_18(struct mm_struct_6_18 *mm, int member);
unsigned long get_mm_counter_sum_6_18(struct mm_struct_6_18 *mm, int member);
void add_mm_counter_6_18(struct mm_struct_6_18 *mm, int member, long value);
/* mm_init's percpu_counter_init_many; -1 when the per-CPU units are full. */
int mm_init_rss_6_18(struct mm_struct_6_18 *mm);
/* __mmdrop: check_mm's sums, then percpu_counter_destroy_many; the sum of the counters. */
long mm_free_rss_6_18(struct mm_struct_6_18 *mm);

#endif /* MMSCALE_MM_RSS_STAT_H */
