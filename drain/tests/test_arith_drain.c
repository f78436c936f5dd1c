// SPDX-License-Identifier: GPL-2.0
/*
 * Exact arithmetic of the per-CPU page lists and of the emulated IPIs
 * (issue 14): scripted sequences whose every effect is worked out by hand
 * from the kernel source (../shared/kernel/2.6.38/mm/page_alloc.c:
 * free_pcppages_bulk, rmqueue_bulk, buffered_rmqueue, free_hot_cold_page,
 * drain_pages; 3.4/mm/page_alloc.c for free_pcppages_bulk's
 * "batch_free = to_free" line; 6.1-rc7/mm/page_alloc.c for the remote
 * variant's rmqueue_pcplist, free_unref_page, nr_pcp_free and their
 * trylock fallbacks; 2.6.38 and 3.4 kernel/smp.c) and asserted
 * exactly: which page is taken from which list end in which order, what is
 * left on each list, pcp->count, the zone's free count and NR_FREE_PAGES,
 * and the lock, page, IPI counts (include/mmscale/opcount.h).
 *
 * Pages are named so that a derivation reads as a list: in the hand-made
 * fills of part 1, A0..A2 are on list 0 (MIGRATE_UNMOVABLE), B0 on list 1
 * (MIGRATE_RECLAIMABLE), C0..C4 on list 2 (MIGRATE_MOVABLE), each list
 * written head first (A0 at the head, A2 at the tail). In part 2, Zi is the
 * i-th page of the zone's free list, from its head, at the start.
 *
 * The machine is test_drain.c's: 4 CPUs, 3 GiB over 2 nodes (node 0 has
 * CPUs 0-1 and ZONE_DMA32, node 1 CPUs 2-3 and ZONE_NORMAL); everything of
 * parts 1 and 2 runs on CPU 0 and its DMA32 pcp.
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "check.h"
#include "test_machine.h"
#include "mmscale/cpu.h"
#include "mmscale/doorbell.h"
#include "mmscale/kernel/cpumask.h"
#include "mmscale/kernel/processor.h"
#include "mmscale/kernel/smp.h"
#include "mmscale/linux-2.6/mm/page_alloc.h"
#include "mmscale/notice.h"
#include "mmscale/opcount.h"

#define CPUS	4

/*
 * drain_ops_count_check: plain 2.6.38 free_pcppages_bulk and drain_pages
 * (with the pcp->count check); drain_ops_remote: 6.1's allocator paths
 * (pcp_spin_trylock_irqsave, nr_pcp_free, free_pcppages_bulk).
 */
#include "../drain_variants.h"
#include "drain_test.h"

/* ---- page names ---- */

#define A(i)	(i)
#define B(i)	(10 + (i))
#define C(i)	(20 + (i))
#define NONE	(-1)

#define MAX_NAMES	600
static struct page *named_page[MAX_NAMES];
static int named_id[MAX_NAMES];
static int nr_named;

static void name_page(struct page *page, int id)
{
	if (nr_named < MAX_NAMES) {
		named_page[nr_named] = page;
		named_id[nr_named++] = id;
	}
}

static int page_id(const struct page *page)
{
	for (int i = 0; i < nr_named; i++)
		if (named_page[i] == page)
			return named_id[i];
	return NONE;
}

/* The names of a list's pages, head first; returns how many (at most max). */
static int list_ids(struct list_head *head, int *out, int max)
{
	struct page *page;
	int n = 0;

	list_for_each_entry(page, head, lru) {
		if (n == max)
			return max + 1;		/* longer than expected: a difference anyway */
		out[n++] = page_id(page);
	}
	return n;
}

/*
 * The first n pages of the zone's free list, head first. The emulated
 * __free_one_page (order 0, no buddies) puts a freed page at the head, so
 * this is the order in which free_pcppages_bulk took them, reversed.
 */
static int zone_head_ids(struct zone *zone, int *out, int n)
{
	struct page *page;
	int k = 0;

	list_for_each_entry(page, &zone_free_list(zone), lru) {
		if (k == n)
			break;
		out[k++] = page_id(page);
	}
	return k;
}

/* Index of the first difference of got[0..n) and want[0..m) (-1: equal); prints both if any. */
static int seq_diff(const char *what, const int *got, int n, const int *want, int m)
{
	int first = -1;

	for (int i = 0; i < (n > m ? n : m); i++)
		if (i >= n || i >= m || got[i] != want[i]) {
			first = i;
			break;
		}
	if (first >= 0) {
		fprintf(stderr, "%s: differs at %d\n  got  (%d):", what, first, n);
		for (int i = 0; i < n; i++)
			fprintf(stderr, " %d", got[i]);
		fprintf(stderr, "\n  want (%d):", m);
		for (int i = 0; i < m; i++)
			fprintf(stderr, " %d", want[i]);
		fprintf(stderr, "\n");
	}
	return first;
}

#define WANT(...)	((const int[]){ __VA_ARGS__ }), \
			(int)(sizeof((const int[]){ __VA_ARGS__ }) / sizeof(int))
#define WANT_NONE	((const int *)NULL), 0

/* The list, head first, is exactly want (WANT(...), or an array and its length). */
#define CHECK_LIST(what, head, ...) do {					\
	int _got[400];								\
	int _n = list_ids((head), _got, 399);					\
	int first_difference = seq_diff((what), _got, _n, __VA_ARGS__);	\
										\
	CHECK_EQ_LL(first_difference, -1);					\
} while (0)

/* want[0..n): from, from±1, ..., to (inclusive). */
static int *range(int *want, int from, int to)
{
	int step = from <= to ? 1 : -1;

	for (int i = 0, v = from; ; v += step, i++) {
		want[i] = v;
		if (v == to)
			break;
	}
	return want;
}

#define RANGE_LEN(from, to)	((from) <= (to) ? (to) - (from) + 1 : (from) - (to) + 1)

/* ---- counts ---- */

/* A zone counter exactly: the zone's value plus every CPU's pending delta. */
static long zone_stat_exact(struct zone *zone, enum zone_stat_item item)
{
	long x = atomic_long_read(&zone_vm_stat(zone)[item]);

	for (unsigned int cpu = 0; cpu < nr_cpu_ids; cpu++)
		x += zone_pcp(zone, cpu)->vm_stat_diff[item];
	return x;
}

static void start_mm(void)
{
	char err[256];

	CHECK(mm_machine_setup(3ULL << 30, err, sizeof(err)) == 0);
	CHECK(drain_mm_setup(0, err, sizeof(err)) == 0);
	drain_kernel_boot(&drain_ops_count_check);
	nr_named = 0;
}

static void stop_mm(void)
{
	drain_mm_teardown();
	mm_machine_teardown();
	drain_kernel_boot(NULL);
	nr_named = 0;
}

/* Name the first n pages of the zone's free list Z0 .. Zn-1, head first. */
static void name_zone_head(struct zone *zone, int n)
{
	struct page *page;
	int i = 0;

	list_for_each_entry(page, &zone_free_list(zone), lru) {
		if (i == n)
			break;
		name_page(page, i++);	/* Zi */
	}
}

/*
 * Where a step leaves the zone: the zone-lock round trips and the pages
 * moved since counts_mark(), and its free pages, in zone->nr_free and in
 * NR_FREE_PAGES.
 */
static void check_zone_after(const char *step, struct zone *zone, long long locks,
			     long long moved, long long nr_free)
{
	long long got_locks = counts_delta(MMSCALE_LOCK_ACQUIRES);
	long long got_moved = counts_delta(MMSCALE_PAGES_MOVED);
	long long got_free = (long long)zone_nr_free(zone);
	long long got_stat = (long long)zone_stat_exact(zone, NR_FREE_PAGES);

	CHECK_MSG(got_locks == locks, "%s: %lld zone locks, want %lld", step, got_locks, locks);
	CHECK_MSG(got_moved == moved, "%s: %lld pages moved, want %lld", step, got_moved, moved);
	CHECK_MSG(got_free == nr_free, "%s: zone->nr_free %lld, want %lld", step, got_free,
		  nr_free);
	CHECK_MSG(got_stat == nr_free, "%s: NR_FREE_PAGES %lld, want %lld", step, got_stat,
		  nr_free);
}

/*
 * The first allocation from an empty list of 1520 free pages, in either
 * generation: rmqueue_bulk(31) puts Z0 .. Z30 on list 2 in that order from
 * its head and Z0 is returned; count 30, 31 pages moved, NR_FREE_PAGES and
 * nr_free 31 lower; locks: zone->lock, and 6.1's pcp->lock too.
 */
static struct page *first_refill(const char *what, struct zone *zone,
				 struct per_cpu_pages *pcp, int locks)
{
	int want[30];
	char title[64];
	struct page *page;

