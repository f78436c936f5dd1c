// SPDX-License-Identifier: GPL-2.0
/*
 * The emulated 6.18 arithmetic against the running kernel: for every
 * populated zone /proc/zoneinfo lists, what the emulation computes from
 * that zone's managed pages, its low watermark and the CPUs of this
 * machine - calculate_normal_threshold (mm/vmstat.c 6.18) and the per-CPU
 * pagesets' batch, high_min and high_max (zone_batchsize, zone_highsize,
 * zone_set_pageset_high_and_batch of mm/page_alloc.c 6.18, with
 * percpu_pagelist_high_fraction as /proc/sys/vm has it) - must be what the
 * kernel shows for every CPU ("vm stats threshold", "batch", "high_min",
 * "high_max"). The current pcp->high, tuned at run time between high_min
 * and high_max, is checked to lie there.
 *
 * Skipped (exit 77, one line) where /proc/zoneinfo has no high_min (a
 * kernel before 6.7's PCP auto-tuning), or where the machine's CPUs are
 * not spread evenly over consecutive nodes (the test machine is a
 * synthetic topology of the same shape).
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "test_machine.h"
#include "mmscale/kernel/cpumask.h"
#include "mmscale/linux-6.18/mm/page_alloc.h"
#include "mmscale/linux-6.18/mm/vmstat.h"

#define SKIP 77
#define MAX_ZONES 64

struct real_zone {
	int node;
	char name[32];
	unsigned long managed, low;
	int nr_cpus_seen;
	int threshold[2];	/* the first and any differing value seen */
	int batch, high_min, high_max;
	bool differs;		/* the CPUs disagree among themselves */
	int high_lo, high_hi;	/* the current highs, over the CPUs */
};

static struct real_zone zones[MAX_ZONES];
static int nr_zones;

static int read_int_file(const char *path, int fallback)
{
	FILE *f = fopen(path, "r");
	int v;

	if (!f)
		return fallback;
	if (fscanf(f, "%d", &v) != 1)
		v = fallback;
	fclose(f);
	return v;
}

/* Every populated zone's figures; -1 if the file is not there or has no pagesets. */
static int parse_zoneinfo(bool *has_high_min)
{
	FILE *f = fopen("/proc/zoneinfo", "r");
	char line[256];
	struct real_zone *z = NULL;
	int v;

	*has_high_min = false;
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		int node;
		char name[32];

		if (sscanf(line, "Node %d, zone %31s", &node, name) == 2) {
			if (nr_zones == MAX_ZONES) {
				z = NULL;
				continue;
			}
			z = &zones[nr_zones++];
			memset(z, 0, sizeof(*z));
			z->node = node;
			snprintf(z->name, sizeof(z->name), "%s", name);
			z->high_lo = 1 << 30;
			z->high_hi = -1;
			continue;
		}
		if (!z)
			continue;
		if (sscanf(line, " low %lu", &z->low) == 1 ||
		    sscanf(line, " managed %lu", &z->managed) == 1)
			continue;
		if (sscanf(line, " cpu: %d", &v) == 1) {
			z->nr_cpus_seen++;
		} else if (sscanf(line, " high: %d", &v) == 1) {
			z->high_lo = min(z->high_lo, v);
			z->high_hi = max(z->high_hi, v);
		} else if (sscanf(line, " batch: %d", &v) == 1) {
			z->differs |= z->nr_cpus_seen > 1 && v != z->batch;
			z->batch = v;
		} else if (sscanf(line, " high_min: %d", &v) == 1) {
			*has_high_min = true;
			z->differs |= z->nr_cpus_seen > 1 && v != z->high_min;
			z->high_min = v;
		} else if (sscanf(line, " high_max: %d", &v) == 1) {
			z->differs |= z->nr_cpus_seen > 1 && v != z->high_max;
			z->high_max = v;
		} else if (sscanf(line, " vm stats threshold: %d", &v) == 1) {
			if (z->nr_cpus_seen == 1)
				z->threshold[0] = z->threshold[1] = v;
			else if (v != z->threshold[0])
				z->threshold[1] = v;
		}
	}
	fclose(f);
	return 0;
}

