// SPDX-License-Identifier: GPL-2.0
/*
 * The mm's resident-set counters, design by design: Linux 6.1's per-task
 * cache synced into atomics, 6.18's percpu_counters (6.2's f1a7941243c1),
 * and the posted designs that argue with it, Dorminy's per-node atomics,
 * Desnoyers' counter tree, Krisman's lazy counters and Kairui Song's
 * per-CPU cache (include/mmscale/linux-6.18/mm/rss_stat.h and
 * rss_stat_designs.h: where each line comes from). rss/fault is the fault
 * path's update by every thread of one process; rss/read is get_mm_counter,
 * the approximate read, against the precise sum, with the worst error the
 * approximate read can show; rss/drift measures that error, rss/oom_scan
 * the OOM killer's scan with each read; rss/fork_exit is what every mm costs at fork
 * and exit, swept over the CPUs online (what 6.2's change cost: the b-
 * postings in ../shared/kernel/patches).
 *
 * A design is one row of rss_designs[]: its mm, the five mm operations,
 * its error bound and its claims. A new design is one struct rss_design
 * and one row in each case's table.
 */
#define _GNU_SOURCE
#include <stdlib.h>

#include "mmscale/case.h"
#include "mmscale/cpu.h"
#include "mmscale/errorf.h"
#include "mmscale/kernel/cpumask.h"
#include "mmscale/kernel/machine.h"
#include "mmscale/kernel/processor.h"
#include "mmscale/mm/config.h"
#include "mmscale/linux-6.18/mm/rss_stat.h"
#include "mmscale/params.h"
#include "rss_designs.h"

/* -- The cases -- */

struct rss_run {
	const struct rss_design *d;
	void *mm;
	size_t mm_size;
	bool mm_live;			/* initialised: mm_free owed */
	_Atomic long faults;		/* every thread's faults, added at its end */
	struct mmscale_partner writer;	/* rss/read's faulting thread */
	_Atomic bool stop;
	struct rss_drift drift;		/* rss/drift: the last walk */
	long drift_books;		/* rss/drift: a walk whose mm held other than its pages, or -1 */
	bool clone_failed;		/* rss/fork_exit: a second thread's clone found the units full */
};

/* Each case's rows: the design and, for rss/read, which read. */
struct rss_variant {
	struct mmscale_variant v;
	const struct rss_design *d;
	bool sums;			/* rss/read: get_mm_counter_sum */
	bool second_thread;		/* rss/fork_exit: the process clones a thread */
};

static const struct rss_design *design_of(const struct mmscale_run *run)
{
	return container_of(run->v, struct rss_variant, v)->d;
}

static int rss_teardown(struct mmscale_run *run, char *err, size_t errlen);

/* copy_mm of a CLONE_VM child, made on CPU 0 (the parent's): a second task shares the mm. */
static int rss_clone_vm(struct rss_run *rr, char *err, size_t errlen)
{
	int home;
	int ret;

	if (!rr->d->clone_vm)
		return 0;
	home = machine_task_migrate(0);
	ret = rr->d->clone_vm(rr->mm);
	machine_task_migrate(home);
	if (ret != 0)
		return mmscale_errorf(err, errlen, "per-CPU units full");
	return 0;
}

/* --set's knobs (no zones here to set up with them), then the design's boot-time set-up. */
static int rss_boot(const struct rss_design *d, char *err, size_t errlen)
{
	struct mm_machine_config cfg;

	mmscale_mm_config(&cfg);
	mm_config_set_knobs(&cfg);
	return d->boot ? d->boot(err, errlen) : 0;
}