	counts_mark();
	page = alloc_local_page();
	CHECK_EQ_LL(page_id(page), 0);
	CHECK_EQ_LL(page->where, PAGE_HELD);
	snprintf(title, sizeof(title), "%s list 2 after one refill", what);
	CHECK_LIST(title, &pcp->lists[MIGRATE_MOVABLE], range(want, 1, 30), 30);
	CHECK_EQ_LL(pcp->count, 30);
	check_zone_after(what, zone, locks, 31, 1520 - 31);
	return page;
}

/*
 * Put hand-named pages on the pcp lists: na on list 0 (A0 at the head), nb
 * on list 1, nc on list 2, as if this CPU had freed them there.
 */
static void fill(struct zone *zone, struct per_cpu_pages *pcp, struct page *pages,
		 int na, int nb, int nc)
{
	const int n[MIGRATE_PCPTYPES] = { na, nb, nc };
	const int base[MIGRATE_PCPTYPES] = { A(0), B(0), C(0) };
	int k = 0;

	for (int mt = 0; mt < MIGRATE_PCPTYPES; mt++)
		for (int i = 0; i < n[mt]; i++, k++) {
			struct page *page = &pages[k];

			memset(page, 0, sizeof(*page));
			page->zone = zone;
			page->where = smp_processor_id();
			set_page_private(page, (unsigned long)mt);
			list_add_tail(&page->lru, &pcp->lists[mt]);
			name_page(page, base[mt] + i);
		}
	WRITE_ONCE(pcp->count, pcp->count + k);
}

/*
 * Part 1: free_pcppages_bulk on hand-made fills.
 *
 * The loop (2.6.38 and 3.4 alike): migratetype starts at 0 and is stepped
 * before each look (++migratetype, wrapping at MIGRATE_PCPTYPES), so list 1
 * is looked at first; batch_free counts the lists looked at (empty ones
 * included) and is how many pages are then taken from the list found,
 * each from its TAIL (list_entry(list->prev)), stopping early when the
 * list empties or to_free reaches 0. 3.x adds "if (batch_free ==
 * MIGRATE_PCPTYPES) batch_free = to_free;" (3.4 page_alloc.c line 662),
 * which the emulation carries. Every value below is the same in 2.6.38
 * and in 3.4: batch_free reaches 3 only when the list found is the only
 * non-empty one (the other two were just looked at and found empty, or
 * the one left with batch_free 1 was emptied), and then taking to_free
 * pages at once (3.4) or 3 at a time, passing the two empty lists between
 * (2.6.38), takes the same pages in the same order. (Checked exhaustively
 * for every fill of up to 7 pages a list and every count: no difference.)
 * Dropping the line is therefore an equivalent mutant as far as any page,
 * list or count goes: it only saves scanning.
 */
static void test_free_pcppages_bulk(void)
{
	static struct page s1[9], s2[9], s3[4];
	struct zone *zone;
	struct per_cpu_pages *pcp;
	unsigned long nr_free0;
	long free0;
	int got[16];

	start_mm();
	zone = local_zone(0);
	pcp = &zone_this_pcp(zone)->pcp;
	CHECK_EQ_LL(pcp->count, 0);

	/*
	 * S1: lists A0 A1 A2 | B0 | C0 C1 C2 C3 C4, count 5 (a pcp->batch).
	 *   look 1 (bf 1): list 1 -> B0; bf 0.
	 *   look 2 (bf 1): list 2 -> C4 (tail); bf 0.
	 *   look 0 (bf 1): list 0 -> A2; bf 0.
	 *   look 1 empty (bf 1), look 2 (bf 2): C3, C2; bf 0.   to_free 0.
	 * Taken B0 C4 A2 C3 C2; left A0 A1 | - | C0 C1.
	 * From the head instead: B0 C0 A0 C1 C2. Starting at list 0 instead:
	 * A2 B0 C4 A1 C3. batch_free not counted up: B0, then C4 C3 C2 C1.
	 */
	fill(zone, pcp, s1, 3, 1, 5);
	zone_pages_scanned(zone) = 7;
	zone_all_unreclaimable(zone) = 1;
	nr_free0 = zone_nr_free(zone);
	free0 = zone_stat_exact(zone, NR_FREE_PAGES);
	counts_mark();
	free_pcppages_bulk(zone, 5, pcp);
	/* The zone's free list, head first: the pages taken, last taken first. */
	CHECK_EQ_LL(seq_diff("S1 taken (newest first)", got, zone_head_ids(zone, got, 5),
			     WANT(C(2), C(3), A(2), C(4), B(0))), -1);
	CHECK_LIST("S1 list 0", &pcp->lists[0], WANT(A(0), A(1)));
	CHECK_LIST("S1 list 1", &pcp->lists[1], WANT_NONE);
	CHECK_LIST("S1 list 2", &pcp->lists[2], WANT(C(0), C(1)));
	CHECK_EQ_LL(s1[3].where, PAGE_IN_BUDDY);	/* B0 */
	CHECK_EQ_LL(s1[0].where, 0);			/* A0 still on CPU 0's list */
	/* pcp->count is the caller's to lower (free_hot_cold_page: count -= batch). */
	CHECK_EQ_LL(pcp->count, 9);
	/* One zone->lock hold, five pages onto the zone, NR_FREE_PAGES += count. */
	CHECK_EQ_LL(counts_delta(MMSCALE_LOCK_ACQUIRES), 1);
	CHECK_EQ_LL(counts_delta(MMSCALE_PAGES_MOVED), 5);
	CHECK_EQ_LL(zone_nr_free(zone) - nr_free0, 5);
	CHECK_EQ_LL(zone_stat_exact(zone, NR_FREE_PAGES) - free0, 5);
	CHECK_EQ_LL(zone_pages_scanned(zone), 0);
	CHECK_EQ_LL(zone_all_unreclaimable(zone), 0);
	WRITE_ONCE(pcp->count, 4);

	/*
	 * S1b: drain_pages (2.6.38, the pcp->count check) of what is left:
	 * A0 A1 | - | C0 C1, count 4. A new call starts from migratetype 0:
	 *   look 1 empty (bf 1), look 2 (bf 2): C1, C0; bf 0.
	 *   look 0 (bf 1): A1; bf 0.
	 *   look 1, 2 empty, look 0 (bf 3; 3.x's line would make it to_free = 1): A0.
	 * Taken C1 C0 A1 A0. CPU 0's Normal pcp (node 1) is empty: skipped, no lock.
	 */
	nr_free0 = zone_nr_free(zone);
	counts_mark();
	drain_pages_count_check(0);
	CHECK_EQ_LL(seq_diff("S1b taken (newest first)", got, zone_head_ids(zone, got, 4),
			     WANT(A(0), A(1), C(0), C(1))), -1);
	CHECK_EQ_LL(pcp->count, 0);
	for (int mt = 0; mt < MIGRATE_PCPTYPES; mt++)
		CHECK(list_empty(&pcp->lists[mt]));
	CHECK_EQ_LL(counts_delta(MMSCALE_LOCK_ACQUIRES), 1);
	CHECK_EQ_LL(counts_delta(MMSCALE_PAGES_MOVED), 4);
	CHECK_EQ_LL(counts_delta(MMSCALE_PAGES_DRAINED), 4);
	CHECK_EQ_LL(zone_nr_free(zone) - nr_free0, 4);

	/*
	 * S2: the same fill drained whole (drain_pages: count = pcp->count = 9).
	 * As S1 to C2, then from A0 A1 | - | C0 C1:
	 *   look 0 (bf 1): A1.  look 1 empty, look 2 (bf 2): C1, C0.
	 *   look 0 (bf 1): A0.
	 * Taken B0 C4 A2 C3 C2 A1 C1 C0 A0.
	 */
	nr_named = 0;
	fill(zone, pcp, s2, 3, 1, 5);
	nr_free0 = zone_nr_free(zone);
	free0 = zone_stat_exact(zone, NR_FREE_PAGES);
	counts_mark();
	drain_pages_count_check(0);
	CHECK_EQ_LL(seq_diff("S2 taken (newest first)", got, zone_head_ids(zone, got, 9),
			     WANT(A(0), C(0), C(1), A(1), C(2), C(3), A(2), C(4), B(0))), -1);
	CHECK_EQ_LL(pcp->count, 0);
	CHECK_EQ_LL(counts_delta(MMSCALE_LOCK_ACQUIRES), 1);
	CHECK_EQ_LL(counts_delta(MMSCALE_PAGES_MOVED), 9);
	CHECK_EQ_LL(counts_delta(MMSCALE_PAGES_DRAINED), 9);
	CHECK_EQ_LL(zone_nr_free(zone) - nr_free0, 9);
	CHECK_EQ_LL(zone_stat_exact(zone, NR_FREE_PAGES) - free0, 9);

	/*
	 * S3: only list 2: - | - | C0 C1 C2 C3, count 3.
	 *   look 1 empty, look 2 (bf 2): C3, C2.
	 *   look 0, 1 empty, look 2 (bf 3; 3.x's line would set bf = to_free = 1): C1.
	 * (2.6.38, emulated: bf 3, takes C1 and stops at to_free 0: the same.)
	 */
	nr_named = 0;
	fill(zone, pcp, s3, 0, 0, 4);
	counts_mark();
	free_pcppages_bulk(zone, 3, pcp);
	CHECK_EQ_LL(seq_diff("S3 taken (newest first)", got, zone_head_ids(zone, got, 3),
			     WANT(C(1), C(2), C(3))), -1);
	CHECK_LIST("S3 list 2", &pcp->lists[2], WANT(C(0)));
	CHECK_EQ_LL(counts_delta(MMSCALE_LOCK_ACQUIRES), 1);
	CHECK_EQ_LL(counts_delta(MMSCALE_PAGES_MOVED), 3);
	/* Leave the lists as the count says: C0 back to the zone too. */
	WRITE_ONCE(pcp->count, 1);
	drain_pages_count_check(0);
	CHECK_EQ_LL(pcp->count, 0);

	/*
	 * S4: ipi-all's own free_pcppages_bulk, 2.6.32's (2.6.32.9
	 * mm/page_alloc.c 529-568), on the S1 fill: the same round-robin, so
	 * the same pages in the same order (B0 C4 A2 C3 C2); it clears
	 * ZONE_ALL_UNRECLAIMABLE, bit 0 of zone->flags (zone_clear_flag: the
	 * other bits stay), and zeroes pages_scanned. Then the empty call of an
	 * empty drain: one zone->lock, the flag cleared again, nothing moved.
	 */
	{
		static struct page s4[9];

		nr_named = 0;
		fill(zone, pcp, s4, 3, 1, 5);
		zone_flags(zone) = 0x5;	/* ALL_UNRECLAIMABLE and OOM_LOCKED */
		zone_pages_scanned(zone) = 7;
		nr_free0 = zone_nr_free(zone);
		free0 = zone_stat_exact(zone, NR_FREE_PAGES);
		counts_mark();
		drain_ops_ipi_all.machine->free_pcppages_bulk(zone, 5, pcp);
		CHECK_EQ_LL(seq_diff("S4 taken (newest first)", got, zone_head_ids(zone, got, 5),
				     WANT(C(2), C(3), A(2), C(4), B(0))), -1);
		CHECK_LIST("S4 list 0", &pcp->lists[0], WANT(A(0), A(1)));
		CHECK_LIST("S4 list 2", &pcp->lists[2], WANT(C(0), C(1)));
		CHECK_EQ_LL(zone_flags(zone), 0x4);
		CHECK_EQ_LL(zone_pages_scanned(zone), 0);
		CHECK_EQ_LL(counts_delta(MMSCALE_LOCK_ACQUIRES), 1);
		CHECK_EQ_LL(counts_delta(MMSCALE_PAGES_MOVED), 5);
		CHECK_EQ_LL(zone_nr_free(zone) - nr_free0, 5);
		CHECK_EQ_LL(zone_stat_exact(zone, NR_FREE_PAGES) - free0, 5);
		drain_ops_ipi_all.machine->free_pcppages_bulk(zone, 4, pcp);
		CHECK_EQ_LL(zone_nr_free(zone) - nr_free0, 9);
		WRITE_ONCE(pcp->count, 0);
		zone_flags(zone) = 0x1;
		zone_pages_scanned(zone) = 3;
		counts_mark();
		drain_ops_ipi_all.machine->free_pcppages_bulk(zone, 0, pcp);
		CHECK_EQ_LL(zone_flags(zone), 0);
		CHECK_EQ_LL(zone_pages_scanned(zone), 0);
		CHECK_EQ_LL(counts_delta(MMSCALE_LOCK_ACQUIRES), 1);
		CHECK_EQ_LL(counts_delta(MMSCALE_PAGES_MOVED), 0);
		CHECK_EQ_LL(zone_nr_free(zone) - nr_free0, 9);
	}
	stop_mm();
}

