// SPDX-License-Identifier: GPL-2.0
/*
 * The witness of interference (bench/witness.c): its marking rule on given
 * figures, then the real thing - a thread pinned to a CPU that a busy loop
 * pinned to the same CPU shares is marked (it waits on the runqueue about
 * half the time), and a thread that sleeps of its own accord is not
 * (voluntary sleep is off-CPU time, not interference). No time threshold
 * on the benchmark's speed: only the kernel's accounting is checked.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "mmscale/witness.h"

static atomic_bool stop_busy;

static void pin_to(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	CHECK(pthread_setaffinity_np(pthread_self(), sizeof(set), &set) == 0);
}

static void *busy_loop(void *arg)
{
	pin_to(*(int *)arg);
	while (!atomic_load_explicit(&stop_busy, memory_order_relaxed))
		;
	return NULL;
}

static double seconds_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Spin on this thread for the given wall time, as a benchmark body would. */
static void spin_for(double seconds)
{
	double end = seconds_now() + seconds;

	while (seconds_now() < end)
		;
}

static void rule_on_figures(void)
{
	struct mmscale_witness_figures f = { .has_schedstat = true };

	CHECK(!mmscale_witness_marked(&f));
	f.runqueue_pct = WITNESS_MARK_PCT;		/* at the mark: not past it */
	CHECK(!mmscale_witness_marked(&f));
	f.runqueue_pct = WITNESS_MARK_PCT + 0.1;
	CHECK(mmscale_witness_marked(&f));
	f.runqueue_pct = 0;
	f.offcpu_pct = 90;				/* asleep of its own accord */
	CHECK(!mmscale_witness_marked(&f));
	f.migrated = true;
	CHECK(mmscale_witness_marked(&f));
	f.migrated = false;
	f.steal_pct = WITNESS_MARK_PCT + 20;
	f.steal_ticks = WITNESS_STEAL_TICKS - 1;	/* one tick: the granularity */
	CHECK(!mmscale_witness_marked(&f));
	f.steal_ticks = WITNESS_STEAL_TICKS;
	CHECK(mmscale_witness_marked(&f));
	f.steal_pct = WITNESS_MARK_PCT;
	CHECK(!mmscale_witness_marked(&f));
	/* Without schedstat: an involuntary switch and time off the CPU. */
	f = (struct mmscale_witness_figures){ .offcpu_pct = 40 };
	CHECK(!mmscale_witness_marked(&f));
	f.nivcsw = 3;
	CHECK(mmscale_witness_marked(&f));
	f.offcpu_pct = 1;
	CHECK(!mmscale_witness_marked(&f));
}

int main(void)
{
	struct mmscale_witness w;
	pthread_t busy;
	int cpu;

	rule_on_figures();

	/*
	 * Alone on the CPU it was started on, sleeping: not marked. Not the
	 * machine's reader: the host's steal time, which this VM does see,
	 * would mark it for a reason that is not the thread's.
	 */
	cpu = sched_getcpu();
	pin_to(cpu);
	mmscale_witness_start(&w, false);
	usleep(100 * 1000);
	mmscale_witness_stop(&w);
	CHECK_MSG(!w.figures.migrated && w.figures.offcpu_pct > 50 && !w.figures.marked,
		  "a voluntary sleep: off-CPU %.1f%%, runqueue %.1f%%, marked %d",
		  w.figures.offcpu_pct, w.figures.runqueue_pct, w.figures.marked);
	mmscale_witness_start(&w, true);
	mmscale_witness_stop(&w);
	CHECK(w.figures.load1 >= 0 && w.figures.has_steal && w.figures.steal_pct >= 0 &&
	      w.figures.steal_ticks >= 0);

	/* A busy loop on the same CPU: the thread waits its turn, and is marked. */
	pthread_create(&busy, NULL, busy_loop, &cpu);
	usleep(20 * 1000);
	mmscale_witness_start(&w, true);
	spin_for(0.2);
	mmscale_witness_stop(&w);
	atomic_store(&stop_busy, true);
	pthread_join(busy, NULL);
	CHECK_MSG(w.figures.marked && w.figures.offcpu_pct > 20,
		  "sharing its CPU with a busy loop: off-CPU %.1f%%, runqueue %.1f%% (schedstat %d),"
		  " %ld involuntary switches, marked %d", w.figures.offcpu_pct,
		  w.figures.runqueue_pct, w.figures.has_schedstat, w.figures.nivcsw,
		  w.figures.marked);
	if (w.figures.has_schedstat)
		CHECK(w.figures.runqueue_pct > 20);
	return check_report("test_witness");
}
