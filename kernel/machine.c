// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel layer's side of the machine (include/mmscale/kernel/machine.h):
 * the CPUs it knows (nr_cpu_ids, the online mask, which one the calling
 * thread is), and its requests to the machine for memory and threads.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "mmscale/kernel/cpumask.h"
#include "mmscale/kernel/machine.h"
#include "mmscale/kernel/percpu.h"
#include "mmscale/kernel/processor.h"
#include "mmscale/kernel/qspinlock.h"
#include "mmscale/kernel/transfers.h"
#include "mmscale/opcount.h"

const struct machine *the_machine;
_Thread_local int mmscale_this_cpu = -1;
unsigned int nr_cpu_ids;
struct cpumask __cpu_online_mask;

int mmscale_errorf(char *err, size_t len, const char *fmt, ...)
{
	va_list ap;

	if (err && len) {
		va_start(ap, fmt);
		vsnprintf(err, len, fmt, ap);
		va_end(ap);
	}
	return -1;
}

void mmscale_kernel_bug(const char *what)
{
	fprintf(stderr, "mmscale: internal error: %s\n", what);
	abort();
}

/* The task an emulated thread is, as struct mutex's owner word names it (mutex.h). */
_Thread_local char mmscale_mutex_task;

void mmscale_no_cpu(void)
{
	mmscale_kernel_bug("smp_processor_id() called on a thread that is not an emulated CPU");
}

void mmscale_spin_yield(void)
{
	sched_yield();
}

int machine_boot(const struct machine *m, char *err, size_t errlen)
{
	if (m->nr_cpus > NR_CPUS)
		return mmscale_errorf(err, errlen,
			"the plan has %u CPUs; mmscale emulates at most NR_CPUS=%d", m->nr_cpus,
			NR_CPUS);
	machine_halt();
	if (setup_per_cpu_areas(m->percpu_units, m->nr_cpus, m->unit_size) != 0 ||
	    mmscale_counts_registry_init((int)m->nr_cpus) != 0) {
		machine_halt();
		return mmscale_errorf(err, errlen, "out of memory");
	}
	if (qspinlock_boot(err, errlen) != 0) {
		machine_halt();
		return -1;
	}
	if (mmscale_transfers_counting()) {
		struct mmscale_xfer_topology t = {
			.nr_cpus = (int)m->nr_cpus, .core = m->cpu_core,
			.llc = m->cpu_llc, .node = m->cpu_node,
		};

		if (!m->cpu_core || !m->cpu_llc) {
			machine_halt();
			return mmscale_errorf(err, errlen, "transfers: the machine gives no cores");
		}
		if (mmscale_transfers_boot(&t, err, errlen) != 0) {
			machine_halt();
			return -1;
		}
	}
	the_machine = m;
	nr_cpu_ids = m->nr_cpus;
	machine_online_cpus(nr_cpu_ids);
	return 0;
}

void machine_halt(void)
{
	mmscale_transfers_halt();
	qspinlock_halt();
	free_per_cpu_areas();
	mmscale_counts_registry_free();
	nr_cpu_ids = 0;
	cpumask_clear(&__cpu_online_mask);
	the_machine = NULL;
}

void machine_online_cpus(unsigned int k)
{
	cpumask_clear(&__cpu_online_mask);
	for (unsigned int cpu = 0; cpu < k && cpu < nr_cpu_ids; cpu++)
		cpumask_set_cpu(cpu, &__cpu_online_mask);
}

void machine_cpu_enter(int cpu)
{
	mmscale_this_cpu = cpu;
	mmscale_counts_register(cpu);
}

void machine_cpu_leave(void)
{
	mmscale_counts_unregister(mmscale_this_cpu);
	mmscale_this_cpu = -1;
}

/* The counting build names a line by the allocation it is in, and its caller. */
static void *alloc_noted(int node, size_t size, char *err, size_t errlen, void *caller)
{
	void *p = the_machine->ops->alloc_on_node(node, size, err, errlen);

#ifdef MMSCALE_TRANSFERS
	if (p)
		mmscale_transfers_note_alloc(false, (uintptr_t)p, size, (uintptr_t)caller);
#endif
	return p;
}

void *alloc_on_node(int node, size_t size, char *err, size_t errlen)
{
	return alloc_noted(node, size, err, errlen, __builtin_return_address(0));
}

void *alloc_global(size_t size, char *err, size_t errlen)
{
	return alloc_noted(0, size, err, errlen, __builtin_return_address(0));
}

void free_on_node(void *p, size_t size)
{
	if (!p)
		return;
#ifdef MMSCALE_TRANSFERS
	mmscale_transfers_note_free(false, (uintptr_t)p);
#endif
	the_machine->ops->free_on_node(p, size);
}
