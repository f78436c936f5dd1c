// SPDX-License-Identifier: GPL-2.0
/*
 * The seeds' statistics (000_6ce0e1f67d0313fe: "ten runs, drop the fastest
 * and the slowest, mean and standard deviation of the rest").
 */
#include <math.h>
#include <stdlib.h>

#include "mmscale/gbench.h"

/* Sum and bounds of the kept values: all but one minimum and one maximum. */
static size_t trimmed_bounds(const double *v, size_t n, size_t *lo, size_t *hi)
{
	*lo = *hi = 0;
	if (n < 3)
		return n;
	for (size_t i = 1; i < n; i++) {
		if (v[i] < v[*lo])
			*lo = i;
		if (v[i] >= v[*hi])
			*hi = i;
	}
	if (*lo == *hi)		/* all equal: drop two different indices */
		*hi = *lo == 0 ? 1 : 0;
	return n - 2;
}

double mmscale_trimmed_mean(const double *v, size_t n)
{
	size_t lo, hi, kept = trimmed_bounds(v, n, &lo, &hi);
	double sum = 0;

	if (kept == 0)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (n < 3 || (i != lo && i != hi))
			sum += v[i];
	return sum / (double)kept;
}

double mmscale_trimmed_stddev(const double *v, size_t n)
{
	size_t lo, hi, kept = trimmed_bounds(v, n, &lo, &hi);
	double mean = mmscale_trimmed_mean(v, n), ss = 0;

	if (kept < 2)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (n < 3 || (i != lo && i != hi))
			ss += (v[i] - mean) * (v[i] - mean);
	return sqrt(ss / (double)(kept - 1));
}
