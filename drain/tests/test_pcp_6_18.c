// SPDX-License-Identifier: GPL-2.0
/*
 * Linux 6.18's per-CPU page lists (kernel/linux-6.18/mm/page_alloc.c) on a 4-CPU, 2-node
 * machine, against what mm/page_alloc.c of 6.18 does worked out by hand:
 * the list index of each order, the watermarks and pageset bounds,
 * nr_pcp_free, nr_pcp_high and nr_pcp_alloc at their edges, high-order
 * frees with and without PCPF_FREE_HIGH_BATCH, 20 frees then 10 allocations traced step by step with
 * pcp->high auto-tuned and fixed, the decay of pcp->high from the vmstat
 * work, step by step, a drain of every CPU, and the allocation fast path
 * of the drain/ cases (alloc_local_page_6_18).
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "test_machine.h"
#include "mmscale/kernel/cpumask.h"
#include "mmscale/kernel/percpu.h"
#include "mmscale/mm/drain_world.h"
#include "mmscale/linux-6.18/mm/page_alloc.h"
#include "mmscale/linux-6.18/mm/pcp.h"
#include "mmscale/linux-6.18/mm/vmstat.h"

#define MACHINE "synthetic:node:2 core:2 pu:1"

static void test_pindex(void)
{
	CHECK_EQ_LL(order_to_pindex_6_18(MIGRATE_UNMOVABLE, 0), 0);
	CHECK_EQ_LL(order_to_pindex_6_18(MIGRATE_RECLAIMABLE, 0), 2);
	CHECK_EQ_LL(order_to_pindex_6_18(MIGRATE_MOVABLE, 3), 10);
	CHECK_EQ_LL(order_to_pindex_6_18(MIGRATE_MOVABLE, HPAGE_PMD_ORDER), 13);
	CHECK_EQ_LL(order_to_pindex_6_18(MIGRATE_RECLAIMABLE, HPAGE_PMD_ORDER), 12);
	CHECK_EQ_LL(pindex_to_order_6_18(11), 3);
	CHECK_EQ_LL(pindex_to_order_6_18(12), HPAGE_PMD_ORDER);
	CHECK_EQ_LL(pindex_to_order_6_18(13), HPAGE_PMD_ORDER);
	CHECK_EQ_LL(NR_PCP_LISTS, 14);
}

static void test_arith(struct zone *zone)
{
	struct per_cpu_pages p;

	memset(&p, 0, sizeof(p));
	/* nr_pcp_free: free_high frees up to batch << 5; high < batch: 1; else clamp. */
	p.count = 100;
	CHECK_EQ_LL(nr_pcp_free_6_18(&p, 2, 8, true), 64);
	p.count = 50;
	CHECK_EQ_LL(nr_pcp_free_6_18(&p, 2, 8, true), 50);
	CHECK_EQ_LL(nr_pcp_free_6_18(&p, 10, 9, false), 1);
	p.free_count = 0;
	CHECK_EQ_LL(nr_pcp_free_6_18(&p, 10, 100, false), 10);
	p.free_count = 50;
	CHECK_EQ_LL(nr_pcp_free_6_18(&p, 10, 100, false), 50);
	p.free_count = 95;
	CHECK_EQ_LL(nr_pcp_free_6_18(&p, 10, 100, false), 90);
	/*
	 * high < 2 x batch (--set pcp_high/pcp_batch can make it): min_nr_free
	 * 10 > max_nr_free 5, and 6.18's __clamp gives max_nr_free only when
	 * free_count reaches it, else min_nr_free.
	 */
	p.free_count = 3;
	CHECK_EQ_LL(nr_pcp_free_6_18(&p, 10, 15, false), 10);
	p.free_count = 7;
	CHECK_EQ_LL(nr_pcp_free_6_18(&p, 10, 15, false), 5);

	/* nr_pcp_high: high clamped into [min, max] first. */
	memset(&p, 0, sizeof(p));
	p.high_min = 8;
	p.high_max = 32;
	p.high = 100;
	p.count = 0;
	CHECK_EQ_LL(nr_pcp_high_6_18(&p, zone, 2, false), 32);
	CHECK_EQ_LL(p.high, 32);
	p.high = 1;
	CHECK_EQ_LL(nr_pcp_high_6_18(&p, zone, 2, false), 8);
	/* free_high: high drops by batch << 5, not below min; 0 returned. */
	p.high = 30;
	CHECK_EQ_LL(nr_pcp_high_6_18(&p, zone, 2, true), 0);
	CHECK_EQ_LL(p.high, 8);
	/* count >= high: high raised to free_count + batch (clamped); the old high returned. */
	p.high = 10;
	p.count = 10;
	p.free_count = 16;
	CHECK_EQ_LL(nr_pcp_high_6_18(&p, zone, 2, false), 10);
	CHECK_EQ_LL(p.high, 18);
	p.free_count = 40;
	p.count = 18;
	nr_pcp_high_6_18(&p, zone, 2, false);
	CHECK_EQ_LL(p.high, 32);
	/* min == max: no tuning. */
	p.high_max = 8;
	p.high = 8;
	p.count = 9;
	CHECK_EQ_LL(nr_pcp_high_6_18(&p, zone, 2, false), 8);
	CHECK_EQ_LL(p.high, 8);
	/* high 0 (a boot pageset): 0. */
	p.high_min = p.high_max = p.high = 0;
	CHECK_EQ_LL(nr_pcp_high_6_18(&p, zone, 2, false), 0);

	/* nr_pcp_alloc: high < batch: 1; order 0 doubles via alloc_factor; high grows by batch. */
	memset(&p, 0, sizeof(p));
	p.batch = 10;
	p.high_min = p.high_max = p.high = 5;
	CHECK_EQ_LL(nr_pcp_alloc_6_18(&p, zone, 0), 1);
	p.high_min = 100;
	p.high_max = 1000;
	p.high = 100;
	CHECK_EQ_LL(nr_pcp_alloc_6_18(&p, zone, 0), 10);	/* af 0 -> 1, high 110 */
	CHECK_EQ_LL(p.high, 110);
	CHECK_EQ_LL(p.alloc_factor, 1);
	CHECK_EQ_LL(nr_pcp_alloc_6_18(&p, zone, 0), 20);	/* af 1 -> 2, high 130 */
	CHECK_EQ_LL(nr_pcp_alloc_6_18(&p, zone, 0), 40);	/* af 2 -> 3, high 170 */
	CHECK_EQ_LL(nr_pcp_alloc_6_18(&p, zone, 0), 80);	/* af 3 -> 4, high 250 */
	CHECK_EQ_LL(nr_pcp_alloc_6_18(&p, zone, 0), 160);	/* af 4 -> 5, high 410 */
	CHECK_EQ_LL(nr_pcp_alloc_6_18(&p, zone, 0), 320);	/* af stays 5, high 730 */
	CHECK_EQ_LL(p.alloc_factor, CONFIG_PCP_BATCH_SCALE_MAX);
	CHECK_EQ_LL(p.high, 730);
	/* capped by what fits: max(high - count - batch, batch) */
	p.count = 700;
	CHECK_EQ_LL(nr_pcp_alloc_6_18(&p, zone, 0), 1000 - 700 - 10);
	/* order 3: the base batch, scaled down by the order, at least 2. */
	p.count = 0;
	CHECK_EQ_LL(nr_pcp_alloc_6_18(&p, zone, 3), 2);	/* 10 >> 3 = 1 -> 2 */
	p.batch = 63;
	CHECK_EQ_LL(nr_pcp_alloc_6_18(&p, zone, 3), 7);
}

