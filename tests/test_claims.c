// SPDX-License-Identifier: GPL-2.0
/*
 * Every variant row's claim, checked the same way for every family: on a
 * 4-CPU, 2-node stand-in (2 populated zones), for every case with a claim,
 * every row of its variant table and every argument row that fits, the
 * case's own setup, one operation (the case's one_op, on CPU 0, the other
 * CPUs answering as in a run), then the exact counts that operation made -
 * machine-wide or the calling CPU's own, as the case publishes them -
 * against what its row claims; then the case's teardown and its checks.
 *
 * A case whose operations fold a per-CPU delta every so many (vmstat/mod)
 * claims the counts of several numbers of operations in a row instead.
 *
 * Then the same on a machine without swap (--swap=no: 3.x's dirty limits
 * read two global items fewer), and at several values of each --set
 * knob (stat_threshold, percpu_counter_batch, BDI_STAT_BATCH), its edges
 * included.
 *
 * Then the same on a 1024-CPU, 128-node stand-in for every case that runs
 * alone on a machine whose every CPU is online (no partner CPUs), where
 * what a call walks per CPU shows: percpu_counter sums, and the bdp rows
 * that sum the bdi items when the threshold is under 2 * bdi_stat_error;
 * and on either side of where that starts for a 100 MiB threshold (201
 * CPUs) and 3.1's task limit 1/8 below it (176 CPUs), so that a claim and
 * the code can only agree there if both compute the thresholds exactly.
 *
 * Nothing here names a variant: a row added to a family's table is checked
 * by this test without an edit (docs/adding-a-variant.md; scripts/walkthrough
 * adds rows as it says and runs this test on them).
 */
#define _GNU_SOURCE
#include <regex.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "test_machine.h"
#include "mmscale/case.h"
#include "mmscale/harness.h"
#include "mmscale/kernel/cpumask.h"
#include "mmscale/kernel/machine.h"
#include "mmscale/kernel/processor.h"
#include "mmscale/params.h"

#define CPUS		4
#define MANY_CPUS	1024
/* 2 * bdi_stat_error passes 22400 pages at 176 CPUs and 25600 at 201. */
static const int threshold_edges[] = { 175, 176, 200, 201 };

/* --set stat_threshold: every update folds, the smallest, the kernel's cap, an s8's largest. */
static const long long stat_thresholds[] = { 0, 1, 2, 32, 125, 126, MM_STAT_THRESHOLD_MAX };
/* --set percpu_counter_batch: every add folds (0, 1), 2.6.31's floor, larger, an s32's largest. */
static const long long percpu_batches[] = { 0, 1, 2, 32, 65, 1000, MM_PERCPU_COUNTER_BATCH_MAX };
/*
 * --set BDI_STAT_BATCH on 4 CPUs: every add folds (0, 1), auto's 24, and
 * either side of where the bdp rows start to sum: twice bdi_stat_error
 * (8 x the batch) passes 3.1's task threshold (22400 pages) above 2800 and
 * the 100 MiB bdi threshold (25600) above 3200; an s32's largest.
 */
static const long long bdi_stat_batches[] = { 0, 1, 24, 2800, 2801, 3200, 3201,
					MM_BDI_STAT_BATCH_MAX };
/*
 * The dirty sysctls (--set dirty_*): the ratios at their edges and
 * between; dirty_bytes either side of where the throttled rows start to
 * sum on 4 CPUs (2 x bdi_stat_error = 192 pages: 191 pages all sum, 192
 * pages 3.1 alone, whose task limit is 168, and 221 pages, 194, none),
 * and the seed's 100 MiB doubled; the background bytes at their least and
 * largest, which with dirty_bytes set spare 3.x's dirty limits the
 * dirtyable memory's reads. Under a few pages the throttled benches
 * cannot be built (test_scripts checks that they say so).
 */
static const long long dirty_ratios[] = { 0, 1, 5, 20, MM_DIRTY_RATIO_MAX };
static const long long dirty_bytes[] = { 191 * 4096, 192 * 4096, 221 * 4096 - 100,
					 200LL << 20 };
static const long long dirty_background_bytes[] = { 1, 4096, MM_DIRTY_BYTES_MAX };
/* ratelimit_pages: every dirtied page calls, one, the kernel's floor, an int's largest. */
static const long long ratelimits[] = { 0, 1, 16, MM_RATELIMIT_PAGES_MAX };
/*
 * The pcp fractions: the least, high near a batch, and the largest (2.6.x:
 * high 0, batch 1); the high fraction's default 0 too.
 */
