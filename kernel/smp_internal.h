/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What kernel/smp.c (common delivery) shares with the generation files
 * (kernel/linux-2.6/kernel/smp.c, kernel/linux-6.18/kernel/smp.c): each CPU's line, the
 * IPI sent through the doorbell, a sender's timed wait, a call aimed at
 * the caller's own CPU. Private to kernel/.
 */
#ifndef MMSCALE_KERNEL_SMP_INTERNAL_H
#define MMSCALE_KERNEL_SMP_INTERNAL_H

#include "mmscale/kernel/percpu.h"
#include "mmscale/kernel/processor.h"
#include "mmscale/kernel/smp.h"
#include "mmscale/opcount.h"

/* Per CPU, in its per-CPU unit: its doorbell line and what it is doing. */
struct ipi_cpu {
	struct ipi_line line;
	const char *_Atomic activity;
} ____cacheline_aligned_in_smp;

extern struct ipi_cpu *ipi_cpus;		/* percpu */
extern struct ipi_config ipi_cfg;		/* this run's (ipi_setup_config) */

/* Ring cpu's doorbell: one IPI sent, counted. */
static inline void smp_send_ipi(int cpu)
{
	mmscale_count_inc(MMSCALE_IPIS_SENT);
	ipi_cfg.doorbell->ring(cpu);
}

/*
 * One step of a sender's wait for a target: it keeps answering calls
 * itself (interrupts are on in the kernel here) and spins; true once
 * --ipi-timeout-ms has passed (*deadline starts at 0).
 */
bool ipi_wait_step_timed_out(unsigned int *spins, unsigned long long *deadline);
/* The wait gave up: name cpu and what it was doing in ipi_error(); returns -1. */
int ipi_no_answer(int cpu);

/*
 * A call aimed at the caller's own CPU runs here with "irqs" off, as every
 * generation's smp_call_function_single and on_each_cpu{,_mask} run it: an
 * IPI doorbell cannot flush a queued call into the middle of it.
 */
void call_function_here(smp_call_func_t func, void *info);

#endif /* MMSCALE_KERNEL_SMP_INTERNAL_H */
