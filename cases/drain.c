// SPDX-License-Identifier: GPL-2.0
/*
 * The drain cases (seed 002_a4923e43b84f14f0): what drain_all_pages costs
 * when most CPUs have nothing to drain (drain/empty), what a swapping
 * cpuset that drains every D allocations costs itself and the CPUs outside
 * it (drain/swap_cpuset), and what an emulated IPI costs beside the c2c
 * floor (ipi/unicast, ipi/broadcast).
 *
 * Every run builds a fresh emulated machine: zones and page pools on their
 * nodes, IPI queues and doorbells, and a pool of partner threads for the
 * emulated CPUs that are not Google Benchmark threads (idle CPUs answering
 * IPIs, victims running a work loop). Counts that the whole machine
 * accumulates (IPIs handled by the targets, zone locks they take) are
 * published from the machine-wide sums.
 */
#define _GNU_SOURCE
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mmscale/case.h"
#include "mmscale/cpu.h"
#include "mmscale/doorbell.h"
#include "mmscale/kernel/cpumask.h"
#include "mmscale/kernel/timekeeping.h"
#include "mmscale/kernel/transfers.h"
#include "mmscale/linux-2.6/mm/page_alloc.h"
#include "mmscale/membarrier.h"
#include "mmscale/notice.h"
#include "mmscale/params.h"
#include "mmscale/topology.h"

#include "drain_rows.h"

/* The ipi/ cases' variants: the doorbell that carries the emulated IPI. */
struct ipi_variant {
	struct mmscale_variant v;
	const struct doorbell_ops *doorbell;
};

static const struct drain_variant *drain_row(const struct mmscale_run *run)
{
	return container_of(run->v, struct drain_variant, v);
}

static const struct doorbell_ops *ipi_row_doorbell(const struct mmscale_run *run)
{
	return container_of(run->v, struct ipi_variant, v)->doorbell;
}

enum partner_loop {
	PARTNER_IDLE,		/* answer calls; spin or sleep per the mechanism */
	PARTNER_VICTIM,		/* count work units, interrupt points between them */
	PARTNER_BUSY,		/* spin without ever looking at the queue: signals only */
	PARTNER_VICTIM_CLOCKED,	/* a victim that keeps its largest gap between units */
};

struct drain_run {
	struct mmscale_cpu_pool pool;
	enum partner_loop loop;
	u64 *units;			/* percpu: a victim's work units */
	double baseline_units_per_s;	/* victims alone, before the run */
	unsigned int online;		/* emulated CPUs of this run */
	bool mm_up, drain_up, world_up, ipi_up;
	const struct drain_world *world;	/* the variant's, or NULL: the 2.6.x machine */
	/*
	 * The cpuset's own bookkeeping, on a line of its own: victims load
	 * pool.stop at every work unit, and these are written during the run.
	 */
	_Atomic int done ____cacheline_aligned;	/* cpuset CPUs finished with their pass */
	_Atomic long drains;	/* the bench's, not the kernel's: no locked op counted */
	/*
	 * drain/swap_cpuset, set up before the run so that its body allocates
	 * and reads no flag: each thread's first MAX_DRAINS drain latencies
	 * (thread t's at drain_ns + t * MAX_DRAINS), and --test-leak-page.
	 */
	u64 *drain_ns;
	bool leak_page;
	/*
	 * drain/full: the pages each CPU's list holds before every drain, the
	 * lists as the claim sees them then and the row's claim on them; a
	 * clocked victim's largest gap (ns) since the caller last took it, and
	 * its mark that a refill ran since its last unit (that gap is not a
	 * drain's); a fill that fell short.
	 */
	unsigned long fill_pages;
	struct drain_shape full_shape;
	struct drain_cost full_cost;
	u64 *gap_max;
	int *refilled;
	_Atomic unsigned int fill_short_cpu;	/* CPU + 1, or 0 */
};

/* One unit of a victim's work: a dependent multiply-add chain it cannot skip. */
static inline u64 victim_unit(u64 x)
{
	for (int i = 0; i < 64; i++) {
		x = x * 6364136223846793005ULL + 1442695040888963407ULL;
		__asm__ __volatile__("" : "+r"(x));
	}
	return x;
}

static void partner_main(void *arg)
{
	struct drain_run *dr = arg;
	u64 x = 1;

	ipi_cpu_online();
	switch (dr->loop) {
	case PARTNER_IDLE:
		ipi_idle_loop(&dr->pool.stop);
		break;
	case PARTNER_VICTIM: {
		u64 *units = this_cpu_ptr(dr->units);

		cpu_set_activity("victim loop");
		while (!atomic_load_explicit(&dr->pool.stop, memory_order_relaxed)) {
			x = victim_unit(x);
			WRITE_ONCE(*units, *units + 1);
			ipi_interrupt_point();
		}
		break;
	}
	case PARTNER_VICTIM_CLOCKED: {
		u64 *units = this_cpu_ptr(dr->units);
		u64 *gap_max = this_cpu_ptr(dr->gap_max);
		int *refilled = this_cpu_ptr(dr->refilled);
		u64 prev = ktime_get_ns();

		cpu_set_activity("victim loop, clocked");
		while (!atomic_load_explicit(&dr->pool.stop, memory_order_relaxed)) {
			u64 now;

			x = victim_unit(x);
			now = ktime_get_ns();
			/* A gap that held a refill is the bench's, not a drain's. */
			if (__atomic_load_n(refilled, __ATOMIC_RELAXED))
				__atomic_store_n(refilled, 0, __ATOMIC_RELAXED);
			else if (now - prev > __atomic_load_n(gap_max, __ATOMIC_RELAXED))
				__atomic_store_n(gap_max, now - prev, __ATOMIC_RELAXED);
			prev = now;
			WRITE_ONCE(*units, *units + 1);
			ipi_interrupt_point();
		}
		break;
	}
	case PARTNER_BUSY: {
		unsigned int spins = 0;

		cpu_set_activity("busy loop (never polls: only a signal gets in)");
		while (!atomic_load_explicit(&dr->pool.stop, memory_order_relaxed))
			spin_wait_step(&spins);
		break;
	}
	}
	__asm__ __volatile__("" : : "r"(x));
	ipi_cpu_offline();
}

