// SPDX-License-Identifier: GPL-2.0
/*
 * Fast batching percpu counters of Linux 6.18: lib/percpu_counter.c
 * (../shared/kernel/6.18, blob 2891f94a), line by line; see
 * include/mmscale/linux-6.18/lib/percpu_counter.h for what is here and how the
 * per-CPU operations are emulated. Left out: lockdep classes, the debug
 * objects, percpu_counter_cpu_dead (no emulated CPU goes offline: the
 * dying mask is empty, so for_each_cpu_or(online, dying) is the online
 * CPUs).
 */
#include <limits.h>
#include <stdlib.h>

#include "mmscale/kernel/cpumask.h"
#include "mmscale/kernel/percpu.h"
#include "mmscale/linux-6.18/mm/percpu.h"
#include "mmscale/mm/config.h"
#include "mmscale/linux-6.18/lib/percpu_counter.h"
#include "mmscale/linux-6.18/lib/lazy_percpu_counter.h"

/* static LIST_HEAD(percpu_counters); static DEFINE_SPINLOCK(percpu_counters_lock); */
static struct list_head percpu_counters = { &percpu_counters, &percpu_counters };
static DEFINE_SPINLOCK(percpu_counters_lock);

#define ALIGN(x, a)	(((x) + (a) - 1) & ~((size_t)(a) - 1))

int percpu_counter_batch_6_18 = 32;

/* compute_batch_value (258-264), the hotplug callback every CPU online runs. */
void compute_batch_value_6_18(void)
{
	int nr = (int)num_online_cpus();

	percpu_counter_batch_6_18 = max(32, nr * 2);
	/* mmscale: --set percpu_counter_batch=N (mm/config.h). */
	if (mm_config()->percpu_counter_batch != MM_KNOB_AUTO)
		percpu_counter_batch_6_18 = mm_config()->percpu_counter_batch;
}

/*
 * this_cpu_try_cmpxchg(*fbc->counters, &count, count + amount): the macro
 * compares and stores in the variable's type (s32), and on failure writes
 * the s32 it found back into the s64 count.
 */
static inline bool counter_try_cmpxchg(s32 *pcount, s64 *count, s64 new)
{
	s32 old = (s32)*count;

	if (this_cpu_try_cmpxchg_s32(pcount, &old, (s32)new))
		return true;
	*count = old;
	return false;
}

/* percpu_counter_set (60-72): every possible CPU's count to 0, fbc->count to amount. */
void percpu_counter_set_6_18(struct percpu_counter *fbc, s64 amount)
{
	unsigned int cpu;
	unsigned long flags;

	spin_lock_irqsave(&fbc->lock, flags);	/* raw_ */
	for (cpu = 0; cpu < nr_cpu_ids; cpu++) {	/* for_each_possible_cpu */
		s32 *pcount = per_cpu_ptr(fbc->counters, cpu);

		WRITE_ONCE(*pcount, 0);
	}
	WRITE_ONCE(fbc->count, amount);
	spin_unlock_irqrestore(&fbc->lock, flags);
}

/*
 * Safety against interrupts is achieved in 2 ways:
 * 1. the fast path uses local cmpxchg (note: no lock prefix)
 * 2. the slow path operates with interrupts disabled
 */
void percpu_counter_add_batch_6_18(struct percpu_counter *fbc, s64 amount, s32 batch)
{
	s32 *pcount = this_cpu_ptr(fbc->counters);
	s64 count;
	unsigned long flags;

	count = READ_ONCE(*pcount);
	do {
		if (unlikely(llabs(count + amount) >= batch)) {
			spin_lock_irqsave(&fbc->lock, flags);	/* raw_ */
			/*
			 * Note: by now we might have migrated to another CPU
			 * or the value might have changed.
			 */
			count = READ_ONCE(*pcount);
			WRITE_ONCE(fbc->count, fbc->count + count + amount);
			WRITE_ONCE(*pcount, (s32)(READ_ONCE(*pcount) - count));	/* __this_cpu_sub */
			spin_unlock_irqrestore(&fbc->lock, flags);
			mmscale_count_inc(MMSCALE_FOLDS);
			return;
		}
	} while (!counter_try_cmpxchg(pcount, &count, count + amount));
}

