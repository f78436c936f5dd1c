// SPDX-License-Identifier: GPL-2.0
/*
 * The futex doorbell: an idle target sleeps on a futex word of its own
 * (in its per-CPU unit); a sender that finds it asleep (the word 0) sets it
 * and wakes it, one system call. A busy target still finds its calls at its
 * interrupt points without one.
 */
#define _GNU_SOURCE
#include <linux/futex.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "mmscale/kernel/percpu.h"
#include "mmscale/doorbell.h"

/*
 * Per CPU: 1 = rung (or awake), 0 = asleep or about to be. On a line of its
 * own: the machine's doorbell shares no line with the kernel's data.
 */
struct futex_word {
	_Atomic unsigned int word;
} ____cacheline_aligned_in_smp;

static struct futex_word *futex_words;	/* percpu */

static int futex_setup(char *err, size_t errlen)
{
	futex_words = alloc_percpu(struct futex_word);
	if (!futex_words)
		return mmscale_errorf(err, errlen, "per-CPU units full: cannot set up the futex doorbell");
	return 0;
}

static void futex_teardown(void)
{
	free_percpu(futex_words);
	futex_words = NULL;
}

static void futex_ring(int cpu)
{
	_Atomic unsigned int *word = &per_cpu_ptr(futex_words, cpu)->word;

	/* Only a target that went to sleep (word 0) needs the syscall. */
	if (atomic_exchange(word, 1) == 0)
		syscall(SYS_futex, word, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
}

/*
 * Asleep until a call or a stop rings the word; 1 s at most, so a stop
 * nobody rings is still seen. (A 10 ms poll made 63 idle CPUs of a 64-CPU
 * TCG guest 6,300 wakeups a second, enough to starve the one doing the
 * work.)
 */
static void futex_idle_wait(int cpu, _Atomic bool *stop, unsigned int *spins)
{
	_Atomic unsigned int *word = &per_cpu_ptr(futex_words, cpu)->word;
	struct timespec ts = { 1, 0 };

	(void)spins;
	atomic_store(word, 0);
	if (ipi_pending_here() || atomic_load_explicit(stop, memory_order_acquire))
		return;
	syscall(SYS_futex, word, FUTEX_WAIT_PRIVATE, 0, &ts, NULL, 0);
}

const struct doorbell_ops doorbell_futex = {
	.setup = futex_setup,
	.teardown = futex_teardown,
	.ring = futex_ring,
	.idle_wait = futex_idle_wait,
	.wake = futex_ring,
};
