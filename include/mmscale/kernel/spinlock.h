/* SPDX-License-Identifier: GPL-2.0 */
/*
 * spinlock_t as x86 builds it, by kernel generation: the ticket lock of
 * 2.6.25 to 4.1 (arch/x86/include/asm/spinlock.h), or, in a file built
 * with MMSCALE_QUEUED_SPINLOCKS (every Linux 6.18 file: CMakeLists.txt),
 * the queued spinlock x86 has used since 4.2 (qspinlock.h). The two share
 * the lock's 4 bytes, and both take 0 for unlocked at init; a lock must
 * only ever be taken by one generation's code (a file of another
 * generation calls that generation's functions, e.g. 6.18's
 * percpu_counter_set_6_18, never 2.6.31's on a 6.18 counter). Nothing
 * checks that at build time; the queued slow path stops loudly on a word
 * the ticket lock left (kernel/qspinlock.c).
 *
 * The ticket lock: a head and a tail ticket in one word; lock takes a
 * ticket with an atomic add on tail and spins until head reaches it;
 * unlock bumps head. Waiters are served in FIFO order and every waiter
 * spins on the same line, which is part of what is measured when many
 * CPUs contend for zone->lock.
 *
 * Head and tail are two 16-bit atomics in one 32-bit word (the kernel's
 * layout for NR_CPUS >= 256); C11 cannot xadd one half of a word it also
 * reads as a whole, so tail is taken with a fetch-add on the tail half. The
 * line traffic is the same.
 *
 * spin_lock() counts MMSCALE_LOCK_ACQUIRES, and its xadd MMSCALE_LOCKED_OPS
 * (as spin_trylock's cmpxchg, when it tries one); unlock is a plain add.
 * The queued lock counts alike, and MMSCALE_QUEUED_LOCK_ACQUIRES beside
 * (qspinlock.h): a row's ticket acquisitions are the difference.
 */
#ifndef MMSCALE_KERNEL_SPINLOCK_H
#define MMSCALE_KERNEL_SPINLOCK_H

#include <stdatomic.h>
#include "compiler.h"
#include "processor.h"
#include "qspinlock.h"
#include "../opcount.h"

typedef u16 __ticket_t;

typedef union {
	struct {			/* the ticket lock */
		_Atomic __ticket_t head;
		_Atomic __ticket_t tail;
	};
	struct qspinlock q;		/* the queued lock */
} spinlock_t;

BUILD_BUG_ON(sizeof(spinlock_t) != 4);

#define __SPIN_LOCK_UNLOCKED	{ { 0, 0 } }
#define DEFINE_SPINLOCK(x)	spinlock_t x = __SPIN_LOCK_UNLOCKED

/* Unlocked, for either kind: all four bytes 0. */
static __always_inline void spin_lock_init(spinlock_t *lock)
{
	atomic_store_explicit(&lock->head, 0, memory_order_relaxed);
	atomic_store_explicit(&lock->tail, 0, memory_order_relaxed);
}

static __always_inline void ticket_spin_lock(spinlock_t *lock)
{
	__ticket_t ticket = atomic_fetch_add_explicit(&lock->tail, 1,
						      memory_order_relaxed);
	unsigned int spins = 0;

	mmscale_count_inc(MMSCALE_LOCKED_OPS);

	while (atomic_load_explicit(&lock->head, memory_order_acquire) != ticket)
		spin_wait_step(&spins);
	mmscale_count_inc(MMSCALE_LOCK_ACQUIRES);
}

static __always_inline bool ticket_spin_trylock(spinlock_t *lock)
{
	/*
	 * Acquire: the last holder released the lock by its store to head, and
	 * a successful trylock must see what that holder wrote (a plain load on
	 * x86, as spin_lock's spin on head is).
	 */
	__ticket_t head = atomic_load_explicit(&lock->head, memory_order_acquire);
	__ticket_t expect = head;

	if (atomic_load_explicit(&lock->tail, memory_order_relaxed) != head)
		return false;
	mmscale_count_inc(MMSCALE_LOCKED_OPS);
	if (!atomic_compare_exchange_strong_explicit(&lock->tail, &expect,
						     (__ticket_t)(head + 1),
						     memory_order_acquire,
						     memory_order_relaxed))
		return false;
	/*
	 * tail was still head when we took it, and head never passes tail:
	 * head is our ticket, the lock is ours.
	 */
	mmscale_count_inc(MMSCALE_LOCK_ACQUIRES);
	return true;
}

static __always_inline void ticket_spin_unlock(spinlock_t *lock)
{
	/* Only the holder writes head: a plain increment, released. */
	__ticket_t head = atomic_load_explicit(&lock->head, memory_order_relaxed);

	atomic_store_explicit(&lock->head, (__ticket_t)(head + 1),
			      memory_order_release);
}

static __always_inline bool ticket_spin_is_locked(spinlock_t *lock)
{
	return atomic_load_explicit(&lock->head, memory_order_relaxed) !=
	       atomic_load_explicit(&lock->tail, memory_order_relaxed);
}

#ifdef MMSCALE_QUEUED_SPINLOCKS
static __always_inline void spin_lock(spinlock_t *lock)
{
	queued_spin_lock(&lock->q);
}

static __always_inline bool spin_trylock(spinlock_t *lock)
{
	if (!queued_spin_trylock(&lock->q))
		return false;
	queued_lock_acquired();
	return true;
}

static __always_inline void spin_unlock(spinlock_t *lock)
{
	queued_spin_unlock(&lock->q);
}

static __always_inline bool spin_is_locked(spinlock_t *lock)
{
	return queued_spin_is_locked(&lock->q);
}
#else
#define spin_lock(lock)		ticket_spin_lock(lock)
#define spin_trylock(lock)	ticket_spin_trylock(lock)
#define spin_unlock(lock)	ticket_spin_unlock(lock)
#define spin_is_locked(lock)	ticket_spin_is_locked(lock)
#endif

#define spin_lock_irqsave(lock, flags)	do { local_irq_save(flags); spin_lock(lock); } while (0)
#define spin_unlock_irqrestore(lock, flags) do { spin_unlock(lock); local_irq_restore(flags); } while (0)
#define spin_lock_irq(lock)		spin_lock(lock)
#define spin_unlock_irq(lock)		spin_unlock(lock)

#endif /* MMSCALE_KERNEL_SPINLOCK_H */
