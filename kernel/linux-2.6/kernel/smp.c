// SPDX-License-Identifier: GPL-2.0
/*
 * Cross-CPU calls over one global queue: kernel/smp.c of 2.6.38 to 3.4,
 * after 3.4's lines (3.4.2; the same as 2.6.38.8, whose stable fix to the
 * refs/mask race 3.4 has), line by line: smp_call_function_many queues the
 * sender's one call_function_data on the global call_function.queue under
 * call_function.lock; every target walks that list, tests its bit in each
 * entry's shared cpumask (a read) and, for an entry meant for it, runs the
 * call, clears the bit (a locked btr) and decrements the shared refs; the
 * last one takes call_function.lock again to unlink the entry. One target,
 * and smp_call_function_single: the target's call_single_queue under its
 * lock. 2.6.38.0 differs only in order: it sets refs before list_add_rcu,
 * where 2.6.38.8 and 3.4 zero refs first (a write to the sender's own cfd
 * line, which its csd_lock has just written) and set it under the lock.
 *
 * 2.6.32's generation (kernel/linux-2.6/kernel/smp-2.6.32.c) shares all but
 * smp_call_function_many and the handler, whose test_and_clear of every
 * entry's bit makes a locked write to each entry it walks; this file holds
 * what both run (kernel/linux-2.6/kernel/smp_global_queue.h).
 *
 * The cfd's cpumask is a cpumask_var_t of CONFIG_CPUMASK_OFFSTACK (the
 * 4096-CPU configurations the drain seed is about): a separate allocation
 * on the CPU's node, here cache-line aligned in the CPU's per-CPU unit.
 *
 * Lock counts: call_function.lock counts MMSCALE_CALL_FUNCTION_LOCKS;
 * call_single_queue.lock counts nothing (neither is an mm lock); every
 * acquisition of either is a locked op (MMSCALE_LOCKED_OPS), as are the
 * bitops on the shared mask and the refs decrements, and x86's clear of the
 * sender's own bit in its all-but-self copy (gq_send_call_function_ipi_mask).
 */
#include "smp_global_queue.h"

struct call_function_queue call_function;
struct call_function_data *cfd_data;			/* percpu */

BUILD_BUG_ON(sizeof(struct call_function_data) != SMP_CACHE_BYTES);

/* DEFINE_PER_CPU_SHARED_ALIGNED(struct call_single_queue, call_single_queue) */
struct call_single_queue {
	struct list_head	list;
	spinlock_t		lock;
} ____cacheline_aligned_in_smp;

static struct cpumask *cfd_cpumask;			/* percpu: each cfd's mask */
static struct call_single_queue *call_single_queue;	/* percpu */
static struct call_single_data_list *csd_data;		/* percpu: !wait single calls */
static struct call_single_data_list *csd_on_stack;	/* percpu: the wait path's on-stack d */
static struct cpumask *allbutself_mask;			/* percpu: native_send_call_func_ipi's */
static _Thread_local int csd_data_target = -1;		/* for smp_call_function_many_wait */

unsigned int gq_queued(void)
{
	unsigned int n = 0;

	for (struct list_head *pos = gq_list_next_rcu(&call_function.queue);
	     pos != &call_function.queue; pos = gq_list_next_rcu(pos))
		n++;
	return n;
}

void gq_raw_spin_lock(spinlock_t *lock)
{
	__ticket_t ticket = atomic_fetch_add_explicit(&lock->tail, 1, memory_order_relaxed);
	unsigned int spins = 0;

	mmscale_count_inc(MMSCALE_LOCKED_OPS);
	while (atomic_load_explicit(&lock->head, memory_order_acquire) != ticket)
		spin_wait_step(&spins);
}

void call_function_lock(void)
{
	gq_raw_spin_lock(&call_function.lock);
	mmscale_count_inc(MMSCALE_CALL_FUNCTION_LOCKS);
}

