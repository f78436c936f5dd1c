// SPDX-License-Identifier: GPL-2.0
/*
 * drain_all_pages() of Linux 4.11: per-CPU work items since 0ccce3b92421
 * ("mm, page_alloc: drain per-cpu pages from workqueue context", Mel
 * Gorman; it queued on system_wq and let every caller drain); the static
 * per-CPU pcpu_drain work and pcpu_drain_mutex (a drain already in progress
 * makes a zone-less caller return at once) from bd233f538d51; mm_percpu_wq
 * from ce612879ddc7 (Michal Hocko, a 4.11-rc fix). The CPUs with pages get
 * a work item, run by their per-CPU worker in process context, and the
 * caller flushes the work.
 *
 * Emulated: queue_work_on() puts the work on the target CPU through the
 * same per-CPU queue and doorbell as an IPI (waking an idle kworker on
 * another CPU is a reschedule IPI), the target runs it at its next
 * interrupt point as its worker would at the next schedule, and
 * flush_work() waits for it with the IPI timeout. drain_pages has 2.6.38's
 * logic (drain_pages_zone in 4.11; drain_pages_count_check,
 * kernel/linux-2.6/mm/page_alloc.c).
 */
#include "mmscale/kernel/mutex.h"
#include "mmscale/linux-2.6/mm/page_alloc.h"

#include "drain_variants.h"

static DEFINE_MUTEX(pcpu_drain_mutex);


static void drain_local_pages_wq(void *work)
{
	(void)work;
	/*
	 * drain_all_pages doesn't use proper cpu hotplug protection so
	 * we can race with cpu offline when the WQ can move this from
	 * a cpu pinned worker to an unbound one. We can operate on a different
	 * cpu which is allright but we also have to make sure to not move to
	 * a different one.
	 */
	preempt_disable();
	drain_local_pages_count_check(NULL);
	preempt_enable();
}

static void drain_all_pages(void)
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

	for_each_online_cpu(cpu) {
		bool has_pcps = false;

		for_each_populated_zone(zone) {
			if (READ_ONCE(zone_pcp(zone, cpu)->pcp.count)) {
				has_pcps = true;
				break;
			}
		}
		if (has_pcps)
			cpumask_set_cpu(cpu, &cpus_with_pcps);
		else
			cpumask_clear_cpu(cpu, &cpus_with_pcps);
	}

	/* queue_work_on for every CPU with pages; this CPU's own work runs here. */
	smp_call_function_many_queue(&cpus_with_pcps, drain_local_pages_wq, NULL);
	if (cpumask_test_cpu((unsigned int)smp_processor_id(), &cpus_with_pcps))
		drain_local_pages_wq(NULL);
	/* for_each_cpu(cpu, &cpus_with_pcps) flush_work(per_cpu_ptr(&pcpu_drain, cpu)); */
	smp_call_function_many_wait(&cpus_with_pcps);

	mutex_unlock(&pcpu_drain_mutex);
}

/*
 * A work item (here a call, not waited for, then flushed) on every other
 * CPU with pages; the caller's own runs here. pcpu_drain_mutex is a mutex,
 * not a spin_lock; drain_pages_count_check takes zone->lock only for a list
 * that holds pages. Locked ops: the mutex's cmpxchg to take it and to give
 * it back, a set_bit or clear_bit of the mask for every online CPU, and
 * each lock. (The kernel's queue_work_on and flush_work make more, on the
 * work item and the worker pool, which are not emulated.) One zone->lock
 * hold per list with pages. Interrupts: the kernel's kworker turns them
 * off per zone (drain_pages_count_check); the emulated work item runs as
 * a call, with them off for all its zones (kernel/smp.c), so a section
 * frees a CPU's pages, the same while they sit in one zone (drain/full's
 * lists: each CPU's local zone only). The caller's own drain runs directly,
 * a zone at a time: for a caller with the most pages, in two zones, the
 * claim's section would be too long (no case builds that shape).
 */
static void drain_claim(const struct drain_shape *m, struct drain_cost *c)
{
	c->locks = m->lists_with_pages;
	c->locked_ops = 2 + m->cpus + c->locks;
	c->call_targets = m->cpus_with_pages - m->caller_has_pages;
	c->zone_locks = c->locks;
	c->zone_hold_pages_max = m->list_pages_max;
	c->irqoff_pages_max = m->cpu_pages_max;
}

const struct drain_variant_ops drain_ops_workqueue = {
	.drain_all_pages = drain_all_pages,
	.smp = &smp_llist,	/* per-CPU llist queues (4.11's; as 6.18, kernel/linux-6.18/kernel/smp.c) */
	.claim = drain_claim,
	.machine = &(const struct drain_machine_2_6){
		.free_pcppages_bulk = free_pcppages_bulk,
	},
};
