// SPDX-License-Identifier: GPL-2.0
/*
 * The generations of kernel/smp.c (kernel/smp_*.c), checked against the
 * sources in ../shared/kernel/{2.6.32,2.6.38,3.4}/kernel/smp.c. Every
 * expected number below is worked out from those lines:
 *
 * Global queue (2.6.32-3.4), smp_call_function_many(mask) from CPU s with
 * k = |mask & online \ {s}| targets:
 * - k = 0: "No online cpus?  We're done." - nothing: 0 locks, 0 IPIs.
 * - k = 1: "Fastpath: do that cpu by itself." -> smp_call_function_single
 *   -> generic_exec_single: call_single_queue.lock (not call_function.lock),
 *   ipi = list_empty(&dst->list) = 1 on an idle target: 1 IPI
 *   (arch_send_call_function_single_ipi), 0 call_function_locks, 1 handled.
 * - k >= 2: raw_spin_lock_irqsave(&call_function.lock) around list_add_rcu
 *   (sender: 1); arch_send_call_function_ipi_mask(data->cpumask): one IPI
 *   per CPU of the mask (k; nobody has cleared a bit yet with one sender and
 *   idle targets); each target runs func once, test_and_clears its bit,
 *   atomic_dec_return(&data->refs); only the one that sees refs reach 0
 *   takes raw_spin_lock(&call_function.lock) for list_del_rcu (1 more).
 *   So exactly 2 call_function_locks, k IPIs sent, k handled, and the
 *   entry is off the list when the call returns (wait) or is waited for.
 *   2.6.32 (lines 190-210: test_and_clear, func, dec, lock/del if !refs)
 *   and 2.6.38 (lines 194-245) take the same two locks.
 * - on_each_cpu on C CPUs: smp_call_function(cpu_online_mask) -> k = C-1.
 *
 * Per-CPU queues (3.9+): no call_function.lock at all: 0.
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
#include "mmscale/kernel/smp.h"
#include "mmscale/mm/page_alloc.h"
#include "mmscale/notice.h"
#include "mmscale/opcount.h"

#define CPUS	6
#define ROUNDS	100
/* A lost call fails in 2 s, not 10: a broken queue shows quickly. */
#define TIMEOUT_MS	2000

#include "../drain_variants.h"
#include "drain_test.h"

static _Atomic long handled[CPUS];
static _Atomic long wrong_cpu;
static _Atomic bool stop;
static _Atomic bool second_sender;
static _Atomic bool second_done;

/* info: the bitmask of CPUs the call was meant for. */
static void rec(void *info)
{
	unsigned long want = (unsigned long)(uintptr_t)info;

	if (!(want & (1UL << smp_processor_id())))
		atomic_fetch_add(&wrong_cpu, 1);
	atomic_fetch_add(&handled[smp_processor_id()], 1);
}

static void mask_of(struct cpumask *m, unsigned long bits)
{
	cpumask_clear(m);
	for (unsigned int c = 0; c < CPUS; c++)
		if (bits & (1UL << c))
			cpumask_set_cpu(c, m);
}

/* CPU 1 as a second sender: smp_call_function_many to every CPU but itself. */
static void second_sender_loop(void)
{
	struct cpumask m;
	unsigned long bits = ((1UL << CPUS) - 1) & ~(1UL << 1);

	mask_of(&m, bits);
	for (int r = 0; r < ROUNDS; r++)
		CHECK(smp_call_function_many(&m, rec, (void *)(uintptr_t)bits, true) == 0);
	atomic_store(&second_done, true);
}

static void partner_main(void *arg)
{
	(void)arg;
	ipi_cpu_online();
	if (smp_processor_id() == 1 && atomic_load(&second_sender))
		second_sender_loop();
	ipi_idle_loop(&stop);
	ipi_cpu_offline();
}

/* The machine's cross-CPU calls for the next start(): a test changes them here. */
static struct ipi_config ipi;

static void start(struct mmscale_partner *partners, const struct doorbell_ops *doorbell,
		  const struct smp_generation *gen)
{
	char err[256];

	memset(handled, 0, sizeof(handled));
	atomic_store(&wrong_cpu, 0);
	atomic_store(&stop, false);
	atomic_store(&second_done, false);
	/* A doorbell this machine lacks rings as the harness would ring it instead. */
	ipi.doorbell = mmscale_doorbell_resolve(doorbell, CPUS);
	ipi.gen = gen;
	CHECK(ipi_setup_config(&ipi, err, sizeof(err)) == 0);
	partners_start(partners, CPUS, partner_main);
}

static void finish(struct mmscale_partner *partners)
{
	partners_stop(partners, CPUS, &stop);
	ipi_teardown();
}