/* The CPU 0 pageset of zone with batch 2, high 8..high_max, empty. */
static struct per_cpu_pages *small_pcp(struct zone *zone, int high_max)
{
	struct per_cpu_pages *pcp = this_cpu_ptr(zone->per_cpu_pageset);

	pcp_6_18_reset(zone, 0);
	pcp->batch = 2;
	pcp->high_min = 8;
	pcp->high_max = high_max;
	pcp->high = 8;
	return pcp;
}

/*
 * 20 frees then 10 allocations, order 0, batch 2, high_min 8 (the trace is
 * in the comments). Auto (high_max 32): the 8th free finds count 8 >= high
 * 8, raises high to free_count + batch = 10 and frees clamp(8, 2, 6) = 6;
 * the 16th finds 10 >= 10, raises high to 18, frees clamp(16, 2, 8) = 8;
 * count 6 after 20. Allocations: 6 from the list; the 7th refills
 * nr_pcp_alloc = 2 (high 20, alloc_factor 1), the 9th 4 (high 24, factor
 * 2). Fixed (high 8): frees 6 at the 8th, 14th and 20th free, count 2;
 * allocations refill at the 3rd, 5th and 9th: 2, 4, then batch << 2 = 8
 * capped at max(8 - 0 - 2, 2) = 6, where alloc_factor stops growing (2).
 */
