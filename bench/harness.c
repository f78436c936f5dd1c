// SPDX-License-Identifier: GPL-2.0
/*
 * The harness: one trampoline serves every case. It binds the thread to its
 * planned PU (it becomes emulated CPU thread_index), zeroes the operation
 * counts, runs PAPI around the timed region, calls the body, and publishes
 * the counts (its own, or the machine-wide window a case marks) and PAPI
 * values once, at the end, as per-iteration counters, after checking them
 * against the variant row's claim where the case has one.
 */
#define _GNU_SOURCE
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "mmscale/cpu.h"
#include "mmscale/harness.h"
#include "mmscale/json.h"
#include "mmscale/kernel/cpumask.h"
#include "mmscale/kernel/machine.h"
#include "mmscale/kernel/processor.h"
#include "mmscale/kernel/transfers.h"
#include "mmscale/notice.h"
#include "mmscale/papi.h"
#include "mmscale/params.h"
#include "mmscale/topology.h"
#include "mmscale/transfers_report.h"
#include "mmscale/witness.h"
#include "mmscale_build.h"

struct registration {
	struct mmscale_run run;		/* first: the body gets &reg->run */
	char title[256];		/* "case/variant (threads N)" for interrupt messages */
	const struct mmscale_plan *plan;
	int nr_threads;
	atomic_bool migrated;
	/*
	 * --claims=report: the first difference from the row's claim that a
	 * thread of the run found (claim_found orders the one writer), said
	 * in the run's label instead of failing it, and once on stderr.
	 */
	atomic_flag claim_found;
	char claim_differs[512];
	bool claim_noticed;
	/* A counts_machine_wide run's threads meet at its window's close (window_close). */
	_Atomic int window_arrived;
	_Atomic unsigned int window_generation;
	/*
	 * The knobs the emulated kernel ran the last run with: what the case
	 * left in mm_config() by the end of its run (every knob is auto before
	 * its setup), for the results' mmscale_runs. ran_knobs_known: a run
	 * got that far (not one whose setup failed).
	 */
	long long ran_knobs[MM_NR_KNOBS];
	bool ran_knobs_known;
	/* A counting run's (mmscale --transfers) hottest lines and pairs, its last run's. */
	struct mmscale_xfer_report *xfer;
	struct registration *next;	/* every registration, to free them at the end */
};

static struct registration *registrations;

/* What the kernel runs a case with until its setup passes the run's knobs on. */
static const struct mm_machine_config all_knobs_auto = { .knob = MM_KNOBS_ALL_AUTO };

static _Thread_local struct mmscale_papi_thread this_papi;
static _Thread_local struct {
	struct mmscale_witness w;
	bool started, stopped;
} this_witness;

/*
 * A counts_machine_wide case's window, which the harness opens and closes
 * and no body sees: thread 0 opens it as its timed loop starts (its timing
 * start hook, which runs before GB's start barrier, so before any thread's
 * loop), and closes it once every thread of the run has left its body
 * (window_close). What every emulated CPU counted in between is what
 * thread 0 publishes.
 */
static _Thread_local struct {
	struct mmscale_counts start, delta;
	bool open, closed;
} machine_window;

/* The run's threads meet here, each as the emulated CPU it still is. */
static void window_barrier_wait(struct registration *reg, int threads)
{
	unsigned int generation = atomic_load(&reg->window_generation);
	unsigned int spins = 0;

	if (atomic_fetch_add(&reg->window_arrived, 1) + 1 == threads) {
		atomic_store(&reg->window_arrived, 0);
		atomic_fetch_add(&reg->window_generation, 1);
		return;
	}
	while (atomic_load(&reg->window_generation) == generation)
		spin_wait_step(&spins);
}

/*
 * After the body, on every thread of a counts_machine_wide run: every
 * thread has left its body (so has stopped counting what the run does)
 * before thread 0 reads the machine's counts, and none leaves its emulated
 * CPU, taking its counts out of the sum, before thread 0 has read them.
 */
static void window_close(struct mmscale_state *st, struct registration *reg)
{
	int threads = mmscale_threads(st);

	window_barrier_wait(reg, threads);
	if (mmscale_thread_index(st) == 0 && machine_window.open) {
		struct mmscale_counts end;

		mmscale_counts_sum_all(&end);
		for (int c = 0; c < MMSCALE_NR_COUNTS; c++)
			machine_window.delta.v[c] = end.v[c] - machine_window.start.v[c];
		machine_window.closed = true;
	}
	window_barrier_wait(reg, threads);
}

/*
 * A counting run's transfers: not in virtual time (throttle/), where one
 * thread plays every CPU of the world, so that no line can move between
 * emulated CPUs (the counting build compiles those worlds without hooks).
 */
static bool transfers_counted(const struct registration *reg)
{
	return mmscale_transfers_counting() && !reg->run.c->virtual_time;
}

