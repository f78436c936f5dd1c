// SPDX-License-Identifier: GPL-2.0
/*
 * The page allocator of Linux 6.18 (mm/page_alloc.c, blob ed82ee55): the
 * per-CPU page lists (pcp.h) and their sizes (page_alloc.h, at the end),
 * line by line where they concern the lists; include/mmscale/linux-6.18/mm/pcp.h
 * says what is here, where each function is in the kernel's file, and what
 * is left out.
 *
 * pcp->count is read without pcp->lock by other CPUs (__drain_all_pages'
 * has_pcps test) and by its own CPU's vmstat work (decay_pcp_high,
 * drain_zone_pages) while a remote drain may hold the lock; the kernel's
 * plain loads and stores there are READ_ONCE and WRITE_ONCE here (the same
 * single load or store on x86), so that the race the kernel allows is a
 * relaxed atomic in C11, not a data race.
 */
#include <stdlib.h>
#include <string.h>

#include "mmscale/errorf.h"
#include "mmscale/kernel/bitops.h"
#include "mmscale/kernel/cpumask.h"
#include "mmscale/kernel/machine.h"
#include "mmscale/kernel/mutex.h"
#include "mmscale/linux-6.18/mm/page_alloc.h"
#include "mmscale/linux-6.18/mm/pcp.h"
#include "mmscale/linux-6.18/mm/vmstat.h"

/* Not static: a 6.18 drain variant (drain/) takes it as __drain_all_pages does. */
DEFINE_MUTEX(pcpu_drain_mutex);

/*
 * __drain_all_pages' static cpumask (in the BSS, so that direct reclaim
 * need not allocate one). Only online CPUs' bits are set or cleared, so
 * a bit set by a run with more CPUs online would make a later run drain
 * its offline CPUs: each setup starts it empty, as a boot does.
 */
struct cpumask cpus_with_pcps;

/*
 * clamp as 6.18's include/linux/minmax.h has it (clywm520/6.18.y 947ac181,
 * blob eaaf5c00, 181-218: __clamp under clamp and clamp_t): v >= hi gives
 * hi, else v <= lo gives lo. Where lo > hi (nr_pcp_free with high < 2 x
 * batch) that is hi or lo by v, not min(max(v, lo), hi)'s hi always.
 */
#define clamp(v, lo, hi) ({						\
	__auto_type __clamp_v = (v);					\
	__auto_type __clamp_lo = (lo);					\
	__auto_type __clamp_hi = (hi);					\
	__clamp_v >= __clamp_hi ? __clamp_hi :				\
		(__clamp_v <= __clamp_lo ? __clamp_lo : __clamp_v); })
#define max3(a, b, c)		max(max((a), (b)), (c))

/* lib/math/int_sqrt.c: the integer square root, rounded down. */
static unsigned long int_sqrt(unsigned long x)
{
	unsigned long r = 0;

	while ((r + 1) * (r + 1) <= x)
		r++;
	return r;
}

/* The pools: every block of every populated zone, to check none is lost. */
static struct page **pools;
static unsigned long *pool_sizes;
static int nr_pools;

/*
 * spin_lock_irqsave(&zone->lock, flags), as 6.18 takes zone->lock on every
 * path here (free_pcppages_bulk 1459, free_one_page 1541, rmqueue_bulk
 * 2526, rmqueue_buddy 3165: the trylock forms are ALLOC_TRYLOCK's, never
 * an order-0 page's here); since the pcp lock stopped disabling interrupts
 * (6.2), zone->lock's hold is a drain's interrupts-off section. Counted
 * apart from the pcp locks, and each hold told to drain/full's hold
 * accounting (mmscale/opcount.h).
 */
#define zone_lock_irqsave(zone, flags) do {				\
	spin_lock_irqsave(&(zone)->lock, flags);			\
	mmscale_count_inc(MMSCALE_ZONE_LOCKS);				\
	if (mmscale_holds_counted())					\
		mmscale_zone_hold_begin();				\
} while (0)

#define zone_unlock_irqrestore(zone, flags) do {			\
	if (mmscale_holds_counted())					\
		mmscale_zone_hold_end();				\
	spin_unlock_irqrestore(&(zone)->lock, flags);			\
} while (0)

unsigned int order_to_pindex_6_18(int migratetype, int order)
{
	bool movable;

	if (order > PAGE_ALLOC_COSTLY_ORDER) {
		/* VM_BUG_ON(order != HPAGE_PMD_ORDER) */
		movable = migratetype == MIGRATE_MOVABLE;

		return NR_LOWORDER_PCP_LISTS + movable;
	}

	return (unsigned int)(MIGRATE_PCPTYPES * order + migratetype);
}

int pindex_to_order_6_18(unsigned int pindex)
{
	int order = (int)(pindex / MIGRATE_PCPTYPES);

	if (pindex >= NR_LOWORDER_PCP_LISTS)
		order = HPAGE_PMD_ORDER;

	return order;
}

/*
 * __rmqueue (2444-2500) with CONFIG_CMA: a movable allocation (ALLOC_CMA,
 * gfp_to_alloc_flags_cma) first balances against the CMA area, reading
 * NR_FREE_CMA_PAGES and NR_FREE_PAGES from zone->vm_stat[]; no emulated
 * zone has a CMA area, so the CMA count is 0 and __rmqueue_cma_fallback
 * never runs. Then the emulated buddy: the first block of the order and
 * type (no split, no fallback types).
 */
static struct page *__rmqueue(struct zone *zone, unsigned int order, int migratetype)
{
	struct free_area *area = &zone->free_area[order];
	struct list_head *list = &area->free_list[migratetype];
	struct page *page;

