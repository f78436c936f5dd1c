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
 * To add a variant: write its function (or ops) in a file of its own and
 * add one row to its family's variant list - for the kernel-copy families
 * (bdp, drain) the X-macro list in counters/bdp_variants.h or
 * drain/drain_variants.h, which also declares the symbol, so its type is
 * checked where it is defined; for the small in-file families (vmstat,
 * percpu, harness) the typed array beside the case. CMake finds the file by
 * its name (docs/adding-a-variant.md). To add a case: one row in a
 * module's case table. To add a module: one line in cases/registry.c.
 */
#ifndef MMSCALE_CASE_H
#define MMSCALE_CASE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gbench.h"
#include "mmscale/mm/config.h"
#include "mmscale/opcount.h"

/*
 * The generic part of a variant, what the harness reads. Each family's row
 * type embeds it as a member named v beside its typed implementation (a
 * function of the family's type, an ops struct, an enum) and, where the
 * variant makes exact counts, its claim; a body gets its row back with
 * container_of(run->v, struct <family>_variant, v).
 */
struct mmscale_plan;		/* mmscale/topology.h */

struct mmscale_variant {
	const char *name;	/* "2.6.31-rc8", "spin", ... */
	const char *summary;	/* one line */
	const char *source;	/* kernel version, commit or seed it mirrors */
};

/* A case's variant table: .variants/.variant_size/.nr_variants from an array of typed rows. */
#define MMSCALE_VARIANT_ROWS(rows)					\
	.variants = &(rows)[0].v,					\
	.variant_size = sizeof((rows)[0]),				\
	.nr_variants = sizeof(rows) / sizeof((rows)[0])

/*
 * The exact counts one operation of a run makes, as its variant's row
 * claims them: which has a MMSCALE_COUNT_BIT() for each count claimed.
 */
struct mmscale_claim {
	unsigned int which;
	uint64_t v[MMSCALE_NR_COUNTS];
};

enum mmscale_threads_kind {
	MMSCALE_THREADS_ONE,	/* one thread */
	MMSCALE_THREADS_PAIR,	/* CPU 0 measured; CPU 1 a partner its setup starts */
	MMSCALE_THREADS_SWEEP,	/* --threads, or 1, 2, 4, ... up to the plan */
};

/*
 * A figure a case reports, as the tables scripts draw from its results show
 * it: name is the figure's name in the results ("time": the real time per
 * iteration), label says what it is (and which way is better), exact marks
 * a count that comes out the same on any machine. A case's metrics list the
 * tables scripts/quick_tables.py prints for it, in order; --list=json and
 * the results' context (mmscale_families) carry them to the scripts.
 */
struct mmscale_metric {
	const char *name;
	const char *label;
	bool exact;
};

#define MMSCALE_METRICS(arr)						\
	.metrics = (arr), .nr_metrics = sizeof(arr) / sizeof((arr)[0])

#define MMSCALE_MAX_ARGS 4

/*
 * Which emulated CPUs a run keeps busy and which are online during it: one
 * decision per case, made by the harness (mmscale_run_prepare).
 */
enum mmscale_cpus {
	/* Its GB threads and partner CPUs busy; every CPU of the plan online. */
	MMSCALE_CPUS_THREADS = 0,
	/*
	 * The same busy CPUs, and only those online: a drain or an IPI walks
	 * the online CPUs, and each one is a partner answering cross-CPU calls.
	 */
	MMSCALE_CPUS_THREADS_ONLINE,
	/*
	 * args[0] is a CPU count: that many busy and online. Rows beyond the
	 * plan, or not above the thread count, are not registered.
	 */
	MMSCALE_CPUS_ARG0_ONLINE,
	/* Every CPU of the plan busy and online (those without a thread as partners). */
	MMSCALE_CPUS_WHOLE_PLAN,
};

/*
 * The CPU counts a MMSCALE_CPUS_ARG0_ONLINE case sweeps, as its rows'
 * args[0]: static const int64_t rows[][MMSCALE_MAX_ARGS] = {
 * MMSCALE_CPU_COUNT_ROWS }; (rows beyond the plan are not registered).
 */
#define MMSCALE_CPU_COUNT_ROWS						\
	{ 2 }, { 4 }, { 8 }, { 16 }, { 32 }, { 64 }, { 128 }, { 256 }, { 512 }, { 1024 }, \
	{ 2048 }, { 4096 }

/* A case's argument rows and their names (one name per column). */
#define MMSCALE_ARGS(rows, names)					\
	.args = (rows), .nr_args_rows = sizeof(rows) / sizeof((rows)[0]),	\
	.nr_args = (int)(sizeof(names) / sizeof((names)[0])), .arg_names = (names)


struct mmscale_case;

