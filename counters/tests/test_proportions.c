// SPDX-License-Identifier: GPL-2.0
/*
 * The floating proportions (kernel/lib/proportions.c, lib/proportions.c of
 * Linux 2.6.31) and the dirty accounting that feeds them (issue 12, item
 * 3), every value worked out by hand from the 2.6.31 source
 * (../shared/kernel/2.6.31: lib/proportions.c, mm/page-writeback.c,
 * mm/backing-dev.c, lib/percpu_counter.c, include/linux/percpu_counter.h;
 * include/linux/proportions.h from a 2.6.32 tree, see
 * include/mmscale/lib/proportions.h) in the comment beside its assertion.
 *
 * 1. The constants: PROP_MAX_SHIFT, PROP_FRAC_SHIFT, PROP_FRAC_BASE, PROP_BATCH's
 *    input, bdi_init's max_prop_frac and bdi_set_max_ratio.
 * 2. Per dirtied page: account_page_dirtied adds task_dirty_inc, one
 *    percpu_counter add of 1 to vm_dirties' events; per completed page:
 *    test_clear_page_writeback's __bdi_writeout_inc, two adds of 1 (the
 *    bdi's completions and vm_completions' events). Exact slots, counts,
 *    folds and locks for N pages on one CPU, beside what the three other
 *    counters of those paths do.
 * 3. prop_norm_percpu and prop_norm_single: exact values after a period
 *    step, two steps (the percpu_counter_sum branch) and 64 steps (the
 *    reset branch), with the locks, folds and slots each costs.
 * 4. __prop_inc_percpu_max under a max_prop_frac of one half: which events
 *    it ignores.
 * 5. prop_fraction_percpu for two bdis on one descriptor, before and after
 *    a period step; and get_dirty_limits' bdi and task limits in a new
 *    world (the steady state it starts from).
 *
 * The machine: 1 node, 2 CPUs, 3 GiB; this thread is CPU 0. With 2 CPUs,
 * percpu_counter_batch = max(32, 2 * 2) = 32 (lib/percpu_counter.c:105-110)
 * and PROP_BATCH = BDI_STAT_BATCH = 8 * (1 + ilog2(2)) = 16
 * (lib/proportions.c:189, include/linux/backing-dev.h:40).
 */
#define _GNU_SOURCE
#include <string.h>

#include "check.h"
#include "test_machine.h"
#include "mmscale/cpu.h"
#include "mmscale/kernel/cpumask.h"
#include "mmscale/kernel/percpu.h"
#include "mmscale/lib/proportions.h"
#include "mmscale/linux-2.6/mm/writeback.h"
#include "mmscale/notice.h"

#define COUNT(c)	((long long)mmscale_this_counts.v[(c)])

static long slot_of(struct percpu_counter *fbc, int cpu)
{
	return READ_ONCE(*per_cpu_ptr(fbc->counters, cpu));
}

/* CPU 0's slot and fbc->count of a percpu_counter. */
#define EXPECT_FBC(fbc_, slot_, count_) do {					\
	CHECK_EQ_LL(slot_of((fbc_), 0), (slot_));				\
	CHECK_EQ_LL(READ_ONCE((fbc_)->count), (count_));			\
} while (0)

/* What this thread counted since the last reset. */
#define EXPECT_COUNTS(folds_, locks_, slots_) do {				\
	CHECK_EQ_LL(COUNT(MMSCALE_FOLDS), (folds_));				\
	CHECK_EQ_LL(COUNT(MMSCALE_LOCK_ACQUIRES), (locks_));			\
	CHECK_EQ_LL(COUNT(MMSCALE_PERCPU_SUM_SLOTS), (slots_));		\
} while (0)

/* ---------------------------------------------------------------------- */
/* 1. Constants                                                            */

