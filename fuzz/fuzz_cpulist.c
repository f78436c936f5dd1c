// SPDX-License-Identifier: GPL-2.0
/* libFuzzer target: cpulists (--cpus, --threads) through mmscale_parse_cpulist. */
#include <hwloc.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mmscale/topology.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);
	char err[256];
	hwloc_bitmap_t set;

	if (!s)
		return 0;
	memcpy(s, data, size);
	s[size] = '\0';
	set = mmscale_parse_cpulist(s, err, sizeof(err));
	if (set) {
		/* Accepted lists are finite and non-empty. */
		if (hwloc_bitmap_weight(set) <= 0)
			abort();
		hwloc_bitmap_free(set);
	} else if (!err[0]) {
		abort();	/* a refusal always says why */
	}
	free(s);
	return 0;
}
