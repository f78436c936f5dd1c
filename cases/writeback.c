// SPDX-License-Identifier: GPL-2.0
/*
 * The writeback cases: one unthrottled balance_dirty_pages call per
 * variant (bdp/: 2.6.31's, 3.1's and the IO-less kernels' on the
 * machine, counters/iol_bdp.h, and 6.18's, counters/wb_machine-6.18.h),
 * one throttled pass of the last two kinds (bdp_throttled/), and writers dirtying a file through each 2.6.31 variant
 * with a flusher completing writeback (dirty/).
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mmscale/kernel/cpumask.h"
#include "mmscale/kernel/timekeeping.h"
#include "mmscale/notice.h"
#include "mmscale/params.h"

#include "bdp_rows.h"
#include "counters.h"
#include "counters_6_18.h"
#include "../counters/iol_bdp.h"
#include "../counters/bdp_variants-6.18.h"
#include "../counters/wb_machine-6.18.h"

/*
 * A run of 3.1's or an IO-less kernel's call (bdp/, bdp_throttled/): the
 * emulated memory, then counters/iol_machine.c's state for ops.
 */
static int iol_setup(struct mmscale_run *run, int nr_threads,
		     const struct iol_machine_ops *ops, enum iol_bdp_state state,
		     char *err, size_t errlen)
{
	(void)nr_threads;
	/*
	 * 3.2's global vm_stat[] numbering, for 3.1's row too: 3.1's enum is
	 * not in ../shared/kernel; the items its balance_dirty_pages reads
	 * (all before NR_WRITEBACK_TEMP) are numbered as in 3.2 as far as the
	 * items added between them (NR_KERNEL_STACK, 2.6.32) go.
	 */
	if (counters_setup_numbered(run, MM_VM_STAT_3_2, err, errlen) != 0)
		return -1;
	if (iol_bdp_setup(ops, state, err, errlen) != 0)
		return counters_setup_failed(run);
	((struct counters_run *)run->data)->iol = true;
	return 0;
}

/*
 * A run of 6.18's call (bdp/, bdp_throttled/): the machine, 6.18's zones
 * and nodes on it (kernel/linux-6.18/mm/vmstat.c), then its writeback state.
 */
static int wb_6_18_setup(struct mmscale_run *run, int nr_threads,
			 balance_dirty_pages_loop_fn loop, enum iol_bdp_state state,
			 char *err, size_t errlen)
{
	struct counters_run *cr;

	if (counters_setup(run, nr_threads, err, errlen) != 0)
		return -1;
	cr = run->data;
	if (vmstat_6_18_run_setup(err, errlen) != 0)
		return counters_setup_failed(run);
	cr->vmstat_6_18 = true;
	if (bdp_6_18_setup(loop, state, err, errlen) != 0)
		return counters_setup_failed(run);
	cr->wb_6_18 = true;
	return 0;
}

/* 2.6.31's rows: the variant on kernel/linux-2.6/mm/page-writeback.c's writeback world. */
static int gen_2_6_31_setup(struct mmscale_run *run, int nr_threads, const struct bdp_variant *row,
			    enum iol_bdp_state state, char *err, size_t errlen)
{
	struct counters_run *cr;

	(void)state;	/* unthrottled: 2.6.31's rows have no throttled pass here */
	if (counters_setup(run, nr_threads, err, errlen) != 0)
		return -1;
	cr = run->data;
	cr->world = writeback_world_create(nr_threads, 0, -1, err, errlen);
	if (!cr->world)
		return counters_setup_failed(run);
	/* What every thread's call will compute: the state does not change. */
	if (row->call.bdi_thresh)
		cr->claim_bdi_thresh = row->call.bdi_thresh(&cr->world->bdi);
	return 0;
}

static struct address_space *my_mapping(struct mmscale_run *run, const struct bdp_variant *row)
{
	struct counters_run *cr = run->data;
	struct address_space *mapping = &cr->world->mappings[smp_processor_id()];

