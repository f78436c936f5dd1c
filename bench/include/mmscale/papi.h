/* SPDX-License-Identifier: GPL-2.0 */
/*
 * PAPI: one library init, an event set per benchmark thread, counting only
 * the timed region. Events this machine lacks are dropped at start with one
 * notice each; with none left the run goes on with the software events and
 * the exact operation counts.
 */
#ifndef MMSCALE_PAPI_H
#define MMSCALE_PAPI_H

#include <stdbool.h>
#include <stddef.h>

#define MMSCALE_PAPI_DEFAULT_EVENTS \
	"PAPI_L1_DCM,PAPI_L2_TCM,PAPI_L3_TCM,perf::CPU-MIGRATIONS,perf::CONTEXT-SWITCHES"
#define MMSCALE_PAPI_MAX_EVENTS	16

/*
 * Check the syntax of an event list ("" or "none": no events). Returns -1
 * with one line in err for a malformed list; never touches PAPI.
 */
int mmscale_papi_check_list(const char *list, char *err, size_t errlen);

/*
 * Initialise PAPI and keep the listed events that this machine can count.
 * An event PAPI knows but this machine cannot count (no PMU, a VM) is
 * dropped with a notice. A name PAPI does not know at all is an error for
 * a list the user gave (explicit_list: -1 with one line in err), a notice
 * for the default list. Call once, from the main thread, before any
 * benchmark thread.
 */
int mmscale_papi_init(const char *list, bool explicit_list, char *err, size_t errlen);
void mmscale_papi_shutdown(void);

int mmscale_papi_nr_events(void);
const char *mmscale_papi_event_name(int i);
/* Index of perf::CPU-MIGRATIONS among the kept events, or -1. */
int mmscale_papi_migrations_index(void);
/* For the result context: "PAPI_L1_DCM,perf::..." or "unavailable: why". */
const char *mmscale_papi_status(void);
/* For the result context: "user and kernel", or "user only (why)". */
const char *mmscale_papi_domain(void);

struct mmscale_papi_thread {
	int eventset;
	bool active;		/* event set created on this thread */
	bool running;		/* counting now */
	long long values[MMSCALE_PAPI_MAX_EVENTS];
};

/* On the benchmark thread, before and after its body. */
void mmscale_papi_thread_begin(struct mmscale_papi_thread *pt);
void mmscale_papi_thread_end(struct mmscale_papi_thread *pt);
/* Around the timed region only: start/stop, and pause/resume with GB's timer. */
void mmscale_papi_start(struct mmscale_papi_thread *pt);
void mmscale_papi_pause(struct mmscale_papi_thread *pt);
void mmscale_papi_resume(struct mmscale_papi_thread *pt);
void mmscale_papi_stop(struct mmscale_papi_thread *pt);

#endif /* MMSCALE_PAPI_H */