/* What a body is given: its case and variant, and its run's shared data. */
struct mmscale_run {
	const struct mmscale_case *c;
	const struct mmscale_variant *v;
	void *data;		/* set by the case's setup, for all its threads */
	int64_t args[MMSCALE_MAX_ARGS];	/* this registration's argument row */
	int nr_threads;		/* GB threads of this registration */
	/*
	 * Decided once, by the harness (mmscale_run_prepare), before setup:
	 * the emulated CPUs the run keeps busy (its threads and partners,
	 * args[0] for a CPU-count case, the whole plan for a whole-machine
	 * one), and the CPUs online during it (enum mmscale_cpus). The
	 * harness sets the machine's online CPUs to nr_online around setup,
	 * body and teardown.
	 */
	int nr_cpus_used;
	int nr_online;
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
	 * Optional: the first n argument rows are the ones tests/test_claims.c
	 * checks (0: every row), for a case whose claim is a formula linear in
	 * its argument (rss/oom_scan's processes), so that its larger rows
	 * cost the test suite set-up time and prove nothing the smaller do not.
	 */
	size_t claim_args_rows;
	/*
	 * Emulated CPUs the case runs besides its GB threads (writers,
	 * flushers): thread counts are capped so that they fit in the plan.
	 */
	int partner_cpus;
	/* Which CPUs its runs keep busy and which are online (enum mmscale_cpus). */
	enum mmscale_cpus cpus;
	/*
	 * Optional: false, with why, where this machine cannot run the case
	 * at all (a kernel feature it lacks): not registered, said in one note.
	 */
	bool (*available)(char *why, size_t whylen);
	/*
	 * Optional: false, with why, where this plan cannot run an argument
	 * row (drain/full's clocked victims need a PU each): that row not
	 * registered, said in one note.
	 */
	bool (*args_available)(const struct mmscale_plan *p, const int64_t *args, char *why,
			       size_t whylen);
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
	/*
	 * The counts a run publishes: false, each GB thread's own (averaged by
	 * GB); true, what the whole emulated machine did (IPI targets' locks
	 * and calls included) from the start of thread 0's timed loop until
	 * every thread of the run has left its body, published by thread 0
	 * only. The harness opens and closes that window; a body never does.
	 * Such a body must not return while another thread of its run may
	 * still send it a cross-CPU call (its threads leave together).
	 */
	bool counts_machine_wide;
	/*
	 * Optional, with counts_machine_wide: figures derived from the
	 * window's counts (per drain, ...), set on thread 0 once the window
	 * has closed, unless the run failed.
	 */
	void (*machine_figures)(struct mmscale_state *st, struct mmscale_run *run,
				const struct mmscale_counts *machine);
	/*
	 * The case runs a model in virtual time (throttle/): its figures are
	 * the model's counters; its time is what simulating took, not a
	 * measurement of the kernel, and the comparison tables leave it out.
	 */
	bool virtual_time;
	/*
	 * Optional, with one_op (MMSCALE_CLAIM sets both): what the variant's
	 * row claims one operation of this run costs in exact counts (false:
	 * no claim for this run, e.g. more threads than the claim covers).
	 * Every run checks it after the body (machine-wide or per thread, as
	 * the counts are published): a count that differs fails the run.
	 * tests/test_claims.c walks every row of every case with one_op on a
	 * small machine.
	 */
	bool (*claim)(const struct mmscale_run *run, struct mmscale_claim *out);
	/* Optional, with claim: one operation of the body, on the calling (set up) CPU, outside GB. */
	void (*one_op)(struct mmscale_run *run);
	/*
	 * Optional, instead of claim, with one_op (MMSCALE_CLAIM_OPS): where
	 * an operation's counts depend on the ones before it (a per-CPU delta
	 * folds once every so many updates, as its --set knob says): what
	 * nr_ops consecutive one_op calls right after setup cost in exact
	 * counts. tests/test_claims.c checks it for several nr_ops at every
	 * knob value it tries; runs do not (their vmstat work folds by time).
	 */
	bool (*claim_ops)(const struct mmscale_run *run, uint64_t nr_ops,
			  struct mmscale_claim *out);
	/* Optional: the tables of its variants (MMSCALE_METRICS); none: no variant table. */
	const struct mmscale_metric *metrics;
	size_t nr_metrics;
	const struct mmscale_variant *variants;	/* NULL: no variants (MMSCALE_VARIANT_ROWS) */
	size_t variant_size;			/* sizeof one typed row */
	size_t nr_variants;
};

/* A case's claim and the one operation it claims for (they go together). */
#define MMSCALE_CLAIM(claim_fn, one_op_fn)				\
	.claim = (claim_fn), .one_op = (one_op_fn)
/* A claim for nr_ops operations in a row, and the one operation. */
#define MMSCALE_CLAIM_OPS(claim_ops_fn, one_op_fn)			\
	.claim_ops = (claim_ops_fn), .one_op = (one_op_fn)

/* Variant i of case c (its generic part, in its typed row). */
static inline const struct mmscale_variant *mmscale_case_variant(const struct mmscale_case *c,
								  size_t i)
{
	return (const struct mmscale_variant *)(const void *)
		((const char *)c->variants + i * c->variant_size);
}

/*
 * What a --set knob's auto resolves to on the set-up machine (every planned
 * CPU online), by the emulated kernel's own code, for --describe and the
 * results' mmscale_knobs_auto: a case module registers one in its table
 * for each knob whose auto depends on the machine, so the harness names no
 * case function.
 */
struct mmscale_knob_auto {
	enum mm_knob knob;
	void (*resolve)(char *buf, size_t len);
};

struct mmscale_case_table {
	const char *module;
	const struct mmscale_case *cases;
	size_t nr_cases;
	bool test_only;		/* registered and listed only with --test-cases */
	const struct mmscale_knob_auto *knob_autos;	/* NULL: none (MMSCALE_CASE_TABLE_AUTOS) */
	size_t nr_knob_autos;
};

/* In a MMSCALE_CASE_TABLE's place: the table with its knob resolvers. */
#define MMSCALE_CASE_TABLE_AUTOS(mod, arr, autos)					\
	{ .module = (mod), .cases = (arr), .nr_cases = sizeof(arr) / sizeof((arr)[0]),	\
	  .knob_autos = (autos), .nr_knob_autos = sizeof(autos) / sizeof((autos)[0]) }

#define MMSCALE_CASE_TABLE(mod, arr) \
	{ .module = (mod), .cases = (arr), .nr_cases = sizeof(arr) / sizeof((arr)[0]) }

/* Every module's table (cases/registry.c). */
extern const struct mmscale_case_table *const mmscale_case_tables[];
extern const size_t mmscale_nr_case_tables;

#endif /* MMSCALE_CASE_H */
