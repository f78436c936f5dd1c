// SPDX-License-Identifier: GPL-2.0
/*
 * Every drain variant (every row of drain_variants.h) on an emulated
 * machine of C = 4 CPUs and Z = 2 populated zones (3 GiB over 2 nodes:
 * node 0 DMA32, node 1 Normal), each on its own kernel's kernel/smp.c
 * generation (its ops->smp); the exact counts of an all-empty drain are
 * each row's claim, which tests/test_claims.c checks:
 * - with pages on every CPU's local list, one drain makes exactly the
 *   counts its row claims for that machine (its locks, and its call's IPIs
 *   and call_function.lock acquisitions as the generation claims them);
 * - after drain_all_pages every pcp list is empty, every page is on exactly
 *   one list, and NR_FREE_PAGES counts the zone free lists;
 * - pages are conserved when every CPU allocates, frees and drains at once.
 * A row with its own world (6.18: drain_world.h) is checked through the
 * world's view of its lists: the same claims, the same conservation.
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "test_machine.h"
#include "mmscale/cpu.h"
#include "mmscale/doorbell.h"
#include "mmscale/kernel/cpumask.h"
#include "mmscale/kernel/processor.h"
#include "mmscale/linux-2.6/mm/page_alloc.h"
#include "mmscale/notice.h"

#define CPUS	4
#define ZONES	2

#include "../../cases/drain_rows.h"
#include "drain_test.h"

static _Atomic bool stop;
static _Atomic int stress_done;
static _Atomic bool stress;

#define HOLD 16

/* Allocate, free and drain; hold nothing at the end. */
static void stress_loop(int rounds)
{
	void *held[HOLD] = { NULL };

	for (int i = 0; i < rounds; i++) {
		void **slot = &held[i % HOLD];

		if (*slot)
			drain_free_local(*slot);
		*slot = drain_alloc_local();
		if (i % 97 == 0)
			drain_kernel()->drain_all_pages();
		ipi_interrupt_point();
	}
	for (int k = 0; k < HOLD; k++)
		if (held[k])
			drain_free_local(held[k]);
}

static void partner_main(void *arg)
{
	(void)arg;
	ipi_cpu_online();
	if (atomic_load(&stress)) {
		unsigned int spins = 0;

		stress_loop(20000);
		atomic_fetch_add(&stress_done, 1);
		while (atomic_load(&stress_done) < CPUS) {
			ipi_interrupt_point();
			spin_wait_step(&spins);
		}
	}
	ipi_idle_loop(&stop);
	ipi_cpu_offline();
}

/* The running row's world, or NULL: the 2.6.x machine. */
static const struct drain_world *world(void)
{
	return drain_kernel()->world;
}

static int all_lists_empty(void)
{
	struct zone *zone;
	int nonempty = 0;

	if (world())
		return world()->pages_on_lists() == 0;

	for_each_populated_zone(zone)
		for (unsigned int cpu = 0; cpu < nr_cpu_ids; cpu++) {
			struct per_cpu_pages *pcp = &zone_pcp(zone, cpu)->pcp;

			nonempty += pcp->count != 0;
			for (int mt = 0; mt < MIGRATE_PCPTYPES; mt++)
				nonempty += !list_empty(&pcp->lists[mt]);
		}
	return nonempty == 0;
}

/* Pages on every CPU's pcp lists, every zone. */
static long pcp_pages_total(void)
{
	struct zone *zone;
	long total = 0;

	if (world())
		return (long)world()->pages_on_lists();
	for_each_populated_zone(zone)
		for (unsigned int cpu = 0; cpu < nr_cpu_ids; cpu++)
			total += zone_pcp(zone, cpu)->pcp.count;
	return total;
}

static long free_list_total(void)
{
	struct zone *zone;
	long n = 0;

	for_each_populated_zone(zone)
		n += (long)zone_nr_free(zone);
	return n;
}

/* Conservation, as the row's world checks it (none held). */
static int conserved(char *err, size_t errlen)
{
	return world() ? world()->conserved(err, errlen) : pages_conserved(0, err, errlen);
}

/* The knobs start_machine boots with: every one auto but where test_chunks sets them. */
static long long test_knobs[MM_NR_KNOBS] = MM_KNOBS_ALL_AUTO;

static void start_machine(struct mmscale_partner *partners, const struct drain_variant_ops *ops)
{
	struct ipi_config ipi;
	char err[256];

	struct mm_machine_config cfg;

	mm_config_default(&cfg, 3ULL << 30);	/* drain_mm_machine_setup's machine */
	memcpy(cfg.knob, test_knobs, sizeof(cfg.knob));
	if (ops->world) {
		CHECK_MSG(ops->world->setup(&cfg, err, sizeof(err)) == 0, "%s", err);
	} else {
		cfg.zone_layout = ops->machine->zone_layout;
		CHECK(mm_machine_setup_config(&cfg, err, sizeof(err)) == 0);
		CHECK(drain_mm_setup(0, err, sizeof(err)) == 0);
	}
	/* The variant's kernel's kernel/smp.c, as a drain/ run has it. */
	ipi_config_default(&ipi, &doorbell_spin);
	ipi.gen = ops->smp;
	CHECK(ipi_setup_config(&ipi, err, sizeof(err)) == 0);
	drain_kernel_boot(ops);
	atomic_store(&stop, false);
	atomic_store(&stress_done, 0);
	partners_start(partners, CPUS, partner_main);
}