static void test_trace(struct zone *zone)
{
	struct page *pages[20];
	struct per_cpu_pages *pcp;
	u64 locks, moved;

	for (int fixed = 0; fixed < 2; fixed++) {
		pcp = small_pcp(zone, fixed ? 8 : 32);
		CHECK_EQ_LL(pcp_6_18_take(zone, 0, 20, pages), 20);
		locks = test_count(MMSCALE_ZONE_LOCKS);
		moved = test_count(MMSCALE_PAGES_MOVED);
		for (int i = 0; i < 20; i++)
			free_frozen_pages_6_18(zone, pages[i]);
		if (!fixed) {
			CHECK_EQ_LL(test_count(MMSCALE_ZONE_LOCKS) - locks, 2);
			CHECK_EQ_LL(test_count(MMSCALE_PAGES_MOVED) - moved, 14);
			CHECK_EQ_LL(pcp->count, 6);
			CHECK_EQ_LL(pcp->high, 18);
			CHECK_EQ_LL(pcp->free_count, 20);
		} else {
			CHECK_EQ_LL(test_count(MMSCALE_ZONE_LOCKS) - locks, 3);
			CHECK_EQ_LL(test_count(MMSCALE_PAGES_MOVED) - moved, 18);
			CHECK_EQ_LL(pcp->count, 2);
			CHECK_EQ_LL(pcp->high, 8);
		}
		for (int i = 0; i < 10; i++) {
			pages[i] = rmqueue_6_18(zone, 0, MIGRATE_MOVABLE);
			CHECK(pages[i] != NULL);
		}
		if (!fixed) {
			CHECK_EQ_LL(test_count(MMSCALE_ZONE_LOCKS) - locks, 4);
			CHECK_EQ_LL(test_count(MMSCALE_PAGES_MOVED) - moved, 20);
			CHECK_EQ_LL(pcp->count, 2);
			CHECK_EQ_LL(pcp->high, 24);
			CHECK_EQ_LL(pcp->alloc_factor, 2);
		} else {
			/* 2 left: 2 allocations; then refills of 2, 4, 6: the 3rd, 5th and 9th. */
			CHECK_EQ_LL(test_count(MMSCALE_ZONE_LOCKS) - locks, 3 + 3);
			CHECK_EQ_LL(test_count(MMSCALE_PAGES_MOVED) - moved, 18 + 2 + 4 + 6);
			CHECK_EQ_LL(pcp->count, 4);
			CHECK_EQ_LL(pcp->alloc_factor, 2);
		}
		/* Every allocation halved free_count: 20 -> 10 5 2 1 0 ... */
		CHECK_EQ_LL(pcp->free_count, 0);
		/* A free halves alloc_factor. */
		free_frozen_pages_6_18(zone, pages[9]);
		CHECK_EQ_LL(pcp->alloc_factor, 1);
		CHECK_EQ_LL(pcp->free_count, 1);
		pcp_6_18_give_back(zone, pages, 9);
		pcp_6_18_reset(zone, 0);
	}
}

/*
 * decay_pcp_high from high 24 (min 8, batch 2, count 2): high - high / 8
 * each time, 21 19 17 15 14 13 12 11 10 9, each call saying there is more
 * to do; the 11th reaches 8 and says nothing. With 30 pages on the list
 * and high 24: high 21, and the 9 above it freed under the locks.
 */
static void test_decay(struct zone *zone)
{
	static const int steps[] = { 21, 19, 17, 15, 14, 13, 12, 11, 10, 9 };
	struct per_cpu_pages *pcp = small_pcp(zone, 32);
	u64 locks, moved;

	pcp_6_18_fill(zone, 0, 0, 2);
	pcp->high = 24;
	for (size_t i = 0; i < ARRAY_SIZE(steps); i++) {
		CHECK_EQ_LL(decay_pcp_high_6_18(zone, pcp), 1);
		CHECK_EQ_LL(pcp->high, steps[i]);
	}
	CHECK_EQ_LL(decay_pcp_high_6_18(zone, pcp), 0);
	CHECK_EQ_LL(pcp->high, 8);
	CHECK_EQ_LL(decay_pcp_high_6_18(zone, pcp), 0);

	pcp_6_18_fill(zone, 0, 0, 28);
	pcp->high = 24;
	locks = test_count(MMSCALE_ZONE_LOCKS);
	moved = test_count(MMSCALE_PAGES_MOVED);
	CHECK_EQ_LL(decay_pcp_high_6_18(zone, pcp), 2);
	CHECK_EQ_LL(pcp->high, 21);
	CHECK_EQ_LL(pcp->count, 21);
	CHECK_EQ_LL(test_count(MMSCALE_ZONE_LOCKS) - locks, 1);
	CHECK_EQ_LL(test_count(MMSCALE_PAGES_MOVED) - moved, 9);
	/* vmstat_update's refresh_cpu_vm_stats(true) decays it too; (false) does not. */
	refresh_cpu_vm_stats(false);
	CHECK_EQ_LL(pcp->high, 21);
	CHECK(refresh_cpu_vm_stats(true) >= 1);
	CHECK_EQ_LL(pcp->high, 19);
	pcp_6_18_reset(zone, 0);
}

