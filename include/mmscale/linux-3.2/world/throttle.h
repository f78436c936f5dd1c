/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The throttling loop in virtual time (issue 11, part 3): a deterministic
 * discrete-event world in which dd tasks dirty pages of their files, a
 * flusher per disk writes them back in chunks, and each disk completes them
 * at a bandwidth set by stated physical facts, while the ported kernel
 * functions (Linux 3.2's balance_dirty_pages and a variant's control)
 * decide every pause. Virtual nanoseconds, no sleeping; one thread; the
 * same scenario, variant and parameters give the same result, bit for bit.
 *
 * What the kernel reads through global_page_state, bdi_stat and
 * percpu_counter_read, the world keeps as exact counts (see
 * kernel/linux-3.2/world/throttle.c for every modelling choice).
 */
#ifndef MMSCALE_MM_THROTTLE_H
#define MMSCALE_MM_THROTTLE_H

#ifdef MMSCALE_IOL_MACHINE
#error "throttle.h is the virtual-time world's: IO-less kernel code includes include/mmscale/linux-3.2/env.h"
#endif

#include <stdbool.h>
#include <stdint.h>

#include "mmscale/mm/throttle_kernel.h"
#include "mmscale/linux-3.2/mm/writeback.h"

/* One of the seed's test cases (../shared/seeds/004_*). */
struct throttle_scenario {
	const char *name;		/* "JBOD-10HDD-thresh=100M/xfs-10dd-1M-16p-5895M-100M" */
	int nr_disks;			/* JBOD-10HDD: 10, one bdi each */
	int dd_per_disk;		/* "10dd": 10 dd tasks writing to each disk */
	int nr_cpus;			/* "16p" */
	unsigned long mem_mib;		/* "5895M" */
	unsigned long dirty_mib;	/* vm.dirty_bytes; 0: vm.dirty_ratio */
	int dirty_ratio;		/* used when dirty_mib is 0 */
};

/* The seed's 19 (kernel/linux-3.2/world/throttle_scenarios.c). */
extern const struct throttle_scenario throttle_scenarios[];
extern const size_t nr_throttle_scenarios;

/* The device and the run: physical facts, stated (throttle_params_default). */
struct throttle_params {
	uint64_t run_us;		/* virtual run length */
	unsigned long disk_pages_per_s;	/* sequential write bandwidth of one HDD */
	uint64_t file_switch_us;	/* a seek to another file's region */
	unsigned long request_pages;	/* largest request (max_sectors_kb) */
	unsigned long nr_requests;	/* the queue's depth, in requests */
	uint64_t page_copy_ns;		/* a dd's CPU time to dirty one page */
	unsigned long reserved_mib;	/* memory that is neither free nor page cache */
	uint64_t sample_us;		/* trace period (0: no trace) */
	bool swap;			/* global_reclaimable_pages reads the anon LRUs too */
	/*
	 * The reads carry the per-CPU error the machine would have: each CPU
	 * keeps its deltas of the vm items (folded at 3.2's stat_threshold,
	 * and by the vmstat work each second) and of the bdi items (at
	 * BDI_STAT_BATCH), and global_page_state, bdi_stat and the bandwidth
	 * sampling read the folded counts; bdi_stat_sum stays exact. Off: the
	 * exact counts.
	 */
	bool percpu_error;
};

void throttle_params_default(struct throttle_params *p);

