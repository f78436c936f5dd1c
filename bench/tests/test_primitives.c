// SPDX-License-Identifier: GPL-2.0
/* The kernel-style primitives: ticket and queued locks, lists, cpumask, bitops, atomics, percpu. */
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "mmscale/cpu.h"
#include "mmscale/kernel/atomic.h"
#include "mmscale/kernel/cpumask.h"
#include "mmscale/kernel/list.h"
#include "mmscale/kernel/percpu.h"
#include "mmscale/kernel/qspinlock.h"
#include "mmscale/kernel/spinlock.h"
#include "mmscale/notice.h"
#include "mmscale/opcount.h"
#include "mmscale/topology.h"

#define LOCK_THREADS	4
#define LOCK_ROUNDS	20000

static spinlock_t test_lock = __SPIN_LOCK_UNLOCKED;
static struct qspinlock qlock;

/*
 * Mutual exclusion under contention, for either lock kind: LOCK_THREADS
 * contenders, LOCK_ROUNDS acquisitions each, counted where they run.
 */
struct lock_contest {
	void (*lock)(void);
	void (*unlock)(void);
	bool on_cpus;	/* each contender as emulated CPU id (the queued lock's slow path needs one) */
	unsigned long long protected_count;	/* plain: only the lock protects it */
	int inside;				/* plain: >1 would mean two holders */
	int overlap_seen;
	unsigned long long acquires_counted[LOCK_THREADS];
	/* The lock kind, counted: every acquisition of a queued lock, none of a ticket lock. */
	bool queued;
	unsigned long long queued_counted[LOCK_THREADS];
};

struct contender {
	struct lock_contest *contest;
	int id;
};

static void *lock_worker(void *arg)
{
	struct contender *me = arg;
	struct lock_contest *c = me->contest;
	char err[256];

	if (c->on_cpus && mmscale_cpu_enter(me->id, err, sizeof(err)) != 0)
		return NULL;
	mmscale_counts_reset();
	for (int i = 0; i < LOCK_ROUNDS; i++) {
		c->lock();
		if (++c->inside != 1)
			c->overlap_seen = 1;
		c->protected_count++;
		c->inside--;
		c->unlock();
	}
	c->acquires_counted[me->id] = mmscale_this_counts.v[MMSCALE_LOCK_ACQUIRES];
	c->queued_counted[me->id] = mmscale_this_counts.v[MMSCALE_QUEUED_LOCK_ACQUIRES];
	if (c->on_cpus)
		mmscale_cpu_leave();
	return NULL;
}

static void check_contest(struct lock_contest *c)
{
	pthread_t th[LOCK_THREADS];
	struct contender who[LOCK_THREADS];

	for (int i = 0; i < LOCK_THREADS; i++) {
		who[i] = (struct contender){ c, i };
		pthread_create(&th[i], NULL, lock_worker, &who[i]);
	}
	for (int i = 0; i < LOCK_THREADS; i++)
		pthread_join(th[i], NULL);
	CHECK_EQ_LL(c->protected_count, (long long)LOCK_THREADS * LOCK_ROUNDS);
	CHECK(!c->overlap_seen);
	for (int i = 0; i < LOCK_THREADS; i++) {
		CHECK_EQ_LL(c->acquires_counted[i], LOCK_ROUNDS);
		CHECK_EQ_LL(c->queued_counted[i], c->queued ? LOCK_ROUNDS : 0);
	}
}

static void ticket_lock(void)
{
	spin_lock(&test_lock);
}

static void ticket_unlock(void)
{
	spin_unlock(&test_lock);
}

static void queued_lock(void)
{
	queued_spin_lock(&qlock);
}

static void queued_unlock(void)
{
	queued_spin_unlock(&qlock);
}

static void test_ticket_lock(void)
{
	struct lock_contest c = { .lock = ticket_lock, .unlock = ticket_unlock };

	/* More threads than this machine's PUs: waiters must yield. */
	check_contest(&c);
	CHECK(!spin_is_locked(&test_lock));
	CHECK(spin_trylock(&test_lock));
	CHECK(!spin_trylock(&test_lock));
	spin_unlock(&test_lock);
}

/* The FIFO property: a waiter that took its ticket first is served first. */
static spinlock_t fifo_lock = __SPIN_LOCK_UNLOCKED;
static _Atomic int fifo_order[2];
static _Atomic int fifo_next;