static void test_constants(void)
{
	struct prop_descriptor pd;
	struct backing_dev_info bdi;

	/*
	 * include/linux/proportions.h, 64-bit: PROP_MAX_SHIFT = BITS_PER_LONG/2
	 * = 32; PROP_FRAC_SHIFT = BITS_PER_LONG - PROP_MAX_SHIFT - 1 = 31;
	 * PROP_FRAC_BASE = 1UL << 31.
	 */
	CHECK_EQ_LL(PROP_MAX_SHIFT, 32);
	CHECK_EQ_LL(PROP_FRAC_SHIFT, 31);
	CHECK_EQ_LL(PROP_FRAC_BASE, 2147483648LL);

	/* prop_descriptor_init (lib/proportions.c:76-96): shift capped at PROP_MAX_SHIFT; index 0. */
	CHECK(prop_descriptor_init(&pd, 40) == 0);
	CHECK_EQ_LL(pd.index, 0);
	CHECK_EQ_LL(pd.pg[0].shift, 32);
	EXPECT_FBC(&pd.pg[0].events, 0, 0);
	prop_descriptor_destroy(&pd);

	/*
	 * bdi_init (mm/backing-dev.c:247): max_prop_frac = PROP_FRAC_BASE.
	 * bdi_set_max_ratio (mm/page-writeback.c:348-366): max_prop_frac =
	 * (PROP_FRAC_BASE * max_ratio) / 100: 50 -> 2^30 = 1073741824;
	 * 101 -> -EINVAL, nothing changed; below min_ratio -> -EINVAL.
	 */
	CHECK(bdi_init(&bdi) == 0);
	CHECK_EQ_LL(bdi.max_prop_frac, 2147483648LL);
	CHECK_EQ_LL(bdi_set_max_ratio(&bdi, 50), 0);
	CHECK_EQ_LL(bdi.max_ratio, 50);
	CHECK_EQ_LL(bdi.max_prop_frac, 1073741824LL);
	CHECK(bdi_set_max_ratio(&bdi, 101) != 0);
	CHECK_EQ_LL(bdi.max_prop_frac, 1073741824LL);
	bdi.min_ratio = 10;
	CHECK(bdi_set_max_ratio(&bdi, 9) != 0);
	CHECK_EQ_LL(bdi_set_max_ratio(&bdi, 100), 0);
	CHECK_EQ_LL(bdi.max_prop_frac, 2147483648LL);
	bdi_destroy(&bdi);
}

/* ---------------------------------------------------------------------- */
/* 2. Per dirtied page and per completed page, in a world                  */

#define FILE_PAGES	1000
#define N		100

/*
 * The world's period: calc_period_shift (mm/page-writeback.c:141-156) =
 * 2 + ilog2(dirty_total - 1), dirty_total = vm_dirty_ratio (20) *
 * determine_dirtyable_memory() / 100. 3 GiB is 786432 pages, every one
 * free or on the LRU (the pre-read file moves from free to inactive file):
 * 786432 + 1 = 786433, 20 * 786433 / 100 = 157286, ilog2(157285) = 17
 * (2^17 = 131072), shift 19. The steady state the world starts from
 * (writeback_proportions_init): both globals at t = 2^18 = 262144, the
 * bdi's completions at x = 2^18 + 0, period snapshot 262144.
 */
#define SHIFT	19
#define P2	262144LL

static struct writeback_world *fresh_world(int writers)
{
	char err[256];
	struct writeback_world *w = writeback_world_create(writers, FILE_PAGES, -1, err,
							   sizeof(err));

	if (!w)
		fprintf(stderr, "%s\n", err);
	return w;
}

