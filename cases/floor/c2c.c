// SPDX-License-Identifier: GPL-2.0
/*
 * The physical floor every later comparison is read against, measured in
 * the same run: cache-line round trips, reads of a line another CPU keeps
 * writing, a polled mailbox (the floor under an emulated IPI) and a raw
 * real-time signal round trip (the floor under a signal-delivered one).
 *
 * The measured thread is emulated CPU 0 (the only Google Benchmark thread,
 * so Time is per round trip or per read); its partner is emulated CPU 1, a
 * harness-owned pinned thread that the case's setup starts and its
 * teardown stops. With compact placement the two are two cores of one
 * node, with scatter two nodes. The round trips themselves are the
 * harness's (bench/c2c.c), which --c2c-matrix uses too.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mmscale/c2c.h"
#include "mmscale/case.h"
#include "mmscale/cpu.h"
#include "mmscale/kernel/compiler.h"
#include "mmscale/kernel/processor.h"
#include "mmscale/kernel/spinlock.h"
#include "mmscale/membarrier.h"
#include "mmscale/notice.h"

#define C2C_PARTNER_CPU 1

/* Each field on its own isolated lines unless it says otherwise. */
struct c2c_shared {
	/* pingpong: both directions on one line, on purpose */
	struct {
		_Atomic u64 ping;
		_Atomic u64 pong;
	} ____cacheline_aligned same_line;
	_Atomic u64 req ____isolated_aligned;		/* mailbox request */
	_Atomic u64 ack ____isolated_aligned;		/* mailbox acknowledgement */
	_Atomic u64 shared ____isolated_aligned;	/* read_shared: written by CPU 1 */
	_Atomic u64 local ____isolated_aligned;		/* read_local: nobody writes it */
	_Atomic u64 writer_own ____isolated_aligned;	/* read_local: CPU 1's own line */
	_Atomic bool stop ____isolated_aligned;
	_Atomic bool target_ready ____isolated_aligned;
	pthread_t target;
	struct mmscale_partner partner;
};

BUILD_BUG_ON(offsetof(struct c2c_shared, ack) - offsetof(struct c2c_shared, req) <
	     MMSCALE_ISOLATION_BYTES);

/* The signal handler's only way to its data; set before any signal is sent. */
static struct c2c_shared *_Atomic signal_shared;

/* Start CPU 1 running partner_fn on fresh, zeroed shared data. */
static int c2c_start(struct mmscale_run *run, void (*partner_fn)(void *), char *err,
		     size_t errlen)
{
	struct c2c_shared *sh = mmscale_alloc_global(sizeof(*sh), err, errlen);

	if (!sh)
		return -1;
	atomic_store(&signal_shared, sh);
	if (mmscale_partner_start(&sh->partner, C2C_PARTNER_CPU, partner_fn, sh,
				  err, errlen) != 0) {
		atomic_store(&signal_shared, NULL);
		mmscale_free_mem(sh, sizeof(*sh));
		return -1;
	}
	run->data = sh;
	return 0;
}

static int c2c_teardown(struct mmscale_run *run, char *err, size_t errlen)
{
	struct c2c_shared *sh = run->data;

	atomic_store_explicit(&sh->stop, true, memory_order_relaxed);
	mmscale_partner_join(&sh->partner);
	atomic_store(&signal_shared, NULL);
	mmscale_free_mem(sh, sizeof(*sh));
	run->data = NULL;
	return 0;
}

static void round_trip_body(struct mmscale_state *st, _Atomic u64 *req, _Atomic u64 *reply)
{
	int64_t n = mmscale_max_iterations(st);

	while (mmscale_keep_running_batch(st, n))
		mmscale_c2c_round_trips(req, reply, (u64)n);
}

static void pingpong_partner(void *arg)
{
	struct c2c_shared *sh = arg;

	mmscale_c2c_echo_until_stop(&sh->same_line.ping, &sh->same_line.pong, &sh->stop);
}

static int pingpong_setup(struct mmscale_run *run, int nr_threads, char *err, size_t errlen)
{
	return c2c_start(run, pingpong_partner, err, errlen);
}

static void c2c_pingpong(struct mmscale_state *st, struct mmscale_run *run)
{
	struct c2c_shared *sh = run->data;

	round_trip_body(st, &sh->same_line.ping, &sh->same_line.pong);
}

static void mailbox_partner(void *arg)
{
	struct c2c_shared *sh = arg;

	mmscale_c2c_echo_until_stop(&sh->req, &sh->ack, &sh->stop);
}

static int mailbox_setup(struct mmscale_run *run, int nr_threads, char *err, size_t errlen)
{
	return c2c_start(run, mailbox_partner, err, errlen);
}

static void c2c_mailbox(struct mmscale_state *st, struct mmscale_run *run)
{
	struct c2c_shared *sh = run->data;

	round_trip_body(st, &sh->req, &sh->ack);
}

