// SPDX-License-Identifier: GPL-2.0
/*
 * Emulated cross-CPU calls: kernel/smp.c of 3.14 and later (per-CPU llist
 * call_single_queue since 6897fc22ea01; per-sender cfd with one csd per
 * target since 3.9) with three doorbells. See include/mmscale/kernel/smp.h.
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
struct call_function_data {
	struct call_single_data *csd;		/* percpu: csd for target t in t's unit */
	struct cpumask cpumask;
	struct cpumask cpumask_ipi;
	struct cpumask cpumask_inline;		/* targets whose call rode in the slot */
};

static struct ipi_cpu *ipi_cpus;		/* percpu */
static struct call_function_data *cfd_data;	/* percpu */
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

/*
 * Wait for the target to run the call. While waiting the sender keeps
 * answering calls itself (interrupts are on in the kernel here), and
 * after --ipi-timeout-ms gives up, naming the target.
 */
static int csd_lock_wait(struct call_single_data *csd, int cpu)
{
	unsigned long long deadline = 0;
	unsigned int spins = 0;

	while (atomic_load_explicit(&csd->flags, memory_order_acquire) & CSD_FLAG_LOCK) {
		ipi_interrupt_point();
		spin_wait_step(&spins);
		if ((spins & 4095) != 0)
			continue;
		if (!deadline) {
			deadline = now_ms() + mmscale_params.ipi_timeout_ms;
		} else if (now_ms() > deadline) {
			const char *what = atomic_load(&per_cpu_ptr(ipi_cpus, cpu)->activity);

			snprintf(ipi_last_error, sizeof(ipi_last_error),
				 "CPU %d did not answer a cross-CPU call within %u ms "
				 "(it was: %s)", cpu, mmscale_params.ipi_timeout_ms,
				 what ? what : "not started");
			return -1;
		}
	}
	return 0;
}

/* The doorbell: the target's queue went from empty to non-empty. */
static void arch_send_call_function_single_ipi(int cpu)
{
	struct ipi_cpu *t = per_cpu_ptr(ipi_cpus, cpu);

	count_inc(MMSCALE_IPIS_SENT);
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
	if (mmscale_params.stuck_cpu && (unsigned int)mmscale_this_cpu == mmscale_params.stuck_cpu)
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
	       (token | IPI_INLINE_PENDING)) {
		ipi_interrupt_point();
		spin_wait_step(&spins);
		if ((spins & 4095) != 0)
			continue;
		if (!deadline) {
			deadline = now_ms() + mmscale_params.ipi_timeout_ms;
		} else if (now_ms() > deadline) {
			const char *what = atomic_load(&t->activity);

			snprintf(ipi_last_error, sizeof(ipi_last_error),
				 "CPU %d did not answer a cross-CPU call within %u ms "
				 "(it was: %s)", cpu, mmscale_params.ipi_timeout_ms,
				 what ? what : "not started");
			return -1;
		}
	}
	return 0;
}

int smp_call_function_many(const struct cpumask *mask, smp_call_func_t func, void *info,
			   bool wait)
{
	int this_cpu = smp_processor_id();
	struct call_function_data *cfd = this_cpu_ptr(cfd_data);
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
		arch_send_call_function_single_ipi((int)cpu);

	if (wait && ret == 0)
		ret = smp_call_function_many_wait(&cfd->cpumask);
	return ret;
}

int smp_call_function_many_wait(const struct cpumask *mask)
{
	struct call_function_data *cfd = this_cpu_ptr(cfd_data);
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

/* One target, no masks (the kernel's generic_exec_single path). */
int smp_call_function_single(int cpu, smp_call_func_t func, void *info, int wait)
{
	int this_cpu = smp_processor_id();
	struct ipi_cpu *t;
	struct call_single_data *csd;

	if (cpu == this_cpu) {
		unsigned long flags;

		local_irq_save(flags);
		func(info);
		local_irq_restore(flags);
		return 0;
	}
	t = per_cpu_ptr(ipi_cpus, cpu);
	if (try_inline(t, func, info, inline_token(this_cpu))) {
		arch_send_call_function_single_ipi(cpu);
		return wait ? inline_wait(t, inline_token(this_cpu), cpu) : 0;
	}
	csd = per_cpu_ptr(this_cpu_ptr(cfd_data)->csd, cpu);
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
	unsigned long flags;
	int ret;

	preempt_disable();
	ret = smp_call_function(func, info, wait);
	local_irq_save(flags);
	func(info);
	local_irq_restore(flags);
	preempt_enable();
	return ret;
}

/* on_each_cpu_mask (3fc498f165304, v3.4): the CPUs of the mask, this one included if set. */
int on_each_cpu_mask(const struct cpumask *mask, smp_call_func_t func, void *info, bool wait)
{
	int cpu = get_cpu();
	int ret;

	ret = smp_call_function_many(mask, func, info, wait);
	if (cpumask_test_cpu((unsigned int)cpu, mask)) {
		unsigned long flags;

		local_irq_save(flags);
		func(info);
		local_irq_restore(flags);
	}
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
			/* 10 ms at most, so a stop is noticed without a wake. */
			struct timespec ts = { 0, 10 * 1000 * 1000 };

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

int ipi_setup(enum mmscale_ipi_mechanism m, char *err, size_t errlen)
{
	unsigned int cpu;

	ipi_teardown();
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
	cfd_data = alloc_percpu(struct call_function_data);
	if (!ipi_cpus || !cfd_data) {
		ipi_teardown();
		return mmscale_errorf(err, errlen, "per-CPU units full: cannot set up IPIs");
	}
	for_each_online_cpu(cpu) {
		struct call_function_data *cfd = per_cpu_ptr(cfd_data, cpu);

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

	if (cfd_data)
		for_each_online_cpu(cpu)
			free_percpu(per_cpu_ptr(cfd_data, cpu)->csd);
	free_percpu(cfd_data);
	free_percpu(ipi_cpus);
	cfd_data = NULL;
	ipi_cpus = NULL;
}