static void test_per_page(void)
{
	struct writeback_world *w = fresh_world(1);
	struct prop_descriptor *vc, *vd;
	struct backing_dev_info *bdi;
	struct address_space *mapping;
	struct emu_inode *inode;
	struct writeback_control wbc = { .nr_to_write = N, .range_cyclic = 1 };
	char err[256];

	CHECK(w != NULL);
	if (!w)
		return;
	vc = writeback_vm_completions();
	vd = writeback_vm_dirties();
	bdi = &w->bdi;
	mapping = &w->mappings[0];
	inode = &w->inodes[0];
	CHECK_EQ_LL(determine_dirtyable_memory(), 786433);
	CHECK_EQ_LL(vc->pg[0].shift, SHIFT);
	CHECK_EQ_LL(vd->pg[0].shift, SHIFT);
	EXPECT_FBC(&vc->pg[0].events, 0, P2);
	EXPECT_FBC(&vd->pg[0].events, 0, P2);
	EXPECT_FBC(&bdi->completions.events, 0, P2);
	CHECK_EQ_LL(bdi->completions.period, P2);
	CHECK_EQ_LL(bdi->completions.shift, SHIFT);

	/*
	 * Keep vmstat out of the fold count: CPU 0's stat_threshold on the
	 * file's zone set to 125 (the cap), so N = 100 incs and decs of one
	 * item never fold (test_arith_counters pins vmstat's own folds).
	 */
	zone_this_pcp(inode->zone)->stat_threshold = 125;

	/*
	 * N = 100 dirtied pages (account_page_dirtied, mm/page-writeback.c:
	 * 1206-1218), each: __inc_zone_page_state (no fold, above);
	 * __inc_bdi_stat(BDI_RECLAIMABLE), batch BDI_STAT_BATCH = 16: folds
	 * at 16, 32, ..., 96: 6, slot 4, count 96; task_dirty_inc ->
	 * prop_inc_single (lib/proportions.c:376-384): prop_norm_single's fast
	 * path (t & ~(2^18 - 1) = 262144 = the task's snapshot, taken when it
	 * met this world with x = 2^18 * 1/1), x++, and
	 * percpu_counter_add(&vm_dirties.pg[0].events, 1), batch 32: folds at
	 * 32, 64, 96: 3, slot 4, count 262144 + 96. 9 folds, 9 locks (the old
	 * emulation, without task_dirty_inc: 6 and 6). The proportions' reads
	 * are not bdi_stat() calls: no bdi_reads.
	 */
	mmscale_counts_reset();
	for (int i = 0; i < N; i++)
		CHECK_EQ_LL(emu_write_next_page(mapping), 1);
	EXPECT_COUNTS(9, 9, 0);
	CHECK_EQ_LL(COUNT(MMSCALE_BDI_READS), 0);
	CHECK_EQ_LL(COUNT(MMSCALE_GLOBAL_READS), 0);
	EXPECT_FBC(&bdi->bdi_stat[BDI_RECLAIMABLE], 4, 96);
	EXPECT_FBC(&vd->pg[0].events, 4, P2 + 96);
	CHECK_EQ_LL(current->dirties.events, P2 + N);
	CHECK_EQ_LL(current->dirties.period, P2);
	CHECK_EQ_LL(current->dirties.shift, SHIFT);
	CHECK_EQ_LL(percpu_counter_sum(&vd->pg[0].events), P2 + N);	/* one add per page */
	EXPECT_FBC(&vc->pg[0].events, 0, P2);				/* no completion yet */

	/*
	 * writeback_inodes takes the N pages to writeback (dec NR_FILE_DIRTY,
	 * dec_bdi_stat(BDI_RECLAIMABLE), __inc_bdi_stat(BDI_WRITEBACK),
	 * inc NR_WRITEBACK each). Then N completions, each test_clear_page_
	 * writeback's accounting (mm/page-writeback.c:1392-1419):
	 * __dec_bdi_stat(BDI_WRITEBACK), batch 16, from slot 4 and count 96:
	 * slot 4 -> -15 after 19 decs, the 20th folds -16, then every 16th:
	 * decs 20, 36, 52, 68, 84, 100: 6 folds, slot 0, count 0;
	 * __bdi_writeout_inc -> __prop_inc_percpu_max (lib/proportions.c:
	 * 270-296) with frac = PROP_FRAC_BASE (no cap test): prop_norm_percpu's
	 * fast path, percpu_counter_add(&bdi->completions.events, 1) and
	 * percpu_counter_add(&vm_completions.pg[0].events, 1), batch 32 each:
	 * folds at 32, 64, 96, slot 4, count 262144 + 96, twice: 6 folds;
	 * dec_zone_page_state(NR_WRITEBACK): no fold. 12 folds, 12 locks (the
	 * old emulation's single stand-in add: 6 + 3 = 9).
	 */
	writeback_inodes(&wbc);
	CHECK_EQ_LL(wbc.nr_to_write, 0);
	CHECK_EQ_LL(atomic_long_read(&inode->nr_writeback), N);
	EXPECT_FBC(&bdi->bdi_stat[BDI_WRITEBACK], 4, 96);
	mmscale_counts_reset();
	for (int i = 0; i < N; i++)
		end_page_writeback(inode->zone, bdi);
	atomic_long_sub(N, &inode->nr_writeback);
	EXPECT_COUNTS(12, 12, 0);
	CHECK_EQ_LL(COUNT(MMSCALE_BDI_READS), 0);
	EXPECT_FBC(&bdi->bdi_stat[BDI_WRITEBACK], 0, 0);
	EXPECT_FBC(&bdi->completions.events, 4, P2 + 96);
	EXPECT_FBC(&vc->pg[0].events, 4, P2 + 96);
	CHECK_EQ_LL(percpu_counter_sum(&bdi->completions.events), P2 + N);
	CHECK_EQ_LL(percpu_counter_sum(&vc->pg[0].events), P2 + N);
	EXPECT_FBC(&vd->pg[0].events, 4, P2 + 96);			/* completions dirty nothing */
	CHECK_EQ_LL(current->dirties.events, P2 + N);

	/* bdi_writeout_inc (mm/page-writeback.c:233-240) is the same two adds. */
	mmscale_counts_reset();
	bdi_writeout_inc(bdi);
	EXPECT_FBC(&bdi->completions.events, 5, P2 + 96);
	EXPECT_FBC(&vc->pg[0].events, 5, P2 + 96);
	EXPECT_COUNTS(0, 0, 0);

	for (unsigned int cpu = 0; cpu < nr_cpu_ids; cpu++)
		refresh_cpu_vm_stats((int)cpu);
	CHECK(writeback_world_check(w, err, sizeof(err)) == 0);
	writeback_world_destroy(w);
}

