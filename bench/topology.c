// SPDX-License-Identifier: GPL-2.0
/*
 * Topology discovery (hwloc): the real machine, an hwloc synthetic
 * stand-in or an XML export, and its nodes, PUs, distances and the node
 * each node's CPUs take memory from. The placement plan over it is
 * bench/plan.c.
 *
 * Everything is sized by what was found: a 128-node, 1024-PU synthetic
 * stand-in costs a few arrays of 1024 entries, and --describe for it runs
 * in milliseconds.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <stdbool.h>
#include <string.h>
#include <sys/stat.h>

#include <hwloc.h>
#include <numa.h>

#include "mmscale/kernel/cpumask.h"
#include "mmscale/notice.h"
#include "mmscale/topology.h"

static const char synthetic_prefix[] = "synthetic:";
static const char xml_prefix[] = "xml:";

#define starts_with(s, prefix) (strncmp((s), (prefix), sizeof(prefix) - 1) == 0)

static int load_real_pus(struct mmscale_topology *t, char *err, size_t errlen)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	if (sched_getaffinity(0, sizeof(set), &set) != 0)
		return mmscale_errorf(err, errlen, "sched_getaffinity: %s", strerror(errno));
	t->nr_real_pus = CPU_COUNT(&set);
	t->real_pus = calloc((size_t)t->nr_real_pus, sizeof(*t->real_pus));
	if (!t->real_pus)
		return mmscale_errorf(err, errlen, "out of memory");
	for (int cpu = 0, n = 0; cpu < CPU_SETSIZE && n < t->nr_real_pus; cpu++)
		if (CPU_ISSET(cpu, &set))
			t->real_pus[n++] = cpu;
	return 0;
}

/*
 * hwloc builds whatever a synthetic string asks for (the fuzzer found
 * "pack nno..:129 core:8 pu:141", "no:161 core:2 1612",
 * "pack nnno..:129no..:129 core:8 pu:1" and "no:161 cor(e:2 1612", for
 * which hwloc itself allocates over 2 GiB): refuse, before hwloc sees it, a
 * string whose arities could multiply past NR_CPUS PUs, since mmscale could
 * not emulate one CPU per PU. hwloc's parser is lenient (a level may follow
 * another without a blank, be a bare arity, sit after a stray parenthesis),
 * so count generously: every run of digits is taken as an arity, except a
 * value after '=' (an attribute's, "memory=1GB"). Counting too many only
 * refuses a string hwloc might have read as smaller (a long "indexes="
 * list, say). Returns the product, or NR_CPUS + 1 for anything larger.
 */
static unsigned long synthetic_pus(const char *desc)
{
	unsigned long total = 1;

	for (const char *c = desc; *c; ) {
		unsigned long n = 0;
		bool value = c > desc && c[-1] == '=';

		if (*c < '0' || *c > '9') {
			c++;
			continue;
		}
		for (; *c >= '0' && *c <= '9'; c++) {
			n = n * 10 + (unsigned long)(*c - '0');
			if (n > NR_CPUS && !value)
				return NR_CPUS + 1;
		}
		if (value || !n)
			continue;
		if (total > NR_CPUS / n)
			return NR_CPUS + 1;
		total *= n;
	}
	return total;
}

static int configure_source(struct mmscale_topology *t, hwloc_topology_t topo,
			    const char *spec, char *err, size_t errlen)
{
	if (!spec || strcmp(spec, "real") == 0) {
		t->kind = MMSCALE_TOPO_REAL;
		/* Keep disallowed PUs so --cpus can say why it cannot use one. */
		hwloc_topology_set_flags(topo, HWLOC_TOPOLOGY_FLAG_INCLUDE_DISALLOWED);
		return 0;
	}
	if (starts_with(spec, synthetic_prefix)) {
		const char *desc = spec + sizeof(synthetic_prefix) - 1;

		t->kind = MMSCALE_TOPO_SYNTHETIC;
		if (synthetic_pus(desc) > NR_CPUS)
			return mmscale_errorf(err, errlen,
				"--topology: '%s' has more than %d PUs, more CPUs than mmscale "
				"emulates (NR_CPUS)", desc, NR_CPUS);
		if (!*desc || hwloc_topology_set_synthetic(topo, desc) != 0)
			return mmscale_errorf(err, errlen,
				"--topology: '%s' is not a valid hwloc synthetic topology "
				"(example: synthetic:node:128 core:8 pu:1)", desc);
		return 0;
	}
	if (starts_with(spec, xml_prefix)) {
		const char *path = spec + sizeof(xml_prefix) - 1;
		struct stat st;

		t->kind = MMSCALE_TOPO_XML;
		if (!*path)
			return mmscale_errorf(err, errlen, "--topology: xml: needs a file name");
		if (stat(path, &st) != 0)
			return mmscale_errorf(err, errlen, "--topology: cannot read '%s': %s",
					      path, strerror(errno));
		if (!S_ISREG(st.st_mode))
			return mmscale_errorf(err, errlen, "--topology: '%s' is not a file", path);
		if (hwloc_topology_set_xml(topo, path) != 0)
			return mmscale_errorf(err, errlen,
				"--topology: '%s' is not an hwloc XML topology", path);
		return 0;
	}
	return mmscale_errorf(err, errlen,
		"--topology: unknown kind '%s' (want real, synthetic:STRING or xml:FILE)", spec);
}

