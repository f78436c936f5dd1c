/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The virtual-time world (throttle.h, kernel/linux-3.2/world/throttle.c) and a
 * kernel generation that names its own types: 6.18's struct
 * backing_dev_info and its node items must not meet 3.2's, which the
 * world's own file holds, in one file. So the two speak through this
 * header, which names no kernel type:
 * - what the world offers the generation's code (its clock, its CPUs, the
 *   global counts, the flusher's wakeup, timers, and where balance_dirty_pages'
 *   reads are counted);
 * - struct throttle_kernel: what the world asks of the generation (the
 *   hooks below), defined in the generation's file (kernel/linux-6.18/world/throttle.c)
 *   and run by throttle_run_kernel beside the 3.x variants.
 * The world numbers disks, tasks and CPUs from 0, as it does its own.
 */
#ifndef MMSCALE_MM_THROTTLE_KERNEL_H
#define MMSCALE_MM_THROTTLE_KERNEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * The global items the world keeps (throttle.h's enum throttle_stat_item,
 * in its order: kernel/linux-3.2/world/throttle.c asserts it), for a generation whose own
 * names for them are its mmzone's.
 */
enum throttle_world_item {
	THROTTLE_FREE_PAGES,
	THROTTLE_ACTIVE_FILE,
	THROTTLE_INACTIVE_FILE,
	THROTTLE_FILE_DIRTY,
	THROTTLE_WRITEBACK,
	THROTTLE_NR_WORLD_ITEMS
};

/*
 * The per-disk items, in 3.2's enum bdi_stat_item order, which 6.18's enum
 * wb_stat_item keeps (WB_RECLAIMABLE, WB_WRITEBACK, WB_DIRTIED, WB_WRITTEN).
 */
enum throttle_disk_item {
	THROTTLE_DISK_RECLAIMABLE,
	THROTTLE_DISK_WRITEBACK,
	THROTTLE_DISK_DIRTIED,
	THROTTLE_DISK_WRITTEN,
};

/* ---- the world, for the kernel code (valid inside a run) ---- */
unsigned long throttle_jiffies(void);
int throttle_this_cpu(void);
int throttle_nr_cpus(void);
/* The run models the per-CPU error of the counts (throttle_params.percpu_error). */
bool throttle_percpu_error(void);
/* The item as the kernel's global read sees it (folded, with percpu_error). */
unsigned long throttle_global_read(enum throttle_world_item item);
/* A per-disk read saw this gap from the exact count (the run's max_bdi_error). */
void throttle_note_disk_read_gap(uint64_t gap);
/* balance_dirty_pages' reads in one call or pass, as the kernel code counted them. */
void throttle_count_reads(uint64_t global_reads, uint64_t disk_reads, uint64_t sum_slots);
/* The world's counts of balance_dirty_pages' calls, passes and bandwidth samples. */
void throttle_count_bdp_call(void);
void throttle_count_bdp_pass(bool past_freerun);
void throttle_count_bw_sample(void);
/* The run cannot go on (the kernel code asked for what the world does not keep): it fails with why. */
void throttle_fail(const char *why);
/* Wake the disk's flusher for background writeback (it runs at once, in virtual time). */
void throttle_start_flusher(int disk);
/*
 * Call the generation's timer hook with id at jiffies expires (not before
 * now), on the CPU that armed it. Arming an id again moves it; the hook
 * then fires once, at the last time armed.
 */
void throttle_arm_timer(int id, unsigned long expires);

/* ---- the generation, for the world ---- */

/* The run's shape and sysctls, as the world sets them for 3.x. */
struct throttle_kernel_setup {
	int nr_disks;
	int nr_tasks;			/* task i writes to disk i / dd_per_disk, on CPU i % nr_cpus */
	int dd_per_disk;
	int nr_cpus;
	unsigned long sysctl_dirty_bytes;	/* vm.dirty_bytes; 0: vm.dirty_ratio */
	int sysctl_dirty_ratio;
	int sysctl_dirty_background_ratio;
	unsigned long sysctl_dirty_background_bytes;	/* 0: vm.dirty_background_ratio */
};

/* One sample of the trace (every sample_us): what the thread plotted. */
struct throttle_sample {
	double t_s;
	unsigned long nr_dirty;		/* dirty + writeback + unstable */
	unsigned long freerun, setpoint, limit, thresh, bg_thresh;
	/* disk 0 */
	unsigned long bdi_dirty, bdi_thresh, bdi_setpoint;
	unsigned long dirty_ratelimit, balanced_dirty_ratelimit, write_bw;
	double pause_ms;		/* mean pause of disk 0's tasks in the period */
	int files_under_writeback;	/* disk 0's files with pages submitted, not completed */
	unsigned long pos_ratio;	/* disk 0's, now */
};

struct throttle_kernel {
	/* Boot: the sysctls, the bdis, the tasks; ratelimit_pages as set. -1 with err. */
	int (*init)(const struct throttle_kernel_setup *s, long *ratelimit_pages,
		    char *err, size_t errlen);
	void (*exit)(void);
	/* How many timer ids (0 to n - 1) it arms with throttle_arm_timer. */
	int (*nr_timers)(const struct throttle_kernel_setup *s);
	/*
	 * Task task dirtied one page (the world has counted the global and
	 * disk items): the generation's own per-task and per-CPU accounting,
	 * then balance_dirty_pages_ratelimited. The pause to sleep, or -1.
	 */
	long (*dirtied)(int task);
	/* After the pause: the pause to sleep again, or -1. */
	long (*resume)(int task);
	/* Pages task may dirty before its next possible call into balance_dirty_pages. */
	long (*pages_until_check)(int task);
	/* A per-disk count moved on the world's CPU (the world's own count moved too). */
	void (*disk_stat_mod)(int disk, enum throttle_disk_item item, long amount);
	/* The flusher: its running bit, its threshold, its chunk, its writepages calls. */
	void (*flusher_running)(int disk, bool running);
	bool (*over_bg_thresh)(int disk);
	unsigned long (*writeback_chunk_size)(int disk, unsigned long nr_pages);
	void (*writepages_start)(int disk);
	void (*writepages_end)(int disk);
	/* A file's first page under writeback, and its last one done. */
	void (*inode_writeback_start)(int disk);
	void (*inode_writeback_end)(int disk);
	/* One page's writeback completed (the world has moved the writeback counts). */
	void (*writeout)(int disk);
	/* A timer armed with throttle_arm_timer expired. */
	void (*timer)(int id);
	/* The trace's limits and disk's control values (the world fills the rest). */
	void (*sample)(int disk, struct throttle_sample *s);
};

/* The generations (one file each): 6.18's, kernel/linux-6.18/world/throttle.c. */
extern const struct throttle_kernel throttle_kernel_6_18;

#endif /* MMSCALE_MM_THROTTLE_KERNEL_H */
