// SPDX-License-Identifier: GPL-2.0
/*
 * Linux 6.18's dirty throttling (kernel/linux-6.18/mm/page-writeback.c, its flex
 * proportions, and counters/wb_machine-6.18.c's bdp/ and bdp_throttled/
 * state), against values worked out by hand from ../shared/kernel/6.18's
 * mm/page-writeback.c:
 *
 * 1. pos_ratio_polynom at its points: 1.0 at the setpoint, the clamp's 2.0
 *    before freerun and 0 past the limit, and exactly 0 at the limit when
 *    limit - setpoint is odd; when it is even, the `| 1` on the divisor
 *    leaves 2/1024 at the limit and 2045/1024 at freerun.
 * 2. wb_position_ratio: the bench's state (888), at the limit (0), in the
 *    wb reserve area (times 8), strictlimit past the wb's threshold (0).
 * 3. domain_dirty_limits: the ratios per PAGE_SIZE (20% of 1000 pages is
 *    199, 10% is 99), the bytes rounded up, bg_thresh >= thresh halved.
 * 4. __wb_calc_thresh: no share gives (thresh - dirty) / 8, strictlimit
 *    / 100; max_ratio caps the whole share.
 * 5. wb_max_pause and wb_min_pause: the bench's (120; 6 with 250 pages),
 *    DIRTY_POLL_THRESH's floor, a zero task_ratelimit.
 * 6. The flex proportions: a share after adds, one period (halved), and
 *    64 periods (zeroed, the other branch of the aging).
 * 7. balance_dirty_pages_ratelimited_flags: when it calls.
 * 8. The machine's states: unthrottled leaves (-1) after 6 global reads;
 *    throttled passes 250 pages and sleeps 11 jiffies after 6 global
 *    reads and 2 wb_stat reads, and the teardown finds the state as set.
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "test_machine.h"
#include "mmscale/kernel/cpumask.h"
#include "mmscale/kernel/percpu.h"
#include "mmscale/linux-6.18/mm/vmstat.h"
#include "mmscale/linux-6.18/mm/writeback.h"

#include "../bdp_claim.h"
#include "../wb_machine-6.18.h"

#define MACHINE "synthetic:node:2 core:2 pu:1"
#define MEM	(3ULL << 30)

static void test_pos_ratio_polynom(void)
{
	/* setpoint 22400, limit 25600 (the bench's): freerun 19200 */
	CHECK_EQ_LL(pos_ratio_polynom(22400, 22400, 25600), 1024);
	CHECK_EQ_LL(pos_ratio_polynom(22400, 24000, 25600), 896);
	/* limit - setpoint = 3200 is even: (3200 | 1) divides, x = -1023 */
	CHECK_EQ_LL(pos_ratio_polynom(22400, 25600, 25600), 2);
	CHECK_EQ_LL(pos_ratio_polynom(22400, 19200, 25600), 2045);
	/* an odd span divides exactly: 0 at the limit */
	CHECK_EQ_LL(pos_ratio_polynom(22400, 25601, 25601), 0);
	/* the clamp */
	CHECK_EQ_LL(pos_ratio_polynom(22400, 0, 25600), 2048);
	CHECK_EQ_LL(pos_ratio_polynom(22400, 30000, 25600), 0);
}

/* A wb_domain and a bdi on the emulated machine, as boot leaves them. */
static struct wb_domain test_dom;
static struct backing_dev_info test_bdi;

static int dom_and_bdi_up(void)
{
	writeback_6_18_reset();
	wb_6_18_jiffies = 0;
	global_wb_domain = &test_dom;
	if (wb_domain_init(&test_dom) != 0 || bdi_init_6_18(&test_bdi) != 0) {
		CHECK(!"cannot allocate the domain and bdi");
		return -1;
	}
	return 0;
}

static void dom_and_bdi_down(void)
{
	bdi_exit_6_18(&test_bdi);
	wb_domain_exit(&test_dom);
	global_wb_domain = NULL;
}