/* Assign every PU to the first (lowest logical index) NUMA node covering it. */
static int map_pus(struct mmscale_topology *t, hwloc_topology_t topo,
		   char *err, size_t errlen)
{
	hwloc_const_cpuset_t allowed = hwloc_topology_get_allowed_cpuset(topo);
	int *core_pus;

	t->nr_nodes = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_NUMANODE);
	t->nr_pus = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_PU);
	t->nr_cores = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_CORE);
	if (t->nr_nodes <= 0 || t->nr_pus <= 0)
		return mmscale_errorf(err, errlen, "topology '%s' has no NUMA node or no PU",
				      t->spec);
	t->nodes = calloc((size_t)t->nr_nodes, sizeof(*t->nodes));
	t->pus = calloc((size_t)t->nr_pus, sizeof(*t->pus));
	core_pus = calloc((size_t)(t->nr_cores > 0 ? t->nr_cores : 1), sizeof(*core_pus));
	if (!t->nodes || !t->pus || !core_pus) {
		free(core_pus);
		return mmscale_errorf(err, errlen, "out of memory");
	}
	for (int i = 0; i < t->nr_pus; i++)
		t->pus[i].node = -1;

	for (int n = 0; n < t->nr_nodes; n++) {
		hwloc_obj_t node = hwloc_get_obj_by_type(topo, HWLOC_OBJ_NUMANODE, (unsigned)n);
		hwloc_obj_t pu = NULL;

		t->nodes[n].os_index = (int)node->os_index;
		t->nodes[n].memory = node->attr->numanode.local_memory;
		t->nodes[n].mem_node = n;
		while ((pu = hwloc_get_next_obj_inside_cpuset_by_type(topo, node->cpuset,
								     HWLOC_OBJ_PU, pu))) {
			struct mmscale_pu *p = &t->pus[pu->logical_index];

			if (p->node >= 0)
				continue;
			p->node = n;
			t->nodes[n].nr_pus++;
		}
	}

	for (int i = 0; i < t->nr_pus; i++) {
		hwloc_obj_t pu = hwloc_get_obj_by_type(topo, HWLOC_OBJ_PU, (unsigned)i);
		hwloc_obj_t core = hwloc_get_ancestor_obj_by_type(topo, HWLOC_OBJ_CORE, pu);
		struct mmscale_pu *p = &t->pus[i];

		p->os_index = (int)pu->os_index;
		p->allowed = hwloc_bitmap_isset(allowed, pu->os_index);
		if (core) {
			p->core = (int)core->logical_index;
			p->smt_rank = core_pus[p->core]++;
		} else {
			p->core = i;	/* no core level: each PU is its own core */
			p->smt_rank = 0;
		}
		if (p->node < 0) {	/* hwloc guarantees a node; be safe anyway */
			p->node = 0;
			t->nodes[0].nr_pus++;
		}
	}
	if (t->nr_cores <= 0)
		t->nr_cores = t->nr_pus;
	free(core_pus);
	return 0;
}

static void load_distances(struct mmscale_topology *t, hwloc_topology_t topo)
{
	struct hwloc_distances_s *dist = NULL;
	unsigned int nr = 1;

	if (hwloc_distances_get_by_type(topo, HWLOC_OBJ_NUMANODE, &nr, &dist, 0, 0) != 0 ||
	    nr == 0 || !dist)
		return;
	t->distances = calloc((size_t)t->nr_nodes * (size_t)t->nr_nodes,
			      sizeof(*t->distances));
	if (t->distances) {
		for (unsigned int i = 0; i < dist->nbobjs; i++)
			for (unsigned int j = 0; j < dist->nbobjs; j++) {
				unsigned int a = dist->objs[i]->logical_index;
				unsigned int b = dist->objs[j]->logical_index;

				t->distances[a * (unsigned)t->nr_nodes + b] =
					dist->values[i * dist->nbobjs + j];
			}
	}
	hwloc_distances_release(topo, dist);
}

uint64_t mmscale_node_distance(const struct mmscale_topology *t, int a, int b)
{
	if (!t->distances)
		return 0;
	return t->distances[(size_t)a * (size_t)t->nr_nodes + (size_t)b];
}

/*
 * Nodes without memory (CPU-only nodes: hwloc shows them with no local
 * memory, libnuma may still list them) take their per-CPU memory from the
 * nearest node that has some: by distance when the topology has distances,
 * else the nearest logical index. Said once per such node.
 */
