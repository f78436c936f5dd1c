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
#include <unistd.h>

#include <hwloc.h>
#include <numa.h>

#include "mmscale/kernel/cpumask.h"
#include "mmscale/notice.h"
#include "mmscale/topology.h"

static const char synthetic_prefix[] = "synthetic:";
static const char xml_prefix[] = "xml:";

#define starts_with(s, prefix) (strncmp((s), (prefix), sizeof(prefix) - 1) == 0)

/* A bitmap as a cpulist ("0-3,8"), "" when empty; NULL only when out of memory. */
static char *list_of(hwloc_const_bitmap_t set)
{
	char *s = NULL;

	if (hwloc_bitmap_iszero(set))
		return strdup("");
	if (hwloc_bitmap_list_asprintf(&s, set) < 0)
		return NULL;
	return s;
}

/* The affinity this process started with, whatever the machine's size. */
static hwloc_bitmap_t inherited_affinity(char *err, size_t errlen)
{
	const int max_cpus = 8 * NR_CPUS;
	size_t size = CPU_ALLOC_SIZE(max_cpus);
	cpu_set_t *set = CPU_ALLOC(max_cpus);
	hwloc_bitmap_t aff = hwloc_bitmap_alloc();

	if (!set || !aff) {
		mmscale_errorf(err, errlen, "out of memory");
		goto fail;
	}
	CPU_ZERO_S(size, set);
	if (sched_getaffinity(0, size, set) != 0) {
		mmscale_errorf(err, errlen, "sched_getaffinity: %s", strerror(errno));
		goto fail;
	}
	for (int cpu = 0; cpu < max_cpus; cpu++)
		if (CPU_ISSET_S(cpu, size, set))
			hwloc_bitmap_set(aff, (unsigned)cpu);
	CPU_FREE(set);
	return aff;
fail:
	if (set)
		CPU_FREE(set);
	hwloc_bitmap_free(aff);
	return NULL;
}

/*
 * The cgroup cpuset: hwloc reads it (cpuset.cpus.effective) as the
 * topology's allowed cpuset when it keeps the disallowed PUs. A stand-in has
 * no real topology loaded: load one for this, which only --widen-affinity
 * needs (a stand-in otherwise runs on the inherited affinity).
 */
static hwloc_bitmap_t cgroup_cpuset(hwloc_topology_t real)
{
	hwloc_topology_t own = NULL;
	hwloc_bitmap_t set = NULL;

	if (!real) {
		if (hwloc_topology_init(&own) != 0)
			return NULL;
		hwloc_topology_set_flags(own, HWLOC_TOPOLOGY_FLAG_INCLUDE_DISALLOWED);
		if (hwloc_topology_load(own) != 0) {
			hwloc_topology_destroy(own);
			return NULL;
		}
		real = own;
	}
	set = hwloc_bitmap_dup(hwloc_topology_get_allowed_cpuset(real));
	if (own)
		hwloc_topology_destroy(own);
	return set;
}

static void add_numa_mask(hwloc_bitmap_t to, const struct bitmask *mask)
{
	for (unsigned int n = 0; n < mask->size; n++)
		if (numa_bitmask_isbitset(mask, n))
			hwloc_bitmap_set(to, n);
}

/*
 * The memory nodes this process may allocate on: the cgroup's mems_allowed,
 * and, as started, a binding memory policy (numactl --membind). Without
 * libnuma nothing is known: no restriction (t->mems stays NULL).
 */
static int load_mems(struct mmscale_topology *t, char *err, size_t errlen)
{
	hwloc_bitmap_t allowed, bound;
	struct bitmask *mask;

	if (numa_available() < 0) {
		t->mems_list = strdup("unknown (no libnuma)");
		t->mems_inherited = strdup("unknown (no libnuma)");
		return t->mems_list && t->mems_inherited ? 0 :
		       mmscale_errorf(err, errlen, "out of memory");
	}
	allowed = hwloc_bitmap_alloc();
	bound = hwloc_bitmap_alloc();
	if (!allowed || !bound)
		goto oom;
	mask = numa_get_mems_allowed();
	if (mask) {
		add_numa_mask(allowed, mask);
		numa_bitmask_free(mask);
	}
	/* numa_get_membind: the policy's nodes when it binds, else every node. */
	mask = numa_get_membind();
	if (mask) {
		add_numa_mask(bound, mask);
		numa_bitmask_free(mask);
		hwloc_bitmap_and(bound, bound, allowed);
	} else {
		hwloc_bitmap_copy(bound, allowed);
	}
	t->mems_inherited = list_of(bound);
	t->mems_list = list_of(t->widened ? allowed : bound);
	if (!t->mems_inherited || !t->mems_list)
		goto oom;
	t->mems = t->widened ? allowed : bound;
	hwloc_bitmap_free(t->widened ? bound : allowed);
	return 0;
oom:
	hwloc_bitmap_free(allowed);
	hwloc_bitmap_free(bound);
	return mmscale_errorf(err, errlen, "out of memory");
}

