// SPDX-License-Identifier: GPL-2.0
/*
 * The Linux 6.18 counter cases and rows (kernel/linux-6.18/mm/vmstat.c's code):
 * the rows cases/counters.c holds beside the seed kernels' (counters_6_18.h),
 * and the cases 6.18's design brings: the vmstat shepherd's scan of every
 * CPU's diffs (vmstat/shepherd), and NUMA events counted per CPU and
 * summed when read, against a zone counter read (vmstat/numa_event).
 */
#define _GNU_SOURCE
#include <stdlib.h>

#include "mmscale/case.h"
#include "mmscale/errorf.h"
#include "mmscale/kernel/machine.h"
#include "mmscale/linux-6.18/mm/memcontrol.h"
#include "mmscale/linux-6.18/mm/vmstat.h"
#include "mmscale/params.h"

#include "counters_6_18.h"

int vmstat_6_18_run_setup(char *err, size_t errlen)
{
	struct mm_machine_config cfg;

	mmscale_mm_config(&cfg);
	return vmstat_6_18_setup(&cfg, err, errlen);
}

int vmstat_6_18_run_teardown(char *err, size_t errlen)
{
	int status = vmstat_6_18_check(err, errlen);

	vmstat_6_18_teardown();
	return status;
}

/*
 * Node items 16-23, one line of vm_node_stat[]: NR_FILE_DIRTY and
 * NR_WRITEBACK, which 6.18's balance_dirty_pages reads (page-writeback.c
 * 1835) and every dirtying CPU folds into, and the six items beside them
 * on that line, standing in for a reader that needs k items of one line
 * (6.18's dirtyable memory also reads NR_FREE_PAGES, a zone item, and the
 * file LRUs, node items 2-3 on another line).
 */
static const enum node_stat_item read_items_6_18[8] = {
	NR_FILE_DIRTY, NR_WRITEBACK, NR_FILE_PAGES, NR_FILE_MAPPED,
	NR_ANON_MAPPED, NR_SHMEM, WORKINGSET_NODERECLAIM, NR_SHMEM_THPS,
};

BUILD_BUG_ON(NR_FILE_DIRTY / 8 != 2 || WORKINGSET_NODERECLAIM / 8 != 2 || NR_SHMEM_THPS / 8 != 2);

unsigned long vmstat_6_18_read_repeated(int k, int uses)
{
	unsigned long sum = 0;

	for (int use = 0; use < uses; use++)
		for (int i = 0; i < k; i++)
			sum += global_node_page_state(read_items_6_18[i]);
	return sum;
}

unsigned long vmstat_6_18_read_cached(int k, int uses)
{
	unsigned long v[ARRAY_SIZE(read_items_6_18)], sum = 0;

	for (int i = 0; i < k; i++)
		v[i] = global_node_page_state(read_items_6_18[i]);
	for (int use = 0; use < uses; use++)
		for (int i = 0; i < k; i++)
			sum += v[i];
	return sum;
}

void *vmstat_6_18_local_node(void)
{
	return NODE_DATA(numa_node_id());
}

int vmstat_6_18_fold_delta(void *node)
{
	pg_data_t *pgdat = node;

	return this_cpu_ptr(pgdat->per_cpu_nodestats)->stat_threshold + 1;
}

void vmstat_6_18_fold_step(void *node, int delta, unsigned int i)
{
	enum node_stat_item item = read_items_6_18[i % ARRAY_SIZE(read_items_6_18)];

	__mod_node_page_state(node, item, delta);
	__mod_node_page_state(node, item, -delta);
}

void vmstat_6_18_inc(void *node)
{
	inc_node_state(node, NR_FILE_DIRTY);
}

void vmstat_6_18_mod(void *node)
{
	mod_node_page_state(node, NR_FILE_DIRTY, 1);
}

void vmstat_6_18_mod_irqoff(void *node)
{
	__mod_node_page_state(node, NR_FILE_DIRTY, 1);
}

int vmstat_6_18_memcg_run_setup(char *err, size_t errlen)
{
	return memcg_6_18_setup(err, errlen);
}

