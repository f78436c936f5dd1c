// SPDX-License-Identifier: GPL-2.0
/*
 * Floating proportions with flexible aging period: lib/flex_proportions.c
 * as Linux 6.18 has it (include/mmscale/linux-6.18/lib/flex_proportions.h says
 * which copy, and what is emulated): fprop_global_init/destroy,
 * fprop_new_period, and the PERCPU locals (fprop_local_init/destroy_percpu,
 * fprop_reflect_period_percpu, __fprop_add_percpu, fprop_fraction_percpu,
 * __fprop_add_percpu_max). The SINGLE locals, which 6.18's writeback does
 * not use, are not ported.
 */
#include "mmscale/kernel/cpumask.h"
#include "mmscale/kernel/processor.h"
#include "mmscale/linux-6.18/lib/flex_proportions.h"

#define raw_spin_lock_init(lock)		spin_lock_init(lock)
#define raw_spin_lock_irqsave(lock, flags)	spin_lock_irqsave(lock, flags)
#define raw_spin_unlock_irqrestore(lock, flags)	spin_unlock_irqrestore(lock, flags)

/* include/linux/seqlock.h, without lockdep (the header says how). */
static inline unsigned int read_seqcount_begin(const seqcount_t *s)
{
	unsigned int seq;

	while ((seq = __atomic_load_n(&s->sequence, __ATOMIC_ACQUIRE)) & 1)
		cpu_relax();
	return seq;
}

static inline bool read_seqcount_retry(const seqcount_t *s, unsigned int start)
{
	smp_rmb();
	return __atomic_load_n(&s->sequence, __ATOMIC_RELAXED) != start;
}

static inline void write_seqcount_begin(seqcount_t *s)
{
	__atomic_store_n(&s->sequence, s->sequence + 1, __ATOMIC_RELAXED);
	smp_wmb();
}

static inline void write_seqcount_end(seqcount_t *s)
{
	__atomic_store_n(&s->sequence, s->sequence + 1, __ATOMIC_RELEASE);
}

#define seqcount_init(s)	((s)->sequence = 0)

/* include/linux/percpu_counter.h of 6.18, uncounted (the header says why). */
static inline s64 fprop_percpu_counter_read(struct percpu_counter *fbc)
{
	return READ_ONCE(fbc->count);
}

static inline s64 fprop_percpu_counter_read_positive(struct percpu_counter *fbc)
{
	/* Prevent reloads of fbc->count */
	s64 ret = READ_ONCE(fbc->count);

	if (ret >= 0)
		return ret;
	return 0;
}

#define percpu_counter_read		fprop_percpu_counter_read
#define percpu_counter_read_positive	fprop_percpu_counter_read_positive
#define percpu_counter_sum(fbc)		__percpu_counter_sum_6_18(fbc)
#define percpu_counter_add_batch	percpu_counter_add_batch_6_18
#define percpu_counter_add		percpu_counter_add_6_18

static inline int fprop_percpu_counter_init(struct percpu_counter *fbc, s64 amount)
{
	return __percpu_counter_init_many_6_18(fbc, amount, 1);
}

int fprop_global_init_6_18(struct fprop_global *p)
{
	int err;

	p->period = 0;
	/* Use 1 to avoid dealing with periods with 0 events... */
	err = fprop_percpu_counter_init(&p->events, 1);
	if (err)
		return err;
	seqcount_init(&p->sequence);
	return 0;
}

void fprop_global_destroy_6_18(struct fprop_global *p)
{
	percpu_counter_destroy_many_6_18(&p->events, 1);
}

/*
 * Declare @periods new periods. It is upto the caller to make sure period
 * transitions cannot happen in parallel.
 *
 * The function returns true if the proportions are still defined and false
 * if aging zeroed out all events. This can be used to detect whether declaring
 * further periods has any effect.
 */
bool fprop_new_period_6_18(struct fprop_global *p, int periods)
{
	s64 events = percpu_counter_sum(&p->events);

	/*
	 * Don't do anything if there are no events.
	 */
	if (events <= 1)
		return false;
	preempt_disable();
	write_seqcount_begin(&p->sequence);
	if (periods < 64)
		events -= events >> periods;
	/* Use addition to avoid losing events happening between sum and set */
	percpu_counter_add(&p->events, -events);
	WRITE_ONCE(p->period, p->period + (unsigned int)periods);
	write_seqcount_end(&p->sequence);
	preempt_enable();

	return true;
}

