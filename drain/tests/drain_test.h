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
#include "mmscale/linux-2.6/mm/page_alloc.h"
#include "mmscale/opcount.h"
#include "test_machine.h"

static struct mmscale_counts counts_base;

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

/* A 3 GiB machine with the struct zone of ops's kernel, as cases/drain.c sets one up. */
static inline int drain_mm_machine_setup(const struct drain_variant_ops *ops, char *err,
					 size_t errlen)
{
	struct mm_machine_config cfg;

	mm_config_default(&cfg, 3ULL << 30);
	cfg.zone_layout = ops->machine->zone_layout;
	return mm_machine_setup_config(&cfg, err, errlen);
}

/*
 * Fill this CPU's pcp lists: allocate arg (at most 40) pages, free them
 * back, through the running variant's kernel (its world's paths, if any).
 */
static inline void fill_my_lists(void *arg)
{
	void *pages[40];
	int n = (int)(intptr_t)arg;

	for (int i = 0; i < n && i < 40; i++)
		pages[i] = drain_alloc_local();
	for (int i = 0; i < n && i < 40; i++)
		if (pages[i])
			drain_free_local(pages[i]);
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
