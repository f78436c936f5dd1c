// SPDX-License-Identifier: GPL-2.0
/*
 * The throttling loop in virtual time (include/mmscale/linux-3.2/world/throttle.h): a
 * discrete-event world of dd tasks, one flusher per disk and the disks,
 * around a variant's balance_dirty_pages (counters/iol_*.c: Linux 3.2's,
 * the v11 alternatives on it, and 3.1's).
 *
 * One file on purpose, longer than the others: it is one model over one
 * world (tw, below) - the event queue, what the kernel code reads, the
 * flusher and the disks, the tasks, the trace and the run - whose parts
 * schedule each other's events and change each other's state in one
 * order that makes every run the same; split, each part would need the
 * others' internals. Its sections are marked "---- ... ----".
 *
 * What is the kernel's, ported: every throttling decision
 * (balance_dirty_pages_ratelimited_nr, balance_dirty_pages, the limits,
 * the bandwidth and ratelimit estimation, the position ratio, the pause
 * and poll bounds), the writeout fraction's floating proportion
 * (lib/proportions.c's prop_norm_percpu and prop_fraction_percpu, on exact
 * counts), account_page_dirtied's and the writeback completion's counts.
 *
 * What is modelled, and how (the parameters: throttle_params_default):
 * - Time is virtual nanoseconds; jiffies are milliseconds (HZ = 1000). An
 *   event queue ordered by (time, sequence) makes every run the same. A
 *   pause is exactly its jiffies (the kernel's timer can fire up to a tick
 *   early).
 * - A dd task dirties one page per page_copy_ns of CPU time (a 4 KiB copy
 *   into the page cache), calling balance_dirty_pages_ratelimited_nr(1)
 *   after each page as generic_perform_write does; a task's pages up to its
 *   next possible call into balance_dirty_pages are accounted together when
 *   their copying ends (at most 256, one 1 MiB write()); if the call comes
 *   earlier (another task on its CPU moved bdp_ratelimits), the pages after
 *   it are copied after the pause, which starts when the call was made.
 *   Tasks do not compete for the 16 CPUs: each dirties at full speed while
 *   unthrottled (before the dirty pages reach freerun, after a freerun
 *   break, after a pause that rounded to 0), even 1000 of them at once with
 *   100 dd per disk; how much that changes is not measured. A task's CPU,
 *   for bdp_ratelimits, is task % nr_cpus.
 * - Counts are exact: what the kernel reads through per-CPU counters
 *   (global_page_state, bdi_stat, percpu_counter_read) the world reads
 *   without their per-CPU error; bdi_stat_sum's walk over the CPUs is
 *   counted (bdi_sum_slots) but returns the same exact count.
 * - Memory: free pages plus the page cache are the scenario's memory less
 *   reserved_mib (the kernel, the processes; no anon pages on the LRUs,
 *   so swap changes only how many items the limits read), constant: written pages stay
 *   cached until reclaim frees clean ones, so determine_dirtyable_memory()
 *   is constant, as on a machine doing nothing but dd.
 * - Each dd writes its own file on its disk. Writeback is the per-disk
 *   flusher's (3.2 has no other writer; 3.1's dirtiers also write back,
 *   through the same path, throttle_writeback_inodes_wb, and wait in FIFO
 *   order for a free request when the queue is full): it runs while the
 *   dirty pages are over the background threshold (over_bground_thresh),
 *   taking the disk's files round robin, up to a chunk of one file at a
 *   time (3.2's
 *   writeback_chunk_size for background work, fs/fs-writeback.c, not in
 *   ../shared/kernel: half a second of the disk's estimated bandwidth, at
 *   most global_dirty_limit / DIRTY_SCOPE, rounded down to 4 MiB after
 *   adding 4 MiB), in requests of up to request_pages; at nr_requests
 *   queued it waits for a request (get_request_wait: one FIFO with 3.1's
 *   dirtiers, a completion waking the first, which may then take up to 32
 *   more, to 3/2 nr_requests, as the block layer's batching allows). It
 *   looks at the background threshold before every request, so it stops
 *   at the threshold; 3.2's wb_writeback looks once per pass over the
 *   inodes and so writes somewhat below it.
 * - A disk serves its queue as the elevator sorts it (C-LOOK: the files lie
 *   on the disk in their order, the head sweeps upwards and wraps; a file's
 *   requests in the order submitted) at disk_pages_per_s, and a request of
 *   another file than the one before it first costs file_switch_us. It is
 *   idle when its queue is empty. The flusher blocks while the queue holds
 *   nr_requests requests.
 * - Left out: kupdate-style writeback of old inodes (every dd keeps
 *   dirtying; background writeback is what runs), metadata and journal IO,
 *   page reclaim's own writeback, the block layer's merging and sorting
 *   across files.
 *
 * A kernel whose types are not 3.2's (6.18: kernel/linux-6.18/world/throttle.c)
 * runs here through include/mmscale/mm/throttle_kernel.h: the tasks, the
 * disks, the request queue and the counts are the same; the generation's
 * code takes the calls where it differs - balance_dirty_pages and its
 * ratelimit, the wb counts it keeps, the flusher's background test and
 * chunk, the bandwidth updates writeback makes, its timers (a 3 s
 * writeout period, a bandwidth work 200 ms after an inode's writeback
 * ends) - and its flusher tests the background threshold before each
 * inode's chunk rather than each request (flusher_run_kernel says why).
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mmscale/mm/config.h"
#include "mmscale/linux-3.2/world/throttle.h"

/* throttle_kernel.h names the world's items for a generation with its own names. */
BUILD_BUG_ON(THROTTLE_FREE_PAGES != (int)NR_FREE_PAGES);
BUILD_BUG_ON(THROTTLE_ACTIVE_FILE != (int)NR_ACTIVE_FILE);
BUILD_BUG_ON(THROTTLE_INACTIVE_FILE != (int)NR_INACTIVE_FILE);
BUILD_BUG_ON(THROTTLE_FILE_DIRTY != (int)NR_FILE_DIRTY);
BUILD_BUG_ON(THROTTLE_WRITEBACK != (int)NR_WRITEBACK);
BUILD_BUG_ON(THROTTLE_DISK_RECLAIMABLE != (int)BDI_RECLAIMABLE);
BUILD_BUG_ON(THROTTLE_DISK_WRITEBACK != (int)BDI_WRITEBACK);
BUILD_BUG_ON(THROTTLE_DISK_DIRTIED != (int)BDI_DIRTIED);
BUILD_BUG_ON(THROTTLE_DISK_WRITTEN != (int)BDI_WRITTEN);

#define PAGES_PER_MIB	256UL
#define WRITE_PAGES	256	/* dd bs=1M */
#define NS_PER_JIFFY	1000000ULL

void throttle_params_default(struct throttle_params *p)
{
	memset(p, 0, sizeof(*p));
	p->run_us = 60ULL * 1000 * 1000;
	/*
	 * A 7200 rpm SATA disk of 2011 (1-2 TB) writes 100-150 MB/s
	 * sequentially on its outer tracks: 100 MiB/s.
	 */
	p->disk_pages_per_s = 100 * PAGES_PER_MIB;
	/*
	 * The dd files of one disk lie in one xfs allocation group, each in its
	 * own region (speculative preallocation keeps a growing file
	 * contiguous): moving to another file's region is a short seek (1 ms)
	 * and, on average, half a turn at 7200 rpm (4.2 ms).
	 */
	p->file_switch_us = 5200;
	/* max_sectors_kb 512; nr_requests 128 (the block layer's defaults). */
	p->request_pages = 128;
	p->nr_requests = 128;
	/* Copying 4 KiB at 4 GB/s; the page cache's bookkeeping is not charged. */
	p->page_copy_ns = 1000;
	p->reserved_mib = 256;
	p->sample_us = 0;
	/* As bench's machines (mm/config.h's MM_DEFAULT_SWAP). */
	p->swap = true;
}