/* ---------------------------------------------------------------------- */
/* 3. Normalisation when the global period advances                        */

/*
 * shift 6: prop_norm_* (lib/proportions.c:212-251, 342-371) take
 * period = 1UL << (shift - 1) = 32, period_mask = ~31; one period step is
 * 32 events of the global, as the global's percpu_counter_read sees them
 * (fbc->count: this CPU's slot is not in it until it folds).
 */
static void test_norm_percpu(void)
{
	struct prop_descriptor pd;
	struct prop_local_percpu pl;
	long num, den;

	CHECK(prop_descriptor_init(&pd, 6) == 0);
	CHECK(prop_local_init_percpu(&pl) == 0);
	mmscale_counts_reset();

	/*
	 * 32 events (__prop_inc_percpu_max, frac PROP_FRAC_BASE): the global
	 * reads 0 before each, 0 & ~31 = 0 = pl.period: fast path. The 32nd
	 * adds fold both counters (batch 32): pl 32, global 32. 2 folds.
	 */
	for (int i = 0; i < 32; i++)
		__prop_inc_percpu_max(&pd, &pl, (long)PROP_FRAC_BASE);
	EXPECT_FBC(&pl.events, 0, 32);
	EXPECT_FBC(&pd.pg[0].events, 0, 32);
	CHECK_EQ_LL(pl.period, 0);
	CHECK_EQ_LL(pl.shift, 0);
	EXPECT_COUNTS(2, 2, 0);

	/*
	 * The 33rd: global 32 & ~31 = 32 != 0: the slow path, under pl.lock.
	 * prop_adjust_shift(0 -> 6): offset -6, period 0 << 6 = 0, shift 6.
	 * period = (32 - 0) >> 5 = 1 step. val = percpu_counter_read = 32, not
	 * < nr_cpu_ids * PROP_BATCH = 2 * 16 = 32: no sum. Add -32 + (32 >> 1)
	 * = -16 with PROP_BATCH 16: slot 0 - 16 <= -16 folds: count 16. Then
	 * the event: slots 1 and 1. Locks: pl.lock + that fold = 2; 1 fold.
	 */
	mmscale_counts_reset();
	__prop_inc_percpu_max(&pd, &pl, (long)PROP_FRAC_BASE);
	CHECK_EQ_LL(pl.shift, 6);
	CHECK_EQ_LL(pl.period, 32);
	EXPECT_FBC(&pl.events, 1, 16);
	EXPECT_FBC(&pd.pg[0].events, 1, 32);
	EXPECT_COUNTS(1, 2, 0);

	/* 7 more: slots 8, no fold. The local's true value: 16 + 8 = 24. */
	for (int i = 0; i < 7; i++)
		__prop_inc_percpu_max(&pd, &pl, (long)PROP_FRAC_BASE);
	EXPECT_FBC(&pl.events, 8, 16);
	EXPECT_FBC(&pd.pg[0].events, 8, 32);
	CHECK_EQ_LL(percpu_counter_sum(&pl.events), 24);

	/*
	 * prop_fraction_percpu (lib/proportions.c:303-319): fast path;
	 * numerator = percpu_counter_read_positive = 16 (the slot's 8 unseen),
	 * denominator = period_2 + (t & 31) = 32 + (32 & 31) = 32.
	 */
	mmscale_counts_reset();
	prop_fraction_percpu(&pd, &pl, &num, &den);
	CHECK_EQ_LL(num, 16);
	CHECK_EQ_LL(den, 32);
	EXPECT_COUNTS(0, 0, 0);

	/*
	 * Two steps at once: the global gets 64 (other CPUs' events, folded
	 * here): slot 8 + 64 = 72 >= 32 folds: count 104, 104 & ~31 = 96.
	 * prop_fraction_percpu: 96 != 32: slow path. period = (96 - 32) >> 5 =
	 * 2. val = read = 16 < 32: percpu_counter_sum = 16 + 8 + 0 = 24 (2
	 * slots, 1 lock). Add -24 + (24 >> 2) = -18, batch 16: slot 8 - 18 =
	 * -10 > -16, no fold: slot -10, count 16, true value 6. numerator =
	 * read_positive = 16 (the kernel's approximation: the slot's -10 is not
	 * seen), denominator = 32 + (104 & 31) = 40. Locks: the global's fold,
	 * pl.lock and the sum's = 3; folds 1.
	 */
	mmscale_counts_reset();
	percpu_counter_add(&pd.pg[0].events, 64);
	prop_fraction_percpu(&pd, &pl, &num, &den);
	CHECK_EQ_LL(pl.period, 96);
	EXPECT_FBC(&pl.events, -10, 16);
	CHECK_EQ_LL(percpu_counter_sum(&pl.events), 6);
	CHECK_EQ_LL(num, 16);
	CHECK_EQ_LL(den, 40);
	EXPECT_COUNTS(1, 4, 4);	/* + the check's own sum: 1 lock, 2 slots */

	/*
	 * 64 steps: the global gets 64 * 32 = 2048: count 2152, & ~31 = 2144;
	 * period = (2144 - 96) >> 5 = 64, not < BITS_PER_LONG: percpu_counter_set
	 * (&pl.events, 0) (1 lock: slots 0, count 0). numerator 0, denominator
	 * 32 + (2152 & 31) = 32 + 8 = 40.
	 */
	mmscale_counts_reset();
	percpu_counter_add(&pd.pg[0].events, 2048);
	prop_fraction_percpu(&pd, &pl, &num, &den);
	CHECK_EQ_LL(pl.period, 2144);
	EXPECT_FBC(&pl.events, 0, 0);
	CHECK_EQ_LL(num, 0);
	CHECK_EQ_LL(den, 40);
	EXPECT_COUNTS(1, 3, 0);	/* the global's fold, pl.lock, the set's lock */

	prop_local_destroy_percpu(&pl);
	prop_descriptor_destroy(&pd);
}