int vmstat_6_18_memcg_run_teardown(char *err, size_t errlen)
{
	int status = memcg_6_18_check(NR_FILE_DIRTY, err, errlen);

	memcg_6_18_teardown();
	return status;
}

void *vmstat_6_18_local_folio(void)
{
	return memcg_6_18_folio(numa_node_id());
}

uint64_t vmstat_6_18_memcg_claim_locked_ops(uint64_t nr_ops)
{
	uint64_t batches = min(nr_ops / MEMCG_CHARGE_BATCH, (uint64_t)num_online_cpus() + 1);

	return (nr_ops > 0) + (MEMCG_6_18_DEPTH + 1) * batches;
}

void vmstat_6_18_lruvec_mod_irqoff(void *folio)
{
	__lruvec_stat_mod_folio(folio, NR_FILE_DIRTY, 1);
}

void vmstat_6_18_lruvec_mod(void *folio)
{
	lruvec_stat_mod_folio(folio, NR_FILE_DIRTY, 1);
}

void vmstat_6_18_work_tick(uint64_t interval_ns)
{
	if (vmstat_work_due(interval_ns))
		refresh_cpu_vm_stats(true);	/* vmstat_update */
}

/* A run of the new cases: the 6.18 world, and the shepherd's pending bits. */
struct vmstat_6_18_run {
	_Atomic unsigned char *work_pending;	/* percpu: each CPU's vmstat_work pending */
};

static int world_setup(struct mmscale_run *run, char *err, size_t errlen)
{
	struct vmstat_6_18_run *vr = calloc(1, sizeof(*vr));

	if (!vr)
		return mmscale_errorf(err, errlen, "out of memory");
	run->data = vr;
	if (vmstat_6_18_run_setup(err, errlen) != 0) {
		free(vr);
		run->data = NULL;
		return -1;
	}
	return 0;
}

static int world_teardown(struct mmscale_run *run, char *err, size_t errlen)
{
	struct vmstat_6_18_run *vr = run->data;

	free_percpu(vr->work_pending);
	free(vr);
	run->data = NULL;
	return vmstat_6_18_run_teardown(err, errlen);
}

/*
 * vmstat/shepherd: one vmstat_shepherd pass over the online CPUs, every
 * other CPU in one state. idle: no diffs and no work pending (a CPU whose
 * vmstat work stopped, quiet_vmstat having folded) - need_update reads
 * each populated zone's and each node's per-CPU statistics of that CPU,
 * on its node. busy: every CPU's vmstat work pending (a CPU updating
 * counters) - only the pending bit is read.
 */
struct shepherd_variant {
	struct mmscale_variant v;
	bool work_pending;
};

static int shepherd_setup(struct mmscale_run *run, int nr_threads, char *err, size_t errlen)
{
	const struct shepherd_variant *row = container_of(run->v, struct shepherd_variant, v);
	struct vmstat_6_18_run *vr;
	unsigned int cpu;

	(void)nr_threads;
	if (world_setup(run, err, errlen) != 0)
		return -1;
	vr = run->data;
	vr->work_pending = alloc_percpu(_Atomic unsigned char);
	if (!vr->work_pending) {
		world_teardown(run, err, errlen);
		return mmscale_errorf(err, errlen, "per-CPU units full");
	}
	for_each_online_cpu(cpu)
		atomic_store(per_cpu_ptr(vr->work_pending, cpu), row->work_pending);
	return 0;
}

static void shepherd_one_op(struct mmscale_run *run)
{
	struct vmstat_6_18_run *vr = run->data;

	vmstat_shepherd(vr->work_pending);
}

static void shepherd_body(struct mmscale_state *st, struct mmscale_run *run)
{
	struct vmstat_6_18_run *vr = run->data;
	int queued = 0;

	while (mmscale_keep_running(st))
		queued += vmstat_shepherd(vr->work_pending);
	__asm__ __volatile__("" : : "r"(queued));
}

/* Populated zones: DMA32 on node 0, Normal on node 0 past 4 GiB, Normal on every other node. */
static unsigned int populated_zones_6_18(uint64_t mem_bytes, unsigned int nodes)
{
	uint64_t per_node_pages = (mem_bytes >> PAGE_SHIFT) / nodes;

	return 1 + (per_node_pages > ((4ULL << 30) >> PAGE_SHIFT) ? 1 : 0) + (nodes - 1);
}

