// SPDX-License-Identifier: GPL-2.0
/*
 * The mm's resident-set counters, Linux 6.1's per-task cache synced into
 * atomics against 6.18's percpu_counters (include/mmscale/linux-6.18/mm/rss_stat.h):
 * cached locals against a global again. rss/fault is the fault path's
 * update by every thread of one process; rss/read is get_mm_counter, the
 * approximate read, against the sum over CPUs; rss/fork_exit is what every
 * mm costs at fork and exit, swept over the CPUs online (what 6.2's
 * change cost: the b- postings in ../shared/kernel/patches).
 */
#define _GNU_SOURCE
#include <stdlib.h>

#include "mmscale/case.h"
#include "mmscale/cpu.h"
#include "mmscale/errorf.h"
#include "mmscale/kernel/cpumask.h"
#include "mmscale/kernel/machine.h"
#include "mmscale/mm/config.h"
#include "mmscale/linux-6.18/mm/rss_stat.h"
#include "mmscale/params.h"

enum rss_kernel { RSS_6_1, RSS_6_18 };

struct rss_run {
	struct mm_struct_6_1 *mm_6_1;
	struct mm_struct_6_18 *mm_6_18;
	bool mm_6_18_live;		/* its percpu_counters initialised */
	_Atomic long faults;		/* every thread's faults, added at its end */
	struct mmscale_partner writer;	/* rss/read's faulting thread */
	_Atomic bool stop;
};

/* Each case's rows: the kernel and, for rss/read, the read. */
struct rss_variant {
	struct mmscale_variant v;
	enum rss_kernel kernel;
	unsigned long (*read)(struct rss_run *rr);	/* rss/read only */
	bool sums;					/* rss/read: a sum over CPUs */
};

static int rss_setup(struct mmscale_run *run, int nr_threads, char *err, size_t errlen)
{
	struct rss_run *rr = calloc(1, sizeof(*rr));
	struct mm_machine_config cfg;

	(void)nr_threads;
	if (!rr)
		return mmscale_errorf(err, errlen, "out of memory");
	run->data = rr;
	rr->mm_6_1 = alloc_global(sizeof(*rr->mm_6_1), err, errlen);
	rr->mm_6_18 = rr->mm_6_1 ? alloc_global(sizeof(*rr->mm_6_18), err, errlen) : NULL;
	if (!rr->mm_6_18)
		goto fail;
	mm_init_rss_6_1(rr->mm_6_1);
	/* --set's knobs (no zones here to set up with them), then the hotplug
	 * callback, as it has run for every CPU online in this run. */
	mmscale_mm_config(&cfg);
	mm_config_set_knobs(&cfg);
	compute_batch_value_6_18();
	if (mm_init_rss_6_18(rr->mm_6_18) != 0) {
		mmscale_errorf(err, errlen, "per-CPU units full");
		goto fail;
	}
	rr->mm_6_18_live = true;
	return 0;
fail:
	if (rr->mm_6_18)
		free_on_node(rr->mm_6_18, sizeof(*rr->mm_6_18));
	if (rr->mm_6_1)
		free_on_node(rr->mm_6_1, sizeof(*rr->mm_6_1));
	free(rr);
	run->data = NULL;
	return -1;
}

/*
 * The books: every fault counted once, in either generation's counter
 * (the 6.1 threads synced their caches at their end, as exit_mm does).
 */
