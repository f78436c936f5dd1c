// SPDX-License-Identifier: GPL-2.0
/*
 * The per-CPU page lists of Linux 6.18 (kernel/linux-6.18/mm/page_alloc.c): pcp->high
 * auto-tuning under a burst of frees then allocations (pcp/autotune:
 * zone->lock acquisitions and pages moved, against the same code with a
 * fixed high), and __drain_all_pages, which drains every CPU's lists from
 * the caller under their pcp->lock, with no IPI (pcp/drain: every list
 * empty, or every CPU's local list at high_min), and the vmstat work's
 * decay of a full list, 6.18.0's against 6.18.7's batched one (pcp/decay).
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>

#include "mmscale/case.h"
#include "mmscale/errorf.h"
#include "mmscale/kernel/cpumask.h"
#include "mmscale/linux-6.18/mm/pcp.h"
#include "mmscale/linux-6.18/mm/vmstat.h"
#include "mmscale/mm/config.h"
#include "mmscale/params.h"
#include "mmscale/opcount.h"

#include "counters_6_18.h"

struct pcp_run {
	struct page **held;	/* pcp/autotune: the blocks the burst frees */
	unsigned long nr_held;
	struct zone *zone;
	unsigned long list_pages;	/* pcp/decay: the list before each decay */
};

struct decay_variant {
	struct mmscale_variant v;
	bool (*decay)(struct zone *zone, struct per_cpu_pages *pcp);
	bool batched;	/* 6.18.7: a batch per lock hold */
};

struct autotune_variant {
	struct mmscale_variant v;
	bool fixed_high;
	/* the pageset kept from burst to burst, aged by the CPU's vmstat work */
	bool warm;
};

struct drain_6_18_variant {
	struct mmscale_variant v;
	bool full;
};

static int world_up(struct mmscale_run *run, const struct pcp_6_18_config *pc,
		    char *err, size_t errlen)
{
	struct mm_machine_config cfg;
	struct pcp_run *pr = calloc(1, sizeof(*pr));

	if (!pr)
		return mmscale_errorf(err, errlen, "out of memory");
	run->data = pr;
	mmscale_mm_config(&cfg);
	if (vmstat_6_18_setup(&cfg, err, errlen) != 0 ||
	    pcp_6_18_setup(pc, err, errlen) != 0) {
		vmstat_6_18_teardown();
		free(pr);
		run->data = NULL;
		return -1;
	}
	return 0;
}

static int world_down(struct mmscale_run *run, char *err, size_t errlen)
{
	struct pcp_run *pr = run->data;
	int status;

	if (pr->held)
		pcp_6_18_give_back(pr->zone, pr->held, pr->nr_held);
	status = pcp_6_18_check(err, errlen);
	if (status == 0)
		status = vmstat_6_18_check(err, errlen);
	pcp_6_18_teardown();
	vmstat_6_18_teardown();
	free(pr->held);
	free(pr);
	run->data = NULL;
	return status;
}

/*
 * pcp/autotune: args order and burst. The CPU holds burst blocks of the
 * order; one operation frees them all (free_frozen_pages: the pcp, and
 * free_pcppages_bulk under zone->lock each time count reaches high) and
 * allocates as many again (rmqueue: the pcp, refilled by rmqueue_bulk
 * under zone->lock when the list is empty), from the first state of the
 * pageset (count 0, high 0 until the first free clamps it: it is put back so between
 * operations, timing paused), so that every operation counts the same.
 * PCPF_FREE_HIGH_BATCH is set, as on bare-metal x86 (linux-6.18/mm/pcp.h).
 */
static int autotune_setup(struct mmscale_run *run, int nr_threads, char *err, size_t errlen)
{
	const struct autotune_variant *row = container_of(run->v, struct autotune_variant, v);
	struct pcp_6_18_config pc = {
		.fixed_high = row->fixed_high, .free_high_batch = true,
		.orders = { (unsigned int)run->args[0] }, .nr_orders = 1,
		.nr_blocks = 3 * (unsigned long)run->args[1],
	};
	struct pcp_run *pr;

	(void)nr_threads;
	if (world_up(run, &pc, err, errlen) != 0)
		return -1;
	pr = run->data;
	pr->zone = local_zone_6_18(0);	/* the measured thread is CPU 0 (setup runs before it) */
	pr->held = calloc((size_t)run->args[1], sizeof(*pr->held));
	if (!pr->held) {
		world_down(run, err, errlen);
		return mmscale_errorf(err, errlen, "out of memory");
	}
	pr->nr_held = pcp_6_18_take(pr->zone, (unsigned int)run->args[0],
				    (unsigned long)run->args[1], pr->held);
	if (pr->nr_held != (unsigned long)run->args[1]) {
		world_down(run, err, errlen);
		return mmscale_errorf(err, errlen, "the pool has too few blocks");
	}
	return 0;
}

