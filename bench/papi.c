// SPDX-License-Identifier: GPL-2.0
/*
 * PAPI event sets per benchmark thread.
 *
 * Which events survive is decided once, at start, by actually adding and
 * starting them on the main thread: PAPI lists presets that a VM cannot
 * count, and only PAPI_start tells. Each dropped event gets one notice with
 * PAPI's own error text.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <papi.h>

#include "mmscale/notice.h"
#include "mmscale/papi.h"

static struct {
	bool initialised;
	int nr;
	int codes[MMSCALE_PAPI_MAX_EVENTS];
	char names[MMSCALE_PAPI_MAX_EVENTS][PAPI_MAX_STR_LEN];
	int migrations;
	char status[1024];
	char domain[160];
	bool user_only;		/* the kernel's side may not be counted (choose_domain) */
} papi = { .migrations = -1, .domain = "none (no PAPI events counted)" };

static bool event_char_ok(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_' || c == ':' || c == '-' || c == '.' || c == '=' || c == '+';
}

/* Split list into names; returns the count or -1 with err. */
static int split_events(const char *list, char names[][PAPI_MAX_STR_LEN],
			char *err, size_t errlen)
{
	int n = 0;
	const char *p = list;

	if (!*list || strcmp(list, "none") == 0)
		return 0;
	for (;;) {
		const char *end = strchr(p, ',');
		size_t len = end ? (size_t)(end - p) : strlen(p);

		if (len == 0)
			return mmscale_errorf(err, errlen,
				"--papi-events: empty event name in '%s'", list);
		if (len >= PAPI_MAX_STR_LEN)
			return mmscale_errorf(err, errlen,
				"--papi-events: event name too long in '%s'", list);
		for (size_t i = 0; i < len; i++)
			if (!event_char_ok(p[i]))
				return mmscale_errorf(err, errlen,
					"--papi-events: '%.*s' is not a PAPI event name "
					"(examples: PAPI_L1_DCM, perf::CPU-MIGRATIONS)",
					(int)len, p);
		if (n == MMSCALE_PAPI_MAX_EVENTS)
			return mmscale_errorf(err, errlen,
				"--papi-events: more than %d events", MMSCALE_PAPI_MAX_EVENTS);
		for (int k = 0; k < n; k++)
			if (strlen(names[k]) == len && strncmp(names[k], p, len) == 0)
				return mmscale_errorf(err, errlen,
					"--papi-events: '%.*s' is listed twice", (int)len, p);
		memcpy(names[n], p, len);
		names[n][len] = '\0';
		n++;
		if (!end)
			return n;
		p = end + 1;
	}
}

int mmscale_papi_check_list(const char *list, char *err, size_t errlen)
{
	char names[MMSCALE_PAPI_MAX_EVENTS][PAPI_MAX_STR_LEN];

	return split_events(list, names, err, errlen) < 0 ? -1 : 0;
}

static unsigned long papi_thread_id(void)
{
	return (unsigned long)pthread_self();
}

/*
 * Events this machine lacks, said in one notice at the end of init (a VM
 * without a PMU lacks all three cache-miss presets: one line, not three).
 */
struct dropped_events {
	int nr;
	char names[MMSCALE_PAPI_MAX_EVENTS][PAPI_MAX_STR_LEN];
	const char *why[MMSCALE_PAPI_MAX_EVENTS];
};

static void drop_event(struct dropped_events *d, const char *name, const char *why)
{
	snprintf(d->names[d->nr], sizeof(d->names[d->nr]), "%.*s", PAPI_MAX_STR_LEN - 1, name);
	d->why[d->nr++] = why;
}

/* "A, B, C (why)" when they share the reason, else "A (why), B (why2)". */
static void say_dropped(const struct dropped_events *d, const char *then)
{
	char list[MMSCALE_PAPI_MAX_EVENTS * (PAPI_MAX_STR_LEN + 64)] = "";
	bool same = true;
	size_t len = 0;

	if (!d->nr)
		return;
	for (int i = 1; i < d->nr; i++)
		same = same && strcmp(d->why[i], d->why[0]) == 0;
	for (int i = 0; i < d->nr; i++) {
		len += (size_t)snprintf(list + len, sizeof(list) - len, "%s%s", i ? ", " : "",
					d->names[i]);
		if (!same)
			len += (size_t)snprintf(list + len, sizeof(list) - len, " (%s)", d->why[i]);
		if (len >= sizeof(list))
			break;
	}
	mmscale_notice("PAPI event%s %s %s not available here%s%s%s: dropped; %s",
		       d->nr > 1 ? "s" : "", list, d->nr > 1 ? "are" : "is",
		       same ? " (" : "", same ? d->why[0] : "", same ? ")" : "", then);
}