static int drain_teardown(struct mmscale_run *run, char *err, size_t errlen);

static u64 victim_units_total(struct drain_run *dr)
{
	u64 total = 0;

	for (unsigned int cpu = 0; cpu < dr->online; cpu++)
		total += READ_ONCE(*per_cpu_ptr(dr->units, cpu));
	return total;
}

/*
 * The machine for one run, on the CPUs the harness put online for it
 * (run->nr_online: the CPUs it uses, as its case's .cpus says), zones and
 * pools, IPIs with the given doorbell (NULL: auto) and the variant's
 * kernel's smp.c generation (gen) unless --smp-model forces one, partners
 * for the CPUs after the GB threads.
 */
static int drain_setup_machine(struct mmscale_run *run, int nr_threads,
			       const struct doorbell_ops *doorbell,
			       const struct drain_variant_ops *ops,
			       const struct smp_generation *gen, enum partner_loop loop,
			       char *err, size_t errlen)
{
	/*
	 * Aligned as its cacheline-aligned member needs (calloc gives 16
	 * bytes); that member makes sizeof a multiple of the alignment.
	 */
	struct drain_run *dr = aligned_alloc(SMP_CACHE_BYTES, sizeof(*dr));
	unsigned int online = (unsigned int)run->nr_online;	/* the harness's decision */
	struct ipi_config ipi;
	struct mm_machine_config mm;
	char ignored[8];

	if (!dr)
		return mmscale_errorf(err, errlen, "out of memory");
	memset(dr, 0, sizeof(*dr));
	run->data = dr;
	dr->online = online;
	dr->loop = loop;
	mmscale_mm_config(&mm);	/* the machine's parameters, from the flags */
	if (!ops->machine == !ops->world) {
		mmscale_errorf(err, errlen, "a drain variant runs on the 2.6.x machine (.machine) "
			       "or in a world (.world): this row names %s",
			       ops->world ? "both" : "neither");
		goto fail;
	}
	dr->world = ops->world;
	if (dr->world) {
		/* Its kernel's own zones, statistics and lists. */
		if (dr->world->setup(&mm, err, errlen) != 0)
			goto fail;
		dr->world_up = true;
	} else {
		mm.zone_layout = ops->machine->zone_layout;	/* the variant's kernel's struct zone */
		if (mm_machine_setup_config(&mm, err, errlen) != 0)
			goto fail;
		dr->mm_up = true;
		if (drain_mm_setup(0, err, errlen) != 0)
			goto fail;
		dr->drain_up = true;
	}
	/* The machine's cross-CPU calls, from the flags: the emulated smp.c reads only this. */
	ipi.doorbell = mmscale_doorbell_resolve(doorbell, (int)online);
	ipi.gen = mmscale_params.smp_model ? mmscale_params.smp_model : gen;
	ipi.timeout_ms = mmscale_params.ipi_timeout_ms;
	ipi.stuck_cpu = mmscale_params.stuck_cpu;
	if (ipi_setup_config(&ipi, err, errlen) != 0)
		goto fail;
	dr->ipi_up = true;
	drain_kernel_boot(ops);
	dr->units = alloc_percpu(u64);
	if (loop == PARTNER_VICTIM_CLOCKED) {
		dr->gap_max = alloc_percpu(u64);
		dr->refilled = alloc_percpu(int);
	}
	if (!dr->units || (loop == PARTNER_VICTIM_CLOCKED && (!dr->gap_max || !dr->refilled))) {
		mmscale_errorf(err, errlen, "per-CPU units full");
		goto fail;
	}
	if (mmscale_pool_start(&dr->pool, nr_threads, (int)online - nr_threads, partner_main, dr,
			       err, errlen) != 0)
		goto fail;
	if (loop == PARTNER_VICTIM && dr->pool.nr > 0) {
		/* The victims alone, for the throughput they lose later. */
		struct timespec ts = { 0, 50 * 1000 * 1000 };
		u64 t0 = ktime_get_ns(), u0 = victim_units_total(dr);

		nanosleep(&ts, NULL);
		dr->baseline_units_per_s = (double)(victim_units_total(dr) - u0) * 1e9 /
					   (double)(ktime_get_ns() - t0);
	}
	return 0;
fail:
	/* The setup's reason stays in err; the teardown's checks do not matter now. */
	drain_teardown(run, ignored, sizeof(ignored));
	return -1;
}

/* Stop the partners, check page conservation, free the run: -1 if the check failed. */
static int drain_teardown(struct mmscale_run *run, char *err, size_t errlen)
{
	struct drain_run *dr = run->data;
	int status = 0;

	if (!dr)
		return 0;
	if (dr->pool.partners) {
		ipi_stop_idle(&dr->pool.stop);	/* idle partners sleep until rung */
		mmscale_pool_stop(&dr->pool);
	}
	if (dr->drain_up && pages_conserved(0, err, errlen) != 0)
		status = -1;
	if (dr->world_up && dr->world->conserved(err, errlen) != 0)
		status = -1;
	mmscale_holds_set_mode(MMSCALE_HOLDS_OFF);
	free_percpu(dr->units);
	free_percpu(dr->gap_max);
	free_percpu(dr->refilled);
	free(dr->drain_ns);
	if (dr->ipi_up)
		ipi_teardown();
	if (dr->drain_up)
		drain_mm_teardown();
	if (dr->world_up)
		dr->world->teardown();
	if (dr->mm_up)
		mm_machine_teardown();
	drain_kernel_boot(NULL);
	free(dr);
	run->data = NULL;
	return status;
}

