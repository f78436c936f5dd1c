// SPDX-License-Identifier: GPL-2.0
/*
 * The generations of kernel/smp.c (kernel/linux-<version>/kernel/smp*.c), checked against the
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
 *   Locked ops: the sender's cpumask_clear_cpu(this_cpu, data->cpumask)
 *   and its call_function.lock; x86's native_send_call_func_ipi (2.6.29 to
 *   5.2) clears the sender's bit in its all-but-self copy with the locked
 *   cpumask_clear_cpu; each target's test_and_clear and atomic_dec_return
 *   (2k); the last one's lock: 2k + 4.
 *   2.6.32 (lines 190-210: test_and_clear, func, dec, lock/del if !refs)
 *   and 2.6.38 (lines 194-245) take the same two locks.
 * - on_each_cpu on C CPUs: smp_call_function(cpu_online_mask) -> k = C-1.
 *
 * Per-CPU queues (3.9+): no call_function.lock at all: 0.
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "check.h"
#include "test_machine.h"
#include "mmscale/cpu.h"
#include "mmscale/doorbell.h"
#include "mmscale/kernel/cpumask.h"
#include "mmscale/kernel/processor.h"
#include "mmscale/kernel/smp.h"
#include "mmscale/linux-2.6/mm/page_alloc.h"
#include "mmscale/notice.h"
#include "mmscale/opcount.h"

#define CPUS	6
#define ROUNDS	100
/* A lost call fails in 2 s, not 10: a broken queue shows quickly. */
#define TIMEOUT_MS	2000

#include "../drain_variants.h"
#include "drain_test.h"
/* White box: the global queue's entries, for test_reused_entry_skipped. */
#include "../../kernel/linux-2.6/kernel/smp_global_queue.h"

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

/* The test's own mask: the non-atomic forms, so that it counts no locked op. */
/* Atomic stores: an unwaited call may still be counting when the next check begins. */
static void reset_handled(void)
{
	for (int c = 0; c < CPUS; c++)
		atomic_store(&handled[c], 0);
}

static void mask_of(struct cpumask *m, unsigned long bits)
{
	cpumask_clear(m);
	for (unsigned int c = 0; c < CPUS; c++)
		if (bits & (1UL << c))
			__cpumask_set_cpu(c, m);
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

/*
 * The foreign-entry test (test_foreign_entry): CPU 1 queues B for CPUs 3
 * and 4; CPUs 2 and 4 keep "irqs" off until released, then CPU 2 counts
 * the locked ops of its one interrupt.
 */
#define FOREIGN_A	((1UL << 2) | (1UL << 3))
#define FOREIGN_B	((1UL << 3) | (1UL << 4))
static _Atomic bool foreign_test;
static _Atomic int foreign_release;	/* 1: CPU 2 may run its interrupt; 2: CPU 4 too */
static _Atomic long long foreign_locked_ops = -1;

static void foreign_partner(void)
{
	int cpu = smp_processor_id();
	unsigned long flags;

	if (cpu == 1) {
		struct cpumask m;

		mask_of(&m, FOREIGN_B);
		CHECK(smp_call_function_many(&m, rec, (void *)(uintptr_t)FOREIGN_B, false) == 0);
		CHECK(smp_call_function_many_wait(&m) == 0);
		atomic_fetch_add(&foreign_release, 1);	/* B is done: 2 -> 3 */
		return;
	}
	if (cpu != 2 && cpu != 4)
		return;
	local_irq_save(flags);	/* nothing reaches it until released */
	while (atomic_load(&foreign_release) < (cpu == 2 ? 1 : 2))
		cpu_relax();
	if (cpu == 2) {
		struct mmscale_counts before, after;

		mmscale_counts_snapshot(&before);
		local_irq_restore(flags);
		ipi_interrupt_point();
		mmscale_counts_snapshot(&after);
		atomic_store(&foreign_locked_ops, (long long)(after.v[MMSCALE_LOCKED_OPS] -
							      before.v[MMSCALE_LOCKED_OPS]));
	} else {
		local_irq_restore(flags);
	}
}

/*
 * The reuse stress (test_entry_reuse): CPUs 0 to REUSE_SENDERS - 1 each
 * call every other CPU REUSE_ROUNDS times, waited.
 */
#define REUSE_SENDERS	3
#define REUSE_ROUNDS	4000
static _Atomic bool reuse_test, reuse_go;
static _Atomic int reuse_done;

static void reuse_sender_loop(void)
{
	unsigned long bits = ((1UL << CPUS) - 1) & ~(1UL << smp_processor_id());
	struct cpumask m;
	unsigned int spins = 0;

	mask_of(&m, bits);
	while (!atomic_load(&reuse_go)) {	/* every CPU up, the counts marked */
		ipi_interrupt_point();
		spin_wait_step(&spins);
	}
	for (int r = 0; r < REUSE_ROUNDS; r++)
		if (smp_call_function_many(&m, rec, (void *)(uintptr_t)bits, true) != 0) {
			fprintf(stderr, "reuse: CPU %d, round %d: %s\n", smp_processor_id(), r,
				ipi_error());
			CHECK(!"a call was not answered");
			break;
		}
	atomic_fetch_add(&reuse_done, 1);
}

static void partner_main(void *arg)
{
	(void)arg;
	ipi_cpu_online();
	if (smp_processor_id() == 1 && atomic_load(&second_sender))
		second_sender_loop();
	if (atomic_load(&reuse_test) && smp_processor_id() < REUSE_SENDERS)
		reuse_sender_loop();
	if (atomic_load(&foreign_test))
		foreign_partner();
	ipi_idle_loop(&stop);
	ipi_cpu_offline();
}

static unsigned long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (unsigned long long)ts.tv_sec * 1000 + (unsigned long long)ts.tv_nsec / 1000000;
}

