/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Per-CPU areas, as the kernel's dynamic percpu allocator presents them: a
 * percpu pointer is never dereferenced itself; per_cpu_ptr(p, cpu) adds
 * __per_cpu_offset[cpu] and lands in emulated CPU cpu's own unit. Each
 * unit is allocated on the NUMA node of the emulated CPU it belongs to
 * (the machine's: bench/cpu.c), so per_cpu_ptr(p, other) is a remote
 * access exactly when it is one in the kernel. The allocator is
 * kernel/percpu.c.
 *
 * alloc_percpu() returns zeroed memory in every unit, as the kernel's does.
 */
#ifndef MMSCALE_KERNEL_PERCPU_H
#define MMSCALE_KERNEL_PERCPU_H

#include <stddef.h>
#include <stdint.h>
#include "compiler.h"
#include "processor.h"

/* One entry per emulated CPU of the plan; set up by setup_per_cpu_areas(). */
extern uintptr_t *__per_cpu_offset;

/* The areas over the machine's units, one per CPU (machine_boot); -1 out of memory. */
int setup_per_cpu_areas(char *const *units, unsigned int nr_units, size_t unit_size);
void free_per_cpu_areas(void);

/* Integer arithmetic: the sum is a real address, the operands are not. */
#define per_cpu_ptr(ptr, cpu) \
	((typeof(ptr))((uintptr_t)(ptr) + __per_cpu_offset[(cpu)]))
#define this_cpu_ptr(ptr)	per_cpu_ptr(ptr, smp_processor_id())
#define raw_cpu_ptr(ptr)	this_cpu_ptr(ptr)

/* NULL when the units are full (the caller reports it). */
void *__alloc_percpu(size_t size, size_t align);
#define alloc_percpu(type) \
	((type *)__alloc_percpu(sizeof(type), __alignof__(type)))
void free_percpu(void *ptr);

#endif /* MMSCALE_KERNEL_PERCPU_H */
