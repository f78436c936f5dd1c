// SPDX-License-Identifier: GPL-2.0
/*
 * Linux 3.2's IO-less control functions (kernel/linux-3.2/mm/page-writeback.c,
 * counters/iol_control.h) and the three reserve-area variants
 * (counters/iol_*.c) against values worked out by hand from
 * mm/page-writeback.c of 3.2 and the v11 patches, each step written out.
 * Integer division truncates; a negative long long shifts right by
 * flooring (GCC). HZ = 1000.
 *
 * The world of most steps: thresh = 1000 pages, bg_thresh = 600, so
 * freerun = (1000 + 600) / 2 = 800; global_dirty_limit = 0, so limit =
 * max(1000, 0) = 1000; setpoint = (800 + 1000) / 2 = 900.
 *
 * Every comparison of the two files and of the variants' reserve areas is
 * checked at its boundary, one below and one above (or, where a side
 * cannot be reached or changes nothing, the comment says so);
 * scripts/mutants.list moves each (the iol-* mutants). The functions that
 * read the environment's counts run inside a throttle world at its boot
 * (test_limits_at_boot).
 */
#include <stdio.h>

#include "check.h"
#include "mmscale/linux-3.2/world/throttle.h"
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

	/*
	 * Every comparison of bdi_position_ratio at, just below and just
	 * above its boundary (issue 25, item 10).
	 *
	 * dirty >= limit (line 542): at it (1000) and one below (999) are the
	 * rows above; one above, 1001 >= 1000: 0 as well.
	 */
	{ "one page above the limit", 1001, 1000, 1001, 100, { 0, 0, 0 } },
	/*
	 * bdi_thresh > thresh (line 600), at freerun (global 2015) with
	 * bdi_dirty = 800: at it, 1000 is the row "at freerun, one bdi" (2261).
	 * One above, 1001 > 1000: clamped to 1000, so 2261 again (unclamped,
	 * 1001 would give x = (1001 << 16) / 1001 = 65536, bdi_setpoint 900,
	 * span (1000 - 1001 + 800) * 65536 >> 16 = 799, x_intercept 1699: 2015
	 * * 899 / 800 = 2264).
	 * One below, 999: 3.2's floor max(999, 200 / 8 = 25) = 999; x = (999 <<
	 * 16) / 1001 = 65470464 / 1001 = 65405; bdi_setpoint = 900 * 65405 >>
	 * 16 = 58864500 >> 16 = 898; span = (1000 - 999 + 800) * 65405 >> 16 =
	 * 52389405 >> 16 = 799; x_intercept = 1697; 800 < 1697 - 199 = 1498:
	 * 2015 * (1697 - 800) / (1697 - 898 + 1) = 1807455 / 800 = 2259. No
	 * reserve: 800 >= 999 / 2 = 499, >= min(100, 800) = 100.
	 */
	{ "bdi_thresh one above thresh: clamped", 800, 1001, 800, 100, { 2261, 2261, 2261 } },
	{ "bdi_thresh one below thresh", 800, 999, 800, 100, { 2259, 2259, 2259 } },
	/*
	 * bdi_dirty < x_intercept - span / 4 (line 627): the JBOD bdi at the
	 * setpoint (x_intercept 258, span 169, bdi_setpoint 89, global 1024):
	 * the boundary is 258 - 169 / 4 = 258 - 42 = 216. At it, 216 < 216
	 * fails: the floor, 1024 / 4 = 256 (the line would give 1024 * 42 / 170
	 * = 43008 / 170 = 252). One above, 217: 256. One below, 215: 1024 *
	 * (258 - 215) / 170 = 44032 / 170 = 259. No reserve (>= 50, >= 100).
	 */
	{ "the bdi line's end, one below", 900, 100, 215, 100, { 259, 259, 259 } },
	{ "the bdi line's end, at it: the floor", 900, 100, 216, 100, { 256, 256, 256 } },
	{ "the bdi line's end, one above", 900, 100, 217, 100, { 256, 256, 256 } },
	/*
	 * 3.2's floor for an inactive bdi, max(bdi_thresh, (limit - dirty) /
	 * 8) (line 609), at freerun (global 2015), bdi_dirty = 20: (1000 - 800)
	 * / 8 = 25.
	 * At it, bdi_thresh 25: x = (25 << 16) / 1001 = 1636; bdi_setpoint =
	 * 900 * 1636 >> 16 = 1472400 >> 16 = 22; span = (1000 - 25 + 800) *
	 * 1636 >> 16 = 2903900 >> 16 = 44; x_intercept = 66; 20 < 66 - 11:
	 * 2015 * 46 / 45 = 92690 / 45 = 2059. 3.2: reserve 25 / 2 = 12, not
	 * reached: 2059. v11 (no floor, the same 25): 20 < 100, 20 > 12: 2059 *
	 * 100 / 20 = 10295. freerun: 2059.
	 * One below, 24: 3.2 raises it to 25: 2059. The v11 variants keep 24:
	 * x = 1572864 / 1001 = 1571; bdi_setpoint = 1413900 >> 16 = 21; span =
	 * 1776 * 1571 >> 16 = 2790096 >> 16 = 42; x_intercept = 63; 20 < 63 -
	 * 10 = 53: 2015 * 43 / 43 = 2015. reserve-v11: 2015 * 100 / 20 = 10075.
	 * One above, 26, for all: x = 1703936 / 1001 = 1702; bdi_setpoint =
	 * 1531800 >> 16 = 23; span = 1774 * 1702 >> 16 = 3019348 >> 16 = 46;
	 * x_intercept = 69; 20 < 69 - 11 = 58: 2015 * 49 / 47 = 98735 / 47 =
	 * 2100. 3.2: 20 >= 26 / 2 = 13, no reserve: 2100; reserve-v11: 2100 *
	 * 100 / 20 = 10500; freerun: 2100.
	 */
	{ "3.2's inactive floor, one below", 800, 24, 20, 100, { 2059, 10075, 2015 } },
	{ "3.2's inactive floor, at it", 800, 25, 20, 100, { 2059, 10295, 2059 } },
	{ "3.2's inactive floor, one above", 800, 26, 20, 100, { 2100, 10500, 2100 } },
	/*
	 * The reserve areas' bdi_dirty < x_intercept (3.2 line 639; v11's
	 * 10/18), the JBOD bdi at the setpoint. The bdi line: 1024 * (258 -
	 * bdi_dirty) / 170.
	 * 3.2's x_intercept = 100 / 2 = 50. One below, 49: line 1024 * 209 /
	 * 170 = 214016 / 170 = 1258; 49 < 50, 49 > 6: 1258 * 50 / 49 = 62900 /
	 * 49 = 1283. At it, 50: line 212992 / 170 = 1252, no reserve (taking
	 * it would give 1252 * 50 / 50 = 1252 as well: the row at an
	 * x_intercept of 0 below sees this boundary). One above, 51: 211968 /
	 * 170 = 1246. reserve-v11 (x_intercept 100): 1258 * 100 / 49 = 125800
	 * / 49 = 2567; 1252 * 100 / 50 = 2504; 1246 * 100 / 51 = 124600 / 51 =
	 * 2443. freerun: the line.
	 */
	{ "3.2's reserve, one below its x_intercept", 900, 100, 49, 100, { 1283, 2567, 1258 } },
	{ "3.2's reserve, at its x_intercept", 900, 100, 50, 100, { 1252, 2504, 1252 } },
	{ "3.2's reserve, one above its x_intercept", 900, 100, 51, 100, { 1246, 2443, 1246 } },
	/*
	 * At an x_intercept of 0 with no dirty page, the boundary can be seen:
	 * 0 < 0 fails, where taking the reserve would give 0 > 0 / 8 failing
	 * too: 8 times. 3.2's is 0 for a bdi_thresh of 1 a page below the
	 * limit: dirty 999 (global 62, above), max(1, 1 / 8 = 0) = 1; x = (1 <<
	 * 16) / 1001 = 65; bdi_setpoint = 900 * 65 >> 16 = 0; span = (1000 - 1
	 * + 800) * 65 >> 16 = 116935 >> 16 = 1; x_intercept = 1; 0 < 1 - 0: 62
	 * * (1 - 0) / (1 - 0 + 1) = 31. 3.2: 1 / 2 = 0: 31. reserve-v11: 0 <
	 * 100, 0 > 12 fails: 248. freerun: 31.
	 */
	{ "3.2's reserve at an x_intercept of 0", 999, 1, 0, 100, { 31, 248, 31 } },
	/*
	 * v11's x_intercept = min(100, 800) = 100. One below, 99: line 1024 *
	 * 159 / 170 = 162816 / 170 = 957; 99 < 100, 99 > 12: 957 * 100 / 99 =
	 * 95700 / 99 = 966. At it, 100: 161792 / 170 = 951, no reserve (the
	 * reserve's 951 * 100 / 100 would be the same: the row at an
	 * x_intercept of 0 below sees it). One above, 101: 160768 / 170 = 945.
	 * 3.2 (>= 50) and freerun: the line.
	 */
	{ "v11's reserve, one below its x_intercept", 900, 100, 99, 100, { 957, 966, 957 } },
	{ "v11's reserve, at its x_intercept", 900, 100, 100, 100, { 951, 951, 951 } },
	{ "v11's reserve, one above its x_intercept", 900, 100, 101, 100, { 945, 945, 945 } },
	/*
	 * v11's x_intercept is 0 for a write_bw of 0 (a bdi that wrote nothing
	 * for longer than the period: bdi_update_write_bandwidth's avg = bw
	 * = 0): the JBOD bdi with no dirty page, span = (1000 - 100 + 0) *
	 * 6547 >> 16 = 5892300 >> 16 = 89; x_intercept = 89 + 89 = 178; 0 < 178
	 * - 22: 1024 * 178 / (178 - 89 + 1) = 182272 / 90 = 2025. reserve-v11:
	 * min(0, 800) = 0, 0 < 0 fails: 2025. 3.2: 0 < 50, 0 > 6 fails: 2025 *
	 * 8 = 16200. freerun: 2025.
	 */
	{ "v11's reserve at an x_intercept of 0", 900, 100, 0, 0, { 16200, 2025, 2025 } },
	/*
	 * The 8x cap's bdi_dirty > x_intercept / 8 (3.2 line 640; v11's).
	 * 3.2's, 50 / 8 = 6: one below (5) and one above (7) are the rows "the
	 * 8x cap" and "3.2's cap ends". At it, 6: line 1024 * 252 / 170 =
	 * 258048 / 170 = 1517; 6 > 6 fails: 1517 * 8 = 12136 (the division
	 * would give 1517 * 50 / 6 = 12641: 50 is no multiple of 8). v11's,
	 * 6 > 12 fails: 12136. freerun: 1517.
	 */
	{ "3.2's cap, at x_intercept / 8", 900, 100, 6, 100, { 12136, 12136, 1517 } },
	/*
	 * v11's, 100 / 8 = 12. One below, 11: line 1024 * 247 / 170 = 252928
	 * / 170 = 1487; 11 > 12 fails: 1487 * 8 = 11896. At it, 12: 251904 /
	 * 170 = 1481; 12 > 12 fails: 11848 (the division: 1481 * 100 / 12 =
	 * 12341). One above, 13: 250880 / 170 = 1475; 1475 * 100 / 13 = 147500
	 * / 13 = 11346. 3.2 (11, 12, 13 > 6, < 50): 1487 * 50 / 11 = 74350 / 11
	 * = 6759; 1481 * 50 / 12 = 74050 / 12 = 6170; 1475 * 50 / 13 = 73750 /
	 * 13 = 5673. freerun: the line.
	 */
	{ "v11's cap, one below x_intercept / 8", 900, 100, 11, 100, { 6759, 11896, 1487 } },
	{ "v11's cap, at x_intercept / 8", 900, 100, 12, 100, { 6170, 11848, 1481 } },
	{ "v11's cap, one above x_intercept / 8", 900, 100, 13, 100, { 5673, 11346, 1475 } },
	/*
	 * v11's x_intercept = min(write_bw, freerun), freerun 800, the JBOD
	 * bdi at the setpoint (x = 6547, bdi_setpoint 89) with 150 dirty
	 * pages; span = (1000 - 100 + 8 * write_bw) * 6547 >> 16.
	 * write_bw 799: span = 7292 * 6547 >> 16 = 47740724 >> 16 = 728;
	 * x_intercept = 817; 150 < 817 - 182: 1024 * 667 / 729 = 683008 / 729
	 * = 936. v11: min(799, 800) = 799; 150 < 799, 150 > 99: 936 * 799 / 150
	 * = 747864 / 150 = 4985.
	 * At it, 800: span = 7300 * 6547 >> 16 = 47793100 >> 16 = 729;
	 * x_intercept = 818; 150 < 636: 1024 * 668 / 730 = 684032 / 730 = 937.
	 * v11: 800: 937 * 800 / 150 = 749600 / 150 = 4997.
	 * One above, 801: span = 7308 * 6547 >> 16 = 47845476 >> 16 = 730;
	 * x_intercept = 819; 150 < 637: 1024 * 669 / 731 = 685056 / 731 = 937.
	 * v11: min(801, 800) = 800: 4997 (801 would give 750537 / 150 = 5003).
	 * 3.2 (150 >= 50) and freerun: the line.
	 */
	{ "v11's reserve from write_bw, one below freerun", 900, 100, 150, 799,
	  { 936, 4985, 936 } },
	{ "v11's reserve from write_bw, at freerun", 900, 100, 150, 800, { 937, 4997, 937 } },
	{ "v11's reserve from freerun, write_bw one above", 900, 100, 150, 801,
	  { 937, 4997, 937 } },
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