static int rss_setup(struct mmscale_run *run, int nr_threads, char *err, size_t errlen)
{
	const struct rss_design *d = design_of(run);
	struct rss_run *rr = calloc(1, sizeof(*rr));
	bool live;
	int home;

	(void)nr_threads;
	if (!rr)
		return mmscale_errorf(err, errlen, "out of memory");
	run->data = rr;
	rr->d = d;
	if (rss_boot(d, err, errlen) != 0)
		goto fail;
	rr->mm_size = d->mm_size();
	rr->mm = alloc_global(rr->mm_size, err, errlen);
	if (!rr->mm)
		goto fail;
	home = machine_task_migrate(0);		/* the parent forks on CPU 0 */
	live = d->mm_init(rr->mm) == 0;
	machine_task_migrate(home);
	if (!live) {
		mmscale_errorf(err, errlen, "per-CPU units full");
		goto fail;
	}
	rr->mm_live = true;
	if (container_of(run->v, struct rss_variant, v)->second_thread &&
	    rss_clone_vm(rr, err, errlen) != 0) {
		rss_teardown(run, NULL, 0);
		return -1;
	}
	return 0;
fail:
	if (rr->mm)
		free_on_node(rr->mm, rr->mm_size);
	if (d->halt)
		d->halt();
	free(rr);
	run->data = NULL;
	return -1;
}

/* The books: every fault counted once in the mm's counters (check_mm's sum at its free). */
static int rss_teardown(struct mmscale_run *run, char *err, size_t errlen)
{
	struct rss_run *rr = run->data;
	long want, got;
	int status = 0;

	if (rr->writer.started) {
		atomic_store(&rr->stop, true);
		mmscale_partner_join(&rr->writer);
	}
	want = atomic_load(&rr->faults);
	got = rr->mm_live ? rr->d->mm_free(rr->mm) : want;
	if (rr->clone_failed)
		status = mmscale_errorf(err, errlen, "%s: per-CPU units full at a thread's clone",
					run->v->name);
	else if (got != want)
		status = mmscale_errorf(err, errlen, "%s: the rss counters hold %ld pages, %ld "
					"faults were counted", run->v->name, got, want);
	free_on_node(rr->mm, rr->mm_size);
	if (rr->d->halt)
		rr->d->halt();
	free(rr);
	run->data = NULL;
	return status;
}

/* rss/fault: nr_threads tasks of one process, so more than one shares the mm. */
static int fault_setup(struct mmscale_run *run, int nr_threads, char *err, size_t errlen)
{
	if (rss_setup(run, nr_threads, err, errlen) != 0)
		return -1;
	if (nr_threads > 1 && rss_clone_vm(run->data, err, errlen) != 0) {
		rss_teardown(run, NULL, 0);
		return -1;
	}
	return 0;
}

#define FAULT_BATCH 64

static void fault_body(struct mmscale_state *st, struct mmscale_run *run)
{
	struct rss_run *rr = run->data;
	void (*fault)(void *mm) = rr->d->fault;
	void *mm = rr->mm;

	if (rr->d->task_enter)
		rr->d->task_enter(mm);
	while (mmscale_keep_running_batch(st, FAULT_BATCH))
		for (int i = 0; i < FAULT_BATCH; i++)
			fault(mm);
	if (rr->d->task_exit)
		rr->d->task_exit(mm);
	atomic_fetch_add(&rr->faults, (long)mmscale_iterations(st));
}

/* One fault on the calling CPU, by a task of the process that entered on the first. */
static void fault_one_op(struct mmscale_run *run)
{
	struct rss_run *rr = run->data;

	if (rr->d->task_enter)
		rr->d->task_enter(rr->mm);
	rr->d->fault(rr->mm);
	atomic_fetch_add(&rr->faults, 1);
}

static bool fault_claim_ops(const struct mmscale_run *run, uint64_t nr_ops,
			    struct mmscale_claim *out)
{
	out->which = 0;
	design_of(run)->fault_claim(nr_ops, out);
	return true;
}

/* rss/read's partner: a thread of the process faulting as fast as it can. */
static void fault_writer(void *arg)
{
	struct mmscale_run *run = arg;
	struct rss_run *rr = run->data;
	unsigned int spins = 0;
	long faults = 0;

	if (rr->d->task_enter)
		rr->d->task_enter(rr->mm);
	while (!atomic_load_explicit(&rr->stop, memory_order_relaxed)) {
		rr->d->fault(rr->mm);
		faults++;
		spin_wait_step(&spins);
	}
	if (rr->d->task_exit)
		rr->d->task_exit(rr->mm);
	atomic_fetch_add(&rr->faults, faults);
}

