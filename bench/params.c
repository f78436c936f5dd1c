// SPDX-License-Identifier: GPL-2.0
/* Emulation parameters and their declarative option table. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "mmscale/doorbell.h"
#include "mmscale/harness.h"
#include "mmscale/json.h"
#include "mmscale/notice.h"
#include "mmscale/params.h"

struct mmscale_params mmscale_params = MMSCALE_PARAMS_DEFAULTS;

/* --counter-layout's words, indexed by its enum. */
static const char *const counter_layout_words[] = {
	[MMSCALE_LAYOUT_PACKED] = "packed", [MMSCALE_LAYOUT_PADDED] = "padded",
};

const char *mmscale_ipi_name(const struct doorbell_ops *ops)
{
	const struct mmscale_doorbell *row = mmscale_doorbell_of(ops);

	return row ? row->name : "auto";
}

const char *mmscale_smp_model_name(const struct smp_generation *gen)
{
	return gen ? gen->name : "auto";
}

static int parse_size(const char *s, uint64_t *out)
{
	char *end;
	unsigned long long v;
	int shift = 0;

	/* strtoull skips white space and takes a sign: " -1" would wrap to 2^64-1. */
	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (end == s || errno)
		return -1;
	switch (*end) {
	case 'K': case 'k': shift = 10; end++; break;
	case 'M': case 'm': shift = 20; end++; break;
	case 'G': case 'g': shift = 30; end++; break;
	case 'T': case 't': shift = 40; end++; break;
	case '\0': break;
	default: return -1;
	}
	if (*end == 'i' && end[1] == 'B')
		end += 2;
	else if (*end == 'B')
		end++;
	if (*end || v == 0 || v > (~0ULL >> shift))
		return -1;
	*out = (uint64_t)v << shift;
	return 0;
}

/* A decimal number, lo to hi. */
static int parse_number(const char *s, long long lo, long long hi, long long *out)
{
	char *end;
	long long v;

	if (*s < '0' || *s > '9')	/* strtoll takes " -1" */
		return -1;
	errno = 0;
	v = strtoll(s, &end, 10);
	if (end == s || *end || errno || v < lo || v > hi)
		return -1;
	*out = v;
	return 0;
}

static int parse_uint(const char *s, unsigned int lo, unsigned int hi, unsigned int *out)
{
	long long v;

	if (parse_number(s, lo, hi, &v) != 0)
		return -1;
	*out = (unsigned int)v;
	return 0;
}

/* path is a writable directory, or does not exist and its parent is one. */
static bool writable_dir_or_parent(const char *path)
{
	struct stat st;
	char parent[4096];
	const char *slash;
	size_t len;

	if (stat(path, &st) == 0)
		return S_ISDIR(st.st_mode) && access(path, W_OK | X_OK) == 0;
	if (errno != ENOENT)
		return false;
	slash = strrchr(path, '/');
	if (!slash)
		return access(".", W_OK | X_OK) == 0;
	len = slash == path ? 1 : (size_t)(slash - path);
	if (len >= sizeof(parent))
		return false;
	memcpy(parent, path, len);
	parent[len] = '\0';
	return stat(parent, &st) == 0 && S_ISDIR(st.st_mode) && access(parent, W_OK | X_OK) == 0;
}

static const char *value_of(const char *arg, const char *name)
{
	size_t len = strlen(name);

	return strncmp(arg, name, len) == 0 && arg[len] == '=' ? arg + len + 1 : NULL;
}

/*
 * --set NAME=VALUE: the kernel's numbers that design discussions argue
 * about, by the kernel's names, each auto (what the kernel computes or
 * defaults to) or a number in its range. Names and ranges come from the
 * one list, mm/config.h's MM_KNOBS; here, what --help says of each, keyed
 * by its enum (a test checks that every knob has its row).
 */
