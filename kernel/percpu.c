// SPDX-License-Identifier: GPL-2.0
/*
 * The dynamic per-CPU allocator (include/mmscale/kernel/percpu.h) over the
 * units the machine gives each emulated CPU on its own node
 * (machine_boot): a percpu pointer is a cookie plus an offset that is the
 * same in every unit, as the kernel's chunks work. First fit: allocations
 * are few and live as long as a run.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "mmscale/kernel/percpu.h"
#include "mmscale/kernel/transfers.h"

uintptr_t *__per_cpu_offset;

/* A percpu pointer is this cookie plus the offset inside every unit. */
#define PERCPU_COOKIE ((uintptr_t)1 << 20)

struct percpu_chunk {
	size_t off, size;
};

static struct {
	char *const *units;		/* per emulated CPU, from the machine */
	unsigned int nr_units;
	size_t unit_size;
	struct percpu_chunk *chunks;	/* allocated ranges, sorted by offset */
	size_t nr_chunks, max_chunks;
	pthread_mutex_t lock;
} pcpu = { .lock = PTHREAD_MUTEX_INITIALIZER };

int setup_per_cpu_areas(char *const *units, unsigned int nr_units, size_t unit_size)
{
	free_per_cpu_areas();
	__per_cpu_offset = calloc(nr_units ? nr_units : 1, sizeof(*__per_cpu_offset));
	if (!__per_cpu_offset)
		return -1;
	for (unsigned int cpu = 0; cpu < nr_units; cpu++)
		__per_cpu_offset[cpu] = (uintptr_t)units[cpu] - PERCPU_COOKIE;
	pcpu.units = units;
	pcpu.nr_units = nr_units;
	pcpu.unit_size = unit_size;
	return 0;
}

void free_per_cpu_areas(void)
{
	free(__per_cpu_offset);
	free(pcpu.chunks);
	__per_cpu_offset = NULL;
	pcpu.chunks = NULL;
	pcpu.nr_chunks = pcpu.max_chunks = 0;
	pcpu.units = NULL;
	pcpu.nr_units = 0;
	pcpu.unit_size = 0;
}

#ifdef MMSCALE_TRANSFERS
/* The caller of __alloc_percpu, while it allocates (the counting build's names). */
static _Thread_local uintptr_t pcpu_caller;
#endif

void *pcpu_area_alloc(size_t size, size_t align)
{
	size_t off = 0, i;
	void *ret = NULL;

	if (!pcpu.units || size == 0 || size > pcpu.unit_size)
		return NULL;
	if (align < sizeof(long))
		align = sizeof(long);
	pthread_mutex_lock(&pcpu.lock);
	for (i = 0; i <= pcpu.nr_chunks; i++) {
		size_t end = i < pcpu.nr_chunks ? pcpu.chunks[i].off : pcpu.unit_size;

		off = (off + align - 1) & ~(align - 1);
		if (off + size <= end)
			break;
		if (i < pcpu.nr_chunks)
			off = pcpu.chunks[i].off + pcpu.chunks[i].size;
	}
	if (i > pcpu.nr_chunks)
		goto out;
	if (pcpu.nr_chunks == pcpu.max_chunks) {
		size_t max = pcpu.max_chunks ? 2 * pcpu.max_chunks : 16;
		struct percpu_chunk *c = realloc(pcpu.chunks, max * sizeof(*c));

		if (!c)
			goto out;
		pcpu.chunks = c;
		pcpu.max_chunks = max;
	}
	memmove(&pcpu.chunks[i + 1], &pcpu.chunks[i],
		(pcpu.nr_chunks - i) * sizeof(*pcpu.chunks));
	pcpu.chunks[i] = (struct percpu_chunk){ .off = off, .size = size };
	pcpu.nr_chunks++;
	ret = (void *)(PERCPU_COOKIE + off);
#ifdef MMSCALE_TRANSFERS
	/* Named by its caller: __alloc_percpu passes its own on (pcpu_caller). */
	mmscale_transfers_note_alloc(true, off, size, pcpu_caller ? pcpu_caller :
				     (uintptr_t)__builtin_return_address(0));
#endif
out:
	pthread_mutex_unlock(&pcpu.lock);
	return ret;
}

void *__alloc_percpu(size_t size, size_t align)
{
#ifdef MMSCALE_TRANSFERS
	pcpu_caller = (uintptr_t)__builtin_return_address(0);
#endif
	void *ret = pcpu_area_alloc(size, align);

#ifdef MMSCALE_TRANSFERS
	pcpu_caller = 0;
#endif
	if (ret)
		for (unsigned int cpu = 0; cpu < pcpu.nr_units; cpu++)
			memset(per_cpu_ptr((char *)ret, cpu), 0, size);
	return ret;
}

void free_percpu(void *ptr)
{
	size_t off = (uintptr_t)ptr - PERCPU_COOKIE;

	if (!ptr)
		return;
#ifdef MMSCALE_TRANSFERS
	mmscale_transfers_note_free(true, off);
#endif
	pthread_mutex_lock(&pcpu.lock);
	for (size_t i = 0; i < pcpu.nr_chunks; i++) {
		if (pcpu.chunks[i].off == off) {
			memmove(&pcpu.chunks[i], &pcpu.chunks[i + 1],
				(pcpu.nr_chunks - i - 1) * sizeof(*pcpu.chunks));
			pcpu.nr_chunks--;
			break;
		}
	}
	pthread_mutex_unlock(&pcpu.lock);
}