/*
 * Add up all the per-cpu counts, return the result (171-185): under the
 * counter's lock with irqs off, over the CPUs online or dying (no emulated
 * CPU is ever dying, so the online ones).
 */
s64 __percpu_counter_sum_6_18(struct percpu_counter *fbc)
{
	s64 ret;
	unsigned int cpu;
	unsigned long flags;

	spin_lock_irqsave(&fbc->lock, flags);	/* raw_ */
	ret = fbc->count;
	for_each_online_cpu(cpu) {
		s32 *pcount = per_cpu_ptr(fbc->counters, cpu);

		ret += READ_ONCE(*pcount);
		mmscale_count_inc(MMSCALE_PERCPU_SUM_SLOTS);
	}
	spin_unlock_irqrestore(&fbc->lock, flags);
	return ret;
}

int __percpu_counter_init_many_6_18(struct percpu_counter *fbc, s64 amount, u32 nr_counters)
{
	unsigned long flags;
	size_t counter_size;
	s32 *counters;
	u32 i;

	counter_size = ALIGN(sizeof(*counters), __alignof__(*counters));
	/* __alloc_percpu_gfp(..., gfp): 6.18's allocator locks (linux-6.18/mm/percpu.h). */
	counters = __alloc_percpu_gfp_6_18(nr_counters * counter_size, __alignof__(*counters));
	if (!counters) {
		fbc[0].counters = NULL;
		return -1;	/* -ENOMEM */
	}

	for (i = 0; i < nr_counters; i++) {
		spin_lock_init(&fbc[i].lock);
		INIT_LIST_HEAD(&fbc[i].list);
		fbc[i].count = amount;
		fbc[i].counters = (s32 *)(void *)((char *)counters + i * counter_size);
	}

	/* CONFIG_HOTPLUG_CPU */
	spin_lock_irqsave(&percpu_counters_lock, flags);
	for (i = 0; i < nr_counters; i++)
		list_add(&fbc[i].list, &percpu_counters);
	spin_unlock_irqrestore(&percpu_counters_lock, flags);
	return 0;
}

void percpu_counter_destroy_many_6_18(struct percpu_counter *fbc, u32 nr_counters)
{
	unsigned long flags;
	u32 i;

	if (!fbc)
		return;

	if (!fbc[0].counters)
		return;

	/* CONFIG_HOTPLUG_CPU */
	spin_lock_irqsave(&percpu_counters_lock, flags);
	for (i = 0; i < nr_counters; i++)
		list_del(&fbc[i].list);
	spin_unlock_irqrestore(&percpu_counters_lock, flags);

	free_percpu_6_18(fbc[0].counters);

	for (i = 0; i < nr_counters; i++)
		fbc[i].counters = NULL;
}

/*
 * Compare counter against given value.
 * Return 1 if greater, 0 if equal and -1 if less
 */
int __percpu_counter_compare_6_18(struct percpu_counter *fbc, s64 rhs, s32 batch)
{
	s64 count;

	count = percpu_counter_read(fbc);
	/*
	 * Check to see if rough count will be sufficient for comparison (the
	 * kernel's s32 * unsigned int: a 32-bit unsigned product).
	 */
	if (llabs(count - rhs) > (s64)((u32)batch * num_online_cpus())) {
		if (count > rhs)
			return 1;
		else
			return -1;
	}
	/* Need to use precise count */
	count = __percpu_counter_sum_6_18(fbc);
	if (count > rhs)
		return 1;
	else if (count < rhs)
		return -1;
	else
		return 0;
}

/*
 * Compare counter, and add amount if total is: less than or equal to limit
 * if amount is positive, or greater than or equal to limit if amount is
 * negative. Return true if amount is added, or false if total would be
 * beyond the limit.
 */
