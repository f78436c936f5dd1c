// SPDX-License-Identifier: GPL-2.0
/*
 * Linux 6.18's dirty throttling in the virtual-time world of throttle/
 * (kernel/linux-3.2/world/throttle.c, through include/mmscale/mm/throttle_kernel.h):
 * the row "6.18" beside 3.1, 3.2 and the v11 variants in the seed's 19
 * scenarios. Built with MMSCALE_WB_6_18_WORLD, with its own build of
 * kernel/linux-6.18/mm/page-writeback.c and kernel/linux-6.18/lib/flex_proportions.c
 * (the suffix _6_18_world) and the world's percpu_counter
 * (kernel/linux-6.18/world/throttle_percpu_counter.c).
 *
 * What the kernel code decides is 6.18's, ported: balance_dirty_pages and
 * its ratelimit, the limits, the bandwidth and ratelimit estimation, the
 * position ratio and the pauses; the writeout fractions (flex proportions
 * aged by writeout_period every 3 s); and the flusher's side of
 * page-writeback.c: wb_over_bg_thresh, the bandwidth updates
 * do_writepages and the inode writeback end (bw_dwork, 200 ms later)
 * make. What this file adds, from 6.18's sources:
 * - folio_account_dirtied's per-task and per-CPU counts (page-writeback.c
 *   2647-2671: current->nr_dirtied, bdp_ratelimits; the world counts the
 *   global and wb items), one page a call (4 KiB folios);
 * - __folio_start_writeback's and __folio_end_writeback's wb parts
 *   (3022-3060, 2985-3020): the inode's writeback start and end, and
 *   __wb_writeout_add through wb_writeout_inc, per page;
 * - fs/fs-writeback.c's writeback_chunk_size for background work (not in
 *   ../shared/kernel: as 3.2's, half a second of the wb's bandwidth, at
 *   most the domain's dirty_limit / DIRTY_SCOPE, rounded down to 4 MiB
 *   after adding 4 MiB), and the WB_writeback_running bit that
 *   writeback_in_progress tests, set from the flusher's wakeup until it
 *   stops (in fs-writeback.c the flusher's work sets and clears it);
 * - copy_process's nr_dirtied_pause (32 pages) and bdi_register's
 *   WB_registered bit.
 * The world's modelling (the disks, the flusher's request queue, the dd
 * tasks' copying) is the 3.x rows', unchanged; kernel/linux-3.2/world/throttle.c says it.
 *
 * Counted as the 3.x rows count: balance_dirty_pages' calls and passes
 * (a pass that left at a freerun test is not a throttled one), its global
 * reads, wb_stat reads and sum slots in the calls (the flusher's and the
 * trace's are not; the slots include the writeout fraction's sums over
 * the CPUs, fprop_reflect_period_percpu's, when a pass is the first to
 * see a new period), and the bandwidth samples its calls took. Under the
 * world's percpu_error, max_bdi_error is the largest gap any wb read saw,
 * the flusher's included (its wb_over_bg_thresh reads WB_RECLAIMABLE).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mmscale/linux-6.18/mm/mmzone.h"
#include "mmscale/linux-6.18/mm/writeback.h"
#include "mmscale/opcount.h"

/* include/linux/writeback.h 26, and fs/fs-writeback.c's */
#define DIRTY_SCOPE		8
#define MIN_WRITEBACK_PAGES	(4096UL >> (PAGE_SHIFT - 10))

/* Timers by id: the domain's period timer, then each disk's bw_dwork. */
#define TIMER_PERIOD		0
#define TIMER_BW_DWORK(disk)	(1 + (disk))

static int k_nr_timers(const struct throttle_kernel_setup *s)
{
	return TIMER_BW_DWORK(s->nr_disks);
}

struct task_6_18 *wb_6_18_world_current;

static struct {
	int nr_disks, nr_tasks, dd_per_disk;
	struct backing_dev_info *bdis;
	struct task_6_18 *tasks;
	struct wb_domain dom;
	bool dom_ready;
	bool *bw_dwork_pending;		/* per disk */
	struct task_6_18 tracer;	/* current while the trace looks (no PF_ flags) */
	s32 *sample_events;		/* the trace's copy of a wb's per-CPU completions */
} k;

static struct backing_dev_info *task_bdi(int task)
{
	return &k.bdis[task / k.dd_per_disk];
}

/* ---- the environment the ported code calls ---- */

static enum throttle_world_item world_item_of_zone(enum zone_stat_item item)
{
	if (item == NR_FREE_PAGES)
		return THROTTLE_FREE_PAGES;
	throttle_fail("6.18 read a zone item the throttle world does not keep");
	return THROTTLE_NR_WORLD_ITEMS;
}

