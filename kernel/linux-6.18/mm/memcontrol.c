// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The memory cgroup's page statistics of Linux 6.18, update side: the
 * functions linux-6.18/mm/memcontrol.h lists, from mm/memcontrol.c of
 * ../shared/kernel/6.18 (blob 4deda336), line for line but for what that
 * header says is left out, and the hierarchy a run updates.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mmscale/errorf.h"
#include "mmscale/kernel/cpumask.h"
#include "mmscale/kernel/machine.h"
#include "mmscale/kernel/percpu.h"
#include "mmscale/linux-6.18/mm/vmstat.h"
#include "mmscale/linux-6.18/mm/memcontrol.h"

#define U8_MAX	255

/* mmscale: the hierarchy, [0] the root, [MEMCG_6_18_DEPTH] the task's memcg. */
static struct mem_cgroup *memcgs[MEMCG_6_18_DEPTH + 1];
#define root_mem_cgroup		memcgs[0]
static struct folio **folios;	/* [nr_node_ids_6_18] */
static int nr_folio_nodes;

/* Subset of node_stat_item for memcg stats (293-333, this machine's config) */
static const unsigned int memcg_node_stat_items[] = {
	NR_INACTIVE_ANON,
	NR_ACTIVE_ANON,
	NR_INACTIVE_FILE,
	NR_ACTIVE_FILE,
	NR_UNEVICTABLE,
	NR_SLAB_RECLAIMABLE_B,
	NR_SLAB_UNRECLAIMABLE_B,
	WORKINGSET_REFAULT_ANON,
	WORKINGSET_REFAULT_FILE,
	WORKINGSET_ACTIVATE_ANON,
	WORKINGSET_ACTIVATE_FILE,
	WORKINGSET_RESTORE_ANON,
	WORKINGSET_RESTORE_FILE,
	WORKINGSET_NODERECLAIM,
	NR_ANON_MAPPED,
	NR_FILE_MAPPED,
	NR_FILE_PAGES,
	NR_FILE_DIRTY,
	NR_WRITEBACK,
	NR_SHMEM,
	NR_SHMEM_THPS,
	NR_FILE_THPS,
	NR_ANON_THPS,
	NR_KERNEL_STACK_KB,
	NR_PAGETABLE,
	NR_SECONDARY_PAGETABLE,
	NR_SWAPCACHE,		/* CONFIG_SWAP */
	PGPROMOTE_SUCCESS,	/* CONFIG_NUMA_BALANCING */
	PGDEMOTE_KSWAPD,
	PGDEMOTE_DIRECT,
	PGDEMOTE_KHUGEPAGED,
	PGDEMOTE_PROACTIVE,
	NR_HUGETLB,		/* CONFIG_HUGETLB_PAGE */
};

static const unsigned int memcg_stat_items[] = {
	MEMCG_SWAP,
	MEMCG_SOCK,
	MEMCG_PERCPU_B,
	MEMCG_VMALLOC,
	MEMCG_KMEM,
	MEMCG_ZSWAP_B,
	MEMCG_ZSWAPPED,
};

BUILD_BUG_ON(ARRAY_SIZE(memcg_node_stat_items) != NR_MEMCG_NODE_STAT_ITEMS);
BUILD_BUG_ON(NR_MEMCG_NODE_STAT_ITEMS + ARRAY_SIZE(memcg_stat_items) != MEMCG_VMSTAT_SIZE);

#define BAD_STAT_IDX(index) ((u32)(index) >= U8_MAX)
static u8 mem_cgroup_stats_index[MEMCG_NR_STAT];

static void init_memcg_stats(void)
{
	u8 i, j = 0;

	BUILD_BUG_ON(MEMCG_NR_STAT >= U8_MAX);

	memset(mem_cgroup_stats_index, U8_MAX, sizeof(mem_cgroup_stats_index));

	for (i = 0; i < NR_MEMCG_NODE_STAT_ITEMS; ++i, ++j)
		mem_cgroup_stats_index[memcg_node_stat_items[i]] = j;

	for (i = 0; i < ARRAY_SIZE(memcg_stat_items); ++i, ++j)
		mem_cgroup_stats_index[memcg_stat_items[i]] = j;
}

static inline int memcg_stats_index(int idx)
{
	return mem_cgroup_stats_index[idx];
}

static bool memcg_vmstats_needs_flush(struct memcg_vmstats *vmstats)
{
	return (unsigned int)atomic_read(&vmstats->stats_updates) >
		MEMCG_CHARGE_BATCH * num_online_cpus();
}

