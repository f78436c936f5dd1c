// SPDX-License-Identifier: GPL-2.0
/*
 * The virtual-time throttling world (kernel/linux-3.2/world/throttle.c) with every
 * IO-less variant: the same run twice gives the same result and trace, bit
 * for bit; every page dirtied is written once or still dirty or under
 * writeback at the end; and balance_dirty_pages' reads are exact per pass:
 * 6 global reads in every pass (NR_FILE_DIRTY, NR_UNSTABLE_NFS,
 * NR_WRITEBACK; global_dirty_limits' NR_FREE_PAGES and the two file LRUs),
 * 2 bdi reads in a pass over the freerun ceiling (BDI_RECLAIMABLE,
 * BDI_WRITEBACK), 2 more each time the bandwidth is sampled (BDI_DIRTIED,
 * BDI_WRITTEN; 3.1: BDI_WRITTEN alone), and bdi_stat_sum walks 16 slots for
 * each of its 2 items (1024 on a 1024-CPU world). 6.18 (kernel/linux-6.18/world/throttle.c,
 * the last row) the same but where its code differs: no anon LRUs read, so
 * swap changes nothing; and its writeout fractions' aging, every 3 s, may
 * sum a wb's completions once a period in a pass (fprop_reflect_period_percpu).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "mmscale/mm/config.h"
#include "mmscale/linux-3.2/world/throttle.h"
#include "../iol_variants.h"

static const struct {
	const struct iol_variant_ops *ops;
	const char *name;
	const struct throttle_kernel *kernel;
} variants[] = {
#define X(symbol, name, summary, source, ...) { &symbol, name, NULL },
	IOL_VARIANTS(X)
#undef X
	{ NULL, "6.18", &throttle_kernel_6_18 },
};

static int run_variant(const struct throttle_scenario *sc, int v, const struct throttle_params *p,
		       struct throttle_result *res, throttle_sample_fn sample, void *arg)
{
	char err[256] = "";
	int rc;

	if (variants[v].kernel)
		rc = throttle_run_kernel(sc, variants[v].kernel, p, res, sample, arg, err,
					 sizeof(err));
	else
		rc = throttle_run(sc, variants[v].ops, p, res, sample, arg, err, sizeof(err));
	if (rc)
		fprintf(stderr, "%s %s: %s\n", sc->name, variants[v].name, err);
	return rc;
}

/*
 * 6.18's fprop_reflect_period_percpu sums a wb's completions (nr_cpus
 * slots) when its count is small after a new period: at most once per
 * disk in each 3 s period of a run of run_s seconds.
 */
static uint64_t fprop_sums_at_most(const struct throttle_scenario *sc, int v, int run_s)
{
	return variants[v].kernel ? (uint64_t)sc->nr_disks * (uint64_t)(run_s / 3 + 1) : 0;
}

struct trace {
	struct throttle_sample s[64];
	int n;
};

static void keep_sample(const struct throttle_sample *s, void *arg)
{
	struct trace *t = arg;

	if (t->n < 64)
		t->s[t->n++] = *s;
}

static const struct throttle_scenario *scenario(const char *name)
{
	for (size_t i = 0; i < nr_throttle_scenarios; i++)
		if (strcmp(throttle_scenarios[i].name, name) == 0)
			return &throttle_scenarios[i];
	fprintf(stderr, "no scenario %s\n", name);
	exit(1);
}

/* Over every run: the flag was set (a queue ran empty somewhere) and cleared again. */
static uint64_t underrun_sets_total, underrun_clears_total;

