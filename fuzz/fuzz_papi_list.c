// SPDX-License-Identifier: GPL-2.0
/* libFuzzer target: PAPI event lists (--papi-events), syntax check only. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mmscale/papi.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);
	char err[256] = "";

	if (!s)
		return 0;
	memcpy(s, data, size);
	s[size] = '\0';
	if (mmscale_papi_check_list(s, err, sizeof(err)) != 0 && strncmp(err, "--papi-events", 13))
		abort();	/* a refusal names the flag */
	free(s);
	return 0;
}
