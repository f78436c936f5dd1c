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
	bool mem_allowed;	/* this process may allocate on it (real only) */
};

struct mmscale_pu {
	int os_index;
	int node;		/* index into mmscale_topology.nodes */
	int core;		/* logical index of its core */
	int llc;		/* logical index of its last-level cache, -1: none known */
	int smt_rank;		/* its rank among the PUs of its core */
	bool allowed;		/* this run may use it (real only; see below) */
	bool in_cpuset;		/* in the process's cgroup cpuset (real only) */
};

struct mmscale_topology {
	enum mmscale_topo_kind kind;
	char *spec;		/* as given ("synthetic:...", "xml:...", "real") */
	void *hwloc;		/* hwloc_topology_t */
	int nr_nodes;
	struct mmscale_node *nodes;
	int nr_cores;
	int nr_llcs;		/* last-level caches (L3, else L2), 0: none known */
	const char *llc_name;	/* "L3", "L2" or NULL */
	int nr_pus;
	struct mmscale_pu *pus;	/* in hwloc logical order */
	uint64_t *distances;	/* nr_nodes x nr_nodes, or NULL if unknown */
	/*
	 * What this process was given, as OS numbers in cpulist syntax: the
	 * affinity it started with (taskset, numactl --physcpubind or
	 * --cpunodebind), its cgroup cpuset, and the memory nodes it may
	 * allocate on (cgroup mems_allowed and a numactl --membind policy).
	 * A run uses the affinity and the memory policy unless widened
	 * (--widen-affinity), and never leaves the cgroup's sets.
	 */
	bool widened;
	char *xml_allowed;	/* an XML stand-in's own allowed sets, if restricted */
	char *affinity_list;
	char *cpuset_list;
	char *mems_list;	/* the nodes a run may allocate on */
	char *mems_inherited;	/* mems_allowed and mempolicy as started */
	void *mems;		/* hwloc_bitmap_t of mems_list, NULL: unrestricted */
	/* The real PUs this process may run on (stand-ins map onto these). */
	int nr_real_pus;
	int *real_pus;
};

/* --sample: one emulated CPU per core, last-level cache or node. */
enum mmscale_sample {
	MMSCALE_SAMPLE_NONE,
	MMSCALE_SAMPLE_CORE,
	MMSCALE_SAMPLE_LLC,
	MMSCALE_SAMPLE_NODE,
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
	char *nodelist;		/* --nodes as given, or NULL for all */
	char *used_cpus;	/* OS numbers of the plan's PUs, cpulist syntax */
	enum mmscale_sample sample;
	int nr_pus_used;	/* distinct PUs: nr_cpus / --oversubscribe */
	int nr_cpus;		/* emulated CPUs: the selected PUs in placement order,
				 * --oversubscribe times over */
	struct mmscale_cpu_info *cpu;
};

/*
 * Load the topology named by spec: NULL or "real" for this machine,
 * "synthetic:<hwloc synthetic string>" or "xml:<file>". On failure returns
 * -1 with one line in err.
 */
int mmscale_topology_load(struct mmscale_topology *t, const char *spec,
			  char *err, size_t errlen);
/*
 * The same, widened: runs may use every CPU and memory node of the cgroup
 * cpuset, not only the affinity and memory policy the process started with.
 */
int mmscale_topology_load_widened(struct mmscale_topology *t, const char *spec, bool widen,
				  char *err, size_t errlen);
/* The real node to allocate on instead of real_node, if this process may not use it. */
int mmscale_topology_real_mem_node(const struct mmscale_topology *t, int real_node);
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
/* The same for the list of flag (a name such as "--nodes"), saying so in err. */
void *mmscale_parse_list(const char *s, const char *flag, char *err, size_t errlen);

int mmscale_parse_sample(const char *s, enum mmscale_sample *out);
const char *mmscale_sample_name(enum mmscale_sample s);

/* What a plan is asked for: the command line's placement flags. */
struct mmscale_plan_request {
	enum mmscale_sample sample;
	int oversubscribe;	/* --oversubscribe: emulated CPUs per selected PU (0, 1: one) */
	enum mmscale_placement placement;
	const char *cpus;	/* --cpus: OS PU numbers, or NULL for all usable */
	const char *nodes;	/* --nodes: OS node numbers (numactl's), or NULL */
};

/*
 * Build the plan: the PUs selected by cpulist (NULL: all allowed), ordered
 * by placement. On failure returns -1 with one line in err.
 */
int mmscale_plan_build(struct mmscale_plan *p, const struct mmscale_topology *t,
		       enum mmscale_placement placement, const char *cpulist,
		       char *err, size_t errlen);
int mmscale_plan_build_request(struct mmscale_plan *p, const struct mmscale_topology *t,
			       const struct mmscale_plan_request *req, char *err, size_t errlen);
void mmscale_plan_destroy(struct mmscale_plan *p);

/*
 * True when nr_threads emulated CPUs outnumber the real PUs they run on (a
 * stand-in beyond this machine's PUs, or --oversubscribe past the plan's).
 */
bool mmscale_plan_oversubscribed(const struct mmscale_plan *p, int nr_threads);

/*
 * The thread counts at the topology's boundaries (--threads=auto): 1, the
 * PUs of the first CPU's core, of its last-level cache, of its node, the
 * CPUs of the first 2, 3 and 4 nodes and then of doubling node counts in
 * node order, 3/4 of the plan's PUs and all of them, and with
 * --oversubscribe=K, K times all; sorted, without repeats.
 * Returns how many were written to out (room for max).
 */
int mmscale_plan_boundary_threads(const struct mmscale_plan *p, int *out, int max);

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

/* --describe=xml: the topology as hwloc exports it; 1 (said on stderr) if it cannot. */
int mmscale_describe_xml(FILE *out, const struct mmscale_topology *t);

/* One line: the CPUs and memory nodes this process was given, and if widened. */
void mmscale_allowed_summary(const struct mmscale_topology *t, char *buf, size_t len);

/* One-line summary for result context ("synthetic node:128 core:8 pu:1, 128 nodes, 1024 PUs"). */
void mmscale_topology_summary(const struct mmscale_topology *t, char *buf, size_t len);

#endif /* MMSCALE_TOPOLOGY_H */