/*
 * Part 2: the real paths on CPU 0's DMA32 pcp, with the zone's own batch.
 *
 * zone_batchsize (2.6.38, CONFIG_MMU): node 0 has 3 GiB / 2 = 393216 pages,
 * all below 4 GiB, so DMA32 present_pages = 393216; 393216 / 1024 = 384,
 * 384 * 4 KiB > 512 KiB -> 128; / 4 = 32; rounddown_pow_of_two(32 + 16) - 1
 * = 31. setup_pageset: high = 6 * 31 = 186, batch = 31. The pool
 * (drain_mm_setup): 1024 + 2 CPUs on node 0 * 8 * 31 = 1520 pages, all on
 * the free list, NR_FREE_PAGES 1520.
 *
 * __rmqueue (order 0) takes the free list's head (2.6.38
 * __rmqueue_smallest: list_entry(free_list.next)), so a refill takes Z0,
 * Z1, ... in that order.
 */
static void test_refill_and_free(void)
{
	struct zone *zone;
	struct per_cpu_pages *pcp;
	struct page *held[186], *page;
	int want[400], got[40];

	start_mm();
	zone = local_zone(0);
	pcp = &zone_this_pcp(zone)->pcp;
	CHECK_EQ_LL(zone_present_pages(zone), 393216);
	CHECK_EQ_LL(pcp->batch, 31);
	CHECK_EQ_LL(pcp->high, 186);
	CHECK_EQ_LL(zone_nr_free(zone), 1520);
	CHECK_EQ_LL(zone_stat_exact(zone, NR_FREE_PAGES), 1520);
	name_zone_head(zone, 256);

	/*
	 * R1, rmqueue_bulk hot (cold == 0): list_add(page, list); list =
	 * &page->lru, so each page goes after the one before: the pcp list is
	 * Z0 .. Z30 head first ("ordered by page number"). buffered_rmqueue hot
	 * takes list->next = Z0; pcp->count = 0 + 31 - 1 = 30. One zone->lock.
	 * (list_add_tail instead: Z30 .. Z0, and the page returned is Z30.)
	 */
	held[0] = first_refill("R1", zone, pcp, 1);
	/* 185 more: 6 refills in all (186 / 31), allocation i returns Zi. */
	for (int i = 1; i < 186; i++)
		held[i] = alloc_local_page();
	{
		int ids[186];

		for (int i = 0; i < 186; i++)
			ids[i] = page_id(held[i]);
		CHECK_EQ_LL(seq_diff("R1 allocations", ids, 186, range(want, 0, 185), 186), -1);
	}
	CHECK_EQ_LL(pcp->count, 0);
	CHECK(list_empty(&pcp->lists[MIGRATE_MOVABLE]));
	check_zone_after("R1 after 186 allocations", zone, 6, 186, 1520 - 186);
	/* zone_statistics: preferred == zone, on this CPU's node: HIT and LOCAL per allocation. */
	CHECK_EQ_LL(zone_stat_exact(zone, NUMA_HIT), 186);
	CHECK_EQ_LL(zone_stat_exact(zone, NUMA_LOCAL), 186);

	/*
	 * R2, free_hot_cold_page hot: list_add to the head of list 2
	 * (MIGRATE_MOVABLE), count++, and at count >= high (186) a
	 * free_pcppages_bulk of batch (31). Z0 .. Z184 freed: count 185 < 186,
	 * no lock; the list is Z184 .. Z0 head first.
	 */
	counts_mark();
	for (int i = 0; i < 185; i++)
		free_hot_cold_page(held[i], 0);
	CHECK_EQ_LL(pcp->count, 185);
	CHECK_LIST("R2 list 2 at high - 1", &pcp->lists[MIGRATE_MOVABLE],
		   range(want, 184, 0), 185);
	CHECK_EQ_LL(counts_delta(MMSCALE_LOCK_ACQUIRES), 0);
	/*
	 * Z185: count 186 >= 186: free_pcppages_bulk(31) on - | - | Z185 Z184 .. Z0:
	 * look 1 empty, look 2 (bf 2): Z0, Z1; then bf 3 (3.x: = to_free 29):
	 * Z2 .. Z30 (2.6.38: 3 at a time, the same). count 186 - 31 = 155.
	 * (With "count > high": no free, count 186.)
	 */
	free_hot_cold_page(held[185], 0);
	CHECK_EQ_LL(pcp->count, 155);
	CHECK_EQ_LL(seq_diff("R2 taken (newest first)", got, zone_head_ids(zone, got, 31),
			     range(want, 30, 0), 31), -1);
	CHECK_LIST("R2 list 2 after the bulk free", &pcp->lists[MIGRATE_MOVABLE],
		   (want[0] = 185, range(want + 1, 184, 31), want), 155);
	check_zone_after("R2 after the bulk free", zone, 1, 31, 1520 - 186 + 31);

	/*
	 * R3, cold: a hot allocation takes the head (Z185); freed cold it goes
	 * to the tail (list_add_tail): Z184 .. Z31 Z185; a cold allocation
	 * (list->prev) takes it back from the tail. No lock in any of these.
	 */
	counts_mark();
	page = alloc_local_page();
	CHECK_EQ_LL(page_id(page), 185);
	CHECK_EQ_LL(pcp->count, 154);
	free_hot_cold_page(page, 1);
	CHECK_EQ_LL(pcp->count, 155);
	CHECK_LIST("R3 list 2 after a cold free", &pcp->lists[MIGRATE_MOVABLE],
		   (range(want, 184, 31), want[154] = 185, want), 155);
	page = buffered_rmqueue(zone, zone, 0, __GFP_COLD, MIGRATE_MOVABLE);
	CHECK_EQ_LL(page_id(page), 185);
	free_hot_cold_page(page, 1);
	CHECK_EQ_LL(pcp->count, 155);
	CHECK_EQ_LL(counts_delta(MMSCALE_LOCK_ACQUIRES), 0);

	/*
	 * R4, rmqueue_bulk cold (cold == 1) on the empty list 0: the zone's
	 * head is Z30 Z29 .. Z0 (R2's bulk free put them there), taken in that
	 * order; list_add_tail(page, list); list = &page->lru puts each page
	 * before the one taken before it, so list 0 is Z0 Z1 .. Z30 head first
	 * and the cold allocation (list->prev) returns Z30, the first taken.
	 * count 155 + 31 - 1 = 185. (list_add instead: Z30 .. Z0, returns Z0.)
	 * Which pages the zone's head holds is the emulation's: it has no
	 * buddies, so every freed page goes to the head; the kernel merges an
	 * order-0 page with a free buddy and, since 2.6.35, may put it at the
	 * tail (2.6.38 __free_one_page). The placement on the pcp list is the
	 * kernel's whatever the pages are.
	 */
	counts_mark();
	page = buffered_rmqueue(zone, zone, 0, __GFP_COLD, MIGRATE_UNMOVABLE);
	CHECK_EQ_LL(page_id(page), 30);
	CHECK_EQ_LL(page_private(page), MIGRATE_UNMOVABLE);
	CHECK_LIST("R4 list 0 after a cold refill", &pcp->lists[MIGRATE_UNMOVABLE],
		   range(want, 0, 29), 30);
	CHECK_EQ_LL(pcp->count, 185);
	CHECK_EQ_LL(counts_delta(MMSCALE_LOCK_ACQUIRES), 1);
	CHECK_EQ_LL(counts_delta(MMSCALE_PAGES_MOVED), 31);
	CHECK_EQ_LL(zone_nr_free(zone), 1520 - 186);

	/*
	 * R5, the round-robin on two lists through the free path: Z30 freed
	 * hot goes to list 2 (free_hot_cold_page files every page as
	 * MIGRATE_MOVABLE), count 186: free_pcppages_bulk(31) on
	 *   Z0 .. Z29 | - | Z30 Z184 .. Z31 Z185.
	 *   look 1 empty, look 2 (bf 2): Z185, Z31.   look 0 (bf 1): Z29.
	 *   and again: Z32 Z33, Z28; ... ten rounds of 2 + 1 = 30 pages, then
	 *   look 1 empty, look 2 (bf 2): Z50, to_free 0.
	 * Left: Z0 .. Z19 | - | Z30 Z184 .. Z51 (20 + 135 = 155 = 186 - 31).
	 */
	counts_mark();
	free_hot_cold_page(page, 0);
	CHECK_EQ_LL(pcp->count, 155);
	{
		static const int taken[31] = {
			185, 31, 29, 32, 33, 28, 34, 35, 27, 36, 37, 26, 38, 39, 25, 40,
			41, 24, 42, 43, 23, 44, 45, 22, 46, 47, 21, 48, 49, 20, 50 };
		int newest_first[31];

		for (int i = 0; i < 31; i++)
			newest_first[i] = taken[30 - i];
		CHECK_EQ_LL(seq_diff("R5 taken (newest first)", got,
				     zone_head_ids(zone, got, 31), newest_first, 31), -1);
	}
	CHECK_LIST("R5 list 0", &pcp->lists[MIGRATE_UNMOVABLE], range(want, 0, 19), 20);
	CHECK_LIST("R5 list 1", &pcp->lists[MIGRATE_RECLAIMABLE], WANT_NONE);
	CHECK_LIST("R5 list 2", &pcp->lists[MIGRATE_MOVABLE],
		   (want[0] = 30, range(want + 1, 184, 51), want), 135);
	check_zone_after("R5 after the bulk free", zone, 1, 31, 1520 - 186 + 31);
	{
		char err[256];

		if (pages_conserved(0, err, sizeof(err)) != 0)
			fprintf(stderr, "R5: %s\n", err);
		CHECK(pages_conserved(0, err, sizeof(err)) == 0);
	}
	stop_mm();
}

