// SPDX-License-Identifier: GPL-2.0
/*
 * The transfer rule of the counting build (include/mmscale/kernel/transfers.h),
 * exactly: the test links the counting build's objects, and makes its
 * accesses through tests/transfers_access.c, the one file of it compiled
 * with the counting build's instrumentation (its own bookkeeping is not). One thread plays every emulated CPU in turn (machine_task_migrate),
 * so each schedule is fixed and each count exact:
 *
 *   - the floors: a ping-pong round trip moves the line twice (and upgrades
 *     it twice), a read of a line the partner wrote since moves it once, a
 *     read of a line nobody else writes never, reads of a clean line never;
 *   - a write or a locked operation without a copy moves the line, a write
 *     to a shared copy is an upgrade only;
 *   - where the previous holder sits: an SMT sibling, a core of the same L3,
 *     another L3 of the node, another node;
 *   - a write by a thread that is no CPU puts the line back in memory;
 *   - memset through the forced include; 128-byte lines;
 *   - the window's hottest lines and pairs;
 *   - kernel paths whose schedule is fixed, on the 1024-CPU stand-in
 *     (128 nodes of 8 CPUs, one populated zone each), each CPU's own
 *     per-CPU lines last written by that CPU: a percpu_counter_sum moves
 *     1023 lines, 7 from the node and 1016 from others; 6.18's
 *     drain_all_pages with every list empty reads each other CPU's 128
 *     pagesets, the vmstat shepherd each other CPU's 128 zone and 128 node
 *     statistics; and 6.18's vmstat folds, CPU after CPU, move the zone's
 *     and the global counter's lines from the CPU before.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <ucontext.h>

#include "check.h"
#include "test_machine.h"
#include "mmscale/kernel/processor.h"
#include "mmscale/kernel/transfers.h"
#include "mmscale/kernel/percpu.h"
#include "mmscale/lib/percpu_counter.h"
#include "mmscale/linux-6.18/mm/pcp.h"
#include "mmscale/linux-6.18/mm/vmstat.h"
#include "mmscale/mm/drain_world.h"
#include "transfers_access.h"

/* node:2 l3:2 core:2 pu:2, compact: CPU 0 and 1 share a core, 2 and 3 are the
 * other core of their L3, 4-7 the node's other L3, 8-15 the other node. */
#define SPEC	"synthetic:node:2 l3:2 core:2 pu:2"
enum { ME = 0, SIBLING = 1, SAME_L3 = 2, SAME_NODE = 4, OTHER_NODE = 8 };

static uint64_t counts_now[MMSCALE_NR_COUNTS];

static void mark(void)
{
	struct mmscale_counts c;

	mmscale_counts_snapshot(&c);
	memcpy(counts_now, c.v, sizeof(counts_now));
}

/* How much count c grew since mark(). */
static uint64_t grew(enum mmscale_count c)
{
	struct mmscale_counts now;

	mmscale_counts_snapshot(&now);
	return now.v[c] - counts_now[c];
}

static void as_cpu(int cpu)
{
	machine_task_migrate(cpu);
}

/* A fresh line of its own (two, for the 128-byte test), back in memory. */
static _Atomic uint64_t *fresh_lines(void)
{
	_Atomic uint64_t *p = aligned_alloc(256, 256);
	int was = machine_task_migrate(-1);

	xfer_memset(p, 256);	/* a setup's write: the lines are memory's */
	machine_task_migrate(was);
	return p;
}

#define load(p)		xfer_load(p)
#define store(p, v)	xfer_store(p, v)

