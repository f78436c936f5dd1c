// SPDX-License-Identifier: GPL-2.0
/*
 * The counter cases: what repeated reads of global counters cost next to
 * cached locals (vmstat/global_read), what updates cost and how often they
 * fold (vmstat/mod), approximate vs exact percpu_counter reads
 * (percpu/read_vs_sum), one unthrottled balance_dirty_pages call per
 * variant (bdp/: 2.6.31's, and 3.1's and the IO-less kernels' on the
 * machine, counters/iol_bdp.h), one throttled pass of the latter
 * (bdp_throttled/), and writers dirtying a file through each 2.6.31 variant
 * with a flusher completing writeback (dirty/).
 *
 * Every run builds a fresh emulated memory (mm_machine_setup) and, at its
 * end, folds every CPU's deltas and checks the accounting.
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mmscale/case.h"
#include "mmscale/cpu.h"
#include "mmscale/kernel/cpumask.h"
#include "mmscale/mm/writeback.h"
#include "mmscale/notice.h"
#include "mmscale/params.h"

#include "bdp_rows.h"
#include "iol_bdp.h"

struct counters_run {
	struct writeback_world *world;
	struct percpu_counter fbc;
	struct mmscale_partner writer;
	_Atomic bool stop;
	int nr_threads;
	bool iol;		/* the IO-less kernels' state (iol_bdp_setup) */
	unsigned long claim_bdi_thresh;	/* bdp/: the row's claim_bdi_thresh, at setup */
};

static int counters_setup_common(struct mmscale_run *run, char *err, size_t errlen)
{
	struct counters_run *cr = calloc(1, sizeof(*cr));
	struct mm_machine_config cfg;

	mmscale_mm_config(&cfg);	/* the machine's parameters, from the flags */
	if (!cr || mm_machine_setup_config(&cfg, err, errlen) != 0) {
		if (!cr)
			mmscale_errorf(err, errlen, "out of memory");
		free(cr);
		return -1;
	}
	cr->nr_threads = run->nr_threads;
	run->data = cr;
	return 0;
}

/*
 * Fold every CPU's deltas (no thread runs now), check the accounting and
 * free the run; a failed check fails the run it ends (-1, why in err).
 */
static int counters_teardown(struct mmscale_run *run, char *err, size_t errlen)
{
	struct counters_run *cr = run->data;
	int status = 0;

	if (cr->writer.started) {
		atomic_store(&cr->stop, true);
		mmscale_partner_join(&cr->writer);
	}
	if (cr->world)
		writeback_world_stop_flusher(cr->world);
	for (unsigned int cpu = 0; cpu < nr_cpu_ids; cpu++)
		refresh_cpu_vm_stats((int)cpu);
	if (cr->world && writeback_world_check(cr->world, err, errlen) != 0)
		status = -1;
	if (cr->iol && iol_bdp_teardown(err, errlen) != 0)
		status = -1;
	writeback_world_destroy(cr->world);
	if (cr->fbc.counters)
		percpu_counter_destroy(&cr->fbc);
	mm_machine_teardown();
	free(cr);
	run->data = NULL;
	return status;
}

/* A setup that failed half-way: undo it, keep the setup's reason. */
static int counters_setup_failed(struct mmscale_run *run)
{
	char ignored[8];

	counters_teardown(run, ignored, sizeof(ignored));
	return -1;
}

/*
 * vmstat/global_read: a reader needs k global items, each in READ_USES
 * places (balance_dirty_pages in 2.6.31-rc8 reads NR_FILE_DIRTY three
 * times). repeated calls global_page_state() at every use; cached reads
 * each item once into a local. Items are NR_FILE_MAPPED..NR_UNSTABLE_NFS:
 * one line of the packed vm_stat[], the line dirtying CPUs fold into.
 */
#define READ_USES 3
#define READ_BATCH 16

static const enum zone_stat_item read_items[8] = {
	NR_FILE_DIRTY, NR_WRITEBACK, NR_UNSTABLE_NFS, NR_FILE_PAGES,
	NR_FILE_MAPPED, NR_SLAB_RECLAIMABLE, NR_SLAB_UNRECLAIMABLE, NR_PAGETABLE,
};

static unsigned long read_repeated(int k)
{
	unsigned long sum = 0;

	for (int use = 0; use < READ_USES; use++)
		for (int i = 0; i < k; i++)
			sum += global_page_state(read_items[i]);
	return sum;
}

