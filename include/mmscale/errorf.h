/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Every error of mmscale is one line in a caller's buffer: mmscale_errorf
 * writes it and returns -1, so that a caller can "return mmscale_errorf(...)".
 * Shared by the kernel layer (kernel/machine.c defines it) and the harness.
 */
#ifndef MMSCALE_ERRORF_H
#define MMSCALE_ERRORF_H

#include <stddef.h>

int mmscale_errorf(char *err, size_t len, const char *fmt, ...)
	__attribute__((__format__(printf, 3, 4)));

#endif /* MMSCALE_ERRORF_H */