/*
 * A machine-wide window: for counts_machine_wide cases, and in the counting
 * build for every case, since a transfer is the machine's (the partner's
 * side of a ping-pong, an IPI target's side of a drain).
 */
static bool machine_window_wanted(const struct registration *reg)
{
	return reg->run.c->counts_machine_wide || transfers_counted(reg);
}

/*
 * GB's timing hooks (bench/gbench_shim.cc): this thread's PAPI counting
 * follows its timer, and thread 0 of a counts_machine_wide run opens the
 * machine-wide window as its timed loop starts.
 */
/* This thread's own transfers when its timed loop started (transfers_by_threads). */
static _Thread_local uint64_t own_transfers_at_start;

static void hook_start(struct mmscale_state *st)
{
	const struct registration *reg = mmscale_state_arg(st);
	struct mmscale_counts own;

	if (transfers_counted(reg)) {
		mmscale_counts_snapshot(&own);
		own_transfers_at_start = own.v[MMSCALE_XFERS];
	}

	if (machine_window_wanted(reg) && mmscale_thread_index(st) == 0) {
		mmscale_transfers_window_begin();
		mmscale_counts_sum_all(&machine_window.start);
		machine_window.open = true;
	}
	/* The witness's reads are not the work: before PAPI and GB's timer start. */
	mmscale_witness_start(&this_witness.w, mmscale_thread_index(st) == 0);
	this_witness.started = true;
	mmscale_papi_start(&this_papi);
}

static void hook_pause(struct mmscale_state *st) { (void)st; mmscale_papi_pause(&this_papi); }
static void hook_resume(struct mmscale_state *st) { (void)st; mmscale_papi_resume(&this_papi); }

static void hook_stop(struct mmscale_state *st)
{
	(void)st;
	mmscale_papi_stop(&this_papi);
	if (this_witness.started && !this_witness.stopped) {
		mmscale_witness_stop(&this_witness.w);
		this_witness.stopped = true;
	}
}

static const struct mmscale_timing_hooks papi_hooks = {
	.start = hook_start,
	.pause = hook_pause,
	.resume = hook_resume,
	.stop = hook_stop,
};

/* A case's reason, as the run's error message: "case: what reason". */
static int case_failed(const struct registration *reg, const char *what, const char *why,
		       char *err, size_t errlen)
{
	return mmscale_errorf(err, errlen, "%s: %s%s", reg->run.c->name, what,
			      why[0] ? why : "(no reason given)");
}

static int run_setup(void *arg, char *err, size_t errlen)
{
	struct registration *reg = arg;
	char why[256] = "";

	mmscale_gbench_set_running(reg->title);
	atomic_store(&reg->migrated, false);
	machine_online_cpus((unsigned int)reg->run.nr_online);
	/*
	 * Every knob auto until the case gives the kernel the run's (in its
	 * setup, or in its body where it builds its world there: throttle/):
	 * what a case does not pass on, its kernel does not run with, and the
	 * results say so (describe_run), never another case's values.
	 */
	mm_config_set_knobs(&all_knobs_auto);
	if (reg->run.c->setup && reg->run.c->setup(&reg->run, reg->nr_threads, why, sizeof(why)) != 0) {
		machine_online_cpus(nr_cpu_ids);
		return case_failed(reg, "setup failed: ", why, err, errlen);
	}
	return 0;
}

/*
 * The results' contract for a registration's runs (mmscale_runs): its
 * family (the case), variant, arguments and threads, and the knobs the
 * kernel ran with; "knobs_requested" has those that differ from what
 * --set asked for (a case that does not pass a knob on runs it auto).
 */
static void describe_run(void *arg, FILE *out)
{
	const struct registration *reg = arg;
	const struct mmscale_case *c = reg->run.c;
	struct mmscale_json j;
	bool any = false;

	mmscale_json_init_members(&j, out);
	mmscale_json_str(&j, "family", c->name);
	mmscale_json_str(&j, "variant", reg->run.v ? reg->run.v->name : "");
	mmscale_json_object(&j, "args");
	for (int i = 0; c->args && i < c->nr_args; i++)	/* every row of a case with args has one */
		mmscale_json_int(&j, c->arg_names[i], (long long)reg->run.args[i]);
	mmscale_json_end(&j);
	mmscale_json_int(&j, "threads", reg->nr_threads);
	if (reg->xfer && reg->xfer->taken)
		mmscale_xfer_report_json(&j, reg->xfer);
	if (!reg->ran_knobs_known)
		return;
	mmscale_json_object(&j, "knobs");
	for (int i = 0; i < MM_NR_KNOBS; i++)
		mmscale_knob_json(&j, mm_knob_ranges[i].name, reg->ran_knobs[i]);
	mmscale_json_end(&j);
	for (int i = 0; i < MM_NR_KNOBS; i++) {
		if (reg->ran_knobs[i] == mmscale_params.knob[i])
			continue;
		if (!any)
			mmscale_json_object(&j, "knobs_requested");
		mmscale_knob_json(&j, mm_knob_ranges[i].name, mmscale_params.knob[i]);
		any = true;
	}
	if (any)
		mmscale_json_end(&j);
}

