// SPDX-License-Identifier: GPL-2.0
/*
 * The counter cases: what repeated reads of global counters cost next to
 * cached locals (vmstat/global_read), what updates cost and how often they
 * fold (vmstat/mod), and approximate vs exact percpu_counter reads
 * (percpu/read_vs_sum); and what the counter cases share (counters.h).
 * The writeback cases are cases/writeback.c.
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mmscale/kernel/cpumask.h"
#include "mmscale/notice.h"
#include "mmscale/params.h"

#include "counters.h"
#include "counters_6_18.h"
#include "mmscale/linux-2.6/mm/page_alloc.h"
#include "mmscale/mm/numa_stat.h"
#include "mmscale/linux-6.18/lib/percpu_counter.h"
#include "../counters/iol_bdp.h"
#include "../counters/wb_machine-6.18.h"

int counters_setup(struct mmscale_run *run, int nr_threads, char *err, size_t errlen)
{
	(void)nr_threads;
	return counters_setup_numbered(run, MM_VM_STAT_2_6_31, err, errlen);
}

int counters_setup_numbered(struct mmscale_run *run, enum mm_vm_stat_numbering numbering,
			    char *err, size_t errlen)
{
	struct counters_run *cr = calloc(1, sizeof(*cr));
	struct mm_machine_config cfg;

	mmscale_mm_config(&cfg);	/* the machine's parameters, from the flags */
	cfg.vm_stat_numbering = numbering;
	if (!cr || mm_machine_setup_config(&cfg, err, errlen) != 0) {
		if (!cr)
			mmscale_errorf(err, errlen, "out of memory");
		free(cr);
		return -1;
	}
	cr->nr_threads = run->nr_threads;
	run->data = cr;
	return 0;
}

/*
 * --describe: stat_threshold=auto on the set-up machine with every planned
 * CPU online, as refresh_zone_stat_thresholds sets it for each populated
 * zone ("24 in 1 zone", "14 in 127 zones, 12 in 1 zone"). 6.18's
 * calculate_normal_threshold counts managed pages where 2.6.31 counted
 * present ones; the emulation manages every present page, so one answer
 * holds for both.
 */
static void vmstat_stat_threshold_auto(char *buf, size_t len)
{
	struct mm_machine_config cfg, was = *mm_config();
	int value[8], zones[8], distinct = 0;
	char err[256];
	struct zone *zone;
	size_t n = 0;

	mmscale_mm_config(&cfg);
	cfg.stat_threshold = MM_KNOB_AUTO;
	machine_online_cpus(nr_cpu_ids);
	if (mm_machine_setup_config(&cfg, err, sizeof(err)) != 0) {
		snprintf(buf, len, "not resolved: %s", err);
		mm_config_set_knobs(&was);
		return;
	}
	for_each_populated_zone(zone) {
		int t = zone_pcp(zone, 0)->stat_threshold, d;

		for (d = 0; d < distinct && value[d] != t; d++)
			;
		if (d == distinct && distinct == (int)ARRAY_SIZE(value))
			continue;	/* more than 8 values: the first 8 are shown */
		if (d == distinct) {
			value[distinct] = t;
			zones[distinct++] = 0;
		}
		zones[d]++;
	}
	mm_machine_teardown();
	mm_config_set_knobs(&was);	/* the run's knobs, for what sets up no zones */
	buf[0] = '\0';
	for (int d = 0; d < distinct && n < len; d++)
		n += (size_t)snprintf(buf + n, len - n, "%s%d in %d zone%s", d ? ", " : "",
				      value[d], zones[d], zones[d] == 1 ? "" : "s");
}

/*
 * --describe: percpu_counter_batch=auto, 6.18's compute_batch_value with
 * every planned CPU online (2.6.31's percpu_counter_init computes the same).
 */
static void percpu_counter_batch_auto(char *buf, size_t len)
{
	struct mm_machine_config was = *mm_config(), cfg = was;

	cfg.percpu_counter_batch = MM_KNOB_AUTO;
	mm_config_set_knobs(&cfg);
	machine_online_cpus(nr_cpu_ids);
	compute_batch_value_6_18();
	snprintf(buf, len, "%d with %u CPUs online", percpu_counter_batch_6_18, num_online_cpus());
	mm_config_set_knobs(&was);
	compute_batch_value_6_18();	/* the run's batch again */
}

