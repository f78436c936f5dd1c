/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Emulated cross-CPU function calls (IPIs), in the two generations of
 * kernel/smp.c (--smp-model; by default each drain variant's own kernel's):
 *
 * - global queue, 2.6.32 to 3.4 (the kernels of ipi-all, quick-scan,
 *   count-check and ipi-mask): smp_call_function_many puts the sender's one
 *   call_function_data on the global call_function.queue under
 *   call_function.lock, with a copy of the mask and refs = its weight, and
 *   interrupts every CPU of the mask; each target walks the list, clears its
 *   bit in the shared mask, runs func and decrements the shared refs; the
 *   last one takes call_function.lock again to unlink the entry.
 *   smp_call_function_single (and smp_call_function_many with one target)
 *   queue a csd on the target's call_single_queue under its lock. The code
 *   follows 3.4's kernel/smp.c (= 2.6.38.8) line by line; bench/smp.c says
 *   why 2.6.32 and 2.6.38 need no model of their own.
 * - per-CPU queues, 3.9+ (as 3.14 on, 6897fc22ea01; 3.9 to 3.13 had
 *   per-target queues under a spinlock; the kernels of workqueue and remote):
 *   each target CPU has a lock-free queue (llist) of call_single_data; a
 *   sender puts one csd per target on the targets' queues, rings the
 *   doorbell of those whose queue was empty, and with wait spins until each
 *   csd is unlocked.
 *
 * The target runs the queued functions on its own thread, so they touch its
 * own per-CPU data as in the kernel.
 *
 * The doorbell (--ipi): a polled mailbox (targets look at their queue at
 * interrupt points and while idle), a futex wake (idle targets sleep), or
 * a real-time signal (interrupts the target wherever it is; deferred while
 * it has "irqs" off). A call not answered within --ipi-timeout-ms fails
 * with a line naming the CPU and what it was doing: nothing hangs.
 *
 * Counts: every IPI sent counts MMSCALE_IPIS_SENT on the sender (per-CPU
 * model: a doorbell rung; global queue: one per CPU of the mask, always, as
 * arch_send_call_function_ipi_mask); every function run for another CPU
 * counts MMSCALE_IPIS_HANDLED on the target; every acquisition of
 * call_function.lock counts MMSCALE_CALL_FUNCTION_LOCKS (2 per
 * smp_call_function_many with two or more targets, 0 in the per-CPU model).
 * The IPI queues' own locks are not lock_acquires (that count is the mm's
 * locks: zone->lock, pcp->lock).
 */
#ifndef MMSCALE_KERNEL_SMP_H
#define MMSCALE_KERNEL_SMP_H

#include <stdatomic.h>
#include "compiler.h"
#include "cpumask.h"
#include "../params.h"

typedef void (*smp_call_func_t)(void *info);

struct llist_node {
	struct llist_node *_Atomic next;
};

struct llist_head {
	struct llist_node *_Atomic first;
};

#define CSD_FLAG_LOCK	0x01

struct call_single_data {
	struct llist_node llist;
	smp_call_func_t func;
	void *info;
	_Atomic unsigned int flags;
} __attribute__((__aligned__(32)));

/*
 * The kernel's API. They return 0, or -1 when a target did not answer in
 * time (the kernel's are void: an emulated machine reports instead of
 * hanging); ipi_error() then has the line.
 */
int smp_call_function_many(const struct cpumask *mask, smp_call_func_t func, void *info,
			   bool wait);
int smp_call_function_single(int cpu, smp_call_func_t func, void *info, int wait);
int smp_call_function(smp_call_func_t func, void *info, int wait);
int on_each_cpu(smp_call_func_t func, void *info, int wait);
int on_each_cpu_mask(const struct cpumask *mask, smp_call_func_t func, void *info, bool wait);

/*
 * Wait for the calls this CPU last queued (wait=false) on the CPUs of mask:
 * flush_work() for work items emulated as queued calls.
 */
int smp_call_function_many_wait(const struct cpumask *mask);

/*
 * The emulated machine's cross-CPU calls, as a run sets them up: the
 * parameters the emulated smp.c reads (never the command line's globals),
 * so that a test can set up machines that differ in one process.
 */
