// SPDX-License-Identifier: GPL-2.0
/*
 * vmstat of Linux 6.18: mm/vmstat.c (../shared/kernel/6.18, blob bb09c032),
 * line by line where it concerns the counters: fold_vm_zone_numa_events and
 * fold_vm_numa_events (171-196), calculate_normal_threshold (225-270),
 * refresh_zone_stat_thresholds (275-318), __mod_zone_page_state and
 * __mod_node_page_state (345-410), __inc_node_state and __dec_node_state
 * (455-535), mod_zone_state and mod_node_state with this_cpu_try_cmpxchg
 * (CONFIG_HAVE_CMPXCHG_LOCAL, 560-690), fold_diff (776-793),
 * refresh_cpu_vm_stats (811-892), cpu_vm_stats_fold (899-952),
 * need_update (2058-2081) and vmstat_shepherd (2118-2150).
 *
 * Left out, each said where it would be: the vmstat_item_in_bytes
 * conversion of the _B slab items (no case updates them); cond_resched.
 */
#include <stdlib.h>
#include <string.h>

#include "mmscale/errorf.h"
#include "mmscale/kernel/machine.h"
#include "mmscale/mm/config.h"
#include "mmscale/linux-6.18/mm/pcp.h"
#include "mmscale/linux-6.18/mm/vmstat.h"

atomic_long_t *vm_zone_stat;
atomic_long_t *vm_node_stat;
atomic_long_t *vm_numa_event;
pg_data_t **node_data;
int nr_node_ids_6_18;

static size_t global_bytes;

static void fold_vm_zone_numa_events(struct zone *zone)
{
	unsigned long zone_numa_events[NR_VM_NUMA_EVENT_ITEMS] = { 0, };
	unsigned int cpu;
	enum numa_stat_item item;

	for_each_online_cpu(cpu) {
		struct per_cpu_zonestat *pzstats;

		pzstats = per_cpu_ptr(zone->per_cpu_zonestats, cpu);
		mmscale_count_inc(MMSCALE_PERCPU_SUM_SLOTS);
		for (item = 0; item < NR_VM_NUMA_EVENT_ITEMS; item++) {
			/* xchg(): a locked exchange on the other CPU's line. */
			mmscale_count_inc(MMSCALE_LOCKED_OPS);
			zone_numa_events[item] += __atomic_exchange_n(&pzstats->vm_numa_event[item],
								     0UL, __ATOMIC_SEQ_CST);
		}
	}

	for (item = 0; item < NR_VM_NUMA_EVENT_ITEMS; item++)
		zone_numa_event_add((long)zone_numa_events[item], zone, item);
}

void fold_vm_numa_events(void)
{
	struct zone *zone;

	for_each_populated_zone(zone)
		fold_vm_zone_numa_events(zone);
}

int calculate_normal_threshold(struct zone *zone)
{
	int threshold;
	int mem;	/* memory in 128 MB units */

	/*
	 * The threshold scales with the number of processors and the amount
	 * of memory per zone (the kernel's sample table is checked in
	 * counters/tests/test_vmstat_6_18.c). 6.18 counts the zone's managed
	 * pages (vmstat.c 245); 2.6.31 counted the present ones.
	 */
	mem = (int)(zone_managed_pages(zone) >> (27 - PAGE_SHIFT));

	threshold = 2 * fls(num_online_cpus()) * (1 + fls((unsigned int)mem));

	/*
	 * Maximum threshold is 125
	 */
	threshold = min(125, threshold);

	return threshold;
}

/*
 * Refresh the thresholds for each zone. (percpu_drift_mark, which only
 * the watermark checks read, is not emulated.)
 */