#define DIRTY_GENERATIONS "2.6.31, 3.1, 3.2, 6.18"
const struct mmscale_knob_help mmscale_knob_help[MM_NR_KNOBS] = {
	[MM_KNOB_STAT_THRESHOLD] = { "2.6.31, 6.18",
	  "every zone's (6.18: and node's) per-CPU vmstat threshold, and throttle/'s "
	  "world's: a CPU's s8 delta "
	  "folds into the shared counters once it passes it (0: every update folds). "
	  "auto: calculate_threshold / calculate_normal_threshold, 2 x fls(online CPUs) x "
	  "(1 + fls(zone size / 128 MiB)), at most 125; above 125 an s8 increment can wrap "
	  "(2.6.31's __inc_zone_state at 127 never folds)", NULL },
	[MM_KNOB_PERCPU_COUNTER_BATCH] = { "2.6.31, 6.18",
	  "the batch of percpu_counter_add (percpu/ and rss/ rows, 2.6.31's proportions "
	  "in dirty/, 6.18's in throttle/): a CPU's s32 delta folds "
	  "into fbc->count under fbc->lock once it reaches it (0 or 1: every add folds). "
	  "auto: compute_batch_value, max(32, 2 x online CPUs)", NULL },
	[MM_KNOB_BDI_STAT_BATCH] = { "2.6.31, 3.1, 3.2, 6.18 (WB_STAT_BATCH)",
	  "the batch of the per-bdi (6.18: per-wb) dirty and writeback percpu_counters in "
	  "bdp/, bdp_throttled/, dirty/ and throttle/ (0 or 1: every add folds); "
	  "bdi_stat_error (wb_stat_error) is nr_cpu_ids x it, and balance_dirty_pages sums "
	  "both counters over every CPU, under their locks, where the bdi's threshold is "
	  "under twice that. auto: the macro, 8 x (1 + ilog2(nr_cpu_ids))", NULL },
	/*
	 * The dirty sysctls: auto is what each case writes (mm/config.h);
	 * a ratio and its bytes cannot both be set, since writing either
	 * zeroes the other (exclusive_knobs).
	 */
	[MM_KNOB_DIRTY_RATIO] = { DIRTY_GENERATIONS,
	  "vm.dirty_ratio: the dirty limit in percent of the dirtyable memory; written as "
	  "its handler writes it, so it zeroes dirty_bytes if it differs from the ratio the "
	  "case had (in the IO-less, 6.18 and throttle/ thresh= set-ups, 0). auto: the case's "
	  "(20, or its own)",
	  "20 in the 2.6.31 rows, 0 in the IO-less and 6.18 benches, each scenario's in "
	  "throttle/ (20, or 0 where it sets thresh=)" },
	[MM_KNOB_DIRTY_BACKGROUND_RATIO] = { DIRTY_GENERATIONS,
	  "vm.dirty_background_ratio: where background writeback starts, in percent; zeroes "
	  "dirty_background_bytes. auto: the case's (10)", "10 in every case" },
	[MM_KNOB_DIRTY_BYTES] = { DIRTY_GENERATIONS,
	  "vm.dirty_bytes: the dirty limit in bytes (at least 2 pages); zeroes dirty_ratio if "
	  "it differs from the bytes the case had. auto: the case's (0: the ratio; the "
	  "IO-less and 6.18 benches 100 MiB; a throttle/ scenario its thresh=)", NULL },
	[MM_KNOB_DIRTY_BACKGROUND_BYTES] = { DIRTY_GENERATIONS,
	  "vm.dirty_background_bytes: where background writeback starts, in bytes; zeroes "
	  "dirty_background_ratio. auto: the case's (0: the ratio)", "0 in every case" },
	[MM_KNOB_RATELIMIT_PAGES] = { DIRTY_GENERATIONS,
	  "the pages a CPU dirties between balance_dirty_pages calls (2.6.31, 3.1: its "
	  "ratelimit; 3.2, 6.18: beside each task's own nr_dirtied_pause), in dirty/ and "
	  "throttle/ (0: every dirtied page calls). The kernel has no sysctl for it: the "
	  "emulation sets it where writeback_set_ratelimit computes it. auto: 2.6.31, 3.1: "
	  "memory / (online CPUs x 32), 16 pages to 4 MiB; 3.2, 6.18: the dirty threshold / "
	  "(online CPUs x 32), at least 16", NULL },
	[MM_KNOB_PERCPU_PAGELIST_FRACTION] = { "2.6.32 to 3.4 (drain/)",
	  "vm.percpu_pagelist_fraction: every pageset's high is the zone's present pages over "
	  "it and its batch a quarter of that, at most 96 (setup_pagelist_highmark, as the "
	  "sysctl's handler writes it). auto: never written: high 6 x batch, batch from "
	  "zone_batchsize", "not written: high 6 x batch, batch from zone_batchsize" },
	[MM_KNOB_PERCPU_PAGELIST_HIGH_FRACTION] = { "6.1, 6.18 (drain/, pcp/)",
	  "vm.percpu_pagelist_high_fraction: zone_highsize takes the zone's managed pages over "
	  "it, split over its node's CPUs, instead of the low watermark; in 6.18 a nonzero "
	  "one also stops the auto-tuning (high_min = high_max). 0 or 8 and up. auto: 0",
	  "0: high from the low watermark (6.18: tuned between it and the share at fraction 8)" },
	[MM_KNOB_NUMA_STAT] = { "6.1, 6.18 (drain/, vmstat/numa_event)",
	  "vm.numa_stat: whether an allocation's zone_statistics counts its NUMA events "
	  "(NUMA_HIT, NUMA_LOCAL, ...) on the CPU's zonestats; the reads of them still sum "
	  "every CPU (vmstat/numa_event), of counters that stay 0. auto: 1",
	  "1: NUMA events counted" },
	[MM_KNOB_PCP_BATCH] = { "2.6.32 to 6.18 (drain/, pcp/)",
	  "every pageset's batch: what a refill takes from the buddy and a free gives back, "
	  "under zone->lock. No kernel has it as a knob: the emulation sets it where the "
	  "pagesets are set up. auto: zone_batchsize, about 0.1% of the zone (at most 512 "
	  "KiB in 2.6.x, 1 MiB in 6.1 and 6.18), as 2^n - 1", "zone_batchsize's, per zone" },
	[MM_KNOB_PCP_HIGH] = { "2.6.32 to 6.18 (drain/, pcp/)",
	  "every pageset's high (6.18: high_min), the count at which a free gives pages back. "
	  "No kernel knob. auto: 6 x batch (2.6.x), zone_highsize (6.1, 6.18: the low "
	  "watermark's share of the node's CPUs, at least 4 x batch)",
	  "6 x batch (2.6.x), zone_highsize's (6.1; 6.18's high_min)" },
	[MM_KNOB_PCP_HIGH_MAX] = { "6.18 (drain/, pcp/)",
	  "every 6.18 pageset's high_max, up to which high is tuned (equal to high_min: no "
	  "tuning); below pcp_high a set-up fails. No kernel knob. auto: zone_highsize at "
	  "fraction 8", "zone_highsize's at fraction 8" },
};

