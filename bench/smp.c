// SPDX-License-Identifier: GPL-2.0
/*
 * Emulated cross-CPU calls, both generations of kernel/smp.c, with the
 * doorbells of --ipi. See include/mmscale/kernel/smp.h.
 *
 * - per-CPU queues: kernel/smp.c of 3.14 and later (per-CPU llist
 *   call_single_queue since 6897fc22ea01; per-sender cfd with one csd per
 *   target since 3.9): struct call_function_data_llist, cfd_llist (the
 *   kernel's struct call_function_data and cfd_data of 3.14, renamed here
 *   only so that the older generation keeps those names).
 * - global queue: kernel/smp.c of 2.6.32 to 3.4, after 3.4's lines (below,
 *   "2.6.32-3.4 global queue").
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/futex.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "mmscale/cpu.h"
#include "mmscale/kernel/percpu.h"
#include "mmscale/kernel/processor.h"
#include "mmscale/membarrier.h"
#include "mmscale/kernel/smp.h"
#include "mmscale/kernel/atomic.h"
#include "mmscale/kernel/list.h"
#include "mmscale/kernel/spinlock.h"
#include "mmscale/notice.h"
#include "mmscale/opcount.h"

_Thread_local volatile int mmscale_irqs_off;
_Thread_local volatile int mmscale_ipi_pending;
_Thread_local struct ipi_line *ipi_my_line;
static _Thread_local char ipi_last_error[256];

/* Per CPU, in its per-CPU unit: its doorbell line, futex word and state. */
struct ipi_cpu {
	struct ipi_line line;
	_Atomic unsigned int doorbell;		/* futex word: 1 = rung */
	_Atomic bool online;			/* a thread is this CPU and takes calls */
	pthread_t thread;
	const char *_Atomic activity;
} ____cacheline_aligned_in_smp;

/* Per sender: the targets of its current call, and one csd per target CPU. */
struct call_function_data_llist {
	struct call_single_data *csd;		/* percpu: csd for target t in t's unit */
	struct cpumask cpumask;
	struct cpumask cpumask_ipi;
	struct cpumask cpumask_inline;		/* targets whose call rode in the slot */
};

static struct ipi_cpu *ipi_cpus;		/* percpu */
static struct call_function_data_llist *cfd_llist;	/* percpu */
static enum mmscale_ipi_mechanism mechanism;
static int ipi_signal_number;

enum mmscale_ipi_mechanism ipi_mechanism(void)
{
	return mechanism;
}

const char *ipi_error(void)
{
	return ipi_last_error;
}

void cpu_set_activity(const char *what)
{
	if (ipi_cpus && mmscale_this_cpu >= 0)
		atomic_store_explicit(&this_cpu_ptr(ipi_cpus)->activity, what,
				      memory_order_relaxed);
}

/* llist (include/linux/llist.h): lock-free push, take-all. */
static bool llist_add(struct llist_node *new, struct llist_head *head)
{
	struct llist_node *first = atomic_load_explicit(&head->first, memory_order_relaxed);

	do {
		atomic_store_explicit(&new->next, first, memory_order_relaxed);
	} while (!atomic_compare_exchange_weak_explicit(&head->first, &first, new,
							memory_order_release,
							memory_order_relaxed));
	return first == NULL;
}

static struct llist_node *llist_del_all(struct llist_head *head)
{
	return atomic_exchange_explicit(&head->first, NULL, memory_order_acquire);
}

static struct llist_node *llist_reverse_order(struct llist_node *head)
{
	struct llist_node *new_head = NULL;

	while (head) {
		struct llist_node *tmp = head;

		head = atomic_load_explicit(&head->next, memory_order_relaxed);
		atomic_store_explicit(&tmp->next, new_head, memory_order_relaxed);
		new_head = tmp;
	}
	return new_head;
}

static void csd_unlock(struct call_single_data *csd)
{
	atomic_store_explicit(&csd->flags, 0, memory_order_release);
}

static int csd_lock_wait(struct call_single_data *csd, int cpu);

/* Take the csd: a previous call through it must have been answered. */
static int csd_lock(struct call_single_data *csd, int cpu)
{
	if (csd_lock_wait(csd, cpu) != 0)
		return -1;
	atomic_store_explicit(&csd->flags, CSD_FLAG_LOCK, memory_order_relaxed);
	return 0;
}

static unsigned long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (unsigned long long)ts.tv_sec * 1000 + (unsigned long long)ts.tv_nsec / 1000000;
}

/* The run's parameters (ipi_setup_config): timeout, the test-only stuck CPU. */
static struct ipi_config ipi_cfg = { .timeout_ms = 10000 };

