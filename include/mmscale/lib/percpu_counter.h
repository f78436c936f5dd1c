/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Emulated percpu_counter, as include/linux/percpu_counter.h and
 * lib/percpu_counter.c of Linux 2.6.31: a spinlock-protected s64 count and a
 * per-CPU s32 delta, folded under the lock when it reaches the batch.
 *
 * fbc->count is read without the lock by percpu_counter_read(), and the
 * per-CPU deltas are read by other CPUs in __percpu_counter_sum(): the
 * kernel's plain accesses are READ_ONCE/WRITE_ONCE here (relaxed atomics),
 * the same single load or store, so ThreadSanitizer sees the races the
 * kernel has on purpose as atomic, not as bugs.
 *
 * Counts: percpu_counter_read*() counts MMSCALE_BDI_READS (these are the
 * bdi_stat() reads), __percpu_counter_sum() adds the CPUs it walked to
 * MMSCALE_PERCPU_SUM_SLOTS, a fold under the lock counts MMSCALE_FOLDS.
 */
#ifndef MMSCALE_MM_PERCPU_COUNTER_H
#define MMSCALE_MM_PERCPU_COUNTER_H

#include "mmscale/kernel/compiler.h"
#include "mmscale/kernel/list.h"
#include "mmscale/kernel/spinlock.h"
#include "mmscale/opcount.h"

/*
 * With CONFIG_HOTPLUG_CPU (every distro kernel), as 2.6.31 and 3.2 have
 * it: a list_head between count and counters, 40 bytes, which moves every
 * later field of a backing_dev_info. The kernel links every counter into
 * one global list at init for its CPU-hotplug walk; the emulation, which
 * takes no CPU offline, only initialises the node.
 */
struct percpu_counter {
	spinlock_t lock;
	s64 count;
	struct list_head list;	/* All percpu_counters are on a list */
	s32 *counters;		/* percpu pointer */
};

BUILD_BUG_ON(offsetof(struct percpu_counter, count) != 8);
BUILD_BUG_ON(offsetof(struct percpu_counter, counters) != 32);
BUILD_BUG_ON(sizeof(struct percpu_counter) != 40);

extern int percpu_counter_batch;

int percpu_counter_init(struct percpu_counter *fbc, s64 amount);
void percpu_counter_destroy(struct percpu_counter *fbc);
void percpu_counter_set(struct percpu_counter *fbc, s64 amount);
void __percpu_counter_add(struct percpu_counter *fbc, s64 amount, s32 batch);
s64 __percpu_counter_sum(struct percpu_counter *fbc);

static inline void percpu_counter_add(struct percpu_counter *fbc, s64 amount)
{
	__percpu_counter_add(fbc, amount, percpu_counter_batch);
}

static inline s64 percpu_counter_sum_positive(struct percpu_counter *fbc)
{
	s64 ret = __percpu_counter_sum(fbc);

	return ret < 0 ? 0 : ret;
}

static inline s64 percpu_counter_sum(struct percpu_counter *fbc)
{
	return __percpu_counter_sum(fbc);
}

static inline s64 percpu_counter_read(struct percpu_counter *fbc)
{
	mmscale_count_inc(MMSCALE_BDI_READS);
	return READ_ONCE(fbc->count);
}

/*
 * It is possible for the percpu_counter_read() to return a small negative
 * number for some counter which should never be negative. (2.6.31 returns 1
 * then; later kernels return 0.)
 */
static inline s64 percpu_counter_read_positive(struct percpu_counter *fbc)
{
	s64 ret = READ_ONCE(fbc->count);

	mmscale_count_inc(MMSCALE_BDI_READS);
	barrier();		/* Prevent reloads of fbc->count */
	if (ret >= 0)
		return ret;
	return 1;
}

static inline void percpu_counter_inc(struct percpu_counter *fbc)
{
	percpu_counter_add(fbc, 1);
}

static inline void percpu_counter_dec(struct percpu_counter *fbc)
{
	percpu_counter_add(fbc, -1);
}

#endif /* MMSCALE_MM_PERCPU_COUNTER_H */