static void check_run(const struct throttle_scenario *sc, int v)
{
	struct throttle_params p;
	struct throttle_result a, b;
	static struct trace ta, tb;
	const char *name = variants[v].name;
	uint64_t bw_reads;

	throttle_params_default(&p);
	p.run_us = 5 * 1000 * 1000;
	p.sample_us = 200 * 1000;
	memset(&ta, 0, sizeof(ta));
	memset(&tb, 0, sizeof(tb));
	CHECK(run_variant(sc, v, &p, &a, keep_sample, &ta) == 0);
	CHECK(run_variant(sc, v, &p, &b, keep_sample, &tb) == 0);

	/* Determinism: the result and the 26 samples (0 to 5.0 s), bit for bit. */
	CHECK_MSG(memcmp(&a, &b, sizeof(a)) == 0, "%s %s: two runs differ", sc->name, name);
	CHECK_EQ_LL(ta.n, 26);
	CHECK_MSG(ta.n == tb.n && memcmp(ta.s, tb.s, sizeof(ta.s[0]) * (size_t)ta.n) == 0,
		  "%s %s: two traces differ", sc->name, name);

	/* Conservation. */
	CHECK_MSG(a.nr_dirtied == a.nr_written + a.nr_dirty_end + a.nr_writeback_end,
		  "%s %s: dirtied %llu != written %llu + dirty %llu + writeback %llu", sc->name,
		  name, (unsigned long long)a.nr_dirtied, (unsigned long long)a.nr_written,
		  (unsigned long long)a.nr_dirty_end, (unsigned long long)a.nr_writeback_end);
	/* Not vacuous: throttling happened, the disks wrote. */
	CHECK_MSG(a.pauses > 0 && a.nr_written > 0 && a.bdp_throttled_passes > 0,
		  "%s %s: %llu pauses, %llu written", sc->name, name,
		  (unsigned long long)a.pauses, (unsigned long long)a.nr_written);
	/* The trace only looks: a run without it is the same. */
	{
		struct throttle_result c;

		p.sample_us = 0;
		CHECK(run_variant(sc, v, &p, &c, NULL, NULL) == 0);
		CHECK_MSG(memcmp(&a, &c, sizeof(a)) == 0, "%s %s: the trace changed the run",
			  sc->name, name);
	}

	/*
	 * Exact reads per pass: 3.2's limits read 6 global items, 8 with swap
	 * (global_reclaimable_pages adds the anon LRUs, empty here); without
	 * swap the run is the same but for those reads.
	 */
	CHECK(p.swap);
	/* 6.18's global_dirtyable_memory reads the file LRUs only: 6 with swap too. */
	CHECK_MSG(a.global_reads == (variants[v].kernel ? 6 : 8) * a.bdp_passes,
		  "%s %s: %llu global reads in %llu passes with swap", sc->name, name,
		  (unsigned long long)a.global_reads, (unsigned long long)a.bdp_passes);
	{
		struct throttle_result c;

		p.swap = false;
		CHECK(run_variant(sc, v, &p, &c, NULL, NULL) == 0);
		CHECK_MSG(c.global_reads == 6 * c.bdp_passes, "%s %s: %llu global reads in %llu "
			  "passes without swap", sc->name, name,
			  (unsigned long long)c.global_reads, (unsigned long long)c.bdp_passes);
		if (variants[v].kernel)
			CHECK_MSG(c.global_reads == a.global_reads, "%s %s: swap changed the reads",
				  sc->name, name);
		c.global_reads = a.global_reads;
		CHECK_MSG(memcmp(&a, &c, sizeof(a)) == 0, "%s %s: swap changed more than the reads",
			  sc->name, name);
		p.swap = true;
	}
	/*
	 * v11 11/18's flag, as the disks' queues set and clear it: each set
	 * (the queue ran empty) is followed by a clear (3 requests queued
	 * again) but, at the end, one per disk; the variant does not matter
	 * to the queue, only how the dd tasks fill it.
	 */
	printf("  %s %s: underrun set %llu, cleared %llu\n", sc->name, name,
	       (unsigned long long)a.underrun_sets, (unsigned long long)a.underrun_clears);
	CHECK_MSG(a.underrun_clears <= a.underrun_sets &&
		  a.underrun_sets <= a.underrun_clears + (uint64_t)sc->nr_disks,
		  "%s %s: underrun set %llu times, cleared %llu", sc->name, name,
		  (unsigned long long)a.underrun_sets, (unsigned long long)a.underrun_clears);
	underrun_sets_total += a.underrun_sets;
	underrun_clears_total += a.underrun_clears;
	/* 3.2 samples BDI_DIRTIED and BDI_WRITTEN; 3.1 has only BDI_WRITTEN. */
	bw_reads = strcmp(name, "vanilla-3.1") == 0 ? 1 : 2;
	/*
	 * A throttled pass reads its two bdi items, or sums both over the 16
	 * CPUs (bdi_stat_sum: 16 slots each, and no read).
	 */
	CHECK_MSG(a.bdi_sum_slots % (variants[v].kernel ? 16 : 2 * 16) == 0, "%s %s: %llu sum "
		  "slots", sc->name, name, (unsigned long long)a.bdi_sum_slots);
	CHECK_MSG(a.bdi_reads + a.bdi_sum_slots / 16 >=
		  2 * a.bdp_throttled_passes + bw_reads * a.bw_samples &&
		  a.bdi_reads + a.bdi_sum_slots / 16 <=
		  2 * a.bdp_throttled_passes + bw_reads * a.bw_samples + fprop_sums_at_most(sc, v, 5),
		  "%s %s: %llu bdi reads and %llu sum slots, %llu throttled passes, %llu bandwidth "
		  "samples", sc->name, name, (unsigned long long)a.bdi_reads,
		  (unsigned long long)a.bdi_sum_slots, (unsigned long long)a.bdp_throttled_passes,
		  (unsigned long long)a.bw_samples);
	CHECK(a.bdp_passes >= a.bdp_calls);
	/*
	 * The pauses each kernel takes: 3.1's naps of 1, 2, 4 ... 64 and then
	 * HZ/10 = 100 jiffies (lines 765-768); 3.2's within [1, MAX_PAUSE].
	 */
	for (int j = 0; j <= HZ / 5; j++) {
		bool allowed = bw_reads == 1 ? (j && ((j & (j - 1)) == 0) && j <= 64) || j == 100
					     : j >= 1;

		CHECK_MSG(allowed || a.pause_hist[j] == 0, "%s %s: %llu pauses of %d jiffies",
			  sc->name, name, (unsigned long long)a.pause_hist[j], j);
	}
	/*
	 * ratelimit_pages at boot. 3.1 (lines 949-956): vm_total_pages / (16 *
	 * 32) = 5895 * 256 / 512 = 2947, capped at 4 MiB = 1024 pages. 3.2
	 * (lines 1366-1374): dirty_thresh / (16 * 32): 100M: 25600 / 512 = 50;
	 * 800M: 204800 / 512 = 400; 20% of (5895 - 256) MiB of dirtyable
	 * memory, (1443584 + 1) * 20 / 100 = 288717: 563.
	 */
	{
		long want = bw_reads == 1 ? 1024 : strstr(sc->name, "thresh=100M") ? 50 :
			    strstr(sc->name, "thresh=800M") ? 400 : 563;

		CHECK_MSG(a.ratelimit_pages == want, "%s %s: ratelimit_pages %ld (want %ld)",
			  sc->name, name, a.ratelimit_pages, want);
	}
	/*
	 * 100M over 10 disks: a bdi_thresh near 2560 pages against 2 *
	 * bdi_stat_error = 2 * 16 * 40 = 1280: some throttled passes fall
	 * below it and take bdi_stat_sum (not vacuous, the slots above).
	 */
	if (strstr(sc->name, "thresh=100M"))
		CHECK_MSG(a.bdi_sum_slots > 0, "%s %s: no bdi_stat_sum", sc->name, name);
}

