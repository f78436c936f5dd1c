// SPDX-License-Identifier: GPL-2.0
/*
 * mmscale: runs what the command line says (parsed by bench/cli.c: our
 * flags, and the --benchmark_* flags that go on to Google Benchmark). Bad
 * input gets one line on stderr and exit status 2, before anything runs or
 * is written.
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
#include "mmscale/kernel/transfers.h"
#include "mmscale/notice.h"
#include "mmscale/papi.h"
#include "mmscale/params.h"
#include "mmscale/projection.h"
#include "mmscale/topology.h"

/*
 * Thread counts in cpulist syntax, checked against the plan; threads has
 * room for one count per CPU of the plan (at most NR_CPUS).
 */
static int parse_threads(const struct mmscale_cli *o, const struct mmscale_plan *plan,
			 int *threads, int *nr)
{
	char err[256];
	hwloc_bitmap_t set;
	int t;

	if (!o->threads) {
		*nr = mmscale_default_threads(plan, threads, plan->nr_cpus);
		return 0;
	}
	if (strcmp(o->threads, "auto") == 0) {
		*nr = mmscale_plan_boundary_threads(plan, threads, plan->nr_cpus);
		return 0;
	}
	set = mmscale_parse_cpulist(o->threads, err, sizeof(err));
	if (!set)
		return mmscale_usage_error("--threads: '%s' is not auto or a list of thread counts "
				   "(example: 1,2,4 or 1-8)", o->threads);
	*nr = 0;
	if (hwloc_bitmap_isset(set, 0)) {
		hwloc_bitmap_free(set);
		return mmscale_usage_error("%s", "--threads: a thread count must be at least 1");
	}
	hwloc_bitmap_foreach_begin(t, set) {
		if (t > plan->nr_cpus) {
			hwloc_bitmap_free(set);
			return mmscale_usage_error("--threads: %d threads, but the plan has %d CPUs%s", t,
					   plan->nr_cpus, plan->nr_cpus > plan->nr_pus_used ? "" :
					   "; --oversubscribe=K plans K on each PU");
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

static void say_number(int n)
{
	char num[16];
	int i = sizeof(num) - 1;

	num[i] = '\0';
	do {
		num[--i] = (char)('0' + n % 10);
		n /= 10;
	} while (n && i > 0);
	say(num + i);
}

static void on_interrupt(int sig)
{
	const char *results = atomic_load(&interrupt_results);
	bool started;
	const char *running = mmscale_gbench_running(&started);

	say(sig == SIGINT ? "mmscale: interrupted (SIGINT) " : "mmscale: terminated (SIGTERM) ");
	if (running) {
		say("during ");
		say(running);
		say(", which is discarded; ");
	} else if (started) {
		say("between benchmarks, nothing discarded; ");
	} else {
		say("during start-up, before any benchmark ran; ");
	}
	if (results && mmscale_gbench_in_file() >= 0) {
		say_number(mmscale_gbench_in_file());
		say(" finished benchmarks are in ");
		say(results);
	} else if (results) {
		say_number(mmscale_gbench_finished());
		say(" finished benchmarks were printed; ");
		say(results);
		say(" holds none of them (a device or FIFO is written at the end; a failed write "
		    "removed it)");
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

/* Failed benchmarks, named again after the run (the display may be long). */
static struct {
	int nr;
	char first[3][512];
} failed_runs;

static void on_failed(const char *name, const char *message)
{
	if (failed_runs.nr < 3)
		snprintf(failed_runs.first[failed_runs.nr], sizeof(failed_runs.first[0]), "%s (%s)",
			 name, message);
	failed_runs.nr++;
}

static void say_failed_runs(void)
{
	fprintf(stderr, "mmscale: %d benchmark%s failed:", failed_runs.nr,
		failed_runs.nr == 1 ? "" : "s");
	for (int i = 0; i < failed_runs.nr && i < 3; i++)
		fprintf(stderr, "%s %s", i ? ";" : "", failed_runs.first[i]);
	fprintf(stderr, "%s\n", failed_runs.nr > 3 ? "; ..." : "");
}

/* --project=FILE: the machine each counting row is priced on (bench/projection.c). */
static struct mmscale_machine_file projection_machine;

static int add_projected_counters(const char *const *names, const double *values, size_t nr,
				  const char **added_names, double *added_values, char *label,
				  size_t label_len)
{
	return mmscale_projection_counters(&projection_machine, names, values, nr, added_names,
					   added_values, label, label_len);
}

/* The results' word on what the projected_* counters are, and what they leave out. */
static void add_projection_context(void)
{
	char text[2048];

	snprintf(text, sizeof(text), "PROJECTED, not measured: %s (docs/projection.md) on %s: %s "
		 "(confidence %s); projected_transfers_ns, projected_ipis_ns, "
		 "projected_targets_queueing_ns and projected_ns_excl_local are one thread's ns "
		 "per op there; left out: the local work and the queueing of a row's own threads "
		 "on its locks, which needs it (a timed run here: scripts/project --local "
		 "--here)", MMSCALE_PROJECTION_MODEL, projection_machine.path,
		 projection_machine.name, projection_machine.confidence);
	mmscale_gbench_add_context("mmscale_projection", text);
}

static int run_benchmarks(const struct mmscale_cli *o, struct mmscale_plan *plan,
			  const int *threads, int nr_threads)
{
	struct mmscale_report_hooks hooks = {
		/* GB found benchmarks: no bad input is left to find, say the notices. */
		.started = mmscale_notices_release,
		.failed = on_failed,
		.add_counters = o->project ? add_projected_counters : NULL,
	};
	struct mmscale_gbench_outcome outcome;
	char err[512];
	int status = 0;

	if (mmscale_harness_register(plan, threads, nr_threads, err, sizeof(err)) != 0) {
		fprintf(stderr, "mmscale: %s\n", err);
		return 1;
	}
	mmscale_harness_add_context(plan, threads, nr_threads);
	mmscale_gbench_add_context("mmscale_command", o->command);
	if (o->project)
		add_projection_context();
	atomic_store(&interrupt_results, o->out);
	install_interrupt_handlers();
	mmscale_gbench_run(o->format, o->out, o->out_format, &hooks, &outcome);
	mmscale_harness_print_transfers(stderr);
	if (outcome.matched == 0) {
		/* GB has said which filter matched nothing: that is the one line. */
		status = MMSCALE_EXIT_USAGE;
	} else {
		if (outcome.errored) {
			say_failed_runs();
			status = 1;
		}
		if (!outcome.out_ok) {
			fprintf(stderr, "mmscale: could not write %s: %s\n", o->out,
				outcome.out_error);
			status = 1;
		}
	}
	return status;
}

/* Everything after the topology is loaded; every exit goes through the cleanup. */
static int run_plan(const struct mmscale_cli *o, struct mmscale_plan *plan)
{
	int *threads = calloc((size_t)plan->nr_cpus, sizeof(*threads));
	int nr_threads = 0, status;
	char err[512];

	if (!threads)
		return mmscale_usage_error("%s", "out of memory");
	status = parse_threads(o, plan, threads, &nr_threads);
	if (status)
		goto out;
	if (o->describe) {
		/* The emulated machine, for what each knob's auto resolves to. */
		if (!o->describe_xml &&
		    mmscale_machine_setup(plan, MMSCALE_SPIN_AUTO, err, sizeof(err)) != 0) {
			fprintf(stderr, "mmscale: %s\n", err);
			status = 1;
			goto out;
		}
		mmscale_notices_release();
		if (o->describe_xml)
			status = mmscale_describe_xml(stdout, plan->topo);
		else if (o->describe_json)
			mmscale_describe_json(stdout, plan, threads, nr_threads);
		else
			mmscale_describe(stdout, plan, threads, nr_threads);
		if (!o->describe_xml)
			mmscale_machine_teardown();
		goto out;
	}
	if ((o->c2c_matrix || o->verify_placement) && mmscale_topology_stand_in(plan->topo)) {
		status = mmscale_usage_error("%s", o->c2c_matrix ?
				     "--c2c-matrix measures this machine: it cannot use a --topology stand-in" :
				     "--verify-placement checks this machine: it cannot use a --topology stand-in");
		goto out;
	}
	if (o->save_machine && mmscale_c2c_save_machine_check(o->save_machine, err, sizeof(err))) {
		status = mmscale_usage_error("%s", err);	/* nothing measured yet */
		goto out;
	}
	if (o->c2c_matrix || o->verify_placement)
		mmscale_notices_release();	/* no bad input can follow: say them first */
	if (mmscale_machine_setup(plan, MMSCALE_SPIN_AUTO, err, sizeof(err)) != 0) {
		fprintf(stderr, "mmscale: %s\n", err);
		status = 1;
		goto out;
	}
	if (o->verify_placement) {
		int bad = mmscale_verify_placement(stdout, err, sizeof(err));

		if (bad < 0)
			fprintf(stderr, "mmscale: %s\n", err);
		status = bad ? 1 : 0;
		goto out_machine;
	}
	if (o->c2c_matrix) {
		if (mmscale_c2c_matrix(plan, o->c2c_matrix_json, stdout, err, sizeof(err)) != 0 ||
		    (o->save_machine &&
		     mmscale_c2c_save_machine(plan, o->save_machine, err, sizeof(err)) != 0)) {
			fprintf(stderr, "mmscale: %s\n", err);
			status = 1;
		}
		goto out_machine;
	}
	/* Notices still wait: PAPI names and the filter are input too. */
	if (mmscale_papi_init(o->papi_events ? o->papi_events : MMSCALE_PAPI_DEFAULT_EVENTS,
			      o->papi_events != NULL, err, sizeof(err)) != 0) {
		status = mmscale_usage_error("%s", err);	/* nothing has run or been written */
		goto out_machine;
	}
	status = run_benchmarks(o, plan, threads, nr_threads);
	mmscale_gbench_shutdown();
	mmscale_harness_release();
	mmscale_papi_shutdown();
out_machine:
	mmscale_machine_teardown();
out:
	free(threads);
	return status;
}

/*
 * --transfers in the timed build: the counting build, mmscale-transfers
 * beside this program (CMakeLists.txt builds both), runs the same command
 * line instead. Returns only if it cannot.
 */
static int exec_counting_build(char **argv)
{
	char self[4096], path[4200];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);

	if (n <= 0)
		return mmscale_usage_error("--transfers: cannot find this program's directory: %s",
					   strerror(errno));
	self[n] = '\0';
	snprintf(path, sizeof(path), "%s/mmscale-transfers", dirname(self));
	if (access(path, X_OK) != 0)
		return mmscale_usage_error("--transfers needs the counting build %s, which is "
					   "not there (scripts/setup builds it; GCC only)", path);
	fflush(NULL);
	execv(path, argv);
	return mmscale_usage_error("--transfers: cannot run %s: %s", path, strerror(errno));
}

static int run(struct mmscale_cli *o)
{
	struct mmscale_topology topo;
	struct mmscale_plan plan;
	struct mmscale_plan_request req;
	enum mmscale_placement placement = MMSCALE_PLACE_COMPACT;
	const char *bad;
	char err[512];
	int status;

	if (o->help) {
		/* The emulation flags go where the \0 splits the text. */
		mmscale_print_help(stdout);
		return 0;
	}
	/*
	 * Every access of the counting build goes through a hook: a cross-CPU
	 * call on an oversubscribed stand-in answers ten times slower, and the
	 * default wait is made to match (--ipi-timeout-ms still sets it).
	 */
	if (mmscale_transfers_counting() && !o->ipi_timeout_given)
		mmscale_params.ipi_timeout_ms = 10 * MMSCALE_DEFAULT_IPI_TIMEOUT_MS;
	if (o->transfer_line) {
		if (strcmp(o->transfer_line, "64") && strcmp(o->transfer_line, "128"))
			return mmscale_usage_error("--transfer-line: '%s' is not 64 or 128",
						   o->transfer_line);
		if (mmscale_transfers_set_line(atoi(o->transfer_line), err, sizeof(err)) != 0)
			return mmscale_usage_error("%s", err);
	}
	if (o->project && mmscale_machine_file_load(o->project, &projection_machine, err,
						     sizeof(err)) != 0)
		return mmscale_usage_error("--project: %s", err);
	if (o->list) {
		if (o->list_json)
			mmscale_list_json(stdout);
		else
			mmscale_list_cases(stdout);
		return 0;
	}
	if (o->placement && mmscale_parse_placement(o->placement, &placement) != 0)
		return mmscale_usage_error("--placement: '%s' is not compact or scatter", o->placement);
	req.sample = MMSCALE_SAMPLE_NONE;
	req.oversubscribe = 1;
	if (o->oversubscribe) {
		char *end;
		long k = strtol(o->oversubscribe, &end, 10);

		if (!*o->oversubscribe || *end || k < 1 || k > 16)
			return mmscale_usage_error("--oversubscribe: '%s' is not 1 to 16",
						   o->oversubscribe);
		req.oversubscribe = (int)k;
	}
	if (o->sample && mmscale_parse_sample(o->sample, &req.sample) != 0)
		return mmscale_usage_error("--sample: '%s' is not core, llc, node or none", o->sample);
	if (mmscale_papi_check_list(o->papi_events ? o->papi_events : MMSCALE_PAPI_DEFAULT_EVENTS,
				    err, sizeof(err)) != 0)
		return mmscale_usage_error("%s", err);
	/* GB validates its own flags; anything it does not know is ours to refuse. */
	if (mmscale_gbench_initialize(&o->gb_argc, o->gb_argv, &bad) != 0)
		return mmscale_usage_error("unknown Google Benchmark flag '%s'", bad);
	if (mmscale_topology_load_widened(&topo, o->topology, o->widen_affinity,
					  err, sizeof(err)) != 0)
		return mmscale_usage_error("%s", err);
	req.placement = placement;
	req.cpus = o->cpus;
	req.nodes = o->nodes;
	if (mmscale_plan_build_request(&plan, &topo, &req, err, sizeof(err)) != 0) {
		mmscale_topology_destroy(&topo);
		return mmscale_usage_error("%s", err);
	}
	status = run_plan(o, &plan);
	mmscale_plan_destroy(&plan);
	mmscale_topology_destroy(&topo);
	return status;
}

/*
 * Standard output is a results file too (a console table, JSON, --describe,
 * --list): a write that failed (a full disk, a closed pipe's reader gone
 * with SIGPIPE ignored) or a failing close is exit 1 and one line, never a
 * silent success. (Google Benchmark writes through std::cout, which shares
 * C's stdout buffer.)
 */
static int close_stdout(int status)
{
	int err = 0;

	/* A write that failed mid-run left only the error flag: its errno is gone. */
	errno = 0;
	if (fflush(stdout) != 0)
		err = errno ? errno : -1;
	if (ferror(stdout) && !err)
		err = -1;
	if (fclose(stdout) != 0 && !err)
		err = errno ? errno : -1;
	if (!err)
		return status;
	fprintf(stderr, "mmscale: could not write standard output: %s%s\n",
		err > 0 ? strerror(err) : "a write failed", status ? "" :
		"; what was printed is incomplete");
	return status ? status : 1;
}

int main(int argc, char **argv)
{
	struct mmscale_cli o = { 0 };
	int status;

	/*
	 * Bad input is one line: notices (a memoryless node, a PAPI event this
	 * machine lacks) wait until no bad input can follow, and are dropped
	 * if some does.
	 */
	mmscale_notices_hold();
	status = mmscale_cli_parse(argc, argv, &o);
	if (!status && o.transfers && !o.help && !mmscale_transfers_counting())
		status = exec_counting_build(argv);
	if (!status)
		status = run(&o);
	if (status == MMSCALE_EXIT_USAGE)
		mmscale_notices_discard();
	else
		mmscale_notices_release();
	mmscale_cli_free(&o);
	return close_stdout(status);
}
