/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the drain cases and tests need of a kernel's page allocator, in
 * terms that name neither its struct zone nor its struct page: the 2.6.x
 * machine of page_alloc.h and 6.18's of linux-6.18/mm/pcp.h each define those
 * types, and no file can include both. A drain variant whose kernel has
 * its own allocator shape (struct drain_variant_ops.world) brings one of
 * these; a page is an opaque pointer that only its world dereferences.
 */
#ifndef MMSCALE_MM_DRAIN_WORLD_H
#define MMSCALE_MM_DRAIN_WORLD_H

#include <stdbool.h>
#include <stddef.h>

#include "config.h"

/*
 * A machine for a drain variant's claim: cpus online CPUs (the caller among
 * them), zones populated zones, and of the per-CPU lists (one per CPU and
 * zone) lists_with_pages holding pages, on cpus_with_pages CPUs, the
 * caller's among them where caller_has_pages; every other list empty and
 * every other CPU idle.
 */
struct drain_shape {
	unsigned int cpus;
	unsigned int zones;
	unsigned int lists_with_pages;
	unsigned int cpus_with_pages;
	bool caller_has_pages;
};

struct drain_world {
	/*
	 * Zones, their statistics, pagesets and page pools on the emulated
	 * machine (cfg->mem_bytes over its nodes), every page free; -1 with
	 * err. A drain/ run sets its IPIs up beside it.
	 */
	int (*setup)(const struct mm_machine_config *cfg, char *err, size_t errlen);
	void (*teardown)(void);
	/*
	 * Conservation with no page held and no CPU allocating: every page is
	 * on exactly one list and the counts agree. -1 with the first
	 * discrepancy in err.
	 */
	int (*conserved)(char *err, size_t errlen);
	unsigned int (*populated_zones)(void);
	/* The calling CPU allocates (frees) one order-0 page of its local zone. */
	void *(*alloc_local)(void);
	void (*free_local)(void *page);
	/* Tests: the lists as they are now, and the pages on them. */
	void (*shape)(struct drain_shape *m);
	unsigned long (*pages_on_lists)(void);
};

/*
 * What one drain_all_pages by the caller costs there, in exact counts:
 * spin_lock acquisitions (zone->lock, and pcp->lock where the kernel has
 * one) on every CPU; the locked ops it makes outside its cross-CPU call
 * (those locks, bitops on zone->flags and on its cpumask, a mutex's
 * cmpxchg), but for the two atomic adds of each vmstat fold its frees may
 * cause (MMSCALE_FOLDS counts those); and the CPUs other than the caller
 * its one cross-CPU call reaches (0: it makes none). The IPIs,
 * call_function.lock acquisitions and locked ops that call costs are its
 * kernel/smp.c generation's claim.
 */
struct drain_cost {
	unsigned long locks;
	unsigned long locked_ops;
	unsigned int call_targets;
};

struct smp_generation;		/* mmscale/kernel/smp.h */
struct drain_machine_2_6;	/* mmscale/linux-2.6/mm/page_alloc.h */

/*
 * A drain_all_pages variant (drain/drain_*.c, a row of drain/drain_variants.h),
 * in terms that name no generation's types, so that its file includes the
 * headers of its own kernel's generation only.
 */
struct drain_variant_ops {
	void (*drain_all_pages)(void);
	const struct smp_generation *smp;	/* its kernel's kernel/smp.c generation */
	/*
	 * Its claim for one drain on a machine of shape m, worked out from its
	 * source (in a comment beside it): checked by every drain/empty run,
	 * by tests/test_claims.c on every row, and with full lists by
	 * drain/tests/test_drain.c.
	 */
	void (*claim)(const struct drain_shape *m, struct drain_cost *c);
	/*
	 * Where it runs, one of the two: the 2.6.x machine
	 * (linux-2.6/mm/page_alloc.h: its kernel's free_pcppages_bulk, order-0
	 * paths and struct zone there), or a world of its kernel's own
	 * allocator shape (6.18: drain_world_6_18).
	 */
	const struct drain_machine_2_6 *machine;
	const struct drain_world *world;
};

/*
 * The variant whose kernel the machine runs, as if booted: its allocator's
 * paths (its machine's or its world's) are the ones the allocator takes. A
 * set-up boots one (NULL when it tears down); only the allocator reads it,
 * and callers name their own variant's drain_all_pages.
 */
void drain_kernel_boot(const struct drain_variant_ops *ops);
const struct drain_variant_ops *drain_kernel(void);

/* The populated zones of ops's machine: its world's, or the 2.6.x machine's. */
unsigned int drain_populated_zones(const struct drain_variant_ops *ops);

/*
 * The calling CPU allocates or frees one order-0 page through the booted
 * variant's kernel (drain_kernel_boot): its world's, or alloc_local_page and
 * free_local_page of the 2.6.x machine. Pages are opaque here.
 */
void *drain_alloc_local(void);
void drain_free_local(void *page);

/* Linux 6.18's world (kernel/linux-6.18/world/drain.c) and its drain_all_pages(NULL). */
extern const struct drain_world drain_world_6_18;
void drain_all_pages_6_18_all_zones(void);

#endif /* MMSCALE_MM_DRAIN_WORLD_H */
