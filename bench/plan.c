// SPDX-License-Identifier: GPL-2.0
/*
 * The placement plan (include: mmscale/topology.h): which PU of the
 * topology (bench/topology.c) each emulated CPU 0..N-1 runs on, compact
 * (node by node) or scatter (round-robin over the nodes, SMT siblings
 * last), within --cpus; and what a plan of that many threads spans.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <stdbool.h>
#include <string.h>

#include <hwloc.h>

#include "mmscale/kernel/cpumask.h"
#include "mmscale/notice.h"
#include "mmscale/topology.h"

int mmscale_parse_placement(const char *s, enum mmscale_placement *out)
{
	if (strcmp(s, "compact") == 0)
		*out = MMSCALE_PLACE_COMPACT;
	else if (strcmp(s, "scatter") == 0)
		*out = MMSCALE_PLACE_SCATTER;
	else
		return -1;
	return 0;
}

const char *mmscale_placement_name(enum mmscale_placement p)
{
	return p == MMSCALE_PLACE_SCATTER ? "scatter" : "compact";
}

static const char *const sample_names[] = {
	[MMSCALE_SAMPLE_NONE] = "none",
	[MMSCALE_SAMPLE_CORE] = "core",
	[MMSCALE_SAMPLE_LLC] = "llc",
	[MMSCALE_SAMPLE_NODE] = "node",
};

int mmscale_parse_sample(const char *s, enum mmscale_sample *out)
{
	for (size_t i = 0; i < sizeof(sample_names) / sizeof(sample_names[0]); i++)
		if (strcmp(s, sample_names[i]) == 0) {
			*out = (enum mmscale_sample)i;
			return 0;
		}
	return -1;
}

const char *mmscale_sample_name(enum mmscale_sample s)
{
	return sample_names[s];
}

/* The group a PU stands for under --sample: its core, LLC or node. */
static int sample_group(const struct mmscale_pu *p, enum mmscale_sample s)
{
	switch (s) {
	case MMSCALE_SAMPLE_CORE:
		return p->core;
	case MMSCALE_SAMPLE_LLC:
		return p->llc;
	case MMSCALE_SAMPLE_NODE:
		return p->node;
	default:
		return -1;
	}
}

/*
 * --sample: of the selected PUs, keep the first (lowest logical index) of
 * each core, LLC or node, so that a very large machine is sampled, one
 * emulated CPU per group, instead of run on every PU.
 */
static int sample_pus(const struct mmscale_topology *t, enum mmscale_sample s, bool *sel,
		      char *err, size_t errlen)
{
	int groups = s == MMSCALE_SAMPLE_CORE ? t->nr_cores : s == MMSCALE_SAMPLE_LLC ?
		     t->nr_llcs : t->nr_nodes;
	bool *taken;

	if (s == MMSCALE_SAMPLE_NONE)
		return 0;
	if (s == MMSCALE_SAMPLE_LLC && !t->nr_llcs)
		return mmscale_errorf(err, errlen, "--sample=llc: the topology shows no last-level "
				      "cache (no L3 or L2 objects)");
	taken = calloc((size_t)groups + 1, sizeof(*taken));
	if (!taken)
		return mmscale_errorf(err, errlen, "out of memory");
	for (int i = 0; i < t->nr_pus; i++) {
		int g = sample_group(&t->pus[i], s);

		if (!sel[i])
			continue;
		if (g < 0 || g >= groups || taken[g])
			sel[i] = false;
		else
			taken[g] = true;
	}
	free(taken);
	return 0;
}

/* Add n to the sorted, repeat-free list out[0..*nr) if it is new and fits. */
static void add_count(int *out, int *nr, int max, int n)
{
	int i = 0;

	if (n < 1)
		return;
	while (i < *nr && out[i] < n)
		i++;
	if ((i < *nr && out[i] == n) || *nr >= max)
		return;
	memmove(out + i + 1, out + i, (size_t)(*nr - i) * sizeof(*out));
	out[i] = n;
	(*nr)++;
}