static struct dirty_throttle_control bench_dtc(void)
{
	struct dirty_throttle_control dtc = {
		.wb = &test_bdi.wb, .wb_completions = &test_bdi.wb.completions,
		.thresh = 25600, .bg_thresh = 12800, .dirty = 24000,
		.wb_thresh = 25600, .wb_bg_thresh = 12800, .wb_dirty = 24000,
	};

	return dtc;
}

static void test_position_ratio(void)
{
	struct dirty_throttle_control dtc;

	if (dom_and_bdi_up() != 0)
		return;
	test_dom.dirty_limit = 25600;

	/* the bench's throttled state: 896 globally, 888 on the wb's line */
	dtc = bench_dtc();
	wb_position_ratio(&dtc);
	CHECK_EQ_LL(dtc.limit, 25600);
	CHECK_EQ_LL(dtc.pos_ratio, 888);

	/* the domain's dirty_limit lifts the limit above thresh */
	dtc = bench_dtc();
	test_dom.dirty_limit = 30000;
	wb_position_ratio(&dtc);
	CHECK_EQ_LL(dtc.limit, 30000);
	test_dom.dirty_limit = 25600;

	/* at the limit: 0 */
	dtc = bench_dtc();
	dtc.dirty = 25600;
	wb_position_ratio(&dtc);
	CHECK_EQ_LL(dtc.pos_ratio, 0);

	/*
	 * The wb reserve area: wb_dirty 1000 is under wb_thresh / 2 / 8 =
	 * 1600: the line's value times 8. The line at 1000: 896 *
	 * (227188 - 1000) / (227188 - 22398 | 1) = 989; times 8.
	 */
	dtc = bench_dtc();
	dtc.wb_dirty = 1000;
	wb_position_ratio(&dtc);
	CHECK_EQ_LL(dtc.pos_ratio, 989 * 8);
	/* at 6400, over 1600: scaled by 12800 / 6400 from the line's 965 */
	dtc = bench_dtc();
	dtc.wb_dirty = 6400;
	wb_position_ratio(&dtc);
	CHECK_EQ_LL(dtc.pos_ratio, 965 * 2);

	/* strictlimit: the wb at its threshold gets 0 whatever the domain's */
	test_bdi.capabilities |= BDI_CAP_STRICTLIMIT;
	dtc = bench_dtc();
	dtc.wb_dirty = 25600;
	wb_position_ratio(&dtc);
	CHECK_EQ_LL(dtc.pos_ratio, 0);
	/* below it: min(domain's 896, the wb's polynomial at 24000 of 19200..25600) */
	dtc = bench_dtc();
	wb_position_ratio(&dtc);
	/* (19200 - 24000) << 10 / (6400 | 1) = -767: 1024 + (-767)^3 >> 20 = 594 */
	CHECK_EQ_LL(dtc.pos_ratio, 594);
	CHECK(dtc.pos_ratio < 896);
	test_bdi.capabilities &= ~BDI_CAP_STRICTLIMIT;
	dom_and_bdi_down();
}

static void test_domain_limits(void)
{
	struct dirty_throttle_control dtc = { .avail = 1000 };

	writeback_6_18_reset();
	/* 20% and 10% as 819/4096 and 409/4096 of 1000 pages (3.2: 200, 100) */
	domain_dirty_limits(&dtc);
	CHECK_EQ_LL(dtc.thresh, 199);
	CHECK_EQ_LL(dtc.bg_thresh, 99);
	/* bytes round up to pages */
	vm_dirty_bytes = 4097;
	domain_dirty_limits(&dtc);
	CHECK_EQ_LL(dtc.thresh, 2);
	/* a background threshold at or over the dirty one is half of it */
	vm_dirty_bytes = 0;
	dirty_background_ratio = 20;
	domain_dirty_limits(&dtc);
	CHECK_EQ_LL(dtc.thresh, 199);
	CHECK_EQ_LL(dtc.bg_thresh, 99);
	writeback_6_18_reset();
}

