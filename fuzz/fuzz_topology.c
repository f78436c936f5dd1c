// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: topology specs (--topology=synthetic:...), loaded by
 * hwloc and planned compact and scatter, whole and sampled by core, LLC
 * and node; every plan must place each selected PU exactly once (a sample
 * one per group), and its --threads=auto counts must be sorted, distinct
 * and within the plan.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mmscale/notice.h"
#include "mmscale/topology.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int group_of(const struct mmscale_topology *t, int pu, enum mmscale_sample s)
{
	return s == MMSCALE_SAMPLE_CORE ? t->pus[pu].core : s == MMSCALE_SAMPLE_LLC ?
	       t->pus[pu].llc : t->pus[pu].node;
}

static void plan_and_check(struct mmscale_topology *t, enum mmscale_placement pl,
			   enum mmscale_sample sample)
{
	struct mmscale_plan_request req = { .placement = pl, .sample = sample };
	struct mmscale_plan p;
	char err[256];
	char *seen, *groups;
	int *threads, nr, nr_groups;

	if (mmscale_plan_build_request(&p, t, &req, err, sizeof(err)) != 0)
		return;
	nr_groups = (t->nr_pus > t->nr_nodes ? t->nr_pus : t->nr_nodes) + 1;
	seen = calloc((size_t)t->nr_pus, 1);
	groups = calloc((size_t)nr_groups, 1);
	threads = calloc((size_t)p.nr_cpus, sizeof(*threads));
	if (!seen || !groups || !threads)
		abort();
	for (int i = 0; i < p.nr_cpus; i++) {
		if (p.cpu[i].pu < 0 || p.cpu[i].pu >= t->nr_pus || seen[p.cpu[i].pu]++)
			abort();
		if (p.cpu[i].node < 0 || p.cpu[i].node >= t->nr_nodes)
			abort();
		if (sample != MMSCALE_SAMPLE_NONE) {
			int g = group_of(t, p.cpu[i].pu, sample);

			if (g < 0 || g >= nr_groups || groups[g]++)
				abort();
		}
	}
	nr = mmscale_plan_boundary_threads(&p, threads, p.nr_cpus);
	if (nr < 1 || threads[0] != 1 || threads[nr - 1] != p.nr_cpus)
		abort();
	for (int i = 1; i < nr; i++)
		if (threads[i] <= threads[i - 1])
			abort();
	free(seen);
	free(groups);
	free(threads);
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
		for (int s = MMSCALE_SAMPLE_NONE; s <= MMSCALE_SAMPLE_NODE; s++) {
			plan_and_check(&t, MMSCALE_PLACE_COMPACT, (enum mmscale_sample)s);
			plan_and_check(&t, MMSCALE_PLACE_SCATTER, (enum mmscale_sample)s);
		}
		mmscale_topology_destroy(&t);
	}
	free(spec);
	return 0;
}
