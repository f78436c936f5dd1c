/* SPDX-License-Identifier: GPL-2.0 */
/* counters/tests/throttle_6_18_probe.c: 6.18's state inside a throttle world run. */
#ifndef MMSCALE_THROTTLE_6_18_PROBE_H
#define MMSCALE_THROTTLE_6_18_PROBE_H

#include <stdbool.h>

/* The exact sum of disk's wb counter item (enum wb_stat_item: 3.2's bdi order). */
long long probe_6_18_wb_sum(int disk, int item);
/* wb_over_bg_thresh of disk's wb. */
bool probe_6_18_over_bg_thresh(int disk);
/* global_node_page_state(NR_FILE_DIRTY), and global_dirty_limits' background threshold. */
unsigned long probe_6_18_global_dirty(void);
unsigned long probe_6_18_bg_thresh(void);
/* wb->writeback_inodes of disk's wb (wb_inode_writeback_start and _end). */
int probe_6_18_writeback_inodes(int disk);
/* The largest |per-CPU count| of disk's wb counters (percpu_counter_add_batch folds at the batch). */
int probe_6_18_wb_largest_cpu_count(int disk);
int probe_6_18_wb_stat_batch(void);	/* WB_STAT_BATCH for the world's CPUs */
/* The global wb_domain's completions period (writeout_period's count). */
unsigned int probe_6_18_period(void);

#endif
