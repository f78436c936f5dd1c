/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The emulated memory's parameters (what mm_machine_setup_config takes),
 * apart from mmzone.h so that the harness's flags can name them without
 * the rest of the emulated mm.
 */
#ifndef MMSCALE_MM_CONFIG_H
#define MMSCALE_MM_CONFIG_H

#include <stdbool.h>

#include "../kernel/compiler.h"

/* Where the global vm_stat[] counters lie. */
enum mmscale_counter_layout {
	MMSCALE_LAYOUT_PACKED,	/* the kernel's: vm_stat[] contiguous, 8 per line */
	MMSCALE_LAYOUT_PADDED,	/* each global counter on its own line */
};

/*
 * Where each item sits in the global vm_stat[]: 2.6.31's enum (the
 * 2.6.x variants), or 3.2's, which has 33 items where 2.6.31 has 25
 * (NR_KERNEL_STACK before NR_UNSTABLE_NFS, NR_VMSCAN_IMMEDIATE before
 * NR_WRITEBACK_TEMP, six more before the NUMA items): the IO-less rows' and
 * 3.1's global reads. The per-zone and per-CPU arrays keep 2.6.31's.
 */
enum mm_vm_stat_numbering {
	MM_VM_STAT_2_6_31,
	MM_VM_STAT_3_2,
};

/* A knob left to the kernel's own formula. */
#define MM_KNOB_AUTO		(-1)
/* The largest stat_threshold an s8 holds (the kernel caps its own at 125). */
#define MM_STAT_THRESHOLD_MAX	127

/* The largest percpu_counter_batch: an s32's, the per-CPU count's type. */
#define MM_PERCPU_COUNTER_BATCH_MAX	2147483647
/* The largest BDI_STAT_BATCH: the s32 batch of __percpu_counter_add. */
#define MM_BDI_STAT_BATCH_MAX		MM_PERCPU_COUNTER_BATCH_MAX
/*
 * The dirty sysctls' ranges (6.18's vm_page_writeback_sysctls): ratios 0
 * to 100; dirty_bytes from dirty_bytes_min, 2 pages, background bytes
 * from 1, both to what the handlers accept, UINT_MAX pages.
 */
#define MM_DIRTY_RATIO_MAX		100
#define MM_DIRTY_BYTES_MIN		(2 * 4096LL)
#define MM_DIRTY_BYTES_MAX		(4096LL * 4294967295LL)
/* The pcp fractions' sysctls: at least 8 (MIN_PERCPU_PAGELIST_HIGH_FRACTION; 2.6.x's min_percpu_pagelist_fract), an int. */
#define MM_PCP_FRACTION_MIN		8
#define MM_PCP_FRACTION_MAX		2147483647
/* The largest pcp batch and high: the pageset's int fields. */
#define MM_PCP_HIGH_MAX			2147483647
/* The largest ratelimit_pages: the int per-CPU count (bdp_ratelimits) it is tested against. */
#define MM_RATELIMIT_PAGES_MAX		2147483647