static bool ipi_failed(struct mmscale_state *st)
{
	if (!ipi_error()[0])
		return false;
	mmscale_skip_with_error(st, ipi_error());
	return true;
}

/* drain/empty: drain_all_pages on a machine whose lists are all empty. */
static int empty_setup(struct mmscale_run *run, int nr_threads, char *err, size_t errlen)
{
	const struct drain_variant_ops *ops = drain_row(run)->ops;

	/* The variant's kernel's kernel/smp.c, unless --smp-model forces one. */
	return drain_setup_machine(run, nr_threads, mmscale_params.ipi,
				   ops, ops->smp, PARTNER_IDLE, err, errlen);
}

static void empty_body(struct mmscale_state *st, struct mmscale_run *run)
{
	void (*drain_all_pages)(void) = drain_row(run)->ops->drain_all_pages;

	ipi_cpu_online();
	cpu_set_activity("calling drain_all_pages");
	while (mmscale_keep_running(st)) {
		drain_all_pages();
		if (ipi_failed(st))
			break;
	}
	ipi_cpu_offline();
}

static void empty_one_op(struct mmscale_run *run)
{
	ipi_cpu_online();
	drain_row(run)->ops->drain_all_pages();
	ipi_cpu_offline();
}

void drain_claim_counts(const struct drain_variant_ops *ops, const struct smp_generation *gen,
			const struct drain_shape *m, struct mmscale_claim *out)
{
	struct drain_cost cost = { 0 };
	struct smp_claim call = { 0 };

	ops->claim(m, &cost);
	gen->claim(cost.call_targets, &call);
	out->which = MMSCALE_COUNT_BIT(MMSCALE_LOCK_ACQUIRES) | MMSCALE_COUNT_BIT(MMSCALE_IPIS_SENT) |
		     MMSCALE_COUNT_BIT(MMSCALE_IPIS_HANDLED) |
		     MMSCALE_COUNT_BIT(MMSCALE_CALL_FUNCTION_LOCKS) |
		     MMSCALE_COUNT_BIT(MMSCALE_LOCKED_OPS);
	out->v[MMSCALE_LOCK_ACQUIRES] = cost.locks;
	out->v[MMSCALE_LOCKED_OPS] = cost.locked_ops + call.locked_ops;
	out->v[MMSCALE_IPIS_SENT] = call.ipis;
	out->v[MMSCALE_IPIS_HANDLED] = call.ipis;
	out->v[MMSCALE_CALL_FUNCTION_LOCKS] = call.call_function_locks;
	out->which |= MMSCALE_COUNT_BIT(MMSCALE_ZONE_LOCKS);
	out->v[MMSCALE_ZONE_LOCKS] = cost.zone_locks;
}

/*
 * The row's claim for one drain on C = args[0] CPUs, every list empty, on
 * the run's generation. One caller only: concurrent drains overlap.
 */
static bool empty_claim(const struct mmscale_run *run, struct mmscale_claim *out)
{
	const struct drain_variant_ops *ops = drain_row(run)->ops;
	struct drain_shape m = {
		.cpus = (unsigned int)run->args[0],
		.zones = drain_populated_zones(ops),
	};

	if (run->nr_threads != 1)
		return false;
	drain_claim_counts(ops, ipi_generation(), &m, out);
	return true;
}

/*
 * drain/swap_cpuset: the cpuset (the GB threads) allocates and frees pages
 * through its pcp lists, holding a ring of HELD pages, and calls
 * drain_all_pages every D allocations as direct reclaim does under
 * swapping. One run is a fixed pass of PASS allocations per cpuset CPU;
 * in the counting build (mmscale --transfers) a pass of COUNTED_DRAINS
 * drains' allocations: there an ipi-all drain on the 1024-CPU stand-in
 * takes some 30 s (1023 targets, each a thread waiting for one of this
 * machine's PUs), so PASS's 256 drains would take two hours, and transfers
 * are counted per drain.
 */
#define HELD	64
#define PASS	65536
#define MAX_DRAINS (PASS / 16)
#define COUNTED_DRAINS	4

static int swap_setup(struct mmscale_run *run, int nr_threads, char *err, size_t errlen)
{
	const struct drain_variant_ops *ops = drain_row(run)->ops;
	struct drain_run *dr;
	char ignored[8];

	if (drain_setup_machine(run, nr_threads, mmscale_params.ipi, ops,
				ops->smp, run->args[1] ? PARTNER_VICTIM : PARTNER_IDLE,
				err, errlen) != 0)
		return -1;
	dr = run->data;
	dr->leak_page = mmscale_params.leak_page;
	dr->drain_ns = calloc((size_t)nr_threads * MAX_DRAINS, sizeof(*dr->drain_ns));
	if (!dr->drain_ns) {
		drain_teardown(run, ignored, sizeof(ignored));
		return mmscale_errorf(err, errlen, "out of memory");
	}
	return 0;
}

static int64_t swap_iterations(const struct mmscale_run *run)
{
	static bool said;

	if (!mmscale_transfers_counting() || run->args[0] * COUNTED_DRAINS >= PASS)
		return PASS;
	if (!said)
		mmscale_notice("drain/swap_cpuset: the counting build runs a pass of %d drains "
			       "(%lld allocations), not %d allocations", COUNTED_DRAINS,
			       (long long)(run->args[0] * COUNTED_DRAINS), PASS);
	said = true;
	return run->args[0] * COUNTED_DRAINS;
}

static int cmp_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return (x > y) - (x < y);
}

