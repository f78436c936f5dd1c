// SPDX-License-Identifier: GPL-2.0
/*
 * test/: cases for the test suite only, registered and listed with the
 * test-only flag --test-cases (not in --help, not in the quick suite).
 *
 * test/papi_sde tests the PAPI path itself on a machine without a PMU: a
 * software-defined event (PAPI's SDE component, libsde) that the body
 * increments exactly SDE_OPS_PER_ITERATION times per iteration, counted by
 * the harness through the same per-thread event sets, started and stopped
 * around the timed region, that count cache misses on a real server.
 * --papi-events=sde:::mmscale_test::ops must report exactly that per
 * iteration; the setup, the teardown and the body outside its loop
 * increment it too, and none of that may be counted.
 *
 * test/work is a known amount of work per operation: --test-work=N units
 * (default 100) of a dependent multiply-add chain, each waiting for the
 * last, so that N and the time per operation are in proportion (less the
 * loop's own few cycles). The same binary at 100 and at 105 units is a
 * difference of about 5% by construction (this VM measures 5.1% to 5.5%):
 * what scripts/ab's sensitivity benchmark must call slower, and how soon
 * (RESULTS.md).
 *
 * test/claim stands for a patch that changes a count its row still claims:
 * its row claims one global read per operation, and its body makes
 * --test-claim-reads=N (default 1). At N = 2 every run differs from its
 * claim: a failed run by default, a kept and labelled one under
 * --claims=report (scripts/ab shows the change instead of losing the row).
 */
#include <stdint.h>

#include <papi.h>
#include <sde_lib.h>

#include "mmscale/case.h"
#include "mmscale/params.h"

#define SDE_OPS_PER_ITERATION	7
#define SDE_NOISE		1000	/* outside the timed region */
#define SDE_BATCH		64

static _Thread_local long long sde_ops;

/*
 * PAPI's SDE component calls this on the thread that starts, accumulates,
 * resets or stops its own event set, so each thread reads its own count.
 * Read-and-clear with PAPI_SDE_INSTANT: each call returns what the thread
 * counted since the last one, and start and resume clear what came before.
 * (A plain registered variable would not do: in the default DELTA mode SDE
 * keeps one start value per process, not per event set, and two threads
 * see each other's counts.)
 */
static long long sde_ops_read_clear(void *unused)
{
	long long v = sde_ops;

	(void)unused;
	sde_ops = 0;
	return v;
}

/* Registered at load: PAPI checks the event names before any case runs. */
__attribute__((constructor)) static void register_sde_counter(void)
{
	papi_handle_t h = papi_sde_init("mmscale_test");

	papi_sde_register_counter_cb(h, "ops", PAPI_SDE_RO | PAPI_SDE_INSTANT, PAPI_SDE_long_long,
				     sde_ops_read_clear, NULL);
}

static int sde_setup(struct mmscale_run *run, int nr_threads, char *err, size_t errlen)
{
	(void)run;
	(void)nr_threads;
	(void)err;
	(void)errlen;
	sde_ops += SDE_NOISE;
	return 0;
}

static int sde_teardown(struct mmscale_run *run, char *err, size_t errlen)
{
	(void)run;
	(void)err;
	(void)errlen;
	sde_ops += SDE_NOISE;
	return 0;
}

static void sde_body(struct mmscale_state *st, struct mmscale_run *run)
{
	(void)run;
	sde_ops += SDE_NOISE;
	while (mmscale_keep_running_batch(st, SDE_BATCH))
		for (int i = 0; i < SDE_BATCH; i++)
			sde_ops += SDE_OPS_PER_ITERATION;
	sde_ops += SDE_NOISE;
}

static void work_body(struct mmscale_state *st, struct mmscale_run *run)
{
	const unsigned int units = mmscale_params.test_work;
	uint64_t x = 1;

	(void)run;
	while (mmscale_keep_running(st)) {
		for (unsigned int i = 0; i < units; i++) {
			/* Knuth's MMIX LCG step; the asm keeps the chain from being folded. */
			x = x * 6364136223846793005ULL + 1442695040888963407ULL;
			__asm__ volatile("" : "+r"(x));
		}
	}
	__asm__ volatile("" : : "r"(x));
}

static void claim_one_op(struct mmscale_run *run)
{
	(void)run;
	mmscale_count_add(MMSCALE_GLOBAL_READS, mmscale_params.test_claim_reads);
}

static void claim_body(struct mmscale_state *st, struct mmscale_run *run)
{
	while (mmscale_keep_running(st))
		claim_one_op(run);
}

static bool claim_one_read(const struct mmscale_run *run, struct mmscale_claim *out)
{
	(void)run;
	out->which = MMSCALE_COUNT_BIT(MMSCALE_GLOBAL_READS);
	out->v[MMSCALE_GLOBAL_READS] = 1;
	return true;
}

static const struct mmscale_case test_cases[] = {
	{
		.name = "test/papi_sde",
		.summary = "a software-defined PAPI event counted 7 times per iteration (test only)",
		.body = sde_body,
		.threads = MMSCALE_THREADS_SWEEP,
		.setup = sde_setup,
		.teardown = sde_teardown,
	},
	{
		.name = "test/work",
		.summary = "--test-work=N units of dependent arithmetic per operation (test only)",
		.body = work_body,
		.threads = MMSCALE_THREADS_ONE,
	},
	{
		.name = "test/claim",
		.summary = "claims 1 global read per operation, makes --test-claim-reads=N (test only)",
		.body = claim_body,
		.threads = MMSCALE_THREADS_ONE,
		.counts = MMSCALE_COUNT_BIT(MMSCALE_GLOBAL_READS),
		MMSCALE_CLAIM(claim_one_read, claim_one_op),
	},
};

const struct mmscale_case_table mmscale_test_table = {
	.module = "test",
	.cases = test_cases,
	.nr_cases = sizeof(test_cases) / sizeof(test_cases[0]),
	.test_only = true,
};