static int read_setup(struct mmscale_run *run, int nr_threads, char *err, size_t errlen)
{
	struct rss_run *rr;

	if (rss_setup(run, nr_threads, err, errlen) != 0)
		return -1;
	rr = run->data;
	if (run->args[0] > 0 &&
	    mmscale_partner_start(&rr->writer, nr_threads, fault_writer, run, err, errlen)) {
		rss_teardown(run, err, errlen);
		return -1;
	}
	return 0;
}

#define READ_BATCH 16

static void read_body(struct mmscale_state *st, struct mmscale_run *run)
{
	struct rss_run *rr = run->data;
	const struct rss_variant *row = container_of(run->v, struct rss_variant, v);
	unsigned long (*read)(void *mm, int member) = row->sums ? rr->d->sum : rr->d->read;
	void *mm = rr->mm;
	unsigned long sum = 0;

	while (mmscale_keep_running_batch(st, READ_BATCH))
		for (int i = 0; i < READ_BATCH; i++)
			sum += read(mm, MM_ANONPAGES);
	__asm__ __volatile__("" : : "r"(sum));
	/* The approximate read's worst error for this mm, with its one task (the writer) or none. */
	if (!row->sums && mmscale_thread_index(st) == 0)
		mmscale_counter_set(st, "error_bound_pages",
				    (double)rr->d->error_bound(mm, (unsigned int)(run->args[0] > 0)), 0);
}

static void read_one_op(struct mmscale_run *run)
{
	struct rss_run *rr = run->data;

	if (container_of(run->v, struct rss_variant, v)->sums)
		rr->d->sum(rr->mm, MM_ANONPAGES);
	else
		rr->d->read(rr->mm, MM_ANONPAGES);
}

/*
 * With a writer folding under the same lock (writers:1) or another thread
 * summing, 6.18's queued spinlock can take more locked instructions (the
 * pending bit, the queue's tail: kernel/qspinlock.h), as many as the
 * timing makes, so those runs claim their acquisitions, not their locked
 * ops.
 */
static bool read_claim(const struct mmscale_run *run, struct mmscale_claim *out)
{
	const struct rss_variant *row = container_of(run->v, struct rss_variant, v);
	bool contended = row->sums && (run->args[0] > 0 || run->nr_threads > 1);

	out->which = 0;
	row->d->read_claim(row->sums, 1, out);	/* the mm's one task: the writer, or none */
	if (contended)
		out->which &= ~MMSCALE_COUNT_BIT(MMSCALE_LOCKED_OPS);
	return true;
}

/* One mm's life, as far as its rss counters go: mm_init, then check_mm and the free. */
static void fork_exit_op(struct mmscale_run *run)
{
	struct rss_run *rr = run->data;

	rr->d->mm_free(rr->mm);
	rr->mm_live = rr->d->mm_init(rr->mm) == 0;
	if (rr->mm_live && container_of(run->v, struct rss_variant, v)->second_thread &&
	    rr->d->clone_vm)
		rr->clone_failed |= rr->d->clone_vm(rr->mm) != 0;	/* units full: teardown says so */
}

static void fork_exit_body(struct mmscale_state *st, struct mmscale_run *run)
{
	while (mmscale_keep_running(st))
		fork_exit_op(run);
}

static bool fork_exit_claim(const struct mmscale_run *run, struct mmscale_claim *out)
{
	out->which = 0;
	design_of(run)->fork_exit_claim(container_of(run->v, struct rss_variant, v)->second_thread,
					out);
	return true;
}

/*
 * rss/drift: each iteration one task walks a fresh mm (rss_drift_walk:
 * 4 stops per CPU online, bursts of faults and unmaps while it migrates),
 * then the mm exits, its counters' sum checked against the task's pages.
 * The walk is the same every time: its worst error is exact.
 */
#define DRIFT_SEED		0x9e3779b97f4a7c15ULL
#define DRIFT_STOPS_PER_CPU	4

static int drift_setup(struct mmscale_run *run, int nr_threads, char *err, size_t errlen)
{
	if (rss_setup(run, nr_threads, err, errlen) != 0)
		return -1;
	((struct rss_run *)run->data)->drift_books = -1;
	return 0;
}

