/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Floating proportions with flexible aging period, as Linux 6.18 has them:
 * include/linux/flex_proportions.h and lib/flex_proportions.c (Jan Kara,
 * 2011; in mm/page-writeback.c since 3.6, eb608e3a344b, in place of 2.6.31's
 * lib/proportions.c, kernel/lib/proportions.c). Neither file is in
 * ../shared/kernel: the port is from the copy in xanmod/linux at commit
 * 00fe154600a3 (its fprop_new_period disables preemption around the
 * write section, 2022's "flex_proportions: Disable preemption entering the
 * write section"). The next change to the file, ff2d35ad7d54
 * ("flex_proportions: make fprop_new_period() hardirq safe", Jan Kara, posted
 * 21 Jan 2026), came after 6.18 and touches fprop_new_period only, which
 * no timed path here calls. Not blob-checked against a 6.18 tree.
 *
 * The global keeps the events of every type in a percpu_counter that
 * starts at 1, a period number and a seqcount; a local (one per
 * bdi_writeback: its writeback completions) keeps its events and the
 * period it last reflected, and is aged lazily when read or added to.
 * The fraction a reader gets is local events / global events, both
 * approximate percpu_counter reads.
 *
 * Emulated:
 * - seqcount_t is an unsigned int: the reader's begin is an acquire load
 *   that waits out an odd count, its retry an acquire fence and a
 *   compare; the writer's begin and end are release increments. The
 *   same loads as x86-64's (READ_ONCE and compiler barriers).
 * - pl->period, read outside pl->lock on the fast path (the kernel's
 *   intended race), is READ_ONCE/WRITE_ONCE, as is p->period.
 * - The percpu_counter reads are the same one load of fbc->count but are
 *   not counted: the bdp/ claims count wb_stat() reads as
 *   MMSCALE_BDI_READS (as 2.6.31's and 3.2's count bdi_stat()), and these
 *   are not those (kernel/lib/proportions.c does the same for 2.6.31's).
 *   Every add and sum is the 6.18 percpu_counter's, counted as it counts;
 *   percpu_counter_set, reached only by a local 64 periods stale, is
 *   2.6.31's (kernel/lib/percpu_counter.c), the same code as 6.18's but for
 *   its raw_spin_lock_irqsave.
 * - preempt_disable around the write section (preempt_disable_nested in
 *   some later copies) is a compiler barrier here either way.
 */
#ifndef MMSCALE_MM_FLEX_PROPORTIONS_6_18_H
#define MMSCALE_MM_FLEX_PROPORTIONS_6_18_H

#include <stdbool.h>

#include "mmscale/kernel/spinlock.h"
#include "mmscale/linux-6.18/lib/percpu_counter.h"

/* This header's names, as 6.18 has them (include/mmscale/linux-6.18/map.h). */
#define MMSCALE_6_18_MAP_WANT_FLEX_PROPORTIONS
#include "mmscale/linux-6.18/map.h"

/*
 * Built again for the virtual-time world (linux-6.18/lib/percpu_counter.h
 * says how; the names are in linux-6.18/map.h).
 */

/*
 * When maximum proportion of some event type is specified, this is the
 * precision with which we allow limitting. Note that this creates an upper
 * bound on the number of events per period like
 *   ULLONG_MAX >> FPROP_FRAC_SHIFT.
 */
#define FPROP_FRAC_SHIFT 10
#define FPROP_FRAC_BASE (1UL << FPROP_FRAC_SHIFT)

/* raw_spinlock_t: the emulated spinlock (the same ticket word; no RT kernel here). */
typedef spinlock_t raw_spinlock_t;

/* seqcount_t without lockdep: one sequence number. */
typedef struct {
	unsigned int sequence;
} seqcount_t;

/*
 * ---- Global proportion definitions ----
 */
struct fprop_global {
	/* Number of events in the current period */
	struct percpu_counter events;
	/* Current period */
	unsigned int period;
	/* Synchronization with period transitions */
	seqcount_t sequence;
};

/*
 * ---- PERCPU ----
 */
struct fprop_local_percpu {
	/* the local events counter */
	struct percpu_counter events;
	/* Period in which we last updated events */
	unsigned int period;
	raw_spinlock_t lock;	/* Protect period and numerator */
};

/* 6.18's layouts on x86-64 (the wb fields beside them depend on it). */
BUILD_BUG_ON(sizeof(struct fprop_global) != 48);
BUILD_BUG_ON(sizeof(struct fprop_local_percpu) != 48);

int fprop_global_init_6_18(struct fprop_global *p);
void fprop_global_destroy_6_18(struct fprop_global *p);
bool fprop_new_period_6_18(struct fprop_global *p, int periods);

int fprop_local_init_percpu_6_18(struct fprop_local_percpu *pl);
void fprop_local_destroy_percpu_6_18(struct fprop_local_percpu *pl);
void __fprop_add_percpu_6_18(struct fprop_global *p, struct fprop_local_percpu *pl, long nr);
void __fprop_add_percpu_max_6_18(struct fprop_global *p, struct fprop_local_percpu *pl,
				 int max_frac, long nr);
void fprop_fraction_percpu_6_18(struct fprop_global *p, struct fprop_local_percpu *pl,
				unsigned long *numerator, unsigned long *denominator);

#endif /* MMSCALE_MM_FLEX_PROPORTIONS_6_18_H */
