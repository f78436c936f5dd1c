// SPDX-License-Identifier: GPL-2.0
/*
 * Linux 3.2's IO-less control functions (counters/page-writeback-3.2.c,
 * counters/iol_control.h) and the three reserve-area variants
 * (counters/iol_*.c) against values worked out by hand from
 * mm/page-writeback.c of 3.2 and the v11 patches, each step written out.
 * Integer division truncates; a negative long long shifts right by
 * flooring (GCC). HZ = 1000.
 *
 * The world of most steps: thresh = 1000 pages, bg_thresh = 600, so
 * freerun = (1000 + 600) / 2 = 800; global_dirty_limit = 0, so limit =
 * max(1000, 0) = 1000; setpoint = (800 + 1000) / 2 = 900.
 */
#include <stdio.h>

#include "check.h"
#include "../iol_variants.h"

enum { V_3_2, V_RESERVE_V11, V_FREERUN, NR_V };

static const struct {
	const struct iol_variant_ops *ops;
	const char *name;
} variants[NR_V] = {
	[V_3_2] = { &iol_ops_3_2, "3.2" },
	[V_RESERVE_V11] = { &iol_ops_reserve_v11, "reserve-v11" },
	[V_FREERUN] = { &iol_ops_freerun, "freerun" },
};

/* One bdi_position_ratio call and what each variant must return. */
struct pos_step {
	const char *what;
	unsigned long dirty, bdi_thresh, bdi_dirty, write_bw;
	unsigned long want[NR_V];	/* 3.2, reserve-v11, freerun */
};