/*
 * 6.18.7's decay_pcp_high (Joshua Hahn's batched freeing), beside 6.18.0's:
 * batch 2, high_min 8, 30 pages on the list and high 24: high falls to
 * max3(30 - 2 << 5, 24 - 3, 8) = 21 in both, and the 9 pages over it go
 * back under one pcp->lock and zone->lock in 6.18.0 but in 5 of each in
 * 6.18.7 (2 + 2 + 2 + 2 + 1), the longest hold 2 pages, not 9; both say
 * there is more to do (true; 6.18.0's count: 2).
 */
static void test_decay_batched(struct zone *zone)
{
	struct per_cpu_pages *pcp = small_pcp(zone, 32);
	u64 zone_locks, locks, moved, maxima[MMSCALE_NR_MAXIMA];

	for (int batched = 0; batched < 2; batched++) {
		small_pcp(zone, 32);
		pcp_6_18_fill(zone, 0, 0, 30);
		pcp->high = 24;
		zone_locks = test_count(MMSCALE_ZONE_LOCKS);
		locks = test_count(MMSCALE_LOCK_ACQUIRES);
		moved = test_count(MMSCALE_PAGES_MOVED);
		mmscale_holds_set_mode(MMSCALE_HOLDS_PAGES);
		if (batched)
			CHECK(decay_pcp_high_6_18_7(zone, pcp));
		else
			CHECK_EQ_LL(decay_pcp_high_6_18(zone, pcp), 2);
		mmscale_maxima_collect_all(maxima);
		mmscale_holds_set_mode(MMSCALE_HOLDS_OFF);
		CHECK_EQ_LL(pcp->high, 21);
		CHECK_EQ_LL(pcp->count, 21);
		CHECK_EQ_LL(test_count(MMSCALE_PAGES_MOVED) - moved, 9);
		CHECK_EQ_LL(test_count(MMSCALE_ZONE_LOCKS) - zone_locks, batched ? 5 : 1);
		CHECK_EQ_LL(test_count(MMSCALE_LOCK_ACQUIRES) - locks, batched ? 10 : 2);
		CHECK_EQ_LL(maxima[MMSCALE_MAX_ZONE_HOLD_PAGES], batched ? 2 : 9);
		/* 6.18's zone->lock is irqsave: the hold is the interrupts-off section. */
		CHECK_EQ_LL(maxima[MMSCALE_MAX_IRQOFF_PAGES], batched ? 2 : 9);
	}
	pcp_6_18_reset(zone, 0);
}

/*
 * Watermarks: 3 GiB over 2 nodes, one 1.5 GiB zone each (393216 pages).
 * min_free_kbytes: sqrt(786432 x 4 x 16) = 7094 KiB, below khugepaged's
 * (2 + 3 x 3) pageblocks of 512 per zone = 11264 pages (under 5% of
 * lowmem) = 45056 KiB; each zone's share 5632 pages is its min, plus
 * max(5632 / 4, 393216 x 10 / 10000) = 1408: low 7040, high 8448. The
 * pageset: batch 63 (256 / 4 = 64, 96 -> 64 - 1), high_min 7040 over the
 * node's 2 CPUs = 3520, high_max 393216 / 8 / 2 = 24576.
 */