static enum throttle_world_item world_item_of_node(enum node_stat_item item)
{
	switch (item) {
	case NR_ACTIVE_FILE:
		return THROTTLE_ACTIVE_FILE;
	case NR_INACTIVE_FILE:
		return THROTTLE_INACTIVE_FILE;
	case NR_FILE_DIRTY:
		return THROTTLE_FILE_DIRTY;
	case NR_WRITEBACK:
		return THROTTLE_WRITEBACK;
	default:
		throttle_fail("6.18 read a node item the throttle world does not keep");
		return THROTTLE_NR_WORLD_ITEMS;
	}
}

/* vmstat.h's global reads: counted as the machine's are, the world's counts. */
unsigned long global_zone_page_state(enum zone_stat_item item)
{
	enum throttle_world_item w = world_item_of_zone(item);

	mmscale_count_inc(MMSCALE_GLOBAL_READS);
	return w == THROTTLE_NR_WORLD_ITEMS ? 0 : throttle_global_read(w);
}

unsigned long global_node_page_state(enum node_stat_item item)
{
	enum throttle_world_item w = world_item_of_node(item);

	mmscale_count_inc(MMSCALE_GLOBAL_READS);
	return w == THROTTLE_NR_WORLD_ITEMS ? 0 : throttle_global_read(w);
}

static int disk_of_wb(struct bdi_writeback *wb)
{
	return (int)(wb->bdi - k.bdis);
}

/* wb_start_background_writeback: wb_wakeup queues the flusher's work. */
void wb_start_background_writeback_6_18(struct bdi_writeback *wb)
{
	throttle_start_flusher(disk_of_wb(wb));
}

void wb_6_18_mod_period_timer(struct wb_domain *dom, unsigned long expires)
{
	(void)dom;
	throttle_arm_timer(TIMER_PERIOD, expires);
}

void wb_6_18_queue_bw_dwork(struct bdi_writeback *wb, unsigned long delay)
{
	int disk = disk_of_wb(wb);

	if (k.bw_dwork_pending[disk])
		return;
	k.bw_dwork_pending[disk] = true;
	throttle_arm_timer(TIMER_BW_DWORK(disk), jiffies + delay);
}

/* ---- balance_dirty_pages, counted ---- */

/* One more pass through the loop after a pause (balance_dirty_pages_resume's). */
static long counted_loop(struct bdi_writeback *wb)
{
	long pause = balance_dirty_pages_loop(wb);

	throttle_count_bdp_pass(!current->bdp.gdtc.freerun);
	return pause;
}

static long counted(struct backing_dev_info *bdi, bool resume)
{
	struct mmscale_counts before, after;
	unsigned long stamp = bdi->wb.bw_time_stamp;
	long pause;

	mmscale_counts_snapshot(&before);
	if (resume) {
		pause = balance_dirty_pages_resume(&bdi->wb);
	} else {
		current->bdp.loop = NULL;	/* set when the ratelimit calls balance_dirty_pages */
		pause = balance_dirty_pages_ratelimited_flags(bdi, 0);
		if (current->bdp.loop) {
			throttle_count_bdp_call();
			throttle_count_bdp_pass(!current->bdp.gdtc.freerun);
			current->bdp.loop = counted_loop;
		}
	}
	mmscale_counts_snapshot(&after);
	if (bdi->wb.bw_time_stamp != stamp)
		throttle_count_bw_sample();
	throttle_count_reads(after.v[MMSCALE_GLOBAL_READS] - before.v[MMSCALE_GLOBAL_READS],
			     after.v[MMSCALE_BDI_READS] - before.v[MMSCALE_BDI_READS],
			     after.v[MMSCALE_PERCPU_SUM_SLOTS] - before.v[MMSCALE_PERCPU_SUM_SLOTS]);
	return pause;
}

static long k_dirtied(int task)
{
	current = &k.tasks[task];
	/* folio_account_dirtied's task and CPU counts (nr = 1) */
	current->nr_dirtied++;
	this_cpu_ptr(bdp_ratelimits)[0]++;
	return counted(task_bdi(task), false);
}

static long k_resume(int task)
{
	current = &k.tasks[task];
	return counted(task_bdi(task), true);
}

/*
 * balance_dirty_pages_ratelimited_flags' two triggers after the next page:
 * the task's nr_dirtied reaching its ratelimit, this CPU's bdp_ratelimits
 * reaching ratelimit_pages (dirty_throttle_leaks stay 0: no task exits).
 */
