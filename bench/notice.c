// SPDX-License-Identifier: GPL-2.0
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mmscale/notice.h"

int mmscale_notices_quiet;

/*
 * Held notices: while mmscale does not yet know whether the run goes ahead
 * (bad input can still be found late, e.g. a filter that matches no case),
 * notices wait here, so that bad input stays the only line on stderr. Only
 * the main thread notices while they are held.
 */
static struct {
	int holding;
	char **lines;
	size_t nr, cap;
} held;

static void emit(const char *line)
{
	fputs("mmscale: note: ", stderr);
	fputs(line, stderr);
	fputc('\n', stderr);
}

void mmscale_notice(const char *fmt, ...)
{
	va_list ap;
	char line[1024];

	if (mmscale_notices_quiet)
		return;
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (held.holding) {
		char *copy = strdup(line);

		if (copy && held.nr == held.cap) {
			size_t cap = held.cap ? 2 * held.cap : 8;
			char **lines = realloc(held.lines, cap * sizeof(*lines));

			if (!lines) {
				free(copy);
				copy = NULL;
			} else {
				held.lines = lines;
				held.cap = cap;
			}
		}
		if (copy) {
			held.lines[held.nr++] = copy;
			return;
		}
		/* Out of memory: better said early than not at all. */
	}
	emit(line);
}

void mmscale_notices_hold(void)
{
	held.holding = 1;
}

static void drop_held(int print)
{
	for (size_t i = 0; i < held.nr; i++) {
		if (print)
			emit(held.lines[i]);
		free(held.lines[i]);
	}
	free(held.lines);
	held.lines = NULL;
	held.nr = held.cap = 0;
	held.holding = 0;
}

void mmscale_notices_release(void)
{
	drop_held(1);
}

void mmscale_notices_discard(void)
{
	drop_held(0);
}
