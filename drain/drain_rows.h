/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The drain variants' rows, as the cases and the tests see them: each row
 * of DRAIN_VARIANTS (drain/drain_variants.h) with its harness variant.
 * Built in drain/cases.c.
 */
#ifndef MMSCALE_DRAIN_ROWS_H
#define MMSCALE_DRAIN_ROWS_H

#include "mmscale/case.h"

#include "drain_variants.h"

struct drain_variant {
	struct mmscale_variant v;
	const struct drain_variant_ops *ops;
	/* The claim for one drain of an all-empty machine (see above). */
	unsigned int zone_locks_per_cpu_zone;
	unsigned int ipis_per_other_cpu;
};

/* Every row, in order (drain/cases.c), for the cases and the tests. */
extern const struct drain_variant drain_variants[];
extern const size_t drain_nr_variants;

#endif /* MMSCALE_DRAIN_ROWS_H */
