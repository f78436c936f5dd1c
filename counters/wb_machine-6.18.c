// SPDX-License-Identifier: GPL-2.0
/*
 * Linux 6.18's balance_dirty_pages on pinned threads of the emulated
 * machine (counters/wb_machine-6.18.h): the environment kernel/linux-6.18/mm/page-writeback.c
 * runs in (current, jiffies, the flusher's wakeup, the period timer), the
 * kernel's boot-time state for it (page_writeback_init's wb_domain_init
 * and writeback_set_ratelimit, one bdi), and the bench's state.
 */
#include <stdatomic.h>
#include <string.h>

#include "wb_machine-6.18.h"
#include "mmscale/errorf.h"
#include "mmscale/kernel/machine.h"
#include "mmscale/kernel/percpu.h"
#include "mmscale/linux-6.18/mm/vmstat.h"
#include "mmscale/linux-6.18/mm/writeback.h"

_Thread_local struct task_6_18 wb_6_18_current;
/* No timer advances it while a run is timed: a call takes well under a jiffy. */
volatile unsigned long wb_6_18_jiffies;

static struct bdp_6_18_machine {
	struct backing_dev_info *bdi;	/* the disk's (bdi_alloc: kzalloc_node) */
	struct wb_domain *dom;		/* global_wb_domain, static data: node 0 */
	balance_dirty_pages_loop_fn loop;	/* the row's */
	int nr_dirtied_pause;		/* what the timed calls pass */
	int dirty_exceeded;		/* as the state set it */
	unsigned long dirty_thresh;	/* global_dirty_limits' at set-up: the claims' */
	/* Not the kernel's: a call that reached what the state excludes. */
	const char *_Atomic left_state;
} machine;

/*
 * fs/fs-writeback.c queues work for the wb's flusher. Neither state
 * reaches it (nothing is over the background threshold when nothing is
 * dirty; the flusher is running when the dirty pages are over it), so a
 * call that does fails the run at its teardown, named.
 */
void wb_start_background_writeback_6_18(struct bdi_writeback *wb)
{
	(void)wb;
	atomic_store_explicit(&machine.left_state, "a call woke the flusher",
			      memory_order_relaxed);
}

/*
 * mod_timer(&dom->period_timer): only writeback completions arm it, and
 * no call completes writeback here; a call that does fails the run.
 */
void wb_6_18_mod_period_timer(struct wb_domain *dom, unsigned long expires)
{
	(void)dom;
	(void)expires;
	atomic_store_explicit(&machine.left_state, "a call armed the completions' period timer",
			      memory_order_relaxed);
}

int bdp_6_18_teardown(char *err, size_t errlen)
{
	const char *left = atomic_load_explicit(&machine.left_state, memory_order_relaxed);
	int status = 0;

	if (!left && machine.bdi && machine.bdi->wb.dirty_exceeded != machine.dirty_exceeded)
		left = "a call changed wb->dirty_exceeded";
	if (left)
		status = mmscale_errorf(err, errlen, "%s, which its state excludes", left);
	if (machine.bdi) {
		if (machine.bdi->wb.stat[0].counters)
			bdi_exit_6_18(machine.bdi);
		free_on_node(machine.bdi, sizeof(*machine.bdi));
	}
	if (machine.dom) {
		if (machine.dom->completions.events.counters)
			wb_domain_exit(machine.dom);
		free_on_node(machine.dom, sizeof(*machine.dom));
	}
	global_wb_domain = NULL;
	free_percpu(bdp_ratelimits);
	free_percpu(dirty_throttle_leaks);
	bdp_ratelimits = dirty_throttle_leaks = NULL;
	memset(&machine, 0, sizeof(machine));
	return status;
}

/*
 * Move pages of the wb's file from free to the inactive file LRU, dirty
 * or under writeback, in the zones', nodes' and wb's counts: from each
 * populated zone in turn what it has free. -1 if they do not fit.
 */