static void *fifo_waiter(void *arg)
{
	spin_lock(&fifo_lock);
	fifo_order[atomic_fetch_add(&fifo_next, 1)] = (int)(long)arg;
	spin_unlock(&fifo_lock);
	return NULL;
}

static void test_ticket_fifo(void)
{
	pthread_t a, b;

	spin_lock(&fifo_lock);
	pthread_create(&a, NULL, fifo_waiter, (void *)1L);
	/* Wait until waiter 1 holds ticket 1, then start waiter 2. */
	while (atomic_load(&fifo_lock.tail) != 2)
		sched_yield();
	pthread_create(&b, NULL, fifo_waiter, (void *)2L);
	while (atomic_load(&fifo_lock.tail) != 3)
		sched_yield();
	spin_unlock(&fifo_lock);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	CHECK_EQ_LL(fifo_order[0], 1);
	CHECK_EQ_LL(fifo_order[1], 2);
}

/*
 * The queued spinlock (kernel/qspinlock.h), on emulated CPUs: mutual
 * exclusion under contention, and its order: the owner, then the waiter
 * that set pending, then the MCS queue in the order it queued.
 */
static _Atomic int q_order[3];
static _Atomic int q_next;

static void *queued_waiter(void *arg)
{
	long cpu = (long)arg;
	char err[256];

	if (mmscale_cpu_enter((int)cpu, err, sizeof(err)) != 0)
		return NULL;
	queued_spin_lock(&qlock);
	q_order[atomic_fetch_add(&q_next, 1)] = (int)cpu;
	queued_spin_unlock(&qlock);
	mmscale_cpu_leave();
	return NULL;
}

/*
 * Wait until the lock word, masked, is want (the waiters get there on their
 * own); false, and a failed check, if it never does within many yields (a
 * lock that does not queue as 6.18's would leave its waiters stuck: the
 * test then ends without joining them).
 */
static bool wait_word(u32 mask, u32 want)
{
	for (long yields = 0; yields < 100000000L; yields++) {
		if ((atomic_load(&qlock.val) & mask) == want)
			return true;
		sched_yield();
	}
	fprintf(stderr, "lock word %#x, want %#x under mask %#x\n",
		(unsigned int)atomic_load(&qlock.val), want, mask);
	CHECK(!"the queued lock reached the state");
	return false;
}

static void test_queued_lock(void)
{
	struct lock_contest c = { .lock = queued_lock, .unlock = queued_unlock, .on_cpus = true,
				  .queued = true };
	struct mmscale_topology t;
	struct mmscale_plan p;
	pthread_t th[LOCK_THREADS];
	char err[256];
	int ok;

	ok = mmscale_topology_load(&t, "synthetic:node:2 core:2 pu:1", err, sizeof(err)) == 0 &&
	     mmscale_plan_build(&p, &t, MMSCALE_PLACE_COMPACT, NULL, err, sizeof(err)) == 0 &&
	     mmscale_machine_setup(&p, MMSCALE_SPIN_YIELD, err, sizeof(err)) == 0;
	CHECK(ok);
	if (!ok) {
		fprintf(stderr, "%s\n", err);
		return;
	}
	check_contest(&c);
	CHECK_EQ_LL(atomic_load(&qlock.val), 0);

	/* CPU 0 holds it; 1 sets pending (0,1,1), 2 and 3 queue (tail: CPU 3, node 0). */
	CHECK(mmscale_cpu_enter(0, err, sizeof(err)) == 0);
	queued_spin_lock(&qlock);
	CHECK_EQ_LL(atomic_load(&qlock.val), _Q_LOCKED_VAL);
	CHECK(!queued_spin_trylock(&qlock));
	pthread_create(&th[1], NULL, queued_waiter, (void *)1L);
	if (!wait_word(_Q_LOCKED_PENDING_MASK, _Q_PENDING_VAL | _Q_LOCKED_VAL))
		return;
	pthread_create(&th[2], NULL, queued_waiter, (void *)2L);
	if (!wait_word(_Q_TAIL_MASK, (2U + 1) << _Q_TAIL_CPU_OFFSET))
		return;
	pthread_create(&th[3], NULL, queued_waiter, (void *)3L);
	if (!wait_word(_Q_TAIL_MASK, (3U + 1) << _Q_TAIL_CPU_OFFSET))
		return;
	queued_spin_unlock(&qlock);
	mmscale_cpu_leave();
	for (int i = 1; i < 4; i++)
		pthread_join(th[i], NULL);
	CHECK_EQ_LL(q_order[0], 1);
	CHECK_EQ_LL(q_order[1], 2);
	CHECK_EQ_LL(q_order[2], 3);
	CHECK_EQ_LL(atomic_load(&qlock.val), 0);

	/* A word the ticket lock left (head 1, tail 1) stops the queued lock loudly. */
	{
		pid_t child = fork();
		int status = 0;

		if (child == 0) {
			if (mmscale_cpu_enter(0, err, sizeof(err)) != 0)
				_exit(0);
			atomic_store(&qlock.val, 0x00010001);
			(void)!freopen("/dev/null", "w", stderr);
			queued_spin_lock(&qlock);
			_exit(0);	/* not reached: the slow path refuses the word */
		}
		CHECK(child > 0 && waitpid(child, &status, 0) == child);
		CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT);
	}
	mmscale_machine_teardown();
	mmscale_plan_destroy(&p);
	mmscale_topology_destroy(&t);
}

