// SPDX-License-Identifier: GPL-2.0
/*
 * mm/page-writeback.c of Linux 2.6.31-rc8, less balance_dirty_pages()
 * itself (one file per variant: counters/bdp_*.c); the minimal,
 * deterministic emulation of what is not about counters around it is
 * kernel/linux-2.6/world/writeback.c (include/mmscale/linux-2.6/mm/writeback.h says how).
 * Line numbers below are those of the
 * 2.6.31.3 copy in ../shared/kernel/2.6.31/mm/page-writeback.c, and
 * bdi_init/bdi_destroy's those of mm/backing-dev.c there.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <string.h>

#include "mmscale/kernel/cpumask.h"
#include "mmscale/kernel/machine.h"
#include "mmscale/linux-2.6/mm/writeback.h"
#include "mmscale/mm/config.h"

_Thread_local struct task_struct mmscale_current_task;

/*
 * After a CPU has dirtied this many pages, balance_dirty_pages_ratelimited
 * will look to see if it needs to force writeback or throttling.
 */
long ratelimit_pages = 32;

/* The following parameters are exported via /proc/sys/vm */
int dirty_background_ratio = 10;
unsigned long dirty_background_bytes;
int vm_highmem_is_dirtyable;
int vm_dirty_ratio = 20;
unsigned long vm_dirty_bytes;
int laptop_mode;

unsigned int bdi_min_ratio;	/* sum of every bdi's min_ratio: one bdi, 0 */

/* Per-CPU count of pages dirtied since the last balance_dirty_pages (the world allocates it). */
unsigned long *bdp_ratelimits;

/*
 * Scale the writeback cache size proportional to the relative writeout speeds.
 *
 * We do this by keeping a floating proportion between BDIs, based on page
 * writeback completions [end_page_writeback()]. Those devices that write out
 * pages fastest will get the larger share, while the slower will get a smaller
 * share.
 *
 * We use page writeout completions because we are interested in getting rid of
 * dirty pages. Having them written out is the primary goal.
 *
 * We introduce a concept of time, a period over which we measure these events,
 * because demand can/will vary over time. The length of this period itself is
 * measured in page writeback completions.
 *
 * (Lines 122-139. The kernel's two static descriptors, adjacent as in its
 * .bss, live in one allocation on node 0 with the emulation's other global
 * data, made with the world; vm_completions and vm_dirties name them.)
 */
static struct vm_proportions {
	struct prop_descriptor vm_completions;
	struct prop_descriptor vm_dirties;
} *vm_props;
#define vm_completions	(vm_props->vm_completions)
#define vm_dirties	(vm_props->vm_dirties)

struct prop_descriptor *writeback_vm_completions(void)
{
	return vm_props ? &vm_completions : NULL;
}

struct prop_descriptor *writeback_vm_dirties(void)
{
	return vm_props ? &vm_dirties : NULL;
}

/*
 * couple the period to the dirty_ratio:
 *
 *   period/2 ~ roundup_pow_of_two(dirty limit)
 *
 * (Lines 141-156.)
 */
static int calc_period_shift(void)
{
	unsigned long dirty_total;

	if (vm_dirty_bytes)
		dirty_total = vm_dirty_bytes / PAGE_SIZE;
	else
		dirty_total = (vm_dirty_ratio * determine_dirtyable_memory()) /
				100;
	return 2 + ilog2(dirty_total - 1);
}

/*
 * Emulation: a thread's task_struct outlives the worlds it runs in, and a
 * world is a new machine. A task meeting a newer world starts its dirties
 * at the steady state of nr_writers tasks dirtying alike (a share of
 * 1/nr_writers; include/mmscale/linux-2.6/mm/writeback.h says why), as of now.
 */
static inline void task_dirties_enter(struct task_struct *tsk)
{
	struct writeback_world *w = wb_world;

	if (likely(tsk->world_gen == w->gen))
		return;
	prop_local_init_single(&tsk->dirties);
	prop_local_steady_single(&vm_dirties, &tsk->dirties, 1,
				 w->nr_writers > 0 ? w->nr_writers : 1);
	tsk->world_gen = w->gen;
}

/*
 * Increment the BDI's writeout completion count and the global writeout
 * completion count. Called from test_clear_page_writeback().
 *
 * (Lines 223-246.)
 */
static inline void __bdi_writeout_inc(struct backing_dev_info *bdi)
{
	__prop_inc_percpu_max(&vm_completions, &bdi->completions,
			      bdi->max_prop_frac);
}

