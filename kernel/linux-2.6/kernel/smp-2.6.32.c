// SPDX-License-Identifier: GPL-2.0
/*
 * Cross-CPU calls over one global queue as kernel/smp.c of Linux 2.6.32
 * has them (2.6.32.9, ../shared/kernel/2.6.32/kernel/smp.c): the queue,
 * the locks, the single-target path and the setup are 3.4's
 * (kernel/linux-2.6/kernel/smp.c, kernel/linux-2.6/kernel/smp_global_queue.h); what 2.6.32 does
 * otherwise is here, line by line:
 *
 * - smp_call_function_many (lines 366-433) sets refs to the mask's weight
 *   before it queues the entry and neither zeroes refs first nor checks
 *   for an empty mask;
 * - generic_smp_call_function_interrupt (lines 171-216) does
 *   cpumask_test_and_clear_cpu on every entry it walks, a locked write to
 *   that entry's mask whether the entry is meant for this CPU or not, and
 *   only then runs the call. With two or more calls queued at once
 *   (concurrent drainers), every target's walk writes every entry's mask.
 *
 * 2.6.32 defines cfd_data and call_single_queue with DEFINE_PER_CPU, not
 * _SHARED_ALIGNED: they may share a line with other per-CPU data there;
 * here they have lines of their own, as in 2.6.38 and 3.4.
 */
#include "smp_global_queue.h"

/*
 * Invoked by arch to handle an IPI for call function. Must be called with
 * interrupts disabled.
 */
static void generic_smp_call_function_interrupt_2_6_32(void)
{
	struct call_function_data *data;
	struct list_head *pos;
	unsigned int cpu = (unsigned int)smp_processor_id();

	/*
	 * Ensure entry is visible on call_function_queue after we have
	 * entered the IPI. See comment in smp_call_function_many.
	 * If we don't have this, then we may miss an entry on the list
	 * and never get another IPI to process it.
	 */
	smp_mb();

	/*
	 * It's ok to use list_for_each_rcu() here even though we may
	 * delete 'pos', since list_del_rcu() doesn't clear ->next
	 */
	for (pos = gq_list_next_rcu(&call_function.queue); pos != &call_function.queue;
	     pos = gq_list_next_rcu(pos)) {
		int refs;

		data = container_of(pos, struct call_function_data, csd.list);
		if (!gq_test_and_clear_cpu(cpu, data->cpumask))
			continue;

		data->csd.func(data->csd.info);
		mmscale_count_inc(MMSCALE_IPIS_HANDLED);

		refs = atomic_dec_return(&data->refs);
		if (!refs) {
			call_function_lock();
			gq_list_del_rcu(&data->csd.list);
			gq_raw_spin_unlock(&call_function.lock);
		}

		if (refs)
			continue;

		gq_csd_unlock(&data->csd);
	}
}

static void gq_interrupt_2_6_32(void)
{
	gq_interrupt(generic_smp_call_function_interrupt_2_6_32);
}

static int gq_call_function_many_2_6_32(const struct cpumask *mask, smp_call_func_t func,
					void *info, enum smp_call_wait how)
{
	/* The last target unlocks the csd after every call ran: a later wait is a flush. */
	bool wait = how == SMP_CALL_WAIT;
	struct call_function_data *data;
	unsigned long flags;
	int this_cpu = smp_processor_id();
	unsigned int cpu;

	/* Fastpath: no other CPU, or do that cpu by itself. */
	switch (gq_targets(mask, &cpu)) {
	case 0:
		return 0;
	case 1:
		return gq_call_function_single((int)cpu, func, info, wait);
	}

	data = this_cpu_ptr(cfd_data);
	if (gq_csd_lock(&data->csd, -1, data->cpumask) != 0)
		return -1;	/* its last call is still unanswered */

	data->csd.func = func;
	data->csd.info = info;
	gq_publish_mask(data->cpumask, mask);	/* cpumask_and(data->cpumask, mask, cpu_online_mask) */
	cpumask_clear_cpu((unsigned int)this_cpu, data->cpumask);
	atomic_set(&data->refs, (int)cpumask_weight(data->cpumask));

	local_irq_save(flags);
	call_function_lock();	/* spin_lock_irqsave(&call_function.lock, flags) */
	/*
	 * Place entry at the _HEAD_ of the list, so that any cpu still
	 * observing the entry in generic_smp_call_function_interrupt()
	 * will not miss any other list entries:
	 */
	gq_list_add_rcu(&data->csd.list, &call_function.queue);
	gq_raw_spin_unlock(&call_function.lock);
	local_irq_restore(flags);

	/*
	 * Make the list addition visible before sending the ipi.
	 * (IPIs must obey or appear to obey normal Linux cache
	 * coherency rules -- see comment in generic_exec_single).
	 */
	smp_mb();

	/* Send a message to all CPUs in the map */
	gq_send_call_function_ipi_mask(data->cpumask);

	/* Optionally wait for the CPUs to complete */
	if (wait)
		return gq_csd_lock_wait(&data->csd, -1, data->cpumask);
	return 0;
}

/*
 * One waited call to k idle targets: as 3.4's (kernel/linux-2.6/kernel/smp.c:
 * the same locks, IPIs and locked ops, 2k + 4 for k >= 2, 2 for the
 * single-target path); but every entry a handler walks costs it a locked
 * test_and_clear, one for each entry meant for other CPUs only.
 */
static void gq_claim_2_6_32(unsigned int targets, struct smp_claim *out)
{
	out->ipis = targets;
	out->call_function_locks = targets >= 2 ? 2 : 0;
	out->locked_ops = targets >= 2 ? 2 * targets + 4 : 2 * targets;
	out->locked_ops_per_foreign_entry = 1;
}

const struct smp_generation smp_global_queue_2_6_32 = {
	.name = "global-queue-2.6.32",
	.summary = "2.6.32: the global call_function list; a handler test_and_clears its bit "
		   "in every entry it walks",
	.source = "kernel/smp.c of Linux 2.6.32 (2.6.32.9)",
	.setup = gq_setup_2_6_32,
	.teardown = gq_teardown,
	.call_function_many = gq_call_function_many_2_6_32,
	.call_function_single = gq_call_function_single,
	.call_function_many_wait = gq_call_function_many_wait,
	.interrupt = gq_interrupt_2_6_32,
	.queued = gq_queued,
	.claim = gq_claim_2_6_32,
};
