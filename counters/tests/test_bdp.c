// SPDX-License-Identifier: GPL-2.0
/*
 * The balance_dirty_pages variants.
 *
 * 1. The seeds' claim: in the unthrottled case 2.6.31-rc8 makes exactly 5
 *    more global_page_state calls and 2 more bdi_stat calls per call than
 *    cached-locals-v2. Every variant's absolute counts are printed.
 * 2. Andrew Morton's question (seed 001): on which exits does each variant
 *    leave bdi->dirty_exceeded set? Four states, each reaching a different
 *    exit, with dirty_exceeded set beforehand; the table of what is left is
 *    printed and checked.
 * 3. 3.1's and the IO-less kernels' call on the machine (counters/iol_bdp.h):
 *    in the unthrottled state every row leaves at once (-1); in the
 *    throttled one each returns a pause within MAX_PAUSE (3.1: its first,
 *    1 jiffy) and leaves the state as it found it (teardown's check).
 */
#define _GNU_SOURCE
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "test_machine.h"
#include "mmscale/cpu.h"
#include "mmscale/kernel/cpumask.h"
#include "mmscale/linux-2.6/mm/writeback.h"
#include "mmscale/notice.h"

#include "../../cases/bdp_rows.h"
#include "../iol_bdp.h"

#define FILE_PAGES 200000L

/* A fresh 3 GiB machine with one writer (this thread, CPU 0) and no flusher. */
static struct writeback_world *fresh_world(bool complete_on_submit)
{
	char err[256];
	struct writeback_world *w;

	if (mm_machine_setup(3ULL << 30, err, sizeof(err)) != 0) {
		fprintf(stderr, "%s\n", err);
		return NULL;
	}
	w = writeback_world_create(1, FILE_PAGES, -1, err, sizeof(err));
	if (!w) {
		fprintf(stderr, "%s\n", err);
		mm_machine_teardown();
		return NULL;
	}
	w->complete_on_submit = complete_on_submit;
	return w;
}

static void drop_world(struct writeback_world *w)
{
	for (unsigned int cpu = 0; cpu < nr_cpu_ids; cpu++)
		refresh_cpu_vm_stats((int)cpu);
	{
		char err[256];

		CHECK(writeback_world_check(w, err, sizeof(err)) == 0);
	}
	writeback_world_destroy(w);
	mm_machine_teardown();
}

static void dirty_pages(struct address_space *mapping, long n)
{
	for (long i = 0; i < n; i++)
		emu_write_next_page(mapping);
	refresh_cpu_vm_stats(smp_processor_id());
}

/* A row by its name (the seed's relations are between named variants). */
static const struct bdp_variant *row(const char *name)
{
	for (size_t v = 0; v < bdp_nr_variants; v++)
		if (strcmp(bdp_variants[v].v.name, name) == 0)
			return &bdp_variants[v];
	CHECK(!"no such bdp variant row");
	return &bdp_variants[0];
}

/*
 * Every row's unthrottled call, printed as seed 000's table; each row's
 * claim is checked by tests/test_claims.c, the seed's relation here: "5
 * fewer global_page_state calls and 2 fewer bdi_stat" in v2, and where the
 * baseline's 14 + 4 come from.
 */
