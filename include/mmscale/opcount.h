/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Exact operation counts. Every emulated primitive counts what it did
 * (global counter reads, folds, lock acquisitions, IPIs, pages moved) in
 * thread-local counters; the harness zeroes them when a benchmark thread
 * starts and publishes them once, when it ends, as Google Benchmark user
 * counters per iteration under the stable names below. Counting is a
 * thread-local add: it creates no shared-line traffic of its own (the
 * measurement must not create the sharing it measures).
 *
 * MMSCALE_LOCKED_OPS counts every read-modify-write the emulated kernel
 * makes with a lock prefix (or xchg, locked by itself) on x86: the atomic_t
 * RMWs (add, sub, inc, dec, *_return, xchg, cmpxchg), the atomic bitops
 * (set_bit, clear_bit, test_and_*: cpumask_set_cpu and the like), llist_add
 * (each cmpxchg it tries) and llist_del_all, and spin lock acquisitions
 * (the ticket's xadd; a trylock's cmpxchg when it tries one). Not counted:
 * plain stores and reads, the kernel's non-atomic __set_bit/__cpumask_*
 * forms, spin_unlock (a plain add of the head on x86), memory barriers,
 * and the emulated machine's own hardware (doorbells, interrupt vectors).
 *
 * To add a count: one enum entry before MMSCALE_NR_COUNTS and one name in
 * kernel/opcount.c. Names are an interface: scripts and readers rely on them.
 */
#ifndef MMSCALE_OPCOUNT_H
#define MMSCALE_OPCOUNT_H

#include <stdint.h>
#include "kernel/compiler.h"

enum mmscale_count {
	MMSCALE_GLOBAL_READS,		/* global counter reads (global_page_state) */
	MMSCALE_BDI_READS,		/* percpu_counter approximate reads (bdi_stat) */
	MMSCALE_PERCPU_SUM_SLOTS,	/* per-CPU slots read by exact sums */
	MMSCALE_FOLDS,			/* per-CPU deltas folded into shared counters */
	MMSCALE_LOCK_ACQUIRES,		/* spin_lock acquisitions */
	MMSCALE_IPIS_SENT,		/* emulated IPIs sent */
	MMSCALE_IPIS_HANDLED,		/* emulated IPIs handled */
	MMSCALE_PAGES_MOVED,		/* pages moved between lists */
	MMSCALE_PAGES_DRAINED,		/* pages drain_pages freed from pcp lists */
	MMSCALE_DRAINS_SKIPPED,		/* drain_all_pages calls that found one in progress */
	MMSCALE_CALL_FUNCTION_LOCKS,	/* call_function.lock acquisitions (2.6.32-3.4 smp.c) */
	MMSCALE_LOCKED_OPS,		/* locked read-modify-writes (see below) */
	MMSCALE_ZONE_LOCKS,		/* zone->lock acquisitions (the 6.18 pcp code) */
	MMSCALE_BDI_STORES,		/* balance_dirty_pages' stores to shared bdi/wb fields */
	MMSCALE_PERCPU_ALLOCS,		/* per-CPU allocator calls (6.18's pcpu_alloc) */
	MMSCALE_LINES_ZEROED,		/* cache lines zeroed by an allocation or init */
	/*
	 * The lock acquisitions that were of the queued spinlock; the rest of
	 * MMSCALE_LOCK_ACQUIRES were of the ticket lock. The emulation's kind:
	 * only 6.18's files take the queued lock (CMakeLists.txt), every other
	 * file the ticket lock, those of 4.11's, 6.1's and 6.6's drain rows
	 * too, though x86 has had queued spinlocks since 4.2. Published
	 * wherever lock_acquires is: the projection's queueing needs the kind.
	 */
	MMSCALE_QUEUED_LOCK_ACQUIRES,
	/*
	 * Cache-line transfers (mmscale/kernel/transfers.h): counted only by
	 * the counting build (mmscale --transfers); the timed build never adds
	 * to them (it resets and copies them with the rest, outside timing). The total, by the requester's access, the upgrades
	 * (a write to a line others hold a copy of too), and the total again
	 * by where the previous holder sits (enum mmscale_xfer_class order).
	 */
	MMSCALE_XFERS,			/* lines moved to the requesting CPU */
	MMSCALE_XFER_READS,		/* ... by a read */
	MMSCALE_XFER_WRITES,		/* ... by a plain write */
	MMSCALE_XFER_LOCKED,		/* ... by an atomic read-modify-write */
	MMSCALE_XFER_UPGRADES,		/* writes that only invalidated other copies */
	MMSCALE_XFER_CORE,		/* transfers from an SMT sibling */
	MMSCALE_XFER_CACHE,		/* ... from another core of the same LLC */
	MMSCALE_XFER_NODE,		/* ... from another LLC of the same node */
	MMSCALE_XFER_REMOTE,		/* ... from another node */
	MMSCALE_NR_COUNTS
};

#define MMSCALE_COUNT_BIT(c)	(1u << (c))
/* The transfer counts, which the counting build publishes for every case. */
#define MMSCALE_XFER_COUNT_BITS	(((1u << (MMSCALE_XFER_REMOTE + 1)) - 1) & \
				 ~((1u << MMSCALE_XFERS) - 1))