static const struct pos_step pos_steps[] = {
	/*
	 * At the limit: dirty >= limit returns 0 before anything else.
	 */
	{ "dirty at the limit", 1000, 1000, 1000, 100, { 0, 0, 0 } },
	/*
	 * At freerun, one bdi with every dirty page (bdi_thresh = thresh).
	 * Global: x = ((900 - 800) << 10) / (1000 - 900 + 1) = 102400 / 101
	 * = 1013; 1013 * 1013 >> 10 = 1026169 >> 10 = 1002; 1002 * 1013 >> 10
	 * = 1015026 >> 10 = 991; + 1024 = 2015 (f(freerun) = 2.0, less the
	 * truncations).
	 * bdi: bdi_thresh = max(1000, (1000 - 800) / 8 = 25) = 1000; x =
	 * (1000 << 16) / 1001 = 65536000 / 1001 = 65470; bdi_setpoint = 900 *
	 * 65470 >> 16 = 58923000 >> 16 = 899; span = (1000 - 1000 + 8 * 100) *
	 * 65470 >> 16 = 52376000 >> 16 = 799; x_intercept = 899 + 799 = 1698;
	 * 800 < 1698 - 799 / 4 = 1499: 2015 * (1698 - 800) / (1698 - 899 + 1)
	 * = 1809470 / 800 = 2261.
	 * Reserve: 3.2's x_intercept = 1000 / 2 = 500, v11's = min(100, 800)
	 * = 100; 800 is below neither: 2261 for all three.
	 */
	{ "at freerun, one bdi", 800, 1000, 800, 100, { 2261, 2261, 2261 } },
	/*
	 * Just below the limit: dirty = 999. x = (900 - 999) * 1024 / 101 =
	 * -101376 / 101 = -1003 (truncated towards 0); -1003 * -1003 >> 10 =
	 * 1006009 >> 10 = 982; 982 * -1003 = -984946 >> 10 = -962 (floored);
	 * + 1024 = 62. bdi: bdi_thresh = max(1000, 1 / 8 = 0) = 1000, as
	 * above up to x_intercept = 1698; 999 < 1499: 62 * (1698 - 999) / 800
	 * = 43338 / 800 = 54. No reserve (999 >= 500, >= 100).
	 */
	{ "one page below the limit", 999, 1000, 999, 100, { 54, 54, 54 } },
	/*
	 * JBOD: at the setpoint (dirty = 900) a bdi with a tenth of thresh
	 * (bdi_thresh = 100) holds 20 dirty pages. Global: x = 0: 1024.
	 * bdi: bdi_thresh = max(100, (1000 - 900) / 8 = 12) = 100; x = (100 <<
	 * 16) / 1001 = 6553600 / 1001 = 6547; bdi_setpoint = 900 * 6547 >> 16
	 * = 5892300 >> 16 = 89; span = (1000 - 100 + 800) * 6547 >> 16 =
	 * 11129900 >> 16 = 169; x_intercept = 89 + 169 = 258; 20 < 258 - 42 =
	 * 216: 1024 * (258 - 20) / (258 - 89 + 1) = 243712 / 170 = 1433.
	 * 3.2: x_intercept = 100 / 2 = 50; 20 < 50 and 20 > 50 / 8 = 6: 1433 *
	 * 50 / 20 = 71650 / 20 = 3582.
	 * reserve-v11: x_intercept = min(100, 800) = 100; 20 < 100, 20 > 12:
	 * 1433 * 100 / 20 = 7165. freerun: 1433.
	 */
	{ "JBOD bdi below its reserve", 900, 100, 20, 100, { 3582, 7165, 1433 } },
	/*
	 * The 8x cap: bdi_dirty = 5. bdi line: 1024 * (258 - 5) / 170 =
	 * 259072 / 170 = 1523. 3.2: 5 < 50, 5 > 6 fails: 1523 * 8 = 12184;
	 * reserve-v11: 5 < 100, 5 > 12 fails: 12184. freerun: 1523.
	 */
	{ "the 8x cap", 900, 100, 5, 100, { 12184, 12184, 1523 } },
	/*
	 * Where 3.2's cap ends: bdi_dirty = 7 > 50 / 8 = 6. bdi line: 1024 *
	 * 251 / 170 = 257024 / 170 = 1511. 3.2: 1511 * 50 / 7 = 75550 / 7 =
	 * 10792 (below 8 * 1511 = 12088); reserve-v11: 7 > 12 fails: 1511 * 8
	 * = 12088. freerun: 1511.
	 */
	{ "3.2's cap ends at x_intercept / 8", 900, 100, 7, 100, { 10792, 12088, 1511 } },
	/*
	 * An inactive bdi (bdi_thresh 10) at freerun (global 2015, above), 20
	 * dirty pages. 3.2 raises bdi_thresh to (1000 - 800) / 8 = 25: x =
	 * (25 << 16) / 1001 = 1636; bdi_setpoint = 900 * 1636 >> 16 = 22; span
	 * = (1000 - 25 + 800) * 1636 >> 16 = 2903900 >> 16 = 44; x_intercept =
	 * 66; 20 < 66 - 11: 2015 * 46 / 45 = 92690 / 45 = 2059; its reserve, 25
	 * / 2 = 12, is not reached.
	 * The v11 variants keep 10: x = 655360 / 1001 = 654; bdi_setpoint =
	 * 588600 >> 16 = 8; span = 1790 * 654 >> 16 = 1170660 >> 16 = 17;
	 * x_intercept = 25; 20 < 25 - 4: 2015 * 5 / 18 = 559. reserve-v11: 20 <
	 * 100, 20 > 12: 559 * 100 / 20 = 2795. freerun: 559.
	 */
	{ "an inactive bdi", 800, 10, 20, 100, { 2059, 2795, 559 } },
	/*
	 * Far above the bdi line: bdi_dirty = 250 >= 216: the 1/4 floor,
	 * 1024 / 4 = 256; no reserve (250 >= 50, >= 100).
	 */
	{ "the 1/4 floor of the bdi line", 900, 100, 250, 100, { 256, 256, 256 } },
};

