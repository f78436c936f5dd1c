/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the two global-queue generations of kernel/smp.c share: 2.6.32's
 * (kernel/linux-2.6/kernel/smp-2.6.32.c) and 2.6.38's to 3.4's
 * (kernel/linux-2.6/kernel/smp.c, which also holds everything below). One
 * global call_function.queue under call_function.lock; a sender's one
 * call_function_data (csd, refs, a cpumask of CONFIG_CPUMASK_OFFSTACK) per
 * CPU; the single-target path through the target's call_single_queue under
 * its lock. The generations differ in smp_call_function_many's order of
 * stores and in the handler that walks the list. Private to kernel/.
 */
#ifndef MMSCALE_KERNEL_SMP_GLOBAL_QUEUE_H
#define MMSCALE_KERNEL_SMP_GLOBAL_QUEUE_H

#include "mmscale/kernel/atomic.h"
#include "mmscale/kernel/list.h"
#include "mmscale/kernel/smp.h"
#include "mmscale/kernel/spinlock.h"
#include "../../smp_internal.h"

/* struct call_single_data of 2.6.32-3.4 (include/linux/smp.h). */
struct call_single_data_list {
	struct list_head list;
	smp_call_func_t func;
	void *info;
	_Atomic u16 flags;
	u16 priv;
};

struct call_function_queue {
	struct list_head	queue;
	spinlock_t		lock;
} ____cacheline_aligned_in_smp;

/* static struct { ... } call_function __cacheline_aligned_in_smp */
extern struct call_function_queue call_function;

/* DEFINE_PER_CPU_SHARED_ALIGNED(struct call_function_data, cfd_data) (2.6.32: DEFINE_PER_CPU) */
struct call_function_data {
	struct call_single_data_list	csd;
	atomic_t			refs;
	struct cpumask			*cpumask;	/* cpumask_var_t, OFFSTACK */
} ____cacheline_aligned_in_smp;

extern struct call_function_data *cfd_data;	/* percpu */

/* raw_spin_lock: the ticket lock of spinlock.h, a locked op, not counted as an mm lock. */
void gq_raw_spin_lock(spinlock_t *lock);
#define gq_raw_spin_unlock(lock)	spin_unlock(lock)

/* raw_spin_lock(&call_function.lock), counting MMSCALE_CALL_FUNCTION_LOCKS. */
void call_function_lock(void);

/*
 * The shared mask's bits, as the kernel's bitops: plain reads (acquire:
 * pairs with the sender's release of the mask, its smp_wmb - a plain mov on
 * x86), locked clears.
 */
static inline bool gq_test_cpu(unsigned int cpu, const struct cpumask *m)
{
	return (__atomic_load_n(&m->bits[cpu / BITS_PER_LONG], __ATOMIC_ACQUIRE) >>
		(cpu % BITS_PER_LONG)) & 1;
}

/* cpumask_test_and_clear_cpu: a locked btr, fully ordered. */
static inline bool gq_test_and_clear_cpu(unsigned int cpu, struct cpumask *m)
{
	return cpumask_test_and_clear_cpu(cpu, m);
}

/* The next CPU set in the shared mask after n, or nr_cpu_ids. */
unsigned int gq_next(int n, const struct cpumask *m);
/*
 * The first lines of smp_call_function_many in 2.6.32 to 3.4: the online
 * CPUs of mask other than this one - none (0), one (1, *first: the
 * single-target fast path) or more (2).
 */
int gq_targets(const struct cpumask *mask, unsigned int *first);

/* cpumask_and into the cfd's shared mask, released to its walkers (x86: plain movs). */
void gq_publish_mask(struct cpumask *dst, const struct cpumask *mask);

/* RCU list (include/linux/rculist.h): next is read without the lock. */
struct list_head *gq_list_next_rcu(struct list_head *p);
void gq_list_add_rcu(struct list_head *new, struct list_head *head);
void gq_list_del_rcu(struct list_head *entry);

/* csd_lock/csd_unlock/csd_lock_wait, with the emulation's timeout naming a CPU. */
void gq_csd_unlock(struct call_single_data_list *data);
int gq_csd_lock_wait(struct call_single_data_list *data, int cpu, const struct cpumask *who);
int gq_csd_lock(struct call_single_data_list *data, int cpu, const struct cpumask *who);

/* arch_send_call_function_ipi_mask: an IPI to each CPU of the (live, shared) mask. */
void gq_send_call_function_ipi_mask(const struct cpumask *mask);

/* What both generations run unchanged. */
int gq_call_function_single(int cpu, smp_call_func_t func, void *info, int wait);
int gq_call_function_many_wait(const struct cpumask *mask);
int gq_setup(char *err, size_t errlen);		/* 2.6.38 to 3.4 */
int gq_setup_2_6_32(char *err, size_t errlen);
void gq_teardown(void);
unsigned int gq_queued(void);
/* The interrupt: the vectors pending here, with this generation's call-function handler. */
void gq_interrupt(void (*call_function_interrupt)(void));

#endif /* MMSCALE_KERNEL_SMP_GLOBAL_QUEUE_H */