	if (migratetype == MIGRATE_MOVABLE &&	/* alloc_flags & ALLOC_CMA */
	    zone_page_state(zone, NR_FREE_CMA_PAGES) > zone_page_state(zone, NR_FREE_PAGES) / 2) {
		/* __rmqueue_cma_fallback: no CMA area here, no page; on as the kernel goes */
	}

	if (list_empty(list))
		return NULL;
	page = list_first_entry(list, struct page, pcp_list);
	list_del(&page->pcp_list);
	area->nr_free--;
	/* __del_page_from_free_list's account_freepages (863-875) */
	__mod_zone_page_state(zone, NR_FREE_PAGES, -(1L << order));
	if (order >= pageblock_order)
		__mod_zone_page_state(zone, NR_FREE_PAGES_BLOCKS, -(1L << order));
	return page;
}

/* The emulated buddy: back on its order's list (no merge). */
static void __free_one_page(struct page *page, struct zone *zone, unsigned int order,
			    int migratetype)
{
	struct free_area *area = &zone->free_area[order];

	list_add(&page->pcp_list, &area->free_list[migratetype]);
	area->nr_free++;
	/* __add_to_free_list's account_freepages (812-824) */
	__mod_zone_page_state(zone, NR_FREE_PAGES, 1L << order);
	if (order >= pageblock_order)
		__mod_zone_page_state(zone, NR_FREE_PAGES_BLOCKS, 1L << order);
}

/*
 * Frees a number of pages from the PCP lists. Assumes all pages on list
 * are in same zone. count is the number of pages to free.
 */
void free_pcppages_bulk(struct zone *zone, int count, struct per_cpu_pages *pcp,
			int pindex)
{
	unsigned long flags;
	unsigned int order;
	struct page *page;

	/*
	 * Ensure proper count is passed which otherwise would stuck in the
	 * below while (list_empty(list)) loop.
	 */
	count = min(pcp->count, count);

	/* Ensure requested pindex is drained first. */
	pindex = pindex - 1;

	zone_lock_irqsave(zone, flags);

	while (count > 0) {
		struct list_head *list;
		int nr_pages;

		/* Remove pages from lists in a round-robin fashion. */
		do {
			if (++pindex > NR_PCP_LISTS - 1)
				pindex = 0;
			list = &pcp->lists[pindex];
		} while (list_empty(list));

		order = (unsigned int)pindex_to_order_6_18((unsigned int)pindex);
		nr_pages = 1 << order;
		do {
			int mt;

			page = list_last_entry(list, struct page, pcp_list);
			mt = page->migratetype;	/* get_pfnblock_migratetype */

			/* must delete to avoid corrupting pcp list */
			list_del(&page->pcp_list);
			count -= nr_pages;
			WRITE_ONCE(pcp->count, pcp->count - nr_pages);
			mmscale_count_add(MMSCALE_PAGES_MOVED, (u64)nr_pages);

			__free_one_page(page, zone, order, mt);
		} while (count > 0 && !list_empty(list));
	}

	zone_unlock_irqrestore(zone, flags);
}

static int rmqueue_bulk(struct zone *zone, unsigned int order, unsigned long count,
			struct list_head *list, int migratetype)
{
	unsigned long flags, i;

	zone_lock_irqsave(zone, flags);
	for (i = 0; i < count; ++i) {
		struct page *page = __rmqueue(zone, order, migratetype);

		if (unlikely(page == NULL))
			break;

		/* Split buddy pages ... are added to the tail of caller's list. */
		list_add_tail(&page->pcp_list, list);
		mmscale_count_add(MMSCALE_PAGES_MOVED, 1UL << order);
	}
	zone_unlock_irqrestore(zone, flags);

	return (int)i;
}

/*
 * Called from the vmstat counter updater to decay the PCP high.
 * Return whether there are addition works to do.
 */
int decay_pcp_high_6_18(struct zone *zone, struct per_cpu_pages *pcp)
{
	int high_min, to_drain, batch;
	int todo = 0;

	high_min = READ_ONCE(pcp->high_min);
	batch = READ_ONCE(pcp->batch);
	/*
	 * Decrease pcp->high periodically to try to free possible
	 * idle PCP pages.  And, avoid to free too many pages to
	 * control latency.  This caps pcp->high decrement too.
	 */
	if (pcp->high > high_min) {
		pcp->high = max3(READ_ONCE(pcp->count) - (batch << CONFIG_PCP_BATCH_SCALE_MAX),
				 pcp->high - (pcp->high >> 3), high_min);
		if (pcp->high > high_min)
			todo++;
	}

	to_drain = READ_ONCE(pcp->count) - pcp->high;
	if (to_drain > 0) {
		spin_lock(&pcp->lock);
		free_pcppages_bulk(zone, to_drain, pcp, 0);
		spin_unlock(&pcp->lock);
		todo++;
	}

	return todo;
}

/*
 * decay_pcp_high as 6.18.7 has it (mm/page_alloc.c of 6.18.7,
 * ../shared/kernel/6.18.7, blob 623f6e5b, 2582-2614): Joshua Hahn's
 * "mm/page_alloc: batch page freeing in decay_pcp_high" (v2 3/4,
 * ../shared/kernel/patches/h-v2-3-4-*), backported to 6.18.7, frees what
 * is over the decayed high a batch at a time, pcp->lock and zone->lock
 * taken for each batch, where 6.18.0 frees it in one hold; and returns a
 * bool. pcp_spin_lock_maybe_irqsave is spin_lock on SMP (169-195).
 */