/*
 * --describe: BDI_STAT_BATCH=auto, 3.2's macro (2.6.31's and 6.18's
 * WB_STAT_BATCH are the same) for nr_cpu_ids, and the formula for
 * throttle/'s world of the scenarios' CPUs (kernel/linux-3.2/world/throttle.c's tw_init).
 */
static void bdi_stat_batch_auto(char *buf, size_t len)
{
	struct mm_machine_config was = *mm_config(), cfg = was;
	unsigned int world = mmscale_params.throttle_cpus ? mmscale_params.throttle_cpus : 16;
	int batch;

	cfg.bdi_stat_batch = MM_KNOB_AUTO;
	mm_config_set_knobs(&cfg);
	batch = BDI_STAT_BATCH;
	/* No "; ": mmscale_knobs_auto separates the knobs with it. */
	snprintf(buf, len, "%d with nr_cpu_ids %u (bdi_stat_error %lu pages), %d in throttle/'s "
		 "%u-CPU world", batch, nr_cpu_ids, bdi_stat_error(NULL), 8 * (1 + ilog2(world)),
		 world);
	mm_config_set_knobs(&was);
}

/*
 * --describe: dirty_bytes at auto, as the cases write it: the 2.6.31 rows
 * (bdp/, dirty/) keep the kernel's 0; the IO-less and 6.18 benches
 * (bdp/, bdp_throttled/) write the seed's thresh=100M (iol_bdp_setup,
 * bdp_6_18_setup); throttle/'s scenarios their own (kernel/linux-3.2/world/throttle.c).
 */
static void dirty_bytes_auto(char *buf, size_t len)
{
	snprintf(buf, len, "0 in the 2.6.31 rows, %lu in the IO-less and 6.18 benches, each "
		 "scenario's thresh= in throttle/", (unsigned long)IOL_BDP_DIRTY_BYTES);
}

/*
 * --describe: ratelimit_pages at auto, writeback_set_ratelimit's formulas
 * with every planned CPU online: 2.6.31's on the emulated memory (its zones'
 * present pages, the whole --mem), 3.2's and 6.18's on the benches' 100 MiB
 * threshold; the throttle/ world's depend on each scenario's.
 */
static void ratelimit_pages_auto(char *buf, size_t len)
{
	unsigned long cpus = nr_cpu_ids ? nr_cpu_ids : 1;
	unsigned long on_memory = (unsigned long)(mm_config()->mem_bytes >> 12) / (cpus * 32);
	unsigned long on_thresh = IOL_BDP_BDI_THRESH / (cpus * 32);

	on_memory = clamp_t(unsigned long, on_memory, 16, 1024);
	snprintf(buf, len, "%lu in the 2.6.31 rows, %lu in the IO-less and 6.18 benches, each "
		 "scenario's in throttle/", on_memory, max(on_thresh, 16UL));
}

int counters_teardown(struct mmscale_run *run, char *err, size_t errlen)
{
	struct counters_run *cr = run->data;
	int status = 0;

	if (cr->writer.started) {
		atomic_store(&cr->stop, true);
		mmscale_partner_join(&cr->writer);
	}
	if (cr->world)
		writeback_world_stop_flusher(cr->world);
	if (cr->wb_6_18 && bdp_6_18_teardown(err, errlen) != 0)
		status = -1;
	if (cr->memcg_6_18 && vmstat_6_18_memcg_run_teardown(err, errlen) != 0)
		status = -1;
	if (cr->vmstat_6_18 && vmstat_6_18_run_teardown(err, errlen) != 0)
		status = -1;
	for (unsigned int cpu = 0; cpu < nr_cpu_ids; cpu++)
		refresh_cpu_vm_stats((int)cpu);
	if (cr->world && writeback_world_check(cr->world, err, errlen) != 0)
		status = -1;
	if (cr->numa_stat_4_14) {
		if (numa_stat_4_14_check(atomic_load(&cr->numa_allocs), err, errlen) != 0)
			status = -1;
		numa_stat_4_14_teardown();
	}
	if (cr->iol && iol_bdp_teardown(err, errlen) != 0)
		status = -1;
	writeback_world_destroy(cr->world);
	if (cr->fbc.counters)
		percpu_counter_destroy(&cr->fbc);
	mm_machine_teardown();
	free(cr);
	run->data = NULL;
	return status;
}

int counters_setup_failed(struct mmscale_run *run)
{
	char ignored[8];

	counters_teardown(run, ignored, sizeof(ignored));
	return -1;
}

