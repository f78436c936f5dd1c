// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The queued spinlock's slow path: queued_spin_lock_slowpath of Linux
 * 6.18's kernel/locking/qspinlock.c (blob af8d122b) without paravirt
 * (pv_enabled() false, virt_spin_lock false: kernel/qspinlock.h says why),
 * with kernel/locking/qspinlock.h's encode_tail, decode_tail,
 * grab_mcs_node, clear_pending, clear_pending_set_locked, xchg_tail
 * (_Q_PENDING_BITS == 8) and set_locked, and mcs_spinlock.h's contended
 * lock and unlock. The lock events and tracepoints are left out (off).
 *
 * Each wait is a spin_wait_step (processor.h): cpu_relax, and a yield
 * where emulated CPUs outnumber the real ones.
 */
#include <stddef.h>

#include "mmscale/errorf.h"
#include "mmscale/kernel/cpumask.h"
#include "mmscale/kernel/percpu.h"
#include "mmscale/kernel/qspinlock.h"

/* include/asm-generic/mcs_spinlock.h */
struct mcs_spinlock {
	struct mcs_spinlock *_Atomic next;
	_Atomic int locked;	/* 1 if lock acquired */
	int count;		/* nesting count, see qspinlock.c */
};

/* kernel/locking/qspinlock.h: a node is its mcs_spinlock (no paravirt reserve). */
#define _Q_MAX_NODES	4
/* arch/x86/include/asm/qspinlock.h: x86 waits out a pending hand-over longer than 1 loop. */
#define _Q_PENDING_LOOPS	(1 << 9)

struct qnode {
	struct mcs_spinlock mcs;
};

/* DEFINE_PER_CPU_ALIGNED(struct qnode, qnodes[_Q_MAX_NODES]): one line per CPU. */
static struct qnode *qnodes;	/* __percpu */

BUILD_BUG_ON(_Q_MAX_NODES * sizeof(struct qnode) != L1_CACHE_BYTES);

int qspinlock_boot(char *err, size_t errlen)
{
	qnodes = __alloc_percpu(_Q_MAX_NODES * sizeof(struct qnode), L1_CACHE_BYTES);
	if (!qnodes)
		return mmscale_errorf(err, errlen, "per-CPU units full: the queued spinlock's nodes");
	return 0;
}

void qspinlock_halt(void)
{
	free_percpu(qnodes);
	qnodes = NULL;
}

static inline u32 encode_tail(int cpu, int idx)
{
	u32 tail;

	tail  = (u32)(cpu + 1) << _Q_TAIL_CPU_OFFSET;
	tail |= (u32)idx << _Q_TAIL_IDX_OFFSET; /* assume < 4 */

	return tail;
}

static inline struct mcs_spinlock *decode_tail(u32 tail, struct qnode *nodes)
{
	int cpu = (int)(tail >> _Q_TAIL_CPU_OFFSET) - 1;
	int idx = (int)((tail & _Q_TAIL_IDX_MASK) >> _Q_TAIL_IDX_OFFSET);

	return &per_cpu_ptr(nodes, cpu)[idx].mcs;
}

static inline struct mcs_spinlock *grab_mcs_node(struct mcs_spinlock *base, int idx)
{
	return &((struct qnode *)base + idx)->mcs;
}

static __always_inline void clear_pending(struct qspinlock *lock)
{
	atomic_store_explicit(&lock->pending, 0, memory_order_relaxed);
}

static __always_inline void clear_pending_set_locked(struct qspinlock *lock)
{
	atomic_store_explicit(&lock->locked_pending, _Q_LOCKED_VAL, memory_order_relaxed);
}

static __always_inline u32 xchg_tail(struct qspinlock *lock, u32 tail)
{
	/*
	 * We can use relaxed semantics since the caller ensures that the
	 * MCS node is properly initialized before updating the tail.
	 */
	mmscale_count_inc(MMSCALE_LOCKED_OPS);
	/*
	 * acq_rel where the kernel's is relaxed: it relies on the address
	 * dependency from the old tail to the previous node, which C11 does
	 * not order; on x86 both are the same xchgw.
	 */
	return (u32)atomic_exchange_explicit(&lock->tail, (u16)(tail >> _Q_TAIL_OFFSET),
					     memory_order_acq_rel) << _Q_TAIL_OFFSET;
}

