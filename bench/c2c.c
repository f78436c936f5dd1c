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
#include <pthread.h>
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
 * interrupts every other CPU whose current task shares this process's mm
 * and waits for every answer (kernel/sched/membarrier.c, 5.10+:
 * smp_call_function_many with wait). With k targets busy on PUs of their
 * own, off CPU 0's core (the first such plan CPUs, at most
 * IPI_TARGETS_MAX), a call takes T(k) = T(0) + receive + k x send:
 * ipi_send_ns is the least-squares slope over k = 1..k_max (what the
 * sender spends per target: queueing the call and the interrupt),
 * ipi_receive_ns the intercept less T(0), a call that interrupts no one:
 * the wait for the answers, which come in parallel. A parked thread keeps
 * the process multi-threaded throughout, so that T(0) takes the same path
 * through membarrier as the others (with one thread it returns at once).
 * Each T is the median of MATRIX_TRIALS trials of IPI_CALLS calls. The
 * witness that the IPIs arrived: the targets' function call interrupts
 * (/proc/interrupts' CAL), at least 90% of calls x targets (a target that
 * was not running when a call looked is not interrupted, and T(k) is then
 * too low). A trial slower than IPI_SLOW_NS a call (a hundred times a real
 * machine's) means the targets were not all running at once (vCPUs a host
 * does not run together: scripts/vmtest's guests took 525 us a call with 2
 * targets) and stops the measurement. Either way: no figures, and the note
 * says why.
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

struct ipi_targets {
	int nr;
	int cpu[IPI_TARGETS_MAX];	/* plan CPUs */
	struct mmscale_partner partner[IPI_TARGETS_MAX];
	_Atomic bool stop;
};

/* One number of targets' measurement. */
struct ipi_point {
	double ns;		/* the median trial's ns a call */
	long calls;		/* calls made */
	long long irqs;		/* the targets' CAL interrupts meanwhile; -1: unread */
	bool slow;		/* a trial over IPI_SLOW_NS a call: stopped there */
};

static void ipi_target(void *arg)
{
	struct ipi_targets *tg = arg;

	/* Busy on its PU, so that membarrier interrupts it. */
	while (!atomic_load_explicit(&tg->stop, memory_order_relaxed))
		cpu_relax();
}

static void *ipi_parked(void *arg)
{
	char c;

	/* Blocked, on no CPU, until the pipe closes: a second thread of the mm. */
	while (read(*(int *)arg, &c, 1) < 0 && errno == EINTR)
		;
	return NULL;
}

/* The CAL interrupts of the first k targets' PUs; -1 where one cannot be read. */
static long long ipi_irqs(const struct mmscale_plan *p, const struct ipi_targets *tg, int k)
{
	long long sum = 0;

	for (int i = 0; i < k; i++) {
		long long n = mmscale_function_call_irqs(p->cpu[tg->cpu[i]].run_pu);

		if (n < 0)
			return -1;
		sum += n;
	}
	return sum;
}

/* Calls with the first k targets busy; 0, or -1 with why. */
static int ipi_calls(const struct mmscale_plan *p, struct ipi_targets *tg, int k,
		     struct ipi_point *pt, char *why, size_t whylen)
{
	double trials[MATRIX_TRIALS];
	long long before, after;
	int started = 0, t, ret = 0;

	memset(pt, 0, sizeof(*pt));
	if (mmscale_cpu_enter(0, why, whylen) != 0)
		return -1;
	atomic_store(&tg->stop, false);
	for (; started < k; started++)
		if (mmscale_partner_start(&tg->partner[started], tg->cpu[started], ipi_target, tg,
					  why, whylen) != 0) {
			ret = -1;
			goto stop;
		}
	before = ipi_irqs(p, tg, k);
	for (t = 0; t < MATRIX_TRIALS; t++) {
		double start = (double)ktime_get_ns();

		for (int i = 0; i < IPI_CALLS; i++, pt->calls++)
			if (mmscale_membarrier_ipi_all() != 0) {
				snprintf(why, whylen, "membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED_"
					 "RSEQ): %s", strerror(errno));
				ret = -1;
				goto stop;
			}
		trials[t] = ((double)ktime_get_ns() - start) / IPI_CALLS;
		if (trials[t] > IPI_SLOW_NS) {
			pt->slow = true;
			t++;
			break;
		}
	}
	after = ipi_irqs(p, tg, k);
	pt->irqs = before >= 0 && after >= 0 ? after - before : -1;
	pt->ns = median_of(trials, t);
stop:
	atomic_store(&tg->stop, true);
	while (started > 0)
		mmscale_partner_join(&tg->partner[--started]);
	mmscale_cpu_leave();
	return ret;
}

