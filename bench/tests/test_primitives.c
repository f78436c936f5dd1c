// SPDX-License-Identifier: GPL-2.0
/* The kernel-style primitives: ticket lock, lists, cpumask, bitops, atomics, percpu. */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "mmscale/cpu.h"
#include "mmscale/kernel/atomic.h"
#include "mmscale/kernel/cpumask.h"
#include "mmscale/kernel/list.h"
#include "mmscale/kernel/percpu.h"
#include "mmscale/kernel/spinlock.h"
#include "mmscale/notice.h"
#include "mmscale/opcount.h"
#include "mmscale/topology.h"

#define LOCK_THREADS	4
#define LOCK_ROUNDS	20000

static spinlock_t test_lock = __SPIN_LOCK_UNLOCKED;
static unsigned long long protected_count;	/* plain: only the lock protects it */
static int inside;				/* plain: >1 would mean two holders */
static int overlap_seen;
static unsigned long long acquires_counted[LOCK_THREADS];

static void *lock_worker(void *arg)
{
	long id = (long)arg;

	mmscale_counts_reset();
	for (int i = 0; i < LOCK_ROUNDS; i++) {
		spin_lock(&test_lock);
		if (++inside != 1)
			overlap_seen = 1;
		protected_count++;
		inside--;
		spin_unlock(&test_lock);
	}
	acquires_counted[id] = mmscale_this_counts.v[MMSCALE_LOCK_ACQUIRES];
	return NULL;
}

static void test_ticket_lock(void)
{
	pthread_t th[LOCK_THREADS];

	/* More threads than this machine's PUs: waiters must yield. */
	for (long i = 0; i < LOCK_THREADS; i++)
		pthread_create(&th[i], NULL, lock_worker, (void *)i);
	for (int i = 0; i < LOCK_THREADS; i++)
		pthread_join(th[i], NULL);
	CHECK_EQ_LL(protected_count, (long long)LOCK_THREADS * LOCK_ROUNDS);
	CHECK(!overlap_seen);
	for (int i = 0; i < LOCK_THREADS; i++)
		CHECK_EQ_LL(acquires_counted[i], LOCK_ROUNDS);
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
	test_list();
	test_cpumask();
	test_bitops_atomics();
	test_percpu();
	return check_report("test_primitives");
}
