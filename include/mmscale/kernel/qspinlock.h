/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The queued spinlock x86 has used since 4.2 (qspinlock, the MCS queue of
 * Waiman Long and Peter Zijlstra), as Linux 6.18 builds it with
 * CONFIG_QUEUED_SPINLOCKS=y and NR_CPUS < 16K, from ../shared/kernel/6.18:
 * include/asm-generic/qspinlock_types.h (blob 2fd1fb89; the word's
 * layout), include/asm-generic/qspinlock.h (blob bf47cca2: the fast paths),
 * kernel/locking/qspinlock.h (blob d69958a8: the tail's encoding and the
 * byte and halfword stores) and kernel/locking/qspinlock.c (blob af8d122b:
 * the slow path, in kernel/qspinlock.c), include/asm-generic/mcs_spinlock.h
 * (blob 39c94012) and kernel/locking/mcs_spinlock.h (blob 5c92ba19).
 *
 * One 32-bit word: the locked byte, the pending byte, and a 16-bit tail
 * naming the last queued CPU and its node index. Uncontended, lock is one
 * cmpxchg of 0 to 1 and unlock a byte store; a second locker sets pending
 * and spins on the word; the third and later queue on per-CPU MCS nodes
 * and spin on their own node's line until the one before hands over, so
 * only the queue's head spins on the lock's line (where the ticket lock of
 * spinlock.h has every waiter spin on it).
 *
 * x86's own pieces (arch/x86/include/asm/qspinlock.h, not in ../shared):
 * queued_fetch_set_pending_acquire is a lock bts and a read there, here
 * an atomic fetch-or (the same locked RMW of the word); virt_spin_lock is
 * false on bare metal (it turns the lock into a test-and-set lock in guests
 * without paravirt spinlocks) and CONFIG_PARAVIRT_SPINLOCKS's hooks are
 * left out: the lock of a 6.18 server, not of a VM.
 *
 * Counts, as spinlock.h's: an acquisition counts MMSCALE_LOCK_ACQUIRES,
 * and MMSCALE_QUEUED_LOCK_ACQUIRES too (queued_lock_acquired: the row's
 * lock kind, counted, for the projection);
 * every locked instruction (the fast path's cmpxchg, the pending bit's
 * fetch-or, a trylock's cmpxchg, xchg_tail, the queue head's cmpxchg)
 * counts MMSCALE_LOCKED_OPS; unlock and the byte and halfword stores are
 * plain stores.
 */
#ifndef MMSCALE_KERNEL_QSPINLOCK_H
#define MMSCALE_KERNEL_QSPINLOCK_H

#include <stdatomic.h>
#include "compiler.h"
#include "processor.h"
#include "../opcount.h"

/* qspinlock_types.h, little-endian: val, or locked and pending, or locked_pending and tail. */
struct qspinlock {
	union {
		_Atomic u32 val;
		struct {
			_Atomic u8 locked;
			_Atomic u8 pending;
		};
		struct {
			_Atomic u16 locked_pending;
			_Atomic u16 tail;
		};
	};
};

BUILD_BUG_ON(sizeof(struct qspinlock) != 4);

#define _Q_LOCKED_OFFSET	0
#define _Q_LOCKED_BITS		8
#define _Q_LOCKED_MASK		(((1U << _Q_LOCKED_BITS) - 1) << _Q_LOCKED_OFFSET)
#define _Q_PENDING_OFFSET	(_Q_LOCKED_OFFSET + _Q_LOCKED_BITS)
#define _Q_PENDING_BITS		8	/* NR_CPUS < 16K */
#define _Q_PENDING_MASK		(((1U << _Q_PENDING_BITS) - 1) << _Q_PENDING_OFFSET)
#define _Q_TAIL_IDX_OFFSET	(_Q_PENDING_OFFSET + _Q_PENDING_BITS)
#define _Q_TAIL_IDX_BITS	2
#define _Q_TAIL_IDX_MASK	(((1U << _Q_TAIL_IDX_BITS) - 1) << _Q_TAIL_IDX_OFFSET)
#define _Q_TAIL_CPU_OFFSET	(_Q_TAIL_IDX_OFFSET + _Q_TAIL_IDX_BITS)
#define _Q_TAIL_CPU_BITS	(32 - _Q_TAIL_CPU_OFFSET)
#define _Q_TAIL_CPU_MASK	(((1U << _Q_TAIL_CPU_BITS) - 1) << _Q_TAIL_CPU_OFFSET)
#define _Q_TAIL_OFFSET		_Q_TAIL_IDX_OFFSET
#define _Q_TAIL_MASK		(_Q_TAIL_IDX_MASK | _Q_TAIL_CPU_MASK)
#define _Q_LOCKED_PENDING_MASK	(_Q_LOCKED_MASK | _Q_PENDING_MASK)
#define _Q_LOCKED_VAL		(1U << _Q_LOCKED_OFFSET)
#define _Q_PENDING_VAL		(1U << _Q_PENDING_OFFSET)

/* The per-CPU MCS nodes, _Q_MAX_NODES per CPU (kernel/qspinlock.c), from machine_boot. */
int qspinlock_boot(char *err, size_t errlen);
void qspinlock_halt(void);

void queued_spin_lock_slowpath(struct qspinlock *lock, u32 val);

static __always_inline int queued_spin_is_locked(struct qspinlock *lock)
{
	/* Any !0 state indicates it is locked, even if _Q_LOCKED_VAL isn't immediately observable. */
	return atomic_load_explicit(&lock->val, memory_order_relaxed) != 0;
}

/* Counts the cmpxchg it tries, not the acquisition (its callers do). */
static __always_inline int queued_spin_trylock(struct qspinlock *lock)
{
	u32 val = atomic_load_explicit(&lock->val, memory_order_relaxed);

	if (unlikely(val))
		return 0;
	mmscale_count_inc(MMSCALE_LOCKED_OPS);
	return likely(atomic_compare_exchange_strong_explicit(&lock->val, &val, _Q_LOCKED_VAL,
							      memory_order_acquire,
							      memory_order_relaxed));
}

/* An acquisition of a queued spinlock: one of the lock_acquires, and of this kind. */
static __always_inline void queued_lock_acquired(void)
{
	mmscale_count_inc(MMSCALE_LOCK_ACQUIRES);
	mmscale_count_inc(MMSCALE_QUEUED_LOCK_ACQUIRES);
}

static __always_inline void queued_spin_lock(struct qspinlock *lock)
{
	u32 val = 0;

	mmscale_count_inc(MMSCALE_LOCKED_OPS);
	if (likely(atomic_compare_exchange_strong_explicit(&lock->val, &val, _Q_LOCKED_VAL,
							   memory_order_acquire,
							   memory_order_relaxed))) {
		queued_lock_acquired();
		return;
	}
	queued_spin_lock_slowpath(lock, val);	/* counts its acquisition */
}

static __always_inline void queued_spin_unlock(struct qspinlock *lock)
{
	/* unlock() needs release semantics: */
	atomic_store_explicit(&lock->locked, 0, memory_order_release);
}

#endif /* MMSCALE_KERNEL_QSPINLOCK_H */