static unsigned long read_cached(int k)
{
	unsigned long v[ARRAY_SIZE(read_items)], sum = 0;

	for (int i = 0; i < k; i++)
		v[i] = global_page_state(read_items[i]);
	for (int use = 0; use < READ_USES; use++)
		for (int i = 0; i < k; i++)
			sum += v[i];
	return sum;
}

/* vmstat/global_read's variants: how k items needed READ_USES times each are read. */
struct global_read_variant {
	struct mmscale_variant v;
	unsigned long (*read)(int k);
	unsigned int global_reads_per_item;	/* claim: global_page_state calls per item */
};

/* The writer CPU folds into the same line as fast as it can: every call folds. */
static void fold_writer(void *arg)
{
	struct counters_run *cr = arg;
	struct zone *zone = local_zone(smp_processor_id());
	int delta = this_cpu_ptr(zone->pageset)->stat_threshold + 1;
	unsigned int spins = 0, i = 0;

	while (!atomic_load_explicit(&cr->stop, memory_order_relaxed)) {
		enum zone_stat_item item = read_items[i++ % ARRAY_SIZE(read_items)];

		__mod_zone_page_state(zone, item, delta);
		__mod_zone_page_state(zone, item, -delta);
		spin_wait_step(&spins);
	}
}

static int global_read_setup(struct mmscale_run *run, int nr_threads, char *err, size_t errlen)
{
	struct counters_run *cr;

	if (counters_setup_common(run, err, errlen) != 0)
		return -1;
	cr = run->data;
	if (run->args[1] > 0 &&
	    mmscale_partner_start(&cr->writer, nr_threads, fold_writer, cr, err, errlen))
		return counters_setup_failed(run);
	return 0;
}

static void global_read_body(struct mmscale_state *st, struct mmscale_run *run)
{
	unsigned long (*fn)(int k) = container_of(run->v, struct global_read_variant, v)->read;
	int k = (int)run->args[0];
	unsigned long sum = 0;

	while (mmscale_keep_running_batch(st, READ_BATCH))
		for (int i = 0; i < READ_BATCH; i++)
			sum += fn(k);
	__asm__ __volatile__("" : : "r"(sum));
}

static void global_read_one_op(struct mmscale_run *run)
{
	container_of(run->v, struct global_read_variant, v)->read((int)run->args[0]);
}

/* Each reader's own reads: READ_USES x k re-reading, k caching, whatever the writers do. */
static bool global_read_claim(const struct mmscale_run *run, struct mmscale_claim *out)
{
	const struct global_read_variant *row = container_of(run->v, struct global_read_variant, v);

	out->which = MMSCALE_COUNT_BIT(MMSCALE_GLOBAL_READS);
	out->v[MMSCALE_GLOBAL_READS] = (u64)row->global_reads_per_item * (u64)run->args[0];
	return true;
}

/* vmstat/mod: one counter update per call on the CPU's own zone. */
#define MOD_BATCH 64

static void mod_inc(struct zone *zone)
{
	__inc_zone_state(zone, NR_FILE_DIRTY);
}

static void mod_mod(struct zone *zone)
{
	__mod_zone_page_state(zone, NR_FILE_DIRTY, 1);
}

/* vmstat/mod's variants: the update function. */
struct mod_variant {
	struct mmscale_variant v;
	void (*mod)(struct zone *zone);
};

static int plain_setup(struct mmscale_run *run, int nr_threads, char *err, size_t errlen)
{
	(void)nr_threads;
	return counters_setup_common(run, err, errlen);
}

static void mod_body(struct mmscale_state *st, struct mmscale_run *run)
{
	void (*fn)(struct zone *zone) = container_of(run->v, struct mod_variant, v)->mod;
	struct zone *zone = local_zone(smp_processor_id());
	u64 vmstat_period = mm_config()->vmstat_interval_ns;	/* read once, not per batch */

	while (mmscale_keep_running_batch(st, MOD_BATCH)) {
		for (int i = 0; i < MOD_BATCH; i++)
			fn(zone);
		vmstat_work_tick(vmstat_period);	/* vmstat_update */
	}
}