static void test_floors(void)
{
	_Atomic uint64_t *line = fresh_lines();

	printf("floors: ping-pong 2, read of a written line 1, local and clean reads 0\n");
	mark();
	for (int i = 1; i <= 100; i++) {
		as_cpu(ME);
		store(&line[0], (uint64_t)i);		/* ping */
		as_cpu(OTHER_NODE);
		load(&line[0]);
		load(&line[0]);				/* polls again: no move */
		store(&line[1], (uint64_t)i);		/* pong, the same line */
		as_cpu(ME);
		load(&line[1]);
	}
	/* The first ping found the line in memory: 199 upgrades, not 200. */
	CHECK_EQ_LL(grew(MMSCALE_XFERS), 200);
	CHECK_EQ_LL(grew(MMSCALE_XFER_READS), 200);
	CHECK_EQ_LL(grew(MMSCALE_XFER_UPGRADES), 199);
	CHECK_EQ_LL(grew(MMSCALE_XFER_REMOTE), 200);

	line = fresh_lines();
	mark();
	for (int i = 1; i <= 50; i++) {
		as_cpu(SIBLING);
		store(&line[0], (uint64_t)i);
		as_cpu(ME);
		load(&line[0]);
	}
	CHECK_EQ_LL(grew(MMSCALE_XFERS), 50);
	CHECK_EQ_LL(grew(MMSCALE_XFER_CORE), 50);

	line = fresh_lines();
	mark();
	as_cpu(ME);
	for (int i = 0; i < 50; i++) {
		store(&line[0], (uint64_t)i);
		load(&line[0]);
	}
	as_cpu(SAME_NODE);
	for (int i = 0; i < 50; i++)
		load(&line[8]);		/* the next line: this CPU's own */
	CHECK_EQ_LL(grew(MMSCALE_XFERS), 0);

	/* Clean sharing: nobody writes, everybody reads. */
	line = fresh_lines();
	mark();
	for (int cpu = 0; cpu < 16; cpu++) {
		as_cpu(cpu);
		load(&line[0]);
	}
	CHECK_EQ_LL(grew(MMSCALE_XFERS), 0);
	CHECK_EQ_LL(grew(MMSCALE_XFER_UPGRADES), 0);
	as_cpu(ME);
}

static void test_writes_and_classes(void)
{
	_Atomic uint64_t *line = fresh_lines();

	printf("writes: a read for ownership moves the line, an upgrade does not\n");
	as_cpu(SAME_NODE);
	store(&line[0], 1);
	mark();
	as_cpu(ME);
	store(&line[0], 2);			/* no copy: the line moves */
	CHECK_EQ_LL(grew(MMSCALE_XFER_WRITES), 1);
	CHECK_EQ_LL(grew(MMSCALE_XFER_NODE), 1);
	as_cpu(SAME_L3);
	load(&line[0]);				/* moves to the reader */
	as_cpu(ME);
	mark();
	store(&line[0], 3);			/* a shared copy: invalidate only */
	CHECK_EQ_LL(grew(MMSCALE_XFERS), 0);
	CHECK_EQ_LL(grew(MMSCALE_XFER_UPGRADES), 1);

	mark();
	as_cpu(SAME_L3);
	xfer_fetch_add(&line[0]);
	CHECK_EQ_LL(grew(MMSCALE_XFER_LOCKED), 1);
	CHECK_EQ_LL(grew(MMSCALE_XFER_CACHE), 1);
	as_cpu(ME);
	xfer_cmpxchg(&line[0], 99);	/* it holds 4: fails, and takes the line */
	CHECK_EQ_LL(grew(MMSCALE_XFER_LOCKED), 2);

	/* A thread that is no CPU (a case's setup) writes: back in memory. */
	as_cpu(SIBLING);
	store(&line[0], 7);
	{
		int was = machine_task_migrate(-1);

		store(&line[0], 8);
		machine_task_migrate(was);
	}
	mark();
	as_cpu(ME);
	load(&line[0]);
	CHECK_EQ_LL(grew(MMSCALE_XFERS), 0);

	/* memset, renamed by the forced include, writes every line it covers. */
	{
		char *buf = aligned_alloc(64, 256);

		as_cpu(SIBLING);
		xfer_memset(buf, 256);
		as_cpu(ME);
		mark();
		CHECK_EQ_LL(xfer_read_lines(buf, 256), 4);
		CHECK_EQ_LL(grew(MMSCALE_XFER_READS), 4);
		free(buf);
	}
	CHECK(mmscale_transfers_class(ME, OTHER_NODE) == MMSCALE_XFER_OTHER_NODE);
	CHECK(mmscale_transfers_class(SAME_L3, 3) == MMSCALE_XFER_SAME_CORE);
}

