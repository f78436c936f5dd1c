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
static void run_setup(void *arg) { (void)arg; setups++; }
static void run_teardown(void *arg) { (void)arg; teardowns++; }

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
	CHECK(mmscale_bench_run_hooks(b, run_setup, run_teardown) == 0);
	b = mmscale_bench_register("shim/skipped", skipped, NULL);
	mmscale_bench_iterations(b, 1);

	mmscale_gbench_add_context("shim_test_context", "present");
	CHECK_EQ_LL(mmscale_gbench_run("console", path, "json", &out_ok), 3);
	CHECK(out_ok);
	CHECK_EQ_LL(mmscale_gbench_finished(), 0);	/* no run in progress now */
	mmscale_gbench_shutdown();

	CHECK_EQ_LL(arg_seen, 7);
	/* Hooks: one start and one stop per thread per run; one pause/resume each. */
	CHECK(bodies > 0);
	CHECK_EQ_LL(starts, bodies);
	CHECK_EQ_LL(stops, bodies);
	CHECK_EQ_LL(pauses, resumes);
	CHECK(setups > 0 && setups == teardowns);

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
	free(json);
	return check_report("test_shim");
}
