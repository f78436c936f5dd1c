/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The IO-less dirty throttling variants (Linux 3.2's control and the two
 * alternatives of the seed-004 thread): one file each (counters/iol_*.c,
 * defining its struct iol_variant_ops under the symbol of its row), one row
 * each below, oldest first: the first is the baseline of the comparison
 * tables (vanilla-3.1 vs each IO-less variant is the thread's second
 * table; scripts/compare --baseline reserve-v11 gives its first). The
 * same list declares each symbol, so a variant's file, which includes this
 * header, is checked against it.
 *
 * The throttle/<scenario>/<variant> cases (counters/throttle_cases.c) run
 * every row and counters/tests/test_throttle.c walks them;
 * test_iol_control.c checks the three IO-less ones by name against values
 * worked out by hand (a new row needs its own there). The per-call bdp/
 * rows of these variants are not here yet (issue 11).
 */
#ifndef MMSCALE_IOL_VARIANTS_H
#define MMSCALE_IOL_VARIANTS_H

#include "mmscale/mm/writeback-3.2.h"

/*	  symbol,		name,		summary,
 *	  source */
#define IOL_VARIANTS(X)							\
	X(iol_ops_vanilla_3_1, "vanilla-3.1",				\
	  "3.1: the dirtier writes back itself, then sleeps 1 to 100 ms", \
	  "Linux 3.1.3 mm/page-writeback.c (the last before IO-less)")	\
	X(iol_ops_reserve_v11, "reserve-v11",				\
	  "bdi reserve area below min(write_bw, freerun), up to 8x",	\
	  "v11 10/18, 4 Sep 2011, on 3.2's control lines")		\
	X(iol_ops_freerun, "freerun",					\
	  "no reserve area; no throttling below the bdi's own freerun point", \
	  "v11 10/18 with Wu's bdi-freerun patch, 18 Sep 2011, on 3.2's control lines") \
	X(iol_ops_3_2, "3.2",						\
	  "as merged: bdi reserve area below bdi_thresh / 2, up to 8x",	\
	  "Linux 3.2 mm/page-writeback.c (v12 10/11, 3 Oct 2011)")

#define X(symbol, ...) extern const struct iol_variant_ops symbol;
IOL_VARIANTS(X)
#undef X

#endif /* MMSCALE_IOL_VARIANTS_H */
