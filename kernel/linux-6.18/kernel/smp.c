// SPDX-License-Identifier: GPL-2.0
/*
 * Cross-CPU calls over per-CPU queues: kernel/smp.c of Linux 6.18
 * (../shared/kernel/6.18/kernel/smp.c), line by line where it concerns a
 * function call (the CSD_TYPE_IRQ_WORK and _TTWU entries other subsystems
 * queue there do not occur here). Per-CPU lock-less call_single_queues
 * (llist) date from 3.14 (6897fc22ea01), a per-sender cfd with one csd per
 * target from 3.9.
 *
 * smp_call_function_many_cond (lines 780-895): the sender copies the mask
 * into its own cfd (cpumask_and, __cpumask_clear_cpu: plain writes to its
 * own lines); for each target it takes the target's csd of its cfd
 * (csd_lock: waits for it to be unlocked, then a plain |= CSD_FLAG_LOCK),
 * marks it CSD_TYPE_SYNC when it will wait, fills in func and info, and
 * llist_adds it to the target's call_single_queue (a locked cmpxchg on the
 * target's queue line); a target whose queue was empty gets an IPI - one
 * with the single-IPI call when there is one such target, the mask call
 * when more. Then it waits on each csd. No single-target fast path.
 *
 * The handler (__flush_smp_call_function_queue, lines 480-608): llist_del_all
 * (a locked xchg) takes the whole queue, which it reverses; it runs the
 * SYNC entries first, each unlocked after its function (the sender waits),
 * then the ASYNC ones, each unlocked before its function runs.
 *
 * A round trip moves two lines besides the target's interrupt: the
 * target's queue line (the sender's cmpxchg, the target's xchg) and the
 * csd's (in the target's per-CPU unit: the sender fills it in, the target
 * reads and unlocks it, the sender's wait reads it).
 *
 * Not emulated: call_function_single_prep_ipi's idle polling (a target
 * polling in idle, TIF_POLLING_NRFLAG, is woken with TIF_NEED_RESCHED, no
 * IPI): the targets here take the IPI, as with idle=halt or a busy CPU;
 * the per-CPU trigger_backtrace store the handler makes on its own line;
 * CONFIG_CSD_LOCK_WAIT_DEBUG.
 */
#include "mmscale/kernel/smp.h"
#include "../../smp_internal.h"

/* struct call_function_data (lines 40-44): csd is percpu, one per target in its unit. */
struct call_function_data_llist {
	struct call_single_data *csd;
	struct cpumask cpumask;
	struct cpumask cpumask_ipi;
};

static struct call_function_data_llist *cfd_llist;	/* DEFINE_PER_CPU_ALIGNED cfd_data */
static struct call_single_data *csd_data;		/* SHARED_ALIGNED: !wait single calls */
static struct call_single_data *csd_stack;		/* percpu: the wait path's on-stack csd */
static _Thread_local int csd_data_target = -1;		/* for smp_call_function_many_wait */

/* csd_lock_wait with the emulation's timeout: it names cpu, the target. */
static int csd_lock_wait(struct call_single_data *csd, int cpu)
{
	unsigned long long deadline = 0;
	unsigned int spins = 0;

	/* smp_cond_load_acquire(&csd->node.u_flags, !(VAL & CSD_FLAG_LOCK)) */
	while (atomic_load_explicit(&csd->flags, memory_order_acquire) & CSD_FLAG_LOCK)
		if (ipi_wait_step_timed_out(&spins, &deadline))
			return ipi_no_answer(cpu);
	return 0;
}

/* A plain |= after the wait (only the owner writes a locked csd), then smp_wmb. */
static int csd_lock(struct call_single_data *csd, int cpu)
{
	if (csd_lock_wait(csd, cpu) != 0)
		return -1;
	atomic_store_explicit(&csd->flags,
			      atomic_load_explicit(&csd->flags, memory_order_relaxed) |
			      CSD_FLAG_LOCK, memory_order_relaxed);
	smp_wmb();
	return 0;
}

/* smp_store_release(&csd->node.u_flags, 0) */
static void csd_unlock(struct call_single_data *csd)
{
	atomic_store_explicit(&csd->flags, 0, memory_order_release);
}

/* The single-IPI and the mask call each ring a target's doorbell once. */
static void send_call_function_single_ipi(int cpu)
{
	smp_send_ipi(cpu);	/* arch_send_call_function_single_ipi */
}

/* __smp_call_single_queue: an IPI only if the target's queue was empty. */
static void smp_call_single_queue(int cpu, struct call_single_data *csd)
{
	if (llist_add(&csd->llist, &per_cpu_ptr(ipi_cpus, cpu)->line.call_single_queue))
		send_call_function_single_ipi(cpu);
}