static void swap_body(struct mmscale_state *st, struct mmscale_run *run)
{
	struct drain_run *dr = run->data;
	int64_t n = mmscale_max_iterations(st);
	int every = (int)run->args[0];
	void *held[HELD] = { NULL };	/* pages of the variant's kernel: opaque here */
	u64 *lat = dr->drain_ns + (size_t)mmscale_thread_index(st) * MAX_DRAINS;
	void (*drain_all_pages)(void) = drain_row(run)->ops->drain_all_pages;
	u64 t0 = 0, u0 = 0, pass_ns = 0, lat_sum = 0;
	long drains = 0, drains_told = 0;
	bool failed = false;

	ipi_cpu_online();
	cpu_set_activity("cpuset: allocating and freeing");
	while (mmscale_keep_running_batch(st, n)) {
		unsigned int spins = 0;

		t0 = ktime_get_ns();
		/* Only CPU 0 reports the victims' loss: the others leave their lines alone. */
		if (mmscale_thread_index(st) == 0)
			u0 = victim_units_total(dr);
		for (int64_t i = 0; i < n && !failed; i++) {
			void **slot = &held[i % HELD];

			if (*slot)
				drain_free_local(*slot);
			*slot = drain_alloc_local();
			if (!*slot) {
				/* Below the watermark the kernel would reclaim: not emulated. */
				mmscale_skip_with_error(st, "an allocation failed: the zone's pool or "
							"watermark ran out (reclaim is not emulated)");
				failed = true;
				break;
			}
			if ((i + 1) % every == 0) {
				u64 d0 = ktime_get_ns(), d;

				drain_all_pages();
				d = ktime_get_ns() - d0;
				lat_sum += d;
				/* Percentiles over the first MAX_DRAINS; the mean over all. */
				if (drains < MAX_DRAINS)
					lat[drains] = d;
				drains++;
				failed = ipi_failed(st);
			}
			ipi_interrupt_point();
		}
		/* Give the pages back, then keep answering until the whole cpuset is done. */
		if (dr->leak_page && mmscale_thread_index(st) == 0)
			held[0] = NULL;	/* --test-leak-page: lose one, for the check to find */
		for (int k = 0; k < HELD; k++)
			if (held[k]) {
				drain_free_local(held[k]);
				held[k] = NULL;
			}
		pass_ns = ktime_get_ns() - t0;
		/* Before saying done: thread 0's figures per drain divide by the total. */
		atomic_fetch_add_explicit(&dr->drains, drains - drains_told, memory_order_relaxed);
		drains_told = drains;
		/*
		 * Keep answering calls until the whole cpuset is done: no thread
		 * leaves while another may still drain (the harness closes the
		 * machine-wide window once they all have).
		 */
		atomic_fetch_add(&dr->done, 1);
		cpu_set_activity("cpuset: done, answering calls");
		while (atomic_load(&dr->done) < mmscale_threads(st) && !failed) {
			ipi_interrupt_point();
			spin_wait_step(&spins);
		}
	}
	if (mmscale_thread_index(st) == 0 && !failed) {
		u64 units = victim_units_total(dr) - u0;
		double secs = (double)(ktime_get_ns() - t0) * 1e-9;

		if (dr->baseline_units_per_s > 0)
			mmscale_counter_set(st, "victim_lost_pct",
					    100.0 * (1.0 - (double)units / secs /
						     dr->baseline_units_per_s), 0);
	}
	if (!failed) {
		if (drains > 0)
			mmscale_counter_set(st, "drain_us_mean", (double)lat_sum / (double)drains / 1e3,
					    MMSCALE_COUNTER_AVG_THREADS);
		if (drains > 0) {
			long kept = min(drains, (long)MAX_DRAINS);

			qsort(lat, (size_t)kept, sizeof(*lat), cmp_u64);
			mmscale_counter_set(st, "drain_us_p50", (double)lat[kept / 2] / 1e3,
					    MMSCALE_COUNTER_AVG_THREADS);
			mmscale_counter_set(st, "drain_us_p99", (double)lat[kept * 99 / 100] / 1e3,
					    MMSCALE_COUNTER_AVG_THREADS);
			mmscale_counter_set(st, "drain_us_max", (double)lat[kept - 1] / 1e3,
					    MMSCALE_COUNTER_AVG_THREADS);
		}
		mmscale_counter_set(st, "pass_ms", (double)pass_ns / 1e6, MMSCALE_COUNTER_AVG_THREADS);
	}
	ipi_cpu_offline();
}

/* The machine-wide counts per drain, from every cpuset CPU's drains. */
static void swap_machine_figures(struct mmscale_state *st, struct mmscale_run *run,
				 const struct mmscale_counts *machine)
{
	struct drain_run *dr = run->data;
	long total = atomic_load_explicit(&dr->drains, memory_order_relaxed);

	if (total <= 0)
		return;
	mmscale_counter_set(st, "ipis_per_drain", (double)machine->v[MMSCALE_IPIS_SENT] / (double)total, 0);
	mmscale_counter_set(st, "locks_per_drain",
			    (double)machine->v[MMSCALE_LOCK_ACQUIRES] / (double)total, 0);
	mmscale_counter_set(st, "locked_ops_per_drain",
			    (double)machine->v[MMSCALE_LOCKED_OPS] / (double)total, 0);
	mmscale_counter_set(st, "pages_per_drain",
			    (double)machine->v[MMSCALE_PAGES_DRAINED] / (double)total, 0);
	mmscale_counter_set(st, "drains_skipped", (double)machine->v[MMSCALE_DRAINS_SKIPPED], 0);
}