void refresh_zone_stat_thresholds(void)
{
	struct pglist_data *pgdat;
	struct zone *zone;
	unsigned int cpu;
	int threshold;

	/* Zero current pgdat thresholds */
	for_each_online_pgdat(pgdat) {
		for_each_online_cpu(cpu) {
			per_cpu_ptr(pgdat->per_cpu_nodestats, cpu)->stat_threshold = 0;
		}
	}

	for_each_populated_zone(zone) {
		pgdat = zone->zone_pgdat;

		threshold = calculate_normal_threshold(zone);
		/* mmscale: --set stat_threshold=N (no kernel knob; mm/config.h). */
		if (mm_config()->stat_threshold != MM_KNOB_AUTO)
			threshold = mm_config()->stat_threshold;

		for_each_online_cpu(cpu) {
			int pgdat_threshold;

			per_cpu_ptr(zone->per_cpu_zonestats, cpu)->stat_threshold = (s8)threshold;

			/* Base nodestat threshold on the largest populated zone. */
			pgdat_threshold = per_cpu_ptr(pgdat->per_cpu_nodestats, cpu)->stat_threshold;
			per_cpu_ptr(pgdat->per_cpu_nodestats, cpu)->stat_threshold =
				(s8)max(threshold, pgdat_threshold);
		}
	}
}

/*
 * For use when we know that interrupts are disabled, or when we know that
 * preemption is disabled and that particular counter cannot be updated from
 * interrupt context: a plain read-modify-write of the CPU's diff.
 */
void __mod_zone_page_state(struct zone *zone, enum zone_stat_item item, long delta)
{
	struct per_cpu_zonestat *pcp = this_cpu_ptr(zone->per_cpu_zonestats);
	s8 *p = pcp->vm_stat_diff + item;
	long x;
	long t;

	x = delta + READ_ONCE(*p);

	t = pcp->stat_threshold;

	if (unlikely(labs(x) > t)) {
		zone_page_state_add(x, zone, item);
		x = 0;
	}
	WRITE_ONCE(*p, (s8)x);
}

void __mod_node_page_state(struct pglist_data *pgdat, enum node_stat_item item, long delta)
{
	struct per_cpu_nodestat *pcp = this_cpu_ptr(pgdat->per_cpu_nodestats);
	s8 *p = pcp->vm_node_stat_diff + item;
	long x;
	long t;

	x = delta + READ_ONCE(*p);

	t = pcp->stat_threshold;

	if (unlikely(labs(x) > t)) {
		node_page_state_add(x, pgdat, item);
		x = 0;
	}
	WRITE_ONCE(*p, (s8)x);
}

void __inc_node_state(struct pglist_data *pgdat, enum node_stat_item item)
{
	struct per_cpu_nodestat *pcp = this_cpu_ptr(pgdat->per_cpu_nodestats);
	s8 *p = pcp->vm_node_stat_diff + item;
	s8 v, t;

	v = (s8)(READ_ONCE(*p) + 1);	/* __this_cpu_inc_return */
	WRITE_ONCE(*p, v);
	t = pcp->stat_threshold;
	if (unlikely(v > t)) {
		s8 overstep = (s8)(t >> 1);

		node_page_state_add(v + overstep, pgdat, item);
		WRITE_ONCE(*p, (s8)-overstep);
	}
}

void __dec_node_state(struct pglist_data *pgdat, enum node_stat_item item)
{
	struct per_cpu_nodestat *pcp = this_cpu_ptr(pgdat->per_cpu_nodestats);
	s8 *p = pcp->vm_node_stat_diff + item;
	s8 v, t;

	v = (s8)(READ_ONCE(*p) - 1);	/* __this_cpu_dec_return */
	WRITE_ONCE(*p, v);
	t = pcp->stat_threshold;
	if (unlikely(v < -t)) {
		s8 overstep = (s8)(t >> 1);

		node_page_state_add(v - overstep, pgdat, item);
		WRITE_ONCE(*p, overstep);
	}
}

/*
 * If we have cmpxchg_local support then we do not need to incur the
 * overhead that comes with local_irq_save/restore if we use
 * this_cpu_cmpxchg. Overstep mode: 0 none, 1 half the threshold, -1 minus
 * half the threshold.
 */
static inline void mod_zone_state(struct zone *zone, enum zone_stat_item item, long delta,
				  int overstep_mode)
{
	struct per_cpu_zonestat *pcp = this_cpu_ptr(zone->per_cpu_zonestats);
	s8 *p = pcp->vm_stat_diff + item;
	long n, t, z;
	s8 o;

	o = READ_ONCE(*p);
	do {
		z = 0;  /* overflow to zone counters */

		t = READ_ONCE(pcp->stat_threshold);

		n = delta + (long)o;

		if (labs(n) > t) {
			int os = overstep_mode * (int)(t >> 1);

			/* Overflow must be added to zone counters */
			z = n + os;
			n = -os;
		}
	} while (!this_cpu_try_cmpxchg_s8(p, &o, (s8)n));

	if (z)
		zone_page_state_add(z, zone, item);
}