static int run_teardown(void *arg, char *err, size_t errlen)
{
	struct registration *reg = arg;
	char why[256] = "";

	int status = 0;

	/* What the kernel ran with: every thread's body has ended, the case's state is still up. */
	memcpy(reg->ran_knobs, mm_config()->knob, sizeof(reg->ran_knobs));
	reg->ran_knobs_known = true;
	if (reg->run.c->teardown && reg->run.c->teardown(&reg->run, why, sizeof(why)) != 0)
		status = case_failed(reg, "check failed after the run: ", why, err, errlen);
	machine_online_cpus(nr_cpu_ids);	/* the whole plan again */
	return status;
}

/*
 * The counts this thread publishes: its own; for a counts_machine_wide case,
 * the machine's window from the thread that marked it and nothing from the
 * others, whose counts that window already holds (GB sums every thread's).
 */
static void published_counts(const struct mmscale_state *st, const struct registration *reg,
			     struct mmscale_counts *counts)
{
	if (!reg->run.c->counts_machine_wide)
		mmscale_counts_snapshot(counts);
	else if (machine_window.closed)
		*counts = machine_window.delta;
	else
		memset(counts, 0, sizeof(*counts));
	/* Transfers are the machine's always: a line moves between two CPUs. */
	if (transfers_counted(reg) && !reg->run.c->counts_machine_wide)
		for (int c = MMSCALE_XFERS; c <= MMSCALE_XFER_REMOTE; c++)
			counts->v[c] = machine_window.closed && mmscale_thread_index(st) == 0 ?
				       machine_window.delta.v[c] : 0;
}

/*
 * The variant's claim, against what this thread publishes: exact, per
 * operation. Machine-wide counts are claimed for the thread that marked the
 * window; per-thread counts for every thread. A difference fails the run;
 * under --claims=report (scripts/ab, where a patch under test changes a
 * count its row still claims) it is kept for the run's label instead, and
 * the run's times and counts stay usable.
 */
static void check_claim(struct mmscale_state *st, struct registration *reg,
			const struct mmscale_counts *counts)
{
	const struct mmscale_case *c = reg->run.c;
	struct mmscale_claim claim = { 0 };
	int64_t ops = mmscale_iterations(st);
	char msg[512];
	int len = 0;

	/* A run that failed already (a CPU that did not answer) has its reason. */
	if (!c->claim || ops <= 0 || mmscale_error_occurred(st) ||
	    (c->counts_machine_wide && !machine_window.closed) || !c->claim(&reg->run, &claim))
		return;
	for (int i = 0; i < MMSCALE_NR_COUNTS; i++)
		if ((claim.which & MMSCALE_COUNT_BIT(i)) &&
		    counts->v[i] != claim.v[i] * (uint64_t)ops && len < (int)sizeof(msg) - 1)
			len += snprintf(msg + len, sizeof(msg) - (size_t)len,
					"%s%s %.4g per operation, the row claims %llu",
					len ? "; " : "", mmscale_count_name(i),
					(double)counts->v[i] / (double)ops,
					(unsigned long long)claim.v[i]);
	if (!len)
		return;
	if (!mmscale_params.claims_report) {
		mmscale_skip_with_error(st, msg);
		return;
	}
	if (!atomic_flag_test_and_set(&reg->claim_found))
		snprintf(reg->claim_differs, sizeof(reg->claim_differs), "%s", msg);
}

/*
 * The witness's figures for this thread's repetition (mmscale/witness.h),
 * as GB combines counters over a run's threads: the marked threads, the
 * involuntary switches and the migrations summed; runqueue and off-CPU time
 * averaged over the threads; steal and load from thread 0 alone.
 */
static void publish_witness(struct mmscale_state *st)
{
	const struct mmscale_witness_figures *f = &this_witness.w.figures;

	if (!this_witness.stopped)
		return;
	mmscale_counter_set(st, "witness_marked", f->marked, MMSCALE_COUNTER_DEFAULT);
	mmscale_counter_set(st, "witness_nivcsw", (double)f->nivcsw, MMSCALE_COUNTER_DEFAULT);
	mmscale_counter_set(st, "witness_migrated", f->migrated, MMSCALE_COUNTER_DEFAULT);
	mmscale_counter_set(st, "witness_offcpu_pct", f->offcpu_pct, MMSCALE_COUNTER_AVG_THREADS);
	if (f->has_schedstat)
		mmscale_counter_set(st, "witness_runqueue_pct", f->runqueue_pct,
				    MMSCALE_COUNTER_AVG_THREADS);
	/* A figure this machine would not give is left out, not published as 0 or -1. */
	if (this_witness.w.machine && f->has_steal)
		mmscale_counter_set(st, "witness_steal_pct", f->steal_pct, MMSCALE_COUNTER_DEFAULT);
	if (this_witness.w.machine && f->load1 >= 0)
		mmscale_counter_set(st, "witness_load1", f->load1, MMSCALE_COUNTER_DEFAULT);
}