static const long long pcp_fractions[] = { MM_PCP_FRACTION_MIN, 100000, MM_PCP_FRACTION_MAX };
static const long long numa_stats[] = { 0, 1 };
/*
 * pcp batch and high by hand, where every kernel's rows set up (batch at
 * most high, high under 6.18's high_max of these zones): the least batch
 * and a few; high near and far above the batches; high_max from high up
 * (at its largest the 6.18 drain/ pools, sized by high_max, cannot be
 * allocated: that set-up fails, with why).
 */
static const long long pcp_batches[] = { 1, 7 };
static const long long pcp_highs[] = { 64, 1000 };
static const long long pcp_high_maxes[] = { 4000, 100000 };
static const long long pcp_high_fractions[] = { 0, MM_PCP_FRACTION_MIN, 100000,
						MM_PCP_FRACTION_MAX };
static int claims_checked;
/*
 * MMSCALE_CLAIMS_CASES=REGEX (extended): only the cases whose name matches,
 * for scripts/mutants, which runs a mutant's first test on the families
 * that can see it (a mutant of bdp code: ^(bdp|bdp_throttled|dirty)/); the
 * minimum numbers of claims per pass are then not asked, only one claim.
 */
static regex_t only_cases;
static bool filtered;

/* claim_ops cases: nr_ops in a row, across the fold points of every threshold tried. */
static const uint64_t ops_in_a_row[] = { 1, 2, 3, 64, 127, 128, 129, 1000 };

static void check_one_ops(const struct mmscale_case *c, const struct mmscale_variant *v,
			  const int64_t *args, int cpus, uint64_t nr_ops)
{
	struct mmscale_run run = { .c = c, .v = v, .nr_threads = 1 };
	struct mmscale_counts before, after;
	struct mmscale_claim claim = { 0 };
	char name[256], err[256] = "";
	bool claimed;
	int len;

	if (args)
		memcpy(run.args, args, sizeof(run.args));
	/* The CPUs the harness would put online for this run. */
	mmscale_run_prepare(&run, cpus);
	machine_online_cpus((unsigned int)run.nr_online);
	len = snprintf(name, sizeof(name), "%s/%s", c->name, v->name);
	for (int a = 0; args && a < c->nr_args && len < (int)sizeof(name); a++)
		len += snprintf(name + len, sizeof(name) - (size_t)len, "/%s:%lld",
				c->arg_names[a], (long long)args[a]);
	if (c->claim_ops && len < (int)sizeof(name))
		snprintf(name + len, sizeof(name) - (size_t)len, " x%llu",
			 (unsigned long long)nr_ops);
	if (c->setup && c->setup(&run, 1, err, sizeof(err)) != 0) {
		fprintf(stderr, "%s: setup failed: %s\n", name, err);
		CHECK(!"setup failed");
		machine_online_cpus(nr_cpu_ids);
		return;
	}
	if (c->counts_machine_wide)
		mmscale_counts_sum_all(&before);
	else
		mmscale_counts_snapshot(&before);
	for (uint64_t op = 0; op < nr_ops; op++)
		c->one_op(&run);
	if (c->counts_machine_wide)
		mmscale_counts_sum_all(&after);
	else
		mmscale_counts_snapshot(&after);
	claimed = c->claim_ops ? c->claim_ops(&run, nr_ops, &claim) : c->claim(&run, &claim);
	if (claimed) {
		printf("  %-44s", name);
		for (int i = 0; i < MMSCALE_NR_COUNTS; i++) {
			unsigned long long got = after.v[i] - before.v[i];

			if (!(claim.which & MMSCALE_COUNT_BIT(i)))
				continue;
			printf(" %s %llu", mmscale_count_name(i), got);
			if (got != claim.v[i])
				fprintf(stderr, "\n%s: %s %llu, the row claims %llu\n", name,
					mmscale_count_name(i), got, (unsigned long long)claim.v[i]);
			CHECK_EQ_LL(got, claim.v[i]);
		}
		printf("\n");
		if (claim.which & MMSCALE_COUNT_BIT(MMSCALE_LOCK_ACQUIRES)) {
			unsigned long long locks = after.v[MMSCALE_LOCK_ACQUIRES] -
						   before.v[MMSCALE_LOCK_ACQUIRES];
			unsigned long long queued = after.v[MMSCALE_QUEUED_LOCK_ACQUIRES] -
						    before.v[MMSCALE_QUEUED_LOCK_ACQUIRES];

			/*
			 * A row's locks are of one kind (a generation's files are
			 * built with one: CMakeLists.txt), which the projection
			 * reads from queued_lock_acquires: all or none of them.
			 */
			CHECK_MSG(queued == 0 || queued == locks, "%s: %llu of %llu lock "
				  "acquisitions counted as queued ones: want all or none", name, queued,
				  locks);
		}
		claims_checked++;
	}
	if (c->teardown && c->teardown(&run, err, sizeof(err)) != 0) {
		fprintf(stderr, "%s: check after the operation failed: %s\n", name, err);
		CHECK(!"teardown check failed");
	}
	machine_online_cpus(nr_cpu_ids);
}