/*
 * 1024 CPUs: bdi_stat_error = 1024 * 8 * (1 + 10) = 90112 pages, so with a
 * 100M threshold (25600 pages, and bdi_thresh at most that) every throttled
 * pass takes bdi_stat_sum: 2 items x 1024 slots, exactly.
 */
static void check_1024_cpus(void)
{
	struct throttle_scenario sc = *scenario("JBOD-10HDD-thresh=100M/xfs-10dd-1M-16p-5895M-100M");
	struct throttle_params p;
	struct throttle_result r;

	sc.nr_cpus = 1024;
	throttle_params_default(&p);
	p.run_us = 5 * 1000 * 1000;
	for (size_t v = 0; v < sizeof(variants) / sizeof(variants[0]); v++) {
		CHECK(run_variant(&sc, (int)v, &p, &r, NULL, NULL) == 0);
		uint64_t fprop_slots = r.bdi_sum_slots - 2 * 1024 * r.bdp_throttled_passes;

		CHECK_MSG(r.bdp_throttled_passes > 0 &&
			  r.bdi_sum_slots >= 2 * 1024 * r.bdp_throttled_passes &&
			  fprop_slots % 1024 == 0 &&
			  fprop_slots / 1024 <= fprop_sums_at_most(&sc, (int)v, 5),
			  "%s on 1024 CPUs: %llu slots in %llu throttled passes", variants[v].name,
			  (unsigned long long)r.bdi_sum_slots,
			  (unsigned long long)r.bdp_throttled_passes);
	}
}