/* The file's IPI lines: the figures, or a note that says why there are none. */
static void save_ipis(const struct mmscale_plan *p, FILE *f)
{
	struct ipi_targets tg;
	struct ipi_point pt[IPI_TARGETS_MAX + 1];
	double t[IPI_TARGETS_MAX], send = 0, receive = 0;
	char why[256] = "", verdict[320] = "";
	int park[2] = { -1, -1 }, reached = -1, rc;
	pthread_t parked;
	bool fitted = false;

	if (!mmscale_membarrier_available(why, sizeof(why))) {
		fprintf(f, "note = no IPI figure: %s\n", why);
		return;
	}
	/* The first plan CPUs on PUs of their own, off CPU 0's core: the targets. */
	tg.nr = 0;
	for (int i = 1; i < p->nr_cpus && tg.nr < IPI_TARGETS_MAX; i++) {
		bool own = p->cpu[i].run_pu != p->cpu[0].run_pu && p->cpu[i].core != p->cpu[0].core;

		for (int j = 0; j < tg.nr && own; j++)
			own = p->cpu[tg.cpu[j]].run_pu != p->cpu[i].run_pu;
		if (own)
			tg.cpu[tg.nr++] = i;
	}
	if (tg.nr < 2) {
		fprintf(f, "note = no IPI figure: its fit needs 2 CPUs on PUs of their own off PU "
			"%d's core, and the plan has %d\n", p->cpu[0].run_pu, tg.nr);
		return;
	}
	if (pipe(park) != 0) {
		fprintf(f, "note = no IPI figure: no pipe for a parked thread: %s\n",
			strerror(errno));
		return;
	}
	rc = pthread_create(&parked, NULL, ipi_parked, &park[0]);
	if (rc != 0) {
		fprintf(f, "note = no IPI figure: no parked thread to keep membarrier's path: %s\n",
			strerror(rc));
		close(park[0]);
		close(park[1]);
		return;
	}
	for (int k = 0; k <= tg.nr; k++) {
		if (ipi_calls(p, &tg, k, &pt[k], why, sizeof(why)) != 0) {
			snprintf(verdict, sizeof(verdict), "no IPI figure: %s", why);
			break;
		}
		reached = k;
		if (k)
			t[k - 1] = pt[k].ns;
		if (pt[k].slow) {
			snprintf(verdict, sizeof(verdict), "no IPI figure: stopped at %d targets, a "
				 "trial over %.0f ns a call (the targets were not all running at "
				 "once)", k, IPI_SLOW_NS);
			break;
		}
		if (k && pt[k].irqs >= 0 && pt[k].irqs < 0.9 * (double)k * (double)pt[k].calls) {
			snprintf(verdict, sizeof(verdict), "no IPI figure: stopped at %d targets, "
				 "fewer interrupts than calls x targets (a target not running when "
				 "a call looked is not interrupted)", k);
			break;
		}
	}
	close(park[1]);		/* the parked thread's read returns */
	pthread_join(parked, NULL);
	close(park[0]);
	if (reached < 0) {
		fprintf(f, "note = %s\n", verdict);
		return;
	}
	if (!verdict[0]) {
		fitted = mmscale_ipi_fit(t, tg.nr, pt[0].ns, &send, &receive) == 0;
		snprintf(verdict, sizeof(verdict), "%s", fitted ? "ipi_send_ns the slope over k, "
			 "ipi_receive_ns its intercept less the call with no target" :
			 "no IPI figure: the fit's slope or wait is not above 0");
	}
	if (fitted) {
		fprintf(f, "ipi_send_ns = %.1f\n", send);
		fprintf(f, "ipi_receive_ns = %.1f\n", receive);
	}
	fprintf(f, "note = ipi: membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED_RSEQ) from PU %d, a "
		"parked thread beside it, to the first k of PUs", p->cpu[0].run_pu);
	for (int i = 0; i < tg.nr; i++)
		fprintf(f, "%s%d", i ? "," : " ", p->cpu[tg.cpu[i]].run_pu);
	fprintf(f, " busy; the median of %d trials of %d calls: %.1f ns with no target",
		MATRIX_TRIALS, IPI_CALLS, pt[0].ns);
	for (int k = 1; k <= reached; k++) {
		fprintf(f, ", %.1f with %d", pt[k].ns, k);
		if (pt[k].irqs >= 0)
			fprintf(f, " (%lld interrupts for %ld calls)", pt[k].irqs, pt[k].calls);
		else
			fprintf(f, " (interrupts unread)");
	}
	fprintf(f, "; %s\n", verdict);
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