/*
 * The --set knobs, one row each, the only list of them:
 *   X(ID, field, "name", lo, hi, nonzero_lo)
 * ID names the enum (MM_KNOB_ID), field the member of struct
 * mm_machine_config the emulated kernel code reads, "name" the kernel's
 * name that --set takes, lo to hi the range; a nonzero_lo other than 0
 * makes the range 0 or nonzero_lo to hi (a sysctl that refuses 1 to
 * nonzero_lo - 1). Everything else is generated from it: the enum, the
 * fields, the defaults (every knob MM_KNOB_AUTO), the copies, the
 * harness's parser; the harness's help rows are keyed by the enum. What
 * each knob is:
 *
 * stat_threshold: every zone's (and 6.18 node's) per-CPU stat_threshold,
 *   in place of what calculate_threshold (2.6.31) or
 *   calculate_normal_threshold (6.18) computes. The kernel has no such
 *   knob: refresh_zone_stat_thresholds is where the emulation puts it. 0 to
 *   MM_STAT_THRESHOLD_MAX (an s8's largest).
 * percpu_counter_batch: lib/percpu_counter.c's percpu_counter_batch (the
 *   kernel's compute_batch_value at boot and at every CPU up and down; the
 *   emulation's at 2.6.31's percpu_counter_init and at 6.18's
 *   compute_batch_value), in place of max(32, 2 * online CPUs). The batch of
 *   percpu_counter_add (percpu/, rss/, 2.6.31's proportions in dirty/), not
 *   BDI_STAT_BATCH.
 * BDI_STAT_BATCH: the batch of the per-bdi (6.18: per-wb) percpu_counters,
 *   BDI_STAT_BATCH of include/linux/backing-dev.h (2.6.31, 3.2) and
 *   WB_STAT_BATCH of backing-dev-defs.h (6.18), both 8 * (1 +
 *   ilog2(nr_cpu_ids)), a macro the kernel expands at each use; the
 *   emulation's macros take this value in its place (MM_KNOB_OR). It also
 *   sets bdi_stat_error (wb_stat_error), nr_cpu_ids * the batch: under
 *   twice that a bdi threshold is summed against, not read.
 * dirty_ratio, dirty_background_ratio, dirty_bytes, dirty_background_bytes:
 *   the vm.* sysctls. Auto: what the case sets up (the kernel's defaults,
 *   20% and 10% of the dirtyable memory, in bdp/ and dirty/'s 2.6.31 rows;
 *   the 100 MiB dirty_bytes of the IO-less and 6.18 benches; each throttle/
 *   scenario's own). A number is written over that as the sysctl's handler
 *   writes it (mm_dirty_sysctls_write).
 * ratelimit_pages: mm/page-writeback.c's ratelimit_pages, the pages a CPU
 *   (3.x and 6.18: beside a task's own pause) dirties between
 *   balance_dirty_pages calls, where writeback_set_ratelimit computes it
 *   (2.6.31 and 3.1: memory / (CPUs x 32), 16 pages to 4 MiB; 3.2 and 6.18:
 *   the dirty threshold / (CPUs x 32), at least 16).
 * percpu_pagelist_fraction (2.6.x's sysctl, to 5.13): every pageset's high
 *   = the zone's present pages / N, batch a quarter of it
 *   (setup_pagelist_highmark), in the drain/ rows of 2.6.32 to 3.4; auto:
 *   never written (high 6 x batch, as at boot).
 * percpu_pagelist_high_fraction (5.14's, in 6.1 and 6.18): zone_highsize's
 *   share of the managed pages instead of the low watermark; in 6.18 a
 *   nonzero one also stops the auto-tuning (high_min = high_max). Auto: 0,
 *   the default.
 * numa_stat: vm.numa_stat (4.16 on: 6.1, 6.18), whether zone_statistics
 *   counts an allocation's NUMA events; 0 also zeroes them. Auto: 1, the
 *   default.
 * pcp_batch, pcp_high, pcp_high_max: every pageset's batch and high (6.18:
 *   high_min, and high_max, between which it tunes high; equal, no tuning)
 *   in place of what zone_batchsize and zone_highsize compute (or a
 *   fraction's sysctl). No kernel has these as knobs; the emulation puts
 *   them where the pagesets are set up.
 */