/*
 * update_dirty_limit (lines 697-722) from the global_dirty_limit given:
 * each comparison at, just below and just above its boundary.
 */
static const struct {
	const char *what;
	unsigned long limit, thresh, dirty;
	unsigned long want;
} dirty_limit_steps[] = {
	/*
	 * limit < thresh (line 704), thresh 1000, dirty 0. One below, 999 <
	 * 1000: up to 1000 in one step. At it, 1000: not below; thresh =
	 * max(1000, 0) = 1000, 1000 > 1000 fails: kept, 1000. One above, 1001:
	 * 1001 > 1000: 1001 - (1 >> 5) = 1001 - 0 = 1001.
	 */
	{ "limit one below thresh: up", 999, 1000, 0, 1000 },
	{ "limit at thresh: kept", 1000, 1000, 0, 1000 },
	{ "limit one above thresh: less 1/32 of 1", 1001, 1000, 0, 1001 },
	/*
	 * thresh = max(thresh, dirty) (line 714), limit 2024, thresh 1000.
	 * dirty 999 and 1000: the target is 1000, 2024 - (1024 >> 5) = 2024 -
	 * 32 = 1992. dirty 1001: the target is 1001, 2024 - (1023 >> 5) = 2024
	 * - 31 = 1993.
	 */
	{ "dirty one below thresh", 2024, 1000, 999, 1992 },
	{ "dirty at thresh", 2024, 1000, 1000, 1992 },
	{ "dirty one above thresh: the target", 2024, 1000, 1001, 1993 },
	/*
	 * limit > thresh (line 715), the target max(500, dirty) = dirty, limit
	 * 1000. One below, dirty 1001: 1000 > 1001 fails: kept (taking the
	 * step, 1000 - 1001 would wrap). At it, dirty 1000: kept. One
	 * above, dirty 999: 1000 - (1 >> 5) = 1000. The step first moves the
	 * limit 32 above the target: dirty 969: 1000 - (31 >> 5) = 1000; dirty
	 * 968: 1000 - (32 >> 5) = 999.
	 */
	{ "limit one below the dirty pages: kept", 1000, 500, 1001, 1000 },
	{ "limit at the dirty pages: kept", 1000, 500, 1000, 1000 },
	{ "limit one above the dirty pages", 1000, 500, 999, 1000 },
	{ "limit 31 above the dirty pages", 1000, 500, 969, 1000 },
	{ "limit 32 above the dirty pages: one less", 1000, 500, 968, 999 },
};

