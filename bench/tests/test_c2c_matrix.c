// SPDX-License-Identifier: GPL-2.0
/*
 * --c2c-matrix's layout on a machine this one is not: three nodes (OS
 * numbers 0, 2, 5), node 5 without a CPU, node 2 with one core of two SMT
 * siblings (its diagonal pair is marked '*'); the JSON scripts/plot reads;
 * the one-node line; and --save-machine's IPI fit, worked by hand.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "mmscale/c2c.h"

static char *print(const struct mmscale_c2c_matrix *m, bool json)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	mmscale_c2c_matrix_print(m, json, f);
	fclose(f);
	return buf;
}

/*
 * --save-machine's IPI figures: T(k) = T(0) + receive + k send. With T(0) =
 * 500, receive 300, send 100: 900, 1000, 1100 for k = 1..3, so slope 100,
 * intercept 800, less 500: 300. Noisy points: 890, 1010, 1100 - the slope
 * (3 x 6210 - 6 x 3000) / (3 x 14 - 36) = 105, the intercept (3000 - 630) /
 * 3 = 790, less 500: 290. One point, a falling slope or a wait under T(0):
 * no figure.
 */
static void check_ipi_fit(void)
{
	const double exact[] = { 900, 1000, 1100 }, noisy[] = { 890, 1010, 1100 };
	const double falling[] = { 1000, 900 }, fast[] = { 600, 700 };
	double send = -1, receive = -1;

	CHECK(mmscale_ipi_fit(exact, 3, 500, &send, &receive) == 0);
	CHECK_MSG(send > 100 - 1e-9 && send < 100 + 1e-9 && receive > 300 - 1e-9 &&
		  receive < 300 + 1e-9, "exact: send %g, receive %g", send, receive);
	CHECK(mmscale_ipi_fit(noisy, 3, 500, &send, &receive) == 0);
	CHECK_MSG(send > 105 - 1e-9 && send < 105 + 1e-9 && receive > 290 - 1e-9 &&
		  receive < 290 + 1e-9, "noisy: send %g, receive %g", send, receive);
	CHECK(mmscale_ipi_fit(exact, 1, 500, &send, &receive) != 0);
	CHECK(mmscale_ipi_fit(falling, 2, 500, &send, &receive) != 0);
	CHECK(mmscale_ipi_fit(fast, 2, 550, &send, &receive) != 0);
}

int main(void)
{
	const int node_os[] = { 0, 2, 5 };
	const double ns[] = { 63.4, 141.25, -1, 140.0, 21.04, -1, -1, -1, -1 };
	const int reader[] = { 0, 0, -1, 2, 2, -1, -1, -1, -1 };
	const int writer[] = { 1, 2, -1, 0, 3, -1, -1, -1, -1 };
	const bool smt[] = { false, false, false, false, true, false, false, false, false };
	struct mmscale_c2c_matrix m = { 3, node_os, ns, reader, writer, smt };
	char *text = print(&m, false), *json = print(&m, true);
	const char *want =
		"c2c/pingpong round trip, ns: median of 5 x 20000 round trips on one cache line\n"
		"row: reader node (its CPU times the round trips); column: writer node (its CPU "
		"answers); '*': the two CPUs are SMT siblings of one core; '-': no pair of CPUs\n"
		"          Numa node\n"
		"Numa node        0        2        5\n"
		"        0    63.4    141.2        - \n"
		"        2   140.0     21.0*       - \n"
		"        5       -        -        - \n";

	CHECK_MSG(strcmp(text, want) == 0, "text:\n%s\nwant:\n%s", text, want);
	CHECK_MSG(strstr(json, "\"nodes\": [0, 2, 5]") &&
		  strstr(json, "[63.4, 141.2, null]") && strstr(json, "[140.0, 21.0, null]") &&
		  strstr(json, "{\"reader_cpu\": 2, \"writer_cpu\": 3, \"smt\": true}"),
		  "json:\n%s", json);
	free(text);
	free(json);

	m.nr_nodes = 1;
	text = print(&m, false);
	CHECK_MSG(strcmp(text, "c2c matrix: the plan has one NUMA node (node 0): no node x node "
			 "matrix; c2c/pingpong times the round trip within it\n") == 0,
		  "one node: %s", text);
	free(text);
	check_ipi_fit();
	return check_report("test_c2c_matrix");
}