static void test_position_ratio(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(pos_steps); i++) {
		const struct pos_step *s = &pos_steps[i];

		for (int v = 0; v < NR_V; v++) {
			struct backing_dev_info bdi = { .avg_write_bandwidth = s->write_bw };
			unsigned long got = variants[v].ops->bdi_position_ratio(&bdi, 1000, 600, s->dirty,
										  s->bdi_thresh,
										  s->bdi_dirty);

			CHECK_MSG(got == s->want[v], "%s: %s: pos_ratio %lu (want %lu)", s->what,
				  variants[v].name, got, s->want[v]);
		}
	}
}

static void test_limits(void)
{
	CHECK_EQ_LL(dirty_freerun_ceiling(1000, 600), 800);
	global_dirty_limit = 0;
	CHECK_EQ_LL(hard_dirty_limit(1000), 1000);
	/* Up in one step: 0 < 1000. */
	update_dirty_limit(1000, 0);
	CHECK_EQ_LL(global_dirty_limit, 1000);
	CHECK_EQ_LL(hard_dirty_limit(500), 1000);
	/* Down by 1/32 of the gap to max(thresh, dirty) = 600: 1000 - 400 / 32 = 988. */
	update_dirty_limit(500, 600);
	CHECK_EQ_LL(global_dirty_limit, 988);
	/* Never below the dirty pages: max(500, 988) = 988, not above: unchanged. */
	update_dirty_limit(500, 988);
	CHECK_EQ_LL(global_dirty_limit, 988);
	/* Up again at once: 988 < 990. */
	update_dirty_limit(990, 0);
	CHECK_EQ_LL(global_dirty_limit, 990);
	global_dirty_limit = 0;

	/* dirty_poll_interval: 1 << (ilog2(1000 - 900) >> 1) = 1 << (6 >> 1) = 8. */
	CHECK_EQ_LL(dirty_poll_interval(900, 1000), 8);
	/* 1 << (ilog2(1000000) >> 1) = 1 << (19 >> 1) = 512; at or over thresh: 1. */
	CHECK_EQ_LL(dirty_poll_interval(0, 1000000), 512);
	CHECK_EQ_LL(dirty_poll_interval(1000, 1000), 1);
	CHECK_EQ_LL(dirty_poll_interval(1200, 1000), 1);
}

static void test_max_pause(void)
{
	/*
	 * 100 MB/s = 25600 pages/s, 10 dd: dirty_ratelimit 2560. hi =
	 * ilog2(25600) = 14, lo = ilog2(2560) = 11; t = 1000 / 50 = 20, + 3 *
	 * 20000 / 1024 = 58: 78; the pool bound 5000 * 1000 / (8 * 25600 + 1)
	 * = 5000000 / 204801 = 24: 24 jiffies.
	 */
	struct backing_dev_info bdi = {
		.avg_write_bandwidth = 25600, .dirty_ratelimit = 2560,
	};

	CHECK_EQ_LL(bdi_max_pause(&bdi, 5000), 24);
	/* A large pool: 100000000 / 204801 = 488 > 78: 78. */
	CHECK_EQ_LL(bdi_max_pause(&bdi, 100000), 78);
	/* Ten pages: 10000 / 204801 = 0: the lower bound, 4. */
	CHECK_EQ_LL(bdi_max_pause(&bdi, 10), 4);
	/*
	 * 4 GB/s (1 << 20 pages/s) at ratelimit 1: hi 20, lo 0: 20 + 20 *
	 * 20000 / 1024 = 20 + 390 = 410; pool 10^7 * 1000 / (8 << 20 | 1) =
	 * 1192: 410, over MAX_PAUSE = 200: 200.
	 */
	bdi.avg_write_bandwidth = 1UL << 20;
	bdi.dirty_ratelimit = 1;
	CHECK_EQ_LL(bdi_max_pause(&bdi, 10000000), 200);
}

/*
 * bdi_update_write_bandwidth steps, each from the state given: period =
 * roundup_pow_of_two(3000) = 4096 jiffies, >> ilog2 = 12.
 */