static inline void memcg_rstat_updated(struct mem_cgroup *memcg, int val, int cpu)
{
	struct memcg_vmstats_percpu *statc_pcpu;	/* __percpu */
	struct memcg_vmstats_percpu *statc;
	unsigned int stats_updates;

	if (!val)
		return;

	css_rstat_updated(&memcg->css, cpu);
	statc_pcpu = memcg->vmstats_percpu;
	for (; statc_pcpu; statc_pcpu = statc->parent_pcpu) {
		statc = this_cpu_ptr(statc_pcpu);
		/*
		 * If @memcg is already flushable then all its ancestors are
		 * flushable as well and also there is no need to increase
		 * stats_updates.
		 */
		if (memcg_vmstats_needs_flush(statc->vmstats))
			break;

		stats_updates = this_cpu_add_return_uint(&statc->stats_updates,
							 (unsigned int)abs(val));
		if (stats_updates < MEMCG_CHARGE_BATCH)
			continue;

		stats_updates = this_cpu_xchg_uint(&statc->stats_updates, 0);
		atomic_add((int)stats_updates, &statc->vmstats->stats_updates);
	}
}

static int memcg_page_state_unit(int item)
{
	switch (item) {
	case MEMCG_PERCPU_B:
	case MEMCG_ZSWAP_B:
	case NR_SLAB_RECLAIMABLE_B:
	case NR_SLAB_UNRECLAIMABLE_B:
		return 1;
	case NR_KERNEL_STACK_KB:
		return 1024;	/* SZ_1K */
	default:
		return PAGE_SIZE;
	}
}

/*
 * Normalize the value passed into memcg_rstat_updated() to be in pages. Round
 * up non-zero sub-page updates to 1 page as zero page updates are ignored.
 */
static int memcg_state_val_in_pages(int idx, int val)
{
	int unit = memcg_page_state_unit(idx);

	if (!val || unit == PAGE_SIZE)
		return val;
	else
		return (int)max((unsigned long)(val * unit) / PAGE_SIZE, 1UL);
}

static void mod_memcg_lruvec_state(struct lruvec *lruvec, enum node_stat_item idx, int val)
{
	struct mem_cgroup_per_node *pn;
	struct mem_cgroup *memcg;
	int i = memcg_stats_index((int)idx);
	int cpu;

	if (unlikely(BAD_STAT_IDX(i)))	/* WARN_ONCE */
		return;

	pn = container_of(lruvec, struct mem_cgroup_per_node, lruvec);
	memcg = pn->memcg;

	cpu = get_cpu();

	/* Update memcg */
	this_cpu_add_long(&this_cpu_ptr(memcg->vmstats_percpu)->state[i], val);

	/* Update lruvec */
	this_cpu_add_long(&this_cpu_ptr(pn->lruvec_stats_percpu)->state[i], val);

	val = memcg_state_val_in_pages((int)idx, val);
	memcg_rstat_updated(memcg, val, cpu);

	put_cpu();
}

/* CONFIG_MEMCG and no cgroup_disable=memory: the static key's false branch. */
static inline bool mem_cgroup_disabled(void)
{
	return false;
}

static inline struct pglist_data *lruvec_pgdat(struct lruvec *lruvec)
{
	return lruvec->pgdat;
}

/*
 * The lruvec is the intersection of the NUMA node and a cgroup. This
 * function updates the all three counters that are affected by a
 * change of state at this level: per-node, per-cgroup, per-lruvec.
 */
static void __mod_lruvec_state(struct lruvec *lruvec, enum node_stat_item idx, int val)
{
	/* Update node */
	__mod_node_page_state(lruvec_pgdat(lruvec), idx, val);

	/* Update memcg and lruvec */
	if (!mem_cgroup_disabled())
		mod_memcg_lruvec_state(lruvec, idx, val);
}

/* include/linux/memcontrol.h 339-367 */
#define MEMCG_DATA_KMEM		(1UL << 1)
#define OBJEXTS_FLAGS_MASK	((1UL << 3) - 1)	/* __NR_OBJEXTS_FLAGS - 1 */

static inline struct mem_cgroup *__folio_memcg(struct folio *folio)
{
	unsigned long memcg_data = folio->memcg_data;

	return (struct mem_cgroup *)(memcg_data & ~OBJEXTS_FLAGS_MASK);
}

static inline struct mem_cgroup *folio_memcg(struct folio *folio)
{
	/* folio_memcg_kmem: a page-cache folio never is (obj_cgroup_memcg not emulated). */
	if (unlikely(folio->memcg_data & MEMCG_DATA_KMEM))
		abort();
	return __folio_memcg(folio);
}

static inline struct pglist_data *folio_pgdat(const struct folio *folio)
{
	return NODE_DATA((int)(folio->flags >> FOLIO_NID_SHIFT));
}