/*
 * drain/full: drain_all_pages with every online CPU's local list full
 * (args[0] percent of its kernel's high: drain_list_high), the other CPUs
 * idle, or (args[1]) running a clocked victim loop. Before every drain
 * each CPU fills its own list, as its own frees would leave it, so that
 * its lines and pages are in its own cache, not the caller's; the
 * refill's calls and locks are taken out of the counts
 * (mmscale_counts_exclude) and its time out of the timing. Beside the
 * exact counts per drain, the hold accounting (mmscale/opcount.h): the
 * pages freed under the longest zone->lock hold and in the longest
 * section with interrupts off, on any CPU, checked against the row's
 * claim after every drain; with victims, also clocked, with the longest
 * gap a victim saw between two work units, per drain.
 */
static void fill_mine(void *arg)
{
	struct drain_run *dr = arg;
	unsigned int none = 0;

	if (drain_fill_local(dr->fill_pages) != dr->fill_pages)
		atomic_compare_exchange_strong(&dr->fill_short_cpu, &none,
					       (unsigned int)smp_processor_id() + 1);
	if (dr->refilled)
		__atomic_store_n(this_cpu_ptr(dr->refilled), 1, __ATOMIC_RELAXED);
}

/* Every online CPU fills its own list; the calls' counts are not the drain's. */
static int full_refill(struct drain_run *dr, char *err, size_t errlen)
{
	struct mmscale_counts before, after;
	unsigned int short_cpu;
	int ret;

	/* The counting build's lines and pairs leave the refill out too (a no-op otherwise). */
	mmscale_transfers_pause(true);
	mmscale_counts_sum_all(&before);
	ret = smp_call_function(fill_mine, dr, 1);
	fill_mine(dr);
	mmscale_counts_sum_all(&after);
	mmscale_counts_exclude(&before, &after);
	mmscale_transfers_pause(false);
	if (ret != 0 || ipi_error()[0])
		return mmscale_errorf(err, errlen, "refilling the lists: %s",
				      ipi_error()[0] ? ipi_error() : "the call failed");
	short_cpu = atomic_exchange(&dr->fill_short_cpu, 0);
	if (short_cpu)
		return mmscale_errorf(err, errlen, "CPU %u's list took fewer than %lu pages: its "
				      "zone's pool ran out", short_cpu - 1, dr->fill_pages);
	return 0;
}

/* The first fill: the lists the claim is for, from the machine as it is then. */
static int full_first_fill(struct drain_run *dr, const struct drain_variant_ops *ops,
			   char *err, size_t errlen)
{
	if (full_refill(dr, err, errlen) != 0)
		return -1;
	drain_shape_now(&dr->full_shape);
	ops->claim(&dr->full_shape, &dr->full_cost);
	return 0;
}

/*
 * A clocked victim has finished a work unit since now, and has seen the
 * refill mark if one was set: the gap that held the last drain (or
 * refill) is closed and in its gap_max (or dropped).
 */
static void victims_settle(struct drain_run *dr)
{
	for (unsigned int cpu = 1; cpu < dr->online; cpu++) {
		u64 u0 = READ_ONCE(*per_cpu_ptr(dr->units, cpu));
		unsigned int spins = 0;

		while (READ_ONCE(*per_cpu_ptr(dr->units, cpu)) == u0 ||
		       __atomic_load_n(per_cpu_ptr(dr->refilled, cpu), __ATOMIC_RELAXED))
			spin_wait_step(&spins);
	}
}

/* The largest gap any victim saw since the last take, each victim's cleared. */
static u64 victims_gap_take(struct drain_run *dr)
{
	u64 gap = 0;

	for (unsigned int cpu = 1; cpu < dr->online; cpu++)
		gap = max(gap, __atomic_exchange_n(per_cpu_ptr(dr->gap_max, cpu), 0,
						   __ATOMIC_RELAXED));
	return gap;
}

/*
 * Clocked victims each need a PU of their own: on a plan whose emulated
 * CPUs outnumber its PUs (a stand-in) every drain would wait for the
 * scheduler to run each victim once, and their gaps would be time slices.
 */
static bool full_args_available(const struct mmscale_plan *p, const int64_t *args, char *why,
				size_t whylen)
{
	if (!args[1] || !mmscale_plan_oversubscribed(p, p->nr_cpus))
		return true;
	snprintf(why, whylen, "the victims:1 rows need a PU per emulated CPU, and %d CPUs on "
		 "%d PUs are oversubscribed (victims:0 runs)", p->nr_cpus,
		 mmscale_topology_stand_in(p->topo) ? p->topo->nr_real_pus : p->nr_pus_used);
	return false;
}

static int full_setup(struct mmscale_run *run, int nr_threads, char *err, size_t errlen)
{
	const struct drain_variant_ops *ops = drain_row(run)->ops;
	bool clocked = run->args[1] != 0;
	unsigned long high = ULONG_MAX;
	struct drain_run *dr;
	unsigned int cpu;
	char ignored[8];

	if (drain_setup_machine(run, nr_threads, mmscale_params.ipi, ops, ops->smp,
				clocked ? PARTNER_VICTIM_CLOCKED : PARTNER_IDLE, err, errlen) != 0)
		return -1;
	dr = run->data;
	dr->drain_ns = calloc(3 * MAX_DRAINS, sizeof(*dr->drain_ns));
	if (!dr->drain_ns) {
		drain_teardown(run, ignored, sizeof(ignored));
		return mmscale_errorf(err, errlen, "out of memory");
	}
	/* Every list the same: the least high of any CPU's. */
	for_each_online_cpu(cpu)
		high = min(high, drain_list_high(cpu));
	dr->fill_pages = high * (unsigned long)run->args[0] / 100;
	mmscale_holds_set_mode(clocked ? MMSCALE_HOLDS_CLOCKED : MMSCALE_HOLDS_PAGES);
	return 0;
}

