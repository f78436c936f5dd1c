/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Bit operations on unsigned long words, as the kernel's: set_bit & co. are
 * atomic (x86: a lock-prefixed or/and/bts/btr, each counting
 * MMSCALE_LOCKED_OPS); __set_bit & co. are the kernel's non-atomic forms
 * (a plain read-modify-write, for words no other CPU writes meanwhile).
 * Reads are relaxed atomic loads: plain movs, as the kernel's, that other
 * CPUs' locked writes may race with.
 */
#ifndef MMSCALE_KERNEL_BITOPS_H
#define MMSCALE_KERNEL_BITOPS_H

#include <limits.h>
#include "compiler.h"
#include "../opcount.h"

#define BIT_WORD(nr)	((nr) / (sizeof(long) * CHAR_BIT))
#define BIT_MASK(nr)	(1UL << ((nr) % (sizeof(long) * CHAR_BIT)))

/* set_bit/clear_bit: atomic, no ordering (x86 lock or/and). */
static __always_inline void set_bit(long nr, volatile unsigned long *addr)
{
	mmscale_count_inc(MMSCALE_LOCKED_OPS);
	__atomic_fetch_or(&addr[BIT_WORD(nr)], BIT_MASK(nr), __ATOMIC_RELAXED);
}

static __always_inline void clear_bit(long nr, volatile unsigned long *addr)
{
	mmscale_count_inc(MMSCALE_LOCKED_OPS);
	__atomic_fetch_and(&addr[BIT_WORD(nr)], ~BIT_MASK(nr), __ATOMIC_RELAXED);
}

static __always_inline bool test_bit(long nr, const volatile unsigned long *addr)
{
	return (__atomic_load_n(&addr[BIT_WORD(nr)], __ATOMIC_RELAXED) & BIT_MASK(nr)) != 0;
}

/* test_and_set_bit/test_and_clear_bit: fully ordered, as the kernel's value-returning atomics. */
static __always_inline bool test_and_set_bit(long nr, volatile unsigned long *addr)
{
	mmscale_count_inc(MMSCALE_LOCKED_OPS);
	return (__atomic_fetch_or(&addr[BIT_WORD(nr)], BIT_MASK(nr), __ATOMIC_SEQ_CST) &
		BIT_MASK(nr)) != 0;
}

static __always_inline bool test_and_clear_bit(long nr, volatile unsigned long *addr)
{
	mmscale_count_inc(MMSCALE_LOCKED_OPS);
	return (__atomic_fetch_and(&addr[BIT_WORD(nr)], ~BIT_MASK(nr), __ATOMIC_SEQ_CST) &
		BIT_MASK(nr)) != 0;
}

/* The non-atomic forms: a load and a store, no lock prefix, nothing counted. */
static __always_inline void __set_bit(long nr, volatile unsigned long *addr)
{
	volatile unsigned long *w = &addr[BIT_WORD(nr)];

	__atomic_store_n(w, __atomic_load_n(w, __ATOMIC_RELAXED) | BIT_MASK(nr),
			 __ATOMIC_RELAXED);
}

static __always_inline void __clear_bit(long nr, volatile unsigned long *addr)
{
	volatile unsigned long *w = &addr[BIT_WORD(nr)];

	__atomic_store_n(w, __atomic_load_n(w, __ATOMIC_RELAXED) & ~BIT_MASK(nr),
			 __ATOMIC_RELAXED);
}

#endif /* MMSCALE_KERNEL_BITOPS_H */