static void test_watermarks(void)
{
	for (int nid = 0; nid < 2; nid++) {
		struct zone *z = &NODE_DATA(nid)->node_zones[nid ? ZONE_NORMAL : ZONE_DMA32];

		CHECK_EQ_LL(z->_watermark[WMARK_MIN], 5632);
		CHECK_EQ_LL(z->_watermark[WMARK_LOW], 7040);
		CHECK_EQ_LL(z->_watermark[WMARK_HIGH], 8448);
		CHECK_EQ_LL(z->pageset_batch, 63);
		CHECK_EQ_LL(z->pageset_high_min, 3520);
		CHECK_EQ_LL(z->pageset_high_max, 24576);
	}
}

/*
 * Order-1 frees with batch 4, high 16..64: free_high needs free_count >=
 * batch + high_min / 2 = 12 before the free and the previous free of a
 * high order; with PCPF_FREE_HIGH_BATCH also count >= batch. The 7th free
 * (count 14) drains all 14 pages either way; after it, without the flag
 * every free drains its 2 pages alone (frees 8 to 11: 4 more zone locks),
 * with it only every second one, at count 4 (frees 9 and 11: 2 more).
 */
static void test_free_high(struct zone *zone)
{
	struct page *pages[11];
	u64 locks, moved;

	for (int flag = 0; flag < 2; flag++) {
		struct per_cpu_pages *pcp = small_pcp(zone, 64);

		pcp->batch = 4;
		pcp->high_min = 16;
		pcp->high = 0;
		pcp->flags = flag ? PCPF_FREE_HIGH_BATCH : 0;
		CHECK_EQ_LL(pcp_6_18_take(zone, 1, 11, pages), 11);
		locks = test_count(MMSCALE_ZONE_LOCKS);
		moved = test_count(MMSCALE_PAGES_MOVED);
		for (int i = 0; i < 11; i++)
			free_frozen_pages_6_18(zone, pages[i]);
		CHECK_EQ_LL(test_count(MMSCALE_ZONE_LOCKS) - locks, flag ? 3 : 5);
		CHECK_EQ_LL(test_count(MMSCALE_PAGES_MOVED) - moved, 22);
		CHECK_EQ_LL(pcp->count, 0);
		CHECK_EQ_LL(pcp->high, 16);
		pcp->flags = 0;
		pcp_6_18_reset(zone, 0);
	}
}

/*
 * vmstat_update's pageset work (refresh_cpu_vm_stats(true), vmstat.c
 * 820-880): a zone diff folded sets the pageset's expire to 3; a zone on
 * the CPU's own node then has it cleared, a remote one counts it down one
 * update at a time and at 0 loses min(count, batch) pages
 * (drain_zone_pages).
 */
static void test_expire(void)
{
	struct zone *local = &NODE_DATA(0)->node_zones[ZONE_DMA32];
	struct zone *remote = &NODE_DATA(1)->node_zones[ZONE_NORMAL];
	struct per_cpu_pages *lp = this_cpu_ptr(local->per_cpu_pageset);
	struct per_cpu_pages *rp = this_cpu_ptr(remote->per_cpu_pageset);
	u64 locks;

	pcp_6_18_fill(local, 0, 0, 5);
	pcp_6_18_fill(remote, 0, 0, 5);
	lp->high = lp->high_min;
	rp->high = rp->high_min;
	this_cpu_ptr(local->per_cpu_zonestats)->vm_stat_diff[NR_MLOCK] = 1;
	this_cpu_ptr(remote->per_cpu_zonestats)->vm_stat_diff[NR_MLOCK] = 1;
	locks = test_count(MMSCALE_ZONE_LOCKS);
	refresh_cpu_vm_stats(true);
	CHECK_EQ_LL(lp->expire, 0);
	CHECK_EQ_LL(rp->expire, 2);
	refresh_cpu_vm_stats(true);
	CHECK_EQ_LL(rp->expire, 1);
	CHECK_EQ_LL(rp->count, 5);
	CHECK_EQ_LL(test_count(MMSCALE_ZONE_LOCKS) - locks, 0);
	refresh_cpu_vm_stats(true);
	CHECK_EQ_LL(rp->expire, 0);
	CHECK_EQ_LL(rp->count, 0);
	CHECK_EQ_LL(lp->count, 5);
	CHECK_EQ_LL(test_count(MMSCALE_ZONE_LOCKS) - locks, 1);
	pcp_6_18_reset(local, 0);
	pcp_6_18_reset(remote, 0);
}

/*
 * drain_all_pages: CPU 1's local list with 150 pages at batch 2 drains in
 * rounds of 64 (batch << 5): 3 rounds, 3 zone locks; CPU 3's 5 in one.
 */
