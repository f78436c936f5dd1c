/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the drain tests share: machine-wide operation counts since a mark,
 * a CPU filling its own pcp lists (as an IPI'd call or on its own), and
 * the partner CPUs leaving the machine.
 */
#ifndef MMSCALE_DRAIN_TEST_H
#define MMSCALE_DRAIN_TEST_H

#include <stdbool.h>
#include <stdint.h>

#include "mmscale/cpu.h"
#include "mmscale/kernel/smp.h"
#include "mmscale/mm/page_alloc.h"
#include "mmscale/opcount.h"
#include "test_machine.h"

static struct mmscale_counts counts_base;

/*
 * The drain tests' machine (spec as test_machine_up's), on which a CPU that
 * waits always yields its PU. Machine setup yields only where the plan
 * oversubscribes this host; the drain tests did so on any host before
 * drain_test_machine_up, and their 4 or 6 CPUs outnumber this 2-PU
 * machine's PUs.
 */
static inline int drain_test_machine_up(struct test_machine *m, const char *spec)
{
	if (test_machine_up(m, spec) != 0)
		return -1;
	mmscale_spin_yields = true;
	return 0;
}

/*
 * A drain test's main(): test_machine_main's on drain_test_machine_up's
 * machine (the machine's setup decides mmscale_spin_yields afresh, so it
 * is set once the machine is up, not before).
 */
static inline int drain_test_main(const char *test, const char *spec, void (*tests)(void))
{
	return test_machine_run(drain_test_machine_up, test, spec, tests);
}

/* Remember every emulated CPU's counts now. */
static inline void counts_mark(void)
{
	mmscale_counts_sum_all(&counts_base);
}

/* What the whole machine counted of c since counts_mark(). */
static inline long long counts_delta(enum mmscale_count c)
{
	struct mmscale_counts now;

	mmscale_counts_sum_all(&now);
	return (long long)(now.v[c] - counts_base.v[c]);
}

/* Fill this CPU's pcp lists: allocate arg (at most 40) pages, free them back. */
static inline void fill_my_lists(void *arg)
{
	struct page *pages[40];
	int n = (int)(intptr_t)arg;

	for (int i = 0; i < n && i < 40; i++)
		pages[i] = alloc_local_page();
	for (int i = 0; i < n && i < 40; i++)
		if (pages[i])
			free_local_page(pages[i]);
}

/*
 * CPUs 1 .. nr_cpus - 1 start as partners running fn (each answering
 * cross-CPU calls as it goes), then CPU 0, this thread, comes online for
 * them. partners_stop() undoes it.
 */
static inline void partners_start(struct mmscale_partner *partners, int nr_cpus,
				  void (*fn)(void *arg))
{
	char err[256];

	for (int c = 1; c < nr_cpus; c++)
		CHECK_MSG(mmscale_partner_start(&partners[c], c, fn, NULL, err, sizeof(err)) == 0,
			  "partner CPU %d: %s", c, err);
	ipi_cpu_online();
}

/*
 * CPU 0 goes offline, the partners (CPUs 1 .. nr_cpus - 1) are told to
 * stop, woken from ipi_idle_loop and joined. The IPI machine stays up.
 */
static inline void partners_stop(struct mmscale_partner *partners, int nr_cpus, _Atomic bool *stop)
{
	ipi_cpu_offline();
	ipi_stop_idle(stop);
	for (int c = 1; c < nr_cpus; c++)
		mmscale_partner_join(&partners[c]);
}

#endif /* MMSCALE_DRAIN_TEST_H */