struct ipi_config {
	enum mmscale_ipi_mechanism mechanism;	/* the doorbell (not AUTO) */
	enum mmscale_smp_model smp_model;	/* GLOBAL_QUEUE or PERCPU (AUTO: PERCPU) */
	unsigned int timeout_ms;		/* a call not answered by then fails, named */
	unsigned int stuck_cpu;			/* test only: this CPU never answers (0: none) */
};

/* The doorbell m, the per-CPU queues, the default 10 s timeout: what the tests mostly want. */
void ipi_config_default(struct ipi_config *cfg, enum mmscale_ipi_mechanism m);

/*
 * Set up queues, csds and doorbells for the machine's CPUs, per run, with
 * cfg's doorbell and kernel/smp.c generation (the caller decides it: the
 * variant's kernel's, or the one --smp-model forces).
 */
int ipi_setup_config(const struct ipi_config *cfg, char *err, size_t errlen);
/* The generation the current run uses (GLOBAL_QUEUE or PERCPU). */
enum mmscale_smp_model ipi_smp_model(void);
/* For the tests: entries on the global call_function.queue now (0 in the per-CPU model). */
unsigned int ipi_call_function_queued(void);

/* The emulation around it. */

/* ipi_setup_config() with ipi_config_default(m). */
int ipi_setup(enum mmscale_ipi_mechanism mechanism, char *err, size_t errlen);
void ipi_teardown(void);
enum mmscale_ipi_mechanism ipi_mechanism(void);

/*
 * A target's doorbell line: its queue of csds and, beside it, one inline
 * call slot. A call to a CPU whose slot is free rides in the slot, so a
 * round trip moves this one line twice, as the c2c/mailbox floor moves its
 * two; calls that find the slot taken queue a csd as the kernel does.
 */
#define IPI_INLINE_CLAIMED	1UL
#define IPI_INLINE_PENDING	2UL

/*
 * The global-queue model's interrupt vectors pending on a CPU (its APIC's
 * IRR): x86's CALL_FUNCTION_VECTOR and CALL_FUNCTION_SINGLE_VECTOR.
 */
#define IPI_CALL_FUNCTION		1U
#define IPI_CALL_FUNCTION_SINGLE	2U

struct ipi_line {
	struct llist_head call_single_queue;
	_Atomic unsigned long inline_state;	/* 0, or (sender + 1) << 2 | CLAIMED/PENDING */
	smp_call_func_t inline_func;
	void *inline_info;
	_Atomic unsigned int vectors;		/* global queue: IPI_CALL_FUNCTION... */
} ____cacheline_aligned_in_smp;

/* The calling CPU's interrupt point: run what is queued for it (spin, futex). */
void ipi_interrupt_point_slow(void);

static __always_inline bool llist_empty(const struct llist_head *head)
{
	return atomic_load_explicit(&((struct llist_head *)head)->first,
				    memory_order_relaxed) == NULL;
}

static __always_inline bool ipi_line_pending(struct ipi_line *line)
{
	return !llist_empty(&line->call_single_queue) ||
	       (atomic_load_explicit(&line->inline_state, memory_order_relaxed) &
		IPI_INLINE_PENDING) ||
	       atomic_load_explicit(&line->vectors, memory_order_relaxed);
}

extern _Thread_local struct ipi_line *ipi_my_line;

static __always_inline void ipi_interrupt_point(void)
{
	if (unlikely(ipi_my_line && ipi_line_pending(ipi_my_line)))
		ipi_interrupt_point_slow();
}

/*
 * Make the calling thread (already an emulated CPU) able to take IPIs, and
 * stop. Every thread that is an emulated CPU during a drain must be.
 */
void ipi_cpu_online(void);
void ipi_cpu_offline(void);

/* What this CPU is doing, for the timeout message ("idle", "victim loop"...). */
void cpu_set_activity(const char *what);

/* The idle loop: answer calls (spin or sleep on the futex) until *stop. */
void ipi_idle_loop(_Atomic bool *stop);
/* Set *stop and wake every CPU asleep in ipi_idle_loop (the futex doorbell). */
void ipi_stop_idle(_Atomic bool *stop);

/* The calling thread's last failure ("CPU 17 did not answer ..."). */
const char *ipi_error(void);

#endif /* MMSCALE_KERNEL_SMP_H */