/* After a fill: its holds, sections and victim gaps are not the next drain's. */
static void full_quiesce(struct drain_run *dr)
{
	u64 m[MMSCALE_NR_MAXIMA];

	if (dr->loop == PARTNER_VICTIM_CLOCKED) {
		victims_settle(dr);
		victims_gap_take(dr);
	}
	mmscale_maxima_collect_all(m);
}

/* The figures of the drain just made (timing paused), then the lists full again. */
static int full_between(struct drain_run *dr, long drain, u64 seen[MMSCALE_NR_MAXIMA],
			char *err, size_t errlen)
{
	u64 m[MMSCALE_NR_MAXIMA];
	bool clocked = dr->loop == PARTNER_VICTIM_CLOCKED;

	if (clocked)
		victims_settle(dr);
	mmscale_maxima_collect_all(m);
	for (int i = 0; i < MMSCALE_NR_MAXIMA; i++)
		seen[i] = max(seen[i], m[i]);
	if (!mmscale_params.claims_report &&
	    (m[MMSCALE_MAX_ZONE_HOLD_PAGES] != dr->full_cost.zone_hold_pages_max ||
	     m[MMSCALE_MAX_IRQOFF_PAGES] != dr->full_cost.irqoff_pages_max))
		return mmscale_errorf(err, errlen, "drain %ld: %llu pages under the longest "
				      "zone->lock hold and %llu with interrupts off, the row "
				      "claims %lu and %lu", drain + 1,
				      (unsigned long long)m[MMSCALE_MAX_ZONE_HOLD_PAGES],
				      (unsigned long long)m[MMSCALE_MAX_IRQOFF_PAGES],
				      dr->full_cost.zone_hold_pages_max,
				      dr->full_cost.irqoff_pages_max);
	if (clocked && drain < MAX_DRAINS) {
		dr->drain_ns[drain] = m[MMSCALE_MAX_ZONE_HOLD_NS];
		dr->drain_ns[MAX_DRAINS + drain] = m[MMSCALE_MAX_IRQOFF_NS];
		dr->drain_ns[2 * MAX_DRAINS + drain] = victims_gap_take(dr);
	}
	if (full_refill(dr, err, errlen) != 0)
		return -1;
	full_quiesce(dr);
	return 0;
}

/* p99 and max (us) of the first kept of a drain-indexed array, as name_p99/_max. */
static void full_publish_us(struct mmscale_state *st, const char *name, u64 *ns, long kept)
{
	char key[64];

	qsort(ns, (size_t)kept, sizeof(*ns), cmp_u64);
	snprintf(key, sizeof(key), "%s_p99", name);
	mmscale_counter_set(st, key, (double)ns[kept * 99 / 100] / 1e3, 0);
	snprintf(key, sizeof(key), "%s_max", name);
	mmscale_counter_set(st, key, (double)ns[kept - 1] / 1e3, 0);
}

static void full_body(struct mmscale_state *st, struct mmscale_run *run)
{
	struct drain_run *dr = run->data;
	const struct drain_variant_ops *ops = drain_row(run)->ops;
	u64 seen[MMSCALE_NR_MAXIMA] = { 0 };
	long drains = 0;
	char err[256];

	ipi_cpu_online();
	cpu_set_activity("drain/full: filling the lists");
	if (!dr->full_shape.cpus && full_first_fill(dr, ops, err, sizeof(err)) != 0)
		mmscale_skip_with_error(st, err);
	else
		full_quiesce(dr);	/* and whatever the CPUs did since setup */
	cpu_set_activity("calling drain_all_pages on full lists");
	while (mmscale_keep_running(st)) {
		ops->drain_all_pages();
		mmscale_pause_timing(st);
		if (ipi_failed(st))
			break;
		if (full_between(dr, drains, seen, err, sizeof(err)) != 0) {
			mmscale_skip_with_error(st, err);
			break;
		}
		drains++;
		mmscale_resume_timing(st);
	}
	if (!mmscale_error_occurred(st) && drains > 0) {
		long kept = min(drains, (long)MAX_DRAINS);

		mmscale_counter_set(st, "list_pages", (double)dr->fill_pages, 0);
		mmscale_counter_set(st, "zone_hold_pages_max", (double)seen[MMSCALE_MAX_ZONE_HOLD_PAGES], 0);
		mmscale_counter_set(st, "irqoff_pages_max", (double)seen[MMSCALE_MAX_IRQOFF_PAGES], 0);
		if (dr->loop == PARTNER_VICTIM_CLOCKED) {
			full_publish_us(st, "zone_hold_us", dr->drain_ns, kept);
			full_publish_us(st, "irqoff_us", dr->drain_ns + MAX_DRAINS, kept);
			full_publish_us(st, "victim_gap_us", dr->drain_ns + 2 * MAX_DRAINS, kept);
		}
	}
	ipi_cpu_offline();
}

/* One drain of the full lists, then the lists full again (test_claims: the claim after it). */
static void full_one_op(struct mmscale_run *run)
{
	struct drain_run *dr = run->data;
	const struct drain_variant_ops *ops = drain_row(run)->ops;
	char err[256];

	ipi_cpu_online();
	if (!dr->full_shape.cpus && full_first_fill(dr, ops, err, sizeof(err)) != 0)
		fprintf(stderr, "drain/full: %s\n", err);
	ops->drain_all_pages();
	if (full_refill(dr, err, sizeof(err)) != 0)
		fprintf(stderr, "drain/full: %s\n", err);
	ipi_cpu_offline();
}

/*
 * The row's claim for one drain of the lists as the first fill left them
 * (its locked ops are left out: the frees' vmstat folds add theirs), and
 * the pages it drains: every online CPU's full list, worked out from the
 * fill asked for, so that a list left short fails the claim.
 */
