// SPDX-License-Identifier: GPL-2.0
/*
 * Emulated cross-CPU calls, what every generation of kernel/smp.c shares
 * (include/mmscale/kernel/smp.h): the API entry points, which run the
 * generation the run set up (SMP_GENERATIONS); delivery at a
 * target's interrupt points, with "irqs" off; the idle loop, which waits
 * between calls as the run's doorbell says; a sender's wait, which gives up
 * after the run's timeout naming the CPU that did not answer; and the
 * per-run setup of the lines, the doorbell and the generation's queues.
 */
#include <stdio.h>
#include <time.h>

#include "mmscale/kernel/smp.h"
#include "mmscale/kernel/timekeeping.h"
#include "smp_internal.h"

_Thread_local volatile int mmscale_irqs_off;
_Thread_local volatile int mmscale_ipi_pending;
_Thread_local struct ipi_line *ipi_my_line;
static _Thread_local char ipi_last_error[256];

struct ipi_cpu *ipi_cpus;
struct ipi_config ipi_cfg = { .gen = &smp_llist, .timeout_ms = 10000 };

#define X(gen) &gen,
const struct smp_generation *const smp_generations[] = { SMP_GENERATIONS(X) };
#undef X
const size_t smp_nr_generations = ARRAY_SIZE(smp_generations);

const struct smp_generation *ipi_generation(void)
{
	return ipi_cfg.gen;
}

const struct doorbell_ops *ipi_doorbell(void)
{
	return ipi_cfg.doorbell;
}

unsigned int ipi_call_function_queued(void)
{
	return ipi_cfg.gen->queued ? ipi_cfg.gen->queued() : 0;
}

const char *ipi_error(void)
{
	return ipi_last_error;
}

void cpu_set_activity(const char *what)
{
	if (ipi_cpus && mmscale_this_cpu >= 0)
		atomic_store_explicit(&this_cpu_ptr(ipi_cpus)->activity, what,
				      memory_order_relaxed);
}

/* ---- the API: the run's generation ---- */

int smp_call_function_many(const struct cpumask *mask, smp_call_func_t func, void *info,
			   bool wait)
{
	return ipi_cfg.gen->call_function_many(mask, func, info,
					       wait ? SMP_CALL_WAIT : SMP_CALL_NO_WAIT);
}

int smp_call_function_many_queue(const struct cpumask *mask, smp_call_func_t func, void *info)
{
	return ipi_cfg.gen->call_function_many(mask, func, info, SMP_CALL_WAIT_LATER);
}

int smp_call_function_many_wait(const struct cpumask *mask)
{
	return ipi_cfg.gen->call_function_many_wait(mask);
}

int smp_call_function_single(int cpu, smp_call_func_t func, void *info, int wait)
{
	return ipi_cfg.gen->call_function_single(cpu, func, info, wait);
}

int smp_call_function(smp_call_func_t func, void *info, int wait)
{
	return smp_call_function_many(cpu_online_mask, func, info, wait);
}

/*
 * The others of mask, and this CPU if here: up to 3.x smp_call_function_many
 * (waiting if asked), then the caller's own call; in a generation that runs
 * it before waiting (6.18's smp_call_function_many_cond, SCF_RUN_LOCAL):
 * send, run here, then wait.
 */
static int call_others_and_here(const struct cpumask *mask, smp_call_func_t func, void *info,
				bool wait, bool here)
{
	const struct smp_generation *gen = ipi_cfg.gen;
	int ret;

	if (!wait || !gen->local_before_wait) {
		ret = smp_call_function_many(mask, func, info, wait);
		if (here)
			call_function_here(func, info);
		return ret;
	}
	ret = gen->call_function_many(mask, func, info, SMP_CALL_WAIT_LATER);
	if (here)
		call_function_here(func, info);
	if (gen->call_function_many_wait(mask) != 0)
		ret = -1;
	return ret;
}

/* Call a function on all processors, this one included, irqs off for its own. */
int on_each_cpu(smp_call_func_t func, void *info, int wait)
{
	int ret;

	preempt_disable();
	ret = call_others_and_here(cpu_online_mask, func, info, wait, true);
	preempt_enable();
	return ret;
}

/* on_each_cpu_mask (3fc498f165304, v3.4): the CPUs of the mask, this one included if set. */
int on_each_cpu_mask(const struct cpumask *mask, smp_call_func_t func, void *info, bool wait)
{
	int cpu = get_cpu();
	int ret;

	ret = call_others_and_here(mask, func, info, wait,
				   cpumask_test_cpu((unsigned int)cpu, mask));
	put_cpu();
	return ret;
}

void call_function_here(smp_call_func_t func, void *info)
{
	unsigned long flags;

	local_irq_save(flags);
	func(info);
	local_irq_restore(flags);
}

/* ---- waits ---- */

static unsigned long long now_ms(void)
{
	return ktime_get_ns() / 1000000;
}

/* Every 4096 spins the sender looks at the clock. */
bool ipi_wait_step_timed_out(unsigned int *spins, unsigned long long *deadline)
{
	ipi_interrupt_point();
	spin_wait_step(spins);
	if ((*spins & 4095) != 0)
		return false;
	if (!*deadline) {
		*deadline = now_ms() + ipi_cfg.timeout_ms;
		return false;
	}
	return now_ms() > *deadline;
}