/* Each known row's claim against the counts worked out by hand above. */
static void test_claims_worked_out(void)
{
	for (unsigned int k = 0; k < 6; k++) {
		struct smp_claim gq = { 0 }, llist = { 0 };

		smp_global_queue.claim(k, &gq);
		smp_llist.claim(k, &llist);
		CHECK_MSG(gq.ipis == k && gq.call_function_locks == (k >= 2 ? 2u : 0u),
			  "global-queue's claim for k=%u: %u IPIs, %u call_function_locks", k,
			  gq.ipis, gq.call_function_locks);
		CHECK_MSG(llist.ipis == k && llist.call_function_locks == 0,
			  "percpu's claim for k=%u: %u IPIs, %u call_function_locks", k,
			  llist.ipis, llist.call_function_locks);
	}
}

/*
 * One sender (CPU 0), idle targets: for k = 0..CPUS-1 targets (the mask may
 * name the sender too: it is left out), waited and not: exactly the counts
 * the generation's row claims.
 */
static void test_one_sender(const struct mmscale_doorbell *row, const struct smp_generation *gen)
{
	struct mmscale_partner partners[CPUS];
	struct smp_claim all = { 0 };

	start(partners, row->ops, gen);
	CHECK(ipi_generation() == gen);
	for (int k = 0; k < CPUS; k++) {
		/* Targets 1..k, and the sender itself in every other round. */
		unsigned long targets = ((1UL << (k + 1)) - 1) & ~1UL;

		for (int wait = 0; wait < 2; wait++) {
			struct smp_claim claim = { 0 };
			struct cpumask mask;

			gen->claim((unsigned int)k, &claim);
			memset(handled, 0, sizeof(handled));
			counts_mark();
			for (int r = 0; r < ROUNDS; r++) {
				unsigned long bits = targets | (r & 1 ? 1UL : 0);

				mask_of(&mask, bits);
				CHECK(smp_call_function_many(&mask, rec, (void *)(uintptr_t)bits,
							     wait) == 0);
				if (!wait)
					CHECK(smp_call_function_many_wait(&mask) == 0);
				/* Off the list once answered: no leak. */
				CHECK_EQ_LL(ipi_call_function_queued(), 0);
			}
			printf("  %-6s %-12s k=%d wait=%d: %lld call_function_locks, %lld IPIs sent, "
			       "%lld handled per call\n", row->name, gen->name, k, wait,
			       counts_delta(MMSCALE_CALL_FUNCTION_LOCKS) / ROUNDS,
			       counts_delta(MMSCALE_IPIS_SENT) / ROUNDS,
			       counts_delta(MMSCALE_IPIS_HANDLED) / ROUNDS);
			CHECK_EQ_LL(counts_delta(MMSCALE_CALL_FUNCTION_LOCKS),
				    (long long)claim.call_function_locks * ROUNDS);
			/* Idle targets, one call at a time: every target's queue empty, one IPI each. */
			CHECK_EQ_LL(counts_delta(MMSCALE_IPIS_SENT), (long long)claim.ipis * ROUNDS);
			CHECK_EQ_LL(counts_delta(MMSCALE_IPIS_HANDLED), (long long)claim.ipis * ROUNDS);
			/* The IPI machinery takes no mm lock. */
			CHECK_EQ_LL(counts_delta(MMSCALE_LOCK_ACQUIRES), 0);
			for (int c = 0; c < CPUS; c++)
				CHECK_EQ_LL(atomic_load(&handled[c]),
					    c >= 1 && c <= k ? ROUNDS : 0);
			CHECK_EQ_LL(atomic_load(&wrong_cpu), 0);
		}
	}
	/* smp_call_function_single: call_single_queue, never call_function.lock. */
	counts_mark();
	for (int r = 0; r < ROUNDS; r++) {
		int t = 1 + r % (CPUS - 1);

		CHECK(smp_call_function_single(t, rec, (void *)(uintptr_t)(1UL << t), r & 1) == 0);
	}
	CHECK(smp_call_function_many_wait(cpu_online_mask) == 0);
	CHECK_EQ_LL(counts_delta(MMSCALE_CALL_FUNCTION_LOCKS), 0);
	CHECK_EQ_LL(counts_delta(MMSCALE_IPIS_HANDLED), ROUNDS);
	/* on_each_cpu: k = CPUS - 1 others, then locally without an IPI. */
	memset(handled, 0, sizeof(handled));
	counts_mark();
	CHECK(on_each_cpu(rec, (void *)(uintptr_t)((1UL << CPUS) - 1), 1) == 0);
	gen->claim(CPUS - 1, &all);
	CHECK_EQ_LL(counts_delta(MMSCALE_CALL_FUNCTION_LOCKS), all.call_function_locks);
	CHECK_EQ_LL(counts_delta(MMSCALE_IPIS_SENT), all.ipis);
	CHECK_EQ_LL(counts_delta(MMSCALE_IPIS_HANDLED), all.ipis);
	for (int c = 0; c < CPUS; c++)
		CHECK_EQ_LL(atomic_load(&handled[c]), 1);
	finish(partners);
}