/* Knobs that cannot both be set: writing either sysctl zeroes the other. */
static const enum mm_knob exclusive_knobs[][2] = {
	{ MM_KNOB_DIRTY_RATIO, MM_KNOB_DIRTY_BYTES },
	{ MM_KNOB_DIRTY_BACKGROUND_RATIO, MM_KNOB_DIRTY_BACKGROUND_BYTES },
};

/* The knob set with `knob` that excludes it, or MM_NR_KNOBS if none is. */
static enum mm_knob excluding_knob(enum mm_knob knob)
{
	for (size_t i = 0; i < ARRAY_SIZE(exclusive_knobs); i++)
		for (int side = 0; side < 2; side++) {
			enum mm_knob other = exclusive_knobs[i][!side];

			if (exclusive_knobs[i][side] == knob &&
			    mmscale_params.knob[other] != MM_KNOB_AUTO)
				return other;
		}
	return MM_NR_KNOBS;
}

static int parse_knob(const char *nv, char *err, size_t errlen)
{
	const char *eq = strchr(nv, '=');
	size_t len = eq ? (size_t)(eq - nv) : strlen(nv);
	char names[512] = "";
	size_t n = 0;

	for (int i = 0; i < MM_NR_KNOBS; i++) {
		const struct mm_knob_range *k = &mm_knob_ranges[i];
		long long *value = &mmscale_params.knob[i];
		enum mm_knob other;

		if (strlen(k->name) != len || strncmp(nv, k->name, len) != 0)
			continue;
		if (!eq)
			return mmscale_errorf(err, errlen, "--set: '%s' has no value (NAME=VALUE)",
					      nv);
		if (strcmp(eq + 1, "auto") == 0) {
			*value = MM_KNOB_AUTO;
			return 1;
		}
		if ((other = excluding_knob((enum mm_knob)i)) != MM_NR_KNOBS)
			return mmscale_errorf(err, errlen, "--set: %s and %s exclude each other "
					      "(writing either sysctl zeroes the other): set one",
					      mm_knob_ranges[other].name, k->name);
		if (parse_number(eq + 1, k->lo, k->hi, value) != 0 ||
		    (k->nonzero_lo && *value && *value < k->nonzero_lo)) {
			*value = MM_KNOB_AUTO;
			if (k->nonzero_lo)
				return mmscale_errorf(err, errlen, "--set: %s '%s' is not auto, 0 or "
						      "%lld to %lld", k->name, eq + 1,
						      k->nonzero_lo, k->hi);
			return mmscale_errorf(err, errlen, "--set: %s '%s' is not auto or %lld to %lld",
					      k->name, eq + 1, k->lo, k->hi);
		}
		return 1;
	}
	for (int i = 0; i < MM_NR_KNOBS && n < sizeof(names); i++)
		n += (size_t)snprintf(names + n, sizeof(names) - n, "%s%s", i ? ", " : "",
				      mm_knob_ranges[i].name);
	return mmscale_errorf(err, errlen, "--set: '%.*s' is not a knob (%s)", (int)len, nv, names);
}

