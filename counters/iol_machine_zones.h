/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the IO-less rows on the machine (counters/iol_machine.c, 3.2's types)
 * ask of the machine's zones (counters/iol_machine_zones.c, the 2.6.x
 * machine's types), in terms that name neither: the two never meet in one
 * file.
 */
#ifndef MMSCALE_IOL_MACHINE_ZONES_H
#define MMSCALE_IOL_MACHINE_ZONES_H

/* vm_total_pages: every populated zone's present pages. */
unsigned long iol_machine_present_pages(void);
/*
 * Move dirty + writeback pages from free to the inactive file LRU, dirty
 * or under writeback, in the zones' and the global counts: from each
 * populated zone in turn what it has free. Returns the pages no zone had
 * room for (0: all placed).
 */
unsigned long iol_machine_cache_pages(unsigned long dirty, unsigned long writeback);

#endif /* MMSCALE_IOL_MACHINE_ZONES_H */
