/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The page allocator of Linux 6.18 (../shared/kernel/6.18/mm/page_alloc.c,
 * blob ed82ee55), for the zones of linux-6.18/mm/mmzone.h: the per-CPU page lists'
 * sizes, zone_batchsize (5852-5897) and zone_highsize (5900-5948) with
 * zone_set_pageset_high_and_batch's choice of high_min and high_max
 * (6013-6040). The code is kernel/linux-6.18/mm/page_alloc.c.
 */
#ifndef MMSCALE_MM_PAGE_ALLOC_6_18_H
#define MMSCALE_MM_PAGE_ALLOC_6_18_H

#include "mmscale/linux-6.18/mm/mmzone.h"

/* This header's names, as 6.18 has them (include/mmscale/linux-6.18/map.h). */
#define MMSCALE_6_18_MAP_WANT_PAGE_ALLOC
#include "mmscale/linux-6.18/map.h"

#define MIN_PERCPU_PAGELIST_HIGH_FRACTION (8)

/*
 * The CPUs of the zone's node that are online (cpumask_of_node's weight):
 * the emulated machine's, unless a test sets them.
 */
int zone_batchsize(struct zone *zone);
int zone_highsize(struct zone *zone, int batch, int cpu_online, int high_fraction);

/*
 * zone_set_pageset_high_and_batch without its store: what it computes for
 * the zone at percpu_pagelist_high_fraction (0: the default, auto-tuning
 * between high_min and high_max; else high_min = high_max, tuned by hand).
 */
void zone_pageset_high_and_batch_6_18(struct zone *zone, int cpu_online, int high_fraction,
				      int *high_min, int *high_max, int *batch);

#endif /* MMSCALE_MM_PAGE_ALLOC_6_18_H */