/*
 * --throttle-percpu-error: the reads carry the per-CPU counters' error.
 * Deterministic still; pages conserved; every read within the kernel's
 * bound of the exact count - each CPU's vm delta within stat_threshold
 * (3.2's calculate_normal_threshold: 16 CPUs, 5895 MiB = 46 x 128 MiB:
 * 2 * fls(16) * (1 + fls(46)) = 2 * 5 * 7 = 70), each CPU's bdi delta
 * under BDI_STAT_BATCH (8 * (1 + ilog2(16)) = 40) - and off that bound
 * somewhere (the error is there); without it, no gap at all.
 */
static void check_percpu_error(const struct throttle_scenario *sc, int v)
{
	struct throttle_params p;
	struct throttle_result a, b, exact;
	const char *name = variants[v].name;

	throttle_params_default(&p);
	p.run_us = 5 * 1000 * 1000;
	CHECK(!p.percpu_error);
	CHECK(run_variant(sc, v, &p, &exact, NULL, NULL) == 0);
	CHECK_EQ_LL(exact.max_vm_error, 0);
	CHECK_EQ_LL(exact.max_bdi_error, 0);
	p.percpu_error = true;
	CHECK(run_variant(sc, v, &p, &a, NULL, NULL) == 0);
	CHECK(run_variant(sc, v, &p, &b, NULL, NULL) == 0);
	CHECK_MSG(memcmp(&a, &b, sizeof(a)) == 0, "%s %s: two runs with per-CPU error differ",
		  sc->name, name);
	CHECK_EQ_LL(a.stat_threshold, 70);
	CHECK_EQ_LL(a.bdi_stat_batch, 40);
	CHECK(a.nr_dirtied == a.nr_written + a.nr_dirty_end + a.nr_writeback_end);
	printf("  %s %s with per-CPU error: nr_written %llu (exact %llu), largest gap: vm %llu, "
	       "bdi %llu pages\n", sc->name, name, (unsigned long long)a.nr_written,
	       (unsigned long long)exact.nr_written, (unsigned long long)a.max_vm_error,
	       (unsigned long long)a.max_bdi_error);
	CHECK(a.max_vm_error > 0 && a.max_vm_error <= 16ULL * 70);
	CHECK(a.max_bdi_error > 0 && a.max_bdi_error <= 16ULL * 39);
}