/* CPU 1 keeps writing a line until CPU 0 has done its reads. */
static void write_until_stop(struct c2c_shared *sh, _Atomic u64 *target)
{
	unsigned int spins = 0;
	u64 v = 0;

	while (!atomic_load_explicit(&sh->stop, memory_order_relaxed)) {
		atomic_store_explicit(target, ++v, memory_order_relaxed);
		spin_wait_step(&spins);
	}
}

static void write_own_partner(void *arg)
{
	struct c2c_shared *sh = arg;

	write_until_stop(sh, &sh->writer_own);
}

static void write_shared_partner(void *arg)
{
	struct c2c_shared *sh = arg;

	write_until_stop(sh, &sh->shared);
}

static int read_local_setup(struct mmscale_run *run, int nr_threads, char *err, size_t errlen)
{
	/* CPU 1 writes as hard as in read_shared, but to a line of its own. */
	return c2c_start(run, write_own_partner, err, errlen);
}

static int read_shared_setup(struct mmscale_run *run, int nr_threads, char *err, size_t errlen)
{
	return c2c_start(run, write_shared_partner, err, errlen);
}

static void read_body(struct mmscale_state *st, _Atomic u64 *line)
{
	int64_t n = mmscale_max_iterations(st);
	u64 sum = 0;

	while (mmscale_keep_running_batch(st, n))
		for (int64_t i = 0; i < n; i++)
			sum += atomic_load_explicit(line, memory_order_relaxed);
	__asm__ __volatile__("" : : "r"(sum));
}

static void c2c_read_local(struct mmscale_state *st, struct mmscale_run *run)
{
	struct c2c_shared *sh = run->data;

	read_body(st, &sh->local);
}

static void c2c_read_shared(struct mmscale_state *st, struct mmscale_run *run)
{
	struct c2c_shared *sh = run->data;

	read_body(st, &sh->shared);
}

static int c2c_signal_number(void)
{
	return SIGRTMIN + 1;
}

/* Async-signal-safe: two atomic accesses. */
static void c2c_signal_handler(int sig)
{
	struct c2c_shared *sh = atomic_load_explicit(&signal_shared, memory_order_acquire);

	(void)sig;
	if (sh)
		atomic_store_explicit(&sh->ack,
				      atomic_load_explicit(&sh->req, memory_order_acquire),
				      memory_order_release);
}

/* Busy: the signal interrupts this loop, as an IPI interrupts a running CPU. */
static void signal_partner(void *arg)
{
	struct c2c_shared *sh = arg;
	unsigned int spins = 0;

	sh->target = pthread_self();
	atomic_store_explicit(&sh->target_ready, true, memory_order_release);
	while (!atomic_load_explicit(&sh->stop, memory_order_relaxed))
		spin_wait_step(&spins);
}

static int c2c_signal_setup(struct mmscale_run *run, int nr_threads, char *err, size_t errlen)
{
	struct sigaction sa;
	struct c2c_shared *sh;
	unsigned int spins = 0;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = c2c_signal_handler;
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	if (sigaction(c2c_signal_number(), &sa, NULL) != 0)
		return mmscale_errorf(err, errlen, "cannot install the signal handler");
	if (c2c_start(run, signal_partner, err, errlen) != 0)
		return -1;
	sh = run->data;
	while (!atomic_load_explicit(&sh->target_ready, memory_order_acquire))
		spin_wait_step(&spins);
	return 0;
}

static void c2c_signal(struct mmscale_state *st, struct mmscale_run *run)
{
	struct c2c_shared *sh = run->data;
	int64_t n = mmscale_max_iterations(st);
	unsigned int spins = 0;

	while (mmscale_keep_running_batch(st, n)) {
		for (u64 seq = 1; seq <= (u64)n; seq++) {
			atomic_store_explicit(&sh->req, seq, memory_order_release);
			pthread_kill(sh->target, c2c_signal_number());
			while (atomic_load_explicit(&sh->ack, memory_order_acquire) != seq)
				spin_wait_step(&spins);
		}
	}
}

/*
 * A real IPI round trip with no emulation on top: membarrier(2) interrupts
 * CPU 1's PU, where the partner spins, through the kernel's
 * smp_call_function_single, and returns when the interrupt was handled.
 * The floor under ipi/unicast/kernel, which adds the mailbox.
 */
static void busy_partner(void *arg)
{
	struct c2c_shared *sh = arg;
	unsigned int spins = 0;

	while (!atomic_load_explicit(&sh->stop, memory_order_relaxed))
		spin_wait_step(&spins);
}

static int membarrier_setup(struct mmscale_run *run, int nr_threads, char *err, size_t errlen)
{
	return c2c_start(run, busy_partner, err, errlen);
}

static void c2c_membarrier(struct mmscale_state *st, struct mmscale_run *run)
{
	int target_pu = mmscale_machine_plan()->cpu[C2C_PARTNER_CPU].run_pu;
	int64_t n = mmscale_max_iterations(st);
	long long irqs0 = mmscale_function_call_irqs(target_pu), irqs1;
	long failed = 0;

	(void)run;
	while (mmscale_keep_running_batch(st, n))
		for (int64_t i = 0; i < n; i++)
			failed += mmscale_membarrier_ipi(target_pu) != 0;
	irqs1 = mmscale_function_call_irqs(target_pu);
	if (failed)
		mmscale_skip_with_error(st, "membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED_RSEQ) failed");
	else if (irqs0 >= 0 && irqs1 >= 0)
		mmscale_counter_set(st, "function_call_irqs", (double)(irqs1 - irqs0),
				    MMSCALE_COUNTER_AVG_ITERATIONS);
}

