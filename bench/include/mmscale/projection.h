/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mmscale --transfers --project=FILE (bench/projection.c): a counting run's
 * rows priced on a machine described by FILE (machines/NAME.machine, format
 * "mmscale-machine 1", scripts/machines.py), by the model of
 * scripts/projection.py ("mmscale-proj 2") - its parts that a counting run
 * alone can give: the transfers on an operation's path by class x latency,
 * the IPIs x their cost, and an IPI's targets' queueing on the locks they
 * all take (by the row's counted lock kind). The local work and the
 * queueing of a row's own threads on its locks, which needs it (a timed
 * run here: scripts/project --local --here), are never priced here, and
 * the results' context says so.
 */
#ifndef MMSCALE_PROJECTION_H
#define MMSCALE_PROJECTION_H

#include <stdbool.h>
#include <stddef.h>

#define MMSCALE_PROJECTION_MODEL "mmscale-proj 2"
#define MMSCALE_MACHINE_FORMAT "mmscale-machine 1"

/* Where a line's previous holder sat: transfers_core, _cache, _node, _remote. */
enum mmscale_transfer_class {
	MMSCALE_CLASS_CORE,
	MMSCALE_CLASS_CACHE,
	MMSCALE_CLASS_NODE,
	MMSCALE_CLASS_REMOTE,
	MMSCALE_NR_CLASSES,
};

struct mmscale_machine_file {
	char path[1024];
	char name[256];
	char confidence[16];
	/* A figure the file does not give is absent (has_*), never 0. */
	double transfer_ns[MMSCALE_NR_CLASSES];
	bool has_transfer[MMSCALE_NR_CLASSES];
	double locked_ns[MMSCALE_NR_CLASSES];
	bool has_locked[MMSCALE_NR_CLASSES];
	double ipi_send_ns, ipi_receive_ns;
	bool has_ipi_send, has_ipi_receive;
};

/* A row's counts per operation, as the counting build publishes them. */
struct mmscale_projection_counts {
	double transfers, transfers_locked, ipis_sent;
	double by_class[MMSCALE_NR_CLASSES];
	double transfers_by_threads;
	bool has_by_threads;
	double lock_acquires, queued_lock_acquires;
	bool has_queued;	/* the run counted queued_lock_acquires */
};

/* An IPI's targets' queueing on the locks they all take (projection.py's targets_queueing). */
enum mmscale_targets_queueing {
	MMSCALE_TARGETS_NONE,		/* no IPI, or no lock: nothing to queue */
	MMSCALE_TARGETS_PRICED,
	MMSCALE_TARGETS_NOT_ALIKE,	/* lock_acquires is not (targets + 1) x the same locks */
	MMSCALE_TARGETS_KIND_UNKNOWN,	/* no queued_lock_acquires in the run */
	MMSCALE_TARGETS_KIND_MIXED,	/* ticket and queued locks both */
	MMSCALE_TARGETS_NO_HANDOFF,	/* no transfer figure for the row's classes */
};

/* One thread's ns per operation on the machine, by part. */
struct mmscale_projection {
	double transfers_ns;
	double ipis_ns;
	bool ipis_priced;	/* false: the row sends IPIs and the file has no IPI figures */
	/* Transfers per op of classes the file gives no figure for (not in transfers_ns). */
	double unpriced_transfers;
	bool targets_unknown;	/* IPIs sent, no transfers_by_threads: all priced in series */
	enum mmscale_targets_queueing targets;
	double targets_queueing_ns;	/* where MMSCALE_TARGETS_PRICED */
	bool targets_together;	/* priced with no IPI figures: together, an upper bound */
};

extern const char *const mmscale_transfer_class_names[MMSCALE_NR_CLASSES];

/* Read a machine file; -1 and one line ("FILE:LINE: why") in err if it cannot be used. */
int mmscale_machine_file_load(const char *path, struct mmscale_machine_file *m, char *err,
			      size_t errlen);
/* The same from text (path names it in errors). */
int mmscale_machine_file_parse(const char *text, const char *path,
			       struct mmscale_machine_file *m, char *err, size_t errlen);

void mmscale_project_row(const struct mmscale_projection_counts *c,
			 const struct mmscale_machine_file *m, struct mmscale_projection *out);

/*
 * The projected counters of one result (bench/gbench_shim.cc's report
 * hook): from its counters by name (the counting build's), those to add,
 * by name, and the row's words on what is left unpriced (label, "" if
 * none). Returns how many were written to names/values (at most 4), 0 for
 * a result that is no counting run's row.
 */
int mmscale_projection_counters(const struct mmscale_machine_file *m,
				const char *const *counter_names, const double *counter_values,
				size_t nr_counters, const char **names, double *values,
				char *label, size_t label_len);

#endif /* MMSCALE_PROJECTION_H */
