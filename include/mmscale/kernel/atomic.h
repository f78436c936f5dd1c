/* SPDX-License-Identifier: GPL-2.0 */
/*
 * atomic_t / atomic_long_t on C11 atomics, with the kernel's ordering rules
 * (Documentation/atomic_t.txt): plain reads, sets and non-value-returning
 * RMW operations are relaxed; value-returning RMW operations
 * (*_return, xchg, cmpxchg, *_and_test) are fully ordered. Every RMW is one
 * locked instruction on x86: each counts MMSCALE_LOCKED_OPS.
 */
#ifndef MMSCALE_KERNEL_ATOMIC_H
#define MMSCALE_KERNEL_ATOMIC_H

#include <stdatomic.h>
#include "compiler.h"
#include "../opcount.h"

typedef struct {
	_Atomic int counter;
} atomic_t;

typedef struct {
	_Atomic long counter;
} atomic_long_t;

#define ATOMIC_INIT(i)		{ (i) }
#define ATOMIC_LONG_INIT(i)	{ (i) }

#define __MMSCALE_ATOMIC_OPS(pfx, type, ctype)					\
static __always_inline ctype pfx##_read(const type *v)				\
{										\
	return atomic_load_explicit((_Atomic ctype *)&v->counter,		\
				    memory_order_relaxed);			\
}										\
static __always_inline void pfx##_set(type *v, ctype i)				\
{										\
	atomic_store_explicit(&v->counter, i, memory_order_relaxed);		\
}										\
static __always_inline void pfx##_add(ctype i, type *v)				\
{										\
	mmscale_count_inc(MMSCALE_LOCKED_OPS);					\
	atomic_fetch_add_explicit(&v->counter, i, memory_order_relaxed);	\
}										\
static __always_inline void pfx##_sub(ctype i, type *v)				\
{										\
	mmscale_count_inc(MMSCALE_LOCKED_OPS);					\
	atomic_fetch_sub_explicit(&v->counter, i, memory_order_relaxed);	\
}										\
static __always_inline void pfx##_inc(type *v)					\
{										\
	pfx##_add(1, v);							\
}										\
static __always_inline void pfx##_dec(type *v)					\
{										\
	pfx##_sub(1, v);							\
}										\
static __always_inline ctype pfx##_add_return(ctype i, type *v)			\
{										\
	mmscale_count_inc(MMSCALE_LOCKED_OPS);					\
	return atomic_fetch_add(&v->counter, i) + i;				\
}										\
static __always_inline ctype pfx##_sub_return(ctype i, type *v)			\
{										\
	mmscale_count_inc(MMSCALE_LOCKED_OPS);					\
	return atomic_fetch_sub(&v->counter, i) - i;				\
}										\
static __always_inline ctype pfx##_inc_return(type *v)				\
{										\
	return pfx##_add_return(1, v);						\
}										\
static __always_inline ctype pfx##_dec_return(type *v)				\
{										\
	return pfx##_sub_return(1, v);						\
}										\
static __always_inline bool pfx##_dec_and_test(type *v)				\
{										\
	return pfx##_dec_return(v) == 0;					\
}										\
static __always_inline ctype pfx##_xchg(type *v, ctype new)			\
{										\
	mmscale_count_inc(MMSCALE_LOCKED_OPS);					\
	return atomic_exchange(&v->counter, new);				\
}										\
static __always_inline ctype pfx##_cmpxchg(type *v, ctype old, ctype new)	\
{										\
	mmscale_count_inc(MMSCALE_LOCKED_OPS);					\
	atomic_compare_exchange_strong(&v->counter, &old, new);			\
	return old;								\
}

__MMSCALE_ATOMIC_OPS(atomic, atomic_t, int)
__MMSCALE_ATOMIC_OPS(atomic_long, atomic_long_t, long)

#undef __MMSCALE_ATOMIC_OPS

#endif /* MMSCALE_KERNEL_ATOMIC_H */