/*
 * Why PAPI cannot tell whether it knows this name, or NULL when it can.
 * Every name but a software-defined one ("sde:::") resolves through the
 * perf_event component (presets, perf::, the CPU's own PMU). Where that
 * component is disabled (a CPU libpfm4 does not know, perf_event_paranoid,
 * a container) every such name fails as unknown, typo or not: that is a
 * machine without the events, not bad input.
 */
static const char *resolver_disabled(const char *name)
{
	static char why[PAPI_HUGE_STR_LEN + 64];

	if (strncmp(name, "sde:::", 6) == 0)
		return NULL;
	for (int c = 0; c < PAPI_num_components(); c++) {
		const PAPI_component_info_t *info = PAPI_get_component_info(c);

		if (!info || strcmp(info->name, "perf_event") != 0 || !info->disabled)
			continue;
		snprintf(why, sizeof(why), "PAPI's perf_event component is disabled: %s",
			 info->disabled_reason[0] ? info->disabled_reason : "no reason given");
		return why;
	}
	return NULL;
}

enum try_add_result { EVENT_ADDED, EVENT_DROPPED, EVENT_UNKNOWN };

/*
 * Does the event set still start with this event in it? PAPI's SDE
 * component accepts any "sde:::LIB::NAME" and reads -1 for a counter no
 * library registered: that is a name PAPI does not know, not a missing PMU.
 */
/*
 * An SDE name alone in an event set of its own: a set that an earlier name
 * tried and failed to add to may already be bound to another component,
 * and PAPI then refuses the SDE event with "Invalid argument" whether or
 * not a library registered it.
 */
static bool sde_event_unknown(int code)
{
	int set = PAPI_NULL;
	long long value = 0;
	bool unknown = false;

	if (PAPI_create_eventset(&set) != PAPI_OK)
		return false;
	if (PAPI_add_event(set, code) == PAPI_OK && PAPI_start(set) == PAPI_OK)
		unknown = PAPI_stop(set, &value) == PAPI_OK && value == -1;
	PAPI_cleanup_eventset(set);
	PAPI_destroy_eventset(&set);
	return unknown;
}

static enum try_add_result try_add(int set, int code, const char *name, struct dropped_events *d)
{
	int rc;
	long long scratch[MMSCALE_PAPI_MAX_EVENTS];
	int last;

	if (strncmp(name, "sde:::", 6) == 0 && sde_event_unknown(code))
		return EVENT_UNKNOWN;
	rc = PAPI_add_event(set, code);
	if (rc != PAPI_OK) {
		drop_event(d, name, PAPI_strerror(rc));
		return EVENT_DROPPED;
	}
	rc = PAPI_start(set);
	if (rc != PAPI_OK) {
		drop_event(d, name, PAPI_strerror(rc));
		PAPI_remove_event(set, code);
		return EVENT_DROPPED;
	}
	last = PAPI_num_events(set) - 1;
	if (PAPI_stop(set, scratch) == PAPI_OK && strncmp(name, "sde:::", 6) == 0 && last >= 0 &&
	    scratch[last] == -1) {
		PAPI_remove_event(set, code);
		return EVENT_UNKNOWN;
	}
	return EVENT_ADDED;
}

/*
 * Whether an event set counting the kernel's side too can start here: it
 * cannot for an unprivileged process under perf_event_paranoid 2 (Debian's
 * default). perf::TASK-CLOCK is a software event every Linux has.
 */
static bool kernel_domain_starts(void)
{
	int set = PAPI_NULL, code;
	long long value;
	bool ok = false;

	if (PAPI_event_name_to_code("perf::TASK-CLOCK", &code) != PAPI_OK ||
	    PAPI_create_eventset(&set) != PAPI_OK)
		return false;
	if (PAPI_add_event(set, code) == PAPI_OK && PAPI_start(set) == PAPI_OK)
		ok = PAPI_stop(set, &value) == PAPI_OK;
	PAPI_cleanup_eventset(set);
	PAPI_destroy_eventset(&set);
	return ok;
}

