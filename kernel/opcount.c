// SPDX-License-Identifier: GPL-2.0
/* Exact operation counts: see include/mmscale/opcount.h. */
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "mmscale/kernel/timekeeping.h"
#include "mmscale/opcount.h"

_Thread_local struct mmscale_counts mmscale_this_counts;

/*
 * A CPU's open sections and its maxima (hold accounting, mmscale/opcount.h).
 * open has a bit per kind of section the CPU is in, set when one begins
 * while accounting is on and cleared (release) once its maxima are raised:
 * the collector waits for it to clear, so that a section still closing when
 * the operation returned (an IPI target's local_irq_restore runs after its
 * call has completed) is counted in it, and a section that began while
 * accounting was off is never measured from a stale start.
 */
enum section_kind { ZONE_HOLD, IRQOFF, NR_SECTION_KINDS };

/* Each kind's maxima, and where it started. */
static const struct {
	enum mmscale_max pages, ns;
} section_maxima[NR_SECTION_KINDS] = {
	[ZONE_HOLD] = { MMSCALE_MAX_ZONE_HOLD_PAGES, MMSCALE_MAX_ZONE_HOLD_NS },
	[IRQOFF] = { MMSCALE_MAX_IRQOFF_PAGES, MMSCALE_MAX_IRQOFF_NS },
};

struct mmscale_holds {
	uint64_t pages0[NR_SECTION_KINDS], ns0[NR_SECTION_KINDS];
	int open;				/* a bit per kind: the CPU's, read by the collector */
	uint64_t max[MMSCALE_NR_MAXIMA];	/* written by the CPU, cleared by the collector */
};

static _Thread_local struct mmscale_holds this_holds;
int mmscale_hold_accounting;

/* A case's counts are a bit mask of an unsigned int (struct mmscale_case.counts). */
_Static_assert(MMSCALE_NR_COUNTS <= 32, "a count's bit must fit an unsigned int");

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
	[MMSCALE_PERCPU_ALLOCS]		= "percpu_allocs",
	[MMSCALE_LINES_ZEROED]		= "lines_zeroed",
	[MMSCALE_QUEUED_LOCK_ACQUIRES]	= "queued_lock_acquires",
	[MMSCALE_XFERS]			= "transfers",
	[MMSCALE_XFER_READS]		= "transfers_read",
	[MMSCALE_XFER_WRITES]		= "transfers_write",
	[MMSCALE_XFER_LOCKED]		= "transfers_locked",
	[MMSCALE_XFER_UPGRADES]		= "upgrades",
	[MMSCALE_XFER_CORE]		= "transfers_core",
	[MMSCALE_XFER_CACHE]		= "transfers_cache",
	[MMSCALE_XFER_NODE]		= "transfers_node",
	[MMSCALE_XFER_REMOTE]		= "transfers_remote",
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
static struct mmscale_holds *_Atomic *holds_registry;	/* the same CPUs' hold maxima */
static int registry_size;

int mmscale_counts_registry_init(int nr_cpus)
{
	mmscale_counts_registry_free();
	registry = calloc((size_t)nr_cpus, sizeof(*registry));
	holds_registry = calloc((size_t)nr_cpus, sizeof(*holds_registry));
	if (!registry || !holds_registry) {
		mmscale_counts_registry_free();
		return -1;
	}
	registry_size = nr_cpus;
	return 0;
}

void mmscale_counts_registry_free(void)
{
	free(registry);
	free(holds_registry);
	registry = NULL;
	holds_registry = NULL;
	registry_size = 0;
}

void mmscale_counts_register(int cpu)
{
	if (cpu >= 0 && cpu < registry_size) {
		atomic_store(&registry[cpu], &mmscale_this_counts);
		atomic_store(&holds_registry[cpu], &this_holds);
	}
}

void mmscale_counts_unregister(int cpu)
{
	if (cpu >= 0 && cpu < registry_size) {
		atomic_store(&registry[cpu], NULL);
		atomic_store(&holds_registry[cpu], NULL);
	}
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

void mmscale_counts_exclude(const struct mmscale_counts *before,
			    const struct mmscale_counts *after)
{
	/* Unsigned: the thread's own counts may pass below 0 and the window's sum still agrees. */
	for (int c = 0; c < MMSCALE_NR_COUNTS; c++)
		mmscale_count_add(c, before->v[c] - after->v[c]);
}

static uint64_t moved_now(void)
{
	return __atomic_load_n(&mmscale_this_counts.v[MMSCALE_PAGES_MOVED], __ATOMIC_RELAXED);
}

static bool clocked(void)
{
	return __atomic_load_n(&mmscale_hold_accounting, __ATOMIC_RELAXED) == MMSCALE_HOLDS_CLOCKED;
}

/* Only this CPU raises its maxima; the collector clears them between operations. */
static void raise_max(enum mmscale_max m, uint64_t v)
{
	if (v > __atomic_load_n(&this_holds.max[m], __ATOMIC_RELAXED))
		__atomic_store_n(&this_holds.max[m], v, __ATOMIC_RELAXED);
}

static void section_begin(enum section_kind k)
{
	this_holds.pages0[k] = moved_now();
	if (clocked())
		this_holds.ns0[k] = ktime_get_ns();
	__atomic_store_n(&this_holds.open, this_holds.open | (1 << k), __ATOMIC_RELAXED);
}

/* Only a section that began while accounting was on is measured; then it is closed. */
static void section_end(enum section_kind k)
{
	if (!(this_holds.open & (1 << k)))
		return;
	if (clocked())
		raise_max(section_maxima[k].ns, ktime_get_ns() - this_holds.ns0[k]);
	raise_max(section_maxima[k].pages, moved_now() - this_holds.pages0[k]);
	__atomic_store_n(&this_holds.open, this_holds.open & ~(1 << k), __ATOMIC_RELEASE);
}

void mmscale_zone_hold_begin(void)
{
	section_begin(ZONE_HOLD);
}

void mmscale_zone_hold_end(void)
{
	section_end(ZONE_HOLD);
}

void mmscale_irqoff_begin(void)
{
	section_begin(IRQOFF);
}

void mmscale_irqoff_end(void)
{
	section_end(IRQOFF);
}

void mmscale_maxima_collect_all(uint64_t out[MMSCALE_NR_MAXIMA])
{
	memset(out, 0, sizeof(uint64_t) * MMSCALE_NR_MAXIMA);
	for (int cpu = 0; cpu < registry_size; cpu++) {
		struct mmscale_holds *h = atomic_load(&holds_registry[cpu]);

		/* Its sections of the operation just made close in a moment. */
		while (h && __atomic_load_n(&h->open, __ATOMIC_ACQUIRE))
			sched_yield();
		for (int m = 0; h && m < MMSCALE_NR_MAXIMA; m++) {
			uint64_t v = __atomic_exchange_n(&h->max[m], 0, __ATOMIC_RELAXED);

			if (v > out[m])
				out[m] = v;
		}
	}
}

void mmscale_holds_set_mode(enum mmscale_hold_mode mode)
{
	uint64_t ignored[MMSCALE_NR_MAXIMA];

	/* Sections open now close (and are dropped) before the hooks stop or start. */
	mmscale_maxima_collect_all(ignored);
	__atomic_store_n(&mmscale_hold_accounting, (int)mode, __ATOMIC_RELAXED);
	mmscale_maxima_collect_all(ignored);
}