const char *mmscale_knob_text(long long value, char *buf, size_t len)
{
	if (value == MM_KNOB_AUTO)
		return "auto";
	snprintf(buf, len, "%lld", value);
	return buf;
}

void mmscale_knob_json(struct mmscale_json *j, const char *key, long long value)
{
	if (value == MM_KNOB_AUTO)
		mmscale_json_str(j, key, "auto");
	else
		mmscale_json_int(j, key, value);
}

const char *mmscale_knob_value(enum mm_knob knob, char *buf, size_t len)
{
	return mmscale_knob_text(mmscale_params.knob[knob], buf, len);
}

void mmscale_knobs_context(char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	for (int i = 0; i < MM_NR_KNOBS && n < len; i++) {
		char v[24];

		n += (size_t)snprintf(buf + n, len - n, "%s%s=%s", i ? " " : "",
				      mm_knob_ranges[i].name,
				      mmscale_knob_value((enum mm_knob)i, v, sizeof(v)));
	}
}

const char *mmscale_knob_auto(enum mm_knob knob, char *buf, size_t len)
{
	for (size_t t = 0; t < mmscale_nr_case_tables; t++) {
		const struct mmscale_case_table *tab = mmscale_case_tables[t];

		for (size_t i = 0; i < tab->nr_knob_autos; i++)
			if (tab->knob_autos[i].knob == knob) {
				tab->knob_autos[i].resolve(buf, len);
				return buf;
			}
	}
	return mmscale_knob_help[knob].auto_text;
}