static void test_drain(void)
{
	struct zone *z0 = &NODE_DATA(0)->node_zones[ZONE_DMA32];
	struct zone *z1 = &NODE_DATA(1)->node_zones[ZONE_NORMAL];
	u64 locks, drained, all;

	per_cpu_ptr(z0->per_cpu_pageset, 1)->batch = 2;
	CHECK_EQ_LL(pcp_6_18_fill(z0, 1, 0, 150), 150);
	CHECK_EQ_LL(pcp_6_18_fill(z1, 3, 0, 5), 5);
	locks = test_count(MMSCALE_ZONE_LOCKS);
	all = test_count(MMSCALE_LOCK_ACQUIRES);
	drained = test_count(MMSCALE_PAGES_DRAINED);
	drain_all_pages_6_18(NULL);
	CHECK_EQ_LL(test_count(MMSCALE_ZONE_LOCKS) - locks, 3 + 1);
	CHECK_EQ_LL(test_count(MMSCALE_PAGES_DRAINED) - drained, 155);
	/* pcp locks: CPU 1: its 3 rounds and node 1's empty zone; CPU 3: 1 round, node 0's zone. */
	CHECK_EQ_LL(test_count(MMSCALE_LOCK_ACQUIRES) - all, (3 + 1) + (1 + 1) + 3 + 1);
	CHECK_EQ_LL(per_cpu_ptr(z0->per_cpu_pageset, 1)->count, 0);
	CHECK_EQ_LL(per_cpu_ptr(z1->per_cpu_pageset, 3)->count, 0);
	/* Nothing anywhere: no lock at all. */
	all = test_count(MMSCALE_LOCK_ACQUIRES);
	drain_all_pages_6_18(NULL);
	CHECK_EQ_LL(test_count(MMSCALE_LOCK_ACQUIRES) - all, 0);
}

static unsigned long numa_event(struct zone *zone, enum numa_stat_item item)
{
	return this_cpu_ptr(zone->per_cpu_zonestats)->vm_numa_event[item];
}

/*
 * alloc_local_page_6_18, get_page_from_freelist's fast path on CPU 0's
 * local zone (node 0's DMA32): zone_statistics counts NUMA_HIT and
 * NUMA_LOCAL on this CPU, no fold; ZONE_BOOSTED_WATERMARK is cleared;
 * ZONE_BELOW_HIGH, or NR_FREE_PAGES at the high watermark (the fast check
 * wants more), is where the emulation stops (the kernel would go on to
 * check the low watermark: kernel/linux-6.18/mm/page_alloc.c says why it does not), and one page
 * more passes.
 */
static void test_alloc_local(void)
{
	struct zone *zone = local_zone_6_18(smp_processor_id());
	unsigned long hit = numa_event(zone, NUMA_HIT), local = numa_event(zone, NUMA_LOCAL);
	unsigned long other = numa_event(zone, NUMA_OTHER);
	long free = atomic_long_read(&zone->vm_stat[NR_FREE_PAGES]);
	long high = (long)wmark_pages(zone, WMARK_HIGH);
	struct page *page;

	CHECK(zone == &NODE_DATA(0)->node_zones[ZONE_DMA32]);
	page = alloc_local_page_6_18();
	CHECK(page != NULL);
	CHECK_EQ_LL(numa_event(zone, NUMA_HIT) - hit, 1);
	CHECK_EQ_LL(numa_event(zone, NUMA_LOCAL) - local, 1);
	CHECK_EQ_LL(numa_event(zone, NUMA_OTHER) - other, 0);
	free_frozen_pages_6_18(zone, page);

	set_bit(ZONE_BOOSTED_WATERMARK, &zone->flags);
	page = alloc_local_page_6_18();
	CHECK(page != NULL && !test_bit(ZONE_BOOSTED_WATERMARK, &zone->flags));
	free_frozen_pages_6_18(zone, page);

	set_bit(ZONE_BELOW_HIGH, &zone->flags);
	CHECK(alloc_local_page_6_18() == NULL);
	clear_bit(ZONE_BELOW_HIGH, &zone->flags);

	free = atomic_long_read(&zone->vm_stat[NR_FREE_PAGES]);
	CHECK(free > high + 1);
	atomic_long_set(&zone->vm_stat[NR_FREE_PAGES], high);
	CHECK(alloc_local_page_6_18() == NULL);
	atomic_long_set(&zone->vm_stat[NR_FREE_PAGES], high + 1);
	page = alloc_local_page_6_18();
	CHECK(page != NULL);
	free_frozen_pages_6_18(zone, page);
	atomic_long_set(&zone->vm_stat[NR_FREE_PAGES], free);
	CHECK_EQ_LL(numa_event(zone, NUMA_HIT) - hit, 3);
}