static void test_limit_boundaries(void)
{
	/*
	 * hard_dirty_limit, max(thresh, global_dirty_limit) (line 363),
	 * thresh 1000: global_dirty_limit 999 and 1000 give 1000, 1001 gives
	 * 1001.
	 */
	global_dirty_limit = 999;
	CHECK_EQ_LL(hard_dirty_limit(1000), 1000);
	global_dirty_limit = 1000;
	CHECK_EQ_LL(hard_dirty_limit(1000), 1000);
	global_dirty_limit = 1001;
	CHECK_EQ_LL(hard_dirty_limit(1000), 1001);

	for (size_t i = 0; i < ARRAY_SIZE(dirty_limit_steps); i++) {
		global_dirty_limit = dirty_limit_steps[i].limit;
		update_dirty_limit(dirty_limit_steps[i].thresh, dirty_limit_steps[i].dirty);
		CHECK_MSG(global_dirty_limit == dirty_limit_steps[i].want,
			  "update_dirty_limit, %s: global_dirty_limit %lu (want %lu)",
			  dirty_limit_steps[i].what, global_dirty_limit, dirty_limit_steps[i].want);
	}
	global_dirty_limit = 0;

	/*
	 * dirty_poll_interval, thresh > dirty (line 959), thresh 1000. One
	 * below the boundary, dirty 999: 1 << (ilog2(1) >> 1) = 1 << 0 = 1; at
	 * it (1000) and one above (1001): 1 (the rows above). The shift first
	 * gives more at a margin of 4: dirty 997: 1 << (ilog2(3) >> 1) = 1 <<
	 * (1 >> 1) = 1; dirty 996: 1 << (ilog2(4) >> 1) = 1 << 1 = 2.
	 */
	CHECK_EQ_LL(dirty_poll_interval(999, 1000), 1);
	CHECK_EQ_LL(dirty_poll_interval(1001, 1000), 1);
	CHECK_EQ_LL(dirty_poll_interval(997, 1000), 1);
	CHECK_EQ_LL(dirty_poll_interval(996, 1000), 2);
}

