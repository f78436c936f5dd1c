// SPDX-License-Identifier: GPL-2.0
/*
 * throttle/<scenario>/<variant>: the seed-004 scenarios
 * (include/mmscale/linux-3.2/world/throttle_scenarios.h) run in the virtual-time world
 * (kernel/linux-3.2/world/throttle.c) with each IO-less variant
 * (counters/iol_variant_list.h), --throttle-seconds of virtual time per run.
 * A run is deterministic: its counters are the same every time, on every
 * machine; its time is what the world took to simulate it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "mmscale/case.h"
#include "mmscale/gbench.h"
#include "mmscale/params.h"
#include "mmscale/linux-3.2/world/throttle.h"
#include "../counters/iol_variants.h"
#include "mmscale/linux-3.2/world/throttle_scenarios.h"

/* A row: a 3.x variant's ops, or a generation with its own types (throttle_kernel.h). */
struct iol_variant {
	struct mmscale_variant v;
	const struct iol_variant_ops *ops;
	const struct throttle_kernel *kernel;
};

static const struct iol_variant iol_variants[] = {
#define X(symbol, name, summary, source, ...) { { name, summary, source }, &symbol, NULL },
	IOL_VARIANTS(X)
#undef X
	{ { "6.18", "as 6.18 has it: wb-based, dirty_throttle_control, 3 s writeout periods",
	    "Linux 6.18 mm/page-writeback.c (blob 757bc4d3) in the world: kernel/linux-6.18/world/throttle.c" },
	  NULL, &throttle_kernel_6_18 },
};

static const struct mmscale_metric throttle_metrics[] = {
	{ "nr_written", "pages written in the run (the seed's table: larger is better; "
	  "deterministic)", true },
	{ "disk_idle_s", "seconds the disks sat idle, summed over the disks (deterministic)", true },
	{ "pause_mean_ms", "mean balance_dirty_pages pause, ms (deterministic)", true },
	{ "pause_p99_ms", "99th percentile pause, ms (deterministic)", true },
	{ "global_reads", "global_page_state reads per balance_dirty_pages call (exact)", true },
	{ "bdi_reads", "bdi_stat and bdi counter reads per balance_dirty_pages call, sums not "
	  "included (exact)", true },
};

struct throttle_trace {
	FILE *f;
	struct throttle_sample last;
};

static void write_sample(const struct throttle_sample *s, void *arg)
{
	struct throttle_trace *tr = arg;

	tr->last = *s;
	fprintf(tr->f, "%.3f,%lu,%lu,%lu,%lu,%lu,%lu,%lu,%lu,%lu,%lu,%lu,%lu,%.3f,%lu\n",
		s->t_s, s->nr_dirty, s->freerun, s->setpoint, s->limit, s->thresh, s->bg_thresh,
		s->bdi_dirty, s->bdi_thresh, s->bdi_setpoint, s->dirty_ratelimit,
		s->balanced_dirty_ratelimit, s->write_bw, s->pause_ms, s->pos_ratio);
}

/* DIR/<scenario>_<variant><suffix>, the scenario's '/' as '_'. */
static FILE *open_trace(const char *scenario, const char *variant, const char *suffix,
			char *err, size_t errlen)
{
	const char *dir = mmscale_params.throttle_trace;
	char path[1024];
	FILE *f;
	int n;

	if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
		snprintf(err, errlen, "--throttle-trace: cannot make %s: %s", dir, strerror(errno));
		return NULL;
	}
	n = snprintf(path, sizeof(path), "%s/%s_%s%s", dir, scenario, variant, suffix);
	if (n < 0 || (size_t)n >= sizeof(path)) {
		snprintf(err, errlen, "--throttle-trace: %s: path too long", dir);
		return NULL;
	}
	for (char *p = path + strlen(dir) + 1; *p; p++)
		if (*p == '/')
			*p = '_';
	f = fopen(path, "w");
	if (!f) {
		snprintf(err, errlen, "--throttle-trace: %s: %s", path, strerror(errno));
		return NULL;
	}
	fprintf(f, "# %s %s, %u s of virtual time (mmscale throttle/)\n", scenario, variant,
		mmscale_params.throttle_seconds);
	return f;
}

/*
 * The variant's two control lines, from its own bdi_position_ratio at the
 * run's last sample: the global line (dirty pages from freerun to the
 * limit, one bdi holding its setpoint's share, so that the bdi line is
 * about 1.0) and the bdi line of disk 0 (its last bdi_thresh, the global
 * dirty pages at the setpoint, bdi_dirty from 0 to 2 * bdi_thresh), where
 * the reserve areas differ.
 */
static void write_control_lines(FILE *f, const struct iol_variant_ops *ops,
				const struct throttle_sample *s)
{
	struct backing_dev_info bdi = { .avg_write_bandwidth = s->write_bw };
	unsigned long span = s->limit - s->freerun, x, bdi_setpoint;

	global_dirty_limit = s->limit;
	fprintf(f, "line,x,pos_ratio\n");
	x = (unsigned long)(((u64)s->thresh << 16) / (s->thresh + 1));
	for (unsigned long i = 0; i <= 100; i++) {
		unsigned long dirty = s->freerun + span * i / 100;

		bdi_setpoint = (unsigned long)((u64)s->setpoint * x >> 16);
		fprintf(f, "global,%lu,%.4f\n", dirty,
			(double)ops->bdi_position_ratio(&bdi, s->thresh, s->bg_thresh, dirty,
							s->thresh, bdi_setpoint) / 1024.0);
	}
	for (unsigned long i = 0; i <= 200; i++) {
		unsigned long bdi_dirty = s->bdi_thresh * i / 100;

		fprintf(f, "bdi,%lu,%.4f\n", bdi_dirty,
			(double)ops->bdi_position_ratio(&bdi, s->thresh, s->bg_thresh, s->setpoint,
							s->bdi_thresh, bdi_dirty) / 1024.0);
	}
}

