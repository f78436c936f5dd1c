// SPDX-License-Identifier: GPL-2.0
/*
 * The accesses tests/test_transfers.c makes, and only those: this file is
 * compiled with the counting build's instrumentation, the test itself is
 * not, so that its own bookkeeping (its counters, its stack) moves no line.
 */
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>

#include "transfers_access.h"

void xfer_load(_Atomic uint64_t *p)
{
	(void)atomic_load_explicit(p, memory_order_relaxed);
}

void xfer_store(_Atomic uint64_t *p, uint64_t v)
{
	atomic_store_explicit(p, v, memory_order_relaxed);
}

void xfer_fetch_add(_Atomic uint64_t *p)
{
	atomic_fetch_add_explicit(p, 1, memory_order_relaxed);
}

/* A cmpxchg expecting what p does not hold: x86's takes the line for ownership anyway. */
void xfer_cmpxchg(_Atomic uint64_t *p, uint64_t expected)
{
	atomic_compare_exchange_strong(p, &expected, 5);
}

void xfer_memset(void *p, size_t n)
{
	memset(p, 1, n);
}

/* A plain read of a byte of every line of p. */
unsigned int xfer_read_lines(const char *p, size_t n)
{
	unsigned int sum = 0;

	for (size_t i = 0; i < n; i += 64)
		sum += (unsigned char)p[i];
	return sum;
}