/*
 * One step of a sender's wait for a target: it keeps answering calls
 * itself (interrupts are on in the kernel here) and spins; every 4096
 * spins it looks at the clock. True once --ipi-timeout-ms has passed.
 */
static bool ipi_wait_step_timed_out(unsigned int *spins, unsigned long long *deadline)
{
	ipi_interrupt_point();
	spin_wait_step(spins);
	if ((*spins & 4095) != 0)
		return false;
	if (!*deadline) {
		*deadline = now_ms() + ipi_cfg.timeout_ms;
		return false;
	}
	return now_ms() > *deadline;
}

/* The wait gave up: name the CPU and what it was doing; returns -1. */
static int ipi_no_answer(int cpu)
{
	const char *what = atomic_load(&per_cpu_ptr(ipi_cpus, cpu)->activity);

	snprintf(ipi_last_error, sizeof(ipi_last_error),
		 "CPU %d did not answer a cross-CPU call within %u ms (it was: %s)", cpu,
		 ipi_cfg.timeout_ms, what ? what : "not started");
	return -1;
}

/* Wait for the target to run the call; after --ipi-timeout-ms give up, naming it. */
static int csd_lock_wait(struct call_single_data *csd, int cpu)
{
	unsigned long long deadline = 0;
	unsigned int spins = 0;

	while (atomic_load_explicit(&csd->flags, memory_order_acquire) & CSD_FLAG_LOCK)
		if (ipi_wait_step_timed_out(&spins, &deadline))
			return ipi_no_answer(cpu);
	return 0;
}

static void ipi_raise(int cpu);
static void generic_smp_call_function_interrupt(void);
static void generic_smp_call_function_single_interrupt(void);

/* The doorbell: the target's queue went from empty to non-empty. */
static void arch_send_call_function_single_ipi(int cpu)
{
	count_inc(MMSCALE_IPIS_SENT);
	ipi_raise(cpu);
}

