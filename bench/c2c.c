// SPDX-License-Identifier: GPL-2.0
/*
 * The physical floor every later comparison is read against, measured in
 * the same run: cache-line round trips, reads of a line another CPU keeps
 * writing, a polled mailbox (the floor under an emulated IPI) and a raw
 * real-time signal round trip (the floor under a signal-delivered one).
 *
 * The two threads are emulated CPUs 0 and 1 of the plan: with compact
 * placement two cores of one node, with scatter two nodes.
 *
 * Every body runs its whole run as one batch of max_iterations: both
 * threads then do exactly the same number of round trips, and the thread
 * that finishes first can release the other before GB's stop barrier.
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
#include "mmscale/notice.h"

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
};

BUILD_BUG_ON(offsetof(struct c2c_shared, ack) - offsetof(struct c2c_shared, req) <
	     MMSCALE_ISOLATION_BYTES);

/* The signal handler's only way to its data; set before any signal is sent. */
static struct c2c_shared *_Atomic signal_shared;

static int c2c_setup(struct mmscale_run *run, int nr_threads)
{
	char err[256];
	struct c2c_shared *sh = mmscale_alloc_global(sizeof(*sh), err, sizeof(err));

	(void)nr_threads;
	if (!sh) {
		mmscale_notice("c2c: %s", err);
		return -1;
	}
	run->data = sh;
	atomic_store(&signal_shared, sh);
	return 0;
}

static void c2c_teardown(struct mmscale_run *run)
{
	atomic_store(&signal_shared, NULL);
	mmscale_free_mem(run->data, sizeof(struct c2c_shared));
	run->data = NULL;
}

/*
 * Round trips between two CPUs through a request and a reply location. The
 * requester stores seq and waits for the reply to reach seq; the responder
 * waits for the request and echoes it. Shared with --c2c-matrix.
 */
static void round_trips_requester(_Atomic u64 *req, _Atomic u64 *reply, u64 n)
{
	unsigned int spins = 0;

	for (u64 seq = 1; seq <= n; seq++) {
		atomic_store_explicit(req, seq, memory_order_release);
		while (atomic_load_explicit(reply, memory_order_acquire) != seq)
			spin_wait_step(&spins);
	}
}

static void round_trips_responder(_Atomic u64 *req, _Atomic u64 *reply, u64 n)
{
	unsigned int spins = 0;

	for (u64 seq = 1; seq <= n; seq++) {
		while (atomic_load_explicit(req, memory_order_acquire) != seq)
			spin_wait_step(&spins);
		atomic_store_explicit(reply, seq, memory_order_release);
	}
}

static void round_trip_body(struct mmscale_state *st, _Atomic u64 *req, _Atomic u64 *reply)
{
	int64_t n = mmscale_max_iterations(st);

	while (mmscale_keep_running_batch(st, n)) {
		if (mmscale_thread_index(st) == 0)
			round_trips_requester(req, reply, (u64)n);
		else
			round_trips_responder(req, reply, (u64)n);
	}
}

static void c2c_pingpong(struct mmscale_state *st, struct mmscale_run *run)
{
	struct c2c_shared *sh = run->data;

	round_trip_body(st, &sh->same_line.ping, &sh->same_line.pong);
}

static void c2c_mailbox(struct mmscale_state *st, struct mmscale_run *run)
{
	struct c2c_shared *sh = run->data;

	round_trip_body(st, &sh->req, &sh->ack);
}

/* CPU 1 keeps writing target until CPU 0 has done its reads. */
static void write_until_stop(struct c2c_shared *sh, _Atomic u64 *target)
{
	unsigned int spins = 0;
	u64 v = 0;

	while (!atomic_load_explicit(&sh->stop, memory_order_relaxed)) {
		atomic_store_explicit(target, ++v, memory_order_relaxed);
		spin_wait_step(&spins);
	}
}

