/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Gabriel Krisman Bertazi's lazy (dual-mode) per-CPU counter, "[RFC PATCH
 * 0/4] Optimize rss_stat initialization/teardown for single-threaded
 * tasks" <20251127233635.4170047-1-krisman@suse.de> (27 Nov 2025, on
 * 6.18-era mm; not merged): 2/4 "lib: Support lazy initialization of
 * per-cpu counters" <20251127233635.4170047-3-krisman@suse.de>,
 * include/linux/lazy_percpu_counter.h, ported line by line (the four
 * patches as git format-patch text, /work/ref/issue42: mauri870/linux-kernel
 * 0004-mm_lazy_rss_stat.patch at 8f7ea5d1, blob 6ec5981b; the cover
 * letter is stored only in part).
 *
 * A counter starts lazy: c.count is a plain counter the owning task adds
 * to, and remote, which the RFC puts in a union with c.counters (its
 * include/linux/percpu_counter.h hunk), an atomic long holding the value
 * shifted left by one with bit 0 set (LAZY_INIT_BIAS: "not upgraded"),
 * added to with a cmpxchg loop. __lazy_percpu_counter_upgrade_many
 * (kernel/linux-6.18/lib/percpu_counter.c, the RFC's) allocates the
 * per-CPU s32s, swaps each remote for its pointer and from then on the
 * counter is 6.18's percpu_counter.
 *
 * The union is emulated over the shared struct percpu_counter: remote
 * overlays counters (both 8 bytes), as in the RFC.
 */
#ifndef MMSCALE_LINUX_6_18_LAZY_PERCPU_COUNTER_H
#define MMSCALE_LINUX_6_18_LAZY_PERCPU_COUNTER_H

#include <stddef.h>

#include "mmscale/kernel/atomic.h"
#include "mmscale/linux-6.18/lib/percpu_counter.h"

struct lazy_percpu_counter {
	union {
		struct percpu_counter c;
		struct {
			unsigned char before_counters[offsetof(struct percpu_counter, counters)];
			atomic_long_t remote;	/* union { s32 __percpu *counters; atomic_long_t remote; } */
		};
	};
};

BUILD_BUG_ON(offsetof(struct lazy_percpu_counter, remote) !=
	     offsetof(struct lazy_percpu_counter, c.counters));
BUILD_BUG_ON(sizeof(atomic_long_t) != sizeof(s32 *));

#define LAZY_INIT_BIAS (1<<0)

static inline s64 remove_bias(long val)
{
	return val >> 1;
}

static inline bool lazy_percpu_counter_initialized(struct lazy_percpu_counter *lpc)
{
	return !(atomic_long_read(&lpc->remote) & LAZY_INIT_BIAS);
}

static inline void lazy_percpu_counter_init_many(struct lazy_percpu_counter *lpc, int amount,
						 int nr_counters)
{
	for (int i = 0; i < nr_counters; i++) {
		lpc[i].c.count = amount;
		atomic_long_set(&lpc[i].remote, LAZY_INIT_BIAS);
		spin_lock_init(&lpc[i].c.lock);
	}
}

static inline void lazy_percpu_counter_add_atomic(struct lazy_percpu_counter *lpc, s64 amount)
{
	long x = (long)((unsigned long)amount << 1);
	long counter;

	do {
		counter = atomic_long_read(&lpc->remote);
		if (!(counter & LAZY_INIT_BIAS)) {
			percpu_counter_add_6_18(&lpc->c, amount);
			return;
		}
	} while (atomic_long_cmpxchg(&lpc->remote, counter, counter + x) != counter);	/* _relaxed */
}

static inline void lazy_percpu_counter_add_fast(struct lazy_percpu_counter *lpc, s64 amount)
{
	if (lazy_percpu_counter_initialized(lpc))
		percpu_counter_add_6_18(&lpc->c, amount);
	else
		lpc->c.count += amount;
}

/* Protected against concurrent local updates by the caller (check_mm: the mm is dead). */
static inline s64 lazy_percpu_counter_sum_local(struct lazy_percpu_counter *lpc)
{
	if (lazy_percpu_counter_initialized(lpc))
		return __percpu_counter_sum_6_18(&lpc->c);

	lazy_percpu_counter_add_atomic(lpc, lpc->c.count);
	lpc->c.count = 0;
	return remove_bias(atomic_long_read(&lpc->remote));
}

static inline s64 lazy_percpu_counter_sum(struct lazy_percpu_counter *lpc)
{
	if (lazy_percpu_counter_initialized(lpc))
		return __percpu_counter_sum_6_18(&lpc->c);
	return remove_bias(atomic_long_read(&lpc->remote)) + READ_ONCE(lpc->c.count);
}

static inline s64 lazy_percpu_counter_sum_positive(struct lazy_percpu_counter *lpc)
{
	s64 val = lazy_percpu_counter_sum(lpc);

	return (val > 0) ? val : 0;
}

static inline s64 lazy_percpu_counter_read(struct lazy_percpu_counter *lpc)
{
	if (lazy_percpu_counter_initialized(lpc))
		return percpu_counter_read(&lpc->c);
	return remove_bias(atomic_long_read(&lpc->remote)) + READ_ONCE(lpc->c.count);
}

static inline s64 lazy_percpu_counter_read_positive(struct lazy_percpu_counter *lpc)
{
	s64 val = lazy_percpu_counter_read(lpc);

	return (val > 0) ? val : 0;
}

/* -1 (-ENOMEM) when the per-CPU units are full. */
int __lazy_percpu_counter_upgrade_many(struct lazy_percpu_counter *c, int nr_counters);

static inline int lazy_percpu_counter_upgrade_many(struct lazy_percpu_counter *c, int nr_counters)
{
	/* Only the first: a batch is upgraded together. */
	if (!lazy_percpu_counter_initialized(c))
		return __lazy_percpu_counter_upgrade_many(c, nr_counters);
	return 0;
}

static inline void lazy_percpu_counter_destroy_many(struct lazy_percpu_counter *lpc,
						    u32 nr_counters)
{
	/* Only the first: they were initialised together. */
	if (lazy_percpu_counter_initialized(lpc))
		percpu_counter_destroy_many_6_18((struct percpu_counter *)lpc, nr_counters);
}

#endif /* MMSCALE_LINUX_6_18_LAZY_PERCPU_COUNTER_H */
