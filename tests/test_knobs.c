// SPDX-License-Identifier: GPL-2.0
/*
 * Every --set knob, generically, from its one list (mm/config.h's
 * MM_KNOBS): that it has its help row and an auto that says what it is
 * (a case table's resolver, or the row's text, never both); that it starts
 * auto everywhere (the flags, the running kernel, a default config); and
 * that a distinct value given to --set reaches the kernel along every path
 * a case takes: the flags (mmscale_params_parse), the run's config
 * (mmscale_mm_config), the running parameters the emulated kernel code
 * reads (mm_config_set_knobs, mm_machine_setup_config), by index and by
 * the field name the kernel code uses. Nothing here names a knob: a row
 * added to MM_KNOBS is checked without an edit, and deleting any line of
 * a knob's path fails here (or does not compile).
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "test_machine.h"
#include "mmscale/case.h"
#include "mmscale/harness.h"
#include "mmscale/linux-2.6/mm/mmzone.h"
#include "mmscale/params.h"

/* A distinct value in knob's range for the index-th knob: lo + 2 + index, kept in range. */
static long long distinct_value(int knob)
{
	const struct mm_knob_range *k = &mm_knob_ranges[knob];
	long long v = k->lo + 2 + knob;

	if (k->nonzero_lo && v < k->nonzero_lo)
		v = k->nonzero_lo + knob;
	return v > k->hi ? k->hi : v;
}

static void check_rows(void)
{
	for (int i = 0; i < MM_NR_KNOBS; i++) {
		const struct mmscale_knob_help *h = &mmscale_knob_help[i];
		char buf[256];
		const char *resolved;
		int resolvers = 0;

		printf("knob %s: help row, one auto\n", mm_knob_ranges[i].name);
		CHECK(mm_knob_ranges[i].name != NULL);
		CHECK(mm_knob_ranges[i].lo <= mm_knob_ranges[i].hi);
		CHECK(h->generations != NULL && h->generations[0]);
		CHECK(h->summary != NULL && h->summary[0]);
		for (int j = 0; j < i; j++)
			CHECK(strcmp(mm_knob_ranges[i].name, mm_knob_ranges[j].name) != 0);
		for (size_t t = 0; t < mmscale_nr_case_tables; t++)
			for (size_t r = 0; r < mmscale_case_tables[t]->nr_knob_autos; r++)
				resolvers += (int)mmscale_case_tables[t]->knob_autos[r].knob == i;
		/* Either the machine resolves it (one case table says how), or the row says it. */
		CHECK_EQ_LL(resolvers + (h->auto_text != NULL), 1);
		resolved = mmscale_knob_auto((enum mm_knob)i, buf, sizeof(buf));
		CHECK(resolved != NULL && resolved[0]);
	}
}

/* Every knob auto: before any run, the flags, the running kernel, and a default config. */
static void check_all_auto(void)
{
	struct mm_machine_config cfg;

	mm_config_default(&cfg, MM_DEFAULT_MEM_BYTES);
	for (int i = 0; i < MM_NR_KNOBS; i++) {
		printf("knob %s: auto by default\n", mm_knob_ranges[i].name);
		CHECK_EQ_LL(mmscale_params.knob[i], MM_KNOB_AUTO);
		CHECK_EQ_LL(mm_config()->knob[i], MM_KNOB_AUTO);
		CHECK_EQ_LL(cfg.knob[i], MM_KNOB_AUTO);
	}
}

/*
 * The knobs that want[] marks set, each to its distinct value, through the
 * parser; the others auto. A knob that an earlier one excludes is left
 * auto and unmarked: the caller sets it in another round.
 */
static void parse_knobs(bool *set, bool reverse)
{
	for (int n = 0; n < MM_NR_KNOBS; n++) {
		int i = reverse ? MM_NR_KNOBS - 1 - n : n;
		char arg[128], err[256];
		int taken;

		snprintf(arg, sizeof(arg), "--set=%s=%lld", mm_knob_ranges[i].name,
			 distinct_value(i));
		taken = mmscale_params_parse(arg, err, sizeof(err));
		set[i] = taken == 1;
		if (taken != 1 && !strstr(err, "exclude")) {
			fprintf(stderr, "%s: %s\n", arg, err);
			CHECK(!"a knob's distinct value not taken");
		}
		if (set[i])
			CHECK_EQ_LL(mmscale_params.knob[i], distinct_value(i));
	}
}

/* What the kernel's code reads, by field name, is what --set asked for. */
static void check_fields(const char *where, const struct mm_machine_config *cfg, const bool *set)
{
#define CHECK_FIELD(id, field, name, lo, hi, nonzero_lo)				\
	CHECK_EQ_LL(cfg->field, set[MM_KNOB_##id] ? distinct_value(MM_KNOB_##id) : MM_KNOB_AUTO);
	printf("every knob %s\n", where);
	MM_KNOBS(CHECK_FIELD)
#undef CHECK_FIELD
	for (int i = 0; i < MM_NR_KNOBS; i++)
		CHECK_EQ_LL(cfg->knob[i], set[i] ? distinct_value(i) : MM_KNOB_AUTO);
}

static void check_round(bool reverse, bool *ever_set)
{
	struct mm_machine_config cfg, all_auto;
	bool set[MM_NR_KNOBS];
	char err[256];

	parse_knobs(set, reverse);
	for (int i = 0; i < MM_NR_KNOBS; i++)
		ever_set[i] |= set[i];
	mmscale_mm_config(&cfg);
	check_fields("in the run's config (mmscale_mm_config)", &cfg, set);

	mm_config_default(&all_auto, MM_DEFAULT_MEM_BYTES);
	mm_config_set_knobs(&cfg);
	check_fields("in the running kernel's (mm_config_set_knobs)", mm_config(), set);
	mm_config_set_knobs(&all_auto);

	if (mm_machine_setup_config(&cfg, err, sizeof(err)) != 0) {
		fprintf(stderr, "mm_machine_setup_config: %s\n", err);
		CHECK(!"set-up failed");
	} else {
		check_fields("in the running kernel's (mm_machine_setup_config)", mm_config(), set);
	}
	mm_machine_teardown();
	mm_config_set_knobs(&all_auto);
	for (int i = 0; i < MM_NR_KNOBS; i++)
		mmscale_params.knob[i] = MM_KNOB_AUTO;
}

static void run_tests(void)
{
	bool ever_set[MM_NR_KNOBS] = { false };

	check_rows();
	check_all_auto();
	/* Twice, the second time backwards: a knob another excludes is set in the other round. */
	check_round(false, ever_set);
	check_round(true, ever_set);
	for (int i = 0; i < MM_NR_KNOBS; i++) {
		printf("knob %s: set in a round\n", mm_knob_ranges[i].name);
		CHECK(ever_set[i]);
	}
}

int main(void)
{
	return test_machine_main("test_knobs", "synthetic:node:2 core:2 pu:1", run_tests);
}
