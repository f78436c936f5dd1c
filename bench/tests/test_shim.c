// SPDX-License-Identifier: GPL-2.0
/*
 * The Google Benchmark C shim on its own: a C body registered with
 * arguments, thread counts, repetitions and counters runs, the timing hooks
 * fire once each around the timed region on every thread, and the JSON
 * output carries the counters, the label and the trimmed statistics.
 */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "mmscale/gbench.h"

static _Atomic int starts, stops, pauses, resumes, bodies, setups, teardowns;
static _Atomic long long arg_seen;

static void hook_start(struct mmscale_state *st) { (void)st; starts++; }
static void hook_stop(struct mmscale_state *st) { (void)st; stops++; }
static void hook_pause(struct mmscale_state *st) { (void)st; pauses++; }
static void hook_resume(struct mmscale_state *st) { (void)st; resumes++; }
static int run_setup(void *arg, char *err, size_t len) { (void)arg; (void)err; (void)len; setups++; return 0; }
static int run_teardown(void *arg, char *err, size_t len) { (void)arg; (void)err; (void)len; teardowns++; return 0; }

/* A setup that fails: no body runs; a teardown check that fails: the run is an error. */
static _Atomic int failing_bodies;
static int failing_setup(void *arg, char *err, size_t len) { (void)arg; snprintf(err, len, "setup refused on purpose"); return -1; }
static int failing_teardown(void *arg, char *err, size_t len) { (void)arg; snprintf(err, len, "check failed on purpose"); return -1; }

static void counted_body(struct mmscale_state *st, void *arg)
{
	(void)arg;
	failing_bodies++;
	while (mmscale_keep_running(st))
		;
}

static _Atomic int many_setups, many_bodies;
/*
 * The running benchmark, for an interrupt message: each setup finds none
 * (the one before was reported), names its own, and the body sees it.
 */
static int many_setup(void *arg, char *err, size_t len)
{
	bool started;

	(void)arg;
	(void)err;
	(void)len;
	CHECK(mmscale_gbench_running(&started) == NULL);
	mmscale_gbench_set_running("shim/many");
	many_setups++;
	return 0;
}

static void many_body(struct mmscale_state *st, void *arg)
{
	bool started;
	const char *running = mmscale_gbench_running(&started);

	(void)arg;
	CHECK(running && strcmp(running, "shim/many") == 0 && started);
	many_bodies++;
	while (mmscale_keep_running(st))
		;
}

static _Atomic int started_calls, failed_calls;
static void on_started(void) { started_calls++; }
static void on_failed(const char *name, const char *message) { (void)name; (void)message; failed_calls++; }

static void body(struct mmscale_state *st, void *arg)
{
	long long sum = 0;

	CHECK(arg == (void *)&arg_seen);
	bodies++;
	arg_seen = mmscale_range(st, 0);
	while (mmscale_keep_running_batch(st, 16)) {
		for (int i = 0; i < 16; i++)
			sum += i;
		if (mmscale_iterations(st) == 16) {
			mmscale_pause_timing(st);
			mmscale_resume_timing(st);
		}
	}
	__asm__ __volatile__("" : : "r"(sum));
	/* 3 per iteration, per thread: kAvgIterations gives 3 whatever the threads. */
	mmscale_counter_set(st, "shim_test_ops", 3.0 * (double)mmscale_iterations(st),
			    MMSCALE_COUNTER_AVG_ITERATIONS);
	mmscale_counter_set(st, "shim_test_threads", 1, MMSCALE_COUNTER_DEFAULT);
	mmscale_set_label(st, "shim-label");
}

static void skipped(struct mmscale_state *st, void *arg)
{
	(void)arg;
	mmscale_skip_with_error(st, "skipped on purpose");
	while (mmscale_keep_running(st))
		;
}