static const struct bw_step {
	const char *what;
	unsigned long old_bw, old_avg, written_stamp, elapsed, written;
	unsigned long bw, avg;
} bw_steps[] = {
	/* 6000 * 1000 + 25600 * (4096 - 200) = 105737600 >> 12 = 25814; avg = old: kept. */
	{ "avg equal to old", 25600, 25600, 0, 200, 6000, 25814, 25600 },
	/*
	 * 2000 pages: 2000000 + 25600 * 3896 = 101737600 >> 12 = 24838 <=
	 * old 25600 < avg: avg -= (26000 - 25600) >> 3 = 50: 25950.
	 */
	{ "avg above old, old above the new", 25600, 26000, 10000, 200, 12000, 24838, 25950 },
	/*
	 * 8000 pages: 8000000 + 99737600 = 107737600 >> 12 = 26303 >= old
	 * 25600 > avg: avg += (25600 - 25000) >> 3 = 75: 25075.
	 */
	{ "avg below old, old below the new", 25600, 25000, 0, 200, 8000, 26303, 25075 },
	/* Longer than the period: 10000 pages in 5000 jiffies: 2000 pages/s, both. */
	{ "longer than the period", 26303, 25075, 0, 5000, 10000, 2000, 2000 },
};

static void test_write_bandwidth(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(bw_steps); i++) {
		const struct bw_step *w = &bw_steps[i];
		struct backing_dev_info bdi = {
			.write_bandwidth = w->old_bw, .avg_write_bandwidth = w->old_avg,
			.written_stamp = w->written_stamp,
		};

		bdi_update_write_bandwidth(&bdi, w->elapsed, w->written);
		CHECK_MSG(bdi.write_bandwidth == w->bw && bdi.avg_write_bandwidth == w->avg,
			  "bdi_update_write_bandwidth, %s: %lu, avg %lu (want %lu, %lu)", w->what,
			  bdi.write_bandwidth, bdi.avg_write_bandwidth, w->bw, w->avg);
	}
}