static short free_factor(struct per_cpu_pages *pcp)
{
	return container_of(pcp, struct per_cpu_pageset, pcp)->free_factor;
}

/* 6.1's free_unref_page_commit, after so many frees (worked out where they are checked). */
static const struct {
	int frees, count, factor;
} free_steps[] = {
	{ 186, 155, 1 }, { 217, 124, 2 }, { 279, 62, 3 }, { 403, 31, 3 }, { 558, 31, 3 },
};

/*
 * Part 2b: the remote variant's 6.1 paths (6.1-rc7 mm/page_alloc.c), on the
 * same CPU 0 DMA32 pcp (batch 31, high 186) and 1520 free pages.
 */
/*
 * 6.1's pcp sizing on this machine (2 nodes of 1.5 GiB, 2 CPUs each; CPU
 * 0's local zone is node 0's DMA32, 393216 pages), from 6.1-rc7's lines
 * (kernel/linux-2.6/mm/page_alloc.c quotes them):
 * - zone_batchsize: min(393216 >> 10 = 384, 256) = 256; / 4 = 64;
 *   rounddown_pow_of_two(64 + 32 = 96) - 1 = 63;
 * - the low watermark: lowmem 786432 pages = 3145728 kB; min_free_kbytes =
 *   int_sqrt(3145728 x 16 = 50331648) = 7094; pages_min = 7094 >> 2 =
 *   1773; the zone's min = 1773 x 393216 / 786432 = 886; + max(886 >> 2 =
 *   221, 393216 x 10 / 10000 = 393) = 1279;
 * - zone_highsize: 1279 / 2 CPUs on node 0 = 639 (> 4 x 63 = 252);
 * - the pool: 1024 + 2 x (639 + 2 x 63) = 2554 pages.
 * 2.6.38's on the same zone: batch 31, high 6 x 31 = 186, pool 1024 + 2 x
 * (186 + 62) = 1520.
 */
static void test_pcp_sizing(void)
{
	struct mm_machine_config cfg;
	char err[256];
	struct zone *zone;

	for (int k = 0; k < 2; k++) {
		bool v6_1 = k == 1;

		mm_config_default(&cfg, 3ULL << 30);
		cfg.zone_layout = v6_1 ? MM_ZONE_LAYOUT_6_1 : MM_ZONE_LAYOUT_2_6_38;
		CHECK(mm_machine_setup_config(&cfg, err, sizeof(err)) == 0);
		CHECK(drain_mm_setup(0, err, sizeof(err)) == 0);
		zone = local_zone(0);
		CHECK_EQ_LL(zone_present_pages(zone), 393216);
		CHECK_EQ_LL(zone_this_pcp(zone)->pcp.batch, v6_1 ? 63 : 31);
		CHECK_EQ_LL(zone_this_pcp(zone)->pcp.high, v6_1 ? 639 : 186);
		CHECK_EQ_LL(zone_stat_exact(zone, NR_FREE_PAGES), v6_1 ? 2554 : 1520);
		drain_mm_teardown();
		mm_machine_teardown();
	}
}

/*
 * The pcp fractions (--set), as their sysctls' handlers write them, on the
 * same zone (393216 present pages, 2 CPUs on node 0):
 * - 2.6.38's percpu_pagelist_fraction 8 (setup_pagelist_highmark): high
 *   393216 / 8 = 49152, batch 49152 / 4 = 12288, over PAGE_SHIFT * 8: 96;
 *   at 100000: high 3, batch max(1, 0) = 1;
 * - 6.1's percpu_pagelist_high_fraction 8 (zone_highsize): 393216 / 8 =
 *   49152 over 2 CPUs = 24576, batch 63 as before; at 100000: 3 / 2 = 1,
 *   raised to 4 x 63 = 252; 6.1 takes no percpu_pagelist_fraction and
 *   2.6.38 no high fraction.
 */