static int llist_call_function_many(const struct cpumask *mask, smp_call_func_t func,
				    void *info, enum smp_call_wait how)
{
	int this_cpu = smp_processor_id(), nr_cpus = 0, last_cpu = -1, ret = 0;
	struct call_function_data_llist *cfd;
	bool run_remote = false;
	unsigned int cpu;

	/* Check if we need remote execution, i.e., any CPU excluding this one. */
	for_each_cpu(cpu, mask)
		if ((int)cpu != this_cpu && cpumask_test_cpu(cpu, cpu_online_mask))
			goto remote;
	return 0;
remote:
	cfd = this_cpu_ptr(cfd_llist);
	cpumask_and(&cfd->cpumask, mask, cpu_online_mask);
	__cpumask_clear_cpu((unsigned int)this_cpu, &cfd->cpumask);

	cpumask_clear(&cfd->cpumask_ipi);
	for_each_cpu(cpu, &cfd->cpumask) {
		struct call_single_data *csd = per_cpu_ptr(cfd->csd, cpu);

		/* Work is enqueued on a remote CPU. */
		run_remote = true;

		if (csd_lock(csd, (int)cpu) != 0) {
			/* The emulation's: its last call is still unanswered, leave it out. */
			__cpumask_clear_cpu(cpu, &cfd->cpumask);
			ret = -1;
			continue;
		}
		if (how != SMP_CALL_NO_WAIT)
			atomic_store_explicit(&csd->flags,
					      atomic_load_explicit(&csd->flags,
								   memory_order_relaxed) |
					      CSD_TYPE_SYNC, memory_order_relaxed);
		csd->func = func;
		csd->info = info;

		/* Kick the remote CPU if this is the first work item enqueued. */
		if (llist_add(&csd->llist, &per_cpu_ptr(ipi_cpus, cpu)->line.call_single_queue)) {
			__cpumask_set_cpu(cpu, &cfd->cpumask_ipi);
			nr_cpus++;
			last_cpu = (int)cpu;
		}
	}

	/*
	 * Choose the most efficient way to send an IPI. Note that the
	 * number of CPUs might be zero due to concurrent changes to the
	 * provided mask.
	 */
	if (nr_cpus == 1)
		send_call_function_single_ipi(last_cpu);
	else if (likely(nr_cpus > 1))
		for_each_cpu(cpu, &cfd->cpumask_ipi)	/* arch_send_call_function_ipi_mask */
			smp_send_ipi((int)cpu);

	if (run_remote && how == SMP_CALL_WAIT)
		for_each_cpu(cpu, &cfd->cpumask)
			if (csd_lock_wait(per_cpu_ptr(cfd->csd, cpu), (int)cpu) != 0)
				return -1;
	return ret;
}

/*
 * The csds of this CPU's last calls: its cfd's to the CPUs of mask, and
 * csd_data, which its last single call without wait used.
 */
static int llist_call_function_many_wait(const struct cpumask *mask)
{
	struct call_function_data_llist *cfd = this_cpu_ptr(cfd_llist);
	int this_cpu = smp_processor_id();
	unsigned int cpu;

	for_each_cpu(cpu, mask)
		if ((int)cpu != this_cpu &&
		    csd_lock_wait(per_cpu_ptr(cfd->csd, cpu), (int)cpu) != 0)
			return -1;
	return csd_lock_wait(this_cpu_ptr(csd_data), csd_data_target);
}

/* smp_call_function_single (lines 636-692) and generic_exec_single (lines 421-454). */
static int llist_call_function_single(int cpu, smp_call_func_t func, void *info, int wait)
{
	int this_cpu = smp_processor_id();
	struct call_single_data *csd;

	if (cpu == this_cpu) {
		/* We can unlock early even for the synchronous on-stack case. */
		call_function_here(func, info);
		return 0;
	}
	if ((unsigned int)cpu >= nr_cpu_ids || !cpumask_test_cpu((unsigned int)cpu, cpu_online_mask))
		return 0;	/* -ENXIO in the kernel */

	/* On the sender's stack with wait (here: its own per-CPU stand-in), csd_data without. */
	csd = this_cpu_ptr(csd_stack);
	if (!wait) {
		csd = this_cpu_ptr(csd_data);
		/* The last call through csd_data went to csd_data_target. */
		if (csd_lock(csd, csd_data_target) != 0)
			return -1;
		csd_data_target = cpu;
	} else {
		/* csd_stack = { .node = { .u_flags = CSD_FLAG_LOCK | CSD_TYPE_SYNC } } */
		atomic_store_explicit(&csd->flags, CSD_FLAG_LOCK | CSD_TYPE_SYNC,
				      memory_order_relaxed);
	}
	csd->func = func;
	csd->info = info;
	smp_call_single_queue(cpu, csd);
	return wait ? csd_lock_wait(csd, cpu) : 0;
}

