/* SPDX-License-Identifier: GPL-2.0 */
#ifndef MMSCALE_C2C_H
#define MMSCALE_C2C_H

#include <stdio.h>
#include "topology.h"

/*
 * --c2c-matrix: cache-line round trip between every pair of nodes of the
 * real machine (the same loop as c2c/pingpong), like core-to-core-latency
 * prints for cores. "-" where a node has no CPU (or only one, on the
 * diagonal). Needs mmscale_machine_setup() first.
 */
int mmscale_c2c_matrix(const struct mmscale_plan *p, FILE *out, char *err, size_t errlen);

#endif /* MMSCALE_C2C_H */