/*
 * The drain/ cases' 6.18 world (kernel/linux-6.18/world/drain.c) on a fresh machine:
 * conserved at first; a page allocated and kept, or NR_FREE_PAGES one off
 * what the lists leave free, is each found.
 */
static void test_world(void)
{
	struct mm_machine_config cfg;
	struct zone *zone;
	char err[256];
	void *page;

	mm_config_default(&cfg, 3ULL << 30);
	CHECK_MSG(drain_world_6_18.setup(&cfg, err, sizeof(err)) == 0, "%s", err);
	CHECK_EQ_LL(drain_world_6_18.populated_zones(), 2);
	CHECK_MSG(drain_world_6_18.conserved(err, sizeof(err)) == 0, "%s", err);
	page = drain_world_6_18.alloc_local();
	CHECK(page != NULL && drain_world_6_18.pages_on_lists() > 0);
	CHECK(drain_world_6_18.conserved(err, sizeof(err)) != 0);
	drain_world_6_18.free_local(page);
	CHECK_MSG(drain_world_6_18.conserved(err, sizeof(err)) == 0, "%s", err);
	zone = local_zone_6_18(smp_processor_id());
	zone_page_state_add(1, zone, NR_FREE_PAGES);
	CHECK(drain_world_6_18.conserved(err, sizeof(err)) != 0 &&
	      strstr(err, "NR_FREE_PAGES") != NULL);
	zone_page_state_add(-1, zone, NR_FREE_PAGES);
	drain_all_pages_6_18_all_zones();
	CHECK(drain_world_6_18.pages_on_lists() == 0);
	CHECK_MSG(drain_world_6_18.conserved(err, sizeof(err)) == 0, "%s", err);

	/*
	 * The pool: 1024 pages and, for each of the node's 2 CPUs, room for
	 * high_max + 2 x batch; CPU 0 gets every one of them, then NULL.
	 */
	{
		struct per_cpu_pages *pcp = this_cpu_ptr(zone->per_cpu_pageset);
		long want = 1024 + 2L * (pcp->high_max + 2 * pcp->batch), got = 0;
		void **pages = calloc((size_t)want + 1, sizeof(*pages));

		CHECK(pages != NULL);
		while (pages && got <= want && (pages[got] = drain_world_6_18.alloc_local()))
			got++;
		CHECK_EQ_LL(got, want);
		while (got > 0)
			drain_world_6_18.free_local(pages[--got]);
		free(pages);
		CHECK_MSG(drain_world_6_18.conserved(err, sizeof(err)) == 0, "%s", err);
	}
	drain_world_6_18.teardown();
}

/*
 * --set percpu_pagelist_high_fraction, as its sysctl: every zone's
 * high_min and high_max are zone_highsize's at that fraction, the same
 * (no auto-tuning), where at 0 they differ (the low watermark's share and
 * fraction 8's).
 */
static void test_high_fraction(void)
{
	static const long long fractions[] = { MM_KNOB_AUTO, 0, 8, 100000 };
	struct pcp_6_18_config pc = { .orders = { 0 }, .nr_orders = 1, .nr_blocks = 16 };
	char err[256];

	for (size_t i = 0; i < sizeof(fractions) / sizeof(fractions[0]); i++) {
		struct mm_machine_config cfg;
		struct zone *zone;
		bool tuned = fractions[i] == MM_KNOB_AUTO || fractions[i] == 0;

		mm_config_default(&cfg, 3ULL << 30);
		cfg.percpu_pagelist_high_fraction = fractions[i];
		if (vmstat_6_18_setup(&cfg, err, sizeof(err)) != 0 ||
		    pcp_6_18_setup(&pc, err, sizeof(err)) != 0) {
			CHECK_MSG(0, "setup at fraction %lld: %s", fractions[i], err);
			vmstat_6_18_teardown();
			continue;
		}
		for_each_populated_zone(zone) {
			int batch = zone_batchsize(zone);
			int want_min = zone_highsize(zone, batch, 0, tuned ? 0 : (int)fractions[i]);
			int want_max = tuned ? zone_highsize(zone, batch, 0,
							     MIN_PERCPU_PAGELIST_HIGH_FRACTION)
					     : want_min;

			CHECK_MSG(zone->pageset_high_min == want_min &&
				  zone->pageset_high_max == want_max &&
				  (want_min != want_max) == tuned,
				  "fraction %lld, zone %s: high_min %d high_max %d, want %d and %d",
				  fractions[i], zone->name, zone->pageset_high_min,
				  zone->pageset_high_max, want_min, want_max);
		}
		pcp_6_18_teardown();
		vmstat_6_18_teardown();
	}
}

