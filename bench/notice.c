// SPDX-License-Identifier: GPL-2.0
#include <stdarg.h>
#include <stdio.h>

#include "mmscale/notice.h"

int mmscale_notices_quiet;

void mmscale_notice(const char *fmt, ...)
{
	va_list ap;

	if (mmscale_notices_quiet)
		return;
	va_start(ap, fmt);
	fputs("mmscale: note: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
}

int mmscale_errorf(char *err, size_t len, const char *fmt, ...)
{
	va_list ap;

	if (err && len) {
		va_start(ap, fmt);
		vsnprintf(err, len, fmt, ap);
		va_end(ap);
	}
	return -1;
}
