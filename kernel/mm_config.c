// SPDX-License-Identifier: GPL-2.0
/*
 * The emulated machine's configuration (include/mmscale/mm/config.h), which
 * every kernel generation reads: the knobs' names and ranges, the running
 * configuration, its defaults, and the dirty sysctls' --set writes.
 */
#include <string.h>

#include "mmscale/mm/config.h"

/* The knobs' names and ranges, from their one list (mm/config.h). */
#define MM_KNOB_RANGE(id, field, knob_name, low, high, nonzero_low)		\
	[MM_KNOB_##id] = { .name = knob_name, .lo = low, .hi = high, .nonzero_lo = nonzero_low },
const struct mm_knob_range mm_knob_ranges[MM_NR_KNOBS] = { MM_KNOBS(MM_KNOB_RANGE) };

/* The running machine's parameters (mm_machine_setup_config keeps a copy). */
/* Before any setup (6.18's worlds refresh thresholds on their own): every knob auto. */
struct mm_machine_config mm_running_config = { .knob = MM_KNOBS_ALL_AUTO };

void mm_config_set_vmstat_interval(struct mm_machine_config *cfg, unsigned int interval_ms)
{
	cfg->vmstat_interval_ns = (u64)interval_ms * 1000000u;
	/* HZ/10 = 100000 us in the kernel; at least 1 us so the period never vanishes. */
	cfg->vmstat_interval_scaled_ns = cfg->vmstat_interval_ns * cfg->congestion_wait_us / 100000u;
	if (!cfg->vmstat_interval_scaled_ns)
		cfg->vmstat_interval_scaled_ns = 1000u;
}

void mm_config_default(struct mm_machine_config *cfg, uint64_t mem_bytes)
{
	*cfg = (struct mm_machine_config){
		.mem_bytes = mem_bytes,
		.counter_layout = MMSCALE_LAYOUT_PACKED,
		.congestion_wait_us = MM_DEFAULT_CONGESTION_WAIT_US,
		.device_pages_per_ms = MM_DEFAULT_DEVICE_PAGES_PER_MS,
		.swap = MM_DEFAULT_SWAP,
		.knob = MM_KNOBS_ALL_AUTO,
	};
	mm_config_set_vmstat_interval(cfg, MM_DEFAULT_VMSTAT_INTERVAL_MS);
}

void mm_config_set_knobs(const struct mm_machine_config *cfg)
{
	memcpy(mm_running_config.knob, cfg->knob, sizeof(mm_running_config.knob));
}

bool mm_dirty_sysctls_write(int *dirty_ratio, unsigned long *dirty_bytes,
			    int *dirty_background_ratio, unsigned long *dirty_background_bytes)
{
	const struct mm_machine_config *c = mm_config();
	bool wrote = false;

	/* mmscale: --set dirty_background_ratio=N (dirty_background_ratio_handler). */
	if (c->sysctl_dirty_background_ratio != MM_KNOB_AUTO) {
		*dirty_background_ratio = (int)c->sysctl_dirty_background_ratio;
		*dirty_background_bytes = 0;
		wrote = true;
	}
	/* mmscale: --set dirty_background_bytes=N (dirty_background_bytes_handler). */
	if (c->sysctl_dirty_background_bytes != MM_KNOB_AUTO) {
		*dirty_background_bytes = (unsigned long)c->sysctl_dirty_background_bytes;
		*dirty_background_ratio = 0;
		wrote = true;
	}
	/* mmscale: --set dirty_ratio=N (dirty_ratio_handler: zeroes the bytes if it changed). */
	if (c->sysctl_dirty_ratio != MM_KNOB_AUTO) {
		int old_ratio = *dirty_ratio;

		*dirty_ratio = (int)c->sysctl_dirty_ratio;
		if (*dirty_ratio != old_ratio)
			*dirty_bytes = 0;
		wrote = true;
	}
	/* mmscale: --set dirty_bytes=N (dirty_bytes_handler: zeroes the ratio if it changed). */
	if (c->sysctl_dirty_bytes != MM_KNOB_AUTO) {
		unsigned long old_bytes = *dirty_bytes;

		*dirty_bytes = (unsigned long)c->sysctl_dirty_bytes;
		if (*dirty_bytes != old_bytes)
			*dirty_ratio = 0;
		wrote = true;
	}
	return wrote;
}
