// SPDX-License-Identifier: GPL-2.0
/*
 * The README's "adding a variant" walkthrough, as a newcomer does it: this
 * file, its row in counters/bdp_variants.h (BDP_EXAMPLE_ROW) and its name in
 * CMakeLists.txt, nothing else. Built only with -DMMSCALE_EXAMPLE_VARIANT=ON
 * (scripts/test's address-sanitizer tree), where tests/test_claims.c checks
 * its claim and tests/example_variant.sh finds it in --list, a run and
 * the compare table. It mirrors no kernel: get_dirty_limits as v2 calls it,
 * then no throttling at all.
 */
#define BDP_CACHED_LOCALS_LIMITS
#include "mmscale/mm/writeback.h"

#include "bdp_variants.h"

static void balance_dirty_pages(struct address_space *mapping)
{
	unsigned long background_thresh, dirty_thresh, bdi_thresh;

	get_dirty_limits(&background_thresh, &dirty_thresh, &bdi_thresh,
			 mapping->backing_dev_info);
}

MMSCALE_VARIANT_SYMBOL(bdp_example, balance_dirty_pages);