/*
 * The real PUs a run may bind threads to: the affinity it started with, or
 * with --widen-affinity the whole cgroup cpuset. A real topology marks its
 * PUs the same way.
 */
static int load_real_pus(struct mmscale_topology *t, hwloc_topology_t real,
			 char *err, size_t errlen)
{
	hwloc_bitmap_t aff = inherited_affinity(err, errlen), cpuset = NULL, run;
	int ret = -1, cpu, n = 0;

	if (!aff)
		return -1;
	if (real || t->widened) {
		cpuset = cgroup_cpuset(real);
		if (!cpuset) {
			mmscale_errorf(err, errlen, real ? "out of memory" :
				       "hwloc cannot load this machine's topology to read its "
				       "cgroup cpuset");
			goto out;
		}
		hwloc_bitmap_and(aff, aff, cpuset);	/* the kernel keeps it inside */
		t->cpuset_list = list_of(cpuset);
		if (!t->cpuset_list)
			goto oom;
	}
	t->affinity_list = list_of(aff);
	if (!t->affinity_list)
		goto oom;
	run = t->widened ? cpuset : aff;
	if (hwloc_bitmap_iszero(run)) {
		mmscale_errorf(err, errlen, "this process may run on no CPU");
		goto out;
	}
	t->nr_real_pus = hwloc_bitmap_weight(run);
	t->real_pus = calloc((size_t)t->nr_real_pus, sizeof(*t->real_pus));
	if (!t->real_pus)
		goto oom;
	hwloc_bitmap_foreach_begin(cpu, run) {
		t->real_pus[n++] = cpu;
	} hwloc_bitmap_foreach_end();
	if (real) {
		for (int i = 0; i < t->nr_pus; i++) {
			struct mmscale_pu *p = &t->pus[i];

			p->in_cpuset = hwloc_bitmap_isset(cpuset, (unsigned)p->os_index);
			p->allowed = hwloc_bitmap_isset(run, (unsigned)p->os_index);
		}
	}
	ret = 0;
	goto out;
oom:
	mmscale_errorf(err, errlen, "out of memory");
out:
	hwloc_bitmap_free(aff);
	hwloc_bitmap_free(cpuset);
	return ret;
}

int mmscale_topology_real_mem_node(const struct mmscale_topology *t, int real_node)
{
	int best = real_node, best_d = INT32_MAX, n;

	if (!t->mems || real_node < 0 || hwloc_bitmap_isset(t->mems, (unsigned)real_node))
		return real_node;
	hwloc_bitmap_foreach_begin(n, t->mems) {
		int d = numa_distance(real_node, n);

		if (d <= 0)
			d = abs(n - real_node) + 1000;	/* unknown: nearest number */
		if (d < best_d) {
			best = n;
			best_d = d;
		}
	} hwloc_bitmap_foreach_end();
	return best;
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

/*
 * An hwloc XML file cut short (it starts as one - "<?xml" or "<topology" -
 * and does not end with </topology>): its last line, else 0. Such a file
 * is refused before hwloc sees it: hwloc 2.9's built-in parser leaks what
 * it read of it (LeakSanitizer: the objects of the failed import), and
 * says only "Failed to parse XML input", no position.
 */
static int xml_cut_short(const char *path)
{
	FILE *f = fopen(path, "r");
	char head[64] = "", tail[64] = "";
	int lines = 1, c;
	size_t n;
	long size;

	if (!f)
		return 0;
	n = fread(head, 1, sizeof(head) - 1, f);
	head[n] = '\0';
	fseek(f, 0, SEEK_END);
	size = ftell(f);
	fseek(f, size > (long)sizeof(tail) - 1 ? size - (long)sizeof(tail) + 1 : 0, SEEK_SET);
	n = fread(tail, 1, sizeof(tail) - 1, f);
	tail[n] = '\0';
	while (n && (tail[n - 1] == '\n' || tail[n - 1] == ' ' || tail[n - 1] == '\r'))
		tail[--n] = '\0';
	if (strstr(tail, "</topology>") ||
	    (strncmp(head + strspn(head, " \t\r\n"), "<?xml", 5) != 0 &&
	     strncmp(head + strspn(head, " \t\r\n"), "<topology", 9) != 0)) {
		fclose(f);
		return 0;
	}
	rewind(f);
	while ((c = fgetc(f)) != EOF)
		lines += c == '\n';
	fclose(f);
	return lines - (n == 0);
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
		/*
		 * An export from a cgroup-restricted process records its allowed
		 * sets: keep what they leave out (hwloc would drop a disallowed
		 * node and leave its CPUs without one) and plan only what they
		 * allow (xml_allowed), as on that machine.
		 */
		hwloc_topology_set_flags(topo, HWLOC_TOPOLOGY_FLAG_INCLUDE_DISALLOWED);
		if (!*path)
			return mmscale_errorf(err, errlen, "--topology: xml: needs a file name");
		if (stat(path, &st) != 0)
			return mmscale_errorf(err, errlen, "--topology: cannot read '%s': %s",
					      path, strerror(errno));
		if (!S_ISREG(st.st_mode))
			return mmscale_errorf(err, errlen, "--topology: '%s' is not a file", path);
		return 0;	/* hwloc reads it in load_xml, where we hear its reason */
	}
	return mmscale_errorf(err, errlen,
		"--topology: unknown kind '%s' (want real, synthetic:STRING or xml:FILE)", spec);
}

