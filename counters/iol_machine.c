// SPDX-License-Identifier: GPL-2.0
/*
 * 3.1's and the IO-less kernels' balance_dirty_pages on pinned threads of
 * the emulated machine (counters/iol_bdp.h): the out-of-line functions the
 * kernel code calls there (include/mmscale/linux-3.2/machine.h says what is inline),
 * the kernel's boot-time state (3.2's bdi_init and page_writeback_init),
 * and the bench's state. Built with MMSCALE_IOL_MACHINE.
 */
#include <stdatomic.h>
#include <string.h>

#include "iol_bdp.h"
#include "iol_machine_zones.h"
#include "mmscale/linux-3.2/env.h"
#include "mmscale/kernel/machine.h"

_Thread_local struct throttle_task iol_machine_task;
volatile unsigned long iol_machine_jiffies;
int *iol_machine_bdp_ratelimits;

/*
 * The kernel's data that the calls read: the bdi of the disk being written
 * (a request queue's, allocated apart), and 3.1's two proportion
 * descriptors (static, adjacent in .bss; 3.2 keeps vm_completions only).
 * The bdi and the descriptors are allocated on node 0 with the
 * emulation's other global data; the mapping, which calls only read, is
 * here.
 */
static struct iol_machine {
	struct backing_dev_info *bdi;
	struct iol_machine_props {
		struct prop_descriptor vm_completions;
		struct prop_descriptor vm_dirties;
	} *props;
	struct address_space mapping;	/* the file the tasks write */
	/* Not the kernel's: a call that reached what the state excludes. */
	const char *_Atomic left_state;
	int dirty_exceeded;	/* as the state set it */
	unsigned long dirty_thresh;	/* global_dirty_limits' at set-up: the claims' */
	bool reads_dirtyable;		/* global_dirty_limits calls determine_dirtyable_memory */
	unsigned long nr_dirty;		/* the throttled state's dirty + writeback pages */
} machine;

/*
 * mm/swapfile.c of 3.2: free swap pages (a plain long until 3.10). The
 * machine's swap, when it has it, is as large as its memory, all free:
 * only its sign is read here.
 */
static long nr_swap_pages;

/* mm/vmscan.c of 3.1 and 3.2: the file LRUs, and the anon ones when there is swap. */
unsigned long global_reclaimable_pages(void)
{
	int nr;

	nr = global_page_state(NR_ACTIVE_FILE) + global_page_state(NR_INACTIVE_FILE);
	if (nr_swap_pages > 0)
		nr += global_page_state(NR_ACTIVE_ANON) + global_page_state(NR_INACTIVE_ANON);
	return nr;
}

/* fs/fs-writeback.c of 3.2 (not in ../shared/kernel). */
int writeback_in_progress(struct backing_dev_info *bdi)
{
	return test_bit(BDI_writeback_running, &bdi->state);
}

/*
 * fs/fs-writeback.c of 3.2 wakes the bdi's flusher thread under
 * bdi->wb_lock. The machine has no flusher: neither state reaches this
 * (nothing is over the background threshold when nothing is dirty; the
 * flusher is running when the dirty pages are over it), so a call that
 * does fails the run at its teardown, named.
 */
void bdi_start_background_writeback(struct backing_dev_info *bdi)
{
	(void)bdi;
	atomic_store_explicit(&machine.left_state, "a call woke the flusher",
			      memory_order_relaxed);
}

/*
 * 3.1's writeback from the dirtier is the virtual-time world's
 * (throttle/): in the throttled state its dirty part is under the task's
 * limit, so the pass sleeps without it. A call that gets here fails the
 * run, named.
 */
long throttle_writeback_inodes_wb(struct backing_dev_info *bdi, long nr_pages, bool *blocked)
{
	(void)bdi;
	(void)nr_pages;
	*blocked = false;
	atomic_store_explicit(&machine.left_state, "3.1's dirtier began writeback",
			      memory_order_relaxed);
	return 0;
}