static void test_wb_calc_thresh(void)
{
	struct dirty_throttle_control dtc;

	if (dom_and_bdi_up() != 0)
		return;
	/* no share: the floor for an idle device, (thresh - dirty) / 8 */
	percpu_counter_set_6_18(&test_dom.completions.events, 1000);
	dtc = bench_dtc();
	dtc.dirty = 1000;
	CHECK_EQ_LL(__wb_calc_thresh(&dtc, 25600), (25600 - 1000) / 8);
	test_bdi.capabilities |= BDI_CAP_STRICTLIMIT;
	CHECK_EQ_LL(__wb_calc_thresh(&dtc, 25600), (25600 - 1000) / 100);
	test_bdi.capabilities &= ~BDI_CAP_STRICTLIMIT;
	/* over the threshold, no floor: 0 */
	dtc.dirty = 30000;
	CHECK_EQ_LL(__wb_calc_thresh(&dtc, 25600), 0);
	/* the whole share, capped by a 10% max_ratio */
	percpu_counter_set_6_18(&test_bdi.wb.completions.events, 1000);
	CHECK_EQ_LL(__wb_calc_thresh(&dtc, 25600), 25600);
	test_bdi.max_ratio = 10 * BDI_RATIO_SCALE;
	CHECK_EQ_LL(__wb_calc_thresh(&dtc, 25600), 2560);
	test_bdi.max_ratio = 100 * BDI_RATIO_SCALE;
	/* half the share: 12800 */
	percpu_counter_set_6_18(&test_bdi.wb.completions.events, 500);
	CHECK_EQ_LL(__wb_calc_thresh(&dtc, 25600), 12800);
	dom_and_bdi_down();
}

static void test_pauses(void)
{
	int pages = -1;

	if (dom_and_bdi_up() != 0)
		return;
	/* INIT_BW (25600 pages/s): 24000 / (1 + 25600 / 128) + 1 */
	CHECK_EQ_LL(wb_max_pause(&test_bdi.wb, 24000), 120);
	CHECK_EQ_LL(wb_max_pause(&test_bdi.wb, 1000000), 200);	/* MAX_PAUSE */
	/* one dd at INIT_BW, task_ratelimit 22200: 10 ms for 250 pages, half of it the minimum */
	CHECK_EQ_LL(wb_min_pause(&test_bdi.wb, 120, 22200, 25600, &pages), 6);
	CHECK_EQ_LL(pages, 250);
	/*
	 * Concurrent dirtiers: the wb's dirty_ratelimit 1000 is 2^5 below its
	 * write bandwidth: 10 + 5 * 10000 / 1024 = 58 ms, 56 pages.
	 */
	test_bdi.wb.dirty_ratelimit = 1000;
	CHECK_EQ_LL(wb_min_pause(&test_bdi.wb, 120, 900, 1000, &pages), 30);
	CHECK_EQ_LL(pages, 56);
	/*
	 * One dirtier on a 1000 pages/s disk: 10 ms is 9 pages, under DIRTY_POLL_THRESH:
	 * max_pause's 117, so 32 pages in 32 ms; at task_ratelimit 900 that
	 * is 35 ms, under max_pause: 32 pages, a minimum of 1 + 32 / 2.
	 */
	test_bdi.wb.avg_write_bandwidth = 1000;
	CHECK_EQ_LL(wb_min_pause(&test_bdi.wb, 120, 900, 1000, &pages), 17);
	CHECK_EQ_LL(pages, 32);
	/* task_ratelimit 0: no pages before the next call, max_pause */
	CHECK_EQ_LL(wb_min_pause(&test_bdi.wb, 120, 0, 1000, &pages), 120);
	CHECK_EQ_LL(pages, 0);
	/* dirty_poll_interval: near-sqrt of the margin */
	CHECK_EQ_LL(dirty_poll_interval(0, 25600), 128);
	CHECK_EQ_LL(dirty_poll_interval(25600, 25600), 1);
	dom_and_bdi_down();
}