int mmscale_plan_boundary_threads(const struct mmscale_plan *p, int *out, int max)
{
	const struct mmscale_topology *t = p->topo;
	const struct mmscale_pu *first = &t->pus[p->cpu[0].pu];
	int nr = 0, same_core = 0, same_llc = 0, nodes = 0, next_nodes = 1, total = 0;
	int *per_node;

	for (int i = 0; i < p->nr_pus_used; i++) {
		const struct mmscale_pu *pu = &t->pus[p->cpu[i].pu];

		same_core += pu->core == first->core;
		same_llc += first->llc >= 0 && pu->llc == first->llc;
	}
	add_count(out, &nr, max, 1);
	add_count(out, &nr, max, same_core);
	add_count(out, &nr, max, same_llc);
	/*
	 * Whole nodes in node order, as compact placement fills them: the
	 * count after node k is "k nodes" (scatter gets the same counts, so
	 * the two compare).
	 * 1, 2, 3, 4 nodes, then doubling: on 128 nodes every node count
	 * would be 128 units.
	 */
	per_node = calloc((size_t)t->nr_nodes, sizeof(*per_node));
	for (int i = 0; per_node && i < p->nr_pus_used; i++)
		per_node[p->cpu[i].node]++;
	for (int n = 0; per_node && n < t->nr_nodes; n++) {
		if (!per_node[n])
			continue;
		total += per_node[n];
		if (++nodes == next_nodes) {
			add_count(out, &nr, max, total);
			next_nodes = next_nodes < 4 ? next_nodes + 1 : next_nodes * 2;
		}
	}
	free(per_node);
	add_count(out, &nr, max, p->nr_pus_used * 3 / 4);
	add_count(out, &nr, max, p->nr_pus_used);
	add_count(out, &nr, max, p->nr_cpus);	/* K x all with --oversubscribe=K */
	return nr;
}

void *mmscale_parse_cpulist(const char *s, char *err, size_t errlen)
{
	return mmscale_parse_list(s, "--cpus", err, errlen);
}

void *mmscale_parse_list(const char *s, const char *flag, char *err, size_t errlen)
{
	hwloc_bitmap_t set;
	const char *c;

	/*
	 * hwloc's list parser is lenient: "0-" means "0 to infinity" and it
	 * skips junk after a number. Refuse what is not a plain cpulist first,
	 * then let hwloc do the parsing.
	 */
	if (!*s)
		goto bad;
	for (c = s; *c; c++) {
		bool digit = *c >= '0' && *c <= '9';
		bool prev_digit = c > s && c[-1] >= '0' && c[-1] <= '9';
		bool next_digit = c[1] >= '0' && c[1] <= '9';

		if (digit)
			continue;
		if ((*c == ',' || *c == '-') && prev_digit && next_digit)
			continue;
		goto bad;
	}
	set = hwloc_bitmap_alloc();
	if (!set) {
		mmscale_errorf(err, errlen, "out of memory");
		return NULL;
	}
	if (hwloc_bitmap_list_sscanf(set, s) != 0 || hwloc_bitmap_weight(set) <= 0) {
		hwloc_bitmap_free(set);
		goto bad;
	}
	/* A range written backwards ("7-3") is an error, not an empty set. */
	for (c = s; *c;) {
		char *end;
		unsigned long a = strtoul(c, &end, 10), b = a;

		if (*end == '-')
			b = strtoul(end + 1, &end, 10);
		if (b < a || b >= 1UL << 20 || (*end && *end != ',')) {
			hwloc_bitmap_free(set);
			goto bad;
		}
		c = *end ? end + 1 : end;
	}
	return set;
bad:
	mmscale_errorf(err, errlen, "%s: '%s' is not a list of numbers (example: 0-3,8-11)",
		       flag, s);
	return NULL;
}

/* Order the selected PUs node by node: compact keeps hwloc's logical order. */
static int order_compact(const struct mmscale_topology *t, const bool *sel, int *order)
{
	int n = 0;

	for (int node = 0; node < t->nr_nodes; node++)
		for (int i = 0; i < t->nr_pus; i++)
			if (sel[i] && t->pus[i].node == node)
				order[n++] = i;
	return n;
}

static int cmp_spread(const void *a, const void *b, void *arg)
{
	const struct mmscale_topology *t = arg;
	const struct mmscale_pu *x = &t->pus[*(const int *)a], *y = &t->pus[*(const int *)b];

	if (x->smt_rank != y->smt_rank)
		return x->smt_rank - y->smt_rank;
	return *(const int *)a - *(const int *)b;
}

