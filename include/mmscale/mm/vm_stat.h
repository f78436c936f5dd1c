/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The emulated machine's global vm_stat[] (kernel/linux-2.6/mm/mmzone.c lays
 * it out per run: where it starts, one counter per vm_stat_stride bytes -
 * 8, packed as the kernel's array, or a cache line each with
 * --counter-layout=padded), for every generation whose code runs on the
 * 2.6.x machine: 2.6.31's (vmstat.h of linux-2.6, which numbers the slots
 * through its vm_stat_index) and 3.1's and 3.2's on pinned threads (vmstat.h
 * of linux-3.2: the run numbers the slots as 3.2's enum does,
 * mm_machine_config.vm_stat_numbering, so 3.2's item i is slot i).
 */
#ifndef MMSCALE_MM_VM_STAT_H
#define MMSCALE_MM_VM_STAT_H

#include <stddef.h>

#include "mmscale/kernel/atomic.h"

extern char *vm_stat_base;
extern size_t vm_stat_stride;

/* The counter in slot slot of the machine's global vm_stat[]. */
static inline atomic_long_t *vm_stat_at(size_t slot)
{
	return (atomic_long_t *)(void *)(vm_stat_base + slot * vm_stat_stride);
}

#endif /* MMSCALE_MM_VM_STAT_H */
