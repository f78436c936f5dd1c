// SPDX-License-Identifier: GPL-2.0
/*
 * The per-CPU page list paths of mm/page_alloc.c, Linux 2.6.38 (see
 * include/mmscale/linux-2.6/mm/page_alloc.h for what is emulated minimally).
 * free_pcppages_bulk is 2.6.38's, without 3.x's "batch_free = to_free"
 * line, which changes no result; ipi-all has 2.6.32's own
 * (drain/drain_ipi_all.c).
 *
 * pcp->count is written with WRITE_ONCE: later drain variants read other
 * CPUs' counts without a lock (READ_ONCE), a race the kernel has on purpose.
 */
#include <stdlib.h>
#include <string.h>

#include "mmscale/kernel/cpumask.h"
#include "mmscale/kernel/machine.h"
#include "mmscale/mm/config.h"
#include "mmscale/linux-2.6/mm/page_alloc.h"

/* The booted variant (drain_kernel_boot): the allocator's paths below take its. */
static const struct drain_variant_ops *running_variant;

void drain_kernel_boot(const struct drain_variant_ops *ops)
{
	running_variant = ops;
}

const struct drain_variant_ops *drain_kernel(void)
{
	return running_variant;
}

struct zone_pool {
	struct page *pages;
	long nr;
};

static struct zone_pool *pools;		/* per populated zone, in walk order */
static int nr_pools;

/* Emulated: order-0 only, so freeing is putting the page back on the zone's list. */
void __free_one_page(struct page *page, struct zone *zone, unsigned int order,
		     int migratetype)
{
	(void)order;
	(void)migratetype;
	page->where = PAGE_IN_BUDDY;
	list_add(&page->lru, &zone_free_list(zone));
	zone_nr_free(zone)++;
}

struct page *__rmqueue(struct zone *zone, unsigned int order, int migratetype)
{
	struct page *page;

	(void)order;
	(void)migratetype;
	if (list_empty(&zone_free_list(zone)))
		return NULL;
	page = list_first_entry(&zone_free_list(zone), struct page, lru);
	list_del(&page->lru);
	zone_nr_free(zone)--;
	return page;
}

/*
 * Frees a number of pages from the PCP lists
 * Assumes all pages on list are in same zone, and of same order.
 * count is the number of pages to free.
 *
 * If the zone was previously in an "all pages pinned" state then look to
 * see if this freeing clears that state.
 *
 * And clear the zone's pages_scanned counter, to hold off the "all pages are
 * pinned" detection logic.
 */
void free_pcppages_bulk(struct zone *zone, int count, struct per_cpu_pages *pcp)
{
	int migratetype = 0;
	int batch_free = 0;
	int to_free = count;

	spin_lock_zone(zone);
	zone_all_unreclaimable(zone) = 0;
	zone_pages_scanned(zone) = 0;

	while (to_free) {
		struct page *page;
		struct list_head *list;

		/*
		 * Remove pages from lists in a round-robin fashion. A
		 * batch_free count is maintained that is incremented when an
		 * empty list is encountered.  This is so more pages are freed
		 * off fuller lists instead of spinning excessively around empty
		 * lists
		 */
		do {
			batch_free++;
			if (++migratetype == MIGRATE_PCPTYPES)
				migratetype = 0;
			list = &pcp->lists[migratetype];
		} while (list_empty(list));

		/*
		 * (3.x adds "if (batch_free == MIGRATE_PCPTYPES) batch_free =
		 * to_free;" here. It frees the same pages in the same order with
		 * fewer round-robin passes, so ipi-mask (3.4), which shares this
		 * function, sees the same results; scripts/mutants.list says so.)
		 */
		do {
			page = list_entry(list->prev, struct page, lru);
			/* must delete as __free_one_page list manipulates */
			list_del(&page->lru);
			/* MIGRATE_MOVABLE list may include MIGRATE_RESERVEs */
			__free_one_page(page, zone, 0, (int)page_private(page));
			mmscale_count_inc(MMSCALE_PAGES_MOVED);
		} while (--to_free && --batch_free && !list_empty(list));
	}
	__mod_zone_page_state(zone, NR_FREE_PAGES, count);
	spin_unlock_zone(zone);
}