static void burst(struct pcp_run *pr, unsigned int order)
{
	for (unsigned long i = 0; i < pr->nr_held; i++)
		free_frozen_pages_6_18(pr->zone, pr->held[i]);
	for (unsigned long i = 0; i < pr->nr_held; i++)
		pr->held[i] = rmqueue_6_18(pr->zone, order, MIGRATE_MOVABLE);
}

/*
 * Cold (6.18, 6.18-fixed-high): every burst from the first state of the
 * pageset. Warm (6.18-warm): bursts back to back on the pageset as the one
 * before left it (high tuned up, the pages it kept), and between them the
 * CPU's vmstat work when its second has passed (vmstat_update:
 * refresh_cpu_vm_stats, whose decay_pcp_high takes high down by an eighth
 * and frees what is over it, mm/vmstat.c 811-892, page_alloc.c
 * 2555-2583): a CPU that frees and allocates for longer than a second.
 */
static void autotune_body(struct mmscale_state *st, struct mmscale_run *run)
{
	struct pcp_run *pr = run->data;
	unsigned int order = (unsigned int)run->args[0];
	u64 vmstat_period = mm_config()->vmstat_interval_ns;	/* read once */

	if (container_of(run->v, struct autotune_variant, v)->warm) {
		while (mmscale_keep_running(st)) {
			burst(pr, order);
			vmstat_6_18_work_tick(vmstat_period);
		}
		return;
	}
	while (mmscale_keep_running(st)) {
		burst(pr, order);
		mmscale_pause_timing(st);
		pcp_6_18_reset(pr->zone, (unsigned int)smp_processor_id());
		mmscale_resume_timing(st);
	}
}

/*
 * pcp/drain: args cpus (that many online). full: every online CPU's local
 * zone has high_min order-0 pages on its pcp list (put there between
 * drains, timing paused); empty: none anywhere.
 */
static int drain_setup(struct mmscale_run *run, int nr_threads, char *err, size_t errlen)
{
	const struct drain_6_18_variant *row = container_of(run->v, struct drain_6_18_variant, v);
	/* full: room in each zone's pool for every CPU's list at its high_min. */
	struct pcp_6_18_config pc = {
		.orders = { 0 }, .nr_orders = 1, .free_high_batch = true,
		.room_for_high_min = row->full,
	};

	(void)nr_threads;
	return world_up(run, &pc, err, errlen);
}

static void fill_all(void)
{
	unsigned int cpu;

	for_each_online_cpu(cpu) {
		struct zone *zone = local_zone_6_18((int)cpu);

		pcp_6_18_fill(zone, cpu, 0, (unsigned long)zone->pageset_high_min);
	}
}

static void drain_one_op(struct mmscale_run *run)
{
	if (container_of(run->v, struct drain_6_18_variant, v)->full)
		fill_all();
	drain_all_pages_6_18(NULL);
}

static void drain_body(struct mmscale_state *st, struct mmscale_run *run)
{
	bool full = container_of(run->v, struct drain_6_18_variant, v)->full;

	while (mmscale_keep_running(st)) {
		if (full) {
			mmscale_pause_timing(st);
			fill_all();
			mmscale_resume_timing(st);
		}
		drain_all_pages_6_18(NULL);
	}
}

/*
 * One drain_all_pages(NULL) (page_alloc.c 2662-2720). empty: no lock at
 * all (the mutex is not a spin lock; its cmpxchgs and the bitops on
 * cpus_with_pcps are locked operations, but so are the NR_FREE_PAGES folds
 * of a full drain, whose phase moves from drain to drain: locked_ops is
 * published, not claimed). full: each CPU is drained (drain_pages), every
 * populated zone (drain_pages_zone): pcp->lock once for a zone with no
 * pages, and for its local zone's high_min pages ceil(high_min / (batch
 * << 5)) rounds, each taking pcp->lock and, in free_pcppages_bulk,
 * zone->lock.
 */
