/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The monotonic clock, as include/linux/timekeeping.h names it: the one
 * source of wall time for the emulation's waits and for the cases that
 * time a pass themselves (every caller read CLOCK_MONOTONIC on its own).
 */
#ifndef MMSCALE_KERNEL_TIMEKEEPING_H
#define MMSCALE_KERNEL_TIMEKEEPING_H

#include <time.h>

#include "compiler.h"

/* ktime_get_ns(): CLOCK_MONOTONIC in nanoseconds, as the kernel's reads it. */
static inline u64 ktime_get_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (u64)ts.tv_sec * 1000000000ULL + (u64)ts.tv_nsec;
}

#endif /* MMSCALE_KERNEL_TIMEKEEPING_H */
