/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The per-CPU page lists of Linux 6.18 (mm/page_alloc.c of
 * ../shared/kernel/6.18, blob ed82ee55) on the zones of linux-6.18/mm/mmzone.h:
 * free_pcppages_bulk with its pindex round robin (1442-1493), rmqueue_bulk
 * (2514-2549), decay_pcp_high (2555-2583), drain_zone_pages (2590-2603),
 * drain_pages_zone, drain_pages and __drain_all_pages under
 * pcpu_drain_mutex with no IPI (2608-2728), nr_pcp_free (2740-2763),
 * nr_pcp_high (2765-2811), free_frozen_page_commit (2813-2882),
 * __free_frozen_pages' pcp trylock and its free_one_page fallback
 * (2887-2935), nr_pcp_alloc (3197-3246), __rmqueue_pcplist and
 * rmqueue_pcplist with its trylock and buddy fallback (3249-3311), the
 * buddy's free-page accounting (account_freepages: NR_FREE_PAGES, and
 * NR_FREE_PAGES_BLOCKS for a pageblock), PCPF_FREE_HIGH_BATCH
 * (zone_pcp_update_cacheinfo 6077-6097), and the watermarks the pageset's
 * high comes from (calculate_min_free_kbytes 6450, khugepaged's
 * recommended minimum, __setup_per_zone_wmarks 6338). The code is
 * kernel/linux-6.18/mm/page_alloc.c.
 *
 * Counts: every zone->lock acquisition counts MMSCALE_ZONE_LOCKS (and, as
 * every spin lock, MMSCALE_LOCK_ACQUIRES); every page that goes between
 * the buddy lists and a pcp list or the caller (free_pcppages_bulk,
 * rmqueue_bulk, and the trylock fallbacks free_one_page and rmqueue_buddy)
 * counts MMSCALE_PAGES_MOVED (2^order per block); pages a drain frees
 * count MMSCALE_PAGES_DRAINED.
 *
 * Not emulated (each inert in the cases here): ZONE_RECLAIM_ACTIVE and
 * ZONE_BELOW_HIGH (set by reclaim and by get_page_from_freelist when free
 * pages fall below the high watermark: the pools here are not the zone's
 * free pages, so neither is ever set), __rmqueue_cma_fallback (the
 * emulated zones have no CMA area: NR_FREE_CMA_PAGES, which __rmqueue
 * reads for every block, stays 0), free_one_page's trylock_free_pages, free_pages_prepare and
 * check_new_pages, the vm events (PGFREE, PGALLOC), FPI_TRYLOCK and ALLOC_TRYLOCK callers, ZONE_DMA's pageset (one more
 * pcp->lock per CPU in a drain of every zone on a real x86-64 machine).
 * get_page_from_freelist's watermark check and zone_statistics run only
 * in alloc_local_page_6_18 (the drain/ cases' allocations), not in
 * rmqueue_6_18 (pcp/autotune), which counts the lists' work alone.
 */
#ifndef MMSCALE_MM_PCP_6_18_H
#define MMSCALE_MM_PCP_6_18_H

#include "mmscale/kernel/cpumask.h"
#include "mmscale/kernel/mutex.h"
#include "mmscale/linux-6.18/mm/mmzone.h"

/* This header's names, as 6.18 has them (include/mmscale/linux-6.18/map.h). */
#define MMSCALE_6_18_MAP_WANT_PCP
#include "mmscale/linux-6.18/map.h"

/*
 * The pcp world on the 6.18 zones (vmstat_6_18_setup first): watermarks,
 * every populated zone's pagesets with their batch and high bounds at
 * percpu_pagelist_high_fraction high_fraction (0: the default, auto-tuned),
 * and per zone a pool of blocks for each order in orders[] (0-3 or 9:
 * nr_blocks each, and with room_for_high_min high_min more per CPU, or
 * with room_for_lists high_max + 2 x batch more per CPU of the zone's node
 * (what drain_mm_setup gives the 2.6.x pools), free in the buddy). fixed_high sets high_max = high_min: the same code with
 * high pinned at the default high_min - a counterfactual, not a state the
 * kernel reaches (its own fixed high, percpu_pagelist_high_fraction, is
 * managed / fraction over the CPUs). free_high_batch: PCPF_FREE_HIGH_BATCH,
 * which the kernel sets where the CPU's share of the data cache holds more
 * than 3 x batch pages (typical of bare-metal x86; a VM without cacheinfo,
 * as this project's, leaves it clear).
 */
struct pcp_6_18_config {
	int high_fraction;
	bool fixed_high;
	bool free_high_batch;
	bool room_for_high_min;
	bool room_for_lists;
	unsigned int orders[4];
	unsigned int nr_orders;
	unsigned long nr_blocks;
};

int pcp_6_18_setup(const struct pcp_6_18_config *cfg, char *err, size_t errlen);
/* Every page in the buddy or on a pcp list, none lost or twice: -1 with what differs. */
int pcp_6_18_check(char *err, size_t errlen);
void pcp_6_18_teardown(void);

/* An allocation of an order from zone on the calling CPU (rmqueue's pcp path, or the buddy). */
struct page *rmqueue_6_18(struct zone *zone, unsigned int order, int migratetype);
/* A free to the calling CPU's pcp (or, when its lock is taken, free_one_page). */
void free_frozen_pages_6_18(struct zone *zone, struct page *page);
/*
 * The calling CPU allocates one order-0 movable page of its local zone as
 * __alloc_frozen_pages' fast path does: get_page_from_freelist's watermark
 * check, rmqueue, zone_statistics. NULL where the kernel would reclaim.
 */
struct page *alloc_local_page_6_18(void);
/*
 * __drain_all_pages(zone, false) (drain_all_pages(zone)), and what it is
 * made of, for a 6.18 drain variant that copies it (scripts/new-variant
 * drain-6.18): the mutex that lets one drain run at a time, the static
 * mask of CPUs with pages, a CPU's drain of one zone or of all, and the
 * bulk free they call (pindex: where its round-robin starts).
 */
void drain_all_pages_6_18(struct zone *zone);
extern struct mutex pcpu_drain_mutex;
extern struct cpumask cpus_with_pcps;
void drain_pages_zone(unsigned int cpu, struct zone *zone);
void drain_pages(unsigned int cpu);
void free_pcppages_bulk(struct zone *zone, int count, struct per_cpu_pages *pcp, int pindex);
int decay_pcp_high_6_18(struct zone *zone, struct per_cpu_pages *pcp);
/* 6.18.7's, with Joshua Hahn's batched freeing (pcp/decay's second row). */
bool decay_pcp_high_6_18_7(struct zone *zone, struct per_cpu_pages *pcp);
void drain_zone_pages_6_18(struct zone *zone, struct per_cpu_pages *pcp);

/* The pure arithmetic, for the tests. */
int nr_pcp_free_6_18(struct per_cpu_pages *pcp, int batch, int high, bool free_high);
int nr_pcp_high_6_18(struct per_cpu_pages *pcp, struct zone *zone, int batch, bool free_high);
int nr_pcp_alloc_6_18(struct per_cpu_pages *pcp, struct zone *zone, int order);
unsigned int order_to_pindex_6_18(int migratetype, int order);
int pindex_to_order_6_18(unsigned int pindex);

/*
 * A case's bookkeeping, never part of what it measures: nothing counted,
 * no lock taken (no other CPU touches these lists then). reset puts every
 * block of cpu's pcp lists of zone back in the buddy and its pageset in
 * its first state (count 0, high 0 as per_cpu_pages_init leaves it, no
 * free or alloc history);
 * take moves n blocks of order from the buddy into pages[] (the number it
 * found); fill puts n of the buddy's blocks of order on cpu's pcp list, as
 * frees would have left them (the number it put). reset's "first state"
 * keeps PCPF_FREE_HIGH_BATCH, as the kernel's pageset does. None of the
 * four accounts NR_FREE_PAGES (nor does pcp_6_18_check read it), so they
 * are not for the drain/ cases' world, whose conservation check does
 * (kernel/linux-6.18/world/drain.c).
 */
void pcp_6_18_reset(struct zone *zone, unsigned int cpu);
unsigned long pcp_6_18_take(struct zone *zone, unsigned int order, unsigned long n,
			    struct page **pages);
unsigned long pcp_6_18_fill(struct zone *zone, unsigned int cpu, unsigned int order,
			    unsigned long n);
/* take's opposite: n blocks back in the buddy. */
void pcp_6_18_give_back(struct zone *zone, struct page **pages, unsigned long n);

#endif /* MMSCALE_MM_PCP_6_18_H */
