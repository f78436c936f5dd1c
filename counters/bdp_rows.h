/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The balance_dirty_pages variants' rows, as the cases and the tests see
 * them: each row of BDP_VARIANTS (counters/bdp_variants.h) with its harness
 * variant. Built in counters/writeback_cases.c.
 */
#ifndef MMSCALE_BDP_ROWS_H
#define MMSCALE_BDP_ROWS_H

#include "mmscale/case.h"

#include "bdp_variants.h"

struct iol_machine_ops;
struct bdi_writeback;

struct bdp_variant {
	struct mmscale_variant v;
	/* 2.6.31's (this list), or 3.1's and the IO-less kernels' (counters/iol_bdp.h) */
	balance_dirty_pages_fn balance_dirty_pages;
	const struct iol_machine_ops *iol;
	/*
	 * 6.18's call on its own zones with this loop (a
	 * balance_dirty_pages_loop_fn, counters/bdp_variants-6.18.h)
	 */
	long (*loop_6_18)(struct bdi_writeback *wb);
	/* The claim for one unthrottled call (counters/bdp_variants.h). */
	unsigned int global_reads;
	unsigned int bdi_reads;
	unsigned long (*claim_bdi_thresh)(struct backing_dev_info *bdi);
};

/* Every row of this list, in order (counters/writeback_cases.c): dirty/'s, and the tests'. */
extern const struct bdp_variant bdp_variants[];
extern const size_t bdp_nr_variants;

#endif /* MMSCALE_BDP_ROWS_H */
