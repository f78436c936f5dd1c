/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The memory cgroup's page statistics as Linux 6.18 builds them with
 * CONFIG_MEMCG=y (every distribution's kernel, and this machine's 6.18): the
 * path a page's NR_FILE_DIRTY and NR_WRITEBACK counts take
 * (mm/page-writeback.c 2661, 2682, 3015, 3067), not the cmpxchg forms of
 * linux-6.18/mm/vmstat.h. From ../shared/kernel/6.18:
 *
 * - mm/memcontrol.c (blob 4deda336): memcg_node_stat_items and
 *   init_memcg_stats (293-369), struct memcg_vmstats_percpu and struct
 *   memcg_vmstats (501-534), memcg_vmstats_needs_flush and
 *   memcg_rstat_updated (558-594), memcg_state_val_in_pages (671-679),
 *   mod_memcg_lruvec_state, __mod_lruvec_state and __lruvec_stat_mod_folio
 *   (728-799), memcg_page_state_unit (1390-1403);
 * - include/linux/memcontrol.h (blob 873e510d): enum memcg_stat_item
 *   (34-43), struct mem_cgroup_per_node (87-...), MEMCG_CHARGE_BATCH (331),
 *   __folio_memcg and folio_memcg (395-450), mem_cgroup_lruvec (705-730);
 * - include/linux/vmstat.h (blob c2879989) 521-546: lruvec_stat_mod_folio,
 *   the irq-saving form;
 * - kernel/cgroup/rstat.c of 6.18 (clywm520/6.18.y 947ac181, blob
 *   a198e40c, 70-123): css_rstat_updated, and its css_rstat_cpu
 *   (include/linux/cgroup-defs.h, blob b760a3c4, 390-401); include/linux/
 *   llist.h (blob 607b2360) for llist_on_list and init_llist_node.
 *
 * The configuration is this machine's 6.18 (/proc/config.gz): MEMCG_V1,
 * SWAP, ZSWAP, TRANSPARENT_HUGEPAGE, NUMA_BALANCING and HUGETLB_PAGE all
 * =y, so a memcg keeps 33 node items and 7 memcg items per CPU
 * (MEMCG_VMSTAT_SIZE 40) and 31 events; the layouts below follow from it.
 *
 * The hierarchy is a task's in a systemd session:
 * /user.slice/user-UID.slice/session-N.scope, three memcgs below the root
 * (MEMCG_6_18_DEPTH); memcg_rstat_updated walks the task's memcg and each
 * ancestor up to the root, four levels.
 *
 * A run is the stretch between two of the kernel's periodic flushes
 * (flush_memcg_stats_dwork, every FLUSH_TIME = 2 s): set-up leaves every
 * counter as a flush does (stats_updates 0, no css on an updated list), and
 * the flush itself (css_rstat_flush) is not emulated. Once a level's
 * stats_updates passes MEMCG_CHARGE_BATCH x online CPUs the walk stops
 * there, as in the kernel until the next flush: on 1024 CPUs after 65,600
 * updates of one CPU.
 *
 * Left out, each a per-CPU or task-local store the kernel adds: get_cpu /
 * put_cpu's preempt count and rcu_read_lock's nesting count (PREEMPT_COUNT
 * and PREEMPT_RCU; preempt_disable is a barrier throughout mmscale:
 * kernel/processor.h), and the tracepoint (off: a patched nop).
 *
 * Counts: each llist_add's cmpxchg and each atomic_add into a memcg's
 * shared stats_updates is a locked op (MMSCALE_LOCKED_OPS); a fold of the
 * node diff is 6.18 vmstat's (MMSCALE_FOLDS).
 */
#ifndef MMSCALE_MM_MEMCONTROL_6_18_H
#define MMSCALE_MM_MEMCONTROL_6_18_H

#include "mmscale/kernel/atomic.h"
#include "mmscale/kernel/llist.h"
#include "mmscale/linux-6.18/mm/mmzone.h"

/* Three memcgs below the root: user.slice, user-UID.slice, session-N.scope. */
#define MEMCG_6_18_DEPTH	3

#define MEMCG_CHARGE_BATCH	64U

/* Cgroup-specific page state, on top of universal node page state */
enum memcg_stat_item {
	MEMCG_SWAP = NR_VM_NODE_STAT_ITEMS,
	MEMCG_SOCK,
	MEMCG_PERCPU_B,
	MEMCG_VMALLOC,
	MEMCG_KMEM,
	MEMCG_ZSWAP_B,
	MEMCG_ZSWAPPED,
	MEMCG_NR_STAT,
};

/* memcontrol.c 293-347 with this machine's configuration. */
#define NR_MEMCG_NODE_STAT_ITEMS	33
#define MEMCG_VMSTAT_SIZE		(NR_MEMCG_NODE_STAT_ITEMS + 7)
#define NR_MEMCG_EVENTS			31

/* include/linux/cgroup-defs.h 390-401 */
struct cgroup_subsys_state;

struct css_rstat_cpu {
	struct cgroup_subsys_state *updated_children;
	struct cgroup_subsys_state *updated_next;	/* NULL if not on the list */

	struct llist_node lnode;		/* lockless list for update */
	struct cgroup_subsys_state *owner;	/* back pointer */
};

/* The fields css_rstat_updated reads (cgroup-defs.h 766-854). */
struct cgroup_subsys {
	void (*css_rstat_flush)(struct cgroup_subsys_state *css, int cpu);
	struct llist_head *lhead;	/* __percpu */
};