/* Lines 239-244 of 3.2 (3.1's is the same). */
void bdi_writeout_fraction(struct backing_dev_info *bdi, long *numerator, long *denominator)
{
	prop_fraction_percpu(&machine.props->vm_completions, &bdi->completions,
			     numerator, denominator);
}

/* 3.1.3's task_dirties_fraction (its lines 263-268). */
void task_dirties_fraction(struct throttle_task *tsk, long *numerator, long *denominator)
{
	prop_fraction_single(&machine.props->vm_dirties, &tsk->dirties,
			     numerator, denominator);
}

/* vm_total_pages: every zone's present pages (3.1's writeback_set_ratelimit). */
unsigned long throttle_total_pages(void)
{
	return iol_machine_present_pages();
}

/* 3.2's mm/backing-dev.c, lines 663-703: the fields the calls read. */
#define INIT_BW		(100 << (20 - PAGE_SHIFT))

static int bdi_init(struct backing_dev_info *bdi)
{
	memset(bdi, 0, sizeof(*bdi));
	bdi->min_ratio = 0;
	bdi->max_ratio = 100;
	bdi->max_prop_frac = PROP_FRAC_BASE;
	INIT_LIST_HEAD(&bdi->bdi_list);
	for (int i = 0; i < NR_BDI_STAT_ITEMS; i++)
		if (percpu_counter_init(&bdi->bdi_stat[i], 0) != 0)
			return -1;
	bdi->dirty_exceeded = 0;
	bdi->bw_time_stamp = jiffies;
	bdi->written_stamp = 0;
	bdi->balanced_dirty_ratelimit = INIT_BW;
	bdi->dirty_ratelimit = INIT_BW;
	bdi->write_bandwidth = INIT_BW;
	bdi->avg_write_bandwidth = INIT_BW;
	return prop_local_init_percpu(&bdi->completions);
}

/* Lines 137-147 of 3.2. */
static int calc_period_shift(void)
{
	unsigned long dirty_total;

	if (vm_dirty_bytes)
		dirty_total = vm_dirty_bytes / PAGE_SIZE;
	else
		dirty_total = ((unsigned long)vm_dirty_ratio * determine_dirtyable_memory()) / 100;
	return 2 + ilog2(dirty_total - 1);
}

/*
 * Move pages of the bdi's file from free to the inactive file LRU, dirty or
 * under writeback, in the global and the bdi's counts: the zones' part is
 * the machine's (counters/iol_machine_zones.c; a node of a 128-node
 * stand-in holds a few thousand pages). -1 if the machine's memory cannot
 * hold them.
 */
static int account_cached(struct backing_dev_info *bdi, unsigned long dirty,
			  unsigned long writeback)
{
	unsigned long left = iol_machine_cache_pages(dirty, writeback);

	percpu_counter_set(&bdi->bdi_stat[BDI_RECLAIMABLE], (s64)dirty);
	percpu_counter_set(&bdi->bdi_stat[BDI_WRITEBACK], (s64)writeback);
	return left ? -1 : 0;
}

int iol_bdp_teardown(char *err, size_t errlen)
{
	const char *left = atomic_load_explicit(&machine.left_state, memory_order_relaxed);
	int status = 0;

	if (!left && machine.bdi && machine.bdi->dirty_exceeded != machine.dirty_exceeded)
		left = "a call changed bdi->dirty_exceeded";
	if (left)
		status = mmscale_errorf(err, errlen, "%s, which its state excludes", left);

	if (machine.bdi) {
		for (int i = 0; i < NR_BDI_STAT_ITEMS; i++)
			if (machine.bdi->bdi_stat[i].counters)
				percpu_counter_destroy(&machine.bdi->bdi_stat[i]);
		prop_local_destroy_percpu(&machine.bdi->completions);
		free_on_node(machine.bdi, sizeof(*machine.bdi));
	}
	if (machine.props) {
		prop_descriptor_destroy(&machine.props->vm_completions);
		prop_descriptor_destroy(&machine.props->vm_dirties);
		free_on_node(machine.props, sizeof(*machine.props));
	}
	free_percpu(iol_machine_bdp_ratelimits);
	iol_machine_bdp_ratelimits = NULL;
	memset(&machine, 0, sizeof(machine));
	return status;
}