/*
 * vmstat/global_read: a reader needs k global items, each in READ_USES
 * places (balance_dirty_pages in 2.6.31-rc8 reads NR_FILE_DIRTY three
 * times). repeated calls global_page_state() at every use; cached reads
 * each item once into a local. Items are NR_FILE_MAPPED..NR_UNSTABLE_NFS:
 * one line of the packed vm_stat[], the line dirtying CPUs fold into.
 */
#define READ_USES 3
#define READ_BATCH 16

static const enum zone_stat_item read_items[8] = {
	NR_FILE_DIRTY, NR_WRITEBACK, NR_UNSTABLE_NFS, NR_FILE_PAGES,
	NR_FILE_MAPPED, NR_SLAB_RECLAIMABLE, NR_SLAB_UNRECLAIMABLE, NR_PAGETABLE,
};

static unsigned long read_repeated(int k)
{
	unsigned long sum = 0;

	for (int use = 0; use < READ_USES; use++)
		for (int i = 0; i < k; i++)
			sum += global_page_state(read_items[i]);
	return sum;
}

static unsigned long read_cached(int k)
{
	unsigned long v[ARRAY_SIZE(read_items)], sum = 0;

	for (int i = 0; i < k; i++)
		v[i] = global_page_state(read_items[i]);
	for (int use = 0; use < READ_USES; use++)
		for (int i = 0; i < k; i++)
			sum += v[i];
	return sum;
}

static unsigned long read_repeated_6_18(int k)
{
	return vmstat_6_18_read_repeated(k, READ_USES);
}

static unsigned long read_cached_6_18(int k)
{
	return vmstat_6_18_read_cached(k, READ_USES);
}

/* vmstat/global_read's variants: how k items needed READ_USES times each are read. */
struct global_read_variant {
	struct mmscale_variant v;
	unsigned long (*read)(int k);
	unsigned int global_reads_per_item;	/* claim: global_page_state calls per item */
	bool linux_6_18;	/* 6.18's vm_node_stat[] (cases/counters_6_18.c), not 2.6.31's */
};

/* The writer CPU folds into the same line as fast as it can: every call folds. */
static void fold_writer(void *arg)
{
	struct counters_run *cr = arg;
	struct zone *zone = local_zone(smp_processor_id());
	int delta = zone_this_pcp(zone)->stat_threshold + 1;
	unsigned int spins = 0, i = 0;

	if (cr->vmstat_6_18) {
		void *node = vmstat_6_18_local_node();

		delta = vmstat_6_18_fold_delta(node);
		while (!atomic_load_explicit(&cr->stop, memory_order_relaxed)) {
			vmstat_6_18_fold_step(node, delta, i++);
			spin_wait_step(&spins);
		}
		return;
	}
	while (!atomic_load_explicit(&cr->stop, memory_order_relaxed)) {
		enum zone_stat_item item = read_items[i++ % ARRAY_SIZE(read_items)];

		__mod_zone_page_state(zone, item, delta);
		__mod_zone_page_state(zone, item, -delta);
		spin_wait_step(&spins);
	}
}

/* The 6.18 world beside the 2.6.31 one, for a 6.18 row. */
static int setup_6_18(struct mmscale_run *run, char *err, size_t errlen)
{
	struct counters_run *cr = run->data;

	if (vmstat_6_18_run_setup(err, errlen) != 0)
		return counters_setup_failed(run);
	cr->vmstat_6_18 = true;
	return 0;
}

static int global_read_setup(struct mmscale_run *run, int nr_threads, char *err, size_t errlen)
{
	struct counters_run *cr;

	if (counters_setup(run, nr_threads, err, errlen) != 0)
		return -1;
	cr = run->data;
	if (container_of(run->v, struct global_read_variant, v)->linux_6_18 &&
	    setup_6_18(run, err, errlen) != 0)
		return -1;
	if (run->args[1] > 0 &&
	    mmscale_partner_start(&cr->writer, nr_threads, fold_writer, cr, err, errlen))
		return counters_setup_failed(run);
	return 0;
}

static void global_read_body(struct mmscale_state *st, struct mmscale_run *run)
{
	unsigned long (*fn)(int k) = container_of(run->v, struct global_read_variant, v)->read;
	int k = (int)run->args[0];
	unsigned long sum = 0;

	while (mmscale_keep_running_batch(st, READ_BATCH))
		for (int i = 0; i < READ_BATCH; i++)
			sum += fn(k);
	__asm__ __volatile__("" : : "r"(sum));
}