/*
 * Obtain a specified number of elements from the buddy allocator, all under
 * a single hold of the lock, for efficiency.  Add them to the supplied list.
 * Returns the number of new pages which were placed at *list.
 */
static int rmqueue_bulk(struct zone *zone, unsigned int order, unsigned long count,
			struct list_head *list, int migratetype, int cold)
{
	int i;

	spin_lock_zone(zone);
	for (i = 0; i < (int)count; ++i) {
		struct page *page = __rmqueue(zone, order, migratetype);
		if (unlikely(page == NULL))
			break;

		/*
		 * Split buddy pages returned by expand() are received here
		 * in physical page order. The page is added to the callers and
		 * list and the list head then moves forward. From the callers
		 * perspective, the linked list is ordered by page number in
		 * some conditions. This is useful for IO devices that can
		 * merge IO requests if the physical pages are ordered
		 * properly.
		 */
		if (likely(cold == 0))
			list_add(&page->lru, list);
		else
			list_add_tail(&page->lru, list);
		set_page_private(page, (unsigned long)migratetype);
		page->where = smp_processor_id();
		list = &page->lru;
		mmscale_count_inc(MMSCALE_PAGES_MOVED);
	}
	__mod_zone_page_state(zone, NR_FREE_PAGES, -(i << order));
	spin_unlock_zone(zone);
	return i;
}

/*
 * Drain pages of the indicated processor (2.6.38's drain_pages, with the
 * pcp->count check of 2ff754fa: an empty list costs a load, not
 * zone->lock). Unchanged in 3.4; 4.11 keeps its logic in drain_pages_zone
 * (split out in 3.19). count-check, ipi-mask and workqueue run it.
 *
 * The processor must either be the current processor and the
 * thread pinned to the current processor or a processor that
 * is not online.
 */
void drain_pages_count_check(unsigned int cpu)
{
	unsigned long flags;
	struct zone *zone;

	for_each_populated_zone(zone) {
		struct per_cpu_pageset *pset;
		struct per_cpu_pages *pcp;

		pset = zone_pcp(zone, cpu);

		local_irq_save(flags);
		pcp = &pset->pcp;
		if (pcp->count) {
			mmscale_count_add(MMSCALE_PAGES_DRAINED, (u64)pcp->count);	/* thread-local: no store the kernel makes */
			free_pcppages_bulk(zone, pcp->count, pcp);
			WRITE_ONCE(pcp->count, 0);
		}
		local_irq_restore(flags);
	}
}

/*
 * Spill all of this CPU's per-cpu pages back into the buddy allocator.
 */
void drain_local_pages_count_check(void *arg)
{
	(void)arg;
	drain_pages_count_check((unsigned int)smp_processor_id());
}

/* mm/vmstat.c zone_statistics (2.6.38), one zonelist: the local node first. */
void zone_statistics(struct zone *preferred_zone, struct zone *z)
{
	if (zone_pgdat(z) == zone_pgdat(preferred_zone)) {
		__inc_zone_state(z, NUMA_HIT);
	} else {
		__inc_zone_state(z, NUMA_MISS);
		__inc_zone_state(preferred_zone, NUMA_FOREIGN);
	}
	if (zone_node(z) == numa_node_id())
		__inc_zone_state(z, NUMA_LOCAL);
	else
		__inc_zone_state(z, NUMA_OTHER);
}

/*
 * Really, prep_compound_page() should be called from __rmqueue_bulk().  But
 * we cheat by calling it from here, in the order > 0 path.  Saves a branch
 * or two. (Order 0 only here.)
 */
