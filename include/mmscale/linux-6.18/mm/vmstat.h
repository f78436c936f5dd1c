/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vmstat as Linux 6.18 has it: include/linux/vmstat.h (blob c2879989,
 * 137-260) and mm/vmstat.c (blob bb09c032) of ../shared/kernel/6.18, for
 * the zones and nodes of linux-6.18/mm/mmzone.h. Global counters vm_zone_stat[],
 * vm_node_stat[] and vm_numa_event[] (each __cacheline_aligned_in_smp),
 * per-zone and per-node counters, per-CPU s8 diffs folded past
 * stat_threshold, and NUMA events counted per CPU and folded only when
 * someone reads them.
 *
 * The per-CPU operations are x86-64's: this_cpu_try_cmpxchg and
 * this_cpu_xchg are the cmpxchg instruction without the lock prefix
 * (kernel/percpu.h: arch/x86 percpu.h's), atomic only against the CPU's
 * own interrupts, and count no locked operation (other CPUs only read the
 * diffs: the shepherd, zone_page_state_snapshot). The atomic_long_t adds
 * of a fold are locked (MMSCALE_LOCKED_OPS).
 *
 * Counts: a global read (global_zone_page_state, global_node_page_state,
 * global_numa_event_state) counts MMSCALE_GLOBAL_READS; a fold of a per-CPU
 * diff into the zone or node and global counters counts MMSCALE_FOLDS; a
 * walk over other CPUs' per-CPU statistics counts each per-CPU structure it
 * reads in MMSCALE_PERCPU_SUM_SLOTS. cpu_vm_stats_fold, the end-of-run
 * fold the accounting check makes, counts no fold and no slot of its own
 * (its atomic adds are locked ops still).
 */
#ifndef MMSCALE_MM_VMSTAT_6_18_H
#define MMSCALE_MM_VMSTAT_6_18_H

#include "mmscale/kernel/cpumask.h"
#include "mmscale/kernel/percpu.h"
#include "mmscale/opcount.h"
#include "mmscale/mm/config.h"
#include "mmscale/linux-6.18/mm/mmzone.h"

/* This header's names, as 6.18 has them (include/mmscale/linux-6.18/map.h). */
#define MMSCALE_6_18_MAP_WANT_VMSTAT
#include "mmscale/linux-6.18/map.h"

extern atomic_long_t *vm_zone_stat;	/* [NR_VM_ZONE_STAT_ITEMS], line aligned */
extern atomic_long_t *vm_node_stat;	/* [NR_VM_NODE_STAT_ITEMS], line aligned */
extern atomic_long_t *vm_numa_event;	/* [NR_VM_NUMA_EVENT_ITEMS], line aligned */
extern pg_data_t **node_data;
extern int nr_node_ids_6_18;

#define NODE_DATA(nid)		(node_data[(nid)])

static inline bool populated_zone(const struct zone *zone)
{
	return zone->present_pages != 0;
}

static inline unsigned long zone_managed_pages(struct zone *zone)
{
	return (unsigned long)atomic_long_read(&zone->managed_pages);
}

/* The next populated zone after zone, node by node (mm/mmzone.c next_zone). */
static inline struct zone *next_zone_6_18(struct zone *zone)
{
	pg_data_t *pgdat = zone->zone_pgdat;

	for (;;) {
		if (zone < pgdat->node_zones + MAX_NR_ZONES - 1)
			zone++;
		else if (pgdat->node_id + 1 < nr_node_ids_6_18)
			zone = (pgdat = NODE_DATA(pgdat->node_id + 1))->node_zones;
		else
			return NULL;
		if (populated_zone(zone))
			return zone;
	}
}

static inline struct zone *first_populated_zone_6_18(void)
{
	struct zone *zone;

	if (!nr_node_ids_6_18)
		return NULL;
	zone = NODE_DATA(0)->node_zones;
	return populated_zone(zone) ? zone : next_zone_6_18(zone);
}

/* The zone an emulated CPU's own allocations come from: its node's Normal, else DMA32. */
static inline struct zone *local_zone_6_18(int cpu)
{
	pg_data_t *pgdat = NODE_DATA(cpu_to_node(cpu));

	if (populated_zone(&pgdat->node_zones[ZONE_NORMAL]))
		return &pgdat->node_zones[ZONE_NORMAL];
	return &pgdat->node_zones[ZONE_DMA32];
}

#define for_each_populated_zone(zone)					\
	for (zone = first_populated_zone_6_18(); zone; zone = next_zone_6_18(zone))
#define for_each_online_pgdat(pgdat)					\
	for (int __nid = 0; __nid < nr_node_ids_6_18 && ((pgdat) = NODE_DATA(__nid)); __nid++)

/* Number of populated zones (what a drain walks per CPU), as 2.6.31's nr_populated_zones. */
static inline unsigned int nr_populated_zones_6_18(void)
{
	struct zone *zone;
	unsigned int n = 0;

	for_each_populated_zone(zone)
		n++;
	return n;
}

static inline void zone_numa_event_add(long x, struct zone *zone, enum numa_stat_item item)
{
	atomic_long_add(x, &zone->vm_numa_event[item]);
	atomic_long_add(x, &vm_numa_event[item]);
}

static inline unsigned long zone_numa_event_state(struct zone *zone, enum numa_stat_item item)
{
	return (unsigned long)atomic_long_read(&zone->vm_numa_event[item]);
}

static inline unsigned long global_numa_event_state(enum numa_stat_item item)
{
	mmscale_count_inc(MMSCALE_GLOBAL_READS);
	return (unsigned long)atomic_long_read(&vm_numa_event[item]);
}

static inline void zone_page_state_add(long x, struct zone *zone, enum zone_stat_item item)
{
	atomic_long_add(x, &zone->vm_stat[item]);
	atomic_long_add(x, &vm_zone_stat[item]);
	mmscale_count_inc(MMSCALE_FOLDS);
}

static inline void node_page_state_add(long x, struct pglist_data *pgdat, enum node_stat_item item)
{
	atomic_long_add(x, &pgdat->vm_stat[item]);
	atomic_long_add(x, &vm_node_stat[item]);
	mmscale_count_inc(MMSCALE_FOLDS);
}

static inline unsigned long global_zone_page_state(enum zone_stat_item item)
{
	long x = atomic_long_read(&vm_zone_stat[item]);

	mmscale_count_inc(MMSCALE_GLOBAL_READS);
	if (x < 0)
		x = 0;
	return (unsigned long)x;
}

/* global_node_page_state_pages, which global_node_page_state is for page items. */
static inline unsigned long global_node_page_state(enum node_stat_item item)
{
	long x = atomic_long_read(&vm_node_stat[item]);

	mmscale_count_inc(MMSCALE_GLOBAL_READS);
	if (x < 0)
		x = 0;
	return (unsigned long)x;
}

static inline unsigned long zone_page_state(struct zone *zone, enum zone_stat_item item)
{
	long x = atomic_long_read(&zone->vm_stat[item]);

	if (x < 0)
		x = 0;
	return (unsigned long)x;
}

/* vmstat.h 248-254: raw_cpu_add(pzstats->vm_numa_event[item], delta), the CPU's own line. */
static inline void __count_numa_events(struct zone *zone, enum numa_stat_item item, long delta)
{
	struct per_cpu_zonestat *pzstats = this_cpu_ptr(zone->per_cpu_zonestats);

	WRITE_ONCE(pzstats->vm_numa_event[item],
		   READ_ONCE(pzstats->vm_numa_event[item]) + (unsigned long)delta);
}

/* raw_cpu_inc(pzstats->vm_numa_event[item]): a plain add on the CPU's own line. */
static inline void __count_numa_event(struct zone *zone, enum numa_stat_item item)
{
	struct per_cpu_zonestat *pzstats = this_cpu_ptr(zone->per_cpu_zonestats);

	WRITE_ONCE(pzstats->vm_numa_event[item], READ_ONCE(pzstats->vm_numa_event[item]) + 1);
}

/*
 * vm_numa_stat_key (page_alloc.c 174, a static key, on at boot): off when
 * vm.numa_stat is 0 (--set numa_stat=0, written at vmstat_6_18_setup as
 * sysctl_vm_numa_stat_handler writes it, vmstat.c 79-100). A plain bool
 * read where the kernel patches a jump.
 */
extern bool vm_numa_stat_key;

/*
 * zone_statistics (page_alloc.c 3128-3148): an allocation's NUMA events on
 * the calling CPU, none while numa stats are off.
 */
static inline void zone_statistics(struct zone *preferred_zone, struct zone *z, long nr_account)
{
	enum numa_stat_item local_stat = NUMA_LOCAL;

	/* skip numa counters update if numa stats is disabled */
	if (!vm_numa_stat_key)
		return;
	if (z->node != numa_node_id())
		local_stat = NUMA_OTHER;

	if (z->node == preferred_zone->node) {
		__count_numa_events(z, NUMA_HIT, nr_account);
	} else {
		__count_numa_events(z, NUMA_MISS, nr_account);
		__count_numa_events(preferred_zone, NUMA_FOREIGN, nr_account);
	}
	__count_numa_events(z, local_stat, nr_account);
}

int calculate_normal_threshold(struct zone *zone);
void refresh_zone_stat_thresholds(void);

void __mod_zone_page_state(struct zone *zone, enum zone_stat_item item, long delta);
void __mod_node_page_state(struct pglist_data *pgdat, enum node_stat_item item, long delta);
void __inc_node_state(struct pglist_data *pgdat, enum node_stat_item item);
void __dec_node_state(struct pglist_data *pgdat, enum node_stat_item item);
void mod_zone_page_state(struct zone *zone, enum zone_stat_item item, long delta);
void mod_node_page_state(struct pglist_data *pgdat, enum node_stat_item item, long delta);
void inc_node_state(struct pglist_data *pgdat, enum node_stat_item item);
void dec_node_state_6_18(struct pglist_data *pgdat, enum node_stat_item item);

/* vmstat_update's fold on the calling CPU; do_pagesets: see kernel/linux-6.18/mm/vmstat.c. */
int refresh_cpu_vm_stats(bool do_pagesets);
/* The fold of a CPU no thread runs on (the kernel's offline CPU). */
void cpu_vm_stats_fold(int cpu);
void fold_vm_numa_events(void);

/* The shepherd's per-CPU test, and one pass of it over the online CPUs. */
bool need_update(int cpu);
/*
 * One vmstat_shepherd pass: every online CPU not isolated whose vmstat
 * work is not pending and that need_update()s gets its work queued; the
 * number queued. work_pending is the per-CPU vmstat_work's pending bit,
 * one byte per CPU in its own unit (percpu pointer).
 */
int vmstat_shepherd(_Atomic unsigned char *work_pending);

/*
 * The 6.18 world: node_data, zones (DMA32 on node 0, Normal on each node,
 * cfg->mem_bytes split evenly, every page managed and free), the per-CPU
 * statistics of every zone and node, the global arrays; the thresholds
 * refreshed with cfg's knobs (--set stat_threshold). -1 with one line in err.
 */
int vmstat_6_18_setup(const struct mm_machine_config *cfg, char *err, size_t errlen);
/*
 * Fold every CPU's diffs (no thread runs now) and check the accounting:
 * each global item equals its zones' or nodes' sum; -1 with what differs.
 */
int vmstat_6_18_check(char *err, size_t errlen);
void vmstat_6_18_teardown(void);

#endif /* MMSCALE_MM_VMSTAT_6_18_H */