#define MM_KNOBS(X)									\
	X(STAT_THRESHOLD, stat_threshold, "stat_threshold", 0, MM_STAT_THRESHOLD_MAX, 0)	\
	X(PERCPU_COUNTER_BATCH, percpu_counter_batch, "percpu_counter_batch", 0,		\
	  MM_PERCPU_COUNTER_BATCH_MAX, 0)							\
	X(BDI_STAT_BATCH, bdi_stat_batch, "BDI_STAT_BATCH", 0, MM_BDI_STAT_BATCH_MAX, 0)	\
	X(DIRTY_RATIO, sysctl_dirty_ratio, "dirty_ratio", 0, MM_DIRTY_RATIO_MAX, 0)		\
	X(DIRTY_BACKGROUND_RATIO, sysctl_dirty_background_ratio, "dirty_background_ratio",	\
	  0, MM_DIRTY_RATIO_MAX, 0)								\
	X(DIRTY_BYTES, sysctl_dirty_bytes, "dirty_bytes", MM_DIRTY_BYTES_MIN,			\
	  MM_DIRTY_BYTES_MAX, 0)								\
	X(DIRTY_BACKGROUND_BYTES, sysctl_dirty_background_bytes, "dirty_background_bytes",	\
	  1, MM_DIRTY_BYTES_MAX, 0)								\
	X(RATELIMIT_PAGES, writeback_ratelimit_pages, "ratelimit_pages", 0,			\
	  MM_RATELIMIT_PAGES_MAX, 0)								\
	X(PERCPU_PAGELIST_FRACTION, percpu_pagelist_fraction, "percpu_pagelist_fraction",	\
	  MM_PCP_FRACTION_MIN, MM_PCP_FRACTION_MAX, 0)					\
	X(PERCPU_PAGELIST_HIGH_FRACTION, percpu_pagelist_high_fraction,			\
	  "percpu_pagelist_high_fraction", 0, MM_PCP_FRACTION_MAX, MM_PCP_FRACTION_MIN)	\
	X(NUMA_STAT, numa_stat, "numa_stat", 0, 1, 0)						\
	X(PCP_BATCH, pcp_batch, "pcp_batch", 1, MM_PCP_HIGH_MAX, 0)				\
	X(PCP_HIGH, pcp_high, "pcp_high", 0, MM_PCP_HIGH_MAX, 0)				\
	X(PCP_HIGH_MAX, pcp_high_max, "pcp_high_max", 0, MM_PCP_HIGH_MAX, 0)

#define MM_KNOB_ENUM(id, field, name, lo, hi, nonzero_lo)	MM_KNOB_##id,
#define MM_KNOB_FIELD(id, field, name, lo, hi, nonzero_lo)	long long field;
#define MM_KNOB_AUTO_VALUE(id, field, name, lo, hi, nonzero_lo)	MM_KNOB_AUTO,

enum mm_knob {
	MM_KNOBS(MM_KNOB_ENUM)
	MM_NR_KNOBS
};

/* A knob's name and range, as MM_KNOBS has it (kernel/mm_config.c). */
struct mm_knob_range {
	const char *name;
	long long lo, hi;
	long long nonzero_lo;		/* 0, or the value is 0 or nonzero_lo to hi */
};
extern const struct mm_knob_range mm_knob_ranges[MM_NR_KNOBS];

/* Every knob auto: an initialiser for a long long [MM_NR_KNOBS]. */
#define MM_KNOBS_ALL_AUTO	{ MM_KNOBS(MM_KNOB_AUTO_VALUE) }

/*
 * The emulated memory's parameters, as a run sets it up: the cases build
 * them from the flags (bench/params.c, mmscale_mm_config), a test as it
 * likes; the emulated kernel code reads mm_config(), never the command
 * line's, so machines that differ can be set up one after another in one
 * process.
 */
struct mm_machine_config {
	uint64_t mem_bytes;			/* split evenly over the planned nodes */
	enum mmscale_counter_layout counter_layout;	/* vm_stat[] packed (kernel) or padded */
	unsigned int congestion_wait_us;	/* what congestion_wait(HZ/10) sleeps */
	unsigned int device_pages_per_ms;	/* the emulated device's bandwidth */
	u64 vmstat_interval_ns;			/* the vmstat work's period (real-time cases) */
	u64 vmstat_interval_scaled_ns;		/* ... where waits are scaled as congestion_wait */
	/*
	 * The machine has swap (nr_swap_pages > 0): 3.1's and 3.2's
	 * global_reclaimable_pages then read the two anon LRUs beside the
	 * file ones, two more global_page_state calls per dirty limit.
	 * 2.6.31's global_lru_pages reads all four either way.
	 */
	bool swap;
	enum mm_vm_stat_numbering vm_stat_numbering;	/* the variant's kernel's */
	/*
	 * The --set knobs (MM_KNOBS above), by name or by index: a number,
	 * or MM_KNOB_AUTO (the kernel's own formula or default).
	 */
	union {
		long long knob[MM_NR_KNOBS];
		struct {
			MM_KNOBS(MM_KNOB_FIELD)
		};
	};
	unsigned int zone_layout;	/* enum mm_zone_layout_kind (mm/mmzone.h): the variant's kernel's */
};
/* The named knobs lie on the array, one for one, as long longs without padding. */
struct mm_knob_fields {
	MM_KNOBS(MM_KNOB_FIELD)
};
_Static_assert(sizeof(struct mm_knob_fields) == sizeof(((struct mm_machine_config *)0)->knob),
	       "MM_KNOB_FIELD's fields do not lie on knob[]");