int main(int argc, char **argv)
{
	static const struct mmscale_timing_hooks hooks = {
		hook_start, hook_pause, hook_resume, hook_stop,
	};
	char path[] = "/tmp/mmscale-shim-XXXXXX";
	const char *bad = NULL;
	int fd = mkstemp(path);
	char *gb_argv[] = { argv[0], "--benchmark_min_time=0.001", "--benchmark_repetitions=3",
			    NULL };
	int gb_argc = 3;
	int out_ok = 0;
	static const int64_t args[] = { 7 };
	static const char *const names[] = { "k" };
	struct mmscale_bench *b;
	char *json;
	long len;
	FILE *f;

	(void)argc;
	CHECK(fd >= 0);
	close(fd);
	CHECK(mmscale_gbench_initialize(&gb_argc, gb_argv, &bad) == 0);

	b = mmscale_bench_register("shim/test", body, &arg_seen);
	mmscale_bench_args(b, args, 1);
	mmscale_bench_arg_names(b, names, 1);
	mmscale_bench_threads(b, 1);
	mmscale_bench_threads(b, 2);
	mmscale_bench_real_time(b);
	mmscale_bench_timing_hooks(b, &hooks);
	mmscale_bench_run_hooks(b, run_setup, run_teardown);
	b = mmscale_bench_register("shim/skipped", skipped, NULL);
	mmscale_bench_iterations(b, 1);
	b = mmscale_bench_register("shim/setup_fails", counted_body, NULL);
	mmscale_bench_iterations(b, 1);
	mmscale_bench_threads(b, 2);
	mmscale_bench_run_hooks(b, failing_setup, NULL);
	b = mmscale_bench_register("shim/check_fails", counted_body, NULL);
	mmscale_bench_iterations(b, 1);
	mmscale_bench_threads(b, 2);
	mmscale_bench_run_hooks(b, NULL, failing_teardown);
	/* More registrations with run hooks than the old fixed table of 1024 held. */
	for (int i = 0; i < 1100; i++) {
		b = mmscale_bench_register("shim/many", many_body, NULL);
		mmscale_bench_iterations(b, 1);
		mmscale_bench_repetitions(b, 1);
		mmscale_bench_run_hooks(b, many_setup, NULL);
	}

	mmscale_gbench_add_context("shim_test_context", "present");
	{
		static const struct mmscale_report_hooks report = {
			.started = on_started, .failed = on_failed,
		};
		struct mmscale_gbench_outcome outcome;

		CHECK_EQ_LL(mmscale_gbench_run("console", path, "json", &report, &outcome), 1105);
		out_ok = outcome.out_ok;
		/* skipped x3 repetitions, setup_fails x3, check_fails x3 */
		CHECK_EQ_LL(outcome.errored, 9);
	}
	CHECK(out_ok);
	CHECK_EQ_LL(started_calls, 1);
	CHECK_EQ_LL(failed_calls, 3);	/* once per failed benchmark */
	CHECK_EQ_LL(mmscale_gbench_finished(), 0);	/* no run in progress now */
	{
		bool started = false;

		/* Between (and after) benchmarks: nothing running, nothing to discard. */
		CHECK(mmscale_gbench_running(&started) == NULL && started);
	}
	mmscale_gbench_shutdown();

	CHECK_EQ_LL(arg_seen, 7);
	/* Hooks: one start and one stop per thread per run; one pause/resume each. */
	CHECK(bodies > 0);
	CHECK_EQ_LL(starts, bodies);
	CHECK_EQ_LL(stops, bodies);
	CHECK_EQ_LL(pauses, resumes);
	CHECK(setups > 0 && setups == teardowns);
	/* setup_fails ran no body; check_fails ran both threads' bodies. */
	CHECK_EQ_LL(failing_bodies, 2 * 3);
	CHECK_EQ_LL(many_setups, 1100);
	CHECK_EQ_LL(many_bodies, 1100);

	f = fopen(path, "r");
	CHECK(f != NULL);
	if (!f)
		return check_report("test_shim");
	fseek(f, 0, SEEK_END);
	len = ftell(f);
	rewind(f);
	json = calloc(1, (size_t)len + 1);
	CHECK(json && fread(json, 1, (size_t)len, f) == (size_t)len);
	fclose(f);
	unlink(path);
	CHECK(strstr(json, "\"shim_test_context\": \"present\"") != NULL);
	CHECK(strstr(json, "\"name\": \"shim/test/k:7/real_time/threads:2\"") != NULL);
	CHECK(strstr(json, "\"shim_test_ops\": 3.0000000000000000e+00") != NULL);
	CHECK(strstr(json, "\"shim_test_threads\": 2.0000000000000000e+00") != NULL);
	CHECK(strstr(json, "\"label\": \"shim-label\"") != NULL);
	CHECK(strstr(json, "\"aggregate_name\": \"trimmed_mean\"") != NULL);
	CHECK(strstr(json, "\"aggregate_name\": \"trimmed_stddev\"") != NULL);
	CHECK(strstr(json, "\"error_message\": \"skipped on purpose\"") != NULL);
	CHECK(strstr(json, "\"error_message\": \"setup refused on purpose\"") != NULL);
	CHECK(strstr(json, "\"error_message\": \"check failed on purpose\"") != NULL);
	free(json);
	return check_report("test_shim");
}
