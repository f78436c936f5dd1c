// SPDX-License-Identifier: GPL-2.0
/*
 * Floating proportions: lib/proportions.c of Linux 2.6.31
 * (../shared/kernel/2.6.31/lib/proportions.c), the parts mm/page-writeback.c
 * uses: prop_descriptor_init (lines 76-96), prop_get/put_global and
 * prop_adjust_shift (145-183), the PERCPU locals - PROP_BATCH,
 * prop_local_init/destroy_percpu, prop_norm_percpu, __prop_inc_percpu,
 * __prop_inc_percpu_max, prop_fraction_percpu (185-319) - and the SINGLE
 * locals - prop_local_init/destroy_single, prop_norm_single,
 * __prop_inc_single, prop_fraction_single (321-407). Not ported:
 * prop_change_shift (98-143; see include/mmscale/lib/proportions.h).
 *
 * Ported verbatim but for four things:
 * - rcu_read_lock/unlock around the global (prop_get/put_global) are no-ops,
 *   as in a 2.6.31 kernel without preemptible RCU on a path that cannot
 *   sleep, and nothing here ever flips pd->index;
 * - prop_get_global's index load and smp_rmb() are one acquire load (the
 *   same mov on x86-64, where smp_rmb() is a compiler barrier);
 * - pl->period, read outside pl->lock on the fast path (the kernel's
 *   intended race), is read and written with READ_ONCE/WRITE_ONCE, the same
 *   single load or store (prop_norm_percpu adjusts a copy under the lock
 *   and stores it once);
 * - percpu_counter_read() and percpu_counter_read_positive() are the same
 *   one load of fbc->count as the kernel's, but not counted: the emulated
 *   ones in percpu_counter.h count MMSCALE_BDI_READS, which stands for the
 *   bdi_stat() calls the seeds count (14+4 vs 9+2 per unthrottled
 *   balance_dirty_pages), and these reads are not bdi_stat() calls. Every
 *   add, set and sum is the emulated percpu_counter's, counted as it counts
 *   (folds and lock acquisitions; slots summed).
 */
#include "mmscale/lib/proportions.h"

/* The kernel compares long with unsigned long here (frac != PROP_FRAC_BASE); kept verbatim. */
#pragma GCC diagnostic ignored "-Wsign-compare"

/* include/linux/percpu_counter.h:60-78 (2.6.31), uncounted: see above. */
static inline s64 prop_percpu_counter_read(struct percpu_counter *fbc)
{
	return READ_ONCE(fbc->count);
}

static inline s64 prop_percpu_counter_read_positive(struct percpu_counter *fbc)
{
	s64 ret = READ_ONCE(fbc->count);

	barrier();		/* Prevent reloads of fbc->count */
	if (ret >= 0)
		return ret;
	return 1;
}

#define percpu_counter_read		prop_percpu_counter_read
#define percpu_counter_read_positive	prop_percpu_counter_read_positive

#define rcu_read_lock()		barrier()
#define rcu_read_unlock()	barrier()

int prop_descriptor_init(struct prop_descriptor *pd, int shift)
{
	int err;

	if (shift > PROP_MAX_SHIFT)
		shift = PROP_MAX_SHIFT;

	pd->index = 0;
	pd->pg[0].shift = shift;
	/* mutex_init(&pd->mutex): the mutex serialises prop_change_shift, not ported. */
	err = percpu_counter_init(&pd->pg[0].events, 0);
	if (err)
		goto out;

	err = percpu_counter_init(&pd->pg[1].events, 0);
	if (err)
		percpu_counter_destroy(&pd->pg[0].events);

out:
	return err;
}

void prop_descriptor_destroy(struct prop_descriptor *pd)
{
	percpu_counter_destroy(&pd->pg[0].events);
	percpu_counter_destroy(&pd->pg[1].events);
}

/*
 * wrap the access to the data in an rcu_read_lock() section;
 * this is used to track the active references.
 */
static struct prop_global *prop_get_global(struct prop_descriptor *pd)
{
	int index;

	rcu_read_lock();
	/*
	 * index = pd->index; smp_rmb(); - match the wmb from vcd_flip(). On
	 * x86-64 smp_rmb() is a compiler barrier: an acquire load here is the
	 * same one mov, and ThreadSanitizer understands it (not a fence).
	 */
	index = __atomic_load_n(&pd->index, __ATOMIC_ACQUIRE);
	return &pd->pg[index];
}