static int account_cached(struct bdi_writeback *wb, unsigned long dirty, unsigned long writeback)
{
	unsigned long dirty_left = dirty, left = dirty + writeback;
	struct zone *zone;

	for_each_populated_zone(zone) {
		unsigned long take = min(left, zone_page_state(zone, NR_FREE_PAGES));
		unsigned long take_dirty = min(take, dirty_left);
		struct pglist_data *pgdat = zone->zone_pgdat;

		zone_page_state_add(-(long)take, zone, NR_FREE_PAGES);
		zone_page_state_add((long)take, zone, NR_ZONE_INACTIVE_FILE);
		zone_page_state_add((long)take, zone, NR_ZONE_WRITE_PENDING);
		node_page_state_add((long)take, pgdat, NR_FILE_PAGES);
		node_page_state_add((long)take, pgdat, NR_INACTIVE_FILE);
		node_page_state_add((long)take_dirty, pgdat, NR_FILE_DIRTY);
		node_page_state_add((long)(take - take_dirty), pgdat, NR_WRITEBACK);
		dirty_left -= take_dirty;
		left -= take;
	}
	percpu_counter_set_6_18(&wb->stat[WB_RECLAIMABLE], (s64)dirty);
	percpu_counter_set_6_18(&wb->stat[WB_WRITEBACK], (s64)writeback);
	return left ? -1 : 0;
}

/* A task as at fork (copy_process: nr_dirtied_pause 128 KiB), on this thread. */
static void task_at_fork(void)
{
	memset(current, 0, sizeof(*current));
	current->nr_dirtied_pause = 128 >> (PAGE_SHIFT - 10);
}

/*
 * The setup thread's task dirties and calls as a dd task does until its
 * first sleep (each call resumed after its pause), so that the timed
 * calls pass what a throttled task passes. Then one call with that, which
 * must reach the sleep.
 */
static int settle_throttled(char *err, size_t errlen)
{
	struct bdi_writeback *wb = &machine.bdi->wb;
	bool slept = false;

	task_at_fork();
	for (int call = 0; call < 64 && !slept; call++) {
		long pause = balance_dirty_pages_variant(machine.loop, wb,
							 (unsigned long)current->nr_dirtied_pause, 0);

		while (pause > 0) {
			slept = true;
			pause = balance_dirty_pages_resume(wb);
		}
	}
	if (!slept)
		return mmscale_errorf(err, errlen, "6.18's throttled state: no call slept in 64");
	machine.nr_dirtied_pause = current->nr_dirtied_pause;
	bdp_6_18_enter();
	if (bdp_6_18_call() <= 0)
		return mmscale_errorf(err, errlen, "6.18's throttled state: a call of %d pages "
				      "does not reach the sleep", machine.nr_dirtied_pause);
	return 0;
}

