/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Cache-line transfers, counted without a PMU (mmscale --transfers).
 *
 * The counting build (build/mmscale-transfers, CMakeLists.txt) compiles the
 * emulated kernel, the cases and the c2c floor with GCC's thread-sanitizer
 * instrumentation, as the kernel's KCSAN does, but links no sanitizer
 * runtime: kernel/transfers.c supplies the __tsan_read*, __tsan_write* and
 * __tsan_atomic* hooks the compiler calls before every access. Each access
 * is attributed to the emulated CPU the calling thread is
 * (smp_processor_id()), and a shadow entry per cache line (64 bytes, or 128
 * with --transfer-line=128) keeps the line's last writer and the CPUs that
 * hold a copy of it since, as MIT's mtrace did, with caches taken as fully
 * associative and unbounded:
 *
 *   - a read is a transfer when another CPU wrote the line since this CPU
 *     last accessed it (this CPU holds no copy, and the line is dirty
 *     elsewhere); a read of a line no CPU wrote since it came from memory
 *     moves nothing between CPUs;
 *   - a write or a locked read-modify-write is a transfer when the CPU
 *     holds no copy and another CPU does (the data and ownership move to it:
 *     a read for ownership); when it holds a copy that others hold too, it
 *     only invalidates theirs: an upgrade, counted apart, not a transfer.
 *
 * So a ping-pong round trip is 2 transfers (and 2 upgrades), a read of a
 * line its partner keeps writing 1, a read of a line nobody writes 0: the
 * floors tests/test_transfers.c checks. The previous holder is the line's
 * last writer (the CPU with the dirty copy), or, for a line no CPU wrote,
 * its last accessor; its distance from the requester on the plan's
 * topology (same core, same last-level cache, same node, another node)
 * splits the counts.
 *
 * A write by a thread that is no emulated CPU (a case's setup) puts the
 * line back in memory: the next CPU to touch it moves nothing; such a
 * thread's reads change nothing. The emulated machine's own hardware (the doorbells, in
 * bench/) is not instrumented, and neither are the counts themselves.
 *
 * Counts go to the requester's thread-local counts (mmscale/opcount.h:
 * MMSCALE_XFER_*), so per-operation figures, machine-wide windows and
 * claims work as for every other count. The lines themselves (which one
 * moved how often, from which instruction) and the requester x previous
 * holder pairs are kept per window (mmscale_transfers_window_begin).
 *
 * In the timed build (build/mmscale) nothing here is compiled but the
 * answers "not counting": no hook, no store, no branch in a timed path.
 */
#ifndef MMSCALE_KERNEL_TRANSFERS_H
#define MMSCALE_KERNEL_TRANSFERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Where the previous holder sits, relative to the requester. */
enum mmscale_xfer_class {
	MMSCALE_XFER_SAME_CORE,		/* an SMT sibling (or the same PU, oversubscribed) */
	MMSCALE_XFER_SAME_CACHE,	/* another core under the same last-level cache */
	MMSCALE_XFER_SAME_NODE,		/* another cache of the same node */
	MMSCALE_XFER_OTHER_NODE,	/* another node (its hwloc distance in the pairs) */
	MMSCALE_NR_XFER_CLASSES
};

/* The access that moved a line: a read, a plain write, a locked read-modify-write. */
enum mmscale_xfer_access {
	MMSCALE_XFER_BY_READ,
	MMSCALE_XFER_BY_WRITE,
	MMSCALE_XFER_BY_LOCKED,
};

/* The planned machine, per emulated CPU: what the classes are computed from. */
struct mmscale_xfer_topology {
	int nr_cpus;
	const int *core;	/* a core id per CPU */
	const int *llc;		/* a last-level cache id per CPU, -1: unknown */
	const int *node;	/* a node per CPU */
};

/* True in the counting build (build/mmscale-transfers). */
bool mmscale_transfers_counting(void);

/*
 * Set the line size (64 or 128) before the machine boots; -1 with one line
 * in err for another size.
 */
int mmscale_transfers_set_line(int bytes, char *err, size_t errlen);
int mmscale_transfers_line(void);

/* The plan's CPUs (machine_boot), and forgetting every line (machine_halt). */
int mmscale_transfers_boot(const struct mmscale_xfer_topology *t, char *err, size_t errlen);
void mmscale_transfers_halt(void);

/* Class of a transfer from holder to requester on the booted plan. */
enum mmscale_xfer_class mmscale_transfers_class(int requester, int holder);

/*
 * A new window: the lines' and the pairs' tallies start again (the counts
 * are the harness's, reset per thread). Tallies restart lazily, line by
 * line, so CPUs may run meanwhile (a partner waiting for its round trip);
 * what they move before the window opens is not in it.
 */
void mmscale_transfers_window_begin(void);

/*
 * Stop and restart tallying lines and pairs (the counts are taken out by
 * mmscale_counts_exclude): drain/full's refills between drains.
 */
void mmscale_transfers_pause(bool paused);

/* One line of the window's hottest, by transfers. */
struct mmscale_hot_line {
	uintptr_t addr;			/* the line's first byte */
	uint64_t transfers;		/* all three kinds */
	uint64_t reads, writes, locked;	/* transfers by the requester's access */
	uint64_t upgrades;
	enum mmscale_xfer_access most;	/* the kind that moved it most (ties: locked, read) */
	/* The latest transfer of that kind: its instruction, size, offset. */
	uintptr_t pc;
	unsigned int access_bytes;
	uintptr_t offset;
};

/* The window's max hottest lines, most transfers first; returns how many. */
int mmscale_transfers_hottest(struct mmscale_hot_line *out, int max);

/* One (requester, previous holder) pair of the window. */
struct mmscale_xfer_pair {
	int requester, holder;
	uint64_t transfers;
};

/*
 * The window's pairs with transfers, up to max, most first; returns how
 * many there are in all (more than max: the rest left off).
 */
size_t mmscale_transfers_pairs(struct mmscale_xfer_pair *out, size_t max);
/* How many pairs the window has so far. */
size_t mmscale_transfers_nr_pairs(void);

/*
 * Allocations, to name the lines the hottest list shows (the counting build
 * only: kernel/machine.c's alloc_on_node and kernel/percpu.c note theirs,
 * with their caller). A per-CPU allocation is keyed by its offset in every
 * CPU's unit (percpu true), anything else by its address.
 */
void mmscale_transfers_note_alloc(bool percpu, uintptr_t start, size_t size, uintptr_t caller);
void mmscale_transfers_note_free(bool percpu, uintptr_t start);
/* The allocation holding key: its caller and key's offset in it; false if none. */
bool mmscale_transfers_alloc_of(bool percpu, uintptr_t key, uintptr_t *caller, size_t *offset);

/* Accesses a hook could not attribute (a signal handler inside a hook). */
uint64_t mmscale_transfers_unattributed(void);

#endif
