/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the counter modules' cases share (cases/counters.c: vmstat/ and
 * percpu/; cases/writeback.c: bdp/, bdp_throttled/ and dirty/):
 * a run's data, its setup and teardown, the metrics and counts they name.
 * Every run builds a fresh emulated memory (mm_machine_setup_config) and,
 * at its end, folds every CPU's deltas and checks the accounting.
 */
#ifndef MMSCALE_COUNTERS_CASES_H
#define MMSCALE_COUNTERS_CASES_H

#include "mmscale/case.h"
#include "mmscale/cpu.h"
#include "mmscale/linux-2.6/mm/writeback.h"

struct counters_run {
	struct writeback_world *world;
	struct percpu_counter fbc;
	struct mmscale_partner writer;
	_Atomic bool stop;
	int nr_threads;
	bool iol;		/* the IO-less kernels' state (iol_bdp_setup) */
	bool numa_stat_4_14;	/* 4.14's NUMA statistics (mmscale/mm/numa_stat.h) */
	_Atomic uint64_t numa_allocs;	/* vmstat/numa_stat: local allocations made, for its check */
	bool vmstat_6_18;	/* the 6.18 vmstat world too (cases/counters_6_18.h) */
	bool wb_6_18;		/* 6.18's writeback state on it (counters/wb_machine-6.18.h) */
	bool memcg_6_18;	/* 6.18's memcg hierarchy on it (linux-6.18/mm/memcontrol.h) */
	unsigned long claim_bdi_thresh;	/* bdp/: the row's claim_bdi_thresh, at setup */
};

/* The emulated memory for a run, from the flags; the run's data. */
int counters_setup(struct mmscale_run *run, int nr_threads, char *err, size_t errlen);
/* The same, the global vm_stat[] numbered as the run's kernel has it (3.x: 3.2's). */
int counters_setup_numbered(struct mmscale_run *run, enum mm_vm_stat_numbering numbering,
			    char *err, size_t errlen);
/*
 * Fold every CPU's deltas (no thread runs now), check the accounting and
 * free the run; a failed check fails the run it ends (-1, why in err).
 */
int counters_teardown(struct mmscale_run *run, char *err, size_t errlen);
/* A setup that failed half-way: undo it, keep the setup's reason. */
int counters_setup_failed(struct mmscale_run *run);

/* The figures the families' tables show (scripts/quick_tables.py). */
#define METRIC_TIME		{ "time", "ns per operation (lower is better)", false }
#define METRIC_GLOBAL_READS	{ "global_reads", "global_page_state calls per operation (exact)", true }
#define METRIC_BDI_READS	{ "bdi_reads", "bdi_stat reads per operation (exact)", true }


#define COUNTS_VMSTAT (MMSCALE_COUNT_BIT(MMSCALE_GLOBAL_READS) | MMSCALE_COUNT_BIT(MMSCALE_FOLDS))
#define COUNTS_BDP (COUNTS_VMSTAT | MMSCALE_COUNT_BIT(MMSCALE_BDI_READS) |	\
		    MMSCALE_COUNT_BIT(MMSCALE_PERCPU_SUM_SLOTS) |		\
		    MMSCALE_COUNT_BIT(MMSCALE_LOCK_ACQUIRES) |			\
		    MMSCALE_COUNT_BIT(MMSCALE_BDI_STORES))

#define COUNTS_PERCPU (MMSCALE_COUNT_BIT(MMSCALE_BDI_READS) |			\
		       MMSCALE_COUNT_BIT(MMSCALE_PERCPU_SUM_SLOTS) |		\
		       MMSCALE_COUNT_BIT(MMSCALE_LOCK_ACQUIRES))

/* A counters case: its setup, body and counts; every one sweeps threads and tears down alike. */
#define COUNTERS_RUN(setup_fn, body_fn, which)					\
	.setup = (setup_fn), .body = (body_fn), .counts = (which),		\
	.threads = MMSCALE_THREADS_SWEEP, .teardown = counters_teardown

#endif /* MMSCALE_COUNTERS_CASES_H */