struct item {
	int v;
	struct list_head node;
};

static int list_values(struct list_head *head, int *out, int max)
{
	struct item *it;
	int n = 0;

	list_for_each_entry(it, head, node)
		if (n < max)
			out[n++] = it->v;
	return n;
}

static void test_list(void)
{
	LIST_HEAD(a);
	LIST_HEAD(b);
	struct item items[6], *it, *tmp;
	int v[8], n;

	CHECK(list_empty(&a));
	for (int i = 0; i < 6; i++) {
		items[i].v = i;
		if (i < 3)
			list_add_tail(&items[i].node, &a);	/* a: 0 1 2 */
		else
			list_add(&items[i].node, &b);		/* b: 5 4 3 */
	}
	n = list_values(&a, v, 8);
	CHECK(n == 3 && v[0] == 0 && v[1] == 1 && v[2] == 2);
	n = list_values(&b, v, 8);
	CHECK(n == 3 && v[0] == 5 && v[1] == 4 && v[2] == 3);
	list_move_tail(&items[0].node, &b);			/* a: 1 2, b: 5 4 3 0 */
	CHECK(list_first_entry(&a, struct item, node)->v == 1);
	CHECK(list_last_entry(&b, struct item, node)->v == 0);
	list_splice_init(&b, &a);				/* a: 5 4 3 0 1 2 */
	CHECK(list_empty(&b));
	n = list_values(&a, v, 8);
	CHECK(n == 6 && v[0] == 5 && v[3] == 0 && v[5] == 2);
	list_for_each_entry_safe(it, tmp, &a, node)
		if (it->v % 2)
			list_del(&it->node);
	n = list_values(&a, v, 8);
	CHECK(n == 3 && v[0] == 4 && v[1] == 0 && v[2] == 2);
	CHECK(items[5].node.next == LIST_POISON1);
	list_del_init(&items[4].node);
	CHECK(list_empty(&items[4].node));
	CHECK(list_is_last(&items[2].node, &a));
}

static void test_cpumask(void)
{
	struct cpumask m;
	unsigned int cpu, seen = 0, last = 0;

	nr_cpu_ids = NR_CPUS;
	cpumask_clear(&m);
	CHECK(cpumask_empty(&m));
	cpumask_set_cpu(0, &m);
	cpumask_set_cpu(63, &m);
	cpumask_set_cpu(64, &m);
	cpumask_set_cpu(NR_CPUS - 1, &m);
	CHECK_EQ_LL(cpumask_weight(&m), 4);
	CHECK(cpumask_test_cpu(63, &m) && !cpumask_test_cpu(62, &m));
	CHECK_EQ_LL(cpumask_next(0, &m), 63);
	CHECK_EQ_LL(cpumask_next(64, &m), NR_CPUS - 1);
	CHECK_EQ_LL(cpumask_next(NR_CPUS - 1, &m), NR_CPUS);
	for_each_cpu(cpu, &m) {
		seen++;
		last = cpu;
	}
	CHECK_EQ_LL(seen, 4);
	CHECK_EQ_LL(last, NR_CPUS - 1);
	cpumask_clear_cpu(63, &m);
	CHECK_EQ_LL(cpumask_weight(&m), 3);
	nr_cpu_ids = 100;
	cpumask_setall(&m);
	CHECK_EQ_LL(cpumask_weight(&m), 100);
	CHECK(!cpumask_test_cpu(100, &m));
	nr_cpu_ids = 0;
}

