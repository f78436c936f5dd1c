/* SPDX-License-Identifier: GPL-2.0 */
/* One-line notices and errors on stderr, all prefixed "mmscale: ". */
#ifndef MMSCALE_NOTICE_H
#define MMSCALE_NOTICE_H

#include <stddef.h>

#include "mmscale/errorf.h"

/* Exit status for bad input: one line on stderr, nothing written. */
#define MMSCALE_EXIT_USAGE	2

/* "mmscale: note: ..." - something the reader should know; the run goes on. */
void mmscale_notice(const char *fmt, ...) __attribute__((__format__(printf, 1, 2)));

/*
 * Hold notices back until the run is known to go ahead: release prints the
 * held ones in order and stops holding; discard drops them (bad input was
 * found: its one line is all the user sees).
 */
void mmscale_notices_hold(void);
void mmscale_notices_release(void);
void mmscale_notices_discard(void);

/* Silence notices (tests that exercise fallbacks on purpose). */
extern int mmscale_notices_quiet;

#endif /* MMSCALE_NOTICE_H */
