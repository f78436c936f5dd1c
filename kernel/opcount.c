// SPDX-License-Identifier: GPL-2.0
/* Exact operation counts: see include/mmscale/opcount.h. */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "mmscale/opcount.h"

_Thread_local struct mmscale_counts mmscale_this_counts;

static const char *const count_names[MMSCALE_NR_COUNTS] = {
	[MMSCALE_GLOBAL_READS]		= "global_reads",
	[MMSCALE_BDI_READS]		= "bdi_reads",
	[MMSCALE_PERCPU_SUM_SLOTS]	= "percpu_sum_slots",
	[MMSCALE_FOLDS]			= "folds",
	[MMSCALE_LOCK_ACQUIRES]		= "lock_acquires",
	[MMSCALE_IPIS_SENT]		= "ipis_sent",
	[MMSCALE_IPIS_HANDLED]		= "ipis_handled",
	[MMSCALE_PAGES_MOVED]		= "pages_moved",
	[MMSCALE_PAGES_DRAINED]		= "pages_drained",
	[MMSCALE_DRAINS_SKIPPED]	= "drains_skipped",
	[MMSCALE_CALL_FUNCTION_LOCKS]	= "call_function_locks",
	[MMSCALE_LOCKED_OPS]		= "locked_ops",
	[MMSCALE_ZONE_LOCKS]		= "zone_locks",
	[MMSCALE_BDI_STORES]		= "bdi_stores",
};

const char *mmscale_count_name(enum mmscale_count c)
{
	if ((unsigned int)c >= MMSCALE_NR_COUNTS)
		return NULL;
	return count_names[c];
}

void mmscale_counts_reset(void)
{
	for (int c = 0; c < MMSCALE_NR_COUNTS; c++)
		__atomic_store_n(&mmscale_this_counts.v[c], 0, __ATOMIC_RELAXED);
}

void mmscale_counts_snapshot(struct mmscale_counts *out)
{
	for (int c = 0; c < MMSCALE_NR_COUNTS; c++)
		out->v[c] = __atomic_load_n(&mmscale_this_counts.v[c], __ATOMIC_RELAXED);
}

/* One slot per emulated CPU: the counts of the thread that is that CPU now. */
static struct mmscale_counts *_Atomic *registry;
static int registry_size;

int mmscale_counts_registry_init(int nr_cpus)
{
	mmscale_counts_registry_free();
	registry = calloc((size_t)nr_cpus, sizeof(*registry));
	if (!registry)
		return -1;
	registry_size = nr_cpus;
	return 0;
}

void mmscale_counts_registry_free(void)
{
	free(registry);
	registry = NULL;
	registry_size = 0;
}

void mmscale_counts_register(int cpu)
{
	if (cpu >= 0 && cpu < registry_size)
		atomic_store(&registry[cpu], &mmscale_this_counts);
}

void mmscale_counts_unregister(int cpu)
{
	if (cpu >= 0 && cpu < registry_size)
		atomic_store(&registry[cpu], NULL);
}

void mmscale_counts_sum_all(struct mmscale_counts *out)
{
	memset(out, 0, sizeof(*out));
	for (int cpu = 0; cpu < registry_size; cpu++) {
		struct mmscale_counts *c = atomic_load(&registry[cpu]);

		for (int i = 0; c && i < MMSCALE_NR_COUNTS; i++)
			out->v[i] += __atomic_load_n(&c->v[i], __ATOMIC_RELAXED);
	}
}
