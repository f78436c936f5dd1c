// SPDX-License-Identifier: GPL-2.0
/*
 * PAPI fallback: a malformed list is refused, a name PAPI does not know is
 * refused when the user asked for it, an event this machine lacks is dropped
 * (a notice, not a crash), and an event set on a benchmark thread starts
 * and stops whatever survived.
 */
#include <string.h>

#include "check.h"
#include "mmscale/notice.h"
#include "mmscale/papi.h"

int main(void)
{
	static const char *const malformed[] = {
		",PAPI_L1_DCM", "PAPI_L1_DCM,", "PAPI_L1_DCM,,perf::TASK-CLOCK", "PAPI L1",
		"perf::TASK-CLOCK;x", "PAPI_TOT_INS,PAPI_TOT_INS",
	};
	struct mmscale_papi_thread pt;
	char err[256];

	for (size_t i = 0; i < sizeof(malformed) / sizeof(malformed[0]); i++) {
		CHECK(mmscale_papi_check_list(malformed[i], err, sizeof(err)) != 0);
		CHECK(strncmp(err, "--papi-events", 13) == 0);
	}
	CHECK(mmscale_papi_check_list("none", err, sizeof(err)) == 0);
	CHECK(mmscale_papi_check_list(MMSCALE_PAPI_DEFAULT_EVENTS, err, sizeof(err)) == 0);

	mmscale_notices_quiet = 1;
	/* A name PAPI does not know, in a list the user gave: refused, named. */
	if (mmscale_papi_init("perf::TASK-CLOCK,MMSCALE_NO_SUCH_EVENT", true, err, sizeof(err)) != 0) {
		CHECK(strstr(err, "MMSCALE_NO_SUCH_EVENT") != NULL);
	} else {
		/*
		 * Only when PAPI cannot resolve CPU events here at all (PAPI
		 * itself, or its perf_event component, disabled): nothing is
		 * counted, and a typo cannot be told from a missing PMU.
		 */
		CHECK(strncmp(mmscale_papi_status(), "unavailable", 11) == 0);
	}
	CHECK_EQ_LL(mmscale_papi_nr_events(), 0);
	mmscale_papi_shutdown();
	/*
	 * A software-defined name is resolved by PAPI's SDE component, which
	 * needs no PMU: one no library registered is refused on every machine.
	 */
	CHECK(mmscale_papi_init("sde:::mmscale_test::no_such_counter", true, err, sizeof(err)) != 0);
	CHECK(strstr(err, "PAPI knows no event 'sde:::mmscale_test::no_such_counter'") != NULL);
	mmscale_papi_shutdown();
	/* The same in the default list: dropped with a notice, the rest kept. */
	CHECK(mmscale_papi_init("MMSCALE_NO_SUCH_EVENT,perf::TASK-CLOCK", false, err, sizeof(err)) == 0);
	for (int i = 0; i < mmscale_papi_nr_events(); i++)
		CHECK(strcmp(mmscale_papi_event_name(i), "MMSCALE_NO_SUCH_EVENT") != 0);
	CHECK(mmscale_papi_nr_events() <= 1);
	printf("papi status here: %s\n", mmscale_papi_status());

	mmscale_papi_thread_begin(&pt);
	mmscale_papi_start(&pt);
	for (volatile int i = 0; i < 100000; i++)
		;
	mmscale_papi_pause(&pt);
	mmscale_papi_resume(&pt);
	mmscale_papi_stop(&pt);
	if (pt.active && mmscale_papi_nr_events() == 1)
		CHECK(pt.values[0] > 0);	/* task clock ticked in the timed region */
	mmscale_papi_thread_end(&pt);
	CHECK(!pt.active && !pt.running);
	mmscale_papi_shutdown();
	CHECK_EQ_LL(mmscale_papi_nr_events(), 0);

	/* No events at all is a valid, quiet configuration. */
	CHECK(mmscale_papi_init("none", true, err, sizeof(err)) == 0);
	CHECK_EQ_LL(mmscale_papi_nr_events(), 0);
	mmscale_papi_thread_begin(&pt);
	mmscale_papi_start(&pt);
	mmscale_papi_stop(&pt);
	mmscale_papi_thread_end(&pt);
	return check_report("test_papi");
}
