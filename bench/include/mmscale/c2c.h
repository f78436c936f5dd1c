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
 * real machine (the same loop as c2c/pingpong), like core-to-core-latency
 * prints for cores. "-" where a node has no CPU (or only one, on the
 * diagonal). Needs mmscale_machine_setup() first.
 */
int mmscale_c2c_matrix(const struct mmscale_plan *p, FILE *out, char *err, size_t errlen);

/*
 * One cache-line round trip n times: store seq in req, wait for reply to
 * reach it; the responder echoes every new request until *stop. The c2c/
 * cases and the matrix time these.
 */
void mmscale_c2c_round_trips(_Atomic u64 *req, _Atomic u64 *reply, u64 n);
void mmscale_c2c_echo_until_stop(_Atomic u64 *req, _Atomic u64 *reply, _Atomic bool *stop);

#endif /* MMSCALE_C2C_H */