static const struct mmscale_case throttle_cases[];

static void throttle_body(struct mmscale_state *st, struct mmscale_run *run)
{
	struct throttle_scenario scenario = throttle_scenarios[run->c - throttle_cases];
	const struct throttle_scenario *sc = &scenario;
	const struct iol_variant *v = container_of(run->v, struct iol_variant, v);
	struct throttle_params params;
	struct throttle_result res;
	struct throttle_trace tr = { .f = NULL };
	struct mm_machine_config cfg;
	struct timespec t0, t1;
	char err[1536] = "";
	int rc;

	mmscale_mm_config(&cfg);
	mm_config_set_knobs(&cfg);	/* --set: the world's thresholds and batches */
	throttle_params_default(&params);
	params.run_us = (uint64_t)mmscale_params.throttle_seconds * 1000000;
	params.swap = mmscale_params.swap;
	params.percpu_error = mmscale_params.throttle_percpu_error;
	if (mmscale_params.throttle_cpus)
		scenario.nr_cpus = (int)mmscale_params.throttle_cpus;	/* the name stays the seed's */
	while (mmscale_keep_running(st)) {
		if (mmscale_params.throttle_trace) {
			params.sample_us = 200000;
			tr.f = open_trace(sc->name, v->v.name, ".csv", err, sizeof(err));
			if (!tr.f) {
				mmscale_skip_with_error(st, err);
				return;
			}
			fprintf(tr.f, "t_s,nr_dirty,freerun,setpoint,limit,thresh,bg_thresh,"
				"bdi_dirty,bdi_thresh,bdi_setpoint,dirty_ratelimit,"
				"balanced_dirty_ratelimit,write_bw,pause_ms,pos_ratio\n");
		}
		clock_gettime(CLOCK_MONOTONIC, &t0);
		if (v->kernel)
			rc = throttle_run_kernel(sc, v->kernel, &params, &res,
						 tr.f ? write_sample : NULL, &tr, err, sizeof(err));
		else
			rc = throttle_run(sc, v->ops, &params, &res, tr.f ? write_sample : NULL,
					  &tr, err, sizeof(err));
		clock_gettime(CLOCK_MONOTONIC, &t1);
		if (tr.f && fclose(tr.f) != 0 && !rc) {
			snprintf(err, sizeof(err), "--throttle-trace: writing %s's trace failed",
				 sc->name);
			rc = -1;
		}
		/* 3.1 has no control lines; 6.18's are not drawn (its own pos_ratio is in the trace) */
		if (tr.f && !rc && v->ops && v->ops->bdi_position_ratio) {
			FILE *lines = open_trace(sc->name, v->v.name, ".lines.csv", err, sizeof(err));

			if (!lines) {
				rc = -1;
			} else {
				write_control_lines(lines, v->ops, &tr.last);
				if (fclose(lines) != 0) {
					snprintf(err, sizeof(err),
						 "--throttle-trace: writing %s's lines failed", sc->name);
					rc = -1;
				}
			}
		}
		if (rc) {
			mmscale_skip_with_error(st, err);
			return;
		}
		mmscale_set_iteration_time(st, (double)(t1.tv_sec - t0.tv_sec) +
					       (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9);
	}
	mmscale_counter_set(st, "nr_written", (double)res.nr_written, 0);
	mmscale_counter_set(st, "nr_dirtied", (double)res.nr_dirtied, 0);
	mmscale_counter_set(st, "dirty_end", (double)(res.nr_dirty_end + res.nr_writeback_end), 0);
	mmscale_counter_set(st, "disk_idle_s", res.disk_idle_s, 0);
	mmscale_counter_set(st, "pauses", (double)res.pauses, 0);
	mmscale_counter_set(st, "pause_mean_ms", res.pause_mean_ms, 0);
	mmscale_counter_set(st, "pause_p99_ms", res.pause_p99_ms, 0);
	mmscale_counter_set(st, "bdp_calls", (double)res.bdp_calls, 0);
	/* Per balance_dirty_pages call, as global_reads and bdi_reads are in bdp/. */
	if (res.bdp_calls) {
		double calls = (double)res.bdp_calls;

		mmscale_counter_set(st, "global_reads", (double)res.global_reads / calls, 0);
		mmscale_counter_set(st, "bdi_reads", (double)res.bdi_reads / calls, 0);
		mmscale_counter_set(st, "percpu_sum_slots", (double)res.bdi_sum_slots / calls, 0);
	}
}

static int64_t one_run(const struct mmscale_run *run)
{
	(void)run;
	return 1;
}

#define X(name_, dd, mib, ratio) {					\
	.name = "throttle/" name_,					\
	.summary = "the throttling loop in virtual time: 10 disks, " #dd " dd each, " \
		   "the variant's balance_dirty_pages deciding every pause", \
	.body = throttle_body,						\
	.threads = MMSCALE_THREADS_ONE,					\
	.manual_time = true,						\
	.virtual_time = true,						\
	.iterations = one_run,						\
	MMSCALE_VARIANT_ROWS(iol_variants),				\
	MMSCALE_METRICS(throttle_metrics),				\
},
static const struct mmscale_case throttle_cases[] = {
	THROTTLE_SCENARIOS(X)
};
#undef X

const struct mmscale_case_table mmscale_throttle_table =
	MMSCALE_CASE_TABLE("throttle", throttle_cases);
