/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the drain cases and tests need of a kernel's page allocator, in
 * terms that name neither its struct zone nor its struct page: the 2.6.x
 * machine of page_alloc.h and 6.18's of pcp-6.18.h each define those
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
 * The calling CPU allocates or frees one order-0 page through the booted
 * variant's kernel (drain_kernel_boot): its world's, or alloc_local_page and
 * free_local_page of the 2.6.x machine. Pages are opaque here.
 */
void *drain_alloc_local(void);
void drain_free_local(void *page);

/* Linux 6.18's world (drain/world-6.18.c) and its drain_all_pages(NULL). */
extern const struct drain_world drain_world_6_18;
void drain_all_pages_6_18_all_zones(void);

#endif /* MMSCALE_MM_DRAIN_WORLD_H */