static void drift_body(struct mmscale_state *st, struct mmscale_run *run)
{
	struct rss_run *rr = run->data;
	const struct rss_design *d = rr->d;
	unsigned long stops = (unsigned long)DRIFT_STOPS_PER_CPU * num_online_cpus();

	while (mmscale_keep_running(st)) {
		struct rss_drift dr = { .seed = DRIFT_SEED };
		long held;

		rss_drift_walk(d, rr->mm, &dr, stops);
		held = d->mm_free(rr->mm);
		rr->mm_live = d->mm_init(rr->mm) == 0;
		if (held != dr.true_pages && rr->drift_books < 0)
			rr->drift_books = held;
		rr->drift = dr;
	}
	mmscale_counter_set(st, "error_max_pages", (double)rr->drift.worst, 0);
	mmscale_counter_set(st, "error_max_bytes", (double)rr->drift.worst * 4096.0, 0);
	mmscale_counter_set(st, "error_bound_pages", (double)d->error_bound(rr->mm, 1), 0);
	mmscale_counter_set(st, "stops", (double)rr->drift.steps, 0);
	mmscale_counter_set(st, "true_max_pages", (double)rr->drift.true_max, 0);
}

/* The books of every walk, then the bound: a design whose read strays past it fails. */
static int drift_teardown(struct mmscale_run *run, char *err, size_t errlen)
{
	struct rss_run *rr = run->data;
	int status = 0;

	if (rr->drift_books >= 0)
		status = mmscale_errorf(err, errlen, "%s: an mm held %ld pages after the drift walk, "
					"its task %ld", run->v->name, rr->drift_books,
					rr->drift.true_pages);
	else if (rr->drift.steps && rr->mm_live)
		status = rss_drift_check(run->v->name, &rr->drift, rr->d->error_bound(rr->mm, 1),
					 err, errlen);
	if (rss_teardown(run, status ? NULL : err, status ? 0 : errlen) != 0 && !status)
		status = -1;
	return status;
}

/*
 * rss/oom_scan: select_bad_process over procs processes of one design, as
 * oom_badness scores each (mm/oom_kill.c 6.18, 228-232): get_mm_rss (the
 * file, anon and shmem counters) + the swap entries (+ the page tables,
 * not emulated: a constant), each read with get_mm_counter in 6.18 as
 * released, each summed precisely (get_mm_counter_sum) once 5898aa8f9a0b
 * ("mm: fix OOM killer inaccuracy on large many-core systems", Jan 2026;
 * v2 <20260114143642.47333-1-mathieu.desnoyers@efficios.com>) is applied;
 * the highest score wins, the first of equals staying chosen (the
 * processes and the scan: rss_oom_populate and rss_oom_select,
 * cases/rss_designs.h). Process i holds 1000 + 7 x i + 64 pages, the 64 a
 * fault on each of 64 CPUs: an approximate read that misses some can
 * choose a smaller process. victim_ok says whether the largest was chosen.
 */

struct oom_run {
	const struct rss_design *d;
	void **mms;
	size_t mm_size;
	int nr;			/* processes set up */
	int chosen;		/* the last scan's victim */
};

static int oom_teardown(struct mmscale_run *run, char *err, size_t errlen)
{
	struct oom_run *or = run->data;
	int status = 0;

	for (int i = 0; i < or->nr; i++) {
		long want = rss_oom_pages(i);
		long got = or->d->mm_free(or->mms[i]);

		if (got != want && !status)
			status = mmscale_errorf(err, errlen, "%s: process %d's counters hold %ld "
						"pages, it mapped %ld", run->v->name, i, got, want);
		free_on_node(or->mms[i], or->mm_size);
	}
	free(or->mms);
	if (or->d->halt)
		or->d->halt();
	free(or);
	run->data = NULL;
	return status;
}

