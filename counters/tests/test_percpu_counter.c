// SPDX-License-Identifier: GPL-2.0
/*
 * percpu_counter: concurrent adds from several emulated CPUs; the exact sum
 * equals the shadow total at the end, and the approximate read is never
 * further from the truth than batch x CPUs. "During the run" is checked at
 * barriers every CHECK_EVERY adds, where every adder has stopped between
 * two operations, so the check does not depend on timing.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdlib.h>

#include "check.h"
#include "mmscale/cpu.h"
#include "mmscale/kernel/cpumask.h"
#include "mmscale/linux-2.6/mm/backing-dev.h"
#include "mmscale/mm/config.h"
#include "mmscale/notice.h"

#define CPUS	4
#define OPS	100000
#define BATCH	24
#define CHECK_EVERY 10000

static struct percpu_counter fbc;
static _Atomic long shadow_total;
static long worst_error;
static pthread_barrier_t pause_point;

static void *adder(void *arg)
{
	int cpu = (int)(long)arg;
	unsigned int seed = 99u + (unsigned int)cpu;

	mmscale_cpu_enter(cpu, NULL, 0);
	for (int i = 0; i < OPS; i++) {
		int amount = rand_r(&seed) % 7 - 2;	/* drifts upward, with decrements */

		__percpu_counter_add(&fbc, amount, BATCH);
		atomic_fetch_add(&shadow_total, amount);
		if ((i + 1) % CHECK_EVERY == 0) {
			pthread_barrier_wait(&pause_point);	/* the checker looks */
			pthread_barrier_wait(&pause_point);	/* and lets us go on */
		}
	}
	mmscale_cpu_leave();
	return NULL;
}

/* At each pause: every adder is between two operations. */
static void check_at_pauses(void)
{
	for (int round = 0; round < OPS / CHECK_EVERY; round++) {
		long err;

		pthread_barrier_wait(&pause_point);
		err = labs((long)percpu_counter_read(&fbc) - atomic_load(&shadow_total));
		if (err > worst_error)
			worst_error = err;
		CHECK_EQ_LL(percpu_counter_sum(&fbc), atomic_load(&shadow_total));
		pthread_barrier_wait(&pause_point);
	}
}

/*
 * percpu_counter_batch: compute_batch_value at init, max(32, 2 x 4 CPUs) =
 * 32; --set percpu_counter_batch's value in its place, from 0 to an s32's
 * largest. One add of 1 folds into fbc->count when it reaches the batch.
 */
static void check_batch_knob(void)
{
	static const int tries[] = { 0, 1, 2, 33, MM_PERCPU_COUNTER_BATCH_MAX };
	struct mm_machine_config cfg;
	struct percpu_counter k;

	mmscale_cpu_enter(0, NULL, 0);
	mm_config_default(&cfg, 1ULL << 30);
	mm_config_set_knobs(&cfg);
	CHECK(percpu_counter_init(&k, 0) == 0);
	CHECK_EQ_LL(percpu_counter_batch, 32);
	percpu_counter_destroy(&k);
	for (size_t i = 0; i < sizeof(tries) / sizeof(tries[0]); i++) {
		cfg.percpu_counter_batch = tries[i];
		mm_config_set_knobs(&cfg);
		CHECK(percpu_counter_init(&k, 0) == 0);
		CHECK_EQ_LL(percpu_counter_batch, tries[i]);
		percpu_counter_add(&k, 1);
		CHECK_EQ_LL(k.count, tries[i] <= 1 ? 1 : 0);
		percpu_counter_destroy(&k);
	}
	cfg.percpu_counter_batch = MM_KNOB_AUTO;
	mm_config_set_knobs(&cfg);
	mmscale_cpu_leave();
}

int main(void)
{
	struct mmscale_topology t;
	struct mmscale_plan p;
	pthread_t th[CPUS];
	char err[256];
	long bound;

	mmscale_notices_quiet = 1;
	CHECK(mmscale_topology_load(&t, "synthetic:node:2 core:2 pu:1", err, sizeof(err)) == 0);
	CHECK(mmscale_plan_build(&p, &t, MMSCALE_PLACE_COMPACT, NULL, err, sizeof(err)) == 0);
	CHECK(mmscale_machine_setup(&p, MMSCALE_SPIN_YIELD, err, sizeof(err)) == 0);
	CHECK(percpu_counter_init(&fbc, 1000) == 0);
	/* BDI_STAT_BATCH for 4 CPUs: 8 * (1 + ilog2(4)). */
	CHECK_EQ_LL(BDI_STAT_BATCH, BATCH);
	atomic_store(&shadow_total, 1000);
	pthread_barrier_init(&pause_point, NULL, CPUS + 1);
	for (long c = 0; c < CPUS; c++)
		pthread_create(&th[c], NULL, adder, (void *)c);
	check_at_pauses();
	for (int c = 0; c < CPUS; c++)
		pthread_join(th[c], NULL);
	pthread_barrier_destroy(&pause_point);

	/* Each CPU holds less than a batch in its slot. */
	bound = (long)(BATCH - 1) * CPUS;
	printf("worst read error at the pauses: %ld (bound %ld)\n", worst_error, bound);
	CHECK(worst_error <= bound);
	CHECK_EQ_LL(percpu_counter_sum(&fbc), atomic_load(&shadow_total));
	CHECK(labs((long)percpu_counter_read(&fbc) - atomic_load(&shadow_total)) < (long)BATCH * CPUS);
	CHECK_EQ_LL(percpu_counter_sum_positive(&fbc), atomic_load(&shadow_total));

	/* Counting: a sum reads every online CPU's slot and takes the lock once. */
	mmscale_counts_reset();
	(void)percpu_counter_sum(&fbc);
	(void)percpu_counter_read_positive(&fbc);
	CHECK_EQ_LL(mmscale_this_counts.v[MMSCALE_PERCPU_SUM_SLOTS], CPUS);
	CHECK_EQ_LL(mmscale_this_counts.v[MMSCALE_LOCK_ACQUIRES], 1);
	CHECK_EQ_LL(mmscale_this_counts.v[MMSCALE_BDI_READS], 1);

	/* read_positive of a negative count is 1 in 2.6.31; sum_positive is 0. */
	percpu_counter_set(&fbc, -5);
	CHECK_EQ_LL(percpu_counter_read_positive(&fbc), 1);
	CHECK_EQ_LL(percpu_counter_sum_positive(&fbc), 0);

	percpu_counter_destroy(&fbc);
	check_batch_knob();
	mmscale_machine_teardown();
	mmscale_plan_destroy(&p);
	mmscale_topology_destroy(&t);
	return check_report("test_percpu_counter");
}
