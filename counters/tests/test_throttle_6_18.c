// SPDX-License-Identifier: GPL-2.0
/*
 * 6.18's row of the throttle world (kernel/linux-6.18/world/throttle.c): what its
 * own state holds inside a run, at every sample of the trace, against the
 * world's exact counts and the kernel's rules (test_throttle checks the
 * rows' common properties: determinism, conservation, reads per pass):
 * - the wb counters the kernel code keeps are the world's: reclaimable +
 *   writeback of disk 0 (the world's count in the sample), and over every
 *   disk WB_DIRTIED and WB_WRITTEN the pages dirtied and written so far -
 *   with the per-CPU error modelled or not (the sums are exact), each CPU's
 *   part under WB_STAT_BATCH with the error (the fold at the batch,
 *   percpu_counter_add_batch) and 0 without;
 * - wb_over_bg_thresh (page-writeback.c 2160-2172) says yes whenever the
 *   global dirty count is over the background threshold, and at some
 *   sample also below it, for the wb's own share (the per-wb test, which
 *   the 3.x rows' flusher does not have);
 * - wb->writeback_inodes counts disk 0's files with pages under writeback
 *   (__folio_start_writeback and __folio_end_writeback's inode start and end);
 * - the completions' period advances once every VM_COMPLETIONS_PERIOD_LEN
 *   (3 s) from the first completion (writeout_period re-arming its timer).
 */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "mmscale/linux-3.2/world/throttle.h"
#include "throttle_6_18_probe.h"

struct watch {
	const struct throttle_scenario *sc;
	bool percpu_error;
	const struct throttle_result *res;	/* the run's, filled as it goes */
	int samples;
	int over_only_per_wb;		/* samples: global under bg_thresh, the wb over its share */
	double before_first_s, first_s;	/* the sample before the first completion, and at it */
	bool seen_completion;
	unsigned int last_period;
	int largest_cpu_count;
	int batch;			/* WB_STAT_BATCH, as a sample saw it */
};

static void at_sample(const struct throttle_sample *s, void *arg)
{
	struct watch *w = arg;
	const char *name = w->sc->name;
	long long dirtied = 0, written = 0;
	unsigned long dirty = probe_6_18_global_dirty(), bg = probe_6_18_bg_thresh();

	w->samples++;
	CHECK_MSG(probe_6_18_wb_sum(0, BDI_RECLAIMABLE) + probe_6_18_wb_sum(0, BDI_WRITEBACK) ==
		  (long long)s->bdi_dirty, "%s at %.1f s: wb 0 holds %lld + %lld, the world %lu",
		  name, s->t_s, probe_6_18_wb_sum(0, BDI_RECLAIMABLE),
		  probe_6_18_wb_sum(0, BDI_WRITEBACK), s->bdi_dirty);
	CHECK_MSG(probe_6_18_writeback_inodes(0) == s->files_under_writeback, "%s at %.1f s: "
		  "wb 0's writeback_inodes %d, the world's files under writeback %d", name, s->t_s,
		  probe_6_18_writeback_inodes(0), s->files_under_writeback);
	for (int d = 0; d < w->sc->nr_disks; d++) {
		int largest = probe_6_18_wb_largest_cpu_count(d);

		w->batch = probe_6_18_wb_stat_batch();
		CHECK_MSG(w->percpu_error ? largest < probe_6_18_wb_stat_batch() : largest == 0,
			  "%s at %.1f s: disk %d's wb has %d on a CPU (batch %d)", name, s->t_s, d,
			  largest, probe_6_18_wb_stat_batch());
		w->largest_cpu_count = max(w->largest_cpu_count, largest);
		dirtied += probe_6_18_wb_sum(d, BDI_DIRTIED);
		written += probe_6_18_wb_sum(d, BDI_WRITTEN);
	}
	CHECK_MSG(dirtied == (long long)w->res->nr_dirtied && written == (long long)w->res->nr_written,
		  "%s at %.1f s: the wbs count %lld dirtied, %lld written; the world %llu, %llu",
		  name, s->t_s, dirtied, written, (unsigned long long)w->res->nr_dirtied,
		  (unsigned long long)w->res->nr_written);

	for (int d = 0; d < w->sc->nr_disks; d++) {
		bool over_d = probe_6_18_over_bg_thresh(d);

		CHECK_MSG(dirty <= bg || over_d, "%s at %.1f s: %lu dirty over a background "
			  "threshold of %lu, and wb_over_bg_thresh of disk %d says no", name, s->t_s,
			  dirty, bg, d);
		w->over_only_per_wb += dirty <= bg && over_d;
	}

	if (!w->seen_completion) {
		if (w->res->nr_written) {
			w->seen_completion = true;
			w->first_s = s->t_s;
		} else {
			w->before_first_s = s->t_s;
		}
	}
	if (w->seen_completion) {
		/* the first completion was after before_first_s, at first_s at the latest */
		unsigned int lo = (unsigned int)((s->t_s - w->first_s) / 3.0 + 1e-9);
		unsigned int hi = (unsigned int)((s->t_s - w->before_first_s) / 3.0 + 1e-9);
		unsigned int period = probe_6_18_period();

		w->last_period = period;

		CHECK_MSG(period >= lo && period <= hi, "%s at %.1f s: completions period %u, not "
			  "%u to %u", name, s->t_s, period, lo, hi);
	}
}