/*
 * A counting run's lines and pairs, taken by thread 0 once its machine-wide
 * window closed (a partner may still move a line after: the lines are a
 * short list, the counts are what is exact). A run that failed leaves no
 * report, not an earlier run's.
 */
static void take_transfers(struct mmscale_state *st, struct registration *reg)
{
	if (mmscale_thread_index(st) != 0)
		return;
	if (reg->xfer)
		reg->xfer->taken = false;
	if (mmscale_error_occurred(st))
		return;
	if (!reg->xfer)
		reg->xfer = calloc(1, sizeof(*reg->xfer));
	if (reg->xfer)
		mmscale_xfer_report_take(reg->xfer, reg->plan,
					 (double)mmscale_iterations(st) * mmscale_threads(st));
}

/*
 * The counts a case publishes (and --list --format=json lists as its
 * family's exact counts): its own, and with lock_acquires which of them
 * were queued spinlocks, the row's lock kind, counted (opcount.h).
 */
static unsigned int case_counts(const struct mmscale_case *c)
{
	unsigned int counts = c->counts;

	if (counts & MMSCALE_COUNT_BIT(MMSCALE_LOCK_ACQUIRES))
		counts |= MMSCALE_COUNT_BIT(MMSCALE_QUEUED_LOCK_ACQUIRES);
	return counts;
}

static void publish(struct mmscale_state *st, struct registration *reg)
{
	struct mmscale_counts counts;
	unsigned int published = case_counts(reg->run.c);

	if (transfers_counted(reg)) {
		struct mmscale_counts own;

		published |= MMSCALE_XFER_COUNT_BITS;
		take_transfers(st, reg);
		/*
		 * The transfers the run's own threads made (each thread's count is
		 * its own) in the machine-wide window's span (from its timed loop's
		 * start): what lies on their operations' path. The rest are the
		 * partners' and an IPI's targets', which run beside them
		 * (scripts/projection.py prices the two apart).
		 */
		mmscale_counts_snapshot(&own);
		mmscale_counter_set(st, "transfers_by_threads",
				    (double)(own.v[MMSCALE_XFERS] - own_transfers_at_start),
				    MMSCALE_COUNTER_AVG_ITERATIONS);
	}
	published_counts(st, reg, &counts);
	check_claim(st, reg, &counts);
	if (reg->run.c->machine_figures && machine_window.closed && !mmscale_error_occurred(st))
		reg->run.c->machine_figures(st, &reg->run, &machine_window.delta);
	for (int c = 0; c < MMSCALE_NR_COUNTS; c++)
		if (published & MMSCALE_COUNT_BIT(c))
			mmscale_counter_set(st, mmscale_count_name(c), (double)counts.v[c],
					    MMSCALE_COUNTER_AVG_ITERATIONS);
	for (int i = 0; this_papi.active && i < mmscale_papi_nr_events(); i++)
		mmscale_counter_set(st, mmscale_papi_event_name(i), (double)this_papi.values[i],
				    MMSCALE_COUNTER_AVG_ITERATIONS);
	publish_witness(st);
}

void mmscale_run_prepare(struct mmscale_run *run, int plan_cpus)
{
	const struct mmscale_case *c = run->c;
	int n = run->nr_threads + c->partner_cpus;

	switch (c->cpus) {
	case MMSCALE_CPUS_THREADS:
		run->nr_cpus_used = n;
		run->nr_online = plan_cpus;
		return;
	case MMSCALE_CPUS_ARG0_ONLINE:
		if (run->args[0] > n)
			n = (int)run->args[0];
		break;
	case MMSCALE_CPUS_WHOLE_PLAN:
		n = plan_cpus;
		break;
	case MMSCALE_CPUS_THREADS_ONLINE:
		break;
	}
	run->nr_cpus_used = n;
	run->nr_online = n;
}

/*
 * The run's label, written once by thread 0 after every thread has ended
 * (bench/gbench_shim.cc's label hook): what the run was not fit for, that
 * a thread migrated, and under --claims=report how its counts differ from
 * the row's claim (said once per registration on stderr too).
 */