void bdi_writeout_inc(struct backing_dev_info *bdi)
{
	unsigned long flags;

	local_irq_save(flags);
	__bdi_writeout_inc(bdi);
	local_irq_restore(flags);
}

void task_dirty_inc(struct task_struct *tsk)
{
	task_dirties_enter(tsk);
	prop_inc_single(&vm_dirties, &tsk->dirties);
}

/*
 * Obtain an accurate fraction of the BDI's portion.
 *
 * (Lines 248-261; not static here: get_dirty_limits_v2 in
 * counters/bdp_cached_locals_v2.c calls it too.)
 */
void bdi_writeout_fraction(struct backing_dev_info *bdi, long *numerator,
			   long *denominator)
{
	if (bdi_cap_writeback_dirty(bdi)) {
		prop_fraction_percpu(&vm_completions, &bdi->completions,
				numerator, denominator);
	} else {
		*numerator = 0;
		*denominator = 1;
	}
}

/*
 * Clip the earned share of dirty pages to that which is actually available.
 * This avoids exceeding the total dirty_limit when the floating averages
 * fluctuate too quickly.
 */
void clip_bdi_dirty_limit(struct backing_dev_info *bdi, unsigned long dirty,
			  unsigned long *pbdi_dirty)
{
	unsigned long avail_dirty;

	avail_dirty = global_page_state(NR_FILE_DIRTY) +
		 global_page_state(NR_WRITEBACK) +
		 global_page_state(NR_UNSTABLE_NFS) +
		 global_page_state(NR_WRITEBACK_TEMP);

	if (avail_dirty < dirty)
		avail_dirty = dirty - avail_dirty;
	else
		avail_dirty = 0;

	avail_dirty += bdi_stat(bdi, BDI_RECLAIMABLE) +
		bdi_stat(bdi, BDI_WRITEBACK);

	*pbdi_dirty = min(*pbdi_dirty, avail_dirty);
}

/* Lines 289-294. */
static inline void task_dirties_fraction(struct task_struct *tsk, long *numerator,
					 long *denominator)
{
	task_dirties_enter(tsk);
	prop_fraction_single(&vm_dirties, &tsk->dirties,
				numerator, denominator);
}

/*
 * scale the dirty limit
 *
 * task specific dirty limit:
 *
 *   dirty -= (dirty/8) * p_{t}
 */
void task_dirty_limit(struct task_struct *tsk, unsigned long *pdirty)
{
	long numerator, denominator;
	unsigned long dirty = *pdirty;
	u64 inv = dirty >> 3;

	task_dirties_fraction(tsk, &numerator, &denominator);
	inv *= (u64)numerator;
	inv /= (u64)denominator;

	dirty -= inv;
	if (dirty < *pdirty/2)
		dirty = *pdirty/2;

	*pdirty = dirty;
}

/* No CONFIG_HIGHMEM on x86_64. */
static unsigned long highmem_dirtyable_memory(unsigned long total)
{
	(void)total;
	return 0;
}

/**
 * determine_dirtyable_memory - amount of memory that may be used
 *
 * Returns the numebr of pages that can currently be freed and used
 * by the kernel for direct mappings.
 */
unsigned long determine_dirtyable_memory(void)
{
	unsigned long x;

	x = global_page_state(NR_FREE_PAGES) + global_lru_pages();

	if (!vm_highmem_is_dirtyable)
		x -= highmem_dirtyable_memory(x);

	return x + 1;	/* Ensure that we never return 0 */
}

void get_dirty_limits(unsigned long *pbackground, unsigned long *pdirty,
		      unsigned long *pbdi_dirty, struct backing_dev_info *bdi)
{
	unsigned long background;
	unsigned long dirty;
	unsigned long available_memory = determine_dirtyable_memory();
	struct task_struct *tsk;

	if (vm_dirty_bytes)
		dirty = DIV_ROUND_UP(vm_dirty_bytes, PAGE_SIZE);
	else {
		int dirty_ratio;

		dirty_ratio = vm_dirty_ratio;
		if (dirty_ratio < 5)
			dirty_ratio = 5;
		dirty = ((unsigned long)dirty_ratio * available_memory) / 100;
	}

	if (dirty_background_bytes)
		background = DIV_ROUND_UP(dirty_background_bytes, PAGE_SIZE);
	else
		background = ((unsigned long)dirty_background_ratio * available_memory) / 100;

	if (background >= dirty)
		background = dirty / 2;
	tsk = current;
	if (tsk->flags & PF_LESS_THROTTLE || rt_task(tsk)) {
		background += background / 4;
		dirty += dirty / 4;
	}
	*pbackground = background;
	*pdirty = dirty;

	if (bdi) {
		u64 bdi_dirty;
		long numerator, denominator;

		/*
		 * Calculate this BDI's share of the dirty ratio.
		 */
		bdi_writeout_fraction(bdi, &numerator, &denominator);

		bdi_dirty = (dirty * (100 - bdi_min_ratio)) / 100;
		bdi_dirty *= (u64)numerator;
		bdi_dirty /= (u64)denominator;
		bdi_dirty += (dirty * bdi->min_ratio) / 100;
		if (bdi_dirty > (dirty * bdi->max_ratio) / 100)
			bdi_dirty = dirty * bdi->max_ratio / 100;

		*pbdi_dirty = bdi_dirty;
		clip_bdi_dirty_limit(bdi, dirty, pbdi_dirty);
		task_dirty_limit(current, pbdi_dirty);
	}
}

