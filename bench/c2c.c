// SPDX-License-Identifier: GPL-2.0
/*
 * Cache-line round trips, the harness's own measure: the requester and
 * responder loops that the c2c/ cases (cases/floor/c2c.c) time, and
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
#include "mmscale/kernel/timekeeping.h"
#include "mmscale/notice.h"

/*
 * Round trips through a request and a reply location: the requester stores
 * seq and waits for the reply to reach seq; the responder echoes every new
 * request until told to stop. The c2c/ cases (cases/floor/c2c.c) and
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
		start = (double)ktime_get_ns();
		mmscale_c2c_round_trips(&sh->same_line.ping, &sh->same_line.pong,
				      MATRIX_ROUND_TRIPS);
		trials[t] = ((double)ktime_get_ns() - start) / MATRIX_ROUND_TRIPS;
		atomic_store(&sh->stop, true);
		mmscale_partner_join(&sh->partner);
		mmscale_cpu_leave();
	}
	qsort(trials, MATRIX_TRIALS, sizeof(trials[0]), cmp_double);
	return trials[MATRIX_TRIALS / 2];
}

#define MATRIX_HEADER "c2c/pingpong round trip, ns: median of %d x %d round trips on one cache line"

void mmscale_c2c_matrix_print(const struct mmscale_c2c_matrix *m, bool json, FILE *out)
{
	int n = m->nr_nodes;

	if (json) {
		fprintf(out, "{\n  \"what\": \"" MATRIX_HEADER "\",\n",
			MATRIX_TRIALS, MATRIX_ROUND_TRIPS);
		fprintf(out, "  \"rows\": \"reader node (its CPU times the round trips)\",\n"
			"  \"columns\": \"writer node (its CPU answers them)\",\n  \"nodes\": [");
		for (int a = 0; a < n; a++)
			fprintf(out, "%s%d", a ? ", " : "", m->node_os[a]);
		fputs("],\n  \"ns\": [", out);
		for (int a = 0; n > 1 && a < n; a++) {
			fprintf(out, "%s\n    [", a ? "," : "");
			for (int b = 0; b < n; b++) {
				double ns = m->ns[a * n + b];

				if (ns < 0)
					fprintf(out, "%snull", b ? ", " : "");
				else
					fprintf(out, "%s%.1f", b ? ", " : "", ns);
			}
			fputc(']', out);
		}
		fputs(n > 1 ? "\n  ],\n  \"pairs\": [" : "],\n  \"pairs\": [", out);
		for (int a = 0; n > 1 && a < n; a++) {
			fprintf(out, "%s\n    [", a ? "," : "");
			for (int b = 0; b < n; b++) {
				int i = a * n + b;

				fprintf(out, "%s{\"reader_cpu\": %d, \"writer_cpu\": %d, \"smt\": %s}",
					b ? ", " : "", m->reader_pu[i], m->writer_pu[i],
					m->smt[i] ? "true" : "false");
			}
			fputc(']', out);
		}
		fputs(n > 1 ? "\n  ]\n}\n" : "]\n}\n", out);
		return;
	}
	if (n < 2) {
		fprintf(out, "c2c matrix: the plan has one NUMA node (node %d): no node x node "
			"matrix; c2c/pingpong times the round trip within it\n",
			n ? m->node_os[0] : 0);
		return;
	}
	fprintf(out, MATRIX_HEADER "\n", MATRIX_TRIALS, MATRIX_ROUND_TRIPS);
	fputs("row: reader node (its CPU times the round trips); column: writer node (its CPU "
	      "answers); '*': the two CPUs are SMT siblings of one core; '-': no pair of CPUs\n",
	      out);
	fprintf(out, "%9s %s\n", "", "Numa node");
	fprintf(out, "%9s", "Numa node");
	for (int b = 0; b < n; b++)
		fprintf(out, " %8d", m->node_os[b]);
	fputc('\n', out);
	for (int a = 0; a < n; a++) {
		fprintf(out, "%9d", m->node_os[a]);
		for (int b = 0; b < n; b++) {
			int i = a * n + b;

			if (m->ns[i] < 0)
				fprintf(out, " %8s", "- ");
			else
				fprintf(out, " %7.1f%c", m->ns[i], m->smt[i] ? '*' : ' ');
		}
		fputc('\n', out);
	}
}

int mmscale_c2c_matrix(const struct mmscale_plan *p, bool json, FILE *out, char *err,
		       size_t errlen)
{
	const struct mmscale_topology *t = p->topo;
	int nodes = t->nr_nodes;
	size_t cells = (size_t)nodes * (size_t)nodes;
	int *first = malloc((size_t)nodes * sizeof(*first));
	int *second = malloc((size_t)nodes * sizeof(*second));
	int *node_os = malloc((size_t)nodes * sizeof(*node_os));
	double *ns = malloc(cells * sizeof(*ns));
	int *reader = malloc(cells * sizeof(*reader));
	int *writer = malloc(cells * sizeof(*writer));
	bool *smt = malloc(cells * sizeof(*smt));
	struct matrix_line *sh = nodes > 1 ? mmscale_alloc_global(sizeof(*sh), err, errlen) : NULL;
	struct mmscale_c2c_matrix m = { nodes, node_os, ns, reader, writer, smt };
	int ret = 0;

	if (!first || !second || !node_os || !ns || !reader || !writer || !smt ||
	    (nodes > 1 && !sh)) {
		ret = nodes > 1 && !sh ? -1 : mmscale_errorf(err, errlen, "out of memory");
		goto out;
	}
	/* The first two plan CPUs of each node (compact order: distinct cores). */
	for (int n = 0; n < nodes; n++) {
		first[n] = second[n] = -1;
		node_os[n] = t->nodes[n].os_index;
	}
	for (int i = 0; i < p->nr_cpus; i++) {
		int n = p->cpu[i].node;

		if (first[n] < 0)
			first[n] = i;
		else if (second[n] < 0)
			second[n] = i;
	}
	for (int a = 0; a < nodes; a++) {
		for (int b = 0; b < nodes; b++) {
			int peer = a == b ? second[a] : first[b];
			size_t i = (size_t)a * (size_t)nodes + (size_t)b;
			bool pair = first[a] >= 0 && peer >= 0;

			reader[i] = pair ? p->cpu[first[a]].run_pu : -1;
			writer[i] = pair ? p->cpu[peer].run_pu : -1;
			smt[i] = pair && p->cpu[first[a]].core == p->cpu[peer].core;
			/* One node: nothing to measure across nodes (the line says so). */
			ns[i] = pair && nodes > 1 ? matrix_pair(sh, first[a], peer) : -1;
		}
	}
	mmscale_c2c_matrix_print(&m, json, out);
out:
	free(first);
	free(second);
	free(node_os);
	free(ns);
	free(reader);
	free(writer);
	free(smt);
	if (sh)
		mmscale_free_mem(sh, sizeof(*sh));
	return ret;
}
