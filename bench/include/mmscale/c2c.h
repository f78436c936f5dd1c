/* SPDX-License-Identifier: GPL-2.0 */
#ifndef MMSCALE_C2C_H
#define MMSCALE_C2C_H

#include <stdio.h>
#include <stdatomic.h>
#include <stdbool.h>

#include "mmscale/kernel/compiler.h"
#include "topology.h"

/*
 * --c2c-matrix: cache-line round trip between every pair of nodes of the
 * real machine (the same loop as c2c/pingpong), in MLC's "idle latency"
 * layout: one row per reader node (its CPU times the round trips), one
 * column per writer node (its CPU answers them). On one node, one line that
 * says so. json: the same as an object, for scripts/plot's heatmap. Needs
 * mmscale_machine_setup() first.
 */
int mmscale_c2c_matrix(const struct mmscale_plan *p, bool json, FILE *out, char *err,
		       size_t errlen);

/*
 * --save-machine=FILE: this machine's description (scripts/machines.py's
 * format) from one c2c/pingpong pair per class the plan has. Needs
 * mmscale_machine_setup() first; -1 with one line in err.
 */
int mmscale_c2c_save_machine(const struct mmscale_plan *p, const char *path, char *err,
			     size_t errlen);
/* Before measuring: can FILE be written? -1 with one line in err if not. */
int mmscale_c2c_save_machine_check(const char *path, char *err, size_t errlen);

/*
 * --save-machine's IPI figures from its timings: t[k - 1] the ns of one
 * broadcast call with k = 1..k_max targets, t0 with none. send: the
 * least-squares slope over k; receive: its intercept less t0. 0, or -1
 * where they cannot be had (fewer than 2 points, a slope or a wait not
 * above 0).
 */
int mmscale_ipi_fit(const double *t, int k_max, double t0, double *send, double *receive);

/* A measured matrix: what mmscale_c2c_matrix prints. */
struct mmscale_c2c_matrix {
	int nr_nodes;
	const int *node_os;	/* each node's OS number */
	const double *ns;	/* nr_nodes x nr_nodes, row reader, column writer; < 0: none */
	const int *reader_pu;	/* nr_nodes x nr_nodes: the CPUs (OS numbers) of each */
	const int *writer_pu;	/* pair, -1 where none */
	const bool *smt;	/* nr_nodes x nr_nodes: the pair are SMT siblings of a core */
};

/*
 * Print a matrix: text (MLC's layout; '-' where a node has no CPU, or only
 * one on the diagonal; '*' after a pair of SMT siblings) or json. With one
 * node, one line (text) or an object without a matrix (json).
 */
void mmscale_c2c_matrix_print(const struct mmscale_c2c_matrix *m, bool json, FILE *out);

/*
 * One cache-line round trip n times: store seq in req, wait for reply to
 * reach it; the responder echoes every new request until *stop. The c2c/
 * cases and the matrix time these.
 */
void mmscale_c2c_round_trips(_Atomic u64 *req, _Atomic u64 *reply, u64 n);
void mmscale_c2c_echo_until_stop(_Atomic u64 *req, _Atomic u64 *reply, _Atomic bool *stop);

#endif /* MMSCALE_C2C_H */