static void test_flex_proportions(void)
{
	struct fprop_global p;
	struct fprop_local_percpu pl;
	unsigned long num, den;

	if (fprop_global_init_6_18(&p) != 0 || fprop_local_init_percpu_6_18(&pl) != 0) {
		CHECK(!"cannot allocate the proportions");
		return;
	}
	/* the global starts at 1 */
	__fprop_add_percpu_6_18(&p, &pl, 100);
	fprop_fraction_percpu_6_18(&p, &pl, &num, &den);
	CHECK_EQ_LL(num, 100);
	CHECK_EQ_LL(den, 101);
	/* one period: the global's 101 loses 101 - 101 / 2 = 51, leaving 50; the local aged to 50 */
	CHECK(fprop_new_period_6_18(&p, 1));
	fprop_fraction_percpu_6_18(&p, &pl, &num, &den);
	CHECK_EQ_LL(num, 50);
	CHECK_EQ_LL(den, 50);
	CHECK_EQ_LL(pl.period, 1);
	/* 64 periods: the local is set to 0, the fraction 0/1 */
	CHECK(fprop_new_period_6_18(&p, 64));
	fprop_fraction_percpu_6_18(&p, &pl, &num, &den);
	CHECK_EQ_LL(num, 0);
	CHECK_EQ_LL(den, 1);
	CHECK_EQ_LL(pl.period, 65);
	/* nothing left to age */
	CHECK(!fprop_new_period_6_18(&p, 1));
	/* a max fraction of 1/2 lets only enough through to reach it */
	__fprop_add_percpu_6_18(&p, &pl, 0);
	percpu_counter_set_6_18(&p.events, 100);
	__fprop_add_percpu_max_6_18(&p, &pl, (int)(FPROP_FRAC_BASE / 2), 1000);
	fprop_fraction_percpu_6_18(&p, &pl, &num, &den);
	CHECK_EQ_LL(num, 100);
	CHECK_EQ_LL(den, 200);
	fprop_local_destroy_percpu_6_18(&pl);
	fprop_global_destroy_6_18(&p);
}

/*
 * balance_dirty_pages_ratelimited_flags (2046-2109): when a task's
 * dirtied pages reach its ratelimit (8 pages once dirty_exceeded is set),
 * when its CPU's bdp_ratelimits reaches ratelimit_pages, and the pages an
 * exited task leaked on this CPU. Nothing is dirty: a call leaves at
 * freerun (-1 either way: those checks only pin the return), so whether it
 * was made shows in the task's nr_dirtied, which freerun zeroes, and in the
 * global reads.
 */