static void test_dirty_ratelimit(void)
{
	for (int v = 0; v < NR_V; v++) {
		const struct iol_variant_ops *ops = variants[v].ops;
		struct backing_dev_info bdi = {
			.avg_write_bandwidth = 100, .dirty_ratelimit = 50,
			.balanced_dirty_ratelimit = 50,
		};

		global_dirty_limit = 0;
		/*
		 * At the setpoint, one bdi holding every page (bdi_dirty =
		 * 900; its reserve is not reached in any variant: 900 >= 500,
		 * >= 100): 40 pages dirtied in 200 jiffies: dirty_rate = 40 *
		 * 1000 / 200 = 200. pos_ratio: global 1024; bdi line 1024 *
		 * (1698 - 900) / 800 = 817152 / 800 = 1021. task_ratelimit =
		 * 50 * 1021 >> 10 = 49, + 1 = 50. balanced = 50 * 100 / (200 |
		 * 1) = 5000 / 201 = 24. dirty is not below the setpoint: x =
		 * max(50, max(24, 50)) = 50; 50 > 50 fails: step 0. Stays 50.
		 */
		ops->bdi_update_dirty_ratelimit(&bdi, 1000, 600, 900, 1000, 900, 40, 200);
		CHECK_MSG(bdi.dirty_ratelimit == 50 && bdi.balanced_dirty_ratelimit == 24,
			  "%s at the setpoint: dirty_ratelimit %lu, balanced %lu (want 50, 24)",
			  variants[v].name, bdi.dirty_ratelimit, bdi.balanced_dirty_ratelimit);
		/*
		 * Below the setpoint (dirty = bdi_dirty = 850), 10 pages in 200
		 * jiffies: dirty_rate 50; the last balanced rate set to 200.
		 * Global: x = (50 << 10) / 101 = 506; 506 * 506 >> 10 = 250;
		 * 250 * 506 >> 10 = 123; + 1024 = 1147. bdi: bdi_thresh =
		 * max(1000, 150 / 8) = 1000, x_intercept 1698; 1147 * (1698 -
		 * 850) / 800 = 972656 / 800 = 1215. task_ratelimit = 50 * 1215
		 * >> 10 = 59, + 1 = 60; balanced = 60 * 100 / 51 = 117. x =
		 * min(200, min(117, 60)) = 60 > 50: step 10; step >>= 50 / 21 =
		 * 2: 2; (2 + 7) / 8 = 1; 50 < 117: 51.
		 */
		bdi.balanced_dirty_ratelimit = 200;
		ops->bdi_update_dirty_ratelimit(&bdi, 1000, 600, 850, 1000, 850, 10, 200);
		CHECK_MSG(bdi.dirty_ratelimit == 51 && bdi.balanced_dirty_ratelimit == 117,
			  "%s below the setpoint: dirty_ratelimit %lu, balanced %lu (want 51, 117)",
			  variants[v].name, bdi.dirty_ratelimit, bdi.balanced_dirty_ratelimit);
	}
	/*
	 * Tracking speed, both directions (no reserve reached: bdi_thresh
	 * 1000), dirty_ratelimit 1000, write_bw 100.
	 * Rising: dirty = bdi_dirty = 850 (pos_ratio 1215, above), 10 pages in
	 * 200 jiffies (dirty_rate 50, | 1 = 51); the last balanced rate 1100.
	 * task_ratelimit = 1000 * 1215 >> 10 = 1186, + 1 = 1187; balanced =
	 * 118700 / 51 = 2327. x = min(1100, min(2327, 1187)) = 1100 (the last
	 * balanced rate binds): step 100; 100 >> (1000 / 201 = 4) = 6; (6 + 7)
	 * / 8 = 1: 1001.
	 * Falling: dirty = bdi_dirty = 950. Global: x = -51200 / 101 = -506;
	 * 256036 >> 10 = 250; 250 * -506 = -126500 >> 10 = -124; 900. bdi:
	 * 900 * (1698 - 950) / 800 = 673200 / 800 = 841. 200 pages in 200
	 * jiffies: dirty_rate 1000, | 1 = 1001. task_ratelimit = 841000 >> 10
	 * = 821, + 1 = 822; balanced = 82200 / 1001 = 82. Not below the
	 * setpoint: x = max(700, max(82, 822)) = 822 < 1000: step 178; 178 >>
	 * (1000 / 357 = 2) = 44; (44 + 7) / 8 = 6; 1000 > 82: 994.
	 */
	for (int v = 0; v < NR_V; v++) {
		struct backing_dev_info up = {
			.avg_write_bandwidth = 100, .dirty_ratelimit = 1000,
			.balanced_dirty_ratelimit = 1100,
		};
		struct backing_dev_info down = {
			.avg_write_bandwidth = 100, .dirty_ratelimit = 1000,
			.balanced_dirty_ratelimit = 700,
		};

		variants[v].ops->bdi_update_dirty_ratelimit(&up, 1000, 600, 850, 1000, 850, 10, 200);
		CHECK_MSG(up.dirty_ratelimit == 1001 && up.balanced_dirty_ratelimit == 2327,
			  "%s rising: dirty_ratelimit %lu, balanced %lu (want 1001, 2327)",
			  variants[v].name, up.dirty_ratelimit, up.balanced_dirty_ratelimit);
		variants[v].ops->bdi_update_dirty_ratelimit(&down, 1000, 600, 950, 1000, 950, 200,
							    200);
		CHECK_MSG(down.dirty_ratelimit == 994 && down.balanced_dirty_ratelimit == 82,
			  "%s falling: dirty_ratelimit %lu, balanced %lu (want 994, 82)",
			  variants[v].name, down.dirty_ratelimit, down.balanced_dirty_ratelimit);
	}
	/*
	 * The reserve area moves the rate: the JBOD bdi of the position
	 * steps (bdi_thresh 100, bdi_dirty 20, at the setpoint), dirty_ratelimit
	 * 1000, write_bw 100, 100 pages in 200 jiffies: dirty_rate 500.
	 * task_ratelimit = 1000 * pos >> 10, + 1: 3.2 (3582): 3498 + 1 =
	 * 3499; reserve-v11 (7165): 6997 + 1 = 6998; freerun (1433): 1399 + 1
	 * = 1400. balanced = task * 100 / 501: 698, 1396, 279. At the setpoint
	 * (not below): x = max(prev 1000, max(balanced, task)) = task for
	 * every variant, above 1000: step 0, the rate stays 1000.
	 */
	{
		static const unsigned long want_balanced[NR_V] = { 698, 1396, 279 };

		for (int v = 0; v < NR_V; v++) {
			struct backing_dev_info bdi = {
				.avg_write_bandwidth = 100, .dirty_ratelimit = 1000,
				.balanced_dirty_ratelimit = 1000,
			};

			variants[v].ops->bdi_update_dirty_ratelimit(&bdi, 1000, 600, 900, 100, 20,
								    100, 200);
			CHECK_MSG(bdi.dirty_ratelimit == 1000 &&
				  bdi.balanced_dirty_ratelimit == want_balanced[v],
				  "%s JBOD: dirty_ratelimit %lu, balanced %lu (want 1000, %lu)",
				  variants[v].name, bdi.dirty_ratelimit,
				  bdi.balanced_dirty_ratelimit, want_balanced[v]);
		}
	}
}