/*
 * Every thread takes and releases one ticket lock: the FIFO hand-off floor
 * under a contended zone->lock. The line the waiters spin on is the lock's.
 */
struct lock_shared {
	spinlock_t lock ____cacheline_aligned;
	u64 held;	/* written only under the lock */
};

static int lock_setup(struct mmscale_run *run, int nr_threads, char *err, size_t errlen)
{
	struct lock_shared *ls = mmscale_alloc_global(sizeof(*ls), err, errlen);

	(void)nr_threads;
	if (!ls)
		return -1;
	spin_lock_init(&ls->lock);
	run->data = ls;
	return 0;
}

static int lock_teardown(struct mmscale_run *run, char *err, size_t errlen)
{
	mmscale_free_mem(run->data, sizeof(struct lock_shared));
	run->data = NULL;
	return 0;
}

#define LOCK_BATCH 64

static void c2c_ticket_lock(struct mmscale_state *st, struct mmscale_run *run)
{
	struct lock_shared *ls = run->data;

	while (mmscale_keep_running_batch(st, LOCK_BATCH)) {
		for (int i = 0; i < LOCK_BATCH; i++) {
			spin_lock(&ls->lock);
			ls->held++;
			spin_unlock(&ls->lock);
		}
	}
}

/*
 * The same with the queued spinlock 6.18 takes (kernel/qspinlock.h): the
 * first waiter spins on the lock's word, the others each on its own CPU's
 * MCS node, and a hand-off down the queue writes the next waiter's node.
 */
static void c2c_queued_lock(struct mmscale_state *st, struct mmscale_run *run)
{
	struct lock_shared *ls = run->data;

	while (mmscale_keep_running_batch(st, LOCK_BATCH)) {
		for (int i = 0; i < LOCK_BATCH; i++) {
			queued_spin_lock(&ls->lock.q);
			ls->held++;
			queued_spin_unlock(&ls->lock.q);
		}
	}
}

/* A two-CPU floor case: CPU 0 measured, CPU 1 the partner its setup starts. */
#define C2C_PAIR_FIELDS(_name, _summary, _body, _setup)			\
	.name = (_name), .summary = (_summary), .body = (_body),		\
	.threads = MMSCALE_THREADS_PAIR, .partner_cpus = 1,			\
	.setup = (_setup), .teardown = c2c_teardown
#define C2C_PAIR_CASE(_name, _summary, _body, _setup) {			\
	C2C_PAIR_FIELDS(_name, _summary, _body, _setup) }

static const struct mmscale_case c2c_cases[] = {
	C2C_PAIR_CASE("c2c/pingpong",
		"cache-line round trip between emulated CPUs 0 and 1, both directions on one line",
		c2c_pingpong, pingpong_setup),
	C2C_PAIR_CASE("c2c/read_local",
		"read a line nobody else writes (CPU 1 writes a line of its own)",
		c2c_read_local, read_local_setup),
	C2C_PAIR_CASE("c2c/read_shared",
		"read a line that CPU 1 keeps writing",
		c2c_read_shared, read_shared_setup),
	C2C_PAIR_CASE("c2c/mailbox",
		"request and acknowledgement on two lines: the floor under a polled emulated IPI",
		c2c_mailbox, mailbox_setup),
	C2C_PAIR_CASE("c2c/signal",
		"pthread_kill real-time signal round trip to a busy pinned thread",
		c2c_signal, c2c_signal_setup),
	{
		C2C_PAIR_FIELDS("c2c/membarrier",
			"a real IPI round trip (membarrier RSEQ, Linux 5.10+) to a busy pinned thread",
			c2c_membarrier, membarrier_setup),
		.available = mmscale_membarrier_available,
	},
	{
		.name = "c2c/ticket_lock",
		.summary = "every thread takes and releases one ticket spinlock: the zone->lock hand-off floor",
		.body = c2c_ticket_lock,
		.threads = MMSCALE_THREADS_SWEEP,
		.counts = MMSCALE_COUNT_BIT(MMSCALE_LOCK_ACQUIRES),
		.setup = lock_setup,
		.teardown = lock_teardown,
	},
	{
		.name = "c2c/queued_lock",
		.summary = "the same with the queued spinlock (qspinlock, x86 since 4.2, 6.18's): "
			   "waiters past the first spin on their own MCS node",
		.body = c2c_queued_lock,
		.threads = MMSCALE_THREADS_SWEEP,
		.counts = MMSCALE_COUNT_BIT(MMSCALE_LOCK_ACQUIRES),
		.setup = lock_setup,
		.teardown = lock_teardown,
	},
};

const struct mmscale_case_table mmscale_c2c_table = MMSCALE_CASE_TABLE("c2c", c2c_cases);
