// SPDX-License-Identifier: GPL-2.0
/*
 * drain_all_pages() after commit 443c2accd1b6 ("mm/page_alloc: remotely
 * drain per-cpu lists", Nicolas Saenz Julienne, v6.1): each per-CPU list
 * has a spinlock, so the caller drains the lists of the CPUs that have
 * pages itself, one after the other, with no IPI and no work item. The
 * price moves to the fast paths: every allocation and free to a pcp list
 * takes that (normally uncontended) lock.
 *
 * So this variant also runs 6.1's order-0 allocator paths (6.1-rc7
 * mm/page_alloc.c, identical in 6.1.20 but for __free_pages): rmqueue ->
 * rmqueue_pcplist takes the lock with pcp_spin_trylock_irqsave and, when a
 * drain holds it, falls back to rmqueue_buddy under zone->lock;
 * free_unref_page likewise falls back to free_one_page; when a free brings
 * pcp->count to pcp->high, free_unref_page_commit frees nr_pcp_free()
 * pages: batch << free_factor, clamped to [batch, high - batch], and
 * free_factor grows by one while that is below high - batch; every
 * allocation halves free_factor. 6.1's free_pcppages_bulk lowers
 * pcp->count page by page and its __free_one_page accounts NR_FREE_PAGES
 * per page. free_factor lives in struct per_cpu_pageset here (see
 * include/mmscale/linux-2.6/mm/mmzone.h: the 2.6.x pcp line has no room for it).
 *
 * On 6.1's struct zone (mm/mmzone.h: the pageset pointer and node on line
 * 1, zone->lock alone on line 22, flags on line 21, vm_stat on 24) and with
 * 6.1's pcp->batch and ->high (drain_mm_setup: from the zone's size and its
 * low watermark over the node's CPUs). On every order-0 allocation:
 * get_page_from_freelist's zone_watermark_fast (lines 4047-4070, with
 * __zone_watermark_unusable_free 3947-3967: vm_stat[NR_FREE_PAGES],
 * nr_reserved_highatomic, the low watermark and its boost, lowmem_reserve;
 * a movable allocation has ALLOC_CMA, so NR_FREE_CMA_PAGES is not read
 * there, but __rmqueue's CMA balancing reads it for every page: below),
 * rmqueue's test of ZONE_BOOSTED_WATERMARK in zone->flags (3857), and
 * zone_statistics' per-CPU NUMA events (3673-3694: __count_numa_events, no
 * fold); on every free, nr_pcp_high's test of ZONE_RECLAIM_ACTIVE (3432).
 * Neither flag is ever set here (no reclaim, no boosting); the emulated
 * watermarks are 0 (drain_mm_setup says why), so the fast check passes.
 *
 * Order 0 only: pindex is the migratetype, and the round robin runs over
 * MIGRATE_PCPTYPES lists, not NR_PCP_LISTS (the empty higher-order lists
 * would only be probed and skipped). Left out as inert here: isolated
 * pageblocks (has_isolate_pageblock, read under zone->lock), the
 * check_new_page(s) retries, the cpuset and dirty-page checks of
 * get_page_from_freelist. Not 6.1's: the ticket lock (6.1 has qspinlock)
 * and the vm events (PGALLOC, PGFREE: per-CPU, not emulated by any variant).
 */
#include "mmscale/kernel/mutex.h"
#include "mmscale/linux-2.6/mm/page_alloc.h"

#include "drain_6_1.h"
#include "drain_variants.h"

static DEFINE_MUTEX(pcpu_drain_mutex);

/* 6.1's __free_one_page accounts the page itself (__mod_zone_freepage_state). */
static void __free_one_page_6_1(struct page *page, struct zone *zone, int migratetype)
{
	__mod_zone_page_state(zone, NR_FREE_PAGES, 1);
	__free_one_page(page, zone, 0, migratetype);
}

/*
 * Frees a number of pages from the PCP lists
 * Assumes all pages on list are in same zone.
 * count is the number of pages to free.
 */