static void test_pcp_fractions(void)
{
	static const struct {
		bool v6_1;
		long long fraction, high_fraction;
		int batch, high;
	} rows[] = {
		{ false, 8, MM_KNOB_AUTO, 96, 49152 },
		{ false, 100000, MM_KNOB_AUTO, 1, 3 },
		{ false, MM_KNOB_AUTO, 8, 31, 186 },
		{ true, MM_KNOB_AUTO, 8, 63, 24576 },
		{ true, MM_KNOB_AUTO, 100000, 63, 252 },
		{ true, 8, MM_KNOB_AUTO, 63, 639 },
	};
	struct mm_machine_config cfg;
	char err[256];

	for (size_t i = 0; i < ARRAY_SIZE(rows); i++) {
		struct zone *zone;

		mm_config_default(&cfg, 3ULL << 30);
		cfg.zone_layout = rows[i].v6_1 ? MM_ZONE_LAYOUT_6_1 : MM_ZONE_LAYOUT_2_6_38;
		cfg.percpu_pagelist_fraction = rows[i].fraction;
		cfg.percpu_pagelist_high_fraction = rows[i].high_fraction;
		CHECK(mm_machine_setup_config(&cfg, err, sizeof(err)) == 0);
		CHECK(drain_mm_setup(0, err, sizeof(err)) == 0);
		zone = local_zone(0);
		CHECK_MSG(zone_this_pcp(zone)->pcp.batch == rows[i].batch &&
			  zone_this_pcp(zone)->pcp.high == rows[i].high,
			  "pcp fractions row %zu: batch %d high %d", i, zone_this_pcp(zone)->pcp.batch,
			  zone_this_pcp(zone)->pcp.high);
		drain_mm_teardown();
		mm_machine_teardown();
	}
	/*
	 * --set pcp_batch and pcp_high over each kernel's sizing (63/639 in
	 * 6.1, 31/186 in 2.6.38): 7 and 500 in both; a batch above high is
	 * refused (2.6.x's free path would walk empty lists).
	 */
	for (int k = 0; k < 2; k++) {
		mm_config_default(&cfg, 3ULL << 30);
		cfg.zone_layout = k ? MM_ZONE_LAYOUT_6_1 : MM_ZONE_LAYOUT_2_6_38;
		cfg.pcp_batch = 7;
		cfg.pcp_high = 500;
		CHECK(mm_machine_setup_config(&cfg, err, sizeof(err)) == 0);
		CHECK(drain_mm_setup(0, err, sizeof(err)) == 0);
		CHECK_EQ_LL(zone_this_pcp(local_zone(0))->pcp.batch, 7);
		CHECK_EQ_LL(zone_this_pcp(local_zone(0))->pcp.high, 500);
		drain_mm_teardown();
		cfg.pcp_batch = 501;
		CHECK(mm_machine_setup_config(&cfg, err, sizeof(err)) == 0);
		CHECK(drain_mm_setup(0, err, sizeof(err)) != 0 &&
		      strstr(err, "pcp batch 501 above high 500") != NULL);
		mm_machine_teardown();
	}

	/*
	 * --set numa_stat, as 6.1's handler writes it: the key drain_remote.c's
	 * zone_statistics reads; one allocation on remote's (6.1) path counts a
	 * NUMA_HIT, or none at 0.
	 */
	for (long long v = MM_KNOB_AUTO; v <= 1; v++) {
		struct page *page;

		mm_config_default(&cfg, 3ULL << 30);
		cfg.zone_layout = MM_ZONE_LAYOUT_6_1;
		cfg.numa_stat = v;
		CHECK(mm_machine_setup_config(&cfg, err, sizeof(err)) == 0);
		CHECK(drain_mm_setup(0, err, sizeof(err)) == 0);
		CHECK_EQ_LL(vm_numa_stat_key_6_1, v != 0);
		drain_kernel_boot(&drain_ops_remote);
		page = alloc_local_page();
		CHECK(page != NULL);
		CHECK_EQ_LL(zone_this_pcp(local_zone(0))->vm_numa_event[NUMA_HIT_6_1], v != 0);
		if (page)
			free_local_page(page);
		drain_kernel_boot(NULL);
		drain_mm_teardown();
		mm_machine_teardown();
	}
}

/*
 * The 6.1 paths below are worked out for batch 31 and high 186 (2.6.38's
 * sizing of this zone, test_pcp_sizing) in a pool of 1520 pages: a 6.1
 * machine whose every pcp is given those, so the worked steps hold.
 */
static void start_mm_6_1_worked(void)
{
	struct mm_machine_config cfg;
	char err[256];
	struct zone *zone;
	unsigned int cpu;

	mm_config_default(&cfg, 3ULL << 30);
	cfg.zone_layout = MM_ZONE_LAYOUT_6_1;
	CHECK(mm_machine_setup_config(&cfg, err, sizeof(err)) == 0);
	CHECK(drain_mm_setup(1520, err, sizeof(err)) == 0);
	for_each_populated_zone(zone)
		for_each_online_cpu(cpu) {
			zone_pcp(zone, cpu)->pcp.batch = 31;
			zone_pcp(zone, cpu)->pcp.high = 186;
		}
	drain_kernel_boot(&drain_ops_remote);
	nr_named = 0;
}

/*
 * What 6.1's fast paths read from struct zone, made to matter (the flags
 * are never set and the marks are 0 in a run):
 * - ZONE_RECLAIM_ACTIVE set: nr_pcp_high is min(batch << 2, high) = 124.
 *   124 allocations are 4 refills of 31: the list is empty after them;
 *   123 frees bring it to 123; the 124th (count 124 >= 124) frees a batch
 *   (nr_pcp_free: 31 << free_factor 0, clamped to [31, 124 - 31]: 31),
 *   count 93, where with high 186 it would stay at 124;
 * - ZONE_BOOSTED_WATERMARK set: the next allocation clears it;
 * - nr_reserved_highatomic above the zone's free pages: the watermark
 *   test fails, the allocation goes to reclaim (not emulated: NULL).
 */
static void test_remote_6_1_zone_reads(void)
{
	static struct page *held[124];
	struct per_cpu_pages *pcp;
	struct zone *zone;

	start_mm_6_1_worked();
	zone = local_zone(0);
	pcp = &zone_this_pcp(zone)->pcp;
	for (int i = 0; i < 124; i++)
		held[i] = alloc_local_page();
	CHECK(held[123] != NULL);
	CHECK_EQ_LL(pcp->count, 0);
	set_bit(ZONE_RECLAIM_ACTIVE, &zone_flags(zone));
	for (int i = 0; i < 123; i++)
		free_local_page(held[i]);
	CHECK_EQ_LL(pcp->count, 123);
	free_local_page(held[123]);
	CHECK_EQ_LL(pcp->count, 93);
	clear_bit(ZONE_RECLAIM_ACTIVE, &zone_flags(zone));

	set_bit(ZONE_BOOSTED_WATERMARK, &zone_flags(zone));
	held[0] = alloc_local_page();
	CHECK(held[0] != NULL);
	CHECK(!test_bit(ZONE_BOOSTED_WATERMARK, &zone_flags(zone)));
	free_local_page(held[0]);

	zone_nr_reserved_highatomic(zone) = (unsigned long)zone_stat_exact(zone, NR_FREE_PAGES) + 1000;
	refresh_cpu_vm_stats(0);	/* the zone's count as the check reads it */
	CHECK(alloc_local_page() == NULL);
	zone_nr_reserved_highatomic(zone) = 0;
	stop_mm();
}

/*
 * 2.6.38's get_page_from_freelist tests the low watermark before
 * buffered_rmqueue: __zone_watermark_ok passes while NR_FREE_PAGES - 2 >
 * mark + lowmem_reserve[classzone_idx]. Here (start_mm: the pool's 1520
 * pages free, mark 0) a reserve of 1517 passes; after that allocation's
 * refill (31 pages to the list: 1489 free) 1486 passes, 1487 and 1488 fail
 * (reclaim, not emulated: NULL), and a mark of 1487 fails as that reserve. The 3 GiB node has only
 * DMA32, the kernel's zone index 1 (after ZONE_DMA; Normal is 2).
 */
