// SPDX-License-Identifier: GPL-2.0
/*
 * Cache-line round trips, the harness's own measure: the requester and
 * responder loops that the c2c/ cases (cases/floor/c2c.c) time, and
 * --c2c-matrix, which times them between every pair of nodes of the plan
 * outside Google Benchmark.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "mmscale/c2c.h"
#include "mmscale/cpu.h"
#include "mmscale/kernel/compiler.h"
#include "mmscale/kernel/processor.h"
#include "mmscale/kernel/timekeeping.h"
#include "mmscale/membarrier.h"
#include "mmscale/notice.h"
#include "mmscale_build.h"

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

/*
 * Locked round trips on one word: each side takes its turn with a
 * compare-and-swap, polling with it and nothing else as core-to-core-latency
 * does (the source of machines/'s files: no pause between tries), so that a
 * measured locked_ns is what theirs is: a locked operation on a line the
 * other CPU holds. The requester moves the word from even to odd, the
 * responder from odd to even; the requester's n round trips end when the
 * responder's n-th move is seen. Every 2^20 failed tries the CPU is yielded,
 * so that a partner that lost its CPU gets it back.
 */
static void cas_turn(_Atomic u64 *word, u64 from)
{
	u64 want = from;
	unsigned int tries = 0;

	while (!atomic_compare_exchange_strong_explicit(word, &want, from + 1,
							memory_order_acq_rel,
							memory_order_acquire)) {
		want = from;
		if (!(++tries & ((1u << 20) - 1)))
			sched_yield();
	}
}

static void locked_round_trips(_Atomic u64 *word, u64 n)
{
	unsigned int tries = 0;

	for (u64 seq = 0; seq < n; seq++)
		cas_turn(word, 2 * seq);
	while (atomic_load_explicit(word, memory_order_acquire) != 2 * n)
		if (!(++tries & ((1u << 20) - 1)))
			sched_yield();
}

static void locked_echo_until_stop(_Atomic u64 *word, _Atomic bool *stop)
{
	unsigned int tries = 0;
	u64 odd = 1;

	while (!atomic_load_explicit(stop, memory_order_relaxed)) {
		u64 want = odd;

		if (atomic_compare_exchange_strong_explicit(word, &want, odd + 1,
							    memory_order_acq_rel,
							    memory_order_acquire))
			odd += 2;
		else if (!(++tries & ((1u << 20) - 1)))
			sched_yield();
	}
}

/* The matrix's line: both directions on one line, as c2c/pingpong. */
struct matrix_line {
	struct {
		_Atomic u64 ping;
		_Atomic u64 pong;
	} ____cacheline_aligned same_line;
	_Atomic bool stop ____isolated_aligned;
	bool locked;	/* compare-and-swap round trips on ping alone */
	struct mmscale_partner partner;
};

