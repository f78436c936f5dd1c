// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: topology specs (--topology=synthetic:...), loaded by
 * hwloc and planned compact and scatter; every plan must place each
 * selected PU exactly once.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mmscale/notice.h"
#include "mmscale/topology.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void plan_and_check(struct mmscale_topology *t, enum mmscale_placement pl)
{
	struct mmscale_plan p;
	char err[256];
	char *seen;

	if (mmscale_plan_build(&p, t, pl, NULL, err, sizeof(err)) != 0)
		return;
	seen = calloc((size_t)t->nr_pus, 1);
	for (int i = 0; seen && i < p.nr_cpus; i++) {
		if (p.cpu[i].pu < 0 || p.cpu[i].pu >= t->nr_pus || seen[p.cpu[i].pu]++)
			abort();
		if (p.cpu[i].node < 0 || p.cpu[i].node >= t->nr_nodes)
			abort();
	}
	free(seen);
	mmscale_plan_destroy(&p);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *spec = malloc(size + sizeof("synthetic:"));
	struct mmscale_topology t;
	char err[256];

	if (!spec || size > 256) {
		free(spec);
		return 0;
	}
	mmscale_notices_quiet = 1;
	memcpy(spec, "synthetic:", sizeof("synthetic:") - 1);
	memcpy(spec + sizeof("synthetic:") - 1, data, size);
	spec[sizeof("synthetic:") - 1 + size] = '\0';
	if (mmscale_topology_load(&t, spec, err, sizeof(err)) == 0) {
		plan_and_check(&t, MMSCALE_PLACE_COMPACT);
		plan_and_check(&t, MMSCALE_PLACE_SCATTER);
		mmscale_topology_destroy(&t);
	}
	free(spec);
	return 0;
}
