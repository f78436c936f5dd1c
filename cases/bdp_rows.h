/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The balance_dirty_pages variants' rows, as the cases and the tests see
 * them: one shape for every kernel, built in cases/writeback.c
 * from each generation's list (2.6.31's BDP_VARIANTS, counters/
 * bdp_variants.h; 3.1's and the IO-less kernels' IOL_VARIANTS,
 * counters/iol_variant_list.h; 6.18's BDP_6_18_VARIANTS, counters/
 * bdp_variants-6.18.h). A row names its generation (how its kernel's call
 * is set up and made), its kernel's entry, and its claims, by name.
 */
#ifndef MMSCALE_BDP_ROWS_H
#define MMSCALE_BDP_ROWS_H

#include "mmscale/case.h"

#include "../counters/bdp_claim.h"
#include "../counters/bdp_variants.h"
#include "../counters/iol_bdp.h"
#include "../counters/wb_machine-6.18.h"

struct bdp_variant;

/* A kernel generation's call: how a run is set up, timed and made once. */
struct bdp_generation {
	const char *name;
	int (*setup)(struct mmscale_run *run, int nr_threads, const struct bdp_variant *row,
		     enum iol_bdp_state state, char *err, size_t errlen);
	/* The timed loop: one call per iteration. */
	void (*body)(struct mmscale_state *st, struct mmscale_run *run, const struct bdp_variant *row);
	void (*one_op)(struct mmscale_run *run, const struct bdp_variant *row);
	/* The claim's global reads on the set-up machine (NULL: as claimed). */
	unsigned int (*global_reads)(unsigned int claimed);
	/* The bench's dirty threshold, for a throttled pass's stat_thresh_of. */
	unsigned long (*dirty_thresh)(void);
};

extern const struct bdp_generation bdp_generation_2_6_31, bdp_generation_iol,
	bdp_generation_6_18;

struct bdp_variant {
	struct mmscale_variant v;
	const struct bdp_generation *generation;
	/* The kernel's entry: the member its generation calls. */
	union {
		balance_dirty_pages_fn balance_dirty_pages;	/* 2.6.31's */
		const struct iol_machine_ops *iol;		/* 3.1's, the IO-less kernels' */
		balance_dirty_pages_loop_fn loop_6_18;		/* 6.18's loop */
	} kernel;
	struct bdp_claim call;		/* one unthrottled call (bdp/) */
	struct bdp_claim throttled;	/* one throttled pass (bdp_throttled/; not 2.6.31's) */
};

/* 2.6.31's rows (dirty/'s), every kernel's (bdp/'s) and the throttled pass's, in order. */
extern const struct bdp_variant bdp_variants[];
extern const size_t bdp_nr_variants;
extern const struct bdp_variant bdp_call_variants[];
extern const size_t bdp_nr_call_variants;
extern const struct bdp_variant bdp_throttled_variants[];
extern const size_t bdp_nr_throttled_variants;

#endif /* MMSCALE_BDP_ROWS_H */