/* percpu/read_vs_sum: the bdi_stat read against the exact sum over every CPU. */
static s64 percpu_read(struct percpu_counter *fbc)
{
	return percpu_counter_read_positive(fbc);
}

static s64 percpu_sum(struct percpu_counter *fbc)
{
	return percpu_counter_sum_positive(fbc);
}

/* percpu/read_vs_sum's variants: the read, and its claim per call. */
struct percpu_read_variant {
	struct mmscale_variant v;
	s64 (*read)(struct percpu_counter *fbc);
	unsigned int bdi_reads;		/* approximate reads */
	unsigned int slots_per_cpu;	/* per-CPU slots read, per online CPU */
	unsigned int locks;		/* fbc->lock acquisitions */
};

static int percpu_setup(struct mmscale_run *run, int nr_threads, char *err, size_t errlen)
{
	struct counters_run *cr;

	if (plain_setup(run, nr_threads, err, errlen) != 0)
		return -1;
	cr = run->data;
	if (percpu_counter_init(&cr->fbc, 0) != 0) {
		mmscale_errorf(err, errlen, "per-CPU units full");
		return counters_setup_failed(run);
	}
	return 0;
}

static void percpu_body(struct mmscale_state *st, struct mmscale_run *run)
{
	struct counters_run *cr = run->data;
	s64 (*fn)(struct percpu_counter *fbc) =
		container_of(run->v, struct percpu_read_variant, v)->read;
	s64 sum = 0;

	/* Leave a delta in this CPU's slot, as a busy bdi has. */
	percpu_counter_add(&cr->fbc, 1);
	while (mmscale_keep_running_batch(st, READ_BATCH))
		for (int i = 0; i < READ_BATCH; i++)
			sum += fn(&cr->fbc);
	__asm__ __volatile__("" : : "r"(sum));
}

static void percpu_one_op(struct mmscale_run *run)
{
	struct counters_run *cr = run->data;

	container_of(run->v, struct percpu_read_variant, v)->read(&cr->fbc);
}

/* One read: one shared load; one sum: the lock and every online CPU's slot. */
static bool percpu_claim(const struct mmscale_run *run, struct mmscale_claim *out)
{
	const struct percpu_read_variant *row = container_of(run->v, struct percpu_read_variant, v);

	out->which = MMSCALE_COUNT_BIT(MMSCALE_BDI_READS) |
		     MMSCALE_COUNT_BIT(MMSCALE_PERCPU_SUM_SLOTS) |
		     MMSCALE_COUNT_BIT(MMSCALE_LOCK_ACQUIRES);
	out->v[MMSCALE_BDI_READS] = row->bdi_reads;
	out->v[MMSCALE_PERCPU_SUM_SLOTS] = (u64)row->slots_per_cpu * num_online_cpus();
	out->v[MMSCALE_LOCK_ACQUIRES] = row->locks;
	return true;
}

/*
 * A run of 3.1's or an IO-less kernel's call (bdp/, bdp_throttled/): the
 * emulated memory, then counters/iol_machine.c's state for ops.
 */
static int iol_setup(struct mmscale_run *run, int nr_threads,
		     const struct iol_machine_ops *ops, enum iol_bdp_state state,
		     char *err, size_t errlen)
{
	if (plain_setup(run, nr_threads, err, errlen) != 0)
		return -1;
	if (iol_bdp_setup(ops, state, err, errlen) != 0)
		return counters_setup_failed(run);
	((struct counters_run *)run->data)->iol = true;
	return 0;
}

/*
 * bdp/: one balance_dirty_pages call, unthrottled: nothing dirty, no
 * flusher busy. A 2.6.31 row calls its variant on the writeback world of
 * counters/page-writeback.c; an IO-less row (and 3.1's) its kernel's call
 * on counters/iol_machine.c's state.
 */
static int bdp_setup(struct mmscale_run *run, int nr_threads, char *err, size_t errlen)
{
	const struct bdp_variant *row = container_of(run->v, struct bdp_variant, v);
	struct counters_run *cr;

	if (row->iol)
		return iol_setup(run, nr_threads, row->iol, IOL_BDP_UNTHROTTLED, err, errlen);
	if (plain_setup(run, nr_threads, err, errlen) != 0)
		return -1;
	cr = run->data;
	cr->world = writeback_world_create(nr_threads, 0, -1, err, errlen);
	if (!cr->world)
		return counters_setup_failed(run);
	/* What every thread's call will compute: the state does not change. */
	if (row->claim_bdi_thresh)
		cr->claim_bdi_thresh = row->claim_bdi_thresh(&cr->world->bdi);
	return 0;
}

