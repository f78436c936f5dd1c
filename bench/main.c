// SPDX-License-Identifier: GPL-2.0
/*
 * mmscale: the command line.
 *
 * Our flags are taken out first; --benchmark_* flags go to Google Benchmark.
 * Bad input gets one line on stderr and exit status 2, before anything runs
 * or is written.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <libgen.h>
#include <math.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <hwloc.h>

#include "cli.h"
#include "mmscale/c2c.h"
#include "mmscale/cpu.h"
#include "mmscale/gbench.h"
#include "mmscale/harness.h"
#include "mmscale/notice.h"
#include "mmscale/papi.h"
#include "mmscale/params.h"
#include "mmscale/topology.h"

#define MAX_THREAD_COUNTS 64

static const char usage[] =
"usage: mmscale [Google Benchmark flags] [--topology=SPEC] [--placement=compact|scatter]\n"
"               [--cpus=LIST] [--threads=LIST] [--papi-events=LIST] [emulation flags]\n"
"               [--list | --describe | --c2c-matrix | --verify-placement] [--help]\n"
"\n"
"Emulated Linux memory-management hot paths on pinned threads, one emulated CPU\n"
"per thread, with exact operation counts, PAPI counters where the machine has them,\n"
"and Google Benchmark's statistics plus the seeds' trimmed mean and stddev.\n"
"\n"
"  --topology=SPEC      the machine to plan for: real (default: this machine, from hwloc),\n"
"                       synthetic:STRING (any hwloc synthetic topology, e.g.\n"
"                       'synthetic:node:128 core:8 pu:1') or xml:FILE (an hwloc XML export).\n"
"                       Stand-ins plan placement as on that machine and run on this one's\n"
"                       PUs round-robin: their results are marked not for timing.\n"
"  --placement=P        compact: fill node by node (default); scatter: round-robin nodes\n"
"  --cpus=LIST          use only these PUs (OS numbers, cpulist syntax: 0-3,8-11)\n"
"  --threads=LIST       thread counts for sweep cases (1,2,4 or 1-8; default 1,2,4,...\n"
"                       and all CPUs of the plan, less the CPUs a case's partner threads\n"
"                       use); two-CPU floor cases run CPU 0 measured, CPU 1 as partner\n"
"  --papi-events=LIST   PAPI events counted in the timed region (default\n"
"                       " MMSCALE_PAPI_DEFAULT_EVENTS ";\n"
"                       'none' for none). Events this machine lacks are dropped with a note;\n"
"                       a name PAPI does not know is an error.\n"
"\0"
"  --list               print every case with its variants and exit\n"
"  --describe           print the topology and the placement plan and exit (runs nothing)\n"
"  --c2c-matrix         print the node-by-node cache-line round trip matrix and exit\n"
"                       (real topology only)\n"
"  --verify-placement   check with move_pages where every emulated CPU's per-CPU data and\n"
"                       the global data really are, against the plan (real topology only)\n"
"  --help               this text\n"
"\n"
"Google Benchmark flags: --benchmark_filter=REGEX, --benchmark_min_time=S,\n"
"--benchmark_repetitions=N, --benchmark_format=console|json|csv, --benchmark_out=FILE,\n"
"--benchmark_out_format=..., --benchmark_report_aggregates_only=true, and the rest of\n"
"Google Benchmark's --benchmark_* flags.\n"
"\n"
"Exit status: 0 success, 2 bad input (one line on stderr, nothing run), 1 other failure.\n";

/* Thread counts in cpulist syntax, checked against the plan. */
static int parse_threads(const struct mmscale_cli *o, const struct mmscale_plan *plan,
			 int *threads, int *nr)
{
	char err[256];
	hwloc_bitmap_t set;
	int t;

	if (!o->threads) {
		*nr = mmscale_default_threads(plan, threads, MAX_THREAD_COUNTS);
		return 0;
	}
	set = mmscale_parse_cpulist(o->threads, err, sizeof(err));
	if (!set)
		return usage_error("--threads: '%s' is not a list of thread counts "
				   "(example: 1,2,4 or 1-8)", o->threads);
	*nr = 0;
	if (hwloc_bitmap_isset(set, 0)) {
		hwloc_bitmap_free(set);
		return usage_error("%s", "--threads: a thread count must be at least 1");
	}
	if (hwloc_bitmap_weight(set) > MAX_THREAD_COUNTS) {
		hwloc_bitmap_free(set);
		return usage_error("--threads: '%s' has too many thread counts (at most 64)",
				   o->threads);
	}
	hwloc_bitmap_foreach_begin(t, set) {
		if (t > plan->nr_cpus) {
			hwloc_bitmap_free(set);
			return usage_error("--threads: %d threads, but the plan has %d CPUs%s", t,
					   plan->nr_cpus, mmscale_topology_stand_in(plan->topo) ? "" :
					   "; a --topology stand-in can run more, oversubscribed");
		}
		threads[(*nr)++] = t;
	} hwloc_bitmap_foreach_end();
	hwloc_bitmap_free(set);
	return 0;
}

/*
 * SIGINT or SIGTERM during a run: the results file already holds every
 * finished case (it is rewritten atomically after each), the case that was
 * running is discarded. Say which, and end by that signal (a shell sees
 * status 128 + signal). Only async-signal-safe calls: write and raise.
 */
static const char *_Atomic interrupt_results;

static void say(const char *s)
{
	ssize_t n = write(2, s, strlen(s));

	(void)n;
}