static int rss_teardown(struct mmscale_run *run, char *err, size_t errlen)
{
	struct rss_run *rr = run->data;
	const struct rss_variant *row = container_of(run->v, struct rss_variant, v);
	long want = atomic_load(&rr->faults), got;
	int status = 0;

	if (rr->writer.started) {
		atomic_store(&rr->stop, true);
		mmscale_partner_join(&rr->writer);
		want = atomic_load(&rr->faults);
	}
	/* A task left on this thread by fault_one_op: its exit_mm's sync. */
	if (current_rss_6_1.mm == rr->mm_6_1) {
		sync_mm_rss_6_1(rr->mm_6_1);
		current_rss_6_1.mm = NULL;
	}
	if (row->kernel == RSS_6_1)
		got = check_mm_6_1(rr->mm_6_1);
	else
		got = rr->mm_6_18_live ? mm_free_rss_6_18(rr->mm_6_18) : want;
	if (row->kernel == RSS_6_1 && rr->mm_6_18_live)
		mm_free_rss_6_18(rr->mm_6_18);
	if (got != want)
		status = mmscale_errorf(err, errlen, "%s rss counters hold %ld pages, %ld faults "
					"were counted", row->kernel == RSS_6_1 ? "6.1" : "6.18",
					got, want);
	free_on_node(rr->mm_6_18, sizeof(*rr->mm_6_18));
	free_on_node(rr->mm_6_1, sizeof(*rr->mm_6_1));
	free(rr);
	run->data = NULL;
	return status;
}

/* One anonymous fault's accounting, as handle_mm_fault and do_anonymous_page do it. */
static inline void fault_6_1(struct rss_run *rr)
{
	check_sync_rss_stat_6_1(&current_rss_6_1);
	add_mm_counter_fast_6_1(rr->mm_6_1, MM_ANONPAGES, 1);	/* inc_mm_counter_fast */
}

static inline void fault_6_18(struct rss_run *rr)
{
	add_mm_counter_6_18(rr->mm_6_18, MM_ANONPAGES, 1);	/* inc_mm_counter */
}

/* A task of the process on this CPU: its mm, an empty cache. */
static void enter_task(struct rss_run *rr)
{
	current_rss_6_1.mm = rr->mm_6_1;
	current_rss_6_1.rss_stat = (struct task_rss_stat){ 0 };
}

/* Its exit: exit_mm's sync_mm_rss (6.1), and its faults into the books. */
static void exit_task(struct rss_run *rr, long faults)
{
	sync_mm_rss_6_1(rr->mm_6_1);
	current_rss_6_1.mm = NULL;
	atomic_fetch_add(&rr->faults, faults);
}

#define FAULT_BATCH 64

static void fault_body(struct mmscale_state *st, struct mmscale_run *run)
{
	struct rss_run *rr = run->data;
	const struct rss_variant *row = container_of(run->v, struct rss_variant, v);
	long faults = 0;

	enter_task(rr);
	if (row->kernel == RSS_6_1) {
		while (mmscale_keep_running_batch(st, FAULT_BATCH))
			for (int i = 0; i < FAULT_BATCH; i++)
				fault_6_1(rr);
	} else {
		while (mmscale_keep_running_batch(st, FAULT_BATCH))
			for (int i = 0; i < FAULT_BATCH; i++)
				fault_6_18(rr);
	}
	faults = (long)mmscale_iterations(st);
	exit_task(rr, faults);
}

/* One fault on the calling CPU, by a task of the process that entered on the first. */
static void fault_one_op(struct mmscale_run *run)
{
	struct rss_run *rr = run->data;

	if (current_rss_6_1.mm != rr->mm_6_1)
		enter_task(rr);
	if (container_of(run->v, struct rss_variant, v)->kernel == RSS_6_1)
		fault_6_1(rr);
	else
		fault_6_18(rr);
	atomic_fetch_add(&rr->faults, 1);
}

/*
 * nr_ops faults of one task from a fresh mm. 6.1: the task's cache is
 * synced into the mm's atomics when its events counter was past
 * TASK_RSS_EVENTS_THRESH (64) before the fault: the 66th fault, then every
 * 66th (the sync sets events to 0 after its increment); one atomic add.
 * 6.18: percpu_counter_add folds the CPU's s32 when count + 1 reaches the
 * batch (--set percpu_counter_batch's, or compute_batch_value's): every
 * batch-th fault, every fault for a batch of 0 or 1; under fbc->lock.
 */
static bool fault_claim_ops(const struct mmscale_run *run, uint64_t nr_ops,
			    struct mmscale_claim *out)
{
	const struct rss_variant *row = container_of(run->v, struct rss_variant, v);
	int knob = mm_config()->percpu_counter_batch;
	uint64_t batch = (uint64_t)(knob != MM_KNOB_AUTO ? knob : percpu_counter_batch_6_18);
	uint64_t folds;

