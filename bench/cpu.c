// SPDX-License-Identifier: GPL-2.0
/*
 * Emulated CPUs and where their memory lives.
 *
 * Design choice: the threads that do a case's measured work are Google
 * Benchmark's own threads. Each binds itself, inside the body, to the PU the
 * plan gives its thread index and becomes that emulated CPU (Debian's
 * Google Benchmark 1.7 has no custom thread runner). That keeps GB's start
 * and stop barriers, its timing and its per-thread counter sums exactly as
 * GB documents them. Emulated CPUs that must merely stay alive and answer
 * cross-CPU calls while the measured threads run (the idle and victim CPUs
 * of the drain cases) are not GB threads: a case that needs them starts a
 * pool of pinned threads for CPUs T..N-1 in its setup and stops it in its
 * teardown, so they outlive GB's per-run threads. Per-CPU data never lives
 * in a thread: it is in the per-CPU units set up here, keyed by emulated
 * CPU, so it survives GB creating new threads for every run.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include <numa.h>

#include "mmscale/cpu.h"
#include "mmscale/kernel/transfers.h"
#include "mmscale/kernel/cpumask.h"
#include "mmscale/kernel/machine.h"
#include "mmscale/kernel/percpu.h"
#include "mmscale/notice.h"

/* The machine of the plan, and what the kernel layer sees of it (machine.kernel). */
static struct {
	const struct mmscale_plan *plan;
	bool numa;			/* libnuma usable: bind memory to nodes */
	char **units;			/* per emulated CPU */
	size_t unit_size;
	int *cpu_node;			/* per emulated CPU: its planned node */
	int *cpu_core, *cpu_llc;	/* per emulated CPU: its core and last-level cache */
	struct machine kernel;		/* what the kernel layer sees of it */
} machine;

static _Thread_local int this_run_pu = -1;
/* The affinity a thread had before it became an emulated CPU, restored on leave. */
static _Thread_local cpu_set_t saved_affinity;
static _Thread_local bool saved_affinity_valid;

const struct mmscale_plan *mmscale_machine_plan(void)
{
	return machine.plan;
}

/* The real node memory for a planned node comes from (-1: no binding). */
static int real_node_for(int plan_node, int run_pu)
{
	const struct mmscale_plan *p = machine.plan;

	if (!machine.numa)
		return -1;
	if (mmscale_topology_stand_in(p->topo)) {
		/*
		 * The planned node does not exist here: use the PU's real node,
		 * or the nearest this process may allocate on (cgroup mems,
		 * numactl --membind).
		 */
		return mmscale_topology_real_mem_node(p->topo,
						      run_pu >= 0 ? numa_node_of_cpu(run_pu) : 0);
	}
	return p->topo->nodes[p->topo->nodes[plan_node].mem_node].os_index;
}

static void *alloc_real(int real_node, size_t size, char *err, size_t errlen)
{
	void *mem;

	if (real_node >= 0) {
		long long free_bytes = 0;

		/*
		 * A binding to a node that cannot hold the allocation is an OOM
		 * kill when its pages are first touched: refuse it now instead,
		 * naming the node and the size.
		 */
		if (numa_node_size64(real_node, &free_bytes) < 0 ||
		    (unsigned long long)free_bytes < size)
			return mmscale_errorf(err, errlen, "cannot allocate %zu bytes on node %d: "
					      "it has %lld bytes free", size, real_node,
					      free_bytes), NULL;
		mem = numa_alloc_onnode(size, real_node);
		if (!mem)
			mmscale_errorf(err, errlen, "cannot allocate %zu bytes on node %d",
				       size, real_node);
		return mem;	/* numa_alloc_* returns zeroed pages (mmap) */
	}
	mem = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (mem == MAP_FAILED) {
		mmscale_errorf(err, errlen, "cannot allocate %zu bytes: %s", size,
			       strerror(errno));
		return NULL;
	}
	return mem;
}

void *mmscale_alloc_on_node(int node, size_t size, char *err, size_t errlen)
{
	return alloc_real(real_node_for(node, -1), size, err, errlen);
}

