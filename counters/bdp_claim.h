/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A balance_dirty_pages row's claim, by name (cases/bdp_rows.h): apart,
 * because it names no generation's types, so that a test built against one
 * generation's headers (6.18's) reads its rows' claims too
 * (bdp_6_18_row, counters/wb_machine-6.18.h).
 */
#ifndef MMSCALE_BDP_CLAIM_H
#define MMSCALE_BDP_CLAIM_H

struct backing_dev_info;

/*
 * What one call (or one throttled pass) of a row's kernel counts, exactly,
 * worked out from its source (the comments beside its list).
 */
struct bdp_claim {
	/*
	 * global_page_state (6.18: global_node_page_state, ...) reads; 3.1's
	 * and 3.2's without swap: their generation adds the two anon LRUs
	 * where the machine has swap.
	 */
	unsigned int global_reads;
	/* bdi_stat (6.18: wb_stat) reads where the call reads, not sums */
	unsigned int bdi_reads;
	/* stores to the bdi's (wb's) shared fields */
	unsigned int bdi_stores;
	/*
	 * Where the call sums both bdi items over every CPU instead of two
	 * reads: below 2 * bdi_stat_error of this threshold. 2.6.31's rows:
	 * the bdi threshold their limits compute (NULL: they make no such
	 * test); a throttled pass: its threshold, of the bench's dirty one.
	 */
	unsigned long (*bdi_thresh)(struct backing_dev_info *bdi);
	unsigned long (*stat_thresh_of)(unsigned long dirty_thresh);
};

#endif /* MMSCALE_BDP_CLAIM_H */