static int oom_setup(struct mmscale_run *run, int nr_threads, char *err, size_t errlen)
{
	const struct rss_design *d = design_of(run);
	struct oom_run *or = calloc(1, sizeof(*or));
	int home = machine_task_migrate(0);

	(void)nr_threads;
	if (!or)
		return mmscale_errorf(err, errlen, "out of memory");
	run->data = or;
	or->d = d;
	if (rss_boot(d, err, errlen) != 0)
		goto fail;
	or->mm_size = d->mm_size();
	or->mms = calloc((size_t)run->args[0], sizeof(*or->mms));
	if (!or->mms) {
		mmscale_errorf(err, errlen, "out of memory");
		goto fail;
	}
	for (int i = 0; i < run->args[0]; i++) {
		void *mm = alloc_global(or->mm_size, err, errlen);

		if (!mm)
			goto fail;
		if (d->mm_init(mm) != 0) {
			free_on_node(mm, or->mm_size);
			mmscale_errorf(err, errlen, "per-CPU units full at process %d", i);
			goto fail;
		}
		or->mms[or->nr++] = mm;
		rss_oom_populate(d, mm, i);
	}
	machine_task_migrate(home);
	return 0;
fail:
	machine_task_migrate(home);
	oom_teardown(run, NULL, 0);
	return -1;
}

static void oom_scan_op(struct mmscale_run *run)
{
	struct oom_run *or = run->data;

	or->chosen = rss_oom_select(or->d, or->mms, or->nr,
				    container_of(run->v, struct rss_variant, v)->sums);
}

static void oom_scan_body(struct mmscale_state *st, struct mmscale_run *run)
{
	struct oom_run *or = run->data;

	while (mmscale_keep_running(st))
		oom_scan_op(run);
	mmscale_counter_set(st, "victim_ok", or->chosen == or->nr - 1, 0);
}

/*
 * Per scan, four reads per process: get_mm_counter a load each (6.1's not
 * counted as a percpu_counter read); the sums 6.18's lock and every online
 * CPU, the tree's every possible CPU, the node atomics' 32 (and the
 * global).
 */
static bool oom_scan_claim(const struct mmscale_run *run, struct mmscale_claim *out)
{
	const struct rss_variant *row = container_of(run->v, struct rss_variant, v);
	struct mmscale_claim one = { 0 };
	uint64_t reads = 4 * (uint64_t)run->args[0];

	row->d->read_claim(row->sums, 1, &one);	/* single-threaded processes */
	out->which = one.which;
	for (int c = 0; c < MMSCALE_NR_COUNTS; c++)
		out->v[c] = one.v[c] * reads;
	return true;
}

#define SRC_6_1		"mm/memory.c, include/linux/mm.h 6.1 (unifreq/linux-6.1.y 3f562c74)"
#define SRC_6_18	"include/linux/mm.h, kernel/fork.c, lib/percpu_counter.c 6.18"
#define SRC_PERNUMA	"RFC v2 <20250331223516.7810-2-sweettea-kernel@dorminy.me> (2025, not merged)"
#define SRC_TREE	"lib/percpu_counter_tree.c linux-mm 23b86b4b (v17+, not merged); mm glue " \
			"RFC v8 2/2 <20251107172216.515754-3-mathieu.desnoyers@efficios.com>, " \
			"init_many/destroy_many inferred (v17's mm patch not stored)"
#define SRC_LAZY	"RFC 1-4/4 <20251127233635.4170047-1-krisman@suse.de> (2025, not merged)"
#define SRC_PCPCACHE	"RFC 4/7 <20220728204511.56348-5-ryncsn@gmail.com> (2022, not merged)"

static const struct rss_variant fault_variants[] = {
	{ { "6.1-split", "SPLIT_RSS_COUNTING: the task's cache, synced every 66th fault",
	    SRC_6_1 }, .d = &rss_design_6_1 },
	{ { "6.18-percpu", "add_mm_counter: percpu_counter_add, folded at the batch",
	    SRC_6_18 }, .d = &rss_design_6_18 },
	{ { "pernuma-rfc", "RFC: atomic64_add_return on the node's atomic, into the global at 32",
	    SRC_PERNUMA }, .d = &rss_design_pernuma },
	{ { "tree-v17", "RFC series: this_cpu_add_return, a carry up the tree every 32",
	    SRC_TREE }, .d = &rss_design_tree },
	{ { "lazy-rfc", "RFC: a cmpxchg on the remote atomic while one task; 6.18's once cloned",
	    SRC_LAZY }, .d = &rss_design_lazy },
	{ { "pcpcache-rfc", "RFC: a this_cpu_add into the CPU's cache of its active mm",
	    SRC_PCPCACHE }, .d = &rss_design_pcpcache },
};