void free_pcppages_bulk_6_1(struct zone *zone, int count, struct per_cpu_pages *pcp,
			    int pindex)
{
	int min_pindex = 0;
	int max_pindex = MIGRATE_PCPTYPES - 1;	/* NR_PCP_LISTS - 1: order 0 only */
	struct page *page;

	/*
	 * Ensure proper count is passed which otherwise would stuck in the
	 * below while (list_empty(list)) loop.
	 */
	count = min(pcp->count, count);

	/* Ensure requested pindex is drained first. */
	pindex = pindex - 1;

	/* Caller must hold IRQ-safe pcp->lock so IRQs are disabled. */
	spin_lock_zone(zone);

	while (count > 0) {
		struct list_head *list;

		/* Remove pages from lists in a round-robin fashion. */
		do {
			if (++pindex > max_pindex)
				pindex = min_pindex;
			list = &pcp->lists[pindex];
			if (!list_empty(list))
				break;

			if (pindex == max_pindex)
				max_pindex--;
			if (pindex == min_pindex)
				min_pindex++;
		} while (1);

		do {
			int mt;

			page = list_last_entry(list, struct page, lru);
			mt = (int)page_private(page);

			/* must delete to avoid corrupting pcp list */
			list_del(&page->lru);
			count -= 1;
			WRITE_ONCE(pcp->count, pcp->count - 1);

			__free_one_page_6_1(page, zone, mt);
			mmscale_count_inc(MMSCALE_PAGES_MOVED);
		} while (count > 0 && !list_empty(list));
	}

	spin_unlock_zone(zone);
}

static void free_one_page(struct zone *zone, struct page *page, int migratetype)
{
	unsigned long flags;

	spin_lock_zone_irqsave(zone, flags);
	__free_one_page_6_1(page, zone, migratetype);
	spin_unlock_zone_irqrestore(zone, flags);
}


/*
 * Drain pcplists of the indicated processor and zone.
 */
static void drain_pages_zone(unsigned int cpu, struct zone *zone)
{
	struct per_cpu_pages *pcp;

	pcp = &zone_pcp(zone, cpu)->pcp;
	if (READ_ONCE(pcp->count)) {
		unsigned long flags;

		/* See drain_zone_pages on why this is disabling IRQs */
		spin_lock_irqsave(&pcp->lock, flags);
		mmscale_count_add(MMSCALE_PAGES_DRAINED, (u64)pcp->count);	/* thread-local: no store the kernel makes */
		free_pcppages_bulk_6_1(zone, pcp->count, pcp, 0);
		spin_unlock_irqrestore(&pcp->lock, flags);
	}
}

/*
 * Drain pcplists of all zones on the indicated processor (with the
 * drain_pages_zone of the row's kernel: 6.1's, or 6.6's in chunks).
 */
static void drain_pages(unsigned int cpu, void (*zone_drain)(unsigned int, struct zone *))
{
	struct zone *zone;

	for_each_populated_zone(zone) {
		zone_drain(cpu, zone);
	}
}

void __drain_all_pages_6_1(void (*zone_drain)(unsigned int cpu, struct zone *zone))
{
	unsigned int cpu;
	struct zone *zone;
	/* One mask, as the kernel's: every caller writes it, under pcpu_drain_mutex. */
	static cpumask_t cpus_with_pcps;

	/*
	 * Do not drain if one is already in progress unless it's specific to
	 * a zone. Such callers are primarily CMA and memory hotplug and need
	 * the drain to be complete when the call returns.
	 */
	if (unlikely(!mutex_trylock(&pcpu_drain_mutex))) {
		mmscale_count_inc(MMSCALE_DRAINS_SKIPPED);
		return;
	}

	/*
	 * We don't care about racing with CPU hotplug event
	 * as offline notification will cause the notified
	 * cpu to drain that CPU pcps and on_each_cpu_mask
	 * disables preemption as part of its processing
	 */
	for_each_online_cpu(cpu) {
		struct per_cpu_pages *pcp;
		bool has_pcps = false;

		for_each_populated_zone(zone) {
			pcp = &zone_pcp(zone, cpu)->pcp;
			if (READ_ONCE(pcp->count)) {
				has_pcps = true;
				break;
			}
		}

		if (has_pcps)
			cpumask_set_cpu(cpu, &cpus_with_pcps);
		else
			cpumask_clear_cpu(cpu, &cpus_with_pcps);
	}

	for_each_cpu(cpu, &cpus_with_pcps) {
		drain_pages(cpu, zone_drain);
	}

	mutex_unlock(&pcpu_drain_mutex);
}