unsigned int gq_next(int n, const struct cpumask *m)
{
	for (unsigned int cpu = (unsigned int)(n + 1); cpu < nr_cpu_ids; cpu++)
		if (gq_test_cpu(cpu, m))
			return cpu;
	return nr_cpu_ids;
}

/* cpumask_next_and(n, a, b) */
static unsigned int gq_next_and(int n, const struct cpumask *a, const struct cpumask *b)
{
	for (unsigned int cpu = (unsigned int)(n + 1); cpu < nr_cpu_ids; cpu++)
		if (cpumask_test_cpu(cpu, a) && cpumask_test_cpu(cpu, b))
			return cpu;
	return nr_cpu_ids;
}

int gq_targets(const struct cpumask *mask, unsigned int *first)
{
	int this_cpu = smp_processor_id();
	unsigned int cpu, next_cpu;

	/* So, what's a CPU they want? Ignoring this one. */
	cpu = gq_next_and(-1, mask, cpu_online_mask);
	if ((int)cpu == this_cpu)
		cpu = gq_next_and((int)cpu, mask, cpu_online_mask);

	/* No online cpus?  We're done. */
	if (cpu >= nr_cpu_ids)
		return 0;
	*first = cpu;

	/* Do we have another CPU which isn't us? */
	next_cpu = gq_next_and((int)cpu, mask, cpu_online_mask);
	if ((int)next_cpu == this_cpu)
		next_cpu = gq_next_and((int)next_cpu, mask, cpu_online_mask);

	/* Fastpath: do that cpu by itself. */
	return next_cpu >= nr_cpu_ids ? 1 : 2;
}

void gq_publish_mask(struct cpumask *dst, const struct cpumask *mask)
{
	for (size_t i = 0; i < BITS_TO_LONGS(nr_cpu_ids); i++)
		__atomic_store_n(&dst->bits[i], cpumask_word(mask, i) &
				 cpumask_word(cpu_online_mask, i), __ATOMIC_RELEASE);
}

struct list_head *gq_list_next_rcu(struct list_head *p)
{
	return __atomic_load_n(&p->next, __ATOMIC_ACQUIRE);	/* rcu_dereference */
}

void gq_list_add_rcu(struct list_head *new, struct list_head *head)
{
	struct list_head *next = head->next;

	__atomic_store_n(&new->next, next, __ATOMIC_RELAXED);
	new->prev = head;
	__atomic_store_n(&head->next, new, __ATOMIC_RELEASE);	/* rcu_assign_pointer */
	next->prev = new;
}

void gq_list_del_rcu(struct list_head *entry)
{
	struct list_head *prev = entry->prev, *next = entry->next;

	next->prev = prev;
	__atomic_store_n(&prev->next, next, __ATOMIC_RELEASE);
	entry->prev = LIST_POISON2;	/* ->next stays: a walker on it goes on */
}

/* smp_mb(); data->flags &= ~CSD_FLAG_LOCK: a plain store after the barrier. */
void gq_csd_unlock(struct call_single_data_list *data)
{
	/* ensure we're all done before releasing data: smp_mb() */
	atomic_store_explicit(&data->flags, 0, memory_order_seq_cst);
}

/*
 * csd_lock_wait with the emulation's timeout: the CPU named is cpu, or
 * (cpu < 0) the first one still in who - the targets that have not run it.
 */
int gq_csd_lock_wait(struct call_single_data_list *data, int cpu, const struct cpumask *who)
{
	unsigned long long deadline = 0;
	unsigned int spins = 0;

	while (atomic_load_explicit(&data->flags, memory_order_acquire) & CSD_FLAG_LOCK) {
		if (!ipi_wait_step_timed_out(&spins, &deadline))
			continue;
		if (cpu < 0 && who)
			cpu = (int)gq_next(-1, who);
		if (cpu < 0 || (unsigned int)cpu >= nr_cpu_ids)
			cpu = 0;
		return ipi_no_answer(cpu);
	}
	return 0;
}

