// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the command line. The input is split at NUL bytes into
 * arguments and parsed as mmscale would (our flags, the emulation
 * parameters, the values of Google Benchmark's flags), without running
 * anything; the parameters are restored after each input.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../bench/cli.h"
#include "mmscale/notice.h"
#include "mmscale/params.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_ARGS 16

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct mmscale_params saved = mmscale_params;
	struct mmscale_cli o;
	char *buf = malloc(size + 1);
	char *argv[MAX_ARGS + 2];
	int argc = 0, status;

	if (!buf)
		return 0;
	memcpy(buf, data, size);
	buf[size] = '\0';
	argv[argc++] = "mmscale";
	for (char *p = buf; p <= buf + size && argc <= MAX_ARGS; p += strlen(p) + 1)
		argv[argc++] = p;
	argv[argc] = NULL;
	memset(&o, 0, sizeof(o));
	status = mmscale_cli_parse(argc, argv, &o);
	if (status != 0 && status != MMSCALE_EXIT_USAGE)
		abort();
	mmscale_cli_free(&o);
	mmscale_params = saved;
	free(buf);
	return 0;
}