struct mmscale_counts {
	uint64_t v[MMSCALE_NR_COUNTS];
};

/*
 * The calling thread's counts. Thread-local storage lives in each thread's
 * own stack mapping, so two threads' counters never share a line.
 */
extern _Thread_local struct mmscale_counts mmscale_this_counts;

/*
 * Only the owning thread writes its counts, so an add is a relaxed load and
 * store (a plain add on x86, no lock prefix); other threads may read them
 * (machine-wide sums) without a data race.
 */
static __always_inline void mmscale_count_add(enum mmscale_count c, uint64_t n)
{
	__atomic_store_n(&mmscale_this_counts.v[c],
			 __atomic_load_n(&mmscale_this_counts.v[c], __ATOMIC_RELAXED) + n,
			 __ATOMIC_RELAXED);
}

static __always_inline void mmscale_count_inc(enum mmscale_count c)
{
	mmscale_count_add(c, 1);
}

/*
 * A store balance_dirty_pages makes to a field of the bdi or wb that every
 * CPU's call reads (dirty_exceeded, last_bdp_sleep): the kernel's plain
 * store, WRITE_ONCE here, counted as MMSCALE_BDI_STORES.
 */
#define WRITE_ONCE_BDI(x, val) do {					\
	WRITE_ONCE(x, val);						\
	mmscale_count_inc(MMSCALE_BDI_STORES);				\
} while (0)

/* The stable name of a count ("global_reads", ...). */
const char *mmscale_count_name(enum mmscale_count c);

void mmscale_counts_reset(void);

/* Copy out the calling thread's counts (to publish them once). */
void mmscale_counts_snapshot(struct mmscale_counts *out);

/*
 * Machine-wide counts: every emulated CPU's thread registers its counts
 * (mmscale_cpu_enter does it), so a case can publish what the whole
 * machine did - the zone locks that IPI targets took, the IPIs they
 * handled - not only what its own thread did.
 */
void mmscale_counts_register(int cpu);
void mmscale_counts_unregister(int cpu);
void mmscale_counts_sum_all(struct mmscale_counts *out);
/*
 * Take what the machine counted between before and after (two
 * mmscale_counts_sum_all) out of the calling thread's counts, so that a
 * machine-wide window holds the operation alone: drain/full refills every
 * CPU's lists between drains, by cross-CPU calls whose counts are not the
 * drain's. Only while no other CPU counts anything of its own.
 */
void mmscale_counts_exclude(const struct mmscale_counts *before,
			    const struct mmscale_counts *after);
/* Size the registry for nr_cpus emulated CPUs (the machine setup). */
int mmscale_counts_registry_init(int nr_cpus);
void mmscale_counts_registry_free(void);

/*
 * Hold accounting, for drain/full: how many pages (MMSCALE_PAGES_MOVED) an
 * emulated CPU moved within one zone->lock hold and within one section
 * with its interrupts off, and with clocked accounting how long each
 * lasted; the largest of each per CPU. Off (0) everywhere else: then each
 * zone->lock acquisition and each interrupts-off transition pays one load
 * of mmscale_hold_accounting (written only while no emulated CPU runs a
 * case, so its line stays shared) and a branch not taken. On, the hooks
 * write the CPU's own thread-local state only: no line another CPU reads
 * while it runs. The clock reads of clocked accounting sit inside the
 * holds they time (two ktime_get_ns, tens of ns, per hold and section):
 * the page counts beside them are exact and cost no clock.
 */
enum mmscale_max {
	MMSCALE_MAX_ZONE_HOLD_PAGES,	/* pages moved in one zone->lock hold */
	MMSCALE_MAX_IRQOFF_PAGES,	/* pages moved in one interrupts-off section */
	MMSCALE_MAX_ZONE_HOLD_NS,	/* clocked: the longest zone->lock hold */
	MMSCALE_MAX_IRQOFF_NS,		/* clocked: the longest interrupts-off section */
	MMSCALE_NR_MAXIMA
};

enum mmscale_hold_mode {
	MMSCALE_HOLDS_OFF,
	MMSCALE_HOLDS_PAGES,		/* the page maxima */
	MMSCALE_HOLDS_CLOCKED,		/* and the time maxima */
};

extern int mmscale_hold_accounting;	/* enum mmscale_hold_mode */

static __always_inline bool mmscale_holds_counted(void)
{
	return unlikely(__atomic_load_n(&mmscale_hold_accounting, __ATOMIC_RELAXED) != 0);
}

/* The hooks: zone->lock taken (after the acquisition) and about to be released. */
void mmscale_zone_hold_begin(void);
void mmscale_zone_hold_end(void);
/* Interrupts going off on an emulated CPU whose were on, and back on. */
void mmscale_irqoff_begin(void);
void mmscale_irqoff_end(void);

/*
 * Set the mode between operations; it clears every CPU's maxima. A section
 * that began while accounting was off is not measured.
 */
void mmscale_holds_set_mode(enum mmscale_hold_mode mode);
/*
 * The largest of each over every registered CPU, then cleared (between
 * operations): it waits for each CPU's open sections to close first (an
 * IPI target still leaving its handler when the caller's call returned).
 */
void mmscale_maxima_collect_all(uint64_t out[MMSCALE_NR_MAXIMA]);

#endif /* MMSCALE_OPCOUNT_H */