/* Ring cpu's doorbell with the --ipi mechanism (counts nothing). */
static void ipi_raise(int cpu)
{
	struct ipi_cpu *t = per_cpu_ptr(ipi_cpus, cpu);

	switch (mechanism) {
	case MMSCALE_IPI_FUTEX:
		/* Only a target that went to sleep (doorbell 0) needs the syscall. */
		if (atomic_exchange(&t->doorbell, 1) == 0)
			syscall(SYS_futex, &t->doorbell, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
		break;
	case MMSCALE_IPI_SIGNAL:
		if (atomic_load_explicit(&t->online, memory_order_acquire))
			pthread_kill(t->thread, ipi_signal_number);
		break;
	case MMSCALE_IPI_KERNEL:
		/*
		 * A real interrupt on the target's PU (its thread spins there, so
		 * the kernel sends it); the call itself goes through the mailbox,
		 * which the interrupted target finds when it returns.
		 */
		mmscale_membarrier_ipi(mmscale_machine_plan()->cpu[cpu].run_pu);
		break;
	default:
		break;		/* the target polls its queue */
	}
}

/*
 * flush_smp_call_function_queue: run every queued call, in the order it
 * was queued, with "irqs" off so a signal cannot nest a second flush.
 */
static void flush_smp_call_function_queue(void)
{
	struct llist_node *entry;
	unsigned long flags;
	unsigned long state;

	local_irq_save(flags);
	mmscale_ipi_pending = 0;
	if (atomic_load_explicit(&ipi_my_line->vectors, memory_order_relaxed)) {
		/* The global-queue model's vectors: the APIC's pending bits, taken. */
		unsigned int vectors = atomic_exchange(&ipi_my_line->vectors, 0);

		if (vectors & IPI_CALL_FUNCTION_SINGLE)
			generic_smp_call_function_single_interrupt();
		if (vectors & IPI_CALL_FUNCTION)
			generic_smp_call_function_interrupt();
	}
	state = atomic_load_explicit(&ipi_my_line->inline_state, memory_order_acquire);
	if (state & IPI_INLINE_PENDING) {
		ipi_my_line->inline_func(ipi_my_line->inline_info);
		count_inc(MMSCALE_IPIS_HANDLED);
		atomic_store_explicit(&ipi_my_line->inline_state, 0, memory_order_release);
	}
	entry = llist_reverse_order(llist_del_all(&ipi_my_line->call_single_queue));
	while (entry) {
		struct call_single_data *csd = container_of(entry, struct call_single_data, llist);
		struct llist_node *next = atomic_load_explicit(&entry->next, memory_order_relaxed);
		smp_call_func_t func = csd->func;
		void *info = csd->info;

		func(info);
		count_inc(MMSCALE_IPIS_HANDLED);
		csd_unlock(csd);
		entry = next;
	}
	local_irq_restore(flags);
}

void ipi_interrupt_point_slow(void)
{
	if (ipi_cfg.stuck_cpu && (unsigned int)mmscale_this_cpu == ipi_cfg.stuck_cpu)
		return;		/* test only: this CPU never answers */
	if (mmscale_irqs_off) {
		mmscale_ipi_pending = 1;
		return;
	}
	flush_smp_call_function_queue();
}

void mmscale_run_pending_ipis(void)
{
	mmscale_ipi_pending = 0;
	if (ipi_my_line && ipi_line_pending(ipi_my_line))
		ipi_interrupt_point_slow();
}

static void ipi_signal_handler(int sig)
{
	int saved_errno = errno;

	(void)sig;
	if (ipi_my_line)
		ipi_interrupt_point_slow();
	errno = saved_errno;
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

/*
 * ---- 2.6.32-3.4 global queue ----
 *
 * kernel/smp.c of 3.4 (3.4.2; the same as 2.6.38.8, whose stable fix to the
 * refs/mask race 3.4 has), line by line: smp_call_function_many queues the
 * sender's one call_function_data on the global call_function.queue under
 * call_function.lock; every target walks that list, tests and clears its
 * bit in the entry's shared cpumask and decrements its shared refs; the last
 * one takes call_function.lock again to unlink the entry. One target, and
 * smp_call_function_single: the target's call_single_queue under its lock.
 *
 * 2.6.32 and 2.6.38.0 need no model of their own: they take the same locks
 * (call_function.lock once by the sender, once by the last target;
 * call_single_queue.lock once by a single-call sender, once by its target),
 * send the same IPIs and make the same writes to shared lines (the sender:
 * its cfd, mask and the list head; every target one test_and_clear_bit on
 * the mask and one atomic_dec_return on refs; the last one list_del_rcu).
 * What differs is order and reads: 2.6.32's handler does
 * cpumask_test_and_clear_cpu before func and reads neither the bit nor refs
 * first; 2.6.38.0 sets refs before list_add_rcu; 3.4 also zeroes refs first
 * (a write to the sender's own cfd line, which its csd_lock has just
 * written). 2.6.32 defines cfd_data and call_single_queue with
 * DEFINE_PER_CPU, not _SHARED_ALIGNED: they may share a line with other
 * per-CPU data there; here they have lines of their own, as in 2.6.38 and 3.4.
 *
 * The cfd's cpumask is a cpumask_var_t of CONFIG_CPUMASK_OFFSTACK (the
 * 4096-CPU configurations the drain seed is about): a separate allocation
 * on the CPU's node, here cache-line aligned in the CPU's per-CPU unit.
 *
 * Lock counts: call_function.lock counts MMSCALE_CALL_FUNCTION_LOCKS;
 * call_single_queue.lock counts nothing (neither is an mm lock).
 */

/* struct call_single_data of 2.6.32-3.4 (include/linux/smp.h). */
struct call_single_data_list {
	struct list_head list;
	smp_call_func_t func;
	void *info;
	_Atomic u16 flags;
	u16 priv;
};

static struct {
	struct list_head	queue;
	spinlock_t		lock;
} call_function ____cacheline_aligned_in_smp;

/* DEFINE_PER_CPU_SHARED_ALIGNED(struct call_function_data, cfd_data) */
struct call_function_data {
	struct call_single_data_list	csd;
	atomic_t			refs;
	struct cpumask			*cpumask;	/* cpumask_var_t, OFFSTACK */
} ____cacheline_aligned_in_smp;

BUILD_BUG_ON(sizeof(struct call_function_data) != SMP_CACHE_BYTES);

/* DEFINE_PER_CPU_SHARED_ALIGNED(struct call_single_queue, call_single_queue) */
struct call_single_queue {
	struct list_head	list;
	spinlock_t		lock;
} ____cacheline_aligned_in_smp;

static struct call_function_data *cfd_data;		/* percpu */
static struct cpumask *cfd_cpumask;			/* percpu: each cfd's mask */
static struct call_single_queue *call_single_queue;	/* percpu */
static struct call_single_data_list *csd_data;		/* percpu: !wait single calls */
static struct call_single_data_list *csd_on_stack;	/* percpu: the wait path's on-stack d */
static _Thread_local int csd_data_target = -1;		/* for smp_call_function_many_wait */
static enum mmscale_smp_model smp_model = MMSCALE_SMP_PERCPU;

static struct list_head *list_next_rcu(struct list_head *p);

enum mmscale_smp_model ipi_smp_model(void)
{
	return smp_model;
}

unsigned int ipi_call_function_queued(void)
{
	unsigned int n = 0;

	if (smp_model != MMSCALE_SMP_GLOBAL_QUEUE)
		return 0;
	for (struct list_head *pos = list_next_rcu(&call_function.queue);
	     pos != &call_function.queue; pos = list_next_rcu(pos))
		n++;
	return n;
}

/* raw_spin_lock: the ticket lock of spinlock.h, not counted as an mm lock. */
static void raw_spin_lock(spinlock_t *lock)
{
	__ticket_t ticket = atomic_fetch_add_explicit(&lock->tail, 1, memory_order_relaxed);
	unsigned int spins = 0;

	while (atomic_load_explicit(&lock->head, memory_order_acquire) != ticket)
		spin_wait_step(&spins);
}

#define raw_spin_unlock(lock)	spin_unlock(lock)

static void call_function_lock(void)
{
	raw_spin_lock(&call_function.lock);
	count_inc(MMSCALE_CALL_FUNCTION_LOCKS);
}

/* The shared mask's bits, as the kernel's bitops: plain reads, locked clears. */
/* Acquire: pairs with the sender's release of the mask (its smp_wmb) - a plain mov on x86. */
static bool shared_test_cpu(unsigned int cpu, const struct cpumask *m)
{
	return (__atomic_load_n(&m->bits[cpu / BITS_PER_LONG], __ATOMIC_ACQUIRE) >>
		(cpu % BITS_PER_LONG)) & 1;
}

static bool shared_test_and_clear_cpu(unsigned int cpu, struct cpumask *m)
{
	unsigned long bit = 1UL << (cpu % BITS_PER_LONG);

	return __atomic_fetch_and(&m->bits[cpu / BITS_PER_LONG], ~bit, __ATOMIC_SEQ_CST) & bit;
}

static unsigned int shared_next(int n, const struct cpumask *m)
{
	for (unsigned int cpu = (unsigned int)(n + 1); cpu < nr_cpu_ids; cpu++)
		if (shared_test_cpu(cpu, m))
			return cpu;
	return nr_cpu_ids;
}

/* cpumask_next_and(n, a, b) */
static unsigned int next_and(int n, const struct cpumask *a, const struct cpumask *b)
{
	for (unsigned int cpu = (unsigned int)(n + 1); cpu < nr_cpu_ids; cpu++)
		if (cpumask_test_cpu(cpu, a) && cpumask_test_cpu(cpu, b))
			return cpu;
	return nr_cpu_ids;
}

/* RCU list (include/linux/rculist.h): next is read without the lock. */
static struct list_head *list_next_rcu(struct list_head *p)
{
	return __atomic_load_n(&p->next, __ATOMIC_ACQUIRE);	/* rcu_dereference */
}

static void list_add_rcu(struct list_head *new, struct list_head *head)
{
	struct list_head *next = head->next;

	__atomic_store_n(&new->next, next, __ATOMIC_RELAXED);
	new->prev = head;
	__atomic_store_n(&head->next, new, __ATOMIC_RELEASE);	/* rcu_assign_pointer */
	next->prev = new;
}

static void list_del_rcu(struct list_head *entry)
{
	struct list_head *prev = entry->prev, *next = entry->next;

	next->prev = prev;
	__atomic_store_n(&prev->next, next, __ATOMIC_RELEASE);
	entry->prev = LIST_POISON2;	/* ->next stays: a walker on it goes on */
}

static void csd_list_unlock(struct call_single_data_list *data)
{
	/* ensure we're all done before releasing data: smp_mb() */
	atomic_store_explicit(&data->flags, 0, memory_order_seq_cst);
}

/*
 * csd_lock_wait with the emulation's timeout: the CPU named is cpu, or
 * (cpu < 0) the first one still in who - the targets that have not run it.
 */
static int csd_list_lock_wait(struct call_single_data_list *data, int cpu,
			      const struct cpumask *who)
{
	unsigned long long deadline = 0;
	unsigned int spins = 0;

	while (atomic_load_explicit(&data->flags, memory_order_acquire) & CSD_FLAG_LOCK) {
		if (!ipi_wait_step_timed_out(&spins, &deadline))
			continue;
		if (cpu < 0 && who)
			cpu = (int)shared_next(-1, who);
		if (cpu < 0 || (unsigned int)cpu >= nr_cpu_ids)
			cpu = 0;
		return ipi_no_answer(cpu);
	}
	return 0;
}

static int csd_list_lock(struct call_single_data_list *data, int cpu, const struct cpumask *who)
{
	if (csd_list_lock_wait(data, cpu, who) != 0)
		return -1;
	atomic_store_explicit(&data->flags, CSD_FLAG_LOCK, memory_order_relaxed);
	smp_mb();
	return 0;
}

/* The interrupt controller: raise vector on cpu, one IPI, and ring its doorbell. */

static void send_vector(int cpu, unsigned int vector)
{
	atomic_fetch_or(&per_cpu_ptr(ipi_cpus, cpu)->line.vectors, vector);
	count_inc(MMSCALE_IPIS_SENT);
	ipi_raise(cpu);
}

/*
 * arch_send_call_function_ipi_mask (x86: apic->send_IPI_mask): every CPU
 * whose bit is in the mask when it is read - the shared mask, live, so a
 * target that already ran the call (it walked the list for another call's
 * IPI) is not interrupted for it.
 */
static void arch_send_call_function_ipi_mask(const struct cpumask *mask)
{
	unsigned int cpu;

	for (cpu = shared_next(-1, mask); cpu < nr_cpu_ids; cpu = shared_next((int)cpu, mask))
		send_vector((int)cpu, IPI_CALL_FUNCTION);
}

static int generic_exec_single(int cpu, struct call_single_data_list *data, int wait)
{
	struct call_single_queue *dst = per_cpu_ptr(call_single_queue, cpu);
	unsigned long flags;
	int ipi;

	local_irq_save(flags);
	raw_spin_lock(&dst->lock);
	ipi = list_empty(&dst->list);
	list_add_tail(&data->list, &dst->list);
	raw_spin_unlock(&dst->lock);
	local_irq_restore(flags);

	if (ipi)
		send_vector(cpu, IPI_CALL_FUNCTION_SINGLE);	/* arch_send_call_function_single_ipi */

	if (wait)
		return csd_list_lock_wait(data, cpu, NULL);
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
	for (pos = list_next_rcu(&call_function.queue); pos != &call_function.queue;
	     pos = list_next_rcu(pos)) {
		smp_call_func_t func;
		int refs;

		data = container_of(pos, struct call_function_data, csd.list);
		/*
		 * Since we walk the list without any locks, we might see an
		 * entry that was completed, removed from the list and is in
		 * the process of being reused: the bit first, then refs.
		 */
		if (!shared_test_cpu(cpu, data->cpumask))
			continue;

		smp_rmb();

		if (atomic_read(&data->refs) == 0)
			continue;

		func = data->csd.func;		/* save for later warn */
		func(data->csd.info);
		count_inc(MMSCALE_IPIS_HANDLED);

		/* Not still set: func enabled interrupts and ran twice (WARN). */
		if (!shared_test_and_clear_cpu(cpu, data->cpumask))
			continue;

		refs = atomic_dec_return(&data->refs);
		if (refs)
			continue;

		call_function_lock();
		list_del_rcu(&data->csd.list);
		raw_spin_unlock(&call_function.lock);

		csd_list_unlock(&data->csd);
	}
}

static void generic_smp_call_function_single_interrupt(void)
{
	struct call_single_queue *q = this_cpu_ptr(call_single_queue);
	unsigned int data_flags;
	struct list_head list;

	INIT_LIST_HEAD(&list);
	raw_spin_lock(&q->lock);
	list_splice_init(&q->list, &list);	/* list_replace_init */
	raw_spin_unlock(&q->lock);

	while (!list_empty(&list)) {
		struct call_single_data_list *data;

		data = list_entry(list.next, struct call_single_data_list, list);
		list_del(&data->list);

		/* 'data' can be invalid after this call if flags == 0 */
		data_flags = atomic_load_explicit(&data->flags, memory_order_relaxed);

		data->func(data->info);
		count_inc(MMSCALE_IPIS_HANDLED);

		if (data_flags & CSD_FLAG_LOCK)
			csd_list_unlock(data);
	}
}

/*
 * A call aimed at the caller's own CPU runs here with "irqs" off, as every
 * generation's smp_call_function_single and on_each_cpu{,_mask} run it: an
 * IPI doorbell cannot flush a queued call into the middle of it.
 */
static void call_function_here(smp_call_func_t func, void *info)
{
	unsigned long flags;

	local_irq_save(flags);
	func(info);
	local_irq_restore(flags);
}

static int smp_call_function_single_gq(int cpu, smp_call_func_t func, void *info, int wait)
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
		if (csd_list_lock(data, csd_data_target, NULL) != 0)
			return -1;
		csd_data_target = cpu;
	} else if (csd_list_lock(data, cpu, NULL) != 0) {
		return -1;
	}
	data->func = func;
	data->info = info;
	return generic_exec_single(cpu, data, wait);
}

