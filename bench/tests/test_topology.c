// SPDX-License-Identifier: GPL-2.0
/*
 * Placement on synthetic stand-ins (1024 CPUs over 128 nodes), cpulists,
 * and memoryless-node fallback from an XML topology with distances.
 */
#include <stdlib.h>
#include <string.h>

#include <hwloc.h>

#include "check.h"
#include "mmscale/notice.h"
#include "mmscale/topology.h"

static int load(struct mmscale_topology *t, struct mmscale_plan *p, const char *spec,
		enum mmscale_placement pl, const char *cpus)
{
	char err[256];

	if (mmscale_topology_load(t, spec, err, sizeof(err)) != 0) {
		fprintf(stderr, "load %s: %s\n", spec, err);
		return -1;
	}
	if (mmscale_plan_build(p, t, pl, cpus, err, sizeof(err)) != 0) {
		fprintf(stderr, "plan %s: %s\n", spec, err);
		mmscale_topology_destroy(t);
		return -1;
	}
	return 0;
}

static void unload(struct mmscale_topology *t, struct mmscale_plan *p)
{
	mmscale_plan_destroy(p);
	mmscale_topology_destroy(t);
}

static void test_128_nodes(void)
{
	struct mmscale_topology t;
	struct mmscale_plan p;
	int bad = 0;

	CHECK(load(&t, &p, "synthetic:node:128 core:8 pu:1", MMSCALE_PLACE_COMPACT, NULL) == 0);
	CHECK_EQ_LL(t.nr_nodes, 128);
	CHECK_EQ_LL(p.nr_cpus, 1024);
	CHECK(mmscale_topology_stand_in(&t));
	/* Compact: CPU i is PU i on node i / 8. */
	for (int i = 0; i < p.nr_cpus; i++)
		bad += p.cpu[i].node != i / 8 || t.pus[p.cpu[i].pu].os_index != i ||
		       p.cpu[i].mem_node != i / 8 ||
		       p.cpu[i].run_pu != t.real_pus[i % t.nr_real_pus];
	CHECK_EQ_LL(bad, 0);
	CHECK_EQ_LL(mmscale_plan_nodes_spanned(&p, 8), 1);
	CHECK_EQ_LL(mmscale_plan_nodes_spanned(&p, 9), 2);
	CHECK(mmscale_plan_oversubscribed(&p, 1024));
	CHECK(!mmscale_plan_oversubscribed(&p, 1));
	unload(&t, &p);

	/* Scatter: CPU i is on node i % 128, the (i / 128)-th PU of that node. */
	CHECK(load(&t, &p, "synthetic:node:128 core:8 pu:1", MMSCALE_PLACE_SCATTER, NULL) == 0);
	bad = 0;
	for (int i = 0; i < p.nr_cpus; i++)
		bad += p.cpu[i].node != i % 128 ||
		       t.pus[p.cpu[i].pu].os_index != (i % 128) * 8 + i / 128;
	CHECK_EQ_LL(bad, 0);
	CHECK_EQ_LL(mmscale_plan_nodes_spanned(&p, 128), 128);
	unload(&t, &p);

	/* --cpus picks PUs by OS number; compact keeps node order. */
	CHECK(load(&t, &p, "synthetic:node:128 core:8 pu:1", MMSCALE_PLACE_SCATTER,
		   "0-3,8-11") == 0);
	CHECK_EQ_LL(p.nr_cpus, 8);
	CHECK(p.cpu[0].node == 0 && p.cpu[1].node == 1 && p.cpu[2].node == 0);
	CHECK_EQ_LL(t.pus[p.cpu[1].pu].os_index, 8);
	unload(&t, &p);
}

/* SMT: scatter takes one PU per core before any sibling. */
static void test_smt_scatter(void)
{
	struct mmscale_topology t;
	struct mmscale_plan p;
	static const int want[] = { 0, 4, 2, 6, 1, 5, 3, 7 };

	CHECK(load(&t, &p, "synthetic:node:2 core:2 pu:2", MMSCALE_PLACE_SCATTER, NULL) == 0);
	CHECK_EQ_LL(p.nr_cpus, 8);
	for (int i = 0; i < 8; i++)
		CHECK_EQ_LL(t.pus[p.cpu[i].pu].os_index, want[i]);
	unload(&t, &p);
	/* Compact keeps siblings together (hwloc logical order). */
	CHECK(load(&t, &p, "synthetic:node:2 core:2 pu:2", MMSCALE_PLACE_COMPACT, NULL) == 0);
	for (int i = 0; i < 8; i++)
		CHECK_EQ_LL(t.pus[p.cpu[i].pu].os_index, i);
	CHECK_EQ_LL(p.cpu[1].core, p.cpu[0].core);
	unload(&t, &p);
}