static void test_unthrottled_counts(void)
{
	printf("unthrottled balance_dirty_pages, per call:\n");
	printf("  %-22s %13s %9s %16s\n", "variant", "global_reads", "bdi_reads", "percpu_sum_slots");
	for (size_t v = 0; v < bdp_nr_variants; v++) {
		struct writeback_world *w = fresh_world(false);
		struct address_space *mapping;

		CHECK(w != NULL);	/* a world that cannot be built fails the test */
		if (!w)
			return;
		mapping = &w->mappings[0];
		mapping->balance_dirty_pages = bdp_variants[v].kernel.balance_dirty_pages;
		dirty_pages(mapping, 1000);	/* well under every threshold */
		mmscale_counts_reset();
		mapping->balance_dirty_pages(mapping);
		printf("  %-22s %13llu %9llu %16llu\n", bdp_variants[v].v.name,
		       (unsigned long long)mmscale_this_counts.v[MMSCALE_GLOBAL_READS],
		       (unsigned long long)mmscale_this_counts.v[MMSCALE_BDI_READS],
		       (unsigned long long)mmscale_this_counts.v[MMSCALE_PERCPU_SUM_SLOTS]);
		CHECK_EQ_LL(mmscale_this_counts.v[MMSCALE_GLOBAL_READS], bdp_variants[v].call.global_reads);
		CHECK_EQ_LL(mmscale_this_counts.v[MMSCALE_BDI_READS], bdp_variants[v].call.bdi_reads);
		CHECK_EQ_LL(mmscale_this_counts.v[MMSCALE_PERCPU_SUM_SLOTS], 0);
		drop_world(w);
	}
	/* "5 fewer global_page_state calls and 2 fewer bdi_stat" */
	CHECK_EQ_LL(row("2.6.31-rc8")->call.global_reads - row("cached-locals-v2")->call.global_reads, 5);
	CHECK_EQ_LL(row("2.6.31-rc8")->call.bdi_reads - row("cached-locals-v2")->call.bdi_reads, 2);
	/* The absolute figures, from reading the code: */
	CHECK_EQ_LL(row("2.6.31-rc8")->call.global_reads, 14);	/* 5 dirtyable + 4 clip + 3 loop + 2 pdflush check */
	CHECK_EQ_LL(row("2.6.31-rc8")->call.bdi_reads, 4);		/* 2 clip + 2 loop */
	CHECK_EQ_LL(row("cached-locals-v2")->call.global_reads, 9);	/* 5 dirtyable + 4 loop */
	CHECK_EQ_LL(row("cached-locals-v2")->call.bdi_reads, 2);
}

enum scenario {
	UNDER_LIMIT,		/* first check: under the bdi limit */
	GLOBAL_UNDER_MIDPOINT,	/* bdi over its limit, global under (background+dirty)/2 */
	CHUNK_WRITTEN_STILL_OVER,	/* wrote write_chunk, writeback still in flight */
	WRITEBACK_BROUGHT_UNDER,	/* wrote write_chunk, it completed at once */
	AT_BDI_LIMIT,		/* bdi exactly at its limit, global under the midpoint */
	NR_SCENARIOS
};

static const char *const scenario_names[NR_SCENARIOS] = {
	"under the bdi limit", "bdi over, global under midpoint",
	"chunk written, still over", "writeback brought it under", "exactly at the bdi limit",
};

/*
 * What each variant leaves in bdi->dirty_exceeded (set before the call).
 * Exactly at the limit, 2.6.31-rc8 breaks on "<= bdi_thresh" but clears
 * only on "< bdi_thresh" after the loop (2.6.31 mm/page-writeback.c), so
 * it stays set; reorder-v1 clears on that first exit; v2's
 * "dirty_exceeded = (... >= bdi_thresh) || ..." counts the limit itself as
 * exceeded and, the global count being under the midpoint, breaks with it
 * still set.
 */
static const struct {
	const char *name;
	int left[NR_SCENARIOS];
} expected[] = {
	{ "2.6.31-rc8", { 0, 1, 1, 0, 1 } },	/* clears after the loop when under */
	{ "reorder-v1", { 0, 1, 1, 1, 0 } },	/* clears only on the first exit */
	{ "cached-locals-v2", { 0, 1, 1, 0, 1 } },	/* re-checks at the top after a chunk */
	{ "cached-locals-v2+wu", { 0, 1, 1, 1, 1 } },	/* breaks after the chunk on the old verdict */
};