int gq_csd_lock(struct call_single_data_list *data, int cpu, const struct cpumask *who)
{
	if (gq_csd_lock_wait(data, cpu, who) != 0)
		return -1;
	atomic_store_explicit(&data->flags, CSD_FLAG_LOCK, memory_order_relaxed);
	smp_mb();
	return 0;
}

/* The interrupt controller: raise vector on cpu, one IPI, and ring its doorbell. */

static void send_vector(int cpu, unsigned int vector)
{
	apic_irr_raise(&per_cpu_ptr(ipi_cpus, cpu)->line, vector);
	smp_send_ipi(cpu);
}

/*
 * arch_send_call_function_ipi_mask, x86's native_send_call_func_ipi as 2.6.29
 * to 5.2 have it (arch/x86/kernel/smp.c, not in ../shared/kernel: read in
 * public 2.6.3x and 3.x trees): the sender copies cpu_online_mask into a
 * mask of its own (alloc_cpumask_var, off-stack with NR_CPUS 4096: the
 * kmalloc and kfree around it are not emulated), clears its own bit with
 * the locked cpumask_clear_cpu (__cpumask_clear_cpu only from 2019), and
 * compares: a mask of every other online CPU goes out as one all-but-self
 * shorthand (apic->send_IPI_allbutself: every CPU of that snapshot), any
 * other as apic->send_IPI_mask - every CPU whose bit is in the mask when
 * it is read, the shared mask, live, so a target that already ran the call
 * (it walked the list for another call's IPI) is not interrupted for it.
 * cpu_callout_mask, which equals the online mask once CPUs are up, is not
 * kept.
 */
void gq_send_call_function_ipi_mask(const struct cpumask *mask)
{
	struct cpumask *allbutself = this_cpu_ptr(allbutself_mask);
	unsigned int cpu;

	cpumask_copy(allbutself, cpu_online_mask);
	cpumask_clear_cpu((unsigned int)smp_processor_id(), allbutself);

	if (cpumask_equal(mask, allbutself)) {
		for_each_cpu(cpu, allbutself)
			send_vector((int)cpu, IPI_CALL_FUNCTION);
		return;
	}
	for (cpu = gq_next(-1, mask); cpu < nr_cpu_ids; cpu = gq_next((int)cpu, mask))
		send_vector((int)cpu, IPI_CALL_FUNCTION);
}

static int generic_exec_single(int cpu, struct call_single_data_list *data, int wait)
{
	struct call_single_queue *dst = per_cpu_ptr(call_single_queue, cpu);
	unsigned long flags;
	int ipi;

	local_irq_save(flags);
	gq_raw_spin_lock(&dst->lock);
	ipi = list_empty(&dst->list);
	list_add_tail(&data->list, &dst->list);
	gq_raw_spin_unlock(&dst->lock);
	local_irq_restore(flags);

	if (ipi)
		send_vector(cpu, IPI_CALL_FUNCTION_SINGLE);	/* arch_send_call_function_single_ipi */

	if (wait)
		return gq_csd_lock_wait(data, cpu, NULL);
	return 0;
}