static void test_cpulists(void)
{
	static const char *const good[] = { "0", "0-3", "0-3,8-11", "5,1,3", "7-7" };
	static const char *const bad[] = {
		"", "-", "0-", "-3", "a", "1,,2", ",1", "1,", "3-1", "1-2-3", "0x3", "1 2",
		"1;2", "99999999999",
	};
	char err[256];

	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		hwloc_bitmap_t s = mmscale_parse_cpulist(good[i], err, sizeof(err));

		CHECK(s != NULL);
		if (s)
			hwloc_bitmap_free(s);
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		hwloc_bitmap_t s = mmscale_parse_cpulist(bad[i], err, sizeof(err));

		if (s) {
			fprintf(stderr, "cpulist '%s' was accepted\n", bad[i]);
			hwloc_bitmap_free(s);
		}
		CHECK(s == NULL);
		CHECK(strstr(err, "--cpus") != NULL);
	}
	{
		hwloc_bitmap_t s = mmscale_parse_cpulist("0-3,8-11", err, sizeof(err));

		CHECK_EQ_LL(hwloc_bitmap_weight(s), 8);
		CHECK(hwloc_bitmap_isset(s, 9) && !hwloc_bitmap_isset(s, 4));
		hwloc_bitmap_free(s);
	}
}

static void test_bad_specs(void)
{
	struct mmscale_topology t;
	struct mmscale_plan p;
	char err[256];

	CHECK(mmscale_topology_load(&t, "synthetic:node:2 bogus:3", err, sizeof(err)) != 0);
	CHECK(strstr(err, "synthetic") != NULL);
	CHECK(mmscale_topology_load(&t, "xml:/nonexistent/file.xml", err, sizeof(err)) != 0);
	CHECK(strstr(err, "/nonexistent/file.xml") != NULL);
	CHECK(mmscale_topology_load(&t, "numa:4", err, sizeof(err)) != 0);
	CHECK(load(&t, &p, "synthetic:node:2 core:2 pu:1", MMSCALE_PLACE_COMPACT, NULL) == 0);
	unload(&t, &p);
	CHECK(mmscale_topology_load(&t, "synthetic:node:2 core:2 pu:1", err, sizeof(err)) == 0);
	CHECK(mmscale_plan_build(&p, &t, MMSCALE_PLACE_COMPACT, "3-4", err, sizeof(err)) != 0);
	CHECK(strstr(err, "CPU 4") != NULL);
	mmscale_topology_destroy(&t);
}

/*
 * fixtures/memoryless-3node.xml: node 1 has CPUs but no memory; distances
 * make node 2 (12) nearer than node 0 (20), so its CPUs use node 2.
 */
static void test_memoryless(void)
{
	struct mmscale_topology t;
	struct mmscale_plan p;

	CHECK(load(&t, &p, "xml:fixtures/memoryless-3node.xml", MMSCALE_PLACE_COMPACT, NULL) == 0);
	CHECK_EQ_LL(t.nr_nodes, 3);
	CHECK(t.distances != NULL);
	CHECK_EQ_LL(mmscale_node_distance(&t, 1, 2), 12);
	CHECK_EQ_LL(t.nodes[1].memory, 0);
	CHECK_EQ_LL(t.nodes[1].mem_node, 2);
	CHECK_EQ_LL(t.nodes[0].mem_node, 0);
	CHECK_EQ_LL(p.cpu[2].node, 1);
	CHECK_EQ_LL(p.cpu[2].mem_node, 2);
	CHECK_EQ_LL(p.cpu[0].mem_node, 0);
	unload(&t, &p);
}

static void test_real(void)
{
	struct mmscale_topology t;
	struct mmscale_plan p;

	CHECK(load(&t, &p, NULL, MMSCALE_PLACE_COMPACT, NULL) == 0);
	CHECK(!mmscale_topology_stand_in(&t));
	CHECK(p.nr_cpus >= 1 && p.nr_cpus <= t.nr_real_pus);
	for (int i = 0; i < p.nr_cpus; i++)
		CHECK_EQ_LL(p.cpu[i].run_pu, t.pus[p.cpu[i].pu].os_index);
	CHECK(!mmscale_plan_oversubscribed(&p, p.nr_cpus));
	unload(&t, &p);
}

static void check_boundaries(const char *spec, enum mmscale_placement pl, const int *want,
			     int nr_want)
{
	struct mmscale_topology t;
	struct mmscale_plan p;
	int got[64], nr;

	if (load(&t, &p, spec, pl, NULL) != 0) {
		CHECK(!"topology loads");
		return;
	}
	nr = mmscale_plan_boundary_threads(&p, got, 64);
	CHECK_EQ_LL(nr, nr_want);
	for (int i = 0; i < nr && i < nr_want; i++)
		CHECK_EQ_LL(got[i], want[i]);
	unload(&t, &p);
}

