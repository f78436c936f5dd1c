// SPDX-License-Identifier: GPL-2.0
/*
 * Cross-CPU calls over per-CPU queues: kernel/smp.c of 3.14 and later
 * (per-CPU llist call_single_queue since 6897fc22ea01; a per-sender cfd with
 * one csd per target since 3.9). struct call_function_data_llist and
 * cfd_llist are the kernel's struct call_function_data and cfd_data of
 * 3.14, renamed only so that the global-queue generation
 * (kernel/smp_global_queue.c) keeps those names.
 *
 * A sender puts one csd per target on the targets' queues, rings the
 * doorbell of those whose queue was empty (llist_add returned true), and
 * with wait spins until each csd is unlocked. The emulation adds one thing
 * no kernel has: a call to a CPU whose inline slot (struct ipi_line) is free
 * rides in the slot instead of a csd.
 */
#include "mmscale/kernel/smp.h"
#include "smp_internal.h"

/* Per sender: the targets of its current call, and one csd per target CPU. */
struct call_function_data_llist {
	struct call_single_data *csd;		/* percpu: csd for target t in t's unit */
	struct cpumask cpumask;
	struct cpumask cpumask_ipi;
	struct cpumask cpumask_inline;		/* targets whose call rode in the slot */
};

static struct call_function_data_llist *cfd_llist;	/* percpu */

static void csd_unlock(struct call_single_data *csd)
{
	atomic_store_explicit(&csd->flags, 0, memory_order_release);
}

/* Wait for the target to run the call; after the run's timeout give up, naming it. */
static int csd_lock_wait(struct call_single_data *csd, int cpu)
{
	unsigned long long deadline = 0;
	unsigned int spins = 0;

	while (atomic_load_explicit(&csd->flags, memory_order_acquire) & CSD_FLAG_LOCK)
		if (ipi_wait_step_timed_out(&spins, &deadline))
			return ipi_no_answer(cpu);
	return 0;
}

/* Take the csd: a previous call through it must have been answered. */
static int csd_lock(struct call_single_data *csd, int cpu)
{
	if (csd_lock_wait(csd, cpu) != 0)
		return -1;
	atomic_store_explicit(&csd->flags, CSD_FLAG_LOCK, memory_order_relaxed);
	return 0;
}

static unsigned long inline_token(int sender)
{
	return (unsigned long)(sender + 1) << 2;
}

/* Put the call in the target's slot if it is free. */
static bool try_inline(struct ipi_cpu *t, smp_call_func_t func, void *info, unsigned long token)
{
	unsigned long expect = 0;

	if (!atomic_compare_exchange_strong_explicit(&t->line.inline_state, &expect,
						     token | IPI_INLINE_CLAIMED,
						     memory_order_acquire, memory_order_relaxed))
		return false;
	t->line.inline_func = func;
	t->line.inline_info = info;
	atomic_store_explicit(&t->line.inline_state, token | IPI_INLINE_PENDING,
			      memory_order_release);
	return true;
}

/* Wait for an inline call: the slot no longer holds our pending token. */
static int inline_wait(struct ipi_cpu *t, unsigned long token, int cpu)
{
	unsigned long long deadline = 0;
	unsigned int spins = 0;

	while (atomic_load_explicit(&t->line.inline_state, memory_order_acquire) ==
	       (token | IPI_INLINE_PENDING))
		if (ipi_wait_step_timed_out(&spins, &deadline))
			return ipi_no_answer(cpu);
	return 0;
}

static int llist_call_function_many_wait(const struct cpumask *mask)
{
	struct call_function_data_llist *cfd = this_cpu_ptr(cfd_llist);
	int this_cpu = smp_processor_id();
	unsigned int cpu;

	for_each_cpu(cpu, mask) {
		int rc;

		if ((int)cpu == this_cpu)
			continue;
		if (cpumask_test_cpu(cpu, &cfd->cpumask_inline))
			rc = inline_wait(per_cpu_ptr(ipi_cpus, cpu), inline_token(this_cpu), (int)cpu);
		else
			rc = csd_lock_wait(per_cpu_ptr(cfd->csd, cpu), (int)cpu);
		if (rc != 0)
			return -1;
	}
	return 0;
}

