/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The machine, or a declared stand-in for one, and the placement plan that
 * maps emulated CPUs 0..N-1 onto it.
 *
 * The real topology comes from hwloc. A stand-in (an hwloc synthetic string
 * or an XML export of a large server) plans placement exactly as it would
 * on that machine; running it binds emulated CPU i to real PU i mod (real
 * PUs), so such runs check function, never speed, and say so.
 */
#ifndef MMSCALE_TOPOLOGY_H
#define MMSCALE_TOPOLOGY_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

enum mmscale_topo_kind {
	MMSCALE_TOPO_REAL,
	MMSCALE_TOPO_SYNTHETIC,
	MMSCALE_TOPO_XML,
};

enum mmscale_placement {
	MMSCALE_PLACE_COMPACT,	/* fill node by node */
	MMSCALE_PLACE_SCATTER,	/* round-robin across nodes */
};

struct mmscale_node {
	int os_index;
	uint64_t memory;	/* bytes of memory local to the node */
	int nr_pus;		/* PUs whose closest node this is */
	int mem_node;		/* node the per-CPU data of its CPUs comes from */
};

struct mmscale_pu {
	int os_index;
	int node;		/* index into mmscale_topology.nodes */
	int core;		/* logical index of its core */
	int smt_rank;		/* its rank among the PUs of its core */
	bool allowed;		/* in this process's allowed set (real only) */
};

struct mmscale_topology {
	enum mmscale_topo_kind kind;
	char *spec;		/* as given ("synthetic:...", "xml:...", "real") */
	void *hwloc;		/* hwloc_topology_t */
	int nr_nodes;
	struct mmscale_node *nodes;
	int nr_cores;
	int nr_pus;
	struct mmscale_pu *pus;	/* in hwloc logical order */
	uint64_t *distances;	/* nr_nodes x nr_nodes, or NULL if unknown */
	/* The real PUs this process may run on (stand-ins map onto these). */
	int nr_real_pus;
	int *real_pus;
};

/* One emulated CPU of the plan. */
struct mmscale_cpu_info {
	int pu;			/* index into topology.pus */
	int node;		/* its node in the planned topology */
	int core;
	int run_pu;		/* OS index of the real PU its thread binds to */
	int mem_node;		/* planned node its per-CPU memory comes from */
};

struct mmscale_plan {
	const struct mmscale_topology *topo;
	enum mmscale_placement placement;
	char *cpulist;		/* --cpus as given, or NULL for all */
	int nr_cpus;		/* selected PUs, in placement order */
	struct mmscale_cpu_info *cpu;
};

/*
 * Load the topology named by spec: NULL or "real" for this machine,
 * "synthetic:<hwloc synthetic string>" or "xml:<file>". On failure returns
 * -1 with one line in err.
 */
int mmscale_topology_load(struct mmscale_topology *t, const char *spec,
			  char *err, size_t errlen);
void mmscale_topology_destroy(struct mmscale_topology *t);

static inline bool mmscale_topology_stand_in(const struct mmscale_topology *t)
{
	return t->kind != MMSCALE_TOPO_REAL;
}

/* Distance between two nodes (10 for local) or 0 if unknown. */
uint64_t mmscale_node_distance(const struct mmscale_topology *t, int a, int b);

int mmscale_parse_placement(const char *s, enum mmscale_placement *out);
const char *mmscale_placement_name(enum mmscale_placement p);

/*
 * Parse a kernel/numactl cpulist ("0-3,8-11") with hwloc's bitmap parser.
 * Returns an hwloc_bitmap_t (as void *) or NULL with one line in err.
 */
void *mmscale_parse_cpulist(const char *s, char *err, size_t errlen);

/*
 * Build the plan: the PUs selected by cpulist (NULL: all allowed), ordered
 * by placement. On failure returns -1 with one line in err.
 */
int mmscale_plan_build(struct mmscale_plan *p, const struct mmscale_topology *t,
		       enum mmscale_placement placement, const char *cpulist,
		       char *err, size_t errlen);
void mmscale_plan_destroy(struct mmscale_plan *p);

/* True when nr_threads emulated CPUs outnumber the real PUs they run on. */
bool mmscale_plan_oversubscribed(const struct mmscale_plan *p, int nr_threads);

/* The number of distinct nodes the first nr_threads CPUs span. */
int mmscale_plan_nodes_spanned(const struct mmscale_plan *p, int nr_threads);

/*
 * Print the topology and the plan for the given thread counts (--describe).
 */
void mmscale_describe(FILE *out, const struct mmscale_plan *p,
		      const int *threads, int nr_threads);
/* The same as one JSON object, for scripts (schema: bench/describe.c). */
void mmscale_describe_json(FILE *out, const struct mmscale_plan *p,
			   const int *threads, int nr_threads);

/* One-line summary for result context ("synthetic node:128 core:8 pu:1, 128 nodes, 1024 PUs"). */
void mmscale_topology_summary(const struct mmscale_topology *t, char *buf, size_t len);

#endif /* MMSCALE_TOPOLOGY_H */