static void global_read_one_op(struct mmscale_run *run)
{
	container_of(run->v, struct global_read_variant, v)->read((int)run->args[0]);
}

/* Each reader's own reads: READ_USES x k re-reading, k caching, whatever the writers do. */
static bool global_read_claim(const struct mmscale_run *run, struct mmscale_claim *out)
{
	const struct global_read_variant *row = container_of(run->v, struct global_read_variant, v);

	out->which = MMSCALE_COUNT_BIT(MMSCALE_GLOBAL_READS);
	out->v[MMSCALE_GLOBAL_READS] = (u64)row->global_reads_per_item * (u64)run->args[0];
	return true;
}

/* vmstat/mod: one counter update per call on the CPU's own zone. */
#define MOD_BATCH 64

/* where: the CPU's zone (2.6.31's struct zone *). */
static void mod_inc(void *where)
{
	__inc_zone_state(where, NR_FILE_DIRTY);
}

static void mod_mod(void *where)
{
	__mod_zone_page_state(where, NR_FILE_DIRTY, 1);
}

/*
 * vmstat/mod's variants: the update function, and its kernel's vmstat
 * work. Its argument is what the update is made on, looked up once per
 * run, not per call: the CPU's zone for 2.6.31, its node for 6.18
 * (vmstat_6_18_local_node: a type this file cannot name).
 */
struct mod_variant {
	struct mmscale_variant v;
	void (*mod)(void *where);
	bool linux_6_18;
	/* 6.18 with CONFIG_MEMCG: the update goes through a folio of the task's memcg */
	bool memcg;
	/* claim: passing the threshold folds half of it more (the inc forms) */
	bool overstep;
	/*
	 * claim: the s8 delta is incremented in place before the compare
	 * (2.6.31's (*p)++), so at a threshold of 127 it wraps to -128 and
	 * never passes it; the other forms add in a long.
	 */
	bool s8_increment;
};

/*
 * What the row's update is made on: the calling CPU's zone (2.6.31), node
 * (6.18), or its node's folio (6.18 with memcg).
 */
static void *mod_where(const struct mod_variant *row)
{
	if (row->memcg)
		return vmstat_6_18_local_folio();
	return row->linux_6_18 ? vmstat_6_18_local_node() : (void *)local_zone(smp_processor_id());
}

static int mod_setup(struct mmscale_run *run, int nr_threads, char *err, size_t errlen)
{
	if (counters_setup(run, nr_threads, err, errlen) != 0)
		return -1;
	if (!container_of(run->v, struct mod_variant, v)->linux_6_18)
		return 0;
	if (setup_6_18(run, err, errlen) != 0)
		return -1;
	if (container_of(run->v, struct mod_variant, v)->memcg) {
		if (vmstat_6_18_memcg_run_setup(err, errlen) != 0)
			return counters_setup_failed(run);
		((struct counters_run *)run->data)->memcg_6_18 = true;
	}
	return 0;
}

static void mod_body(struct mmscale_state *st, struct mmscale_run *run)
{
	const struct mod_variant *row = container_of(run->v, struct mod_variant, v);
	void (*fn)(void *where) = row->mod;
	void (*work_tick)(u64 interval_ns) = row->linux_6_18 ? vmstat_6_18_work_tick :
							       vmstat_work_tick;
	void *where = mod_where(row);
	u64 vmstat_period = mm_config()->vmstat_interval_ns;	/* read once, not per batch */

	while (mmscale_keep_running_batch(st, MOD_BATCH)) {
		for (int i = 0; i < MOD_BATCH; i++)
			fn(where);
		work_tick(vmstat_period);	/* vmstat_update */
	}
}

static void mod_one_op(struct mmscale_run *run)
{
	const struct mod_variant *row = container_of(run->v, struct mod_variant, v);

	row->mod(mod_where(row));
}

/*
 * The folds of nr_ops updates of +1 from a zero delta, at the threshold t
 * the run has: --set stat_threshold's, or what the generation computed (the
 * calling CPU's own). The first fold comes at update t + 1; each leaves the
 * delta at -overstep (t / 2 for the inc forms, else 0), so the next one
 * t + 1 + overstep updates later.
 *
 * The memcg rows add to a fold's two atomic adds the rstat bookkeeping's
 * locked ops (vmstat_6_18_memcg_claim_locked_ops).
 */
