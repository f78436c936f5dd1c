/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Linux 4.14's NUMA statistics (kernel/linux-4.14/mm/vmstat.c) as the
 * vmstat/numa_stat case sees them, in terms that name none of its types: a
 * zone per node of the emulated machine with its per-CPU pagesets, one
 * order-0 allocation's zone_statistics from the calling CPU's own node, and
 * the check that no event was lost.
 */
#ifndef MMSCALE_MM_NUMA_STAT_H
#define MMSCALE_MM_NUMA_STAT_H

#include <stddef.h>
#include <stdint.h>

/* On the booted machine (its nodes and CPUs); -1 with one line in err. */
int numa_stat_4_14_setup(char *err, size_t errlen);
void numa_stat_4_14_teardown(void);
/* zone_statistics(z, z) for the calling CPU's node's zone: a local allocation. */
void numa_stat_4_14_local_alloc(void);
/*
 * Every zone's and the global NUMA_HIT and NUMA_LOCAL, with every CPU's
 * diff, add up to local_allocs (the allocations made since setup, every
 * one local); -1 with the first difference in err. No CPU allocating.
 */
int numa_stat_4_14_check(uint64_t local_allocs, char *err, size_t errlen);
/* The folds of one CPU's n local allocations from setup (two items each). */
uint64_t numa_stat_4_14_folds(uint64_t n);

#endif /* MMSCALE_MM_NUMA_STAT_H */