static inline struct lruvec *mem_cgroup_lruvec(struct mem_cgroup *memcg, struct pglist_data *pgdat)
{
	struct mem_cgroup_per_node *mz;
	struct lruvec *lruvec;

	if (!memcg)
		memcg = root_mem_cgroup;

	mz = memcg->nodeinfo[pgdat->node_id];
	lruvec = &mz->lruvec;
	/*
	 * Since a node can be onlined after the mem_cgroup was created,
	 * we have to be prepared to initialize lruvec->pgdat here;
	 * and if offlined then reonlined, we need to reinitialize it.
	 */
	if (unlikely(lruvec->pgdat != pgdat))
		lruvec->pgdat = pgdat;
	return lruvec;
}

void __lruvec_stat_mod_folio(struct folio *folio, enum node_stat_item idx, int val)
{
	struct mem_cgroup *memcg;
	pg_data_t *pgdat = folio_pgdat(folio);
	struct lruvec *lruvec;

	/* rcu_read_lock(): PREEMPT_RCU's nesting count, not emulated (memcontrol.h) */
	memcg = folio_memcg(folio);
	/* Untracked pages have no memcg, no lruvec. Update only the node */
	if (!memcg) {
		__mod_node_page_state(pgdat, idx, val);
		return;
	}

	lruvec = mem_cgroup_lruvec(memcg, pgdat);
	__mod_lruvec_state(lruvec, idx, val);
}

/* mmscale: the memory subsystem, and the set-up of the hierarchy and its folios. */

/*
 * The memory subsystem's css_rstat_flush (mem_cgroup_css_rstat_flush):
 * css_uses_rstat tests that it is set; the flush is not emulated, so it is
 * never called.
 */
static void mem_cgroup_css_rstat_flush(struct cgroup_subsys_state *css, int cpu)
{
	(void)css;
	fprintf(stderr, "mmscale: 6.18 memcg flush on CPU %d: not emulated\n", cpu);
	abort();
}

static struct cgroup_subsys memory_cgrp_subsys = {
	.css_rstat_flush = mem_cgroup_css_rstat_flush,
};


/* memcg_size (5137): struct_size_t(struct mem_cgroup, nodeinfo, nr_node_ids). */
static size_t memcg_size(void)
{
	return sizeof(struct mem_cgroup) + (size_t)nr_folio_nodes * sizeof(struct mem_cgroup_per_node *);
}

static void free_memcg(struct mem_cgroup *memcg)
{
	if (!memcg)
		return;
	for (int nid = 0; nid < nr_folio_nodes; nid++) {
		struct mem_cgroup_per_node *pn = memcg->nodeinfo[nid];

		if (!pn)
			continue;
		free_percpu(pn->lruvec_stats_percpu);
		free_on_node(pn, sizeof(*pn));
	}
	free_percpu(memcg->css.rstat_cpu);
	free(memcg->css.cgroup);
	free_percpu(memcg->vmstats_percpu);
	if (memcg->vmstats)
		free_on_node(memcg->vmstats, sizeof(*memcg->vmstats));
	free_on_node(memcg, memcg_size());
}

/*
 * mem_cgroup_alloc and css_rstat_init, for the memcg below parent (NULL:
 * the root). Only the task's memcg (leaf) gets its lruvecs' per-CPU
 * statistics: this path updates no other memcg's (the flush writes them,
 * not emulated), and the kernel's 528 bytes per node per CPU for each of
 * four memcgs would not fit a per-CPU unit on 128 nodes.
 */
static struct mem_cgroup *alloc_memcg(struct mem_cgroup *parent, bool leaf, char *err,
				      size_t errlen)
{
	struct mem_cgroup *memcg = alloc_global(memcg_size(), err, errlen);

	if (!memcg)
		return NULL;
	memset(memcg, 0, memcg_size());
	memcg->css.ss = &memory_cgrp_subsys;
	memcg->css.cgroup = calloc(1, sizeof(*memcg->css.cgroup));	/* cgroup_create's */
	memcg->css.parent = parent ? &parent->css : NULL;
	memcg->vmstats = alloc_global(sizeof(*memcg->vmstats), err, errlen);
	memcg->vmstats_percpu = __alloc_percpu(sizeof(struct memcg_vmstats_percpu),
					       __alignof__(struct memcg_vmstats_percpu));
	memcg->css.rstat_cpu = __alloc_percpu(sizeof(struct css_rstat_cpu),
					      __alignof__(struct css_rstat_cpu));
	if (!memcg->vmstats || !memcg->vmstats_percpu || !memcg->css.rstat_cpu ||
	    !memcg->css.cgroup)
		goto fail;
	memset(memcg->vmstats, 0, sizeof(*memcg->vmstats));
	for (int nid = 0; nid < nr_folio_nodes; nid++) {
		struct mem_cgroup_per_node *pn = alloc_on_node(nid, sizeof(*pn), err, errlen);

		if (!pn)
			goto fail;
		memset(pn, 0, sizeof(*pn));
		memcg->nodeinfo[nid] = pn;
		pn->memcg = memcg;
		pn->lruvec.pgdat = NODE_DATA(nid);
		if (!leaf)
			continue;
		pn->lruvec_stats_percpu = __alloc_percpu(sizeof(struct lruvec_stats_percpu),
							 __alignof__(struct lruvec_stats_percpu));
		if (!pn->lruvec_stats_percpu)
			goto fail;
	}
	for (unsigned int cpu = 0; cpu < nr_cpu_ids; cpu++) {
		struct memcg_vmstats_percpu *statc = per_cpu_ptr(memcg->vmstats_percpu, cpu);
		struct css_rstat_cpu *rstatc = per_cpu_ptr(memcg->css.rstat_cpu, cpu);

		statc->parent_pcpu = parent ? parent->vmstats_percpu : NULL;
		statc->vmstats = memcg->vmstats;
		rstatc->owner = rstatc->updated_children = &memcg->css;
		init_llist_node(&rstatc->lnode);
	}
	return memcg;
fail:
	mmscale_errorf(err, errlen, "out of memory: a 6.18 memcg");
	free_memcg(memcg);
	return NULL;
}