static bool mod_claim_ops(const struct mmscale_run *run, uint64_t nr_ops,
			  struct mmscale_claim *out)
{
	const struct mod_variant *row = container_of(run->v, struct mod_variant, v);
	int knob = mm_config()->stat_threshold;
	uint64_t t, period;

	if (knob != MM_KNOB_AUTO)
		t = (uint64_t)knob;
	else if (row->linux_6_18)
		t = (uint64_t)vmstat_6_18_fold_delta(vmstat_6_18_local_node()) - 1;
	else
		t = (uint64_t)zone_this_pcp(local_zone(smp_processor_id()))->stat_threshold;
	period = t + 1 + (row->overstep ? t / 2 : 0);
	out->which = MMSCALE_COUNT_BIT(MMSCALE_FOLDS) | MMSCALE_COUNT_BIT(MMSCALE_GLOBAL_READS);
	out->v[MMSCALE_GLOBAL_READS] = 0;
	if (row->s8_increment && t == MM_STAT_THRESHOLD_MAX)
		out->v[MMSCALE_FOLDS] = 0;
	else
		out->v[MMSCALE_FOLDS] = nr_ops < t + 1 ? 0 : 1 + (nr_ops - (t + 1)) / period;
	if (row->memcg) {
		out->which |= MMSCALE_COUNT_BIT(MMSCALE_LOCKED_OPS);
		out->v[MMSCALE_LOCKED_OPS] = 2 * out->v[MMSCALE_FOLDS] +
					     vmstat_6_18_memcg_claim_locked_ops(nr_ops);
	}
	return true;
}

/*
 * vmstat/numa_stat: one order-0 allocation's zone_statistics per call, from
 * the calling CPU's own node (NUMA_HIT and NUMA_LOCAL, each a per-CPU diff
 * that folds into the zone's and the global counter past its threshold):
 * Kemi Wang's 2017 comparison. 4.13: zone_statistics and __inc_zone_state
 * as 2.6.38 and 2.6.31 have them on the 2.6.x machine (4.13.9's are the same
 * arithmetic in this_cpu ops: page_alloc.c 2740-2756, vmstat.c 303-317): s8
 * diffs at the zone's stat_threshold, half of it overstepped. 4.14: u16
 * diffs at NUMA_STATS_THRESHOLD (65533), no overstep (kernel/linux-4.14/mm/vmstat.c).
 * The vmstat work's once-a-second fold of these diffs, which both kernels
 * run, is not: a run is the stretch between two.
 */
struct numa_stat_variant {
	struct mmscale_variant v;
	bool linux_4_14;
};

static int numa_stat_setup(struct mmscale_run *run, int nr_threads, char *err, size_t errlen)
{
	struct counters_run *cr;

	if (counters_setup(run, nr_threads, err, errlen) != 0)
		return -1;
	if (!container_of(run->v, struct numa_stat_variant, v)->linux_4_14)
		return 0;
	cr = run->data;
	if (numa_stat_4_14_setup(err, errlen) != 0)
		return counters_setup_failed(run);
	cr->numa_stat_4_14 = true;
	return 0;
}

static void numa_stat_body(struct mmscale_state *st, struct mmscale_run *run)
{
	struct counters_run *cr = run->data;
	bool linux_4_14 = container_of(run->v, struct numa_stat_variant, v)->linux_4_14;
	struct zone *zone = local_zone(smp_processor_id());	/* the 2.6.x machine's */
	uint64_t allocs = 0;

	while (mmscale_keep_running_batch(st, MOD_BATCH)) {
		if (linux_4_14)
			for (int i = 0; i < MOD_BATCH; i++)
				numa_stat_4_14_local_alloc();
		else
			for (int i = 0; i < MOD_BATCH; i++)
				zone_statistics(zone, zone);
		allocs += MOD_BATCH;
	}
	atomic_fetch_add(&cr->numa_allocs, allocs);
}

static void numa_stat_one_op(struct mmscale_run *run)
{
	struct counters_run *cr = run->data;

	if (container_of(run->v, struct numa_stat_variant, v)->linux_4_14)
		numa_stat_4_14_local_alloc();
	else
		zone_statistics(local_zone(smp_processor_id()), local_zone(smp_processor_id()));
	atomic_fetch_add(&cr->numa_allocs, 1);
}

/*
 * nr_ops local allocations from fresh diffs, two items each: 4.13's folds
 * as vmstat/mod's inc row counts them (first at t + 1, then every t + 1 +
 * t / 2; none at an s8's 127, where the diff wraps), 4.14's every 65534th;
 * two locked adds (zone and global) per fold, and no global read.
 */