/*
 * One pass (vmstat.c 2118-2150, 2058-2081): idle, need_update(cpu) on
 * every online CPU finds nothing, so it reads every populated zone's
 * per_cpu_zonestat and every node's per_cpu_nodestat of that CPU; busy,
 * delayed_work_pending() is true everywhere and need_update never runs.
 * Nothing is queued, so the state, and the claim, hold pass after pass.
 * The CPU loop only: the pass re-arming itself is not emulated
 * (vmstat_shepherd in kernel/linux-6.18/mm/vmstat.c says what else is not).
 */
static bool shepherd_claim(const struct mmscale_run *run, struct mmscale_claim *out)
{
	const struct shepherd_variant *row = container_of(run->v, struct shepherd_variant, v);
	struct mm_machine_config cfg;
	unsigned int nodes = (unsigned int)the_machine->nr_nodes;

	mmscale_mm_config(&cfg);
	out->which = MMSCALE_COUNT_BIT(MMSCALE_PERCPU_SUM_SLOTS) |
		     MMSCALE_COUNT_BIT(MMSCALE_LOCKED_OPS);
	out->v[MMSCALE_PERCPU_SUM_SLOTS] = row->work_pending ? 0 :
		(uint64_t)num_online_cpus() * (populated_zones_6_18(cfg.mem_bytes, nodes) + nodes);
	out->v[MMSCALE_LOCKED_OPS] = 0;
	return true;
}

/*
 * vmstat/numa_event: what reading a NUMA event costs in 6.18 against a
 * zone counter. Every operation first counts one NUMA_HIT and NUMA_LOCAL
 * on the CPU's zone, as an allocation does (zone_statistics: raw_cpu_inc,
 * the CPU's own line); then zone_stat reads global_zone_page_state
 * (NR_FREE_PAGES), one load, and numa_event does what /proc/vmstat's
 * vmstat_start and a node's numastat do: fold_vm_numa_events, an xchg of
 * each event of every online CPU's zonestat for every populated zone, then
 * global_numa_event_state(NUMA_HIT).
 */
struct numa_event_variant {
	struct mmscale_variant v;
	unsigned long (*read)(void);
	bool folds;
};

static unsigned long read_zone_stat(void)
{
	return global_zone_page_state(NR_FREE_PAGES);
}

static unsigned long read_numa_event(void)
{
	fold_vm_numa_events();
	return global_numa_event_state(NUMA_HIT);
}

static int numa_event_setup(struct mmscale_run *run, int nr_threads, char *err, size_t errlen)
{
	(void)nr_threads;
	return world_setup(run, err, errlen);
}

static void numa_event_one_op(struct mmscale_run *run)
{
	struct zone *zone = local_zone_6_18(smp_processor_id());

	zone_statistics(zone, zone, 1);	/* an allocation's events (off at numa_stat 0) */
	container_of(run->v, struct numa_event_variant, v)->read();
}

static void numa_event_body(struct mmscale_state *st, struct mmscale_run *run)
{
	unsigned long (*read)(void) = container_of(run->v, struct numa_event_variant, v)->read;
	struct zone *zone = local_zone_6_18(smp_processor_id());
	unsigned long sum = 0;

	while (mmscale_keep_running(st)) {
		zone_statistics(zone, zone, 1);
		sum += read();
	}
	__asm__ __volatile__("" : : "r"(sum));
}

/*
 * zone_stat: one global read. numa_event: per populated zone, every online
 * CPU's zonestat read (PERCPU_SUM_SLOTS) with NR_VM_NUMA_EVENT_ITEMS xchgs
 * (vmstat.c 179-183), then zone_numa_event_add for each item - two
 * atomic_long_add, zone and global (vmstat.h 142-146) - and one global read.
 */