static void matrix_partner(void *arg)
{
	struct matrix_line *sh = arg;

	if (sh->locked)
		locked_echo_until_stop(&sh->same_line.ping, &sh->stop);
	else
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
		if (sh->locked)
			locked_round_trips(&sh->same_line.ping, MATRIX_ROUND_TRIPS);
		else
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

/* A pair's median round trips, plain and locked (ns); -1 if either could not run. */
static int matrix_pair_both(struct matrix_line *sh, int a, int b, double *plain, double *locked)
{
	sh->locked = false;
	*plain = matrix_pair(sh, a, b);
	sh->locked = true;
	*locked = *plain < 0 ? -1 : matrix_pair(sh, a, b);
	sh->locked = false;
	return *plain < 0 || *locked < 0 ? -1 : 0;
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
	if (sh)
		sh->locked = false;	/* the matrix is c2c/pingpong's round trips */
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

/*
 * --save-machine=FILE: this machine's description for scripts/project, in
 * the format scripts/machines.py reads ("mmscale-machine 1"). From plan CPU
 * 0, one pair per class the plan has: its SMT sibling (core), another core
 * of its last-level cache (cache), a CPU of another LLC of its node (node),
 * and the first CPU of every other node (remote, and remote by hwloc
 * distance: the median of that distance's nodes). A round trip on one line
 * moves it twice (c2c/pingpong's floor), so each class's transfer is half
 * its pair's median round trip; each pair is timed again with locked round
 * trips (compare-and-swap on one word, locked_round_trips) for the class's
 * locked_ns. The IPI figures come from membarrier(2) (save_ipis, below),
 * where the plan has two CPUs on their own PUs beside CPU 0; where it has
 * not, the file says so, and the projection names IPIs unpriced.
 */
enum { CLASS_CORE, CLASS_CACHE, CLASS_NODE, NR_LOCAL_CLASSES };
static const char *const class_name[NR_LOCAL_CLASSES] = { "core", "cache", "node" };

static int pu_llc(const struct mmscale_plan *p, int cpu)
{
	return p->topo->pus[p->cpu[cpu].pu].llc;
}

static double median_of(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/*
 * FILE.tmp, created here and only here (O_EXCL: one already there, a write
 * in progress or one left behind, is never truncated or removed): a stream,
 * or NULL with one line in err.
 */
static FILE *create_tmp(const char *path, char *tmp, size_t len, char *err, size_t errlen)
{
	FILE *f;
	int fd;

	if ((size_t)snprintf(tmp, len, "%s.tmp", path) >= len) {
		mmscale_errorf(err, errlen, "--save-machine=%s: the name is too long", path);
		return NULL;
	}
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL, 0644);
	if (fd < 0) {
		mmscale_errorf(err, errlen, "--save-machine=%s: %s: %s", path, tmp, strerror(errno));
		return NULL;
	}
	f = fdopen(fd, "w");
	if (!f) {
		mmscale_errorf(err, errlen, "--save-machine=%s: %s", path, strerror(errno));
		close(fd);
		unlink(tmp);
	}
	return f;
}

int mmscale_c2c_save_machine_check(const char *path, char *err, size_t errlen)
{
	char tmp[4096];
	FILE *f = create_tmp(path, tmp, sizeof(tmp), err, errlen);

	if (!f)
		return -1;
	fclose(f);
	unlink(tmp);
	return 0;
}

/*
 * The IPI figures. membarrier(2)'s expedited RSEQ command, from plan CPU 0,
 * interrupts every CPU where a thread of this process runs and waits for
 * every answer (kernel/sched/membarrier.c: smp_call_function_many, wait).
 * With k targets busy on their own PUs (plan CPUs 1..k; the rest not
 * started, so not interrupted) a call takes T(k) = T(0) + receive + k x
 * send: ipi_send_ns is the least-squares slope over k = 1..IPI_TARGETS_MAX
 * (what the sender spends per target: queueing the call and the interrupt),
 * ipi_receive_ns the intercept less T(0), a call with no target (the system
 * call alone): the wait for the answers, which come in parallel. Each T is
 * the median of MATRIX_TRIALS trials of IPI_CALLS calls. The witness that
 * they arrived: CPU 1's function call interrupts (/proc/interrupts' CAL).
 * A call slower than IPI_SLOW_NS (a hundred times a real machine's) means
 * the targets are not all running at once - more busy threads than free
 * PUs, or vCPUs a host does not run together (scripts/vmtest's guests: 525
 * us a call with 2 targets) - and stops the measurement, without figures.
 */
#define IPI_TARGETS_MAX	8
#define IPI_CALLS	2000
#define IPI_SLOW_NS	500000.0

int mmscale_ipi_fit(const double *t, int k_max, double t0, double *send, double *receive)
{
	double n = k_max, sk = 0, st = 0, skk = 0, skt = 0;

	if (k_max < 2)
		return -1;
	for (int k = 1; k <= k_max; k++) {
		sk += k;
		st += t[k - 1];
		skk += (double)k * k;
		skt += k * t[k - 1];
	}
	*send = (n * skt - sk * st) / (n * skk - sk * sk);
	*receive = (st - *send * sk) / n - t0;
	return *send > 0 && *receive > 0 ? 0 : -1;
}

static void ipi_target(void *arg)
{
	struct mmscale_cpu_pool *pool = arg;

	/* Busy on its PU, so that membarrier interrupts it. */
	while (!atomic_load_explicit(&pool->stop, memory_order_relaxed))
		cpu_relax();
}

/* ns a broadcast call with plan CPUs 1..k busy; CPU 1's CAL interrupts meanwhile in irqs. */
static double ipi_calls(const struct mmscale_plan *p, int k, long long *irqs)
{
	struct mmscale_cpu_pool pool;
	double trials[MATRIX_TRIALS];
	long long before = -1, after;
	int failed = 0;

	*irqs = -1;
	if (mmscale_cpu_enter(0, NULL, 0) != 0)
		return -1;
	if (k && mmscale_pool_start(&pool, 1, k, ipi_target, &pool, NULL, 0) != 0) {
		mmscale_cpu_leave();
		return -1;
	}
	if (k)
		before = mmscale_function_call_irqs(p->cpu[1].run_pu);
	for (int t = 0; t < MATRIX_TRIALS && !failed; t++) {
		double start = (double)ktime_get_ns();

		for (int i = 0; i < IPI_CALLS && !failed; i++)
			failed = mmscale_membarrier_ipi_all() != 0;
		trials[t] = ((double)ktime_get_ns() - start) / IPI_CALLS;
		if (trials[t] > IPI_SLOW_NS) {
			/* Not worth 4 more trials: the caller stops here (save_ipis). */
			for (int u = t + 1; u < MATRIX_TRIALS; u++)
				trials[u] = trials[t];
			break;
		}
	}
	if (k) {
		after = mmscale_function_call_irqs(p->cpu[1].run_pu);
		if (before >= 0 && after >= 0)
			*irqs = after - before;
		mmscale_pool_stop(&pool);
	}
	mmscale_cpu_leave();
	return failed ? -1 : median_of(trials, MATRIX_TRIALS);
}

/* The file's IPI lines: the figures, or a note that says why there are none. */
static void save_ipis(const struct mmscale_plan *p, FILE *f)
{
	double t[IPI_TARGETS_MAX], t0, send, receive;
	long long irqs = -1, irqs_k;
	char why[256];
	int k_max = 0, slow_at = 0;
	bool fitted;

	if (!mmscale_membarrier_available(why, sizeof(why))) {
		fprintf(f, "note = no IPI figure: %s\n", why);
		return;
	}
	/* Plan CPUs 1.. on PUs of their own, none CPU 0's: each one IPI target. */
	while (k_max < IPI_TARGETS_MAX && k_max + 1 < p->nr_cpus) {
		bool own = p->cpu[k_max + 1].run_pu != p->cpu[0].run_pu;

		for (int i = 1; i <= k_max && own; i++)
			own = p->cpu[i].run_pu != p->cpu[k_max + 1].run_pu;
		if (!own)
			break;
		k_max++;
	}
	if (k_max < 2) {
		fprintf(f, "note = no IPI figure: its fit needs 2 CPUs on PUs of their own beside "
			"PU %d, and the plan has %d\n", p->cpu[0].run_pu, k_max);
		return;
	}
	t0 = ipi_calls(p, 0, &irqs_k);
	for (int k = 1; k <= k_max && t0 >= 0; k++) {
		t[k - 1] = ipi_calls(p, k, &irqs_k);
		if (t[k - 1] < 0) {
			t0 = -1;
			break;
		}
		if (k == 1)
			irqs = irqs_k;
		if (t[k - 1] > IPI_SLOW_NS) {
			slow_at = k;
			break;
		}
	}
	if (t0 < 0) {
		fprintf(f, "note = no IPI figure: membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED_RSEQ) "
			"failed, or a target could not start: %s\n", strerror(errno));
		return;
	}
	fitted = !slow_at && mmscale_ipi_fit(t, k_max, t0, &send, &receive) == 0;
	if (fitted) {
		fprintf(f, "ipi_send_ns = %.1f\n", send);
		fprintf(f, "ipi_receive_ns = %.1f\n", receive);
	}
	fprintf(f, "note = ipi: membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED_RSEQ) from PU %d to "
		"plan CPUs 1..k busy on their PUs, the median of %d trials of %d calls: %.1f ns "
		"with no target", p->cpu[0].run_pu, MATRIX_TRIALS, IPI_CALLS, t0);
	for (int k = 1; k <= (slow_at ? slow_at : k_max); k++)
		fprintf(f, ", %.1f with %d", t[k - 1], k);
	if (slow_at)
		fprintf(f, "; no IPI figure: stopped at %d targets, a call over %.0f ns (the "
			"targets were not all running at once: more busy threads than free PUs?)",
			slow_at, IPI_SLOW_NS);
	else
		fprintf(f, "; %s", fitted ? "ipi_send_ns the slope over k, ipi_receive_ns its "
			"intercept less the call with no target" :
			"no IPI figure: the fit's slope or wait is not above 0");
	if (irqs >= 0)
		fprintf(f, "; PU %d took %lld function call interrupts for %d calls with one "
			"target\n", p->cpu[1].run_pu, irqs, MATRIX_TRIALS * IPI_CALLS);
	else
		fprintf(f, "; no count of the interrupts (/proc/interrupts' CAL row unread)\n");
}

int mmscale_c2c_save_machine(const struct mmscale_plan *p, const char *path, char *err,
			     size_t errlen)
{
	const struct mmscale_topology *t = p->topo;
	int nodes = t->nr_nodes, peer[NR_LOCAL_CLASSES] = { -1, -1, -1 };
	int *node_first = malloc((size_t)nodes * sizeof(*node_first));
	double *remote = malloc((size_t)nodes * sizeof(*remote));
	double *same = malloc((size_t)nodes * sizeof(*same));
	double *remote_locked = malloc((size_t)nodes * sizeof(*remote_locked));
	uint64_t *dist = malloc((size_t)nodes * sizeof(*dist));
	struct matrix_line *sh = mmscale_alloc_global(sizeof(struct matrix_line), err, errlen);
	char tmp[4096] = "";
	struct utsname u;
	FILE *f = NULL;
	bool created = false;
	double locked;
	int nr_remote = 0, ret = -1;

	if (!node_first || !remote || !same || !remote_locked || !dist || !sh) {
		if (sh)
			mmscale_errorf(err, errlen, "out of memory");
		goto out;
	}
	f = create_tmp(path, tmp, sizeof(tmp), err, errlen);
	if (!f)
		goto out;
	created = true;
	for (int n = 0; n < nodes; n++)
		node_first[n] = -1;
	for (int i = 0; i < p->nr_cpus; i++) {
		const struct mmscale_cpu_info *c0 = &p->cpu[0], *c = &p->cpu[i];

		if (node_first[c->node] < 0)
			node_first[c->node] = i;
		if (i == 0 || c->run_pu == c0->run_pu)
			continue;
		if (c->core == c0->core && peer[CLASS_CORE] < 0)
			peer[CLASS_CORE] = i;
		else if (c->core != c0->core && pu_llc(p, i) == pu_llc(p, 0) && peer[CLASS_CACHE] < 0)
			peer[CLASS_CACHE] = i;
		else if (c->node == c0->node && pu_llc(p, i) != pu_llc(p, 0) && peer[CLASS_NODE] < 0)
			peer[CLASS_NODE] = i;
	}
	if (uname(&u) != 0)
		snprintf(u.nodename, sizeof(u.nodename), "unknown host");
	fprintf(f, "# written by mmscale --c2c-matrix --save-machine\n"
		"format = mmscale-machine 1\n"
		"name = %s (%s): %d node%s, %d PUs of the plan\n"
		"source = measured by mmscale %s on %s\n"
		"method = mmscale --c2c-matrix --save-machine: from plan CPU 0 (PU %d), one "
		"c2c/pingpong pair per class, the median of %d trials' mean round trip (%d "
		"round trips on one line each), halved (a round trip moves the line twice); "
		"locked_ns the same with compare-and-swap round trips on one word, as "
		"core-to-core-latency measures\n"
		"confidence = measured\n",
		u.nodename, u.machine, nodes, nodes == 1 ? "" : "s", p->nr_pus_used,
		MMSCALE_GIT_REVISION, u.nodename,
		p->cpu[0].run_pu, MATRIX_TRIALS, MATRIX_ROUND_TRIPS);
	for (int k = 0; k < NR_LOCAL_CLASSES; k++) {
		double rt;

		if (peer[k] < 0) {
			fprintf(f, "note = no %s pair: the plan has no such CPU beside PU %d\n",
				class_name[k], p->cpu[0].run_pu);
			continue;
		}
		if (matrix_pair_both(sh, 0, peer[k], &rt, &locked) != 0) {
			mmscale_errorf(err, errlen, "--save-machine: the %s pair (PUs %d and %d) "
				       "could not run", class_name[k], p->cpu[0].run_pu,
				       p->cpu[peer[k]].run_pu);
			goto out;
		}
		fprintf(f, "transfer_ns.%s = %.1f\n", class_name[k], rt / 2);
		fprintf(f, "locked_ns.%s = %.1f\n", class_name[k], locked / 2);
		fprintf(f, "note = %s: PUs %d and %d, %.1f ns a round trip, %.1f locked\n",
			class_name[k], p->cpu[0].run_pu, p->cpu[peer[k]].run_pu, rt, locked);
	}
	for (int n = 0; n < nodes; n++) {
		double rt;

		if (n == p->cpu[0].node || node_first[n] < 0)
			continue;
		if (matrix_pair_both(sh, 0, node_first[n], &rt, &locked) != 0) {
			mmscale_errorf(err, errlen, "--save-machine: the pair of PUs %d and %d could "
				       "not run", p->cpu[0].run_pu, p->cpu[node_first[n]].run_pu);
			goto out;
		}
		dist[nr_remote] = mmscale_node_distance(t, p->cpu[0].node, n);
		remote_locked[nr_remote] = locked / 2;
		remote[nr_remote++] = rt / 2;
	}
	if (nr_remote) {
		memcpy(same, remote, (size_t)nr_remote * sizeof(*same));
		fprintf(f, "transfer_ns.remote = %.1f\n", median_of(same, nr_remote));
		memcpy(same, remote_locked, (size_t)nr_remote * sizeof(*same));
		fprintf(f, "locked_ns.remote = %.1f\n", median_of(same, nr_remote));
		for (int i = 0; i < nr_remote; i++) {
			int m = 0;
			bool first = true;

			for (int j = 0; j < i && first; j++)
				first = dist[j] != dist[i];
			if (!first || !dist[i])
				continue;
			for (int j = i; j < nr_remote; j++)
				if (dist[j] == dist[i])
					same[m++] = remote[j];
			fprintf(f, "transfer_ns.remote.%llu = %.1f\n", (unsigned long long)dist[i],
				median_of(same, m));
		}
	} else {
		fprintf(f, "note = no remote pair: the plan has one node\n");
	}
	save_ipis(p, f);
	if (ferror(f) | (fclose(f) != 0)) {
		f = NULL;
		mmscale_errorf(err, errlen, "--save-machine=%s: %s", path, strerror(errno));
		goto out;
	}
	f = NULL;
	if (rename(tmp, path) != 0) {
		mmscale_errorf(err, errlen, "--save-machine=%s: %s", path, strerror(errno));
		goto out;
	}
	ret = 0;
out:
	if (f)
		fclose(f);
	if (created && ret)
		unlink(tmp);	/* ours: nothing half-written is left behind */
	free(node_first);
	free(remote);
	free(remote_locked);
	free(same);
	free(dist);
	if (sh)
		mmscale_free_mem(sh, sizeof(*sh));
	return ret;
}
