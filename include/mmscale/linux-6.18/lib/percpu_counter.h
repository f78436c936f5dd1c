/* SPDX-License-Identifier: GPL-2.0 */
/*
 * percpu_counter as Linux 6.18 has it: lib/percpu_counter.c (blob
 * 2891f94a) and include/linux/percpu_counter.h (blob 3a44dd1e) of
 * ../shared/kernel/6.18. struct percpu_counter has 2.6.31's layout still
 * (a raw_spinlock_t, s64 count, the CPU-hotplug list_head, s32 __percpu
 * *counters: percpu_counter.h 22-29), so the type is shared with
 * percpu_counter.h; the functions are 6.18's, with the suffix _6_18:
 *
 * - percpu_counter_add_batch (93-113): with CONFIG_HAVE_CMPXCHG_LOCAL a
 *   this_cpu_try_cmpxchg fast path (6.11; x86's cmpxchg without the lock
 *   prefix, kernel/percpu.h) while |count + amount| stays under the
 *   batch, else fbc->lock with irqs off, folding the CPU's count and the
 *   amount;
 * - __percpu_counter_sum (171-185), under the lock, over the online CPUs;
 * - __percpu_counter_init_many (188-225) and percpu_counter_destroy_many
 *   (227-253): nr counters' per-CPU s32 in one percpu allocation (6.6,
 *   c439d5e8a0de), each counter linked on the global percpu_counters list
 *   under percpu_counters_lock (CONFIG_HOTPLUG_CPU): one acquisition of
 *   that machine-wide lock at init and one at destroy;
 * - compute_batch_value (258-264): max(32, 2 * online CPUs);
 * - __percpu_counter_compare (292-312) and __percpu_counter_limited_add
 *   (327-392).
 *
 * Counts: percpu_counter_read*() counts MMSCALE_BDI_READS, a sum adds the
 * CPUs it walked to MMSCALE_PERCPU_SUM_SLOTS, a fold under fbc->lock
 * counts MMSCALE_FOLDS; the spinlocks count MMSCALE_LOCK_ACQUIRES.
 */
#ifndef MMSCALE_MM_PERCPU_COUNTER_6_18_H
#define MMSCALE_MM_PERCPU_COUNTER_6_18_H

#include <stdbool.h>

#include "mmscale/lib/percpu_counter.h"
#include "mmscale/kernel/cpumask.h"
#include "mmscale/mm/throttle_kernel.h"

/* This header's names, as 6.18 has them (include/mmscale/linux-6.18/map.h). */
#define MMSCALE_6_18_MAP_WANT_PERCPU_COUNTER
#include "mmscale/linux-6.18/map.h"

#ifdef MMSCALE_WB_6_18_WORLD
/*
 * Built for the virtual-time world (kernel/linux-6.18/world/throttle.c runs 6.18's
 * dirty throttling there, on one thread): the counters are
 * kernel/linux-6.18/world/throttle_percpu_counter.c's, each CPU's s32 in a plain
 * array indexed by the world's CPU (exact unless the world models the
 * per-CPU error), and nr_cpu_ids is the world's.
 */
#define nr_cpu_ids				((unsigned int)throttle_nr_cpus())
/* The reads: counted as below, and the gap from the exact count noted. */
s64 percpu_counter_read_6_18_world(struct percpu_counter *fbc);
s64 percpu_counter_read_positive_6_18(struct percpu_counter *fbc);
#endif

/* percpu_counter_batch of 6.18: compute_batch_value at every CPU up/down. */
extern int percpu_counter_batch_6_18;
void compute_batch_value_6_18(void);

int __percpu_counter_init_many_6_18(struct percpu_counter *fbc, s64 amount, u32 nr_counters);
/* Every CPU's count to 0, fbc->count to amount, under the lock (60-72; the world's: map.h). */
void percpu_counter_set_6_18(struct percpu_counter *fbc, s64 amount);
void percpu_counter_destroy_many_6_18(struct percpu_counter *fbc, u32 nr_counters);
void percpu_counter_add_batch_6_18(struct percpu_counter *fbc, s64 amount, s32 batch);
s64 __percpu_counter_sum_6_18(struct percpu_counter *fbc);
int __percpu_counter_compare_6_18(struct percpu_counter *fbc, s64 rhs, s32 batch);
bool __percpu_counter_limited_add_6_18(struct percpu_counter *fbc, s64 limit, s64 amount,
				       s32 batch);

static inline void percpu_counter_add_6_18(struct percpu_counter *fbc, s64 amount)
{
	percpu_counter_add_batch_6_18(fbc, amount, percpu_counter_batch_6_18);
}

#ifndef MMSCALE_WB_6_18_WORLD
/* 6.18 returns 0 for a negative count (2.6.31: 1). */
static inline s64 percpu_counter_read_positive_6_18(struct percpu_counter *fbc)
{
	/* Prevent reloads of fbc->count */
	s64 ret = READ_ONCE(fbc->count);

	mmscale_count_inc(MMSCALE_BDI_READS);
	if (ret >= 0)
		return ret;
	return 0;
}
#endif

static inline s64 percpu_counter_sum_positive_6_18(struct percpu_counter *fbc)
{
	s64 ret = __percpu_counter_sum_6_18(fbc);

	return ret < 0 ? 0 : ret;
}

#endif /* MMSCALE_MM_PERCPU_COUNTER_6_18_H */