bool decay_pcp_high_6_18_7(struct zone *zone, struct per_cpu_pages *pcp)
{
	int high_min, to_drain, to_drain_batched, batch;
	bool todo = false;

	high_min = READ_ONCE(pcp->high_min);
	batch = READ_ONCE(pcp->batch);
	/*
	 * Decrease pcp->high periodically to try to free possible
	 * idle PCP pages.  And, avoid to free too many pages to
	 * control latency.  This caps pcp->high decrement too.
	 */
	if (pcp->high > high_min) {
		pcp->high = max3(pcp->count - (batch << CONFIG_PCP_BATCH_SCALE_MAX),
				 pcp->high - (pcp->high >> 3), high_min);
		if (pcp->high > high_min)
			todo = true;
	}

	to_drain = pcp->count - pcp->high;
	while (to_drain > 0) {
		to_drain_batched = min(to_drain, batch);
		spin_lock(&pcp->lock);		/* pcp_spin_lock_maybe_irqsave: SMP */
		free_pcppages_bulk(zone, to_drain_batched, pcp, 0);
		spin_unlock(&pcp->lock);
		todo = true;

		to_drain -= to_drain_batched;
	}

	return todo;
}

/*
 * Called from the vmstat counter updater to drain pagesets of this
 * currently executing processor on remote nodes after they have
 * expired (2590-2603).
 */
void drain_zone_pages_6_18(struct zone *zone, struct per_cpu_pages *pcp)
{
	int to_drain, batch;

	batch = READ_ONCE(pcp->batch);
	to_drain = min(READ_ONCE(pcp->count), batch);
	if (to_drain > 0) {
		spin_lock(&pcp->lock);
		free_pcppages_bulk(zone, to_drain, pcp, 0);
		spin_unlock(&pcp->lock);
	}
}

/*
 * Drain pcplists of the indicated processor and zone, batch << 5 pages
 * at a time, the lock dropped between.
 */
void drain_pages_zone(unsigned int cpu, struct zone *zone)
{
	struct per_cpu_pages *pcp = per_cpu_ptr(zone->per_cpu_pageset, cpu);
	int count;

	do {
		spin_lock(&pcp->lock);
		count = READ_ONCE(pcp->count);
		if (count) {
			int to_drain = min(count, pcp->batch << CONFIG_PCP_BATCH_SCALE_MAX);

			free_pcppages_bulk(zone, to_drain, pcp, 0);
			/* whole blocks: a THP list frees 512 at a time */
			mmscale_count_add(MMSCALE_PAGES_DRAINED, (u64)(count - pcp->count));
			count -= to_drain;
		}
		spin_unlock(&pcp->lock);
	} while (count);
}

/*
 * Drain pcplists of all zones on the indicated processor.
 */
void drain_pages(unsigned int cpu)
{
	struct zone *zone;

	for_each_populated_zone(zone) {
		drain_pages_zone(cpu, zone);
	}
}

/*
 * drain_all_pages(zone): __drain_all_pages(zone, false). Only the CPUs
 * whose pcp->count is not 0 (racy, read remotely) are drained, each by the
 * caller itself under that CPU's pcp->lock: no IPI, no work item.
 */
void drain_all_pages_6_18(struct zone *zone)
{
	unsigned int cpu;

	/*
	 * Do not drain if one is already in progress unless it's specific to
	 * a zone.
	 */
	if (unlikely(!mutex_trylock(&pcpu_drain_mutex))) {
		unsigned int spins = 0;

		if (!zone) {
			mmscale_count_inc(MMSCALE_DRAINS_SKIPPED);
			return;
		}
		/* mutex_lock: waits for the drain in progress (here, spinning). */
		while (!mutex_trylock(&pcpu_drain_mutex))
			spin_wait_step(&spins);
	}

	for_each_online_cpu(cpu) {
		struct per_cpu_pages *pcp;
		struct zone *z;
		bool has_pcps = false;

		if (zone) {
			pcp = per_cpu_ptr(zone->per_cpu_pageset, cpu);
			if (READ_ONCE(pcp->count))
				has_pcps = true;
		} else {
			for_each_populated_zone(z) {
				pcp = per_cpu_ptr(z->per_cpu_pageset, cpu);
				if (READ_ONCE(pcp->count)) {
					has_pcps = true;
					break;
				}
			}
		}

		if (has_pcps)
			cpumask_set_cpu(cpu, &cpus_with_pcps);
		else
			cpumask_clear_cpu(cpu, &cpus_with_pcps);
	}

	for_each_cpu(cpu, &cpus_with_pcps) {
		if (zone)
			drain_pages_zone(cpu, zone);
		else
			drain_pages(cpu);
	}

	mutex_unlock(&pcpu_drain_mutex);
}

int nr_pcp_free_6_18(struct per_cpu_pages *pcp, int batch, int high, bool free_high)
{
	int min_nr_free, max_nr_free;

	/* Free as much as possible if batch freeing high-order pages. */
	if (unlikely(free_high))
		return min(pcp->count, batch << CONFIG_PCP_BATCH_SCALE_MAX);

	/* Check for PCP disabled or boot pageset */
	if (unlikely(high < batch))
		return 1;

	/* Leave at least pcp->batch pages on the list */
	min_nr_free = batch;
	max_nr_free = high - batch;

	/*
	 * Increase the batch number to the number of the consecutive
	 * freed pages to reduce zone lock contention.
	 */
	batch = clamp((int)pcp->free_count, min_nr_free, max_nr_free);

	return batch;
}