void *mmscale_alloc_global(size_t size, char *err, size_t errlen)
{
	void *p = mmscale_alloc_on_node(0, size, err, errlen);

#ifdef MMSCALE_TRANSFERS
	/* A case's own shared data (the c2c floor's lines), named by the case in --transfers. */
	if (p)
		mmscale_transfers_note_alloc(false, (uintptr_t)p, size,
					     (uintptr_t)__builtin_return_address(0));
#endif
	return p;
}

void mmscale_free_mem(void *p, size_t size)
{
	if (!p)
		return;
#ifdef MMSCALE_TRANSFERS
	mmscale_transfers_note_free(false, (uintptr_t)p);
#endif
	if (machine.numa)
		numa_free(p, size);
	else
		munmap(p, size);
}

static struct kthread *machine_kthread_run(int cpu, void (*fn)(void *arg), void *arg,
					  char *err, size_t errlen)
{
	struct mmscale_partner *p = calloc(1, sizeof(*p));

	if (!p)
		return mmscale_errorf(err, errlen, "out of memory"), NULL;
	if (mmscale_partner_start(p, cpu, fn, arg, err, errlen) != 0) {
		free(p);
		return NULL;
	}
	return (struct kthread *)p;
}

static void machine_kthread_stop(struct kthread *t)
{
	struct mmscale_partner *p = (struct mmscale_partner *)t;

	mmscale_partner_join(p);
	free(p);
}

static const struct machine_ops machine_ops = {
	.alloc_on_node = mmscale_alloc_on_node,
	.free_on_node = mmscale_free_mem,
	.kthread_run = machine_kthread_run,
	.kthread_stop = machine_kthread_stop,
};

int mmscale_machine_setup(const struct mmscale_plan *p, enum mmscale_spin spin, char *err,
			  size_t errlen)
{
	int n = p->nr_cpus;

	if (machine.plan == p) {
		/* The same machine; only the spin policy may differ. */
		machine.kernel.spin_yields = spin == MMSCALE_SPIN_YIELD ||
					     mmscale_plan_oversubscribed(p, n);
		return 0;
	}
	if (machine.plan)
		mmscale_machine_teardown();
	machine.plan = p;
	machine.numa = numa_available() >= 0;
	if (!machine.numa)
		mmscale_notice("libnuma: NUMA is not available here; memory is not bound to nodes");
	machine.unit_size = MMSCALE_PERCPU_UNIT_SIZE;
	machine.units = calloc((size_t)n, sizeof(*machine.units));
	machine.cpu_node = calloc((size_t)n, sizeof(*machine.cpu_node));
	machine.cpu_core = calloc((size_t)n, sizeof(*machine.cpu_core));
	machine.cpu_llc = calloc((size_t)n, sizeof(*machine.cpu_llc));
	if (!machine.units || !machine.cpu_node || !machine.cpu_core || !machine.cpu_llc) {
		mmscale_machine_teardown();
		return mmscale_errorf(err, errlen, "out of memory");
	}
	/* Units are mapped, not touched: pages fault in on their node when used. */
	for (int cpu = 0; cpu < n; cpu++) {
		const struct mmscale_cpu_info *c = &p->cpu[cpu];

		machine.units[cpu] = alloc_real(real_node_for(c->node, c->run_pu),
						machine.unit_size, err, errlen);
		if (!machine.units[cpu]) {
			mmscale_machine_teardown();
			return -1;
		}
		machine.cpu_node[cpu] = c->node;
		machine.cpu_core[cpu] = p->topo->pus[c->pu].core;
		machine.cpu_llc[cpu] = p->topo->pus[c->pu].llc;
	}
	machine.kernel = (struct machine){
		.ops = &machine_ops,
		.nr_cpus = (unsigned int)n,
		.nr_nodes = p->topo->nr_nodes,
		.cpu_node = machine.cpu_node,
		.cpu_core = machine.cpu_core,
		.cpu_llc = machine.cpu_llc,
		.percpu_units = machine.units,
		.unit_size = machine.unit_size,
		.spin_yields = spin == MMSCALE_SPIN_YIELD || mmscale_plan_oversubscribed(p, n),
	};
	if (machine_boot(&machine.kernel, err, errlen) != 0) {
		mmscale_machine_teardown();
		return -1;
	}
	return 0;
}