int ipi_no_answer(int cpu)
{
	const char *what = atomic_load(&per_cpu_ptr(ipi_cpus, cpu)->activity);

	snprintf(ipi_last_error, sizeof(ipi_last_error),
		 "CPU %d did not answer a cross-CPU call within %u ms (it was: %s)", cpu,
		 ipi_cfg.timeout_ms, what ? what : "not started");
	return -1;
}

/* ---- delivery on the target ---- */

/*
 * flush_smp_call_function_queue: the generation's interrupt runs every
 * queued call, in the order it was queued, with "irqs" off so that a
 * signal cannot nest a second flush. The caller saw the line pending with
 * irqs on: a signal's handler may have run the calls since (the signal
 * doorbell, between that test and local_irq_save), so the test is made
 * again with irqs off, and one IPI still makes one flush: otherwise 6.18's
 * llist_del_all of the emptied queue counts a locked op the kernel does
 * not make (seen as 2k x calls + 1 in test_smp_generations on a loaded
 * machine).
 */
static void flush_smp_call_function_queue(void)
{
	unsigned long flags;

	local_irq_save(flags);
	mmscale_ipi_pending = 0;
	if (ipi_my_line && ipi_line_pending(ipi_my_line))
		ipi_cfg.gen->interrupt();
	local_irq_restore(flags);
}

void ipi_interrupt_point_slow(void)
{
	if (ipi_cfg.stuck_cpu && (unsigned int)mmscale_this_cpu == ipi_cfg.stuck_cpu)
		return;		/* test only: this CPU never answers */
	if (mmscale_irqs_off) {
		mmscale_ipi_pending = 1;
		return;
	}
	flush_smp_call_function_queue();
}

void mmscale_run_pending_ipis(void)
{
	mmscale_ipi_pending = 0;
	if (ipi_my_line && ipi_line_pending(ipi_my_line))
		ipi_interrupt_point_slow();
}

/*
 * An IPI that finds its call already run (the target's interrupt point
 * took it first: the emulation's one IPI arrives twice) runs nothing, so
 * that one IPI makes one flush, as in the kernel.
 */
void smp_ipi_interrupt(void)
{
	if (ipi_my_line && ipi_line_pending(ipi_my_line))
		ipi_interrupt_point_slow();
}

bool ipi_pending_here(void)
{
	return ipi_my_line && ipi_line_pending(ipi_my_line);
}

void ipi_cpu_online(void)
{
	struct ipi_cpu *me = this_cpu_ptr(ipi_cpus);

	ipi_my_line = &me->line;
	ipi_last_error[0] = '\0';	/* a new run: the last one's failure is not ours */
	mmscale_irqs_off = 0;
	mmscale_ipi_pending = 0;
	if (ipi_cfg.doorbell->cpu_online)
		ipi_cfg.doorbell->cpu_online(smp_processor_id());
	cpu_set_activity("running");
}

void ipi_cpu_offline(void)
{
	if (!ipi_my_line)
		return;
	cpu_set_activity("gone");
	if (ipi_cfg.doorbell->cpu_offline)
		ipi_cfg.doorbell->cpu_offline(smp_processor_id());
	/* A signal already on its way finds ipi_my_line NULL and does nothing. */
	ipi_my_line = NULL;
}

void ipi_idle_loop(_Atomic bool *stop)
{
	int cpu = smp_processor_id();
	unsigned int spins = 0;

	cpu_set_activity("idle");
	while (!atomic_load_explicit(stop, memory_order_acquire)) {
		if (ipi_line_pending(ipi_my_line)) {
			ipi_interrupt_point_slow();
			continue;
		}
		ipi_cfg.doorbell->idle_wait(cpu, stop, &spins);
	}
}

void ipi_stop_idle(_Atomic bool *stop)
{
	unsigned int cpu;

	atomic_store_explicit(stop, true, memory_order_release);
	if (!ipi_cpus || !ipi_cfg.doorbell->wake)
		return;
	for_each_online_cpu(cpu)
		ipi_cfg.doorbell->wake((int)cpu);
}

/* ---- per run ---- */

void ipi_config_default(struct ipi_config *cfg, const struct doorbell_ops *doorbell)
{
	cfg->doorbell = doorbell;
	cfg->gen = &smp_llist;
	cfg->timeout_ms = 10000;
	cfg->stuck_cpu = 0;
}

int ipi_setup(const struct doorbell_ops *doorbell, char *err, size_t errlen)
{
	struct ipi_config cfg;

	ipi_config_default(&cfg, doorbell);
	return ipi_setup_config(&cfg, err, errlen);
}

int ipi_setup_config(const struct ipi_config *cfg, char *err, size_t errlen)
{
	ipi_teardown();
	ipi_cfg = *cfg;
	ipi_cpus = alloc_percpu(struct ipi_cpu);
	if (!ipi_cpus) {
		ipi_teardown();
		return mmscale_errorf(err, errlen, "per-CPU units full: cannot set up IPIs");
	}
	if ((ipi_cfg.gen->setup && ipi_cfg.gen->setup(err, errlen) != 0) ||
	    (ipi_cfg.doorbell->setup && ipi_cfg.doorbell->setup(err, errlen) != 0)) {
		ipi_teardown();
		return -1;
	}
	return 0;
}

void ipi_teardown(void)
{
	if (ipi_cfg.doorbell && ipi_cfg.doorbell->teardown)
		ipi_cfg.doorbell->teardown();
	if (ipi_cfg.gen->teardown)
		ipi_cfg.gen->teardown();
	free_percpu(ipi_cpus);
	ipi_cpus = NULL;
}