/*
 * The --set knobs reach the world (cases/throttle.c puts the run's into
 * mm_config()): stat_threshold and BDI_STAT_BATCH replace the world's
 * thresholds, for 3.x's rows and 6.18's (WB_STAT_BATCH), and
 * ratelimit_pages the one writeback_set_ratelimit computes. At 0 every
 * per-CPU add folds, so even with the per-CPU error every read is exact;
 * at an s32's largest, bdi_stat_error is so large that every throttled
 * pass sums both bdi (wb) items over the world's 16 CPUs.
 */
static void check_knobs(const struct throttle_scenario *sc)
{
	struct mm_machine_config cfg = *mm_config(), was = cfg;
	struct throttle_params p;
	struct throttle_result r;

	throttle_params_default(&p);
	p.run_us = 5 * 1000 * 1000;
	p.percpu_error = true;
	for (size_t v = 0; v < sizeof(variants) / sizeof(variants[0]); v++) {
		const char *name = variants[v].name;

		cfg.stat_threshold = 0;
		cfg.bdi_stat_batch = 0;
		mm_config_set_knobs(&cfg);
		CHECK(run_variant(sc, (int)v, &p, &r, NULL, NULL) == 0);
		CHECK_EQ_LL(r.stat_threshold, 0);
		CHECK_EQ_LL(r.bdi_stat_batch, 0);
		CHECK_MSG(r.max_vm_error == 0, "%s at stat_threshold 0: a vm read %llu off", name,
			  (unsigned long long)r.max_vm_error);
		CHECK_MSG(r.max_bdi_error == 0, "%s at BDI_STAT_BATCH 0: a bdi read %llu off", name,
			  (unsigned long long)r.max_bdi_error);

		cfg.stat_threshold = MM_KNOB_AUTO;
		cfg.bdi_stat_batch = MM_BDI_STAT_BATCH_MAX;
		mm_config_set_knobs(&cfg);
		CHECK(run_variant(sc, (int)v, &p, &r, NULL, NULL) == 0);
		CHECK_MSG(r.bdp_throttled_passes > 0 &&
			  r.bdi_sum_slots >= 2 * 16 * r.bdp_throttled_passes,
			  "%s at BDI_STAT_BATCH %d: %llu slots summed in %llu throttled passes", name,
			  MM_BDI_STAT_BATCH_MAX, (unsigned long long)r.bdi_sum_slots,
			  (unsigned long long)r.bdp_throttled_passes);
	}
	/*
	 * ratelimit_pages: every variant's writeback_set_ratelimit takes it
	 * (the world's result says what it set); at 0 every dirtied page
	 * calls balance_dirty_pages on 3.1 and goes past the per-CPU count on
	 * the others: more calls than at auto.
	 */
	p.percpu_error = false;
	for (size_t v = 0; v < sizeof(variants) / sizeof(variants[0]); v++) {
		struct throttle_result at_auto;

		cfg = was;
		mm_config_set_knobs(&cfg);
		CHECK(run_variant(sc, (int)v, &p, &at_auto, NULL, NULL) == 0);
		cfg.writeback_ratelimit_pages = 0;
		mm_config_set_knobs(&cfg);
		CHECK(run_variant(sc, (int)v, &p, &r, NULL, NULL) == 0);
		CHECK_MSG(r.ratelimit_pages == 0 && at_auto.ratelimit_pages >= 16 &&
			  r.bdp_calls > at_auto.bdp_calls,
			  "%s at ratelimit_pages 0: set %ld (auto %ld), %llu calls (auto %llu)",
			  variants[v].name, r.ratelimit_pages, at_auto.ratelimit_pages,
			  (unsigned long long)r.bdp_calls, (unsigned long long)at_auto.bdp_calls);
	}
	mm_config_set_knobs(&was);
}

/*
 * mm_dirty_sysctls_write: --set's dirty sysctls written over a set-up's
 * as mm/page-writeback.c's handlers write them (2.6.31 168-222, 3.2
 * 160-214, 6.18 487-546): a background ratio zeroes the background bytes
 * and the bytes the ratio, always; dirty_ratio zeroes dirty_bytes and
 * dirty_bytes dirty_ratio only when the value written differs.
 */
