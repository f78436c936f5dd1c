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

#include "mmscale/mm/config.h"

struct doorbell_ops;
struct smp_generation;

/* The flags' defaults: the emulated mm's own (mm/mmzone.h), and the harness's. */
#define MMSCALE_PARAMS_DEFAULTS {					\
	.mem_bytes = MM_DEFAULT_MEM_BYTES,				\
	.counter_layout = MMSCALE_LAYOUT_PACKED,			\
	.congestion_wait_us = MM_DEFAULT_CONGESTION_WAIT_US,		\
	.vmstat_interval_ms = MM_DEFAULT_VMSTAT_INTERVAL_MS,		\
	.device_pages_per_ms = MM_DEFAULT_DEVICE_PAGES_PER_MS,		\
	.swap = MM_DEFAULT_SWAP,					\
	/* Generous: oversubscribed stand-ins answer slowly, but never this slowly. */ \
	.ipi_timeout_ms = 10000,					\
	/* throttle/: a minute of virtual time per run. */		\
	.throttle_seconds = 60,						\
}

struct mmscale_params {
	uint64_t mem_bytes;		/* emulated memory, split over the nodes */
	enum mmscale_counter_layout counter_layout;
	unsigned int congestion_wait_us;	/* what HZ/10 sleeps (kernel: 100 ms) */
	unsigned int vmstat_interval_ms;	/* sysctl_stat_interval (kernel: HZ, 1000 ms) */
	unsigned int device_pages_per_ms;	/* emulated device bandwidth */
	bool swap;			/* the machine has swap (3.x reads the anon LRUs) */
	/* --ipi: a doorbell of DOORBELLS (mmscale/doorbell.h); NULL: auto (mmscale_doorbell_resolve) */
	const struct doorbell_ops *ipi;
	unsigned int ipi_timeout_ms;	/* a cross-CPU call not answered by then fails */
	/* --smp-model: forced for every case; NULL: auto, each drain variant's own */
	const struct smp_generation *smp_model;
	unsigned int throttle_seconds;	/* throttle/: virtual seconds per run */
	unsigned int throttle_cpus;	/* throttle/: the world's CPUs (0: the scenario's 16) */
	const char *throttle_trace;	/* throttle/: write each run's trace here (NULL: none) */
	bool throttle_percpu_error;	/* throttle/: reads carry the per-CPU counters' error */
	unsigned int stuck_cpu;		/* test only: this emulated CPU never answers (0: none) */
	bool leak_page;			/* test only: drain/swap_cpuset's CPU 0 keeps one page */
	bool test_cases;		/* test only: register the test/ cases too */
};

/* The doorbell's name, or "auto" for NULL. */
const char *mmscale_ipi_name(const struct doorbell_ops *ops);
/* The generation's name ("global-queue", "percpu"), or "auto" for NULL. */
const char *mmscale_smp_model_name(const struct smp_generation *gen);

/* The emulated mm's parameters as the flags set them, for a run's mm_machine_setup_config. */
void mmscale_mm_config(struct mm_machine_config *cfg);

extern struct mmscale_params mmscale_params;

/*
 * Parse "--name=value" if it is one of the parameters. Returns 1 if taken,
 * 0 if not a parameter, -1 with one line in err for a bad value.
 */
int mmscale_params_parse(const char *arg, char *err, size_t errlen);

/* "mem=3072MiB swap=yes counter_layout=packed congestion_wait=100us ..." */
void mmscale_params_describe(char *buf, size_t len);

#endif /* MMSCALE_PARAMS_H */
