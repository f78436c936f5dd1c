/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Emulation parameters: one struct with designated-initialiser defaults
 * (bench/params.c), set from the command line, printed with the results'
 * context. Modules read them; cases never parse anything.
 */
#ifndef MMSCALE_PARAMS_H
#define MMSCALE_PARAMS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum mmscale_counter_layout {
	MMSCALE_LAYOUT_PACKED,	/* the kernel's: vm_stat[] contiguous, 8 per line */
	MMSCALE_LAYOUT_PADDED,	/* each global counter on its own line */
};

enum mmscale_ipi_mechanism {
	MMSCALE_IPI_AUTO,	/* spin if every emulated CPU has its own PU, else futex */
	MMSCALE_IPI_SPIN,	/* polled per-CPU mailbox */
	MMSCALE_IPI_FUTEX,	/* futex wake of a sleeping target */
	MMSCALE_IPI_SIGNAL,	/* real-time signal with pthread_kill */
	MMSCALE_IPI_KERNEL,	/* a real IPI (membarrier) to the target's PU, then the mailbox */
};

/*
 * Which generation of kernel/smp.c carries the emulated cross-CPU calls
 * (bench/smp.c): the 2.6.32 to 3.4 one global call_function queue, or the
 * 3.9+ per-CPU queues. AUTO: each drain variant's own kernel's (the ipi/
 * cases, c2c and the tests: per-CPU).
 */
enum mmscale_smp_model {
	MMSCALE_SMP_AUTO,
	MMSCALE_SMP_GLOBAL_QUEUE,	/* 2.6.32-3.4: call_function.queue under call_function.lock */
	MMSCALE_SMP_PERCPU,		/* 3.9+: per-target call_single_queue (llist from 3.14) */
};

/*
 * The flags' defaults (bench/params.c starts from them; so does
 * mm_config_default for a machine a test builds).
 */
#define MMSCALE_PARAMS_DEFAULTS {					\
	/* The seeds' test box: 3 GB, dirty threshold about 600 MB. */	\
	.mem_bytes = 3ULL << 30,					\
	.counter_layout = MMSCALE_LAYOUT_PACKED,			\
	/* HZ/10 is 100 ms in the kernel; scaled down 1000x so runs stay short. */ \
	.congestion_wait_us = 100,					\
	/* sysctl_stat_interval = HZ: the per-CPU vmstat work runs once a second. */ \
	.vmstat_interval_ms = 1000,					\
	/* 100 MiB/s of 4 KiB pages. */					\
	.device_pages_per_ms = 25,					\
	.ipi = MMSCALE_IPI_AUTO,					\
	/* Generous: oversubscribed stand-ins answer slowly, but never this slowly. */ \
	.ipi_timeout_ms = 10000,					\
	.smp_model = MMSCALE_SMP_AUTO,					\
	/* throttle/: a minute of virtual time per run. */		\
	.throttle_seconds = 60,						\
}

struct mmscale_params {
	uint64_t mem_bytes;		/* emulated memory, split over the nodes */
	enum mmscale_counter_layout counter_layout;
	unsigned int congestion_wait_us;	/* what HZ/10 sleeps (kernel: 100 ms) */
	unsigned int vmstat_interval_ms;	/* sysctl_stat_interval (kernel: HZ, 1000 ms) */
	unsigned int device_pages_per_ms;	/* emulated device bandwidth */
	enum mmscale_ipi_mechanism ipi;
	unsigned int ipi_timeout_ms;	/* a cross-CPU call not answered by then fails */
	enum mmscale_smp_model smp_model;	/* --smp-model: AUTO, or forced for every case */
	unsigned int throttle_seconds;	/* throttle/: virtual seconds per run */
	unsigned int throttle_cpus;	/* throttle/: the world's CPUs (0: the scenario's 16) */
	const char *throttle_trace;	/* throttle/: write each run's trace here (NULL: none) */
	unsigned int stuck_cpu;		/* test only: this emulated CPU never answers (0: none) */
	bool leak_page;			/* test only: drain/swap_cpuset's CPU 0 keeps one page */
	bool test_cases;		/* test only: register the test/ cases too */
};

const char *mmscale_ipi_name(enum mmscale_ipi_mechanism m);
/* "auto", "global-queue", "percpu" */
const char *mmscale_smp_model_name(enum mmscale_smp_model m);

/*
 * The vmstat work's period for a case whose waits are real time
 * (vmstat/): --vmstat-interval-ms. And for the dirty/ cases, whose
 * congestion_wait(HZ/10) sleeps --congestion-wait-us instead of 100 ms:
 * the same period scaled by the same factor, so the fold comes as often
 * per throttling wait as in the kernel (1 ms at the defaults).
 */
struct mmscale_params;
uint64_t mmscale_vmstat_interval_ns(const struct mmscale_params *p);
uint64_t mmscale_vmstat_interval_scaled_ns(const struct mmscale_params *p);

extern struct mmscale_params mmscale_params;

/*
 * Parse "--name=value" if it is one of the parameters. Returns 1 if taken,
 * 0 if not a parameter, -1 with one line in err for a bad value.
 */
int mmscale_params_parse(const char *arg, char *err, size_t errlen);

/* "mem=3GiB layout=packed congestion_wait=100us device=25600pages/s" */
void mmscale_params_describe(char *buf, size_t len);

/* The --help lines for the parameters. */
extern const char mmscale_params_help[];

#endif /* MMSCALE_PARAMS_H */
