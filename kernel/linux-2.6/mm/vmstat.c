// SPDX-License-Identifier: GPL-2.0
/*
 * Emulated vmstat: mm/vmstat.c of Linux 2.6.31 (calculate_threshold,
 * refresh_zone_stat_thresholds, __mod_zone_page_state, __inc_zone_state,
 * __dec_zone_state and their irq-safe wrappers, refresh_cpu_vm_stats) and
 * global_lru_pages from mm/vmscan.c of the same release.
 */
#define _GNU_SOURCE
#include <time.h>

#include "mmscale/kernel/cpumask.h"
#include "mmscale/kernel/processor.h"
#include "mmscale/linux-2.6/mm/vmstat.h"

char *vm_stat_base;
size_t vm_stat_stride;
unsigned char vm_stat_index[NR_VM_ZONE_STAT_ITEMS];

const char *const vmstat_text[NR_VM_ZONE_STAT_ITEMS] = {
	"nr_free_pages", "nr_inactive_anon", "nr_active_anon", "nr_inactive_file",
	"nr_active_file", "nr_unevictable", "nr_mlock", "nr_anon_pages", "nr_mapped",
	"nr_file_pages", "nr_dirty", "nr_writeback", "nr_slab_reclaimable",
	"nr_slab_unreclaimable", "nr_page_table_pages", "nr_unstable", "nr_bounce",
	"nr_vmscan_write", "nr_writeback_temp", "numa_hit", "numa_miss", "numa_foreign",
	"numa_interleave", "numa_local", "numa_other",
};

int calculate_threshold(struct zone *zone)
{
	int threshold;
	int mem;	/* memory in 128 MB units */

	/*
	 * The threshold scales with the number of processors and the amount
	 * of memory per zone. More memory means that we can defer updates for
	 * longer, more processors could lead to more contention. fls() is used
	 * to have a cheap way of logarithmic scaling. (The kernel's comment
	 * table of sample thresholds is reproduced, and its rows checked, in
	 * counters/tests/test_vmstat.c: its header's fls(mem+1) is 1 + fls(mem),
	 * and seven of its rows are mislabelled, listed there.)
	 */
	mem = (int)(zone_present_pages(zone) >> (27 - PAGE_SHIFT));

	threshold = 2 * fls(num_online_cpus()) * (1 + fls((unsigned int)mem));

	/*
	 * Maximum threshold is 125
	 */
	threshold = min(125, threshold);

	return threshold;
}

/*
 * Refresh the thresholds for each zone.
 */
void refresh_zone_stat_thresholds(void)
{
	struct zone *zone;
	unsigned int cpu;
	int threshold;

	for_each_zone(zone) {

		if (!zone_present_pages(zone))
			continue;

		threshold = calculate_threshold(zone);
		/* mmscale: --set stat_threshold=N (no kernel knob; mm/config.h). */
		if (mm_config()->stat_threshold != MM_KNOB_AUTO)
			threshold = mm_config()->stat_threshold;

		for_each_online_cpu(cpu)
			zone_pcp(zone, cpu)->stat_threshold = (s8)threshold;
	}
}

/*
 * For use when we know that interrupts are disabled.
 */
void __mod_zone_page_state(struct zone *zone, enum zone_stat_item item, int delta)
{
	struct per_cpu_pageset *pcp = zone_this_pcp(zone);
	s8 *p = pcp->vm_stat_diff + item;
	long x;

	x = delta + *p;

	if (unlikely(x > pcp->stat_threshold || x < -pcp->stat_threshold)) {
		zone_page_state_add(x, zone, item);
		x = 0;
	}
	*p = (s8)x;
}

/*
 * For an unknown interrupt state
 */
void mod_zone_page_state(struct zone *zone, enum zone_stat_item item, int delta)
{
	unsigned long flags;

	local_irq_save(flags);
	__mod_zone_page_state(zone, item, delta);
	local_irq_restore(flags);
}

/*
 * Optimized increment and decrement functions. The increment or decrement
 * is known and therefore one boundary check can be omitted; passing the
 * threshold folds the delta plus an overstep of half the threshold, so the
 * next fold is further away.
 */
void __inc_zone_state(struct zone *zone, enum zone_stat_item item)
{
	struct per_cpu_pageset *pcp = zone_this_pcp(zone);
	s8 *p = pcp->vm_stat_diff + item;

	(*p)++;

	if (unlikely(*p > pcp->stat_threshold)) {
		int overstep = pcp->stat_threshold / 2;

		zone_page_state_add(*p + overstep, zone, item);
		*p = (s8)-overstep;
	}
}