/* What auto resolves to, or says that nothing resolves it. */
static const char *knob_auto(enum mm_knob knob, char *buf, size_t len)
{
	const char *text = mmscale_knob_auto(knob, buf, len);

	return text ? text : "not resolved: no case resolves it";
}

void mmscale_knobs_auto_context(char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	for (int i = 0; i < MM_NR_KNOBS && n < len; i++) {
		char resolved[256];

		n += (size_t)snprintf(buf + n, len - n, "%s%s: %s", i ? "; " : "",
				      mm_knob_ranges[i].name,
				      knob_auto((enum mm_knob)i, resolved, sizeof(resolved)));
	}
}

void mmscale_knobs_describe(FILE *out)
{
	fputs("knobs (--set NAME=VALUE; auto: what the kernel computes, here with every planned "
	      "CPU online):\n", out);
	for (int i = 0; i < MM_NR_KNOBS; i++) {
		char v[24], resolved[256];

		fprintf(out, "  %-29s %-6s auto = %s (%s)\n", mm_knob_ranges[i].name,
			mmscale_knob_value((enum mm_knob)i, v, sizeof(v)),
			knob_auto((enum mm_knob)i, resolved, sizeof(resolved)),
			mmscale_knob_help[i].generations);
	}
}

void mmscale_knobs_describe_json(struct mmscale_json *j)
{
	mmscale_json_array(j, "knobs");
	for (int i = 0; i < MM_NR_KNOBS; i++) {
		const struct mm_knob_range *k = &mm_knob_ranges[i];
		char resolved[256];

		mmscale_json_object(j, NULL);
		mmscale_json_str(j, "name", k->name);
		mmscale_knob_json(j, "value", mmscale_params.knob[i]);
		mmscale_json_int(j, "min", k->lo);
		mmscale_json_int(j, "max", k->hi);
		mmscale_json_str(j, "generations", mmscale_knob_help[i].generations);
		/* "not resolved: <why>" may quote */
		mmscale_json_str(j, "auto", knob_auto((enum mm_knob)i, resolved, sizeof(resolved)));
		mmscale_json_end(j);
	}
	mmscale_json_end(j);
}

/* The flags that take a whole number in a range: one row each. */
static const struct uint_flag {
	const char *name;
	unsigned int lo, hi;
	unsigned int *value;
	const char *range;	/* what the error says it is not */
} uint_flags[] = {
	{ "--congestion-wait-us", 0, 1000000, &mmscale_params.congestion_wait_us,
	  "0 to 1000000" },
	{ "--vmstat-interval-ms", 1, 3600000, &mmscale_params.vmstat_interval_ms,
	  "1 to 3600000" },
	{ "--throttle-seconds", 1, 3600, &mmscale_params.throttle_seconds, "1 to 3600" },
	{ "--throttle-cpus", 1, 4096, &mmscale_params.throttle_cpus, "1 to 4096" },
	{ "--ipi-timeout-ms", 1, 3600000, &mmscale_params.ipi_timeout_ms, "1 to 3600000" },
	{ "--device-pages-per-ms", 1, 100000000, &mmscale_params.device_pages_per_ms,
	  "1 to 100000000" },
	/* Test only (not in --help): make an emulated CPU never answer a call. */
	{ "--test-stuck-cpu", 1, 1000000, &mmscale_params.stuck_cpu, "a CPU number from 1" },
	/* Test only (not in --help): test/work's units per operation (scripts/ab's sensitivity). */
	{ "--test-work", 1, 1000000, &mmscale_params.test_work, "1 to 1000000" },
	/* Test only (not in --help): test/claim's reads per operation, against its claim of 1. */
	{ "--test-claim-reads", 0, 1000, &mmscale_params.test_claim_reads, "0 to 1000" },
};

/*
 * The flags that take one of a few words: one row each, its words from the
 * table behind it (the doorbells, the kernel/smp.c generations), word(i)
 * the i-th (NULL past the last) and set(i) taking it.
 */