/*
 * The software events a witness of interference reads happen in the
 * kernel (a context switch, a migration): in PAPI's default domain, user
 * space only, they always read 0. Every event set is made in the kernel's
 * domain too where this process may count it (PAPI_set_domain applies to
 * the event sets created after it, on every thread), else in the user's,
 * and the results say which (mmscale_papi_domain).
 */
static void choose_domain(void)
{
	if (PAPI_set_domain(PAPI_DOM_ALL) == PAPI_OK && kernel_domain_starts()) {
		snprintf(papi.domain, sizeof(papi.domain), "user and kernel");
		return;
	}
	PAPI_set_domain(PAPI_DOM_USER);
	snprintf(papi.domain, sizeof(papi.domain), "user only (the kernel's side may not be "
		 "counted here: perf_event_paranoid): context switches and migrations read 0");
	papi.user_only = true;
}

/*
 * Said once the events are known, and only where it matters: where a
 * software event that happens in the kernel is counted. On a machine whose
 * PMU counts nothing at all, the dropped events' line is the one line.
 */
static void say_user_only(void)
{
	bool kernel_event = false;

	for (int i = 0; i < papi.nr; i++)
		kernel_event |= strcmp(papi.names[i], "perf::CONTEXT-SWITCHES") == 0 ||
				strcmp(papi.names[i], "perf::CPU-MIGRATIONS") == 0;
	if (papi.user_only && kernel_event)
		mmscale_notice("PAPI counts user space only here (perf_event_paranoid): "
			       "perf::CONTEXT-SWITCHES and perf::CPU-MIGRATIONS read 0; the witness "
			       "of interference (witness_*) does not need them");
}

int mmscale_papi_init(const char *list, bool explicit_list, char *err, size_t errlen)
{
	char names[MMSCALE_PAPI_MAX_EVENTS][PAPI_MAX_STR_LEN];
	int n = split_events(list, names, err, errlen), rc, set = PAPI_NULL;
	static struct dropped_events dropped;

	if (n < 0)
		return -1;
	papi.nr = 0;
	dropped.nr = 0;
	if (n == 0) {
		snprintf(papi.status, sizeof(papi.status), "off (no events requested)");
		return 0;
	}
	rc = PAPI_library_init(PAPI_VER_CURRENT);
	if (rc != PAPI_VER_CURRENT) {
		snprintf(papi.status, sizeof(papi.status), "unavailable: %s",
			 rc < 0 ? PAPI_strerror(rc) : "library version mismatch");
		mmscale_notice("PAPI is unavailable (%s): running with operation counts only",
			       papi.status + strlen("unavailable: "));
		return 0;
	}
	papi.initialised = true;
	rc = PAPI_thread_init(papi_thread_id);
	if (rc == PAPI_OK)
		rc = PAPI_create_eventset(&set);
	if (rc != PAPI_OK) {
		snprintf(papi.status, sizeof(papi.status), "unavailable: %s", PAPI_strerror(rc));
		mmscale_notice("PAPI is unavailable (%s): running with operation counts only",
			       PAPI_strerror(rc));
		return 0;
	}
	choose_domain();
	for (int i = 0; i < n; i++) {
		const char *why;
		int code;

		if (resolver_disabled(names[i])) {
			drop_event(&dropped, names[i], resolver_disabled(names[i]));
			continue;
		}
		rc = PAPI_event_name_to_code(names[i], &code);
		why = rc == PAPI_OK ? NULL : PAPI_strerror(rc);
		if (rc == PAPI_OK) {
			enum try_add_result added = try_add(set, code, names[i], &dropped);

			if (added == EVENT_DROPPED)
				continue;
			if (added == EVENT_UNKNOWN)
				why = "no library registered this software-defined event";
		}
		if (why && explicit_list) {
			/* Not a name PAPI knows at all: a typo, not a machine without a PMU. */
			mmscale_errorf(err, errlen,
				"--papi-events: PAPI knows no event '%s' (%s); papi_avail -a and "
				"papi_native_avail list the names", names[i], why);
			PAPI_cleanup_eventset(set);
			PAPI_destroy_eventset(&set);
			mmscale_papi_shutdown();
			return -1;
		}
		if (why) {
			drop_event(&dropped, names[i], why);
			continue;
		}
		papi.codes[papi.nr] = code;
		/* split_events kept every name shorter than PAPI_MAX_STR_LEN. */
		memcpy(papi.names[papi.nr], names[i], strlen(names[i]) + 1);
		if (strcmp(names[i], "perf::CPU-MIGRATIONS") == 0)
			papi.migrations = papi.nr;
		papi.nr++;
	}
	PAPI_cleanup_eventset(set);
	PAPI_destroy_eventset(&set);
	if (papi.nr == 0) {
		snprintf(papi.status, sizeof(papi.status),
			 "unavailable: none of the requested events can be counted here");
		say_dropped(&dropped, "no requested event is left: running with operation counts only");
		return 0;
	}
	say_user_only();
	papi.status[0] = '\0';
	for (int i = 0; i < papi.nr; i++) {
		size_t len = strlen(papi.status);

		snprintf(papi.status + len, sizeof(papi.status) - len, "%s%s",
			 i ? "," : "", papi.names[i]);
	}
	{
		char then[sizeof(papi.status) + 16];

		snprintf(then, sizeof(then), "counting %s", papi.status);
		say_dropped(&dropped, then);
	}
	return 0;
}