/*
 * prop_fraction_single, then pl's events and period after its
 * prop_norm_single and the fraction it gave, as worked out by hand.
 */
#define expect_fraction_single(pd, pl, w_events, w_period, w_num, w_den) do {		\
	long num_, den_;							\
									\
	prop_fraction_single((pd), (pl), &num_, &den_);			\
	CHECK_EQ_LL((pl)->events, (w_events));					\
	CHECK_EQ_LL((pl)->period, (w_period));					\
	CHECK_EQ_LL(num_, (w_num));						\
	CHECK_EQ_LL(den_, (w_den));						\
} while (0)

static void test_norm_single(void)
{
	struct prop_descriptor pd;
	struct prop_local_single pl;
	long num, den;

	CHECK(prop_descriptor_init(&pd, 6) == 0);
	CHECK_EQ_LL(prop_local_init_single(&pl), 0);
	mmscale_counts_reset();

	/*
	 * 40 prop_inc_single (lib/proportions.c:376-384, the task_dirty_inc
	 * path). Events 1-32: the global reads 0, fast path, x = 32; the 32nd
	 * add folds the global (count 32). The 33rd: 32 & ~31 = 32 != 0: under
	 * pl.lock, shift 0 -> 6, period (32 - 0) >> 5 = 1, x = 32 >> 1 = 16,
	 * then x++ = 17; 7 more: x = 24, global slot 8, count 32. Locks: the
	 * global's fold and pl.lock; 1 fold.
	 */
	for (int i = 0; i < 40; i++)
		prop_inc_single(&pd, &pl);
	CHECK_EQ_LL(pl.events, 24);
	CHECK_EQ_LL(pl.period, 32);
	CHECK_EQ_LL(pl.shift, 6);
	EXPECT_FBC(&pd.pg[0].events, 8, 32);
	EXPECT_COUNTS(1, 2, 0);

	/* prop_fraction_single (lib/proportions.c:391-407): 24 / (32 + (32 & 31)) = 24/32. */
	prop_fraction_single(&pd, &pl, &num, &den);
	CHECK_EQ_LL(num, 24);
	CHECK_EQ_LL(den, 32);

	/*
	 * Two steps: the global gets 64: slot 8 + 64 folds, count 104, & ~31 =
	 * 96; period (96 - 32) >> 5 = 2: x = 24 >> 2 = 6; denominator
	 * 32 + (104 & 31) = 40.
	 */
	mmscale_counts_reset();
	percpu_counter_add(&pd.pg[0].events, 64);
	expect_fraction_single(&pd, &pl, 6, 96, 6, 40);
	EXPECT_COUNTS(1, 2, 0);

	/* 64 steps (2048 more: count 2152, & ~31 = 2144; (2144 - 96) >> 5 = 64): x = 0. */
	percpu_counter_add(&pd.pg[0].events, 2048);
	expect_fraction_single(&pd, &pl, 0, 2144, 0, 40);

	prop_local_destroy_single(&pl);
	prop_descriptor_destroy(&pd);
}