static bool drain_claim(const struct mmscale_run *run, struct mmscale_claim *out)
{
	bool full = container_of(run->v, struct drain_6_18_variant, v)->full;
	u64 zones = nr_populated_zones_6_18();
	u64 zone_locks = 0, pcp_locks = 0, drained = 0;
	unsigned int cpu;

	if (full)
		for_each_online_cpu(cpu) {
			struct zone *zone = local_zone_6_18((int)cpu);
			u64 pages = (u64)zone->pageset_high_min;
			u64 chunk = (u64)zone->pageset_batch << CONFIG_PCP_BATCH_SCALE_MAX;
			u64 rounds = (pages + chunk - 1) / chunk;

			zone_locks += rounds;
			pcp_locks += (zones - 1) + rounds;
			drained += pages;
		}
	out->which = MMSCALE_COUNT_BIT(MMSCALE_ZONE_LOCKS) |
		     MMSCALE_COUNT_BIT(MMSCALE_LOCK_ACQUIRES) |
		     MMSCALE_COUNT_BIT(MMSCALE_PAGES_DRAINED);
	out->v[MMSCALE_ZONE_LOCKS] = zone_locks;
	out->v[MMSCALE_LOCK_ACQUIRES] = zone_locks + pcp_locks;
	out->v[MMSCALE_PAGES_DRAINED] = drained;
	return true;
}

/*
 * pcp/decay: one vmstat tick's decay_pcp_high on CPU 0's list of its local
 * zone, full: list_pages order-0 pages (args[0]; 0: the zone's high_max,
 * where auto-tuning takes a list that frees in bursts; capped at high_max)
 * and pcp->high tuned up to as many, as a burst of frees leaves it (put
 * there between operations, timing paused). high then falls to
 * max3(count - batch << 5, high - high / 8, high_min) and what is over it
 * is freed: under one pcp->lock and zone->lock in 6.18.0, a batch per
 * hold in 6.18.7 (Joshua Hahn's 3/4). The hold accounting
 * (mmscale/opcount.h) gives the pages under the longest zone->lock hold,
 * checked against the row's claim after every operation.
 */
static int decay_setup(struct mmscale_run *run, int nr_threads, char *err, size_t errlen)
{
	struct pcp_6_18_config pc = {
		.orders = { 0 }, .nr_orders = 1, .free_high_batch = true, .room_for_lists = true,
	};
	struct pcp_run *pr;
	struct zone *zone;

	(void)nr_threads;
	if (world_up(run, &pc, err, errlen) != 0)
		return -1;
	pr = run->data;
	zone = pr->zone = local_zone_6_18(0);	/* the measured thread is CPU 0 */
	pr->list_pages = run->args[0] ? min((unsigned long)run->args[0],
					    (unsigned long)zone->pageset_high_max) :
			 (unsigned long)zone->pageset_high_max;
	mmscale_holds_set_mode(MMSCALE_HOLDS_PAGES);
	return 0;
}

static int decay_down(struct mmscale_run *run, char *err, size_t errlen)
{
	mmscale_holds_set_mode(MMSCALE_HOLDS_OFF);
	return world_down(run, err, errlen);
}

/* The list full, high tuned up to it: bookkeeping, not the operation. */
static void decay_prepare(struct pcp_run *pr)
{
	struct per_cpu_pages *pcp = per_cpu_ptr(pr->zone->per_cpu_pageset, 0);

	pcp_6_18_reset(pr->zone, 0);
	pcp_6_18_fill(pr->zone, 0, 0, pr->list_pages);
	pcp->high = (int)pcp->count;
}

static void decay_one_op(struct mmscale_run *run)
{
	struct pcp_run *pr = run->data;
	u64 maxima[MMSCALE_NR_MAXIMA];

	decay_prepare(pr);
	mmscale_maxima_collect_all(maxima);
	container_of(run->v, struct decay_variant, v)->decay(pr->zone,
		per_cpu_ptr(pr->zone->per_cpu_pageset, 0));
}

/*
 * What is over the decayed high, from the list as decay_prepare leaves it
 * (count = high = list_pages): 6.18.0 frees it in one hold, 6.18.7 in
 * ceil(to_drain / batch) of at most batch pages.
 */
