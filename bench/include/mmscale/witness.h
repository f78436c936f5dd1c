/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The witness of interference: what the operating system did to a
 * benchmark thread while it was timed, read without a PMU at the start and
 * the end of the timed region (never inside it). A time is only as good as
 * the machine was quiet while it ran; this says, per repetition and thread,
 * whether it was:
 *
 *   runqueue time   how long the thread was runnable but not running
 *                   (/proc/thread-self/schedstat's run_delay: another task
 *                   had its CPU), in percent of the timed wall time
 *   off-CPU time    wall time less the thread's CPU time
 *                   (CLOCK_THREAD_CPUTIME_ID): runqueue time plus any sleep
 *   involuntary context switches  getrusage(RUSAGE_THREAD) ru_nivcsw
 *   migration       the CPU it ran on at the start and at the end differ
 *   steal time      the hypervisor's (/proc/stat), machine-wide, in
 *                   percent of every CPU's time (read by thread 0); /proc/stat
 *                   counts in ticks (USER_HZ, 10 ms), so a run of 20 ms on two
 *                   CPUs spans about 4: one tick more or less is 25%
 *   load average    the 1-minute load at the start (thread 0)
 *
 * Only the benchmark's own threads are witnessed: a partner thread a case
 * starts for another emulated CPU (bench/cpu.c) is not, so interference on
 * the partner's PU shows only as the measured thread's longer waits.
 *
 * A thread is marked when its runqueue time passes WITNESS_MARK_PCT of its
 * wall time, when it migrated, or (thread 0) when steal time passed
 * WITNESS_MARK_PCT over at least WITNESS_STEAL_TICKS stolen ticks; where the kernel keeps no schedstat (CONFIG_SCHED_INFO
 * off), when it was switched out involuntarily and spent more than
 * WITNESS_MARK_PCT off its CPU. Voluntary sleep (an idle emulated CPU on its
 * futex) marks nothing.
 */
#ifndef MMSCALE_WITNESS_H
#define MMSCALE_WITNESS_H

#include <stdbool.h>
#include <stdint.h>

#define WITNESS_MARK_PCT	5.0
/* Fewer stolen ticks than this are the tick's granularity, not a finding. */
#define WITNESS_STEAL_TICKS	2

struct mmscale_witness {
	bool machine;		/* this thread reads the machine-wide figures */
	bool has_schedstat, has_steal;
	uint64_t wall_ns, cpu_ns, run_delay_ns;
	long nivcsw;
	int cpu;
	uint64_t steal_ticks, all_ticks;
	double load1;
	/* After mmscale_witness_stop: this thread's figures over the timed region. */
	struct mmscale_witness_figures {
		double runqueue_pct, offcpu_pct, steal_pct;
		double load1;		/* -1: /proc/loadavg unreadable */
		long nivcsw, steal_ticks;
		bool migrated, has_schedstat, has_steal, marked;
	} figures;
};

/* At the start of the timed region; machine: this thread also reads steal and load. */
void mmscale_witness_start(struct mmscale_witness *w, bool machine);
/* At its end: fills w->figures. */
void mmscale_witness_stop(struct mmscale_witness *w);
/* The marking rule on figures (exposed for the tests). */
bool mmscale_witness_marked(const struct mmscale_witness_figures *f);

#endif /* MMSCALE_WITNESS_H */