/*
 * bdi_set_max_ratio (lines 348-366, with the bdi_lock of line 323): the
 * only writer of bdi->max_prop_frac, which caps the bdi's share of the
 * completions in __prop_inc_percpu_max.
 */
static DEFINE_SPINLOCK(bdi_lock);

int bdi_set_max_ratio(struct backing_dev_info *bdi, unsigned int max_ratio)
{
	unsigned long flags;
	int ret = 0;

	if (max_ratio > 100)
		return -EINVAL;

	spin_lock_irqsave(&bdi_lock, flags);
	if (bdi->min_ratio > max_ratio) {
		ret = -EINVAL;
	} else {
		bdi->max_ratio = max_ratio;
		bdi->max_prop_frac = (PROP_FRAC_BASE * max_ratio) / 100;
	}
	spin_unlock_irqrestore(&bdi_lock, flags);

	return ret;
}

/*
 * writeback_set_ratelimit: ratelimit_pages scales with memory per CPU,
 * between 16 pages and 4 MiB.
 */
void writeback_set_ratelimit(void)
{
	unsigned long vm_total_pages = 0;
	struct zone *zone;

	for_each_populated_zone(zone)
		vm_total_pages += zone_present_pages(zone);
	ratelimit_pages = (long)(vm_total_pages / (num_online_cpus() * 32));
	if (ratelimit_pages < 16)
		ratelimit_pages = 16;
	if (ratelimit_pages * PAGE_CACHE_SIZE > 4096 * 1024)
		ratelimit_pages = (4096 * 1024) / PAGE_CACHE_SIZE;
	/* mmscale: --set ratelimit_pages=N (mm/config.h). */
	ratelimit_pages = MM_KNOB_OR(mm_config()->writeback_ratelimit_pages, ratelimit_pages);
}

/* Page accounting (mm/page-writeback.c), on the calling CPU. */

/*
 * Lines 1206-1218, for a mapping that accounts dirty pages (the emulated
 * bdi has no BDI_CAP_NO_ACCT_DIRTY); task_io_account_write counts into
 * the task's I/O accounting only, nothing shared.
 */
void account_page_dirtied(struct zone *zone, struct address_space *mapping)
{
	__inc_zone_state(zone, NR_FILE_DIRTY);
	__inc_bdi_stat(mapping->backing_dev_info, BDI_RECLAIMABLE);
	task_dirty_inc(current);
}

/* clear_page_dirty_for_io + test_set_page_writeback, for one page. */
void page_to_writeback(struct zone *zone, struct backing_dev_info *bdi)
{
	dec_zone_state(zone, NR_FILE_DIRTY);
	dec_bdi_stat(bdi, BDI_RECLAIMABLE);
	__inc_bdi_stat(bdi, BDI_WRITEBACK);
	inc_zone_state(zone, NR_WRITEBACK);
}

/*
 * test_clear_page_writeback (lines 1392-1419), for one page of a mapping
 * whose bdi accounts writeback: end_page_writeback's accounting.
 */
void end_page_writeback(struct zone *zone, struct backing_dev_info *bdi)
{
	__dec_bdi_stat(bdi, BDI_WRITEBACK);
	__bdi_writeout_inc(bdi);
	dec_zone_state(zone, NR_WRITEBACK);
}

