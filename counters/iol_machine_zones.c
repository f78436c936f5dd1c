// SPDX-License-Identifier: GPL-2.0
/*
 * The machine's side of the IO-less rows on pinned threads
 * (counters/iol_machine_zones.h): the emulated machine's zones are the
 * 2.6.x machine's (kernel/linux-2.6/mm/mmzone.c), which 3.2's code
 * (counters/iol_machine.c) does not see. A run numbers the global vm_stat[]
 * as 3.2 does, so what is added here under 2.6.31's item names is what 3.2's
 * global_page_state reads under its own (include/mmscale/linux-3.2/mm/vmstat.h).
 */
#include "mmscale/linux-2.6/mm/vmstat.h"

#include "iol_machine_zones.h"

unsigned long iol_machine_present_pages(void)
{
	unsigned long pages = 0;
	struct zone *zone;

	for_each_populated_zone(zone)
		pages += zone_present_pages(zone);
	return pages;
}

unsigned long iol_machine_cache_pages(unsigned long dirty, unsigned long writeback)
{
	unsigned long dirty_left = dirty, left = dirty + writeback;
	struct zone *zone;

	for_each_populated_zone(zone) {
		unsigned long take = min(left, zone_page_state(zone, NR_FREE_PAGES));
		unsigned long take_dirty = min(take, dirty_left);

		zone_page_state_add(-(long)take, zone, NR_FREE_PAGES);
		zone_page_state_add((long)take, zone, NR_FILE_PAGES);
		zone_page_state_add((long)take, zone, NR_INACTIVE_FILE);
		zone_page_state_add((long)take_dirty, zone, NR_FILE_DIRTY);
		zone_page_state_add((long)(take - take_dirty), zone, NR_WRITEBACK);
		dirty_left -= take_dirty;
		left -= take;
	}
	return left;
}
