/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Where the IO-less kernel code (kernel/linux-3.2/mm/page-writeback.c, counters/iol_*.c)
 * runs: built with MMSCALE_IOL_MACHINE, on pinned threads of the emulated
 * machine (include/mmscale/linux-3.2/machine.h: the per-call bdp/ and bdp_throttled/
 * rows); otherwise in the virtual-time world (include/mmscale/linux-3.2/world/throttle.h:
 * throttle/). CMakeLists.txt compiles those files once for each.
 */
#ifndef MMSCALE_IOL_ENV_H
#define MMSCALE_IOL_ENV_H

#ifdef MMSCALE_IOL_MACHINE
#include "mmscale/linux-3.2/machine.h"
#else
#include "mmscale/linux-3.2/world/throttle.h"
#endif

#endif /* MMSCALE_IOL_ENV_H */