static void prop_put_global(struct prop_descriptor *pd, struct prop_global *pg)
{
	(void)pd;
	(void)pg;
	rcu_read_unlock();
}

static void
prop_adjust_shift(int *pl_shift, unsigned long *pl_period, int new_shift)
{
	int offset = *pl_shift - new_shift;

	if (!offset)
		return;

	if (offset < 0)
		*pl_period <<= -offset;
	else
		*pl_period >>= offset;

	*pl_shift = new_shift;
}

/*
 * PERCPU
 */

#define PROP_BATCH (8*(1+ilog2(nr_cpu_ids)))

int prop_local_init_percpu(struct prop_local_percpu *pl)
{
	spin_lock_init(&pl->lock);
	pl->shift = 0;
	pl->period = 0;
	return percpu_counter_init(&pl->events, 0);
}

void prop_local_destroy_percpu(struct prop_local_percpu *pl)
{
	percpu_counter_destroy(&pl->events);
}

/*
 * Catch up with missed period expirations.
 *
 *   until (c_{j} == c)
 *     x_{j} -= x_{j}/2;
 *     c_{j}++;
 */
static
void prop_norm_percpu(struct prop_global *pg, struct prop_local_percpu *pl)
{
	unsigned long period = 1UL << (pg->shift - 1);
	unsigned long period_mask = ~(period - 1);
	unsigned long global_period;
	unsigned long flags;
	unsigned long pl_period;

	global_period = percpu_counter_read(&pg->events);
	global_period &= period_mask;

	/*
	 * Fast path - check if the local and global period count still match
	 * outside of the lock.
	 */
	if (READ_ONCE(pl->period) == global_period)
		return;

	spin_lock_irqsave(&pl->lock, flags);
	pl_period = pl->period;
	prop_adjust_shift(&pl->shift, &pl_period, pg->shift);

	/*
	 * For each missed period, we half the local counter.
	 * basically:
	 *   pl->events >> (global_period - pl->period);
	 */
	period = (global_period - pl_period) >> (pg->shift - 1);
	if (period < BITS_PER_LONG) {
		s64 val = percpu_counter_read(&pl->events);

		if (val < (nr_cpu_ids * PROP_BATCH))
			val = percpu_counter_sum(&pl->events);

		__percpu_counter_add(&pl->events, -val + (val >> period),
					PROP_BATCH);
	} else
		percpu_counter_set(&pl->events, 0);

	WRITE_ONCE(pl->period, global_period);
	spin_unlock_irqrestore(&pl->lock, flags);
}

/*
 *   ++x_{j}, ++t
 */
void __prop_inc_percpu(struct prop_descriptor *pd, struct prop_local_percpu *pl)
{
	struct prop_global *pg = prop_get_global(pd);

	prop_norm_percpu(pg, pl);
	__percpu_counter_add(&pl->events, 1, PROP_BATCH);
	percpu_counter_add(&pg->events, 1);
	prop_put_global(pd, pg);
}

/*
 * identical to __prop_inc_percpu, except that it limits this pl's fraction to
 * @frac/PROP_FRAC_BASE by ignoring events when this limit has been exceeded.
 */
void __prop_inc_percpu_max(struct prop_descriptor *pd,
			   struct prop_local_percpu *pl, long frac)
{
	struct prop_global *pg = prop_get_global(pd);

	prop_norm_percpu(pg, pl);

	if (unlikely(frac != PROP_FRAC_BASE)) {
		unsigned long period_2 = 1UL << (pg->shift - 1);
		unsigned long counter_mask = period_2 - 1;
		unsigned long global_count;
		long numerator, denominator;

		numerator = percpu_counter_read_positive(&pl->events);
		global_count = percpu_counter_read(&pg->events);
		denominator = period_2 + (global_count & counter_mask);

		if (numerator > ((denominator * frac) >> PROP_FRAC_SHIFT))
			goto out_put;
	}

	percpu_counter_add(&pl->events, 1);
	percpu_counter_add(&pg->events, 1);

out_put:
	prop_put_global(pd, pg);
}

/*
 * Obtain a fraction of this proportion
 *
 *   p_{j} = x_{j} / (period/2 + t % period/2)
 */