static void decay_cost(const struct mmscale_run *run, u64 *holds, u64 *pages, u64 *hold_max)
{
	const struct pcp_run *pr = run->data;
	const struct per_cpu_pages *pcp = per_cpu_ptr(pr->zone->per_cpu_pageset, 0);
	long n = (long)pr->list_pages, batch = pcp->batch, high;
	long to_drain;

	high = max(max(n - (batch << CONFIG_PCP_BATCH_SCALE_MAX), n - (n >> 3)),
		   (long)pcp->high_min);	/* max3 */
	to_drain = n > high ? n - high : 0;
	*pages = (u64)to_drain;
	if (container_of(run->v, struct decay_variant, v)->batched) {
		*holds = (u64)((to_drain + batch - 1) / batch);
		*hold_max = (u64)min(to_drain, batch);
	} else {
		*holds = to_drain > 0;
		*hold_max = (u64)to_drain;
	}
}

static void decay_body(struct mmscale_state *st, struct mmscale_run *run)
{
	struct pcp_run *pr = run->data;
	bool (*decay)(struct zone *, struct per_cpu_pages *) =
		container_of(run->v, struct decay_variant, v)->decay;
	struct per_cpu_pages *pcp = per_cpu_ptr(pr->zone->per_cpu_pageset, 0);
	u64 holds, pages, hold_max, maxima[MMSCALE_NR_MAXIMA], seen = 0;

	decay_cost(run, &holds, &pages, &hold_max);
	decay_prepare(pr);
	mmscale_maxima_collect_all(maxima);
	while (mmscale_keep_running(st)) {
		decay(pr->zone, pcp);
		mmscale_pause_timing(st);
		mmscale_maxima_collect_all(maxima);
		seen = max(seen, maxima[MMSCALE_MAX_ZONE_HOLD_PAGES]);
		if (!mmscale_params.claims_report &&
		    maxima[MMSCALE_MAX_ZONE_HOLD_PAGES] != hold_max) {
			char msg[160];

			snprintf(msg, sizeof(msg), "%llu pages under the longest zone->lock hold, "
				 "the row claims %llu",
				 (unsigned long long)maxima[MMSCALE_MAX_ZONE_HOLD_PAGES],
				 (unsigned long long)hold_max);
			mmscale_skip_with_error(st, msg);
			break;
		}
		decay_prepare(pr);
		mmscale_maxima_collect_all(maxima);
		mmscale_resume_timing(st);
	}
	mmscale_counter_set(st, "list_pages", (double)pr->list_pages, 0);
	mmscale_counter_set(st, "zone_hold_pages_max", (double)seen, 0);
}

static bool decay_claim(const struct mmscale_run *run, struct mmscale_claim *out)
{
	u64 holds, pages, hold_max;

	decay_cost(run, &holds, &pages, &hold_max);
	out->which = MMSCALE_COUNT_BIT(MMSCALE_ZONE_LOCKS) |
		     MMSCALE_COUNT_BIT(MMSCALE_LOCK_ACQUIRES) |
		     MMSCALE_COUNT_BIT(MMSCALE_PAGES_MOVED);
	out->v[MMSCALE_ZONE_LOCKS] = holds;
	out->v[MMSCALE_LOCK_ACQUIRES] = 2 * holds;	/* pcp->lock, then zone->lock */
	out->v[MMSCALE_PAGES_MOVED] = pages;
	return true;
}

static bool decay_6_18(struct zone *zone, struct per_cpu_pages *pcp)
{
	return decay_pcp_high_6_18(zone, pcp) != 0;
}

static const struct decay_variant decay_variants[] = {
	{ { "6.18", "decay_pcp_high: what is over the decayed high freed under one pcp->lock "
	    "and zone->lock hold", "mm/page_alloc.c 6.18 (2555-2583)" }, decay_6_18, false },
	{ { "6.18.7", "decay_pcp_high: freed a batch per pcp->lock and zone->lock hold",
	    "mm/page_alloc.c 6.18.7 (2582-2614; Joshua Hahn's v2 3/4)" },
	  decay_pcp_high_6_18_7, true },
};

static const struct autotune_variant autotune_variants[] = {
	{ { "6.18", "pcp->high tuned between high_min and high_max (nr_pcp_high, nr_pcp_alloc), "
	    "every burst from a cold pageset", "mm/page_alloc.c 6.18 (51a755c56dc0, 6.7)" },
	  false, false },
	{ { "6.18-fixed-high", "the same code with high_max = high_min (high set by hand)",
	    "mm/page_alloc.c 6.18 zone_set_pageset_high_and_batch" }, true, false },
	{ { "6.18-warm", "6.18's bursts back to back on the pageset the last one left, aged by "
	    "the CPU's vmstat work (decay_pcp_high) each second",
	    "mm/page_alloc.c 6.18 decay_pcp_high, mm/vmstat.c refresh_cpu_vm_stats" },
	  false, true },
};