struct cgroup;

struct cgroup_subsys_state {
	struct cgroup *cgroup;			/* PI: the cgroup that this css is attached to */
	struct cgroup_subsys *ss;
	struct cgroup_subsys_state *parent;
	struct css_rstat_cpu *rstat_cpu;	/* __percpu */
};

/* struct cgroup as far as css_is_self reads it: its own css (cgroup-defs.h). */
struct cgroup {
	struct cgroup_subsys_state self;
};

struct memcg_vmstats_percpu {
	/* Stats updates since the last flush */
	unsigned int			stats_updates;

	/* Cached pointers for fast iteration in memcg_rstat_updated() */
	struct memcg_vmstats_percpu	*parent_pcpu;	/* __percpu */
	struct memcg_vmstats		*vmstats;

	/* The above should fit a single cacheline for memcg_rstat_updated() */

	/* Local (CPU and cgroup) page state & events */
	long			state[MEMCG_VMSTAT_SIZE];
	unsigned long		events[NR_MEMCG_EVENTS];

	/* Delta calculation for lockless upward propagation */
	long			state_prev[MEMCG_VMSTAT_SIZE];
	unsigned long		events_prev[NR_MEMCG_EVENTS];
} ____cacheline_aligned;

struct memcg_vmstats {
	/* Aggregated (CPU and subtree) page state & events */
	long			state[MEMCG_VMSTAT_SIZE];
	unsigned long		events[NR_MEMCG_EVENTS];

	/* Non-hierarchical (CPU aggregated) page state & events */
	long			state_local[MEMCG_VMSTAT_SIZE];
	unsigned long		events_local[NR_MEMCG_EVENTS];

	/* Pending child counts during tree propagation */
	long			state_pending[MEMCG_VMSTAT_SIZE];
	unsigned long		events_pending[NR_MEMCG_EVENTS];

	/* Stats updates since the last flush */
	atomic_t		stats_updates;
};

struct lruvec_stats_percpu {
	/* Local (CPU and cgroup) state */
	long state[NR_MEMCG_NODE_STAT_ITEMS];

	/* Delta calculation for lockless upward propagation */
	long state_prev[NR_MEMCG_NODE_STAT_ITEMS];
};

/*
 * struct lruvec (include/linux/mmzone.h of 6.18) ends with the node
 * pointer this path reads; its LRU lists, lru_lock and costs before it are
 * not emulated (nothing here touches them).
 */
struct lruvec {
	struct pglist_data *pgdat;
};

/*
 * include/linux/memcontrol.h 87-...: the read-only fields first, then
 * (with MEMCG_V1) the soft-limit tree node as a buffer, then the lruvec.
 */
struct mem_cgroup_per_node {
	struct mem_cgroup	*memcg;		/* Back pointer */
	struct lruvec_stats_percpu *lruvec_stats_percpu;	/* __percpu */
	void			*lruvec_stats;
	void			*shrinker_info;
	/* CONFIG_MEMCG_V1: tree_node, usage_in_excess, on_tree */
	unsigned long		tree_node[3];
	unsigned long		usage_in_excess;
	bool			on_tree;

	/* Fields which get updated often at the end. */
	struct lruvec		lruvec;
};

/* The fields this path reads (include/linux/memcontrol.h 189-...). */
struct mem_cgroup {
	struct cgroup_subsys_state css;
	struct memcg_vmstats	*vmstats;
	struct memcg_vmstats_percpu *vmstats_percpu;	/* __percpu */
	struct mem_cgroup_per_node *nodeinfo[];		/* [nr_node_ids], at the end */
};

/*
 * A folio, as far as __lruvec_stat_mod_folio reads it: its flags, whose
 * node field says its node (page_to_nid), and memcg_data, the memcg a
 * page-cache folio was charged to.
 */
struct folio {
	unsigned long flags;
	unsigned long memcg_data;
};

#define FOLIO_NID_SHIFT		54	/* NODES_PGSHIFT: the node bits at the top of flags */

void __lruvec_stat_mod_folio(struct folio *folio, enum node_stat_item idx, int val);

static inline void lruvec_stat_mod_folio(struct folio *folio, enum node_stat_item idx, int val)
{
	unsigned long flags;

	local_irq_save(flags);
	__lruvec_stat_mod_folio(folio, idx, val);
	local_irq_restore(flags);
}

void css_rstat_updated(struct cgroup_subsys_state *css, int cpu);

/*
 * mmscale: set-up and check. The hierarchy of MEMCG_6_18_DEPTH memcgs below
 * the root over 6.18 vmstat's nodes (vmstat_6_18_setup first), each node's
 * folio charged to the deepest; 0, or -1 with the reason in err.
 */
int memcg_6_18_setup(char *err, size_t errlen);
/* The page-cache folio of node nid, charged to the task's memcg. */
struct folio *memcg_6_18_folio(int nid);
/*
 * Nothing lost: every memcg's and lruvec's per-CPU state of item, summed
 * over the CPUs, equals what the node counters hold of it (every update
 * was made through a folio of the task's memcg); 0, or -1 with the reason.
 */
int memcg_6_18_check(enum node_stat_item item, char *err, size_t errlen);
void memcg_6_18_teardown(void);

#endif /* MMSCALE_MM_MEMCONTROL_6_18_H */