static int nr_pcp_free(struct per_cpu_pages *pcp, int high, int batch)
{
	short *free_factor = &container_of(pcp, struct per_cpu_pageset, pcp)->free_factor;
	int min_nr_free, max_nr_free;

	/* (free_high, the high-order case, is never true for order 0.) */

	/* Check for PCP disabled or boot pageset */
	if (unlikely(high < batch))
		return 1;

	/* Leave at least pcp->batch pages on the list */
	min_nr_free = batch;
	max_nr_free = high - batch;

	/*
	 * Double the number of pages freed each time there is subsequent
	 * freeing of pages without any allocation.
	 */
	batch <<= *free_factor;
	if (batch < max_nr_free)
		(*free_factor)++;
	batch = min(max(batch, min_nr_free), max_nr_free);	/* clamp() */

	return batch;
}

/* Lines 3424-3440 (free_high, the high-order case, is false for order 0). */
static int nr_pcp_high(struct per_cpu_pages *pcp, struct zone *zone)
{
	int high = READ_ONCE(pcp->high);

	if (unlikely(!high))
		return 0;

	if (!test_bit(ZONE_RECLAIM_ACTIVE, &zone_flags(zone)))
		return high;

	/*
	 * If reclaim is active, limit the number of pages that can be
	 * stored on pcp lists
	 */
	return min(READ_ONCE(pcp->batch) << 2, high);
}

static void free_unref_page_commit(struct zone *zone, struct per_cpu_pages *pcp,
				   struct page *page, int migratetype)
{
	int high;
	int pindex = migratetype;	/* order_to_pindex(migratetype, 0) */

	list_add(&page->lru, &pcp->lists[pindex]);
	page->where = smp_processor_id();
	WRITE_ONCE(pcp->count, pcp->count + 1);

	high = nr_pcp_high(pcp, zone);
	if (pcp->count >= high) {
		int batch = READ_ONCE(pcp->batch);

		free_pcppages_bulk_6_1(zone, nr_pcp_free(pcp, high, batch), pcp, pindex);
	}
}

/*
 * Free a pcp page
 */
static void free_unref_page(struct page *page)
{
	unsigned long flags;
	struct per_cpu_pages *pcp;
	struct zone *zone;
	int migratetype;

	/* free_unref_page_prepare: get_pfnblock_migratetype (all movable here) */
	migratetype = MIGRATE_MOVABLE;
	set_page_private(page, (unsigned long)migratetype);

	zone = page_zone(page);
	local_irq_save(flags);		/* pcp_spin_trylock_irqsave */
	pcp = &zone_this_pcp(zone)->pcp;
	if (spin_trylock(&pcp->lock)) {
		free_unref_page_commit(zone, pcp, page, migratetype);
		spin_unlock(&pcp->lock);
		local_irq_restore(flags);
	} else {
		local_irq_restore(flags);
		free_one_page(zone, page, migratetype);
	}
}

/*
 * __rmqueue of 6.1 (lines 3086-3100) with CONFIG_CMA and a movable
 * allocation's ALLOC_CMA: before every page, under zone->lock, it balances
 * against the CMA area, reading zone_page_state(zone, NR_FREE_CMA_PAGES)
 * (6.1's zone item 10: byte 1616 of vm_stat at 1536, line 25) and
 * NR_FREE_PAGES (line 24, which every CPU's folds write). The emulated
 * zone keeps 2.6.31's item numbering, whose slot 10 (NR_FILE_DIRTY) no
 * drain path writes: it reads 0, as a zone without a CMA area has, so the
 * CMA fallback is never taken, as in the kernel on such a zone.
 */
static struct page *__rmqueue_6_1(struct zone *zone, int migratetype)
{
	unsigned long cma = zone_page_state(zone, NR_FREE_CMA_PAGES_6_1);

	if (cma > zone_page_state(zone, NR_FREE_PAGES) / 2) {
		/* __rmqueue_cma_fallback: no CMA page here, on to __rmqueue_smallest */
	}
	return __rmqueue(zone, 0, migratetype);
}