void prop_fraction_percpu(struct prop_descriptor *pd,
		struct prop_local_percpu *pl,
		long *numerator, long *denominator)
{
	struct prop_global *pg = prop_get_global(pd);
	unsigned long period_2 = 1UL << (pg->shift - 1);
	unsigned long counter_mask = period_2 - 1;
	unsigned long global_count;

	prop_norm_percpu(pg, pl);
	*numerator = percpu_counter_read_positive(&pl->events);

	global_count = percpu_counter_read(&pg->events);
	*denominator = period_2 + (global_count & counter_mask);

	prop_put_global(pd, pg);
}

/*
 * SINGLE
 */

int prop_local_init_single(struct prop_local_single *pl)
{
	spin_lock_init(&pl->lock);
	pl->shift = 0;
	pl->period = 0;
	pl->events = 0;
	return 0;
}

void prop_local_destroy_single(struct prop_local_single *pl)
{
	(void)pl;
}

/*
 * Catch up with missed period expirations.
 */
static
void prop_norm_single(struct prop_global *pg, struct prop_local_single *pl)
{
	unsigned long period = 1UL << (pg->shift - 1);
	unsigned long period_mask = ~(period - 1);
	unsigned long global_period;
	unsigned long flags;

	global_period = percpu_counter_read(&pg->events);
	global_period &= period_mask;

	/*
	 * Fast path - check if the local and global period count still match
	 * outside of the lock.
	 */
	if (pl->period == global_period)
		return;

	spin_lock_irqsave(&pl->lock, flags);
	prop_adjust_shift(&pl->shift, &pl->period, pg->shift);
	/*
	 * For each missed period, we half the local counter.
	 */
	period = (global_period - pl->period) >> (pg->shift - 1);
	if (likely(period < BITS_PER_LONG))
		pl->events >>= period;
	else
		pl->events = 0;
	pl->period = global_period;
	spin_unlock_irqrestore(&pl->lock, flags);
}

/*
 *   ++x_{j}, ++t
 */
void __prop_inc_single(struct prop_descriptor *pd, struct prop_local_single *pl)
{
	struct prop_global *pg = prop_get_global(pd);

	prop_norm_single(pg, pl);
	pl->events++;
	percpu_counter_add(&pg->events, 1);
	prop_put_global(pd, pg);
}

/*
 * Obtain a fraction of this proportion
 *
 *   p_{j} = x_{j} / (period/2 + t % period/2)
 */
void prop_fraction_single(struct prop_descriptor *pd,
		struct prop_local_single *pl,
		long *numerator, long *denominator)
{
	struct prop_global *pg = prop_get_global(pd);
	unsigned long period_2 = 1UL << (pg->shift - 1);
	unsigned long counter_mask = period_2 - 1;
	unsigned long global_count;

	prop_norm_single(pg, pl);
	*numerator = pl->events;

	global_count = percpu_counter_read(&pg->events);
	*denominator = period_2 + (global_count & counter_mask);

	prop_put_global(pd, pg);
}

/*
 * Not in the kernel: the steady state of a machine that has been running
 * (include/mmscale/lib/proportions.h). Setup only, one CPU, nothing racing.
 */
void prop_global_steady(struct prop_descriptor *pd)
{
	struct prop_global *pg = &pd->pg[pd->index];

	percpu_counter_set(&pg->events, (s64)(1UL << (pg->shift - 1)));
}

/* x = num/den of period/2 + t % period/2, and the period snapshot of now. */
static unsigned long prop_steady_events(struct prop_global *pg, unsigned long *period,
					long num, long den)
{
	unsigned long period_2 = 1UL << (pg->shift - 1);
	unsigned long global_count = percpu_counter_read(&pg->events);

	*period = global_count & ~(period_2 - 1);
	return (period_2 + (global_count & (period_2 - 1))) * (unsigned long)num /
		(unsigned long)den;
}

void prop_local_steady_percpu(struct prop_descriptor *pd, struct prop_local_percpu *pl,
			      long num, long den)
{
	struct prop_global *pg = &pd->pg[pd->index];
	unsigned long period, x = prop_steady_events(pg, &period, num, den);

	pl->shift = pg->shift;
	WRITE_ONCE(pl->period, period);
	percpu_counter_set(&pl->events, (s64)x);
}

void prop_local_steady_single(struct prop_descriptor *pd, struct prop_local_single *pl,
			      long num, long den)
{
	struct prop_global *pg = &pd->pg[pd->index];
	unsigned long period, x = prop_steady_events(pg, &period, num, den);

	pl->shift = pg->shift;
	pl->period = period;
	pl->events = x;
}
