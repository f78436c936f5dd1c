// SPDX-License-Identifier: GPL-2.0
/* --describe: the topology and the placement plan, without running anything. */
#include <stdlib.h>
#include <string.h>

#include <hwloc.h>

#include "mmscale/harness.h"
#include "mmscale/json.h"
#include "mmscale/params.h"
#include "mmscale/topology.h"

/* Distance matrices are printed in full up to this many nodes, summarised beyond. */
#define DESCRIBE_MAX_MATRIX 16

static void print_cpulist(FILE *out, hwloc_bitmap_t set)
{
	char *s = NULL;

	if (hwloc_bitmap_iszero(set)) {
		fputs("-", out);
		return;
	}
	if (hwloc_bitmap_list_asprintf(&s, set) < 0 || !s) {
		fputs("?", out);
		return;
	}
	fputs(s, out);
	free(s);
}

static void describe_nodes(FILE *out, const struct mmscale_topology *t)
{
	hwloc_bitmap_t set = hwloc_bitmap_alloc();

	fprintf(out, "%5s %5s %6s %12s  %-14s %s\n", "node", "os", "PUs", "memory", "memory-from",
		"cpus (os)");
	for (int n = 0; n < t->nr_nodes; n++) {
		const struct mmscale_node *node = &t->nodes[n];
		char from[32];

		hwloc_bitmap_zero(set);
		for (int i = 0; i < t->nr_pus; i++)
			if (t->pus[i].node == n)
				hwloc_bitmap_set(set, (unsigned)t->pus[i].os_index);
		if (node->mem_node == n)
			snprintf(from, sizeof(from), "local");
		else
			snprintf(from, sizeof(from), "node %d", node->mem_node);
		fprintf(out, "%5d %5d %6d %8llu MiB  %-14s ", n, node->os_index, node->nr_pus,
			(unsigned long long)(node->memory >> 20), from);
		print_cpulist(out, set);
		fputc('\n', out);
	}
	hwloc_bitmap_free(set);
}

static void describe_distances(FILE *out, const struct mmscale_topology *t)
{
	if (!t->distances) {
		fputs("distances: not provided by this topology\n", out);
		return;
	}
	if (t->nr_nodes <= DESCRIBE_MAX_MATRIX) {
		fputs("distances:\n     ", out);
		for (int b = 0; b < t->nr_nodes; b++)
			fprintf(out, " %4d", b);
		fputc('\n', out);
		for (int a = 0; a < t->nr_nodes; a++) {
			fprintf(out, "%5d", a);
			for (int b = 0; b < t->nr_nodes; b++)
				fprintf(out, " %4llu",
					(unsigned long long)mmscale_node_distance(t, a, b));
			fputc('\n', out);
		}
		return;
	}
	/* Summarise: the distinct values and how often each appears. */
	{
		uint64_t vals[16];
		size_t cnt[16] = { 0 }, nv = 0, other = 0;

		for (int a = 0; a < t->nr_nodes; a++)
			for (int b = 0; b < t->nr_nodes; b++) {
				uint64_t d = mmscale_node_distance(t, a, b);
				size_t k;

				for (k = 0; k < nv && vals[k] != d; k++)
					;
				if (k == nv && nv < 16)
					vals[nv++] = d;
				if (k < nv)
					cnt[k]++;
				else
					other++;
			}
		fprintf(out, "distances: %d x %d matrix (full matrix printed up to %d nodes); values:",
			t->nr_nodes, t->nr_nodes, DESCRIBE_MAX_MATRIX);
		for (size_t k = 0; k < nv; k++)
			fprintf(out, " %llu (x%zu)", (unsigned long long)vals[k], cnt[k]);
		if (other)
			fprintf(out, " and %zu others", other);
		fputc('\n', out);
	}
}

static void describe_spread(FILE *out, const struct mmscale_plan *p, int threads)
{
	int *per_node = calloc((size_t)p->topo->nr_nodes, sizeof(*per_node));
	int lo = 0, hi = 0, spanned = 0, shown = 0;

	if (!per_node)
		return;
	for (int i = 0; i < threads; i++)
		per_node[p->cpu[i].node]++;
	for (int n = 0; n < p->topo->nr_nodes; n++) {
		if (!per_node[n])
			continue;
		lo = spanned ? (per_node[n] < lo ? per_node[n] : lo) : per_node[n];
		hi = per_node[n] > hi ? per_node[n] : hi;
		spanned++;
	}
	if (lo == hi) {
		fprintf(out, "%d on each of %d node%s", lo, spanned, spanned == 1 ? "" : "s");
	} else {
		for (int n = 0; n < p->topo->nr_nodes; n++) {
			if (!per_node[n])
				continue;
			if (shown++ == 8) {
				fputs(" ...", out);
				break;
			}
			fprintf(out, "%snode%d:%d", shown > 1 ? " " : "", n, per_node[n]);
		}
	}
	free(per_node);
}