static long k_pages_until_check(int task)
{
	struct task_6_18 *t = &k.tasks[task];
	long ratelimit = t->nr_dirtied_pause;
	long until_task, until_cpu;

	if (READ_ONCE(task_bdi(task)->wb.dirty_exceeded))
		ratelimit = min(ratelimit, 32L >> (PAGE_SHIFT - 10));
	until_task = ratelimit - t->nr_dirtied;
	until_cpu = ratelimit_pages - this_cpu_ptr(bdp_ratelimits)[0];
	return min(until_task, until_cpu);
}

/* ---- the counts and the flusher ---- */

static void k_disk_stat_mod(int disk, enum throttle_disk_item item, long amount)
{
	wb_stat_mod(&k.bdis[disk].wb, (enum wb_stat_item)item, amount);
}

static void k_flusher_running(int disk, bool running)
{
	struct bdi_writeback *wb = &k.bdis[disk].wb;

	if (running)
		set_bit(WB_writeback_running, &wb->state);
	else
		clear_bit(WB_writeback_running, &wb->state);
}

static bool k_over_bg_thresh(int disk)
{
	return wb_over_bg_thresh(&k.bdis[disk].wb);
}

static unsigned long k_writeback_chunk_size(int disk, unsigned long nr_pages)
{
	struct bdi_writeback *wb = &k.bdis[disk].wb;
	unsigned long pages;

	pages = min(READ_ONCE(wb->avg_write_bandwidth) / 2,
		    READ_ONCE(global_wb_domain->dirty_limit) / DIRTY_SCOPE);
	pages = min(pages, nr_pages);
	return (pages + MIN_WRITEBACK_PAGES) / MIN_WRITEBACK_PAGES * MIN_WRITEBACK_PAGES;
}

static void k_writepages_start(int disk)
{
	do_writepages_start(&k.bdis[disk].wb);
}

static void k_writepages_end(int disk)
{
	do_writepages_end(&k.bdis[disk].wb);
}

static void k_inode_writeback_start(int disk)
{
	wb_inode_writeback_start(&k.bdis[disk].wb);
}

static void k_inode_writeback_end(int disk)
{
	wb_inode_writeback_end(&k.bdis[disk].wb);
}

static void k_writeout(int disk)
{
	wb_writeout_inc(&k.bdis[disk].wb);
}

static void k_timer(int id)
{
	if (id == TIMER_PERIOD) {
		writeout_period(&k.dom);
	} else {
		int disk = id - TIMER_BW_DWORK(0);

		/* wb_update_bandwidth_workfn */
		k.bw_dwork_pending[disk] = false;
		wb_update_bandwidth(&k.bdis[disk].wb);
	}
}

/*
 * The trace: the limits and disk's control values as its next pass would
 * see them. Looking must not change the run: the wb's share
 * (__wb_calc_thresh's fprop_fraction_percpu) may age the wb's completions
 * to a new period, which the run's own next reader would do, so the
 * completions are put back as they were.
 */
static void k_sample(int disk, struct throttle_sample *s)
{
	struct bdi_writeback *wb = &k.bdis[disk].wb;
	struct fprop_local_percpu *pl = &wb->completions;
	struct dirty_throttle_control gdtc = { .wb = wb, .wb_completions = pl };
	struct task_6_18 *was = current;
	unsigned int period = pl->period;
	s64 events = pl->events.count;
	size_t cpus = (size_t)throttle_nr_cpus();
	unsigned long x;

	memcpy(k.sample_events, pl->events.counters, cpus * sizeof(*k.sample_events));
	current = &k.tracer;
	balance_domain_limits(&gdtc, false);
	balance_wb_limits(&gdtc, false);
	current = was;
	pl->period = period;
	pl->events.count = events;
	memcpy(pl->events.counters, k.sample_events, cpus * sizeof(*k.sample_events));
	s->thresh = gdtc.thresh;
	s->bg_thresh = gdtc.bg_thresh;
	s->freerun = (gdtc.thresh + gdtc.bg_thresh) / 2;	/* dirty_freerun_ceiling */
	s->limit = max(gdtc.thresh, READ_ONCE(k.dom.dirty_limit));	/* hard_dirty_limit */
	s->setpoint = (s->freerun + s->limit) / 2;
	s->bdi_thresh = gdtc.wb_thresh;
	/* wb_position_ratio's wb_setpoint (page-writeback.c 1192-1199) */
	x = (unsigned long)div_u64((u64)min(gdtc.wb_thresh, gdtc.thresh) << 16,
				   (u32)(gdtc.thresh | 1));
	s->bdi_setpoint = (unsigned long)((u64)s->setpoint * x >> 16);
	s->dirty_ratelimit = READ_ONCE(wb->dirty_ratelimit);
	s->balanced_dirty_ratelimit = READ_ONCE(wb->balanced_dirty_ratelimit);
	s->write_bw = READ_ONCE(wb->avg_write_bandwidth);
	s->pos_ratio = gdtc.pos_ratio;
}

