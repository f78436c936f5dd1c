/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Emulated cross-CPU function calls (IPIs): the kernel's API, over one of
 * the generations of kernel/smp.c (a row each, SMP_GENERATIONS below) and
 * one of the machine's doorbells (the interrupt controller: a row each,
 * DOORBELLS in the harness's mmscale/doorbell.h).
 *
 * - global-queue-2.6.32 (kernel/linux-2.6/kernel/smp-2.6.32.c) and global-queue
 *   (kernel/linux-2.6/kernel/smp.c, 2.6.38 to 3.4): the kernels of ipi-all
 *   (2.6.32), quick-scan, count-check (2.6.38) and ipi-mask (3.4): one
 *   global call_function.queue under call_function.lock, a shared mask and
 *   refcount per call, the last target unlinking the entry; 2.6.32's
 *   handler writes every entry's mask, the later ones test their bit first.
 * - percpu (kernel/linux-6.18/kernel/smp.c): per-target lock-free queues (llist) of
 *   csds, since 3.14 (6897fc22ea01; 3.9 to 3.13 had per-target queues
 *   under a spinlock), as 6.18 has them; the kernels of workqueue (4.11)
 *   and remote (6.1, which makes no call), and of the ipi/ cases.
 *
 * The target runs the queued functions on its own thread, so they touch its
 * own per-CPU data as in the kernel. What is common to the generations -
 * delivery at the target's interrupt points, the idle loop, the doorbell
 * rung for each IPI, a timeout that names the CPU that did not answer - is
 * kernel/smp.c.
 *
 * Counts: every IPI sent counts MMSCALE_IPIS_SENT on the sender (a doorbell
 * rung); every function run for another CPU counts MMSCALE_IPIS_HANDLED on
 * the target; every acquisition of call_function.lock counts
 * MMSCALE_CALL_FUNCTION_LOCKS. The IPI queues' own locks are not
 * lock_acquires (that count is the mm's locks: zone->lock, pcp->lock).
 * Every locked instruction (the queues' locks, bitops on shared masks,
 * refcounts, llist's cmpxchg and xchg) counts MMSCALE_LOCKED_OPS. What one
 * call costs, a generation's row claims (struct smp_generation).
 */
#ifndef MMSCALE_KERNEL_SMP_H
#define MMSCALE_KERNEL_SMP_H

#include <stdatomic.h>
#include "compiler.h"
#include "cpumask.h"
#include "llist.h"

typedef void (*smp_call_func_t)(void *info);

/* include/linux/smp_types.h of 6.18 (CSD_FLAG_LOCK since 2.6.27) */
#define CSD_FLAG_LOCK		0x01
#define CSD_TYPE_ASYNC		0x00
#define CSD_TYPE_SYNC		0x10
#define CSD_FLAG_TYPE_MASK	0xF0

/*
 * call_single_data_t of 6.18 (include/linux/smp.h, smp_types.h: struct
 * __call_single_node then func and info, __aligned to its 32 bytes).
 */
struct call_single_data {
	struct llist_node llist;
	_Atomic unsigned int flags;	/* u_flags */
	u16 src, dst;			/* CONFIG_64BIT */
	smp_call_func_t func;
	void *info;
} __attribute__((__aligned__(32)));

BUILD_BUG_ON(sizeof(struct call_single_data) != 32);

/*
 * The kernel's API. They return 0, or -1 when a target did not answer in
 * time (the kernel's are void: an emulated machine reports instead of
 * hanging); ipi_error() then has the line.
 */
int smp_call_function_many(const struct cpumask *mask, smp_call_func_t func, void *info,
			   bool wait);
/*
 * Not the kernel's: smp_call_function_many(wait=true) with its wait left
 * for later (smp_call_function_many_wait): the calls are queued as waited
 * ones (a csd the target unlocks after the function has run, 6.18's
 * CSD_TYPE_SYNC) and the caller goes on. The emulation of a work item
 * queued now and flushed later (drain/drain_workqueue.c).
 */
int smp_call_function_many_queue(const struct cpumask *mask, smp_call_func_t func, void *info);
int smp_call_function_single(int cpu, smp_call_func_t func, void *info, int wait);
int smp_call_function(smp_call_func_t func, void *info, int wait);
int on_each_cpu(smp_call_func_t func, void *info, int wait);
int on_each_cpu_mask(const struct cpumask *mask, smp_call_func_t func, void *info, bool wait);

/*
 * Wait until the csds of the calls this CPU last made without waiting, on
 * the CPUs of mask, are unlocked again: after smp_call_function_many_queue,
 * until every call has run (flush_work() for work items emulated as queued
 * calls). After smp_call_function_many(wait=false) a 6.18 target unlocks an
 * async csd before it runs the function.
 */
int smp_call_function_many_wait(const struct cpumask *mask);

/*
 * What one smp_call_function_many(mask, func, info, wait=true) costs in
 * exact counts, from a CPU to `targets` other online CPUs of the mask that
 * are idle (answering at once, nothing else queued for them).
 */
struct smp_claim {
	unsigned int ipis;			/* sent, and handled */
	unsigned int call_function_locks;
	unsigned int locked_ops;		/* MMSCALE_LOCKED_OPS, machine-wide */
	/*
	 * And the locked ops a handler makes for each entry it walks on a
	 * global queue that is meant for other CPUs only (another sender's
	 * call, queued meanwhile): 2.6.32's test_and_clear of its bit, 0 in
	 * the later kernels, which test the bit first.
	 */
	unsigned int locked_ops_per_foreign_entry;
};

/* How a caller of smp_call_function_many waits: not, now, or later (the queue form). */
enum smp_call_wait {
	SMP_CALL_NO_WAIT,
	SMP_CALL_WAIT,
	SMP_CALL_WAIT_LATER,
};

/*
 * A generation of kernel/smp.c: its file implements the API above and its
 * interrupt, and says which release it mirrors. A row of
 * SMP_GENERATIONS each (below); a drain variant names its kernel's.
 */
struct smp_generation {
	const char *name;		/* in results, and --smp-model=name */
	const char *summary;
	const char *source;		/* the kernel/smp.c it mirrors */
	int (*setup)(char *err, size_t errlen);	/* its queues, per run (optional) */
	void (*teardown)(void);
	int (*call_function_many)(const struct cpumask *mask, smp_call_func_t func, void *info,
				  enum smp_call_wait how);
	int (*call_function_single)(int cpu, smp_call_func_t func, void *info, int wait);
	int (*call_function_many_wait)(const struct cpumask *mask);
	/* The interrupt on this CPU (irqs off): run what its line holds for it. */
	void (*interrupt)(void);
	/* For the tests: entries on a global queue now (NULL: it has none). */
	unsigned int (*queued)(void);
	void (*claim)(unsigned int targets, struct smp_claim *out);
	/*
	 * on_each_cpu(_mask) with wait: up to 3.x the caller waits for the
	 * others (smp_call_function_many) and then runs its own call; 6.18's
	 * smp_call_function_many_cond runs it between sending and waiting
	 * (SCF_RUN_LOCAL), so the caller's call overlaps the targets'.
	 */
	bool local_before_wait;
	/*
	 * A call made without waiting: 6.18 unlocks its csd (CSD_TYPE_ASYNC)
	 * before the function runs, so the csd may be reused while it runs;
	 * the global queue's last target unlocks after every call ran.
	 */
	bool async_unlocked_before_call;
};

/*
 * The generations the emulated cross-CPU calls come in: one file each
 * (kernel/linux-<version>/kernel/smp*.c, defining its struct smp_generation), one row each
 * below, oldest first. --smp-model takes their names; a drain variant's
 * ops name its kernel's; test_smp_generations checks every row's claim for
 * 0 to 5 targets, waited or not, under every doorbell.
 *
 * To add one: copy the file of the generation it descends from, give its
 * struct smp_generation a symbol, a name and a source of its own, change
 * what its release changed, and add its row here.
 */
#define SMP_GENERATIONS(X)						\
	X(smp_global_queue_2_6_32) /* 2.6.32: kernel/linux-2.6/kernel/smp-2.6.32.c */ \
	X(smp_global_queue)	/* 2.6.38 to 3.4: kernel/linux-2.6/kernel/smp.c */ \
	X(smp_llist)		/* per-CPU llists, as 6.18: kernel/linux-6.18/kernel/smp.c */ \
	/* new rows go above this line */

#define X(gen) extern const struct smp_generation gen;
SMP_GENERATIONS(X)
#undef X

/* Every generation, oldest first (kernel/smp.c). */
extern const struct smp_generation *const smp_generations[];
extern const size_t smp_nr_generations;

/*
 * The machine's interrupt controller, as the emulated kernel sees it: how
 * an IPI reaches a target CPU (bench/doorbell_*.c, a row each). The kernel
 * calls ring() for every IPI it sends; an idle CPU waits in idle_wait();
 * a doorbell that interrupts (a signal) calls smp_ipi_interrupt() on the
 * target itself. Optional members may be NULL.
 */
struct doorbell_ops {
	/* Per run, before any ring (a signal handler, per-CPU words): -1 with err. */
	int (*setup)(char *err, size_t errlen);
	void (*teardown)(void);
	/* The calling thread is now CPU cpu taking IPIs, and no longer. */
	void (*cpu_online)(int cpu);
	void (*cpu_offline)(int cpu);
	/* Make cpu look at its line: it has a call queued (counted by the caller). */
	void (*ring)(int cpu);
	/*
	 * The calling CPU (cpu) is idle: wait a while, or until rung or *stop;
	 * *spins counts the waits, for spin_wait_step.
	 */
	void (*idle_wait)(int cpu, _Atomic bool *stop, unsigned int *spins);
	/* Wake cpu from idle_wait because *stop was set (NULL: it sees it soon). */
	void (*wake)(int cpu);
};

/*
 * The emulated machine's cross-CPU calls, as a run sets them up: the
 * parameters the emulated smp.c reads (never the command line's), so that
 * a test can set up machines that differ in one process.
 */
struct ipi_config {
	const struct doorbell_ops *doorbell;
	const struct smp_generation *gen;	/* the kernel/smp.c generation */
	unsigned int timeout_ms;		/* a call not answered by then fails, named */
	unsigned int stuck_cpu;			/* test only: this CPU never answers (0: none) */
};

/* doorbell, the per-CPU queues (6.18's), the default 10 s timeout: what the tests mostly want. */
void ipi_config_default(struct ipi_config *cfg, const struct doorbell_ops *doorbell);

/*
 * Set up queues, csds and doorbells for the machine's CPUs, per run, with
 * cfg's doorbell and kernel/smp.c generation (the caller decides both).
 */
int ipi_setup_config(const struct ipi_config *cfg, char *err, size_t errlen);
/* ipi_setup_config() with ipi_config_default(doorbell). */
int ipi_setup(const struct doorbell_ops *doorbell, char *err, size_t errlen);
void ipi_teardown(void);
/* The generation and the doorbell the current run uses. */
const struct smp_generation *ipi_generation(void);
const struct doorbell_ops *ipi_doorbell(void);
/* For the tests: entries on the generation's global queue now (0 where it has none). */
unsigned int ipi_call_function_queued(void);

/*
 * A target's doorbell line: what is pending for it, which its interrupt
 * points test inline (ipi_line_pending) before they call the generation's
 * interrupt. The per-CPU generation keeps its call_single_queue there
 * (6.18: DEFINE_PER_CPU_SHARED_ALIGNED, a line of its own). The
 * global-queue generations keep the interrupt vectors pending on the CPU
 * there (its APIC's IRR): a generation whose calls wait anywhere else (a
 * queue of its own) raises a vector in the target's line as it sends the
 * IPI, as the kernel's sender raises the vector in the target's APIC, so
 * that the target's interrupt points see it.
 */

/* x86's CALL_FUNCTION_VECTOR and CALL_FUNCTION_SINGLE_VECTOR, as pending bits. */
#define IPI_CALL_FUNCTION		1U
#define IPI_CALL_FUNCTION_SINGLE	2U

struct ipi_line {
	struct llist_head call_single_queue;
	_Atomic unsigned int vectors;		/* global queue: IPI_CALL_FUNCTION... */
} ____cacheline_aligned_in_smp;

/*
 * The pending vectors are the interrupt controller's (the APIC's IRR), not
 * memory: the counting build (mmscale --transfers) compiles their accesses
 * without its hooks, so an IPI's delivery moves no line there; the lines
 * the calls share (a csd, a queue) do.
 */
#ifdef MMSCALE_TRANSFERS
#define __apic_access	__attribute__((__no_sanitize_thread__, __noinline__, __unused__))
#else
#define __apic_access	__always_inline
#endif

static __apic_access unsigned int apic_irr_read(struct ipi_line *line)
{
	return atomic_load_explicit(&line->vectors, memory_order_relaxed);
}

static __apic_access void apic_irr_raise(struct ipi_line *line, unsigned int vector)
{
	atomic_fetch_or(&line->vectors, vector);
}

/* The vectors pending, taken (the CPU acknowledges them). */
static __apic_access unsigned int apic_irr_take(struct ipi_line *line)
{
	return atomic_exchange(&line->vectors, 0);
}

/* The calling CPU's interrupt point: run what is queued for it (spin, futex). */
void ipi_interrupt_point_slow(void);

static __always_inline bool ipi_line_pending(struct ipi_line *line)
{
	return !llist_empty(&line->call_single_queue) || apic_irr_read(line);
}

extern _Thread_local struct ipi_line *ipi_my_line;

static __always_inline void ipi_interrupt_point(void)
{
	if (unlikely(ipi_my_line && ipi_line_pending(ipi_my_line)))
		ipi_interrupt_point_slow();
}

/*
 * The interrupt as a doorbell delivers it asynchronously (a signal handler
 * on the target): the target's interrupt point, deferred while it has
 * "irqs" off. Nothing on a thread that is not taking IPIs now.
 */
void smp_ipi_interrupt(void);
/* Whether anything is pending for the calling CPU (a doorbell about to sleep asks). */
bool ipi_pending_here(void);

/*
 * Make the calling thread (already an emulated CPU) able to take IPIs, and
 * stop. Every thread that is an emulated CPU during a drain must be.
 */
void ipi_cpu_online(void);
void ipi_cpu_offline(void);

/* What this CPU is doing, for the timeout message ("idle", "victim loop"...). */
void cpu_set_activity(const char *what);

/* The idle loop: answer calls (the doorbell's wait between them) until *stop. */
void ipi_idle_loop(_Atomic bool *stop);
/* Set *stop and wake every CPU in ipi_idle_loop. */
void ipi_stop_idle(_Atomic bool *stop);

/* The calling thread's last failure ("CPU 17 did not answer ..."). */
const char *ipi_error(void);

#endif /* MMSCALE_KERNEL_SMP_H */