static void test_hottest_and_pairs(void)
{
	_Atomic uint64_t *a = fresh_lines(), *b = fresh_lines();
	struct mmscale_hot_line hot[3];
	struct mmscale_xfer_pair pairs[4];
	size_t n;

	printf("the window's hottest lines and pairs\n");
	mmscale_transfers_window_begin();
	for (int i = 0; i < 10; i++) {
		as_cpu(SIBLING);
		store(&a[0], (uint64_t)i);
		if (i < 3)
			store(&b[0], (uint64_t)i);
		as_cpu(ME);
		load(&a[0]);
		if (i < 3)
			load(&b[0]);
	}
	CHECK(mmscale_transfers_hottest(hot, 3) == 2);
	CHECK(hot[0].addr == (uintptr_t)a && hot[0].transfers == 10 && hot[0].reads == 10);
	CHECK(hot[1].addr == (uintptr_t)b && hot[1].transfers == 3);
	/* CPU 1's stores after the first found CPU 0's copies: upgrades, no pair. */
	n = mmscale_transfers_pairs(pairs, 4);
	CHECK_EQ_LL(n, 1);
	CHECK(pairs[0].requester == ME && pairs[0].holder == SIBLING && pairs[0].transfers == 13);
	mmscale_transfers_window_begin();
	CHECK(mmscale_transfers_hottest(hot, 3) == 0);
	CHECK_EQ_LL(mmscale_transfers_pairs(pairs, 4), 0);
	/* A new window counts from nothing, for the lines and the pairs alike. */
	as_cpu(SIBLING);
	store(&a[0], 11);
	as_cpu(ME);
	load(&a[0]);
	CHECK(mmscale_transfers_hottest(hot, 3) == 1 && hot[0].transfers == 1);
	CHECK(mmscale_transfers_pairs(pairs, 4) == 1 && pairs[0].transfers == 1);
}

/* Two CPUs writing 64 bytes apart: one line at 128 bytes, two at 64. */
static uint64_t false_sharing_transfers(void)
{
	_Atomic uint64_t *p = fresh_lines();

	mark();
	for (int i = 0; i < 10; i++) {
		as_cpu(ME);
		store(&p[0], (uint64_t)i);
		as_cpu(SIBLING);
		store(&p[8], (uint64_t)i);
	}
	as_cpu(ME);
	return grew(MMSCALE_XFERS);
}

/*
 * percpu_counter_sum over 1024 CPUs, each slot last written by its CPU:
 * every other CPU's slot moves once, by a read, from where that CPU sits
 * (7 on CPU 0's node, 1016 beyond); a second sum moves nothing.
 */
static void test_percpu_sum_1024(void)
{
	struct test_machine m;
	struct percpu_counter fbc;

	printf("percpu_counter_sum on 1024 CPUs over 128 nodes\n");
	if (test_machine_up(&m, "synthetic:node:128 core:8 pu:1") != 0) {
		CHECK(0);
		return;
	}
	CHECK(percpu_counter_init(&fbc, 0) == 0);
	for (int cpu = 0; cpu < 1024; cpu++) {
		as_cpu(cpu);
		__percpu_counter_add(&fbc, 1, 1000);
	}
	as_cpu(ME);
	mark();
	CHECK_EQ_LL(percpu_counter_sum(&fbc), 1024);
	CHECK_EQ_LL(grew(MMSCALE_XFER_READS), 1023);
	CHECK_EQ_LL(grew(MMSCALE_XFER_NODE), 7);
	CHECK_EQ_LL(grew(MMSCALE_XFER_REMOTE), 1016);
	CHECK_EQ_LL(grew(MMSCALE_XFERS), 1023);
	mark();
	(void)percpu_counter_sum(&fbc);
	CHECK_EQ_LL(grew(MMSCALE_XFERS), 0);
	percpu_counter_destroy(&fbc);
	test_machine_down(&m);
}

/*
 * The 1024-CPU stand-in of the kernel paths below: 128 nodes of 8 CPUs, 3 GiB,
 * so one populated zone a node (node 0's is DMA32, the others' Normal).
 * Of every other CPU, 7 sit on CPU 0's node and 1016 on others.
 */
#define MANY_CPUS	1024
#define MANY_NODES	128
#define MANY_SPEC	"synthetic:node:128 core:8 pu:1"
#define CPUS_PER_NODE	(MANY_CPUS / MANY_NODES)

/*
 * Run fn as emulated CPU cpu on that CPU's own stack, as each CPU's kworker
 * has one in the kernel: one thread plays every CPU here, and a stack it
 * shared would move its lines (a fold's global_zone_diff[]) from the CPU
 * before, which no kernel schedule does.
 */
#define CPU_STACK_BYTES	(64 << 10)
static char *cpu_stacks;
static ucontext_t cpu_ctx, caller_ctx;
static void (*cpu_fn)(int cpu);
static int cpu_fn_arg;

static void cpu_trampoline(void)
{
	cpu_fn(cpu_fn_arg);
}