static const struct rss_variant read_variants[] = {
	{ { "6.1-get_mm_counter", "atomic_long_read of the mm's counter",
	    SRC_6_1 }, .d = &rss_design_6_1 },
	{ { "6.18-get_mm_counter", "percpu_counter_read_positive: fbc->count only",
	    SRC_6_18 }, .d = &rss_design_6_18 },
	{ { "6.18-get_mm_counter_sum", "percpu_counter_sum_positive: the lock, every online CPU",
	    SRC_6_18 }, .d = &rss_design_6_18, .sums = true },
	{ { "pernuma-rfc-get_mm_counter", "RFC: the global atomic only",
	    SRC_PERNUMA }, .d = &rss_design_pernuma },
	{ { "pernuma-rfc-slow", "RFC: get_mm_counter_slow, the global and 32 node atomics",
	    SRC_PERNUMA }, .d = &rss_design_pernuma, .sums = true },
	{ { "tree-v17-get_mm_counter", "RFC series: the approximate sum, the root item",
	    SRC_TREE }, .d = &rss_design_tree },
	{ { "tree-v17-get_mm_counter_sum", "RFC series: the precise sum, every possible CPU, no lock",
	    SRC_TREE }, .d = &rss_design_tree, .sums = true },
	{ { "lazy-rfc-get_mm_counter", "RFC: the remote atomic and the owner's count (one task)",
	    SRC_LAZY }, .d = &rss_design_lazy },
	{ { "lazy-rfc-get_mm_counter_sum", "RFC: the same two loads while lazy",
	    SRC_LAZY }, .d = &rss_design_lazy, .sums = true },
	{ { "pcpcache-rfc-get_mm_counter", "RFC: the atomic and every possible CPU's cache",
	    SRC_PCPCACHE }, .d = &rss_design_pcpcache },
};

static const struct rss_variant fork_exit_variants[] = {
	{ { "6.1", "the task's and mm's counters zeroed, exit's sync, check_mm's four reads",
	    "kernel/fork.c 6.1" }, .d = &rss_design_6_1 },
	{ { "6.18", "percpu_counter_init_many (pcpu_alloc's mutex and lock), check_mm's four "
	    "sums, destroy_many (free_percpu's lock); no memcg charge",
	    "kernel/fork.c, lib/percpu_counter.c, mm/percpu.c 6.18" }, .d = &rss_design_6_18 },
	{ { "pernuma-rfc", "RFC: the counters zeroed (the RFC leaves dup_mm's copy), check_mm's "
	    "four slow sums; no allocation, no lock", SRC_PERNUMA }, .d = &rss_design_pernuma },
	{ { "tree-v17", "RFC series: the items zeroed in the mm, one pcpu_alloc (init_many: inferred; "
	    "v8 made one per counter), check_mm's four compares (precise sums), free_percpu; "
	    "no memcg charge", SRC_TREE }, .d = &rss_design_tree },
	{ { "lazy-rfc", "RFC: no allocation; check_mm's four sum_locals (a cmpxchg each)",
	    SRC_LAZY }, .d = &rss_design_lazy },
	{ { "lazy-rfc+thread", "RFC: a second thread cloned: the upgrade (pcpu_alloc, four xchgs, "
	    "the hotplug list), then 6.18's exit", SRC_LAZY }, .d = &rss_design_lazy, .second_thread = true },
	{ { "pcpcache-rfc", "RFC: the atomics zeroed; the exit walks every CPU's cache, takes its "
	    "CPU's (a cmpxchg)", SRC_PCPCACHE }, .d = &rss_design_pcpcache },
};

static const struct rss_variant drift_variants[] = {
	{ { "6.1-split", "the task's cache: up to 66 faults behind, wherever it runs",
	    SRC_6_1 }, .d = &rss_design_6_1 },
	{ { "6.18-percpu", "up to batch - 1 left on each CPU the task ran on",
	    SRC_6_18 }, .d = &rss_design_6_18 },
	{ { "pernuma-rfc", "RFC: up to 31 left in each node's atomic",
	    SRC_PERNUMA }, .d = &rss_design_pernuma },
	{ { "tree-v17", "RFC series: up to the tree's accuracy range",
	    SRC_TREE }, .d = &rss_design_tree },
	{ { "lazy-rfc", "RFC: one task, lazy: exact",
	    SRC_LAZY }, .d = &rss_design_lazy },
	{ { "pcpcache-rfc", "RFC: every CPU the task ran on still caches the mm: read, exact",
	    SRC_PCPCACHE }, .d = &rss_design_pcpcache },
};

