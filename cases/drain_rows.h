/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The drain variants' rows, as the cases and the tests see them: each row
 * of DRAIN_VARIANTS (drain/drain_variants.h) with its harness variant.
 * Built in cases/drain.c.
 */
#ifndef MMSCALE_DRAIN_ROWS_H
#define MMSCALE_DRAIN_ROWS_H

#include "mmscale/case.h"

#include "../drain/drain_variants.h"

struct drain_variant {
	struct mmscale_variant v;
	const struct drain_variant_ops *ops;	/* its kernel, and its claim */
};

/*
 * The claim of row's ops for one drain on a machine of shape m, as exact
 * counts: lock_acquires, and the IPIs (sent and handled) and
 * call_function.lock acquisitions of its call as gen (the run's kernel/smp.c
 * generation) claims them; locked_ops, the drain's and its call's (add two
 * for each vmstat fold the drain's frees make: MMSCALE_FOLDS).
 */
void drain_claim_counts(const struct drain_variant_ops *ops, const struct smp_generation *gen,
			const struct drain_shape *m, struct mmscale_claim *out);

/* Every row, in order (cases/drain.c), for the cases and the tests. */
extern const struct drain_variant drain_variants[];
extern const size_t drain_nr_variants;

#endif /* MMSCALE_DRAIN_ROWS_H */
