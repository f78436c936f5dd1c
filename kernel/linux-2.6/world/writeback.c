// SPDX-License-Identifier: GPL-2.0
/*
 * The emulated world around 2.6.31's writeback code (kernel/linux-2.6/mm/page-writeback.c):
 * what is not about counters, emulated minimally and deterministically
 * (include/mmscale/linux-2.6/mm/writeback.h says how) - the writers' files in the
 * page cache, writeback_inodes over them, congestion_wait, pdflush's
 * background writeout on a flusher thread completing writeback at the
 * emulated device's bandwidth, and the world's setup and checks.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mmscale/kernel/machine.h"
#include "mmscale/kernel/timekeeping.h"
#include "mmscale/linux-2.6/mm/writeback.h"

struct writeback_world *wb_world;
static unsigned long wb_world_gen;	/* worlds made so far */

void emu_store_page(struct address_space *mapping)
{
	struct emu_inode *inode = mapping->host;
	long n = inode->next_data++;

	memset(inode->data + (n % EMU_DATA_PAGES) * PAGE_SIZE, (int)(n & 0xff), PAGE_SIZE);
}

int emu_write_next_page(struct address_space *mapping)
{
	struct emu_inode *inode = mapping->host;

	/* Every page of the file is dirty already: the write dirties nothing. */
	if (atomic_long_read(&inode->nr_dirty) >= inode->nr_pages)
		return 0;
	account_page_dirtied(inode->zone, mapping);
	atomic_long_inc(&inode->nr_dirty);
	return 1;
}

static long complete_writeback(struct writeback_world *w, struct emu_inode *inode,
			       long nr)
{
	long done = min(nr, atomic_long_read(&inode->nr_writeback));

	for (long i = 0; i < done; i++)
		end_page_writeback(inode->zone, &w->bdi);
	atomic_long_sub(done, &inode->nr_writeback);
	return done;
}

/*
 * writeback_inodes: walk the bdi's files round-robin from a moving cursor,
 * moving up to wbc->nr_to_write dirty pages to writeback. A file another
 * CPU is writing back is skipped (I_SYNC), as WB_SYNC_NONE writeback does.
 */
void writeback_inodes(struct writeback_control *wbc)
{
	struct writeback_world *w = wb_world;
	long start;

	if (!w || w->nr_writers == 0)
		return;
	start = atomic_long_inc_return(&w->writeback_cursor);
	for (int i = 0; i < w->nr_writers && wbc->nr_to_write > 0; i++) {
		struct emu_inode *inode = &w->inodes[(start + i) % w->nr_writers];
		long nr;

		if (!spin_trylock(&inode->i_sync)) {
			wbc->more_io = 1;
			continue;
		}
		nr = min(atomic_long_read(&inode->nr_dirty), wbc->nr_to_write);
		for (long k = 0; k < nr; k++)
			page_to_writeback(inode->zone, &w->bdi);
		atomic_long_sub(nr, &inode->nr_dirty);
		atomic_long_add(nr, &inode->nr_writeback);
		wbc->nr_to_write -= nr;
		if (w->complete_on_submit)
			complete_writeback(w, inode, nr);
		spin_unlock(&inode->i_sync);
	}
}

long congestion_wait(int rw, long timeout)
{
	struct timespec ts = {
		.tv_sec = mm_config()->congestion_wait_us / 1000000,
		.tv_nsec = (long)(mm_config()->congestion_wait_us % 1000000) * 1000,
	};

	(void)rw;
	(void)timeout;	/* every caller passes HZ/10 */
	if (mm_config()->congestion_wait_us && !(wb_world && wb_world->complete_on_submit))
		nanosleep(&ts, NULL);
	return 0;
}

/*
 * pdflush_operation(background_writeout, 0): hand the work to the flusher
 * thread; -1 when there is none (the kernel's "no pdflush available").
 */
int pdflush_operation(void (*fn)(unsigned long), unsigned long arg0)
{
	(void)fn;
	(void)arg0;
	if (!wb_world || !wb_world->flusher)
		return -1;
	atomic_store_explicit(&wb_world->background_requested, true, memory_order_release);
	return 0;
}

/* The flusher: background writeout when asked, completions at device speed. */

#define FLUSHER_TICK_NS 50000

static double now_ms(void)
{
	return (double)ktime_get_ns() * 1e-6;
}

static void flusher_main(void *arg)
{
	struct writeback_world *w = arg;
	struct timespec tick = { 0, FLUSHER_TICK_NS };
	double last = now_ms(), budget = 0;
	int next = 0;

	while (!atomic_load_explicit(&w->flusher_stop, memory_order_acquire)) {
		double t;

		nanosleep(&tick, NULL);
		t = now_ms();
		budget += (t - last) * mm_config()->device_pages_per_ms;
		last = t;
		/* Complete whole pages, oldest file first, round-robin. */
		for (int i = 0; i < w->nr_writers && budget >= 1; i++) {
			struct emu_inode *inode = &w->inodes[(next + i) % w->nr_writers];

			budget -= (double)complete_writeback(w, inode, (long)budget);
		}
		next = (next + 1) % (w->nr_writers ? w->nr_writers : 1);
		if (budget > mm_config()->device_pages_per_ms)
			budget = mm_config()->device_pages_per_ms;	/* an idle device saves nothing */
		if (atomic_exchange(&w->background_requested, false)) {
			set_bit(BDI_pdflush, &w->bdi.state);
			background_writeout(0);
			clear_bit(BDI_pdflush, &w->bdi.state);
		}
		vmstat_work_tick(mm_config()->vmstat_interval_scaled_ns);
	}
}

