/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A C API over Google Benchmark (bench/gbench_shim.cc is the only C++ file
 * in mmscale). Bodies are C:
 *
 *	static void body(struct mmscale_state *st, void *arg)
 *	{
 *		while (mmscale_keep_running_batch(st, 1024))
 *			for (int i = 0; i < 1024; i++)
 *				work();
 *	}
 *
 * keep_running costs one out-of-line call per iteration; for bodies of a
 * few nanoseconds use keep_running_batch (harness/overhead measures both).
 */
#ifndef MMSCALE_GBENCH_H
#define MMSCALE_GBENCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

struct mmscale_state;
struct mmscale_bench;

typedef void (*mmscale_bench_fn)(struct mmscale_state *st, void *arg);

/*
 * Called on each benchmark thread just before GB starts its timer, around
 * pause/resume, and just after the timer stops (also when the body never
 * ran its loop). Used by the harness for PAPI; any may be NULL.
 */
struct mmscale_timing_hooks {
	void (*start)(struct mmscale_state *st);
	void (*pause)(struct mmscale_state *st);
	void (*resume)(struct mmscale_state *st);
	void (*stop)(struct mmscale_state *st);
};

/*
 * Called once per run with the registration's arg: setup on the run's
 * thread 0 before any thread's body starts, teardown on thread 0 after
 * every thread's body has ended (outside the timed region). A non-zero
 * return, with one line in err, makes the run an error (GB's
 * error_occurred and error_message): a failed setup skips the bodies and
 * must have cleaned up after itself; a failed teardown (an accounting check)
 * fails the run it just ended. No limit on how many registrations have them.
 */
typedef int (*mmscale_run_hook)(void *arg, char *err, size_t errlen);

/*
 * Called once per run on thread 0 after the teardown hook, when every
 * thread's body has ended (so what they wrote is visible): writes the
 * run's label into buf ("" for none). One writer, after the threads: a
 * label set from each thread would keep whichever thread finished last.
 */
typedef void (*mmscale_label_hook)(void *arg, char *buf, size_t len);

/*
 * The results' contract for one registration: writes to out the members of
 * a JSON object (without its braces) that say what the registration's runs
 * are ("family": ..., "variant": ..., ...). Called by the results file's
 * writer, on the main thread, after the registration's runs are reported;
 * the shim adds "name", GB's run name without its timing word. JSON
 * results carry the objects as "mmscale_runs", keyed by GB's run_name.
 */
typedef void (*mmscale_describe_hook)(void *arg, FILE *out);

/* Counter flags, as benchmark::Counter's. */
enum {
	MMSCALE_COUNTER_DEFAULT		= 0,
	MMSCALE_COUNTER_RATE		= 1 << 0,	/* divided by seconds */
	MMSCALE_COUNTER_AVG_THREADS	= 1 << 1,	/* divided by thread count */
	MMSCALE_COUNTER_AVG_ITERATIONS	= 1 << 2,	/* divided by iterations */
};

/* Registration (before mmscale_gbench_run). */
struct mmscale_bench *mmscale_bench_register(const char *name, mmscale_bench_fn fn,
					     void *arg);
void mmscale_bench_args(struct mmscale_bench *b, const int64_t *args, int n);
void mmscale_bench_arg_names(struct mmscale_bench *b, const char *const *names, int n);
/* One argument over lo..hi in steps of multiplier (GB's Range; multiplier 0: GB's 8). */
void mmscale_bench_range(struct mmscale_bench *b, int64_t lo, int64_t hi, int multiplier);
/* One argument over lo..hi in steps of step (GB's DenseRange). */
void mmscale_bench_dense_range(struct mmscale_bench *b, int64_t lo, int64_t hi, int step);
void mmscale_bench_threads(struct mmscale_bench *b, int threads);
void mmscale_bench_thread_range(struct mmscale_bench *b, int lo, int hi);
void mmscale_bench_real_time(struct mmscale_bench *b);
void mmscale_bench_manual_time(struct mmscale_bench *b);
void mmscale_bench_min_time(struct mmscale_bench *b, double seconds);
void mmscale_bench_repetitions(struct mmscale_bench *b, int n);
void mmscale_bench_iterations(struct mmscale_bench *b, int64_t n);
void mmscale_bench_timing_hooks(struct mmscale_bench *b, const struct mmscale_timing_hooks *h);
void mmscale_bench_run_hooks(struct mmscale_bench *b, mmscale_run_hook setup,
			     mmscale_run_hook teardown);