/*
 * --set pcp_batch, pcp_high and pcp_high_max over 6.18's sizing: every
 * zone's batch, high_min and high_max; high_min = high_max stops the
 * tuning; batch above high_min, or high_min above high_max, is refused.
 */
static void test_pcp_knobs(void)
{
	static const struct {
		long long batch, high, high_max;
		bool ok;
	} rows[] = {
		{ 7, 500, 900, true },
		{ 7, 500, 500, true },
		{ 501, 500, MM_KNOB_AUTO, false },
		{ MM_KNOB_AUTO, 900, 500, false },
	};
	struct pcp_6_18_config pc = { .orders = { 0 }, .nr_orders = 1, .nr_blocks = 16 };
	char err[256];

	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct mm_machine_config cfg;
		struct zone *zone;
		int rc;

		mm_config_default(&cfg, 3ULL << 30);
		cfg.pcp_batch = rows[i].batch;
		cfg.pcp_high = rows[i].high;
		cfg.pcp_high_max = rows[i].high_max;
		if (vmstat_6_18_setup(&cfg, err, sizeof(err)) != 0) {
			CHECK_MSG(0, "setup: %s", err);
			return;
		}
		rc = pcp_6_18_setup(&pc, err, sizeof(err));
		CHECK_MSG((rc == 0) == rows[i].ok, "pcp knobs row %zu: %s", i, rc ? err : "set up");
		if (rc == 0) {
			for_each_populated_zone(zone)
				CHECK_MSG(zone->pageset_batch == rows[i].batch &&
					  zone->pageset_high_min == rows[i].high &&
					  zone->pageset_high_max == rows[i].high_max,
					  "pcp knobs row %zu, zone %s: batch %d high_min %d high_max %d", i,
					  zone->name, zone->pageset_batch, zone->pageset_high_min,
					  zone->pageset_high_max);
			pcp_6_18_teardown();
		}
		vmstat_6_18_teardown();
	}
}

static void tests(void)
{
	struct pcp_6_18_config pc = { .orders = { 0, 1 }, .nr_orders = 2, .nr_blocks = 400 };
	char err[256];
	struct zone *zone;
	struct mm_machine_config cfg;

	test_pindex();
	mm_config_default(&cfg, 3ULL << 30);
	if (vmstat_6_18_setup(&cfg, err, sizeof(err)) != 0 ||
	    pcp_6_18_setup(&pc, err, sizeof(err)) != 0) {
		CHECK_MSG(0, "setup: %s", err);
		return;
	}
	zone = &NODE_DATA(0)->node_zones[ZONE_DMA32];
	test_watermarks();
	test_arith(zone);
	test_free_high(zone);
	test_trace(zone);
	test_decay(zone);
	test_decay_batched(zone);
	test_expire();
	test_drain();
	test_alloc_local();
	CHECK_MSG(pcp_6_18_check(err, sizeof(err)) == 0, "%s", err);
	/* The check fails when a block goes missing. */
	{
		struct page *lost;

		CHECK_EQ_LL(pcp_6_18_take(zone, 0, 1, &lost), 1);
		CHECK(pcp_6_18_check(err, sizeof(err)) != 0);
		pcp_6_18_give_back(zone, &lost, 1);
	}
	pcp_6_18_teardown();
	vmstat_6_18_teardown();
	test_world();
	test_high_fraction();
	test_pcp_knobs();
	/*
	 * Every lock 6.18's pcp code took here (spin_lock, and the trylock of
	 * its allocations and frees) is a queued spinlock, counted as one: the
	 * row's lock kind the projection reads (opcount.h).
	 */
	CHECK(test_count(MMSCALE_LOCK_ACQUIRES) > 0);
	CHECK_EQ_LL(test_count(MMSCALE_QUEUED_LOCK_ACQUIRES), test_count(MMSCALE_LOCK_ACQUIRES));
}

int main(void)
{
	return test_machine_main("test_pcp_6_18", MACHINE, tests);
}