int nr_pcp_high_6_18(struct per_cpu_pages *pcp, struct zone *zone, int batch, bool free_high)
{
	int high, high_min, high_max;

	high_min = READ_ONCE(pcp->high_min);
	high_max = READ_ONCE(pcp->high_max);
	high = pcp->high = clamp(pcp->high, high_min, high_max);

	if (unlikely(!high))
		return 0;

	if (unlikely(free_high)) {
		pcp->high = max(high - (batch << CONFIG_PCP_BATCH_SCALE_MAX), high_min);
		return 0;
	}

	/*
	 * If reclaim is active, limit the number of pages that can be
	 * stored on pcp lists
	 */
	if (test_bit(ZONE_RECLAIM_ACTIVE, &zone->flags)) {
		int free_count = max((int)pcp->free_count, batch);

		pcp->high = max(high - free_count, high_min);
		return min(batch << 2, pcp->high);
	}

	if (high_min == high_max)
		return high;

	if (test_bit(ZONE_BELOW_HIGH, &zone->flags)) {
		int free_count = max((int)pcp->free_count, batch);

		pcp->high = max(high - free_count, high_min);
		high = max(pcp->count, high_min);
	} else if (pcp->count >= high) {
		int need_high = pcp->free_count + batch;

		/* pcp->high should be large enough to hold batch freed pages */
		if (pcp->high < need_high)
			pcp->high = clamp(need_high, high_min, high_max);
	}

	return high;
}

static void free_frozen_page_commit(struct zone *zone, struct per_cpu_pages *pcp,
				    struct page *page, int migratetype, unsigned int order)
{
	int high, batch;
	int pindex;
	bool free_high = false;

	/*
	 * On freeing, reduce the number of pages that are batch allocated.
	 * See nr_pcp_alloc() where alloc_factor is increased for subsequent
	 * allocations.
	 */
	pcp->alloc_factor >>= 1;
	pindex = (int)order_to_pindex_6_18(migratetype, (int)order);
	list_add(&page->pcp_list, &pcp->lists[pindex]);
	WRITE_ONCE(pcp->count, pcp->count + (1 << order));

	batch = READ_ONCE(pcp->batch);
	/*
	 * As high-order pages other than THP's stored on PCP can contribute
	 * to fragmentation, limit the number stored when PCP is heavily
	 * freeing without allocation. The remainder after bulk freeing
	 * stops will be drained from vmstat refresh context.
	 */
	if (order && order <= PAGE_ALLOC_COSTLY_ORDER) {
		free_high = (pcp->free_count >= (batch + pcp->high_min / 2) &&
			     (pcp->flags & PCPF_PREV_FREE_HIGH_ORDER) &&
			     (!(pcp->flags & PCPF_FREE_HIGH_BATCH) ||
			      pcp->count >= batch));
		pcp->flags |= PCPF_PREV_FREE_HIGH_ORDER;
	} else if (pcp->flags & PCPF_PREV_FREE_HIGH_ORDER) {
		pcp->flags &= (u8)~PCPF_PREV_FREE_HIGH_ORDER;
	}
	if (pcp->free_count < (batch << CONFIG_PCP_BATCH_SCALE_MAX))
		pcp->free_count = (short)(pcp->free_count + (1 << order));

	high = nr_pcp_high_6_18(pcp, zone, batch, free_high);
	if (pcp->count < high)
		return;

	free_pcppages_bulk(zone, nr_pcp_free_6_18(pcp, batch, high, free_high), pcp, pindex);
	/* ZONE_BELOW_HIGH is never set here (linux-6.18/mm/pcp.h). */
}

/* free_one_page: straight to the buddy under zone->lock. */
static void free_one_page(struct zone *zone, struct page *page, unsigned int order)
{
	unsigned long flags;

	zone_lock_irqsave(zone, flags);
	__free_one_page(page, zone, order, page->migratetype);
	mmscale_count_add(MMSCALE_PAGES_MOVED, 1UL << order);
	zone_unlock_irqrestore(zone, flags);
}

/*
 * __free_frozen_pages (2887-2935): pcp_allowed_order is true for every
 * order pcp_6_18_setup accepts; the free goes to this CPU's pcp under
 * pcp_spin_trylock, or, when that fails (a remote drain holds it), to the
 * buddy. (The migratetype is the block's: no isolation here.)
 */
void free_frozen_pages_6_18(struct zone *zone, struct page *page)
{
	struct per_cpu_pages *pcp = this_cpu_ptr(zone->per_cpu_pageset);
	unsigned int order = page->order;

	if (spin_trylock(&pcp->lock)) {		/* pcp_spin_trylock */
		free_frozen_page_commit(zone, pcp, page, page->migratetype, order);
		spin_unlock(&pcp->lock);
	} else {
		free_one_page(zone, page, order);
	}
}

int nr_pcp_alloc_6_18(struct per_cpu_pages *pcp, struct zone *zone, int order)
{
	int high, base_batch, batch, max_nr_alloc;
	int high_max, high_min;

	base_batch = READ_ONCE(pcp->batch);
	high_min = READ_ONCE(pcp->high_min);
	high_max = READ_ONCE(pcp->high_max);
	high = pcp->high = clamp(pcp->high, high_min, high_max);

	/* Check for PCP disabled or boot pageset */
	if (unlikely(high < base_batch))
		return 1;

	if (order)
		batch = base_batch;
	else
		batch = (base_batch << pcp->alloc_factor);

	/*
	 * If we had larger pcp->high, we could avoid to allocate from
	 * zone.
	 */
	if (high_min != high_max && !test_bit(ZONE_BELOW_HIGH, &zone->flags))
		high = pcp->high = min(high + batch, high_max);

	if (!order) {
		max_nr_alloc = max(high - pcp->count - base_batch, base_batch);
		/*
		 * Double the number of pages allocated each time there is
		 * subsequent allocation of order-0 pages without any freeing.
		 */
		if (batch <= max_nr_alloc &&
		    pcp->alloc_factor < CONFIG_PCP_BATCH_SCALE_MAX)
			pcp->alloc_factor++;
		batch = min(batch, max_nr_alloc);
	}

	/*
	 * Scale batch relative to order if batch implies free pages
	 * can be stored on the PCP. Batch can be 1 for small zones or
	 * for boot pagesets which should never store free pages as
	 * the pages may belong to arbitrary zones.
	 */
	if (batch > 1)
		batch = max(batch >> order, 2);

	return batch;
}