void background_writeout(unsigned long _min_pages)
{
	long min_pages = (long)_min_pages;
	struct writeback_control wbc = {
		.bdi		= NULL,
		.sync_mode	= WB_SYNC_NONE,
		.older_than_this = NULL,
		.nr_to_write	= 0,
		.nonblocking	= 1,
		.range_cyclic	= 1,
	};

	for ( ; ; ) {
		unsigned long background_thresh;
		unsigned long dirty_thresh;

		get_dirty_limits(&background_thresh, &dirty_thresh, NULL, NULL);
		if (global_page_state(NR_FILE_DIRTY) +
			global_page_state(NR_UNSTABLE_NFS) < background_thresh
				&& min_pages <= 0)
			break;
		wbc.more_io = 0;
		wbc.encountered_congestion = 0;
		wbc.nr_to_write = MAX_WRITEBACK_PAGES;
		wbc.pages_skipped = 0;
		writeback_inodes(&wbc);
		min_pages -= MAX_WRITEBACK_PAGES - wbc.nr_to_write;
		if (wbc.nr_to_write > 0 || wbc.pages_skipped > 0) {
			/* Wrote less than expected */
			if (wbc.encountered_congestion || wbc.more_io)
				congestion_wait(BLK_RW_ASYNC, HZ/10);
			else
				break;
		}
	}
}

void balance_dirty_pages_ratelimited_nr(struct address_space *mapping,
					unsigned long nr_pages_dirtied)
{
	unsigned long ratelimit;
	unsigned long *p;

	ratelimit = (unsigned long)ratelimit_pages;
	if (mapping->backing_dev_info->dirty_exceeded)
		ratelimit = 8;

	/*
	 * Check the rate limiting. Also, we do not want to throttle real-time
	 * tasks in balance_dirty_pages(). Period.
	 */
	preempt_disable();
	p = this_cpu_ptr(bdp_ratelimits);
	*p += nr_pages_dirtied;
	if (unlikely(*p >= ratelimit)) {
		*p = 0;
		preempt_enable();
		mapping->balance_dirty_pages(mapping);
		return;
	}
	preempt_enable();
}

/* mm/backing-dev.c:238-278 (2.6.31), less the device registration. */
int bdi_init(struct backing_dev_info *bdi)
{
	memset(bdi, 0, sizeof(*bdi));
	bdi->min_ratio = 0;
	bdi->max_ratio = 100;
	bdi->max_prop_frac = PROP_FRAC_BASE;
	for (int i = 0; i < NR_BDI_STAT_ITEMS; i++)
		if (percpu_counter_init(&bdi->bdi_stat[i], 0) != 0)
			return -1;
	bdi->dirty_exceeded = 0;
	if (prop_local_init_percpu(&bdi->completions) != 0)
		return -1;
	return 0;
}

void bdi_destroy(struct backing_dev_info *bdi)
{
	for (int i = 0; i < NR_BDI_STAT_ITEMS; i++)
		percpu_counter_destroy(&bdi->bdi_stat[i]);
	prop_local_destroy_percpu(&bdi->completions);
}

void writeback_proportions_destroy(void)
{
	if (!vm_props)
		return;
	prop_descriptor_destroy(&vm_completions);
	prop_descriptor_destroy(&vm_dirties);
	free_on_node(vm_props, sizeof(*vm_props));
	vm_props = NULL;
}

/*
 * page_writeback_init's prop_descriptor_init(&vm_completions, shift) and
 * prop_descriptor_init(&vm_dirties, shift), shift = calc_period_shift();
 * then, not in the kernel, the steady state of a machine that has been
 * running (include/mmscale/linux-2.6/mm/writeback.h): both globals at the start of a
 * period, and the world's one bdi holding the whole share of the
 * completions, as the only bdi that has completed writeback for long
 * (x = period/2 + t % (period/2), which normalisation keeps there). The
 * writer tasks' dirties start when each first meets this world
 * (task_dirties_enter). A freshly booted kernel would start every share at
 * 0 and take two periods (2^shift completions) to reach this.
 */
int writeback_proportions_init(struct writeback_world *w, char *err, size_t errlen)
{
	int shift;

	vm_props = alloc_global(sizeof(*vm_props), err, errlen);
	if (!vm_props)
		return -1;
	shift = calc_period_shift();
	if (prop_descriptor_init(&vm_completions, shift) != 0 ||
	    prop_descriptor_init(&vm_dirties, shift) != 0)
		return mmscale_errorf(err, errlen, "cannot allocate the writeback proportions");
	prop_global_steady(&vm_completions);
	prop_global_steady(&vm_dirties);
	prop_local_steady_percpu(&vm_completions, &w->bdi.completions, 1, 1);
	return 0;
}