int bdp_6_18_setup(balance_dirty_pages_loop_fn loop, enum iol_bdp_state state,
		   char *err, size_t errlen)
{
	unsigned long background_thresh, dirty_thresh, freerun, limit, setpoint, nr_dirty;
	struct bdi_writeback *wb;

	memset(&machine, 0, sizeof(machine));
	machine.loop = loop;
	/*
	 * The sysctls at their defaults but for the seed's thresh=100M,
	 * written as dirty_bytes_handler does (page-writeback.c 530-546: it
	 * zeroes vm_dirty_ratio).
	 */
	writeback_6_18_reset();
	vm_dirty_bytes = IOL_BDP_DIRTY_BYTES;
	vm_dirty_ratio = 0;
	/* mmscale: --set's dirty sysctls over the bench's (mm/config.h). */
	mm_dirty_sysctls_write(&vm_dirty_ratio, &vm_dirty_bytes, &dirty_background_ratio,
			       &dirty_background_bytes);
	wb_6_18_jiffies = 0;

	machine.dom = alloc_global(sizeof(*machine.dom), err, errlen);
	machine.bdi = machine.dom ? alloc_global(sizeof(*machine.bdi), err, errlen) : NULL;
	bdp_ratelimits = alloc_percpu(int);
	dirty_throttle_leaks = alloc_percpu(int);
	if (!machine.dom || !machine.bdi) {
		bdp_6_18_teardown(err, 0);	/* err says why */
		return -1;
	}
	memset(machine.bdi, 0, sizeof(*machine.bdi));
	global_wb_domain = machine.dom;
	/* page_writeback_init (2356-2367): the domain, then the CPUs' ratelimit. */
	if (!bdp_ratelimits || !dirty_throttle_leaks || wb_domain_init(machine.dom) != 0 ||
	    bdi_init_6_18(machine.bdi) != 0) {
		mmscale_errorf(err, errlen, "cannot allocate 6.18's writeback counters");
		bdp_6_18_teardown(err, 0);
		return -1;
	}
	writeback_set_ratelimit();
	wb = &machine.bdi->wb;
	/*
	 * A machine that has been writing to this one disk for long: every
	 * completion of the domain's is the wb's (a share of 1), in the
	 * current period; the wb registered, its dirty_limit where it followed
	 * the threshold (writeback_set_ratelimit set it).
	 */
	percpu_counter_set_6_18(&machine.dom->completions.events, IOL_BDP_BDI_THRESH);
	percpu_counter_set_6_18(&wb->completions.events, IOL_BDP_BDI_THRESH);
	set_bit(WB_registered, &wb->state);
	global_dirty_limits(&background_thresh, &dirty_thresh);
	machine.dirty_thresh = dirty_thresh;

	if (state == IOL_BDP_UNTHROTTLED) {
		task_at_fork();
		machine.nr_dirtied_pause = current->nr_dirtied_pause;
		/* One call first: it stores only in the task. */
		bdp_6_18_enter();
		bdp_6_18_call();
		machine.dirty_exceeded = wb->dirty_exceeded;
		return 0;
	}

	/* Halfway between the setpoint (wb_position_ratio, 1091) and the limit. */
	freerun = (dirty_thresh + background_thresh) / 2;
	limit = max(dirty_thresh, machine.dom->dirty_limit);
	setpoint = (freerun + limit) / 2;
	nr_dirty = (setpoint + limit) / 2;
	if (account_cached(wb, nr_dirty / 4, nr_dirty - nr_dirty / 4) != 0) {
		mmscale_errorf(err, errlen, "the throttled state's %lu dirty pages do not fit in "
			       "6.18's emulated memory", nr_dirty);
		bdp_6_18_teardown(err, 0);
		return -1;
	}
	/* wb_io_lists_populated: dirty inodes, and the wb's bandwidth in the bdi's total */
	set_bit(WB_has_dirty_io, &wb->state);
	atomic_fetch_add(&machine.bdi->tot_write_bandwidth, (long)wb->avg_write_bandwidth);
	set_bit(WB_writeback_running, &wb->state);
	if (settle_throttled(err, errlen) != 0) {
		bdp_6_18_teardown(err, 0);
		return -1;
	}
	machine.dirty_exceeded = wb->dirty_exceeded;
	return 0;
}

unsigned long bdp_6_18_dirty_thresh(void)
{
	return machine.dirty_thresh;
}

/* The thread's task: as the settled task was before its calls, its last pause just ended. */
void bdp_6_18_enter(void)
{
	memset(current, 0, sizeof(*current));
	current->nr_dirtied_pause = machine.nr_dirtied_pause;
}

long bdp_6_18_call(void)
{
	return balance_dirty_pages_variant(machine.loop, &machine.bdi->wb,
					   (unsigned long)machine.nr_dirtied_pause, 0);
}

int bdp_6_18_call_pages(void)
{
	return machine.nr_dirtied_pause;
}

void bdp_6_18_set_jiffies(unsigned long now)
{
	wb_6_18_jiffies = now;
}
