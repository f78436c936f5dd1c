/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Emulated CPUs: a thread becomes emulated CPU n by binding itself to the
 * plan's PU for n; per-CPU units live on each CPU's node, global data on
 * node 0's memory, as the kernel's static data does.
 */
#ifndef MMSCALE_CPU_H
#define MMSCALE_CPU_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "topology.h"

/*
 * Bytes of per-CPU unit each emulated CPU gets for alloc_percpu(): room
 * for rss/oom_scan's 10,000 processes (the tree's 32 bytes each per CPU);
 * mapped lazily, so only what is allocated is touched.
 */
#define MMSCALE_PERCPU_UNIT_SIZE	(1024 * 1024)

/* How an emulated CPU waits for another (spin_wait_step). */
enum mmscale_spin {
	/* Yield now and then only where the plan's CPUs outnumber this host's PUs. */
	MMSCALE_SPIN_AUTO,
	/* Always yield now and then: a test whose threads outnumber any host's PUs. */
	MMSCALE_SPIN_YIELD,
};

/*
 * Set up the emulated machine for plan p and boot the kernel layer on it
 * (machine_boot, include/mmscale/kernel/machine.h): nr_cpu_ids =
 * p->nr_cpus, all online, a per-CPU unit per CPU on its memory node, memory
 * and threads on request, and the spin policy. Idempotent for the same
 * plan (a second call only sets the spin policy). Returns -1 with one line
 * in err (a plan of more than NR_CPUS CPUs: machine_boot refuses it).
 */
int mmscale_machine_setup(const struct mmscale_plan *p, enum mmscale_spin spin, char *err,
			  size_t errlen);
void mmscale_machine_teardown(void);

/* The plan the machine was set up with (NULL before setup). */
const struct mmscale_plan *mmscale_machine_plan(void);
/* The emulated CPU whose per-CPU unit holds addr (its offset in *offset), or -1. */
int mmscale_machine_percpu_owner(uintptr_t addr, size_t *offset);

/*
 * Bind the calling thread to the PU planned for emulated CPU cpu and make it
 * that CPU (smp_processor_id() == cpu). Returns -1 with one line in err.
 */
int mmscale_cpu_enter(int cpu, char *err, size_t errlen);

/*
 * Leave the emulated CPU. Returns true if the thread ran somewhere other
 * than its planned PU when it left (a migration witness that needs no PMU).
 */
bool mmscale_cpu_leave(void);

/*
 * A partner: a harness-owned thread, pinned as emulated CPU cpu, that runs
 * fn(arg) while the measured Google Benchmark threads run. Started from a
 * case's setup and joined in its teardown, so it is alive for the whole
 * timed region and its work is never counted as GB iterations.
 */
struct mmscale_partner {
	unsigned long thread;	/* pthread_t */
	int cpu;
	void (*fn)(void *arg);
	void *arg;
	_Atomic int state;	/* 0 starting, 1 bound and running fn, -1 could not bind */
	bool started;
};

int mmscale_partner_start(struct mmscale_partner *p, int cpu, void (*fn)(void *arg),
			  void *arg, char *err, size_t errlen);
/* Wait for fn to return (the caller has told it to stop). */
void mmscale_partner_join(struct mmscale_partner *p);

/*
 * A pool of partners: emulated CPUs first..first+nr-1 all running fn(arg)
 * until pool->stop (the idle and victim CPUs of the drain cases).
 */
struct mmscale_cpu_pool {
	int first, nr;
	struct mmscale_partner *partners;
	_Atomic bool stop;
};

int mmscale_pool_start(struct mmscale_cpu_pool *pool, int first, int nr,
		       void (*fn)(void *arg), void *arg, char *err, size_t errlen);
void mmscale_pool_stop(struct mmscale_cpu_pool *pool);

/*
 * --verify-placement: where the kernel put every per-CPU unit and the
 * global data (move_pages query) against the plan. Mismatch count or -1.
 */
int mmscale_verify_placement(FILE *out, char *err, size_t errlen);

/*
 * Memory on a planned node's memory (falls back as the plan says for nodes
 * without memory); page aligned and zeroed. NULL with one line in err.
 */
void *mmscale_alloc_on_node(int node, size_t size, char *err, size_t errlen);
/* Global data: node 0's memory, as the kernel's static data. */
void *mmscale_alloc_global(size_t size, char *err, size_t errlen);
void mmscale_free_mem(void *p, size_t size);

#endif /* MMSCALE_CPU_H */