/*
 * One call on the setup's thread, before any is timed: it stores in the bdi
 * what its kernel's call stores in this state (3.1 sets dirty_exceeded, its
 * bdi being over the task's limit; the IO-less kernels, under both limits,
 * leave it clear), so that the timed calls find it so and store nothing
 * shared, as on a machine that has been in this state for a while.
 */
static int iol_bdp_settle(const struct iol_machine_ops *ops, char *err, size_t errlen)
{
	const char *left;

	iol_bdp_enter();
	iol_bdp_call(ops);
	left = atomic_load_explicit(&machine.left_state, memory_order_relaxed);
	if (left) {
		mmscale_errorf(err, errlen, "%s, which its state excludes", left);
		iol_bdp_teardown(err, 0);
		return -1;
	}
	machine.dirty_exceeded = machine.bdi->dirty_exceeded;
	return 0;
}

int iol_bdp_setup(const struct iol_machine_ops *ops, enum iol_bdp_state state,
		  char *err, size_t errlen)
{
	unsigned long background_thresh, dirty_thresh, freerun, limit, setpoint, nr_dirty;
	struct backing_dev_info *bdi;
	int shift;

	/* 3.2's global_page_state reads slot item: the machine must be numbered as 3.2's. */
	if (mm_config()->vm_stat_numbering != MM_VM_STAT_3_2)
		return mmscale_errorf(err, errlen, "the IO-less rows need the machine's vm_stat[] "
				      "numbered as 3.2's (mm_machine_config.vm_stat_numbering)");
	memset(&machine, 0, sizeof(machine));
	/*
	 * The sysctls at their defaults but for the seed's thresh=100M,
	 * written as dirty_bytes_handler does (3.2 lines 200-213: it zeroes
	 * vm_dirty_ratio).
	 */
	writeback_3_2_reset();
	dirty_background_ratio = 10;
	dirty_background_bytes = 0;
	vm_dirty_bytes = IOL_BDP_DIRTY_BYTES;
	vm_dirty_ratio = 0;
	/* mmscale: --set's dirty sysctls over the bench's (mm/config.h). */
	mm_dirty_sysctls_write(&vm_dirty_ratio, &vm_dirty_bytes, &dirty_background_ratio,
			       &dirty_background_bytes);
	/* 3.2 lines 382-383, 3.1.3 435-436: only a ratio needs the dirtyable memory. */
	machine.reads_dirtyable = !vm_dirty_bytes || !dirty_background_bytes;
	iol_machine_jiffies = 0;
	nr_swap_pages = mm_config()->swap ? (long)(mm_config()->mem_bytes >> PAGE_SHIFT) : 0;

	machine.bdi = bdi = alloc_global(sizeof(*bdi), err, errlen);
	machine.props = bdi ? alloc_global(sizeof(*machine.props), err, errlen) : NULL;
	if (!bdi || !machine.props) {
		iol_bdp_teardown(err, 0);	/* err says why */
		return -1;
	}
	iol_machine_bdp_ratelimits = alloc_percpu(int);
	if (!iol_machine_bdp_ratelimits || bdi_init(bdi) != 0) {
		mmscale_errorf(err, errlen, "cannot allocate the bdi's per-CPU counters");
		iol_bdp_teardown(err, 0);
		return -1;
	}
	machine.mapping.backing_dev_info = bdi;

	/*
	 * page_writeback_init (3.2 lines 1406-1415; 3.1 adds vm_dirties; the
	 * ratelimit is each kernel's), then the steady state of a machine
	 * writing to this one bdi for long (as kernel/linux-2.6/mm/page-writeback.c's
	 * writeback_proportions_init): the globals at the start of a period,
	 * the bdi with the whole share of the completions, and
	 * global_dirty_limit at the threshold it has followed (lines 724-742).
	 */
	ops->writeback_set_ratelimit();
	shift = calc_period_shift();
	if (prop_descriptor_init(&machine.props->vm_completions, shift) != 0 ||
	    prop_descriptor_init(&machine.props->vm_dirties, shift) != 0) {
		mmscale_errorf(err, errlen, "cannot allocate the writeback proportions");
		iol_bdp_teardown(err, 0);
		return -1;
	}
	prop_global_steady(&machine.props->vm_completions);
	prop_global_steady(&machine.props->vm_dirties);
	prop_local_steady_percpu(&machine.props->vm_completions, &bdi->completions, 1, 1);
	global_dirty_limits(&background_thresh, &dirty_thresh);
	global_dirty_limit = dirty_thresh;
	machine.dirty_thresh = dirty_thresh;

	if (state == IOL_BDP_UNTHROTTLED)
		return iol_bdp_settle(ops, err, errlen);

	/* Halfway between 3.2's setpoint (line 561) and the limit. */
	freerun = dirty_freerun_ceiling(dirty_thresh, background_thresh);
	limit = hard_dirty_limit(dirty_thresh);
	setpoint = (freerun + limit) / 2;
	nr_dirty = (setpoint + limit) / 2;
	/*
	 * 3.1 throttles here only if the bdi is over the task's limit: the
	 * default sysctls put the state above it; a background threshold of
	 * --set's can pull the setpoint down to it, so the state keeps a page
	 * over it, and must still be under the limit.
	 */
	nr_dirty = max(nr_dirty, iol_bdp_task_bdi_thresh_of(dirty_thresh) + 1);
	if (nr_dirty >= limit) {
		mmscale_errorf(err, errlen, "no throttled state at a %lu-page dirty threshold: "
			       "3.1 throttles only above %lu dirty pages, and the state must stay "
			       "under the limit, %lu", dirty_thresh,
			       iol_bdp_task_bdi_thresh_of(dirty_thresh), limit);
		iol_bdp_teardown(err, 0);
		return -1;
	}
	if (account_cached(bdi, nr_dirty / 4, nr_dirty - nr_dirty / 4) != 0) {
		mmscale_errorf(err, errlen, "the throttled state's %lu dirty pages do not fit in "
			       "the emulated memory (%llu MiB)", nr_dirty,
			       (unsigned long long)(mm_config()->mem_bytes >> 20));
		iol_bdp_teardown(err, 0);
		return -1;
	}
	machine.nr_dirty = nr_dirty;
	set_bit(BDI_writeback_running, &bdi->state);
	return iol_bdp_settle(ops, err, errlen);
}