/*
 * What this process was given (affinity, cgroup cpuset, memory nodes) and
 * whether the run widened it: one line, the same in --describe and in every
 * result's context.
 */
void mmscale_allowed_summary(const struct mmscale_topology *t, char *buf, size_t len)
{
	int n;

	if (t->widened)
		n = snprintf(buf, len, "CPUs %s (the cgroup cpuset, widened by --widen-affinity "
			     "from the affinity %s), memory nodes %s (widened from %s)",
			     t->cpuset_list, t->affinity_list, t->mems_list, t->mems_inherited);
	else
		n = snprintf(buf, len, "CPUs %s (the affinity mmscale was started with%s%s), "
			     "memory nodes %s", t->affinity_list,
			     t->cpuset_list ? "; cgroup cpuset " : "",
			     t->cpuset_list ? t->cpuset_list : "", t->mems_list);
	if (mmscale_topology_stand_in(t) && n > 0 && (size_t)n < len)
		snprintf(buf + n, len - (size_t)n, ", of this machine (the stand-in runs there)");
}

void mmscale_describe(FILE *out, const struct mmscale_plan *p,
		      const int *threads, int nr_threads)
{
	char allowed[1024];

	const struct mmscale_topology *t = p->topo;
	char summary[512];
	int max_threads = 0;

	mmscale_topology_summary(t, summary, sizeof(summary));
	fprintf(out, "topology: %s\n", summary);
	if (mmscale_topology_stand_in(t))
		fprintf(out, "stand-in: placement is planned as on that machine; runs bind "
			"emulated CPUs round-robin onto this machine's %d allowed PUs and "
			"are marked not for timing (oversubscribed beyond %d threads)\n",
			t->nr_real_pus, t->nr_real_pus);
	mmscale_allowed_summary(t, allowed, sizeof(allowed));
	fprintf(out, "allowed: %s\n", allowed);
	if (t->xml_allowed)
		fprintf(out, "the XML allows: %s (exported under a cgroup cpuset; only those are "
			"planned)\n", t->xml_allowed);
	fputs("nodes: 'node' is mmscale's number (hwloc's order), 'os' the kernel's, which "
	      "--nodes and numactl take\n", out);
	describe_nodes(out, t);
	describe_distances(out, t);
	fprintf(out, "placement: %s, cpus: %s, nodes: %s, sample: %s (%d of %d PUs",
		mmscale_placement_name(p->placement), p->cpulist ? p->cpulist : "all",
		p->nodelist ? p->nodelist : "all", mmscale_sample_name(p->sample),
		p->nr_pus_used, t->nr_pus);
	if (p->nr_cpus > p->nr_pus_used)
		fprintf(out, "; --oversubscribe: %d emulated CPUs, %d on each",
			p->nr_cpus, p->nr_cpus / p->nr_pus_used);
	fputs(")\n", out);
	if (t->llc_name)
		fprintf(out, "last-level caches: %d %s\n", t->nr_llcs, t->llc_name);
	else
		fputs("last-level caches: not shown by this topology\n", out);
	fprintf(out, "used: PUs %s\n", p->used_cpus);

	fprintf(out, "%8s %6s %15s  %s\n", "threads", "nodes", "oversubscribed", "CPUs per node");
	for (int i = 0; i < nr_threads; i++) {
		int n = threads[i];

		if (n > p->nr_cpus)
			continue;	/* the caller has already refused these */
		if (n > max_threads)
			max_threads = n;
		fprintf(out, "%8d %6d %15s  ", n, mmscale_plan_nodes_spanned(p, n),
			mmscale_plan_oversubscribed(p, n) ? "yes" : "no");
		describe_spread(out, p, n);
		fputc('\n', out);
	}

	fprintf(out, "emulated CPUs (first %d of the plan):\n", max_threads);
	fprintf(out, "%6s %6s %6s %6s %8s %12s\n", "cpu", "pu", "node", "core", "runs-on",
		"memory-node");
	for (int i = 0; i < max_threads; i++) {
		const struct mmscale_cpu_info *c = &p->cpu[i];

		fprintf(out, "%6d %6d %6d %6d %8d %12d\n", i, t->pus[c->pu].os_index,
			c->node, c->core, c->run_pu, c->mem_node);
	}
	mmscale_knobs_describe(out);
	fputs("locks: queued spinlocks (qspinlock, x86 since 4.2) in every 6.18 row; the ticket "
	      "lock of 2.6.25-4.1 in every other (2.6.x, 3.x, and the 6.1 and 6.6 drain rows, "
	      "remote and 6.6-chunked, whose zones are the 2.6-3.x drain machine's)\n", out);
}

