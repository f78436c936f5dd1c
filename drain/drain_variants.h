/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The drain_all_pages variants: one file each (drain/drain_*.c, defining
 * its struct drain_variant_ops), one row each below, oldest kernel first:
 * the first row is the baseline of every comparison table.
 *
 * A row: the ops symbol its file defines, its name, a one-line summary and
 * the kernel commit or posting it mirrors. The ops say which kernel/smp.c
 * generation its kernel has and claim, as a function of the machine (CPUs,
 * populated zones, lists and CPUs with pages), what one drain costs in
 * locks and in the CPUs its cross-CPU call reaches (struct drain_shape,
 * mmscale/mm/drain_world.h); that call's IPIs and call_function.lock
 * acquisitions are the generation's claim. Every drain/empty run checks
 * the claim on an empty machine, tests/test_claims.c every row, and
 * drain/tests/test_drain.c every row with full lists, each on its own
 * generation.
 *
 * The same list declares each ops symbol (below), so a variant's file,
 * which includes this header, is checked against the type its row uses.
 * The list is the emulated kernel's (it includes no harness header); the
 * rows the cases and tests walk are built from it in cases/drain.c
 * (cases/drain_rows.h).
 */
#ifndef MMSCALE_DRAIN_VARIANTS_H
#define MMSCALE_DRAIN_VARIANTS_H

#include "mmscale/mm/drain_world.h"

/*	  ops symbol,		name,		summary,
 *	  source */
#define DRAIN_VARIANTS(X)						\
	X(drain_ops_ipi_all, "ipi-all",					\
	  "on_each_cpu(drain_local_pages); empty lists still take zone->lock", \
	  "Linux 2.6.32.9 drain_pages and free_pcppages_bulk (seed 002 tested a 2.6.32 distro kernel)") \
	X(drain_ops_quick_scan, "quick-scan",				\
	  "free_pcppages_bulk scans the pcp lists before taking zone->lock", \
	  "seed 002, Jack Steiner 2011-02-15")				\
	X(drain_ops_count_check, "count-check",				\
	  "drain_pages calls free_pcppages_bulk only if pcp->count",	\
	  "2ff754fa, Linux 2.6.38")					\
	X(drain_ops_ipi_mask, "ipi-mask",				\
	  "IPIs only to CPUs with pages (on_each_cpu_mask)",		\
	  "74046494ea68, Linux 3.4")					\
	X(drain_ops_workqueue, "workqueue",				\
	  "per-CPU work items on mm_percpu_wq, flushed by the caller; concurrent callers skip (pcpu_drain_mutex)", \
	  "Linux 4.11: 0ccce3b92421 + bd233f538d51 + ce612879ddc7")	\
	X(drain_ops_remote, "remote",					\
	  "per-pcp spinlock; the caller drains remote lists itself, no IPI", \
	  "443c2accd1b6, Linux 6.1")					\
	X(drain_ops_6_6_chunked, "6.6-chunked",				\
	  "6.1's remote drain, a full list freed batch << 5 pages per pcp->lock and zone->lock hold, the count read again under the lock", \
	  "55f77df7d715 + 66eca1021a42 (6.6-stable, Aug 2024), on 6.1's code") \
	X(drain_ops_6_18, "6.18",					\
	  "remote drains under pcp->lock, every zone of a CPU with pages; high orders, auto-tuned high", \
	  "mm/page_alloc.c of Linux 6.18 (../shared/kernel/6.18)")	\
	/* new rows go above this line */

#define X(ops, ...) extern const struct drain_variant_ops ops;
DRAIN_VARIANTS(X)
#undef X

#endif /* MMSCALE_DRAIN_VARIANTS_H */
