/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The doorbells an emulated IPI can ring (--ipi, the ipi/ cases' variants):
 * one file each (bench/doorbell_*.c, defining its struct doorbell_ops, the
 * kernel layer's view of it: include/mmscale/kernel/smp.h), one row each
 * in DOORBELLS below. A row: the ops symbol its file defines, its name, a
 * one-line summary, what it is, whether it interrupts a CPU busy in a loop
 * that never polls (a signal does: the ipi/ cases then keep their targets
 * busy), and the function that says whether this machine has it (NULL:
 * every machine; else false with why in one line, and the spin doorbell
 * rings instead). --ipi takes the names (and, by leaving
 * the flag out, auto: spin where every emulated CPU has its own PU, else
 * futex); ipi/unicast and ipi/broadcast run every row; test_smp and
 * test_smp_generations check every row (each call handled once, on its
 * CPU, with the generation's claimed counts).
 *
 * To add one: copy the file of the doorbell closest to it, rename its ops
 * symbol, change how it rings and how an idle CPU waits, and add its row.
 */
#ifndef MMSCALE_DOORBELL_H
#define MMSCALE_DOORBELL_H

#include <stddef.h>

#include "mmscale/kernel/smp.h"
#include "mmscale/membarrier.h"

/*	  ops symbol,		name,		summary,
 *	  source,
 *	  interrupts a busy CPU, available here (NULL: always) */
#define DOORBELLS(X)							\
	X(doorbell_spin, "spin",					\
	  "polled per-CPU mailbox: the target looks at its queue",	\
	  "harness",							\
	  false, NULL)							\
	X(doorbell_futex, "futex",					\
	  "futex wake of a sleeping target",				\
	  "harness",							\
	  false, NULL)							\
	X(doorbell_signal, "signal",					\
	  "pthread_kill real-time signal interrupting a busy target",	\
	  "harness",							\
	  true, NULL)							\
	X(doorbell_kernel, "kernel",					\
	  "a real IPI to the target's PU (membarrier), then the polled mailbox", \
	  "harness; Linux 5.10+ membarrier RSEQ with MEMBARRIER_CMD_FLAG_CPU", \
	  false, mmscale_membarrier_available)				\
	/* new rows go above this line */

#define X(ops, ...) extern const struct doorbell_ops ops;
DOORBELLS(X)
#undef X

struct mmscale_doorbell {
	const char *name;	/* --ipi=name */
	const char *summary;
	const char *source;
	const struct doorbell_ops *ops;
	bool interrupts;	/* reaches a CPU busy in a loop that never polls */
	bool (*available)(char *why, size_t whylen);	/* NULL: every machine */
};

/* Every row of DOORBELLS, in order (bench/doorbell.c). */
extern const struct mmscale_doorbell mmscale_doorbells[];
extern const size_t mmscale_nr_doorbells;

/* The row of a doorbell's ops; NULL for NULL (--ipi=auto). */
const struct mmscale_doorbell *mmscale_doorbell_of(const struct doorbell_ops *ops);

/*
 * The doorbell a run of run_cpus emulated CPUs rings: want, or with want
 * NULL (--ipi=auto) spin where every one of them has a PU of its own and
 * futex where they outnumber this host's; where this machine lacks the
 * doorbell (its available() says no), spin, which needs nothing - said in
 * one notice, once per doorbell.
 */
const struct doorbell_ops *mmscale_doorbell_resolve(const struct doorbell_ops *want,
						    int run_cpus);

#endif /* MMSCALE_DOORBELL_H */