static void test_ratelimited(void)
{
	char err[256] = "";
	uint64_t reads;
	struct mm_machine_config cfg;

	mm_config_default(&cfg, MEM);
	if (vmstat_6_18_setup(&cfg, err, sizeof(err)) != 0) {
		CHECK_MSG(0, "setup: %s", err);
		return;
	}
	bdp_ratelimits = alloc_percpu(int);
	dirty_throttle_leaks = alloc_percpu(int);
	if (!bdp_ratelimits || !dirty_throttle_leaks || dom_and_bdi_up() != 0) {
		CHECK(!"cannot allocate the ratelimits");
		goto out;
	}
	memset(current, 0, sizeof(*current));
	current->nr_dirtied_pause = 32;
	current->nr_dirtied = 31;
	reads = test_count(MMSCALE_GLOBAL_READS);
	CHECK_EQ_LL(balance_dirty_pages_ratelimited_flags(&test_bdi, 0), -1);
	CHECK_EQ_LL(test_count(MMSCALE_GLOBAL_READS) - reads, 0);	/* not called */
	CHECK_EQ_LL(current->nr_dirtied, 31);
	current->nr_dirtied = 32;
	CHECK_EQ_LL(balance_dirty_pages_ratelimited_flags(&test_bdi, 0), -1);
	CHECK_EQ_LL(test_count(MMSCALE_GLOBAL_READS) - reads, 6);	/* called: freerun */
	CHECK_EQ_LL(current->nr_dirtied, 0);
	/* dirty_poll_interval: 20% of 3 GiB, ~157000 pages: 1 << (17 >> 1) */
	CHECK_EQ_LL(current->nr_dirtied_pause, 256);

	/* dirty_exceeded: 32 >> (PAGE_SHIFT - 10) = 8 pages */
	test_bdi.wb.dirty_exceeded = 1;
	current->nr_dirtied = 8;
	balance_dirty_pages_ratelimited_flags(&test_bdi, 0);
	CHECK_EQ_LL(current->nr_dirtied, 0);
	test_bdi.wb.dirty_exceeded = 0;

	/* this CPU's bdp_ratelimits at ratelimit_pages: called, and reset */
	*this_cpu_ptr(bdp_ratelimits) = (int)ratelimit_pages;
	current->nr_dirtied = 1;
	balance_dirty_pages_ratelimited_flags(&test_bdi, 0);
	CHECK_EQ_LL(current->nr_dirtied, 0);
	CHECK_EQ_LL(*this_cpu_ptr(bdp_ratelimits), 0);

	/* 5 leaked pages join the task's, not past its ratelimit */
	*this_cpu_ptr(dirty_throttle_leaks) = 5;
	current->nr_dirtied = 1;
	balance_dirty_pages_ratelimited_flags(&test_bdi, 0);
	CHECK_EQ_LL(current->nr_dirtied, 6);
	CHECK_EQ_LL(*this_cpu_ptr(dirty_throttle_leaks), 0);
	*this_cpu_ptr(dirty_throttle_leaks) = 500;
	balance_dirty_pages_ratelimited_flags(&test_bdi, 0);
	CHECK_EQ_LL(current->nr_dirtied, 0);	/* 6 + 250 reached 256: called */
	CHECK_EQ_LL(*this_cpu_ptr(dirty_throttle_leaks), 500 - 250);

	/* a bdi without BDI_CAP_WRITEBACK is never throttled */
	test_bdi.capabilities = 0;
	current->nr_dirtied = 1000;
	reads = test_count(MMSCALE_GLOBAL_READS);
	balance_dirty_pages_ratelimited_flags(&test_bdi, 0);
	CHECK_EQ_LL(test_count(MMSCALE_GLOBAL_READS) - reads, 0);
	dom_and_bdi_down();
out:
	free_percpu(bdp_ratelimits);
	free_percpu(dirty_throttle_leaks);
	bdp_ratelimits = dirty_throttle_leaks = NULL;
	vmstat_6_18_teardown();
}

static void test_machine_state(const char *row, balance_dirty_pages_loop_fn loop,
			       enum iol_bdp_state state, long pause, int pages,
			       uint64_t global_reads, uint64_t wb_reads, uint64_t stores)
{
	char err[256] = "";
	uint64_t reads, bdi_reads, bdi_stores;
	struct mm_machine_config cfg;

	mm_config_default(&cfg, MEM);
	if (vmstat_6_18_setup(&cfg, err, sizeof(err)) != 0 ||
	    bdp_6_18_setup(loop, state, err, sizeof(err)) != 0) {
		CHECK_MSG(0, "%s: setup: %s", row, err);
		vmstat_6_18_teardown();
		return;
	}
	CHECK_EQ_LL(bdp_6_18_call_pages(), pages);
	bdp_6_18_enter();
	reads = test_count(MMSCALE_GLOBAL_READS);
	bdi_reads = test_count(MMSCALE_BDI_READS);
	bdi_stores = test_count(MMSCALE_BDI_STORES);
	CHECK_EQ_LL(bdp_6_18_call(), pause);
	CHECK_MSG(test_count(MMSCALE_GLOBAL_READS) - reads == global_reads, "%s: global reads", row);
	CHECK_MSG(test_count(MMSCALE_BDI_READS) - bdi_reads == wb_reads, "%s: wb reads", row);
	CHECK_MSG(test_count(MMSCALE_BDI_STORES) - bdi_stores == stores, "%s: stores", row);
	/* the same again: the call leaves the state as it found it */
	CHECK_EQ_LL(bdp_6_18_call(), pause);
	CHECK_MSG(bdp_6_18_teardown(err, sizeof(err)) == 0, "teardown: %s", err);
	CHECK_MSG(vmstat_6_18_check(err, sizeof(err)) == 0, "%s", err);
	vmstat_6_18_teardown();
}