/*
 * hwloc says why it refuses an XML file (a newer format's version, where
 * its parser stopped) only on stderr, and only with HWLOC_XML_VERBOSE set:
 * set it, catch what hwloc writes while it reads the file, and make that
 * the one line. Where the refusal is found depends on hwloc's backends:
 * with the libxml2 plugin hwloc_topology_set_xml refuses, with only the
 * built-in parser (what scripts/setup installs) hwloc_topology_load does.
 * On success, what hwloc wrote is dropped unless the user asked for it.
 * Runs before any thread exists, so borrowing fd 2 races with nothing.
 */
static int load_xml(hwloc_topology_t topo, const char *path, char *err, size_t errlen)
{
	bool user_verbose = getenv("HWLOC_XML_VERBOSE") != NULL;
	FILE *said;
	int saved = -1, ret;
	char text[1024] = "", reason[600] = "";
	size_t len = 0;
	int cut = xml_cut_short(path);

	if (cut)
		return mmscale_errorf(err, errlen, "--topology: '%s' is an hwloc XML topology cut "
				      "short: it ends at line %d, before </topology> (truncated?)",
				      path, cut);
	said = tmpfile();
	/* Without somewhere to catch it, hwloc's reason is not asked for. */
	if (!user_verbose && said)
		setenv("HWLOC_XML_VERBOSE", "1", 1);
	fflush(stderr);
	if (said) {
		saved = dup(2);
		if (saved < 0 || dup2(fileno(said), 2) < 0) {
			if (saved >= 0)
				close(saved);
			saved = -1;
		}
	}
	ret = hwloc_topology_set_xml(topo, path) == 0 && hwloc_topology_load(topo) == 0 ? 0 : -1;
	fflush(stderr);
	if (saved >= 0) {
		dup2(saved, 2);
		close(saved);
		rewind(said);
		len = fread(text, 1, sizeof(text) - 1, said);
		text[len] = '\0';
	}
	if (said)
		fclose(said);
	if (!user_verbose)
		unsetenv("HWLOC_XML_VERBOSE");
	if (ret == 0) {
		if (user_verbose && len)
			fputs(text, stderr);
		return 0;
	}
	/* hwloc's lines, joined; each starts with the file's base name. */
	for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
		size_t used = strlen(reason);

		while (*line == ' ')
			line++;
		if (*line && used < sizeof(reason) - 1)
			snprintf(reason + used, sizeof(reason) - used, "%s%s", used ? " " : "",
				 line);
	}
	return mmscale_errorf(err, errlen, "--topology: hwloc cannot import '%s': %s", path,
			      *reason ? reason : "it is not an hwloc XML topology");
}

/*
 * Of two NUMA nodes (logical indexes) whose cpusets both cover a PU, is a
 * the PU's own node rather than b? hwloc attaches a memory-only node (HBM,
 * MCDRAM, GPU or CXL memory) beside the DRAM node of the same package, with
 * the same cpuset: prefer the node hwloc gives no memory subtype (or
 * "DRAM"), then the
 * one with the smaller cpuset (more local), then the lower OS number (Linux
 * numbers the CPUs' own nodes first).
 */
