/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Floating proportions, as include/linux/proportions.h of Linux 2.6.31.
 * That header is not in ../shared/kernel/2.6.31: this follows the copy in
 * a 2.6.32 tree (mikuhatsune001/linux2.6.32 4866fa67), which agrees with
 * everything 2.6.31's lib/proportions.c uses (PROP_MAX_SHIFT,
 * PROP_FRAC_SHIFT, PROP_FRAC_BASE, the fields it touches); it differs from
 * 2.6.24's only by __prop_inc_percpu_max with its PROP_* constants and by
 * the order of prop_local_single's period and shift. The code is
 * kernel/lib/proportions.c (lib/proportions.c of 2.6.31).
 *
 * What is ported: the structures, with the kernel's layout where it matters
 * (prop_global's events is a percpu_counter; a prop_local_percpu's events is
 * a percpu_counter of its own, a prop_local_single's a plain unsigned long),
 * prop_descriptor_init, the per-bdi (PERCPU) and per-task (SINGLE) locals
 * with their lazy normalisation, __prop_inc_percpu(_max), prop_inc_single
 * and the two fractions. Every percpu_counter add, set and sum goes through
 * the emulated percpu_counter, so MMSCALE_FOLDS, MMSCALE_LOCK_ACQUIRES and
 * MMSCALE_PERCPU_SUM_SLOTS count the kernel's folds, locks and slots.
 *
 * Not ported: prop_change_shift and the descriptor's mutex, which
 * serialises it. The kernel calls it only when the vm.dirty_ratio or
 * vm.dirty_bytes sysctl is written; nothing writes them here.
 */
#ifndef MMSCALE_MM_PROPORTIONS_H
#define MMSCALE_MM_PROPORTIONS_H

#include "mmscale/kernel/cpumask.h"
#include "mmscale/kernel/processor.h"
#include "mmscale/kernel/spinlock.h"
#include "mmscale/lib/percpu_counter.h"

struct prop_global {
	/*
	 * The period over which we differentiate
	 *
	 *   period = 2^shift
	 */
	int shift;
	/*
	 * The total event counter aka 'time'.
	 *
	 * Treated as an unsigned long; the lower 'shift - 1' bits are the
	 * counter bits, the remaining upper bits the period counter.
	 */
	struct percpu_counter events;
};

/*
 * global proportion descriptor
 *
 * this is needed to consitently flip prop_global structures.
 */
struct prop_descriptor {
	int index;
	struct prop_global pg[2];
	/* struct mutex mutex: serialises prop_change_shift (not ported). */
};

int prop_descriptor_init(struct prop_descriptor *pd, int shift);
/* Not in the kernel (which never frees vm_completions or vm_dirties): a world's teardown. */
void prop_descriptor_destroy(struct prop_descriptor *pd);

/*
 * ----- PERCPU ------
 */

struct prop_local_percpu {
	/*
	 * the local events counter
	 */
	struct percpu_counter events;

	/*
	 * snapshot of the last seen global state
	 */
	int shift;
	unsigned long period;
	spinlock_t lock;		/* protect the snapshot state */
};

int prop_local_init_percpu(struct prop_local_percpu *pl);
void prop_local_destroy_percpu(struct prop_local_percpu *pl);
void __prop_inc_percpu(struct prop_descriptor *pd, struct prop_local_percpu *pl);
void prop_fraction_percpu(struct prop_descriptor *pd, struct prop_local_percpu *pl,
		long *numerator, long *denominator);

static inline
void prop_inc_percpu(struct prop_descriptor *pd, struct prop_local_percpu *pl)
{
	unsigned long flags;

	local_irq_save(flags);
	__prop_inc_percpu(pd, pl);
	local_irq_restore(flags);
}

/*
 * Limit the time part in order to ensure there are some bits left for the
 * cycle counter and fraction multiply.
 *
 * (The kernel's #if BITS_PER_LONG == 32 picks 3*BITS_PER_LONG/4 there; the
 * emulation is LP64 only, where it is BITS_PER_LONG/2 = 32, and
 * PROP_FRAC_SHIFT = 64 - 32 - 1 = 31.)
 */
_Static_assert(sizeof(long) == 8, "the emulation is LP64: PROP_MAX_SHIFT is BITS_PER_LONG/2");
#define PROP_MAX_SHIFT ((int)(BITS_PER_LONG/2))

#define PROP_FRAC_SHIFT		((int)(BITS_PER_LONG - PROP_MAX_SHIFT - 1))
#define PROP_FRAC_BASE		(1UL << PROP_FRAC_SHIFT)

void __prop_inc_percpu_max(struct prop_descriptor *pd,
			   struct prop_local_percpu *pl, long frac);


/*
 * ----- SINGLE ------
 */

struct prop_local_single {
	/*
	 * the local events counter
	 */
	unsigned long events;

	/*
	 * snapshot of the last seen global state
	 * and a lock protecting this state
	 */
	unsigned long period;
	int shift;
	spinlock_t lock;		/* protect the snapshot state */
};

int prop_local_init_single(struct prop_local_single *pl);
void prop_local_destroy_single(struct prop_local_single *pl);
void __prop_inc_single(struct prop_descriptor *pd, struct prop_local_single *pl);
void prop_fraction_single(struct prop_descriptor *pd, struct prop_local_single *pl,
		long *numerator, long *denominator);

static inline
void prop_inc_single(struct prop_descriptor *pd, struct prop_local_single *pl)
{
	unsigned long flags;

	local_irq_save(flags);
	__prop_inc_single(pd, pl);
	local_irq_restore(flags);
}

/*
 * Not in the kernel: the steady state of a machine that has been running.
 * A freshly booted kernel starts every proportion at zero, and a bdi's or a
 * task's share ramps up over two periods (2^shift events, a GiB or more of
 * writeback on the 3 GiB default). The emulation builds a new world per
 * run, so it can start its proportions where they stand after a long run
 * instead (kernel/linux-2.6/world/writeback.c's writeback_world_create says which):
 *
 * prop_global_steady: the global time at the start of a period,
 * t = period/2 = 2^(shift-1) (so t % (period/2) = 0).
 *
 * prop_local_steady_percpu/_single: a local whose share of the events is
 * num/den at the fixed point of the normalisation, x = share *
 * (period/2 + t % (period/2)) - the denominator prop_fraction_* divides
 * by - with its period snapshot taken now (so no normalisation is due).
 * One bdi completing every writeback holds x = period/2 + t % (period/2):
 * each missed period halves x, each event adds one, and
 * (period/2 + period/2) / 2 = period/2.
 */
void prop_global_steady(struct prop_descriptor *pd);
void prop_local_steady_percpu(struct prop_descriptor *pd, struct prop_local_percpu *pl,
			      long num, long den);
void prop_local_steady_single(struct prop_descriptor *pd, struct prop_local_single *pl,
			      long num, long den);

#endif /* MMSCALE_MM_PROPORTIONS_H */