static int run_scenario(size_t v, enum scenario s)
{
	struct writeback_world *w = fresh_world(s == WRITEBACK_BROUGHT_UNDER);
	unsigned long background, dirty, bdi_thresh;
	struct address_space *mapping;
	int left;

	if (!w)
		return -1;
	mapping = &w->mappings[0];
	mapping->balance_dirty_pages = row(expected[v].name)->kernel.balance_dirty_pages;
	get_dirty_limits(&background, &dirty, &bdi_thresh, &w->bdi);
	switch (s) {
	case UNDER_LIMIT:
		dirty_pages(mapping, 1000);
		break;
	case GLOBAL_UNDER_MIDPOINT:
		/* The bdi's own counters run ahead of the global ones. */
		dirty_pages(mapping, 1000);
		__add_bdi_stat(&w->bdi, BDI_RECLAIMABLE, (s64)bdi_thresh + 10000);
		break;
	case CHUNK_WRITTEN_STILL_OVER:
		dirty_pages(mapping, (long)bdi_thresh + 10000);
		break;
	case AT_BDI_LIMIT:
		/*
		 * Exactly bdi_thresh reclaimable on the bdi, none under writeback:
		 * one add large enough to fold this CPU's slot makes the shared
		 * count (what bdi_stat reads) exact.
		 */
		dirty_pages(mapping, 1000);
		__add_bdi_stat(&w->bdi, BDI_RECLAIMABLE,
			       (s64)bdi_thresh - bdi_stat_sum(&w->bdi, BDI_RECLAIMABLE));
		CHECK_EQ_LL(bdi_stat(&w->bdi, BDI_RECLAIMABLE), bdi_thresh);
		CHECK_EQ_LL(bdi_stat_sum(&w->bdi, BDI_WRITEBACK), 0);
		break;
	case WRITEBACK_BROUGHT_UNDER:
		/* Over by less than one write_chunk, which completes at once. */
		dirty_pages(mapping, (long)bdi_thresh + sync_writeback_pages() / 3);
		break;
	default:
		break;
	}
	w->bdi.dirty_exceeded = 1;
	mapping->balance_dirty_pages(mapping);
	left = w->bdi.dirty_exceeded;
	if (s == GLOBAL_UNDER_MIDPOINT)
		__add_bdi_stat(&w->bdi, BDI_RECLAIMABLE, -((s64)bdi_thresh + 10000));
	if (s == AT_BDI_LIMIT)
		__add_bdi_stat(&w->bdi, BDI_RECLAIMABLE, 1000 - (s64)bdi_thresh);
	drop_world(w);
	return left;
}

static void test_dirty_exceeded_exits(void)
{
	printf("bdi->dirty_exceeded left set (1) or cleared (0) on each exit:\n");
	printf("  %-22s", "variant");
	for (int s = 0; s < NR_SCENARIOS; s++)
		printf(" | %-31s", scenario_names[s]);
	printf("\n");
	/* The seed's variants (a row added since has no answer here to compare with). */
	for (size_t v = 0; v < ARRAY_SIZE(expected); v++) {
		printf("  %-22s", expected[v].name);
		for (int s = 0; s < NR_SCENARIOS; s++) {
			int left = run_scenario(v, (enum scenario)s);

			printf(" | %-31d", left);
			if (left != expected[v].left[s])
				fprintf(stderr, "%s, %s: dirty_exceeded %d, expected %d\n",
					expected[v].name, scenario_names[s], left, expected[v].left[s]);
			CHECK_EQ_LL(left, expected[v].left[s]);
		}
		printf("\n");
	}
}

/* A fresh 3 GiB machine numbered as 3.2's, as the IO-less rows run on (cases/writeback.c). */
static int iol_machine_setup(char *err, size_t errlen)
{
	struct mm_machine_config cfg;

	mm_config_default(&cfg, 3ULL << 30);
	cfg.vm_stat_numbering = MM_VM_STAT_3_2;
	return mm_machine_setup_config(&cfg, err, errlen);
}

