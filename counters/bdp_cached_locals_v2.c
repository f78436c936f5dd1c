// SPDX-License-Identifier: GPL-2.0
/*
 * "[RFC PATCH] v2 mm: balance_dirty_pages. reduce calls to
 * global_page_state to reduce cache references", Richard Kennedy,
 * 4 September 2009, against 2.6.31-rc8 (seed 000_6ce0e1f67d0313fe). Never
 * merged as posted: what was merged is Wu Fengguang's 2010 rework
 * e50e37201ae2 (2.6.36), whose loop is cached-locals-v2+wu's.
 * clip_bdi_dirty_limit() is gone from
 * get_dirty_limits(): its check moves into the loop, on the counters the
 * loop has already read, and the pdflush decision after the loop reuses the
 * local nr_reclaimable. "In the common case with no throttling it now calls
 * global_page_state 5 fewer times and bdi_stat 2 fewer" - a test
 * (counters/tests/test_bdp.c).
 *
 * One departure from the posted text: it tests bdi_nr_reclaimable
 * ("} else if (bdi_nr_reclaimable) {") before the variable is first
 * assigned, i.e. it reads an uninitialised stack slot on the first pass.
 * Here the read is unconditional ("} else {"), the only reading under which
 * the seed's own count ("bdi_stat 2 fewer") holds, and the form later
 * kernels have. bdi->dirty_exceeded uses READ_ONCE/WRITE_ONCE_BDI, as in
 * bdp_rc8.c.
 *
 * The patch's first hunk, get_dirty_limits() without clip_bdi_dirty_limit,
 * is counters/dirty_limits_v2.c, which cached-locals-v2+wu shares; this
 * file calls it by its kernel name (BDP_CACHED_LOCALS_LIMITS).
 */
#define BDP_CACHED_LOCALS_LIMITS
#include "mmscale/linux-2.6/mm/writeback.h"

#include "bdp_variants.h"

/* The kernel mixes long and unsigned long in these comparisons; kept verbatim. */
#pragma GCC diagnostic ignored "-Wsign-compare"

static void balance_dirty_pages(struct address_space *mapping)
{
	long nr_reclaimable, bdi_nr_reclaimable;
	long nr_writeback, bdi_nr_writeback;
	unsigned long background_thresh;
	unsigned long dirty_thresh;
	unsigned long bdi_thresh;
	unsigned long pages_written = 0;
	unsigned long write_chunk = sync_writeback_pages();
	int dirty_exceeded;
	struct backing_dev_info *bdi = mapping->backing_dev_info;

	for (;;) {
		struct writeback_control wbc = {
			.bdi		= bdi,
			.sync_mode	= WB_SYNC_NONE,
			.older_than_this = NULL,
			.nr_to_write	= write_chunk,
			.range_cyclic	= 1,
		};

		get_dirty_limits(&background_thresh, &dirty_thresh,
				 &bdi_thresh, bdi);

		nr_reclaimable = global_page_state(NR_FILE_DIRTY) +
			global_page_state(NR_UNSTABLE_NFS);
		nr_writeback = global_page_state(NR_WRITEBACK) +
			global_page_state(NR_WRITEBACK_TEMP);

		/*
		 * In order to avoid the stacked BDI deadlock we need
		 * to ensure we accurately count the 'dirty' pages when
		 * the threshold is low.
		 *
		 * Otherwise it would be possible to get thresh+n pages
		 * reported dirty, even though there are thresh-m pages
		 * actually dirty; with m+n sitting in the percpu
		 * deltas.
		 */
		if (bdi_thresh < 2*bdi_stat_error(bdi)) {
			bdi_nr_reclaimable = bdi_stat_sum(bdi, BDI_RECLAIMABLE);
			bdi_nr_writeback = bdi_stat_sum(bdi, BDI_WRITEBACK);
		} else {
			bdi_nr_reclaimable = bdi_stat(bdi, BDI_RECLAIMABLE);
			bdi_nr_writeback = bdi_stat(bdi, BDI_WRITEBACK);
		}

		dirty_exceeded =
			(bdi_nr_reclaimable + bdi_nr_writeback >= bdi_thresh)
			|| (nr_reclaimable + nr_writeback >= dirty_thresh);

		if (!dirty_exceeded)
			break;

		/*
		 * Throttle it only when the background writeback cannot
		 * catch-up. This avoids (excessively) small writeouts
		 * when the bdi limits are ramping up.
		 */
		if (nr_reclaimable + nr_writeback <
		    (background_thresh + dirty_thresh) / 2)
			break;

		/* done enough? */
		if (pages_written >= write_chunk)
			break;

		if (!READ_ONCE(bdi->dirty_exceeded))
			WRITE_ONCE_BDI(bdi->dirty_exceeded, 1);

		/* Note: nr_reclaimable denotes nr_dirty + nr_unstable.
		 * Unstable writes are a feature of certain networked
		 * filesystems (i.e. NFS) in which data may have been
		 * written to the server's write cache, but has not yet
		 * been flushed to permanent storage.
		 * Only move pages to writeback if this bdi is over its
		 * threshold otherwise wait until the disk writes catch
		 * up.
		 */
		if (bdi_nr_reclaimable > bdi_thresh) {
			writeback_inodes(&wbc);
			pages_written += write_chunk - wbc.nr_to_write;
			/* don't wait if we've done enough */
			if (pages_written >= write_chunk)
				continue;
		}
		congestion_wait(BLK_RW_ASYNC, HZ/10);
	}

	if (!dirty_exceeded && READ_ONCE(bdi->dirty_exceeded))
		WRITE_ONCE_BDI(bdi->dirty_exceeded, 0);

	if (writeback_in_progress(bdi))
		return;		/* pdflush is already working this queue */

	/*
	 * In laptop mode, we wait until hitting the higher threshold before
	 * starting background writeout, and then write out all the way down
	 * to the lower threshold.  So slow writers cause minimal disk activity.
	 *
	 * In normal mode, we start background writeout at the lower
	 * background_thresh, to keep the amount of dirty memory low.
	 */
	if ((laptop_mode && pages_written) || (!laptop_mode &&
	     (nr_reclaimable > background_thresh)))
		pdflush_operation(background_writeout, 0);
}

MMSCALE_VARIANT_SYMBOL(bdp_cached_locals_v2, balance_dirty_pages);