int memcg_6_18_setup(char *err, size_t errlen)
{
	memcg_6_18_teardown();
	init_memcg_stats();
	nr_folio_nodes = nr_node_ids_6_18;
	memory_cgrp_subsys.lhead = __alloc_percpu(sizeof(struct llist_head),
						  __alignof__(struct llist_head));
	folios = calloc((size_t)nr_folio_nodes, sizeof(*folios));
	if (!memory_cgrp_subsys.lhead || !folios) {
		mmscale_errorf(err, errlen, "out of memory: 6.18's memcg lists");
		goto fail;
	}
	for (int level = 0; level <= MEMCG_6_18_DEPTH; level++) {
		memcgs[level] = alloc_memcg(level ? memcgs[level - 1] : NULL,
					    level == MEMCG_6_18_DEPTH, err, errlen);
		if (!memcgs[level])
			goto fail;
	}
	for (int nid = 0; nid < nr_folio_nodes; nid++) {
		folios[nid] = alloc_on_node(nid, sizeof(struct folio), err, errlen);
		if (!folios[nid])
			goto fail;
		folios[nid]->flags = (unsigned long)nid << FOLIO_NID_SHIFT;
		folios[nid]->memcg_data = (unsigned long)memcgs[MEMCG_6_18_DEPTH];
	}
	return 0;
fail:
	memcg_6_18_teardown();
	return -1;
}

struct folio *memcg_6_18_folio(int nid)
{
	return folios[nid];
}

int memcg_6_18_check(enum node_stat_item item, char *err, size_t errlen)
{
	struct mem_cgroup *memcg = memcgs[MEMCG_6_18_DEPTH];
	int i = memcg_stats_index((int)item);
	long memcg_sum = 0;

	for (unsigned int cpu = 0; cpu < nr_cpu_ids; cpu++)
		cpu_vm_stats_fold((int)cpu);
	for (unsigned int cpu = 0; cpu < nr_cpu_ids; cpu++)
		memcg_sum += per_cpu_ptr(memcg->vmstats_percpu, cpu)->state[i];
	if (memcg_sum != atomic_long_read(&vm_node_stat[item]))
		return mmscale_errorf(err, errlen, "6.18 memcg: node item %d: the memcg's per-CPU "
				      "state holds %ld, vm_node_stat %ld", (int)item, memcg_sum,
				      atomic_long_read(&vm_node_stat[item]));
	for (int nid = 0; nid < nr_folio_nodes; nid++) {
		struct mem_cgroup_per_node *pn = memcg->nodeinfo[nid];
		long lruvec_sum = 0;

		for (unsigned int cpu = 0; cpu < nr_cpu_ids; cpu++)
			lruvec_sum += per_cpu_ptr(pn->lruvec_stats_percpu, cpu)->state[i];
		if (lruvec_sum != atomic_long_read(&NODE_DATA(nid)->vm_stat[item]))
			return mmscale_errorf(err, errlen, "6.18 memcg: node %d item %d: the "
					      "lruvec's per-CPU state holds %ld, the node %ld",
					      nid, (int)item, lruvec_sum,
					      atomic_long_read(&NODE_DATA(nid)->vm_stat[item]));
	}
	return 0;
}

void memcg_6_18_teardown(void)
{
	for (int level = MEMCG_6_18_DEPTH; level >= 0; level--) {
		free_memcg(memcgs[level]);
		memcgs[level] = NULL;
	}
	for (int nid = 0; folios && nid < nr_folio_nodes; nid++)
		if (folios[nid])
			free_on_node(folios[nid], sizeof(struct folio));
	free(folios);
	folios = NULL;
	free_percpu(memory_cgrp_subsys.lhead);
	memory_cgrp_subsys.lhead = NULL;
	nr_folio_nodes = 0;
}