void mmscale_papi_shutdown(void)
{
	if (papi.initialised)
		PAPI_shutdown();
	papi.initialised = false;
	papi.nr = 0;
	papi.migrations = -1;
	papi.user_only = false;
}

int mmscale_papi_nr_events(void)
{
	return papi.nr;
}

const char *mmscale_papi_event_name(int i)
{
	return i >= 0 && i < papi.nr ? papi.names[i] : NULL;
}

int mmscale_papi_migrations_index(void)
{
	return papi.migrations;
}

const char *mmscale_papi_status(void)
{
	return papi.status[0] ? papi.status : "off";
}

const char *mmscale_papi_domain(void)
{
	return papi.domain;
}

void mmscale_papi_thread_begin(struct mmscale_papi_thread *pt)
{
	memset(pt, 0, sizeof(*pt));
	pt->eventset = PAPI_NULL;
	if (papi.nr == 0)
		return;
	if (PAPI_register_thread() != PAPI_OK)
		return;
	if (PAPI_create_eventset(&pt->eventset) != PAPI_OK ||
	    PAPI_add_events(pt->eventset, papi.codes, papi.nr) != PAPI_OK) {
		if (pt->eventset != PAPI_NULL) {
			PAPI_cleanup_eventset(pt->eventset);
			PAPI_destroy_eventset(&pt->eventset);
		}
		PAPI_unregister_thread();
		return;
	}
	pt->active = true;
}

void mmscale_papi_thread_end(struct mmscale_papi_thread *pt)
{
	if (!pt->active)
		return;
	if (pt->running)
		mmscale_papi_stop(pt);
	PAPI_cleanup_eventset(pt->eventset);
	PAPI_destroy_eventset(&pt->eventset);
	PAPI_unregister_thread();
	pt->active = false;
}

void mmscale_papi_start(struct mmscale_papi_thread *pt)
{
	if (pt->active && !pt->running && PAPI_start(pt->eventset) == PAPI_OK)
		pt->running = true;
}

/* PAPI_accum adds the counts so far into values and zeroes the counters. */
void mmscale_papi_pause(struct mmscale_papi_thread *pt)
{
	if (pt->running)
		PAPI_accum(pt->eventset, pt->values);
}

void mmscale_papi_resume(struct mmscale_papi_thread *pt)
{
	if (pt->running)
		PAPI_reset(pt->eventset);
}

void mmscale_papi_stop(struct mmscale_papi_thread *pt)
{
	long long last[MMSCALE_PAPI_MAX_EVENTS];

	if (!pt->running)
		return;
	if (PAPI_stop(pt->eventset, last) == PAPI_OK)
		for (int i = 0; i < papi.nr; i++)
			pt->values[i] += last[i];
	pt->running = false;
}