#define SRC_OOM_FIX	"5898aa8f9a0b, v2 <20260114143642.47333-1-mathieu.desnoyers@efficios.com>"

static const struct rss_variant oom_variants[] = {
	{ { "6.1", "get_mm_counter: an atomic read per counter",
	    SRC_6_1 }, .d = &rss_design_6_1 },
	{ { "6.18", "as released: get_mm_counter, fbc->count per counter",
	    SRC_6_18 }, .d = &rss_design_6_18 },
	{ { "6.18-oom-fix", "get_mm_counter_sum per counter: the lock, every online CPU",
	    SRC_6_18 ", " SRC_OOM_FIX }, .d = &rss_design_6_18, .sums = true },
	{ { "pernuma-rfc", "RFC: the global atomic per counter",
	    SRC_PERNUMA }, .d = &rss_design_pernuma },
	{ { "pernuma-rfc-oom-fix", "RFC with the fix's sums: get_mm_counter_slow per counter",
	    SRC_PERNUMA }, .d = &rss_design_pernuma, .sums = true },
	{ { "tree-v17", "RFC series: the approximate sum per counter",
	    SRC_TREE }, .d = &rss_design_tree },
	{ { "tree-v17-oom-fix", "RFC series with the fix: the precise sum per counter",
	    SRC_TREE ", " SRC_OOM_FIX }, .d = &rss_design_tree, .sums = true },
	{ { "lazy-rfc", "RFC: single-threaded processes, lazy: two loads per counter",
	    SRC_LAZY }, .d = &rss_design_lazy },
	{ { "pcpcache-rfc", "RFC: get_mm_counter per counter, every possible CPU's cache",
	    SRC_PCPCACHE }, .d = &rss_design_pcpcache },
};

static const struct mmscale_metric fault_metrics[] = {
	{ "time", "ns per fault (lower is better)", false },
	{ "folds", "carries into the mm's shared counters per fault (exact)", true },
	{ "locked_ops", "locked read-modify-writes per fault (exact)", true },
};
static const struct mmscale_metric read_metrics[] = {
	{ "time", "ns per read (lower is better)", false },
	{ "percpu_sum_slots", "per-CPU (or per-node) counters read per read (exact)", true },
	{ "error_bound_pages", "the most get_mm_counter can be off, settled, in pages (exact)", true },
};
static const struct mmscale_metric fork_exit_metrics[] = {
	{ "time", "ns per mm (lower is better)", false },
	{ "percpu_sum_slots", "per-CPU (or per-node) counters read per mm (exact)", true },
	{ "lock_acquires", "spin lock acquisitions per mm (exact)", true },
	{ "lines_zeroed", "cache lines zeroed per mm: the per-CPU units and the tree's items "
	  "(exact for this placement)", true },
};

static const struct mmscale_metric drift_metrics[] = {
	{ "error_max_pages", "the largest |get_mm_counter - true| in the walk, pages (exact)", true },
	{ "error_bound_pages", "the design's bound for one task, pages (exact)", true },
	{ "error_max_bytes", "the largest error in bytes (4 KiB pages, exact)", true },
	{ "true_max_pages", "the most pages the task held at a stop (exact)", true },
	{ "time", "ns per walk of 4 stops per CPU (lower is better)", false },
};

static const struct mmscale_metric oom_metrics[] = {
	{ "time", "ns per scan of every process (lower is better)", false },
	{ "percpu_sum_slots", "per-CPU (or per-node) counters read per scan (exact)", true },
	{ "victim_ok", "1 if the scan chose the largest process (exact)", true },
};

static const int64_t oom_args[][MMSCALE_MAX_ARGS] = { { 10 }, { 100 }, { 1000 }, { 10000 } };
static const char *const oom_arg_names[] = { "procs" };

static const int64_t read_args[][MMSCALE_MAX_ARGS] = { { 0 }, { 1 } };
static const char *const read_arg_names[] = { "writers" };
static const int64_t cpus_args[][MMSCALE_MAX_ARGS] = { MMSCALE_CPU_COUNT_ROWS };
static const char *const cpus_arg_names[] = { "cpus" };

