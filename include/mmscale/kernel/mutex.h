/* SPDX-License-Identifier: GPL-2.0 */
/*
 * struct mutex as far as mutex_trylock, mutex_lock_killable's fast path and
 * an uncontended mutex_unlock use it (kernel/locking/mutex.c since 4.10,
 * a6b8ecd4db90, through 6.18): the
 * owner word, which holds the owning task (0: unlocked). mutex_trylock
 * reads it and, when no task owns the lock, takes it with one cmpxchg;
 * mutex_unlock's fast path gives it back with one cmpxchg (no waiter can
 * have set a flag: nothing here sleeps on a mutex). Each cmpxchg is a
 * locked op (atomic.h counts it); a trylock that finds the lock owned
 * makes none. The wait_lock, wait_list and osq that follow owner in the
 * kernel's struct are not touched by these paths and are left out.
 */
#ifndef MMSCALE_KERNEL_MUTEX_H
#define MMSCALE_KERNEL_MUTEX_H

#include "atomic.h"
#include "processor.h"

struct mutex {
	atomic_long_t owner;
};

#define DEFINE_MUTEX(name)	struct mutex name = { ATOMIC_LONG_INIT(0) }

/*
 * current, as the owner word holds it: the address of a per-thread object,
 * one for the whole program (kernel/machine.c), so a mutex locked in one
 * file and unlocked in another has one owner.
 */
extern _Thread_local char mmscale_mutex_task;

static inline long mutex_current_task(void)
{
	return (long)(uintptr_t)&mmscale_mutex_task;
}

/* __mutex_trylock: 1 if the lock is now ours, 0 if a task owns it. */
static inline int mutex_trylock(struct mutex *lock)
{
	long owner = atomic_long_read(&lock->owner);

	for (;;) {
		long old;

		if (owner)
			return 0;
		old = atomic_long_cmpxchg(&lock->owner, owner, mutex_current_task());
		if (old == owner)
			return 1;
		owner = old;
	}
}

/*
 * mutex_lock_killable: __mutex_trylock_fast, one cmpxchg of the owner from
 * 0 to current. A lock another task owns would send the kernel to its
 * slow path (optimistic spinning on the owner, then sleeping on the
 * wait_list), which is not emulated: the caller spins on mutex_trylock
 * instead. Returns 0 (no signal ever kills an emulated task).
 */
static inline int mutex_lock_killable(struct mutex *lock)
{
	unsigned int spins = 0;

	if (atomic_long_cmpxchg(&lock->owner, 0, mutex_current_task()) == 0)
		return 0;
	while (!mutex_trylock(lock))
		spin_wait_step(&spins);
	return 0;
}

/* __mutex_unlock_fast: owner back to 0 (the slow path, for waiters, never runs here). */
static inline void mutex_unlock(struct mutex *lock)
{
	atomic_long_cmpxchg(&lock->owner, mutex_current_task(), 0);
}

#endif /* MMSCALE_KERNEL_MUTEX_H */