static const char *layout_word(unsigned int i)
{
	return i < ARRAY_SIZE(counter_layout_words) ? counter_layout_words[i] : NULL;
}

static void set_layout(unsigned int i)
{
	mmscale_params.counter_layout = (enum mmscale_counter_layout)i;
}

/* --swap and --throttle-percpu-error: yes or no. */
static const char *swap_word(unsigned int i)
{
	static const char *const words[] = { "yes", "no" };

	return i < ARRAY_SIZE(words) ? words[i] : NULL;
}

static void set_swap(unsigned int i)
{
	mmscale_params.swap = i == 0;
}

static void set_throttle_percpu_error(unsigned int i)
{
	mmscale_params.throttle_percpu_error = i == 0;
}

static const char *claims_word(unsigned int i)
{
	static const char *const words[] = { "check", "report" };

	return i < ARRAY_SIZE(words) ? words[i] : NULL;
}

static void set_claims(unsigned int i)
{
	mmscale_params.claims_report = i == 1;
}

/* --ipi takes a doorbell's name; auto, the default, only by leaving the flag out. */
static const char *ipi_word(unsigned int i)
{
	return i < mmscale_nr_doorbells ? mmscale_doorbells[i].name : NULL;
}

static void set_ipi(unsigned int i)
{
	mmscale_params.ipi = mmscale_doorbells[i].ops;
}

static const char *smp_model_word(unsigned int i)
{
	if (i == 0)
		return "auto";
	return i - 1 < smp_nr_generations ? smp_generations[i - 1]->name : NULL;
}

static void set_smp_model(unsigned int i)
{
	mmscale_params.smp_model = i ? smp_generations[i - 1] : NULL;
}

static const struct word_flag {
	const char *name;
	const char *(*word)(unsigned int i);
	void (*set)(unsigned int i);
} word_flags[] = {
	{ "--counter-layout", layout_word, set_layout },
	{ "--swap", swap_word, set_swap },
	{ "--throttle-percpu-error", swap_word, set_throttle_percpu_error },
	{ "--ipi", ipi_word, set_ipi },
	{ "--smp-model", smp_model_word, set_smp_model },
	{ "--claims", claims_word, set_claims },
};

/* "--ipi: 'x' is not spin, futex, signal or kernel": the words the flag takes, from its table. */
static int word_flag_error(const struct word_flag *f, const char *v, char *err, size_t errlen)
{
	char choices[256] = "";
	size_t len = 0;

	for (unsigned int w = 0; f->word(w) && len < sizeof(choices); w++)
		len += (size_t)snprintf(choices + len, sizeof(choices) - len, "%s%s",
					w == 0 ? "" : !f->word(w + 1) ? " or " : ", ",
					f->word(w));
	return mmscale_errorf(err, errlen, "%s: '%s' is not %s", f->name, v, choices);
}

