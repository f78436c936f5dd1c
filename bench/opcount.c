// SPDX-License-Identifier: GPL-2.0
/* Exact operation counts: see include/mmscale/opcount.h. */
#include <string.h>

#include "mmscale/opcount.h"

_Thread_local struct mmscale_counts mmscale_this_counts;

static const char *const count_names[MMSCALE_NR_COUNTS] = {
	[MMSCALE_GLOBAL_READS]		= "global_reads",
	[MMSCALE_BDI_READS]		= "bdi_reads",
	[MMSCALE_PERCPU_SUM_SLOTS]	= "percpu_sum_slots",
	[MMSCALE_FOLDS]			= "folds",
	[MMSCALE_LOCK_ACQUIRES]		= "lock_acquires",
	[MMSCALE_IPIS_SENT]		= "ipis_sent",
	[MMSCALE_IPIS_HANDLED]		= "ipis_handled",
	[MMSCALE_PAGES_MOVED]		= "pages_moved",
};

const char *mmscale_count_name(enum mmscale_count c)
{
	if ((unsigned int)c >= MMSCALE_NR_COUNTS)
		return NULL;
	return count_names[c];
}

int mmscale_count_lookup(const char *name)
{
	for (int c = 0; c < MMSCALE_NR_COUNTS; c++)
		if (strcmp(count_names[c], name) == 0)
			return c;
	return -1;
}

void mmscale_counts_reset(void)
{
	memset(&mmscale_this_counts, 0, sizeof(mmscale_this_counts));
}

void mmscale_counts_snapshot(struct mmscale_counts *out)
{
	*out = mmscale_this_counts;
}
