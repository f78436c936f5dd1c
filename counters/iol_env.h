/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Where the IO-less kernel code (counters/page-writeback-3.2.c, iol_*.c)
 * runs: built with MMSCALE_IOL_MACHINE, on pinned threads of the emulated
 * machine (counters/iol_machine.h: the per-call bdp/ and bdp_throttled/
 * rows); otherwise in the virtual-time world (include/mmscale/mm/throttle.h:
 * throttle/). CMakeLists.txt compiles those files once for each.
 */
#ifndef MMSCALE_IOL_ENV_H
#define MMSCALE_IOL_ENV_H

#ifdef MMSCALE_IOL_MACHINE
#include "iol_machine.h"
#else
#include "mmscale/mm/throttle.h"
#endif

#endif /* MMSCALE_IOL_ENV_H */