struct writeback_world *writeback_world_create(int nr_writers, long file_pages,
					       int flusher_cpu, char *err, size_t errlen)
{
	struct writeback_world *w = alloc_global(sizeof(*w), err, errlen);

	if (!w)
		return NULL;
	w->nr_writers = nr_writers;
	w->inodes = alloc_global(sizeof(*w->inodes) * (size_t)(nr_writers + 1), err, errlen);
	w->mappings = calloc((size_t)nr_writers + 1, sizeof(*w->mappings));
	bdp_ratelimits = alloc_percpu(unsigned long);
	if (!w->inodes || !w->mappings || !bdp_ratelimits || bdi_init(&w->bdi) != 0) {
		mmscale_errorf(err, errlen, "cannot allocate the writeback world");
		writeback_world_destroy(w);
		return NULL;
	}
	for (int i = 0; i < nr_writers; i++) {
		struct emu_inode *inode = &w->inodes[i];
		struct zone *zone = local_zone(i);

		spin_lock_init(&inode->i_sync);
		inode->zone = zone;
		inode->data = alloc_on_node(zone_node(zone), EMU_DATA_PAGES * PAGE_SIZE,
						    err, errlen);
		if (!inode->data) {
			w->nr_writers = i;
			writeback_world_destroy(w);
			return NULL;
		}
		inode->nr_pages = file_pages;
		/* fio's pre_read: the file is in the page cache, clean, on the LRU. */
		zone_page_state_add(-file_pages, zone, NR_FREE_PAGES);
		zone_page_state_add(file_pages, zone, NR_FILE_PAGES);
		zone_page_state_add(file_pages, zone, NR_INACTIVE_FILE);
		w->mappings[i] = (struct address_space){ .backing_dev_info = &w->bdi,
							 .host = inode };
	}
	/*
	 * The sysctls as at boot (lines 66-80: every run starts from them),
	 * then --set's written over them (mm/config.h): page_writeback_init
	 * then computes the proportions' period from them, as the handlers'
	 * update_completion_period would.
	 */
	dirty_background_ratio = 10;
	dirty_background_bytes = 0;
	vm_dirty_ratio = 20;
	vm_dirty_bytes = 0;
	mm_dirty_sysctls_write(&vm_dirty_ratio, &vm_dirty_bytes, &dirty_background_ratio,
			       &dirty_background_bytes);
	/* page_writeback_init (lines 909-921): the ratelimit and the two proportions. */
	writeback_set_ratelimit();
	if (writeback_proportions_init(w, err, errlen) != 0) {
		writeback_world_destroy(w);
		return NULL;
	}
	w->gen = ++wb_world_gen;
	wb_world = w;
	if (flusher_cpu >= 0) {
		w->flusher = kthread_run(flusher_cpu, flusher_main, w, err, errlen);
		if (!w->flusher) {
			writeback_world_destroy(w);
			return NULL;
		}
	}
	return w;
}

void writeback_world_stop_flusher(struct writeback_world *w)
{
	if (w->flusher) {
		atomic_store_explicit(&w->flusher_stop, true, memory_order_release);
		kthread_stop(w->flusher);
		w->flusher = NULL;
	}
}

void writeback_world_destroy(struct writeback_world *w)
{
	if (!w)
		return;
	writeback_world_stop_flusher(w);
	if (wb_world == w)
		wb_world = NULL;
	for (int i = 0; w->inodes && i < w->nr_writers; i++)
		free_on_node(w->inodes[i].data, EMU_DATA_PAGES * PAGE_SIZE);
	bdi_destroy(&w->bdi);
	writeback_proportions_destroy();
	free_percpu(bdp_ratelimits);
	bdp_ratelimits = NULL;
	free(w->mappings);
	free_on_node(w->inodes, sizeof(*w->inodes) * (size_t)(w->nr_writers + 1));
	free_on_node(w, sizeof(*w));
}

/*
 * After every CPU's deltas are folded: the global dirty and writeback
 * counters equal what the files hold, and so do the bdi's exact sums.
 */
int writeback_world_check(struct writeback_world *w, char *err, size_t errlen)
{
	long dirty = 0, writeback = 0;

	for (int i = 0; i < w->nr_writers; i++) {
		dirty += atomic_long_read(&w->inodes[i].nr_dirty);
		writeback += atomic_long_read(&w->inodes[i].nr_writeback);
	}
	if (atomic_long_read(vm_stat_slot(NR_FILE_DIRTY)) != dirty ||
	    atomic_long_read(vm_stat_slot(NR_WRITEBACK)) != writeback)
		return mmscale_errorf(err, errlen, "vmstat: nr_dirty %ld (files %ld), "
				      "nr_writeback %ld (files %ld)",
				      atomic_long_read(vm_stat_slot(NR_FILE_DIRTY)), dirty,
				      atomic_long_read(vm_stat_slot(NR_WRITEBACK)), writeback);
	if (percpu_counter_sum(&w->bdi.bdi_stat[BDI_RECLAIMABLE]) != dirty ||
	    percpu_counter_sum(&w->bdi.bdi_stat[BDI_WRITEBACK]) != writeback)
		return mmscale_errorf(err, errlen, "bdi_stat: reclaimable %lld (files %ld), "
				      "writeback %lld (files %ld)",
				      (long long)percpu_counter_sum(&w->bdi.bdi_stat[BDI_RECLAIMABLE]),
				      dirty,
				      (long long)percpu_counter_sum(&w->bdi.bdi_stat[BDI_WRITEBACK]),
				      writeback);
	return 0;
}