enum event_kind {
	EV_TASK_RUN,		/* a task starts copying its next pages */
	EV_TASK_DIRTIED,	/* ... and has copied them */
	EV_TASK_WAKE,		/* a task's pause ends */
	EV_DISK_DONE,		/* a disk completes its head request */
	EV_FLUSH,		/* a flusher runs */
	EV_SAMPLE,		/* the trace */
	EV_VMSTAT,		/* percpu_error: the vmstat work folds every CPU (each HZ) */
	EV_TIMER,		/* a generation's timer (throttle_arm_timer) */
};

struct event {
	uint64_t t;
	uint64_t seq;
	int kind;
	int id;
};

struct tw_file {
	int disk;
	long dirty;		/* dirty pages not yet submitted */
	long writeback;		/* submitted, not yet completed */
};

struct tw_request {
	int file;
	unsigned long pages;
	uint64_t seq;		/* submission order */
};

struct tw_disk {
	struct backing_dev_info bdi;
	int first_file, nr_files;
	/* the flusher */
	bool flusher_active;	/* writeback_in_progress() */
	bool flusher_blocked;	/* waiting for a request (in waiters) */
	int flusher_batch;	/* requests it may take over nr_requests, once woken */
	int next_file;		/* round robin over the disk's files */
	int cur_file;
	unsigned long chunk_left;
	/* the device */
	struct tw_request *q;	/* unordered; the elevator picks */
	size_t q_len, q_cap;
	size_t q_next;		/* the request being served */
	uint64_t q_seq;
	bool busy;
	int last_file;
	uint64_t idle_since, idle_ns;
	/* 3.1: dirtiers waiting for a free request (get_request_wait), FIFO */
	int *waiters;
	size_t nr_waiters, waiters_cap;
	/* trace: disk 0's tasks' pauses in this sample period */
	uint64_t sample_pause_ms, sample_pauses;
	/* percpu_error: each bdi item's fbc->count, and per CPU its s32 deltas */
	s64 bdi_count[NR_BDI_STAT_ITEMS];
	s32 *bdi_diff;		/* nr_cpus x NR_BDI_STAT_ITEMS */
};

struct tw_task {
	struct throttle_task t;
	struct address_space mapping;
	int cpu;
	int disk;
	int batch;		/* pages being copied (EV_TASK_DIRTIED) */
	int req_batch;		/* 3.1: requests it may take over nr_requests, once woken */
};

struct throttle_world {
	const struct throttle_scenario *sc;
	const struct throttle_params *p;
	const struct iol_variant_ops *ops;
	/*
	 * Or a generation with its own types (throttle_kernel.h: 6.18), where
	 * the code below says "kernel": the world keeps its own counts (the
	 * bdi's bdi_stat[] are its record of each disk's, but for
	 * BDI_WRITTEN, which only 3.x's completions count), and the
	 * generation's code is called where 3.x's would be.
	 */
	const struct throttle_kernel *kernel;
	bool kernel_up;
	long kernel_ratelimit;	/* its ratelimit_pages, as its boot set it */
	uint64_t *timer_at;	/* per timer id: when armed (ns), or UINT64_MAX */
	int *timer_cpu;		/* ... and the CPU that armed it, where it runs */
	int nr_timers;
	const char *fail_why;	/* the run failed other than out of memory */
	uint64_t now;		/* ns */
	uint64_t seq;
	struct event *heap;
	size_t heap_len, heap_cap;
	unsigned long stat[NR_THROTTLE_ITEMS];	/* exact */
	/* percpu_error: the global vm_stat[] as folded, and per CPU the s8 deltas */
	long vm_global[NR_THROTTLE_ITEMS];
	long *vm_diff;		/* nr_cpus x NR_THROTTLE_ITEMS */
	int stat_threshold;
	int bdi_stat_batch;
	unsigned long memory;	/* free + page cache, pages */
	int *bdp_ratelimits;	/* per CPU */
	int cpu;		/* the running event's: its task's, its disk's, the timer's arming one */
	struct tw_disk *disks;
	struct tw_file *files;
	struct tw_task *tasks;
	int nr_tasks;
	/* vm_completions and (3.1) vm_dirties: the global events, the period shift */
	s64 completions;
	s64 dirties;
	int completion_shift;
	bool failed;		/* an allocation failed: the run reports it */
	struct throttle_result *res;
};

static struct throttle_world *tw;	/* the running world (one at a time) */
struct throttle_task *throttle_current;

/* ---- the event queue: a binary heap on (t, seq) ---- */

static bool ev_before(const struct event *a, const struct event *b)
{
	return a->t < b->t || (a->t == b->t && a->seq < b->seq);
}