/*
 * Two senders at once (CPU 0 and CPU 1, each to every other CPU, waited):
 * every call handled once on each of its targets, the call_function_locks
 * the row claims per call (global queue: both entries on the list together,
 * 2 per call), nothing left on a global list. IPIs: the global queue's
 * arch_send_call_function_ipi_mask reads the shared mask live, and a
 * per-CPU queue already holding the other sender's csd needs no IPI, so a
 * target that already has a call to run is not interrupted again: at most
 * the claim per call, not exactly.
 */
static void test_two_senders(const struct mmscale_doorbell *row, const struct smp_generation *gen)
{
	struct mmscale_partner partners[CPUS];
	unsigned long bits = ((1UL << CPUS) - 1) & ~1UL;
	struct cpumask mask;
	unsigned int spins = 0;
	long long calls = 2 * ROUNDS;
	struct smp_claim claim = { 0 };

	gen->claim(CPUS - 1, &claim);
	atomic_store(&second_sender, true);
	counts_mark();
	start(partners, row->ops, gen);
	mask_of(&mask, bits);
	for (int r = 0; r < ROUNDS; r++)
		CHECK(smp_call_function_many(&mask, rec, (void *)(uintptr_t)bits, true) == 0);
	while (!atomic_load(&second_done)) {
		ipi_interrupt_point();
		spin_wait_step(&spins);
	}
	CHECK_EQ_LL(ipi_call_function_queued(), 0);
	printf("  %-6s %-12s two senders: %lld calls, %lld call_function_locks, %lld IPIs sent, "
	       "%lld handled\n", row->name, gen->name, calls,
	       counts_delta(MMSCALE_CALL_FUNCTION_LOCKS), counts_delta(MMSCALE_IPIS_SENT),
	       counts_delta(MMSCALE_IPIS_HANDLED));
	CHECK_EQ_LL(counts_delta(MMSCALE_CALL_FUNCTION_LOCKS), claim.call_function_locks * calls);
	CHECK_EQ_LL(counts_delta(MMSCALE_IPIS_HANDLED), calls * (CPUS - 1));
	CHECK(counts_delta(MMSCALE_IPIS_SENT) <= claim.ipis * calls);
	CHECK(counts_delta(MMSCALE_IPIS_SENT) > 0);
	/* CPU 0 and CPU 1 each answer the other's calls; CPUs 2.. both. */
	CHECK_EQ_LL(atomic_load(&handled[0]), ROUNDS);
	CHECK_EQ_LL(atomic_load(&handled[1]), ROUNDS);
	for (int c = 2; c < CPUS; c++)
		CHECK_EQ_LL(atomic_load(&handled[c]), calls);
	CHECK_EQ_LL(atomic_load(&wrong_cpu), 0);
	finish(partners);
	atomic_store(&second_sender, false);
}

/* A target that never answers is named by the waiting sender, from the mask. */
static void test_stuck(void)
{
	struct mmscale_partner partners[CPUS];
	struct cpumask mask;

	ipi.stuck_cpu = 3;
	ipi.timeout_ms = 200;
	start(partners, &doorbell_spin, &smp_global_queue);
	mask_of(&mask, 0x3e);
	CHECK(smp_call_function_many(&mask, rec, (void *)(uintptr_t)0x3e, true) != 0);
	printf("  stuck CPU: %s\n", ipi_error());
	CHECK(strstr(ipi_error(), "CPU 3 did not answer") != NULL);
	finish(partners);
	ipi.stuck_cpu = 0;
	ipi.timeout_ms = TIMEOUT_MS;
}

/*
 * End to end, through the variants' ops: each variant's kernel picks the
 * model (ipi-all 2.6.32 / count-check 2.6.38 / ipi-mask 3.4: global queue;
 * workqueue 4.11 / remote 6.1: per-CPU), an empty 4-CPU, 2-zone machine:
 * - ipi-all, count-check: on_each_cpu -> smp_call_function_many with
 *   k = 3: 2 call_function_locks, 3 IPIs per drain;
 * - ipi-mask: no CPU has pages, on_each_cpu_mask(empty): k = 0: 0, 0;
 * - remote: no IPI at all: 0, 0.
 * Then ipi-mask with pages on CPU 2 only (k = 1: the single fastpath, 0
 * locks, 1 IPI) and on every CPU (k = 3: 2 locks, 3 IPIs); and --smp-model
 * forcing the per-CPU model on ipi-all: 0 locks, the same 3 IPIs.
 */
