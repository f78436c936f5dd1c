/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The locking of Linux 6.18's dynamic per-CPU allocator around an
 * allocation and a free: mm/percpu.c of ../shared/kernel/6.18 (blob
 * 81462ce5), pcpu_alloc_noprof (1730-1930) for a GFP_KERNEL allocation
 * that finds room in a chunk whose pages are populated (the common case:
 * no new chunk, no population), and free_percpu (2226-2275):
 *
 *   alloc: mutex_lock_killable(&pcpu_alloc_mutex); spin_lock_irqsave(&pcpu_lock);
 *          the chunk search; spin_unlock_irqrestore; mutex_unlock; then the
 *          area zeroed in every possible CPU's unit, outside both locks;
 *   free:  spin_lock_irqsave(&pcpu_lock); pcpu_free_area; unlock.
 *
 * The chunk search and pcpu_free_area are the machine's first-fit
 * allocator (kernel/percpu.c: pcpu_area_alloc, free_percpu), which keeps a
 * pthread mutex of its own inside pcpu_lock (two uncounted locked
 * instructions each way the kernel does not pay; the kernel's bitmap
 * search is not emulated either). Counts: the mutex's two cmpxchgs are
 * locked ops; pcpu_lock is a spin lock (a lock acquisition and a locked op
 * each time); an allocation is MMSCALE_PERCPU_ALLOCS, and its zeroing adds
 * the lines the area spans in each possible CPU's unit to
 * MMSCALE_LINES_ZEROED (where the first fit puts the area decides whether
 * a small one spans one line or two).
 *
 * Not emulated, and so missing from every claim built on these: with
 * __GFP_ACCOUNT (GFP_KERNEL_ACCOUNT, as mm_init's rss counters are
 * allocated) the memcg hooks pcpu_memcg_pre_alloc_hook (obj_cgroup_charge
 * of the object's size on every possible CPU: the memcg's page counters up
 * the hierarchy once its per-CPU stock is short), pcpu_memcg_post_alloc_hook
 * and pcpu_memcg_free_hook (mod_memcg_state of MEMCG_PERCPU_B, the
 * uncharge), and the balance work scheduled when free pages run low.
 */
#ifndef MMSCALE_MM_PERCPU_6_18_H
#define MMSCALE_MM_PERCPU_6_18_H

#include <stddef.h>

/* __alloc_percpu_gfp(size, align, GFP_KERNEL): zeroed in every unit; NULL when full. */
void *__alloc_percpu_gfp_6_18(size_t size, size_t align);
void free_percpu_6_18(void *ptr);

#endif /* MMSCALE_MM_PERCPU_6_18_H */