static bool full_claim(const struct mmscale_run *run, struct mmscale_claim *out)
{
	const struct drain_run *dr = run->data;

	if (!dr || !dr->full_shape.cpus)
		return false;
	drain_claim_counts(drain_row(run)->ops, ipi_generation(), &dr->full_shape, out);
	out->which &= ~MMSCALE_COUNT_BIT(MMSCALE_LOCKED_OPS);
	out->which |= MMSCALE_COUNT_BIT(MMSCALE_PAGES_DRAINED);
	out->v[MMSCALE_PAGES_DRAINED] = (u64)dr->online * dr->fill_pages;
	return true;
}

/* ipi/: one call to CPU 1, or to every other CPU, that does nothing. */
static void ipi_nop(void *info)
{
	(void)info;
}

static int ipi_setup_case(struct mmscale_run *run, int nr_threads, char *err, size_t errlen)
{
	const struct doorbell_ops *doorbell = ipi_row_doorbell(run);

	/*
	 * A doorbell that interrupts (a signal) must reach a busy CPU; the
	 * others find an idle one. Today's kernel/smp.c (per-CPU queues),
	 * unless --smp-model forces one.
	 */
	return drain_setup_machine(run, nr_threads, doorbell, &drain_ops_count_check, &smp_llist,
				   mmscale_doorbell_of(doorbell)->interrupts ? PARTNER_BUSY : PARTNER_IDLE,
				   err, errlen);
}

/* A doorbell this machine lacks (kernel, where membarrier is refused): the spin doorbell ran. */
static void label_ipi_fallback(struct mmscale_state *st, const struct mmscale_run *run)
{
	if (ipi_doorbell() != ipi_row_doorbell(run))
		mmscale_set_label(st, ipi_row_doorbell(run) == &doorbell_kernel ?
				  "no membarrier IPI here: the spin doorbell ran" :
				  "this doorbell is not available here: the spin doorbell ran");
}

static void unicast_body(struct mmscale_state *st, struct mmscale_run *run)
{
	int target_pu = mmscale_machine_plan()->cpu[1].run_pu;
	long long irqs0 = mmscale_function_call_irqs(target_pu), irqs1;

	ipi_cpu_online();
	while (mmscale_keep_running(st)) {
		smp_call_function_single(1, ipi_nop, NULL, 1);
		if (ipi_failed(st))
			break;
	}
	irqs1 = mmscale_function_call_irqs(target_pu);
	/* Real interrupts the target's PU took: 1 per call only with --ipi=kernel. */
	if (irqs0 >= 0 && irqs1 >= 0)
		mmscale_counter_set(st, "function_call_irqs", (double)(irqs1 - irqs0),
				    MMSCALE_COUNTER_AVG_ITERATIONS);
	label_ipi_fallback(st, run);
	ipi_cpu_offline();
}

static void broadcast_body(struct mmscale_state *st, struct mmscale_run *run)
{
	ipi_cpu_online();
	while (mmscale_keep_running(st)) {
		smp_call_function(ipi_nop, NULL, 1);
		if (ipi_failed(st))
			break;
	}
	label_ipi_fallback(st, run);
	ipi_cpu_offline();
}

/* The drain_all_pages variants: one row each in drain_variants.h. */
#define DRAIN_ROW(ops_symbol, name, summary, source) { { name, summary, source }, &ops_symbol },
const struct drain_variant drain_variants[] = { DRAIN_VARIANTS(DRAIN_ROW) };
#undef DRAIN_ROW
const size_t drain_nr_variants = ARRAY_SIZE(drain_variants);

/* The ipi/ cases' variants: every doorbell (mmscale/doorbell.h). */
#define IPI_ROW(doorbell, name, summary, source, ...) { { name, summary, source }, &doorbell },
static const struct ipi_variant ipi_variants[] = { DOORBELLS(IPI_ROW) };
#undef IPI_ROW

static const int64_t cpus_args[][MMSCALE_MAX_ARGS] = { MMSCALE_CPU_COUNT_ROWS };
static const char *const cpus_arg_names[] = { "cpus" };

static const int64_t swap_args[][MMSCALE_MAX_ARGS] = { { 256, 1 }, { 256, 0 } };
static const int64_t full_args[][MMSCALE_MAX_ARGS] = { { 100, 0 }, { 100, 1 } };
static const char *const full_arg_names[] = { "fill_pct", "victims" };
static const char *const swap_arg_names[] = { "drain_every", "victims" };

/* The tables of the drain variants (scripts/quick_tables.py), in order. */
static const struct mmscale_metric empty_metrics[] = {
	{ "time", "ns per operation (lower is better)", false },
	{ "lock_acquires", "spin_lock acquisitions (zone->lock; remote: pcp->lock too) per "
	  "operation, machine-wide (exact)", true },
	{ "ipis_sent", "IPIs sent per operation (exact)", true },
	{ "call_function_locks", "call_function.lock acquisitions per operation (exact; "
	  "2.6.32-3.4 smp.c)", true },
	{ "locked_ops", "locked read-modify-writes per operation, machine-wide (exact: lock "
	  "acquisitions, bitops, atomics, llist)", true },
};
static const struct mmscale_metric swap_metrics[] = {
	{ "time", "ns per cpuset allocation over a fixed pass (lower is better)", false },
	{ "drain_us_mean", "drain_all_pages latency, mean us", false },
	{ "drain_us_p99", "drain_all_pages latency, p99 us", false },
	{ "victim_lost_pct", "victim throughput lost, % (lower is better)", false },
	{ "ipis_per_drain", "IPIs per drain (exact)", true },
	{ "locked_ops_per_drain", "locked read-modify-writes per drain, machine-wide, the "
	  "cpuset's allocations and frees included (exact)", true },
	{ "locks_per_drain", "spin_lock acquisitions per drain (zone->lock; remote: every "
	  "allocation's and free's pcp->lock too), machine-wide (exact)", true },
};

