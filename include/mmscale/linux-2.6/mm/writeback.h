/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Emulated dirty-page writeback around balance_dirty_pages(), Linux 2.6.31
 * (mm/page-writeback.c, include/linux/writeback.h).
 *
 * Ported faithfully: the dirty limits (determine_dirtyable_memory,
 * get_dirty_limits, clip_bdi_dirty_limit, task_dirty_limit, with
 * bdi_writeout_fraction and task_dirties_fraction on the floating
 * proportions vm_completions and vm_dirties of lib/proportions.c:
 * kernel/lib/proportions.c), the ratelimit (balance_dirty_pages_ratelimited_nr,
 * writeback_set_ratelimit, sync_writeback_pages) and the page accounting
 * (account_page_dirtied with task_dirty_inc, clear_page_dirty_for_io,
 * test_set/clear_page_writeback with __bdi_writeout_inc), all through the
 * emulated vmstat, bdi and percpu counters.
 *
 * Emulated minimally and deterministically (what is not about counters):
 * - the page cache: one file per writer CPU, its pages on the writer's
 *   local zone, written sequentially and cyclically; dirty pages are a
 *   contiguous run that writeback takes from the front (range_cyclic);
 * - writeback_inodes() moves up to nr_to_write dirty pages of the bdi's
 *   files to writeback, skipping a file another CPU is writing back
 *   (I_SYNC); completion comes from the flusher thread at an emulated
 *   device bandwidth, or at once when a test asks for it;
 * - congestion_wait(HZ/10) sleeps --congestion-wait-us;
 * - pdflush_operation(background_writeout) wakes the flusher, which writes
 *   back while dirty pages exceed the background threshold;
 * - the proportions' starting point: a new world is a machine that has been
 *   running, not one just booted. vm_completions and vm_dirties start at
 *   the beginning of a period, the bdi's completions at the steady state
 *   of the only bdi that completes writeback (a share of 1), and each
 *   writer task, when it first dirties or reads its share in this world, at
 *   1/nr_writers of vm_dirties (all writers dirtying alike). From there the
 *   kernel's code moves them; see writeback_world_create().
 */
#ifndef MMSCALE_MM_WRITEBACK_H
#define MMSCALE_MM_WRITEBACK_H

#include "mmscale/kernel/machine.h"
#include "mmscale/linux-2.6/mm/backing-dev.h"
#include "mmscale/lib/proportions.h"
#include "mmscale/linux-2.6/mm/vmstat.h"

#define HZ		1000
#define BLK_RW_ASYNC	0
#define PF_LESS_THROTTLE 0x00100000	/* Throttle me less: I clean memory */
#define MAX_WRITEBACK_PAGES	1024

struct task_struct {
	unsigned int flags;
	struct prop_local_single dirties;	/* vm_dirties (task_dirty_inc) */
	/*
	 * Emulation: the world (writeback_world_create) the task's dirties
	 * belong to; a thread-local task meeting a newer world starts over.
	 */
	unsigned long world_gen;
};

extern _Thread_local struct task_struct mmscale_current_task;
#define current (&mmscale_current_task)

static inline int rt_task(struct task_struct *p)
{
	(void)p;
	return 0;
}

enum writeback_sync_modes {
	WB_SYNC_NONE,	/* Don't wait on anything */
	WB_SYNC_ALL,	/* Wait on every mapping */
};

struct writeback_control {
	struct backing_dev_info *bdi;	/* If !NULL, only write back this queue */
	enum writeback_sync_modes sync_mode;
	unsigned long *older_than_this;
	long nr_to_write;		/* Write this many pages, and decrement
					   this for each page written */
	long pages_skipped;		/* Pages which were not written */
	unsigned nonblocking:1;
	unsigned encountered_congestion:1;
	unsigned more_io:1;
	unsigned range_cyclic:1;
};

/* The user data a writer stores per page: a ring of pages on its node. */
#define EMU_DATA_PAGES	256

/* One writer's file: its page cache, on the writer's local zone. */
struct emu_inode {
	spinlock_t i_sync;		/* I_SYNC: one writeback at a time */
	struct zone *zone;
	char *data;			/* EMU_DATA_PAGES pages the writer stores into */
	long nr_pages;			/* file size */
	atomic_long_t nr_dirty;		/* dirty, not yet under writeback */
	atomic_long_t nr_writeback;	/* submitted, not yet completed */
	/*
	 * Writer only, on a line of its own: the flusher writes the line
	 * above, and storing into an already dirty page touches nothing
	 * shared in the kernel.
	 */
	long next_data ____cacheline_aligned_in_smp;
} ____cacheline_aligned_in_smp;

struct address_space {
	struct backing_dev_info *backing_dev_info;
	struct emu_inode *host;
	/* Which balance_dirty_pages variant this run uses. */
	void (*balance_dirty_pages)(struct address_space *mapping);
};

/* The world the dirty cases run in: one bdi, one file per writer, a flusher. */
struct writeback_world {
	struct backing_dev_info bdi;
	int nr_writers;
	struct emu_inode *inodes;	/* nr_writers, each on its writer's node */
	struct address_space *mappings;
	atomic_long_t writeback_cursor;	/* round-robin start of writeback_inodes */
	bool complete_on_submit;	/* tests: writeback completes at once */
	/* The flusher (pdflush) thread, when the world has one. */
	struct kthread *flusher;
	_Atomic bool flusher_stop;
	_Atomic bool background_requested;
	unsigned long gen;		/* this world's number, from 1 */
};