/*
 * A knob where the kernel expands a formula (a macro): the knob's value,
 * or the formula when it is auto. Marked "mmscale: --set" where used.
 */
#define MM_KNOB_OR(knob, formula)	((knob) != MM_KNOB_AUTO ? (knob) : (formula))

/* The defaults (the flags start from them too). */
#define MM_DEFAULT_MEM_BYTES		(3ULL << 30)	/* the seeds' box: dirty threshold ~600 MB */
#define MM_DEFAULT_CONGESTION_WAIT_US	100	/* HZ/10 = 100 ms in the kernel, scaled 1000x down */
#define MM_DEFAULT_VMSTAT_INTERVAL_MS	1000	/* sysctl_stat_interval = HZ: once a second */
#define MM_DEFAULT_DEVICE_PAGES_PER_MS	25	/* 100 MiB/s of 4 KiB pages */
#define MM_DEFAULT_SWAP			true	/* as on the servers the seeds ran on */

/* The defaults, with mem_bytes of memory. */
void mm_config_default(struct mm_machine_config *cfg, uint64_t mem_bytes);
/*
 * The vmstat work every interval_ms: as it is for the cases whose waits
 * are real time, and scaled as congestion_wait is for those whose
 * congestion_wait(HZ/10) sleeps cfg->congestion_wait_us instead of 100 ms
 * (so the fold comes as often per throttling wait as in the kernel). Set
 * congestion_wait_us first.
 */
void mm_config_set_vmstat_interval(struct mm_machine_config *cfg, unsigned int interval_ms);
/*
 * The running machine's parameters (kernel/mm_config.c): inline, because
 * knobs are read where the kernel expands a macro, in measured paths.
 */
extern struct mm_machine_config mm_running_config;
static inline const struct mm_machine_config *mm_config(void)
{
	return &mm_running_config;
}
/*
 * The knobs of cfg (stat_threshold, percpu_counter_batch, BDI_STAT_BATCH) into the running
 * parameters, for the cases that set up no zones (rss/): what
 * mm_machine_setup_config takes with the rest.
 */
void mm_config_set_knobs(const struct mm_machine_config *cfg);

/*
 * The dirty sysctls as a set-up wrote them, then the run's --set ones
 * written over them as mm/page-writeback.c's handlers write (2.6.31 lines
 * 168-222, 3.2 160-214, 6.18 487-546, the same rule): a ratio written
 * zeroes its bytes and bytes zero their ratio, except that dirty_ratio
 * and dirty_bytes zero the other only when the value changes. The caller
 * runs writeback_set_ratelimit after, as its set-up does. true if a knob
 * was written.
 */
bool mm_dirty_sysctls_write(int *dirty_ratio, unsigned long *dirty_bytes,
			    int *dirty_background_ratio, unsigned long *dirty_background_bytes);

/*
 * The calling CPU's vmstat work timer (kernel/linux-2.6/mm/vmstat.c): true once per
 * interval_ns, looked at every 64 calls on a coarse clock. Each kernel
 * generation's vmstat_update runs its own fold when it says so.
 */
bool vmstat_work_due(u64 interval_ns);

#endif /* MMSCALE_MM_CONFIG_H */
