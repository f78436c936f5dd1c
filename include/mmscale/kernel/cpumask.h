/* SPDX-License-Identifier: GPL-2.0 */
/*
 * struct cpumask, as include/linux/cpumask.h with CONFIG_NR_CPUS=4096 (the
 * SGI UV configuration of the drain seed). Emulated CPUs are 0..nr_cpu_ids-1,
 * all possible; the harness puts a run's CPUs online (CPUs 0..k-1,
 * machine_online_cpus) and the rest offline, as a run's case says.
 */
#ifndef MMSCALE_KERNEL_CPUMASK_H
#define MMSCALE_KERNEL_CPUMASK_H

#include <limits.h>
#include <string.h>
#include "bitops.h"
#include "compiler.h"

#define NR_CPUS			4096
#define BITS_PER_LONG		(sizeof(long) * CHAR_BIT)
#define BITS_TO_LONGS(n)	DIV_ROUND_UP(n, BITS_PER_LONG)

struct cpumask {
	unsigned long bits[BITS_TO_LONGS(NR_CPUS)];
};
typedef struct cpumask cpumask_t;
typedef struct cpumask cpumask_var_t[1];

/* The number of emulated CPUs of the current plan (set by the harness). */
extern unsigned int nr_cpu_ids;
extern struct cpumask __cpu_online_mask;
#define cpu_online_mask		((const struct cpumask *)&__cpu_online_mask)
#define cpu_possible_mask	cpu_online_mask

#define cpumask_bits(maskp)	((maskp)->bits)

/*
 * A word of a mask, as the kernel reads it: a plain load (relaxed), which
 * another CPU's locked set or clear of a bit in the same word may race with
 * (a mask the kernel shares, such as 3.4's static cpus_with_pcps).
 */
static inline unsigned long cpumask_word(const struct cpumask *m, size_t i)
{
	return __atomic_load_n(&m->bits[i], __ATOMIC_RELAXED);
}

/* The kernel's atomic forms: set_bit/clear_bit, a locked RMW each (counted). */
static inline void cpumask_set_cpu(unsigned int cpu, struct cpumask *m)
{
	set_bit((long)cpu, m->bits);
}

static inline void cpumask_clear_cpu(unsigned int cpu, struct cpumask *m)
{
	clear_bit((long)cpu, m->bits);
}

static inline bool cpumask_test_and_clear_cpu(unsigned int cpu, struct cpumask *m)
{
	return test_and_clear_bit((long)cpu, m->bits);
}

/* The non-atomic forms (__set_bit/__clear_bit), for a mask only its owner writes. */
static inline void __cpumask_set_cpu(unsigned int cpu, struct cpumask *m)
{
	__set_bit((long)cpu, m->bits);
}

static inline void __cpumask_clear_cpu(unsigned int cpu, struct cpumask *m)
{
	__clear_bit((long)cpu, m->bits);
}

static inline bool cpumask_test_cpu(unsigned int cpu, const struct cpumask *m)
{
	return (cpumask_word(m, cpu / BITS_PER_LONG) >> (cpu % BITS_PER_LONG)) & 1;
}

/* Plain stores of whole words (bitmap_zero: a memset in the kernel). */
static inline void cpumask_clear(struct cpumask *m)
{
	for (size_t i = 0; i < BITS_TO_LONGS(NR_CPUS); i++)
		__atomic_store_n(&m->bits[i], 0UL, __ATOMIC_RELAXED);
}

/* Only the first nr_cpu_ids bits, as the kernel's cpumask_setall. */
static inline void cpumask_setall(struct cpumask *m)
{
	cpumask_clear(m);
	for (unsigned int cpu = 0; cpu < nr_cpu_ids; cpu++)
		__cpumask_set_cpu(cpu, m);
}

static inline void cpumask_copy(struct cpumask *dst, const struct cpumask *src)
{
	for (size_t i = 0; i < BITS_TO_LONGS(NR_CPUS); i++)
		__atomic_store_n(&dst->bits[i], cpumask_word(src, i), __ATOMIC_RELAXED);
}

/* dst = a & b, word by word over nr_cpu_ids bits (bitmap_and: plain loads and stores). */
static inline bool cpumask_and(struct cpumask *dst, const struct cpumask *a,
			       const struct cpumask *b)
{
	unsigned long any = 0;

	for (size_t i = 0; i < BITS_TO_LONGS(nr_cpu_ids); i++) {
		unsigned long w = cpumask_word(a, i) & cpumask_word(b, i);

		__atomic_store_n(&dst->bits[i], w, __ATOMIC_RELAXED);
		any |= w;
	}
	return any != 0;
}

static inline unsigned int cpumask_weight(const struct cpumask *m)
{
	unsigned int w = 0;

	for (size_t i = 0; i < BITS_TO_LONGS(nr_cpu_ids); i++)
		w += (unsigned int)__builtin_popcountl(cpumask_word(m, i));
	return w;
}

static inline bool cpumask_empty(const struct cpumask *m)
{
	for (size_t i = 0; i < BITS_TO_LONGS(nr_cpu_ids); i++)
		if (cpumask_word(m, i))
			return false;
	return true;
}

/* Whether two masks have the same first nr_cpu_ids bits (bitmap_equal: plain loads). */
static inline bool cpumask_equal(const struct cpumask *a, const struct cpumask *b)
{
	for (size_t i = 0; i < BITS_TO_LONGS(nr_cpu_ids); i++) {
		unsigned long diff = cpumask_word(a, i) ^ cpumask_word(b, i);

		if (i == BITS_TO_LONGS(nr_cpu_ids) - 1 && nr_cpu_ids % BITS_PER_LONG)
			diff &= (1UL << (nr_cpu_ids % BITS_PER_LONG)) - 1;
		if (diff)
			return false;
	}
	return true;
}

/* The next set CPU after n (n = -1 to start), or nr_cpu_ids if none. */
static inline unsigned int cpumask_next(int n, const struct cpumask *m)
{
	for (unsigned int cpu = (unsigned int)(n + 1); cpu < nr_cpu_ids; cpu++) {
		unsigned long word = cpumask_word(m, cpu / BITS_PER_LONG) >> (cpu % BITS_PER_LONG);

		if (word)
			return min_t(unsigned int, nr_cpu_ids,
				     cpu + (unsigned int)__builtin_ctzl(word));
		cpu |= BITS_PER_LONG - 1;	/* skip the rest of an empty word */
	}
	return nr_cpu_ids;
}

#define cpumask_first(m)	cpumask_next(-1, (m))

#define for_each_cpu(cpu, mask)					\
	for ((cpu) = cpumask_next(-1, (mask));			\
	     (cpu) < nr_cpu_ids;					\
	     (cpu) = cpumask_next((int)(cpu), (mask)))

#define for_each_online_cpu(cpu)	for_each_cpu(cpu, cpu_online_mask)
#define for_each_possible_cpu(cpu)	for_each_cpu(cpu, cpu_online_mask)
#define num_online_cpus()		cpumask_weight(cpu_online_mask)

#endif /* MMSCALE_KERNEL_CPUMASK_H */