int mmscale_machine_percpu_owner(uintptr_t addr, size_t *offset)
{
	for (int cpu = 0; machine.plan && machine.units && cpu < machine.plan->nr_cpus; cpu++) {
		uintptr_t base = (uintptr_t)machine.units[cpu];

		if (addr - base < machine.unit_size) {
			*offset = addr - base;
			return cpu;
		}
	}
	return -1;
}

void mmscale_machine_teardown(void)
{
	machine_halt();
	if (machine.units) {
		for (unsigned int cpu = 0; machine.plan && cpu < (unsigned int)machine.plan->nr_cpus; cpu++)
			mmscale_free_mem(machine.units[cpu], machine.unit_size);
	}
	free(machine.units);
	free(machine.cpu_node);
	free(machine.cpu_core);
	free(machine.cpu_llc);
	machine.units = NULL;
	machine.cpu_node = NULL;
	machine.cpu_core = NULL;
	machine.cpu_llc = NULL;
	machine.plan = NULL;
}

int mmscale_cpu_enter(int cpu, char *err, size_t errlen)
{
	const struct mmscale_plan *p = machine.plan;
	cpu_set_t set;
	int rc;

	if (!p || cpu < 0 || cpu >= p->nr_cpus)
		return mmscale_errorf(err, errlen, "emulated CPU %d is not in the plan (%d CPUs)",
				      cpu, p ? p->nr_cpus : 0);
	saved_affinity_valid = sched_getaffinity(0, sizeof(saved_affinity),
						 &saved_affinity) == 0;
	CPU_ZERO(&set);
	CPU_SET(p->cpu[cpu].run_pu, &set);
	rc = pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
	if (rc != 0)
		return mmscale_errorf(err, errlen, "cannot bind emulated CPU %d to PU %d: %s",
				      cpu, p->cpu[cpu].run_pu, strerror(rc));
	this_run_pu = p->cpu[cpu].run_pu;
	machine_cpu_enter(cpu);
	return 0;
}

bool mmscale_cpu_leave(void)
{
	bool moved = this_run_pu >= 0 && sched_getcpu() != this_run_pu;

	machine_cpu_leave();
	this_run_pu = -1;
	/*
	 * Google Benchmark runs thread 0 on the main thread: give it back the
	 * affinity it had, so the reporter and the next run's thread creation
	 * are not confined to one PU.
	 */
	if (saved_affinity_valid)
		sched_setaffinity(0, sizeof(saved_affinity), &saved_affinity);
	saved_affinity_valid = false;
	return moved;
}

static void *partner_main(void *arg)
{
	struct mmscale_partner *p = arg;

	char err[256];
	int rc = mmscale_cpu_enter(p->cpu, err, sizeof(err));

	/* Tell mmscale_partner_start whether we are in place before doing anything. */
	atomic_store_explicit(&p->state, rc == 0 ? 1 : -1, memory_order_release);
	if (rc == 0) {
		p->fn(p->arg);
		mmscale_cpu_leave();
	}
	return NULL;
}

int mmscale_partner_start(struct mmscale_partner *p, int cpu, void (*fn)(void *arg),
			  void *arg, char *err, size_t errlen)
{
	pthread_t th;
	int rc;

	p->cpu = cpu;
	p->fn = fn;
	p->arg = arg;
	p->started = false;
	atomic_store(&p->state, 0);
	{
		pthread_attr_t attr;

		/* Partners run small loops: 256 KiB stacks keep a 1024-CPU stand-in small. */
		pthread_attr_init(&attr);
		pthread_attr_setstacksize(&attr, 256 * 1024);
		rc = pthread_create(&th, &attr, partner_main, p);
		pthread_attr_destroy(&attr);
	}
	if (rc != 0)
		return mmscale_errorf(err, errlen, "cannot start emulated CPU %d: %s", cpu,
				      strerror(rc));
	p->thread = (unsigned long)th;
	p->started = true;
	/* Start-up only: wait until it is bound (or could not be). */
	while ((rc = atomic_load_explicit(&p->state, memory_order_acquire)) == 0)
		sched_yield();
	if (rc < 0) {
		mmscale_partner_join(p);
		return mmscale_errorf(err, errlen, "cannot bind emulated CPU %d to PU %d",
				      cpu, machine.plan->cpu[cpu].run_pu);
	}
	return 0;
}