void mod_zone_page_state(struct zone *zone, enum zone_stat_item item, long delta)
{
	mod_zone_state(zone, item, delta, 0);
}

static inline void mod_node_state(struct pglist_data *pgdat, enum node_stat_item item,
				  int delta, int overstep_mode)
{
	struct per_cpu_nodestat *pcp = this_cpu_ptr(pgdat->per_cpu_nodestats);
	s8 *p = pcp->vm_node_stat_diff + item;
	long n, t, z;
	s8 o;

	o = READ_ONCE(*p);
	do {
		z = 0;  /* overflow to node counters */

		t = READ_ONCE(pcp->stat_threshold);

		n = delta + (long)o;

		if (labs(n) > t) {
			int os = overstep_mode * (int)(t >> 1);

			/* Overflow must be added to node counters */
			z = n + os;
			n = -os;
		}
	} while (!this_cpu_try_cmpxchg_s8(p, &o, (s8)n));

	if (z)
		node_page_state_add(z, pgdat, item);
}

void mod_node_page_state(struct pglist_data *pgdat, enum node_stat_item item, long delta)
{
	/* The kernel's int delta parameter of mod_node_state. */
	mod_node_state(pgdat, item, (int)delta, 0);
}

void inc_node_state(struct pglist_data *pgdat, enum node_stat_item item)
{
	mod_node_state(pgdat, item, 1, 1);
}

void dec_node_state_6_18(struct pglist_data *pgdat, enum node_stat_item item)
{
	/* dec_node_page_state(page, item) for a page of pgdat. */
	mod_node_state(pgdat, item, -1, -1);
}

/*
 * Fold a differential into the global counters.
 * Returns the number of counters updated.
 */
static int fold_diff(int *zone_diff, int *node_diff)
{
	int i;
	int changes = 0;

	for (i = 0; i < NR_VM_ZONE_STAT_ITEMS; i++)
		if (zone_diff[i]) {
			atomic_long_add(zone_diff[i], &vm_zone_stat[i]);
			changes++;
		}

	for (i = 0; i < NR_VM_NODE_STAT_ITEMS; i++)
		if (node_diff[i]) {
			atomic_long_add(node_diff[i], &vm_node_stat[i]);
			changes++;
		}
	return changes;
}

/*
 * Update the zone counters for the current cpu: each zone's and node's
 * diffs into that zone's or node's counters, and their sum into the
 * global ones once (fold_diff). Counts one MMSCALE_FOLDS per global item
 * changed. do_pagesets (vmstat_update's true) also decays pcp->high
 * (decay_pcp_high, kernel/linux-6.18/mm/page_alloc.c) and, for a remote zone, counts its
 * pageset's expiry down and drains it (drain_zone_pages) - where the zone
 * has pagesets (a world with the 6.18 page lists set up).
 */