void mmscale_bench_label_hook(struct mmscale_bench *b, mmscale_label_hook label);
void mmscale_bench_describe_hook(struct mmscale_bench *b, mmscale_describe_hook describe);

/* In the body. */
bool mmscale_keep_running(struct mmscale_state *st);
bool mmscale_keep_running_batch(struct mmscale_state *st, int64_t n);
int mmscale_thread_index(const struct mmscale_state *st);
int mmscale_threads(const struct mmscale_state *st);
int64_t mmscale_range(const struct mmscale_state *st, int i);
int64_t mmscale_max_iterations(const struct mmscale_state *st);
int64_t mmscale_iterations(const struct mmscale_state *st);
void mmscale_pause_timing(struct mmscale_state *st);
void mmscale_resume_timing(struct mmscale_state *st);
void mmscale_set_iteration_time(struct mmscale_state *st, double seconds);
void mmscale_skip_with_error(struct mmscale_state *st, const char *msg);
bool mmscale_error_occurred(const struct mmscale_state *st);
void mmscale_set_label(struct mmscale_state *st, const char *label);
void mmscale_counter_set(struct mmscale_state *st, const char *name, double value,
			 unsigned int flags);
void *mmscale_state_arg(const struct mmscale_state *st);

/* The run. */
/*
 * Hand argv to Google Benchmark. Returns -1, having printed nothing, if an
 * argument is left that GB did not recognise (*bad set to it).
 */
int mmscale_gbench_initialize(int *argc, char **argv, const char **bad);
void mmscale_gbench_add_context(const char *key, const char *value);
/*
 * A context entry for the JSON results only (the results file, or a JSON
 * display): a console display does not print it (a long value, such as the
 * families' description, would bury the header).
 */
void mmscale_gbench_add_json_context(const char *key, const char *value);
/* What the caller hears during a run; any may be NULL. */
struct mmscale_report_hooks {
	/* GB found benchmarks for the filter: the run goes ahead (before any output). */
	void (*started)(void);
	/* A benchmark run ended in error; once per benchmark name. */
	void (*failed)(const char *name, const char *message);
	/*
	 * Counters to add to a result before it is reported (--project): given
	 * its counters by name, writes at most MMSCALE_ADDED_COUNTERS names and
	 * values, and words for its label ("" for none); returns how many.
	 * Called for every run and for the mean, median and trimmed-mean
	 * aggregates (a dispersion's counters are not counts).
	 */
	int (*add_counters)(const char *const *names, const double *values, size_t nr,
			    const char **added_names, double *added_values, char *label,
			    size_t label_len);
};

#define MMSCALE_ADDED_COUNTERS 8

struct mmscale_gbench_outcome {
	size_t matched;		/* benchmarks the filter selected; 0: GB said so */
	int errored;		/* runs that ended in error */
	int out_ok;		/* 0 if a write of the results file failed */
	char out_error[256];	/* then why */
};

/*
 * Run what the filter selects; returns how many benchmarks matched. The
 * display format is console, json or csv; with out_path every finished
 * benchmark is also written, atomically, as one complete JSON (or CSV,
 * out_format "csv") file, so an interrupted run keeps what finished.
 */
size_t mmscale_gbench_run(const char *display_format, const char *out_path,
			  const char *out_format, const struct mmscale_report_hooks *hooks,
			  struct mmscale_gbench_outcome *outcome);
/* Benchmarks finished so far (read from a signal handler). */
int mmscale_gbench_finished(void);
/*
 * Finished benchmarks the results file on disk holds now, -1 if there is
 * none (a device or FIFO is written at the end; a failed write removes it).
 */
int mmscale_gbench_in_file(void);
/*
 * The benchmark running now, named by its registration (title must live as
 * long as it), for an interrupt message: set by the setup hook, cleared when
 * the benchmark's results are reported. mmscale_gbench_running returns it
 * (NULL between benchmarks) and whether any benchmark has started yet; both
 * are safe in a signal handler.
 */
void mmscale_gbench_set_running(const char *title);
const char *mmscale_gbench_running(bool *started);
void mmscale_gbench_shutdown(void);

/*
 * The seeds' statistics: drop the fastest and the slowest run, mean and
 * sample standard deviation of the rest. With fewer than three runs nothing
 * is dropped. Registered on every benchmark as trimmed_mean and
 * trimmed_stddev beside GB's mean, median, stddev and cv.
 */
double mmscale_trimmed_mean(const double *v, size_t n);
double mmscale_trimmed_stddev(const double *v, size_t n);

#ifdef __cplusplus
}
#endif

#endif /* MMSCALE_GBENCH_H */