	mapping->balance_dirty_pages = row->kernel.balance_dirty_pages;
	return mapping;
}

static void gen_2_6_31_body(struct mmscale_state *st, struct mmscale_run *run,
			    const struct bdp_variant *row)
{
	struct address_space *mapping = my_mapping(run, row);

	while (mmscale_keep_running(st))
		mapping->balance_dirty_pages(mapping);
}

static void gen_2_6_31_one_op(struct mmscale_run *run, const struct bdp_variant *row)
{
	struct address_space *mapping = my_mapping(run, row);

	mapping->balance_dirty_pages(mapping);
}

const struct bdp_generation bdp_generation_2_6_31 = {
	.name = "2.6.31", .setup = gen_2_6_31_setup, .body = gen_2_6_31_body,
	.one_op = gen_2_6_31_one_op,
};

/*
 * 3.1's and 3.2's global_reclaimable_pages read the two anon LRUs when
 * the machine has swap: the IO-less rows claim their reads without swap,
 * and these two more with it. (2.6.31's global_lru_pages reads all four
 * LRUs either way: its rows claim them.) Where dirty_bytes and
 * dirty_background_bytes are both set (--set), global_dirty_limits skips
 * determine_dirtyable_memory (3.2 lines 382-383): NR_FREE_PAGES and the
 * two file LRUs fewer, and the anon two with swap.
 */
static unsigned int iol_global_reads(unsigned int without_swap)
{
	if (!iol_bdp_reads_dirtyable_memory())
		return without_swap - 3;
	return without_swap + (mm_config()->swap ? 2 : 0);
}

/* 3.1's and the IO-less kernels' rows: the kernel's call on counters/iol_machine.c's state. */
static int gen_iol_setup(struct mmscale_run *run, int nr_threads, const struct bdp_variant *row,
			 enum iol_bdp_state state, char *err, size_t errlen)
{
	return iol_setup(run, nr_threads, row->kernel.iol, state, err, errlen);
}

static void gen_iol_body(struct mmscale_state *st, struct mmscale_run *run,
			 const struct bdp_variant *row)
{
	const struct iol_machine_ops *iol = row->kernel.iol;

	(void)run;
	iol_bdp_enter();
	while (mmscale_keep_running(st))
		iol_bdp_call(iol);
}

static void gen_iol_one_op(struct mmscale_run *run, const struct bdp_variant *row)
{
	(void)run;
	iol_bdp_enter();
	iol_bdp_call(row->kernel.iol);
}

const struct bdp_generation bdp_generation_iol = {
	.name = "3.1 and IO-less", .setup = gen_iol_setup, .body = gen_iol_body,
	.one_op = gen_iol_one_op, .global_reads = iol_global_reads,
	.dirty_thresh = iol_bdp_dirty_thresh,
};

/* 6.18's rows: its call on its own zones with the row's loop (counters/wb_machine-6.18.h). */
static int gen_6_18_setup(struct mmscale_run *run, int nr_threads, const struct bdp_variant *row,
			  enum iol_bdp_state state, char *err, size_t errlen)
{
	return wb_6_18_setup(run, nr_threads, row->kernel.loop_6_18, state, err, errlen);
}

static void gen_6_18_body(struct mmscale_state *st, struct mmscale_run *run,
			  const struct bdp_variant *row)
{
	(void)run;
	(void)row;	/* the loop is the state's, from the setup */
	bdp_6_18_enter();
	while (mmscale_keep_running(st))
		bdp_6_18_call();
}

static void gen_6_18_one_op(struct mmscale_run *run, const struct bdp_variant *row)
{
	(void)run;
	(void)row;
	bdp_6_18_enter();
	bdp_6_18_call();
}

const struct bdp_generation bdp_generation_6_18 = {
	.name = "6.18", .setup = gen_6_18_setup, .body = gen_6_18_body,
	.one_op = gen_6_18_one_op, .dirty_thresh = bdp_6_18_dirty_thresh,
};