/* Remove page from the per-cpu list, caller must protect the list */
static struct page *__rmqueue_pcplist(struct zone *zone, unsigned int order, int migratetype,
				      struct per_cpu_pages *pcp, struct list_head *list)
{
	struct page *page;

	if (list_empty(list)) {
		int batch = nr_pcp_alloc_6_18(pcp, zone, (int)order);
		int alloced;

		alloced = rmqueue_bulk(zone, order, (unsigned long)batch, list, migratetype);

		WRITE_ONCE(pcp->count, pcp->count + (alloced << order));
		if (unlikely(list_empty(list)))
			return NULL;
	}

	page = list_first_entry(list, struct page, pcp_list);
	list_del(&page->pcp_list);
	WRITE_ONCE(pcp->count, pcp->count - (1 << order));

	return page;
}

/* rmqueue_buddy (3151-3195): one block from the buddy under zone->lock. */
static struct page *rmqueue_buddy(struct zone *zone, unsigned int order, int migratetype)
{
	unsigned long flags;
	struct page *page;

	zone_lock_irqsave(zone, flags);
	page = __rmqueue(zone, order, migratetype);
	if (page)
		mmscale_count_add(MMSCALE_PAGES_MOVED, 1UL << order);
	zone_unlock_irqrestore(zone, flags);
	return page;
}

/*
 * rmqueue (3325-3354): pcp_allowed_order (the orders pcp_6_18_setup
 * accepts), then rmqueue_pcplist, which
 * returns NULL when pcp_spin_trylock fails (a parallel drain) - then the
 * buddy.
 */
struct page *rmqueue_6_18(struct zone *zone, unsigned int order, int migratetype)
{
	struct per_cpu_pages *pcp = this_cpu_ptr(zone->per_cpu_pageset);
	struct page *page = NULL;

	if (spin_trylock(&pcp->lock)) {		/* pcp_spin_trylock */
		/*
		 * On allocation, reduce the number of pages that are batch freed.
		 * See nr_pcp_free() where free_factor is increased for subsequent
		 * frees.
		 */
		pcp->free_count >>= 1;
		page = __rmqueue_pcplist(zone, order, migratetype, pcp,
					 &pcp->lists[order_to_pindex_6_18(migratetype, (int)order)]);
		spin_unlock(&pcp->lock);
		if (page)
			return page;
	}
	return rmqueue_buddy(zone, order, migratetype);
}

/*
 * The order-0 fast path of __alloc_frozen_pages for a movable page
 * (GFP_HIGHUSER_MOVABLE) on the calling CPU's local zone, the first of its
 * zonelist. get_page_from_freelist (3720-3900): the test of ZONE_BELOW_HIGH
 * in zone->flags (3819), then zone_watermark_fast (3604-3650) against the
 * high watermark (3822): its _watermark[] and watermark_boost, then
 * NR_FREE_PAGES (zone_page_state), which for order 0 must be above the
 * mark, less what __zone_watermark_unusable_free (3492-3511) leaves
 * unusable (nr_free_highatomic; with CONFIG_CMA the free CMA pages too,
 * but not for a movable allocation, which has ALLOC_CMA). Then rmqueue (3325-3354), and on success zone_statistics
 * (3128-3148: NUMA_HIT and NUMA_LOCAL or NUMA_OTHER, per-CPU, no fold),
 * which 6.18 calls inside rmqueue_pcplist and rmqueue_buddy, and rmqueue's
 * ZONE_BOOSTED_WATERMARK test (the fast path's alloc_flags have
 * ALLOC_KSWAPD: alloc_flags_nofragment copies __GFP_KSWAPD_RECLAIM).
 *
 * Not read: nr_free_highatomic and lowmem_reserve[], which the emulated
 * struct zone lacks (both 0 on this path: no highatomic reserve, and the
 * local zone is the highest index asked for); before the flags test, on a
 * machine of several nodes, the kswapd wait queue (3804), and with
 * CONFIG_UNACCEPTED_MEMORY the zone's unaccepted pages (3810).
 *
 * Where the emulation stops: at or below the high watermark the kernel
 * sets ZONE_BELOW_HIGH (a locked bitop) and goes on to check_alloc_wmark,
 * allocating still above the low watermark; that flag also shrinks
 * pcp->high in nr_pcp_high and the free path, which the port leaves out
 * (linux-6.18/mm/pcp.h). So the emulation returns NULL there, as it does where the
 * kernel would reclaim: the drain/ cases fail their run rather than time
 * another path. The emulated NR_FREE_PAGES starts at the zone's managed
 * pages, of which the pools are a small part, so no case comes near it.
 */
struct page *alloc_local_page_6_18(void)
{
	struct zone *zone = local_zone_6_18(smp_processor_id());
	struct page *page;
	long mark, usable_free;