static int smp_call_function_many_gq(const struct cpumask *mask, smp_call_func_t func, void *info,
				     bool wait)
{
	struct call_function_data *data;
	unsigned long flags;
	int refs, this_cpu = smp_processor_id();
	unsigned int cpu, next_cpu;

	/* Try to fastpath.  So, what's a CPU they want? Ignoring this one. */
	cpu = next_and(-1, mask, cpu_online_mask);
	if ((int)cpu == this_cpu)
		cpu = next_and((int)cpu, mask, cpu_online_mask);

	/* No online cpus?  We're done. */
	if (cpu >= nr_cpu_ids)
		return 0;

	/* Do we have another CPU which isn't us? */
	next_cpu = next_and((int)cpu, mask, cpu_online_mask);
	if ((int)next_cpu == this_cpu)
		next_cpu = next_and((int)next_cpu, mask, cpu_online_mask);

	/* Fastpath: do that cpu by itself. */
	if (next_cpu >= nr_cpu_ids)
		return smp_call_function_single_gq((int)cpu, func, info, wait);

	data = this_cpu_ptr(cfd_data);
	if (csd_list_lock(&data->csd, -1, data->cpumask) != 0)
		return -1;	/* its last call is still unanswered */

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
	for (size_t i = 0; i < BITS_TO_LONGS(nr_cpu_ids); i++)	/* cpumask_and */
		__atomic_store_n(&data->cpumask->bits[i],
				 mask->bits[i] & cpu_online_mask->bits[i], __ATOMIC_RELEASE);
	shared_test_and_clear_cpu((unsigned int)this_cpu, data->cpumask);	/* cpumask_clear_cpu */
	refs = (int)cpumask_weight(data->cpumask);

	/* Some callers race with other cpus changing the passed mask */
	if (unlikely(!refs)) {
		csd_list_unlock(&data->csd);
		return 0;
	}

	local_irq_save(flags);
	call_function_lock();
	/*
	 * Place entry at the _HEAD_ of the list, so that any cpu still
	 * observing the entry in generic_smp_call_function_interrupt()
	 * will not miss any other list entries:
	 */
	list_add_rcu(&data->csd.list, &call_function.queue);
	/*
	 * We rely on the wmb() in list_add_rcu to complete our writes
	 * to the cpumask before this write to refs, which indicates
	 * data is on the list and is ready to be processed.
	 */
	atomic_set(&data->refs, refs);
	raw_spin_unlock(&call_function.lock);
	local_irq_restore(flags);

	/* Make the list addition visible before sending the ipi. */
	smp_mb();

	/* Send a message to all CPUs in the map */
	arch_send_call_function_ipi_mask(data->cpumask);

	/* Optionally wait for the CPUs to complete */
	if (wait)
		return csd_list_lock_wait(&data->csd, -1, data->cpumask);
	return 0;
}

