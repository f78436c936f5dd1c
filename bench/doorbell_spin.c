// SPDX-License-Identifier: GPL-2.0
/*
 * The spin doorbell: nothing is rung. A target finds its calls by looking
 * at its own line at its interrupt points, and an idle one spins on it, so
 * a round trip is the line moving to the target and back: the c2c/mailbox
 * floor. Needs a PU per emulated CPU to be fast (--ipi=auto picks futex
 * where the plan oversubscribes the host).
 */
#include "mmscale/kernel/processor.h"
#include "mmscale/doorbell.h"

static void spin_ring(int cpu)
{
	(void)cpu;	/* the target polls its queue */
}

static void spin_idle_wait(int cpu, _Atomic bool *stop, unsigned int *spins)
{
	(void)cpu;
	(void)stop;
	spin_wait_step(spins);
}

const struct doorbell_ops doorbell_spin = {
	.ring = spin_ring,
	.idle_wait = spin_idle_wait,
};
