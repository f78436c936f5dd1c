// SPDX-License-Identifier: GPL-2.0
/* The seeds' statistics: drop the fastest and slowest, mean and stddev of the rest. */
#include <math.h>

#include "check.h"
#include "mmscale/gbench.h"

static int near(double a, double b)
{
	return fabs(a - b) < 1e-9 * (fabs(b) + 1);
}

int main(void)
{
	const double ten[] = { 7, 1, 10, 3, 5, 2, 9, 4, 8, 6 };	/* 1..10 shuffled */
	const double two[] = { 1, 3 };
	const double same[] = { 4, 4, 4, 4 };
	const double dup_extremes[] = { 1, 1, 5, 9, 9 };

	/* Kept: 2..9, mean 5.5, sample variance 6. */
	CHECK(near(mmscale_trimmed_mean(ten, 10), 5.5));
	CHECK(near(mmscale_trimmed_stddev(ten, 10), sqrt(6.0)));
	/* Fewer than three runs: nothing is dropped. */
	CHECK(near(mmscale_trimmed_mean(two, 2), 2.0));
	CHECK(near(mmscale_trimmed_stddev(two, 2), sqrt(2.0)));
	CHECK(near(mmscale_trimmed_mean(same, 4), 4.0));
	CHECK(near(mmscale_trimmed_stddev(same, 4), 0.0));
	/* Only one copy of a repeated extreme is dropped: kept 1, 5, 9. */
	CHECK(near(mmscale_trimmed_mean(dup_extremes, 5), 5.0));
	CHECK(near(mmscale_trimmed_stddev(dup_extremes, 5), 4.0));
	CHECK(near(mmscale_trimmed_mean(ten, 0), 0.0));
	return check_report("test_stats");
}