static bool numa_stat_claim_ops(const struct mmscale_run *run, uint64_t nr_ops,
				struct mmscale_claim *out)
{
	int knob = mm_config()->stat_threshold;
	uint64_t folds, t, period;

	if (container_of(run->v, struct numa_stat_variant, v)->linux_4_14) {
		folds = numa_stat_4_14_folds(nr_ops);
	} else {
		t = knob != MM_KNOB_AUTO ? (uint64_t)knob :
			(uint64_t)zone_this_pcp(local_zone(smp_processor_id()))->stat_threshold;
		period = t + 1 + t / 2;
		folds = t == MM_STAT_THRESHOLD_MAX || nr_ops < t + 1 ? 0 :
			2 * (1 + (nr_ops - (t + 1)) / period);
	}
	out->which = MMSCALE_COUNT_BIT(MMSCALE_FOLDS) | MMSCALE_COUNT_BIT(MMSCALE_LOCKED_OPS) |
		     MMSCALE_COUNT_BIT(MMSCALE_GLOBAL_READS);
	out->v[MMSCALE_FOLDS] = folds;
	out->v[MMSCALE_LOCKED_OPS] = 2 * folds;
	out->v[MMSCALE_GLOBAL_READS] = 0;
	return true;
}

/* percpu/read_vs_sum: the bdi_stat read against the exact sum over every CPU. */
static s64 percpu_read(struct percpu_counter *fbc)
{
	return percpu_counter_read_positive(fbc);
}

static s64 percpu_sum(struct percpu_counter *fbc)
{
	return percpu_counter_sum_positive(fbc);
}

/* 6.18's (the layout is 2.6.31's still: linux-6.18/lib/percpu_counter.h). */
static s64 percpu_read_6_18(struct percpu_counter *fbc)
{
	return percpu_counter_read_positive_6_18(fbc);
}

static s64 percpu_sum_6_18(struct percpu_counter *fbc)
{
	return percpu_counter_sum_positive_6_18(fbc);
}

/* percpu/read_vs_sum's variants: the read, and its claim per call. */
struct percpu_read_variant {
	struct mmscale_variant v;
	s64 (*read)(struct percpu_counter *fbc);
	unsigned int bdi_reads;		/* approximate reads */
	unsigned int slots_per_cpu;	/* per-CPU slots read, per online CPU */
	unsigned int locks;		/* fbc->lock acquisitions */
	bool linux_6_18;		/* 6.18's percpu_counter_add_batch leaves the delta */
};

static int percpu_setup(struct mmscale_run *run, int nr_threads, char *err, size_t errlen)
{
	struct counters_run *cr;

	if (counters_setup(run, nr_threads, err, errlen) != 0)
		return -1;
	cr = run->data;
	compute_batch_value_6_18();	/* for the 6.18 rows, as each CPU's online did */
	if (percpu_counter_init(&cr->fbc, 0) != 0) {
		mmscale_errorf(err, errlen, "per-CPU units full");
		return counters_setup_failed(run);
	}
	return 0;
}

static void percpu_body(struct mmscale_state *st, struct mmscale_run *run)
{
	struct counters_run *cr = run->data;
	s64 (*fn)(struct percpu_counter *fbc) =
		container_of(run->v, struct percpu_read_variant, v)->read;
	s64 sum = 0;

	/*
	 * Leave a delta in this CPU's slot, as a busy bdi has. Where a batch
	 * of 0 or 1 folds every add (--set percpu_counter_batch), no slot
	 * ever holds one: no add (its fold, under fbc->lock, would be counted
	 * against the reads' claims).
	 */
	if (container_of(run->v, struct percpu_read_variant, v)->linux_6_18) {
		if (percpu_counter_batch_6_18 > 1)
			percpu_counter_add_6_18(&cr->fbc, 1);
	} else if (percpu_counter_batch > 1) {
		percpu_counter_add(&cr->fbc, 1);
	}
	while (mmscale_keep_running_batch(st, READ_BATCH))
		for (int i = 0; i < READ_BATCH; i++)
			sum += fn(&cr->fbc);
	__asm__ __volatile__("" : : "r"(sum));
}

static void percpu_one_op(struct mmscale_run *run)
{
	struct counters_run *cr = run->data;

	container_of(run->v, struct percpu_read_variant, v)->read(&cr->fbc);
}