static void on_interrupt(int sig)
{
	char num[16];
	int finished = mmscale_gbench_finished(), i = sizeof(num) - 1;

	num[i] = '\0';
	do {
		num[--i] = (char)('0' + finished % 10);
		finished /= 10;
	} while (finished && i > 0);
	say(sig == SIGINT ? "mmscale: interrupted (SIGINT) during " : "mmscale: terminated (SIGTERM) during ");
	const char *running = atomic_load(&mmscale_running_case);
	const char *results = atomic_load(&interrupt_results);

	say(running ? running : "start-up");
	say(", which is discarded; ");
	if (results) {
		say(num + i);
		say(" finished benchmarks are in ");
		say(results);
	} else {
		say("finished results were only printed (no --benchmark_out)");
	}
	say("\n");
	/*
	 * End by the same signal, as an interrupted Unix program should: the
	 * parent (a shell: status 128 + signal) learns how it ended.
	 */
	raise(sig);	/* SA_RESETHAND and SA_NODEFER: the default action, now */
	_exit(128 + sig);
}

static void install_interrupt_handlers(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_interrupt;
	sa.sa_flags = SA_RESETHAND | SA_NODEFER;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

/* Everything after the topology is loaded; every exit goes through the cleanup. */
static int run_plan(const struct mmscale_cli *o, struct mmscale_plan *plan)
{
	int threads[MAX_THREAD_COUNTS], nr_threads = 0, status;
	char err[512];

	status = parse_threads(o, plan, threads, &nr_threads);
	if (status)
		return status;
	if (o->describe) {
		mmscale_describe(stdout, plan, threads, nr_threads);
		return 0;
	}
	if ((o->c2c_matrix || o->verify_placement) && mmscale_topology_stand_in(plan->topo))
		return usage_error("%s", o->c2c_matrix ?
				   "--c2c-matrix measures this machine: it cannot use a --topology stand-in" :
				   "--verify-placement checks this machine: it cannot use a --topology stand-in");
	if (mmscale_machine_setup(plan, err, sizeof(err)) != 0) {
		fprintf(stderr, "mmscale: %s\n", err);
		return 1;
	}
	if (o->verify_placement) {
		int bad = mmscale_verify_placement(stdout, err, sizeof(err));

		if (bad < 0)
			fprintf(stderr, "mmscale: %s\n", err);
		status = bad ? 1 : 0;
		goto out_machine;
	}
	if (o->c2c_matrix) {
		if (mmscale_c2c_matrix(plan, stdout, err, sizeof(err)) != 0) {
			fprintf(stderr, "mmscale: %s\n", err);
			status = 1;
		}
		goto out_machine;
	}
	if (mmscale_papi_init(o->papi_events ? o->papi_events : MMSCALE_PAPI_DEFAULT_EVENTS,
			      o->papi_events != NULL, err, sizeof(err)) != 0) {
		status = usage_error("%s", err);	/* nothing has run or been written */
		goto out_machine;
	}
	if (mmscale_harness_register(plan, threads, nr_threads, err, sizeof(err)) != 0) {
		fprintf(stderr, "mmscale: %s\n", err);
		status = 1;
	} else {
		int out_ok;

		mmscale_harness_add_context(plan, threads, nr_threads);
		atomic_store(&interrupt_results, o->out);
		install_interrupt_handlers();
		/* Zero matched: GB has already said which filter matched nothing. */
		if (mmscale_gbench_run(o->format, o->out, o->out_format, &out_ok) == 0)
			status = MMSCALE_EXIT_USAGE;
		else if (!out_ok) {
			fprintf(stderr, "mmscale: could not write %s\n", o->out);
			status = 1;
		}
	}
	mmscale_gbench_shutdown();
	mmscale_papi_shutdown();
out_machine:
	mmscale_machine_teardown();
	return status;
}

static int run(struct mmscale_cli *o)
{
	struct mmscale_topology topo;
	struct mmscale_plan plan;
	enum mmscale_placement placement = MMSCALE_PLACE_COMPACT;
	const char *bad;
	char err[512];
	int status;

	if (o->help) {
		/* The emulation flags go where the \0 splits the text. */
		fputs(usage, stdout);
		fputs(mmscale_params_help, stdout);
		fputs(usage + strlen(usage) + 1, stdout);
		return 0;
	}
	if (o->list) {
		mmscale_list_cases(stdout);
		return 0;
	}
	if (o->placement && mmscale_parse_placement(o->placement, &placement) != 0)
		return usage_error("--placement: '%s' is not compact or scatter", o->placement);
	if (mmscale_papi_check_list(o->papi_events ? o->papi_events : MMSCALE_PAPI_DEFAULT_EVENTS,
				    err, sizeof(err)) != 0)
		return usage_error("%s", err);
	/* GB validates its own flags; anything it does not know is ours to refuse. */
	if (mmscale_gbench_initialize(&o->gb_argc, o->gb_argv, &bad) != 0)
		return usage_error("unknown Google Benchmark flag '%s'", bad);
	if (mmscale_topology_load(&topo, o->topology, err, sizeof(err)) != 0)
		return usage_error("%s", err);
	if (mmscale_plan_build(&plan, &topo, placement, o->cpus, err, sizeof(err)) != 0) {
		mmscale_topology_destroy(&topo);
		return usage_error("%s", err);
	}
	status = run_plan(o, &plan);
	mmscale_plan_destroy(&plan);
	mmscale_topology_destroy(&topo);
	return status;
}

int main(int argc, char **argv)
{
	struct mmscale_cli o = { 0 };
	int status = mmscale_cli_parse(argc, argv, &o);

	if (!status)
		status = run(&o);
	mmscale_cli_free(&o);
	return status;
}
