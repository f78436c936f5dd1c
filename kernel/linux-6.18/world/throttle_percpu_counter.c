// SPDX-License-Identifier: GPL-2.0
/*
 * percpu_counter in the virtual-time world, for 6.18's dirty throttling
 * there (kernel/linux-6.18/world/throttle.c; built with MMSCALE_WB_6_18_WORLD, so
 * the names are linux-6.18/lib/percpu_counter.h's with the suffix _world). The
 * world is one thread, so a CPU's s32 is a plain array slot, indexed by
 * the CPU the world runs the code on; the arithmetic is 6.18's
 * lib/percpu_counter.c (blob 2891f94a): percpu_counter_add_batch (93-113)
 * folds the CPU's count and the amount into fbc->count once their sum
 * reaches the batch, __percpu_counter_sum (171-185) adds every CPU's, and
 * percpu_counter_set (60-72) and compute_batch_value (258-264) are 6.18's.
 *
 * Without the world's percpu_error every add folds at once: every read is
 * exact, as the 3.x variants' reads are in that world.
 *
 * Counts, as the machine's counters count them: a read counts
 * MMSCALE_BDI_READS, a sum adds the CPUs it walks (all online) to
 * MMSCALE_PERCPU_SUM_SLOTS. Under percpu_error a read also tells the
 * world its gap from the exact count.
 */
#include <stdlib.h>

#include "mmscale/mm/config.h"
#include "mmscale/linux-6.18/lib/percpu_counter.h"

/* compute_batch_value (258-264) at boot, for the world's CPUs. */
int percpu_counter_batch_6_18 = 32;

void compute_batch_value_6_18(void)
{
	int nr = (int)nr_cpu_ids;	/* num_online_cpus(): every CPU of the world is online */

	percpu_counter_batch_6_18 = max(32, nr * 2);
	/* mmscale: --set percpu_counter_batch=N (mm/config.h). */
	percpu_counter_batch_6_18 = MM_KNOB_OR(mm_config()->percpu_counter_batch,
					       percpu_counter_batch_6_18);
}

int __percpu_counter_init_many_6_18(struct percpu_counter *fbc, s64 amount, u32 nr_counters)
{
	s32 *counters = calloc((size_t)nr_counters * nr_cpu_ids, sizeof(*counters));

	if (!counters)
		return -1;
	for (u32 i = 0; i < nr_counters; i++) {
		spin_lock_init(&fbc[i].lock);
		fbc[i].count = amount;
		INIT_LIST_HEAD(&fbc[i].list);
		fbc[i].counters = &counters[(size_t)i * nr_cpu_ids];
	}
	return 0;
}

void percpu_counter_destroy_many_6_18(struct percpu_counter *fbc, u32 nr_counters)
{
	if (!nr_counters || !fbc[0].counters)
		return;
	free(fbc[0].counters);	/* the one allocation of init_many */
	for (u32 i = 0; i < nr_counters; i++)
		fbc[i].counters = NULL;
}

void percpu_counter_add_batch_6_18(struct percpu_counter *fbc, s64 amount, s32 batch)
{
	s32 *mine;
	s64 count;

	if (!throttle_percpu_error()) {
		fbc->count += amount;
		return;
	}
	mine = &fbc->counters[throttle_this_cpu()];
	count = *mine + amount;
	if (count >= batch || count <= -batch) {
		fbc->count += count;
		*mine = 0;
	} else {
		*mine = (s32)count;
	}
}

/* percpu_counter_set (60-72): every CPU's count to 0, fbc->count to amount. */
void percpu_counter_set_6_18(struct percpu_counter *fbc, s64 amount)
{
	for (unsigned int cpu = 0; cpu < nr_cpu_ids; cpu++)
		fbc->counters[cpu] = 0;
	fbc->count = amount;
}

/* Uncounted: what the reads compare with. */
static s64 exact_count(const struct percpu_counter *fbc)
{
	s64 ret = fbc->count;

	for (unsigned int cpu = 0; cpu < nr_cpu_ids; cpu++)
		ret += fbc->counters[cpu];
	return ret;
}

s64 __percpu_counter_sum_6_18(struct percpu_counter *fbc)
{
	mmscale_count_add(MMSCALE_PERCPU_SUM_SLOTS, nr_cpu_ids);
	return exact_count(fbc);
}

s64 percpu_counter_read_6_18_world(struct percpu_counter *fbc)
{
	mmscale_count_inc(MMSCALE_BDI_READS);
	if (throttle_percpu_error()) {
		s64 gap = exact_count(fbc) - fbc->count;

		throttle_note_disk_read_gap((uint64_t)(gap < 0 ? -gap : gap));
	}
	return fbc->count;
}

/* 6.18 returns 0 for a negative count. */
s64 percpu_counter_read_positive_6_18(struct percpu_counter *fbc)
{
	s64 ret = percpu_counter_read_6_18_world(fbc);

	return ret >= 0 ? ret : 0;
}