unsigned long iol_bdp_dirty_thresh(void)
{
	return machine.dirty_thresh;
}

unsigned long iol_bdp_nr_dirty(void)
{
	return machine.nr_dirty;
}

bool iol_bdp_reads_dirtyable_memory(void)
{
	return machine.reads_dirtyable;
}

/*
 * The calling thread's task as at fork (3.2's copy_process: 128 KiB before
 * the first call), with the whole share of the dirtying (3.1's vm_dirties).
 */
void iol_bdp_enter(void)
{
	struct throttle_task *tsk = current;

	memset(tsk, 0, sizeof(*tsk));
	tsk->nr_dirtied_pause = 128 >> (PAGE_SHIFT - 10);
	prop_local_init_single(&tsk->dirties);
	prop_local_steady_single(&machine.props->vm_dirties, &tsk->dirties, 1, 1);
}

void iol_bdp_set_jiffies(unsigned long now)
{
	iol_machine_jiffies = now;
}

void iol_bdp_set_task(unsigned long dirty_paused_when, int nr_dirtied)
{
	current->dirty_paused_when = dirty_paused_when;
	current->nr_dirtied = nr_dirtied;
}

unsigned long iol_bdp_task_paused_when(void)
{
	return current->dirty_paused_when;
}

int iol_bdp_task_nr_dirtied(void)
{
	return current->nr_dirtied;
}

void iol_bdp_set_underrun(int on)
{
	if (on)
		set_bit(BDI_async_underrun, &machine.bdi->state);
	else
		clear_bit(BDI_async_underrun, &machine.bdi->state);
}

long iol_bdp_call(const struct iol_machine_ops *ops)
{
	return ops->balance_dirty_pages(&machine.mapping, 32);
}
