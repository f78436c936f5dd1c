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
 *   - kernel paths whose schedule is fixed, on the 1024-CPU stand-in: a
 *     percpu_counter_sum over every CPU's slot, each slot last written by
 *     its own CPU, moves 1023 lines, 7 from the node and 1016 from others.
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "test_machine.h"
#include "mmscale/kernel/processor.h"
#include "mmscale/kernel/transfers.h"
#include "mmscale/lib/percpu_counter.h"
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
	return check_report("test_transfers");
}