#define RSS_COUNTS (MMSCALE_COUNT_BIT(MMSCALE_FOLDS) | MMSCALE_COUNT_BIT(MMSCALE_LOCKED_OPS) | \
		    MMSCALE_COUNT_BIT(MMSCALE_LOCK_ACQUIRES) |				     \
		    MMSCALE_COUNT_BIT(MMSCALE_PERCPU_SUM_SLOTS) |			     \
		    MMSCALE_COUNT_BIT(MMSCALE_BDI_READS) |				     \
		    MMSCALE_COUNT_BIT(MMSCALE_PERCPU_ALLOCS) |				     \
		    MMSCALE_COUNT_BIT(MMSCALE_LINES_ZEROED))

static const struct mmscale_case rss_cases[] = {
	{
		.name = "rss/fault",
		.summary = "one anonymous fault's rss accounting by every thread of one process: "
			   "6.1's task cache, 6.18's percpu_counter, the posted designs",
		.setup = fault_setup, .body = fault_body, .teardown = rss_teardown,
		.threads = MMSCALE_THREADS_SWEEP, .counts = RSS_COUNTS,
		MMSCALE_CLAIM_OPS(fault_claim_ops, fault_one_op),
		MMSCALE_VARIANT_ROWS(fault_variants), MMSCALE_METRICS(fault_metrics),
	},
	{
		.name = "rss/read",
		.summary = "get_mm_counter (/proc/PID/status) vs the precise sum (OOM scoring), "
			   "with a thread faulting, and the approximate read's error bound",
		.setup = read_setup, .body = read_body, .teardown = rss_teardown,
		.threads = MMSCALE_THREADS_SWEEP, .counts = RSS_COUNTS, .partner_cpus = 1,
		MMSCALE_CLAIM(read_claim, read_one_op),
		MMSCALE_VARIANT_ROWS(read_variants), MMSCALE_METRICS(read_metrics),
		MMSCALE_ARGS(read_args, read_arg_names),
	},
	{
		.name = "rss/drift",
		.summary = "one task faulting and unmapping while it migrates over every CPU: "
			   "get_mm_counter's worst error against the true count, and its bound",
		.setup = drift_setup, .body = drift_body, .teardown = drift_teardown,
		.threads = MMSCALE_THREADS_ONE, .counts = RSS_COUNTS,
		.cpus = MMSCALE_CPUS_WHOLE_PLAN,
		MMSCALE_VARIANT_ROWS(drift_variants), MMSCALE_METRICS(drift_metrics),
	},
	{
		.name = "rss/oom_scan",
		.summary = "the OOM killer's victim scan over N processes: each design's read, "
			   "before and after 5898aa8f9a0b's precise sums",
		.setup = oom_setup, .body = oom_scan_body, .teardown = oom_teardown,
		.threads = MMSCALE_THREADS_ONE, .counts = RSS_COUNTS,
		.cpus = MMSCALE_CPUS_WHOLE_PLAN,
		MMSCALE_CLAIM(oom_scan_claim, oom_scan_op),
		MMSCALE_VARIANT_ROWS(oom_variants), MMSCALE_METRICS(oom_metrics),
		MMSCALE_ARGS(oom_args, oom_arg_names),
		.claim_args_rows = 2,	/* 10 and 100 processes: the claim is linear in them */
	},
	{
		.name = "rss/fork_exit",
		.summary = "the rss counters' cost per mm at fork and exit, by CPUs online",
		.setup = rss_setup, .body = fork_exit_body, .teardown = rss_teardown,
		.threads = MMSCALE_THREADS_ONE, .counts = RSS_COUNTS,
		.cpus = MMSCALE_CPUS_ARG0_ONLINE,
		MMSCALE_CLAIM(fork_exit_claim, fork_exit_op),
		MMSCALE_VARIANT_ROWS(fork_exit_variants), MMSCALE_METRICS(fork_exit_metrics),
		MMSCALE_ARGS(cpus_args, cpus_arg_names),
	},
};

const struct mmscale_case_table mmscale_rss_table = MMSCALE_CASE_TABLE("rss", rss_cases);
