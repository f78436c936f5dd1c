/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The emulated machine a unit test runs on: a synthetic topology planned
 * compact, set up, with the calling thread as its emulated CPU 0. Its waits
 * always yield now and then (MMSCALE_SPIN_YIELD): a test's emulated CPUs
 * may outnumber the PUs of whatever host runs it.
 */
#ifndef MMSCALE_TEST_MACHINE_H
#define MMSCALE_TEST_MACHINE_H

#include <stdio.h>

#include "check.h"
#include "mmscale/cpu.h"
#include "mmscale/notice.h"
#include "mmscale/opcount.h"
#include "mmscale/topology.h"

struct test_machine {
	struct mmscale_topology t;
	struct mmscale_plan p;
};

/* spec: "synthetic:node:2 core:2 pu:1"; -1 after saying why on stderr. */
static inline int test_machine_up(struct test_machine *m, const char *spec)
{
	char err[256];

	mmscale_notices_quiet = 1;
	if (mmscale_topology_load(&m->t, spec, err, sizeof(err)) != 0 ||
	    mmscale_plan_build(&m->p, &m->t, MMSCALE_PLACE_COMPACT, NULL, err, sizeof(err)) != 0 ||
	    mmscale_machine_setup(&m->p, MMSCALE_SPIN_YIELD, err, sizeof(err)) != 0 ||
	    mmscale_cpu_enter(0, err, sizeof(err)) != 0) {
		fprintf(stderr, "%s: %s\n", spec, err);
		return -1;
	}
	return 0;
}

/* The calling thread's count c so far (the emulated CPU's own). */
static inline uint64_t test_count(enum mmscale_count c)
{
	struct mmscale_counts now;

	mmscale_counts_snapshot(&now);
	return now.v[c];
}

static inline void test_machine_down(struct test_machine *m)
{
	mmscale_cpu_leave();
	mmscale_machine_teardown();
	mmscale_plan_destroy(&m->p);
	mmscale_topology_destroy(&m->t);
}

/*
 * A unit test's main(): the machine spec comes up (test_machine_up), its
 * tests run, the machine goes down; check_report's exit status, or 1 where
 * the machine did not come up.
 */
static inline int test_machine_main(const char *test, const char *spec, void (*tests)(void))
{
	struct test_machine m;

	if (test_machine_up(&m, spec) != 0)
		return 1;
	tests();
	test_machine_down(&m);
	return check_report(test);
}

#endif /* MMSCALE_TEST_MACHINE_H */