/*
 * --describe=json: the same facts for scripts (scripts/sweep plans its
 * thread counts from it), one JSON object. Schema: topology {summary,
 * stand_in, nodes, pus, real_pus, allowed {affinity, cpuset (null: not
 * read), mems, mems_inherited, widened, summary}}; plan {placement, cpus,
 * cpulist, nodelist (null: all), sample, oversubscribe, used_pus, cpus_per_node[],
 * oversubscribed_from}; threads[]; nodes[] {node, os_index, pus,
 * memory_bytes, memory_node, memory_allowed, cpus}; distances (matrix or null); cpus[] {cpu, pu, node,
 * core, llc (-1: none shown), runs_on, memory_node} for every CPU of the plan;
 * knobs[] {name, value ("auto" or the number), min, max, generations, auto
 * (what auto resolves to here)}.
 */
static void describe_json_topology(struct mmscale_json *j, const struct mmscale_topology *t)
{
	char summary[1024];

	mmscale_json_object(j, "topology");
	mmscale_topology_summary(t, summary, sizeof(summary));
	mmscale_json_str(j, "summary", summary);
	mmscale_json_bool(j, "stand_in", mmscale_topology_stand_in(t));
	mmscale_json_int(j, "nodes", t->nr_nodes);
	mmscale_json_int(j, "pus", t->nr_pus);
	mmscale_json_int(j, "real_pus", t->nr_real_pus);
	mmscale_json_object(j, "allowed");
	mmscale_json_str(j, "affinity", t->affinity_list);
	mmscale_json_str(j, "cpuset", t->cpuset_list);	/* null: not read */
	mmscale_json_str(j, "mems", t->mems_list);
	mmscale_json_str(j, "mems_inherited", t->mems_inherited);
	mmscale_json_bool(j, "widened", t->widened);
	mmscale_allowed_summary(t, summary, sizeof(summary));
	mmscale_json_str(j, "summary", summary);
	mmscale_json_end(j);
	mmscale_json_end(j);
}

static void describe_json_plan(struct mmscale_json *j, const struct mmscale_plan *p)
{
	const struct mmscale_topology *t = p->topo;
	int *per_node = calloc((size_t)t->nr_nodes, sizeof(*per_node));
	int oversubscribed_from = 0;

	for (int n = 1; n <= p->nr_cpus && !oversubscribed_from; n++)
		if (mmscale_plan_oversubscribed(p, n))
			oversubscribed_from = n;
	mmscale_json_object(j, "plan");
	mmscale_json_str(j, "placement", mmscale_placement_name(p->placement));
	mmscale_json_int(j, "cpus", p->nr_cpus);
	mmscale_json_str(j, "cpulist", p->cpulist);	/* null: all */
	mmscale_json_str(j, "nodelist", p->nodelist);
	mmscale_json_str(j, "sample", mmscale_sample_name(p->sample));
	mmscale_json_int(j, "oversubscribe", p->nr_cpus / p->nr_pus_used);
	mmscale_json_str(j, "used_pus", p->used_cpus);
	for (int i = 0; per_node && i < p->nr_cpus; i++)
		per_node[p->cpu[i].node]++;
	mmscale_json_array(j, "cpus_per_node");
	for (int n = 0; n < t->nr_nodes; n++)
		mmscale_json_int(j, NULL, per_node ? per_node[n] : 0);
	mmscale_json_end(j);
	if (oversubscribed_from)
		mmscale_json_int(j, "oversubscribed_from", oversubscribed_from);
	else
		mmscale_json_null(j, "oversubscribed_from");
	mmscale_json_end(j);
	free(per_node);
}