/*
 * --threads=auto: 1, one core's PUs, one LLC, one node, 2, 3, 4 nodes and
 * doubling, 3/4 and all; the same counts for both placements.
 */
static void test_boundary_threads(void)
{
	static const int smt_2socket[] = { 1, 2, 56, 84, 112 };
	static const int nodes_128[] = { 1, 8, 16, 24, 32, 64, 128, 256, 512, 768, 1024 };
	static const int snc[] = { 1, 2, 16, 32, 64, 96, 128 };
	static const int single[] = { 1 };

	check_boundaries("synthetic:pack:2 l3:1 core:28 pu:2", MMSCALE_PLACE_COMPACT, smt_2socket, 5);
	check_boundaries("synthetic:pack:2 l3:1 core:28 pu:2", MMSCALE_PLACE_SCATTER, smt_2socket, 5);
	check_boundaries("synthetic:node:128 core:8 pu:1", MMSCALE_PLACE_COMPACT, nodes_128, 11);
	check_boundaries("synthetic:node:128 core:8 pu:1", MMSCALE_PLACE_SCATTER, nodes_128, 11);
	check_boundaries("synthetic:pack:2 node:2 l3:2 core:8 pu:2", MMSCALE_PLACE_COMPACT, snc, 7);
	check_boundaries("synthetic:node:1 core:1 pu:1", MMSCALE_PLACE_COMPACT, single, 1);
}

/* --sample: the first PU of each core, LLC or node; none where none is shown. */
static void test_sample(void)
{
	struct mmscale_topology t;
	struct mmscale_plan p;
	struct mmscale_plan_request req = { .placement = MMSCALE_PLACE_COMPACT };
	char err[256];
	int bad = 0;

	CHECK(mmscale_topology_load(&t, "synthetic:node:2 l3:2 core:2 pu:2", err, sizeof(err)) == 0);
	CHECK_EQ_LL(t.nr_llcs, 4);
	req.sample = MMSCALE_SAMPLE_CORE;
	CHECK(mmscale_plan_build_request(&p, &t, &req, err, sizeof(err)) == 0);
	CHECK_EQ_LL(p.nr_cpus, 8);
	for (int i = 0; i < p.nr_cpus; i++)
		bad += t.pus[p.cpu[i].pu].smt_rank != 0 || p.cpu[i].core != i;
	CHECK_EQ_LL(bad, 0);
	mmscale_plan_destroy(&p);
	req.sample = MMSCALE_SAMPLE_LLC;
	CHECK(mmscale_plan_build_request(&p, &t, &req, err, sizeof(err)) == 0);
	CHECK_EQ_LL(p.nr_cpus, 4);
	for (int i = 0; i < p.nr_cpus; i++)
		bad += t.pus[p.cpu[i].pu].os_index != 4 * i;
	CHECK_EQ_LL(bad, 0);
	mmscale_plan_destroy(&p);
	req.sample = MMSCALE_SAMPLE_NODE;
	req.placement = MMSCALE_PLACE_SCATTER;
	CHECK(mmscale_plan_build_request(&p, &t, &req, err, sizeof(err)) == 0);
	CHECK_EQ_LL(p.nr_cpus, 2);
	CHECK(p.cpu[0].node == 0 && p.cpu[1].node == 1);
	CHECK_EQ_LL(t.pus[p.cpu[1].pu].os_index, 8);
	mmscale_plan_destroy(&p);
	mmscale_topology_destroy(&t);

	CHECK(mmscale_topology_load(&t, "synthetic:node:2 core:2 pu:1", err, sizeof(err)) == 0);
	req.sample = MMSCALE_SAMPLE_LLC;
	CHECK(mmscale_plan_build_request(&p, &t, &req, err, sizeof(err)) != 0);
	CHECK(strstr(err, "no last-level cache") != NULL);
	mmscale_topology_destroy(&t);
}