	if (row->kernel == RSS_6_1)
		folds = nr_ops / (TASK_RSS_EVENTS_THRESH + 2);
	else
		folds = nr_ops / (batch > 1 ? batch : 1);
	out->which = MMSCALE_COUNT_BIT(MMSCALE_FOLDS) | MMSCALE_COUNT_BIT(MMSCALE_LOCK_ACQUIRES) |
		     MMSCALE_COUNT_BIT(MMSCALE_LOCKED_OPS);
	out->v[MMSCALE_FOLDS] = folds;
	out->v[MMSCALE_LOCK_ACQUIRES] = row->kernel == RSS_6_1 ? 0 : folds;
	out->v[MMSCALE_LOCKED_OPS] = folds;
	return true;
}

/* rss/read's partner: a thread of the process faulting as fast as it can. */
static void fault_writer(void *arg)
{
	struct mmscale_run *run = arg;
	struct rss_run *rr = run->data;
	const struct rss_variant *row = container_of(run->v, struct rss_variant, v);
	unsigned int spins = 0;
	long faults = 0;

	enter_task(rr);
	while (!atomic_load_explicit(&rr->stop, memory_order_relaxed)) {
		if (row->kernel == RSS_6_1)
			fault_6_1(rr);
		else
			fault_6_18(rr);
		faults++;
		spin_wait_step(&spins);
	}
	exit_task(rr, faults);
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

static unsigned long read_6_1(struct rss_run *rr)
{
	return get_mm_counter_6_1(rr->mm_6_1, MM_ANONPAGES);
}

static unsigned long read_6_18(struct rss_run *rr)
{
	return get_mm_counter_6_18(rr->mm_6_18, MM_ANONPAGES);
}

static unsigned long sum_6_18(struct rss_run *rr)
{
	return get_mm_counter_sum_6_18(rr->mm_6_18, MM_ANONPAGES);
}

#define READ_BATCH 16

static void read_body(struct mmscale_state *st, struct mmscale_run *run)
{
	struct rss_run *rr = run->data;
	unsigned long (*read)(struct rss_run *) = container_of(run->v, struct rss_variant, v)->read;
	unsigned long sum = 0;

	while (mmscale_keep_running_batch(st, READ_BATCH))
		for (int i = 0; i < READ_BATCH; i++)
			sum += read(rr);
	__asm__ __volatile__("" : : "r"(sum));
}

static void read_one_op(struct mmscale_run *run)
{
	container_of(run->v, struct rss_variant, v)->read(run->data);
}

/*
 * get_mm_counter: 6.1 one atomic_long_read (a plain load), 6.18
 * percpu_counter_read_positive (one load of fbc->count); 6.18's
 * get_mm_counter_sum: __percpu_counter_sum, fbc->lock and every online
 * CPU's s32 (percpu_counter.c 171-185). The sum's lock is one locked
 * instruction when no one else holds or waits for it; with a writer
 * folding under the same lock (writers:1) or another thread summing,
 * 6.18's queued spinlock can take more (the pending bit, the queue's tail:
 * kernel/qspinlock.h), as many as the timing makes, so those runs claim
 * their acquisitions, not their locked ops.
 */
static bool read_claim(const struct mmscale_run *run, struct mmscale_claim *out)
{
	const struct rss_variant *row = container_of(run->v, struct rss_variant, v);
	bool contended = row->sums && (run->args[0] > 0 || run->nr_threads > 1);

	out->which = MMSCALE_COUNT_BIT(MMSCALE_BDI_READS) |
		     MMSCALE_COUNT_BIT(MMSCALE_PERCPU_SUM_SLOTS) |
		     MMSCALE_COUNT_BIT(MMSCALE_LOCK_ACQUIRES) |
		     (contended ? 0 : MMSCALE_COUNT_BIT(MMSCALE_LOCKED_OPS));
	out->v[MMSCALE_BDI_READS] = row->kernel == RSS_6_18 && !row->sums;
	out->v[MMSCALE_PERCPU_SUM_SLOTS] = row->sums ? num_online_cpus() : 0;
	out->v[MMSCALE_LOCK_ACQUIRES] = row->sums;
	out->v[MMSCALE_LOCKED_OPS] = row->sums;
	return true;
}

/* One mm's life, as far as its rss counters go: mm_init, then check_mm and the free. */
static void fork_exit_op(struct mmscale_run *run)
{
	struct rss_run *rr = run->data;
	const struct rss_variant *row = container_of(run->v, struct rss_variant, v);

	if (row->kernel == RSS_6_1) {
		/* copy_process's memset of the task's cache, mm_init's of the mm's */
		current_rss_6_1.rss_stat = (struct task_rss_stat){ 0 };
		current_rss_6_1.mm = rr->mm_6_1;
		mm_init_rss_6_1(rr->mm_6_1);
		/* exit_mm's sync_mm_rss (a task that never faulted: nothing to add), check_mm */
		sync_mm_rss_6_1(rr->mm_6_1);
		current_rss_6_1.mm = NULL;
		check_mm_6_1(rr->mm_6_1);
	} else {
		mm_free_rss_6_18(rr->mm_6_18);
		rr->mm_6_18_live = false;
		if (mm_init_rss_6_18(rr->mm_6_18) == 0)
			rr->mm_6_18_live = true;
	}
}

static void fork_exit_body(struct mmscale_state *st, struct mmscale_run *run)
{
	while (mmscale_keep_running(st))
		fork_exit_op(run);
}

/*
 * 6.18, per mm: percpu_counter_init_many allocates the NR_MM_COUNTERS
 * counters' per-CPU s32s at once through pcpu_alloc (pcpu_alloc_mutex, a
 * cmpxchg to take and one to give back, and pcpu_lock: mm/percpu.c
 * 1781-1829), zeroed in every CPU's unit, then takes percpu_counters_lock
 * once to link them (percpu_counter.c 218-221); check_mm sums each counter
 * (its lock, every online CPU); percpu_counter_destroy_many takes
 * percpu_counters_lock again to unlink them (241-246) and free_percpu
 * takes pcpu_lock (2243). Each spin lock is one locked operation. Still a
 * lower bound of the kernel's: the memcg charge and uncharge of
 * GFP_KERNEL_ACCOUNT are not emulated (linux-6.18/mm/percpu.h).
 * 6.1: the task's and the mm's caches set to zero, a sync with nothing to
 * add, four plain loads.
 */
static bool fork_exit_claim(const struct mmscale_run *run, struct mmscale_claim *out)
{
	const struct rss_variant *row = container_of(run->v, struct rss_variant, v);
	bool v618 = row->kernel == RSS_6_18;

	out->which = MMSCALE_COUNT_BIT(MMSCALE_PERCPU_SUM_SLOTS) |
		     MMSCALE_COUNT_BIT(MMSCALE_LOCK_ACQUIRES) |
		     MMSCALE_COUNT_BIT(MMSCALE_LOCKED_OPS);
	out->v[MMSCALE_PERCPU_SUM_SLOTS] = v618 ? (u64)NR_MM_COUNTERS * num_online_cpus() : 0;
	/* the sums' locks, percpu_counters_lock twice, pcpu_lock twice; and the mutex's two */
	out->v[MMSCALE_LOCK_ACQUIRES] = v618 ? NR_MM_COUNTERS + 2 + 2 : 0;
	out->v[MMSCALE_LOCKED_OPS] = v618 ? NR_MM_COUNTERS + 2 + 2 + 2 : 0;
	return true;
}

static const struct rss_variant fault_variants[] = {
	{ { "6.1-split", "SPLIT_RSS_COUNTING: the task's cache, synced every 66th fault",
	    "mm/memory.c 6.1 (unifreq/linux-6.1.y 3f562c74)" }, RSS_6_1, NULL, false },
	{ { "6.18-percpu", "add_mm_counter: percpu_counter_add, folded at the batch",
	    "include/linux/mm.h 6.18, lib/percpu_counter.c 6.18" }, RSS_6_18, NULL, false },
};

static const struct rss_variant read_variants[] = {
	{ { "6.1-get_mm_counter", "atomic_long_read of the mm's counter",
	    "include/linux/mm.h 6.1" }, RSS_6_1, read_6_1, false },
	{ { "6.18-get_mm_counter", "percpu_counter_read_positive: fbc->count only",
	    "include/linux/mm.h 6.18" }, RSS_6_18, read_6_18, false },
	{ { "6.18-get_mm_counter_sum", "percpu_counter_sum_positive: the lock, every online CPU",
	    "include/linux/mm.h 6.18" }, RSS_6_18, sum_6_18, true },
};

static const struct rss_variant fork_exit_variants[] = {
	{ { "6.1", "the task's and mm's counters zeroed, exit's sync, check_mm's four reads",
	    "kernel/fork.c 6.1" }, RSS_6_1, NULL, false },
	{ { "6.18", "percpu_counter_init_many (pcpu_alloc's mutex and lock), check_mm's four "
	    "sums, destroy_many (free_percpu's lock); no memcg charge",
	    "kernel/fork.c, lib/percpu_counter.c, mm/percpu.c 6.18" }, RSS_6_18, NULL, false },
};

static const struct mmscale_metric fault_metrics[] = {
	{ "time", "ns per fault (lower is better)", false },
	{ "folds", "syncs or folds into the mm's shared counter per fault (exact)", true },
	{ "locked_ops", "locked read-modify-writes per fault (exact)", true },
};
static const struct mmscale_metric read_metrics[] = {
	{ "time", "ns per read (lower is better)", false },
	{ "percpu_sum_slots", "per-CPU counters read per read (exact)", true },
};
static const struct mmscale_metric fork_exit_metrics[] = {
	{ "time", "ns per mm (lower is better)", false },
	{ "percpu_sum_slots", "per-CPU counters read per mm (exact)", true },
	{ "lock_acquires", "spin lock acquisitions per mm (exact)", true },
};

static const int64_t read_args[][MMSCALE_MAX_ARGS] = { { 0 }, { 1 } };
static const char *const read_arg_names[] = { "writers" };
static const int64_t cpus_args[][MMSCALE_MAX_ARGS] = { MMSCALE_CPU_COUNT_ROWS };
static const char *const cpus_arg_names[] = { "cpus" };

#define RSS_COUNTS (MMSCALE_COUNT_BIT(MMSCALE_FOLDS) | MMSCALE_COUNT_BIT(MMSCALE_LOCKED_OPS) | \
		    MMSCALE_COUNT_BIT(MMSCALE_LOCK_ACQUIRES) |				     \
		    MMSCALE_COUNT_BIT(MMSCALE_PERCPU_SUM_SLOTS) | MMSCALE_COUNT_BIT(MMSCALE_BDI_READS))

static const struct mmscale_case rss_cases[] = {
	{
		.name = "rss/fault",
		.summary = "one anonymous fault's rss accounting by every thread of one process: "
			   "6.1's task cache vs 6.18's percpu_counter",
		.setup = rss_setup, .body = fault_body, .teardown = rss_teardown,
		.threads = MMSCALE_THREADS_SWEEP, .counts = RSS_COUNTS,
		MMSCALE_CLAIM_OPS(fault_claim_ops, fault_one_op),
		MMSCALE_VARIANT_ROWS(fault_variants), MMSCALE_METRICS(fault_metrics),
	},
	{
		.name = "rss/read",
		.summary = "get_mm_counter (/proc/PID/status, OOM scoring) vs the sum over CPUs, "
			   "with a thread faulting",
		.setup = read_setup, .body = read_body, .teardown = rss_teardown,
		.threads = MMSCALE_THREADS_SWEEP, .counts = RSS_COUNTS, .partner_cpus = 1,
		MMSCALE_CLAIM(read_claim, read_one_op),
		MMSCALE_VARIANT_ROWS(read_variants), MMSCALE_METRICS(read_metrics),
		MMSCALE_ARGS(read_args, read_arg_names),
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