struct page *buffered_rmqueue(struct zone *preferred_zone, struct zone *zone, int order,
			      gfp_t gfp_flags, int migratetype)
{
	unsigned long flags;
	struct page *page;
	int cold = !!(gfp_flags & __GFP_COLD);
	struct per_cpu_pages *pcp;
	struct list_head *list;

	(void)order;
	local_irq_save(flags);
	pcp = &zone_this_pcp(zone)->pcp;
	list = &pcp->lists[migratetype];
	if (list_empty(list)) {
		WRITE_ONCE(pcp->count, pcp->count + rmqueue_bulk(zone, 0,
				(unsigned long)pcp->batch, list,
				migratetype, cold));
		if (unlikely(list_empty(list)))
			goto failed;
	}

	if (cold)
		page = list_entry(list->prev, struct page, lru);
	else
		page = list_entry(list->next, struct page, lru);

	list_del(&page->lru);
	WRITE_ONCE(pcp->count, pcp->count - 1);
	page->where = PAGE_HELD;

	zone_statistics(preferred_zone, zone);
	local_irq_restore(flags);
	return page;

failed:
	local_irq_restore(flags);
	return NULL;
}

/*
 * zone_watermark_ok for order 0 (2.6.38 lines 1461-1494; 2.6.32 the same):
 * __zone_watermark_ok with zone_page_state(z, NR_FREE_PAGES), less the
 * page asked for and one, against the mark and lowmem_reserve
 * [classzone_idx]; the loop over the orders below 0 is empty.
 */
static bool zone_watermark_ok(struct zone *z, unsigned long mark, int classzone_idx)
{
	long free_pages = (long)zone_page_state(z, NR_FREE_PAGES);
	long min = (long)mark;

	free_pages -= (1 << 0) + 1;
	return free_pages > min + zone_lowmem_reserve(z)[classzone_idx];
}

/*
 * An order-0 movable allocation on this CPU's node: 6.1's rmqueue for the
 * variants that have it; otherwise the first pass of 2.6.32-3.4's
 * __alloc_pages_nodemask, get_page_from_freelist (2.6.38 lines 1661-1668)
 * with ALLOC_WMARK_LOW: zone_watermark_ok(zone, 0, zone->watermark
 * [WMARK_LOW], zone_idx(preferred_zone)) before buffered_rmqueue. The
 * emulated marks are 0 and every page outside
 * the drain pool counts as free (boot), so the test passes; failing it
 * would mean reclaim, which is not emulated: the allocation fails, and so
 * does its run. Not emulated: the cpuset test (ALLOC_CPUSET; one cpuset,
 * a read of number_of_cpusets) and the zonelist cache (NUMA, inactive
 * until a zone is found full).
 */
struct page *alloc_local_page(void)
{
	struct zone *zone = local_zone(smp_processor_id());
	int classzone_idx = zone_idx(zone);

	if (running_variant->machine->rmqueue)
		return running_variant->machine->rmqueue(zone, zone, MIGRATE_MOVABLE);
	if (!zone_watermark_ok(zone, zone_watermark(zone)[WMARK_LOW], classzone_idx))
		return NULL;
	return buffered_rmqueue(zone, zone, 0, 0, MIGRATE_MOVABLE);
}

void free_local_page(struct page *page)
{
	if (running_variant->machine->free_page)
		running_variant->machine->free_page(page);
	else
		free_hot_cold_page(page, 0);
}

void *drain_alloc_local(void)
{
	return running_variant->world ? running_variant->world->alloc_local() : alloc_local_page();
}

void drain_free_local(void *page)
{
	if (running_variant->world)
		running_variant->world->free_local(page);
	else
		free_local_page(page);
}

/*
 * drain/full's fill on the 2.6.x machine (every row but 6.18's): n pages
 * of this CPU's local zone onto its MIGRATE_MOVABLE list, at its head as
 * free_hot_cold_page puts a hot page, under zone->lock with NR_FREE_PAGES
 * lowered as rmqueue_bulk does, so that pages_conserved holds with the
 * lists full. Not a kernel path: its counts are the caller's to exclude.
 */
static unsigned long fill_local_2_6(unsigned long n)
{
	struct zone *zone = local_zone(smp_processor_id());
	struct per_cpu_pages *pcp = &zone_this_pcp(zone)->pcp;
	unsigned long flags, i;

	spin_lock_zone_irqsave(zone, flags);
	for (i = 0; i < n; i++) {
		struct page *page = __rmqueue(zone, 0, MIGRATE_MOVABLE);

		if (!page)
			break;
		set_page_private(page, MIGRATE_MOVABLE);
		page->where = smp_processor_id();
		list_add(&page->lru, &pcp->lists[MIGRATE_MOVABLE]);
	}
	__mod_zone_page_state(zone, NR_FREE_PAGES, -(long)i);
	WRITE_ONCE(pcp->count, pcp->count + (int)i);
	spin_unlock_zone_irqrestore(zone, flags);
	return i;
}