static const struct bdp_variant *bdp_row(const struct mmscale_run *run)
{
	return container_of(run->v, struct bdp_variant, v);
}

/*
 * bdp/: one balance_dirty_pages call, unthrottled: nothing dirty, no
 * flusher busy, on the row's generation (2.6.31's writeback world, 3.x's
 * machine, 6.18's zones).
 */
static int bdp_setup(struct mmscale_run *run, int nr_threads, char *err, size_t errlen)
{
	const struct bdp_variant *row = bdp_row(run);

	return row->generation->setup(run, nr_threads, row, IOL_BDP_UNTHROTTLED, err, errlen);
}

static void bdp_body(struct mmscale_state *st, struct mmscale_run *run)
{
	const struct bdp_variant *row = bdp_row(run);

	row->generation->body(st, run, row);
}

static void bdp_one_op(struct mmscale_run *run)
{
	const struct bdp_variant *row = bdp_row(run);

	row->generation->one_op(run, row);
}

/*
 * bdi_stat_error of 2.6.31 and 3.2, and 6.18's wb_stat_error, the same
 * formula: nr_cpu_ids * BDI_STAT_BATCH (WB_STAT_BATCH), each
 * 8 * (1 + ilog2(nr_cpu_ids)) or --set BDI_STAT_BATCH. Under twice that, a
 * threshold is summed against: both bdi (wb) items over every online CPU,
 * under each counter's lock, instead of two reads.
 */
static void claim_bdi_reads(struct mmscale_claim *out, unsigned int reads, bool sums,
			    unsigned long thresh)
{
	int knob = mm_config()->bdi_stat_batch;
	unsigned long batch = knob != MM_KNOB_AUTO ? (unsigned long)knob
						   : 8 * (1 + (unsigned long)ilog2(nr_cpu_ids));
	unsigned long stat_error = nr_cpu_ids * batch;

	/* A row that sums claims at least the two reads the sums replace. */
	sums = sums && reads >= 2 && thresh < 2 * stat_error;
	out->which |= MMSCALE_COUNT_BIT(MMSCALE_BDI_READS) |
		      MMSCALE_COUNT_BIT(MMSCALE_PERCPU_SUM_SLOTS) |
		      MMSCALE_COUNT_BIT(MMSCALE_LOCK_ACQUIRES);
	out->v[MMSCALE_BDI_READS] = sums ? reads - 2 : reads;
	out->v[MMSCALE_PERCPU_SUM_SLOTS] = sums ? 2 * (u64)num_online_cpus() : 0;
	out->v[MMSCALE_LOCK_ACQUIRES] = sums ? 2 : 0;
}

/* A claim's global reads and bdi stores (the bdi reads are claim_bdi_reads'). */
static void claim_global(struct mmscale_claim *out, const struct bdp_variant *row,
			 const struct bdp_claim *claim)
{
	const struct bdp_generation *gen = row->generation;

	out->which = MMSCALE_COUNT_BIT(MMSCALE_GLOBAL_READS) | MMSCALE_COUNT_BIT(MMSCALE_BDI_STORES);
	out->v[MMSCALE_GLOBAL_READS] = gen->global_reads ? gen->global_reads(claim->global_reads)
							 : claim->global_reads;
	out->v[MMSCALE_BDI_STORES] = claim->bdi_stores;
}

/*
 * The row's claim for one unthrottled call, on every thread: no store to
 * the bdi's (wb's) shared fields, nothing being near a limit.
 */
static bool bdp_claim(const struct mmscale_run *run, struct mmscale_claim *out)
{
	const struct bdp_variant *row = bdp_row(run);
	const struct counters_run *cr = run->data;

	claim_global(out, row, &row->call);
	claim_bdi_reads(out, row->call.bdi_reads, row->call.bdi_thresh != NULL,
			cr->claim_bdi_thresh);
	return true;
}