static void read_body(struct mmscale_state *st, struct c2c_shared *sh, _Atomic u64 *read,
		      _Atomic u64 *written)
{
	int64_t n = mmscale_max_iterations(st);

	while (mmscale_keep_running_batch(st, n)) {
		if (mmscale_thread_index(st) == 0) {
			u64 sum = 0;

			for (int64_t i = 0; i < n; i++)
				sum += atomic_load_explicit(read, memory_order_relaxed);
			__asm__ __volatile__("" : : "r"(sum));
			atomic_store_explicit(&sh->stop, true, memory_order_relaxed);
		} else {
			write_until_stop(sh, written);
		}
	}
}

static void c2c_read_local(struct mmscale_state *st, struct mmscale_run *run)
{
	struct c2c_shared *sh = run->data;

	/* CPU 1 writes as hard as in read_shared, but to a line of its own. */
	read_body(st, sh, &sh->local, &sh->writer_own);
}

static void c2c_read_shared(struct mmscale_state *st, struct mmscale_run *run)
{
	struct c2c_shared *sh = run->data;

	read_body(st, sh, &sh->shared, &sh->shared);
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

static int c2c_signal_setup(struct mmscale_run *run, int nr_threads)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = c2c_signal_handler;
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	if (sigaction(c2c_signal_number(), &sa, NULL) != 0) {
		mmscale_notice("c2c/signal: cannot install the signal handler");
		return -1;
	}
	return c2c_setup(run, nr_threads);
}

static void c2c_signal(struct mmscale_state *st, struct mmscale_run *run)
{
	struct c2c_shared *sh = run->data;
	int64_t n = mmscale_max_iterations(st);
	unsigned int spins = 0;

	if (mmscale_thread_index(st) == 1) {
		sh->target = pthread_self();
		atomic_store_explicit(&sh->target_ready, true, memory_order_release);
	}
	while (mmscale_keep_running_batch(st, n)) {
		if (mmscale_thread_index(st) == 1) {
			/* Busy: the signal interrupts this loop, as an IPI would. */
			while (!atomic_load_explicit(&sh->stop, memory_order_relaxed))
				spin_wait_step(&spins);
			continue;
		}
		while (!atomic_load_explicit(&sh->target_ready, memory_order_acquire))
			spin_wait_step(&spins);
		for (u64 seq = 1; seq <= (u64)n; seq++) {
			atomic_store_explicit(&sh->req, seq, memory_order_release);
			pthread_kill(sh->target, c2c_signal_number());
			while (atomic_load_explicit(&sh->ack, memory_order_acquire) != seq)
				spin_wait_step(&spins);
		}
		atomic_store_explicit(&sh->stop, true, memory_order_relaxed);
	}
}

static const struct mmscale_case c2c_cases[] = {
	{
		.name = "c2c/pingpong",
		.summary = "cache-line round trip between emulated CPUs 0 and 1, both directions on one line",
		.body = c2c_pingpong,
		.threads = MMSCALE_THREADS_PAIR,
		.setup = c2c_setup,
		.teardown = c2c_teardown,
	},
	{
		.name = "c2c/read_local",
		.summary = "read a line nobody else writes (CPU 1 writes a line of its own)",
		.body = c2c_read_local,
		.threads = MMSCALE_THREADS_PAIR,
		.setup = c2c_setup,
		.teardown = c2c_teardown,
	},
	{
		.name = "c2c/read_shared",
		.summary = "read a line that CPU 1 keeps writing",
		.body = c2c_read_shared,
		.threads = MMSCALE_THREADS_PAIR,
		.setup = c2c_setup,
		.teardown = c2c_teardown,
	},
	{
		.name = "c2c/mailbox",
		.summary = "request and acknowledgement on two lines: the floor under a polled emulated IPI",
		.body = c2c_mailbox,
		.threads = MMSCALE_THREADS_PAIR,
		.setup = c2c_setup,
		.teardown = c2c_teardown,
	},
	{
		.name = "c2c/signal",
		.summary = "pthread_kill real-time signal round trip to a busy pinned thread",
		.body = c2c_signal,
		.threads = MMSCALE_THREADS_PAIR,
		.setup = c2c_signal_setup,
		.teardown = c2c_teardown,
	},
};