unsigned long drain_fill_local(unsigned long n)
{
	return running_variant->world ? running_variant->world->fill_local(n) : fill_local_2_6(n);
}

unsigned long drain_list_high(unsigned int cpu)
{
	if (running_variant->world)
		return running_variant->world->list_high(cpu);
	return (unsigned long)zone_pcp(local_zone((int)cpu), cpu)->pcp.high;
}

void drain_shape_now(struct drain_shape *m)
{
	struct zone *zone;
	unsigned int cpu;

	if (running_variant->world) {
		running_variant->world->shape(m);
		return;
	}
	*m = (struct drain_shape){ .cpus = num_online_cpus(), .zones = (unsigned int)nr_populated_zones() };
	for_each_online_cpu(cpu) {
		unsigned long on_cpu = 0;

		for_each_populated_zone(zone) {
			struct per_cpu_pages *pcp = &zone_pcp(zone, cpu)->pcp;

			drain_shape_add_list(m, (unsigned long)pcp->count, (unsigned long)pcp->batch);
			on_cpu += (unsigned long)pcp->count;
		}
		m->cpus_with_pages += on_cpu != 0;
		m->cpu_pages_max = max(m->cpu_pages_max, on_cpu);
		if (cpu == (unsigned int)smp_processor_id())
			m->caller_has_pages = on_cpu != 0;
	}
}

unsigned int drain_populated_zones(const struct drain_variant_ops *ops)
{
	return ops->world ? ops->world->populated_zones() : (unsigned int)nr_populated_zones();
}

/*
 * Free a 0-order page
 * cold == 1 ? free a cold page : free a hot page
 */
void free_hot_cold_page(struct page *page, int cold)
{
	struct zone *zone = page_zone(page);
	struct per_cpu_pages *pcp;
	unsigned long flags;
	int migratetype;

	migratetype = MIGRATE_MOVABLE;	/* get_pageblock_migratetype(page) */
	set_page_private(page, (unsigned long)migratetype);
	local_irq_save(flags);

	pcp = &zone_this_pcp(zone)->pcp;
	if (cold)
		list_add_tail(&page->lru, &pcp->lists[migratetype]);
	else
		list_add(&page->lru, &pcp->lists[migratetype]);
	page->where = smp_processor_id();
	WRITE_ONCE(pcp->count, pcp->count + 1);
	if (pcp->count >= pcp->high) {
		running_variant->machine->free_pcppages_bulk(zone, pcp->batch, pcp);
		WRITE_ONCE(pcp->count, pcp->count - pcp->batch);
	}

	local_irq_restore(flags);
}

/* mm/page_alloc.c zone_batchsize (2.6.38, CONFIG_MMU). */
static int zone_batchsize(struct zone *zone)
{
	unsigned long batch;

	/*
	 * The per-cpu-pages pools are set to around 1000th of the
	 * size of the zone.  But no more than 1/2 of a meg.
	 *
	 * OK, so we don't know how big the cache is.  So guess.
	 */
	batch = zone_present_pages(zone) / 1024;
	if (batch * PAGE_SIZE > 512 * 1024)
		batch = (512 * 1024) / PAGE_SIZE;
	batch /= 4;		/* We effectively *= 4 below */
	if (batch < 1)
		batch = 1;

	/*
	 * Clamp the batch to a 2^n - 1 value. Having a power
	 * of 2 value was found to be more likely to have
	 * suboptimal cache aliasing properties in some cases.
	 *
	 * For example if 2 tasks are alternately allocating
	 * batches of pages, one task can end up with a lot
	 * of pages of one half of the possible page colors
	 * and the other with pages of the other colors.
	 */
	batch = (1UL << (fls((unsigned int)(batch + batch/2)) - 1)) - 1;

	return (int)batch;
}