/*
 * x86's (arch/x86/include/asm/qspinlock.h): lock bts of the pending bit,
 * then a plain read of the rest of the word. Only the old pending bit of
 * the fetch-or is used, so the compiler emits lock btsl, as x86 (a whole
 * fetch-or result would be a lock cmpxchg loop).
 */
static __always_inline u32 queued_fetch_set_pending_acquire(struct qspinlock *lock)
{
	u32 val;

	mmscale_count_inc(MMSCALE_LOCKED_OPS);
	val = atomic_fetch_or_explicit(&lock->val, _Q_PENDING_VAL, memory_order_acquire) &
	      _Q_PENDING_VAL;
	/*
	 * Acquire where x86's is a plain load: when it is this read that sees
	 * the owner gone, it must order the critical section after the
	 * owner's release, as the fetch-or's acquire does when that sees it.
	 */
	val |= atomic_load_explicit(&lock->val, memory_order_acquire) & ~_Q_PENDING_MASK;
	return val;
}

static __always_inline void set_locked(struct qspinlock *lock)
{
	atomic_store_explicit(&lock->locked, _Q_LOCKED_VAL, memory_order_relaxed);
}

/*
 * mmscale: a word the queued lock can never hold (a locked or pending byte
 * above 1, a tail naming no CPU) is a lock some code took as a ticket lock
 * (spinlock.h: one generation's code per lock): loud, not a wild pointer.
 */
static void check_queued_word(u32 val)
{
	u32 tail_cpu = (val & _Q_TAIL_CPU_MASK) >> _Q_TAIL_CPU_OFFSET;

	if (unlikely((val & _Q_LOCKED_MASK) > _Q_LOCKED_VAL ||
		     (val & _Q_PENDING_MASK) > _Q_PENDING_VAL ||
		     (!tail_cpu && (val & _Q_TAIL_IDX_MASK)) || tail_cpu > nr_cpu_ids))
		mmscale_kernel_bug("a spinlock taken both as a ticket lock and as a queued lock");
}

