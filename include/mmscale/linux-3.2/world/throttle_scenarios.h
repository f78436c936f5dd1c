/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The 19 JBOD test cases of the seed-004 thread (Wu Fengguang, 18 Sep 2011,
 * ../shared/kernel/patches/v11-reply-20110918141705.GB15366-bdi-freerun-patch.txt
 * and ../shared/seeds/004_*), by their names, in the order of the thread's
 * table: 10 HDDs (one bdi each) with xfs, N dd writers per disk with 1 MiB
 * writes, 16 CPUs, 5895 MiB of memory, and vm.dirty_bytes of 100M, 800M,
 * 2G or 4G, or the default vm.dirty_ratio of 20 ("6G/...-20"). That "Ndd"
 * is N dd per disk is read from the numbers: the 1dd cases write as much as
 * the 10dd ones, which one dd on one of ten disks could not.
 *
 *	X(name, dd per disk, vm.dirty_bytes in MiB (0: the ratio), vm.dirty_ratio)
 */
#ifndef MMSCALE_THROTTLE_SCENARIOS_H
#define MMSCALE_THROTTLE_SCENARIOS_H

#define JBOD_NAME(group, dd, suffix)	"JBOD-10HDD-" group "/xfs-" #dd "dd-1M-16p-5895M-" suffix

#define THROTTLE_SCENARIOS(X)						\
	X(JBOD_NAME("6G", 100, "20"), 100, 0, 20)			\
	X(JBOD_NAME("6G", 10, "20"), 10, 0, 20)				\
	X(JBOD_NAME("6G", 1, "20"), 1, 0, 20)				\
	X(JBOD_NAME("6G", 2, "20"), 2, 0, 20)				\
	X(JBOD_NAME("thresh=100M", 100, "100M"), 100, 100, 0)		\
	X(JBOD_NAME("thresh=100M", 10, "100M"), 10, 100, 0)		\
	X(JBOD_NAME("thresh=100M", 1, "100M"), 1, 100, 0)		\
	X(JBOD_NAME("thresh=100M", 2, "100M"), 2, 100, 0)		\
	X(JBOD_NAME("thresh=2G", 100, "2048M"), 100, 2048, 0)		\
	X(JBOD_NAME("thresh=2G", 10, "2048M"), 10, 2048, 0)		\
	X(JBOD_NAME("thresh=2G", 1, "2048M"), 1, 2048, 0)		\
	X(JBOD_NAME("thresh=2G", 2, "2048M"), 2, 2048, 0)		\
	X(JBOD_NAME("thresh=4G", 10, "4096M"), 10, 4096, 0)		\
	X(JBOD_NAME("thresh=4G", 1, "4096M"), 1, 4096, 0)		\
	X(JBOD_NAME("thresh=4G", 2, "4096M"), 2, 4096, 0)		\
	X(JBOD_NAME("thresh=800M", 100, "800M"), 100, 800, 0)		\
	X(JBOD_NAME("thresh=800M", 10, "800M"), 10, 800, 0)		\
	X(JBOD_NAME("thresh=800M", 1, "800M"), 1, 800, 0)		\
	X(JBOD_NAME("thresh=800M", 2, "800M"), 2, 800, 0)

#endif /* MMSCALE_THROTTLE_SCENARIOS_H */