/* Invoked with interrupts disabled (flush_smp_call_function_queue). */
static void generic_smp_call_function_interrupt(void)
{
	struct call_function_data *data;
	struct list_head *pos;
	unsigned int cpu = (unsigned int)smp_processor_id();

	/*
	 * Ensure entry is visible on call_function_queue after we have
	 * entered the IPI. See comment in smp_call_function_many.
	 */
	smp_mb();

	/* list_for_each_entry_rcu: list_del_rcu() doesn't clear ->next */
	for (pos = gq_list_next_rcu(&call_function.queue); pos != &call_function.queue;
	     pos = gq_list_next_rcu(pos)) {
		smp_call_func_t func;
		int refs;

		data = container_of(pos, struct call_function_data, csd.list);
		/*
		 * Since we walk the list without any locks, we might see an
		 * entry that was completed, removed from the list and is in
		 * the process of being reused: the bit first, then refs.
		 */
		if (!gq_test_cpu(cpu, data->cpumask))
			continue;

		smp_rmb();

		if (atomic_read(&data->refs) == 0)
			continue;

		func = data->csd.func;		/* save for later warn */
		func(data->csd.info);
		mmscale_count_inc(MMSCALE_IPIS_HANDLED);

		/* Not still set: func enabled interrupts and ran twice (WARN). */
		if (!gq_test_and_clear_cpu(cpu, data->cpumask))
			continue;

		refs = atomic_dec_return(&data->refs);
		if (refs)
			continue;

		/* WARN_ON(!cpumask_empty(data->cpumask)): the last target reads every word */
		(void)cpumask_empty(data->cpumask);

		call_function_lock();
		gq_list_del_rcu(&data->csd.list);
		gq_raw_spin_unlock(&call_function.lock);

		gq_csd_unlock(&data->csd);
	}
}

static void generic_smp_call_function_single_interrupt(void)
{
	struct call_single_queue *q = this_cpu_ptr(call_single_queue);
	unsigned int data_flags;
	struct list_head list;

	INIT_LIST_HEAD(&list);
	gq_raw_spin_lock(&q->lock);
	list_splice_init(&q->list, &list);	/* list_replace_init */
	gq_raw_spin_unlock(&q->lock);

	while (!list_empty(&list)) {
		struct call_single_data_list *data;

		data = list_entry(list.next, struct call_single_data_list, list);
		list_del(&data->list);

		/* 'data' can be invalid after this call if flags == 0 */
		data_flags = atomic_load_explicit(&data->flags, memory_order_relaxed);

		data->func(data->info);
		mmscale_count_inc(MMSCALE_IPIS_HANDLED);

		if (data_flags & CSD_FLAG_LOCK)
			gq_csd_unlock(data);
	}
}

int gq_call_function_single(int cpu, smp_call_func_t func, void *info, int wait)
{
	int this_cpu = get_cpu();
	struct call_single_data_list *data;

	if (cpu == this_cpu) {
		call_function_here(func, info);
		return 0;
	}
	if ((unsigned int)cpu >= nr_cpu_ids || !cpumask_test_cpu((unsigned int)cpu, cpu_online_mask))
		return 0;	/* -ENXIO in the kernel */
	/* On the sender's stack with wait (here: its own per-CPU stand-in), csd_data without. */
	data = this_cpu_ptr(csd_on_stack);
	if (!wait) {
		data = this_cpu_ptr(csd_data);
		/* The last call through csd_data went to csd_data_target. */
		if (gq_csd_lock(data, csd_data_target, NULL) != 0)
			return -1;
		csd_data_target = cpu;
	} else if (gq_csd_lock(data, cpu, NULL) != 0) {
		return -1;
	}
	data->func = func;
	data->info = info;
	return generic_exec_single(cpu, data, wait);
}

static int gq_call_function_many(const struct cpumask *mask, smp_call_func_t func, void *info,
				 enum smp_call_wait how)
{
	/* The last target unlocks the csd after every call ran: a later wait is a flush. */
	bool wait = how == SMP_CALL_WAIT;
	struct call_function_data *data;
	unsigned long flags;
	int refs, this_cpu = smp_processor_id();
	unsigned int cpu;

	/* Try to fastpath. */
	switch (gq_targets(mask, &cpu)) {
	case 0:
		return 0;
	case 1:
		return gq_call_function_single((int)cpu, func, info, wait);
	}

	data = this_cpu_ptr(cfd_data);
	if (gq_csd_lock(&data->csd, -1, data->cpumask) != 0)
		return -1;	/* its last call is still unanswered */

