// SPDX-License-Identifier: GPL-2.0
/*
 * Cache-line round trips, the harness's own measure: the requester and
 * responder loops that the c2c/ cases (floor/c2c.c) time, and
 * --c2c-matrix, which times them between every pair of nodes of the plan
 * outside Google Benchmark.
 */
#define _GNU_SOURCE
#include <stdatomic.h>
#include <stdlib.h>
#include <time.h>

#include "mmscale/c2c.h"
#include "mmscale/cpu.h"
#include "mmscale/kernel/compiler.h"
#include "mmscale/kernel/processor.h"
#include "mmscale/notice.h"

/*
 * Round trips through a request and a reply location: the requester stores
 * seq and waits for the reply to reach seq; the responder echoes every new
 * request until told to stop. The c2c/ cases (floor/c2c.c) and
 * --c2c-matrix use them.
 */
void mmscale_c2c_round_trips(_Atomic u64 *req, _Atomic u64 *reply, u64 n)
{
	unsigned int spins = 0;

	for (u64 seq = 1; seq <= n; seq++) {
		atomic_store_explicit(req, seq, memory_order_release);
		while (atomic_load_explicit(reply, memory_order_acquire) != seq)
			spin_wait_step(&spins);
	}
}

void mmscale_c2c_echo_until_stop(_Atomic u64 *req, _Atomic u64 *reply, _Atomic bool *stop)
{
	unsigned int spins = 0;
	u64 last = 0;

	while (!atomic_load_explicit(stop, memory_order_relaxed)) {
		u64 seq = atomic_load_explicit(req, memory_order_acquire);

		if (seq != last) {
			atomic_store_explicit(reply, seq, memory_order_release);
			last = seq;
		} else {
			spin_wait_step(&spins);
		}
	}
}

/* The matrix's line: both directions on one line, as c2c/pingpong. */
struct matrix_line {
	struct {
		_Atomic u64 ping;
		_Atomic u64 pong;
	} ____cacheline_aligned same_line;
	_Atomic bool stop ____isolated_aligned;
	struct mmscale_partner partner;
};

static void matrix_partner(void *arg)
{
	struct matrix_line *sh = arg;

	mmscale_c2c_echo_until_stop(&sh->same_line.ping, &sh->same_line.pong, &sh->stop);
}

/* --c2c-matrix: round trips between every pair of nodes, outside Google Benchmark. */

#define MATRIX_ROUND_TRIPS	20000
#define MATRIX_TRIALS		5

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
static double matrix_pair(struct matrix_line *sh, int a, int b)
{
	double trials[MATRIX_TRIALS];

	for (int t = 0; t < MATRIX_TRIALS; t++) {
		double start;

		atomic_store(&sh->same_line.ping, 0);
		atomic_store(&sh->same_line.pong, 0);
		atomic_store(&sh->stop, false);
		if (mmscale_cpu_enter(a, NULL, 0) != 0)
			return -1;
		if (mmscale_partner_start(&sh->partner, b, matrix_partner, sh, NULL, 0) != 0) {
			mmscale_cpu_leave();
			return -1;
		}
		start = now_ns();
		mmscale_c2c_round_trips(&sh->same_line.ping, &sh->same_line.pong,
				      MATRIX_ROUND_TRIPS);
		trials[t] = (now_ns() - start) / MATRIX_ROUND_TRIPS;
		atomic_store(&sh->stop, true);
		mmscale_partner_join(&sh->partner);
		mmscale_cpu_leave();
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
	struct matrix_line *sh = mmscale_alloc_global(sizeof(*sh), err, errlen);

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