/* One global_update_bandwidth(thresh, 0, now) call and the limit after it. */
static void check_global_update(unsigned long thresh, unsigned long now, unsigned long want)
{
	global_update_bandwidth(thresh, 0, now);
	CHECK_MSG(global_dirty_limit == want,
		  "global_update_bandwidth(%lu, 0, %lu): global_dirty_limit %lu (want %lu)", thresh,
		  now, global_dirty_limit, want);
}

/*
 * global_update_bandwidth (lines 724-742): global_dirty_limit follows
 * thresh only once BANDWIDTH_INTERVAL = max(1000 / 5, 1) = 200 jiffies
 * have passed since update_time, time_before(now, update_time + 200)
 * deciding both checks (the lockless one, and time_after_eq under the
 * lock).
 */
static void test_global_update_bandwidth(void)
{
	/*
	 * From update_time 0 (and global_dirty_limit 0): one below, now =
	 * 199: time_before(199, 200): nothing; at it, now = 200: not before,
	 * time_after_eq: update_dirty_limit(1000, 0) raises the limit to 1000
	 * (0 < 1000), update_time = 200.
	 */
	writeback_3_2_reset();
	check_global_update(1000, 199, 0);
	check_global_update(1000, 200, 1000);
	/* From update_time 200: 399 is before 400, nothing; 400 raises it to 2000. */
	check_global_update(2000, 399, 1000);
	check_global_update(2000, 400, 2000);
	/* One above, from update_time 0: now = 201 updates (0 < 1000: 1000). */
	writeback_3_2_reset();
	check_global_update(1000, 201, 1000);
	writeback_3_2_reset();
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
 * bdi_max_pause's comparisons (lines 965-999) at, just below and just
 * above their boundaries, with write_bw 1024 pages/s: hi = ilog2(1024) =
 * 10, and the pool bound bdi_dirty * 1000 / (8 * 1024 + 1) = bdi_dirty *
 * 1000 / 8193.
 */
static const struct {
	const char *what;
	unsigned long dirty_ratelimit, bdi_dirty;
	unsigned long want;
} max_pause_steps[] = {
	/*
	 * hi > lo (line 982), a large pool (100000000 / 8193 = 12205). One
	 * above, ratelimit 512 (lo 9): 20 + 1 * 20000 / 1024 = 20 + 19 = 39. At
	 * it, 1024 (lo 10): 20 (the sum would add 0 * 20000 / 1024 = 0). One
	 * below, 2048 (lo 11): 20 (the sum would wrap: (10 - 11) * 20000 is
	 * 2^64 - 20000, / 1024 = 2^54 - 20).
	 */
	{ "hi one above lo", 512, 100000, 39 },
	{ "hi at lo", 1024, 100000, 20 },
	{ "hi one below lo", 2048, 100000, 20 },
	/*
	 * min(t, pool) (line 992) with ratelimit 32 (lo 5): t = 20 + 5 * 20000
	 * / 1024 = 20 + 97 = 117. The pool: 951000 / 8193 = 116 (8193 * 116 =
	 * 950388), 959000 / 8193 = 117 (958581), 967000 / 8193 = 118 (966774):
	 * 116, 117, 117.
	 */
	{ "the pool one below t", 32, 951, 116 },
	{ "the pool at t", 32, 959, 117 },
	{ "the pool one above t", 32, 967, 117 },
	/*
	 * clamp_val(t, 4, MAX_PAUSE) (line 998), ratelimit 1 (lo 0): t = 20 +
	 * 10 * 20000 / 1024 = 20 + 195 = 215, the pool deciding. The low
	 * bound: 32000 / 8193 = 3 (8193 * 4 = 32772): 4; 33000 / 8193 = 4: 4;
	 * 41000 / 8193 = 5 (8193 * 5 = 40965): 5. The high bound, MAX_PAUSE =
	 * max(1000 / 5, 1) = 200: 1638000 / 8193 = 199 (8193 * 200 = 1638600):
	 * 199; 1639000 / 8193 = 200: 200; 1647000 / 8193 = 201 (8193 * 201 =
	 * 1646793): 200.
	 */
	{ "one below the low bound", 1, 32, 4 },
	{ "at the low bound", 1, 33, 4 },
	{ "one above the low bound", 1, 41, 5 },
	{ "one below MAX_PAUSE", 1, 1638, 199 },
	{ "at MAX_PAUSE", 1, 1639, 200 },
	{ "one above MAX_PAUSE", 1, 1647, 200 },
};

static void test_max_pause_boundaries(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(max_pause_steps); i++) {
		struct backing_dev_info bdi = {
			.avg_write_bandwidth = 1024,
			.dirty_ratelimit = max_pause_steps[i].dirty_ratelimit,
		};
		unsigned long got = bdi_max_pause(&bdi, max_pause_steps[i].bdi_dirty);

		CHECK_MSG(got == max_pause_steps[i].want, "bdi_max_pause, %s: %lu (want %lu)",
			  max_pause_steps[i].what, got, max_pause_steps[i].want);
	}
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

	/*
	 * Every comparison at, just below and just above its boundary.
	 * elapsed > period (line 667), 10000 pages, old = avg = 25600. One
	 * below, 4095: (10000000 + 25600 * 1) >> 12 = 10025600 >> 12 = 2447;
	 * avg = old: kept. At it, 4096: not longer: (10000000 + 25600 * 0) >>
	 * 12 = 2441, avg kept (the long path would give 10000000 / 4096 = 2441
	 * for both). One above, 4097: 10000000 / 4097 = 2440, both.
	 */
	{ "one jiffy short of the period", 25600, 25600, 0, 4095, 10000, 2447, 25600 },
	{ "exactly the period", 25600, 25600, 0, 4096, 10000, 2441, 25600 },
	{ "one jiffy past the period", 25600, 25600, 0, 4097, 10000, 2440, 2440 },
	/*
	 * From here elapsed 200 and old 25600: bw = (written * 1000 + 25600 *
	 * 3896) >> 12 = (written * 1000 + 99737600) >> 12.
	 * old >= bw (line 678), avg 26000 above old. bw one above old, 5125
	 * pages: 104862600 >> 12 = 25601: avg kept, 26000. At old, 5120:
	 * 104857600 >> 12 = 25600: avg -= (26000 - 25600) >> 3 = 50: 25950. One
	 * below, 5119: 104856600 >> 12 = 25599: 25950.
	 */
	{ "new bw one above old, avg above", 25600, 26000, 0, 200, 5125, 25601, 26000 },
	{ "new bw at old, avg above", 25600, 26000, 0, 200, 5120, 25600, 25950 },
	{ "new bw one below old, avg above", 25600, 26000, 0, 200, 5119, 25599, 25950 },
	/*
	 * old <= bw (line 681), avg 25000 below old: 5119 pages (25599): avg
	 * kept, 25000; 5120 (25600): avg += (25600 - 25000) >> 3 = 75: 25075;
	 * 5125 (25601): 25075.
	 */
	{ "new bw one below old, avg below", 25600, 25000, 0, 200, 5119, 25599, 25000 },
	{ "new bw at old, avg below", 25600, 25000, 0, 200, 5120, 25600, 25075 },
	{ "new bw one above old, avg below", 25600, 25000, 0, 200, 5125, 25601, 25075 },
	/*
	 * avg > old (line 678) with the new bw below old: 2000 pages,
	 * 101737600 >> 12 = 24838. One below, avg 25599: not above (and
	 * 25600 <= 24838 fails for line 681): kept (the step would wrap: (25599
	 * - 25600) >> 3 is 2^61 - 1). At it, 25600: kept. One above, 25601:
	 * 25601 - (1 >> 3) = 25601. The step first moves avg at 8 above:
	 * 25607 - (7 >> 3) = 25607; 25608 - (8 >> 3) = 25607.
	 */
	{ "avg one below old, new bw below", 25600, 25599, 10000, 200, 12000, 24838, 25599 },
	{ "avg at old, new bw below", 25600, 25600, 10000, 200, 12000, 24838, 25600 },
	{ "avg one above old, new bw below", 25600, 25601, 10000, 200, 12000, 24838, 25601 },
	{ "avg 7 above old, new bw below", 25600, 25607, 10000, 200, 12000, 24838, 25607 },
	{ "avg 8 above old, new bw below", 25600, 25608, 10000, 200, 12000, 24838, 25607 },
	/*
	 * avg < old (line 681) with the new bw above old: 8000 pages, 26303.
	 * One above, avg 25601: not below (and 25600 >= 26303 fails for line
	 * 678): kept (the step would wrap). At it, 25600: kept. One below,
	 * 25599: 25599 + (1 >> 3) = 25599. At 8 below: 25592 + (8 >> 3) = 25593;
	 * 25593 + (7 >> 3) = 25593.
	 */
	{ "avg one above old, new bw above", 25600, 25601, 0, 200, 8000, 26303, 25601 },
	{ "avg at old, new bw above", 25600, 25600, 0, 200, 8000, 26303, 25600 },
	{ "avg one below old, new bw above", 25600, 25599, 0, 200, 8000, 26303, 25599 },
	{ "avg 7 below old, new bw above", 25600, 25593, 0, 200, 8000, 26303, 25593 },
	{ "avg 8 below old, new bw above", 25600, 25592, 0, 200, 8000, 26303, 25593 },
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
 * bdi_update_dirty_ratelimit's comparisons (lines 855-883) at, just below
 * and just above their boundaries, write_bw 100, thresh 1000 and bg_thresh
 * 600 (setpoint 900). No reserve area is reached in any variant, so the
 * three give the same.
 * Two positions: pos_ratio 256 (the JBOD bdi, bdi_thresh 100, at the 1/4
 * floor with bdi_dirty 250), for dirty 899, 900 and 901 alike: the global
 * line is 1024 for each, x = (1 << 10) / 101 = 10 (899) or -1024 / 101 =
 * -10 (901), whose cube >> 20 is 0; 3.2's floor (1000 - 899) / 8 = 12 is
 * below 100, and 250 >= 216 (the line's end, above), >= 50, >= 100.
 * And pos_ratio 1149 (dirty 899, one bdi: bdi_thresh 1000, bdi_dirty 800):
 * global 1024; x_intercept 1698, bdi_setpoint 899 (the at-freerun row);
 * 800 < 1499: 1024 * (1698 - 800) / (1698 - 899 + 1) = 919552 / 800 = 1149;
 * no reserve (800 >= 500, >= 100).
 */
static const struct ratelimit_step {
	const char *what;
	unsigned long dirty, bdi_thresh, bdi_dirty;
	unsigned long dirty_ratelimit, last_balanced, dirtied;
	unsigned long want_rate, want_balanced;
} ratelimit_steps[] = {
	/*
	 * dirty < setpoint (line 855), pos_ratio 256, dirty_ratelimit 1000,
	 * the last balanced rate 100; 200 pages in 200 jiffies: dirty_rate
	 * 1000, | 1 = 1001. task_ratelimit = 1000 * 256 >> 10 = 250, + 1 =
	 * 251; balanced = 251 * 100 / 1001 = 25.
	 * One below, 899: x = min(100, min(25, 251)) = 25; 1000 < 25 fails:
	 * step 0; 0 >> (1000 / 1 & 63) = 0; (0 + 7) / 8 = 0: 1000.
	 * At it, 900, and one above, 901: x = max(100, max(25, 251)) = 251;
	 * 1000 > 251: step 749; 749 >> (1000 / 1499 = 0) = 749; (749 + 7) / 8
	 * = 94; 1000 < 25 fails: 1000 - 94 = 906.
	 */
	{ "dirty one below the setpoint", 899, 100, 250, 1000, 100, 200, 1000, 25 },
	{ "dirty at the setpoint", 900, 100, 250, 1000, 100, 200, 906, 25 },
	{ "dirty one above the setpoint", 901, 100, 250, 1000, 100, 200, 906, 25 },
	/*
	 * dirty_ratelimit > x (line 863), at the setpoint with pos_ratio 256,
	 * dirty_ratelimit 2: task_ratelimit = 2 * 256 >> 10 = 0, + 1 = 1;
	 * balanced = 1 * 100 / 1001 = 0; x = max(last, max(0, 1)).
	 * The last balanced rate 1 (x = 1, one below dirty_ratelimit): step 1;
	 * 1 >> (2 / 3 = 0) = 1; (1 + 7) / 8 = 1; 2 < 0 fails: 2 - 1 = 1;
	 * max(1, 1UL) = 1: also max's boundary (line 883).
	 * At it, last 2 (x = 2): 2 > 2 fails: step 0: 2. One above, last 3: 2.
	 */
	{ "x one below the rate, falling", 900, 100, 250, 2, 1, 200, 1, 0 },
	{ "x at the rate, falling", 900, 100, 250, 2, 2, 200, 2, 0 },
	{ "x one above the rate, falling", 900, 100, 250, 2, 3, 200, 2, 0 },
	/*
	 * max(dirty_ratelimit, 1UL) (line 883) below its boundary: a rate of 0
	 * (3.2 never gets there: it starts at INIT_BW and a step down is at
	 * most dirty_ratelimit - 1; the function is given it here):
	 * task_ratelimit = 0 + 1 = 1; balanced 0; x = max(0, max(0, 1)) = 1; 0
	 * > 1 fails: step 0; 0 < 0 fails: 0 - 0 = 0; max(0, 1UL) = 1. At it is
	 * the row above (1); above it, every row whose rate ends over 1.
	 */
	{ "a rate of 0 raised to 1", 900, 100, 250, 0, 0, 200, 1, 0 },
	/*
	 * dirty_ratelimit < x (line 858), below the setpoint (899) with
	 * pos_ratio 1149, dirty_ratelimit 2: task_ratelimit = 2 * 1149 >> 10 =
	 * 2298 >> 10 = 2, + 1 = 3; 10 pages in 200 jiffies: dirty_rate 50, | 1
	 * = 51; balanced = 3 * 100 / 51 = 5; x = min(last, min(5, 3)).
	 * Last 3 (x = 3, one above the rate): step 1; 1 >> (2 / 3 = 0) = 1; (1
	 * + 7) / 8 = 1; 2 < 5: 3. At it, last 2: 2 < 2 fails: step 0: 2. One
	 * below, last 1: 2.
	 */
	{ "x one above the rate, rising", 899, 1000, 800, 2, 3, 10, 3, 5 },
	{ "x at the rate, rising", 899, 1000, 800, 2, 2, 10, 2, 5 },
	{ "x one below the rate, rising", 899, 1000, 800, 2, 1, 10, 2, 5 },
	/*
	 * dirty_ratelimit < balanced_dirty_ratelimit (line 878), pos_ratio
	 * 1149 below the setpoint, the last balanced rate 10.
	 * One below: dirty_ratelimit 2 (task_ratelimit 3, above), 19 pages:
	 * dirty_rate 19 * 1000 / 200 = 95, | 1 = 95; balanced = 300 / 95 = 3;
	 * x = min(10, min(3, 3)) = 3; step 1, as above; 2 < 3: 2 + 1 = 3.
	 * At it: dirty_ratelimit 3: task_ratelimit = 3 * 1149 >> 10 = 3447 >>
	 * 10 = 3, + 1 = 4; 21 pages: 105, | 1 = 105; balanced = 400 / 105 = 3;
	 * x = min(10, min(3, 4)) = 3; 3 < 3 fails: step 0; 3 < 3 fails: 3 - 0
	 * = 3 (at the boundary the step is 0 on either side of it).
	 * One above: the row "x one below the rate, falling" (2 over 0: 1).
	 */
	{ "rate one below balanced", 899, 1000, 800, 2, 10, 19, 3, 3 },
	{ "rate at balanced", 899, 1000, 800, 3, 10, 21, 3, 3 },
};

static void test_ratelimit_boundaries(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(ratelimit_steps); i++) {
		const struct ratelimit_step *r = &ratelimit_steps[i];

		for (int v = 0; v < NR_V; v++) {
			struct backing_dev_info bdi = {
				.avg_write_bandwidth = 100, .dirty_ratelimit = r->dirty_ratelimit,
				.balanced_dirty_ratelimit = r->last_balanced,
			};

			global_dirty_limit = 0;
			variants[v].ops->bdi_update_dirty_ratelimit(&bdi, 1000, 600, r->dirty,
								    r->bdi_thresh, r->bdi_dirty,
								    r->dirtied, 200);
			CHECK_MSG(bdi.dirty_ratelimit == r->want_rate &&
				  bdi.balanced_dirty_ratelimit == r->want_balanced,
				  "%s, %s: dirty_ratelimit %lu, balanced %lu (want %lu, %lu)",
				  variants[v].name, r->what, bdi.dirty_ratelimit,
				  bdi.balanced_dirty_ratelimit, r->want_rate, r->want_balanced);
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
		{ 1000, 900, 13, false, false, "one above 12" },
		{ 1000, 900, 11, true, false, "below, but dirty_exceeded" },
		/* min(1124, 100000 - 900) / 8 = 1124 / 8 = 140: 139 < 140. */
		{ 100000, 900, 139, false, true, "the bandwidth bound: 1124 / 8 = 140" },
		{ 100000, 900, 140, false, false, "at 140" },
		{ 100000, 900, 141, false, false, "one above 140" },
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

/*
 * global_dirty_limits, bdi_dirty_limit and writeback_set_ratelimit read
 * what the environment counts (the free pages and the file LRUs, the
 * writeout fraction, the CPUs), so they run inside a world
 * (kernel/linux-3.2/world/throttle.c), at its boot, where it calls the variant's
 * writeback_set_ratelimit: limits_at_boot stands in for it. The world: one
 * disk, one dd, 2 CPUs, 356 MiB less the 256 reserved, (356 - 256) * 256 =
 * 25600 pages, all free, the LRUs empty: determine_dirtyable_memory() =
 * 25600 + 0 + 1 = 25601 (lines 343-353). Its vm.dirty_bytes of 4 MiB (1024
 * pages) makes calc_period_shift 2 + ilog2(1023) = 11: a bdi with n
 * completions in period 0 has the writeout fraction n / (1 << 10) (the
 * world's completions count is 0). The sysctls are set per step and put
 * back as the world had them.
 */
static const struct {
	const char *what;
	int ratio, bg_ratio;
	unsigned long bytes, bg_bytes;
	unsigned long want_bg, want_dirty;
} dirty_limits_steps[] = {
	/* The ratios, 3.2's defaults: 20 * 25601 / 100 = 5120, 10 * 25601 / 100 = 2560. */
	{ "the default ratios", 20, 10, 0, 0, 2560, 5120 },
	/*
	 * background >= dirty (line 395) from the ratios. One below, 19%:
	 * 486419 / 100 = 4864, kept. At it, 20%: 5120 >= 5120: 5120 / 2 =
	 * 2560. One above, 21%: 537621 / 100 = 5376: 2560.
	 */
	{ "background ratio one below dirty's", 20, 19, 0, 0, 4864, 5120 },
	{ "background ratio at dirty's", 20, 20, 0, 0, 2560, 5120 },
	{ "background ratio one above dirty's", 20, 21, 0, 0, 2560, 5120 },
	/*
	 * The same from the bytes, both set (line 382: no memory read), dirty
	 * = DIV_ROUND_UP(409600, 4096) = 100. One below, 99 pages (405504
	 * bytes): kept. At it, 405505 bytes: (405505 + 4095) / 4096 = 100:
	 * 100 / 2 = 50. One above, 101 pages (413696): 50. DIV_ROUND_UP's
	 * own edges: 409599 bytes are (409599 + 4095) / 4096 = 100 pages,
	 * 409601 are 101 (over 405505's 100: kept).
	 */
	{ "background bytes one page below dirty's", 20, 10, 409600, 405504, 99, 100 },
	{ "background bytes at dirty's", 20, 10, 409600, 405505, 50, 100 },
	{ "background bytes one page above dirty's", 20, 10, 409600, 413696, 50, 100 },
	{ "dirty bytes a byte short of 100 pages", 20, 10, 409599, 405504, 99, 100 },
	{ "dirty bytes a byte over 100 pages", 20, 10, 409601, 405505, 100, 101 },
	/*
	 * if (vm_dirty_bytes) and if (dirty_background_bytes) (lines 385,
	 * 390) at their boundary, 1 byte, and !vm_dirty_bytes ||
	 * !dirty_background_bytes (line 382) with one of them set. 1 byte of
	 * dirty: (1 + 4095) / 4096 = 1 page; the background from the ratio
	 * (the memory read): 2560 >= 1: 1 / 2 = 0. 1 byte of background: 1
	 * page, dirty from the ratio: 5120. 100 pages of dirty alone: the
	 * background ratio's 2560 >= 100: 50.
	 */
	{ "one byte of dirty", 20, 10, 1, 0, 0, 1 },
	{ "one byte of background", 20, 10, 0, 1, 1, 5120 },
	{ "dirty bytes alone", 20, 10, 409600, 0, 50, 100 },
};

static const struct {
	const char *what;
	unsigned long bytes;
	long want;
} ratelimit_pages_steps[] = {
	/*
	 * ratelimit_pages < 16 (line 1372): dirty_thresh / (2 CPUs * 32), the
	 * background 1 page. One below, 1023 pages: 15, raised to 16. At it,
	 * 1024: 16. One above, 1088: 17 (1087: 16).
	 */
	{ "one below 16", 1023 * 4096UL, 16 },
	{ "at 16", 1024 * 4096UL, 16 },
	{ "a page short of 17", 1087 * 4096UL, 16 },
	{ "one above 16", 1088 * 4096UL, 17 },
	/* From the ratio: 5120 / 64 = 80. */
	{ "from the ratio", 0, 80 },
};

static int boot_calls;

static void limits_at_boot(void)
{
	int ratio = vm_dirty_ratio, bg_ratio = dirty_background_ratio;
	unsigned long bytes = vm_dirty_bytes, bg_bytes = dirty_background_bytes;
	struct backing_dev_info bdi = { .min_ratio = 0, .max_ratio = 50 };
	long numerator, denominator;

	boot_calls++;
	/* The world these steps were worked out for (its counts, not the code under test). */
	CHECK_MSG(global_page_state(NR_FREE_PAGES) == 25600 && global_reclaimable_pages() == 0 &&
		  throttle_nr_cpus() == 2,
		  "the boot world: %lu free, %lu reclaimable, %d CPUs (want 25600, 0, 2)",
		  global_page_state(NR_FREE_PAGES), global_reclaimable_pages(), throttle_nr_cpus());
	CHECK_EQ_LL(determine_dirtyable_memory(), 25601);

	for (size_t i = 0; i < ARRAY_SIZE(dirty_limits_steps); i++) {
		unsigned long bg = 0, dirty = 0;

		vm_dirty_ratio = dirty_limits_steps[i].ratio;
		dirty_background_ratio = dirty_limits_steps[i].bg_ratio;
		vm_dirty_bytes = dirty_limits_steps[i].bytes;
		dirty_background_bytes = dirty_limits_steps[i].bg_bytes;
		global_dirty_limits(&bg, &dirty);
		CHECK_MSG(bg == dirty_limits_steps[i].want_bg &&
			  dirty == dirty_limits_steps[i].want_dirty,
			  "global_dirty_limits, %s: background %lu, dirty %lu (want %lu, %lu)",
			  dirty_limits_steps[i].what, bg, dirty, dirty_limits_steps[i].want_bg,
			  dirty_limits_steps[i].want_dirty);
	}

	vm_dirty_ratio = 20;
	dirty_background_ratio = 10;
	dirty_background_bytes = 4096;
	for (size_t i = 0; i < ARRAY_SIZE(ratelimit_pages_steps); i++) {
		vm_dirty_bytes = ratelimit_pages_steps[i].bytes;
		writeback_set_ratelimit();
		CHECK_MSG(ratelimit_pages == ratelimit_pages_steps[i].want,
			  "writeback_set_ratelimit, %s: %ld (want %ld)",
			  ratelimit_pages_steps[i].what, ratelimit_pages,
			  ratelimit_pages_steps[i].want);
	}

	/*
	 * bdi_dirty_limit's cap, bdi_dirty > dirty * max_ratio / 100 (line
	 * 444): dirty 1024, max_ratio 50: 1024 * 50 / 100 = 512. bdi_dirty =
	 * 1024 * (100 - 0) / 100 = 1024, * n / 1024 = n, + 1024 * 0 / 100. One
	 * below, 511 completions: 511. At it, 512: 512 (capped or not). One
	 * above, 513: 513 > 512: 512.
	 */
	bdi.completions.events = 512;
	bdi_writeout_fraction(&bdi, &numerator, &denominator);
	CHECK_MSG(numerator == 512 && denominator == 1024,
		  "the boot world's writeout fraction: %ld / %ld (want 512 / 1024)", numerator,
		  denominator);
	for (int i = 0; i < 3; i++) {
		static const unsigned long completions[3] = { 511, 512, 513 };
		static const unsigned long want[3] = { 511, 512, 512 };
		unsigned long got;

		bdi.completions.events = (s64)completions[i];
		got = bdi_dirty_limit(&bdi, 1024);
		CHECK_MSG(got == want[i],
			  "bdi_dirty_limit, %lu / 1024 of 1024 at max_ratio 50: %lu (want %lu)",
			  completions[i], got, want[i]);
	}

	vm_dirty_ratio = ratio;
	dirty_background_ratio = bg_ratio;
	vm_dirty_bytes = bytes;
	dirty_background_bytes = bg_bytes;
	writeback_set_ratelimit();
}

static void test_limits_at_boot(void)
{
	static const struct throttle_scenario sc = {
		.name = "boundaries", .nr_disks = 1, .dd_per_disk = 1, .nr_cpus = 2,
		.mem_mib = 356, .dirty_mib = 4, .dirty_ratio = 20,
	};
	struct iol_variant_ops ops = iol_ops_3_2;
	struct throttle_params p;
	struct throttle_result res;
	char err[256] = "";

	throttle_params_default(&p);
	p.run_us = 0;
	p.reserved_mib = 256;
	p.sample_us = 0;
	ops.writeback_set_ratelimit = limits_at_boot;
	boot_calls = 0;
	CHECK_MSG(throttle_run(&sc, &ops, &p, &res, NULL, NULL, err, sizeof(err)) == 0,
		  "the boot world: %s", err);
	CHECK_EQ_LL(boot_calls, 1);
	/* 3.2's defaults again */
	writeback_3_2_reset();
	vm_dirty_ratio = 20;
	dirty_background_ratio = 10;
	vm_dirty_bytes = 0;
	dirty_background_bytes = 0;
}

int main(void)
{
	test_position_ratio();
	test_limits();
	test_limit_boundaries();
	test_global_update_bandwidth();
	test_max_pause();
	test_max_pause_boundaries();
	test_write_bandwidth();
	test_dirty_ratelimit();
	test_ratelimit_boundaries();
	test_own_freerun();
	test_limits_at_boot();
	return check_report("test_iol_control");
}
