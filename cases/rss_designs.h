/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The rss counter designs the rss/ cases compare (cases/rss_designs.c): a
 * design is its emulated mm and the mm operations the cases time, its
 * error bound and the exact counts it claims. The kernel code each calls
 * is in kernel/linux-6.18/mm/rss_stat*.c (its header says which kernel or
 * posting); a new design is one struct rss_design here and a row in each
 * table of cases/rss.c.
 */
#ifndef MMSCALE_CASES_RSS_DESIGNS_H
#define MMSCALE_CASES_RSS_DESIGNS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mmscale/case.h"

struct rss_design {
	/* The emulated mm's size (its counters; the tree's items too). */
	size_t (*mm_size)(void);
	/* The machine-wide set-up once per run (the kernel does it at boot); -1 with err. */
	int (*boot)(char *err, size_t errlen);
	/* Undoes boot at the run's end, or NULL. */
	void (*halt)(void);
	/* mm_init's part (fork), on the parent's CPU: -1 when the per-CPU units are full. */
	int (*mm_init)(void *mm);
	/* __mmdrop's part (exit): check_mm's reads and the teardown; the counters' sum. */
	long (*mm_free)(void *mm);
	/* One anonymous fault's accounting (inc_mm_counter(MM_ANONPAGES) or _fast). */
	void (*fault)(void *mm);
	/* add_mm_counter(MM_ANONPAGES, pages) in one add: zap_pte_range's add_mm_rss_vec (pages < 0). */
	void (*add)(void *mm, long pages);
	/* copy_mm with CLONE_VM: a second task shares the mm (-1: units full), or NULL. */
	int (*clone_vm)(void *mm);
	/*
	 * A task of the process starts on this CPU, or comes to it (context_switch:
	 * the per-CPU cache's switch; 6.1's task cache once), and ends; or NULL.
	 */
	void (*task_enter)(void *mm);
	void (*task_exit)(void *mm);
	/* get_mm_counter and get_mm_counter_sum (NULL: the design has none). */
	unsigned long (*read)(void *mm, int member);
	unsigned long (*sum)(void *mm, int member);
	/* How far from the true count get_mm_counter can be, settled (pages), with nr_threads tasks. */
	unsigned long (*error_bound)(void *mm, unsigned int nr_threads);
	/* The exact counts of nr_ops faults on one CPU from a fresh mm. */
	void (*fault_claim)(uint64_t nr_ops, struct mmscale_claim *out);
	/* One get_mm_counter (sum false) or get_mm_counter_sum, uncontended, of an mm of tasks tasks. */
	void (*read_claim)(bool sum, unsigned int tasks, struct mmscale_claim *out);
	/* One mm's fork and exit, with a second thread cloned in between or not. */
	void (*fork_exit_claim)(bool second_thread, struct mmscale_claim *out);
};

/*
 * The drift walk (rss/drift): Desnoyers' test, emulated with one task of
 * the mm that migrates over the online CPUs (machine_task_migrate) and at
 * each stop faults (5 times in 8) or unmaps a burst of 1 to 64 pages,
 * then reads
 * get_mm_counter. The task's true count is known exactly (true_pages);
 * worst is the largest |get_mm_counter - true_pages| seen. The schedule
 * is a fixed function of the seed and the CPUs online: the same walk,
 * the same worst, on any machine.
 */
struct rss_drift {
	uint64_t seed;		/* xorshift64 state: nonzero */
	long true_pages;	/* the pages the task holds */
	long true_max;		/* the most it held at a stop */
	unsigned long worst;	/* pages */
	unsigned long steps;	/* stops made */
};

void rss_drift_walk(const struct rss_design *d, void *mm, struct rss_drift *dr,
		    unsigned long steps);
/* 0, or -1 with one line in err when the walk saw an error beyond bound (pages). */
int rss_drift_check(const char *row, const struct rss_drift *dr, unsigned long bound,
		    char *err, size_t errlen);

/*
 * rss/oom_scan's processes and scan: process i holds rss_oom_pages(i) =
 * OOM_BASE_PAGES + OOM_STEP_PAGES x i + OOM_SPREAD_CPUS pages, mapped in one
 * add on the calling CPU, then one fault on each of OOM_SPREAD_CPUS CPUs
 * (a task that ran there; 6.1's task cache synced after, as the emulation
 * has one per thread). select_bad_process over n: oom_badness's points
 * (get_mm_rss and the swap entries: the four counters), each read with
 * get_mm_counter, or with the precise sum (sums: 5898aa8f9a0b); the
 * highest wins, the first of equals staying chosen. Returns its index.
 */
#define OOM_BASE_PAGES	1000
#define OOM_STEP_PAGES	7
#define OOM_SPREAD_CPUS	64

long rss_oom_pages(int i);
void rss_oom_populate(const struct rss_design *d, void *mm, int i);
int rss_oom_select(const struct rss_design *d, void *const *mms, int n, bool sums);

extern const struct rss_design rss_design_6_1, rss_design_6_18, rss_design_pernuma,
	rss_design_tree, rss_design_lazy, rss_design_pcpcache;

#endif /* MMSCALE_CASES_RSS_DESIGNS_H */