/* The calls this CPU last queued without wait: its cfd and its csd_data. */
static int smp_call_function_many_wait_gq(void)
{
	struct call_function_data *data = this_cpu_ptr(cfd_data);

	if (csd_list_lock_wait(&data->csd, -1, data->cpumask) != 0)
		return -1;
	return csd_list_lock_wait(this_cpu_ptr(csd_data), csd_data_target, NULL);
}

static void ipi_teardown_gq(void)
{
	free_percpu(cfd_data);
	free_percpu(cfd_cpumask);
	free_percpu(call_single_queue);
	free_percpu(csd_data);
	free_percpu(csd_on_stack);
	cfd_data = NULL;
	cfd_cpumask = NULL;
	call_single_queue = NULL;
	csd_data = NULL;
	csd_on_stack = NULL;
}

static int ipi_setup_gq(void)
{
	unsigned int cpu;

	INIT_LIST_HEAD(&call_function.queue);
	spin_lock_init(&call_function.lock);
	csd_data_target = -1;
	cfd_data = alloc_percpu(struct call_function_data);
	cfd_cpumask = __alloc_percpu(sizeof(struct cpumask), SMP_CACHE_BYTES);
	call_single_queue = alloc_percpu(struct call_single_queue);
	csd_data = alloc_percpu(struct call_single_data_list);
	csd_on_stack = alloc_percpu(struct call_single_data_list);
	if (!cfd_data || !cfd_cpumask || !call_single_queue || !csd_data || !csd_on_stack)
		return -1;
	for_each_online_cpu(cpu) {
		struct call_single_queue *q = per_cpu_ptr(call_single_queue, cpu);

		spin_lock_init(&q->lock);
		INIT_LIST_HEAD(&q->list);
		per_cpu_ptr(cfd_data, cpu)->cpumask = per_cpu_ptr(cfd_cpumask, cpu);
	}
	return 0;
}

