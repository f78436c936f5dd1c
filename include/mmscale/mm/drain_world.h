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
	/*
	 * The pages: the most on one list, and on one CPU's lists together;
	 * and each list with pages cut into chunks of its batch <<
	 * DRAIN_CHUNK_SHIFT pages, as drain_pages_zone frees it since 6.6's
	 * stable backport of 55f77df7d715 (6.10): the chunks of every list
	 * together and the largest chunk.
	 */
	unsigned long list_pages_max;
	unsigned long cpu_pages_max;
	unsigned long list_chunks;
	unsigned long chunk_pages_max;
};

/* CONFIG_PCP_BATCH_SCALE_MAX, its default (mm/Kconfig: 5, range 0-6). */
#define DRAIN_CHUNK_SHIFT	5

/*
 * A list of pages pages, batch its pcp->batch, added to m's page figures
 * (the world's shape). Order-0 lists: a chunk of higher-order blocks can
 * pass batch << DRAIN_CHUNK_SHIFT pages by a block (free_pcppages_bulk
 * frees whole blocks), which these figures do not follow.
 */
static inline void drain_shape_add_list(struct drain_shape *m, unsigned long pages,
					unsigned long batch)
{
	unsigned long chunk = batch << DRAIN_CHUNK_SHIFT;

	if (!pages)
		return;
	m->lists_with_pages++;
	if (pages > m->list_pages_max)
		m->list_pages_max = pages;
	m->list_chunks += (pages + chunk - 1) / chunk;
	if ((pages < chunk ? pages : chunk) > m->chunk_pages_max)
		m->chunk_pages_max = pages < chunk ? pages : chunk;
}

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
	/*
	 * drain/full: the calling CPU puts n order-0 pages of its local zone
	 * on its own list, as n frees would with the list never reaching
	 * high (under zone->lock, NR_FREE_PAGES lowered as rmqueue_bulk
	 * does); the pages it put there. list_high: the pages a CPU's list
	 * holds "full", its kernel's high at boot (6.18: high_min).
	 */
	unsigned long (*fill_local)(unsigned long n);
	unsigned long (*list_high)(unsigned int cpu);
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
	/*
	 * Of the locks, zone->lock's; the most pages one zone->lock hold
	 * frees, and one section with interrupts off on any CPU (drain/full
	 * claims them).
	 */
	unsigned long zone_locks;
	unsigned long zone_hold_pages_max;
	unsigned long irqoff_pages_max;
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
/* drain/full: the booted variant's world's fill_local and list_high, or the 2.6.x machine's. */
unsigned long drain_fill_local(unsigned long n);
unsigned long drain_list_high(unsigned int cpu);
/* The lists of the booted variant's kernel as they are now. */
void drain_shape_now(struct drain_shape *m);

/* Linux 6.18's world (kernel/linux-6.18/world/drain.c) and its drain_all_pages(NULL). */
extern const struct drain_world drain_world_6_18;
void drain_all_pages_6_18_all_zones(void);

#endif /* MMSCALE_MM_DRAIN_WORLD_H */
