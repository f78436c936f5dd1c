/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Linux 6.18's balance_dirty_pages and variants of it (bdp/ and
 * bdp_throttled/, on counters/wb_machine-6.18.c's state): one row each
 * below, 6.18's first, whose symbol is kernel/linux-6.18/mm/page-writeback.c's
 * balance_dirty_pages_loop (named _6_18 by linux-6.18/mm/writeback.h's define). A
 * variant is a file counters/bdp-6.18-NAME.c, a copy of
 * counters/bdp-6.18-store-if-changed.c: 6.18's loop (the body up to its
 * sleep) made static under the kernel's name (#undef), changed where
 * marked, exported under the symbol of its row (docs/adding-a-variant.md);
 * the rest of the call, the limits and the pauses, is 6.18's. Every row
 * runs in both cases: a variant that changes only the throttled pass runs
 * 6.18's code in bdp/, where the call leaves before the change.
 *
 * A row: the loop's symbol, its name, a one-line summary, what it mirrors,
 * and its claims, by name (struct bdp_claim, counters/bdp_claim.h):
 * .call's global reads and wb_stat reads of one unthrottled call, and
 * .throttled's of one throttled pass (where the wb's threshold, IOL_BDP_BDI_THRESH,
 * is at least twice wb_stat_error; below, the two reads are two sums over
 * every online CPU), and the throttled pass's stores to the wb's and bdi's
 * shared fields (WRITE_ONCE_BDI; an unthrottled call makes none).
 * tests/test_claims.c checks every row.
 *
 * 6.18's claims, from the source: unthrottled, global_node_page_state
 * (NR_FILE_DIRTY) at the loop's top (1835), global_dirtyable_memory's
 * NR_FREE_PAGES, NR_INACTIVE_FILE and NR_ACTIVE_FILE (329-338; no anon
 * LRUs, swap or not) and the domain's NR_FILE_DIRTY and NR_WRITEBACK
 * (862-864): 6, and no wb_stat; throttled, the same 6 and wb_dirty_limits'
 * two wb_stat reads (1704-1705) or sums (1701-1702), and two stores:
 * wb->dirty_exceeded (1908) and bdi->last_bdp_sleep (1978).
 *
 * This list includes nothing, so that the writeback cases can walk it
 * beside their own types; it declares each symbol.
 */
#ifndef MMSCALE_BDP_VARIANTS_6_18_H
#define MMSCALE_BDP_VARIANTS_6_18_H

/*	  symbol,		name,		summary,
 *	  source,
 *	  .call = { one unthrottled call's claim },
 *	  .throttled = { one throttled pass's, with .stat_thresh_of, the threshold
 *			 tested against 2 * wb_stat_error, of the bench's } */
#define BDP_6_18_VARIANTS(X)						\
	X(balance_dirty_pages_loop_6_18, "6.18",			\
	  "wb-based: dirty_throttle_control, the domain's limits, pos_ratio with the wb reserve area", \
	  "Linux 6.18 mm/page-writeback.c (blob 757bc4d3), no CGROUP_WRITEBACK", \
	  .call = { .global_reads = 6, .bdi_reads = 0 },		\
	  .throttled = { .global_reads = 6, .bdi_reads = 2, .bdi_stores = 2,	\
			 .stat_thresh_of = iol_bdp_bdi_thresh_of })		\
	X(bdp_6_18_store_if_changed, "6.18-store-if-changed",		\
	  "6.18 storing wb->dirty_exceeded only when it changes (as before 6.11) and bdi->last_bdp_sleep likewise", \
	  "Linux 6.0-6.10's dirty_exceeded store (e92eebbb0921); the stamp's is an experiment", \
	  .call = { .global_reads = 6, .bdi_reads = 0 },		\
	  .throttled = { .global_reads = 6, .bdi_reads = 2, .bdi_stores = 0,	\
			 .stat_thresh_of = iol_bdp_bdi_thresh_of })		\
	/* new rows go above this line */

struct bdi_writeback;
#define X(symbol, ...) long symbol(struct bdi_writeback *wb);
BDP_6_18_VARIANTS(X)
#undef X

#endif /* MMSCALE_BDP_VARIANTS_6_18_H */
