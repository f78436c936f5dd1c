/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One balance_dirty_pages call of 3.1 and the IO-less kernels on pinned
 * threads of the emulated machine (counters/iol_machine.c, built with
 * MMSCALE_IOL_MACHINE): the bdp/ and bdp_throttled/ rows of
 * counters/iol_variant_list.h. This header names no kernel type, so that
 * 2.6.31's files (cases/writeback.c) can hold the rows beside their own.
 *
 * The state a run calls into (iol_bdp_setup), with the sysctls at 3.2's
 * defaults but vm.dirty_bytes = IOL_BDP_DIRTY_BYTES, the bdi holding the
 * whole writeout share (the steady state of a machine that has been writing
 * to one disk for long; a booted kernel takes two periods to get there) and
 * each task the whole dirtying share, as if it were the only dirtier: no
 * machine has N tasks each with all of it, but so 3.1's task limit is
 * IOL_BDP_TASK_BDI_THRESH whatever --threads is, and the claims do not
 * depend on the thread count (with a share of 1/N, as the 2.6.31 rows'
 * tasks have, 3.1's limit would be 25600 - 3200 / N pages):
 * - IOL_BDP_UNTHROTTLED: nothing dirty, the flusher idle (as bdp/'s
 *   2.6.31 rows): every kernel leaves at its first test.
 * - IOL_BDP_THROTTLED: dirty + writeback pages halfway between 3.2's
 *   setpoint and the limit, all of them the bdi's, a quarter dirty and the
 *   rest under writeback, the flusher running: 3.2 and the v11 variants
 *   throttle (pos_ratio below 1, a pause); 3.1 finds the bdi over the
 *   task's limit and, its dirty part under that limit, sleeps without
 *   writing back itself. The call is the pass up to that sleep
 *   (io_schedule_timeout: not taken).
 * Setup makes one call of the row's kernel first, which sets
 * bdi->dirty_exceeded as that kernel does here (3.1 sets it); the timed
 * calls then store only in the calling task, as on a machine that has been
 * in this state for a while.
 */
#ifndef MMSCALE_IOL_BDP_H
#define MMSCALE_IOL_BDP_H

#include <stdbool.h>
#include <stddef.h>

#include "iol_variant_list.h"

/* A row's ops, built for the machine (struct iol_variant_ops there). */
struct iol_machine_ops;
#define IOL_MACHINE_OPS(symbol)	symbol##_on_machine
#define X(symbol, ...) extern const struct iol_machine_ops IOL_MACHINE_OPS(symbol);
IOL_VARIANTS(X)
#undef X

enum iol_bdp_state {
	IOL_BDP_UNTHROTTLED,
	IOL_BDP_THROTTLED,
};

/*
 * Build the state on the running machine (mm_machine_setup first): -1 with
 * the reason in err. One at a time.
 */
int iol_bdp_setup(const struct iol_machine_ops *ops, enum iol_bdp_state state,
		  char *err, size_t errlen);
/*
 * The dirty threshold the state was built on (global_dirty_limits at
 * set-up; the bdi's threshold, its share being the whole): IOL_BDP_BDI_THRESH
 * unless --set moved the dirty sysctls.
 */
unsigned long iol_bdp_dirty_thresh(void);
/*
 * Whether the state's global_dirty_limits reads the dirtyable memory:
 * not where dirty_bytes and dirty_background_bytes are both set.
 */
bool iol_bdp_reads_dirtyable_memory(void);
/* The throttled state's dirty and writeback pages, as accounted (0 unthrottled). */
unsigned long iol_bdp_nr_dirty(void);
/* A thread's task and mapping meet the state: before its first call. */
void iol_bdp_enter(void);
/*
 * One balance_dirty_pages call through ops: the pause it would sleep, or
 * -1. Its argument is 32 pages: 3.2's pages_dirtied at a task's first call
 * (nr_dirtied_pause at fork, 128 KiB; with dirty_exceeded clear, as here);
 * 3.1 takes it as its write chunk, which a pass that does not write back
 * never uses.
 */
long iol_bdp_call(const struct iol_machine_ops *ops);
/* Free the state: -1 with why in err if a call left the state it was given. */
int iol_bdp_teardown(char *err, size_t errlen);

/*
 * For the tests (counters/tests/test_bdp.c): the emulated jiffies, the
 * calling thread's task's period start and dirtied count (v11 07/18's
 * dirty_paused_when, nr_dirtied), and the bdi's BDI_async_underrun bit
 * (v11 11/18), which no block queue sets on the machine.
 */
void iol_bdp_set_jiffies(unsigned long now);
void iol_bdp_set_task(unsigned long dirty_paused_when, int nr_dirtied);
unsigned long iol_bdp_task_paused_when(void);
int iol_bdp_task_nr_dirtied(void);
void iol_bdp_set_underrun(int on);

#endif /* MMSCALE_IOL_BDP_H */