/* __flush_smp_call_function_queue: the SYNC entries first, then the ASYNC ones. */
static void llist_interrupt(void)
{
	struct llist_node *entry, *prev, *pos, *next;

	entry = llist_reverse_order(llist_del_all(&ipi_my_line->call_single_queue));

	/* First; run all SYNC callbacks, people are waiting for us. */
	prev = NULL;
	for (pos = entry; pos; pos = next) {
		struct call_single_data *csd = container_of(pos, struct call_single_data, llist);

		next = atomic_load_explicit(&pos->next, memory_order_relaxed);
		if ((atomic_load_explicit(&csd->flags, memory_order_relaxed) &
		     CSD_FLAG_TYPE_MASK) == CSD_TYPE_SYNC) {
			smp_call_func_t func = csd->func;
			void *info = csd->info;

			if (prev)
				atomic_store_explicit(&prev->next, next, memory_order_relaxed);
			else
				entry = next;
			func(info);
			mmscale_count_inc(MMSCALE_IPIS_HANDLED);
			csd_unlock(csd);
		} else {
			prev = pos;
		}
	}

	/* Second; run all !SYNC callbacks. */
	for (pos = entry; pos; pos = next) {
		struct call_single_data *csd = container_of(pos, struct call_single_data, llist);
		smp_call_func_t func = csd->func;
		void *info = csd->info;

		next = atomic_load_explicit(&pos->next, memory_order_relaxed);
		csd_unlock(csd);
		func(info);
		mmscale_count_inc(MMSCALE_IPIS_HANDLED);
	}
}

static void llist_teardown(void)
{
	unsigned int cpu;

	if (cfd_llist)
		for_each_online_cpu(cpu)
			free_percpu(per_cpu_ptr(cfd_llist, cpu)->csd);
	free_percpu(cfd_llist);
	free_percpu(csd_data);
	free_percpu(csd_stack);
	cfd_llist = NULL;
	csd_data = NULL;
	csd_stack = NULL;
}

static int llist_setup(char *err, size_t errlen)
{
	unsigned int cpu;

	csd_data_target = -1;
	cfd_llist = alloc_percpu(struct call_function_data_llist);
	csd_data = __alloc_percpu(sizeof(struct call_single_data), SMP_CACHE_BYTES);
	csd_stack = alloc_percpu(struct call_single_data);
	if (!cfd_llist || !csd_data || !csd_stack)
		return mmscale_errorf(err, errlen, "per-CPU units full: cannot set up IPIs");
	for_each_online_cpu(cpu) {
		struct call_function_data_llist *cfd = per_cpu_ptr(cfd_llist, cpu);

		/* smpcfd_prepare_cpu: one csd per target, in the target's unit. */
		cfd->csd = alloc_percpu(struct call_single_data);
		if (!cfd->csd)
			return mmscale_errorf(err, errlen,
				"per-CPU units full: cannot allocate the csds of CPU %u", cpu);
	}
	return 0;
}

/*
 * One waited call to k idle targets: a csd on each target's empty queue, so
 * an IPI each (one, or the mask call); each target handles it. Locked ops:
 * the sender's llist_add (a cmpxchg) per target, each target's
 * llist_del_all (an xchg): 2k. No call_function.lock exists; no queue is
 * shared by the targets.
 */
static void llist_claim(unsigned int targets, struct smp_claim *out)
{
	out->ipis = targets;
	out->call_function_locks = 0;
	out->locked_ops = 2 * targets;
	out->locked_ops_per_foreign_entry = 0;
}

const struct smp_generation smp_llist = {
	.name = "percpu",
	.summary = "3.14+, as 6.18: per-CPU lock-less call_single_queue (llist), a csd per "
		   "target, SYNC calls unlocked after they ran, ASYNC before",
	.source = "kernel/smp.c of Linux 6.18 (per-CPU llist queues since 3.14, 6897fc22ea01)",
	.setup = llist_setup,
	.teardown = llist_teardown,
	.call_function_many = llist_call_function_many,
	.call_function_single = llist_call_function_single,
	.call_function_many_wait = llist_call_function_many_wait,
	.interrupt = llist_interrupt,
	.claim = llist_claim,
	.local_before_wait = true,
	.async_unlocked_before_call = true,
};
