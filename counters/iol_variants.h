/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The IO-less dirty throttling variants (Linux 3.2's control and the two
 * alternatives of the seed-004 thread): one file each (counters/iol_*.c,
 * defining its struct iol_variant_ops under the symbol of its row), one row
 * each below. The same list declares each symbol, so a variant's file, which
 * includes this header, is checked against it.
 *
 * Issue 11 will add vanilla-3.1 and the cases that run them (bdp/<variant>,
 * throttle/<scenario>/<variant>); today counters/tests/test_iol_control.c
 * walks these rows.
 */
#ifndef MMSCALE_IOL_VARIANTS_H
#define MMSCALE_IOL_VARIANTS_H

#include "mmscale/mm/writeback-3.2.h"

/*	  symbol,		name,		source */
#define IOL_VARIANTS(X)							\
	X(iol_ops_3_2, "3.2",						\
	  "Linux 3.2 mm/page-writeback.c (v12 10/11: x_intercept = bdi_thresh / 2)") \
	X(iol_ops_reserve_v11, "reserve-v11",				\
	  "v11 10/18, 4 Sep 2011 (x_intercept = min(write_bw, freerun))") \
	X(iol_ops_freerun, "freerun",					\
	  "v11 10/18 with Wu's bdi-freerun patch, 18 Sep 2011 (no reserve area)")

#define X(symbol, ...) extern const struct iol_variant_ops symbol;
IOL_VARIANTS(X)
#undef X

#endif /* MMSCALE_IOL_VARIANTS_H */