static const struct {
	const char *name;
	const struct iol_machine_ops *ops;
} iol_rows[] = {
#define X(symbol, name, ...) { name, &IOL_MACHINE_OPS(symbol) },
	IOL_VARIANTS(X)
#undef X
};

/*
 * One call of ops in a fresh state on a fresh 3 GiB machine; LONG_MIN if
 * the state could not be built or the call left it (named on stderr).
 */
static long call_in_state(const char *name, const struct iol_machine_ops *ops,
			  enum iol_bdp_state state)
{
	char err[256] = "";
	long ret;

	if (iol_machine_setup(err, sizeof(err)) != 0 ||
	    iol_bdp_setup(ops, state, err, sizeof(err)) != 0) {
		fprintf(stderr, "%s: %s\n", name, err);
		return LONG_MIN;
	}
	iol_bdp_enter();
	ret = iol_bdp_call(ops);
	if (iol_bdp_teardown(err, sizeof(err)) != 0) {
		fprintf(stderr, "%s: %s\n", name, err);
		ret = LONG_MIN;
	}
	mm_machine_teardown();
	return ret;
}

static void test_iol_call_states(void)
{
	printf("3.1's and the IO-less kernels' call (pause in jiffies, -1: none):\n");
	for (size_t i = 0; i < ARRAY_SIZE(iol_rows); i++) {
		long unthrottled = call_in_state(iol_rows[i].name, iol_rows[i].ops,
						 IOL_BDP_UNTHROTTLED);
		long throttled = call_in_state(iol_rows[i].name, iol_rows[i].ops,
					       IOL_BDP_THROTTLED);

		printf("  %-12s unthrottled %3ld  throttled %3ld\n", iol_rows[i].name,
		       unthrottled, throttled);
		CHECK_EQ_LL(unthrottled, -1);
		CHECK(throttled >= 1 && throttled <= 200);
		if (strcmp(iol_rows[i].name, "vanilla-3.1") == 0)
			CHECK_EQ_LL(throttled, 1);
	}
}

/*
 * v11 07/18's think time compensation and 11/18's underrun break, in the
 * throttled state (one pass, 32 pages dirtied: period = HZ * 32 /
 * task_ratelimit = 1 jiffy here, as the pause of 1 above shows), against
 * 3.2, which has neither. With jiffies J and the task's period start W:
 * pause = W + period - J (07/18):
 * - W = J: 1, as 3.2;
 * - W = J + 10 (the last period ran ahead): 11 (3.2: 1);
 * - W = J - 5: -4, not below -HZ: the think time is compensated, the
 *   period is added to W (W = J - 4), no sleep (-1, nr_dirtied 0); 3.2
 *   sleeps 1;
 * - W = 0, J = 5000: -4999 < -HZ: a light dirtier, W = J, no sleep.
 * And with BDI_async_underrun set (dirty not exceeded in this state):
 * the v11 rows leave without a pause (-1); 3.2 sleeps 1.
 */
struct think_step {
	const char *what;
	unsigned long jiffies, paused_when, underrun;
	long want_v11, want_3_2;
	unsigned long want_paused_when_v11;	/* after the call */
};

static const struct think_step think_steps[] = {
	{ "period start now", 2000, 2000, 0, 1, 1, 2000 },
	{ "ahead by 10", 2000, 2010, 0, 11, 1, 2010 },
	{ "5 jiffies of think time", 2000, 1995, 0, -1, 1, 1996 },
	{ "a light dirtier", 5000, 0, 0, -1, 1, 5000 },
	{ "the queue underruns", 2000, 2000, 1, -1, 1, 2000 },
};