/*
 * Until the machine has handled want calls since counts_mark(): a call
 * made without waiting may still be running when its csd is free again
 * (6.18 unlocks an async csd before the call). At most TIMEOUT_MS.
 */
static void wait_handled(long long want)
{
	unsigned int spins = 0;

	for (unsigned long long t0 = now_ms(); counts_delta(MMSCALE_IPIS_HANDLED) < want &&
	     now_ms() - t0 < TIMEOUT_MS;)
		spin_wait_step(&spins);
}

/* The machine's cross-CPU calls for the next start(): a test changes them here. */
static struct ipi_config ipi;

static void start(struct mmscale_partner *partners, const struct doorbell_ops *doorbell,
		  const struct smp_generation *gen)
{
	char err[256];

	reset_handled();
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
		struct smp_claim gq = { 0 }, gq32 = { 0 }, llist = { 0 };
		/* 2k + 4 for k >= 2: above; k = 1: the single queue's lock, sender and target. */
		unsigned int gq_locked = k >= 2 ? 2 * k + 4 : 2 * k;

		smp_global_queue.claim(k, &gq);
		smp_global_queue_2_6_32.claim(k, &gq32);
		smp_llist.claim(k, &llist);
		CHECK_MSG(gq.ipis == k && gq.call_function_locks == (k >= 2 ? 2u : 0u) &&
			  gq.locked_ops == gq_locked && gq.locked_ops_per_foreign_entry == 0,
			  "global-queue's claim for k=%u: %u IPIs, %u call_function_locks, %u locked "
			  "ops", k, gq.ipis, gq.call_function_locks, gq.locked_ops);
		/* 2.6.32: the same, but a locked test_and_clear on every entry walked. */
		CHECK_MSG(gq32.ipis == k && gq32.call_function_locks == gq.call_function_locks &&
			  gq32.locked_ops == gq_locked && gq32.locked_ops_per_foreign_entry == 1,
			  "global-queue-2.6.32's claim for k=%u", k);
		/* 6.18: a cmpxchg per target by the sender (llist_add), an xchg by each target. */
		CHECK_MSG(llist.ipis == k && llist.call_function_locks == 0 &&
			  llist.locked_ops == 2 * k && llist.locked_ops_per_foreign_entry == 0,
			  "percpu's claim for k=%u: %u IPIs, %u call_function_locks, %u locked ops", k,
			  llist.ipis, llist.call_function_locks, llist.locked_ops);
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
			reset_handled();
			counts_mark();
			for (int r = 0; r < ROUNDS; r++) {
				unsigned long bits = targets | (r & 1 ? 1UL : 0);

				mask_of(&mask, bits);
				CHECK(smp_call_function_many(&mask, rec, (void *)(uintptr_t)bits,
							     wait) == 0);
				if (!wait)
					CHECK(smp_call_function_many_wait(&mask) == 0);
				wait_handled((long long)claim.ipis * (r + 1));
				/* Off the list once answered: no leak. */
				CHECK_EQ_LL(ipi_call_function_queued(), 0);
			}
			printf("  %-6s %-19s k=%d wait=%d: %lld call_function_locks, %lld IPIs "
			       "sent, %lld handled, %lld locked ops per call\n", row->name,
			       gen->name, k, wait,
			       counts_delta(MMSCALE_CALL_FUNCTION_LOCKS) / ROUNDS,
			       counts_delta(MMSCALE_IPIS_SENT) / ROUNDS,
			       counts_delta(MMSCALE_IPIS_HANDLED) / ROUNDS,
			       counts_delta(MMSCALE_LOCKED_OPS) / ROUNDS);
			CHECK_EQ_LL(counts_delta(MMSCALE_CALL_FUNCTION_LOCKS),
				    (long long)claim.call_function_locks * ROUNDS);
			CHECK_MSG(counts_delta(MMSCALE_LOCKED_OPS) ==
				  (long long)claim.locked_ops * ROUNDS,
				  "%s %s k=%d wait=%d: %lld locked ops in %d calls, the row claims %u "
				  "each", row->name, gen->name, k, wait,
				  counts_delta(MMSCALE_LOCKED_OPS), ROUNDS, claim.locked_ops);
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
	wait_handled(ROUNDS);
	CHECK_EQ_LL(counts_delta(MMSCALE_CALL_FUNCTION_LOCKS), 0);
	CHECK_EQ_LL(counts_delta(MMSCALE_IPIS_HANDLED), ROUNDS);
	/* on_each_cpu: k = CPUS - 1 others, then locally without an IPI. */
	reset_handled();
	counts_mark();
	CHECK(on_each_cpu(rec, (void *)(uintptr_t)((1UL << CPUS) - 1), 1) == 0);
	gen->claim(CPUS - 1, &all);
	CHECK_EQ_LL(counts_delta(MMSCALE_CALL_FUNCTION_LOCKS), all.call_function_locks);
	CHECK_EQ_LL(counts_delta(MMSCALE_LOCKED_OPS), all.locked_ops);
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

/*
 * Two calls on a global queue at once, one of them not for the CPU that
 * walks it: CPU 0 queues A for CPUs 2 and 3, CPU 1 queues B for CPUs 3
 * and 4; CPU 3 runs both; then CPU 2, the last target of A, takes its
 * interrupt and walks B (not its) and A. Its locked ops, worked out from
 * the sources: for A, test_and_clear, atomic_dec_return and, as the last
 * target, call_function.lock: 3; for B, 2.6.32's handler
 * (cpumask_test_and_clear_cpu first, lines 190-191) makes one more, the
 * later ones (cpumask_test_cpu first) none - the row's
 * locked_ops_per_foreign_entry.
 */
static void test_foreign_entry(const struct smp_generation *gen)
{
	struct mmscale_partner partners[CPUS];
	struct smp_claim claim = { 0 };
	struct cpumask m;
	unsigned int spins = 0;

	gen->claim(2, &claim);
	atomic_store(&foreign_test, true);
	atomic_store(&foreign_release, 0);
	atomic_store(&foreign_locked_ops, -1);
	start(partners, &doorbell_spin, gen);
	mask_of(&m, FOREIGN_A);
	CHECK(smp_call_function_many(&m, rec, (void *)(uintptr_t)FOREIGN_A, false) == 0);
	/* CPU 3 has run both calls: B and A are on the list, for CPUs 4 and 2. */
	while (atomic_load(&handled[3]) < 2) {
		ipi_interrupt_point();
		spin_wait_step(&spins);
	}
	CHECK_EQ_LL(ipi_call_function_queued(), 2);
	atomic_store(&foreign_release, 1);
	while (atomic_load(&foreign_locked_ops) < 0)
		spin_wait_step(&spins);
	atomic_store(&foreign_release, 2);
	CHECK(smp_call_function_many_wait(&m) == 0);
	/* CPU 4 runs B, and CPU 1 sees it done, before the machine stops. */
	while (atomic_load(&handled[4]) < 1 || atomic_load(&foreign_release) < 3) {
		ipi_interrupt_point();
		spin_wait_step(&spins);
	}
	printf("  %-19s CPU 2 walks a foreign entry and its own: %lld locked ops\n", gen->name,
	       atomic_load(&foreign_locked_ops));
	CHECK_EQ_LL(atomic_load(&foreign_locked_ops), 3 + (long long)claim.locked_ops_per_foreign_entry);
	CHECK_EQ_LL(atomic_load(&handled[2]), 1);
	CHECK_EQ_LL(atomic_load(&handled[3]), 2);
	CHECK_EQ_LL(atomic_load(&wrong_cpu), 0);
	finish(partners);
	atomic_store(&foreign_test, false);
}

/*
 * When a csd is unlocked: a call that holds its target until released,
 * made without waiting; a wait on it while it holds either returns (the
 * csd is unlocked) or times out (it is not).
 * - without wait: 6.18 (percpu, lines 577-590) unlocks an ASYNC csd before
 *   its function runs; the global queue's last target unlocks after it;
 * - the queue form (the work-item emulation) is SYNC in every generation:
 *   unlocked after the function, so its wait is a flush.
 */
static _Atomic int held_running, held_release, held_done;

static void held_call(void *info)
{
	(void)info;
	atomic_store(&held_running, 1);
	while (!atomic_load(&held_release))
		cpu_relax();
	atomic_store(&held_done, 1);
}

/* Call held_call on CPU 2 as how says; true if a wait returns while it holds. */
static bool unlocked_while_running(bool queue_form)
{
	struct cpumask m;
	unsigned int spins = 0;
	bool unlocked;

	atomic_store(&held_running, 0);
	atomic_store(&held_release, 0);
	atomic_store(&held_done, 0);
	mask_of(&m, 1UL << 2);
	if (queue_form)
		CHECK(smp_call_function_many_queue(&m, held_call, NULL) == 0);
	else
		CHECK(smp_call_function_many(&m, held_call, NULL, false) == 0);
	while (!atomic_load(&held_running))
		spin_wait_step(&spins);
	unlocked = smp_call_function_many_wait(&m) == 0;	/* else: timed out */
	CHECK_EQ_LL(atomic_load(&held_done), 0);
	atomic_store(&held_release, 1);
	/* Released: answered soon, however loaded the machine (each wait gives up after 200 ms). */
	for (int tries = 0; smp_call_function_many_wait(&m) != 0; tries++)
		if (tries == 50) {
			CHECK(!"the released call was not answered in 10 s");
			break;
		}
	if (!unlocked)	/* the csd was unlocked after the call: it has run */
		CHECK_EQ_LL(atomic_load(&held_done), 1);
	while (!atomic_load(&held_done))
		spin_wait_step(&spins);
	return unlocked;
}

static void test_unlock_order(const struct smp_generation *gen)
{
	struct mmscale_partner partners[CPUS];
	bool async_early, queued_early;

	ipi.timeout_ms = 200;
	start(partners, &doorbell_spin, gen);
	async_early = unlocked_while_running(false);
	queued_early = unlocked_while_running(true);
	printf("  %-19s csd unlocked before the call ran: without wait %s, queue form %s\n",
	       gen->name, async_early ? "yes" : "no", queued_early ? "yes" : "no");
	/* What the row says, and for the known rows what their kernels do. */
	CHECK(async_early == gen->async_unlocked_before_call);
	if (gen == &smp_llist || gen == &smp_global_queue || gen == &smp_global_queue_2_6_32)
		CHECK(async_early == (gen == &smp_llist));
	CHECK(!queued_early);
	finish(partners);
	ipi.timeout_ms = TIMEOUT_MS;
}

/*
 * on_each_cpu_mask with wait, from CPU 0 to CPUs 0 and 2, where CPU 2's
 * call holds it until CPU 0's own call releases it: up to 3.x the caller
 * waits for CPU 2 first (smp_call_function_many, then func: 2.6.32 and
 * 3.4's kernel/smp.c), so its wait times out before its own call runs;
 * 6.18's smp_call_function_many_cond runs the caller's call between
 * sending and waiting (lines 862-879), so the wait returns.
 */
static void local_or_held_call(void *info)
{
	(void)info;
	if (smp_processor_id() == 0)
		atomic_store(&held_release, 1);
	else
		held_call(NULL);
}

static void test_local_call_order(const struct smp_generation *gen)
{
	struct mmscale_partner partners[CPUS];
	unsigned int spins = 0;
	struct cpumask m;
	bool waited;

	ipi.timeout_ms = 2000;	/* 6.18's wait: CPU 2 answers once released, however loaded */
	start(partners, &doorbell_spin, gen);
	atomic_store(&held_running, 0);
	atomic_store(&held_release, 0);
	atomic_store(&held_done, 0);
	mask_of(&m, 1UL << 0 | 1UL << 2);
	waited = on_each_cpu_mask(&m, local_or_held_call, NULL, true) == 0;
	while (!atomic_load(&held_done))
		spin_wait_step(&spins);
	while (smp_call_function_many_wait(&m) != 0)	/* released: answered */
		;
	printf("  %-19s on_each_cpu_mask runs the caller's call before it waits: %s\n",
	       gen->name, waited ? "yes" : "no");
	/* What the row says, and for the known rows what their kernels do. */
	CHECK(waited == gen->local_before_wait);
	if (gen == &smp_llist || gen == &smp_global_queue || gen == &smp_global_queue_2_6_32)
		CHECK(waited == (gen == &smp_llist));
	finish(partners);
	ipi.timeout_ms = TIMEOUT_MS;
}

/*
 * Senders reusing their call-function entries while handlers walk the
 * list: three CPUs each call every other CPU 4000 times, waited. A sender
 * reuses its one cfd as soon as its last call is answered; a handler still
 * walking the list may then meet the entry while it is being set up again
 * (2.6.38-3.4's lines 170-186: its bit already set, refs still 0) and must
 * pass it by - "the refs still 0" check. Without it the handler runs the
 * call early and clears its bit before the sender counts the mask, so refs
 * stays one too high and the sender waits for an answer that never comes.
 * Every call must be handled once on each target and answered in time.
 * 2.6.38-3.4's generation only: 2.6.32 has no such check (its handler
 * test_and_clears first), the race 2.6.38 fixed, and loses calls rarely.
 */
static void test_entry_reuse(void)
{
	struct mmscale_partner partners[CPUS];
	unsigned int spins = 0;
	long long calls = (long long)REUSE_SENDERS * REUSE_ROUNDS;

	atomic_store(&reuse_test, true);
	atomic_store(&reuse_go, false);
	atomic_store(&reuse_done, 0);
	start(partners, &doorbell_spin, &smp_global_queue);
	counts_mark();
	atomic_store(&reuse_go, true);
	reuse_sender_loop();
	while (atomic_load(&reuse_done) < REUSE_SENDERS) {
		ipi_interrupt_point();
		spin_wait_step(&spins);
	}
	printf("  global-queue reuse: %lld calls from %d senders, %lld handled\n", calls,
	       REUSE_SENDERS, counts_delta(MMSCALE_IPIS_HANDLED));
	CHECK_EQ_LL(counts_delta(MMSCALE_IPIS_HANDLED), calls * (CPUS - 1));
	for (int c = 0; c < CPUS; c++)
		CHECK_EQ_LL(atomic_load(&handled[c]),
			    (long long)REUSE_ROUNDS * (REUSE_SENDERS - (c < REUSE_SENDERS)));
	CHECK_EQ_LL(atomic_load(&wrong_cpu), 0);
	CHECK_EQ_LL(ipi_call_function_queued(), 0);
	finish(partners);
	atomic_store(&reuse_test, false);
}

/*
 * The same window, made on purpose: CPU 0's entry on the list with CPU 2's
 * bit set and refs 0 - the state a walker can meet while the entry is being
 * reused (3.4 lines 170-186: refs zeroed, the mask set, refs not yet). CPU
 * 2's handler must pass it by (lines 248-250): not run it, not clear its
 * bit, not decrement refs. Then refs is set and CPU 2 runs it.
 */
static void test_reused_entry_skipped(void)
{
	struct mmscale_partner partners[CPUS];
	struct call_function_data *data;
	struct cpumask m;
	unsigned int spins = 0;

	start(partners, &doorbell_spin, &smp_global_queue);
	mask_of(&m, 1UL << 2);
	data = per_cpu_ptr(cfd_data, 0);
	CHECK(gq_csd_lock(&data->csd, 2, NULL) == 0);
	atomic_set(&data->refs, 0);
	data->csd.func = rec;
	data->csd.info = (void *)(uintptr_t)(1UL << 2);
	gq_publish_mask(data->cpumask, &m);
	call_function_lock();
	gq_list_add_rcu(&data->csd.list, &call_function.queue);
	gq_raw_spin_unlock(&call_function.lock);
	gq_send_call_function_ipi_mask(data->cpumask);
	/* CPU 2 took the vector; its walk ends before it takes the next call. */
	while (atomic_load(&per_cpu_ptr(ipi_cpus, 2)->line.vectors))
		spin_wait_step(&spins);
	CHECK(smp_call_function_single(2, rec, (void *)(uintptr_t)(1UL << 2), 1) == 0);
	CHECK_EQ_LL(atomic_load(&handled[2]), 1);	/* the single call only */
	CHECK(cpumask_test_cpu(2, data->cpumask));
	CHECK_EQ_LL(atomic_read(&data->refs), 0);
	CHECK_EQ_LL(ipi_call_function_queued(), 1);
	/* Set up at last: CPU 2 runs it, unlinks it and unlocks the csd. */
	atomic_set(&data->refs, 1);
	gq_send_call_function_ipi_mask(data->cpumask);
	CHECK(gq_csd_lock_wait(&data->csd, 2, NULL) == 0);
	printf("  global-queue: an entry with refs 0 passed by, run once refs is set\n");
	CHECK_EQ_LL(atomic_load(&handled[2]), 2);
	CHECK_EQ_LL(ipi_call_function_queued(), 0);
	CHECK_EQ_LL(atomic_load(&wrong_cpu), 0);
	finish(partners);
}

/*
 * An interrupt point that finds nothing pending once irqs are off runs
 * nothing: a signal's handler can run the calls between an interrupt
 * point's test and its flush (the signal doorbell, on a loaded machine),
 * and one IPI makes one flush, so the emptied queue costs no llist_del_all
 * (6.18) and no list walk (the global queues).
 */
static void test_empty_flush(const struct smp_generation *gen)
{
	struct mmscale_partner partners[CPUS];

	start(partners, &doorbell_spin, gen);
	counts_mark();
	ipi_interrupt_point_slow();
	CHECK_MSG(counts_delta(MMSCALE_LOCKED_OPS) == 0 && counts_delta(MMSCALE_IPIS_HANDLED) == 0,
		  "%s: a flush with nothing pending made %lld locked ops", gen->name,
		  counts_delta(MMSCALE_LOCKED_OPS));
	finish(partners);
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

	CHECK(drain_mm_machine_setup(ops, err, sizeof(err)) == 0);
	CHECK(drain_mm_setup(0, err, sizeof(err)) == 0);
	/* What cases/drain.c does: the variant's kernel's model, unless forced. */
	ipi.doorbell = &doorbell_spin;
	ipi.gen = forced ? forced : ops->smp;
	CHECK(ipi_setup_config(&ipi, err, sizeof(err)) == 0);
	drain_kernel_boot(ops);
	atomic_store(&stop, false);
	partners_start(partners, MCPUS, mm_partner_main);
	for (int c = 0; c < MCPUS; c++)
		if (fill & (1UL << c))
			CHECK(smp_call_function_single(c, fill_my_lists, (void *)(intptr_t)8, 1) == 0);
	counts_mark();
	drain_kernel()->drain_all_pages();
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
	drain_kernel_boot(NULL);
}

static void test_drains(void)
{
	/* The kernels' defaults. */
	CHECK(drain_ops_ipi_all.smp == &smp_global_queue_2_6_32);
	CHECK(drain_ops_quick_scan.smp == &smp_global_queue);
	CHECK(drain_ops_count_check.smp == &smp_global_queue);
	CHECK(drain_ops_ipi_mask.smp == &smp_global_queue);
	CHECK(drain_ops_workqueue.smp == &smp_llist);
	CHECK(drain_ops_remote.smp == &smp_llist);
	/* ... and their struct zone: 2.6.32's for ipi-all, 6.1's for remote, else 2.6.38's. */
	CHECK_EQ_LL(drain_ops_ipi_all.machine->zone_layout, MM_ZONE_LAYOUT_2_6_32);
	CHECK_EQ_LL(drain_ops_remote.machine->zone_layout, MM_ZONE_LAYOUT_6_1);
	CHECK_EQ_LL(drain_ops_count_check.machine->zone_layout, MM_ZONE_LAYOUT_2_6_38);

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
	for (size_t g = 0; g < smp_nr_generations; g++) {
		if (smp_generations[g]->queued)	/* the global-queue ones */
			test_foreign_entry(smp_generations[g]);
		test_unlock_order(smp_generations[g]);
		test_local_call_order(smp_generations[g]);
		test_empty_flush(smp_generations[g]);
	}
	test_entry_reuse();
	test_reused_entry_skipped();
	test_stuck();
	test_machine_down(&m);

	if (test_machine_up(&m, "synthetic:node:2 core:2 pu:1") != 0)
		return 1;
	test_drains();
	test_machine_down(&m);
	return check_report("test_smp_generations");
}