void mmscale_partner_join(struct mmscale_partner *p)
{
	if (!p->started)
		return;
	pthread_join((pthread_t)p->thread, NULL);
	p->started = false;
}

int mmscale_pool_start(struct mmscale_cpu_pool *pool, int first, int nr,
		       void (*fn)(void *arg), void *arg, char *err, size_t errlen)
{
	pool->first = first;
	pool->nr = 0;
	atomic_store(&pool->stop, false);
	pool->partners = calloc((size_t)(nr > 0 ? nr : 1), sizeof(*pool->partners));
	if (!pool->partners)
		return mmscale_errorf(err, errlen, "out of memory");
	for (int i = 0; i < nr; i++) {
		if (mmscale_partner_start(&pool->partners[i], first + i, fn, arg, err, errlen) != 0) {
			mmscale_pool_stop(pool);
			return -1;
		}
		pool->nr++;
	}
	return 0;
}

void mmscale_pool_stop(struct mmscale_cpu_pool *pool)
{
	atomic_store(&pool->stop, true);
	for (int i = 0; i < pool->nr; i++)
		mmscale_partner_join(&pool->partners[i]);
	free(pool->partners);
	pool->partners = NULL;
	pool->nr = 0;
}

/*
 * --verify-placement: ask the kernel where every emulated CPU's per-CPU
 * unit and the global data really are (move_pages in query mode) and
 * compare with the plan. Returns the number of mismatches, or -1 with err.
 */
int mmscale_verify_placement(FILE *out, char *err, size_t errlen)
{
	const struct mmscale_plan *p = machine.plan;
	const struct mmscale_topology *t;
	long *probe;
	void *global;
	int bad = 0, n;

	if (!p)
		return mmscale_errorf(err, errlen, "no machine");
	t = p->topo;
	if (!machine.numa)
		return mmscale_errorf(err, errlen, "NUMA is not available here: placement "
				      "cannot be verified");
	n = p->nr_cpus;
	probe = alloc_percpu(long);	/* zeroed: every unit's page is touched now */
	global = mmscale_alloc_global(4096, err, errlen);
	if (!probe || !global) {
		free_percpu(probe);
		return probe ? -1 : mmscale_errorf(err, errlen, "per-CPU units full");
	}
	memset(global, 1, 4096);
	for (int cpu = 0; cpu < n; cpu++) {
		void *page = per_cpu_ptr(probe, cpu);
		int status = -1, want = t->nodes[p->cpu[cpu].mem_node].os_index;

		if (numa_move_pages(0, 1, &page, NULL, &status, 0) != 0 || status != want) {
			bad++;
			fprintf(out, "cpu %d: per-CPU data on node %d, planned node %d (its CPU is on "
				"node %d)\n", cpu, status, want, t->nodes[p->cpu[cpu].node].os_index);
		}
	}
	{
		int status = -1, want = t->nodes[t->nodes[0].mem_node].os_index;

		if (numa_move_pages(0, 1, &global, NULL, &status, 0) != 0 || status != want) {
			bad++;
			fprintf(out, "global data on node %d, planned node %d\n", status, want);
		}
	}
	fprintf(out, "placement: %d emulated CPUs' per-CPU data and the global data checked with "
		"move_pages: %s\n", n, bad ? "MISMATCHES above" : "all on their planned nodes");
	free_percpu(probe);
	mmscale_free_mem(global, 4096);
	return bad;
}