static void on_cpu(int cpu, void (*fn)(int cpu))
{
	if (!cpu_stacks) {
		cpu_stacks = mmap(NULL, (size_t)MANY_CPUS * CPU_STACK_BYTES, PROT_READ | PROT_WRITE,
				  MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
		if (cpu_stacks == MAP_FAILED) {
			perror("test_transfers: the CPUs' stacks");
			exit(1);
		}
	}
	as_cpu(cpu);
	cpu_fn = fn;
	cpu_fn_arg = cpu;
	getcontext(&cpu_ctx);
	cpu_ctx.uc_stack.ss_sp = cpu_stacks + (size_t)cpu * CPU_STACK_BYTES;
	cpu_ctx.uc_stack.ss_size = CPU_STACK_BYTES;
	cpu_ctx.uc_link = &caller_ctx;
	makecontext(&cpu_ctx, cpu_trampoline, 0);
	swapcontext(&caller_ctx, &cpu_ctx);
}

/* The 6.18 world (zones, vmstat, pagesets, page pools) set up by no CPU: every line in memory. */
static int world_6_18_up(struct test_machine *m)
{
	struct mm_machine_config cfg;
	char err[256];
	int was;

	if (test_machine_up(m, MANY_SPEC) != 0)
		return -1;
	mm_config_default(&cfg, 3ULL << 30);
	was = machine_task_migrate(-1);
	if (drain_world_6_18.setup(&cfg, err, sizeof(err)) != 0) {
		CHECK_MSG(0, "6.18 world: %s", err);
		machine_task_migrate(was);
		test_machine_down(m);
		return -1;
	}
	machine_task_migrate(was);
	CHECK_EQ_LL(drain_world_6_18.populated_zones(), MANY_NODES);
	return 0;
}

static void world_6_18_down(struct test_machine *m)
{
	machine_task_migrate(-1);
	drain_world_6_18.teardown();
	as_cpu(ME);
	test_machine_down(m);
}

/* Every read moved a line from where its CPU sits: per_cpu lines of each other CPU. */
static void check_reads_of_every_cpu(const char *what, uint64_t lines_per_cpu)
{
	printf("%s: %llu lines of each other CPU\n", what, (unsigned long long)lines_per_cpu);
	CHECK_EQ_LL(grew(MMSCALE_XFERS), (MANY_CPUS - 1) * lines_per_cpu);
	CHECK_EQ_LL(grew(MMSCALE_XFER_READS), (MANY_CPUS - 1) * lines_per_cpu);
	CHECK_EQ_LL(grew(MMSCALE_XFER_NODE), (CPUS_PER_NODE - 1) * lines_per_cpu);
	CHECK_EQ_LL(grew(MMSCALE_XFER_REMOTE), (MANY_CPUS - CPUS_PER_NODE) * lines_per_cpu);
}

/*
 * 6.18's drain_all_pages(NULL) with every list empty (seed 002's question,
 * 6.18's answer): no IPI and no work item, but the caller reads each CPU's
 * pcp->count in every populated zone (a list is empty in all 128), and
 * each struct per_cpu_pages is ____cacheline_aligned with count beside the
 * lock its CPU took last. So 128 lines of each of the other 1023 CPUs. The
 * mutex and cpus_with_pcps are the caller's alone: nothing. A second drain
 * moves nothing.
 */
/* A CPU frees a page to its list and drains its own lists, as its vmstat work would. */
static void free_a_page_and_drain(int cpu)
{
	void *page = drain_world_6_18.alloc_local();

	CHECK(page != NULL);
	if (page)
		drain_world_6_18.free_local(page);
	drain_pages((unsigned int)cpu);
}

static void test_drain_6_18_empty_1024(void)
{
	struct test_machine m;

	printf("6.18 drain_all_pages on 1024 CPUs, every list empty\n");
	if (world_6_18_up(&m) != 0)
		return;
	for (int cpu = 0; cpu < MANY_CPUS; cpu++)
		on_cpu(cpu, free_a_page_and_drain);
	machine_task_migrate(-1);	/* the test's own look reads as no CPU */
	CHECK_EQ_LL(drain_world_6_18.pages_on_lists(), 0);
	as_cpu(ME);
	mark();
	drain_all_pages_6_18(NULL);
	check_reads_of_every_cpu("  first drain", MANY_NODES);
	mark();
	drain_all_pages_6_18(NULL);
	CHECK_EQ_LL(grew(MMSCALE_XFERS), 0);
	world_6_18_down(&m);
}

/*
 * 6.18's vmstat_shepherd pass with no diff anywhere: need_update reads each
 * other CPU's statistics of every populated zone and of every node (one
 * line each: struct per_cpu_zonestat is 64 bytes and struct
 * per_cpu_nodestat 52, allocated line-aligned), last written by that CPU's
 * own refresh_cpu_vm_stats: 256 lines of each other CPU. The pending bytes
 * were written by no CPU: they move nothing.
 */
/* A CPU's vmstat work with no diff: it writes each of its diffs anyway (this_cpu_xchg). */
static void refresh_nothing(int cpu)
{
	(void)cpu;
	CHECK_EQ_LL(refresh_cpu_vm_stats(false), 0);
}

static void test_shepherd_6_18_1024(void)
{
	struct test_machine m;
	_Atomic unsigned char *pending;
	int was;

	printf("6.18 vmstat_shepherd on 1024 CPUs, no diff anywhere\n");
	if (world_6_18_up(&m) != 0)
		return;
	was = machine_task_migrate(-1);
	pending = alloc_percpu(_Atomic unsigned char);
	machine_task_migrate(was);
	CHECK(pending != NULL);
	for (int cpu = 0; cpu < MANY_CPUS; cpu++)
		on_cpu(cpu, refresh_nothing);
	as_cpu(ME);
	mark();
	CHECK_EQ_LL(vmstat_shepherd(pending), 0);
	check_reads_of_every_cpu("  first pass", 2 * MANY_NODES);
	mark();
	CHECK_EQ_LL(vmstat_shepherd(pending), 0);
	CHECK_EQ_LL(grew(MMSCALE_XFERS), 0);
	free_percpu(pending);
	world_6_18_down(&m);
}

/*
 * 6.18's refresh_cpu_vm_stats, CPU after CPU from CPU 1 to 1023, each with
 * one page of NR_ZONE_ACTIVE_ANON in its local zone's diff: each fold is a
 * locked add to the global vm_zone_stat item, last added to by the CPU
 * before (1023: 896 from a CPU of the node, 127 from the last CPU of the
 * node before), and to its zone's item, last added to by the CPU before
 * when that sits on the same node (896; the first CPU of a node finds the
 * zone's line in memory). Nothing else it touches is another CPU's: its
 * own diffs, and zone fields that only boot wrote.
 */
/* One page of NR_ZONE_ACTIVE_ANON in the local zone's diff, folded; counted from CPU 1 on. */
static void one_page_then_fold(int cpu)
{
	__mod_zone_page_state(local_zone_6_18(cpu), NR_ZONE_ACTIVE_ANON, 1);
	CHECK_EQ_LL(refresh_cpu_vm_stats(false), 1);
	if (cpu == 0)
		mark();
}

static void test_fold_6_18_1024(void)
{
	struct test_machine m;
	const uint64_t same_node = MANY_CPUS - MANY_NODES;	/* CPUs 1..1023 not first on a node */

	printf("6.18 refresh_cpu_vm_stats on 1024 CPUs in turn, one item each\n");
	if (world_6_18_up(&m) != 0)
		return;
	for (int cpu = 0; cpu < MANY_CPUS; cpu++)
		on_cpu(cpu, one_page_then_fold);
	as_cpu(ME);
	printf("  %llu folds after CPU 0's\n", (unsigned long long)(MANY_CPUS - 1));
	CHECK_EQ_LL(grew(MMSCALE_XFERS), (MANY_CPUS - 1) + same_node);
	CHECK_EQ_LL(grew(MMSCALE_XFER_LOCKED), (MANY_CPUS - 1) + same_node);
	CHECK_EQ_LL(grew(MMSCALE_XFER_NODE), 2 * same_node);
	CHECK_EQ_LL(grew(MMSCALE_XFER_REMOTE), MANY_NODES - 1);
	world_6_18_down(&m);
}

int main(void)
{
	struct test_machine m;
	char err[256];

	CHECK(mmscale_transfers_counting());
	if (test_machine_up(&m, SPEC) != 0)
		return 1;
	CHECK_EQ_LL(m.p.nr_cpus, 16);
	test_floors();
	test_writes_and_classes();
	test_hottest_and_pairs();
	CHECK_EQ_LL(false_sharing_transfers(), 0);
	test_machine_down(&m);

	CHECK(mmscale_transfers_set_line(96, err, sizeof(err)) != 0);
	CHECK(mmscale_transfers_set_line(128, err, sizeof(err)) == 0);
	if (test_machine_up(&m, SPEC) != 0)
		return 1;
	printf("128-byte lines: two fields 64 bytes apart share one\n");
	CHECK_EQ_LL(false_sharing_transfers(), 19);
	test_machine_down(&m);
	CHECK(mmscale_transfers_set_line(64, err, sizeof(err)) == 0);

	test_percpu_sum_1024();
	test_drain_6_18_empty_1024();
	test_shepherd_6_18_1024();
	test_fold_6_18_1024();
	return check_report("test_transfers");
}
