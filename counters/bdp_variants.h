/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The 2.6.31 balance_dirty_pages variants (bdp/ and dirty/): one file each
 * (counters/bdp_*.c, defining its balance_dirty_pages under the symbol of
 * its row), one row each below, oldest first: the first row is the
 * baseline of every comparison table. bdp/ also runs 3.1's and the IO-less
 * kernels' call, each row of counters/iol_variant_list.h after these, then
 * 6.18's and its variants', each row of counters/bdp_variants-6.18.h.
 *
 * A row: the symbol its file defines, its name, a one-line summary, the
 * kernel version or posting it mirrors, and its claim for one unthrottled
 * call (nothing near a limit), by name (struct bdp_claim, counters/
 * bdp_claim.h): .global_reads, the global_page_state calls; .bdi_reads,
 * the bdi_stat reads; and, where the call first tests a bdi threshold
 * against 2 * bdi_stat_error, .bdi_thresh, the function that computes that
 * threshold from the bdi as the variant's limits do (bdi_thresh_v2 for the
 * v2 patch's limits; left out where the call makes no such test): where
 * twice the error is larger (many CPUs, little memory: 1024 CPUs and the
 * default 3G), the call sums both bdi items over every online CPU instead
 * of reading them. Every bdp/ run checks its claim, and tests/test_claims.c
 * checks every row.
 *
 * The same list declares each symbol (below), so a variant's file, which
 * includes this header, is checked against the type its row uses. The
 * list is the emulated kernel's (it includes no harness header); the rows
 * the cases and tests walk are built from it in cases/writeback.c
 * (cases/bdp_rows.h).
 */
#ifndef MMSCALE_BDP_VARIANTS_H
#define MMSCALE_BDP_VARIANTS_H

#include "mmscale/linux-2.6/mm/writeback.h"

/*	  symbol,		name,		summary,
 *	  source,
 *	  .call = { its claim for one unthrottled call } */
#define BDP_VARIANTS(X)							\
	X(bdp_2_6_31_rc8, "2.6.31-rc8",					\
	  "baseline: clip_bdi_dirty_limit, globals re-read after the loop", \
	  "Linux 2.6.31-rc8 mm/page-writeback.c",			\
	  .call = { .global_reads = 14, .bdi_reads = 4 })		\
	X(bdp_reorder_v1, "reorder-v1",					\
	  "dirty_exceeded cleared only on the first exit (reconstructed)", \
	  "seed 001, RFC 2009-07-24",					\
	  .call = { .global_reads = 14, .bdi_reads = 4 })		\
	X(bdp_cached_locals_v2, "cached-locals-v2",			\
	  "no clip_bdi_dirty_limit, one limit test, locals reused",	\
	  "seed 000, RFC v2 2009-09-04, never merged as posted",	\
	  .call = { .global_reads = 9, .bdi_reads = 2, .bdi_thresh = bdi_thresh_v2 }) \
	X(bdp_cached_locals_v2_wu, "cached-locals-v2+wu",		\
	  "v2 with Wu Fengguang's pages_written simplification",	\
	  "seed 000, Wu Fengguang 2009-09-06; the loop merged in e50e37201ae2 (Linux 2.6.36)", \
	  .call = { .global_reads = 9, .bdi_reads = 2, .bdi_thresh = bdi_thresh_v2 }) \
	/* new rows go above this line */

#define X(symbol, ...) void symbol(struct address_space *mapping);
BDP_VARIANTS(X)
#undef X

#endif /* MMSCALE_BDP_VARIANTS_H */