/* What a run reports (the case's counters). */
struct throttle_result {
	uint64_t nr_dirtied;		/* pages the dd tasks dirtied */
	uint64_t nr_written;		/* pages the disks completed */
	uint64_t nr_dirty_end;		/* dirty at the end, not yet submitted */
	uint64_t nr_writeback_end;	/* submitted, not yet completed */
	uint64_t pauses;		/* io_schedule_timeout calls */
	double pause_mean_ms;
	double pause_p99_ms;
	double disk_idle_s;		/* summed over the disks */
	/* balance_dirty_pages' reads, summed over every call */
	uint64_t bdp_calls;
	uint64_t bdp_passes;		/* times through balance_dirty_pages' loop */
	uint64_t bdp_throttled_passes;	/* ... of them over the freerun ceiling */
	uint64_t bw_samples;		/* __bdi_update_bandwidth past its 200ms gate */
	uint64_t pause_hist[HZ / 5 + 1];	/* pauses by their jiffies (MAX_PAUSE at most) */
	long ratelimit_pages;		/* as the variant's writeback_set_ratelimit set it */
	uint64_t global_reads;		/* global_page_state and its callees */
	uint64_t bdi_reads;		/* bdi_stat, percpu_counter_read of a bdi item (not sums) */
	uint64_t bdi_sum_slots;		/* per-CPU slots bdi_stat_sum walks (nr_cpus a sum) */
	uint64_t underrun_sets;		/* v11 11/18: times a disk's queue set BDI_async_underrun */
	uint64_t underrun_clears;	/* ... and cleared it */
	/* percpu_error: the largest gap between a read and the exact count, in pages */
	uint64_t max_vm_error;		/* global_page_state */
	uint64_t max_bdi_error;		/* bdi_stat, the bandwidth sampling's reads */
	int stat_threshold, bdi_stat_batch;	/* the world's, for the bounds */
};

typedef void (*throttle_sample_fn)(const struct throttle_sample *s, void *arg);

/*
 * Run one scenario with one IO-less variant. Returns 0, or -1 with err
 * (a scenario the world cannot hold). sample, when not NULL, gets a sample
 * every params->sample_us.
 */
int throttle_run(const struct throttle_scenario *sc, const struct iol_variant_ops *ops,
		 const struct throttle_params *params, struct throttle_result *res,
		 throttle_sample_fn sample, void *arg, char *err, size_t errlen);
/* The same with a generation that names its own types (throttle_kernel.h): 6.18's. */
int throttle_run_kernel(const struct throttle_scenario *sc, const struct throttle_kernel *kernel,
			const struct throttle_params *params, struct throttle_result *res,
			throttle_sample_fn sample, void *arg, char *err, size_t errlen);

/* ------------------------------------------------------------------------
 * What the ported kernel code (counters/iol_balance.h) reads and calls, as
 * the world provides it.
 */

/* The global items balance_dirty_pages reads (include/linux/mmzone.h names). */
enum throttle_stat_item {
	NR_FREE_PAGES,
	NR_ACTIVE_FILE,
	NR_INACTIVE_FILE,
	NR_FILE_DIRTY,
	NR_WRITEBACK,
	NR_UNSTABLE_NFS,
	NR_INACTIVE_ANON,	/* read with swap; the world holds no anon pages */
	NR_ACTIVE_ANON,
	NR_THROTTLE_ITEMS
};

/* The running world's view for the kernel code (valid inside throttle_run). */
extern struct throttle_task *throttle_current;
#define current throttle_current
#define jiffies throttle_jiffies()	/* throttle_kernel.h: the world's clock, CPUs and counts */
int *throttle_bdp_ratelimits(void);	/* this CPU's bdp_ratelimits */
unsigned long global_page_state(enum throttle_stat_item item);
s64 bdi_stat(struct backing_dev_info *bdi, enum bdi_stat_item item);
s64 bdi_stat_sum(struct backing_dev_info *bdi, enum bdi_stat_item item);
s64 bdi_counter_read(struct backing_dev_info *bdi, enum bdi_stat_item item);
unsigned long bdi_stat_error(struct backing_dev_info *bdi);
/*
 * A store to the bdi's shared fields (opcount.h's WRITE_ONCE_BDI on the
 * machine): the world has one thread and counts no stores. (A file that
 * also includes opcount.h, the case glue's cases/throttle.c, keeps its.)
 */
#ifndef WRITE_ONCE_BDI
#define WRITE_ONCE_BDI(x, val)	((x) = (val))
#endif

#endif /* MMSCALE_MM_THROTTLE_H */
