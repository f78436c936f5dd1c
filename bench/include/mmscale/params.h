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
#include <stdio.h>

#include "mmscale/mm/config.h"

struct doorbell_ops;
struct smp_generation;

/* A cross-CPU call not answered by then fails (the counting build waits ten times this). */
#define MMSCALE_DEFAULT_IPI_TIMEOUT_MS	10000

/* The flags' defaults: the emulated mm's own (mm/config.h), and the harness's. */
#define MMSCALE_PARAMS_DEFAULTS {					\
	.mem_bytes = MM_DEFAULT_MEM_BYTES,				\
	.counter_layout = MMSCALE_LAYOUT_PACKED,			\
	.congestion_wait_us = MM_DEFAULT_CONGESTION_WAIT_US,		\
	.vmstat_interval_ms = MM_DEFAULT_VMSTAT_INTERVAL_MS,		\
	.device_pages_per_ms = MM_DEFAULT_DEVICE_PAGES_PER_MS,		\
	.swap = MM_DEFAULT_SWAP,					\
	/* Generous: oversubscribed stand-ins answer slowly, but never this slowly. */ \
	.ipi_timeout_ms = MMSCALE_DEFAULT_IPI_TIMEOUT_MS,		\
	/* throttle/: a minute of virtual time per run. */		\
	.throttle_seconds = 60,						\
	/* test only: test/work's units, the sensitivity benchmark's 100. */ \
	.test_work = 100,						\
	.test_claim_reads = 1,						\
	.knob = MM_KNOBS_ALL_AUTO,					\
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
	/*
	 * --set NAME=: a number, or MM_KNOB_AUTO (the kernel's), by enum
	 * mm_knob; mm/config.h's MM_KNOBS says what each is. What a run asked
	 * for: the kernel runs with what its case copied into mm_config().
	 */
	long long knob[MM_NR_KNOBS];
	/* --claims=report: a count that differs from its row's claim labels the run, not fails it */
	bool claims_report;
	unsigned int stuck_cpu;		/* test only: this emulated CPU never answers (0: none) */
	unsigned int test_work;		/* test only: test/work's units of work per operation */
	unsigned int test_claim_reads;	/* test only: test/claim's reads per operation (claims 1) */
	bool leak_page;			/* test only: drain/swap_cpuset's CPU 0 keeps one page */
	bool test_cases;		/* test only: register the test/ cases too */
};

/*
 * What --help and --describe say of a --set knob beyond its name and range
 * (mm/config.h's MM_KNOBS): bench/params.c has a row for every knob, keyed
 * by its enum mm_knob.
 */
struct mmscale_knob_help {
	const char *generations;	/* the generations whose rows honour it */
	const char *summary;		/* what it is (--help) */
	/*
	 * What auto is where no machine changes it; NULL where a case table
	 * resolves it on the set-up machine (struct mmscale_knob_auto).
	 */
	const char *auto_text;
};
extern const struct mmscale_knob_help mmscale_knob_help[MM_NR_KNOBS];
/* "auto", or the value asked for written into buf. */
const char *mmscale_knob_value(enum mm_knob knob, char *buf, size_t len);
/* "auto", or value written into buf. */
const char *mmscale_knob_text(long long value, char *buf, size_t len);
/* A knob's value as a JSON member (or element, key NULL): the number, or "auto". */
struct mmscale_json;
void mmscale_knob_json(struct mmscale_json *j, const char *key, long long value);
/*
 * What auto resolves to, written into buf: the resolver a case table
 * registers (every planned CPU online), else the help row's auto_text;
 * NULL if neither has it.
 */
const char *mmscale_knob_auto(enum mm_knob knob, char *buf, size_t len);
/* "stat_threshold=auto ...": every knob and its value, the results' mmscale_knobs. */
void mmscale_knobs_context(char *buf, size_t len);
/* "stat_threshold: 24 in 1 zone; ...": what auto resolves to, the results' mmscale_knobs_auto. */
void mmscale_knobs_auto_context(char *buf, size_t len);
/* --describe's knob lines, and its JSON "knobs" member (after mmscale_machine_setup). */
void mmscale_knobs_describe(FILE *out);
void mmscale_knobs_describe_json(struct mmscale_json *j);

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
/* The same, as mmscale's defaults print it (the results' mmscale_params_default). */
void mmscale_params_describe_default(char *buf, size_t len);

#endif /* MMSCALE_PARAMS_H */
