// SPDX-License-Identifier: GPL-2.0
/*
 * Emulated IPIs: for every doorbell and every kernel/smp.c generation (each
 * row of DOORBELLS and SMP_GENERATIONS), every call is handled exactly once
 * and on the CPU it was sent to - single and broadcast, waited for and not -
 * including a doorbell that interrupts (the signal) reaching a target that
 * never polls.
 * A target that never answers makes the call fail, naming the CPU and what
 * it was doing.
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "test_machine.h"
#include "mmscale/cpu.h"
#include "mmscale/doorbell.h"
#include "mmscale/kernel/processor.h"
#include "mmscale/kernel/smp.h"
#include "mmscale/notice.h"
#include "mmscale/opcount.h"

#include "drain_test.h"

#define CPUS	4
#define ROUNDS	300

static _Atomic long handled[CPUS];
static _Atomic long wrong_cpu;
static _Atomic bool stop;
static _Atomic bool busy_targets;

static void count_call(void *info)
{
	long want = (long)(intptr_t)info;

	if (want >= 0 && want != smp_processor_id())
		atomic_fetch_add(&wrong_cpu, 1);
	atomic_fetch_add(&handled[smp_processor_id()], 1);
}

static void target_main(void *arg)
{
	(void)arg;
	ipi_cpu_online();
	if (atomic_load(&busy_targets)) {
		unsigned int spins = 0;

		/* Never polls: only a signal gets a call in. */
		cpu_set_activity("busy loop");
		while (!atomic_load(&stop))
			spin_wait_step(&spins);
	} else {
		ipi_idle_loop(&stop);
	}
	ipi_cpu_offline();
}

static void run_doorbell(const struct mmscale_doorbell *row, const struct smp_generation *gen)
{
	struct mmscale_partner partners[CPUS];
	char err[256], name[64];
	long sent_calls = 0;
	struct mmscale_counts before, after;
	struct ipi_config ipi;

	/* A doorbell this machine lacks rings as the harness would ring it instead. */
	ipi_config_default(&ipi, mmscale_doorbell_resolve(row->ops, CPUS));
	ipi.gen = gen;
	snprintf(name, sizeof(name), "%s/%s", row->name, gen->name);
	memset(handled, 0, sizeof(handled));
	atomic_store(&wrong_cpu, 0);
	atomic_store(&stop, false);
	atomic_store(&busy_targets, mmscale_doorbell_of(ipi.doorbell)->interrupts);
	CHECK(ipi_setup_config(&ipi, err, sizeof(err)) == 0);
	partners_start(partners, CPUS, target_main);
	mmscale_counts_sum_all(&before);
	for (int r = 0; r < ROUNDS; r++) {
		int target = 1 + r % (CPUS - 1);

		/* One CPU, waited for. */
		CHECK(smp_call_function_single(target, count_call, (void *)(intptr_t)target, 1) == 0);
		/* Every other CPU, waited for; and on each CPU including this one. */
		CHECK(smp_call_function(count_call, (void *)(intptr_t)-1, 1) == 0);
		CHECK(on_each_cpu(count_call, (void *)(intptr_t)-1, 1) == 0);
		sent_calls += 1 + 2 * (CPUS - 1);
	}
	/* Not waited for: then wait for them through the queue's own locks. */
	{
		struct cpumask all;

		cpumask_setall(&all);
		CHECK(smp_call_function_many(&all, count_call, (void *)(intptr_t)-1, false) == 0);
		CHECK(smp_call_function_many_wait(&all) == 0);
		sent_calls += CPUS - 1;
	}
	mmscale_counts_sum_all(&after);
	ipi_stop_idle(&stop);	/* and wake the CPUs asleep in ipi_idle_loop */
	for (int c = 1; c < CPUS; c++)
		mmscale_partner_join(&partners[c]);
	ipi_cpu_offline();

	{
		long total = 0;

		for (int c = 1; c < CPUS; c++)
			total += atomic_load(&handled[c]);
		printf("%-20s: %ld calls to other CPUs, %ld handled, %lld doorbells rung\n", name,
		       sent_calls, total,
		       (long long)(after.v[MMSCALE_IPIS_SENT] - before.v[MMSCALE_IPIS_SENT]));
		CHECK_EQ_LL(total, sent_calls);
		/* on_each_cpu ran the function locally once per round. */
		CHECK_EQ_LL(atomic_load(&handled[0]), ROUNDS);
		for (int c = 1; c < CPUS; c++)
			CHECK_EQ_LL(atomic_load(&handled[c]), sent_calls / (CPUS - 1));
		CHECK_EQ_LL(atomic_load(&wrong_cpu), 0);
		CHECK_EQ_LL(after.v[MMSCALE_IPIS_HANDLED] - before.v[MMSCALE_IPIS_HANDLED], sent_calls);
		/* A doorbell per call at most (a queue already non-empty needs none). */
		CHECK(after.v[MMSCALE_IPIS_SENT] - before.v[MMSCALE_IPIS_SENT] <= (u64)sent_calls);
		CHECK(after.v[MMSCALE_IPIS_SENT] - before.v[MMSCALE_IPIS_SENT] > 0);
	}
	ipi_teardown();
}

static void test_stuck_cpu(void)
{
	struct mmscale_partner partners[CPUS];
	char err[256];

	struct ipi_config ipi;

	ipi_config_default(&ipi, &doorbell_spin);
	ipi.stuck_cpu = 2;
	ipi.timeout_ms = 200;
	atomic_store(&stop, false);
	atomic_store(&busy_targets, false);
	CHECK(ipi_setup_config(&ipi, err, sizeof(err)) == 0);
	partners_start(partners, CPUS, target_main);
	CHECK(smp_call_function_single(1, count_call, (void *)(intptr_t)1, 1) == 0);
	CHECK(smp_call_function_single(2, count_call, (void *)(intptr_t)2, 1) != 0);
	printf("stuck CPU: %s\n", ipi_error());
	CHECK(strstr(ipi_error(), "CPU 2 did not answer") != NULL);
	CHECK(strstr(ipi_error(), "(it was: idle)") != NULL);
	/* A broadcast fails too, and still reaches the CPUs that answer. */
	CHECK(smp_call_function(count_call, (void *)(intptr_t)-1, 1) != 0);
	partners_stop(partners, CPUS, &stop);
	ipi_teardown();
}

static void smp_tests(void)
{
	for (size_t d = 0; d < mmscale_nr_doorbells; d++)
		for (size_t g = 0; g < smp_nr_generations; g++)
			run_doorbell(&mmscale_doorbells[d], smp_generations[g]);
	test_stuck_cpu();
}

int main(void)
{
	return test_machine_main("test_smp", "synthetic:node:2 core:2 pu:1", smp_tests);
}