/*
 * Scatter: round-robin across nodes; within a node, one PU per core before
 * any SMT sibling, so two scattered CPUs never share a core while a free
 * core is left.
 */
static int order_scatter(const struct mmscale_topology *t, const bool *sel, int *order,
			 int *tmp)
{
	int *start = calloc((size_t)t->nr_nodes + 1, sizeof(*start));
	int *taken = calloc((size_t)t->nr_nodes, sizeof(*taken));
	int total, n = 0;

	if (!start || !taken) {
		free(start);
		free(taken);
		return -1;
	}
	total = order_compact(t, sel, tmp);
	for (int i = 0; i < total; i++)
		start[t->pus[tmp[i]].node + 1]++;
	for (int node = 0; node < t->nr_nodes; node++) {
		start[node + 1] += start[node];
		qsort_r(tmp + start[node], (size_t)(start[node + 1] - start[node]),
			sizeof(*tmp), cmp_spread, (void *)t);
	}
	while (n < total) {
		for (int node = 0; node < t->nr_nodes; node++) {
			if (start[node] + taken[node] < start[node + 1])
				order[n++] = tmp[start[node] + taken[node]++];
		}
	}
	free(start);
	free(taken);
	return n;
}

/* Why this run may not use a real PU: said the same by --cpus and --nodes. */
static int unusable(const struct mmscale_topology *t, const struct mmscale_pu *p,
		    const char *what, char *err, size_t errlen)
{
	if (t->kind == MMSCALE_TOPO_XML)
		return mmscale_errorf(err, errlen, "%s outside the allowed cpuset the XML records "
				      "(%s)", what, t->xml_allowed ? t->xml_allowed : "?");
	if (p->in_cpuset)
		return mmscale_errorf(err, errlen, "%s outside the affinity mmscale was started "
				      "with (CPUs %s: taskset, numactl); --widen-affinity "
				      "allows it", what, t->affinity_list);
	return mmscale_errorf(err, errlen, "%s outside this process's cgroup cpuset (CPUs %s)",
			      what, t->cpuset_list ? t->cpuset_list : "?");
}

/* --cpus: every CPU named must exist, and be usable, in this topology. */
static hwloc_bitmap_t select_cpus(const struct mmscale_topology *t, const char *cpulist,
				  char *err, size_t errlen)
{
	hwloc_bitmap_t want = mmscale_parse_cpulist(cpulist, err, errlen);
	int cpu;

	if (!want)
		return NULL;
	hwloc_bitmap_foreach_begin(cpu, want) {
		int i;

		for (i = 0; i < t->nr_pus; i++)
			if (t->pus[i].os_index == cpu)
				break;
		if (i == t->nr_pus) {
			mmscale_errorf(err, errlen, "--cpus: CPU %d is not in the %s topology "
				       "(%d PUs)", cpu, mmscale_topology_stand_in(t) ? "stand-in" :
				       "machine's", t->nr_pus);
			goto bad;
		}
		if (!t->pus[i].allowed) {
			char what[64];

			snprintf(what, sizeof(what), "--cpus: CPU %d is", cpu);
			unusable(t, &t->pus[i], what, err, errlen);
			goto bad;
		}
	} hwloc_bitmap_foreach_end();
	return want;
bad:
	hwloc_bitmap_free(want);
	return NULL;
}

/*
 * --nodes: the CPUs of these nodes (OS numbers, as numactl --cpunodebind
 * takes them), each of which must exist and have a CPU this run may use.
 * "all" selects nothing out (select_pus): every node with a usable CPU.
 */