static void run_label(void *arg, char *label, size_t len)
{
	struct registration *reg = arg;
	const struct mmscale_plan *p = reg->plan;
	int threads = reg->run.nr_cpus_used;
	size_t n = 0;

	label[0] = '\0';
	if (mmscale_plan_oversubscribed(p, threads) && !mmscale_topology_stand_in(p->topo))
		n = (size_t)snprintf(label, len, "oversubscribed: %d threads on %d PUs "
				     "(--oversubscribe)", threads, p->nr_pus_used);
	else if (mmscale_plan_oversubscribed(p, threads))
		n = (size_t)snprintf(label, len, "oversubscribed, not for timing");
	else if (mmscale_topology_stand_in(p->topo))
		n = (size_t)snprintf(label, len, "stand-in, not for timing");
	if (mmscale_transfers_counting() && n < len)
		n += (size_t)snprintf(label + n, len - n, "%s%s", n ? ", " : "",
				      transfers_counted(reg) ? "transfers counted, not for timing" :
				      "virtual time: no transfers counted");
	if (atomic_load(&reg->migrated) && n < len)
		n += (size_t)snprintf(label + n, len - n, "%smigrated", n ? ", " : "");
	if (reg->claim_differs[0] && n < len) {
		snprintf(label + n, len - n, "%sclaim differs: %s", n ? ", " : "",
			 reg->claim_differs);
		if (!reg->claim_noticed)
			mmscale_notice("%s: claim differs (--claims=report, the run is kept): %s",
				       reg->title, reg->claim_differs);
		reg->claim_noticed = true;
	}
	reg->claim_differs[0] = '\0';
	atomic_flag_clear(&reg->claim_found);
}

static void case_trampoline(struct mmscale_state *st, void *arg)
{
	struct registration *reg = arg;
	int mig = mmscale_papi_migrations_index();
	char err[256];

	if (mmscale_cpu_enter(mmscale_thread_index(st), err, sizeof(err)) != 0) {
		mmscale_skip_with_error(st, err);
		return;
	}
	mmscale_counts_reset();
	machine_window.open = machine_window.closed = false;
	this_witness.started = this_witness.stopped = false;
	mmscale_papi_thread_begin(&this_papi);

	reg->run.c->body(st, &reg->run);

	mmscale_papi_stop(&this_papi);
	if (machine_window_wanted(reg))
		window_close(st, reg);
	publish(st, reg);
	/* Two witnesses: the PMU-free one works everywhere. */
	if ((mig >= 0 && this_papi.active && this_papi.values[mig] > 0) | mmscale_cpu_leave())
		atomic_store(&reg->migrated, true);
	mmscale_papi_thread_end(&this_papi);
}

static void add_variants_context(void);
static void add_families_context(void);

int mmscale_default_threads(const struct mmscale_plan *p, int *out, int max)
{
	int n = 0;

	for (int t = 1; t < p->nr_cpus && n < max - 1; t *= 2)
		out[n++] = t;
	out[n++] = p->nr_cpus;
	return n;
}

static int register_row(const struct mmscale_plan *p, const struct mmscale_case *c,
			const struct mmscale_variant *v, const char *name, int threads,
			const int64_t *args, char *err, size_t errlen)
{
	struct registration *reg = calloc(1, sizeof(*reg));
	struct mmscale_bench *b;

	if (!reg)
		return mmscale_errorf(err, errlen, "out of memory");
	reg->next = registrations;
	registrations = reg;
	atomic_flag_clear(&reg->claim_found);
	reg->run.c = c;
	reg->run.v = v;
	reg->run.nr_threads = threads;
	snprintf(reg->title, sizeof(reg->title), "%s (threads %d)", name, threads);
	reg->plan = p;
	reg->nr_threads = threads;
	b = mmscale_bench_register(name, case_trampoline, reg);
	if (args) {
		memcpy(reg->run.args, args, sizeof(reg->run.args));
		mmscale_bench_args(b, args, c->nr_args);
		mmscale_bench_arg_names(b, c->arg_names, c->nr_args);
	}
	mmscale_run_prepare(&reg->run, p->nr_cpus);
	mmscale_bench_threads(b, threads);
	if (c->manual_time)
		mmscale_bench_manual_time(b);
	else
		mmscale_bench_real_time(b);
	if (c->iterations)
		mmscale_bench_iterations(b, c->iterations(&reg->run));
	mmscale_bench_timing_hooks(b, &papi_hooks);
	mmscale_bench_run_hooks(b, run_setup, run_teardown);
	mmscale_bench_label_hook(b, run_label);
	mmscale_bench_describe_hook(b, describe_run);
	return 0;
}