const struct mmscale_case_table mmscale_c2c_table = MMSCALE_CASE_TABLE("c2c", c2c_cases);

/* --c2c-matrix: round trips between every pair of nodes, outside Google Benchmark. */

#define MATRIX_ROUND_TRIPS	20000
#define MATRIX_TRIALS		5

struct matrix_peer {
	int cpu;
	_Atomic u64 *req, *reply;
	u64 n;
	int rc;
};

static void *matrix_responder(void *arg)
{
	struct matrix_peer *peer = arg;

	peer->rc = mmscale_cpu_enter(peer->cpu, NULL, 0);
	if (peer->rc == 0) {
		round_trips_responder(peer->req, peer->reply, peer->n);
		mmscale_cpu_leave();
	}
	return NULL;
}

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Median ns per round trip between plan CPUs a and b; < 0 on failure. */
static double matrix_pair(struct c2c_shared *sh, int a, int b)
{
	double trials[MATRIX_TRIALS];

	for (int t = 0; t < MATRIX_TRIALS; t++) {
		struct matrix_peer peer = {
			.cpu = b, .req = &sh->same_line.ping, .reply = &sh->same_line.pong,
			.n = MATRIX_ROUND_TRIPS,
		};
		pthread_t th;
		double start;

		atomic_store(&sh->same_line.ping, 0);
		atomic_store(&sh->same_line.pong, 0);
		if (mmscale_cpu_enter(a, NULL, 0) != 0)
			return -1;
		if (pthread_create(&th, NULL, matrix_responder, &peer) != 0) {
			mmscale_cpu_leave();
			return -1;
		}
		start = now_ns();
		round_trips_requester(peer.req, peer.reply, peer.n);
		trials[t] = (now_ns() - start) / (double)peer.n;
		pthread_join(th, NULL);
		mmscale_cpu_leave();
		if (peer.rc != 0)
			return -1;
	}
	qsort(trials, MATRIX_TRIALS, sizeof(trials[0]), cmp_double);
	return trials[MATRIX_TRIALS / 2];
}

int mmscale_c2c_matrix(const struct mmscale_plan *p, FILE *out, char *err, size_t errlen)
{
	const struct mmscale_topology *t = p->topo;
	int nodes = t->nr_nodes;
	int *first = malloc((size_t)nodes * sizeof(*first));
	int *second = malloc((size_t)nodes * sizeof(*second));
	struct c2c_shared *sh = mmscale_alloc_global(sizeof(*sh), err, errlen);

	if (!first || !second || !sh) {
		free(first);
		free(second);
		mmscale_free_mem(sh, sizeof(*sh));
		return sh ? mmscale_errorf(err, errlen, "out of memory") : -1;
	}
	/* The first two plan CPUs of each node (compact order: distinct cores). */
	for (int n = 0; n < nodes; n++)
		first[n] = second[n] = -1;
	for (int i = 0; i < p->nr_cpus; i++) {
		int n = p->cpu[i].node;

		if (first[n] < 0)
			first[n] = i;
		else if (second[n] < 0)
			second[n] = i;
	}
	fprintf(out, "c2c/pingpong round trip, ns (median of %d x %d round trips; "
		"row: requester node, column: responder node)\n",
		MATRIX_TRIALS, MATRIX_ROUND_TRIPS);
	fprintf(out, "%6s", "");
	for (int b = 0; b < nodes; b++)
		fprintf(out, " %7d", b);
	fputc('\n', out);
	for (int a = 0; a < nodes; a++) {
		fprintf(out, "%6d", a);
		for (int b = 0; b < nodes; b++) {
			int peer = a == b ? second[a] : first[b];
			double ns = first[a] >= 0 && peer >= 0 ? matrix_pair(sh, first[a], peer) : -1;

			if (ns < 0)
				fprintf(out, " %7s", "-");
			else
				fprintf(out, " %7.1f", ns);
			fflush(out);
		}
		fputc('\n', out);
	}
	free(first);
	free(second);
	mmscale_free_mem(sh, sizeof(*sh));
	return 0;
}
