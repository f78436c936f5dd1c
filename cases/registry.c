// SPDX-License-Identifier: GPL-2.0
/*
 * Every module's case table. A new module adds one line here; a new case or
 * variant is a row in its module's table and needs nothing here.
 */
#include "mmscale/case.h"

extern const struct mmscale_case_table mmscale_c2c_table;
extern const struct mmscale_case_table mmscale_harness_table;
extern const struct mmscale_case_table mmscale_counters_table;
extern const struct mmscale_case_table mmscale_counters_6_18_table;
extern const struct mmscale_case_table mmscale_rss_table;
extern const struct mmscale_case_table mmscale_writeback_table;
extern const struct mmscale_case_table mmscale_drain_table;
extern const struct mmscale_case_table mmscale_pcp_6_18_table;
extern const struct mmscale_case_table mmscale_throttle_table;
extern const struct mmscale_case_table mmscale_test_table;

const struct mmscale_case_table *const mmscale_case_tables[] = {
	&mmscale_c2c_table,
	&mmscale_harness_table,
	&mmscale_counters_table,
	&mmscale_counters_6_18_table,
	&mmscale_rss_table,
	&mmscale_writeback_table,
	&mmscale_drain_table,
	&mmscale_pcp_6_18_table,
	&mmscale_throttle_table,
	&mmscale_test_table,
};

const size_t mmscale_nr_case_tables =
	sizeof(mmscale_case_tables) / sizeof(mmscale_case_tables[0]);