static long think_call(const struct iol_machine_ops *ops, const struct think_step *s,
		       unsigned long *paused_when, int *nr_dirtied)
{
	char err[256] = "";
	long ret;

	if (iol_machine_setup(err, sizeof(err)) != 0 ||
	    iol_bdp_setup(ops, IOL_BDP_THROTTLED, err, sizeof(err)) != 0) {
		fprintf(stderr, "%s: %s\n", s->what, err);
		return LONG_MIN;
	}
	iol_bdp_enter();
	iol_bdp_set_jiffies(s->jiffies);
	iol_bdp_set_task(s->paused_when, 32);
	iol_bdp_set_underrun((int)s->underrun);
	ret = iol_bdp_call(ops);
	*paused_when = iol_bdp_task_paused_when();
	*nr_dirtied = iol_bdp_task_nr_dirtied();
	iol_bdp_set_underrun(0);
	if (iol_bdp_teardown(err, sizeof(err)) != 0) {
		fprintf(stderr, "%s: %s\n", s->what, err);
		ret = LONG_MIN;
	}
	mm_machine_teardown();
	return ret;
}

static void test_v11_think_time_underrun(void)
{
	printf("v11's think time and underrun break (pause, -1: none):\n");
	for (size_t i = 0; i < ARRAY_SIZE(iol_rows); i++) {
		bool v11 = strcmp(iol_rows[i].name, "reserve-v11") == 0 ||
			   strcmp(iol_rows[i].name, "freerun") == 0;

		if (!v11 && strcmp(iol_rows[i].name, "3.2") != 0)
			continue;
		for (size_t k = 0; k < ARRAY_SIZE(think_steps); k++) {
			const struct think_step *s = &think_steps[k];
			unsigned long paused_when = 0;
			int nr_dirtied = 0;
			long got = think_call(iol_rows[i].ops, s, &paused_when, &nr_dirtied);

			printf("  %-12s %-24s pause %3ld, dirty_paused_when %lu, nr_dirtied %d\n",
			       iol_rows[i].name, s->what, got, paused_when, nr_dirtied);
			CHECK_EQ_LL(got, v11 ? s->want_v11 : s->want_3_2);
			/* 3.2 leaves the period start alone; a sleep leaves nr_dirtied for after it. */
			CHECK_EQ_LL(paused_when, v11 ? s->want_paused_when_v11 : s->paused_when);
			if (got > 0)
				CHECK_EQ_LL(nr_dirtied, 32);
			else if (v11 && !s->underrun)
				CHECK_EQ_LL(nr_dirtied, 0);
		}
	}
}

/*
 * --set's dirty sysctls reach each set-up, written as the handlers write
 * them (and ratelimit_pages where writeback_set_ratelimit computes it):
 * dirty_bytes of 200 MiB makes the 2.6.31 world's dirty threshold
 * and the IO-less bench's 51200 pages (DIV_ROUND_UP(bytes, 4096)) and
 * zeroes the ratio; a ratio of 5 takes over from the bench's bytes. At
 * a background ratio of 0 the bench's throttled state still throttles 3.1
 * (its setpoint would sit on 3.1's task limit: the state keeps a page over).
 */