void __dec_zone_state(struct zone *zone, enum zone_stat_item item)
{
	struct per_cpu_pageset *pcp = zone_this_pcp(zone);
	s8 *p = pcp->vm_stat_diff + item;

	(*p)--;

	if (unlikely(*p < - pcp->stat_threshold)) {
		int overstep = pcp->stat_threshold / 2;

		zone_page_state_add(*p - overstep, zone, item);
		*p = (s8)overstep;
	}
}

void inc_zone_state(struct zone *zone, enum zone_stat_item item)
{
	unsigned long flags;

	local_irq_save(flags);
	__inc_zone_state(zone, item);
	local_irq_restore(flags);
}

void dec_zone_state(struct zone *zone, enum zone_stat_item item)
{
	unsigned long flags;

	local_irq_save(flags);
	__dec_zone_state(zone, item);
	local_irq_restore(flags);
}

/*
 * Update the zone counters for one cpu.
 *
 * The cpu specified must be either the current cpu or a processor that is
 * not online. The per cpu pagesets on remote zones are placed in the memory
 * local to the processor using that pageset, so the loop over all zones
 * accesses a series of cachelines local to the processor; the call to
 * atomic_long_add updates the remote zone and global lines only when a
 * delta is pending. (Not emulated: 2.6.31's CONFIG_NUMA expiry, which
 * drains this CPU's pcp lists of remote zones via drain_zone_pages after
 * three idle intervals; no case fills those lists while the vmstat work
 * runs.)
 */
void refresh_cpu_vm_stats(int cpu)
{
	struct zone *zone;
	int i;
	int global_diff[NR_VM_ZONE_STAT_ITEMS] = { 0, };

	for_each_populated_zone(zone) {
		struct per_cpu_pageset *p;

		p = zone_pcp(zone, cpu);

		for (i = 0; i < NR_VM_ZONE_STAT_ITEMS; i++)
			if (p->vm_stat_diff[i]) {
				unsigned long flags;
				int v;

				local_irq_save(flags);
				v = p->vm_stat_diff[i];
				p->vm_stat_diff[i] = 0;
				local_irq_restore(flags);
				atomic_long_add(v, &zone_vm_stat(zone)[i]);
				global_diff[i] += v;
				mmscale_count_inc(MMSCALE_FOLDS);
				/* 3 seconds idle till flush */
				p->expire = 3;
			}
	}

	for (i = 0; i < NR_VM_ZONE_STAT_ITEMS; i++)
		if (global_diff[i])
			atomic_long_add(global_diff[i], vm_stat_slot(i));
}

/*
 * The kernel folds every sysctl_stat_interval = HZ (1 s): the caller passes
 * the period (mm_config()->vmstat_interval_ns: --vmstat-interval-ms, the
 * kernel's 1 s by default; the dirty/ cases scale it with their congestion
 * wait). The clock is CLOCK_MONOTONIC_COARSE, looked at every
 * VMSTAT_CHECK_EVERY calls, so a period shorter than the coarse clock's
 * tick (4 ms on the machine of RESULTS.md) is in fact that tick.
 */
#define VMSTAT_CHECK_EVERY	64

static _Thread_local struct {
	unsigned int calls;
	struct timespec last;
} vmstat_work;

bool vmstat_work_due(u64 interval_ns)
{
	struct timespec now;

	if (likely(++vmstat_work.calls % VMSTAT_CHECK_EVERY))
		return false;
	clock_gettime(CLOCK_MONOTONIC_COARSE, &now);
	if ((now.tv_sec - vmstat_work.last.tv_sec) * 1000000000L +
	    (now.tv_nsec - vmstat_work.last.tv_nsec) < (long)interval_ns)
		return false;
	vmstat_work.last = now;
	return true;
}

void vmstat_work_tick(u64 interval_ns)
{
	if (vmstat_work_due(interval_ns))
		refresh_cpu_vm_stats(smp_processor_id());
}

long vm_stat_exact(enum zone_stat_item item)
{
	long x = atomic_long_read(vm_stat_slot(item));
	struct zone *zone;
	unsigned int cpu;

	for_each_populated_zone(zone)
		for_each_online_cpu(cpu)
			x += zone_pcp(zone, cpu)->vm_stat_diff[item];
	return x;
}

/* mm/vmscan.c, 2.6.31 (replaced by global_reclaimable_pages later). */
unsigned long global_lru_pages(void)
{
	return global_page_state(NR_ACTIVE_ANON)
		+ global_page_state(NR_ACTIVE_FILE)
		+ global_page_state(NR_INACTIVE_ANON)
		+ global_page_state(NR_INACTIVE_FILE);
}