static void test_watermark_2_6_38(void)
{
	struct zone *zone;
	struct page *page;
	int classzone_idx;
	long free;

	start_mm();
	zone = local_zone(0);
	classzone_idx = zone_idx(zone);
	CHECK_EQ_LL(classzone_idx, 1);
	free = zone_stat_exact(zone, NR_FREE_PAGES);
	CHECK_EQ_LL(free, 1520);
	refresh_cpu_vm_stats(0);	/* the zone's count as the test reads it */
	zone_lowmem_reserve(zone)[classzone_idx] = free - 3;
	page = alloc_local_page();
	CHECK(page != NULL);
	free_local_page(page);
	refresh_cpu_vm_stats(0);
	CHECK_EQ_LL(zone_page_state(zone, NR_FREE_PAGES), free - 31);	/* a batch on the list */
	zone_lowmem_reserve(zone)[classzone_idx] = free - 31 - 3;
	page = alloc_local_page();
	CHECK(page != NULL);
	free_local_page(page);
	zone_lowmem_reserve(zone)[classzone_idx] = free - 31 - 2;
	CHECK(alloc_local_page() == NULL);
	zone_lowmem_reserve(zone)[classzone_idx] = free - 31 - 1;
	CHECK(alloc_local_page() == NULL);
	/* The mark counts as the reserve does. */
	zone_lowmem_reserve(zone)[classzone_idx] = 0;
	zone_watermark(zone)[WMARK_LOW] = (unsigned long)(free - 31 - 2);
	CHECK(alloc_local_page() == NULL);
	zone_watermark(zone)[WMARK_LOW] = 0;
	page = alloc_local_page();
	CHECK(page != NULL);
	free_local_page(page);
	stop_mm();
}

/*
 * 6.1's __rmqueue balances against the CMA area before every page: with
 * NR_FREE_CMA_PAGES (6.1's item 10, read at its offset) above half the free
 * pages it tries __rmqueue_cma_fallback, which finds no CMA page here, and
 * goes on to the movable list: the refill still takes its batch.
 */
static void test_remote_6_1_cma_balance(void)
{
	struct per_cpu_pages *pcp;
	struct zone *zone;
	struct page *page;
	long free;

	start_mm_6_1_worked();
	zone = local_zone(0);
	pcp = &zone_this_pcp(zone)->pcp;
	free = zone_stat_exact(zone, NR_FREE_PAGES);
	zone_page_state_add(free / 2 + 1, zone, NR_FREE_CMA_PAGES_6_1);
	refresh_cpu_vm_stats(0);
	CHECK(zone_page_state(zone, NR_FREE_CMA_PAGES_6_1) > zone_page_state(zone, NR_FREE_PAGES) / 2);
	CHECK_EQ_LL(pcp->count, 0);
	page = alloc_local_page();
	CHECK(page != NULL);
	CHECK_EQ_LL(pcp->count, 30);	/* a refill of 31, one taken */
	free_local_page(page);
	zone_page_state_add(-(free / 2 + 1), zone, NR_FREE_CMA_PAGES_6_1);
	stop_mm();
}

static void test_remote_6_1_paths(void)
{
	static struct page *held[558];
	struct per_cpu_pages *pcp;
	struct zone *zone;
	struct page *page;
	long free0;

	start_mm_6_1_worked();
	zone = local_zone(0);
	pcp = &zone_this_pcp(zone)->pcp;
	CHECK_EQ_LL(pcp->batch, 31);
	CHECK_EQ_LL(pcp->high, 186);
	name_zone_head(zone, 40);

	/*
	 * T1, rmqueue_pcplist: the pcp lock by trylock (one acquisition), an
	 * empty list: rmqueue_bulk(31) under zone->lock puts each page at the
	 * tail (list_add_tail), so the list is Z0 .. Z30 head first and
	 * list_first_entry returns Z0; count 0 + 31 - 1 = 30. Two locks.
	 */
	held[0] = first_refill("T1", zone, pcp, 2);
	/* 557 more: 18 refills in all (558 = 18 x 31), every allocation takes the pcp lock. */
	for (int i = 1; i < 558; i++)
		held[i] = alloc_local_page();
	CHECK_EQ_LL(pcp->count, 0);
	CHECK_EQ_LL(counts_delta(MMSCALE_LOCK_ACQUIRES), 558 + 18);
	CHECK_EQ_LL(counts_delta(MMSCALE_PAGES_MOVED), 558);
	/* 6.1's zone_statistics after each: a NUMA_HIT and a NUMA_LOCAL on this CPU, no zone count. */
	CHECK_EQ_LL(zone_this_pcp(zone)->vm_numa_event[NUMA_HIT_6_1], 558);
	CHECK_EQ_LL(zone_this_pcp(zone)->vm_numa_event[NUMA_LOCAL_6_1], 558);
	CHECK_EQ_LL(zone_this_pcp(zone)->vm_numa_event[NUMA_OTHER_6_1], 0);
	CHECK_EQ_LL(zone_stat_exact(zone, NUMA_HIT), 0);
	CHECK_EQ_LL(zone_stat_exact(zone, NR_FREE_PAGES), 1520 - 558);
	CHECK_EQ_LL(free_factor(pcp), 0);

	/*
	 * T2, free_unref_page 558 times with no allocation between: the
	 * adaptive nr_pcp_free. At count >= high (186): batch << free_factor,
	 * free_factor++ while that is below high - batch (155), clamped to
	 * [31, 155]:
	 *   free 186: 31 (ff 0 -> 1), count 155;
	 *   free 217: 62 (ff 1 -> 2), count 124;
	 *   free 279: 124 (ff 2 -> 3), count 62;
	 *   free 403: 248 -> 155 (ff stays 3), count 31;
	 *   free 558: 155, count 31.
	 * 527 pages to the zone, one zone->lock per bulk, a pcp lock per free.
	 * (2.6.38's free_hot_cold_page frees 31 every time: 17 bulk frees.)
	 */
	counts_mark();
	free0 = zone_stat_exact(zone, NR_FREE_PAGES);
	for (size_t k = 0, i = 0; k < ARRAY_SIZE(free_steps); k++) {
		for (; i < (size_t)free_steps[k].frees; i++)
			free_local_page(held[i]);
		CHECK_MSG(pcp->count == free_steps[k].count && free_factor(pcp) == free_steps[k].factor,
			  "after %d frees: pcp->count %d, free_factor %d (want %d, %d)",
			  free_steps[k].frees, pcp->count, free_factor(pcp), free_steps[k].count,
			  free_steps[k].factor);
	}
	CHECK_EQ_LL(counts_delta(MMSCALE_LOCK_ACQUIRES), 558 + 5);
	CHECK_EQ_LL(counts_delta(MMSCALE_PAGES_MOVED), 527);
	/* 6.1's __free_one_page accounts each page: NR_FREE_PAGES exact. */
	CHECK_EQ_LL(zone_stat_exact(zone, NR_FREE_PAGES) - free0, 527);
	CHECK_EQ_LL(zone_nr_free(zone), 1520 - 558 + 527);

	/* An allocation halves free_factor (3 >> 1), under the lock it took. */
	page = alloc_local_page();
	CHECK(page != NULL);
	CHECK_EQ_LL(free_factor(pcp), 1);
	CHECK_EQ_LL(pcp->count, 30);

	/*
	 * T3, the trylock fallbacks: with pcp->lock held (as a remote drain
	 * holds it), rmqueue_pcplist fails the trylock and rmqueue_buddy takes
	 * the zone's first free page under zone->lock; free_unref_page puts a
	 * page back with free_one_page under zone->lock. Neither touches the
	 * pcp list, its count or free_factor; each takes exactly one lock.
	 */
	spin_lock(&pcp->lock);
	counts_mark();
	{
		struct page *head = list_first_entry(&zone_free_list(zone), struct page, lru);
		unsigned long nr_free0 = zone_nr_free(zone);
		long hit0 = zone_stat_exact(zone, NUMA_HIT);
		unsigned long ev_hit0 = zone_this_pcp(zone)->vm_numa_event[NUMA_HIT_6_1];
		unsigned long ev_local0 = zone_this_pcp(zone)->vm_numa_event[NUMA_LOCAL_6_1];
		struct page *other;

		free0 = zone_stat_exact(zone, NR_FREE_PAGES);
		other = alloc_local_page();
		CHECK(other == head);
		CHECK_EQ_LL(other->where, PAGE_HELD);
		CHECK_EQ_LL(zone_nr_free(zone), nr_free0 - 1);
		CHECK_EQ_LL(zone_stat_exact(zone, NR_FREE_PAGES) - free0, -1);
		/*
		 * 6.1's zone_statistics: NUMA_HIT and NUMA_LOCAL on this CPU's
		 * vm_numa_event (the zone is CPU 0's, its own node's), none on the
		 * zone's counters (2.6.38's __inc_zone_state moved those).
		 */
		CHECK_EQ_LL(zone_this_pcp(zone)->vm_numa_event[NUMA_HIT_6_1] - ev_hit0, 1);
		CHECK_EQ_LL(zone_this_pcp(zone)->vm_numa_event[NUMA_LOCAL_6_1] - ev_local0, 1);
		CHECK_EQ_LL(zone_stat_exact(zone, NUMA_HIT) - hit0, 0);
		CHECK_EQ_LL(pcp->count, 30);
		CHECK_EQ_LL(free_factor(pcp), 1);
		CHECK_EQ_LL(counts_delta(MMSCALE_LOCK_ACQUIRES), 1);

		free_local_page(page);
		CHECK_EQ_LL(page->where, PAGE_IN_BUDDY);
		CHECK(list_first_entry(&zone_free_list(zone), struct page, lru) == page);
		CHECK_EQ_LL(zone_nr_free(zone), nr_free0);
		CHECK_EQ_LL(zone_stat_exact(zone, NR_FREE_PAGES) - free0, 0);
		CHECK_EQ_LL(pcp->count, 30);
		CHECK_EQ_LL(counts_delta(MMSCALE_LOCK_ACQUIRES), 2);
		spin_unlock(&pcp->lock);

		/* The lock free again: the page goes to the pcp list (count 31). */
		free_local_page(other);
		CHECK_EQ_LL(other->where, 0);
		CHECK_EQ_LL(pcp->count, 31);
	}

	/*
	 * T4, the remote drain of this CPU: pcp->lock, then 6.1's
	 * free_pcppages_bulk lowers pcp->count page by page to 0 under one
	 * zone->lock. No IPI.
	 */
	counts_mark();
	drain_kernel()->drain_all_pages();
	CHECK_EQ_LL(pcp->count, 0);
	CHECK_EQ_LL(counts_delta(MMSCALE_PAGES_DRAINED), 31);
	CHECK_EQ_LL(counts_delta(MMSCALE_PAGES_MOVED), 31);
	CHECK_EQ_LL(counts_delta(MMSCALE_LOCK_ACQUIRES), 2);
	CHECK_EQ_LL(counts_delta(MMSCALE_IPIS_SENT), 0);
	CHECK_EQ_LL(zone_nr_free(zone), 1520);
	CHECK_EQ_LL(zone_stat_exact(zone, NR_FREE_PAGES), 1520);
	{
		char err[256];

		if (pages_conserved(0, err, sizeof(err)) != 0)
			fprintf(stderr, "T4: %s\n", err);
		CHECK(pages_conserved(0, err, sizeof(err)) == 0);
	}
	stop_mm();
}

