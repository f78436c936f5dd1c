/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The IO-less kernel code on pinned threads of the emulated machine
 * (built with MMSCALE_IOL_MACHINE; include/mmscale/linux-3.2/env.h): what 3.1's and
 * 3.2's balance_dirty_pages read, as the kernel has it.
 *
 * - global_page_state reads the machine's vm_stat[] by 3.2's enum
 *   (include/mmscale/linux-3.2/mm/vmstat.h): 3.2's include/linux/vmstat.h reads
 *   it as 2.6.31's does. Counted as MMSCALE_GLOBAL_READS, as for the 2.6.31
 *   rows. The rows run with 3.2's item numbering
 *   (mm_machine_config.vm_stat_numbering): 3.2 has NR_KERNEL_STACK (from
 *   2.6.32) after NR_PAGETABLE, which moves NR_UNSTABLE_NFS to item 16, the
 *   next line, so the six items a call reads lie on three cache lines of
 *   vm_stat[], as in 3.2.
 * - bdi_stat, bdi_stat_sum and bdi_stat_error are include/linux/backing-dev.h
 *   of 3.2 (lines 179-216, include/mmscale/mm/bdi_stat.h: the same code as
 *   2.6.31's) on the bdi's percpu_counters (kernel/lib/'s port
 *   of 2.6.31's lib/percpu_counter.c, the same code as 3.2's for these
 *   calls; a read counts MMSCALE_BDI_READS, a sum its lock and the online
 *   CPUs' slots). __bdi_update_bandwidth's percpu_counter_read of
 *   BDI_DIRTIED and BDI_WRITTEN is bdi_counter_read.
 * - current is the thread's own task, bdp_ratelimits a per-CPU int.
 * - jiffies is a global that no timer advances while a run is timed (a
 *   call takes well under a jiffy): the 200 ms bandwidth gate stays shut,
 *   as in all but one call per 200 ms. (The update behind it takes
 *   bdi->wb.list_lock in the kernel, which the port leaves out: one
 *   thread in the world, and none passes the gate here.)
 * - The virtual-time world's counts (throttle_count_*) are nothing here:
 *   the harness counts what the kernel reads, thread-locally.
 *
 * The functions the kernel has out of line (writeback_in_progress,
 * bdi_writeout_fraction, ...) are counters/iol_machine.c's.
 */
#ifndef MMSCALE_IOL_MACHINE_H
#define MMSCALE_IOL_MACHINE_H

#ifndef MMSCALE_IOL_MACHINE
#error "include/mmscale/linux-3.2/machine.h is the MMSCALE_IOL_MACHINE build's environment"
#endif

#include "mmscale/kernel/bitops.h"
#include "mmscale/kernel/cpumask.h"
#include "mmscale/kernel/percpu.h"
#include "mmscale/kernel/processor.h"
#include "mmscale/mm/config.h"
#include "mmscale/linux-3.2/mm/vmstat.h"
#include "mmscale/opcount.h"
#include "mmscale/linux-3.2/mm/writeback.h"

extern _Thread_local struct throttle_task iol_machine_task;
#define current (&iol_machine_task)
extern volatile unsigned long iol_machine_jiffies;
#define jiffies iol_machine_jiffies
/* DEFINE_PER_CPU(int, bdp_ratelimits) of 3.2 (an unsigned long in 3.1). */
extern int *iol_machine_bdp_ratelimits;

static inline int throttle_nr_cpus(void)
{
	return (int)num_online_cpus();
}

static inline int *throttle_bdp_ratelimits(void)
{
	return this_cpu_ptr(iol_machine_bdp_ratelimits);
}

/* include/linux/backing-dev.h of 3.2, line 48. */
/* mmscale: --set BDI_STAT_BATCH=N in place of the formula (mm/config.h). */
#define BDI_STAT_BATCH MM_KNOB_OR(mm_config()->bdi_stat_batch, (8*(1+ilog2(nr_cpu_ids))))

#include "mmscale/mm/bdi_stat.h"

static inline s64 bdi_counter_read(struct backing_dev_info *bdi, enum bdi_stat_item item)
{
	return percpu_counter_read(&bdi->bdi_stat[item]);
}

/* The world's counts: none on the machine. */
static inline void throttle_count_bdp_call(void)
{
}

static inline void throttle_count_bdp_pass(bool past_freerun)
{
	(void)past_freerun;
}

static inline void throttle_count_bw_sample(void)
{
}

#endif /* MMSCALE_IOL_MACHINE_H */