static void describe_json_nodes(struct mmscale_json *j, const struct mmscale_topology *t)
{
	hwloc_bitmap_t set = hwloc_bitmap_alloc();

	mmscale_json_array(j, "nodes");
	for (int n = 0; n < t->nr_nodes; n++) {
		char *cpus = NULL;

		hwloc_bitmap_zero(set);
		for (int i = 0; i < t->nr_pus; i++)
			if (t->pus[i].node == n)
				hwloc_bitmap_set(set, (unsigned)t->pus[i].os_index);
		if (hwloc_bitmap_iszero(set) || hwloc_bitmap_list_asprintf(&cpus, set) < 0)
			cpus = NULL;
		mmscale_json_object(j, NULL);
		mmscale_json_int(j, "node", n);
		mmscale_json_int(j, "os_index", t->nodes[n].os_index);
		mmscale_json_int(j, "pus", t->nodes[n].nr_pus);
		mmscale_json_uint(j, "memory_bytes", (unsigned long long)t->nodes[n].memory);
		mmscale_json_int(j, "memory_node", t->nodes[n].mem_node);
		mmscale_json_bool(j, "memory_allowed", t->nodes[n].mem_allowed);
		mmscale_json_str(j, "cpus", cpus ? cpus : "");
		mmscale_json_end(j);
		free(cpus);
	}
	mmscale_json_end(j);
	hwloc_bitmap_free(set);
}

static void describe_json_distances(struct mmscale_json *j, const struct mmscale_topology *t)
{
	if (!t->distances) {
		mmscale_json_null(j, "distances");
		return;
	}
	mmscale_json_array(j, "distances");
	for (int a = 0; a < t->nr_nodes; a++) {
		mmscale_json_array(j, NULL);
		for (int b = 0; b < t->nr_nodes; b++)
			mmscale_json_uint(j, NULL, (unsigned long long)mmscale_node_distance(t, a, b));
		mmscale_json_end(j);
	}
	mmscale_json_end(j);
}

static void describe_json_cpus(struct mmscale_json *j, const struct mmscale_plan *p)
{
	const struct mmscale_topology *t = p->topo;

	mmscale_json_array(j, "cpus");
	for (int i = 0; i < p->nr_cpus; i++) {
		const struct mmscale_cpu_info *c = &p->cpu[i];

		mmscale_json_object(j, NULL);
		mmscale_json_int(j, "cpu", i);
		mmscale_json_int(j, "pu", t->pus[c->pu].os_index);
		mmscale_json_int(j, "node", c->node);
		mmscale_json_int(j, "core", c->core);
		mmscale_json_int(j, "llc", t->pus[c->pu].llc);
		mmscale_json_int(j, "runs_on", c->run_pu);
		mmscale_json_int(j, "memory_node", c->mem_node);
		mmscale_json_end(j);
	}
	mmscale_json_end(j);
}

void mmscale_describe_json(FILE *out, const struct mmscale_plan *p,
			   const int *threads, int nr_threads)
{
	struct mmscale_json j;

	/* The top's members and the arrays' elements each on a line. */
	mmscale_json_init(&j, out, 2);
	mmscale_json_object(&j, NULL);
	describe_json_topology(&j, p->topo);
	describe_json_plan(&j, p);
	mmscale_json_array(&j, "threads");
	for (int i = 0; i < nr_threads; i++)
		mmscale_json_int(&j, NULL, threads[i]);
	mmscale_json_end(&j);
	describe_json_nodes(&j, p->topo);
	describe_json_distances(&j, p->topo);
	describe_json_cpus(&j, p);
	mmscale_knobs_describe_json(&j);
	mmscale_json_end(&j);
	fputc('\n', out);
}

int mmscale_describe_xml(FILE *out, const struct mmscale_topology *t)
{
	char *xml = NULL;
	int len = 0;

	if (hwloc_topology_export_xmlbuffer((hwloc_topology_t)t->hwloc, &xml, &len, 0) != 0 ||
	    !xml) {
		fprintf(stderr, "mmscale: hwloc cannot export the topology as XML\n");
		return 1;
	}
	fputs(xml, out);
	hwloc_free_xmlbuffer((hwloc_topology_t)t->hwloc, xml);
	return 0;
}