/* ---------------------------------------------------------------------- */
/* 4. __prop_inc_percpu_max under max_prop_frac = PROP_FRAC_BASE / 2        */

static void test_inc_max(void)
{
	struct prop_descriptor pd;
	struct backing_dev_info bdi;
	struct prop_local_percpu *pl = &bdi.completions;

	CHECK(prop_descriptor_init(&pd, 6) == 0);
	CHECK(bdi_init(&bdi) == 0);
	CHECK_EQ_LL(bdi_set_max_ratio(&bdi, 50), 0);	/* max_prop_frac 2^30 */
	mmscale_counts_reset();

	/*
	 * lib/proportions.c:277-289: frac != PROP_FRAC_BASE, so before each
	 * event: numerator = read_positive(pl), denominator = 32 + (t & 31),
	 * and the event is ignored if numerator > (denominator * 2^30) >> 31 =
	 * denominator / 2.
	 * Events 1-32: numerator 0 (the slot is unseen), t 0: 0 > 16? no: all
	 * counted; the 32nd folds both (pl 32, global 32).
	 * Event 33: normalisation (as in test_norm_percpu): pl 32 -> 16 (a
	 * PROP_BATCH fold); numerator 16, global 32: 32 + 0 = 32, 16 > 16? no:
	 * counted. Events 34-64 likewise (pl's count stays 16 while its slot
	 * fills); the 64th folds both: pl 16 + 32 = 48, global 64.
	 * Event 65: 64 & ~31 = 64 != 32: period 1, val 48 >= 32, add -24
	 * (folds: 24). numerator 24 > 16: ignored. Events 66-100: nothing
	 * moves, 24 > 16 each time: ignored. So 64 of 100 counted.
	 * Folds: pl at 32, 64 and the two normalisations; the global at 32, 64:
	 * 6. Locks: those 6 + pl.lock twice = 8.
	 */
	for (int i = 0; i < 100; i++)
		__prop_inc_percpu_max(&pd, pl, bdi.max_prop_frac);
	EXPECT_FBC(&pl->events, 0, 24);
	EXPECT_FBC(&pd.pg[0].events, 0, 64);
	CHECK_EQ_LL(pl->period, 64);
	EXPECT_COUNTS(6, 8, 0);

	bdi_destroy(&bdi);
	prop_descriptor_destroy(&pd);
}

