/* SPDX-License-Identifier: GPL-2.0 */
/* tests/transfers_access.c: the instrumented accesses of tests/test_transfers.c. */
#ifndef MMSCALE_TESTS_TRANSFERS_ACCESS_H
#define MMSCALE_TESTS_TRANSFERS_ACCESS_H

#include <stddef.h>
#include <stdint.h>

void xfer_load(_Atomic uint64_t *p);
void xfer_store(_Atomic uint64_t *p, uint64_t v);
void xfer_fetch_add(_Atomic uint64_t *p);
void xfer_cmpxchg(_Atomic uint64_t *p, uint64_t expected);
void xfer_memset(void *p, size_t n);
unsigned int xfer_read_lines(const char *p, size_t n);

#endif
