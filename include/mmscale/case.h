/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Benchmark cases and their variants are table entries.
 *
 * A case is one C body that does the work and counts it; it never learns
 * how it is being run. The harness (bench/harness.c) registers every case
 * and every variant with Google Benchmark, binds each thread to its planned
 * PU and makes it an emulated CPU, zeroes and publishes the operation
 * counts, and runs PAPI around the timed region.
 *
 * To add a variant: copy one function and add one row to its case's
 * variant table. To add a case: one row in a module's case table. To add a
 * module: one line in bench/registry.c.
 */
#ifndef MMSCALE_CASE_H
#define MMSCALE_CASE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gbench.h"
#include "opcount.h"

struct mmscale_variant {
	const char *name;	/* "2.6.31-rc8", "spin", ... */
	const char *summary;	/* one line */
	const char *source;	/* kernel version, commit or seed it mirrors */
	const void *impl;	/* the variant's function; its case knows the type */
};

enum mmscale_threads_kind {
	MMSCALE_THREADS_ONE,	/* one thread */
	MMSCALE_THREADS_PAIR,	/* CPU 0 measured; CPU 1 a partner its setup starts */
	MMSCALE_THREADS_SWEEP,	/* --threads, or 1, 2, 4, ... up to the plan */
};

#define MMSCALE_MAX_ARGS 4

struct mmscale_case;

/* What a body is given: its case and variant, and its run's shared data. */
struct mmscale_run {
	const struct mmscale_case *c;
	const struct mmscale_variant *v;
	void *data;		/* set by the case's setup, for all its threads */
	int64_t args[MMSCALE_MAX_ARGS];	/* this registration's argument row */
	int nr_threads;		/* GB threads of this registration */
};

struct mmscale_case {
	const char *name;	/* "c2c/pingpong"; variants are name/variant */
	const char *summary;
	void (*body)(struct mmscale_state *st, struct mmscale_run *run);
	enum mmscale_threads_kind threads;
	unsigned int counts;	/* MMSCALE_COUNT_BIT()s reported per iteration */
	bool manual_time;	/* the body reports its own time */
	/* Argument rows, each registered on its own (GB's Args), and their names. */
	const int64_t (*args)[MMSCALE_MAX_ARGS];
	size_t nr_args_rows;
	int nr_args;
	const char *const *arg_names;
	/*
	 * Emulated CPUs the case runs besides its GB threads (writers,
	 * flushers): thread counts are capped so that they fit in the plan.
	 */
	int partner_cpus;
	/* args[0] is a CPU count: rows beyond the plan are not registered. */
	bool arg0_cpus;
	/* Every CPU of the plan takes part (the rest as partners). */
	bool uses_all_cpus;
	/*
	 * Optional: false, with why, where this machine cannot run the case
	 * at all (a kernel feature it lacks): not registered, said in one note.
	 */
	bool (*available)(char *why, size_t whylen);
	/* Optional: a fixed iteration count per thread (one pass of a workload). */
	int64_t (*iterations)(const struct mmscale_run *run);
	/*
	 * Optional, once around every run (all threads' data), outside the
	 * timed region. setup returns -1 with the reason in err (without the
	 * case name), having undone what it did; teardown always frees, and
	 * returns -1 with the reason in err when a check of the run failed
	 * (accounting, page conservation): that run is then reported as an
	 * error and mmscale exits 1.
	 */
	int (*setup)(struct mmscale_run *run, int nr_threads, char *err, size_t errlen);
	int (*teardown)(struct mmscale_run *run, char *err, size_t errlen);
	const struct mmscale_variant *variants;	/* NULL: no variants */
	size_t nr_variants;
};

struct mmscale_case_table {
	const char *module;
	const struct mmscale_case *cases;
	size_t nr_cases;
	bool test_only;		/* registered and listed only with --test-cases */
};

#define MMSCALE_CASE_TABLE(mod, arr) \
	{ .module = (mod), .cases = (arr), .nr_cases = sizeof(arr) / sizeof((arr)[0]) }

/* Every module's table (bench/registry.c). */
extern const struct mmscale_case_table *const mmscale_case_tables[];
extern const size_t mmscale_nr_case_tables;

#endif /* MMSCALE_CASE_H */