/* rmqueue_bulk of 6.1: pages go to the list's tail, NR_FREE_PAGES once for all. */
static int rmqueue_bulk(struct zone *zone, unsigned long count, struct list_head *list,
			int migratetype)
{
	int i, allocated = 0;

	/* Caller must hold IRQ-safe pcp->lock so IRQs are disabled. */
	spin_lock_zone(zone);
	for (i = 0; i < (int)count; ++i) {
		struct page *page = __rmqueue_6_1(zone, migratetype);
		if (unlikely(page == NULL))
			break;

		/*
		 * Split buddy pages returned by expand() are received here in
		 * physical page order. The page is added to the tail of
		 * caller's list. (check_pcp_refill never fails here.)
		 */
		list_add_tail(&page->lru, list);
		set_page_private(page, (unsigned long)migratetype);
		page->where = smp_processor_id();
		allocated++;
		mmscale_count_inc(MMSCALE_PAGES_MOVED);
	}

	/*
	 * i pages were removed from the buddy list even if some leak due
	 * to check_pcp_refill failing so adjust NR_FREE_PAGES based
	 * on i.
	 */
	__mod_zone_page_state(zone, NR_FREE_PAGES, -i);
	spin_unlock_zone(zone);
	return allocated;
}

/*
 * zone_statistics (lines 3673-3694): the events counted on this CPU's own
 * zonestats (__count_numa_events: raw_cpu_add, no threshold, no fold),
 * each zone's node read from its struct zone; none while vm_numa_stat_key
 * is off (--set numa_stat=0, read at drain_mm_setup; a plain bool where
 * the kernel patches a jump).
 */
static void __count_numa_events(struct zone *zone, enum numa_stat_item item, long delta)
{
	struct per_cpu_pageset *pzstats = zone_this_pcp(zone);	/* zone->per_cpu_zonestats */

	pzstats->vm_numa_event[item] += (unsigned long)delta;
}

static void zone_statistics_6_1(struct zone *preferred_zone, struct zone *z, long nr_account)
{
	enum numa_stat_item local_stat = NUMA_LOCAL_6_1;

	/* skip numa counters update if numa stats is disabled */
	if (!vm_numa_stat_key_6_1)
		return;

	if (zone_to_nid(z) != numa_node_id())
		local_stat = NUMA_OTHER_6_1;

	if (zone_to_nid(z) == zone_to_nid(preferred_zone))
		__count_numa_events(z, NUMA_HIT_6_1, nr_account);
	else {
		__count_numa_events(z, NUMA_MISS_6_1, nr_account);
		__count_numa_events(preferred_zone, NUMA_FOREIGN_6_1, nr_account);
	}
	__count_numa_events(z, local_stat, nr_account);
}

static struct page *rmqueue_buddy(struct zone *preferred_zone, struct zone *zone,
				  int migratetype)
{
	struct page *page;
	unsigned long flags;

	spin_lock_zone_irqsave(zone, flags);
	page = __rmqueue_6_1(zone, migratetype);
	if (!page) {
		spin_unlock_zone_irqrestore(zone, flags);
		return NULL;
	}
	__mod_zone_page_state(zone, NR_FREE_PAGES, -1);	/* __mod_zone_freepage_state */
	spin_unlock_zone_irqrestore(zone, flags);

	page->where = PAGE_HELD;
	zone_statistics_6_1(preferred_zone, zone, 1);
	return page;
}

/* Remove page from the per-cpu list, caller must protect the list */
static struct page *__rmqueue_pcplist(struct zone *zone, int migratetype,
				      struct per_cpu_pages *pcp, struct list_head *list)
{
	struct page *page;

	if (list_empty(list)) {
		int batch = READ_ONCE(pcp->batch);
		int alloced;

		/* (6.1 scales batch by order: batch >> 0 for order 0.) */
		if (batch > 1)
			batch = max(batch, 2);
		alloced = rmqueue_bulk(zone, (unsigned long)batch, list, migratetype);

		WRITE_ONCE(pcp->count, pcp->count + alloced);
		if (unlikely(list_empty(list)))
			return NULL;
	}

	page = list_first_entry(list, struct page, lru);
	list_del(&page->lru);
	WRITE_ONCE(pcp->count, pcp->count - 1);
	return page;
}

/* Lock and remove page from the per-cpu list */
static struct page *rmqueue_pcplist(struct zone *preferred_zone, struct zone *zone,
				    int migratetype)
{
	struct per_cpu_pages *pcp;
	struct list_head *list;
	struct page *page;
	unsigned long flags;

	/*
	 * spin_trylock may fail due to a parallel drain. In the future, the
	 * trylock will also protect against IRQ reentrancy.
	 */
	local_irq_save(flags);		/* pcp_spin_trylock_irqsave */
	pcp = &zone_this_pcp(zone)->pcp;
	if (!spin_trylock(&pcp->lock)) {
		local_irq_restore(flags);
		return NULL;
	}

	/*
	 * On allocation, reduce the number of pages that are batch freed.
	 * See nr_pcp_free() where free_factor is increased for subsequent
	 * frees.
	 */
	container_of(pcp, struct per_cpu_pageset, pcp)->free_factor >>= 1;
	list = &pcp->lists[migratetype];	/* order_to_pindex(migratetype, 0) */
	page = __rmqueue_pcplist(zone, migratetype, pcp, list);
	spin_unlock(&pcp->lock);
	local_irq_restore(flags);
	if (page) {
		page->where = PAGE_HELD;
		zone_statistics_6_1(preferred_zone, zone, 1);
	}
	return page;
}

