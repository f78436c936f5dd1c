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

#include <stdbool.h>
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

/*
 * this_cpu_try_cmpxchg and this_cpu_xchg on the calling CPU's own variable,
 * as x86-64 builds them (arch/x86/include/asm/percpu.h): one cmpxchg
 * without the lock prefix, atomic against the CPU's own interrupts only,
 * and this_cpu_xchg as a loop of that cmpxchg (xchg would lock). The
 * kernel addresses the variable through %gs; here through its unit's
 * address. ThreadSanitizer cannot see an asm's accesses, so its builds (and
 * other architectures) take a relaxed load, compare and store instead: the
 * same effect where, as here, only the owning CPU writes its variable and
 * interrupts come at interrupt points, never inside the operation.
 */
#if defined(__x86_64__) && !defined(MMSCALE_TSAN)
#define MMSCALE_LOCAL_CMPXCHG_INSN 1
#endif

#ifdef MMSCALE_LOCAL_CMPXCHG_INSN
#define __THIS_CPU_TRY_CMPXCHG(type, insn, reg)				\
	bool ok;							\
									\
	__asm__ __volatile__(insn " %[new], %[var]"			\
			     : "=@ccz" (ok), [var] "+m" (*p), "+a" (*old)	\
			     : [new] reg (new)				\
			     : "memory");				\
	return ok;
#else
#define __THIS_CPU_TRY_CMPXCHG(type, insn, reg)				\
	type cur = READ_ONCE(*p);					\
									\
	if (cur != *old) {						\
		*old = cur;						\
		return false;						\
	}								\
	WRITE_ONCE(*p, new);						\
	return true;
#endif

static __always_inline bool this_cpu_try_cmpxchg_s8(s8 *p, s8 *old, s8 new)
{
	__THIS_CPU_TRY_CMPXCHG(s8, "cmpxchgb", "q")
}

static __always_inline bool this_cpu_try_cmpxchg_s32(s32 *p, s32 *old, s32 new)
{
	__THIS_CPU_TRY_CMPXCHG(s32, "cmpxchgl", "r")
}

static __always_inline s8 this_cpu_xchg_s8(s8 *p, s8 new)
{
	s8 old = READ_ONCE(*p);		/* raw_cpu_read */

	while (!this_cpu_try_cmpxchg_s8(p, &old, new))
		;
	return old;
}

/*
 * this_cpu_add and this_cpu_add_return on the calling CPU's own variable:
 * x86-64's add and xadd without the lock prefix (arch/x86 percpu.h), the
 * same fallback as above.
 */
static __always_inline void this_cpu_add_long(long *p, long v)
{
#ifdef MMSCALE_LOCAL_CMPXCHG_INSN
	__asm__ __volatile__("addq %[v], %[var]" : [var] "+m" (*p) : [v] "er" (v));
#else
	WRITE_ONCE(*p, READ_ONCE(*p) + v);
#endif
}

static __always_inline unsigned int this_cpu_add_return_uint(unsigned int *p, unsigned int v)
{
#ifdef MMSCALE_LOCAL_CMPXCHG_INSN
	unsigned int old = v;

	__asm__ __volatile__("xaddl %[old], %[var]" : [old] "+r" (old), [var] "+m" (*p) : : "memory");
	return old + v;
#else
	unsigned int n = READ_ONCE(*p) + v;

	WRITE_ONCE(*p, n);
	return n;
#endif
}

static __always_inline unsigned long this_cpu_add_return_ulong(unsigned long *p, unsigned long v)
{
#ifdef MMSCALE_LOCAL_CMPXCHG_INSN
	unsigned long old = v;

	__asm__ __volatile__("xaddq %[old], %[var]" : [old] "+r" (old), [var] "+m" (*p) : : "memory");
	return old + v;
#else
	unsigned long n = READ_ONCE(*p) + v;

	WRITE_ONCE(*p, n);
	return n;
#endif
}

static __always_inline unsigned int this_cpu_xchg_uint(unsigned int *p, unsigned int new)
{
	s32 old = (s32)READ_ONCE(*p);	/* raw_cpu_read */

	while (!this_cpu_try_cmpxchg_s32((s32 *)(void *)p, &old, (s32)new))
		;
	return (unsigned int)old;
}

/* NULL when the units are full (the caller reports it). */
void *__alloc_percpu(size_t size, size_t align);
/*
 * The same area, not zeroed: what the kernel's chunk search
 * (pcpu_find_block_fit, pcpu_alloc_area) finds, for a generation whose
 * pcpu_alloc takes its own locks around it and zeroes the area after
 * (kernel/linux-6.18/mm/percpu.c). It keeps this allocator's own mutex.
 */
void *pcpu_area_alloc(size_t size, size_t align);
#define alloc_percpu(type) \
	((type *)__alloc_percpu(sizeof(type), __alignof__(type)))
void free_percpu(void *ptr);

#endif /* MMSCALE_KERNEL_PERCPU_H */
