/* SPDX-License-Identifier: GPL-2.0 */
/* The harness: registers every case with Google Benchmark for a plan. */
#ifndef MMSCALE_HARNESS_H
#define MMSCALE_HARNESS_H

#include <stdio.h>

#include "case.h"
#include "topology.h"

/* The default thread counts for sweep cases: 1, 2, 4, ... and the plan's total. */
int mmscale_default_threads(const struct mmscale_plan *p, int *out, int max);

/*
 * Register every case (and variant) for plan p. Sweep cases use the given
 * thread counts. Returns -1 with one line in err.
 */
int mmscale_harness_register(const struct mmscale_plan *p, const int *threads,
			     int nr_threads, char *err, size_t errlen);

/*
 * Decide run's CPUs (nr_cpus_used, nr_online) from its case, argument row
 * and nr_threads on a plan of plan_cpus CPUs: what registration does, and
 * what a test that runs a case's setup itself does first.
 */
void mmscale_run_prepare(struct mmscale_run *run, int plan_cpus);

/* Free what mmscale_harness_register made (after mmscale_gbench_shutdown). */
void mmscale_harness_release(void);
/* A counting run's hottest lines, per run, on out (mmscale --transfers). */
void mmscale_harness_print_transfers(FILE *out);

/* Result context: topology, placement, oversubscription, PAPI, kernel, build. */
void mmscale_harness_add_context(const struct mmscale_plan *p, const int *threads,
				 int nr_threads);

/*
 * Result context: the real machine's settings (vm sysctls, THP, cpufreq
 * governor and boost, SMT, isolated CPUs, the kernel command line), each
 * read from where the kernel shows it, "absent" where it has none
 * (bench/machine_settings.c).
 */
void mmscale_machine_settings_add_context(const struct mmscale_plan *p);

/* --list: every case with its variants and one-line summaries. */
void mmscale_list_cases(FILE *out);

/*
 * --list=json, and the results' context (mmscale_families): one JSON array
 * of every case: name, summary, threads ("one", "pair", "sweep"), baseline
 * (its first variant, or null), variants [{name, summary, source}], metrics
 * [{name, label, exact}] (the tables of its variants, in order; empty: none),
 * counts [the operation counts it publishes], machine_wide (whether those
 * counts are the whole machine's).
 */
void mmscale_list_json(FILE *out);

#endif /* MMSCALE_HARNESS_H */