static void stop_machine(struct mmscale_partner *partners)
{
	partners_stop(partners, CPUS, &stop);
	ipi_teardown();
	if (world()) {
		world()->teardown();
	} else {
		drain_mm_teardown();
		mm_machine_teardown();
	}
	drain_kernel_boot(NULL);
}

/*
 * One drain by the running row on the lists as they are (shape), checked
 * against its claim: every count it claims (a vmstat fold of the drain's
 * frees adds two locked atomic adds), and with the hold accounting
 * drain/full runs with, the pages under the longest zone->lock hold and
 * the longest interrupts-off section. Returns the pages it drained; the
 * row's cost in *cost. what: the lists, for the messages.
 */
static long drain_and_check(size_t v, const struct drain_shape *shape, struct drain_cost *cost,
			    const char *what)
{
	struct mmscale_counts before, after;
	struct mmscale_claim claim = { 0 };
	uint64_t maxima[MMSCALE_NR_MAXIMA];

	drain_claim_counts(drain_variants[v].ops, drain_variants[v].ops->smp, shape, &claim);
	drain_variants[v].ops->claim(shape, cost);
	mmscale_holds_set_mode(MMSCALE_HOLDS_PAGES);
	mmscale_counts_sum_all(&before);
	drain_kernel()->drain_all_pages();
	mmscale_counts_sum_all(&after);
	mmscale_maxima_collect_all(maxima);
	mmscale_holds_set_mode(MMSCALE_HOLDS_OFF);
	CHECK(claim.which & MMSCALE_COUNT_BIT(MMSCALE_ZONE_LOCKS));
	CHECK(claim.which & MMSCALE_COUNT_BIT(MMSCALE_LOCKED_OPS));
	claim.v[MMSCALE_LOCKED_OPS] += 2 * (after.v[MMSCALE_FOLDS] - before.v[MMSCALE_FOLDS]);
	for (int i = 0; i < MMSCALE_NR_COUNTS; i++)
		if (claim.which & MMSCALE_COUNT_BIT(i))
			CHECK_MSG(after.v[i] - before.v[i] == claim.v[i],
				  "%s with %s: %s %llu, the row claims %llu",
				  drain_variants[v].v.name, what, mmscale_count_name(i),
				  (unsigned long long)(after.v[i] - before.v[i]),
				  (unsigned long long)claim.v[i]);
	CHECK_MSG(maxima[MMSCALE_MAX_ZONE_HOLD_PAGES] == cost->zone_hold_pages_max &&
		  maxima[MMSCALE_MAX_IRQOFF_PAGES] == cost->irqoff_pages_max,
		  "%s with %s: %llu pages under the longest zone->lock hold, %llu with "
		  "interrupts off; the row claims %lu and %lu", drain_variants[v].v.name, what,
		  (unsigned long long)maxima[MMSCALE_MAX_ZONE_HOLD_PAGES],
		  (unsigned long long)maxima[MMSCALE_MAX_IRQOFF_PAGES], cost->zone_hold_pages_max,
		  cost->irqoff_pages_max);
	return (long)(after.v[MMSCALE_PAGES_DRAINED] - before.v[MMSCALE_PAGES_DRAINED]);
}

static void test_variant(size_t v)
{
	struct mmscale_partner partners[CPUS];
	struct drain_shape shape;
	struct drain_cost cost = { 0 };
	char err[256];
	long on_lists, drained;

	atomic_store(&stress, false);
	/* Where it runs: the 2.6.x machine or a world, exactly one (cases/drain.c refuses else). */
	CHECK(!drain_variants[v].ops->machine != !drain_variants[v].ops->world);
	start_machine(partners, drain_variants[v].ops);
	CHECK_EQ_LL(drain_populated_zones(drain_kernel()), ZONES);
	printf("  %s\n", drain_variants[v].v.name);

	/* Lists on every CPU, then one drain empties them all. */
	for (int c = 1; c < CPUS; c++)
		CHECK(smp_call_function_single(c, fill_my_lists, (void *)(intptr_t)(10 * c), 1) == 0);
	fill_my_lists((void *)(intptr_t)5);
	CHECK(!all_lists_empty());
	CHECK(conserved(err, sizeof(err)) == 0);
	on_lists = pcp_pages_total();
	drain_shape_now(&shape);
	/* Each CPU allocated from, and freed to, its local zone's list only. */
	CHECK_EQ_LL(shape.lists_with_pages, CPUS);
	CHECK_EQ_LL(shape.cpus_with_pages, CPUS);
	drained = drain_and_check(v, &shape, &cost, "full lists");
	/* Lists of 10 x CPU pages (and 5 on CPU 0) are one chunk each: every row frees a list in one hold. */
	CHECK_EQ_LL(cost.zone_hold_pages_max, shape.list_pages_max);
	CHECK(all_lists_empty());
	/* Drained pages are counted, thread-locally, on the CPUs that freed them. */
	CHECK(on_lists > 0);
	CHECK_EQ_LL(drained, on_lists);
	if (conserved(err, sizeof(err)) != 0)
		fprintf(stderr, "%s: %s\n", drain_variants[v].v.name, err);
	CHECK(conserved(err, sizeof(err)) == 0);
	if (!world())
		CHECK_EQ_LL(free_list_total(), drain_pool_total());
	CHECK(ipi_error()[0] == 0);
	stop_machine(partners);
}