/* One read: one shared load; one sum: the lock and every online CPU's slot. */
static bool percpu_claim(const struct mmscale_run *run, struct mmscale_claim *out)
{
	const struct percpu_read_variant *row = container_of(run->v, struct percpu_read_variant, v);

	out->which = MMSCALE_COUNT_BIT(MMSCALE_BDI_READS) |
		     MMSCALE_COUNT_BIT(MMSCALE_PERCPU_SUM_SLOTS) |
		     MMSCALE_COUNT_BIT(MMSCALE_LOCK_ACQUIRES);
	out->v[MMSCALE_BDI_READS] = row->bdi_reads;
	out->v[MMSCALE_PERCPU_SUM_SLOTS] = (u64)row->slots_per_cpu * num_online_cpus();
	out->v[MMSCALE_LOCK_ACQUIRES] = row->locks;
	return true;
}

static const struct global_read_variant global_read_variants[] = {
	{ { "repeated", "global_page_state() at every use (2.6.31-rc8's habit)", "seed 000/003" },
	  read_repeated, READ_USES, false },
	{ { "cached", "each item read once into a local and reused (the v2 patch's idea)",
	    "seed 000" },
	  read_cached, 1, false },
	{ { "6.18-repeated", "global_node_page_state() at every use, on 6.18's vm_node_stat[]",
	    "include/linux/vmstat.h 6.18" },
	  read_repeated_6_18, READ_USES, true },
	{ { "6.18-cached", "6.18's vm_node_stat[], each item read once into a local",
	    "include/linux/vmstat.h 6.18" },
	  read_cached_6_18, 1, true },
};

static const struct mod_variant mod_variants[] = {
	{ { "inc", "__inc_zone_state: fold past the threshold with a half-threshold overstep",
	    "mm/vmstat.c 2.6.31" },
	  mod_inc, false, false, true, true },
	{ { "mod", "__mod_zone_page_state(+1): fold past the threshold, no overstep",
	    "mm/vmstat.c 2.6.31" },
	  mod_mod, false, false, false, false },
	{ { "6.18-inc", "inc_node_state: this_cpu_try_cmpxchg, half-threshold overstep",
	    "mm/vmstat.c 6.18 mod_node_state" },
	  vmstat_6_18_inc, true, false, true, false },
	{ { "6.18-mod", "mod_node_page_state(+1): this_cpu_try_cmpxchg, no overstep",
	    "mm/vmstat.c 6.18 mod_node_state" },
	  vmstat_6_18_mod, true, false, false, false },
	{ { "6.18-__mod", "__mod_node_page_state(+1): irqs off, a plain read-modify-write",
	    "mm/vmstat.c 6.18" },
	  vmstat_6_18_mod_irqoff, true, false, false, false },
	{ { "6.18-memcg", "__lruvec_stat_mod_folio(+1) with CONFIG_MEMCG, irqs off by the "
	    "caller: the node's plain RMW, the memcg's and lruvec's per-CPU state, rstat's "
	    "stats_updates up 4 levels", "mm/memcontrol.c 6.18 (mm/page-writeback.c 2661)" },
	  vmstat_6_18_lruvec_mod_irqoff, true, true, false, false },
	{ { "6.18-memcg-irqsave", "lruvec_stat_mod_folio(+1): 6.18-memcg inside "
	    "local_irq_save/restore (pushf; cli and sti stood in for by a flag)",
	    "include/linux/vmstat.h 6.18 (mm/page-writeback.c 3015)" },
	  vmstat_6_18_lruvec_mod, true, true, false, false },
};

static const struct numa_stat_variant numa_stat_variants[] = {
	{ { "4.13", "zone_statistics: NUMA_HIT and NUMA_LOCAL as zone items, s8 per-CPU diffs "
	    "at the zone's stat_threshold with a half-threshold overstep",
	    "mm/page_alloc.c, mm/vmstat.c 4.13.9 (2.6.38's and 2.6.31's code)" }, false },
	{ { "4.14", "zone_statistics: NUMA items apart, u16 per-CPU diffs folded past "
	    "NUMA_STATS_THRESHOLD (65533), no overstep",
	    "3a321d2a3dde + 1d90ca897cb0 (Kemi Wang), v4.14" }, true },
};