/* ---------------------------------------------------------------------- */
/* 5. Fractions: two bdis on one descriptor; a new world's limits          */

static void test_two_bdis(void)
{
	struct prop_descriptor pd;
	struct prop_local_percpu a, b;
	long num, den;

	/* shift 10: period_2 = 512, period_mask = ~511. */
	CHECK(prop_descriptor_init(&pd, 10) == 0);
	CHECK(prop_local_init_percpu(&a) == 0);
	CHECK(prop_local_init_percpu(&b) == 0);

	/*
	 * A completes 96, then B 32 (frac PROP_FRAC_BASE): every count a
	 * multiple of 32, so all folded: A 96, B 32, the global 128; no period
	 * step (128 & ~511 = 0). p_A = 96 / (512 + 128) = 96/640, p_B =
	 * 32/640 (lib/proportions.c:301: x / (period/2 + t % period/2)).
	 */
	for (int i = 0; i < 96; i++)
		__prop_inc_percpu_max(&pd, &a, (long)PROP_FRAC_BASE);
	for (int i = 0; i < 32; i++)
		__prop_inc_percpu_max(&pd, &b, (long)PROP_FRAC_BASE);
	prop_fraction_percpu(&pd, &a, &num, &den);
	CHECK_EQ_LL(num, 96);
	CHECK_EQ_LL(den, 640);
	prop_fraction_percpu(&pd, &b, &num, &den);
	CHECK_EQ_LL(num, 32);
	CHECK_EQ_LL(den, 640);

	/*
	 * B completes 512 more. Its 384th of these folds the global to 512:
	 * 512 & ~511 = 512, a period step. Its 385th normalises B: shift
	 * 0 -> 10, period (512 - 0) >> 9 = 1, val = 32 + 384 = 416 (folded;
	 * >= 32, no sum), add -416 + 208 = -208: B 208; then 128 more: B 336,
	 * the global 640. A, not touched since, still holds 96 at period 0.
	 * p_A: A normalises on reading: period 1, 96 -> 48: 48 / (512 +
	 * (640 & 511)) = 48/640. p_B = 336/640.
	 */
	for (int i = 0; i < 512; i++)
		__prop_inc_percpu_max(&pd, &b, (long)PROP_FRAC_BASE);
	EXPECT_FBC(&pd.pg[0].events, 0, 640);
	prop_fraction_percpu(&pd, &a, &num, &den);
	CHECK_EQ_LL(num, 48);
	CHECK_EQ_LL(den, 640);
	CHECK_EQ_LL(a.period, 512);
	prop_fraction_percpu(&pd, &b, &num, &den);
	CHECK_EQ_LL(num, 336);
	CHECK_EQ_LL(den, 640);
	CHECK_EQ_LL(b.period, 512);

	prop_local_destroy_percpu(&a);
	prop_local_destroy_percpu(&b);
	prop_descriptor_destroy(&pd);
}