static int watch_run(const char *scenario, bool percpu_error)
{
	const struct throttle_scenario *sc = NULL;
	struct throttle_params p;
	struct throttle_result res;
	struct watch w = { .res = &res };
	char err[256];

	for (size_t i = 0; i < nr_throttle_scenarios; i++)
		if (strcmp(throttle_scenarios[i].name, scenario) == 0)
			sc = &throttle_scenarios[i];
	CHECK_MSG(sc != NULL, "no scenario %s", scenario);
	if (!sc)
		return 0;
	w.sc = sc;
	w.percpu_error = percpu_error;
	throttle_params_default(&p);
	p.run_us = 20 * 1000 * 1000;
	p.sample_us = 200 * 1000;
	p.percpu_error = percpu_error;
	CHECK_MSG(throttle_run_kernel(sc, &throttle_kernel_6_18, &p, &res, at_sample, &w, err,
				      sizeof(err)) == 0, "%s: %s", scenario, err);
	CHECK_EQ_LL(w.samples, 101);
	/* 20 s from a completion in the first second: 6 periods at least */
	CHECK_MSG(w.seen_completion && w.last_period >= 6, "%s: completions period %u at the end",
		  scenario, w.last_period);
	/* Not vacuous: with the error, the CPUs' parts near the batch somewhere. */
	CHECK_MSG(!percpu_error || w.largest_cpu_count >= w.batch / 2,
		  "%s: the largest per-CPU part was %d", scenario, w.largest_cpu_count);
	printf("  %s%s: %d samples, %d with only the wb over its background share, largest "
	       "per-CPU part %d, nr_written %llu\n", scenario, percpu_error ? " (per-CPU error)" : "",
	       w.samples, w.over_only_per_wb, w.largest_cpu_count,
	       (unsigned long long)res.nr_written);
	return w.over_only_per_wb;
}

int main(void)
{
	static const char *const names[] = {
		"JBOD-10HDD-thresh=100M/xfs-1dd-1M-16p-5895M-100M",
		"JBOD-10HDD-thresh=800M/xfs-2dd-1M-16p-5895M-800M",
		"JBOD-10HDD-6G/xfs-10dd-1M-16p-5895M-20",
	};
	int per_wb = 0;

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		per_wb += watch_run(names[i], false);
		per_wb += watch_run(names[i], true);
	}
	/* Not vacuous: the per-wb branch decided somewhere. */
	CHECK_MSG(per_wb > 0, "wb_over_bg_thresh never held for a wb's own share alone");
	return check_report("test_throttle_6_18");
}
