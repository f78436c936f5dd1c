/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The global counters as 3.1's and 3.2's balance_dirty_pages read them on
 * pinned threads of the emulated machine (include/mmscale/linux-3.2/machine.h):
 * 3.2's enum zone_stat_item (include/linux/mmzone.h of 3.2, CONFIG_NUMA, as
 * x86-8/linux-3.2 has it at 55cbae72d1d1) and global_page_state
 * (include/linux/vmstat.h of 3.2, the same code as 2.6.31's), over the
 * machine's global vm_stat[] (mmscale/mm/vm_stat.h). A run of these rows
 * numbers the machine's slots as 3.2 does (mm_machine_config.vm_stat_numbering,
 * which iol_bdp_setup checks), so item i is slot i, as &vm_stat[item] is in
 * the kernel (3.1's rows run with the same numbering). The counters are
 * filled, zone by zone, on the machine's side (counters/iol_machine_zones.c).
 *
 * Counts: global_page_state() counts MMSCALE_GLOBAL_READS, as 2.6.31's does.
 */
#ifndef MMSCALE_LINUX_3_2_MM_VMSTAT_H
#define MMSCALE_LINUX_3_2_MM_VMSTAT_H

#include "mmscale/kernel/atomic.h"
#include "mmscale/kernel/compiler.h"
#include "mmscale/mm/vm_stat.h"
#include "mmscale/opcount.h"

#define PAGE_SHIFT	12
#define PAGE_SIZE	(1UL << PAGE_SHIFT)

enum zone_stat_item {
	/* First 128 byte cacheline (assuming 64 bit words) */
	NR_FREE_PAGES,
	NR_LRU_BASE,
	NR_INACTIVE_ANON = NR_LRU_BASE, /* must match order of LRU_[IN]ACTIVE */
	NR_ACTIVE_ANON,		/*  "     "     "   "       "         */
	NR_INACTIVE_FILE,	/*  "     "     "   "       "         */
	NR_ACTIVE_FILE,		/*  "     "     "   "       "         */
	NR_UNEVICTABLE,		/*  "     "     "   "       "         */
	NR_MLOCK,		/* mlock()ed pages found and moved off LRU */
	NR_ANON_PAGES,	/* Mapped anonymous pages */
	NR_FILE_MAPPED,	/* pagecache pages mapped into pagetables.
			   only modified from process context */
	NR_FILE_PAGES,
	NR_FILE_DIRTY,
	NR_WRITEBACK,
	NR_SLAB_RECLAIMABLE,
	NR_SLAB_UNRECLAIMABLE,
	NR_PAGETABLE,		/* used for pagetables */
	NR_KERNEL_STACK,
	/* Second 128 byte cacheline */
	NR_UNSTABLE_NFS,	/* NFS unstable pages */
	NR_BOUNCE,
	NR_VMSCAN_WRITE,
	NR_VMSCAN_IMMEDIATE,	/* Prioritise for reclaim when writeback ends */
	NR_WRITEBACK_TEMP,	/* Writeback using temporary buffers */
	NR_ISOLATED_ANON,	/* Temporary isolated pages from anon lru */
	NR_ISOLATED_FILE,	/* Temporary isolated pages from file lru */
	NR_SHMEM,		/* shmem pages (included tmpfs/GEM pages) */
	NR_DIRTIED,		/* page dirtyings since bootup */
	NR_WRITTEN,		/* page writings since bootup */
	NUMA_HIT,		/* allocated in intended node */
	NUMA_MISS,		/* allocated in non intended node */
	NUMA_FOREIGN,		/* was intended here, hit elsewhere */
	NUMA_INTERLEAVE_HIT,	/* interleaver preferred this zone */
	NUMA_LOCAL,		/* allocation from local node */
	NUMA_OTHER,		/* allocation from other node */
	NR_ANON_TRANSPARENT_HUGEPAGES,
	NR_VM_ZONE_STAT_ITEMS };

/* The slots the machine's 3.2 numbering gives (VM_STAT_3_2_INDEX, linux-2.6/mm/mmzone.h). */
BUILD_BUG_ON(NR_VM_ZONE_STAT_ITEMS != 33 || NR_UNSTABLE_NFS != 16 || NR_VMSCAN_WRITE != 18 ||
	     NR_WRITEBACK_TEMP != 20 || NUMA_OTHER != 31);
/* balance_dirty_pages reads FILE_DIRTY and WRITEBACK on line 1, UNSTABLE_NFS on line 2. */
BUILD_BUG_ON(NR_FILE_DIRTY / 8 != 1 || NR_WRITEBACK / 8 != 1 || NR_UNSTABLE_NFS / 8 != 2);

static inline unsigned long global_page_state(enum zone_stat_item item)
{
	long x = atomic_long_read(vm_stat_at((size_t)item));

	mmscale_count_inc(MMSCALE_GLOBAL_READS);
	/* CONFIG_SMP: per-CPU deltas not yet folded can make it negative. */
	if (x < 0)
		x = 0;
	return (unsigned long)x;
}

#endif /* MMSCALE_LINUX_3_2_MM_VMSTAT_H */