	if (test_bit(ZONE_BELOW_HIGH, &zone->flags))
		return NULL;	/* goto check_alloc_wmark: not emulated (above) */
	mark = (long)wmark_pages(zone, WMARK_HIGH);
	usable_free = (long)zone_page_state(zone, NR_FREE_PAGES);
	if (usable_free <= mark)
		return NULL;	/* set_bit(ZONE_BELOW_HIGH): not emulated (above) */
	page = rmqueue_6_18(zone, 0, MIGRATE_MOVABLE);
	if (page)
		zone_statistics(zone, zone, 1);	/* the preferred zone is the local one */
	/* Separate test+clear to avoid unnecessary atomics */
	if (unlikely(test_bit(ZONE_BOOSTED_WATERMARK, &zone->flags)))
		clear_bit(ZONE_BOOSTED_WATERMARK, &zone->flags);	/* (wakeup_kswapd) */
	return page;
}

/*
 * min_free_kbytes as a 6.18 kernel with THP enabled (always or madvise,
 * as this project's kernel) ends up with it: calculate_min_free_kbytes
 * (6450-6464), then khugepaged's set_recommended_min_free_kbytes
 * (mm/khugepaged.c, not in ../shared/kernel; init_per_zone_wmark_min
 * calls it at 6478): 2 + MIGRATE_PCPTYPES^2 pageblocks per populated
 * zone, at most 5% of lowmem, when that is more. On this project's 6.18
 * machine (3 zones) that is the 67584 KiB /proc/sys/vm/min_free_kbytes
 * shows. Then __setup_per_zone_wmarks (6338-6400).
 */
static void setup_per_zone_wmarks(void)
{
	unsigned long lowmem_pages = 0, pages_min, recommended_min;
	unsigned long min_free_kbytes, nr_zones = 0;
	struct zone *zone;

	for_each_populated_zone(zone) {
		lowmem_pages += zone_managed_pages(zone);
		nr_zones++;
	}
	/* nr_free_buffer_pages() is the managed pages above the high watermarks: 0 yet. */
	min_free_kbytes = (unsigned long)int_sqrt(lowmem_pages * (PAGE_SIZE >> 10) * 16);
	min_free_kbytes = clamp(min_free_kbytes, 128UL, 262144UL);
	/* set_recommended_min_free_kbytes */
	recommended_min = (1UL << pageblock_order) * nr_zones * 2;
	recommended_min += (1UL << pageblock_order) * nr_zones *
			   MIGRATE_PCPTYPES * MIGRATE_PCPTYPES;
	recommended_min = min(recommended_min, lowmem_pages / 20);
	recommended_min <<= (PAGE_SHIFT - 10);
	if (recommended_min > min_free_kbytes)
		min_free_kbytes = recommended_min;
	pages_min = min_free_kbytes >> (PAGE_SHIFT - 10);
	for_each_populated_zone(zone) {
		u64 tmp = (u64)pages_min * zone_managed_pages(zone) / lowmem_pages;

		zone->_watermark[WMARK_MIN] = tmp;
		/* watermark_scale_factor = 10 */
		tmp = max(tmp >> 2, (u64)zone_managed_pages(zone) * 10 / 10000);
		zone->watermark_boost = 0;
		zone->_watermark[WMARK_LOW] = zone->_watermark[WMARK_MIN] + tmp;
		zone->_watermark[WMARK_HIGH] = zone->_watermark[WMARK_LOW] + tmp;
		zone->_watermark[WMARK_PROMO] = zone->_watermark[WMARK_HIGH] + tmp;
	}
}

