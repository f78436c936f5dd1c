// SPDX-License-Identifier: GPL-2.0
/*
 * The signal doorbell: a real-time signal sent with pthread_kill
 * interrupts the target wherever it is, through the real kernel's IPI and
 * signal delivery, as an interrupt does; the handler takes the call at once
 * (deferred while the target has "irqs" off: local_irq_restore runs it).
 * An idle target sleeps, and the signal cuts its sleep short.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <string.h>
#include <time.h>

#include "mmscale/kernel/percpu.h"
#include "mmscale/doorbell.h"

/* Per CPU, on a line of its own: the thread that is it now, while it takes IPIs. */
struct signal_target {
	pthread_t thread;
	_Atomic bool online;
} ____cacheline_aligned_in_smp;

static struct signal_target *targets;	/* percpu */
static int ipi_signal_number;

static void ipi_signal_handler(int sig)
{
	int saved_errno = errno;

	(void)sig;
	smp_ipi_interrupt();
	errno = saved_errno;
}

static int signal_setup(char *err, size_t errlen)
{
	struct sigaction sa;

	targets = alloc_percpu(struct signal_target);
	if (!targets)
		return mmscale_errorf(err, errlen, "per-CPU units full: cannot set up the signal doorbell");
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = ipi_signal_handler;
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	ipi_signal_number = SIGRTMIN + 2;
	if (sigaction(ipi_signal_number, &sa, NULL) != 0)
		return mmscale_errorf(err, errlen, "cannot install the IPI signal handler");
	return 0;
}

static void signal_teardown(void)
{
	free_percpu(targets);
	targets = NULL;
}

static void signal_cpu_online(int cpu)
{
	struct signal_target *t = per_cpu_ptr(targets, cpu);

	t->thread = pthread_self();
	atomic_store_explicit(&t->online, true, memory_order_release);
}

static void signal_cpu_offline(int cpu)
{
	atomic_store_explicit(&per_cpu_ptr(targets, cpu)->online, false, memory_order_release);
}

static void signal_ring(int cpu)
{
	struct signal_target *t = per_cpu_ptr(targets, cpu);

	if (atomic_load_explicit(&t->online, memory_order_acquire))
		pthread_kill(t->thread, ipi_signal_number);
}

/* Sleep; the signal interrupts the sleep and runs the queue. */
static void signal_idle_wait(int cpu, _Atomic bool *stop, unsigned int *spins)
{
	struct timespec ts = { 0, 1000 * 1000 };

	(void)cpu;
	(void)stop;
	(void)spins;
	nanosleep(&ts, NULL);
}

const struct doorbell_ops doorbell_signal = {
	.setup = signal_setup,
	.teardown = signal_teardown,
	.cpu_online = signal_cpu_online,
	.cpu_offline = signal_cpu_offline,
	.ring = signal_ring,
	.idle_wait = signal_idle_wait,
};
