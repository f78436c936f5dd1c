/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The calling emulated CPU, and waiting politely when emulated CPUs share a
 * real one.
 */
#ifndef MMSCALE_KERNEL_PROCESSOR_H
#define MMSCALE_KERNEL_PROCESSOR_H

#include <stdbool.h>
#include "compiler.h"
#include "machine.h"
#include "../opcount.h"

/* Set when a thread becomes emulated CPU n (machine_cpu_enter). */
extern _Thread_local int mmscale_this_cpu;

/*
 * The calling thread's task continues on emulated CPU cpu, which no thread
 * of its own runs (a migration: the scheduler moved the task): from here
 * smp_processor_id() and this_cpu_ptr() are cpu's; the thread's counts
 * stay where it registered them. The caller migrates back, to what this
 * returns. For a case whose one task hops CPUs (rss/drift), or whose
 * setup runs a task on the CPUs before the run (rss/oom_scan).
 */
static inline int machine_task_migrate(int cpu)
{
	int was = mmscale_this_cpu;	/* -1 on a thread that is no CPU (a case's setup) */

	mmscale_this_cpu = cpu;
	return was;
}

/*
 * smp_processor_id(): the emulated CPU the calling thread is. Only threads
 * the harness made into emulated CPUs have one; anything else is a harness
 * bug, and mmscale_no_cpu() says so and aborts rather than index per-CPU
 * data with -1.
 */
void mmscale_no_cpu(void) __attribute__((__noreturn__, __cold__));

/* BUG(): an emulated kernel invariant broken - says which, on one line, and aborts. */
void mmscale_kernel_bug(const char *what) __attribute__((__noreturn__, __cold__));

static __always_inline int smp_processor_id(void)
{
	if (unlikely(mmscale_this_cpu < 0))
		mmscale_no_cpu();
	return mmscale_this_cpu;
}
#define raw_smp_processor_id()	smp_processor_id()

/* The planned node of an emulated CPU (cpu_to_node), and the calling CPU's. */
static __always_inline int cpu_to_node(int cpu)
{
	return the_machine->cpu_node[cpu];
}
#define numa_node_id()	cpu_to_node(smp_processor_id())

/* Emulated CPUs never migrate (threads are pinned): these are no-ops. */
#define preempt_disable()	barrier()
#define preempt_enable()	barrier()
#define get_cpu()		({ preempt_disable(); smp_processor_id(); })
#define put_cpu()		preempt_enable()

/*
 * Interrupts. An emulated CPU takes emulated IPIs at its own interrupt
 * points (polled mailbox, futex) or through a real signal that interrupts
 * whatever its thread is doing (--ipi=signal). local_irq_save/restore keep
 * the kernel's promise for the signal case: they set a thread-local flag,
 * and an IPI signal that arrives while it is set only marks itself
 * pending; local_irq_restore runs the pending calls. The other mechanisms
 * never interrupt, so for them the flag is the whole effect.
 *
 * The cost is x86's as far as user space can run it: local_irq_save reads
 * the flags register as native_save_fl does (pushf; pop: a real
 * instruction, flags carries it with IF as the emulated CPU has it), then
 * the flag stands in for cli; local_irq_restore is 6.18's
 * arch_local_irq_restore, a test of flags' IF and, where it was set, sti
 * (the flag again). cli and sti are privileged in user space, so a save or
 * restore here costs their stand-in store where the kernel pays the
 * instruction (a few cycles each); kernels whose restore was popf pay more
 * than the test here. No system call.
 */
extern _Thread_local volatile int mmscale_irqs_off;
extern _Thread_local volatile int mmscale_ipi_pending;
void mmscale_run_pending_ipis(void);

#define X86_EFLAGS_IF		0x200UL

#if defined(__x86_64__)
#define native_save_fl()	((unsigned long)__builtin_ia32_readeflags_u64())
#else
#define native_save_fl()	X86_EFLAGS_IF
#endif

#define irqs_disabled()			(mmscale_irqs_off != 0)
#define arch_irqs_disabled_flags(flags)	(!((flags) & X86_EFLAGS_IF))

/*
 * Each transition from on to off and back also tells drain/full's hold
 * accounting (mmscale/opcount.h), off everywhere else: a load and a branch.
 */
#define local_irq_save(flags) do {					\
	(flags) = (native_save_fl() & ~X86_EFLAGS_IF) |			\
		  (mmscale_irqs_off ? 0 : X86_EFLAGS_IF);		\
	if (mmscale_holds_counted() && ((flags) & X86_EFLAGS_IF))	\
		mmscale_irqoff_begin();					\
	mmscale_irqs_off = 1;						\
	barrier();							\
} while (0)

#define local_irq_restore(flags) do {					\
	barrier();							\
	if (!arch_irqs_disabled_flags(flags)) {				\
		if (mmscale_holds_counted())				\
			mmscale_irqoff_end();				\
		mmscale_irqs_off = 0;					\
		if (unlikely(mmscale_ipi_pending))			\
			mmscale_run_pending_ipis();			\
	}								\
} while (0)

#define local_irq_disable()	do {					\
	if (mmscale_holds_counted() && !mmscale_irqs_off)		\
		mmscale_irqoff_begin();					\
	mmscale_irqs_off = 1;						\
	barrier();							\
} while (0)
#define local_irq_enable()	do {					\
	barrier();							\
	if (mmscale_holds_counted() && mmscale_irqs_off)		\
		mmscale_irqoff_end();					\
	mmscale_irqs_off = 0;						\
	if (unlikely(mmscale_ipi_pending))				\
		mmscale_run_pending_ipis();				\
} while (0)

void mmscale_spin_yield(void);

/*
 * One step of a busy wait: cpu_relax(), and every 1024 steps a yield where
 * the machine says its emulated CPUs outnumber the real PUs they run on
 * (struct machine's spin_yields; before any machine is booted, always: a
 * lock test's threads may outnumber the PUs). A predictable branch on a
 * machine that is not oversubscribed.
 */
static __always_inline void spin_wait_step(unsigned int *spins)
{
	cpu_relax();
	if (unlikely((++*spins & 1023) == 0) && (!the_machine || the_machine->spin_yields))
		mmscale_spin_yield();
}

#endif /* MMSCALE_KERNEL_PROCESSOR_H */