/*
 * The bdi-freerun patch's break: freerun = min(avg_write_bandwidth +
 * MIN_WRITEBACK_PAGES, global_dirty_limit - nr_dirty) / 8; leave without a
 * pause when !dirty_exceeded and bdi_dirty < freerun. The others never.
 */
static void test_own_freerun(void)
{
	struct backing_dev_info bdi = { .avg_write_bandwidth = 100 };
	static const struct {
		unsigned long gdl, nr_dirty, bdi_dirty;
		bool exceeded, want;
		const char *what;
	} steps[] = {
		/* min(100 + 1024, 1000 - 900) / 8 = 100 / 8 = 12: 11 < 12. */
		{ 1000, 900, 11, false, true, "below: room 100 / 8 = 12" },
		{ 1000, 900, 12, false, false, "at 12: not below" },
		{ 1000, 900, 11, true, false, "below, but dirty_exceeded" },
		/* min(1124, 100000 - 900) / 8 = 1124 / 8 = 140: 139 < 140. */
		{ 100000, 900, 139, false, true, "the bandwidth bound: 1124 / 8 = 140" },
		{ 100000, 900, 140, false, false, "at 140" },
		/* nr_dirty above global_dirty_limit: the unsigned room wraps, min takes 1124. */
		{ 1000, 1200, 139, false, true, "room wraps: 1124 / 8 = 140" },
	};

	for (size_t i = 0; i < ARRAY_SIZE(steps); i++) {
		global_dirty_limit = steps[i].gdl;
		for (int v = 0; v < NR_V; v++) {
			bool got = variants[v].ops->bdi_below_own_freerun(&bdi, steps[i].nr_dirty,
									   steps[i].bdi_dirty,
									   steps[i].exceeded);
			bool want = v == V_FREERUN && steps[i].want;

			CHECK_MSG(got == want, "%s: %s: %d (want %d)", variants[v].name,
				  steps[i].what, got, want);
		}
	}
	global_dirty_limit = 0;
}

int main(void)
{
	test_position_ratio();
	test_limits();
	test_max_pause();
	test_write_bandwidth();
	test_dirty_ratelimit();
	test_own_freerun();
	return check_report("test_iol_control");
}