/* Every CPU allocates, frees and drains at once; then nothing is lost. */
static void test_stress(size_t v)
{
	struct mmscale_partner partners[CPUS];
	char err[256];
	unsigned int spins = 0;

	atomic_store(&stress, true);
	start_machine(partners, drain_variants[v].ops);
	stress_loop(20000);
	atomic_fetch_add(&stress_done, 1);
	while (atomic_load(&stress_done) < CPUS) {
		ipi_interrupt_point();
		spin_wait_step(&spins);
	}
	CHECK(ipi_error()[0] == 0);
	drain_kernel()->drain_all_pages();
	if (conserved(err, sizeof(err)) != 0)
		fprintf(stderr, "%s stress: %s\n", drain_variants[v].v.name, err);
	CHECK(conserved(err, sizeof(err)) == 0);
	partners_stop(partners, CPUS, &stop);
	if (world()) {
		/* The world's conservation above folded every CPU's diffs and checked NR_FREE_PAGES. */
		CHECK(all_lists_empty());
		ipi_teardown();
		world()->teardown();
		drain_kernel_boot(NULL);
		return;
	}
	/* NR_FREE_PAGES, once every CPU's deltas are folded, counts the free lists. */
	for (unsigned int cpu = 0; cpu < nr_cpu_ids; cpu++)
		refresh_cpu_vm_stats((int)cpu);
	{
		struct zone *zone;
		int bad = 0;

		for_each_populated_zone(zone)
			bad += atomic_long_read(&zone_vm_stat(zone)[NR_FREE_PAGES]) != (long)zone_nr_free(zone);
		CHECK_EQ_LL(bad, 0);
	}
	ipi_teardown();
	drain_mm_teardown();
	mm_machine_teardown();
	drain_kernel_boot(NULL);
}

/* drain/full's fill, on a CPU: n pages onto its own list. */
static void fill_my_list_n(void *arg)
{
	CHECK_EQ_LL(drain_fill_local((unsigned long)(uintptr_t)arg), (long long)(uintptr_t)arg);
}

/*
 * Lists longer than a drain's chunk (batch << CONFIG_PCP_BATCH_SCALE_MAX):
 * pcp_batch 4 (chunks of 128 pages) and every CPU's list filled with
 * drain/full's fill to 300 + 10 x CPU pages; one drain, its counts and hold
 * maxima against the row's claim, which only the rows that drain in
 * chunks (6.6-chunked, 6.18) split: 3 chunks a list, the largest 128 pages.
 */
static void test_chunks(size_t v)
{
	struct mmscale_partner partners[CPUS];
	struct drain_cost cost = { 0 };
	struct drain_shape shape;
	char err[256];

	atomic_store(&stress, false);
	test_knobs[MM_KNOB_PCP_BATCH] = 4;
	test_knobs[MM_KNOB_PCP_HIGH] = 400;
	start_machine(partners, drain_variants[v].ops);
	for (int c = 1; c < CPUS; c++)
		CHECK(smp_call_function_single(c, fill_my_list_n, (void *)(uintptr_t)(300 + 10 * c), 1) == 0);
	fill_my_list_n((void *)(uintptr_t)300);
	CHECK(conserved(err, sizeof(err)) == 0);
	drain_shape_now(&shape);
	CHECK_EQ_LL(shape.list_pages_max, 330);
	CHECK_EQ_LL(shape.list_chunks, 3 * CPUS);
	CHECK_EQ_LL(shape.chunk_pages_max, 128);
	CHECK_EQ_LL(drain_and_check(v, &shape, &cost, "lists of 300-330 pages"),
		    300 + 310 + 320 + 330);
	CHECK(all_lists_empty());
	CHECK(conserved(err, sizeof(err)) == 0);
	CHECK(ipi_error()[0] == 0);
	stop_machine(partners);
	test_knobs[MM_KNOB_PCP_BATCH] = MM_KNOB_AUTO;
	test_knobs[MM_KNOB_PCP_HIGH] = MM_KNOB_AUTO;
}

static void drain_tests(void)
{
	printf("C = %d CPUs, Z = %d populated zones:\n", CPUS, ZONES);
	for (size_t v = 0; v < drain_nr_variants; v++) {
		test_variant(v);
		test_stress(v);
		test_chunks(v);
	}
}

int main(void)
{
	return test_machine_main("test_drain", "synthetic:node:2 core:2 pu:1", drain_tests);
}
