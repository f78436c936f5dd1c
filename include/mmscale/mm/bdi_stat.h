/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The readers of a bdi's statistics: bdi_stat, __bdi_stat_sum, bdi_stat_sum
 * and bdi_stat_error, include/linux/backing-dev.h of 2.6.31 (lines 113-150)
 * and of 3.2 (lines 179-216), the same code in both. One copy serves both
 * emulated bdis, so it has no include guard: it is included where a struct
 * backing_dev_info with bdi_stat[NR_BDI_STAT_ITEMS] percpu_counters, enum
 * bdi_stat_item and BDI_STAT_BATCH are defined, once per kernel: 2.6.31's
 * in include/mmscale/linux-2.6/mm/backing-dev.h, 3.2's on the emulated machine in
 * include/mmscale/linux-3.2/machine.h (the two struct backing_dev_info never meet in one
 * translation unit). A read counts MMSCALE_BDI_READS, a sum its lock and the
 * online CPUs' slots (kernel/lib/percpu_counter.c).
 */

static inline s64 bdi_stat(struct backing_dev_info *bdi,
			   enum bdi_stat_item item)
{
	return percpu_counter_read_positive(&bdi->bdi_stat[item]);
}

static inline s64 __bdi_stat_sum(struct backing_dev_info *bdi,
				 enum bdi_stat_item item)
{
	return percpu_counter_sum_positive(&bdi->bdi_stat[item]);
}

static inline s64 bdi_stat_sum(struct backing_dev_info *bdi,
			       enum bdi_stat_item item)
{
	s64 sum;
	unsigned long flags;

	local_irq_save(flags);
	sum = __bdi_stat_sum(bdi, item);
	local_irq_restore(flags);

	return sum;
}

/*
 * maximal error of a stat counter.
 */
static inline unsigned long bdi_stat_error(struct backing_dev_info *bdi)
{
	(void)bdi;	/* the kernel's CONFIG_SMP branch: it reads no field */
	return nr_cpu_ids * BDI_STAT_BATCH;
}
