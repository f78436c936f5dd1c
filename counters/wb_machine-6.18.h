/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One balance_dirty_pages call of Linux 6.18 (kernel/linux-6.18/mm/page-writeback.c)
 * on pinned threads of the emulated machine: the rows of
 * counters/bdp_variants-6.18.h in bdp/ and bdp_throttled/
 * (cases/writeback.c), each with its loop. This header names no
 * kernel type but as an incomplete pointer, so that 2.6.31's files can
 * hold the rows beside their own.
 *
 * The state is the IO-less kernels' (counters/iol_bdp.h says why each
 * choice): vm.dirty_bytes = IOL_BDP_DIRTY_BYTES, the other sysctls at 6.18's
 * defaults, one bdi whose wb holds the whole share of the writeback
 * completions, on the 6.18 zones and nodes of kernel/linux-6.18/mm/vmstat.c (its
 * run setup first):
 * - IOL_BDP_UNTHROTTLED: nothing dirty, the flusher idle: the call leaves
 *   at its freerun test (6.18 stores only in the task there);
 * - IOL_BDP_THROTTLED: dirty and writeback pages halfway between the
 *   setpoint and the limit, all the wb's, a quarter dirty, the flusher
 *   running. The call is the pass up to its sleep. A task's pass sleeps
 *   only once its pause is at least wb_min_pause's (10 ms for one dd at
 *   INIT_BW), which 32 pages do not reach at the throttled rate: setup
 *   runs the task's calls, each resumed after its sleep, until it has
 *   slept once, as a dd task does in its first few calls. The timed calls
 *   then pass the nr_dirtied_pause that sleep set (its pages: 250 here),
 *   as a throttled dd does each time.
 * 6.18's throttled pass stores wb->dirty_exceeded and bdi->last_bdp_sleep
 * every time (3.2 set dirty_exceeded only when it changed): the same
 * values each time, so the state does not change, but the lines are
 * written by every thread (the row 6.18-store-if-changed stores neither
 * once settled).
 *
 * totalreserve_pages is 0: the watermarks it sums are kernel/linux-6.18/mm/page_alloc.c's,
 * which the counters do not build. It lowers the dirtyable memory, so the
 * background threshold only (the dirty threshold is the bytes'): no read
 * count depends on it.
 */
#ifndef MMSCALE_WB_MACHINE_6_18_H
#define MMSCALE_WB_MACHINE_6_18_H

#include <stddef.h>

#include "iol_bdp.h"

/* A row's loop (counters/bdp_variants-6.18.h): 6.18's or a variant's copy. */
struct bdi_writeback;
typedef long (*balance_dirty_pages_loop_fn)(struct bdi_writeback *wb);

/*
 * Build the state (vmstat_6_18_run_setup first) for the row whose loop is
 * given: -1 with why in err.
 */
int bdp_6_18_setup(balance_dirty_pages_loop_fn loop, enum iol_bdp_state state,
		   char *err, size_t errlen);
/* The dirty threshold the state was built on (iol_bdp_dirty_thresh's twin). */
unsigned long bdp_6_18_dirty_thresh(void);
/* A thread's task meets the state: before its first call. */
void bdp_6_18_enter(void);
/* One balance_dirty_pages call with the row's loop: the pause it would sleep, or -1. */
long bdp_6_18_call(void);
/* Free the state: -1 with why in err if a call left the state it was given. */
int bdp_6_18_teardown(char *err, size_t errlen);

/*
 * For the tests: the i-th 6.18 row of bdp/ and bdp_throttled/
 * (cases/writeback.c), its loop and claims (counters/bdp_claim.h);
 * its name, or NULL past the last.
 */
struct bdp_claim;
const char *bdp_6_18_row(size_t i, balance_dirty_pages_loop_fn *loop, struct bdp_claim *call,
			 struct bdp_claim *throttled);

/* For the tests: the pages each timed call passes, and the emulated jiffies. */
int bdp_6_18_call_pages(void);
void bdp_6_18_set_jiffies(unsigned long now);

#endif /* MMSCALE_WB_MACHINE_6_18_H */