static void check_dirty_sysctls(void)
{
	static const struct {
		int ratio, bg_ratio;		/* the set-up's */
		unsigned long bytes, bg_bytes;
		long long set_ratio, set_bg_ratio, set_bytes, set_bg_bytes;	/* --set, or -1 */
		int want_ratio, want_bg_ratio;
		unsigned long want_bytes, want_bg_bytes;
	} rows[] = {
		/* nothing set: the set-up's, untouched */
		{ 20, 10, 0, 0, -1, -1, -1, -1, 20, 10, 0, 0 },
		/* a bench with dirty_bytes: a new ratio takes over, the same ratio does not */
		{ 0, 10, 100 << 20, 0, 5, -1, -1, -1, 5, 10, 0, 0 },
		{ 0, 10, 100 << 20, 0, 0, -1, -1, -1, 0, 10, 100 << 20, 0 },
		/* the kernel's defaults: new bytes take over, the same bytes (0) cannot be written */
		{ 20, 10, 0, 0, -1, -1, 200 << 20, -1, 0, 10, 200 << 20, 0 },
		{ 0, 10, 100 << 20, 0, -1, -1, 100 << 20, -1, 0, 10, 100 << 20, 0 },
		/* the background pair: either zeroes the other, even at its own value */
		{ 20, 10, 0, 0, -1, 10, -1, -1, 20, 10, 0, 0 },
		{ 20, 10, 0, 0, -1, -1, -1, 4096, 20, 0, 0, 4096 },
		{ 20, 0, 0, 4096, -1, 30, -1, -1, 20, 30, 0, 0 },
		/* a ratio and the other pair's bytes together */
		{ 20, 10, 0, 0, 40, -1, -1, 1 << 20, 40, 0, 0, 1 << 20 },
	};
	struct mm_machine_config cfg = *mm_config(), was = cfg;

	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		int ratio = rows[i].ratio, bg_ratio = rows[i].bg_ratio;
		unsigned long bytes = rows[i].bytes, bg_bytes = rows[i].bg_bytes;
		bool wrote;

		cfg.sysctl_dirty_ratio = rows[i].set_ratio;
		cfg.sysctl_dirty_background_ratio = rows[i].set_bg_ratio;
		cfg.sysctl_dirty_bytes = rows[i].set_bytes;
		cfg.sysctl_dirty_background_bytes = rows[i].set_bg_bytes;
		mm_config_set_knobs(&cfg);
		wrote = mm_dirty_sysctls_write(&ratio, &bytes, &bg_ratio, &bg_bytes);
		CHECK_MSG(ratio == rows[i].want_ratio && bytes == rows[i].want_bytes &&
			  bg_ratio == rows[i].want_bg_ratio && bg_bytes == rows[i].want_bg_bytes &&
			  wrote == (i != 0),
			  "dirty sysctls row %zu: ratio %d bytes %lu, background %d and %lu", i, ratio,
			  bytes, bg_ratio, bg_bytes);
	}
	mm_config_set_knobs(&was);
}

/*
 * The world takes them over its scenario's (kernel/linux-3.2/world/throttle.c, both
 * kernels' set-ups): dirty_bytes of 200 MiB on the thresh=100M scenario
 * makes every sample's threshold 51200 pages where it was 25600, and a
 * ratio of 5 makes it at most 5% of the world's memory (its dirtyable part),
 * no longer the scenario's 25600; dirty_background_bytes of 50 MiB makes
 * the background threshold 12800 pages.
 */