static void test_dirty_sysctl_knobs(void)
{
	struct mm_machine_config knobs;
	unsigned long background, dirty, bdi_thresh;
	char err[256] = "";
	struct writeback_world *w;

	mm_config_default(&knobs, 3ULL << 30);
	knobs.sysctl_dirty_bytes = 200 << 20;
	knobs.writeback_ratelimit_pages = 7;
	if (mm_machine_setup(3ULL << 30, err, sizeof(err)) != 0) {
		CHECK_MSG(0, "%s", err);
		return;
	}
	mm_config_set_knobs(&knobs);
	w = writeback_world_create(1, FILE_PAGES, -1, err, sizeof(err));
	CHECK_MSG(w != NULL, "2.6.31 world at dirty_bytes 200 MiB: %s", err);
	if (w) {
		get_dirty_limits(&background, &dirty, &bdi_thresh, &w->bdi);
		CHECK_EQ_LL(dirty, 51200);
		CHECK_EQ_LL(vm_dirty_ratio, 0);
		CHECK_EQ_LL(ratelimit_pages, 7);	/* writeback_set_ratelimit's, --set's */
		drop_world(w);
	} else {
		mm_machine_teardown();
	}

	/*
	 * The default throttled state, worked by hand: thresh 25600 pages (the
	 * 100 MiB dirty_bytes); background 10% of the dirtyable memory, more
	 * than that, so global_dirty_limits halves the threshold: 12800;
	 * freerun (25600 + 12800) / 2 = 19200, setpoint (19200 + 25600) / 2 =
	 * 22400, the state halfway to the limit: (22400 + 25600) / 2 = 24000
	 * dirty and writeback pages, above 3.1's task limit of 22400.
	 */
	if (iol_machine_setup(err, sizeof(err)) != 0) {
		CHECK_MSG(0, "%s", err);
		return;
	}
	CHECK_MSG(iol_bdp_setup(&IOL_MACHINE_OPS(iol_ops_3_2), IOL_BDP_THROTTLED, err,
				sizeof(err)) == 0, "3.2's bench: %s", err);
	CHECK_EQ_LL(iol_bdp_dirty_thresh(), 25600);
	CHECK_EQ_LL(iol_bdp_nr_dirty(), 24000);
	CHECK_MSG(iol_bdp_teardown(err, sizeof(err)) == 0, "%s", err);
	mm_machine_teardown();

	for (int ratio = 0; ratio < 2; ratio++) {
		knobs.sysctl_dirty_bytes = ratio ? MM_KNOB_AUTO : 200 << 20;
		knobs.sysctl_dirty_ratio = ratio ? 5 : MM_KNOB_AUTO;
		if (iol_machine_setup(err, sizeof(err)) != 0) {
			CHECK_MSG(0, "%s", err);
			return;
		}
		mm_config_set_knobs(&knobs);
		CHECK_MSG(iol_bdp_setup(&IOL_MACHINE_OPS(iol_ops_3_2), IOL_BDP_THROTTLED, err,
					sizeof(err)) == 0, "3.2's bench: %s", err);
		if (ratio)
			CHECK_MSG(iol_bdp_dirty_thresh() != IOL_BDP_BDI_THRESH &&
				  iol_bdp_dirty_thresh() <= (3UL << 30) / 4096 * 5 / 100,
				  "3.2's bench at dirty_ratio 5: %lu pages", iol_bdp_dirty_thresh());
		else
			CHECK_EQ_LL(iol_bdp_dirty_thresh(), 51200);
		CHECK_MSG(iol_bdp_teardown(err, sizeof(err)) == 0, "%s", err);
		mm_machine_teardown();
	}

	knobs.sysctl_dirty_ratio = MM_KNOB_AUTO;
	knobs.sysctl_dirty_background_ratio = 0;
	if (iol_machine_setup(err, sizeof(err)) != 0) {
		CHECK_MSG(0, "%s", err);
		return;
	}
	mm_config_set_knobs(&knobs);
	if (iol_bdp_setup(&IOL_MACHINE_OPS(iol_ops_vanilla_3_1), IOL_BDP_THROTTLED, err,
			  sizeof(err)) == 0) {
		long pause;

		iol_bdp_enter();
		pause = iol_bdp_call(&IOL_MACHINE_OPS(iol_ops_vanilla_3_1));
		CHECK_MSG(pause >= 1, "3.1 at dirty_background_ratio 0: pause %ld", pause);
		CHECK_MSG(iol_bdp_teardown(err, sizeof(err)) == 0, "%s", err);
	} else {
		CHECK_MSG(0, "3.1's bench at dirty_background_ratio 0: %s", err);
	}
	mm_machine_teardown();
}

static void bdp_tests(void)
{
	test_unthrottled_counts();
	test_dirty_exceeded_exits();
	test_iol_call_states();
	test_v11_think_time_underrun();
	test_dirty_sysctl_knobs();
}

int main(void)
{
	return test_machine_main("test_bdp", "synthetic:node:1 core:4 pu:1", bdp_tests);
}