/* ---- 3.14+ per-CPU queues ---- */

int smp_call_function_many(const struct cpumask *mask, smp_call_func_t func, void *info,
			   bool wait)
{
	int this_cpu = smp_processor_id();
	struct call_function_data_llist *cfd = this_cpu_ptr(cfd_llist);
	unsigned int cpu;
	int ret = 0;

	if (smp_model == MMSCALE_SMP_GLOBAL_QUEUE)
		return smp_call_function_many_gq(mask, func, info, wait);
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
		arch_send_call_function_single_ipi((int)cpu);

	if (wait && ret == 0)
		ret = smp_call_function_many_wait(&cfd->cpumask);
	return ret;
}

int smp_call_function_many_wait(const struct cpumask *mask)
{
	struct call_function_data_llist *cfd = this_cpu_ptr(cfd_llist);
	int this_cpu = smp_processor_id();
	unsigned int cpu;

	if (smp_model == MMSCALE_SMP_GLOBAL_QUEUE)
		return smp_call_function_many_wait_gq();
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

/* One target, no masks (the kernel's generic_exec_single path). */
int smp_call_function_single(int cpu, smp_call_func_t func, void *info, int wait)
{
	int this_cpu = smp_processor_id();
	struct ipi_cpu *t;
	struct call_single_data *csd;

	if (smp_model == MMSCALE_SMP_GLOBAL_QUEUE)
		return smp_call_function_single_gq(cpu, func, info, wait);
	if (cpu == this_cpu) {
		call_function_here(func, info);
		return 0;
	}
	t = per_cpu_ptr(ipi_cpus, cpu);
	if (try_inline(t, func, info, inline_token(this_cpu))) {
		arch_send_call_function_single_ipi(cpu);
		return wait ? inline_wait(t, inline_token(this_cpu), cpu) : 0;
	}
	csd = per_cpu_ptr(this_cpu_ptr(cfd_llist)->csd, cpu);
	if (csd_lock(csd, cpu) != 0)
		return -1;
	csd->func = func;
	csd->info = info;
	if (llist_add(&csd->llist, &t->line.call_single_queue))
		arch_send_call_function_single_ipi(cpu);
	return wait ? csd_lock_wait(csd, cpu) : 0;
}

int smp_call_function(smp_call_func_t func, void *info, int wait)
{
	return smp_call_function_many(cpu_online_mask, func, info, wait);
}

/* Call a function on all processors: the others first, then locally, irqs off. */
int on_each_cpu(smp_call_func_t func, void *info, int wait)
{
	int ret;

	preempt_disable();
	ret = smp_call_function(func, info, wait);
	call_function_here(func, info);
	preempt_enable();
	return ret;
}

/* on_each_cpu_mask (3fc498f165304, v3.4): the CPUs of the mask, this one included if set. */
int on_each_cpu_mask(const struct cpumask *mask, smp_call_func_t func, void *info, bool wait)
{
	int cpu = get_cpu();
	int ret;

	ret = smp_call_function_many(mask, func, info, wait);
	if (cpumask_test_cpu((unsigned int)cpu, mask))
		call_function_here(func, info);
	put_cpu();
	return ret;
}

void ipi_cpu_online(void)
{
	struct ipi_cpu *me = this_cpu_ptr(ipi_cpus);

	ipi_my_line = &me->line;
	ipi_last_error[0] = '\0';	/* a new run: the last one's failure is not ours */
	mmscale_irqs_off = 0;
	mmscale_ipi_pending = 0;
	me->thread = pthread_self();
	atomic_store_explicit(&me->online, true, memory_order_release);
	cpu_set_activity("running");
}

void ipi_cpu_offline(void)
{
	struct ipi_cpu *me;

	if (!ipi_my_line)
		return;
	me = this_cpu_ptr(ipi_cpus);
	cpu_set_activity("gone");
	atomic_store_explicit(&me->online, false, memory_order_release);
	/* A signal already on its way finds ipi_my_line NULL and does nothing. */
	ipi_my_line = NULL;
}

void ipi_idle_loop(_Atomic bool *stop)
{
	struct ipi_cpu *me = this_cpu_ptr(ipi_cpus);
	unsigned int spins = 0;

	cpu_set_activity("idle");
	while (!atomic_load_explicit(stop, memory_order_acquire)) {
		if (ipi_line_pending(ipi_my_line)) {
			ipi_interrupt_point_slow();
			continue;
		}
		if (mechanism == MMSCALE_IPI_FUTEX) {
			/*
			 * Asleep until a call or ipi_stop_idle() rings the doorbell;
			 * 1 s at most, so a stop nobody rings is still seen. (A 10 ms
			 * poll made 63 idle CPUs of a 64-CPU TCG guest 6,300 wakeups a
			 * second, enough to starve the one doing the work.)
			 */
			struct timespec ts = { 1, 0 };

			atomic_store(&me->doorbell, 0);
			if (ipi_line_pending(ipi_my_line) ||
			    atomic_load_explicit(stop, memory_order_acquire))
				continue;
			syscall(SYS_futex, &me->doorbell, FUTEX_WAIT_PRIVATE, 0, &ts, NULL, 0);
			continue;
		}
		if (mechanism == MMSCALE_IPI_SIGNAL) {
			/* Sleep; the signal interrupts the sleep and runs the queue. */
			struct timespec ts = { 0, 1000 * 1000 };

			nanosleep(&ts, NULL);
			continue;
		}
		spin_wait_step(&spins);
	}
}

void ipi_stop_idle(_Atomic bool *stop)
{
	unsigned int cpu;

	atomic_store_explicit(stop, true, memory_order_release);
	if (!ipi_cpus)
		return;
	for_each_online_cpu(cpu) {
		struct ipi_cpu *t = per_cpu_ptr(ipi_cpus, cpu);

		if (atomic_exchange(&t->doorbell, 1) == 0)
			syscall(SYS_futex, &t->doorbell, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
	}
}

void ipi_config_default(struct ipi_config *cfg, enum mmscale_ipi_mechanism m)
{
	cfg->mechanism = m;
	cfg->smp_model = MMSCALE_SMP_PERCPU;
	cfg->timeout_ms = 10000;
	cfg->stuck_cpu = 0;
}

int ipi_setup(enum mmscale_ipi_mechanism m, char *err, size_t errlen)
{
	struct ipi_config cfg;

	ipi_config_default(&cfg, m);
	return ipi_setup_config(&cfg, err, errlen);
}

int ipi_setup_config(const struct ipi_config *cfg, char *err, size_t errlen)
{
	enum mmscale_ipi_mechanism m = cfg->mechanism;
	unsigned int cpu;

	ipi_teardown();
	ipi_cfg = *cfg;
	smp_model = cfg->smp_model == MMSCALE_SMP_GLOBAL_QUEUE ? MMSCALE_SMP_GLOBAL_QUEUE :
		    MMSCALE_SMP_PERCPU;
	if (m == MMSCALE_IPI_KERNEL) {
		static bool said;
		char why[160];

		if (!mmscale_membarrier_available(why, sizeof(why))) {
			if (!said)
				mmscale_notice("%s: --ipi=kernel uses the spin doorbell instead", why);
			said = true;
			m = MMSCALE_IPI_SPIN;
		}
	}
	mechanism = m;
	ipi_cpus = alloc_percpu(struct ipi_cpu);
	cfd_llist = alloc_percpu(struct call_function_data_llist);
	if (!ipi_cpus || !cfd_llist) {
		ipi_teardown();
		return mmscale_errorf(err, errlen, "per-CPU units full: cannot set up IPIs");
	}
	if (smp_model == MMSCALE_SMP_GLOBAL_QUEUE && ipi_setup_gq() != 0) {
		ipi_teardown();
		return mmscale_errorf(err, errlen,
			"per-CPU units full: cannot set up the call_function queue");
	}
	for_each_online_cpu(cpu) {
		struct call_function_data_llist *cfd = per_cpu_ptr(cfd_llist, cpu);

		/* One csd per target, in the target's unit: the kernel's layout. */
		cfd->csd = alloc_percpu(struct call_single_data);
		if (!cfd->csd) {
			ipi_teardown();
			return mmscale_errorf(err, errlen,
				"per-CPU units full: cannot allocate the csds of CPU %u", cpu);
		}
	}
	if (m == MMSCALE_IPI_SIGNAL) {
		struct sigaction sa;

		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = ipi_signal_handler;
		sa.sa_flags = SA_RESTART;
		sigemptyset(&sa.sa_mask);
		ipi_signal_number = SIGRTMIN + 2;
		if (sigaction(ipi_signal_number, &sa, NULL) != 0) {
			ipi_teardown();
			return mmscale_errorf(err, errlen, "cannot install the IPI signal handler");
		}
	}
	return 0;
}

void ipi_teardown(void)
{
	unsigned int cpu;

	if (cfd_llist)
		for_each_online_cpu(cpu)
			free_percpu(per_cpu_ptr(cfd_llist, cpu)->csd);
	free_percpu(cfd_llist);
	ipi_teardown_gq();
	free_percpu(ipi_cpus);
	cfd_llist = NULL;
	ipi_cpus = NULL;
}