int refresh_cpu_vm_stats(bool do_pagesets)
{
	struct pglist_data *pgdat;
	struct zone *zone;
	int i;
	int global_zone_diff[NR_VM_ZONE_STAT_ITEMS] = { 0, };
	int global_node_diff[NR_VM_NODE_STAT_ITEMS] = { 0, };
	int changes = 0, folded;

	for_each_populated_zone(zone) {
		struct per_cpu_zonestat *pzstats = this_cpu_ptr(zone->per_cpu_zonestats);
		/* The pagesets exist where the 6.18 page lists are set up (linux-6.18/mm/pcp.h). */
		struct per_cpu_pages *pcp = zone->per_cpu_pageset ?
					    this_cpu_ptr(zone->per_cpu_pageset) : NULL;

		for (i = 0; i < NR_VM_ZONE_STAT_ITEMS; i++) {
			int v;

			v = this_cpu_xchg_s8(&pzstats->vm_stat_diff[i], 0);
			if (v) {
				atomic_long_add(v, &zone->vm_stat[i]);
				global_zone_diff[i] += v;
				/* 3 seconds idle till flush */
				if (pcp)
					pcp->expire = 3;
			}
		}

		if (do_pagesets && pcp) {
			changes += decay_pcp_high_6_18(zone, pcp);
			/*
			 * Deal with draining the remote pageset of this
			 * processor
			 *
			 * Check if there are pages remaining in this pageset
			 * if not then there is nothing to expire.
			 */
			if (!pcp->expire || !READ_ONCE(pcp->count))
				continue;

			/*
			 * We never drain zones local to this processor.
			 */
			if (zone->node == numa_node_id()) {
				pcp->expire = 0;
				continue;
			}

			if (--pcp->expire) {
				changes++;
				continue;
			}

			if (READ_ONCE(pcp->count)) {
				drain_zone_pages_6_18(zone, pcp);
				changes++;
			}
		}
	}

	for_each_online_pgdat(pgdat) {
		struct per_cpu_nodestat *p = this_cpu_ptr(pgdat->per_cpu_nodestats);

		for (i = 0; i < NR_VM_NODE_STAT_ITEMS; i++) {
			int v;

			v = this_cpu_xchg_s8(&p->vm_node_stat_diff[i], 0);
			if (v) {
				atomic_long_add(v, &pgdat->vm_stat[i]);
				global_node_diff[i] += v;
			}
		}
	}

	folded = fold_diff(global_zone_diff, global_node_diff);
	mmscale_count_add(MMSCALE_FOLDS, (uint64_t)folded);
	return changes + folded;
}

/*
 * Fold the data for an offline cpu into the global array. There cannot be
 * any access by the offline cpu and therefore synchronization is
 * simplified.
 */
void cpu_vm_stats_fold(int cpu)
{
	struct pglist_data *pgdat;
	struct zone *zone;
	int i;
	int global_zone_diff[NR_VM_ZONE_STAT_ITEMS] = { 0, };
	int global_node_diff[NR_VM_NODE_STAT_ITEMS] = { 0, };

	for_each_populated_zone(zone) {
		struct per_cpu_zonestat *pzstats;

		pzstats = per_cpu_ptr(zone->per_cpu_zonestats, cpu);

		for (i = 0; i < NR_VM_ZONE_STAT_ITEMS; i++) {
			if (pzstats->vm_stat_diff[i]) {
				int v;

				v = pzstats->vm_stat_diff[i];
				pzstats->vm_stat_diff[i] = 0;
				atomic_long_add(v, &zone->vm_stat[i]);
				global_zone_diff[i] += v;
			}
		}
		for (i = 0; i < NR_VM_NUMA_EVENT_ITEMS; i++) {
			if (pzstats->vm_numa_event[i]) {
				unsigned long v;

				v = pzstats->vm_numa_event[i];
				pzstats->vm_numa_event[i] = 0;
				zone_numa_event_add((long)v, zone, i);
			}
		}
	}

	for_each_online_pgdat(pgdat) {
		struct per_cpu_nodestat *p;

		p = per_cpu_ptr(pgdat->per_cpu_nodestats, cpu);

		for (i = 0; i < NR_VM_NODE_STAT_ITEMS; i++)
			if (p->vm_node_stat_diff[i]) {
				int v;

				v = p->vm_node_stat_diff[i];
				p->vm_node_stat_diff[i] = 0;
				atomic_long_add(v, &pgdat->vm_stat[i]);
				global_node_diff[i] += v;
			}
	}

	fold_diff(global_zone_diff, global_node_diff);
}

/* memchr_inv(p, 0, n) != NULL: any byte of another CPU's diffs set. */
static bool any_diff(const s8 *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (READ_ONCE(p[i]))
			return true;
	return false;
}

/*
 * Check if the diffs for a certain cpu indicate that an update is needed:
 * each populated zone's per-CPU statistics, and each node's once (the
 * zones come node by node). Each structure read counts one
 * MMSCALE_PERCPU_SUM_SLOTS.
 */