static struct address_space *my_mapping(struct mmscale_run *run)
{
	struct counters_run *cr = run->data;
	struct address_space *mapping = &cr->world->mappings[smp_processor_id()];

	mapping->balance_dirty_pages =
		container_of(run->v, struct bdp_variant, v)->balance_dirty_pages;
	return mapping;
}

static void bdp_body(struct mmscale_state *st, struct mmscale_run *run)
{
	const struct iol_machine_ops *iol = container_of(run->v, struct bdp_variant, v)->iol;
	struct address_space *mapping;

	if (iol) {
		iol_bdp_enter();
		while (mmscale_keep_running(st))
			iol_bdp_call(iol);
		return;
	}
	mapping = my_mapping(run);
	while (mmscale_keep_running(st))
		mapping->balance_dirty_pages(mapping);
}

static void bdp_one_op(struct mmscale_run *run)
{
	const struct iol_machine_ops *iol = container_of(run->v, struct bdp_variant, v)->iol;
	struct address_space *mapping;

	if (iol) {
		iol_bdp_enter();
		iol_bdp_call(iol);
		return;
	}
	mapping = my_mapping(run);
	mapping->balance_dirty_pages(mapping);
}

/*
 * bdi_stat_error of 2.6.31 and 3.2: nr_cpu_ids * BDI_STAT_BATCH, each
 * 8 * (1 + ilog2(nr_cpu_ids)). Under twice that, a threshold is summed
 * against: both bdi items over every online CPU, under each counter's lock,
 * instead of two reads.
 */
static void claim_bdi_reads(struct mmscale_claim *out, unsigned int reads, bool sums,
			    unsigned long thresh)
{
	unsigned long stat_error = nr_cpu_ids * (8 * (1 + (unsigned long)ilog2(nr_cpu_ids)));

	/* A row that sums claims at least the two reads the sums replace. */
	sums = sums && reads >= 2 && thresh < 2 * stat_error;
	out->which |= MMSCALE_COUNT_BIT(MMSCALE_BDI_READS) |
		      MMSCALE_COUNT_BIT(MMSCALE_PERCPU_SUM_SLOTS) |
		      MMSCALE_COUNT_BIT(MMSCALE_LOCK_ACQUIRES);
	out->v[MMSCALE_BDI_READS] = sums ? reads - 2 : reads;
	out->v[MMSCALE_PERCPU_SUM_SLOTS] = sums ? 2 * (u64)num_online_cpus() : 0;
	out->v[MMSCALE_LOCK_ACQUIRES] = sums ? 2 : 0;
}

/* The row's claim for one unthrottled call, on every thread. */
static bool bdp_claim(const struct mmscale_run *run, struct mmscale_claim *out)
{
	const struct bdp_variant *row = container_of(run->v, struct bdp_variant, v);
	const struct counters_run *cr = run->data;

	out->which = MMSCALE_COUNT_BIT(MMSCALE_GLOBAL_READS);
	out->v[MMSCALE_GLOBAL_READS] = row->global_reads;
	claim_bdi_reads(out, row->bdi_reads, row->claim_bdi_thresh != NULL, cr->claim_bdi_thresh);
	return true;
}

/*
 * bdp_throttled/: one throttled pass of 3.1's and the IO-less kernels'
 * balance_dirty_pages, up to the sleep it would take (counters/iol_bdp.h).
 */
struct bdp_throttled_variant {
	struct mmscale_variant v;
	const struct iol_machine_ops *iol;
	/* The claim: global_page_state calls and bdi_stat reads ... */
	unsigned int global_reads;
	unsigned int bdi_reads;
	/* ... where this threshold is at least 2 * bdi_stat_error; else sums. */
	unsigned long stat_thresh;
};

static int bdp_throttled_setup(struct mmscale_run *run, int nr_threads, char *err, size_t errlen)
{
	return iol_setup(run, nr_threads, container_of(run->v, struct bdp_throttled_variant, v)->iol,
			 IOL_BDP_THROTTLED, err, errlen);
}