/* One operation (claim), or each count of operations in a row (claim_ops). */
static void check_one(const struct mmscale_case *c, const struct mmscale_variant *v,
		      const int64_t *args, int cpus)
{
	if (!c->claim_ops) {
		check_one_ops(c, v, args, cpus, 1);
		return;
	}
	for (size_t i = 0; i < ARRAY_SIZE(ops_in_a_row); i++)
		check_one_ops(c, v, args, cpus, ops_in_a_row[i]);
}

/* Every row of every case with a claim that `wanted` takes, on this machine of `cpus`. */
static void check_all(int cpus, bool (*wanted)(const struct mmscale_case *c))
{
	for (size_t t = 0; t < mmscale_nr_case_tables; t++) {
		const struct mmscale_case_table *tab = mmscale_case_tables[t];

		for (size_t i = 0; i < tab->nr_cases; i++) {
			const struct mmscale_case *c = &tab->cases[i];

			if (!(c->claim || c->claim_ops) || !wanted(c))
				continue;
			if (filtered && regexec(&only_cases, c->name, 0, NULL, 0) != 0)
				continue;
			/* A claim must be checkable: a case with a claim has one_op. */
			CHECK(c->one_op != NULL);
			if (!c->one_op)
				continue;
			for (size_t v = 0; v < c->nr_variants; v++) {
				const struct mmscale_variant *var = mmscale_case_variant(c, v);

				if (!c->args) {
					check_one(c, var, NULL, cpus);
					continue;
				}
				for (size_t r = 0; r < c->nr_args_rows; r++)
					if ((!c->claim_args_rows || r < c->claim_args_rows) &&
					    (c->cpus != MMSCALE_CPUS_ARG0_ONLINE || c->args[r][0] <= cpus))
						check_one(c, var, c->args[r], cpus);
			}
		}
	}
}

static bool every_case(const struct mmscale_case *c)
{
	(void)c;
	return true;
}

/* The claims whose counts depend on the operations before (a threshold's folds). */
static bool claims_ops_in_a_row(const struct mmscale_case *c)
{
	return c->claim_ops != NULL;
}

/* Alone on the machine, every CPU online: nothing answers it, so 1024 CPUs cost nothing. */
static bool runs_alone_all_online(const struct mmscale_case *c)
{
	return c->cpus == MMSCALE_CPUS_THREADS && c->partner_cpus == 0;
}

/*
 * Every value of a knob in turn, then auto again: at the edges (0, max)
 * every claim, between them the claims that `between` takes.
 */
static void check_knob(enum mm_knob knob, const long long *tries, size_t n,
		       bool (*between)(const struct mmscale_case *c))
{
	const char *name = mm_knob_ranges[knob].name;
	long long max = mm_knob_ranges[knob].hi;
	long long *value = &mmscale_params.knob[knob];

	for (size_t i = 0; i < n; i++) {
		int before = claims_checked;
		bool edge = tries[i] == 0 || tries[i] == max || between == every_case;

		*value = tries[i];
		printf("with --set %s=%lld, %s:\n", name, tries[i],
		       edge ? "every claim" : "the claims of operations in a row");
		check_all(CPUS, edge ? every_case : between);
		CHECK(filtered || claims_checked - before >= (edge ? 20 : 5));
	}
	*value = MM_KNOB_AUTO;
}

/*
 * The values each --set knob is tried at, and the claims checked between
 * its edges (at 0 and its largest, every claim): one row per knob.
 */