int pcp_6_18_setup(const struct pcp_6_18_config *cfg, char *err, size_t errlen)
{
	struct zone *zone;
	int z = 0;

	pcp_6_18_teardown();
	for (unsigned int i = 0; i < cfg->nr_orders; i++)
		if (cfg->orders[i] > PAGE_ALLOC_COSTLY_ORDER && cfg->orders[i] != HPAGE_PMD_ORDER)
			return mmscale_errorf(err, errlen, "order %u has no pcp list "
					      "(pcp_allowed_order: 0-%d and %d)", cfg->orders[i],
					      PAGE_ALLOC_COSTLY_ORDER, HPAGE_PMD_ORDER);
	cpumask_clear(&cpus_with_pcps);
	setup_per_zone_wmarks();
	for_each_populated_zone(zone)
		nr_pools++;
	pools = calloc((size_t)nr_pools, sizeof(*pools));
	pool_sizes = calloc((size_t)nr_pools, sizeof(*pool_sizes));
	if (!pools || !pool_sizes)
		goto oom;
	for_each_populated_zone(zone) {
		int high_min, high_max, batch;
		unsigned long n;
		unsigned int cpu;

		for (unsigned int o = 0; o < NR_PAGE_ORDERS; o++) {
			for (int mt = 0; mt < MIGRATE_TYPES; mt++)
				INIT_LIST_HEAD(&zone->free_area[o].free_list[mt]);
			zone->free_area[o].nr_free = 0;
		}
		zone->flags = 0;
		zone->per_cpu_pageset = alloc_percpu(struct per_cpu_pages);
		if (!zone->per_cpu_pageset) {
			mmscale_errorf(err, errlen, "per-CPU units full: the pagesets of node %d "
				       "zone %s", zone->node, zone->name);
			goto fail;
		}
		/* mmscale: --set percpu_pagelist_high_fraction=N, as its sysctl (mm/config.h). */
		zone_pageset_high_and_batch_6_18(zone, 0,
						 (int)MM_KNOB_OR(mm_config()->percpu_pagelist_high_fraction,
								 cfg->high_fraction),
						 &high_min, &high_max, &batch);
		/* mmscale: --set pcp_batch, pcp_high, pcp_high_max: no kernel knob (mm/config.h). */
		batch = (int)MM_KNOB_OR(mm_config()->pcp_batch, batch);
		high_min = (int)MM_KNOB_OR(mm_config()->pcp_high, high_min);
		high_max = (int)MM_KNOB_OR(mm_config()->pcp_high_max, high_max);
		if (high_min > high_max || batch > high_min) {
			mmscale_errorf(err, errlen, "zone %s: batch %d, high_min %d, high_max %d "
				       "(--set pcp_batch, pcp_high, pcp_high_max): the kernel keeps "
				       "batch <= high_min <= high_max", zone->name, batch, high_min,
				       high_max);
			goto fail;
		}
		if (cfg->fixed_high)
			high_max = high_min;
		zone->pageset_high_min = high_min;
		zone->pageset_high_max = high_max;
		zone->pageset_batch = batch;
		n = cfg->nr_blocks;
		if (cfg->room_for_high_min)
			n += (unsigned long)high_min * nr_cpu_ids;
		if (cfg->room_for_lists)
			for (cpu = 0; cpu < nr_cpu_ids; cpu++)
				if (cpu_to_node((int)cpu) == zone->node)
					n += (unsigned long)high_max + 2UL * (unsigned long)batch;
		n *= cfg->nr_orders;
		for (cpu = 0; cpu < nr_cpu_ids; cpu++) {
			struct per_cpu_pages *pcp = per_cpu_ptr(zone->per_cpu_pageset, cpu);

			/* per_cpu_pages_init: zeroed, high 0 until a free or an allocation clamps it */
			spin_lock_init(&pcp->lock);
			for (int i = 0; i < NR_PCP_LISTS; i++)
				INIT_LIST_HEAD(&pcp->lists[i]);
			/* pageset_update */
			pcp->high_min = high_min;
			pcp->high_max = high_max;
			pcp->batch = batch;
			/* zone_pcp_update_cacheinfo (6077-6097): a data cache slice over 3 x batch pages */
			if (cfg->free_high_batch)
				pcp->flags |= PCPF_FREE_HIGH_BATCH;
		}
		/* The pool, on the zone's node as its memmap is; every block free in the buddy. */
		pools[z] = n ? alloc_on_node(zone->node, n * sizeof(struct page), err, errlen) : NULL;
		if (n && !pools[z])
			goto fail;
		pool_sizes[z] = n;
		for (unsigned long i = 0; i < n; i++) {
			struct page *page = &pools[z][i];

			page->order = cfg->orders[i / (n / cfg->nr_orders)];
			page->migratetype = MIGRATE_MOVABLE;
			list_add_tail(&page->pcp_list,
				      &zone->free_area[page->order].free_list[page->migratetype]);
			zone->free_area[page->order].nr_free++;
		}
		z++;
	}
	return 0;
oom:
	mmscale_errorf(err, errlen, "out of memory");
fail:
	pcp_6_18_teardown();
	return -1;
}

int pcp_6_18_check(char *err, size_t errlen)
{
	struct zone *zone;
	int z = 0;

	for_each_populated_zone(zone) {
		unsigned long blocks = 0;
		unsigned int cpu;

		if (z >= nr_pools)
			break;
		for (unsigned int o = 0; o < NR_PAGE_ORDERS; o++)
			for (int mt = 0; mt < MIGRATE_TYPES; mt++) {
				struct list_head *pos;

				list_for_each(pos, &zone->free_area[o].free_list[mt])
					blocks++;
			}
		for (cpu = 0; cpu < nr_cpu_ids; cpu++) {
			struct per_cpu_pages *pcp = per_cpu_ptr(zone->per_cpu_pageset, cpu);
			unsigned long pages = 0;

			for (unsigned int i = 0; i < NR_PCP_LISTS; i++) {
				struct list_head *pos;

				list_for_each(pos, &pcp->lists[i]) {
					blocks++;
					pages += 1UL << pindex_to_order_6_18(i);
				}
			}
			if (pages != (unsigned long)pcp->count)
				return mmscale_errorf(err, errlen, "6.18 pcp: CPU %u zone %s: "
						      "count %d, %lu pages on its lists", cpu,
						      zone->name, pcp->count, pages);
		}
		if (blocks != pool_sizes[z])
			return mmscale_errorf(err, errlen, "6.18 pcp: node %d zone %s: %lu blocks "
					      "in the buddy and on pcp lists, %lu in its pool",
					      zone->node, zone->name, blocks, pool_sizes[z]);
		z++;
	}
	return 0;
}

void pcp_6_18_reset(struct zone *zone, unsigned int cpu)
{
	struct per_cpu_pages *pcp = per_cpu_ptr(zone->per_cpu_pageset, cpu);

	for (unsigned int i = 0; i < NR_PCP_LISTS; i++)
		while (!list_empty(&pcp->lists[i])) {
			struct page *page = list_first_entry(&pcp->lists[i], struct page, pcp_list);

			list_del(&page->pcp_list);
			list_add_tail(&page->pcp_list,
				      &zone->free_area[page->order].free_list[page->migratetype]);
			zone->free_area[page->order].nr_free++;
		}
	WRITE_ONCE(pcp->count, 0);
	pcp->high = 0;
	pcp->free_count = 0;
	pcp->alloc_factor = 0;
	pcp->flags &= PCPF_FREE_HIGH_BATCH;
}

unsigned long pcp_6_18_take(struct zone *zone, unsigned int order, unsigned long n,
			    struct page **pages)
{
	struct free_area *area = &zone->free_area[order];
	unsigned long i;