static int register_one(const struct mmscale_plan *p, const struct mmscale_case *c,
			const struct mmscale_variant *v, const int *threads, int nr_threads,
			char *err, size_t errlen)
{
	static const int one_thread[] = { 1 };
	int max_threads = p->nr_cpus - c->partner_cpus, registered = 0;
	char name[256];

	if (v)
		snprintf(name, sizeof(name), "%s/%s", c->name, v->name);
	else
		snprintf(name, sizeof(name), "%s", c->name);
	if (c->threads != MMSCALE_THREADS_SWEEP) {
		/* PAIR: CPU 1 is the case's partner thread. */
		threads = one_thread;
		nr_threads = 1;
	}
	if (max_threads < 1) {
		mmscale_notice("%s needs %d CPUs; the plan has %d: not registered", name,
			       1 + c->partner_cpus, p->nr_cpus);
		return 0;
	}
	if (c->available) {
		char why[200];

		if (!c->available(why, sizeof(why))) {
			mmscale_notice("%s: %s: not registered", name, why);
			return 0;
		}
	}
	/* One registration per thread count and argument row: each has its own run data. */
	for (int i = 0; i < nr_threads; i++) {
		if (threads[i] > max_threads)
			continue;	/* its partners would not fit in the plan */
		if (!c->args) {
			if (register_row(p, c, v, name, threads[i], NULL, err, errlen))
				return -1;
			registered++;
			continue;
		}
		for (size_t r = 0; r < c->nr_args_rows; r++) {
			char why[200];

			if (c->cpus == MMSCALE_CPUS_ARG0_ONLINE && (c->args[r][0] > p->nr_cpus || c->args[r][0] <= threads[i]))
				continue;
			if (c->args_available && !c->args_available(p, c->args[r], why, sizeof(why))) {
				/* One note for the case, not one for each of its variants. */
				if (i == 0 && (!v || v == mmscale_case_variant(c, 0)))
					mmscale_notice("%s: %s: not registered", c->name, why);
				continue;
			}
			if (register_row(p, c, v, name, threads[i], c->args[r], err, errlen))
				return -1;
			registered++;
		}
	}
	/* A case whose rows all need more CPUs online than the plan has says so. */
	if (!registered && c->args && c->cpus == MMSCALE_CPUS_ARG0_ONLINE) {
		int64_t least = c->args[0][0];

		for (size_t r = 1; r < c->nr_args_rows; r++)
			if (c->args[r][0] < least)
				least = c->args[r][0];
		if (least > p->nr_cpus)
			mmscale_notice("%s needs %lld CPUs online (its smallest row); the plan has "
				       "%d: not registered", name, (long long)least, p->nr_cpus);
	}
	return 0;
}

/* test/ cases only with --test-cases: they check the harness, they measure nothing. */
static bool table_enabled(const struct mmscale_case_table *tab)
{
	return !tab->test_only || mmscale_params.test_cases;
}

/* The run's name as the hottest lines are printed under: "case/variant/arg:v (threads N)". */
static void transfers_title(const struct registration *reg, char *buf, size_t len)
{
	const struct mmscale_case *c = reg->run.c;
	size_t n = (size_t)snprintf(buf, len, "%s%s%s", c->name, reg->run.v ? "/" : "",
				    reg->run.v ? reg->run.v->name : "");

	for (int i = 0; c->args && i < c->nr_args && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "/%s:%lld", c->arg_names[i],
				      (long long)reg->run.args[i]);
	if (n < len)
		snprintf(buf + n, len - n, " (threads %d)", reg->nr_threads);
}

void mmscale_harness_print_transfers(FILE *out)
{
	char title[512];
	struct registration **runs = NULL;
	size_t n = 0;

	if (!mmscale_transfers_counting())
		return;
	for (struct registration *r = registrations; r; r = r->next)
		n += r->xfer && r->xfer->taken;
	runs = n ? calloc(n, sizeof(*runs)) : NULL;
	if (!runs)
		return;
	n = 0;
	for (struct registration *r = registrations; r; r = r->next)
		if (r->xfer && r->xfer->taken)
			runs[n++] = r;
	fprintf(out, "mmscale: transfers (%d-byte lines, mtrace's rule; counting build, "
		"not for timing):\n", mmscale_transfers_line());
	/* Registered first, printed first: the list is built backwards. */
	while (n--) {
		transfers_title(runs[n], title, sizeof(title));
		mmscale_xfer_report_print(out, title, runs[n]->xfer);
	}
	free(runs);
}

void mmscale_harness_release(void)
{
	while (registrations) {
		struct registration *next = registrations->next;

		free(registrations->xfer);
		free(registrations);
		registrations = next;
	}
}

int mmscale_harness_register(const struct mmscale_plan *p, const int *threads,
			     int nr_threads, char *err, size_t errlen)
{
	for (size_t t = 0; t < mmscale_nr_case_tables; t++) {
		const struct mmscale_case_table *tab = mmscale_case_tables[t];

		for (size_t i = 0; table_enabled(tab) && i < tab->nr_cases; i++) {
			const struct mmscale_case *c = &tab->cases[i];

			if (!c->variants) {
				if (register_one(p, c, NULL, threads, nr_threads, err, errlen))
					return -1;
				continue;
			}
			for (size_t v = 0; v < c->nr_variants; v++)
				if (register_one(p, c, mmscale_case_variant(c, v), threads,
						 nr_threads, err, errlen))
					return -1;
		}
	}
	return 0;
}