static void bdp_throttled_body(struct mmscale_state *st, struct mmscale_run *run)
{
	const struct iol_machine_ops *iol =
		container_of(run->v, struct bdp_throttled_variant, v)->iol;

	iol_bdp_enter();
	while (mmscale_keep_running(st))
		iol_bdp_call(iol);
}

static void bdp_throttled_one_op(struct mmscale_run *run)
{
	iol_bdp_enter();
	iol_bdp_call(container_of(run->v, struct bdp_throttled_variant, v)->iol);
}

/* The row's claim for one throttled pass, its threshold the row's constant. */
static bool bdp_throttled_claim(const struct mmscale_run *run, struct mmscale_claim *out)
{
	const struct bdp_throttled_variant *row =
		container_of(run->v, struct bdp_throttled_variant, v);

	out->which = MMSCALE_COUNT_BIT(MMSCALE_GLOBAL_READS);
	out->v[MMSCALE_GLOBAL_READS] = row->global_reads;
	claim_bdi_reads(out, row->bdi_reads, true, row->stat_thresh);
	return true;
}

/*
 * dirty/: writer CPUs 0..T-1 each write a pre-read file (fio's
 * "write,mmap,pre_read") of file_mib/T MiB, one page per iteration: store
 * 4 KiB of data, dirty the page, balance_dirty_pages_ratelimited through
 * the variant; a flusher (CPU T) completes writeback at
 * --device-pages-per-ms. One run is one pass.
 */
static _Thread_local struct {
	balance_dirty_pages_fn variant;
	u64 ns;
	u64 calls;
} timed_bdp;

static u64 now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (u64)ts.tv_sec * 1000000000ULL + (u64)ts.tv_nsec;
}

/* Two clock reads per balance_dirty_pages call (every ratelimit_pages pages). */
static void timed_balance_dirty_pages(struct address_space *mapping)
{
	u64 start = now_ns();

	timed_bdp.variant(mapping);
	timed_bdp.ns += now_ns() - start;
	timed_bdp.calls++;
}

static long dirty_file_pages(const struct mmscale_run *run)
{
	return (long)(run->args[0] << (20 - PAGE_SHIFT)) / run->nr_threads;
}

static int64_t dirty_iterations(const struct mmscale_run *run)
{
	return dirty_file_pages(run);
}

static int dirty_setup(struct mmscale_run *run, int nr_threads, char *err, size_t errlen)
{
	struct counters_run *cr;

	if (plain_setup(run, nr_threads, err, errlen) != 0)
		return -1;
	cr = run->data;
	cr->world = writeback_world_create(nr_threads, dirty_file_pages(run), nr_threads,
					   err, errlen);
	if (!cr->world)
		return counters_setup_failed(run);
	return 0;
}

static void dirty_body(struct mmscale_state *st, struct mmscale_run *run)
{
	struct address_space *mapping = my_mapping(run);
	u64 vmstat_period = mm_config()->vmstat_interval_scaled_ns;	/* read once, not per page */
	u64 start, total;

	timed_bdp.variant = mapping->balance_dirty_pages;
	timed_bdp.ns = timed_bdp.calls = 0;
	mapping->balance_dirty_pages = timed_balance_dirty_pages;
	start = now_ns();
	while (mmscale_keep_running(st)) {
		emu_store_page(mapping);
		emu_write_next_page(mapping);
		balance_dirty_pages_ratelimited(mapping);
		vmstat_work_tick(vmstat_period);
	}
	total = now_ns() - start;
	mmscale_counter_set(st, "MiB_per_s",
			    (double)mmscale_iterations(st) * PAGE_SIZE / (1 << 20),
			    MMSCALE_COUNTER_RATE);
	mmscale_counter_set(st, "pages_per_s", (double)mmscale_iterations(st),
			    MMSCALE_COUNTER_RATE);
	mmscale_counter_set(st, "bdp_share", total ? (double)timed_bdp.ns / (double)total : 0,
			    MMSCALE_COUNTER_AVG_THREADS);
	mmscale_counter_set(st, "bdp_calls", (double)timed_bdp.calls,
			    MMSCALE_COUNTER_AVG_ITERATIONS);
}

static const struct global_read_variant global_read_variants[] = {
	{ { "repeated", "global_page_state() at every use (2.6.31-rc8's habit)", "seed 000/003" },
	  read_repeated, READ_USES },
	{ { "cached", "each item read once into a local and reused (the v2 patch's idea)",
	    "seed 000" },
	  read_cached, 1 },
};