bool need_update(int cpu)
{
	pg_data_t *last_pgdat = NULL;
	struct zone *zone;

	for_each_populated_zone(zone) {
		struct per_cpu_zonestat *pzstats = per_cpu_ptr(zone->per_cpu_zonestats, cpu);
		struct per_cpu_nodestat *n;

		/*
		 * The fast way of checking if there are any vmstat diffs.
		 */
		mmscale_count_inc(MMSCALE_PERCPU_SUM_SLOTS);
		if (any_diff(pzstats->vm_stat_diff, sizeof(pzstats->vm_stat_diff)))
			return true;

		if (last_pgdat == zone->zone_pgdat)
			continue;
		last_pgdat = zone->zone_pgdat;
		n = per_cpu_ptr(zone->zone_pgdat->per_cpu_nodestats, cpu);
		mmscale_count_inc(MMSCALE_PERCPU_SUM_SLOTS);
		if (any_diff(n->vm_node_stat_diff, sizeof(n->vm_node_stat_diff)))
			return true;
	}
	return false;
}

/*
 * vmstat_shepherd's pass (2118-2150): no CPU of the emulated machine is
 * isolated (cpu_is_isolated is false); delayed_work_pending(dw) reads the
 * CPU's vmstat_work, modelled by its pending byte; queue_delayed_work_on
 * sets it (test_and_set_bit of WORK_STRUCT_PENDING: one locked op). Not
 * emulated, and not counted: the rest of queueing a work item
 * (__queue_work's pool->lock and the kworker's wakeup, an IPI where it
 * sleeps on another CPU) and the pass re-arming itself
 * (schedule_delayed_work, 2148: a test_and_set_bit and the timer base's
 * lock). The work itself does not run here: a case that wants it folds on
 * the CPU.
 */
int vmstat_shepherd(_Atomic unsigned char *work_pending)
{
	unsigned int cpu;
	int queued = 0;

	for_each_online_cpu(cpu) {
		_Atomic unsigned char *pending = per_cpu_ptr(work_pending, cpu);

		if (!atomic_load_explicit(pending, memory_order_relaxed) && need_update((int)cpu)) {
			mmscale_count_inc(MMSCALE_LOCKED_OPS);
			atomic_store_explicit(pending, 1, memory_order_relaxed);
			queued++;
		}
	}
	return queued;
}

/* page_alloc.c 174: DEFINE_STATIC_KEY_TRUE(vm_numa_stat_key); vmstat.c 36: ENABLE_NUMA_STAT 1. */
#define ENABLE_NUMA_STAT 1
bool vm_numa_stat_key = true;