static void choose_memory_nodes(struct mmscale_topology *t)
{
	/*
	 * On the real machine, a node counts as having memory only if hwloc and
	 * libnuma both say so: a node libnuma reports empty would make
	 * numa_alloc_onnode fail or spill.
	 */
	if (t->kind == MMSCALE_TOPO_REAL && numa_available() >= 0) {
		for (int n = 0; n < t->nr_nodes; n++) {
			long long free_bytes;

			if (t->nodes[n].memory > 0 &&
			    numa_node_size64(t->nodes[n].os_index, &free_bytes) <= 0) {
				mmscale_notice("node %d: hwloc reports memory, libnuma none; "
					       "treated as a node without memory", n);
				t->nodes[n].memory = 0;
			}
		}
	}

	for (int n = 0; n < t->nr_nodes; n++) {
		int best = -1;
		uint64_t best_d = UINT64_MAX;

		if (t->nodes[n].memory > 0)
			continue;
		for (int m = 0; m < t->nr_nodes; m++) {
			uint64_t d;

			if (t->nodes[m].memory == 0)
				continue;
			d = t->distances ? mmscale_node_distance(t, n, m)
					 : (uint64_t)abs(m - n);
			if (d < best_d) {
				best = m;
				best_d = d;
			}
		}
		if (best < 0) {
			/* No node reports memory (some synthetic strings): use node 0. */
			t->nodes[n].mem_node = 0;
			continue;
		}
		t->nodes[n].mem_node = best;
		if (t->nodes[n].nr_pus > 0)
			mmscale_notice("node %d has no memory: per-CPU data of its CPUs comes "
				       "from node %d (nearest with memory, %s %llu)",
				       n, best, t->distances ? "distance" : "index offset",
				       (unsigned long long)best_d);
	}
}

int mmscale_topology_load(struct mmscale_topology *t, const char *spec,
			  char *err, size_t errlen)
{
	hwloc_topology_t topo;

	memset(t, 0, sizeof(*t));
	t->spec = strdup(spec ? spec : "real");
	if (!t->spec)
		return mmscale_errorf(err, errlen, "out of memory");
	if (hwloc_topology_init(&topo) != 0)
		return mmscale_errorf(err, errlen, "hwloc_topology_init failed");
	t->hwloc = topo;
	if (configure_source(t, topo, spec, err, errlen) != 0)
		goto fail;
	/*
	 * Where hwloc finds a bad XML file depends on its backends: with the
	 * libxml2 plugin, hwloc_topology_set_xml refuses it; with only the
	 * built-in parser (a machine with just what scripts/setup installs), it
	 * is accepted there and fails here. Say the same either way.
	 */
	if (hwloc_topology_load(topo) != 0) {
		if (t->kind == MMSCALE_TOPO_XML)
			mmscale_errorf(err, errlen, "--topology: '%s' is not an hwloc XML topology",
				       t->spec + sizeof(xml_prefix) - 1);
		else
			mmscale_errorf(err, errlen, "--topology: hwloc cannot load '%s': %s",
				       t->spec, strerror(errno));
		goto fail;
	}
	if (map_pus(t, topo, err, errlen) != 0)
		goto fail;
	load_distances(t, topo);
	choose_memory_nodes(t);
	if (load_real_pus(t, err, errlen) != 0)
		goto fail;
	return 0;
fail:
	mmscale_topology_destroy(t);
	return -1;
}

void mmscale_topology_destroy(struct mmscale_topology *t)
{
	if (t->hwloc)
		hwloc_topology_destroy((hwloc_topology_t)t->hwloc);
	free(t->spec);
	free(t->nodes);
	free(t->pus);
	free(t->distances);
	free(t->real_pus);
	memset(t, 0, sizeof(*t));
}

void mmscale_topology_summary(const struct mmscale_topology *t, char *buf, size_t len)
{
	static const char *const kinds[] = {
		[MMSCALE_TOPO_REAL] = "real",
		[MMSCALE_TOPO_SYNTHETIC] = "synthetic stand-in",
		[MMSCALE_TOPO_XML] = "xml stand-in",
	};
	const char *what = t->spec;

	if (t->kind == MMSCALE_TOPO_SYNTHETIC)
		what += sizeof(synthetic_prefix) - 1;
	else if (t->kind == MMSCALE_TOPO_XML)
		what += sizeof(xml_prefix) - 1;
	if (t->kind == MMSCALE_TOPO_REAL)
		snprintf(buf, len, "real machine, %d nodes, %d cores, %d PUs",
			 t->nr_nodes, t->nr_cores, t->nr_pus);
	else
		snprintf(buf, len, "%s '%s', %d nodes, %d cores, %d PUs",
			 kinds[t->kind], what, t->nr_nodes, t->nr_cores, t->nr_pus);
}