/* The world the writeback code runs in now (kernel/linux-2.6/world/writeback.c). */
extern struct writeback_world *wb_world;

/* sysctls (mm/page-writeback.c), with the kernel's defaults */
extern int dirty_background_ratio;
extern unsigned long dirty_background_bytes;
extern int vm_highmem_is_dirtyable;
extern int vm_dirty_ratio;
extern unsigned long vm_dirty_bytes;
extern int laptop_mode;
extern unsigned int bdi_min_ratio;	/* sum of every bdi's min_ratio */
extern long ratelimit_pages;

static inline long sync_writeback_pages(void)
{
	return ratelimit_pages + ratelimit_pages / 2;
}

void writeback_set_ratelimit(void);
unsigned long determine_dirtyable_memory(void);
void bdi_writeout_fraction(struct backing_dev_info *bdi, long *numerator,
			   long *denominator);
void clip_bdi_dirty_limit(struct backing_dev_info *bdi, unsigned long dirty,
			  unsigned long *pbdi_dirty);
void task_dirty_limit(struct task_struct *tsk, unsigned long *pdirty);
/*
 * 2.6.31-rc8, with clip_bdi_dirty_limit. The v2 patch's copy, without the
 * clip, is get_dirty_limits_v2 (counters/dirty_limits_v2.c); a variant
 * built on it defines BDP_CACHED_LOCALS_LIMITS before including this file
 * and its balance_dirty_pages() reads unchanged. bdi_thresh_v2 is the bdi
 * threshold those limits give (for the v2 rows' claims).
 */
void get_dirty_limits(unsigned long *pbackground, unsigned long *pdirty,
		      unsigned long *pbdi_dirty, struct backing_dev_info *bdi);
void get_dirty_limits_v2(unsigned long *pbackground, unsigned long *pdirty,
			 unsigned long *pbdi_dirty, struct backing_dev_info *bdi);
unsigned long bdi_thresh_v2(struct backing_dev_info *bdi);
#ifdef BDP_CACHED_LOCALS_LIMITS
#define get_dirty_limits get_dirty_limits_v2
#endif

void writeback_inodes(struct writeback_control *wbc);
long congestion_wait(int rw, long timeout);
int pdflush_operation(void (*fn)(unsigned long), unsigned long arg0);
void background_writeout(unsigned long _min_pages);

/* Page accounting, per page, on the calling CPU (as the kernel's). */
void task_dirty_inc(struct task_struct *tsk);
void account_page_dirtied(struct zone *zone, struct address_space *mapping);
/* clear_page_dirty_for_io + test_set_page_writeback's accounting, for one page. */
void page_to_writeback(struct zone *zone, struct backing_dev_info *bdi);
/* test_clear_page_writeback's accounting for one page (tests call it too). */
void end_page_writeback(struct zone *zone, struct backing_dev_info *bdi);
/* Per-CPU pages dirtied since the last balance_dirty_pages (a world's, per CPU). */
extern unsigned long *bdp_ratelimits;
/*
 * page_writeback_init's two proportions (vm_completions, vm_dirties) for a
 * new world, at the steady state of a machine that has been running; and
 * freed.
 */
int writeback_proportions_init(struct writeback_world *w, char *err, size_t errlen);
void writeback_proportions_destroy(void);
/*
 * The proportion descriptors of mm/page-writeback.c (static there), for
 * tests: NULL without a world.
 */
struct prop_descriptor *writeback_vm_completions(void);
struct prop_descriptor *writeback_vm_dirties(void);
/*
 * The writer dirties the next page of its file (write fault on a
 * pre-read mmap page): accounted only if the page was not already dirty.
 * Returns 1 if it was newly dirtied. emu_store_page() is the user's store
 * of one page of data (4 KiB into a ring of pages on the writer's node),
 * so that the accounting is measured beside the work it accompanies.
 */
void emu_store_page(struct address_space *mapping);
int emu_write_next_page(struct address_space *mapping);
void balance_dirty_pages_ratelimited_nr(struct address_space *mapping,
					unsigned long nr_pages_dirtied);
static inline void balance_dirty_pages_ratelimited(struct address_space *mapping)
{
	balance_dirty_pages_ratelimited_nr(mapping, 1);
}

/*
 * Build the world for nr_writers writer CPUs (0..nr_writers-1), each with a
 * file of file_pages pages already in the page cache (fio's pre_read). With
 * flusher_cpu >= 0 a flusher thread runs as that emulated CPU. Needs
 * mm_machine_setup() first. Returns NULL with err.
 */
struct writeback_world *writeback_world_create(int nr_writers, long file_pages,
					       int flusher_cpu, char *err, size_t errlen);
void writeback_world_stop_flusher(struct writeback_world *w);
void writeback_world_destroy(struct writeback_world *w);

/* Check the accounting identities after a final fold (tests, teardown). */
int writeback_world_check(struct writeback_world *w, char *err, size_t errlen);

/* One balance_dirty_pages variant (counters/bdp_*.c). */
typedef void (*balance_dirty_pages_fn)(struct address_space *mapping);

#endif /* MMSCALE_MM_WRITEBACK_H */
