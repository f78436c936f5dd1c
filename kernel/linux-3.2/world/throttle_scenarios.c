// SPDX-License-Identifier: GPL-2.0
/* The seed's 19 scenarios (include/mmscale/linux-3.2/world/throttle_scenarios.h) as data. */
#include "mmscale/linux-3.2/world/throttle.h"
#include "mmscale/linux-3.2/world/throttle_scenarios.h"

#define X(name_, dd, mib, ratio)					\
	{ .name = name_, .nr_disks = 10, .dd_per_disk = (dd), .nr_cpus = 16,	\
	  .mem_mib = 5895, .dirty_mib = (mib), .dirty_ratio = (ratio) },
const struct throttle_scenario throttle_scenarios[] = {
	THROTTLE_SCENARIOS(X)
};
#undef X

const size_t nr_throttle_scenarios = sizeof(throttle_scenarios) / sizeof(throttle_scenarios[0]);
