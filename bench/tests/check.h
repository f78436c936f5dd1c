/* SPDX-License-Identifier: GPL-2.0 */
/* A minimal test helper: CHECK never disappears under NDEBUG, unlike assert. */
#ifndef MMSCALE_TEST_CHECK_H
#define MMSCALE_TEST_CHECK_H

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

/* Atomic: CHECK may run on several benchmark threads at once. */
static _Atomic int check_passed, check_failed;

/*
 * MMSCALE_CHECK_FAIL_FAST=1 ends the test at its first failed check, exit
 * status 1: scripts/mutants sets it, since one failure is all a mutant's
 * verdict needs (test_throttle ran its 6 s to the end for every mutant it
 * had already killed). Unset, every check runs and every failure is named.
 */
static inline void check_failed_now(void)
{
	const char *fast = getenv("MMSCALE_CHECK_FAIL_FAST");

	check_failed++;
	if (fast && *fast && *fast != '0') {
		fputs("MMSCALE_CHECK_FAIL_FAST: stopped at the first failed check\n", stderr);
		fflush(NULL);
		_exit(1);
	}
}

#define CHECK(cond) do {							\
	if (cond) {								\
		check_passed++;							\
	} else {								\
		fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
		check_failed_now();						\
	}									\
} while (0)

#define CHECK_EQ_LL(a, b) do {							\
	long long _a = (long long)(a), _b = (long long)(b);			\
	if (_a == _b) {								\
		check_passed++;							\
	} else {								\
		fprintf(stderr, "%s:%d: CHECK failed: %s == %s (%lld != %lld)\n",	\
			__FILE__, __LINE__, #a, #b, _a, _b);			\
		check_failed_now();						\
	}									\
} while (0)

/* CHECK with the failure said in the test's words (printf format). */
#define CHECK_MSG(cond, ...) do {						\
	if (cond) {								\
		check_passed++;							\
	} else {								\
		fprintf(stderr, "%s:%d: CHECK failed: ", __FILE__, __LINE__);	\
		fprintf(stderr, __VA_ARGS__);					\
		fputc('\n', stderr);						\
		check_failed_now();						\
	}									\
} while (0)

/* The closing line, and the exit status ctest reads; a test that checked nothing fails. */
static inline int check_report(const char *name)
{
	printf("%s: %d passed, %d failed\n", name, atomic_load(&check_passed),
	       atomic_load(&check_failed));
	if (!atomic_load(&check_passed) && !atomic_load(&check_failed)) {
		fprintf(stderr, "%s: no check ran\n", name);
		return 1;
	}
	return check_failed ? 1 : 0;
}

#endif