static const struct mod_variant mod_variants[] = {
	{ { "inc", "__inc_zone_state: fold past the threshold with a half-threshold overstep",
	    "mm/vmstat.c 2.6.31" },
	  mod_inc },
	{ { "mod", "__mod_zone_page_state(+1): fold past the threshold, no overstep",
	    "mm/vmstat.c 2.6.31" },
	  mod_mod },
};

static const struct percpu_read_variant percpu_variants[] = {
	{ { "read", "percpu_counter_read_positive: one shared load (bdi_stat)",
	    "lib/percpu_counter.c 2.6.31" },
	  percpu_read, 1, 0, 0 },
	{ { "sum", "percpu_counter_sum_positive: lock, walk every online CPU (bdi_stat_sum)",
	    "lib/percpu_counter.c 2.6.31" },
	  percpu_sum, 0, 1, 1 },
};

/*
 * The balance_dirty_pages variants: one row each in bdp_variants.h (dirty/
 * runs those), then bdp/'s rows of 3.1 and the IO-less kernels, one each in
 * iol_variant_list.h, and bdp_throttled/'s.
 */
#define BDP_ROW(symbol, name, summary, source, global, bdi, claim_bdi_thresh)	\
	{ { name, summary, source }, symbol, NULL, global, bdi, claim_bdi_thresh },
#define BDP_IOL_ROW(symbol, name, summary, source, global, bdi, ...)	\
	{ { name, summary, source }, NULL, &IOL_MACHINE_OPS(symbol), global, bdi, NULL },
#define BDP_THROTTLED_ROW(symbol, name, summary, source, unthrottled_global,	\
			  unthrottled_bdi, global, bdi, stat_thresh)		\
	{ { name, summary, source }, &IOL_MACHINE_OPS(symbol), global, bdi, stat_thresh },
const struct bdp_variant bdp_variants[] = { BDP_VARIANTS(BDP_ROW) };
const size_t bdp_nr_variants = ARRAY_SIZE(bdp_variants);
static const struct bdp_variant bdp_call_variants[] = {
	BDP_VARIANTS(BDP_ROW)
	IOL_VARIANTS(BDP_IOL_ROW)
};
static const struct bdp_throttled_variant bdp_throttled_variants[] = {
	IOL_VARIANTS(BDP_THROTTLED_ROW)
};
#undef BDP_ROW
#undef BDP_IOL_ROW
#undef BDP_THROTTLED_ROW

/* The tables of each family's variants (scripts/quick_tables.py), in order. */
#define METRIC_TIME		{ "time", "ns per operation (lower is better)", false }
#define METRIC_GLOBAL_READS	{ "global_reads", "global_page_state calls per operation (exact)", true }
#define METRIC_BDI_READS	{ "bdi_reads", "bdi_stat reads per operation (exact)", true }

static const struct mmscale_metric global_read_metrics[] = { METRIC_TIME, METRIC_GLOBAL_READS };
static const struct mmscale_metric mod_metrics[] = {
	METRIC_TIME,
	{ "folds", "folds into shared counters per operation (exact)", true },
};
static const struct mmscale_metric bdp_metrics[] = {
	METRIC_TIME, METRIC_GLOBAL_READS, METRIC_BDI_READS,
};
static const struct mmscale_metric bdp_throttled_metrics[] = {
	METRIC_TIME, METRIC_GLOBAL_READS, METRIC_BDI_READS,
	{ "percpu_sum_slots", "per-CPU slots bdi_stat_sum walked per call (exact)", true },
};
static const struct mmscale_metric dirty_metrics[] = {
	{ "MiB_per_s", "MiB/s (higher is better)", false },
	{ "bdp_share", "share of time in balance_dirty_pages", false },
	METRIC_GLOBAL_READS, METRIC_BDI_READS,
};

static const int64_t global_read_args[][MMSCALE_MAX_ARGS] = {
	{ 4, 0 }, { 4, 1 }, { 8, 0 }, { 8, 1 },
};
static const char *const global_read_arg_names[] = { "k", "writers" };