static bool dram(hwloc_obj_t node)
{
	/* hwloc 2.10 and later may name ordinary memory "DRAM". */
	return !node->subtype || strcmp(node->subtype, "DRAM") == 0;
}

static bool nearer_node(hwloc_topology_t topo, int a, int b)
{
	hwloc_obj_t x = hwloc_get_obj_by_type(topo, HWLOC_OBJ_NUMANODE, (unsigned)a);
	hwloc_obj_t y = hwloc_get_obj_by_type(topo, HWLOC_OBJ_NUMANODE, (unsigned)b);
	int wx = hwloc_bitmap_weight(x->cpuset), wy = hwloc_bitmap_weight(y->cpuset);

	if (dram(x) != dram(y))
		return dram(x);
	if (wx != wy)
		return wx < wy;
	return x->os_index < y->os_index;
}

/* Assign every PU to its own NUMA node (nearer_node) of those covering it. */
static int map_pus(struct mmscale_topology *t, hwloc_topology_t topo,
		   char *err, size_t errlen)
{
	int *core_pus, l3s, l2s;
	hwloc_obj_type_t llc_type;

	t->nr_nodes = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_NUMANODE);
	t->nr_pus = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_PU);
	t->nr_cores = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_CORE);
	/* The last-level cache: L3 where the topology has one, else L2. */
	l3s = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_L3CACHE);
	l2s = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_L2CACHE);
	t->nr_llcs = l3s > 0 ? l3s : l2s > 0 ? l2s : 0;
	t->llc_name = l3s > 0 ? "L3" : l2s > 0 ? "L2" : NULL;
	llc_type = l3s > 0 ? HWLOC_OBJ_L3CACHE : HWLOC_OBJ_L2CACHE;
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
		t->nodes[n].mem_allowed = true;
		while ((pu = hwloc_get_next_obj_inside_cpuset_by_type(topo, node->cpuset,
								     HWLOC_OBJ_PU, pu))) {
			struct mmscale_pu *p = &t->pus[pu->logical_index];

			if (p->node < 0 || nearer_node(topo, n, p->node))
				p->node = n;
		}
	}
	for (int i = 0; i < t->nr_pus; i++) {
		if (t->pus[i].node < 0) {
			/* hwloc guarantees a node (unless it dropped a disallowed one): say it. */
			mmscale_notice("PU %d is in no NUMA node of the topology: counted on "
				       "node 0", i);
			t->pus[i].node = 0;
		}
		t->nodes[t->pus[i].node].nr_pus++;
	}

	for (int i = 0; i < t->nr_pus; i++) {
		hwloc_obj_t pu = hwloc_get_obj_by_type(topo, HWLOC_OBJ_PU, (unsigned)i);
		hwloc_obj_t core = hwloc_get_ancestor_obj_by_type(topo, HWLOC_OBJ_CORE, pu);
		hwloc_obj_t llc = t->nr_llcs ? hwloc_get_ancestor_obj_by_type(topo, llc_type, pu)
					     : NULL;
		struct mmscale_pu *p = &t->pus[i];

		p->os_index = (int)pu->os_index;
		p->llc = llc ? (int)llc->logical_index : -1;
		p->allowed = p->in_cpuset = true;	/* a real topology's: load_real_pus */
		if (core) {
			p->core = (int)core->logical_index;
			p->smt_rank = core_pus[p->core]++;
		} else {
			p->core = i;	/* no core level: each PU is its own core */
			p->smt_rank = 0;
		}
	}
	if (t->nr_cores <= 0)
		t->nr_cores = t->nr_pus;
	free(core_pus);
	return 0;
}

/*
 * A stand-in XML's own allowed sets (an export from a cgroup-restricted
 * process): its disallowed PUs are not planned, its disallowed nodes'
 * memory not used, as on that machine. Said once, with what is left.
 */
