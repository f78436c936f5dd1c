// SPDX-License-Identifier: GPL-2.0
/*
 * Linux 4.14's NUMA statistics (kernel/linux-4.14/mm/vmstat.c), traced by
 * hand from __inc_numa_state (v4.14 mm/vmstat.c 867-880): a local
 * allocation adds 1 to this CPU's u16 diffs of NUMA_HIT and NUMA_LOCAL;
 * the 65534th (v > NUMA_STATS_THRESHOLD = 65533) adds all 65534 to the
 * zone's and the global counter, two locked adds each, and leaves the diff
 * at 0, with no overstep; the other CPU's diffs and the other node's zone
 * are untouched; the check adds zones, global and diffs up to the
 * allocations made, and names a lost one.
 */
#include <string.h>

#include "check.h"
#include "test_machine.h"
#include "mmscale/kernel/processor.h"
#include "mmscale/mm/numa_stat.h"

static void allocs(uint64_t n)
{
	for (uint64_t i = 0; i < n; i++)
		numa_stat_4_14_local_alloc();
}

static void test_fold_points(void)
{
	char err[256];
	uint64_t folds0, locked0;

	CHECK_MSG(numa_stat_4_14_setup(err, sizeof(err)) == 0, "%s", err);
	folds0 = test_count(MMSCALE_FOLDS);
	locked0 = test_count(MMSCALE_LOCKED_OPS);

	/* 65533 allocations: every diff at 65533, not past the threshold. */
	allocs(65533);
	CHECK_EQ_LL(test_count(MMSCALE_FOLDS) - folds0, 0);
	CHECK_EQ_LL(numa_stat_4_14_check(65533, err, sizeof(err)), 0);
	CHECK_EQ_LL(numa_stat_4_14_folds(65533), 0);

	/* The 65534th: NUMA_HIT and NUMA_LOCAL fold 65534 each, two locked adds per fold. */
	allocs(1);
	CHECK_EQ_LL(test_count(MMSCALE_FOLDS) - folds0, 2);
	CHECK_EQ_LL(test_count(MMSCALE_LOCKED_OPS) - locked0, 4);
	CHECK_EQ_LL(numa_stat_4_14_folds(65534), 2);
	CHECK_MSG(numa_stat_4_14_check(65534, err, sizeof(err)) == 0, "%s", err);

	/* No overstep: the next fold is 65534 allocations later, not 65534 + 32766. */
	allocs(65533);
	CHECK_EQ_LL(test_count(MMSCALE_FOLDS) - folds0, 2);
	allocs(1);
	CHECK_EQ_LL(test_count(MMSCALE_FOLDS) - folds0, 4);
	CHECK_EQ_LL(numa_stat_4_14_folds(2 * 65534), 4);
	CHECK_MSG(numa_stat_4_14_check(2 * 65534, err, sizeof(err)) == 0, "%s", err);

	/* A lost event is named. */
	CHECK(numa_stat_4_14_check(2 * 65534 + 1, err, sizeof(err)) != 0);
	CHECK(strstr(err, "allocations made") != NULL);
	numa_stat_4_14_teardown();
}

static void tests(void)
{
	test_fold_points();
}

int main(void)
{
	return test_machine_main("test_numa_stat_4_14", "synthetic:node:2 core:1 pu:1", tests);
}