static hwloc_bitmap_t select_nodes(const struct mmscale_topology *t, const char *nodelist,
				   char *err, size_t errlen)
{
	hwloc_bitmap_t nodes, cpus = NULL;
	int os;

	nodes = mmscale_parse_list(nodelist, "--nodes", err, errlen);
	if (!nodes)
		return NULL;
	cpus = hwloc_bitmap_alloc();
	if (!nodes || !cpus) {
		mmscale_errorf(err, errlen, "out of memory");
		goto bad;
	}
	hwloc_bitmap_foreach_begin(os, nodes) {
		int n, usable = 0, pus = 0, first = -1;

		for (n = 0; n < t->nr_nodes; n++)
			if (t->nodes[n].os_index == os)
				break;
		if (n == t->nr_nodes) {
			mmscale_errorf(err, errlen, "--nodes: node %d is not in the %s topology "
				       "(%d nodes)", os, mmscale_topology_stand_in(t) ? "stand-in" :
				       "machine's", t->nr_nodes);
			goto bad;
		}
		for (int i = 0; i < t->nr_pus; i++) {
			if (t->pus[i].node != n)
				continue;
			if (!pus++)
				first = i;
			if (t->pus[i].allowed) {
				hwloc_bitmap_set(cpus, (unsigned)t->pus[i].os_index);
				usable++;
			}
		}
		if (!usable) {
			char what[64];

			snprintf(what, sizeof(what), "--nodes: node %d's CPUs are all", os);
			if (pus)
				unusable(t, &t->pus[first], what, err, errlen);
			else
				mmscale_errorf(err, errlen, "--nodes: node %d has no CPU "
					       "(a memory-only node)", os);
			goto bad;
		}
	} hwloc_bitmap_foreach_end();
	hwloc_bitmap_free(nodes);
	return cpus;
bad:
	hwloc_bitmap_free(nodes);
	hwloc_bitmap_free(cpus);
	return NULL;
}

static int select_pus(const struct mmscale_topology *t, const struct mmscale_plan_request *req,
		      bool *sel, char *err, size_t errlen)
{
	hwloc_bitmap_t cpus = NULL, nodes = NULL;
	int excluded = 0, selected = 0;

	if (req->cpus && !(cpus = select_cpus(t, req->cpus, err, errlen)))
		return -1;
	if (req->nodes && strcmp(req->nodes, "all") != 0 &&
	    !(nodes = select_nodes(t, req->nodes, err, errlen))) {
		hwloc_bitmap_free(cpus);
		return -1;
	}
	for (int i = 0; i < t->nr_pus; i++) {
		const struct mmscale_pu *p = &t->pus[i];

		sel[i] = (!cpus || hwloc_bitmap_isset(cpus, (unsigned)p->os_index)) &&
			 (!nodes || hwloc_bitmap_isset(nodes, (unsigned)p->os_index));
		if (sel[i] && !p->allowed) {
			sel[i] = false;
			excluded++;
		}
		selected += sel[i];
	}
	hwloc_bitmap_free(cpus);
	hwloc_bitmap_free(nodes);
	if (!selected && req->cpus && req->nodes)
		return mmscale_errorf(err, errlen, "--cpus=%s and --nodes=%s have no CPU in common",
				      req->cpus, req->nodes);
	if (!selected)
		return mmscale_errorf(err, errlen, "no CPU of the topology is one this process may "
				      "use (%s)", t->widened && t->cpuset_list ? t->cpuset_list :
				      t->affinity_list);
	/* An XML's own allowed sets were said when it was loaded (xml_allowed). */
	if (excluded && t->kind != MMSCALE_TOPO_XML && t->widened)
		mmscale_notice("%d PU%s of this machine %s outside this process's cgroup cpuset "
			       "(%s) and not used", excluded, excluded == 1 ? "" : "s",
			       excluded == 1 ? "is" : "are", t->cpuset_list);
	else if (excluded && t->kind != MMSCALE_TOPO_XML)
		mmscale_notice("%d PU%s of this machine %s outside the affinity mmscale was "
			       "started with (%s) and not used; --widen-affinity uses those of "
			       "its cgroup cpuset", excluded, excluded == 1 ? "" : "s",
			       excluded == 1 ? "is" : "are", t->affinity_list);
	return 0;
}

int mmscale_plan_build(struct mmscale_plan *p, const struct mmscale_topology *t,
		       enum mmscale_placement placement, const char *cpulist,
		       char *err, size_t errlen)
{
	struct mmscale_plan_request req = { .placement = placement, .cpus = cpulist };

	return mmscale_plan_build_request(p, t, &req, err, errlen);
}