static void test_bitops_atomics(void)
{
	atomic_long_t v = ATOMIC_LONG_INIT(5);

	CHECK_EQ_LL(fls(0), 0);
	CHECK_EQ_LL(fls(1), 1);
	CHECK_EQ_LL(fls(0x80000000u), 32);
	CHECK_EQ_LL(fls64(1ULL << 40), 41);
	CHECK_EQ_LL(ilog2(1), 0);
	CHECK_EQ_LL(ilog2(1024), 10);
	CHECK_EQ_LL(ilog2(1023), 9);
	CHECK_EQ_LL(roundup_pow_of_two(1000), 1024);
	CHECK_EQ_LL(atomic_long_add_return(3, &v), 8);
	CHECK_EQ_LL(atomic_long_cmpxchg(&v, 8, 1), 8);
	CHECK_EQ_LL(atomic_long_cmpxchg(&v, 8, 2), 1);
	CHECK_EQ_LL(atomic_long_xchg(&v, -4), 1);
	CHECK_EQ_LL(atomic_long_read(&v), -4);
	CHECK(!atomic_long_dec_and_test(&v));
}

struct pcp_test {
	long a[4];
};

static void test_percpu(void)
{
	struct mmscale_topology t;
	struct mmscale_plan p;
	struct pcp_test *pc, *pc2;
	char err[256];
	int ok;

	ok = mmscale_topology_load(&t, "synthetic:node:2 core:2 pu:1", err, sizeof(err)) == 0 &&
	     mmscale_plan_build(&p, &t, MMSCALE_PLACE_COMPACT, NULL, err, sizeof(err)) == 0 &&
	     mmscale_machine_setup(&p, MMSCALE_SPIN_YIELD, err, sizeof(err)) == 0;
	CHECK(ok);
	if (!ok) {
		fprintf(stderr, "%s\n", err);
		return;
	}
	CHECK_EQ_LL(nr_cpu_ids, 4);
	CHECK_EQ_LL(num_online_cpus(), 4);
	pc = alloc_percpu(struct pcp_test);
	CHECK(pc != NULL);
	for (unsigned int cpu = 0; cpu < nr_cpu_ids; cpu++) {
		struct pcp_test *mine = per_cpu_ptr(pc, cpu);

		CHECK(mine->a[0] == 0 && mine->a[3] == 0);
		mine->a[0] = (long)cpu + 100;
		for (unsigned int other = 0; other < cpu; other++)
			CHECK(per_cpu_ptr(pc, other) != mine);
	}
	for (unsigned int cpu = 0; cpu < nr_cpu_ids; cpu++)
		CHECK_EQ_LL(per_cpu_ptr(pc, cpu)->a[0], cpu + 100);
	CHECK(mmscale_cpu_enter(2, err, sizeof(err)) == 0);
	CHECK_EQ_LL(smp_processor_id(), 2);
	CHECK(this_cpu_ptr(pc) == per_cpu_ptr(pc, 2));
	mmscale_cpu_leave();
	/* Freed space is reused and comes back zeroed. */
	free_percpu(pc);
	pc2 = alloc_percpu(struct pcp_test);
	CHECK(pc2 == pc);
	CHECK_EQ_LL(per_cpu_ptr(pc2, 1)->a[0], 0);
	CHECK(__alloc_percpu(MMSCALE_PERCPU_UNIT_SIZE + 1, 8) == NULL);
	free_percpu(pc2);
	/* An allocation a node cannot hold is refused with the node and size, not an OOM kill. */
	{
		char aerr[256] = "";
		void *huge = mmscale_alloc_on_node(0, (size_t)1 << 50, aerr, sizeof(aerr));

		CHECK(huge == NULL);
		CHECK(strstr(aerr, "1125899906842624 bytes") != NULL);
		printf("huge allocation: %s\n", aerr);
	}
	mmscale_machine_teardown();
	mmscale_plan_destroy(&p);
	mmscale_topology_destroy(&t);
}

int main(void)
{
	test_ticket_lock();
	test_ticket_fifo();
	test_queued_lock();
	test_list();
	test_cpumask();
	test_bitops_atomics();
	test_percpu();
	return check_report("test_primitives");
}