/*
 * 6.1's pcp->batch and ->high (6.1-rc7 mm/page_alloc.c: zone_batchsize
 * lines 7065-7110, zone_highsize 7113-7159, zone_set_pageset_high_and_batch
 * 7222-7237): batch ~0.1% of the zone, at most 1 MiB, clamped to 2^n - 1;
 * high, with percpu_pagelist_high_fraction 0 (its default, line 268), the
 * zone's low watermark split over the CPUs of its node, at least 4 x batch.
 * The low watermark as __setup_per_zone_wmarks (8720-8773) sets it at boot:
 * min_free_kbytes = int_sqrt(lowmem_kbytes * 16), clamped to [128, 262144]
 * (calculate_min_free_kbytes, 8831-8845; nr_free_buffer_pages at boot is
 * every zone's managed pages: no watermark is set yet); the zone's share of
 * it, min, plus max(min / 4, managed x watermark_scale_factor 10 / 10000).
 * The zone's managed pages are its present pages here. The watermarks are
 * used for high only: the emulated zones keep marks of 0 (remote's
 * zone_watermark_fast reads the kernel's lines; their free pages are the
 * drain pool, far below a real zone's, and reclaim is not emulated).
 */
/* lib/math/int_sqrt.c: the floor of the square root, bit by bit. */
static unsigned long int_sqrt(unsigned long x)
{
	unsigned long b, m, y = 0;

	if (x <= 1)
		return x;
	m = 1UL << ((unsigned long)(fls_long(x) - 1) & ~1UL);	/* __fls: 0-based */
	while (m != 0) {
		b = y + m;
		y >>= 1;
		if (x >= b) {
			x -= b;
			y += m;
		}
		m >>= 2;
	}
	return y;
}

static int zone_batchsize_6_1(struct zone *zone)
{
	int batch;

	batch = (int)min(zone_present_pages(zone) >> 10, (1UL << 20) / PAGE_SIZE);
	batch /= 4;		/* We effectively *= 4 below */
	if (batch < 1)
		batch = 1;
	batch = (1 << (fls((unsigned int)(batch + batch / 2)) - 1)) - 1;	/* rounddown_pow_of_two - 1 */
	return batch;
}

static unsigned long low_wmark_pages_6_1(struct zone *zone)
{
	unsigned long lowmem_pages = 0, min_free_kbytes, pages_min, min, tmp;
	struct zone *z;

	for_each_zone(z)
		lowmem_pages += zone_present_pages(z);
	min_free_kbytes = clamp_t(unsigned long, int_sqrt(lowmem_pages * (PAGE_SIZE >> 10) * 16),
				  128UL, 262144UL);
	pages_min = min_free_kbytes >> (PAGE_SHIFT - 10);
	min = (unsigned long)((u64)pages_min * zone_present_pages(zone) / lowmem_pages);
	tmp = max(min >> 2, zone_present_pages(zone) * 10 / 10000);	/* mult_frac */
	return min + tmp;
}

/*
 * 6.1's zone_highsize (7113-7160): the low watermark, or with
 * percpu_pagelist_high_fraction set (--set) the managed pages over it,
 * split over the zone's node's online CPUs, at least 4 x batch.
 */
static int zone_highsize_6_1(struct zone *zone, int batch, int high_fraction)
{
	int high, nr_split_cpus = 0;
	unsigned long total_pages;
	unsigned int cpu;

	if (!high_fraction)
		total_pages = low_wmark_pages_6_1(zone);
	else
		total_pages = zone_present_pages(zone) / (unsigned long)high_fraction;
	for_each_online_cpu(cpu)
		nr_split_cpus += cpu_to_node((int)cpu) == zone_to_nid(zone);
	if (!nr_split_cpus)
		nr_split_cpus = (int)num_online_cpus();
	high = (int)(total_pages / (unsigned long)nr_split_cpus);
	high = max(high, batch << 2);
	return high;
}

/*
 * 2.6.38's setup_pagelist_highmark (lines 3439-3449), which
 * percpu_pagelist_fraction's handler runs on every pageset (5149-5167):
 * high the zone's present pages over the fraction, batch a quarter of it,
 * at least 1 and at most PAGE_SHIFT * 8.
 */