void mmscale_harness_add_context(const struct mmscale_plan *p, const int *threads,
				 int nr_threads)
{
	const struct mmscale_topology *t = p->topo;
	struct utsname u;
	char buf[1024], big[1024];
	int max_threads = 2;

	for (int i = 0; i < nr_threads; i++)
		if (threads[i] > max_threads)
			max_threads = threads[i];
	mmscale_topology_summary(t, buf, sizeof(buf));
	mmscale_gbench_add_context("mmscale_topology", buf);
	mmscale_gbench_add_context("mmscale_stand_in", mmscale_topology_stand_in(t) ? "yes" : "no");
	if (mmscale_transfers_counting()) {
		snprintf(buf, sizeof(buf), "counted: mtrace's rule on %d-byte lines, by the counting "
			 "build (mmscale-transfers); times not for timing", mmscale_transfers_line());
		mmscale_gbench_add_context("mmscale_transfers", buf);
	}
	snprintf(buf, sizeof(buf), "%d", t->nr_nodes);
	mmscale_gbench_add_context("mmscale_nodes", buf);
	snprintf(buf, sizeof(buf), "%d", t->nr_pus);
	mmscale_gbench_add_context("mmscale_pus", buf);
	snprintf(buf, sizeof(buf), "%d", t->nr_real_pus);
	mmscale_gbench_add_context("mmscale_real_pus", buf);
	mmscale_gbench_add_context("mmscale_placement", mmscale_placement_name(p->placement));
	mmscale_gbench_add_context("mmscale_cpus", p->cpulist ? p->cpulist : "all");
	mmscale_gbench_add_context("mmscale_nodes_selected", p->nodelist ? p->nodelist : "all");
	mmscale_gbench_add_context("mmscale_used_pus", p->used_cpus);
	mmscale_gbench_add_context("mmscale_sample", mmscale_sample_name(p->sample));
	mmscale_allowed_summary(t, big, sizeof(big));
	mmscale_gbench_add_context("mmscale_allowed", big);
	snprintf(buf, sizeof(buf), "%d", p->nr_cpus);
	mmscale_gbench_add_context("mmscale_plan_cpus", buf);
	mmscale_gbench_add_context("mmscale_oversubscribed",
				   mmscale_plan_oversubscribed(p, max_threads) ? "yes" : "no");
	mmscale_gbench_add_context("mmscale_for_timing",
				   mmscale_topology_stand_in(t) ? "no (stand-in topology)" : "yes");
	mmscale_gbench_add_context("mmscale_papi", mmscale_papi_status());
	mmscale_gbench_add_context("mmscale_papi_domain", mmscale_papi_domain());
	mmscale_params_describe(buf, sizeof(buf));
	mmscale_gbench_add_context("mmscale_params", buf);
	/* What the same line says at the defaults: scripts show only what differs. */
	mmscale_params_describe_default(buf, sizeof(buf));
	mmscale_gbench_add_context("mmscale_params_default", buf);
	mmscale_gbench_add_context("mmscale_claims",
				   mmscale_params.claims_report ? "report" : "check");
	mmscale_knobs_context(buf, sizeof(buf));
	mmscale_gbench_add_context("mmscale_knobs", buf);
	mmscale_knobs_auto_context(buf, sizeof(buf));	/* on the set-up machine */
	mmscale_gbench_add_context("mmscale_knobs_auto", buf);
	if (uname(&u) == 0) {
		snprintf(buf, sizeof(buf), "%s %s %s", u.sysname, u.release, u.machine);
		mmscale_gbench_add_context("mmscale_kernel", buf);
	}
	mmscale_gbench_add_context("mmscale_compiler", MMSCALE_COMPILER);
	mmscale_gbench_add_context("mmscale_build_type", MMSCALE_BUILD_TYPE);
	mmscale_gbench_add_context("mmscale_git_revision", MMSCALE_GIT_REVISION);
	/* Which binary ran: two builds compared side by side are told apart by it. */
	{
		char *exe = realpath("/proc/self/exe", NULL);

		mmscale_gbench_add_context("mmscale_binary", exe ? exe : "unknown");
		free(exe);
	}
	mmscale_machine_settings_add_context(p);
	add_variants_context();
}

/*
 * "case=baseline,variant,...;case=..." for every case with variants, in
 * table order: scripts compare each variant with the first (the oldest).
 */