int vmstat_6_18_setup(const struct mm_machine_config *cfg, char *err, size_t errlen)
{
	static const char *const names[MAX_NR_ZONES] = { "DMA32", "Normal" };
	const uint64_t mem_bytes = cfg->mem_bytes;
	/* x86-64: ZONE_DMA32 below 4 GiB, on node 0. */
	const unsigned long long dma32_limit = (4ULL << 30) >> PAGE_SHIFT;
	int nodes = the_machine->nr_nodes;
	unsigned long long per_node = (mem_bytes >> PAGE_SHIFT) / (unsigned long long)nodes;
	struct zone *zone;

	vmstat_6_18_teardown();
	node_data = calloc((size_t)nodes, sizeof(*node_data));
	if (!node_data)
		return mmscale_errorf(err, errlen, "out of memory");
	/* The three global arrays, each __cacheline_aligned_in_smp, page-granular on node 0. */
	global_bytes = 3 * (size_t)L1_CACHE_BYTES *
		       ((sizeof(atomic_long_t) * NR_VM_NODE_STAT_ITEMS + L1_CACHE_BYTES - 1) /
			L1_CACHE_BYTES);
	vm_node_stat = alloc_global(global_bytes, err, errlen);
	if (!vm_node_stat)
		goto fail;
	vm_zone_stat = (atomic_long_t *)(void *)((char *)vm_node_stat + global_bytes / 3);
	vm_numa_event = (atomic_long_t *)(void *)((char *)vm_node_stat + 2 * (global_bytes / 3));
	for (int nid = 0; nid < nodes; nid++) {
		pg_data_t *pgdat = alloc_on_node(nid, sizeof(*pgdat), err, errlen);
		unsigned long long dma32 = nid == 0 ? min(per_node, dma32_limit) : 0;

		if (!pgdat)
			goto fail;
		memset(pgdat, 0, sizeof(*pgdat));
		node_data[nid] = pgdat;
		nr_node_ids_6_18 = nid + 1;
		pgdat->node_id = nid;
		pgdat->nr_zones = MAX_NR_ZONES;
		/* Line-aligned: linux-6.18/mm/mmzone.h says why. */
		pgdat->per_cpu_nodestats = __alloc_percpu(sizeof(struct per_cpu_nodestat),
							  L1_CACHE_BYTES);
		if (!pgdat->per_cpu_nodestats) {
			mmscale_errorf(err, errlen, "per-CPU units full: node %d's statistics", nid);
			goto fail;
		}
		for (int z = 0; z < MAX_NR_ZONES; z++) {
			unsigned long long pages = z == ZONE_DMA32 ? dma32 : per_node - dma32;

			zone = &pgdat->node_zones[z];
			zone->zone_pgdat = pgdat;
			zone->node = nid;
			zone->name = names[z];
			zone->present_pages = (unsigned long)pages;
			atomic_long_set(&zone->managed_pages, (long)pages);
			spin_lock_init(&zone->lock);
			if (!pages)
				continue;
			zone->per_cpu_zonestats = __alloc_percpu(sizeof(struct per_cpu_zonestat),
								 L1_CACHE_BYTES);
			if (!zone->per_cpu_zonestats) {
				mmscale_errorf(err, errlen, "per-CPU units full: node %d zone %s's "
					       "statistics", nid, names[z]);
				goto fail;
			}
		}
	}
	mm_config_set_knobs(cfg);	/* --set stat_threshold, for the thresholds */
	refresh_zone_stat_thresholds();
	/*
	 * mmscale: --set numa_stat=N (mm/config.h), as the sysctl's handler
	 * writes it: 0 disables the key (and zeroes the NUMA counters, all 0
	 * here yet), 1 enables it.
	 */
	vm_numa_stat_key = MM_KNOB_OR(cfg->numa_stat, ENABLE_NUMA_STAT) == ENABLE_NUMA_STAT;
	/* Boot: every page free. */
	for_each_populated_zone(zone) {
		atomic_long_add((long)zone_managed_pages(zone), &zone->vm_stat[NR_FREE_PAGES]);
		atomic_long_add((long)zone_managed_pages(zone), &vm_zone_stat[NR_FREE_PAGES]);
	}
	return 0;
fail:
	vmstat_6_18_teardown();
	return -1;
}

int vmstat_6_18_check(char *err, size_t errlen)
{
	struct pglist_data *pgdat;
	struct zone *zone;

	for (unsigned int cpu = 0; cpu < nr_cpu_ids; cpu++)
		cpu_vm_stats_fold((int)cpu);
	for (int i = 0; i < NR_VM_ZONE_STAT_ITEMS; i++) {
		long sum = 0;

		for_each_populated_zone(zone)
			sum += atomic_long_read(&zone->vm_stat[i]);
		if (sum != atomic_long_read(&vm_zone_stat[i]))
			return mmscale_errorf(err, errlen, "6.18 vmstat: zone item %d: the zones "
					      "hold %ld, vm_zone_stat %ld", i, sum,
					      atomic_long_read(&vm_zone_stat[i]));
	}
	for (int i = 0; i < NR_VM_NODE_STAT_ITEMS; i++) {
		long sum = 0;

		for_each_online_pgdat(pgdat)
			sum += atomic_long_read(&pgdat->vm_stat[i]);
		if (sum != atomic_long_read(&vm_node_stat[i]))
			return mmscale_errorf(err, errlen, "6.18 vmstat: node item %d: the nodes "
					      "hold %ld, vm_node_stat %ld", i, sum,
					      atomic_long_read(&vm_node_stat[i]));
	}
	return 0;
}

void vmstat_6_18_teardown(void)
{
	for (int nid = 0; node_data && nid < nr_node_ids_6_18; nid++) {
		pg_data_t *pgdat = node_data[nid];

		for (int z = 0; z < MAX_NR_ZONES; z++)
			free_percpu(pgdat->node_zones[z].per_cpu_zonestats);
		free_percpu(pgdat->per_cpu_nodestats);
		free_on_node(pgdat, sizeof(*pgdat));
	}
	free(node_data);
	node_data = NULL;
	nr_node_ids_6_18 = 0;
	if (vm_node_stat)
		free_on_node(vm_node_stat, global_bytes);
	vm_node_stat = vm_zone_stat = vm_numa_event = NULL;
}