static void setup_pagelist_highmark(struct per_cpu_pageset *p, unsigned long high)
{
	struct per_cpu_pages *pcp = &p->pcp;

	pcp->high = (int)high;
	pcp->batch = (int)max(1UL, high / 4);
	if ((high / 4) > (PAGE_SHIFT * 8))
		pcp->batch = PAGE_SHIFT * 8;
}

static void setup_pageset(struct per_cpu_pageset *p, int batch, int high)
{
	struct per_cpu_pages *pcp = &p->pcp;

	pcp->count = 0;
	pcp->high = high;
	pcp->batch = max(1, 1 * batch);
	spin_lock_init(&pcp->lock);
	for (int migratetype = 0; migratetype < MIGRATE_PCPTYPES; migratetype++)
		INIT_LIST_HEAD(&pcp->lists[migratetype]);
}

/* 6.1's vm_numa_stat_key (drain_remote.c's zone_statistics reads it), on at boot. */
bool vm_numa_stat_key_6_1 = true;

int drain_mm_setup(long pool_pages, char *err, size_t errlen)
{
	struct zone *zone;
	int i = 0;

	drain_mm_teardown();
	/* mmscale: --set numa_stat=N (mm/config.h), as 6.1's sysctl handler writes it. */
	vm_numa_stat_key_6_1 = MM_KNOB_OR(mm_config()->numa_stat, 1) == 1;
	nr_pools = nr_populated_zones();
	pools = calloc((size_t)nr_pools, sizeof(*pools));
	if (!pools)
		return mmscale_errorf(err, errlen, "out of memory");
	for_each_populated_zone(zone) {
		/* 2.6.38's setup_pageset (high 6 x batch), or 6.1's, as the zone's kernel. */
		bool v6_1 = zone_layout.kind == MM_ZONE_LAYOUT_6_1;
		/* mmscale: --set percpu_pagelist_high_fraction=N (6.1), as its sysctl (mm/config.h). */
		int high_fraction = (int)MM_KNOB_OR(mm_config()->percpu_pagelist_high_fraction, 0);
		/* mmscale: --set percpu_pagelist_fraction=N (2.6.x), as its sysctl (mm/config.h). */
		long long fraction = v6_1 ? MM_KNOB_AUTO : mm_config()->percpu_pagelist_fraction;
		int batch = v6_1 ? zone_batchsize_6_1(zone) : zone_batchsize(zone);
		int high = v6_1 ? zone_highsize_6_1(zone, batch, high_fraction) : 6 * batch;
		long cpus_here = 0, nr;
		unsigned int cpu;

		for_each_online_cpu(cpu) {
			struct per_cpu_pages *pcp = &zone_pcp(zone, cpu)->pcp;

			setup_pageset(zone_pcp(zone, cpu), batch, high);
			if (fraction != MM_KNOB_AUTO)
				setup_pagelist_highmark(zone_pcp(zone, cpu),
							zone_present_pages(zone) /
							(unsigned long)fraction);
			/* mmscale: --set pcp_batch=N, pcp_high=N: no kernel knob (mm/config.h). */
			pcp->batch = (int)MM_KNOB_OR(mm_config()->pcp_batch, pcp->batch);
			pcp->high = (int)MM_KNOB_OR(mm_config()->pcp_high, pcp->high);
			cpus_here += cpu_to_node((int)cpu) == zone_node(zone);
			/* The pool below sizes for the lists as the handler left them. */
			high = pcp->high;
			batch = pcp->batch;
		}
		/*
		 * Every kernel keeps batch at most high (6 x, zone_highsize's 4 x,
		 * setup_pagelist_highmark's a quarter, or 1 over a high of 0): 2.6.x's
		 * free path hands free_pcppages_bulk a batch from a list at high
		 * (and at least the page just freed), which walks its lists until it
		 * has freed that many. --set can break that.
		 */
		if (batch > max(high, 1)) {
			drain_mm_teardown();
			return mmscale_errorf(err, errlen, "pcp batch %d above high %d (--set "
					      "pcp_batch, pcp_high): every kernel keeps batch at most "
					      "high", batch, high);
		}
		/* Enough for every CPU of the node to fill its list to high and hold two batches. */
		nr = pool_pages ? pool_pages : 1024 + cpus_here * ((long)high + 2L * batch);
		nr = min(nr, (long)zone_present_pages(zone));
		pools[i].pages = alloc_on_node(zone_node(zone), sizeof(struct page) * (size_t)nr,
						       err, errlen);
		if (!pools[i].pages) {
			drain_mm_teardown();
			return -1;
		}
		pools[i].nr = nr;
		INIT_LIST_HEAD(&zone_free_list(zone));
		zone_nr_free(zone) = 0;
		for (long k = 0; k < nr; k++) {
			struct page *page = &pools[i].pages[k];

			page->zone = zone;
			__free_one_page(page, zone, 0, MIGRATE_MOVABLE);
		}
		/* The rest of the zone's memory is in use elsewhere: not free. */
		zone_page_state_add(-(long)(zone_present_pages(zone) - (unsigned long)nr), zone,
				    NR_FREE_PAGES);
		i++;
	}
	return 0;
}