static int schedule(uint64_t t, int kind, int id)
{
	struct event e = { .t = t, .seq = tw->seq++, .kind = kind, .id = id };
	size_t i;

	if (tw->heap_len == tw->heap_cap) {
		size_t cap = tw->heap_cap ? 2 * tw->heap_cap : 1024;
		struct event *h = realloc(tw->heap, cap * sizeof(*h));

		if (!h) {
			tw->failed = true;	/* the run ends, out of memory */
			return -1;
		}
		tw->heap = h;
		tw->heap_cap = cap;
	}
	i = tw->heap_len++;
	while (i && ev_before(&e, &tw->heap[(i - 1) / 2])) {
		tw->heap[i] = tw->heap[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	tw->heap[i] = e;
	return 0;
}

static struct event pop_event(void)
{
	struct event top = tw->heap[0], last = tw->heap[--tw->heap_len];
	size_t i = 0;

	for (;;) {
		size_t c = 2 * i + 1;

		if (c >= tw->heap_len)
			break;
		if (c + 1 < tw->heap_len && ev_before(&tw->heap[c + 1], &tw->heap[c]))
			c++;
		if (!ev_before(&tw->heap[c], &last))
			break;
		tw->heap[i] = tw->heap[c];
		i = c;
	}
	if (tw->heap_len)
		tw->heap[i] = last;
	return top;
}

/* ---- what the kernel code reads ---- */

unsigned long throttle_jiffies(void)
{
	return (unsigned long)(tw->now / NS_PER_JIFFY);
}

int throttle_this_cpu(void)
{
	return tw->cpu;
}

int throttle_nr_cpus(void)
{
	return tw->sc->nr_cpus;
}

int *throttle_bdp_ratelimits(void)
{
	return &tw->bdp_ratelimits[tw->cpu];
}

/*
 * What global_page_state reads: the exact count, or with percpu_error the
 * global vm_stat[] as the per-CPU deltas have been folded into it (3.2's
 * vmstat.h: negative reads as 0).
 */
/* The world's record of the gap a read made, not the kernel's. */
static unsigned long vm_gap(enum throttle_stat_item item, unsigned long read)
{
	long gap = (long)read - (long)tw->stat[item];

	if ((uint64_t)labs(gap) > tw->res->max_vm_error)
		tw->res->max_vm_error = (uint64_t)labs(gap);
	return read;
}

static unsigned long vm_read(enum throttle_stat_item item)
{
	long x;

	if (!tw->p->percpu_error)
		return tw->stat[item];
	x = tw->vm_global[item];
	return vm_gap(item, x < 0 ? 0 : (unsigned long)x);
}

/* ---- what a generation with its own types reads and calls (throttle_kernel.h) ---- */

bool throttle_percpu_error(void)
{
	return tw->p->percpu_error;
}

unsigned long throttle_global_read(enum throttle_world_item item)
{
	return vm_read((enum throttle_stat_item)item);
}

void throttle_note_disk_read_gap(uint64_t gap)
{
	if (gap > tw->res->max_bdi_error)
		tw->res->max_bdi_error = gap;
}

void throttle_count_reads(uint64_t global_reads, uint64_t disk_reads, uint64_t sum_slots)
{
	tw->res->global_reads += global_reads;
	tw->res->bdi_reads += disk_reads;
	tw->res->bdi_sum_slots += sum_slots;
}

void throttle_fail(const char *why)
{
	if (!tw->failed)
		tw->fail_why = why;
	tw->failed = true;
}

void throttle_arm_timer(int id, unsigned long expires)
{
	uint64_t t = (uint64_t)expires * NS_PER_JIFFY;

	if (id < 0 || id >= tw->nr_timers) {
		throttle_fail("a generation armed a timer the world did not give it");
		return;
	}
	if (t < tw->now)
		t = tw->now;
	tw->timer_at[id] = t;
	tw->timer_cpu[id] = tw->cpu;
	schedule(t, EV_TIMER, id);
}

unsigned long global_page_state(enum throttle_stat_item item)
{
	tw->res->global_reads++;
	return vm_read(item);
}

/*
 * mm/vmscan.c of 3.1 and 3.2: the file LRUs, and the anon ones when there
 * is swap (nr_swap_pages > 0); the world's anon LRUs are empty, so swap
 * adds two reads and no pages.
 */
unsigned long global_reclaimable_pages(void)
{
	int nr;

	nr = global_page_state(NR_ACTIVE_FILE) + global_page_state(NR_INACTIVE_FILE);
	if (tw->p->swap)
		nr += global_page_state(NR_ACTIVE_ANON) + global_page_state(NR_INACTIVE_ANON);
	return nr;
}

static struct tw_disk *disk_of(struct backing_dev_info *bdi);

/* percpu_counter_read: fbc->count (the exact count without percpu_error). */
static s64 bdi_gap(struct backing_dev_info *bdi, enum bdi_stat_item item, s64 read)
{
	s64 gap = read - bdi->bdi_stat[item];	/* the world's record, not the kernel's */

	if ((uint64_t)llabs(gap) > tw->res->max_bdi_error)
		tw->res->max_bdi_error = (uint64_t)llabs(gap);
	return read;
}

static s64 bdi_count(struct backing_dev_info *bdi, enum bdi_stat_item item)
{
	if (!tw->p->percpu_error)
		return bdi->bdi_stat[item];
	return bdi_gap(bdi, item, disk_of(bdi)->bdi_count[item]);
}

/* percpu_counter_read_positive */
s64 bdi_stat(struct backing_dev_info *bdi, enum bdi_stat_item item)
{
	s64 x = bdi_count(bdi, item);

	tw->res->bdi_reads++;
	return x > 0 ? x : 0;
}

/*
 * A sum is its slots, not a read: bdi_reads counts what bdp/ counts. It is
 * exact: fbc->count plus every CPU's delta.
 */
s64 bdi_stat_sum(struct backing_dev_info *bdi, enum bdi_stat_item item)
{
	tw->res->bdi_sum_slots += (uint64_t)tw->sc->nr_cpus;
	return bdi->bdi_stat[item] > 0 ? bdi->bdi_stat[item] : 0;
}

s64 bdi_counter_read(struct backing_dev_info *bdi, enum bdi_stat_item item)
{
	tw->res->bdi_reads++;
	return bdi_count(bdi, item);
}

/* backing-dev.h of 3.2: nr_cpu_ids * BDI_STAT_BATCH (the world's, set up in tw_init). */
unsigned long bdi_stat_error(struct backing_dev_info *bdi)
{
	(void)bdi;
	return (unsigned long)tw->sc->nr_cpus * (unsigned long)tw->bdi_stat_batch;
}

static struct tw_disk *disk_of(struct backing_dev_info *bdi)
{
	return container_of(bdi, struct tw_disk, bdi);
}

/*
 * The counts the kernel keeps per CPU, one page at a time on the CPU the
 * kernel does it on (percpu_error; else only the exact counts move):
 * - vm items, 3.2's mm/vmstat.c: __inc_zone_state/__dec_zone_state (the
 *   dirty and writeback counts: account_page_dirtied, clear_page_dirty_for_io,
 *   test_set/clear_page_writeback) fold the delta and half a threshold
 *   more once it passes stat_threshold; __mod_zone_page_state (free pages
 *   on allocation, the LRU add) folds it once past the threshold;
 * - bdi items, 3.2's lib/percpu_counter.c __percpu_counter_add with
 *   BDI_STAT_BATCH: folded into fbc->count once at the batch.
 */
static long *vm_delta(int cpu, enum throttle_stat_item item)
{
	return &tw->vm_diff[(size_t)cpu * NR_THROTTLE_ITEMS + item];
}

static void vm_inc(int cpu, enum throttle_stat_item item)
{
	long *p;

	tw->stat[item]++;
	if (!tw->p->percpu_error)
		return;
	p = vm_delta(cpu, item);
	(*p)++;
	if (*p > tw->stat_threshold) {
		long overstep = tw->stat_threshold / 2;

		tw->vm_global[item] += *p + overstep;
		*p = -overstep;
	}
}

static void vm_dec(int cpu, enum throttle_stat_item item)
{
	long *p;

	tw->stat[item]--;
	if (!tw->p->percpu_error)
		return;
	p = vm_delta(cpu, item);
	(*p)--;
	if (*p < -tw->stat_threshold) {
		long overstep = tw->stat_threshold / 2;

		tw->vm_global[item] += *p - overstep;
		*p = overstep;
	}
}

static void vm_mod(int cpu, enum throttle_stat_item item, long delta)
{
	long *p, x;

	tw->stat[item] += (unsigned long)delta;
	if (!tw->p->percpu_error)
		return;
	p = vm_delta(cpu, item);
	x = delta + *p;
	if (x > tw->stat_threshold || x < -tw->stat_threshold) {
		tw->vm_global[item] += x;
		x = 0;
	}
	*p = x;
}

/* refresh_cpu_vm_stats for every CPU: the vmstat work, once a second. */
static void vm_fold_all(void)
{
	for (int cpu = 0; cpu < tw->sc->nr_cpus; cpu++)
		for (int item = 0; item < NR_THROTTLE_ITEMS; item++) {
			long *p = vm_delta(cpu, (enum throttle_stat_item)item);

			tw->vm_global[item] += *p;
			*p = 0;
		}
}

static void bdi_mod(struct tw_disk *d, int cpu, enum bdi_stat_item item, s32 amount)
{
	s32 *pcount;
	s64 count;

	d->bdi.bdi_stat[item] += amount;
	if (tw->kernel)	/* the generation keeps its own wb counts, on tw->cpu (== cpu) */
		tw->kernel->disk_stat_mod((int)(d - tw->disks), (enum throttle_disk_item)item, amount);
	if (!tw->p->percpu_error)
		return;
	pcount = &d->bdi_diff[(size_t)cpu * NR_BDI_STAT_ITEMS + item];
	count = *pcount + amount;
	if (count >= tw->bdi_stat_batch || count <= -tw->bdi_stat_batch) {
		d->bdi_count[item] += count;
		*pcount = 0;
	} else {
		*pcount = (s32)count;
	}
}

/* Where the block layer's completion runs, and the bdi's flusher thread: one CPU per disk. */
static int disk_cpu(const struct tw_disk *d)
{
	return (int)(d - tw->disks) % tw->sc->nr_cpus;
}

int writeback_in_progress(struct backing_dev_info *bdi)
{
	return disk_of(bdi)->flusher_active;
}

/* writeback_in_progress: the flusher's running bit, which a generation keeps too. */
static void set_flusher_active(struct tw_disk *d, bool active)
{
	d->flusher_active = active;
	if (tw->kernel)
		tw->kernel->flusher_running((int)(d - tw->disks), active);
}

void throttle_start_flusher(int disk)
{
	struct tw_disk *d = &tw->disks[disk];

	if (d->flusher_active)
		return;
	set_flusher_active(d, true);
	schedule(tw->now, EV_FLUSH, disk);
}

void bdi_start_background_writeback(struct backing_dev_info *bdi)
{
	throttle_start_flusher((int)(disk_of(bdi) - tw->disks));
}

void throttle_count_bdp_call(void)
{
	tw->res->bdp_calls++;
}

void throttle_count_bdp_pass(bool past_freerun)
{
	tw->res->bdp_passes++;
	tw->res->bdp_throttled_passes += past_freerun;
}

void throttle_count_bw_sample(void)
{
	tw->res->bw_samples++;
}

/*
 * lib/proportions.c's prop_norm_percpu (2.6.31 lines 211-250, unchanged in
 * 3.2) and prop_norm_single (lines 341-371, the same arithmetic) on exact
 * counts: the local events halve for every half-period the global count
 * has moved on.
 */
static void prop_norm_exact(struct prop_local_exact *pl, s64 global)
{
	unsigned long period = 1UL << (tw->completion_shift - 1);
	unsigned long period_mask = ~(period - 1);
	unsigned long global_period = (unsigned long)global & period_mask;
	unsigned long halvings;

	if (pl->period == global_period)
		return;
	halvings = (global_period - pl->period) >> (tw->completion_shift - 1);
	if (halvings < sizeof(long) * 8)	/* BITS_PER_LONG */
		pl->events >>= halvings;
	else
		pl->events = 0;
	pl->period = global_period;
}

/*
 * prop_fraction_percpu (lines 303-320) and prop_fraction_single (391-407):
 * x / (period/2 + t % period/2).
 */
static void prop_fraction_exact(struct prop_local_exact *pl, s64 global, long *numerator,
				long *denominator)
{
	unsigned long period_2 = 1UL << (tw->completion_shift - 1);

	prop_norm_exact(pl, global);
	*numerator = pl->events > 0 ? (long)pl->events : 0;
	*denominator = (long)(period_2 + ((unsigned long)global & (period_2 - 1)));
}

void bdi_writeout_fraction(struct backing_dev_info *bdi, long *numerator, long *denominator)
{
	prop_fraction_exact(&bdi->completions, tw->completions, numerator, denominator);
}

/* 3.1 task_dirty_inc (lines 248-251): __prop_inc_single on vm_dirties. */
void task_dirty_inc(struct throttle_task *tsk)
{
	prop_norm_exact(&tsk->dirties, tw->dirties);
	tsk->dirties.events++;
	tw->dirties++;
}

/* 3.1 task_dirties_fraction (lines 263-268). */
void task_dirties_fraction(struct throttle_task *tsk, long *numerator, long *denominator)
{
	prop_fraction_exact(&tsk->dirties, tw->dirties, numerator, denominator);
}

unsigned long throttle_total_pages(void)
{
	return tw->sc->mem_mib * PAGES_PER_MIB;
}

/* __bdi_writeout_inc (3.2 lines 219-224) with max_prop_frac = PROP_FRAC_BASE. */
static void bdi_writeout_inc(struct backing_dev_info *bdi, int cpu)
{
	bdi_mod(disk_of(bdi), cpu, BDI_WRITTEN, 1);
	prop_norm_exact(&bdi->completions, tw->completions);
	bdi->completions.events++;
	tw->completions++;
}

/*
 * 3.2 calc_period_shift (lines 137-150): period/2 ~ the dirty limit;
 * determine_dirtyable_memory() is the world's memory + 1.
 */
static int calc_period_shift(void)
{
	unsigned long dirty_total;

	if (vm_dirty_bytes)
		dirty_total = vm_dirty_bytes / 4096;
	else
		dirty_total = ((unsigned long)vm_dirty_ratio * (tw->memory + 1)) / 100;
	/* (prop_change_shift's PROP_MAX_SHIFT cap is far above these shifts) */
	return 2 + ilog2(dirty_total - 1);
}

/* ---- the flusher ---- */

/* The world's own reads: not counted as balance_dirty_pages' reads. */
static bool over_bground_thresh(struct tw_disk *d)
{
	unsigned long background, dirty;
	uint64_t reads = tw->res->global_reads;

	if (tw->kernel)	/* 6.18: wb_over_bg_thresh, the disk's share too */
		return tw->kernel->over_bg_thresh((int)(d - tw->disks));

	global_dirty_limits(&background, &dirty);
	tw->res->global_reads = reads;
	return vm_read(NR_FILE_DIRTY) + vm_read(NR_UNSTABLE_NFS) > background;
}

/*
 * fs-writeback.c's writeback_chunk_size (3.1 and 3.2, not in
 * ../shared/kernel) for WB_SYNC_NONE work of nr_pages pages (the flusher's
 * background work: LONG_MAX): what one inode may write.
 */
static unsigned long writeback_chunk_size(struct backing_dev_info *bdi, unsigned long nr_pages)
{
	unsigned long pages;

	if (tw->kernel)
		return tw->kernel->writeback_chunk_size((int)(disk_of(bdi) - tw->disks), nr_pages);

	pages = min(bdi->avg_write_bandwidth / 2, global_dirty_limit / DIRTY_SCOPE);
	pages = min(pages, nr_pages);
	return (pages + MIN_WRITEBACK_PAGES) / MIN_WRITEBACK_PAGES * MIN_WRITEBACK_PAGES;
}

/*
 * The request allocation (the block layer's get_request, not in
 * ../shared/kernel): below nr_requests, anyone; at or above, only a task
 * just woken from the wait (a "batcher"), for BLK_BATCH_REQ requests and
 * up to 3/2 nr_requests; the others wait in one FIFO, flusher and
 * dirtiers alike, and each completion wakes the first.
 */
#define BLK_BATCH_REQ		32
#define FLUSHER_WAITER		(-1)

static bool request_allowed(const struct tw_disk *d, int *batch)
{
	if (d->q_len < tw->p->nr_requests)
		return true;
	if (*batch > 0 && d->q_len < tw->p->nr_requests * 3 / 2) {
		(*batch)--;
		return true;
	}
	return false;
}

static int wait_for_request(struct tw_disk *d, int who);

/* C-LOOK: the same file or the next one up, wrapping; FIFO within a file. */
static size_t elevator_next(const struct tw_disk *d)
{
	size_t best = 0;
	int best_key = 0;

	for (size_t i = 0; i < d->q_len; i++) {
		const struct tw_request *r = &d->q[i];
		/* distance upwards from the head's file, wrapping */
		int key = r->file >= d->last_file ? r->file - d->last_file
						  : r->file - d->last_file + tw->nr_tasks;

		if (i == 0 || key < best_key || (key == best_key && r->seq < d->q[best].seq)) {
			best = i;
			best_key = key;
		}
	}
	return best;
}

static void disk_start(struct tw_disk *d)
{
	const struct tw_request *r;
	uint64_t ns;

	if (d->busy || !d->q_len)
		return;
	d->q_next = elevator_next(d);
	r = &d->q[d->q_next];
	ns = r->pages * 1000000000ULL / tw->p->disk_pages_per_s;
	if (r->file != d->last_file)
		ns += tw->p->file_switch_us * 1000;
	d->busy = true;
	d->idle_ns += tw->now - d->idle_since;
	schedule(tw->now + ns, EV_DISK_DONE, (int)(d - tw->disks));
}

/*
 * v11 11/18's block-layer hooks (blk-core.c there; the v11 rows read the
 * flag): every request here is an async write, and the disk holds at most
 * the one it serves, so q->in_flight[async] is 1 while it is busy, else 0,
 * and rl->count[async] is q_len. get_request, before it counts a new
 * request: "if (rl->count[is_sync] >= q->in_flight[is_sync] +
 * BLK_UNDERRUN_REQUESTS) blk_clear_queue_underrun"; __freed_request, after
 * a completed request is uncounted (no other is in flight then): "if
 * (rl->count[sync] <= q->in_flight[sync] && rl->count[!sync] == 0)
 * blk_set_queue_underrun".
 */
#define BLK_UNDERRUN_REQUESTS	3

static void get_request_underrun(struct tw_disk *d)
{
	if (d->q_len >= (size_t)(d->busy ? 1 : 0) + BLK_UNDERRUN_REQUESTS) {
		if (d->bdi.state & (1UL << BDI_async_underrun))
			tw->res->underrun_clears++;
		d->bdi.state &= ~(1UL << BDI_async_underrun);
	}
}

static void freed_request_underrun(struct tw_disk *d)
{
	if (d->q_len <= (size_t)(d->busy ? 1 : 0)) {
		if (!(d->bdi.state & (1UL << BDI_async_underrun)))
			tw->res->underrun_sets++;
		d->bdi.state |= 1UL << BDI_async_underrun;
	}
}

static int submit(struct tw_disk *d, int file, unsigned long pages, int cpu)
{
	struct tw_file *f = &tw->files[file];

	if (d->q_len == d->q_cap) {
		size_t cap = d->q_cap ? 2 * d->q_cap : 64;
		struct tw_request *q = realloc(d->q, cap * sizeof(*q));

		if (!q) {
			tw->failed = true;
			return -1;
		}
		d->q = q;
		d->q_cap = cap;
	}
	get_request_underrun(d);
	d->q[d->q_len++] = (struct tw_request){ file, pages, d->q_seq++ };
	/* clear_page_dirty_for_io and test_set_page_writeback's counts, per page */
	f->dirty -= (long)pages;
	for (unsigned long i = 0; i < pages; i++) {
		vm_dec(cpu, NR_FILE_DIRTY);
		bdi_mod(d, cpu, BDI_RECLAIMABLE, -1);
		vm_inc(cpu, NR_WRITEBACK);
		bdi_mod(d, cpu, BDI_WRITEBACK, 1);
		if (!f->writeback++ && tw->kernel)	/* the inode's first page under writeback */
			tw->kernel->inode_writeback_start(f->disk);
	}
	disk_start(d);
	return 0;
}

/*
 * The next of the disk's files with dirty pages, round robin from
 * next_file (the inodes' b_io order, shared by the flusher and 3.1's
 * dirtiers), which moves past it; -1 if none has any.
 */
static int next_dirty_file(struct tw_disk *d)
{
	for (int i = 0; i < d->nr_files; i++) {
		int file = d->first_file + (d->next_file + i) % d->nr_files;

		if (tw->files[file].dirty > 0) {
			d->next_file = (d->next_file + i + 1) % d->nr_files;
			return file;
		}
	}
	return -1;
}

static int flusher_run_kernel(struct tw_disk *d);

static int flusher_run(struct tw_disk *d)
{
	if (tw->kernel)
		return flusher_run_kernel(d);
	for (;;) {
		struct tw_file *f;
		unsigned long k;

		if (!over_bground_thresh(d)) {
			set_flusher_active(d, false);
			return 0;
		}
		if (!request_allowed(d, &d->flusher_batch)) {	/* get_request_wait */
			d->flusher_blocked = true;
			return wait_for_request(d, FLUSHER_WAITER);
		}
		if (!d->chunk_left) {
			d->cur_file = next_dirty_file(d);
			if (d->cur_file < 0) {
				set_flusher_active(d, false);
				return 0;
			}
			d->chunk_left = writeback_chunk_size(&d->bdi, (unsigned long)LONG_MAX);
		}
		f = &tw->files[d->cur_file];
		k = min(tw->p->request_pages, d->chunk_left);
		if ((unsigned long)f->dirty < k)
			k = (unsigned long)f->dirty;
		if (!k) {
			d->chunk_left = 0;
			continue;
		}
		if (submit(d, d->cur_file, k, disk_cpu(d)))
			return -1;
		d->chunk_left -= k;
		if (!f->dirty)
			d->chunk_left = 0;	/* the inode is clean: the next one */
	}
}

/*
 * A generation's flusher (6.18's wb_writeback): an inode's chunk is one
 * do_writepages, written whole - its start (wb_bandwidth_estimate_start)
 * before the first request, waiting for requests inside it, its end (a
 * bandwidth update if due) after the last - and the background test
 * (wb_over_bg_thresh) comes before each chunk, not before each request:
 * the kernel tests it once a pass over the inodes, which may be more than
 * one chunk, so this flusher stops a little sooner than 6.18's.
 */
static int flusher_run_kernel(struct tw_disk *d)
{
	int disk = (int)(d - tw->disks);

	for (;;) {
		struct tw_file *f;
		unsigned long k;

		if (!d->chunk_left) {
			if (!over_bground_thresh(d)) {
				set_flusher_active(d, false);
				return 0;
			}
			d->cur_file = next_dirty_file(d);
			if (d->cur_file < 0) {
				set_flusher_active(d, false);
				return 0;
			}
			d->chunk_left = writeback_chunk_size(&d->bdi, (unsigned long)LONG_MAX);
			tw->kernel->writepages_start(disk);
		}
		if (!request_allowed(d, &d->flusher_batch)) {	/* inside ->writepages */
			d->flusher_blocked = true;
			return wait_for_request(d, FLUSHER_WAITER);
		}
		f = &tw->files[d->cur_file];
		k = min(tw->p->request_pages, d->chunk_left);
		if ((unsigned long)f->dirty < k)
			k = (unsigned long)f->dirty;
		if (k && submit(d, d->cur_file, k, disk_cpu(d)))
			return -1;
		d->chunk_left -= k;
		if (!d->chunk_left || !f->dirty) {	/* the chunk is written, or the inode is clean */
			d->chunk_left = 0;
			tw->kernel->writepages_end(disk);
		}
	}
}

/*
 * 3.1's writeback_inodes_wb from a dirtier (fs-writeback.c, not in
 * ../shared/kernel; as the flusher's path here: the bdi's files round robin,
 * each up to writeback_chunk_size of what is left to write, which rounds
 * up to 4 MiB, in requests of up to request_pages), stopping when no
 * request is to be had.
 */
long throttle_writeback_inodes_wb(struct backing_dev_info *bdi, long nr_pages, bool *blocked)
{
	struct tw_disk *d = disk_of(bdi);
	struct tw_task *t = container_of(throttle_current, struct tw_task, t);
	long done = 0;

	*blocked = false;
	while (done < nr_pages) {
		int file = next_dirty_file(d);
		unsigned long chunk;

		if (file < 0)
			break;	/* nothing dirty left on this bdi */
		chunk = writeback_chunk_size(bdi, (unsigned long)(nr_pages - done));
		while (chunk && tw->files[file].dirty > 0) {
			unsigned long k = min(tw->p->request_pages, chunk);

			if (!request_allowed(d, &t->req_batch)) {	/* get_request_wait */
				*blocked = true;
				return done;
			}
			if ((unsigned long)tw->files[file].dirty < k)
				k = (unsigned long)tw->files[file].dirty;
			if (submit(d, file, k, t->cpu))
				return done;
			chunk -= k;
			done += (long)k;
		}
	}
	return done;
}

static int wait_for_request(struct tw_disk *d, int who)
{
	if (d->nr_waiters == d->waiters_cap) {
		size_t cap = d->waiters_cap ? 2 * d->waiters_cap : 16;
		int *w = realloc(d->waiters, cap * sizeof(*w));

		if (!w) {
			tw->failed = true;
			return -1;
		}
		d->waiters = w;
		d->waiters_cap = cap;
	}
	d->waiters[d->nr_waiters++] = who;
	return 0;
}

static void disk_done(struct tw_disk *d)
{
	struct tw_request r = d->q[d->q_next];

	d->q[d->q_next] = d->q[--d->q_len];
	d->last_file = r.file;
	d->busy = false;
	freed_request_underrun(d);
	/* test_clear_page_writeback, per page */
	for (unsigned long i = 0; i < r.pages; i++) {
		bdi_mod(d, disk_cpu(d), BDI_WRITEBACK, -1);
		vm_dec(disk_cpu(d), NR_WRITEBACK);
		if (tw->kernel) {	/* __folio_end_writeback: __wb_writeout_add, the inode's end */
			struct tw_file *f = &tw->files[r.file];

			tw->kernel->writeout(f->disk);
			if (!--f->writeback)
				tw->kernel->inode_writeback_end(f->disk);
		} else {
			tw->files[r.file].writeback--;
			bdi_writeout_inc(&d->bdi, disk_cpu(d));
		}
	}
	tw->res->nr_written += r.pages;
	d->idle_since = tw->now;
	disk_start(d);
	if (d->nr_waiters) {	/* a request is free: the first waiting goes on, batching */
		int who = d->waiters[0];

		memmove(d->waiters, d->waiters + 1, --d->nr_waiters * sizeof(*d->waiters));
		if (who == FLUSHER_WAITER) {
			d->flusher_blocked = false;
			d->flusher_batch = BLK_BATCH_REQ;
			schedule(tw->now, EV_FLUSH, (int)(d - tw->disks));
		} else {
			tw->tasks[who].req_batch = BLK_BATCH_REQ;
			schedule(tw->now, EV_TASK_WAKE, who);
		}
	}
}

/* ---- the dd tasks ---- */

/*
 * The task sleeps pause jiffies from when it called balance_dirty_pages;
 * early_ns: how long before now that was (the copying of a batch's pages
 * after the one that entered, charged but not done: they are copied after
 * the pause).
 */
static void record_pause(struct tw_task *t, long pause, uint64_t early_ns)
{
	struct tw_disk *d = &tw->disks[t->disk];

	tw->res->pauses++;
	tw->res->pause_hist[pause < 0 ? 0 : pause > HZ / 5 ? HZ / 5 : pause]++;
	if (t->disk == 0) {
		d->sample_pause_ms += (uint64_t)pause;
		d->sample_pauses++;
	}
	/* a pause is at least a jiffy, longer than any batch: the wake is after now */
	schedule(tw->now - early_ns + (uint64_t)pause * NS_PER_JIFFY, EV_TASK_WAKE,
		 (int)(t - tw->tasks));
}

/*
 * The pages a task may copy before its next possible call into
 * balance_dirty_pages: balance_dirty_pages_ratelimited_nr's two triggers.
 */
static int pages_until_check(struct tw_task *t)
{
	struct backing_dev_info *bdi = t->mapping.backing_dev_info;
	int ratelimit = t->t.nr_dirtied_pause;
	long until_task, until_cpu, n;

	if (tw->kernel) {
		n = tw->kernel->pages_until_check((int)(t - tw->tasks));
	} else {
		if (bdi->dirty_exceeded)
			ratelimit = min(ratelimit, 32 >> (12 - 10));
		until_task = (long)ratelimit - t->t.nr_dirtied;
		until_cpu = ratelimit_pages - tw->bdp_ratelimits[t->cpu];
		n = min(until_task, until_cpu);
	}
	if (n < 1)
		n = 1;
	return (int)min(n, (long)WRITE_PAGES);
}

static void task_run(struct tw_task *t)
{
	t->batch = pages_until_check(t);
	schedule(tw->now + (uint64_t)t->batch * tw->p->page_copy_ns, EV_TASK_DIRTIED,
		 (int)(t - tw->tasks));
}

/* account_page_dirtied (3.2 lines 1736-1745) for one page. */
static void account_page_dirtied(struct tw_task *t)
{
	struct backing_dev_info *bdi = t->mapping.backing_dev_info;

	vm_inc(t->cpu, NR_FILE_DIRTY);
	if (tw->stat[NR_FREE_PAGES]) {	/* a page cache page allocated, on the LRU */
		vm_mod(t->cpu, NR_FREE_PAGES, -1);
		vm_mod(t->cpu, NR_INACTIVE_FILE, 1);
	}
	bdi_mod(disk_of(bdi), t->cpu, BDI_RECLAIMABLE, 1);
	/* 3.2's; 3.1 has not the item, and no reader of it */
	bdi_mod(disk_of(bdi), t->cpu, BDI_DIRTIED, 1);
	if (tw->ops && tw->ops->counts_task_dirties)
		task_dirty_inc(&t->t);	/* 3.1 */
	tw->files[t->mapping.file].dirty++;
	tw->res->nr_dirtied++;
}

static void task_dirtied(struct tw_task *t)
{
	for (int i = 0; i < t->batch; i++) {
		long pause;

		account_page_dirtied(t);
		if (tw->kernel)
			pause = tw->kernel->dirtied((int)(t - tw->tasks));
		else
			pause = tw->ops->balance_dirty_pages_ratelimited_nr(&t->mapping, 1);
		if (pause == THROTTLE_WAIT_QUEUE) {
			wait_for_request(&tw->disks[t->disk], (int)(t - tw->tasks));
			return;
		}
		if (pause >= 0) {
			/* the rest of the batch is copied after the pause */
			record_pause(t, pause,
				     (uint64_t)(t->batch - i - 1) * tw->p->page_copy_ns);
			return;
		}
	}
	task_run(t);
}

static void task_wake(struct tw_task *t)
{
	long pause = tw->kernel ? tw->kernel->resume((int)(t - tw->tasks))
				: tw->ops->balance_dirty_pages_resume(&t->mapping);

	if (pause == THROTTLE_WAIT_QUEUE)
		wait_for_request(&tw->disks[t->disk], (int)(t - tw->tasks));
	else if (pause >= 0)
		record_pause(t, pause, 0);
	else
		task_run(t);
}

/* ---- the trace ---- */

static void take_sample(throttle_sample_fn fn, void *arg)
{
	struct tw_disk *d = &tw->disks[0];
	struct backing_dev_info *bdi = &d->bdi;
	struct throttle_sample s;
	uint64_t reads = tw->res->global_reads, bdi_reads = tw->res->bdi_reads;
	u64 x;

	memset(&s, 0, sizeof(s));
	s.t_s = (double)tw->now / 1e9;
	s.nr_dirty = tw->stat[NR_FILE_DIRTY] + tw->stat[NR_UNSTABLE_NFS] + tw->stat[NR_WRITEBACK];
	s.bdi_dirty = (unsigned long)(bdi->bdi_stat[BDI_RECLAIMABLE] + bdi->bdi_stat[BDI_WRITEBACK]);
	s.pause_ms = d->sample_pauses ? (double)d->sample_pause_ms / (double)d->sample_pauses : 0;
	for (int i = 0; i < d->nr_files; i++)
		s.files_under_writeback += tw->files[d->first_file + i].writeback > 0;
	d->sample_pause_ms = 0;
	d->sample_pauses = 0;
	if (tw->kernel) {	/* its own limits and control values; it counts no reads here */
		uint64_t vm_error = tw->res->max_vm_error, bdi_error = tw->res->max_bdi_error;

		tw->kernel->sample(0, &s);
		tw->res->max_vm_error = vm_error;	/* the trace's reads are not the kernel's */
		tw->res->max_bdi_error = bdi_error;
		fn(&s, arg);
		return;
	}
	global_dirty_limits(&s.bg_thresh, &s.thresh);
	s.freerun = dirty_freerun_ceiling(s.thresh, s.bg_thresh);
	s.limit = hard_dirty_limit(s.thresh);
	s.setpoint = (s.freerun + s.limit) / 2;
	s.bdi_thresh = bdi_dirty_limit(bdi, s.thresh);
	/* bdi_position_ratio's bdi_setpoint (3.2 lines 614-615), before any floor */
	x = ((u64)min(s.bdi_thresh, s.thresh) << 16) / (u32)(s.thresh + 1);
	s.bdi_setpoint = (unsigned long)((u64)s.setpoint * x >> 16);
	s.dirty_ratelimit = bdi->dirty_ratelimit;
	s.balanced_dirty_ratelimit = bdi->balanced_dirty_ratelimit;
	s.write_bw = bdi->avg_write_bandwidth;
	if (tw->ops->bdi_position_ratio)	/* none in 3.1 */
		s.pos_ratio = tw->ops->bdi_position_ratio(bdi, s.thresh, s.bg_thresh, s.nr_dirty,
							   s.bdi_thresh, s.bdi_dirty);
	tw->res->global_reads = reads;	/* the trace's reads are not the kernel's */
	tw->res->bdi_reads = bdi_reads;
	fn(&s, arg);
}

/* ---- the run ---- */

static void world_free(struct throttle_world *w)
{
	if (w->kernel_up)
		w->kernel->exit();
	free(w->timer_at);
	free(w->timer_cpu);
	if (w->disks)
		for (int i = 0; i < w->sc->nr_disks; i++) {
			free(w->disks[i].q);
			free(w->disks[i].waiters);
			free(w->disks[i].bdi_diff);
		}
	free(w->vm_diff);
	free(w->disks);
	free(w->files);
	free(w->tasks);
	free(w->heap);
	free(w->bdp_ratelimits);
}

static int world_init(struct throttle_world *w, char *err, size_t errlen)
{
	const struct throttle_scenario *sc = w->sc;
	int nr_tasks = sc->nr_disks * sc->dd_per_disk;

	if (sc->nr_disks < 1 || sc->dd_per_disk < 1 || sc->nr_cpus < 1 ||
	    sc->mem_mib <= w->p->reserved_mib + 64) {
		snprintf(err, errlen, "throttle scenario %s: needs a disk, a dd, a CPU and memory",
			 sc->name);
		return -1;
	}
	w->memory = (sc->mem_mib - w->p->reserved_mib) * PAGES_PER_MIB;
	w->stat[NR_FREE_PAGES] = w->memory;
	w->vm_global[NR_FREE_PAGES] = (long)w->memory;
	/*
	 * percpu_error: 3.2's calculate_normal_threshold for one zone of the
	 * scenario's memory (mem = present pages >> (27 - PAGE_SHIFT): the
	 * memory in 128 MiB units; 2 * fls(CPUs) * (1 + fls(mem)), at most
	 * 125), and BDI_STAT_BATCH, 8 * (1 + ilog2(CPUs)).
	 */
	w->stat_threshold = min(125, 2 * fls((unsigned int)sc->nr_cpus) *
			    (1 + fls((unsigned int)(sc->mem_mib * PAGES_PER_MIB >> 15))));
	w->bdi_stat_batch = 8 * (1 + ilog2((unsigned long)sc->nr_cpus));
	/* mmscale: --set stat_threshold=N and BDI_STAT_BATCH=N (mm/config.h). */
	w->stat_threshold = MM_KNOB_OR(mm_config()->stat_threshold, w->stat_threshold);
	w->bdi_stat_batch = MM_KNOB_OR(mm_config()->bdi_stat_batch, w->bdi_stat_batch);
	w->disks = calloc((size_t)sc->nr_disks, sizeof(*w->disks));
	w->files = calloc((size_t)nr_tasks, sizeof(*w->files));
	w->tasks = calloc((size_t)nr_tasks, sizeof(*w->tasks));
	w->bdp_ratelimits = calloc((size_t)sc->nr_cpus, sizeof(*w->bdp_ratelimits));
	if (w->p->percpu_error) {
		w->vm_diff = calloc((size_t)sc->nr_cpus * NR_THROTTLE_ITEMS, sizeof(*w->vm_diff));
		for (int i = 0; w->disks && w->vm_diff && i < sc->nr_disks; i++)
			if (!(w->disks[i].bdi_diff = calloc((size_t)sc->nr_cpus * NR_BDI_STAT_ITEMS,
							    sizeof(s32))))
				w->vm_diff = (free(w->vm_diff), NULL);
	}
	if (!w->disks || !w->files || !w->tasks || !w->bdp_ratelimits ||
	    (w->p->percpu_error && !w->vm_diff)) {
		snprintf(err, errlen, "throttle scenario %s: out of memory", sc->name);
		return -1;
	}
	w->nr_tasks = nr_tasks;

	/*
	 * The sysctls: vm.dirty_bytes, or the ratio; background at its
	 * default. A scenario's thresh= is written as dirty_bytes_handler
	 * writes it: the ratio 0 (it reads neither while the bytes are set).
	 */
	if (w->kernel) {
		struct throttle_kernel_setup setup = {
			.nr_disks = sc->nr_disks,
			.nr_tasks = nr_tasks,
			.dd_per_disk = sc->dd_per_disk,
			.nr_cpus = sc->nr_cpus,
			.sysctl_dirty_bytes = sc->dirty_mib * 1024 * 1024,
			.sysctl_dirty_ratio = sc->dirty_mib ? 0 : sc->dirty_ratio,
			.sysctl_dirty_background_ratio = 10,
		};

		/* mmscale: --set's dirty sysctls over the scenario's (mm/config.h). */
		mm_dirty_sysctls_write(&setup.sysctl_dirty_ratio, &setup.sysctl_dirty_bytes,
				       &setup.sysctl_dirty_background_ratio,
				       &setup.sysctl_dirty_background_bytes);

		w->nr_timers = w->kernel->nr_timers(&setup);
		w->timer_at = malloc((size_t)w->nr_timers * sizeof(*w->timer_at));
		w->timer_cpu = calloc((size_t)w->nr_timers, sizeof(*w->timer_cpu));
		if (!w->timer_at || !w->timer_cpu) {
			snprintf(err, errlen, "throttle scenario %s: out of memory", sc->name);
			return -1;
		}
		for (int i = 0; i < w->nr_timers; i++)
			w->timer_at[i] = UINT64_MAX;
		if (w->kernel->init(&setup, &w->kernel_ratelimit, err, errlen))
			return -1;
		w->kernel_up = true;
	} else {
		writeback_3_2_reset();
		dirty_background_ratio = 10;
		dirty_background_bytes = 0;
		vm_dirty_ratio = sc->dirty_mib ? 0 : sc->dirty_ratio;
		vm_dirty_bytes = sc->dirty_mib * 1024 * 1024;
		/* mmscale: --set's dirty sysctls over the scenario's (mm/config.h). */
		mm_dirty_sysctls_write(&vm_dirty_ratio, &vm_dirty_bytes, &dirty_background_ratio,
				       &dirty_background_bytes);
		w->completion_shift = calc_period_shift();
		w->ops->writeback_set_ratelimit();
	}

	for (int i = 0; i < sc->nr_disks; i++) {
		struct tw_disk *d = &w->disks[i];

		/* bdi_init (3.2 mm/backing-dev.c lines 663-703): INIT_BW = 100 MB/s. */
		d->bdi.bw_time_stamp = 0;
		d->bdi.write_bandwidth = 100 << (20 - 12);
		d->bdi.avg_write_bandwidth = d->bdi.write_bandwidth;
		d->bdi.dirty_ratelimit = d->bdi.write_bandwidth;
		d->bdi.balanced_dirty_ratelimit = d->bdi.write_bandwidth;
		d->bdi.min_ratio = 0;
		d->bdi.max_ratio = 100;
		d->first_file = i * sc->dd_per_disk;
		d->nr_files = sc->dd_per_disk;
		d->last_file = -1;
	}
	for (int i = 0; i < nr_tasks; i++) {
		struct tw_task *t = &w->tasks[i];

		w->files[i].disk = i / sc->dd_per_disk;
		t->disk = i / sc->dd_per_disk;
		t->cpu = i % sc->nr_cpus;
		t->mapping.backing_dev_info = &w->disks[t->disk].bdi;
		t->mapping.file = i;
		/* copy_process (3.2 kernel/fork.c): nr_dirtied_pause = 128 >> (PAGE_SHIFT - 10) */
		t->t.nr_dirtied_pause = 128 >> (12 - 10);
		t->t.dirty_paused_when = 0;	/* v11 07/18's copy_process */
	}
	return 0;
}

static int run(const struct throttle_scenario *sc, const struct iol_variant_ops *ops,
	       const struct throttle_kernel *kernel, const struct throttle_params *params,
	       struct throttle_result *res, throttle_sample_fn sample, void *arg, char *err,
	       size_t errlen)
{
	struct throttle_world w = { .sc = sc, .p = params, .ops = ops, .kernel = kernel,
				    .res = res };
	uint64_t end = params->run_us * 1000;
	int rc = -1;

	memset(res, 0, sizeof(*res));
	tw = &w;
	if (world_init(&w, err, errlen))
		goto out;
	memset(res, 0, sizeof(*res));	/* the boot's reads (writeback_set_ratelimit) are not bdp's */
	res->ratelimit_pages = kernel ? w.kernel_ratelimit : ratelimit_pages;
	res->stat_threshold = w.stat_threshold;
	res->bdi_stat_batch = w.bdi_stat_batch;
	for (int i = 0; i < w.nr_tasks; i++)
		if (schedule(0, EV_TASK_RUN, i))
			goto oom;
	if (sample && params->sample_us && schedule(0, EV_SAMPLE, 0))
		goto oom;
	if (params->percpu_error && schedule(NS_PER_JIFFY * HZ, EV_VMSTAT, 0))
		goto oom;

	while (w.heap_len && w.heap[0].t <= end) {
		struct event e = pop_event();

		w.now = e.t;
		switch (e.kind) {
		case EV_TASK_RUN:
		case EV_TASK_DIRTIED:
		case EV_TASK_WAKE: {
			struct tw_task *t = &w.tasks[e.id];

			throttle_current = &t->t;
			w.cpu = t->cpu;
			if (e.kind == EV_TASK_RUN)
				task_run(t);
			else if (e.kind == EV_TASK_DIRTIED)
				task_dirtied(t);
			else
				task_wake(t);
			throttle_current = NULL;
			break;
		}
		case EV_DISK_DONE:
			w.cpu = disk_cpu(&w.disks[e.id]);
			disk_done(&w.disks[e.id]);
			break;
		case EV_FLUSH:
			w.cpu = disk_cpu(&w.disks[e.id]);
			if (flusher_run(&w.disks[e.id]))
				goto oom;
			break;
		case EV_SAMPLE:
			w.cpu = disk_cpu(&w.disks[0]);	/* the trace looks from disk 0's CPU */
			take_sample(sample, arg);
			schedule(w.now + params->sample_us * 1000, EV_SAMPLE, 0);
			break;
		case EV_VMSTAT:
			vm_fold_all();
			schedule(w.now + NS_PER_JIFFY * HZ, EV_VMSTAT, 0);
			break;
		case EV_TIMER:	/* fires at the time last armed; earlier armings are stale */
			if (w.timer_at[e.id] == e.t) {
				w.timer_at[e.id] = UINT64_MAX;
				w.cpu = w.timer_cpu[e.id];
				kernel->timer(e.id);
			}
			break;
		}
		if (w.failed)
			goto oom;
	}
	w.now = end;

	res->nr_dirty_end = w.stat[NR_FILE_DIRTY];
	res->nr_writeback_end = w.stat[NR_WRITEBACK];
	for (int i = 0; i < sc->nr_disks; i++) {
		struct tw_disk *d = &w.disks[i];

		if (!d->busy)
			d->idle_ns += w.now - d->idle_since;
		res->disk_idle_s += (double)d->idle_ns / 1e9;
	}
	if (res->pauses) {
		uint64_t sum = 0, seen = 0, p99 = (res->pauses * 99 + 99) / 100;

		for (int j = 0; j <= HZ / 5; j++)
			sum += res->pause_hist[j] * (uint64_t)j;
		res->pause_mean_ms = (double)sum / (double)res->pauses;
		for (int j = 0; j <= HZ / 5; j++) {
			seen += res->pause_hist[j];
			if (seen >= p99) {
				res->pause_p99_ms = j;
				break;
			}
		}
	}
	rc = 0;
	goto out;
oom:
	if (w.fail_why)
		snprintf(err, errlen, "throttle scenario %s: %s", sc->name, w.fail_why);
	else
		snprintf(err, errlen, "throttle scenario %s: out of memory", sc->name);
out:
	world_free(&w);
	tw = NULL;
	return rc;
}

int throttle_run(const struct throttle_scenario *sc, const struct iol_variant_ops *ops,
		 const struct throttle_params *params, struct throttle_result *res,
		 throttle_sample_fn sample, void *arg, char *err, size_t errlen)
{
	return run(sc, ops, NULL, params, res, sample, arg, err, errlen);
}

int throttle_run_kernel(const struct throttle_scenario *sc, const struct throttle_kernel *kernel,
			const struct throttle_params *params, struct throttle_result *res,
			throttle_sample_fn sample, void *arg, char *err, size_t errlen)
{
	return run(sc, NULL, kernel, params, res, sample, arg, err, errlen);
}
