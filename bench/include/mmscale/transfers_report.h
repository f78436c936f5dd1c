/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a counting run (mmscale --transfers) reports beside its counts: the
 * run's hottest lines, named by the data symbol or per-CPU area they sit in
 * and by the instruction and source line of their latest transfer, its
 * (requester, previous holder) pairs, and its transfers from other nodes
 * by hwloc distance (bench/transfers_report.c). The counts themselves are
 * the harness's (mmscale/opcount.h, MMSCALE_XFER_*).
 */
#ifndef MMSCALE_TRANSFERS_REPORT_H
#define MMSCALE_TRANSFERS_REPORT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "mmscale/json.h"
#include "mmscale/kernel/transfers.h"
#include "mmscale/topology.h"

#define MMSCALE_XFER_HOT	5	/* hottest lines kept per run */
#define MMSCALE_XFER_PAIRS	64	/* pairs kept per run (the most transfers) */
#define MMSCALE_XFER_DISTANCES	16

struct mmscale_xfer_report {
	bool taken;
	double ops;			/* operations of every thread of the run */
	int nr_hot;
	struct mmscale_hot_line hot[MMSCALE_XFER_HOT];
	/* The allocation each is in, found while it was live (the run's teardown frees it). */
	struct {
		bool known;
		uintptr_t caller;
		size_t offset;
	} hot_alloc[MMSCALE_XFER_HOT];
	size_t nr_pairs_all, nr_pairs;
	struct mmscale_xfer_pair pairs[MMSCALE_XFER_PAIRS];
	int nr_distances;		/* other-node transfers by the nodes' distance */
	struct {
		uint64_t distance;	/* hwloc's (10: local), 0: unknown */
		uint64_t transfers;
	} by_distance[MMSCALE_XFER_DISTANCES];
	uint64_t unattributed;
};

/* The window's report, after its operations (ops: every thread's). */
void mmscale_xfer_report_take(struct mmscale_xfer_report *r, const struct mmscale_plan *p,
			      double ops);
/* "transfers": {...} in a run's mmscale_runs object. */
void mmscale_xfer_report_json(struct mmscale_json *j, const struct mmscale_xfer_report *r);
/* The hottest lines as text, under a title line naming the run. */
void mmscale_xfer_report_print(FILE *out, const char *title, const struct mmscale_xfer_report *r);

/*
 * The line's name: "symbol+0x40", "CPU 3's per-CPU +0x40 of what f (file:line)
 * allocated", "+0x40 of what f (file:line) allocated"; the allocation's caller
 * and the offset in it as the report took them (caller 0: none known).
 */
void mmscale_xfer_name_data(uintptr_t addr, uintptr_t caller, size_t in, char *buf, size_t len);
/* The instruction's place: "function (file:line)" and that line's code, trimmed. */
void mmscale_xfer_name_code(uintptr_t pc, char *where, size_t wlen, char *code, size_t clen);

#endif