	for (i = 0; i < n && !list_empty(&area->free_list[MIGRATE_MOVABLE]); i++) {
		pages[i] = list_first_entry(&area->free_list[MIGRATE_MOVABLE], struct page,
					    pcp_list);
		list_del(&pages[i]->pcp_list);
		area->nr_free--;
	}
	return i;
}

unsigned long pcp_6_18_fill(struct zone *zone, unsigned int cpu, unsigned int order,
			    unsigned long n)
{
	struct per_cpu_pages *pcp = per_cpu_ptr(zone->per_cpu_pageset, cpu);
	struct free_area *area = &zone->free_area[order];
	unsigned long i;

	for (i = 0; i < n && !list_empty(&area->free_list[MIGRATE_MOVABLE]); i++) {
		struct page *page = list_first_entry(&area->free_list[MIGRATE_MOVABLE],
						     struct page, pcp_list);

		list_del(&page->pcp_list);
		area->nr_free--;
		list_add(&page->pcp_list,
			 &pcp->lists[order_to_pindex_6_18(MIGRATE_MOVABLE, (int)order)]);
		WRITE_ONCE(pcp->count, pcp->count + (1 << order));
	}
	return i;
}

void pcp_6_18_give_back(struct zone *zone, struct page **pages, unsigned long n)
{
	for (unsigned long i = 0; i < n; i++) {
		list_add(&pages[i]->pcp_list,
			 &zone->free_area[pages[i]->order].free_list[pages[i]->migratetype]);
		zone->free_area[pages[i]->order].nr_free++;
	}
}

void pcp_6_18_teardown(void)
{
	struct zone *zone;
	int z = 0;

	if (nr_node_ids_6_18)
		for_each_populated_zone(zone) {
			free_percpu(zone->per_cpu_pageset);
			zone->per_cpu_pageset = NULL;
			if (pools && z < nr_pools && pools[z])
				free_on_node(pools[z], pool_sizes[z] * sizeof(struct page));
			z++;
		}
	free(pools);
	free(pool_sizes);
	pools = NULL;
	pool_sizes = NULL;
	nr_pools = 0;
}

/*
 * The per-CPU page lists' sizes (include/mmscale/linux-6.18/mm/page_alloc.h):
 * zone_batchsize, zone_highsize and zone_set_pageset_high_and_batch's choice.
 */
#define SZ_1M		(1UL << 20)

static unsigned long rounddown_pow_of_two(unsigned long n)
{
	return 1UL << ilog2(n);
}

static unsigned long zone_managed(struct zone *zone)
{
	return (unsigned long)atomic_long_read(&zone->managed_pages);
}

int zone_batchsize(struct zone *zone)
{
	int batch;

	/*
	 * The number of pages to batch allocate is either ~0.1%
	 * of the zone or 1MB, whichever is smaller. The batch
	 * size is striking a balance between allocation latency
	 * and zone lock contention.
	 */
	batch = (int)min(zone_managed(zone) >> 10, SZ_1M / PAGE_SIZE);
	batch /= 4;		/* We effectively *= 4 below */
	if (batch < 1)
		batch = 1;

	/*
	 * Clamp the batch to a 2^n - 1 value. Having a power
	 * of 2 value was found to be more likely to have
	 * suboptimal cache aliasing properties in some cases.
	 */
	batch = (int)rounddown_pow_of_two((unsigned long)(batch + batch / 2)) - 1;

	return batch;
}

/* cpumask_weight(cpumask_of_node(nid)): the online emulated CPUs on the node. */
static int node_online_cpus(int nid)
{
	unsigned int cpu;
	int n = 0;

	for_each_online_cpu(cpu)
		if (cpu_to_node((int)cpu) == nid)
			n++;
	return n;
}

int zone_highsize(struct zone *zone, int batch, int cpu_online, int high_fraction)
{
	int high;
	int nr_split_cpus;
	unsigned long total_pages;

	if (!high_fraction) {
		/*
		 * By default, the high value of the pcp is based on the zone
		 * low watermark so that if they are full then background
		 * reclaim will not be started prematurely.
		 */
		total_pages = low_wmark_pages(zone);
	} else {
		/*
		 * If percpu_pagelist_high_fraction is configured, the high
		 * value is based on a fraction of the managed pages in the
		 * zone.
		 */
		total_pages = zone_managed(zone) / (unsigned long)high_fraction;
	}

	/*
	 * Split the high value across all online CPUs local to the zone. For
	 * memory nodes that have no CPUs, split the high value across all
	 * online CPUs to mitigate the risk that reclaim is triggered
	 * prematurely due to pages stored on pcp lists.
	 */
	nr_split_cpus = node_online_cpus(zone->node) + cpu_online;
	if (!nr_split_cpus)
		nr_split_cpus = (int)num_online_cpus();
	high = (int)(total_pages / (unsigned long)nr_split_cpus);

	/*
	 * Ensure high is at least batch*4. The multiple is based on the
	 * historical relationship between high and batch.
	 */
	high = max(high, batch << 2);

	return high;
}

void zone_pageset_high_and_batch_6_18(struct zone *zone, int cpu_online, int high_fraction,
				      int *high_min, int *high_max, int *batch)
{
	*batch = max(1, zone_batchsize(zone));
	if (high_fraction) {
		*high_min = zone_highsize(zone, *batch, cpu_online, high_fraction);
		/*
		 * PCP high is tuned manually, disable auto-tuning via
		 * setting high_min and high_max to the manual value.
		 */
		*high_max = *high_min;
	} else {
		*high_min = zone_highsize(zone, *batch, cpu_online, 0);
		*high_max = zone_highsize(zone, *batch, cpu_online,
					  MIN_PERCPU_PAGELIST_HIGH_FRACTION);
	}
}