int mmscale_params_parse(const char *arg, char *err, size_t errlen)
{
	const char *v;

	for (size_t i = 0; i < sizeof(uint_flags) / sizeof(uint_flags[0]); i++) {
		const struct uint_flag *f = &uint_flags[i];

		if (!(v = value_of(arg, f->name)))
			continue;
		if (parse_uint(v, f->lo, f->hi, f->value) != 0)
			return mmscale_errorf(err, errlen, "%s: '%s' is not %s", f->name, v,
					      f->range);
		return 1;
	}

	if ((v = value_of(arg, "--set")))
		return parse_knob(v, err, errlen);
	if ((v = value_of(arg, "--mem"))) {
		if (parse_size(v, &mmscale_params.mem_bytes) != 0 ||
		    mmscale_params.mem_bytes < (64ULL << 20))
			return mmscale_errorf(err, errlen,
				"--mem: '%s' is not a memory size of at least 64M (example: 3G)", v);
		return 1;
	}
	if ((v = value_of(arg, "--throttle-trace"))) {
		if (!*v)
			return mmscale_errorf(err, errlen, "--throttle-trace: give a directory");
		if (!writable_dir_or_parent(v))
			return mmscale_errorf(err, errlen,
				"--throttle-trace: '%s' is not a writable directory, nor one that can "
				"be made in a writable directory", v);
		mmscale_params.throttle_trace = v;
		return 1;
	}
	for (size_t i = 0; i < sizeof(word_flags) / sizeof(word_flags[0]); i++) {
		const struct word_flag *f = &word_flags[i];
		unsigned int w;

		if (!(v = value_of(arg, f->name)))
			continue;
		for (w = 0; f->word(w); w++)
			if (strcmp(v, f->word(w)) == 0)
				break;
		if (!f->word(w))
			return word_flag_error(f, v, err, errlen);
		f->set(w);
		return 1;
	}
	/*
	 * Test only (not in --help): a fault to catch - drain/swap_cpuset's CPU 0
	 * never frees one page, so the page-conservation check after the run
	 * fails; and the test/ cases (the PAPI path through a software event).
	 */
	if (strcmp(arg, "--test-leak-page") == 0) {
		mmscale_params.leak_page = true;
		return 1;
	}
	if (strcmp(arg, "--test-cases") == 0) {
		mmscale_params.test_cases = true;
		return 1;
	}
	return 0;
}

void mmscale_mm_config(struct mm_machine_config *cfg)
{
	mm_config_default(cfg, mmscale_params.mem_bytes);
	cfg->counter_layout = mmscale_params.counter_layout;
	cfg->congestion_wait_us = mmscale_params.congestion_wait_us;
	cfg->device_pages_per_ms = mmscale_params.device_pages_per_ms;
	cfg->swap = mmscale_params.swap;
	memcpy(cfg->knob, mmscale_params.knob, sizeof(cfg->knob));
	mm_config_set_vmstat_interval(cfg, mmscale_params.vmstat_interval_ms);
}

void mmscale_params_describe(char *buf, size_t len)
{
	char cpus[40] = "", knobs[512];
	struct mm_machine_config mm;

	mmscale_mm_config(&mm);
	if (mmscale_params.throttle_cpus)
		snprintf(cpus, sizeof(cpus), " throttle_cpus=%u", mmscale_params.throttle_cpus);
	knobs[0] = ' ';
	mmscale_knobs_context(knobs + 1, sizeof(knobs) - 1);
	snprintf(buf, len, "mem=%lluMiB swap=%s counter_layout=%s congestion_wait=%uus "
		 "vmstat_interval=%ums (dirty/: %lluus) device=%upages/ms "
		 "ipi=%s ipi_timeout=%ums smp_model=%s throttle=%us throttle_percpu_error=%s%s%s",
		 (unsigned long long)(mmscale_params.mem_bytes >> 20),
		 mmscale_params.swap ? "yes" : "no", counter_layout_words[mmscale_params.counter_layout],
		 mmscale_params.congestion_wait_us, mmscale_params.vmstat_interval_ms,
		 (unsigned long long)(mm.vmstat_interval_scaled_ns / 1000u),
		 mmscale_params.device_pages_per_ms,
		 mmscale_ipi_name(mmscale_params.ipi), mmscale_params.ipi_timeout_ms,
		 mmscale_smp_model_name(mmscale_params.smp_model), mmscale_params.throttle_seconds,
		 mmscale_params.throttle_percpu_error ? "yes" : "no", cpus, knobs);
}

void mmscale_params_describe_default(char *buf, size_t len)
{
	struct mmscale_params given = mmscale_params;

	/* mmscale_params_describe reads mmscale_params: describe the defaults in its place. */
	mmscale_params = (struct mmscale_params)MMSCALE_PARAMS_DEFAULTS;
	mmscale_params_describe(buf, len);
	mmscale_params = given;
}
