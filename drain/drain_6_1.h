/* SPDX-License-Identifier: GPL-2.0 */
/*
 * 6.1's page allocator on the 2.6.x machine (drain/drain_remote.c): its
 * order-0 paths, its free_pcppages_bulk and its __drain_all_pages, which
 * the rows whose kernel keeps 6.1's code but for drain_pages_zone run too
 * (6.6-chunked, drain/drain_6_6_chunked.c), so that they differ from
 * remote in that function alone.
 */
#ifndef MMSCALE_DRAIN_6_1_H
#define MMSCALE_DRAIN_6_1_H

#include "mmscale/linux-2.6/mm/page_alloc.h"

/* rmqueue and free_unref_page of 6.1, on 6.1's struct zone. */
extern const struct drain_machine_2_6 drain_machine_6_1;

/* Frees count pages of pcp to the buddy under zone->lock; the caller holds pcp->lock, irqs off. */
void free_pcppages_bulk_6_1(struct zone *zone, int count, struct per_cpu_pages *pcp,
			    int pindex);

/*
 * drain_all_pages(NULL) of 6.1 (__drain_all_pages, 6.1-rc7 3249-3315):
 * pcpu_drain_mutex, the mask of CPUs with pages, then for each of them
 * every populated zone through zone_drain, the row's drain_pages_zone.
 */
void __drain_all_pages_6_1(void (*zone_drain)(unsigned int cpu, struct zone *zone));

#endif /* MMSCALE_DRAIN_6_1_H */