int mmscale_plan_build_request(struct mmscale_plan *p, const struct mmscale_topology *t,
			       const struct mmscale_plan_request *req, char *err, size_t errlen)
{
	enum mmscale_placement placement = req->placement;
	const char *cpulist = req->cpus;
	int over;
	hwloc_bitmap_t used = hwloc_bitmap_alloc();
	bool *sel = calloc((size_t)t->nr_pus, sizeof(*sel));
	int *order = calloc((size_t)t->nr_pus, sizeof(*order));
	int *tmp = calloc((size_t)t->nr_pus, sizeof(*tmp));
	int n, ret = -1;

	memset(p, 0, sizeof(*p));
	p->topo = t;
	p->placement = placement;
	if (!sel || !order || !tmp || !used) {
		mmscale_errorf(err, errlen, "out of memory");
		goto out;
	}
	if (select_pus(t, req, sel, err, errlen) != 0 ||
	    sample_pus(t, req->sample, sel, err, errlen) != 0)
		goto out;
	p->sample = req->sample;
	if (placement == MMSCALE_PLACE_SCATTER)
		n = order_scatter(t, sel, order, tmp);
	else
		n = order_compact(t, sel, order);
	if (n <= 0) {
		mmscale_errorf(err, errlen, n < 0 ? "out of memory" : "no usable CPU selected");
		goto out;
	}
	over = req->oversubscribe > 1 ? req->oversubscribe : 1;
	if ((long)n * over > NR_CPUS) {
		mmscale_errorf(err, errlen, "--oversubscribe=%d: %ld emulated CPUs, more than "
			       "mmscale emulates (NR_CPUS %d)", over, (long)n * over, NR_CPUS);
		goto out;
	}
	p->cpu = calloc((size_t)n * (size_t)over, sizeof(*p->cpu));
	p->cpulist = cpulist ? strdup(cpulist) : NULL;
	p->nodelist = req->nodes ? strdup(req->nodes) : NULL;
	for (int i = 0; i < n; i++)
		hwloc_bitmap_set(used, (unsigned)t->pus[order[i]].os_index);
	if (hwloc_bitmap_list_asprintf(&p->used_cpus, used) < 0)
		p->used_cpus = NULL;
	if (!p->cpu || (cpulist && !p->cpulist) || (req->nodes && !p->nodelist) ||
	    !p->used_cpus) {
		mmscale_errorf(err, errlen, "out of memory");
		goto out;
	}
	p->nr_cpus = n * over;
	p->nr_pus_used = n;
	/* --oversubscribe=K: the placement order again, K times over. */
	for (int i = 0; i < p->nr_cpus; i++) {
		const struct mmscale_pu *pu = &t->pus[order[i % n]];
		struct mmscale_cpu_info *c = &p->cpu[i];

		c->pu = order[i % n];
		c->node = pu->node;
		c->core = pu->core;
		c->mem_node = t->nodes[pu->node].mem_node;
		c->run_pu = mmscale_topology_stand_in(t) ?
			    t->real_pus[i % t->nr_real_pus] : pu->os_index;
	}
	ret = 0;
out:
	free(sel);
	free(order);
	free(tmp);
	hwloc_bitmap_free(used);
	if (ret)
		mmscale_plan_destroy(p);
	return ret;
}

void mmscale_plan_destroy(struct mmscale_plan *p)
{
	free(p->cpu);
	free(p->cpulist);
	free(p->nodelist);
	free(p->used_cpus);
	p->cpu = NULL;
	p->cpulist = NULL;
	p->nodelist = NULL;
	p->used_cpus = NULL;
	p->nr_cpus = 0;
	p->nr_pus_used = 0;
}

bool mmscale_plan_oversubscribed(const struct mmscale_plan *p, int nr_threads)
{
	if (mmscale_topology_stand_in(p->topo))
		return nr_threads > p->topo->nr_real_pus;
	return nr_threads > p->nr_pus_used;
}

int mmscale_plan_nodes_spanned(const struct mmscale_plan *p, int nr_threads)
{
	int spanned = 0;
	bool *seen = calloc((size_t)p->topo->nr_nodes, sizeof(*seen));

	if (!seen)
		return -1;
	for (int i = 0; i < nr_threads && i < p->nr_cpus; i++) {
		if (!seen[p->cpu[i].node]) {
			seen[p->cpu[i].node] = true;
			spanned++;
		}
	}
	free(seen);
	return spanned;
}
