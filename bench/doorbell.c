// SPDX-License-Identifier: GPL-2.0
/* The doorbell table, and a run's choice (include/mmscale/doorbell.h). */
#include "mmscale/cpu.h"
#include "mmscale/doorbell.h"
#include "mmscale/notice.h"

#define DOORBELL_ROW(ops, name, summary, source, interrupts, available)	\
	{ name, summary, source, &ops, interrupts, available },
const struct mmscale_doorbell mmscale_doorbells[] = { DOORBELLS(DOORBELL_ROW) };
#undef DOORBELL_ROW
const size_t mmscale_nr_doorbells = ARRAY_SIZE(mmscale_doorbells);

const struct mmscale_doorbell *mmscale_doorbell_of(const struct doorbell_ops *ops)
{
	for (size_t i = 0; ops && i < mmscale_nr_doorbells; i++)
		if (mmscale_doorbells[i].ops == ops)
			return &mmscale_doorbells[i];
	return NULL;
}

const struct doorbell_ops *mmscale_doorbell_resolve(const struct doorbell_ops *want,
						    int run_cpus)
{
	/* One notice per doorbell this machine lacks, however many runs ask for it. */
	static const struct doorbell_ops *said[16];
	const struct mmscale_doorbell *row = mmscale_doorbell_of(want);
	char why[160];

	if (!want)
		return mmscale_plan_oversubscribed(mmscale_machine_plan(), run_cpus) ?
		       &doorbell_futex : &doorbell_spin;
	if (!row || !row->available || row->available(why, sizeof(why)))
		return want;
	for (size_t i = 0; i < ARRAY_SIZE(said); i++) {
		if (said[i] == want)
			break;
		if (!said[i]) {
			said[i] = want;
			mmscale_notice("%s: --ipi=%s uses the spin doorbell instead", why,
				       row->name);
			break;
		}
	}
	return &doorbell_spin;
}