/*
 * Part 3: the IPI paths on 4 CPUs (spin doorbell). CPU 0 is this thread;
 * CPUs 1-3 answer calls at the top of their loop and run commands this
 * thread gives them (outside IPI context, as a task would).
 *
 * The kernel's counts: generic_exec_single (2.6.38 and 3.4 kernel/smp.c)
 * rings a target only when its call_single_queue was empty, and the target
 * empties the queue (list_replace_init; 3.14+: llist_del_all) before it
 * runs the calls, in the order queued (list_add_tail / llist reversed);
 * smp_call_function_many leaves the caller out of the mask and rings each
 * other target (2.6.38/3.4 with one target: smp_call_function_single);
 * on_each_cpu calls smp_call_function and then func locally, irqs off,
 * without an IPI; on_each_cpu_mask (3.4) runs func locally if the caller
 * is in the mask. IPIS_HANDLED counts calls run for another CPU.
 */
typedef void (*cmd_fn)(void *arg);

static _Atomic(cmd_fn) cmd_slot[CPUS];
static void *_Atomic cmd_arg[CPUS];
static _Atomic bool stop;

#define LOG_MAX	64
static _Atomic int log_n;
static _Atomic int log_cpu[LOG_MAX], log_tag[LOG_MAX];
static _Atomic int ran[CPUS];

static void rec(void *info)
{
	int n = atomic_fetch_add(&log_n, 1);

	if (n < LOG_MAX) {
		atomic_store(&log_cpu[n], smp_processor_id());
		atomic_store(&log_tag[n], (int)(intptr_t)info);
	}
	atomic_fetch_add(&ran[smp_processor_id()], 1);
}

static void log_reset(void)
{
	atomic_store(&log_n, 0);
	for (int c = 0; c < CPUS; c++)
		atomic_store(&ran[c], 0);
}

static void partner_main(void *arg)
{
	int me = smp_processor_id();
	unsigned int spins = 0;

	(void)arg;
	ipi_cpu_online();
	cpu_set_activity("idle");
	while (!atomic_load(&stop)) {
		cmd_fn fn;

		ipi_interrupt_point();
		fn = atomic_load(&cmd_slot[me]);
		if (fn) {
			fn(atomic_load(&cmd_arg[me]));
			atomic_store(&cmd_slot[me], NULL);
			continue;
		}
		spin_wait_step(&spins);
	}
	ipi_cpu_offline();
}

/* Wait for *v >= n, answering calls; false after 10 s (a hang guard, not a timing check). */
static bool wait_for(_Atomic int *v, int n)
{
	unsigned int spins = 0;
	time_t deadline = time(NULL) + 10;

	while (atomic_load(v) < n) {
		ipi_interrupt_point();
		spin_wait_step(&spins);
		if ((spins & 4095) == 0 && time(NULL) > deadline)
			return false;
	}
	return true;
}

static void post_cmd(int cpu, cmd_fn fn, void *arg)
{
	atomic_store(&cmd_arg[cpu], arg);
	atomic_store(&cmd_slot[cpu], fn);
}

static bool wait_cmd(int cpu)
{
	unsigned int spins = 0;
	time_t deadline = time(NULL) + 10;

	while (atomic_load(&cmd_slot[cpu]) != NULL) {
		ipi_interrupt_point();
		spin_wait_step(&spins);
		if ((spins & 4095) == 0 && time(NULL) > deadline)
			return false;
	}
	return true;
}

static void nop_cmd(void *arg)
{
	(void)arg;
}

/*
 * After its calls have started (seen in the log): the target's loop runs
 * a command only after the interrupt point that ran them has returned, so
 * its handled count is final.
 */
static void sync_cpu(int cpu)
{
	post_cmd(cpu, nop_cmd, NULL);
	CHECK(wait_cmd(cpu));
}

static _Atomic int send_rc;

/* A command: this CPU calls rec on CPU 3 without waiting, tagged with its own number. */
static void send_to_3(void *arg)
{
	(void)arg;
	if (smp_call_function_single(3, rec, (void *)(intptr_t)smp_processor_id(), 0) != 0)
		atomic_fetch_add(&send_rc, 1);
}

static _Atomic bool hold_release;
static _Atomic int hold_started;

/* Hold the CPU that runs it (as a call: irqs off; as a command: no interrupt point). */
static void hold(void *info)
{
	unsigned int spins = 0;

	if (info)
		rec(info);
	atomic_fetch_add(&hold_started, 1);
	while (!atomic_load(&hold_release))
		spin_wait_step(&spins);
}

/* A FIFO step starts: nothing logged, CPU 3 not held yet, no send failed. */
static void fifo_reset(void)
{
	log_reset();
	atomic_store(&hold_release, false);
	atomic_store(&hold_started, 0);
	atomic_store(&send_rc, 0);
}

/*
 * CPU 3 held: CPU 0, then CPU 1, then CPU 2 each call rec on it without
 * waiting (tags 0, 1, 2); then the hold is let go.
 */
static void three_calls_to_held_3(void)
{
	CHECK(smp_call_function_single(3, rec, (void *)(intptr_t)0, 0) == 0);
	post_cmd(1, send_to_3, NULL);
	CHECK(wait_cmd(1));
	post_cmd(2, send_to_3, NULL);
	CHECK(wait_cmd(2));
	atomic_store(&hold_release, true);
}

#define CHECK_RAN(r0, r1, r2, r3) do {						\
	CHECK_EQ_LL(atomic_load(&ran[0]), (r0));				\
	CHECK_EQ_LL(atomic_load(&ran[1]), (r1));				\
	CHECK_EQ_LL(atomic_load(&ran[2]), (r2));				\
	CHECK_EQ_LL(atomic_load(&ran[3]), (r3));				\
} while (0)

#define CHECK_IPIS(sent, handled) do {						\
	CHECK_EQ_LL(counts_delta(MMSCALE_IPIS_SENT), (sent));			\
	CHECK_EQ_LL(counts_delta(MMSCALE_IPIS_HANDLED), (handled));		\
} while (0)

/* Which cross-CPU call a step makes from CPU 0, waited. */
enum smp_call {
	CALL_SINGLE,		/* smp_call_function_single(target) */
	CALL_MANY,		/* smp_call_function_many(mask) */
	CALL_OTHERS,		/* smp_call_function: every other online CPU */
	CALL_EACH,		/* on_each_cpu */
	CALL_EACH_MASK,		/* on_each_cpu_mask(mask) */
};