#define MCPUS	4

static void mm_partner_main(void *arg)
{
	(void)arg;
	ipi_cpu_online();
	ipi_idle_loop(&stop);
	ipi_cpu_offline();
}

static void drain_case(const char *name, const struct drain_variant_ops *ops,
		       const struct smp_generation *forced, unsigned long fill,
		       long long want_cf_locks, long long want_ipis)
{
	struct mmscale_partner partners[MCPUS];
	char err[256];

	CHECK(mm_machine_setup(3ULL << 30, err, sizeof(err)) == 0);
	CHECK(drain_mm_setup(0, err, sizeof(err)) == 0);
	/* What drain/cases.c does: the variant's kernel's model, unless forced. */
	ipi.doorbell = &doorbell_spin;
	ipi.gen = forced ? forced : ops->smp;
	CHECK(ipi_setup_config(&ipi, err, sizeof(err)) == 0);
	drain_ops = ops;
	atomic_store(&stop, false);
	partners_start(partners, MCPUS, mm_partner_main);
	for (int c = 0; c < MCPUS; c++)
		if (fill & (1UL << c))
			CHECK(smp_call_function_single(c, fill_my_lists, (void *)(intptr_t)8, 1) == 0);
	counts_mark();
	drain_ops->drain_all_pages();
	printf("  drain %-28s: %lld call_function_locks, %lld IPIs, %lld zone locks\n", name,
	       counts_delta(MMSCALE_CALL_FUNCTION_LOCKS), counts_delta(MMSCALE_IPIS_SENT),
	       counts_delta(MMSCALE_LOCK_ACQUIRES));
	CHECK_EQ_LL(counts_delta(MMSCALE_CALL_FUNCTION_LOCKS), want_cf_locks);
	CHECK_EQ_LL(counts_delta(MMSCALE_IPIS_SENT), want_ipis);
	CHECK_EQ_LL(counts_delta(MMSCALE_IPIS_HANDLED), want_ipis);
	CHECK(ipi_error()[0] == 0);
	CHECK_EQ_LL(ipi_call_function_queued(), 0);
	partners_stop(partners, MCPUS, &stop);
	CHECK(pages_conserved(0, err, sizeof(err)) == 0);
	ipi_teardown();
	drain_mm_teardown();
	mm_machine_teardown();
	drain_ops = NULL;
}

static void test_drains(void)
{
	/* The kernels' defaults. */
	CHECK(drain_ops_ipi_all.smp == &smp_global_queue);
	CHECK(drain_ops_quick_scan.smp == &smp_global_queue);
	CHECK(drain_ops_count_check.smp == &smp_global_queue);
	CHECK(drain_ops_ipi_mask.smp == &smp_global_queue);
	CHECK(drain_ops_workqueue.smp == &smp_llist);
	CHECK(drain_ops_remote.smp == &smp_llist);

	drain_case("ipi-all (empty)", &drain_ops_ipi_all, NULL, 0, 2, MCPUS - 1);
	drain_case("count-check (empty)", &drain_ops_count_check, NULL, 0, 2, MCPUS - 1);
	drain_case("ipi-mask (empty)", &drain_ops_ipi_mask, NULL, 0, 0, 0);
	drain_case("remote (empty)", &drain_ops_remote, NULL, 0, 0, 0);
	drain_case("ipi-mask (pages on CPU 2)", &drain_ops_ipi_mask, NULL, 0x4, 0, 1);
	drain_case("ipi-mask (pages everywhere)", &drain_ops_ipi_mask, NULL, 0xf, 2, MCPUS - 1);
	drain_case("ipi-all --smp-model=percpu", &drain_ops_ipi_all, &smp_llist, 0, 0, MCPUS - 1);
	drain_case("workqueue --smp-model=global-queue", &drain_ops_workqueue,
		   &smp_global_queue, 0xf, 2, MCPUS - 1);
}

int main(void)
{
	struct test_machine m;

	if (test_machine_up(&m, "synthetic:node:2 core:3 pu:1") != 0)
		return 1;
	ipi_config_default(&ipi, &doorbell_spin);
	ipi.timeout_ms = TIMEOUT_MS;
	test_claims_worked_out();
	/* Every generation under every doorbell. */
	for (size_t g = 0; g < smp_nr_generations; g++)
		for (size_t d = 0; d < mmscale_nr_doorbells; d++) {
			test_one_sender(&mmscale_doorbells[d], smp_generations[g]);
			test_two_senders(&mmscale_doorbells[d], smp_generations[g]);
		}
	test_stuck();
	test_machine_down(&m);

	if (test_machine_up(&m, "synthetic:node:2 core:2 pu:1") != 0)
		return 1;
	test_drains();
	test_machine_down(&m);
	return check_report("test_smp_generations");
}