static void add_variants_context(void)
{
	size_t len = 1, used = 0;
	char *buf;

	for (size_t t = 0; t < mmscale_nr_case_tables; t++)
		for (size_t i = 0; i < mmscale_case_tables[t]->nr_cases; i++) {
			const struct mmscale_case *c = &mmscale_case_tables[t]->cases[i];

			len += strlen(c->name) + 2;
			for (size_t v = 0; v < c->nr_variants; v++)
				len += strlen(mmscale_case_variant(c, v)->name) + 1;
		}
	buf = calloc(1, len);
	if (!buf)
		return;
	for (size_t t = 0; t < mmscale_nr_case_tables; t++)
		for (size_t i = 0; i < mmscale_case_tables[t]->nr_cases; i++) {
			const struct mmscale_case *c = &mmscale_case_tables[t]->cases[i];

			if (!c->nr_variants)
				continue;
			used += (size_t)snprintf(buf + used, len - used, "%s%s=", used ? ";" : "",
						 c->name);
			for (size_t v = 0; v < c->nr_variants; v++)
				used += (size_t)snprintf(buf + used, len - used, "%s%s", v ? "," : "",
							 mmscale_case_variant(c, v)->name);
		}
	mmscale_gbench_add_context("mmscale_variants", buf);
	free(buf);
	add_families_context();
}

/* mmscale_families: what --list=json prints, for scripts reading the results alone. */
static void add_families_context(void)
{
	char *json = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&json, &len);

	if (!f)
		return;
	mmscale_list_json(f);
	if (fclose(f) == 0 && json)
		mmscale_gbench_add_json_context("mmscale_families", json);
	free(json);
}

void mmscale_list_cases(FILE *out)
{
	for (size_t t = 0; t < mmscale_nr_case_tables; t++) {
		const struct mmscale_case_table *tab = mmscale_case_tables[t];

		for (size_t i = 0; table_enabled(tab) && i < tab->nr_cases; i++) {
			const struct mmscale_case *c = &tab->cases[i];
			const char *threads = c->threads == MMSCALE_THREADS_ONE ? "1 thread" :
					      c->threads == MMSCALE_THREADS_PAIR ? "CPU 0 + partner CPU 1" :
					      "thread sweep";

			fprintf(out, "%-28s %s [%s]\n", c->name, c->summary, threads);
			for (size_t v = 0; v < c->nr_variants; v++) {
				const struct mmscale_variant *var = mmscale_case_variant(c, v);

				fprintf(out, "  %-26s %s (%s)\n", var->name, var->summary,
					var->source);
			}
		}
	}
}

void mmscale_list_json(FILE *out)
{
	static const char *const threads_kind[] = { "one", "pair", "sweep" };
	struct mmscale_json j;

	/* One case a line. */
	mmscale_json_init(&j, out, 1);
	mmscale_json_array(&j, NULL);
	for (size_t t = 0; t < mmscale_nr_case_tables; t++) {
		const struct mmscale_case_table *tab = mmscale_case_tables[t];

		for (size_t i = 0; table_enabled(tab) && i < tab->nr_cases; i++) {
			const struct mmscale_case *c = &tab->cases[i];

			mmscale_json_object(&j, NULL);
			mmscale_json_str(&j, "name", c->name);
			mmscale_json_str(&j, "summary", c->summary);
			mmscale_json_str(&j, "threads", threads_kind[c->threads]);
			mmscale_json_str(&j, "baseline",
					 c->nr_variants ? mmscale_case_variant(c, 0)->name : NULL);
			mmscale_json_array(&j, "variants");
			for (size_t v = 0; v < c->nr_variants; v++) {
				const struct mmscale_variant *var = mmscale_case_variant(c, v);

				mmscale_json_object(&j, NULL);
				mmscale_json_str(&j, "name", var->name);
				mmscale_json_str(&j, "summary", var->summary);
				mmscale_json_str(&j, "source", var->source);
				mmscale_json_end(&j);
			}
			mmscale_json_end(&j);
			mmscale_json_array(&j, "metrics");
			for (size_t m = 0; m < c->nr_metrics; m++) {
				mmscale_json_object(&j, NULL);
				mmscale_json_str(&j, "name", c->metrics[m].name);
				mmscale_json_str(&j, "label", c->metrics[m].label);
				mmscale_json_bool(&j, "exact", c->metrics[m].exact);
				mmscale_json_end(&j);
			}
			mmscale_json_end(&j);
			mmscale_json_array(&j, "counts");
			for (int k = 0; k < MMSCALE_NR_COUNTS; k++)
				if (case_counts(c) & MMSCALE_COUNT_BIT(k))
					mmscale_json_str(&j, NULL, mmscale_count_name(k));
			mmscale_json_end(&j);
			mmscale_json_bool(&j, "machine_wide", c->counts_machine_wide);
			mmscale_json_bool(&j, "virtual_time", c->virtual_time);
			mmscale_json_end(&j);
		}
	}
	mmscale_json_end(&j);
	fputc('\n', out);
}
