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

/* Free what mmscale_harness_register made (after mmscale_gbench_shutdown). */
void mmscale_harness_release(void);

/* Result context: topology, placement, oversubscription, PAPI, kernel, build. */
void mmscale_harness_add_context(const struct mmscale_plan *p, const int *threads,
				 int nr_threads);

/* --list: every case with its variants and one-line summaries. */
void mmscale_list_cases(FILE *out);

/* Find a case by name (tests). */
const struct mmscale_case *mmscale_find_case(const char *name);

#endif /* MMSCALE_HARNESS_H */