static int xml_allowed(struct mmscale_topology *t, hwloc_topology_t topo, char *err,
		       size_t errlen)
{
	hwloc_const_cpuset_t cpus = hwloc_topology_get_allowed_cpuset(topo);
	hwloc_const_nodeset_t mems = hwloc_topology_get_allowed_nodeset(topo);
	int pus = 0, nodes = 0;

	for (int i = 0; i < t->nr_pus; i++) {
		t->pus[i].allowed = t->pus[i].in_cpuset =
			hwloc_bitmap_isset(cpus, (unsigned)t->pus[i].os_index);
		pus += t->pus[i].allowed;
	}
	for (int n = 0; n < t->nr_nodes; n++) {
		t->nodes[n].mem_allowed = hwloc_bitmap_isset(mems, (unsigned)t->nodes[n].os_index);
		nodes += t->nodes[n].mem_allowed;
	}
	if (!pus)
		return mmscale_errorf(err, errlen, "--topology: the XML allows no PU "
				      "(its allowed_cpuset is empty)");
	if (pus < t->nr_pus || nodes < t->nr_nodes) {
		char *c = list_of(cpus), *m = list_of(mems);

		t->xml_allowed = malloc(strlen(c ? c : "?") + strlen(m ? m : "?") + 64);
		if (t->xml_allowed)
			sprintf(t->xml_allowed, "CPUs %s, memory nodes %s", c ? c : "?",
				m ? m : "?");
		mmscale_notice("the XML allows %d of its %d PUs and %d of its %d nodes (%s: "
			       "exported under a cgroup cpuset): only those are planned", pus,
			       t->nr_pus, nodes, t->nr_nodes,
			       t->xml_allowed ? t->xml_allowed : "?");
		free(c);
		free(m);
	}
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

	/*
	 * A node outside the memory this process was given (cgroup mems, a
	 * numactl --membind policy) is used as one without memory.
	 */
	if (t->kind == MMSCALE_TOPO_REAL && t->mems)
		for (int n = 0; n < t->nr_nodes; n++)
			t->nodes[n].mem_allowed =
				hwloc_bitmap_isset(t->mems, (unsigned)t->nodes[n].os_index);

	for (int n = 0; n < t->nr_nodes; n++) {
		int best = -1;
		uint64_t best_d = UINT64_MAX;

		if (t->nodes[n].memory > 0 && t->nodes[n].mem_allowed)
			continue;
		for (int m = 0; m < t->nr_nodes; m++) {
			uint64_t d;

			if (t->nodes[m].memory == 0 || !t->nodes[m].mem_allowed)
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
			mmscale_notice("node %d %s: per-CPU data of its CPUs comes "
				       "from node %d (nearest %s, %s %llu)", n,
				       !t->nodes[n].memory ? "has no memory" :
				       t->kind == MMSCALE_TOPO_XML ? "is outside the memory nodes "
				       "the XML allows" : "is outside the memory nodes this "
				       "process may use", best,
				       t->nodes[n].memory ? "allowed" : "with memory",
				       t->distances ? "distance" : "index offset",
				       (unsigned long long)best_d);
	}
}

int mmscale_topology_load(struct mmscale_topology *t, const char *spec,
			  char *err, size_t errlen)
{
	return mmscale_topology_load_widened(t, spec, false, err, errlen);
}

int mmscale_topology_load_widened(struct mmscale_topology *t, const char *spec, bool widen,
				  char *err, size_t errlen)
{
	hwloc_topology_t topo;

	memset(t, 0, sizeof(*t));
	t->widened = widen;
	t->spec = strdup(spec ? spec : "real");
	if (!t->spec)
		return mmscale_errorf(err, errlen, "out of memory");
	if (hwloc_topology_init(&topo) != 0)
		return mmscale_errorf(err, errlen, "hwloc_topology_init failed");
	t->hwloc = topo;
	if (configure_source(t, topo, spec, err, errlen) != 0)
		goto fail;
	if (t->kind == MMSCALE_TOPO_XML) {
		if (load_xml(topo, t->spec + sizeof(xml_prefix) - 1, err, errlen) != 0)
			goto fail;
	} else if (hwloc_topology_load(topo) != 0) {
		mmscale_errorf(err, errlen, "--topology: hwloc cannot load '%s': %s",
			       t->spec, strerror(errno));
		goto fail;
	}
	if (map_pus(t, topo, err, errlen) != 0 ||
	    (t->kind == MMSCALE_TOPO_XML && xml_allowed(t, topo, err, errlen) != 0))
		goto fail;
	load_distances(t, topo);
	if (load_real_pus(t, t->kind == MMSCALE_TOPO_REAL ? topo : NULL, err, errlen) != 0 ||
	    load_mems(t, err, errlen) != 0)
		goto fail;
	choose_memory_nodes(t);
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
	free(t->affinity_list);
	free(t->cpuset_list);
	free(t->mems_list);
	free(t->mems_inherited);
	free(t->xml_allowed);
	hwloc_bitmap_free(t->mems);
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