void drain_mm_teardown(void)
{
	struct zone *zone;
	int i = 0;

	if (!pools)
		return;
	for_each_populated_zone(zone) {
		if (i < nr_pools && pools[i].pages)
			free_on_node(pools[i].pages, sizeof(struct page) * (size_t)pools[i].nr);
		INIT_LIST_HEAD(&zone_free_list(zone));
		zone_nr_free(zone) = 0;
		i++;
	}
	free(pools);
	pools = NULL;
	nr_pools = 0;
}

long drain_pool_total(void)
{
	long total = 0;

	for (int i = 0; i < nr_pools; i++)
		total += pools[i].nr;
	return total;
}

int pages_conserved(long held, char *err, size_t errlen)
{
	struct zone *zone;
	long in_buddy = 0, in_pcp = 0, marked_held = 0;
	int i = 0;

	for_each_populated_zone(zone) {
		struct page *page;
		unsigned long n = 0;
		unsigned int cpu;

		list_for_each_entry(page, &zone_free_list(zone), lru) {
			if (page->where != PAGE_IN_BUDDY)
				return mmscale_errorf(err, errlen, "a page on node %d's free list "
						      "says it is elsewhere (%d)", zone_node(zone),
						      page->where);
			n++;
		}
		if (n != zone_nr_free(zone))
			return mmscale_errorf(err, errlen, "node %d zone %s: %lu pages on the free "
					      "list, nr_free %lu", zone_node(zone), zone_name(zone), n,
					      zone_nr_free(zone));
		in_buddy += (long)n;
		for_each_online_cpu(cpu) {
			struct per_cpu_pages *pcp = &zone_pcp(zone, cpu)->pcp;
			int m = 0;

			for (int mt = 0; mt < MIGRATE_PCPTYPES; mt++)
				list_for_each_entry(page, &pcp->lists[mt], lru) {
					if (page->where != (int)cpu || page->zone != zone)
						return mmscale_errorf(err, errlen, "a page on CPU %u's "
							"pcp list says it is elsewhere (%d)", cpu,
							page->where);
					m++;
				}
			if (m != pcp->count)
				return mmscale_errorf(err, errlen, "CPU %u node %d: %d pages on its "
						      "pcp lists, pcp->count %d", cpu, zone_node(zone),
						      m, pcp->count);
			in_pcp += m;
		}
		for (long k = 0; k < pools[i].nr; k++)
			marked_held += pools[i].pages[k].where == PAGE_HELD;
		i++;
	}
	if (marked_held != held)
		return mmscale_errorf(err, errlen, "%ld pages marked held, the CPUs hold %ld",
				      marked_held, held);
	if (in_buddy + in_pcp + held != drain_pool_total())
		return mmscale_errorf(err, errlen, "free lists %ld + pcp lists %ld + held %ld != "
				      "%ld pages", in_buddy, in_pcp, held, drain_pool_total());
	return 0;
}
