// SPDX-License-Identifier: GPL-2.0
/*
 * The witness of interference (mmscale/witness.h): a few reads of the
 * thread's and the machine's accounting at the start and the end of the
 * timed region, outside it, on the thread itself. Nothing here is shared
 * between threads: each keeps its own struct, thread-locally.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "mmscale/witness.h"

static uint64_t clock_ns(clockid_t id)
{
	struct timespec ts;

	if (clock_gettime(id, &ts) != 0)
		return 0;
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* The start of a small /proc file into buf (NUL-terminated); false if unreadable. */
static bool read_proc(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return false;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n <= 0)
		return false;
	buf[n] = '\0';
	return true;
}

/* schedstat: "<ns on CPU> <ns waiting on a runqueue> <timeslices>". */
static bool read_run_delay(uint64_t *run_delay)
{
	char buf[128];
	unsigned long long on_cpu, waited;

	if (!read_proc("/proc/thread-self/schedstat", buf, sizeof(buf)) ||
	    sscanf(buf, "%llu %llu", &on_cpu, &waited) != 2)
		return false;
	*run_delay = waited;
	return true;
}

/* /proc/stat's first line: every CPU's ticks; steal is the eighth figure. */
static bool read_steal(uint64_t *steal, uint64_t *all)
{
	char buf[512];
	unsigned long long v[8] = { 0 };

	*steal = *all = 0;
	if (!read_proc("/proc/stat", buf, sizeof(buf)) ||
	    sscanf(buf, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2],
		   &v[3], &v[4], &v[5], &v[6], &v[7]) != 8)
		return false;
	for (int i = 0; i < 8; i++)
		*all += v[i];
	*steal = v[7];
	return true;
}

static double read_load1(void)
{
	char buf[128];

	return read_proc("/proc/loadavg", buf, sizeof(buf)) ? strtod(buf, NULL) : -1.0;
}

static long involuntary_switches(void)
{
	struct rusage ru;

	return getrusage(RUSAGE_THREAD, &ru) == 0 ? ru.ru_nivcsw : 0;
}

void mmscale_witness_start(struct mmscale_witness *w, bool machine)
{
	memset(w, 0, sizeof(*w));
	w->machine = machine;
	if (machine) {
		w->has_steal = read_steal(&w->steal_ticks, &w->all_ticks);
		w->load1 = read_load1();
	}
	w->has_schedstat = read_run_delay(&w->run_delay_ns);
	w->nivcsw = involuntary_switches();
	w->cpu = sched_getcpu();
	/* The clocks last: the reads above are not the thread's work. */
	w->cpu_ns = clock_ns(CLOCK_THREAD_CPUTIME_ID);
	w->wall_ns = clock_ns(CLOCK_MONOTONIC);
}

bool mmscale_witness_marked(const struct mmscale_witness_figures *f)
{
	if (f->migrated || (f->steal_ticks >= WITNESS_STEAL_TICKS && f->steal_pct > WITNESS_MARK_PCT))
		return true;
	if (f->has_schedstat)
		return f->runqueue_pct > WITNESS_MARK_PCT;
	return f->nivcsw > 0 && f->offcpu_pct > WITNESS_MARK_PCT;
}

void mmscale_witness_stop(struct mmscale_witness *w)
{
	uint64_t wall = clock_ns(CLOCK_MONOTONIC), cpu = clock_ns(CLOCK_THREAD_CPUTIME_ID);
	struct mmscale_witness_figures *f = &w->figures;
	uint64_t run_delay = 0, steal = 0, all = 0;
	double wall_ns = (double)(wall - w->wall_ns);

	memset(f, 0, sizeof(*f));
	f->has_schedstat = w->has_schedstat && read_run_delay(&run_delay);
	f->nivcsw = involuntary_switches() - w->nivcsw;
	f->migrated = sched_getcpu() != w->cpu;
	if (wall_ns > 0) {
		double on_cpu = (double)(cpu - w->cpu_ns);

		f->offcpu_pct = on_cpu < wall_ns ? 100.0 * (1.0 - on_cpu / wall_ns) : 0.0;
		if (f->has_schedstat)
			f->runqueue_pct = 100.0 * (double)(run_delay - w->run_delay_ns) / wall_ns;
	}
	if (w->machine) {
		/* Unreadable (a container without /proc/stat): not measured, not "no steal". */
		f->has_steal = w->has_steal && read_steal(&steal, &all);
		if (f->has_steal) {
			f->steal_ticks = (long)(steal - w->steal_ticks);
			if (all > w->all_ticks)
				f->steal_pct = 100.0 * (double)f->steal_ticks /
					       (double)(all - w->all_ticks);
		}
		f->load1 = w->load1;
	}
	f->marked = mmscale_witness_marked(f);
}