/*
 * ---- PERCPU ----
 */
#define PROP_BATCH (8*(1+ilog2(nr_cpu_ids)))

int fprop_local_init_percpu_6_18(struct fprop_local_percpu *pl)
{
	int err;

	err = fprop_percpu_counter_init(&pl->events, 0);
	if (err)
		return err;
	pl->period = 0;
	raw_spin_lock_init(&pl->lock);
	return 0;
}

void fprop_local_destroy_percpu_6_18(struct fprop_local_percpu *pl)
{
	percpu_counter_destroy_many_6_18(&pl->events, 1);
}

static void fprop_reflect_period_percpu(struct fprop_global *p,
					struct fprop_local_percpu *pl)
{
	unsigned int period = READ_ONCE(p->period);
	unsigned long flags;

	/* Fast path - period didn't change */
	if (READ_ONCE(pl->period) == period)
		return;
	raw_spin_lock_irqsave(&pl->lock, flags);
	/* Someone updated pl->period while we were spinning? */
	if (pl->period >= period) {
		raw_spin_unlock_irqrestore(&pl->lock, flags);
		return;
	}
	/* Aging zeroed our fraction? */
	if (period - pl->period < BITS_PER_LONG) {
		s64 val = percpu_counter_read(&pl->events);

		if (val < (nr_cpu_ids * PROP_BATCH))
			val = percpu_counter_sum(&pl->events);

		percpu_counter_add_batch(&pl->events,
			-val + (val >> (period-pl->period)), PROP_BATCH);
	} else
		percpu_counter_set_6_18(&pl->events, 0);
	WRITE_ONCE(pl->period, period);
	raw_spin_unlock_irqrestore(&pl->lock, flags);
}

/* Event of type pl happened */
void __fprop_add_percpu_6_18(struct fprop_global *p, struct fprop_local_percpu *pl, long nr)
{
	fprop_reflect_period_percpu(p, pl);
	percpu_counter_add_batch(&pl->events, nr, PROP_BATCH);
	percpu_counter_add(&p->events, nr);
}

void fprop_fraction_percpu_6_18(struct fprop_global *p,
				struct fprop_local_percpu *pl,
				unsigned long *numerator, unsigned long *denominator)
{
	unsigned int seq;
	s64 num, den;

	do {
		seq = read_seqcount_begin(&p->sequence);
		fprop_reflect_period_percpu(p, pl);
		num = percpu_counter_read_positive(&pl->events);
		den = percpu_counter_read_positive(&p->events);
	} while (read_seqcount_retry(&p->sequence, seq));

	/*
	 * Make fraction <= 1 and denominator > 0 even in presence of percpu
	 * counter errors
	 */
	if (den <= num) {
		if (num)
			den = num;
		else
			den = 1;
	}
	*denominator = (unsigned long)den;
	*numerator = (unsigned long)num;
}

/*
 * Like __fprop_add_percpu() except that event is counted only if the given
 * type has fraction smaller than @max_frac/FPROP_FRAC_BASE
 */
void __fprop_add_percpu_max_6_18(struct fprop_global *p,
				 struct fprop_local_percpu *pl, int max_frac, long nr)
{
	if (unlikely((unsigned long)max_frac < FPROP_FRAC_BASE)) {
		unsigned long numerator, denominator;
		s64 tmp;

		fprop_fraction_percpu_6_18(p, pl, &numerator, &denominator);
		/* Adding 'nr' to fraction exceeds max_frac/FPROP_FRAC_BASE? */
		tmp = (s64)((u64)denominator * (u64)max_frac -
			    ((u64)numerator << FPROP_FRAC_SHIFT));
		if (tmp < 0) {
			/* Maximum fraction already exceeded? */
			return;
		} else if ((u64)tmp < (u64)nr * (FPROP_FRAC_BASE - (unsigned long)max_frac)) {
			/* Add just enough for the fraction to saturate */
			nr = (long)(((u64)tmp + FPROP_FRAC_BASE - (u64)max_frac - 1) /
				    (u32)(FPROP_FRAC_BASE - (unsigned long)max_frac));
		}
	}

	__fprop_add_percpu_6_18(p, pl, nr);
}
