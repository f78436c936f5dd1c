// SPDX-License-Identifier: GPL-2.0-only
/*
 * The update side of 6.18's cgroup rstat: kernel/cgroup/rstat.c of v6.18
 * (clywm520/6.18.y 947ac181c5b8, blob a198e40c799b; the same blob in
 * ribel13/linux-6.18.y db348fba, changed in 6.18.3), css_rstat_updated
 * (70-123) with css_uses_rstat, css_rstat_cpu and ss_lhead_cpu (23-53).
 * The flush side (css_rstat_flush, 397-428) is not emulated
 * (linux-6.18/mm/memcontrol.h says what a run stands for).
 */
#include "mmscale/kernel/percpu.h"
#include "mmscale/linux-6.18/mm/memcontrol.h"

/* include/linux/cgroup.h: a cgroup's own css (the WARN_ON on its ss left out). */
static inline bool css_is_self(struct cgroup_subsys_state *css)
{
	return css == &css->cgroup->self;
}

static inline bool css_uses_rstat(struct cgroup_subsys_state *css)
{
	return css_is_self(css) || css->ss->css_rstat_flush != NULL;
}

static struct css_rstat_cpu *css_rstat_cpu(struct cgroup_subsys_state *css, int cpu)
{
	return per_cpu_ptr(css->rstat_cpu, cpu);
}

static inline struct llist_head *ss_lhead_cpu(struct cgroup_subsys *ss, int cpu)
{
	return per_cpu_ptr(ss->lhead, cpu);
}

/* 6.18's this_cpu_cmpxchg on the CPU's lnode.next: returns what it found. */
static inline struct llist_node *lnode_this_cpu_cmpxchg(struct llist_node *node,
							 struct llist_node *old,
							 struct llist_node *new)
{
	/*
	 * The kernel's has no lock prefix; this C11 compare-exchange on the
	 * _Atomic field has. It runs once per CPU per run (the first update),
	 * so it is counted as the kernel's: no locked op.
	 */
	atomic_compare_exchange_strong_explicit(&node->next, &old, new, memory_order_relaxed,
						memory_order_relaxed);
	return old;
}

void css_rstat_updated(struct cgroup_subsys_state *css, int cpu)
{
	struct llist_head *lhead;
	struct css_rstat_cpu *rstatc;
	struct llist_node *self;

	/*
	 * Since bpf programs can call this function, prevent access to
	 * uninitialized rstat pointers.
	 */
	if (!css_uses_rstat(css))
		return;

	/* x86-64 has NMI-safe cmpxchg and this_cpu ops: no in_nmi() test. */

	rstatc = css_rstat_cpu(css, cpu);
	/*
	 * If already on list return. This check is racy and smp_mb() is needed
	 * to pair it with the smp_mb() in css_process_update_tree() if the
	 * guarantee that the updated stats are visible to concurrent flusher is
	 * needed.
	 */
	if (llist_on_list(&rstatc->lnode))
		return;

	/*
	 * lnode points to itself when not on a list: the this_cpu_cmpxchg to
	 * NULL selects the one context that calls llist_add().
	 */
	self = &rstatc->lnode;
	if (lnode_this_cpu_cmpxchg(&rstatc->lnode, self, NULL) != self)
		return;

	lhead = ss_lhead_cpu(css->ss, cpu);
	llist_add(&rstatc->lnode, lhead);
}
