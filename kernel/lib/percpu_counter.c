// SPDX-License-Identifier: GPL-2.0
/*
 * Fast batching percpu counters: lib/percpu_counter.c of Linux 2.6.31
 * (less the CPU-hotplug list, which an emulated machine never needs).
 */
#include "mmscale/kernel/cpumask.h"
#include "mmscale/kernel/percpu.h"
#include "mmscale/mm/config.h"
#include "mmscale/lib/percpu_counter.h"

int percpu_counter_batch = 32;	/* compute_batch_value(): max(32, 2 * nr_cpus) */

void percpu_counter_set(struct percpu_counter *fbc, s64 amount)
{
	unsigned int cpu;

	spin_lock(&fbc->lock);
	for_each_possible_cpu(cpu) {
		s32 *pcount = per_cpu_ptr(fbc->counters, cpu);

		WRITE_ONCE(*pcount, 0);
	}
	WRITE_ONCE(fbc->count, amount);
	spin_unlock(&fbc->lock);
}

void __percpu_counter_add(struct percpu_counter *fbc, s64 amount, s32 batch)
{
	s64 count;
	s32 *pcount;
	int cpu = get_cpu();

	pcount = per_cpu_ptr(fbc->counters, cpu);
	count = READ_ONCE(*pcount) + amount;
	if (count >= batch || count <= -batch) {
		spin_lock(&fbc->lock);
		WRITE_ONCE(fbc->count, fbc->count + count);
		WRITE_ONCE(*pcount, 0);
		spin_unlock(&fbc->lock);
		mmscale_count_inc(MMSCALE_FOLDS);
	} else {
		WRITE_ONCE(*pcount, (s32)count);
	}
	put_cpu();
}

/*
 * Add up all the per-cpu counts, return the result. This is a more accurate
 * but much slower version of percpu_counter_read_positive()
 */
s64 __percpu_counter_sum(struct percpu_counter *fbc)
{
	s64 ret;
	unsigned int cpu;

	spin_lock(&fbc->lock);
	ret = fbc->count;
	for_each_online_cpu(cpu) {
		s32 *pcount = per_cpu_ptr(fbc->counters, cpu);

		ret += READ_ONCE(*pcount);
		mmscale_count_inc(MMSCALE_PERCPU_SUM_SLOTS);
	}
	spin_unlock(&fbc->lock);
	return ret;
}

int percpu_counter_init(struct percpu_counter *fbc, s64 amount)
{
	spin_lock_init(&fbc->lock);
	fbc->count = amount;
	INIT_LIST_HEAD(&fbc->list);
	fbc->counters = alloc_percpu(s32);
	if (!fbc->counters)
		return -1;
	/* compute_batch_value(), as the kernel does at boot. */
	percpu_counter_batch = max(32, (int)(2 * num_online_cpus()));
	/* mmscale: --set percpu_counter_batch=N (mm/config.h). */
	if (mm_config()->percpu_counter_batch != MM_KNOB_AUTO)
		percpu_counter_batch = mm_config()->percpu_counter_batch;
	return 0;
}

void percpu_counter_destroy(struct percpu_counter *fbc)
{
	if (!fbc->counters)
		return;
	free_percpu(fbc->counters);
	fbc->counters = NULL;
}