static const struct mmscale_metric full_metrics[] = {
	{ "time", "ns per drain of full lists (lower is better)", false },
	{ "zone_locks", "zone->lock acquisitions per drain, machine-wide (exact)", true },
	{ "lock_acquires", "spin_lock acquisitions per drain: zone->lock, and pcp->lock where "
	  "the kernel has one (exact)", true },
	{ "zone_hold_pages_max", "pages freed under the longest zone->lock hold of a drain "
	  "(exact: every drain alike)", true },
	{ "irqoff_pages_max", "pages freed in the longest interrupts-off section of a drain, "
	  "any CPU (exact)", true },
	{ "zone_hold_us_p99", "the longest zone->lock hold of a drain, p99 over drains, us "
	  "(victims:1, clocked)", false },
	{ "irqoff_us_p99", "the longest interrupts-off section of a drain, p99 over drains, us "
	  "(victims:1, clocked)", false },
	{ "victim_gap_us_p99", "a victim's longest gap between two work units in a drain, p99 "
	  "over drains, us (victims:1)", false },
	{ "ipis_sent", "IPIs sent per drain (exact)", true },
};

#define DRAIN_COUNTS (MMSCALE_COUNT_BIT(MMSCALE_IPIS_SENT) | MMSCALE_COUNT_BIT(MMSCALE_IPIS_HANDLED) | \
		      MMSCALE_COUNT_BIT(MMSCALE_LOCK_ACQUIRES) | MMSCALE_COUNT_BIT(MMSCALE_PAGES_MOVED) | \
		      MMSCALE_COUNT_BIT(MMSCALE_CALL_FUNCTION_LOCKS) | MMSCALE_COUNT_BIT(MMSCALE_LOCKED_OPS))

#define IPI_COUNTS (MMSCALE_COUNT_BIT(MMSCALE_IPIS_SENT) | MMSCALE_COUNT_BIT(MMSCALE_IPIS_HANDLED) | \
		    MMSCALE_COUNT_BIT(MMSCALE_LOCKED_OPS))

/*
 * A drain/ case: its setup, body, thread kind and counts; every one tears
 * down alike and counts the whole machine (the IPI targets' work too).
 */
#define DRAIN_RUN(setup_fn, body_fn, kind, which)				\
	.setup = (setup_fn), .body = (body_fn), .threads = (kind), .counts = (which), \
	.teardown = drain_teardown, .counts_machine_wide = true

static const struct mmscale_case drain_cases[] = {
	{
		.name = "drain/empty",
		.summary = "drain_all_pages with every pcp list empty: the pure overhead, "
			   "one caller, the other CPUs idle",
		DRAIN_RUN(empty_setup, empty_body, MMSCALE_THREADS_ONE, DRAIN_COUNTS),
		MMSCALE_CLAIM(empty_claim, empty_one_op),
		MMSCALE_VARIANT_ROWS(drain_variants), MMSCALE_METRICS(empty_metrics),
		MMSCALE_ARGS(cpus_args, cpus_arg_names),
		.cpus = MMSCALE_CPUS_ARG0_ONLINE,
	},
	{
		.name = "drain/swap_cpuset",
		.summary = "the cpuset allocates and frees, draining every D allocations; "
			   "the other CPUs run a victim loop (or idle)",
		DRAIN_RUN(swap_setup, swap_body, MMSCALE_THREADS_SWEEP, DRAIN_COUNTS),
		MMSCALE_VARIANT_ROWS(drain_variants), MMSCALE_METRICS(swap_metrics),
		MMSCALE_ARGS(swap_args, swap_arg_names),
		.partner_cpus = 1,
		.cpus = MMSCALE_CPUS_WHOLE_PLAN,
		.iterations = swap_iterations,
		.machine_figures = swap_machine_figures,
	},
	{
		.name = "drain/full",
		.summary = "drain_all_pages with every CPU's list full (each filled by its own CPU): "
			   "the holds and interrupts-off sections a drain makes, the other CPUs idle "
			   "or a clocked victim loop",
		DRAIN_RUN(full_setup, full_body, MMSCALE_THREADS_ONE,
			  DRAIN_COUNTS | MMSCALE_COUNT_BIT(MMSCALE_ZONE_LOCKS) |
			  MMSCALE_COUNT_BIT(MMSCALE_PAGES_DRAINED)),
		MMSCALE_CLAIM(full_claim, full_one_op),
		MMSCALE_VARIANT_ROWS(drain_variants), MMSCALE_METRICS(full_metrics),
		MMSCALE_ARGS(full_args, full_arg_names),
		.args_available = full_args_available,
		.cpus = MMSCALE_CPUS_WHOLE_PLAN,
	},
	{
		.name = "ipi/unicast",
		.summary = "smp_call_function_single to CPU 1, wait: the emulated IPI round trip",
		DRAIN_RUN(ipi_setup_case, unicast_body, MMSCALE_THREADS_PAIR, IPI_COUNTS),
		MMSCALE_VARIANT_ROWS(ipi_variants),
		.partner_cpus = 1,
		.cpus = MMSCALE_CPUS_THREADS_ONLINE,
	},
	{
		.name = "ipi/broadcast",
		.summary = "smp_call_function to every other online CPU, wait",
		DRAIN_RUN(ipi_setup_case, broadcast_body, MMSCALE_THREADS_ONE, IPI_COUNTS),
		MMSCALE_VARIANT_ROWS(ipi_variants),
		MMSCALE_ARGS(cpus_args, cpus_arg_names),
		.cpus = MMSCALE_CPUS_ARG0_ONLINE,
	},
};

const struct mmscale_case_table mmscale_drain_table = MMSCALE_CASE_TABLE("drain", drain_cases);