static bool numa_event_claim(const struct mmscale_run *run, struct mmscale_claim *out)
{
	const struct numa_event_variant *row = container_of(run->v, struct numa_event_variant, v);
	struct mm_machine_config cfg;
	uint64_t zones, online = num_online_cpus();

	mmscale_mm_config(&cfg);
	zones = populated_zones_6_18(cfg.mem_bytes, (unsigned int)the_machine->nr_nodes);
	out->which = MMSCALE_COUNT_BIT(MMSCALE_GLOBAL_READS) |
		     MMSCALE_COUNT_BIT(MMSCALE_PERCPU_SUM_SLOTS) |
		     MMSCALE_COUNT_BIT(MMSCALE_LOCKED_OPS);
	out->v[MMSCALE_GLOBAL_READS] = 1;
	out->v[MMSCALE_PERCPU_SUM_SLOTS] = row->folds ? zones * online : 0;
	out->v[MMSCALE_LOCKED_OPS] = row->folds ?
		zones * (online * NR_VM_NUMA_EVENT_ITEMS + 2 * NR_VM_NUMA_EVENT_ITEMS) : 0;
	return true;
}

static const struct shepherd_variant shepherd_variants[] = {
	{ { "6.18-idle", "every CPU idle: need_update reads each zone's and node's diffs",
	    "mm/vmstat.c 6.18 vmstat_shepherd" }, false },
	{ { "6.18-busy", "every CPU's vmstat work pending: one pending bit read per CPU",
	    "mm/vmstat.c 6.18 vmstat_shepherd" }, true },
};

static const struct numa_event_variant numa_event_variants[] = {
	{ { "6.18-zone_stat", "global_zone_page_state(NR_FREE_PAGES): one global load",
	    "include/linux/vmstat.h 6.18" }, read_zone_stat, false },
	{ { "6.18-numa_event", "fold_vm_numa_events, then global_numa_event_state (/proc/vmstat)",
	    "mm/vmstat.c 6.18" }, read_numa_event, true },
};

static const struct mmscale_metric shepherd_metrics[] = {
	{ "time", "ns per operation (lower is better)", false },
	{ "percpu_sum_slots", "other CPUs' per-CPU statistics read per pass (exact)", true },
};
static const struct mmscale_metric numa_event_metrics[] = {
	{ "time", "ns per operation (lower is better)", false },
	{ "percpu_sum_slots", "per-CPU zonestats read per read (exact)", true },
	{ "locked_ops", "locked read-modify-writes per read (exact)", true },
};

static const struct mmscale_case counter_cases_6_18[] = {
	{
		.name = "vmstat/shepherd",
		.summary = "one vmstat_shepherd pass of Linux 6.18 over every online CPU",
		.setup = shepherd_setup, .body = shepherd_body, .teardown = world_teardown,
		.threads = MMSCALE_THREADS_ONE, .cpus = MMSCALE_CPUS_THREADS,
		.counts = MMSCALE_COUNT_BIT(MMSCALE_PERCPU_SUM_SLOTS) |
			  MMSCALE_COUNT_BIT(MMSCALE_LOCKED_OPS),
		MMSCALE_CLAIM(shepherd_claim, shepherd_one_op),
		MMSCALE_VARIANT_ROWS(shepherd_variants), MMSCALE_METRICS(shepherd_metrics),
	},
	{
		.name = "vmstat/numa_event",
		.summary = "Linux 6.18: a NUMA event read (summed over CPUs) vs a zone counter read",
		.setup = numa_event_setup, .body = numa_event_body, .teardown = world_teardown,
		.threads = MMSCALE_THREADS_SWEEP,
		.counts = MMSCALE_COUNT_BIT(MMSCALE_GLOBAL_READS) |
			  MMSCALE_COUNT_BIT(MMSCALE_PERCPU_SUM_SLOTS) |
			  MMSCALE_COUNT_BIT(MMSCALE_LOCKED_OPS),
		MMSCALE_CLAIM(numa_event_claim, numa_event_one_op),
		MMSCALE_VARIANT_ROWS(numa_event_variants), MMSCALE_METRICS(numa_event_metrics),
	},
};

const struct mmscale_case_table mmscale_counters_6_18_table =
	MMSCALE_CASE_TABLE("counters-6.18", counter_cases_6_18);