static const struct knob_tries {
	const long long *values;
	size_t n;
	bool (*between)(const struct mmscale_case *c);
} knob_tries[MM_NR_KNOBS] = {
	[MM_KNOB_STAT_THRESHOLD] = { stat_thresholds, ARRAY_SIZE(stat_thresholds), claims_ops_in_a_row },
	[MM_KNOB_PERCPU_COUNTER_BATCH] = {
		percpu_batches, ARRAY_SIZE(percpu_batches), claims_ops_in_a_row },
	/* bdp's sums against reads are single-call claims: every claim at every value */
	[MM_KNOB_BDI_STAT_BATCH] = { bdi_stat_batches, ARRAY_SIZE(bdi_stat_batches), every_case },
	/* the dirty limits: where each bench sums, and what its limits read */
	[MM_KNOB_DIRTY_RATIO] = { dirty_ratios, ARRAY_SIZE(dirty_ratios), every_case },
	[MM_KNOB_DIRTY_BACKGROUND_RATIO] = { dirty_ratios, ARRAY_SIZE(dirty_ratios), every_case },
	[MM_KNOB_DIRTY_BYTES] = { dirty_bytes, ARRAY_SIZE(dirty_bytes), every_case },
	[MM_KNOB_DIRTY_BACKGROUND_BYTES] = {
		dirty_background_bytes, ARRAY_SIZE(dirty_background_bytes), every_case },
	[MM_KNOB_RATELIMIT_PAGES] = { ratelimits, ARRAY_SIZE(ratelimits), every_case },
	/* numa_stat: the NUMA events' reads count the same with the events off */
	[MM_KNOB_NUMA_STAT] = { numa_stats, ARRAY_SIZE(numa_stats), every_case },
	[MM_KNOB_PCP_BATCH] = { pcp_batches, ARRAY_SIZE(pcp_batches), every_case },
	[MM_KNOB_PCP_HIGH] = { pcp_highs, ARRAY_SIZE(pcp_highs), every_case },
	[MM_KNOB_PCP_HIGH_MAX] = { pcp_high_maxes, ARRAY_SIZE(pcp_high_maxes), every_case },
	/* pcp's batch and high: the drains' zone->lock rounds and pages follow them */
	[MM_KNOB_PERCPU_PAGELIST_FRACTION] = { pcp_fractions, ARRAY_SIZE(pcp_fractions), every_case },
	[MM_KNOB_PERCPU_PAGELIST_HIGH_FRACTION] = {
		pcp_high_fractions, ARRAY_SIZE(pcp_high_fractions), every_case },
};

int main(void)
{
	const char *only = getenv("MMSCALE_CLAIMS_CASES");
	struct test_machine m;
	int on_few;

	if (only && *only) {
		if (regcomp(&only_cases, only, REG_EXTENDED | REG_NOSUB) != 0) {
			fprintf(stderr, "test_claims: MMSCALE_CLAIMS_CASES: bad regex '%s'\n", only);
			return 2;
		}
		filtered = true;
		printf("only the cases matching %s\n", only);
	}

	if (test_machine_up(&m, "synthetic:node:2 core:2 pu:1") != 0)
		return 1;
	printf("each row's claim for one operation, on %d CPUs over 2 nodes:\n", CPUS);
	check_all(CPUS, every_case);
	/* Not vacuous: the families with claims have rows (a filter matches one at least). */
	CHECK(claims_checked >= (filtered ? 1 : 20));
	/* Swap changes what 3.x's dirty limits read: both claims hold. */
	CHECK(mmscale_params.swap);
	mmscale_params.swap = false;
	printf("the same without swap:\n");
	check_all(CPUS, every_case);
	mmscale_params.swap = true;
	/*
	 * The --set knobs at their edges and between: the claims that depend
	 * on one (vmstat/mod's folds on stat_threshold, rss/fault's on
	 * percpu_counter_batch, bdp's sums on BDI_STAT_BATCH) compute it from
	 * the knob, so the code must fold (sum) where the knob says; at the
	 * edges (0, the knob's largest) every other claim must hold too.
	 */
	for (int k = 0; k < MM_NR_KNOBS; k++) {
		const struct knob_tries *t = &knob_tries[k];

		/* Every knob is tried: one added to MM_KNOBS needs its values here. */
		CHECK(t->values != NULL);
		if (t->values)
			check_knob((enum mm_knob)k, t->values, t->n, t->between);
	}
	test_machine_down(&m);

	on_few = claims_checked;
	if (test_machine_up(&m, "synthetic:node:128 core:8 pu:1") != 0)
		return 1;
	printf("on %d CPUs over 128 nodes, the cases that run alone with every CPU online:\n",
	       MANY_CPUS);
	check_all(MANY_CPUS, runs_alone_all_online);
	CHECK(filtered || claims_checked - on_few >= 10);
	test_machine_down(&m);

	for (size_t i = 0; i < ARRAY_SIZE(threshold_edges); i++) {
		int cpus = threshold_edges[i];
		char spec[64];

		snprintf(spec, sizeof(spec), "synthetic:node:1 core:%d pu:1", cpus);
		if (test_machine_up(&m, spec) != 0)
			return 1;
		printf("on %d CPUs, the same:\n", cpus);
		check_all(cpus, runs_alone_all_online);
		test_machine_down(&m);
	}
	printf("%d claims checked\n", claims_checked);
	if (filtered)
		regfree(&only_cases);
	return check_report("test_claims");
}