void queued_spin_lock_slowpath(struct qspinlock *lock, u32 val)
{
	struct mcs_spinlock *prev, *next, *node;
	unsigned int spins = 0;
	u32 old, tail;
	int idx;

	check_queued_word(val);

	/*
	 * Wait for in-progress pending->locked hand-overs with a bounded
	 * number of spins so that we guarantee forward progress.
	 *
	 * 0,1,0 -> 0,0,1
	 */
	if (val == _Q_PENDING_VAL) {
		int cnt = _Q_PENDING_LOOPS;

		/* atomic_cond_read_relaxed(&lock->val, (VAL != _Q_PENDING_VAL) || !cnt--) */
		for (;;) {
			val = atomic_load_explicit(&lock->val, memory_order_relaxed);
			if (val != _Q_PENDING_VAL || !cnt--)
				break;
			spin_wait_step(&spins);
		}
	}

	/*
	 * If we observe any contention; queue.
	 */
	if (val & ~_Q_LOCKED_MASK)
		goto queue;

	/*
	 * trylock || pending
	 *
	 * 0,0,* -> 0,1,* -> 0,0,1 pending, trylock
	 */
	val = queued_fetch_set_pending_acquire(lock);

	/*
	 * If we observe contention, there is a concurrent locker.
	 *
	 * Undo and queue; our setting of PENDING might have made the
	 * n,0,0 -> 0,0,0 transition fail and it will now be waiting
	 * on @next to become !NULL.
	 */
	if (unlikely(val & ~_Q_LOCKED_MASK)) {
		/* Undo PENDING if we set it. */
		if (!(val & _Q_PENDING_MASK))
			clear_pending(lock);

		goto queue;
	}

	/*
	 * We're pending, wait for the owner to go away.
	 *
	 * 0,1,1 -> *,1,0
	 */
	if (val & _Q_LOCKED_MASK)
		while (atomic_load_explicit(&lock->locked, memory_order_acquire))
			spin_wait_step(&spins);	/* smp_cond_load_acquire(&lock->locked, !VAL) */

	/*
	 * take ownership and clear the pending bit.
	 *
	 * 0,1,0 -> 0,0,1
	 */
	clear_pending_set_locked(lock);
	queued_lock_acquired();
	return;

	/*
	 * End of pending bit optimistic spinning and beginning of MCS
	 * queuing.
	 */
queue:
	node = &this_cpu_ptr(qnodes)[0].mcs;
	idx = node->count++;
	tail = encode_tail(smp_processor_id(), idx);

	/*
	 * 4 nodes are allocated based on the assumption that there will
	 * not be nested NMIs taking spinlocks. When that fails, we fall
	 * back to spinning on the lock directly without using any MCS node.
	 */
	if (unlikely(idx >= _Q_MAX_NODES)) {
		while (!queued_spin_trylock(lock))
			spin_wait_step(&spins);
		goto release;
	}

	node = grab_mcs_node(node, idx);

	/*
	 * Ensure that we increment the head node->count before initialising
	 * the actual node. If the compiler is kind enough to reorder these
	 * stores, then an IRQ could overwrite our assignments.
	 */
	barrier();

	atomic_store_explicit(&node->locked, 0, memory_order_relaxed);
	atomic_store_explicit(&node->next, NULL, memory_order_relaxed);

	/*
	 * We touched a (possibly) cold cacheline in the per-cpu queue node;
	 * attempt the trylock once more in the hope someone let go while we
	 * weren't watching.
	 */
	if (queued_spin_trylock(lock))
		goto release;

	/*
	 * Ensure that the initialisation of @node is complete before we
	 * publish the updated tail via xchg_tail() and potentially link
	 * @node into the waitqueue via WRITE_ONCE(prev->next, node) below.
	 */
	smp_wmb();

	/*
	 * Publish the updated tail.
	 * We have already touched the queueing cacheline; don't bother with
	 * pending stuff.
	 *
	 * p,*,* -> n,*,*
	 */
	old = xchg_tail(lock, tail);
	next = NULL;

	/*
	 * if there was a previous node; link it and wait until reaching the
	 * head of the waitqueue.
	 */
	if (old & _Q_TAIL_MASK) {
		prev = decode_tail(old, qnodes);

		/* Link @node into the waitqueue (released: node's stores before it). */
		atomic_store_explicit(&prev->next, node, memory_order_release);

		/* arch_mcs_spin_lock_contended: smp_cond_load_acquire(&node->locked, VAL) */
		while (!atomic_load_explicit(&node->locked, memory_order_acquire))
			spin_wait_step(&spins);

		/*
		 * While waiting for the MCS lock, the next pointer may have
		 * been set by another lock waiter. We optimistically load
		 * the next pointer (the kernel prefetches its line for writing).
		 */
		next = atomic_load_explicit(&node->next, memory_order_acquire);
	}

	/*
	 * we're at the head of the waitqueue, wait for the owner & pending to
	 * go away.
	 *
	 * *,x,y -> *,0,0
	 *
	 * this wait loop must use a load-acquire such that we match the
	 * store-release that clears the locked bit and create lock
	 * sequentiality; this is because the set_locked() function below
	 * does not imply a full barrier.
	 */
	for (;;) {
		val = atomic_load_explicit(&lock->val, memory_order_acquire);
		if (!(val & _Q_LOCKED_PENDING_MASK))
			break;
		spin_wait_step(&spins);
	}

	/*
	 * claim the lock:
	 *
	 * n,0,0 -> 0,0,1 : lock, uncontended
	 * *,*,0 -> *,*,1 : lock, contended
	 *
	 * If the queue head is the only one in the queue (lock value == tail)
	 * and nobody is pending, clear the tail code and grab the lock.
	 * Otherwise, we only need to grab the lock.
	 */
	if ((val & _Q_TAIL_MASK) == tail) {
		mmscale_count_inc(MMSCALE_LOCKED_OPS);
		if (atomic_compare_exchange_strong_explicit(&lock->val, &val, _Q_LOCKED_VAL,
							    memory_order_relaxed,
							    memory_order_relaxed))
			goto release; /* No contention */
	}

	/*
	 * Either somebody is queued behind us or _Q_PENDING_VAL got set
	 * which will then detect the remaining tail and queue behind us
	 * ensuring we'll see a @next.
	 */
	set_locked(lock);

	/*
	 * contended path; wait for next if not observed yet, release.
	 */
	if (!next)
		while (!(next = atomic_load_explicit(&node->next, memory_order_acquire)))
			spin_wait_step(&spins);	/* smp_cond_load_relaxed(&node->next, (VAL)) */

	/* arch_mcs_spin_unlock_contended: smp_store_release(&next->locked, 1) */
	atomic_store_explicit(&next->locked, 1, memory_order_release);

release:
	queued_lock_acquired();
	/*
	 * release the node
	 */
	this_cpu_ptr(qnodes)[0].mcs.count--;
}
