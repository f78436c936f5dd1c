/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Forced into every instrumented file of the counting build (CMakeLists.txt,
 * mmscale-transfers): memset, memcpy and memmove called by name go through
 * kernel/transfers.c, which records the lines they touch, since the
 * compiler's instrumentation does not see inside a library call. Copies
 * the compiler makes inline (a struct assignment) are seen as the plain
 * accesses they compile to, or not at all where GCC emits them unhooked:
 * said in RESULTS.md's list of what the rule cannot see.
 */
#ifndef MMSCALE_KERNEL_TRANSFERS_BUILTINS_H
#define MMSCALE_KERNEL_TRANSFERS_BUILTINS_H

#include <stddef.h>
#include <string.h>

void *mmscale_xfer_memset(void *d, int c, size_t n);
void *mmscale_xfer_memcpy(void *d, const void *s, size_t n);
void *mmscale_xfer_memmove(void *d, const void *s, size_t n);

#define memset(d, c, n)		mmscale_xfer_memset(d, c, n)
#define memcpy(d, s, n)		mmscale_xfer_memcpy(d, s, n)
#define memmove(d, s, n)	mmscale_xfer_memmove(d, s, n)

#endif
