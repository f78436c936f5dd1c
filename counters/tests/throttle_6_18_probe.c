// SPDX-License-Identifier: GPL-2.0
/*
 * What test_throttle_6_18 reads of 6.18's own state inside a run of the
 * throttle world (built with MMSCALE_WB_6_18_WORLD, apart from the test,
 * which sees the world's 3.2 types): the wb counters as the kernel code
 * keeps them, its background test, and the completions' period.
 */
#include "mmscale/linux-6.18/mm/mmzone.h"
#include "mmscale/linux-6.18/mm/writeback.h"
#include "throttle_6_18_probe.h"

long long probe_6_18_wb_sum(int disk, int item)
{
	return __percpu_counter_sum_6_18(&throttle_6_18_bdi(disk)->wb.stat[item]);
}

bool probe_6_18_over_bg_thresh(int disk)
{
	return wb_over_bg_thresh(&throttle_6_18_bdi(disk)->wb);
}

unsigned long probe_6_18_global_dirty(void)
{
	return global_node_page_state(NR_FILE_DIRTY);
}

unsigned long probe_6_18_bg_thresh(void)
{
	unsigned long bg, dirty;

	global_dirty_limits(&bg, &dirty);
	return bg;
}

unsigned int probe_6_18_period(void)
{
	return global_wb_domain->completions.period;
}

int probe_6_18_writeback_inodes(int disk)
{
	return atomic_load(&throttle_6_18_bdi(disk)->wb.writeback_inodes);
}

int probe_6_18_wb_largest_cpu_count(int disk)
{
	int largest = 0;

	for (int item = 0; item < NR_WB_STAT_ITEMS; item++)
		for (unsigned int cpu = 0; cpu < nr_cpu_ids; cpu++) {
			int c = throttle_6_18_bdi(disk)->wb.stat[item].counters[cpu];

			if (c < 0)
				c = -c;
			if (c > largest)
				largest = c;
		}
	return largest;
}

int probe_6_18_wb_stat_batch(void)
{
	return WB_STAT_BATCH;
}