/*
 * bdp_throttled/: one throttled pass of 3.1's, the IO-less kernels' and
 * 6.18's balance_dirty_pages, up to the sleep it would take
 * (counters/iol_bdp.h, counters/wb_machine-6.18.h). 3.x's store
 * dirty_exceeded only when it changes, which a settled pass does not.
 */
static int bdp_throttled_setup(struct mmscale_run *run, int nr_threads, char *err, size_t errlen)
{
	const struct bdp_variant *row = bdp_row(run);

	return row->generation->setup(run, nr_threads, row, IOL_BDP_THROTTLED, err, errlen);
}

/* The row's claim for one throttled pass, its threshold the row's constant. */
static bool bdp_throttled_claim(const struct mmscale_run *run, struct mmscale_claim *out)
{
	const struct bdp_variant *row = bdp_row(run);

	claim_global(out, row, &row->throttled);
	claim_bdi_reads(out, row->throttled.bdi_reads, true,
			row->throttled.stat_thresh_of(row->generation->dirty_thresh()));
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

/* Two clock reads per balance_dirty_pages call (every ratelimit_pages pages). */
static void timed_balance_dirty_pages(struct address_space *mapping)
{
	u64 start = ktime_get_ns();

	timed_bdp.variant(mapping);
	timed_bdp.ns += ktime_get_ns() - start;
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

	if (counters_setup(run, nr_threads, err, errlen) != 0)
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
	struct address_space *mapping = my_mapping(run, bdp_row(run));
	u64 vmstat_period = mm_config()->vmstat_interval_scaled_ns;	/* read once, not per page */
	u64 start, total;

	timed_bdp.variant = mapping->balance_dirty_pages;
	timed_bdp.ns = timed_bdp.calls = 0;
	mapping->balance_dirty_pages = timed_balance_dirty_pages;
	start = ktime_get_ns();
	while (mmscale_keep_running(st)) {
		emu_store_page(mapping);
		emu_write_next_page(mapping);
		balance_dirty_pages_ratelimited(mapping);
		vmstat_work_tick(vmstat_period);
	}
	total = ktime_get_ns() - start;
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

/*
 * The balance_dirty_pages variants, one row shape for every kernel
 * (cases/bdp_rows.h): 2.6.31's, one each in counters/bdp_variants.h (dirty/
 * runs those), then bdp/'s rows of 3.1 and the IO-less kernels, one each in
 * counters/iol_variant_list.h, then 6.18's and its variants', one each in
 * counters/bdp_variants-6.18.h (their claims worked out from the source there; a
 * throttled pass's hold where the wb's threshold is the whole one); and
 * bdp_throttled/'s, the last two kinds. A list's row names its claims
 * (.call, .throttled); its row macro adds the generation and the entry.
 */
#define BDP_2_6_31_ROW(symbol, name, summary, source, ...)				\
	{ .v = { name, summary, source }, .generation = &bdp_generation_2_6_31,		\
	  .kernel = { .balance_dirty_pages = symbol }, __VA_ARGS__ },
#define BDP_IOL_ROW(symbol, name, summary, source, ...)					\
	{ .v = { name, summary, source }, .generation = &bdp_generation_iol,		\
	  .kernel = { .iol = &IOL_MACHINE_OPS(symbol) }, __VA_ARGS__ },
#define BDP_6_18_ROW(symbol, name, summary, source, ...)				\
	{ .v = { name, summary, source }, .generation = &bdp_generation_6_18,		\
	  .kernel = { .loop_6_18 = symbol }, __VA_ARGS__ },
const struct bdp_variant bdp_variants[] = { BDP_VARIANTS(BDP_2_6_31_ROW) };
const size_t bdp_nr_variants = ARRAY_SIZE(bdp_variants);
const struct bdp_variant bdp_call_variants[] = {
	BDP_VARIANTS(BDP_2_6_31_ROW)
	IOL_VARIANTS(BDP_IOL_ROW)
	BDP_6_18_VARIANTS(BDP_6_18_ROW)
};
const size_t bdp_nr_call_variants = ARRAY_SIZE(bdp_call_variants);
const struct bdp_variant bdp_throttled_variants[] = {
	IOL_VARIANTS(BDP_IOL_ROW)
	BDP_6_18_VARIANTS(BDP_6_18_ROW)
};
const size_t bdp_nr_throttled_variants = ARRAY_SIZE(bdp_throttled_variants);
#undef BDP_2_6_31_ROW
#undef BDP_IOL_ROW
#undef BDP_6_18_ROW

const char *bdp_6_18_row(size_t i, balance_dirty_pages_loop_fn *loop, struct bdp_claim *call,
			 struct bdp_claim *throttled)
{
	for (size_t r = 0; r < bdp_nr_throttled_variants; r++) {
		const struct bdp_variant *row = &bdp_throttled_variants[r];

		if (row->generation != &bdp_generation_6_18 || i--)
			continue;
		*loop = row->kernel.loop_6_18;
		*call = row->call;
		*throttled = row->throttled;
		return row->v.name;
	}
	return NULL;
}

/*
 * The tables of each family's variants (scripts/quick_tables.py), in order.
 * The global reads of 2.6.31 and 3.x compare as the machine's swap has them.
 */
#define METRIC_BDP_GLOBAL_READS							\
	{ "global_reads", "global counter reads per call (exact; 2.6.31 reads all four "	\
	  "LRUs, 3.x the anon two only with swap: swap= in mmscale_params; 6.18 neither)", true }
#define METRIC_BDP_BDI_READS							\
	{ "bdi_reads", "bdi_stat (6.18: wb_stat) reads per call (exact)", true }
static const struct mmscale_metric bdp_metrics[] = {
	METRIC_TIME, METRIC_BDP_GLOBAL_READS, METRIC_BDP_BDI_READS,
};
static const struct mmscale_metric bdp_throttled_metrics[] = {
	METRIC_TIME, METRIC_BDP_GLOBAL_READS, METRIC_BDP_BDI_READS,
	{ "percpu_sum_slots", "per-CPU slots bdi_stat_sum (wb_stat_sum) walked per call (exact)",
	  true },
	{ "bdi_stores", "stores to the bdi's (wb's) shared fields per call (exact)", true },
};
static const struct mmscale_metric dirty_metrics[] = {
	{ "MiB_per_s", "MiB/s (higher is better)", false },
	{ "bdp_share", "share of time in balance_dirty_pages", false },
	METRIC_GLOBAL_READS, METRIC_BDI_READS,
};

/* Seed 001's table: 400m to 900m around the ~600 MB dirty threshold of a 3 GB machine. */
static const int64_t dirty_args[][MMSCALE_MAX_ARGS] = {
	{ 400 }, { 500 }, { 600 }, { 700 }, { 800 }, { 900 },
};
static const char *const dirty_arg_names[] = { "file_mib" };

static const struct mmscale_case writeback_cases[] = {
	{
		.name = "bdp",
		.summary = "one balance_dirty_pages() call in the unthrottled case",
		COUNTERS_RUN(bdp_setup, bdp_body, COUNTS_BDP),
		MMSCALE_CLAIM(bdp_claim, bdp_one_op),
		MMSCALE_VARIANT_ROWS(bdp_call_variants), MMSCALE_METRICS(bdp_metrics),
	},
	{
		.name = "bdp_throttled",
		.summary = "one throttled pass of 3.1's, the IO-less and 6.18's "
			   "balance_dirty_pages(), up to its sleep",
		COUNTERS_RUN(bdp_throttled_setup, bdp_body, COUNTS_BDP),
		MMSCALE_CLAIM(bdp_throttled_claim, bdp_one_op),
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

const struct mmscale_case_table mmscale_writeback_table =
	MMSCALE_CASE_TABLE("writeback", writeback_cases);