/*
 * get_dirty_limits (mm/page-writeback.c:429-484) in a new world: dirty =
 * 20 * 786433 / 100 = 157286, background = 10 * 786433 / 100 = 78643.
 * bdi_writeout_fraction: the steady bdi, 262144 / (262144 + 0): bdi_dirty
 * 157286; clip_bdi_dirty_limit: nothing dirty (test_per_page cleaned what
 * it dirtied), avail = 157286. task_dirty_limit: dirty -= (dirty >> 3) *
 * p_t, 157286 >> 3 = 19660.
 * Two writers: this task enters at x = 262144 / 2 = 131072: 19660 *
 * 131072 / 262144 = 9830: 147456.
 * One writer: x = 262144, p_t = 1: 157286 - 19660 = 137626. It dirties
 * 100 pages: x = 262144 + 100, the global's count 262144 + 96 (slot 4):
 * inv = 19660 * 262244 / 262240 = 19660 (19660.3 truncated), and the clip
 * sees NR_FILE_DIRTY 0 (CPU 0's stat_threshold is 125 again: no fold) and
 * BDI_RECLAIMABLE 96: 157286 - 0 + 96 > 157286: still 137626. (This is
 * also where the old stand-in gave 1/1 and 1/nr_writers: the same values.)
 */
static void test_world_limits(void)
{
	unsigned long background, dirty, bdi_thresh;
	struct writeback_world *w = fresh_world(2);

	CHECK(w != NULL);
	if (!w)
		return;
	get_dirty_limits(&background, &dirty, &bdi_thresh, &w->bdi);
	CHECK_EQ_LL(dirty, 157286);
	CHECK_EQ_LL(background, 78643);
	CHECK_EQ_LL(bdi_thresh, 147456);
	CHECK_EQ_LL(current->dirties.events, P2 / 2);
	writeback_world_destroy(w);

	w = fresh_world(1);
	CHECK(w != NULL);
	if (!w)
		return;
	zone_this_pcp(w->inodes[0].zone)->stat_threshold = 125;
	get_dirty_limits(&background, &dirty, &bdi_thresh, &w->bdi);
	CHECK_EQ_LL(dirty, 157286);
	CHECK_EQ_LL(bdi_thresh, 137626);
	CHECK_EQ_LL(current->dirties.events, P2);
	for (int i = 0; i < N; i++)
		emu_write_next_page(&w->mappings[0]);
	CHECK_EQ_LL(current->dirties.events, P2 + N);
	get_dirty_limits(&background, &dirty, &bdi_thresh, &w->bdi);
	CHECK_EQ_LL(bdi_thresh, 137626);
	writeback_world_destroy(w);
}

int main(void)
{
	struct test_machine m;
	char err[256];

	if (test_machine_up(&m, "synthetic:node:1 core:2 pu:1") != 0)
		return 1;
	if (mm_machine_setup(3ULL << 30, err, sizeof(err)) != 0) {
		fprintf(stderr, "%s\n", err);
		return 1;
	}
	CHECK_EQ_LL(nr_cpu_ids, 2);
	test_constants();
	CHECK_EQ_LL(percpu_counter_batch, 32);
	CHECK_EQ_LL(8 * (1 + ilog2(nr_cpu_ids)), 16);	/* PROP_BATCH, BDI_STAT_BATCH */
	test_per_page();
	test_norm_percpu();
	test_norm_single();
	test_inc_max();
	test_two_bdis();
	test_world_limits();
	mm_machine_teardown();
	test_machine_down(&m);
	return check_report("test_proportions");
}
