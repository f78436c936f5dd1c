// SPDX-License-Identifier: GPL-2.0
/*
 * The mm's resident-set counters of Linux 6.1 (SPLIT_RSS_COUNTING) and
 * 6.18 (percpu_counters); include/mmscale/linux-6.18/mm/rss_stat.h says where each
 * line comes from. mm_trace_rss_stat, a tracepoint that is off, is left
 * out of both.
 */
#include "mmscale/linux-6.18/mm/rss_stat.h"

_Thread_local struct task_rss_6_1 current_rss_6_1;

/* 6.1 include/linux/mm.h 2175-2188 */
unsigned long get_mm_counter_6_1(struct mm_struct_6_1 *mm, int member)
{
	long val = atomic_long_read(&mm->rss_stat.count[member]);

	/*
	 * counter is updated in asynchronous manner and may go to minus.
	 * But it's never be expected number for users.
	 */
	if (val < 0)
		val = 0;
	return (unsigned long)val;
}

/* 6.1 include/linux/mm.h 2192-2197 */
void add_mm_counter_6_1(struct mm_struct_6_1 *mm, int member, long value)
{
	long count = atomic_long_add_return(value, &mm->rss_stat.count[member]);

	(void)count;	/* mm_trace_rss_stat(mm, member, count) */
}

/* 6.1 mm/memory.c 172-183 */
void sync_mm_rss_6_1(struct mm_struct_6_1 *mm)
{
	int i;

	for (i = 0; i < NR_MM_COUNTERS; i++) {
		if (current_rss_6_1.rss_stat.count[i]) {
			add_mm_counter_6_1(mm, i, current_rss_6_1.rss_stat.count[i]);
			current_rss_6_1.rss_stat.count[i] = 0;
			mmscale_count_inc(MMSCALE_FOLDS);
		}
	}
	current_rss_6_1.rss_stat.events = 0;
}

/* 6.1 mm/memory.c 185-193 */
void add_mm_counter_fast_6_1(struct mm_struct_6_1 *mm, int member, int val)
{
	struct task_rss_6_1 *task = &current_rss_6_1;

	if (likely(task->mm == mm))
		task->rss_stat.count[member] += val;
	else
		add_mm_counter_6_1(mm, member, val);
}

/*
 * 6.1 mm/memory.c 199-205. The post-increment: the sync comes when events
 * was 65, so every 66th call since the last.
 */
void check_sync_rss_stat_6_1(struct task_rss_6_1 *task)
{
	if (unlikely(task != &current_rss_6_1))
		return;
	if (unlikely(task->rss_stat.events++ > TASK_RSS_EVENTS_THRESH))
		sync_mm_rss_6_1(task->mm);
}

void mm_init_rss_6_1(struct mm_struct_6_1 *mm)
{
	for (int i = 0; i < NR_MM_COUNTERS; i++)
		atomic_long_set(&mm->rss_stat.count[i], 0);	/* memset */
}

/* check_mm (6.1 kernel/fork.c 768-790): each counter read, non-zero would be reported. */
long check_mm_6_1(struct mm_struct_6_1 *mm)
{
	long sum = 0;

	for (int i = 0; i < NR_MM_COUNTERS; i++)
		sum += atomic_long_read(&mm->rss_stat.count[i]);
	return sum;
}

/* 6.18 include/linux/mm.h 2687: percpu_counter_read_positive. */
unsigned long get_mm_counter_6_18(struct mm_struct_6_18 *mm, int member)
{
	return (unsigned long)percpu_counter_read_positive_6_18(&mm->rss_stat[member]);
}

/* 6.18 include/linux/mm.h 2692: percpu_counter_sum_positive. */
unsigned long get_mm_counter_sum_6_18(struct mm_struct_6_18 *mm, int member)
{
	return (unsigned long)percpu_counter_sum_positive_6_18(&mm->rss_stat[member]);
}

/* 6.18 include/linux/mm.h 2699: percpu_counter_add. */
void add_mm_counter_6_18(struct mm_struct_6_18 *mm, int member, long value)
{
	percpu_counter_add_6_18(&mm->rss_stat[member], value);
}

/* 6.18 kernel/fork.c 1086: percpu_counter_init_many(mm->rss_stat, 0, GFP_KERNEL_ACCOUNT, NR_MM_COUNTERS). */
int mm_init_rss_6_18(struct mm_struct_6_18 *mm)
{
	return __percpu_counter_init_many_6_18(mm->rss_stat, 0, NR_MM_COUNTERS);
}

/* 6.18 kernel/fork.c: check_mm's percpu_counter_sum of each counter (586), then destroy_many (691). */
long mm_free_rss_6_18(struct mm_struct_6_18 *mm)
{
	long sum = 0;

	for (int i = 0; i < NR_MM_COUNTERS; i++)
		sum += (long)__percpu_counter_sum_6_18(&mm->rss_stat[i]);
	percpu_counter_destroy_many_6_18(mm->rss_stat, NR_MM_COUNTERS);
	return sum;
}
