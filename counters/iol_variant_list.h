/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The IO-less dirty throttling variants (Linux 3.2's control and the two
 * alternatives of the seed-004 thread) and 3.1 before it: one file each
 * (counters/iol_*.c, defining its struct iol_variant_ops as
 * IOL_OPS(symbol of its row): the symbol in the world's build,
 * symbol_on_machine in the machine's; counters/iol_variants.h), one row
 * each below, oldest first:
 * the first is the baseline of the comparison tables (vanilla-3.1 vs each
 * IO-less variant is the thread's second table; scripts/compare --baseline
 * reserve-v11 gives its first).
 *
 * Each row runs in three families without any other edit (only
 * test_iol_control and the RESULTS.md scripts name rows):
 * - throttle/<scenario>/<variant>: the virtual-time world
 *   (cases/throttle.c; counters/tests/test_throttle.c walks the
 *   rows);
 * - bdp/<variant>: one unthrottled balance_dirty_pages call on pinned
 *   threads, beside the 2.6.31 variants (cases/writeback.c);
 * - bdp_throttled/<variant>: one throttled pass, up to its sleep.
 * The last two check the row's claim on every run and in tests/test_claims.c:
 * global_page_state calls (on a machine without swap: with swap,
 * global_reclaimable_pages makes two more, which the cases add) and
 * bdi_stat reads per call, and for the throttled
 * pass the threshold that bdi_stat_error decides against (below twice the
 * error, the pass sums both bdi items over every online CPU instead of
 * reading them). The bench's state is counters/iol_bdp.h's.
 *
 * test_iol_control.c checks the three IO-less ones by name against values
 * worked out by hand (a new row needs its own there), and test_bdp.c that
 * every row pauses (1 to MAX_PAUSE jiffies) in the throttled state: a
 * variant whose pass leaves before its sleep there would time another
 * path than bdp_throttled/ says.
 *
 * This list includes nothing, so that the writeback cases
 * (cases/writeback.c) can walk it beside their own types.
 */
#ifndef MMSCALE_IOL_VARIANT_LIST_H
#define MMSCALE_IOL_VARIANT_LIST_H

/*	  symbol,		name,		summary,
 *	  source,
 *	  .call = { the unthrottled call's claim: .global_reads (global_page_state
 *		    calls, without swap), .bdi_reads (bdi_stat reads) },
 *	  .throttled = { the throttled pass's: the same, and .stat_thresh_of, the
 *			 threshold tested against 2 * bdi_stat_error, as a function
 *			 of the bench's dirty threshold } (struct bdp_claim,
 *	  counters/bdp_claim.h) */
#define IOL_VARIANTS(X)							\
	X(iol_ops_vanilla_3_1, "vanilla-3.1",				\
	  "3.1: the dirtier writes back itself, then sleeps 1 to 100 ms", \
	  "Linux 3.1.3 mm/page-writeback.c (the last before IO-less)",	\
	  .call = { .global_reads = 6, .bdi_reads = 0 },		\
	  .throttled = { .global_reads = 6, .bdi_reads = 2,		\
			 .stat_thresh_of = iol_bdp_task_bdi_thresh_of })	\
	X(iol_ops_reserve_v11, "reserve-v11",				\
	  "bdi reserve area below min(write_bw, freerun), up to 8x",	\
	  "v11 10/18 with 07/18's think time and 11/18's underrun break, 4 Sep 2011, on 3.2's control lines", \
	  .call = { .global_reads = 6, .bdi_reads = 0 },		\
	  .throttled = { .global_reads = 6, .bdi_reads = 2,		\
			 .stat_thresh_of = iol_bdp_bdi_thresh_of })		\
	X(iol_ops_freerun, "freerun",					\
	  "no reserve area; no throttling below the bdi's own freerun point", \
	  "v11 10/18, 07/18, 11/18 with Wu's bdi-freerun patch, 18 Sep 2011, on 3.2's control lines", \
	  .call = { .global_reads = 6, .bdi_reads = 0 },		\
	  .throttled = { .global_reads = 6, .bdi_reads = 2,		\
			 .stat_thresh_of = iol_bdp_bdi_thresh_of })		\
	X(iol_ops_3_2, "3.2",						\
	  "as merged: bdi reserve area below bdi_thresh / 2, up to 8x",	\
	  "Linux 3.2 mm/page-writeback.c (v12 10/11, 3 Oct 2011)",	\
	  .call = { .global_reads = 6, .bdi_reads = 0 },		\
	  .throttled = { .global_reads = 6, .bdi_reads = 2,		\
			 .stat_thresh_of = iol_bdp_bdi_thresh_of })		\
	/* new rows go above this line */

/*
 * The bench's thresholds (counters/iol_bdp.h's state): vm.dirty_bytes of
 * 100 MiB (the seed's thresh=100M), in pages; the bdi holds the whole
 * writeout share, so its bdi_thresh is that; 3.1 lowers it for a task by
 * 1/8 of its share of the dirtying (task_dirty_limit), the whole here.
 */
#define IOL_BDP_DIRTY_BYTES	(100UL << 20)
#define IOL_BDP_BDI_THRESH	(IOL_BDP_DIRTY_BYTES / 4096)
#define IOL_BDP_TASK_BDI_THRESH	(IOL_BDP_BDI_THRESH - IOL_BDP_BDI_THRESH / 8)
/*
 * The same of any dirty threshold T the bench computes (--set's dirty
 * sysctls move it): the rows' last column names which of the two a row's
 * throttled pass tests against 2 * bdi_stat_error.
 */
static inline unsigned long iol_bdp_bdi_thresh_of(unsigned long dirty_thresh)
{
	return dirty_thresh;
}

static inline unsigned long iol_bdp_task_bdi_thresh_of(unsigned long dirty_thresh)
{
	return dirty_thresh - dirty_thresh / 8;
}

#endif /* MMSCALE_IOL_VARIANT_LIST_H */