static void check_dirty_knobs_in_world(const struct throttle_scenario *sc)
{
	struct mm_machine_config cfg = *mm_config(), was = cfg;
	struct throttle_params p;
	struct throttle_result r;
	unsigned long five_percent = (unsigned long)sc->mem_mib * 256 * 5 / 100;

	throttle_params_default(&p);
	p.run_us = 2 * 1000 * 1000;
	p.sample_us = 200 * 1000;
	for (size_t v = 0; v < sizeof(variants) / sizeof(variants[0]); v++) {
		struct trace at_auto = { .n = 0 }, at_bytes = { .n = 0 }, at_ratio = { .n = 0 };
		struct trace at_bg = { .n = 0 };

		CHECK(run_variant(sc, (int)v, &p, &r, keep_sample, &at_auto) == 0);
		cfg.sysctl_dirty_bytes = 200 << 20;
		mm_config_set_knobs(&cfg);
		CHECK(run_variant(sc, (int)v, &p, &r, keep_sample, &at_bytes) == 0);
		cfg.sysctl_dirty_bytes = MM_KNOB_AUTO;
		cfg.sysctl_dirty_ratio = 5;
		mm_config_set_knobs(&cfg);
		CHECK(run_variant(sc, (int)v, &p, &r, keep_sample, &at_ratio) == 0);
		cfg.sysctl_dirty_ratio = MM_KNOB_AUTO;
		cfg.sysctl_dirty_background_bytes = 50 << 20;
		mm_config_set_knobs(&cfg);
		CHECK(run_variant(sc, (int)v, &p, &r, keep_sample, &at_bg) == 0);
		cfg.sysctl_dirty_background_bytes = MM_KNOB_AUTO;
		mm_config_set_knobs(&cfg);
		CHECK(at_auto.n > 0 && at_bytes.n == at_auto.n && at_ratio.n == at_auto.n &&
		      at_bg.n == at_auto.n);
		for (int i = 0; i < at_bg.n; i++)
			CHECK_MSG(at_bg.s[i].bg_thresh == 12800 && at_bg.s[i].thresh == 25600,
				  "%s at %.1f s, background bytes 50 MiB: bg_thresh %lu, thresh %lu",
				  variants[v].name, at_bg.s[i].t_s, at_bg.s[i].bg_thresh,
				  at_bg.s[i].thresh);
		for (int i = 0; i < at_auto.n && i < at_bytes.n && i < at_ratio.n; i++)
			CHECK_MSG(at_auto.s[i].thresh == 25600 && at_bytes.s[i].thresh == 51200 &&
				  at_ratio.s[i].thresh != 25600 && at_ratio.s[i].thresh <= five_percent,
				  "%s at %.1f s: thresh %lu at auto, %lu at 200 MiB, %lu at 5%%",
				  variants[v].name, at_auto.s[i].t_s, at_auto.s[i].thresh,
				  at_bytes.s[i].thresh, at_ratio.s[i].thresh);
	}
	mm_config_set_knobs(&was);
}

int main(void)
{
	static const char *const names[] = {
		"JBOD-10HDD-thresh=100M/xfs-10dd-1M-16p-5895M-100M",
		"JBOD-10HDD-thresh=800M/xfs-2dd-1M-16p-5895M-800M",
		"JBOD-10HDD-6G/xfs-1dd-1M-16p-5895M-20",
	};

	CHECK_EQ_LL(nr_throttle_scenarios, 19);
	/*
	 * The knobs' checks first: each restores the set-up it changed, and
	 * they are the shortest, so a mutant of the knobs fails in a second
	 * under scripts/mutants' MMSCALE_CHECK_FAIL_FAST, not after the runs.
	 */
	check_dirty_sysctls();
	check_knobs(scenario(names[0]));
	check_dirty_knobs_in_world(scenario(names[0]));
	for (size_t s = 0; s < sizeof(names) / sizeof(names[0]); s++)
		for (size_t v = 0; v < sizeof(variants) / sizeof(variants[0]); v++)
			check_run(scenario(names[s]), (int)v);
	CHECK(underrun_sets_total > 0 && underrun_clears_total > 0);
	for (size_t v = 0; v < sizeof(variants) / sizeof(variants[0]); v++)
		check_percpu_error(scenario(names[0]), (int)v);
	check_1024_cpus();
	return check_report("test_throttle");
}