/*
 * --set's dirty sysctls reach 6.18's bench (bdp_6_18_setup): dirty_bytes
 * of 200 MiB makes its threshold 51200 pages; a ratio of 5 takes over from
 * the bench's bytes, zeroing them (dirty_ratio_handler).
 */
static void test_dirty_sysctl_knobs(void)
{
	for (int ratio = 0; ratio < 2; ratio++) {
		struct mm_machine_config cfg;
		char err[256] = "";

		mm_config_default(&cfg, MEM);
		cfg.sysctl_dirty_bytes = ratio ? MM_KNOB_AUTO : 200 << 20;
		cfg.sysctl_dirty_ratio = ratio ? 5 : MM_KNOB_AUTO;
		if (vmstat_6_18_setup(&cfg, err, sizeof(err)) != 0 ||
		    bdp_6_18_setup(balance_dirty_pages_loop_6_18, IOL_BDP_THROTTLED, err,
				   sizeof(err)) != 0) {
			CHECK_MSG(0, "6.18's bench at %s: %s", ratio ? "ratio 5" : "200 MiB", err);
			vmstat_6_18_teardown();
			continue;
		}
		if (ratio)
			CHECK_MSG(bdp_6_18_dirty_thresh() != IOL_BDP_BDI_THRESH && vm_dirty_bytes == 0 &&
				  bdp_6_18_dirty_thresh() <= MEM / 4096 * 5 / 100,
				  "6.18's bench at dirty_ratio 5: %lu pages", bdp_6_18_dirty_thresh());
		else
			CHECK_MSG(bdp_6_18_dirty_thresh() == 51200 && vm_dirty_ratio == 0,
				  "6.18's bench at 200 MiB: %lu pages", bdp_6_18_dirty_thresh());
		CHECK_MSG(bdp_6_18_teardown(err, sizeof(err)) == 0, "teardown: %s", err);
		vmstat_6_18_teardown();
	}
}

static void tests(void)
{
	int rows_6_18 = 0;

	test_pos_ratio_polynom();
	test_position_ratio();
	test_domain_limits();
	test_wb_calc_thresh();
	test_pauses();
	test_flex_proportions();
	test_ratelimited();
	/*
	 * Every 6.18 row (6.18 and its variants, which change what the pass
	 * stores, not what it decides), with the counts its row claims: the
	 * fork's 32 pages, and the pass leaves at its freerun test; 250
	 * pages at task_ratelimit 22200, an 11-jiffy period, slept (6.18's
	 * stores: dirty_exceeded and last_bdp_sleep). The wb's threshold is
	 * the whole one here, well above 2 * wb_stat_error: reads, not sums.
	 */
	for (size_t i = 0;; i++) {
		struct bdp_claim call, throttled;
		balance_dirty_pages_loop_fn loop;
		const char *row = bdp_6_18_row(i, &loop, &call, &throttled);

		if (!row)
			break;
		printf("6.18 row %s: the unthrottled call and a throttled pass, its claims\n", row);
		rows_6_18++;
		test_machine_state(row, loop, IOL_BDP_UNTHROTTLED, -1, 32, call.global_reads,
				   call.bdi_reads, call.bdi_stores);
		test_machine_state(row, loop, IOL_BDP_THROTTLED, 11, 250, throttled.global_reads,
				   throttled.bdi_reads, throttled.bdi_stores);
	}
	CHECK(rows_6_18 >= 2);	/* 6.18's and a variant's: not vacuous */
	test_dirty_sysctl_knobs();
}

int main(void)
{
	return test_machine_main("test_writeback_6_18", MACHINE, tests);
}