	/* This BUG_ON verifies our reuse assertions: it reads refs and the mask */
	if (atomic_read(&data->refs) || !cpumask_empty(data->cpumask))
		mmscale_kernel_bug("BUG in smp_call_function_many: a cfd reused with refs or "
				   "mask bits left");

	/*
	 * On the previous iteration refs was set to 0 by another cpu. To
	 * avoid the use of transitivity, set the counter to 0 here so the
	 * wmb will pair with the rmb in the interrupt handler.
	 */
	atomic_set(&data->refs, 0);	/* convert 3rd to 1st party write */

	data->csd.func = func;
	data->csd.info = info;

	/* Ensure 0 refs is visible before mask.  Also orders func and info */
	smp_wmb();

	/* We rely on the "and" being processed before the store */
	gq_publish_mask(data->cpumask, mask);	/* cpumask_and(data->cpumask, mask, cpu_online_mask) */
	cpumask_clear_cpu((unsigned int)this_cpu, data->cpumask);
	refs = (int)cpumask_weight(data->cpumask);

	/* Some callers race with other cpus changing the passed mask */
	if (unlikely(!refs)) {
		gq_csd_unlock(&data->csd);
		return 0;
	}

	local_irq_save(flags);
	call_function_lock();
	/*
	 * Place entry at the _HEAD_ of the list, so that any cpu still
	 * observing the entry in generic_smp_call_function_interrupt()
	 * will not miss any other list entries:
	 */
	gq_list_add_rcu(&data->csd.list, &call_function.queue);
	/*
	 * We rely on the wmb() in list_add_rcu to complete our writes
	 * to the cpumask before this write to refs, which indicates
	 * data is on the list and is ready to be processed.
	 */
	atomic_set(&data->refs, refs);
	gq_raw_spin_unlock(&call_function.lock);
	local_irq_restore(flags);

	/* Make the list addition visible before sending the ipi. */
	smp_mb();

	/* Send a message to all CPUs in the map */
	gq_send_call_function_ipi_mask(data->cpumask);

	/* Optionally wait for the CPUs to complete */
	if (wait)
		return gq_csd_lock_wait(&data->csd, -1, data->cpumask);
	return 0;
}

/* The calls this CPU last queued without wait: its cfd and its csd_data (whatever the mask). */
int gq_call_function_many_wait(const struct cpumask *mask)
{
	struct call_function_data *data = this_cpu_ptr(cfd_data);

	(void)mask;
	if (gq_csd_lock_wait(&data->csd, -1, data->cpumask) != 0)
		return -1;
	return gq_csd_lock_wait(this_cpu_ptr(csd_data), csd_data_target, NULL);
}

void gq_teardown(void)
{
	free_percpu(cfd_data);
	free_percpu(cfd_cpumask);
	free_percpu(call_single_queue);
	free_percpu(csd_data);
	free_percpu(csd_on_stack);
	free_percpu(allbutself_mask);
	allbutself_mask = NULL;
	cfd_data = NULL;
	cfd_cpumask = NULL;
	call_single_queue = NULL;
	csd_data = NULL;
	csd_on_stack = NULL;
}

/*
 * csd_data: DEFINE_PER_CPU_SHARED_ALIGNED in 2.6.38 to 3.4 (a line of its
 * own), plain DEFINE_PER_CPU in 2.6.32 (40 bytes, 8-aligned: it may share a
 * line with the next per-CPU datum).
 */
