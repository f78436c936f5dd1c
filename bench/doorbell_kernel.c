// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel doorbell: a real interrupt on the target's PU, sent by the
 * real kernel through membarrier(2) (bench/membarrier.c; the target's
 * thread spins there, so the kernel interrupts it); the call itself goes
 * through the mailbox, which the interrupted target finds when it returns
 * to its loop. Where the kernel refuses membarrier, not available: the
 * harness rings the spin doorbell instead and says so once
 * (mmscale_doorbell_resolve).
 */
#include "mmscale/cpu.h"
#include "mmscale/kernel/processor.h"
#include "mmscale/membarrier.h"
#include "mmscale/doorbell.h"

static void kernel_ring(int cpu)
{
	mmscale_membarrier_ipi(mmscale_machine_plan()->cpu[cpu].run_pu);
}

static void kernel_idle_wait(int cpu, _Atomic bool *stop, unsigned int *spins)
{
	(void)cpu;
	(void)stop;
	spin_wait_step(spins);
}

const struct doorbell_ops doorbell_kernel = {
	.ring = kernel_ring,
	.idle_wait = kernel_idle_wait,
};