static const struct drain_6_18_variant drain_variants_6_18[] = {
	{ { "6.18-empty", "__drain_all_pages with every pcp list empty",
	    "mm/page_alloc.c 6.18" }, false },
	{ { "6.18-full", "__drain_all_pages with every CPU's local list at high_min",
	    "mm/page_alloc.c 6.18" }, true },
};

static const struct mmscale_metric autotune_metrics[] = {
	{ "time", "ns per burst (lower is better)", false },
	{ "zone_locks", "zone->lock acquisitions per burst (exact)", true },
	{ "pages_moved", "pages moved between pcp lists and the buddy per burst (exact)", true },
};
static const struct mmscale_metric drain_metrics[] = {
	{ "time", "ns per drain (lower is better)", false },
	{ "lock_acquires", "spin lock acquisitions per drain (exact)", true },
	{ "zone_locks", "zone->lock acquisitions per drain (exact)", true },
};

static const struct mmscale_metric decay_metrics[] = {
	{ "time", "ns per decay of a full list (lower is better)", false },
	{ "zone_locks", "zone->lock acquisitions per decay (exact)", true },
	{ "zone_hold_pages_max", "pages freed under the longest zone->lock hold (exact)", true },
	{ "pages_moved", "pages freed per decay (exact)", true },
};
static const int64_t decay_args[][MMSCALE_MAX_ARGS] = { { 0 }, { 4096 } };
static const char *const decay_arg_names[] = { "list_pages" };

static const int64_t autotune_args[][MMSCALE_MAX_ARGS] = {
	{ 0, 1024 }, { 0, 16384 }, { 3, 512 },
};
static const char *const autotune_arg_names[] = { "order", "burst" };
static const int64_t cpus_args[][MMSCALE_MAX_ARGS] = { MMSCALE_CPU_COUNT_ROWS };
static const char *const cpus_arg_names[] = { "cpus" };

#define PCP_COUNTS (MMSCALE_COUNT_BIT(MMSCALE_ZONE_LOCKS) | MMSCALE_COUNT_BIT(MMSCALE_LOCK_ACQUIRES) | \
		    MMSCALE_COUNT_BIT(MMSCALE_PAGES_MOVED) | MMSCALE_COUNT_BIT(MMSCALE_PAGES_DRAINED) | \
		    MMSCALE_COUNT_BIT(MMSCALE_LOCKED_OPS))

static const struct mmscale_case pcp_cases[] = {
	{
		.name = "pcp/autotune",
		.summary = "Linux 6.18: a burst of frees then allocations on one CPU, pcp->high "
			   "auto-tuned vs fixed",
		.setup = autotune_setup, .body = autotune_body, .teardown = world_down,
		.threads = MMSCALE_THREADS_ONE, .counts = PCP_COUNTS,
		MMSCALE_VARIANT_ROWS(autotune_variants), MMSCALE_METRICS(autotune_metrics),
		MMSCALE_ARGS(autotune_args, autotune_arg_names),
	},
	{
		.name = "pcp/drain",
		.summary = "Linux 6.18's drain_all_pages: remote drains under pcp->lock, no IPI",
		.setup = drain_setup, .body = drain_body, .teardown = world_down,
		.threads = MMSCALE_THREADS_ONE, .counts = PCP_COUNTS,
		.cpus = MMSCALE_CPUS_ARG0_ONLINE,
		MMSCALE_CLAIM(drain_claim, drain_one_op),
		MMSCALE_VARIANT_ROWS(drain_variants_6_18), MMSCALE_METRICS(drain_metrics),
		MMSCALE_ARGS(cpus_args, cpus_arg_names),
	},
	{
		.name = "pcp/decay",
		.summary = "one vmstat tick's decay_pcp_high of a full list: 6.18.0 frees the "
			   "excess in one hold, 6.18.7 a batch per hold",
		.setup = decay_setup, .body = decay_body, .teardown = decay_down,
		.threads = MMSCALE_THREADS_ONE, .counts = PCP_COUNTS,
		MMSCALE_CLAIM(decay_claim, decay_one_op),
		MMSCALE_VARIANT_ROWS(decay_variants), MMSCALE_METRICS(decay_metrics),
		MMSCALE_ARGS(decay_args, decay_arg_names),
	},
};

const struct mmscale_case_table mmscale_pcp_6_18_table = MMSCALE_CASE_TABLE("pcp-6.18", pcp_cases);
