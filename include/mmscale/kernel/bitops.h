/* SPDX-License-Identifier: GPL-2.0 */
/* Atomic bit operations on unsigned long words, as the kernel's set_bit & co. */
#ifndef MMSCALE_KERNEL_BITOPS_H
#define MMSCALE_KERNEL_BITOPS_H

#include <limits.h>
#include "compiler.h"

#define BIT_WORD(nr)	((nr) / (sizeof(long) * CHAR_BIT))
#define BIT_MASK(nr)	(1UL << ((nr) % (sizeof(long) * CHAR_BIT)))

/* set_bit/clear_bit: atomic, no ordering (x86 lock or/and). */
static __always_inline void set_bit(long nr, volatile unsigned long *addr)
{
	__atomic_fetch_or(&addr[BIT_WORD(nr)], BIT_MASK(nr), __ATOMIC_RELAXED);
}

static __always_inline void clear_bit(long nr, volatile unsigned long *addr)
{
	__atomic_fetch_and(&addr[BIT_WORD(nr)], ~BIT_MASK(nr), __ATOMIC_RELAXED);
}

static __always_inline bool test_bit(long nr, const volatile unsigned long *addr)
{
	return (__atomic_load_n(&addr[BIT_WORD(nr)], __ATOMIC_RELAXED) & BIT_MASK(nr)) != 0;
}

/* test_and_set_bit: fully ordered, as the kernel's value-returning atomics. */
static __always_inline bool test_and_set_bit(long nr, volatile unsigned long *addr)
{
	return (__atomic_fetch_or(&addr[BIT_WORD(nr)], BIT_MASK(nr), __ATOMIC_SEQ_CST) &
		BIT_MASK(nr)) != 0;
}

#endif /* MMSCALE_KERNEL_BITOPS_H */