/*
 * get_page_from_freelist's watermark test before it calls rmqueue:
 * zone_watermark_fast (lines 4047-4070) for order 0, mark =
 * wmark_pages(zone, ALLOC_WMARK_LOW) (its _watermark[] and watermark_boost)
 * and lowmem_reserve[ZONE_NORMAL] (6.1's zone index 2); a movable
 * allocation has ALLOC_CMA (gfp_to_alloc_flags_cma), so
 * __zone_watermark_unusable_free reads nr_reserved_highatomic only.
 * Beyond the fast check lies reclaim, not emulated: it fails the run.
 */
#define ZONE_NORMAL_6_1	2

static bool zone_watermark_fast(struct zone *z, unsigned long mark, int highest_zoneidx)
{
	long free_pages, usable_free, reserved;
	long x = atomic_long_read(&zone_vm_stat(z)[NR_FREE_PAGES]);	/* zone_page_state */

	free_pages = x < 0 ? 0 : x;
	usable_free = free_pages;
	reserved = (long)zone_nr_reserved_highatomic(z);	/* (1 << 0) - 1 = 0, !alloc_harder */
	/* reserved may over estimate high-atomic reserves. */
	usable_free -= min(usable_free, reserved);
	return usable_free > (long)mark + zone_lowmem_reserve(z)[highest_zoneidx];
}

/* rmqueue for order 0 (pcp_allowed_order; no CMA), after the watermark test. */
static struct page *rmqueue(struct zone *preferred_zone, struct zone *zone, int migratetype)
{
	unsigned long mark = zone_watermark(zone)[WMARK_LOW] + zone_watermark_boost(zone);
	struct page *page;

	if (!zone_watermark_fast(zone, mark, ZONE_NORMAL_6_1))
		return NULL;	/* reclaim: not emulated (the caller fails the run) */

	page = rmqueue_pcplist(preferred_zone, zone, migratetype);
	if (likely(page))
		goto out;

	page = rmqueue_buddy(preferred_zone, zone, migratetype);
out:
	/* Separate test+clear to avoid unnecessary atomics */
	if (unlikely(test_bit(ZONE_BOOSTED_WATERMARK, &zone_flags(zone))))
		clear_bit(ZONE_BOOSTED_WATERMARK, &zone_flags(zone));	/* (wakeup_kswapd) */
	return page;
}

static void drain_all_pages(void)
{
	__drain_all_pages_6_1(drain_pages_zone);
}

const struct drain_machine_2_6 drain_machine_6_1 = {
	.free_pcppages_bulk = NULL,	/* its own, called from its own free path */
	.rmqueue = rmqueue,
	.free_page = free_unref_page,
	.zone_layout = MM_ZONE_LAYOUT_6_1,
};

/*
 * No call at all: the caller drains every CPU with pages itself; for each
 * list that holds pages, drain_pages_zone takes pcp->lock and
 * free_pcppages_bulk_6_1 zone->lock under it, and frees the list whole
 * with interrupts off (pcp->lock's irqsave).
 */
static void drain_claim(const struct drain_shape *m, struct drain_cost *c)
{
	c->locks = 2UL * m->lists_with_pages;
	c->locked_ops = 2 + m->cpus + c->locks;	/* the mutex, the mask's bitops, the locks */
	c->call_targets = 0;
	c->zone_locks = m->lists_with_pages;
	c->zone_hold_pages_max = m->list_pages_max;
	c->irqoff_pages_max = m->list_pages_max;
}

const struct drain_variant_ops drain_ops_remote = {
	.drain_all_pages = drain_all_pages,
	.smp = &smp_llist,	/* 6.1 (no IPI here) */
	.claim = drain_claim,
	.machine = &drain_machine_6_1,
};
