/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The machine the emulated kernel runs on: everything the kernel layer
 * (include/mmscale/kernel, include/mmscale/mm, kernel/ and the kernel files
 * of counters/ and drain/) takes from outside itself, through this one
 * interface, as the kernel's tools/testing/vma builds mm/vma.c against a
 * small stub environment. The harness fills it (bench/cpu.c,
 * mmscale_machine_setup) from the plan: the CPUs and their nodes, memory
 * on a node, threads pinned as emulated CPUs, and the spin policy. The
 * build keeps the rest of the harness out of the kernel layer's sight: the
 * kernel library's only include root is include/, and it links alone
 * (CMakeLists.txt: kernel_links_alone).
 *
 * The configuration of the emulated mm (memory size, vm_stat layout, the
 * vmstat period, ...) is not the machine's: it arrives with
 * mm_machine_setup_config() (mm/vmstat.h), and that of the cross-CPU calls
 * (the doorbell, the kernel/smp.c generation, the timeout) with
 * ipi_setup_config() (kernel/smp.h).
 */
#ifndef MMSCALE_KERNEL_MACHINE_H
#define MMSCALE_KERNEL_MACHINE_H

#include <stddef.h>
#include "compiler.h"
#include "../errorf.h"

/* A thread the machine runs as one emulated CPU (the harness's partner thread). */
struct kthread;

struct machine_ops {
	/* Zeroed memory on a node of the plan (its fallback node where it has none). */
	void *(*alloc_on_node)(int node, size_t size, char *err, size_t errlen);
	void (*free_on_node)(void *p, size_t size);
	/*
	 * Start emulated CPU cpu running fn(arg) on a thread of its own, pinned
	 * where the plan puts that CPU; NULL with one line in err.
	 * kthread_stop() waits for fn to return (the caller told it to) and
	 * frees the thread.
	 */
	struct kthread *(*kthread_run)(int cpu, void (*fn)(void *arg), void *arg,
				       char *err, size_t errlen);
	void (*kthread_stop)(struct kthread *t);
};

struct machine {
	const struct machine_ops *ops;
	unsigned int nr_cpus;		/* nr_cpu_ids: emulated CPUs 0..nr_cpus-1 */
	int nr_nodes;			/* planned nodes: node_data[0..nr_nodes-1] */
	const int *cpu_node;		/* cpu_to_node(): the node of each CPU */
	/* Each CPU's core and last-level cache (-1: unknown): transfers' classes. */
	const int *cpu_core;
	const int *cpu_llc;
	/* Each CPU's per-CPU unit (on its node), unit_size bytes each. */
	char *const *percpu_units;
	size_t unit_size;
	/*
	 * Emulated CPUs outnumber the real PUs they run on: a busy wait then
	 * cannot progress until the scheduler runs the thread it waits for,
	 * so waits yield now and then (spin_wait_step).
	 */
	bool spin_yields;
};

/*
 * Boot the kernel layer on m (kept by reference: it must outlive the
 * machine): nr_cpu_ids, every CPU online, the per-CPU areas over its units,
 * the machine-wide counts. Halt undoes it. Returns -1 with one line in err.
 */
int machine_boot(const struct machine *m, char *err, size_t errlen);
void machine_halt(void);

/* The machine booted, for the kernel layer's own use (NULL before boot). */
extern const struct machine *the_machine;

/* Memory on a node, and the global data on node 0's, as the kernel's static data. */
void *alloc_on_node(int node, size_t size, char *err, size_t errlen);
void *alloc_global(size_t size, char *err, size_t errlen);
void free_on_node(void *p, size_t size);

static inline struct kthread *kthread_run(int cpu, void (*fn)(void *arg), void *arg,
					  char *err, size_t errlen)
{
	return the_machine->ops->kthread_run(cpu, fn, arg, err, errlen);
}

static inline void kthread_stop(struct kthread *t)
{
	if (t)
		the_machine->ops->kthread_stop(t);
}

/*
 * The calling thread becomes emulated CPU cpu (smp_processor_id() ==
 * cpu; its counts join the machine-wide sums), and stops being it. The
 * harness binds the thread to its PU first (mmscale_cpu_enter).
 */
void machine_cpu_enter(int cpu);
void machine_cpu_leave(void);

/* CPUs 0..k-1 online, the rest offline (a run on part of the plan). */
void machine_online_cpus(unsigned int k);

#endif /* MMSCALE_KERNEL_MACHINE_H */