/* Seed 001's table: 400m to 900m around the ~600 MB dirty threshold of a 3 GB machine. */
static const int64_t dirty_args[][MMSCALE_MAX_ARGS] = {
	{ 400 }, { 500 }, { 600 }, { 700 }, { 800 }, { 900 },
};
static const char *const dirty_arg_names[] = { "file_mib" };

#define COUNTS_VMSTAT (MMSCALE_COUNT_BIT(MMSCALE_GLOBAL_READS) | MMSCALE_COUNT_BIT(MMSCALE_FOLDS))
#define COUNTS_BDP (COUNTS_VMSTAT | MMSCALE_COUNT_BIT(MMSCALE_BDI_READS) |	\
		    MMSCALE_COUNT_BIT(MMSCALE_PERCPU_SUM_SLOTS) |		\
		    MMSCALE_COUNT_BIT(MMSCALE_LOCK_ACQUIRES))

#define COUNTS_PERCPU (MMSCALE_COUNT_BIT(MMSCALE_BDI_READS) |			\
		       MMSCALE_COUNT_BIT(MMSCALE_PERCPU_SUM_SLOTS) |		\
		       MMSCALE_COUNT_BIT(MMSCALE_LOCK_ACQUIRES))

/* A counters case: its setup, body and counts; every one sweeps threads and tears down alike. */
#define COUNTERS_RUN(setup_fn, body_fn, which)					\
	.setup = (setup_fn), .body = (body_fn), .counts = (which),		\
	.threads = MMSCALE_THREADS_SWEEP, .teardown = counters_teardown

static const struct mmscale_case counter_cases[] = {
	{
		.name = "vmstat/global_read",
		.summary = "k global vm_stat items needed 3 times each: re-read vs cached, "
			   "with a CPU folding into the same line",
		COUNTERS_RUN(global_read_setup, global_read_body, COUNTS_VMSTAT),
		MMSCALE_CLAIM(global_read_claim, global_read_one_op),
		MMSCALE_VARIANT_ROWS(global_read_variants), MMSCALE_METRICS(global_read_metrics),
		MMSCALE_ARGS(global_read_args, global_read_arg_names),
		.partner_cpus = 1,
	},
	{
		.name = "vmstat/mod",
		.summary = "one per-CPU vmstat update per call, and the folds it causes",
		COUNTERS_RUN(plain_setup, mod_body, COUNTS_VMSTAT),
		MMSCALE_VARIANT_ROWS(mod_variants), MMSCALE_METRICS(mod_metrics),
	},
	{
		.name = "percpu/read_vs_sum",
		.summary = "approximate percpu_counter read vs exact sum over every online CPU",
		COUNTERS_RUN(percpu_setup, percpu_body, COUNTS_PERCPU),
		MMSCALE_CLAIM(percpu_claim, percpu_one_op),
		MMSCALE_VARIANT_ROWS(percpu_variants),
	},
	{
		.name = "bdp",
		.summary = "one balance_dirty_pages() call in the unthrottled case",
		COUNTERS_RUN(bdp_setup, bdp_body, COUNTS_BDP),
		MMSCALE_CLAIM(bdp_claim, bdp_one_op),
		MMSCALE_VARIANT_ROWS(bdp_call_variants), MMSCALE_METRICS(bdp_metrics),
	},
	{
		.name = "bdp_throttled",
		.summary = "one throttled pass of 3.1's and the IO-less balance_dirty_pages(), "
			   "up to its sleep",
		COUNTERS_RUN(bdp_throttled_setup, bdp_throttled_body, COUNTS_BDP),
		MMSCALE_CLAIM(bdp_throttled_claim, bdp_throttled_one_op),
		MMSCALE_VARIANT_ROWS(bdp_throttled_variants),
		MMSCALE_METRICS(bdp_throttled_metrics),
	},
	{
		.name = "dirty",
		.summary = "writers dirty a pre-read file through each variant; a flusher "
			   "completes writeback (one pass per run)",
		COUNTERS_RUN(dirty_setup, dirty_body, COUNTS_BDP),
		MMSCALE_VARIANT_ROWS(bdp_variants), MMSCALE_METRICS(dirty_metrics),
		MMSCALE_ARGS(dirty_args, dirty_arg_names),
		.partner_cpus = 1,
		.iterations = dirty_iterations,
	},
};

const struct mmscale_case_table mmscale_counters_table =
	MMSCALE_CASE_TABLE("counters", counter_cases);