/* One waited call and what it must cost (IPIs sent = handled) and run where. */
struct smp_step {
	const char *what;
	enum smp_call call;
	int target;		/* CALL_SINGLE */
	unsigned int mask;	/* CALL_MANY, CALL_EACH_MASK: bit c is CPU c */
	int ipis;
	unsigned int ran;	/* bit c: run once on CPU c; clear: not run there */
	bool local_last;	/* CPU 0 ran it itself, after every other CPU (up to 3.x) */
};

/*
 * 2.6.38 kernel/smp.c; the same in 3.4 and 6.18 (test_smp_generations),
 * but for on_each_cpu(_mask)'s own call: last up to 3.x, while 6.18 runs it
 * between sending and waiting, in no fixed order with the others' (checked
 * where the generation waits first).
 */
static const struct smp_step smp_steps[] = {
	{ "I1: single to CPU 2: one IPI, run once there", CALL_SINGLE, .target = 2,
	  .ipis = 1, .ran = 0x4 },
	{ "I2: single to the caller: run here, irqs off, no IPI", CALL_SINGLE, .target = 0,
	  .ipis = 0, .ran = 0x1 },
	{ "I3: many {0,1,3}: the caller left out, 2 IPIs", CALL_MANY, .mask = 0xb, .ipis = 2,
	  .ran = 0xa },
	{ "I4: many {0} alone: nothing to call, nothing run (not even here)", CALL_MANY,
	  .mask = 0x1, .ipis = 0, .ran = 0x0 },
	{ "I4: many {2}: one", CALL_MANY, .mask = 0x4, .ipis = 1, .ran = 0x4 },
	{ "I5: smp_call_function: every other online CPU", CALL_OTHERS, .ipis = 3, .ran = 0xe },
	{ "I6: on_each_cpu: 3 IPIs, CPU 0 runs it itself after the others", CALL_EACH,
	  .ipis = 3, .ran = 0xf, .local_last = true },
	{ "I7: on_each_cpu_mask {0,2}: 1 IPI, the local run last", CALL_EACH_MASK, .mask = 0x5,
	  .ipis = 1, .ran = 0x5, .local_last = true },
	{ "I7: on_each_cpu_mask {1,2,3}: 3, none here", CALL_EACH_MASK, .mask = 0xe, .ipis = 3,
	  .ran = 0xe },
	{ "I7: on_each_cpu_mask {0}: 0 IPIs, run here", CALL_EACH_MASK, .mask = 0x1, .ipis = 0,
	  .ran = 0x1 },
	{ "I7: on_each_cpu_mask {}: nothing", CALL_EACH_MASK, .mask = 0x0, .ipis = 0, .ran = 0x0 },
};

static void check_smp_step(const struct smp_step *step)
{
	struct cpumask m;
	int rc = -1, nr_ran = 0;

	cpumask_clear(&m);
	for (int c = 0; c < CPUS; c++)
		if (step->mask & (1u << c))
			cpumask_set_cpu(c, &m);
	log_reset();
	counts_mark();
	switch (step->call) {
	case CALL_SINGLE:
		rc = smp_call_function_single(step->target, rec, NULL, 1);
		break;
	case CALL_MANY:
		rc = smp_call_function_many(&m, rec, NULL, true);
		break;
	case CALL_OTHERS:
		rc = smp_call_function(rec, NULL, 1);
		break;
	case CALL_EACH:
		rc = on_each_cpu(rec, NULL, 1);
		break;
	case CALL_EACH_MASK:
		rc = on_each_cpu_mask(&m, rec, NULL, true);
		break;
	}
	CHECK_MSG(rc == 0, "%s: returned %d", step->what, rc);
	CHECK_MSG(counts_delta(MMSCALE_IPIS_SENT) == step->ipis &&
		  counts_delta(MMSCALE_IPIS_HANDLED) == step->ipis,
		  "%s: %lld IPIs sent, %lld handled (want %d)", step->what,
		  (long long)counts_delta(MMSCALE_IPIS_SENT),
		  (long long)counts_delta(MMSCALE_IPIS_HANDLED), step->ipis);
	for (int c = 0; c < CPUS; c++) {
		int want = (step->ran >> c) & 1;

		CHECK_MSG(atomic_load(&ran[c]) == want, "%s: ran %d times on CPU %d (want %d)",
			  step->what, atomic_load(&ran[c]), c, want);
		nr_ran += want;
	}
	if (step->local_last && !ipi_generation()->local_before_wait)
		CHECK_MSG(atomic_load(&log_n) == nr_ran && atomic_load(&log_cpu[nr_ran - 1]) == 0,
			  "%s: CPU 0 did not run it last", step->what);
}

static void test_ipis(void)
{
	struct mmscale_partner partners[CPUS];
	char err[256];

	/* I1-I7 under every generation; the rest under the default (6.18's). */
	for (size_t g = 0; g < smp_nr_generations; g++) {
		struct ipi_config cfg;

		ipi_config_default(&cfg, &doorbell_spin);
		cfg.gen = smp_generations[g];
		atomic_store(&stop, false);
		CHECK(ipi_setup_config(&cfg, err, sizeof(err)) == 0);
		partners_start(partners, CPUS, partner_main);
		for (size_t i = 0; i < ARRAY_SIZE(smp_steps); i++)
			check_smp_step(&smp_steps[i]);
		partners_stop(partners, CPUS, &stop);
		ipi_teardown();
	}

	atomic_store(&stop, false);
	CHECK(ipi_setup(&doorbell_spin, err, sizeof(err)) == 0);
	partners_start(partners, CPUS, partner_main);

	/*
	 * I8, FIFO behind a running call: CPU 0 calls hold(G = 100) on CPU 3
	 * (1 IPI); while CPU 3 runs it, CPU 0, then CPU 1, then CPU 2 each call
	 * rec on CPU 3 without waiting. The target emptied its queue before
	 * running G, so CPU 0's call finds it empty and rings (IPI 2); CPU 1's
	 * and CPU 2's find it non-empty and do not. Run on CPU 3: G, 0, 1, 2.
	 * The same in 2.6.38, 3.4 and 3.14+.
	 */
	fifo_reset();
	counts_mark();
	CHECK(smp_call_function_single(3, hold, (void *)(intptr_t)100, 0) == 0);
	CHECK(wait_for(&hold_started, 1));
	three_calls_to_held_3();
	CHECK(wait_for(&log_n, 4));
	sync_cpu(3);
	CHECK_EQ_LL(atomic_load(&send_rc), 0);
	CHECK_IPIS(2, 4);
	CHECK_RAN(0, 0, 0, 4);
	for (int i = 0; i < 4; i++) {
		CHECK_EQ_LL(atomic_load(&log_cpu[i]), 3);
		CHECK_EQ_LL(atomic_load(&log_tag[i]), (i == 0 ? 100 : i - 1));
	}

	/*
	 * I9, FIFO on a target that does not look: CPU 3 runs a command that
	 * never reaches an interrupt point; CPU 0, 1, 2 each call rec on it
	 * without waiting. Run on CPU 3, once released: 0, 1, 2.
	 * IPIs: the kernel (2.6.38/3.4 generic_exec_single, 3.14+ llist_add)
	 * rings only for the first: the second and third find the queue
	 * non-empty. (Until the per-CPU generation modelled 6.18's queue, an
	 * inline call slot of the emulation's own made this 2.)
	 */
	fifo_reset();
	post_cmd(3, hold, NULL);
	CHECK(wait_for(&hold_started, 1));
	counts_mark();
	three_calls_to_held_3();
	CHECK(wait_cmd(3));
	CHECK(wait_for(&log_n, 3));
	sync_cpu(3);
	CHECK_EQ_LL(atomic_load(&send_rc), 0);
	CHECK_IPIS(1, 3);
	CHECK_RAN(0, 0, 0, 3);
	for (int i = 0; i < 3; i++) {
		CHECK_EQ_LL(atomic_load(&log_cpu[i]), 3);
		CHECK_EQ_LL(atomic_load(&log_tag[i]), i);
	}

	CHECK(ipi_error()[0] == 0);
	partners_stop(partners, CPUS, &stop);
	ipi_teardown();
}

static void arith_drain_tests(void)
{
	test_free_pcppages_bulk();
	test_refill_and_free();
	test_pcp_sizing();
	test_pcp_fractions();
	test_remote_6_1_paths();
	test_remote_6_1_zone_reads();
	test_remote_6_1_cma_balance();
	test_watermark_2_6_38();
	test_ipis();
}

int main(void)
{
	return test_machine_main("test_arith_drain", "synthetic:node:2 core:2 pu:1",
			       arith_drain_tests);
}
