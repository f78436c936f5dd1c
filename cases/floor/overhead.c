// SPDX-License-Identifier: GPL-2.0
/*
 * harness/overhead: what the shim costs. The same trivial body (one step of
 * a 64-bit LCG kept in a register) runs three ways in the same run:
 *   raw         - a plain C loop, GB's two clock reads around it
 *   shim        - one mmscale_keep_running() call per operation
 *   shim-batch  - mmscale_keep_running_batch() of SHIM_BATCH operations
 * The ratio shim-batch/raw is the harness's own overhead; RESULTS.md keeps it.
 */
#include "mmscale/case.h"
#include "mmscale/kernel/compiler.h"

#define SHIM_BATCH 1024

/* The work: a dependent multiply-add the compiler may not drop. */
static __always_inline u64 trivial_op(u64 x)
{
	x = x * 6364136223846793005ULL + 1442695040888963407ULL;
	__asm__ __volatile__("" : "+r"(x));
	return x;
}

/*
 * One batch of all max_iterations: GB's timer reads the clock once before
 * and once after this plain loop, nothing in between.
 */
static void overhead_raw(struct mmscale_state *st)
{
	int64_t n = mmscale_max_iterations(st);
	u64 x = 1;

	while (mmscale_keep_running_batch(st, n))
		for (int64_t i = 0; i < n; i++)
			x = trivial_op(x);
	__asm__ __volatile__("" : : "r"(x));
}

static void overhead_shim(struct mmscale_state *st)
{
	u64 x = 1;

	while (mmscale_keep_running(st))
		x = trivial_op(x);
	__asm__ __volatile__("" : : "r"(x));
}

static void overhead_shim_batch(struct mmscale_state *st)
{
	u64 x = 1;

	while (mmscale_keep_running_batch(st, SHIM_BATCH))
		for (int i = 0; i < SHIM_BATCH; i++)
			x = trivial_op(x);
	__asm__ __volatile__("" : : "r"(x));
}

/* harness/overhead's variants: the loop around the trivial body. */
struct overhead_variant {
	struct mmscale_variant v;
	void (*loop)(struct mmscale_state *st);
};

static void overhead_body(struct mmscale_state *st, struct mmscale_run *run)
{
	container_of(run->v, struct overhead_variant, v)->loop(st);
}

static const struct overhead_variant overhead_variants[] = {
	{ { "raw", "plain C loop, one batch: two clock reads around it", "harness" },
	  overhead_raw },
	{ { "shim", "mmscale_keep_running() per operation", "harness" }, overhead_shim },
	{ { "shim-batch", "mmscale_keep_running_batch(1024)", "harness" }, overhead_shim_batch },
};

static const struct mmscale_case overhead_cases[] = {
	{
		.name = "harness/overhead",
		.summary = "a trivial body through the shim beside the same body in a raw loop",
		.body = overhead_body,
		.threads = MMSCALE_THREADS_ONE,
		MMSCALE_VARIANT_ROWS(overhead_variants),
	},
};

const struct mmscale_case_table mmscale_harness_table =
	MMSCALE_CASE_TABLE("harness", overhead_cases);
