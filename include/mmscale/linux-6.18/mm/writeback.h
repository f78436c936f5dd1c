/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Dirty throttling as Linux 6.18 has it: balance_dirty_pages on a
 * bdi_writeback with dirty_throttle_control (mm/page-writeback.c of
 * ../shared/kernel/6.18, blob 757bc4d3; kernel/linux-6.18/mm/page-writeback.c),
 * the types of include/linux/backing-dev-defs.h (blob c5c9d89c) and
 * include/linux/writeback.h (blob 22dd4adc), and the inline helpers of
 * include/linux/backing-dev.h (not in ../shared/kernel: wb_stat,
 * wb_stat_sum, wb_stat_error, writeback_in_progress, wb_has_dirty_io,
 * BDI_RATIO_SCALE and the BDI_CAP_ bits, read from the copy in
 * torvalds/linux at commit 00df7d51263b; not blob-checked against 6.18).
 *
 * The kernel configuration emulated: x86-64, SMP, HZ=1000 (as the 2.6.31
 * and 3.2 ports and the seeds' kernels; Debian's amd64 kernels build
 * HZ=250, which scales MAX_PAUSE, BANDWIDTH_INTERVAL, the completions'
 * period and wb_min_pause's pages), no HIGHMEM, and
 * without CONFIG_CGROUP_WRITEBACK (page-writeback.c 191-225): one global
 * wb_domain, every inode on its bdi's embedded wb. Distribution kernels
 * set CONFIG_CGROUP_WRITEBACK; a task in the root cgroup (as the bench's)
 * then takes the same path but for three things left out here:
 * wb_get_create_current's lookup of the root wb, mem_cgroup_flush_foreign
 * on a throttled pass, and wb_min_max_ratio scaling the bdi's ratios by
 * this wb's share of tot_write_bandwidth (no scaling with one wb). The
 * memcg domain is not a row.
 *
 * Layouts: struct bdi_writeback and struct backing_dev_info are laid out
 * field for field as x86-64 6.18 has them up to the fields the code uses
 * (static asserts below), with the unused list heads, rb_node and kref as
 * placeholders of their size: a throttled pass stores wb->dirty_exceeded
 * (page-writeback.c 1908) and bdi->last_bdp_sleep (1978) on every call,
 * and which read fields share their lines decides what that costs. The
 * fields after wb->bdi_node, which the code does not touch, are left out.
 *
 * Symbols carry the suffix _6_18 (include/mmscale/linux-6.18/map.h), apart from the 2.6.31
 * and 3.2 ports: a file includes this header or theirs, not both.
 */
#ifndef MMSCALE_MM_WRITEBACK_6_18_H
#define MMSCALE_MM_WRITEBACK_6_18_H

#if defined(MMSCALE_MM_BACKING_DEV_H) || defined(MMSCALE_MM_WRITEBACK_3_2_H)
#error "linux-6.18/mm/writeback.h names the kernel's types as 2.6.31's and 3.2's headers do: include one"
#endif

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>

#include "mmscale/kernel/bitops.h"
#include "mmscale/kernel/compiler.h"
#include "mmscale/kernel/cpumask.h"
#include "mmscale/kernel/list.h"
#include "mmscale/kernel/spinlock.h"
#include "mmscale/mm/config.h"
#include "mmscale/linux-6.18/lib/flex_proportions.h"
#include "mmscale/linux-6.18/mm/mmzone.h"
#include "mmscale/linux-6.18/lib/percpu_counter.h"
#include "mmscale/kernel/percpu.h"
#include "mmscale/mm/throttle_kernel.h"

/* This header's names, as 6.18 has them (include/mmscale/linux-6.18/map.h). */
#define MMSCALE_6_18_MAP_WANT_WRITEBACK
#include "mmscale/linux-6.18/map.h"

#ifdef MMSCALE_WB_6_18_WORLD
/*
 * Built a second time (CMakeLists.txt: mmscale_wb_6_18_world) for the
 * virtual-time world of throttle/ (kernel/linux-6.18/world/throttle.c): the same
 * code under the suffix _6_18_world, its environment the world's
 * (throttle_kernel.h) - the world's clock, CPUs and counts; the running
 * task; the counters of linux-6.18/lib/percpu_counter.h's world build.
 */
/* The global reads: the world's counts (kernel/linux-6.18/world/throttle.c). */
unsigned long global_zone_page_state(enum zone_stat_item item);
unsigned long global_node_page_state(enum node_stat_item item);
/* __wb_update_bandwidth's reads of the wb counts. */
#define percpu_counter_read(fbc)		percpu_counter_read_6_18_world(fbc)
/* DEFINE_PER_CPU ints as the world's plain arrays, one int per CPU. */
#undef this_cpu_ptr
#define this_cpu_ptr(ptr)			((ptr) + throttle_this_cpu())
#undef num_online_cpus
#define num_online_cpus()			((unsigned int)throttle_nr_cpus())
#endif

#define HZ		1000

/*
 * mm/page-writeback.c 47-61. Sleep at most 200ms at a time in
 * balance_dirty_pages().
 */
#define MAX_PAUSE		max(HZ/5, 1)

/*
 * Try to keep balance_dirty_pages() call intervals higher than this many pages
 * by raising pause time to max_pause when falls below it.
 */
#define DIRTY_POLL_THRESH	(128 >> (PAGE_SHIFT - 10))

/*
 * Estimate write bandwidth or update dirty limit at 200ms intervals.
 */
#define BANDWIDTH_INTERVAL	max(HZ/5, 1)

#define RATELIMIT_CALC_SHIFT	10

/* include/linux/backing-dev-defs.h 24-37 */
enum wb_state {
	WB_registered,		/* bdi_register() was done */
	WB_writeback_running,	/* Writeback is in progress */
	WB_has_dirty_io,	/* Dirty inodes on ->b_{dirty|io|more_io} */
	WB_start_all,		/* nr_pages == 0 (all) work pending */
};

enum wb_stat_item {
	WB_RECLAIMABLE,
	WB_WRITEBACK,
	WB_DIRTIED,
	WB_WRITTEN,
	NR_WB_STAT_ITEMS
};

/* mmscale: --set BDI_STAT_BATCH=N in place of the formula (mm/config.h). */
#define WB_STAT_BATCH MM_KNOB_OR(mm_config()->bdi_stat_batch, (8*(1+ilog2(nr_cpu_ids))))

/* include/linux/backing-dev.h: BDI ratio is expressed as part per 1000000. */
#define BDI_RATIO_SCALE 10000

#define BDI_CAP_WRITEBACK		(1 << 0)
#define BDI_CAP_WRITEBACK_ACCT		(1 << 1)
#define BDI_CAP_STRICTLIMIT		(1 << 2)

/* include/linux/writeback.h 354 */
#define BDP_ASYNC 0x0001

/* PF_LOCAL_THROTTLE of include/linux/sched.h (6.18) */
#define PF_LOCAL_THROTTLE	0x00100000

/* The kernel's types this file does not use, at their x86-64 sizes. */
struct rb_node_6_18 {
	unsigned long __rb_parent_color;
	void *rb_right, *rb_left;
};

/* include/linux/backing-dev-defs.h 105-164, to bdi_node. */
struct bdi_writeback {
	struct backing_dev_info *bdi;	/* our parent bdi */

	unsigned long state;		/* Always use atomic bitops on this */
	unsigned long last_old_flush;	/* last old data flush */

	struct list_head b_dirty;	/* dirty inodes */
	struct list_head b_io;		/* parked for writeback */
	struct list_head b_more_io;	/* parked for more writeback */
	struct list_head b_dirty_time;	/* time stamps are dirty */
	spinlock_t list_lock;		/* protects the b_* lists */

	atomic_int writeback_inodes;	/* number of inodes under writeback */
	struct percpu_counter stat[NR_WB_STAT_ITEMS];

	unsigned long bw_time_stamp;	/* last time write bw is updated */
	unsigned long dirtied_stamp;
	unsigned long written_stamp;	/* pages written at bw_time_stamp */
	unsigned long write_bandwidth;	/* the estimated write bandwidth */
	unsigned long avg_write_bandwidth; /* further smoothed write bw, > 0 */

	/*
	 * The base dirty throttle rate, re-calculated on every 200ms.
	 * All the bdi tasks' dirty rate will be curbed under it.
	 * @dirty_ratelimit tracks the estimated @balanced_dirty_ratelimit
	 * in small steps and is much more smooth/stable than the latter.
	 */
	unsigned long dirty_ratelimit;
	unsigned long balanced_dirty_ratelimit;

	struct fprop_local_percpu completions;
	int dirty_exceeded;
	int start_all_reason;		/* enum wb_reason */

	spinlock_t work_lock;		/* protects work_list & dwork scheduling */
	struct list_head work_list;
	/*
	 * struct delayed_work dwork and bw_dwork: 88 bytes each (a
	 * work_struct, a timer_list, a workqueue and a cpu); not used here.
	 */
	char dwork[88];
	char bw_dwork[88];

	struct list_head bdi_node;	/* anchored at bdi->wb_list */
};

/* include/linux/backing-dev-defs.h 167-203, to wb_list. */
struct backing_dev_info {
	u64 id;
	struct rb_node_6_18 rb_node; /* keyed by ->id */
	struct list_head bdi_list;
	unsigned long ra_pages;	/* max readahead in PAGE_SIZE units */
	unsigned long io_pages;	/* max allowed IO size */

	int refcnt;		/* struct kref: a refcount_t */
	unsigned int capabilities; /* Device capabilities */
	unsigned int min_ratio;
	unsigned int max_ratio, max_prop_frac;

	/*
	 * Sum of avg_write_bw of wbs with dirty inodes.  > 0 if there are
	 * any dirty wbs, which is depended upon by bdi_has_dirty().
	 */
	atomic_long tot_write_bandwidth;
	/*
	 * Jiffies when last process was dirty throttled on this bdi. Used by
	 * blk-wbt.
	 */
	unsigned long last_bdp_sleep;

	struct bdi_writeback wb;  /* the root writeback info for this bdi */
	struct list_head wb_list; /* list of all wbs */
};

/*
 * x86-64 offsets of 6.18 (pahole of the structs above as the kernel
 * declares them): the wb's percpu counts on lines 1-3 of the wb, its
 * bandwidth and ratelimits with the completions' count on line 6, and
 * the completions' period beside dirty_exceeded.
 */
BUILD_BUG_ON(offsetof(struct bdi_writeback, list_lock) != 88);
BUILD_BUG_ON(offsetof(struct bdi_writeback, stat) != 96);
BUILD_BUG_ON(offsetof(struct bdi_writeback, bw_time_stamp) != 256);
BUILD_BUG_ON(offsetof(struct bdi_writeback, completions) != 312);
BUILD_BUG_ON(offsetof(struct bdi_writeback, dirty_exceeded) != 360);
BUILD_BUG_ON(offsetof(struct bdi_writeback, work_lock) != 368);
BUILD_BUG_ON(offsetof(struct bdi_writeback, bdi_node) != 568);
BUILD_BUG_ON(offsetof(struct backing_dev_info, capabilities) != 68);
BUILD_BUG_ON(offsetof(struct backing_dev_info, tot_write_bandwidth) != 88);
BUILD_BUG_ON(offsetof(struct backing_dev_info, last_bdp_sleep) != 96);
BUILD_BUG_ON(offsetof(struct backing_dev_info, wb) != 104);

/* include/linux/writeback.h 119-155 */
struct wb_domain {
	spinlock_t lock;

	struct fprop_global completions;
	char period_timer[40];		/* struct timer_list: the environment's timer */
	unsigned long period_time;

	unsigned long dirty_limit_tstamp;
	unsigned long dirty_limit;
};

/* include/linux/writeback.h 308-329, without CONFIG_CGROUP_WRITEBACK */
struct dirty_throttle_control {
	struct bdi_writeback	*wb;
	struct fprop_local_percpu *wb_completions;

	unsigned long		avail;		/* dirtyable */
	unsigned long		dirty;		/* file_dirty + write + nfs */
	unsigned long		thresh;		/* dirty threshold */
	unsigned long		bg_thresh;	/* dirty background threshold */
	unsigned long		limit;		/* hard dirty limit */

	unsigned long		wb_dirty;	/* per-wb counterparts */
	unsigned long		wb_thresh;
	unsigned long		wb_bg_thresh;

	unsigned long		pos_ratio;
	bool			freerun;
	bool			dirty_exceeded;
};

/*
 * The task_struct fields the code reads and writes (include/linux/sched.h
 * of 6.18: nr_dirtied, nr_dirtied_pause, dirty_paused_when, flags), and
 * balance_dirty_pages' locals that live across its sleep: the function is
 * split there (see balance_dirty_pages_6_18).
 */
struct bdi_writeback;
/* balance_dirty_pages' loop up to its sleep: 6.18's, or a variant's copy of it. */
typedef long (*balance_dirty_pages_loop_fn)(struct bdi_writeback *wb);

struct task_6_18 {
	unsigned int flags;
	int nr_dirtied;
	int nr_dirtied_pause;
	unsigned long dirty_paused_when;
	struct {
		balance_dirty_pages_loop_fn loop;
		struct dirty_throttle_control *sdtc;
		struct dirty_throttle_control gdtc;
		unsigned long pages_dirtied;
		unsigned int flags;
		unsigned long start_time;
		unsigned long now;
		long pause;
		unsigned long task_ratelimit;
		int nr_dirtied_pause;
		int ret;
	} bdp;
};

/*
 * The environment the code runs in (counters/wb_machine-6.18.c on pinned threads
 * of the emulated machine): current, jiffies, the flusher's wakeup.
 */
#ifdef MMSCALE_WB_6_18_WORLD
/* The task the world is running (kernel/linux-6.18/world/throttle.c), and the world's clock. */
extern struct task_6_18 *wb_6_18_world_current;
#define current wb_6_18_world_current
#define jiffies throttle_jiffies()
#else
extern _Thread_local struct task_6_18 wb_6_18_current;
#define current (&wb_6_18_current)
extern volatile unsigned long wb_6_18_jiffies;
#define jiffies wb_6_18_jiffies
#endif
void wb_start_background_writeback_6_18(struct bdi_writeback *wb);
struct wb_domain;
/* mod_timer(&dom->period_timer, expires): writeout_period runs when it expires. */
void wb_6_18_mod_period_timer(struct wb_domain *dom, unsigned long expires);

/* include/linux/jiffies.h */
#define time_after(a, b)		((long)((b) - (a)) < 0)
#define time_before(a, b)		time_after(b, a)
#define time_after_eq(a, b)		((long)((a) - (b)) >= 0)
#define time_is_before_jiffies(a)	time_after(jiffies, a)

/* include/linux/math64.h on x86-64: div_u64 and div_s64 take a 32-bit divisor. */
static inline u64 div_u64(u64 dividend, u32 divisor)
{
	return dividend / divisor;
}

static inline u64 div64_u64(u64 dividend, u64 divisor)
{
	return dividend / divisor;
}

static inline s64 div64_s64(s64 dividend, s64 divisor)
{
	return dividend / divisor;
}

static inline u64 div64_ul(u64 dividend, unsigned long divisor)
{
	return dividend / divisor;
}

/* include/linux/backing-dev.h (the helpers 6.18's page-writeback.c calls) */
static inline bool wb_has_dirty_io(struct bdi_writeback *wb)
{
	return test_bit(WB_has_dirty_io, &wb->state);
}

static inline s64 wb_stat(struct bdi_writeback *wb, enum wb_stat_item item)
{
	return percpu_counter_read_positive_6_18(&wb->stat[item]);
}

static inline s64 wb_stat_sum(struct bdi_writeback *wb, enum wb_stat_item item)
{
	return percpu_counter_sum_positive_6_18(&wb->stat[item]);
}

static inline void wb_stat_mod(struct bdi_writeback *wb, enum wb_stat_item item, s64 amount)
{
	percpu_counter_add_batch_6_18(&wb->stat[item], amount, WB_STAT_BATCH);
}

/*
 * maximal error of a stat counter.
 */
static inline unsigned long wb_stat_error(void)
{
	return nr_cpu_ids * WB_STAT_BATCH;
}

static inline bool writeback_in_progress(struct bdi_writeback *wb)
{
	return test_bit(WB_writeback_running, &wb->state);
}

/* mm/page-writeback.c of 6.18: the sysctls and globals, at their defaults. */
extern int dirty_background_ratio;
extern unsigned long dirty_background_bytes;
extern int vm_dirty_ratio;
extern unsigned long vm_dirty_bytes;
extern long ratelimit_pages;
extern int laptop_mode;
extern struct wb_domain *global_wb_domain;	/* the kernel's is static data */
extern unsigned long totalreserve_pages;

/* The defaults of page-writeback.c 69-93, and ratelimit_pages' 32. */
void writeback_6_18_reset(void);

/* page-writeback.c of 6.18, by its names (map.h gives the suffix). */
void global_dirty_limits(unsigned long *pbackground, unsigned long *pdirty);
void writeback_set_ratelimit(void);
int wb_domain_init(struct wb_domain *dom);
void wb_domain_exit(struct wb_domain *dom);
/* The period timer's function: the environment calls it when it expires. */
void writeout_period(struct wb_domain *dom);
void wb_writeout_inc(struct bdi_writeback *wb);
unsigned long wb_calc_thresh(struct bdi_writeback *wb, unsigned long thresh);

/* The static functions of page-writeback.c, for the tests' arithmetic. */
void domain_dirty_limits(struct dirty_throttle_control *dtc);
unsigned long __wb_calc_thresh(struct dirty_throttle_control *dtc, unsigned long thresh);
long long pos_ratio_polynom(unsigned long setpoint, unsigned long dirty, unsigned long limit);
void wb_position_ratio(struct dirty_throttle_control *dtc);
void wb_update_dirty_ratelimit(struct dirty_throttle_control *dtc, unsigned long dirtied,
			       unsigned long elapsed);
unsigned long wb_max_pause(struct bdi_writeback *wb, unsigned long wb_dirty);
long wb_min_pause(struct bdi_writeback *wb, long max_pause, unsigned long task_ratelimit,
		  unsigned long dirty_ratelimit, int *nr_dirtied_pause);
unsigned long dirty_poll_interval(unsigned long dirty, unsigned long thresh);

/*
 * balance_dirty_pages (1810-2009), split where it sleeps
 * (io_schedule_timeout, 1979): it runs the loop up to the sleep and
 * returns the pause in jiffies (at least 1), the loop's locals kept in
 * current->bdp; the caller sleeps that long and calls
 * balance_dirty_pages_resume, which runs the lines after the sleep and
 * either loops again (another pause) or leaves. Leaving returns -1, with
 * what the kernel's would return (0, or -EAGAIN under BDP_ASYNC) in
 * current->bdp.ret. The tracepoints are left out; fatal_signal_pending is
 * false (no signals).
 */
long balance_dirty_pages(struct bdi_writeback *wb, unsigned long pages_dirtied,
			 unsigned int flags);
long balance_dirty_pages_resume(struct bdi_writeback *wb);
/*
 * The same with a variant's loop (a copy of balance_dirty_pages_loop, the
 * loop's body up to the sleep); resume then runs that loop again.
 */
long balance_dirty_pages_variant(balance_dirty_pages_loop_fn loop, struct bdi_writeback *wb,
				 unsigned long pages_dirtied, unsigned int flags);
long balance_dirty_pages_loop(struct bdi_writeback *wb);
/* What the loop calls (static in the kernel's file): for a variant's copy. */
void balance_domain_limits(struct dirty_throttle_control *dtc, bool strictlimit);
void balance_wb_limits(struct dirty_throttle_control *dtc, bool strictlimit);
unsigned long domain_poll_intv(struct dirty_throttle_control *dtc, bool strictlimit);
void __wb_update_bandwidth(struct dirty_throttle_control *gdtc,
			   struct dirty_throttle_control *mdtc, bool update_ratelimit);
/*
 * balance_dirty_pages_ratelimited_flags (2046-2109) on the bdi's embedded
 * wb, after its caller dirtied a page (current->nr_dirtied counted):
 * balance_dirty_pages' first return, or -1 if it was not called.
 */
long balance_dirty_pages_ratelimited_flags(struct backing_dev_info *bdi, unsigned int flags);
/* DEFINE_PER_CPU(int, bdp_ratelimits) and dirty_throttle_leaks: the environment's. */
extern int *bdp_ratelimits;
extern int *dirty_throttle_leaks;

/*
 * mm/backing-dev.c of 6.18 (not in ../shared/kernel): bdi_init and
 * wb_init, the fields this code reads: min_ratio 0, max_ratio
 * 100 * BDI_RATIO_SCALE, max_prop_frac FPROP_FRAC_BASE, capabilities
 * BDI_CAP_WRITEBACK | BDI_CAP_WRITEBACK_ACCT (bdi_alloc's), the wb's
 * bandwidths and ratelimits at INIT_BW (100 MB/s in pages), its
 * bw_time_stamp at jiffies, its completions and NR_WB_STAT_ITEMS
 * percpu_counters. -1 if a counter cannot be allocated.
 */
#define INIT_BW		(100 << (20 - PAGE_SHIFT))
int bdi_init_6_18(struct backing_dev_info *bdi);
void bdi_exit_6_18(struct backing_dev_info *bdi);

#ifdef MMSCALE_WB_6_18_WORLD
/*
 * The flusher's side of page-writeback.c, which only the world drives
 * (the end of kernel/linux-6.18/mm/page-writeback.c): wb_update_bandwidth
 * (1532-1537), wb_over_bg_thresh (2160-2172), do_writepages (2593-2629)
 * split around ->writepages, wb_inode_writeback_start and _end
 * (2963-2981). Its environment: queue_delayed_work(bdi_wq, &wb->bw_dwork,
 * delay), which does nothing while the work is pending.
 */
void wb_update_bandwidth(struct bdi_writeback *wb);
bool wb_over_bg_thresh(struct bdi_writeback *wb);
void do_writepages_start(struct bdi_writeback *wb);
void do_writepages_end(struct bdi_writeback *wb);
void wb_inode_writeback_start(struct bdi_writeback *wb);
void wb_inode_writeback_end(struct bdi_writeback *wb);
void wb_6_18_queue_bw_dwork(struct bdi_writeback *wb, unsigned long delay);
/* The world's disk's bdi, inside a throttle_run_kernel of 6.18's (for the tests). */
struct backing_dev_info *throttle_6_18_bdi(int disk);
#endif

#endif /* MMSCALE_MM_WRITEBACK_6_18_H */