bool __percpu_counter_limited_add_6_18(struct percpu_counter *fbc, s64 limit, s64 amount,
				       s32 batch)
{
	s32 *pcount = this_cpu_ptr(fbc->counters);
	unsigned long flags;
	s64 count;
	s64 unknown;
	bool good = false;

	if (amount == 0)
		return true;

	local_irq_save(flags);
	unknown = (s64)((u32)batch * num_online_cpus());	/* 32-bit, as the kernel's */
	count = READ_ONCE(*pcount);

	/* Skip taking the lock when safe */
	if (llabs(count + amount) <= batch &&
	    ((amount > 0 && READ_ONCE(fbc->count) + unknown <= limit) ||
	     (amount < 0 && READ_ONCE(fbc->count) - unknown >= limit))) {
		WRITE_ONCE(*pcount, (s32)(count + amount));	/* this_cpu_add */
		local_irq_restore(flags);
		return true;
	}

	spin_lock(&fbc->lock);	/* raw_ */
	count = fbc->count + amount;

	/* Skip percpu_counter_sum() when safe */
	if (amount > 0) {
		if (count - unknown > limit)
			goto out;
		if (count + unknown <= limit)
			good = true;
	} else {
		if (count + unknown < limit)
			goto out;
		if (count - unknown >= limit)
			good = true;
	}

	if (!good) {
		unsigned int cpu;

		for_each_online_cpu(cpu) {
			count += READ_ONCE(*per_cpu_ptr(fbc->counters, cpu));
			mmscale_count_inc(MMSCALE_PERCPU_SUM_SLOTS);
		}
		if (amount > 0) {
			if (count > limit)
				goto out;
		} else {
			if (count < limit)
				goto out;
		}
		good = true;
	}

	count = READ_ONCE(*pcount);
	WRITE_ONCE(fbc->count, fbc->count + count + amount);
	WRITE_ONCE(*pcount, (s32)(READ_ONCE(*pcount) - count));
	mmscale_count_inc(MMSCALE_FOLDS);
out:
	spin_unlock(&fbc->lock);
	local_irq_restore(flags);
	return good;
}

/*
 * Not 6.18's: Krisman's RFC 2/4 (<20251127233635.4170047-3-krisman@suse.de>,
 * not merged) adds this to lib/percpu_counter.c, with 1/4's
 * cpu_hotplug_add_watchlist (the list_add loop of init_many, under
 * percpu_counters_lock) inlined here: 6.18's init_many above keeps its own
 * loop. include/mmscale/linux-6.18/lib/lazy_percpu_counter.h says where it
 * comes from. The xchg swaps each lazy counter's remote for its s32s;
 * percpu_counter_add_local puts what the remote held on this CPU's s32.
 */
int __lazy_percpu_counter_upgrade_many(struct lazy_percpu_counter *counters, int nr_counters)
{
	unsigned long flags;
	size_t counter_size;
	s32 *pcpu_mem;

	counter_size = ALIGN(sizeof(*pcpu_mem), __alignof__(*pcpu_mem));
	pcpu_mem = __alloc_percpu_gfp_6_18((size_t)nr_counters * counter_size, __alignof__(*pcpu_mem));
	if (!pcpu_mem)
		return -1;	/* -ENOMEM */

	for (int i = 0; i < nr_counters; i++) {
		struct lazy_percpu_counter *lpc = &counters[i];
		s32 *n_counter;
		s64 remote;

		/* After the xchg, lazy_percpu_counter behaves as a regular percpu counter. */
		n_counter = (s32 *)(void *)((char *)pcpu_mem + (size_t)i * counter_size);
		remote = atomic_long_xchg(&lpc->remote, (long)(uintptr_t)n_counter);
		if (!(remote & LAZY_INIT_BIAS))	/* BUG_ON */
			mmscale_kernel_bug("lazy_percpu_counter upgraded twice");
		/* percpu_counter_add_local: the batch PERCPU_COUNTER_LOCAL_BATCH, INT_MAX */
		percpu_counter_add_batch_6_18(&lpc->c, remove_bias(remote), INT_MAX);
	}

	/* cpu_hotplug_add_watchlist (1/4), CONFIG_HOTPLUG_CPU */
	spin_lock_irqsave(&percpu_counters_lock, flags);
	for (int i = 0; i < nr_counters; i++) {
		INIT_LIST_HEAD(&counters[i].c.list);
		list_add(&counters[i].c.list, &percpu_counters);
	}
	spin_unlock_irqrestore(&percpu_counters_lock, flags);
	return 0;
}
