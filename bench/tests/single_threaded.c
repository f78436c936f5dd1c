// SPDX-License-Identifier: GPL-2.0
/*
 * Linked into the tests registered with mmscale_single_threaded_test()
 * (CMakeLists.txt), with -Wl,--wrap=pthread_create: every call our code
 * makes to pthread_create comes here instead. Those tests are not run
 * under ThreadSanitizer - a program with one thread has no race to report,
 * and test_throttle alone cost 210 s of the TSan suite - so a test on that
 * list that starts a thread must fail at once, in every build, rather than
 * lose its TSan run unseen.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

extern const char *__progname;

int __wrap_pthread_create(pthread_t *thread, const pthread_attr_t *attr,
			  void *(*start)(void *), void *arg);

int __wrap_pthread_create(pthread_t *thread, const pthread_attr_t *attr,
			  void *(*start)(void *), void *arg)
{
	(void)thread;
	(void)attr;
	(void)start;
	(void)arg;
	fprintf(stderr, "%s: started a thread, but CMakeLists.txt registers it with "
		"mmscale_single_threaded_test() (not run under ThreadSanitizer): "
		"register it as a threaded test\n", __progname);
	abort();
}