static void check_zone(const struct real_zone *r, int high_fraction)
{
	struct zone z;
	int high_min, high_max, batch;

	memset(&z, 0, sizeof(z));
	z.node = r->node;
	z.present_pages = r->managed;
	atomic_long_set(&z.managed_pages, (long)r->managed);
	z._watermark[WMARK_LOW] = r->low;
	zone_pageset_high_and_batch_6_18(&z, 0, high_fraction, &high_min, &high_max, &batch);

	CHECK_MSG(!r->differs, "node %d zone %s: the CPUs' pagesets differ", r->node, r->name);
	CHECK_MSG(r->threshold[0] == r->threshold[1], "node %d zone %s: thresholds %d and %d "
		  "(kswapd's pressure threshold in force?)", r->node, r->name, r->threshold[0],
		  r->threshold[1]);
	CHECK_MSG(calculate_normal_threshold(&z) == r->threshold[0],
		  "node %d zone %s (managed %lu, %u CPUs): vm stats threshold %d, emulated %d",
		  r->node, r->name, r->managed, num_online_cpus(), r->threshold[0],
		  calculate_normal_threshold(&z));
	CHECK_MSG(batch == r->batch, "node %d zone %s (managed %lu): batch %d, emulated %d",
		  r->node, r->name, r->managed, r->batch, batch);
	CHECK_MSG(high_min == r->high_min, "node %d zone %s (low %lu): high_min %d, emulated %d",
		  r->node, r->name, r->low, r->high_min, high_min);
	CHECK_MSG(high_max == r->high_max, "node %d zone %s (managed %lu): high_max %d, "
		  "emulated %d", r->node, r->name, r->managed, r->high_max, high_max);
	/*
	 * pcp->high moves at run time (decay_pcp_high, nr_pcp_high) between
	 * high_min and high_max; a zone whose pagesets were never used since
	 * boot can still show its initial 0 (zone_pcp_init leaves it so until
	 * zone_set_pageset_high_and_batch runs on the CPU's first online).
	 */
	CHECK_MSG(r->high_hi <= r->high_max && (r->high_lo >= r->high_min || r->high_lo == 0),
		  "node %d zone %s: pcp high %d..%d outside [%d, %d]", r->node, r->name,
		  r->high_lo, r->high_hi, r->high_min, r->high_max);
	printf("node %d zone %-7s managed %9lu low %7lu: kernel threshold %3d batch %3d "
	       "high_min %6d high_max %7d; emulated %3d %3d %6d %7d\n", r->node, r->name,
	       r->managed, r->low, r->threshold[0], r->batch, r->high_min, r->high_max,
	       calculate_normal_threshold(&z), batch, high_min, high_max);
}

int main(void)
{
	long online = sysconf(_SC_NPROCESSORS_ONLN);
	int nodes = 0, per_node = -1, high_fraction;
	bool has_high_min;
	char spec[128], path[128];
	struct test_machine m;

	if (parse_zoneinfo(&has_high_min) != 0 || !nr_zones) {
		printf("test_zoneinfo_6_18: skipped: no /proc/zoneinfo here\n");
		return SKIP;
	}
	if (!has_high_min) {
		printf("test_zoneinfo_6_18: skipped: /proc/zoneinfo has no high_min "
		       "(a kernel before 6.7's PCP auto-tuning)\n");
		return SKIP;
	}
	/* Nodes 0..N-1 with their CPU counts, from sysfs; all equal, or skip. */
	for (;; nodes++) {
		FILE *f;
		int c = 0;
		unsigned int a, b;
		char sep;

		snprintf(path, sizeof(path), "/sys/devices/system/node/node%d/cpulist", nodes);
		f = fopen(path, "r");
		if (!f)
			break;
		while (fscanf(f, "%u", &a) == 1) {
			b = a;
			if (fscanf(f, "%c", &sep) == 1 && sep == '-') {
				if (fscanf(f, "%u", &b) != 1)
					break;
				if (fscanf(f, "%c", &sep) != 1)
					sep = '\n';
			}
			c += (int)(b - a + 1);
			if (sep != ',')
				break;
		}
		fclose(f);
		if (per_node >= 0 && c != per_node) {
			printf("test_zoneinfo_6_18: skipped: node %d has %d CPUs, node 0 %d: "
			       "the test machine cannot take this shape\n", nodes, c, per_node);
			return SKIP;
		}
		per_node = c;
	}
	if (!nodes) {
		nodes = 1;
		per_node = (int)online;
	}
	if ((long)nodes * per_node != online || per_node < 1) {
		printf("test_zoneinfo_6_18: skipped: %d nodes of %d CPUs, %ld online\n", nodes,
		       per_node, online);
		return SKIP;
	}
	snprintf(spec, sizeof(spec), "synthetic:node:%d pu:%d", nodes, per_node);
	if (test_machine_up(&m, spec) != 0)
		return 1;
	high_fraction = read_int_file("/proc/sys/vm/percpu_pagelist_high_fraction", 0);
	printf("test_zoneinfo_6_18: %d node(s) of %d CPUs, percpu_pagelist_high_fraction %d\n",
	       nodes, per_node, high_fraction);
	for (int i = 0; i < nr_zones; i++)
		if (zones[i].managed && zones[i].nr_cpus_seen)
			check_zone(&zones[i], high_fraction);
	test_machine_down(&m);
	return check_report("test_zoneinfo_6_18");
}