/* ---- boot and exit ---- */

static void k_exit(void)
{
	if (k.bdis)
		for (int i = 0; i < k.nr_disks; i++)
			bdi_exit_6_18(&k.bdis[i]);
	if (k.dom_ready)
		wb_domain_exit(&k.dom);
	free(k.bdis);
	free(k.tasks);
	free(k.bw_dwork_pending);
	free(k.sample_events);
	free(bdp_ratelimits);
	free(dirty_throttle_leaks);
	memset(&k, 0, sizeof(k));
	bdp_ratelimits = NULL;
	dirty_throttle_leaks = NULL;
	global_wb_domain = NULL;
	current = NULL;
}

static int k_init(const struct throttle_kernel_setup *s, long *ratelimit, char *err,
		  size_t errlen)
{
	memset(&k, 0, sizeof(k));
	k.nr_disks = s->nr_disks;
	k.nr_tasks = s->nr_tasks;
	k.dd_per_disk = s->dd_per_disk;
	compute_batch_value_6_18();	/* percpu_counter_startup, for the world's CPUs */
	writeback_6_18_reset();
	vm_dirty_bytes = s->sysctl_dirty_bytes;
	vm_dirty_ratio = s->sysctl_dirty_ratio;
	dirty_background_ratio = s->sysctl_dirty_background_ratio;
	dirty_background_bytes = s->sysctl_dirty_background_bytes;
	/* totalreserve_pages stays 0: the world's memory is all free or page cache. */
	k.bdis = calloc((size_t)s->nr_disks, sizeof(*k.bdis));
	k.tasks = calloc((size_t)s->nr_tasks, sizeof(*k.tasks));
	k.bw_dwork_pending = calloc((size_t)s->nr_disks, sizeof(*k.bw_dwork_pending));
	k.sample_events = calloc((size_t)s->nr_cpus, sizeof(*k.sample_events));
	bdp_ratelimits = calloc((size_t)s->nr_cpus, sizeof(int));
	dirty_throttle_leaks = calloc((size_t)s->nr_cpus, sizeof(int));
	if (!k.bdis || !k.tasks || !k.bw_dwork_pending || !k.sample_events || !bdp_ratelimits ||
	    !dirty_throttle_leaks)
		goto oom;
	global_wb_domain = &k.dom;
	if (wb_domain_init(&k.dom))
		goto oom;
	k.dom_ready = true;
	for (int i = 0; i < s->nr_disks; i++) {
		if (bdi_init_6_18(&k.bdis[i])) {
			k.nr_disks = i;
			goto oom;
		}
		set_bit(WB_registered, &k.bdis[i].wb.state);	/* bdi_register */
	}
	for (int i = 0; i < s->nr_tasks; i++) {
		/* copy_process (kernel/fork.c): nr_dirtied_pause = 128 >> (PAGE_SHIFT - 10) */
		k.tasks[i].nr_dirtied_pause = 128 >> (PAGE_SHIFT - 10);
		k.tasks[i].dirty_paused_when = 0;
	}
	writeback_set_ratelimit();
	*ratelimit = ratelimit_pages;
	return 0;
oom:
	k_exit();
	snprintf(err, errlen, "6.18 in the throttle world: out of memory");
	return -1;
}

/* For the tests (counters/tests/throttle_6_18_probe.c): disk's bdi, inside a run. */
struct backing_dev_info *throttle_6_18_bdi(int disk)
{
	return disk >= 0 && disk < k.nr_disks ? &k.bdis[disk] : NULL;
}

const struct throttle_kernel throttle_kernel_6_18 = {
	.init = k_init,
	.exit = k_exit,
	.nr_timers = k_nr_timers,
	.dirtied = k_dirtied,
	.resume = k_resume,
	.pages_until_check = k_pages_until_check,
	.disk_stat_mod = k_disk_stat_mod,
	.flusher_running = k_flusher_running,
	.over_bg_thresh = k_over_bg_thresh,
	.writeback_chunk_size = k_writeback_chunk_size,
	.writepages_start = k_writepages_start,
	.writepages_end = k_writepages_end,
	.inode_writeback_start = k_inode_writeback_start,
	.inode_writeback_end = k_inode_writeback_end,
	.writeout = k_writeout,
	.timer = k_timer,
	.sample = k_sample,
};
