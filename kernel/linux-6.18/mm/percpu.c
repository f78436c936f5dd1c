// SPDX-License-Identifier: GPL-2.0-only
/*
 * The locks of 6.18's pcpu_alloc and free_percpu around the machine's
 * allocator: linux-6.18/mm/percpu.h says which lines and what is left out.
 */
#include <string.h>

#include "mmscale/kernel/cpumask.h"
#include "mmscale/kernel/mutex.h"
#include "mmscale/kernel/percpu.h"
#include "mmscale/kernel/spinlock.h"
#include "mmscale/linux-6.18/mm/percpu.h"

static DEFINE_MUTEX(pcpu_alloc_mutex);	/* chunk create/destroy, [de]pop, map ext */
static DEFINE_SPINLOCK(pcpu_lock);	/* all internal data structures */

/* PCPU_MIN_ALLOC_SHIFT 2: areas in units of 4 bytes (mm/percpu-internal.h). */
#define PCPU_MIN_ALLOC_SIZE	4
#define ALIGN(x, a)	(((x) + (a) - 1) & ~((size_t)(a) - 1))

/* The cache lines an area covers in each unit (the units are line aligned). */
static u64 lines_spanned(const void *ptr, size_t size)
{
	uintptr_t first = (uintptr_t)per_cpu_ptr((const char *)ptr, 0);

	return (u64)((first + size - 1) / SMP_CACHE_BYTES - first / SMP_CACHE_BYTES + 1);
}

void *__alloc_percpu_gfp_6_18(size_t size, size_t align)
{
	unsigned long flags;
	unsigned int cpu;
	void *ptr;

	if (align < PCPU_MIN_ALLOC_SIZE)
		align = PCPU_MIN_ALLOC_SIZE;
	size = ALIGN(size, PCPU_MIN_ALLOC_SIZE);

	/* GFP_KERNEL is not atomic: the mutex, no __GFP_NOFAIL */
	mutex_lock_killable(&pcpu_alloc_mutex);

	spin_lock_irqsave(&pcpu_lock, flags);
	/* search through normal chunks: pcpu_find_block_fit, pcpu_alloc_area */
	ptr = pcpu_area_alloc(size, align);
	spin_unlock_irqrestore(&pcpu_lock, flags);

	/* the machine's units are populated from boot: pcpu_populate_chunk never runs */
	mutex_unlock(&pcpu_alloc_mutex);
	if (!ptr)
		return NULL;	/* the kernel would create a chunk; the units are full */

	/*
	 * clear the areas and return address relative to base address: every
	 * possible CPU, which here is every CPU of the plan, online or not
	 * (kernel/cpumask.h's for_each_possible_cpu walks the online ones).
	 */
	for (cpu = 0; cpu < nr_cpu_ids; cpu++)
		memset(per_cpu_ptr((char *)ptr, cpu), 0, size);
	mmscale_count_inc(MMSCALE_PERCPU_ALLOCS);
	mmscale_count_add(MMSCALE_LINES_ZEROED, (u64)nr_cpu_ids * lines_spanned(ptr, size));
	return ptr;
}

void free_percpu_6_18(void *ptr)
{
	unsigned long flags;

	if (!ptr)
		return;

	spin_lock_irqsave(&pcpu_lock, flags);
	free_percpu(ptr);	/* pcpu_free_area */
	spin_unlock_irqrestore(&pcpu_lock, flags);
}
