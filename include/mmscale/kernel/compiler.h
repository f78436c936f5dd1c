/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernel-style basics for the emulation: types, compiler hints, READ_ONCE,
 * cpu_relax, fls/ilog2, min/max, container_of and the one cache-line macro.
 *
 * Written so that kernel functions port almost verbatim (the names are the
 * kernel's). Requires gnu11 (typeof, statement expressions, __atomic builtins).
 */
#ifndef MMSCALE_KERNEL_COMPILER_H
#define MMSCALE_KERNEL_COMPILER_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>

typedef int8_t s8;
typedef uint8_t u8;
typedef int16_t s16;
typedef uint16_t u16;
typedef int32_t s32;
typedef uint32_t u32;
typedef int64_t s64;
typedef uint64_t u64;

/*
 * The one cache-line size used everywhere (x86: L1_CACHE_SHIFT 6). Never
 * write a literal 64: use L1_CACHE_BYTES or one of the attributes below.
 */
#define L1_CACHE_SHIFT		6
#define L1_CACHE_BYTES		(1 << L1_CACHE_SHIFT)
#define SMP_CACHE_BYTES		L1_CACHE_BYTES
#define ____cacheline_aligned	__attribute__((__aligned__(SMP_CACHE_BYTES)))
#define ____cacheline_aligned_in_smp ____cacheline_aligned

/*
 * Stride between per-thread slots that must never interact: the adjacent
 * line prefetcher pulls lines in pairs, so two lines are not enough to keep
 * independent writers apart (will-it-scale strides its per-task counters by
 * 256 bytes for the same reason).
 */
#define MMSCALE_ISOLATION_BYTES	(4 * L1_CACHE_BYTES)
#define ____isolated_aligned	__attribute__((__aligned__(MMSCALE_ISOLATION_BYTES)))

#define likely(x)	__builtin_expect(!!(x), 1)
#define unlikely(x)	__builtin_expect(!!(x), 0)
#define barrier()	__asm__ __volatile__("" : : : "memory")
#ifndef __always_inline
#define __always_inline	inline __attribute__((__always_inline__))
#endif
#define __maybe_unused	__attribute__((__unused__))
#define noinline	__attribute__((__noinline__))

#define BUILD_BUG_ON(cond)	_Static_assert(!(cond), #cond)
#define ARRAY_SIZE(a)		(sizeof(a) / sizeof((a)[0]))
#define DIV_ROUND_UP(n, d)	(((n) + (d) - 1) / (d))

/*
 * Export a variant's function, which keeps its kernel name (static) in its
 * own file, under the symbol its row names: an alias of the same function,
 * with the type the family's variants header declares for that symbol (a
 * mismatch is a compile error in the variant's file).
 */
#define MMSCALE_VARIANT_SYMBOL(symbol, fn)				\
	extern __typeof__(fn) symbol __attribute__((alias(#fn)))

#define container_of(ptr, type, member) ({				\
	const typeof(((type *)0)->member) *__mptr = (ptr);		\
	(type *)(void *)((char *)__mptr - offsetof(type, member)); })

/*
 * min/max with locals of their own names per use (the kernel's
 * __UNIQUE_ID), so that min(a, min(b, c)) nests as in the kernel.
 */
#define __PASTE_(a, b)	a##b
#define __PASTE(a, b)	__PASTE_(a, b)
#define __UNIQUE_ID(prefix) __PASTE(__PASTE(__UNIQUE_ID_, prefix), __COUNTER__)
#define __min(t1, t2, min1, min2, x, y) ({ t1 min1 = (x); t2 min2 = (y);	\
	(void)(&min1 == &min2); min1 < min2 ? min1 : min2; })
#define min(x, y) __min(typeof(x), typeof(y), __UNIQUE_ID(min1_), __UNIQUE_ID(min2_), x, y)
#define __max(t1, t2, max1, max2, x, y) ({ t1 max1 = (x); t2 max2 = (y);	\
	(void)(&max1 == &max2); max1 > max2 ? max1 : max2; })
#define max(x, y) __max(typeof(x), typeof(y), __UNIQUE_ID(max1_), __UNIQUE_ID(max2_), x, y)
#define min_t(type, x, y) __min(type, type, __UNIQUE_ID(min1_), __UNIQUE_ID(min2_), x, y)
#define max_t(type, x, y) __max(type, type, __UNIQUE_ID(max1_), __UNIQUE_ID(max2_), x, y)
#define clamp_t(type, v, lo, hi) min_t(type, max_t(type, v, lo), hi)

/*
 * READ_ONCE/WRITE_ONCE on plain objects. The kernel uses volatile accesses;
 * here they are relaxed __atomic accesses so that the races the emulation
 * keeps on purpose (counters read while another CPU writes them) are atomic
 * accesses to ThreadSanitizer, not data races. On x86 both compile to the
 * same single mov the kernel emits.
 */
#define READ_ONCE(x)		__atomic_load_n(&(x), __ATOMIC_RELAXED)
#define WRITE_ONCE(x, val)	__atomic_store_n(&(x), (val), __ATOMIC_RELAXED)

/* A ThreadSanitizer build, as GCC says it (__SANITIZE_THREAD__) or clang. */
#if defined(__SANITIZE_THREAD__)
#define MMSCALE_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define MMSCALE_TSAN 1
#endif
#endif

#if defined(MMSCALE_TSAN)
/*
 * ThreadSanitizer does not model fences (GCC refuses them under
 * -fsanitize=thread with -Werror): in TSan builds they are compiler
 * barriers only, and the accesses they order carry acquire/release
 * themselves where another CPU relies on them (kernel/linux-2.6/kernel/smp.c's mask bits),
 * which is what TSan checks.
 */
#define smp_mb()	__atomic_signal_fence(__ATOMIC_SEQ_CST)
#define smp_rmb()	__atomic_signal_fence(__ATOMIC_ACQUIRE)
#define smp_wmb()	__atomic_signal_fence(__ATOMIC_RELEASE)
#else
#define smp_mb()	__atomic_thread_fence(__ATOMIC_SEQ_CST)
#define smp_rmb()	__atomic_thread_fence(__ATOMIC_ACQUIRE)
#define smp_wmb()	__atomic_thread_fence(__ATOMIC_RELEASE)
#endif

/* rep; nop, as x86's cpu_relax(). */
static __always_inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__asm__ __volatile__("pause" ::: "memory");
#elif defined(__aarch64__)
	__asm__ __volatile__("yield" ::: "memory");
#else
	barrier();
#endif
}

/* fls(0) = 0, fls(1) = 1, fls(0x80000000) = 32, as in asm-generic/bitops. */
static __always_inline int fls(unsigned int x)
{
	return x ? 32 - __builtin_clz(x) : 0;
}

static __always_inline int fls64(u64 x)
{
	return x ? 64 - __builtin_clzll(x) : 0;
}

static __always_inline int fls_long(unsigned long x)
{
	return fls64(x);
}

/* ilog2(n) for n > 0: the index of the highest set bit. */
static __always_inline int ilog2(unsigned long n)
{
	return fls_long(n) - 1;
}

static __always_inline unsigned long roundup_pow_of_two(unsigned long n)
{
	return n <= 1 ? 1 : 1UL << fls_long(n - 1);
}

#endif /* MMSCALE_KERNEL_COMPILER_H */