static const struct percpu_read_variant percpu_variants[] = {
	{ { "read", "percpu_counter_read_positive: one shared load (bdi_stat)",
	    "lib/percpu_counter.c 2.6.31" },
	  percpu_read, 1, 0, 0, false },
	{ { "sum", "percpu_counter_sum_positive: lock, walk every online CPU (bdi_stat_sum)",
	    "lib/percpu_counter.c 2.6.31" },
	  percpu_sum, 0, 1, 1, false },
	{ { "6.18-read", "percpu_counter_read_positive of 6.18: one shared load",
	    "include/linux/percpu_counter.h 6.18" },
	  percpu_read_6_18, 1, 0, 0, true },
	{ { "6.18-sum", "__percpu_counter_sum of 6.18: lock, every online CPU",
	    "lib/percpu_counter.c 6.18" },
	  percpu_sum_6_18, 0, 1, 1, true },
};

/* The tables of each family's variants (scripts/quick_tables.py), in order. */
static const struct mmscale_metric global_read_metrics[] = { METRIC_TIME, METRIC_GLOBAL_READS };
static const struct mmscale_metric mod_metrics[] = {
	METRIC_TIME,
	{ "folds", "folds into shared counters per operation (exact)", true },
};
static const struct mmscale_metric numa_stat_metrics[] = {
	METRIC_TIME,
	{ "folds", "folds into the zone's and the global NUMA counters per allocation (exact)",
	  true },
	{ "locked_ops", "locked read-modify-writes per allocation (exact)", true },
};
static const int64_t global_read_args[][MMSCALE_MAX_ARGS] = {
	{ 4, 0 }, { 4, 1 }, { 8, 0 }, { 8, 1 },
};
static const char *const global_read_arg_names[] = { "k", "writers" };

static const struct mmscale_case counter_cases[] = {
	{
		.name = "vmstat/global_read",
		.summary = "k global vm_stat items needed 3 times each: re-read vs cached, "
			   "with a CPU folding into the same line",
		COUNTERS_RUN(global_read_setup, global_read_body, COUNTS_VMSTAT),
		MMSCALE_CLAIM(global_read_claim, global_read_one_op),
		MMSCALE_VARIANT_ROWS(global_read_variants), MMSCALE_METRICS(global_read_metrics),
		MMSCALE_ARGS(global_read_args, global_read_arg_names),
		.partner_cpus = 1,
	},
	{
		.name = "vmstat/mod",
		.summary = "one per-CPU vmstat update per call, and the folds it causes",
		COUNTERS_RUN(mod_setup, mod_body, COUNTS_VMSTAT),
		MMSCALE_CLAIM_OPS(mod_claim_ops, mod_one_op),
		MMSCALE_VARIANT_ROWS(mod_variants), MMSCALE_METRICS(mod_metrics),
	},
	{
		.name = "vmstat/numa_stat",
		.summary = "one local allocation's zone_statistics per call (NUMA_HIT, NUMA_LOCAL): "
			   "4.13's s8 zone diffs against 4.14's u16 NUMA diffs at 65533",
		COUNTERS_RUN(numa_stat_setup, numa_stat_body,
			     COUNTS_VMSTAT | MMSCALE_COUNT_BIT(MMSCALE_LOCKED_OPS)),
		MMSCALE_CLAIM_OPS(numa_stat_claim_ops, numa_stat_one_op),
		MMSCALE_VARIANT_ROWS(numa_stat_variants), MMSCALE_METRICS(numa_stat_metrics),
	},
	{
		.name = "percpu/read_vs_sum",
		.summary = "approximate percpu_counter read vs exact sum over every online CPU",
		COUNTERS_RUN(percpu_setup, percpu_body, COUNTS_PERCPU),
		MMSCALE_CLAIM(percpu_claim, percpu_one_op),
		MMSCALE_VARIANT_ROWS(percpu_variants),
	},
};

/* The knobs whose auto these modules' kernel code resolves on the set-up machine. */
static const struct mmscale_knob_auto counters_knob_autos[] = {
	{ MM_KNOB_STAT_THRESHOLD, vmstat_stat_threshold_auto },
	{ MM_KNOB_PERCPU_COUNTER_BATCH, percpu_counter_batch_auto },
	{ MM_KNOB_BDI_STAT_BATCH, bdi_stat_batch_auto },
	{ MM_KNOB_DIRTY_BYTES, dirty_bytes_auto },
	{ MM_KNOB_RATELIMIT_PAGES, ratelimit_pages_auto },
};

const struct mmscale_case_table mmscale_counters_table =
	MMSCALE_CASE_TABLE_AUTOS("counters", counter_cases, counters_knob_autos);