static int gq_setup_csd(bool csd_shared_aligned, char *err, size_t errlen)
{
	unsigned int cpu;

	INIT_LIST_HEAD(&call_function.queue);
	spin_lock_init(&call_function.lock);
	csd_data_target = -1;
	cfd_data = alloc_percpu(struct call_function_data);
	cfd_cpumask = __alloc_percpu(sizeof(struct cpumask), SMP_CACHE_BYTES);
	call_single_queue = alloc_percpu(struct call_single_queue);
	csd_data = csd_shared_aligned
		? __alloc_percpu(DIV_ROUND_UP(sizeof(struct call_single_data_list), SMP_CACHE_BYTES) * SMP_CACHE_BYTES,
				 SMP_CACHE_BYTES)
		: alloc_percpu(struct call_single_data_list);
	csd_on_stack = alloc_percpu(struct call_single_data_list);
	allbutself_mask = __alloc_percpu(sizeof(struct cpumask), SMP_CACHE_BYTES);
	if (!cfd_data || !cfd_cpumask || !call_single_queue || !csd_data || !csd_on_stack ||
	    !allbutself_mask)
		return mmscale_errorf(err, errlen,
			"per-CPU units full: cannot set up the call_function queue");
	for_each_online_cpu(cpu) {
		struct call_single_queue *q = per_cpu_ptr(call_single_queue, cpu);

		spin_lock_init(&q->lock);
		INIT_LIST_HEAD(&q->list);
		per_cpu_ptr(cfd_data, cpu)->cpumask = per_cpu_ptr(cfd_cpumask, cpu);
	}
	return 0;
}

int gq_setup(char *err, size_t errlen)
{
	return gq_setup_csd(true, err, errlen);
}

int gq_setup_2_6_32(char *err, size_t errlen)
{
	return gq_setup_csd(false, err, errlen);
}

/* The interrupt: the vectors pending on this CPU (its APIC's IRR), taken. */
void gq_interrupt(void (*call_function_interrupt)(void))
{
	unsigned int vectors;

	if (!apic_irr_read(ipi_my_line))
		return;
	vectors = apic_irr_take(ipi_my_line);
	/* The APIC delivers the higher vector first: CALL_FUNCTION (0xfc), then SINGLE (0xfb). */
	if (vectors & IPI_CALL_FUNCTION)
		call_function_interrupt();
	if (vectors & IPI_CALL_FUNCTION_SINGLE)
		generic_smp_call_function_single_interrupt();
}

static void gq_interrupt_3_4(void)
{
	gq_interrupt(generic_smp_call_function_interrupt);
}

/*
 * One waited call to k idle targets (worked out from 3.4's lines above;
 * drain/tests/test_smp_generations.c says why, case by case): none, for
 * k = 0; k = 1 takes the single-CPU fastpath (its call_single_queue.lock
 * is not call_function.lock): 1 IPI, 2 locked ops (the queue's lock, by
 * the sender and by the target); k >= 2: call_function.lock around
 * list_add_rcu and once more by the last target to unlink: 2, and k IPIs;
 * locked ops: the sender's cpumask_clear_cpu, its lock and x86's clear of
 * its bit in the all-but-self copy (native_send_call_func_ipi), each
 * target's test_and_clear and atomic_dec_return, the last one's lock:
 * 2k + 4. An entry queued for other CPUs costs a walking handler a read of
 * its bit.
 */
static void gq_claim(unsigned int targets, struct smp_claim *out)
{
	out->ipis = targets;
	out->call_function_locks = targets >= 2 ? 2 : 0;
	out->locked_ops = targets >= 2 ? 2 * targets + 4 : 2 * targets;
	out->locked_ops_per_foreign_entry = 0;
}

const struct smp_generation smp_global_queue = {
	.name = "global-queue",
	.summary = "2.6.38 to 3.4: one global call_function list under call_function.lock, "
		   "a shared mask and refcount per call; a handler tests its bit before it writes",
	.source = "kernel/smp.c of Linux 2.6.38 to 3.4 (as 3.4.2)",
	.setup = gq_setup,
	.teardown = gq_teardown,
	.call_function_many = gq_call_function_many,
	.call_function_single = gq_call_function_single,
	.call_function_many_wait = gq_call_function_many_wait,
	.interrupt = gq_interrupt_3_4,
	.queued = gq_queued,
	.claim = gq_claim,
};
