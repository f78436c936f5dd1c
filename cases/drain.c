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
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mmscale/case.h"
#include "mmscale/cpu.h"
#include "mmscale/doorbell.h"
#include "mmscale/kernel/cpumask.h"
#include "mmscale/kernel/timekeeping.h"
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
	if (!dr->units) {
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
	free_percpu(dr->units);
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
 * swapping. One run is a fixed pass of PASS allocations per cpuset CPU.
 */
#define HELD	64
#define PASS	65536
#define MAX_DRAINS (PASS / 16)

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
	(void)run;
	return PASS;
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