static int llist_call_function_many(const struct cpumask *mask, smp_call_func_t func,
				    void *info, bool wait)
{
	int this_cpu = smp_processor_id();
	struct call_function_data_llist *cfd = this_cpu_ptr(cfd_llist);
	unsigned int cpu;
	int ret = 0;

	for_each_cpu(cpu, mask)
		if ((int)cpu != this_cpu && cpumask_test_cpu(cpu, cpu_online_mask))
			goto have_targets;
	return 0;
have_targets:
	cpumask_clear(&cfd->cpumask);
	for_each_cpu(cpu, mask)
		if ((int)cpu != this_cpu && cpumask_test_cpu(cpu, cpu_online_mask))
			cpumask_set_cpu(cpu, &cfd->cpumask);
	cpumask_clear(&cfd->cpumask_ipi);
	cpumask_clear(&cfd->cpumask_inline);
	for_each_cpu(cpu, &cfd->cpumask) {
		struct call_single_data *csd = per_cpu_ptr(cfd->csd, cpu);
		struct ipi_cpu *t = per_cpu_ptr(ipi_cpus, cpu);

		if (try_inline(t, func, info, inline_token(this_cpu))) {
			cpumask_set_cpu(cpu, &cfd->cpumask_inline);
			cpumask_set_cpu(cpu, &cfd->cpumask_ipi);
			continue;
		}

		if (csd_lock(csd, (int)cpu) != 0) {
			/* Its last call is still unanswered: leave it out. */
			cpumask_clear_cpu(cpu, &cfd->cpumask);
			ret = -1;
			continue;
		}
		csd->func = func;
		csd->info = info;
		if (llist_add(&csd->llist, &t->line.call_single_queue))
			cpumask_set_cpu(cpu, &cfd->cpumask_ipi);
	}
	/* Send a message to all CPUs in the map */
	for_each_cpu(cpu, &cfd->cpumask_ipi)
		smp_send_ipi((int)cpu);	/* arch_send_call_function_single_ipi */

	if (wait && ret == 0)
		ret = llist_call_function_many_wait(&cfd->cpumask);
	return ret;
}

/* One target, no masks (the kernel's generic_exec_single path). */
static int llist_call_function_single(int cpu, smp_call_func_t func, void *info, int wait)
{
	int this_cpu = smp_processor_id();
	struct ipi_cpu *t;
	struct call_single_data *csd;

	if (cpu == this_cpu) {
		call_function_here(func, info);
		return 0;
	}
	t = per_cpu_ptr(ipi_cpus, cpu);
	if (try_inline(t, func, info, inline_token(this_cpu))) {
		smp_send_ipi(cpu);
		return wait ? inline_wait(t, inline_token(this_cpu), cpu) : 0;
	}
	csd = per_cpu_ptr(this_cpu_ptr(cfd_llist)->csd, cpu);
	if (csd_lock(csd, cpu) != 0)
		return -1;
	csd->func = func;
	csd->info = info;
	if (llist_add(&csd->llist, &t->line.call_single_queue))
		smp_send_ipi(cpu);
	return wait ? csd_lock_wait(csd, cpu) : 0;
}

/* flush_smp_call_function_queue's body: the slot, then the queue in the order queued. */
static void llist_interrupt(void)
{
	struct llist_node *entry;
	unsigned long state;

	state = atomic_load_explicit(&ipi_my_line->inline_state, memory_order_acquire);
	if (state & IPI_INLINE_PENDING) {
		ipi_my_line->inline_func(ipi_my_line->inline_info);
		mmscale_count_inc(MMSCALE_IPIS_HANDLED);
		atomic_store_explicit(&ipi_my_line->inline_state, 0, memory_order_release);
	}
	entry = llist_reverse_order(llist_del_all(&ipi_my_line->call_single_queue));
	while (entry) {
		struct call_single_data *csd = container_of(entry, struct call_single_data, llist);
		struct llist_node *next = atomic_load_explicit(&entry->next, memory_order_relaxed);
		smp_call_func_t func = csd->func;
		void *info = csd->info;

		func(info);
		mmscale_count_inc(MMSCALE_IPIS_HANDLED);
		csd_unlock(csd);
		entry = next;
	}
}

static void llist_teardown(void)
{
	unsigned int cpu;

	if (cfd_llist)
		for_each_online_cpu(cpu)
			free_percpu(per_cpu_ptr(cfd_llist, cpu)->csd);
	free_percpu(cfd_llist);
	cfd_llist = NULL;
}

static int llist_setup(char *err, size_t errlen)
{
	unsigned int cpu;

	cfd_llist = alloc_percpu(struct call_function_data_llist);
	if (!cfd_llist)
		return mmscale_errorf(err, errlen, "per-CPU units full: cannot set up IPIs");
	for_each_online_cpu(cpu) {
		struct call_function_data_llist *cfd = per_cpu_ptr(cfd_llist, cpu);

		/* One csd per target, in the target's unit: the kernel's layout. */
		cfd->csd = alloc_percpu(struct call_single_data);
		if (!cfd->csd)
			return mmscale_errorf(err, errlen,
				"per-CPU units full: cannot allocate the csds of CPU %u", cpu);
	}
	return 0;
}

/*
 * One waited call to k idle targets: a doorbell rung for each (its queue,
 * or its slot, was empty), each handles it; no call_function.lock exists.
 */
static void llist_claim(unsigned int targets, struct smp_claim *out)
{
	out->ipis = targets;
	out->call_function_locks = 0;
}

const struct smp_generation smp_llist = {
	.name = "percpu",
	.summary = "3.14+: per-CPU lock-less call_single_queue (llist), a csd per target",
	.source = "kernel/smp.c of Linux 3.14+ (6897fc22ea01)",
	.setup = llist_setup,
	.teardown = llist_teardown,
	.call_function_many = llist_call_function_many,
	.call_function_single = llist_call_function_single,
	.call_function_many_wait = llist_call_function_many_wait,
	.interrupt = llist_interrupt,
	.claim = llist_claim,
};
