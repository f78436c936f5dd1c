// SPDX-License-Identifier: GPL-2.0
/*
 * The real machine's settings that decide many of the numbers on a shared
 * server, read from where the kernel shows them, for every result's
 * context: the vm sysctls the emulated paths depend on (dirty limits,
 * percpu_pagelist_high_fraction, stat_interval, zone_reclaim_mode,
 * overcommit), transparent hugepages, the CPU frequency governor and
 * boost of the PUs this run may use, SMT, isolated and nohz_full CPUs, and the
 * kernel command line. Each item is "absent" where this machine has no
 * such file (a kernel without cpufreq, a VM without SMT control): never
 * guessed. (mmtests keeps the same beside every run: sysctl, cpupower,
 * the kernel command line; LKP prints them above its reports.)
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mmscale/gbench.h"
#include "mmscale/harness.h"
#include "mmscale/topology.h"

/* The vm sysctls a result depends on, in /proc/sys/vm. */
static const char *const vm_sysctls[] = {
	"dirty_ratio", "dirty_background_ratio", "dirty_bytes", "dirty_background_bytes",
	"dirty_expire_centisecs", "dirty_writeback_centisecs", "percpu_pagelist_high_fraction",
	"stat_interval", "zone_reclaim_mode", "overcommit_memory", "overcommit_ratio",
	"min_free_kbytes", "swappiness",
};

/* The first line of a file, trimmed, into buf; false (buf "absent") if unreadable. */
static bool read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	bool ok = f && fgets(buf, (int)len, f);

	if (f)
		fclose(f);
	if (!ok) {
		snprintf(buf, len, "absent");
		return false;
	}
	buf[strcspn(buf, "\n")] = '\0';
	return true;
}

/* "always [madvise] never" -> "madvise": the selected word of a sysfs choice. */
static void selected(char *s)
{
	char *open = strchr(s, '['), *close = open ? strchr(open, ']') : NULL;

	if (open && close) {
		memmove(s, open + 1, (size_t)(close - open - 1));
		s[close - open - 1] = '\0';
	}
}

/* Append "name=value" to buf (len total), space-separated. */
static void append(char *buf, size_t len, const char *name, const char *value)
{
	size_t used = strlen(buf);

	if (used < len)
		snprintf(buf + used, len - used, "%s%s=%s", used ? " " : "", name, value);
}

static void vm_settings(char *buf, size_t len)
{
	char path[128], value[64];

	buf[0] = '\0';
	for (size_t i = 0; i < sizeof(vm_sysctls) / sizeof(vm_sysctls[0]); i++) {
		snprintf(path, sizeof(path), "/proc/sys/vm/%s", vm_sysctls[i]);
		read_line(path, value, sizeof(value));
		append(buf, len, vm_sysctls[i], value);
	}
}

static void thp_settings(char *buf, size_t len)
{
	char value[128];

	buf[0] = '\0';
	read_line("/sys/kernel/mm/transparent_hugepage/enabled", value, sizeof(value));
	selected(value);
	append(buf, len, "enabled", value);
	read_line("/sys/kernel/mm/transparent_hugepage/defrag", value, sizeof(value));
	selected(value);
	append(buf, len, "defrag", value);
}

/*
 * The governors of the PUs this run may use ("performance", or
 * "powersave:2,performance:30" where they differ), and boost (the cpufreq boost
 * switch, or intel_pstate's no_turbo turned round).
 */
static void cpufreq_settings(const struct mmscale_topology *t, char *buf, size_t len)
{
	char names[8][64], path[128], value[64];
	int counts[8] = { 0 }, kinds = 0, absent = 0;

	buf[0] = '\0';
	for (int i = 0; i < t->nr_real_pus; i++) {
		int k;

		snprintf(path, sizeof(path),
			 "/sys/devices/system/cpu/cpu%d/cpufreq/scaling_governor", t->real_pus[i]);
		if (!read_line(path, value, sizeof(value))) {
			absent++;
			continue;
		}
		for (k = 0; k < kinds && strcmp(names[k], value) != 0; k++)
			;
		if (k == kinds && kinds < 8)
			snprintf(names[kinds++], sizeof(names[0]), "%s", value);
		if (k < kinds)
			counts[k]++;
	}
	if (!kinds) {
		append(buf, len, "governor", "absent");
	} else if (kinds == 1 && !absent) {
		append(buf, len, "governor", names[0]);
	} else {
		char list[256] = "";

		for (int k = 0; k < kinds; k++)
			snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%s:%d",
				 k ? "," : "", names[k], counts[k]);
		if (absent)
			snprintf(list + strlen(list), sizeof(list) - strlen(list), ",absent:%d",
				 absent);
		append(buf, len, "governor", list);
	}
	if (read_line("/sys/devices/system/cpu/cpufreq/boost", value, sizeof(value))) {
		append(buf, len, "boost", value);
	} else if (read_line("/sys/devices/system/cpu/intel_pstate/no_turbo", value,
			     sizeof(value))) {
		append(buf, len, "boost", strcmp(value, "0") == 0 ? "1" : "0");
	} else {
		append(buf, len, "boost", "absent");
	}
}

static void cpu_settings(char *buf, size_t len)
{
	char value[256];

	buf[0] = '\0';
	read_line("/sys/devices/system/cpu/smt/control", value, sizeof(value));
	append(buf, len, "smt", value);
	read_line("/sys/devices/system/cpu/smt/active", value, sizeof(value));
	append(buf, len, "smt_active", value);
	if (read_line("/sys/devices/system/cpu/isolated", value, sizeof(value)) && !*value)
		snprintf(value, sizeof(value), "none");
	append(buf, len, "isolated", value);
	if (read_line("/sys/devices/system/cpu/nohz_full", value, sizeof(value)) &&
	    (!*value || strcmp(value, "(null)") == 0))
		snprintf(value, sizeof(value), "none");
	append(buf, len, "nohz_full", value);
}

void mmscale_machine_settings_add_context(const struct mmscale_plan *p)
{
	char buf[2048];

	vm_settings(buf, sizeof(buf));
	mmscale_gbench_add_context("mmscale_sysctl_vm", buf);
	thp_settings(buf, sizeof(buf));
	mmscale_gbench_add_context("mmscale_thp", buf);
	cpufreq_settings(p->topo, buf, sizeof(buf));
	mmscale_gbench_add_context("mmscale_cpufreq", buf);
	cpu_settings(buf, sizeof(buf));
	mmscale_gbench_add_context("mmscale_cpus_state", buf);
	read_line("/proc/cmdline", buf, sizeof(buf));
	mmscale_gbench_add_context("mmscale_cmdline", buf);
}