/* --oversubscribe=K: the placement order K times over; auto adds K x all. */
static void test_oversubscribe(void)
{
	struct mmscale_topology t;
	struct mmscale_plan p;
	struct mmscale_plan_request req = { .placement = MMSCALE_PLACE_SCATTER, .oversubscribe = 2 };
	char err[256];
	int got[16], nr, bad = 0;

	CHECK(mmscale_topology_load(&t, "synthetic:node:2 core:2 pu:1", err, sizeof(err)) == 0);
	CHECK(mmscale_plan_build_request(&p, &t, &req, err, sizeof(err)) == 0);
	CHECK_EQ_LL(p.nr_cpus, 8);
	CHECK_EQ_LL(p.nr_pus_used, 4);
	for (int i = 4; i < 8; i++)
		bad += p.cpu[i].pu != p.cpu[i - 4].pu || p.cpu[i].node != p.cpu[i - 4].node;
	CHECK_EQ_LL(bad, 0);
	nr = mmscale_plan_boundary_threads(&p, got, 16);
	CHECK_EQ_LL(nr, 5);	/* 1, 2 (one node), 3 (3/4), 4 (all), 8 (2 x all) */
	CHECK_EQ_LL(got[nr - 1], 8);
	mmscale_plan_destroy(&p);
	mmscale_topology_destroy(&t);

	/* The real machine: oversubscribed beyond its PUs, not before. */
	CHECK(mmscale_topology_load(&t, NULL, err, sizeof(err)) == 0);
	CHECK(mmscale_plan_build_request(&p, &t, &req, err, sizeof(err)) == 0);
	CHECK_EQ_LL(p.nr_cpus, 2 * p.nr_pus_used);
	CHECK(!mmscale_plan_oversubscribed(&p, p.nr_pus_used));
	CHECK(mmscale_plan_oversubscribed(&p, p.nr_pus_used + 1));
	mmscale_plan_destroy(&p);
	mmscale_topology_destroy(&t);
}

/*
 * A memory-only node (GPU memory) listed before the DRAM node of the same
 * package: the CPUs belong to the DRAM node (fixtures/gpumem-node-first.xml,
 * scripts/gen-machine-topologies' GH200 with the two nodes swapped).
 */
static void test_memory_only_node_first(void)
{
	struct mmscale_topology t;
	struct mmscale_plan p;

	CHECK(load(&t, &p, "xml:fixtures/gpumem-node-first.xml", MMSCALE_PLACE_COMPACT, NULL) == 0);
	CHECK_EQ_LL(t.nr_nodes, 2);
	CHECK_EQ_LL(t.nodes[p.cpu[0].node].os_index, 1);
	CHECK_EQ_LL(t.nodes[0].nr_pus + t.nodes[1].nr_pus, 72);
	CHECK_EQ_LL(t.nodes[p.cpu[0].node].nr_pus, 72);
	mmscale_plan_destroy(&p);
	{
		/* --nodes=all: every node with a usable CPU, the memory-only one is no error. */
		struct mmscale_plan_request req = { .nodes = "all" };
		char err[256];

		CHECK(mmscale_plan_build_request(&p, &t, &req, err, sizeof(err)) == 0);
		CHECK_EQ_LL(p.nr_cpus, 72);
		mmscale_plan_destroy(&p);
		req.nodes = "0";
		CHECK(mmscale_plan_build_request(&p, &t, &req, err, sizeof(err)) != 0);
		CHECK(strstr(err, "node 0 has no CPU (a memory-only node)") != NULL);
	}
	mmscale_topology_destroy(&t);
}

/*
 * An XML exported under a cgroup (fixtures/cgroup-mems0-2n16c.xml: CPUs
 * 4-11,20-27 of two sockets, memory node 0 only): only the allowed PUs are
 * planned, each on its own node, and node 1's CPUs take memory from node 0.
 */
static void test_xml_allowed_sets(void)
{
	struct mmscale_topology t;
	struct mmscale_plan p;
	int bad = 0;

	CHECK(load(&t, &p, "xml:fixtures/cgroup-mems0-2n16c.xml", MMSCALE_PLACE_COMPACT,
		   NULL) == 0);
	CHECK_EQ_LL(t.nr_nodes, 2);
	CHECK_EQ_LL(p.nr_cpus, 16);
	CHECK(t.xml_allowed && strcmp(t.xml_allowed, "CPUs 4-11,20-27, memory nodes 0") == 0);
	CHECK(t.nodes[0].mem_allowed && !t.nodes[1].mem_allowed);
	for (int i = 0; i < p.nr_cpus; i++) {
		int os = t.pus[p.cpu[i].pu].os_index;

		bad += !((os >= 4 && os <= 11) || (os >= 20 && os <= 27));
		bad += p.cpu[i].node != ((os >= 8 && os <= 15) || os >= 24);
		bad += p.cpu[i].mem_node != 0;
	}
	CHECK_EQ_LL(bad, 0);
	mmscale_plan_destroy(&p);
	{
		char err[256];
		struct mmscale_plan_request req = { .cpus = "0" };

		CHECK(mmscale_plan_build_request(&p, &t, &req, err, sizeof(err)) != 0);
		CHECK(strstr(err, "outside the allowed cpuset the XML records") != NULL);
	}
	mmscale_topology_destroy(&t);
}

int main(void)
{
	mmscale_notices_quiet = 1;
	test_128_nodes();
	test_smt_scatter();
	test_cpulists();
	test_bad_specs();
	test_memoryless();
	test_real();
	test_boundary_threads();
	test_sample();
	test_oversubscribe();
	test_memory_only_node_first();
	test_xml_allowed_sets();
	return check_report("test_topology");
}
