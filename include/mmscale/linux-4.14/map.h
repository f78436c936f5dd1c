/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Linux 4.14's names, mapped in one place (as include/mmscale/linux-6.18/map.h
 * does for 6.18): zone_statistics is also 2.6.38's on the 2.6.x machine
 * (kernel/linux-2.6/mm/page_alloc.c), which the same program links, so 4.14's
 * functions and globals are defined under the suffix _4_14. Included by
 * linux-4.14/mm/vmstat.h after its own includes.
 */
#ifndef MMSCALE_LINUX_4_14_MAP_H
#define MMSCALE_LINUX_4_14_MAP_H

#define zone_statistics		zone_statistics_4_14
#define __inc_numa_state	__inc_numa_state_4_14
#define vm_numa_stat		vm_numa_stat_4_14

#endif /* MMSCALE_LINUX_4_14_MAP_H */
