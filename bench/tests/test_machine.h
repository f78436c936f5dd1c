/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The emulated machine a unit test runs on: a synthetic topology planned
 * compact, set up, with the calling thread as its emulated CPU 0.
 */
#ifndef MMSCALE_TEST_MACHINE_H
#define MMSCALE_TEST_MACHINE_H

#include <stdio.h>

#include "mmscale/cpu.h"
#include "mmscale/notice.h"
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
	    mmscale_machine_setup(&m->p, err, sizeof(err)) != 0 ||
	    mmscale_cpu_enter(0, err, sizeof(err)) != 0) {
		fprintf(stderr, "%s: %s\n", spec, err);
		return -1;
	}
	return 0;
}

static inline void test_machine_down(struct test_machine *m)
{
	mmscale_cpu_leave();
	mmscale_machine_teardown();
	mmscale_plan_destroy(&m->p);
	mmscale_topology_destroy(&m->t);
}

#endif /* MMSCALE_TEST_MACHINE_H */
