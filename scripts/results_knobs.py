#!/usr/bin/python3
"""Regenerate the knob section of RESULTS.md: vmstat's stat_threshold and
percpu_counter's batch as knob tables (issue 28, item 3), the seed question of per-CPU deltas folded
into shared counters asked as "which threshold", the way Kemi Wang's 2017
NUMA-statistics series asked it (threshold 125, 65533, disabled; cycles per
operation, "<== system by default").

For each value of --set stat_threshold (auto, the largest an s8 holds, the
kernel's cap, 32, 0): vmstat/mod's five rows (one per-CPU counter update
per call, 2.6.31 and 6.18) at 1 and 2 threads, and vmstat/global_read's four
(k=8 items needed three times each, a CPU folding into the same line), on
this machine, ten repetitions per value, the values interleaved in rounds
(one mmscale per value and round: the knob is the process's, so the values
cannot share a run); and the exact counts of the same rows on a 1024-CPU,
128-node stand-in (counts only, one repetition). Then the same for
--set percpu_counter_batch (auto, 0, 8, 128, an s32's largest): rss/fault's
two rows (6.1's task cache, 6.18's percpu_counter) at 1 and 2 threads and
percpu/read_vs_sum's four at 1 thread. Then --set BDI_STAT_BATCH (auto, 0,
12, 13, 6401, an s32's largest): bdp/'s and bdp_throttled/'s rows, where the
batch decides whether a call reads the bdi (wb) counters or sums them.

usage: scripts/results_knobs.py [--print]   (default: rewrite RESULTS.md)"""
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mmresults import (command, machine, mm_param, num, replace_section, run_json,  # noqa: E402
                       setup, trimmed)

try:
    from scipy.stats import mannwhitneyu
except ImportError:
    sys.exit("results_knobs.py: scipy is missing (scripts/setup installs it): no section written")

VALUES = ["auto", "127", "125", "32", "0"]
ROUNDS = 5
CASES = "^vmstat/mod/|^vmstat/global_read/[^/]+/k:8/writers:1/"
RUN = [f"--benchmark_filter={CASES}", "--threads=1,2", "--benchmark_repetitions=2",
       "--benchmark_min_time=0.05", "--papi-events=none"]
STAND_IN = ["--topology=synthetic:node:128 core:8 pu:1", f"--benchmark_filter={CASES}",
            "--threads=1", "--benchmark_min_time=0.01", "--papi-events=none"]
BATCHES = ["auto", "0", "8", "128", "2147483647"]
BATCH_CASES = "^rss/fault/|^percpu/read_vs_sum/"
BATCH_RUN = [f"--benchmark_filter={BATCH_CASES}", *RUN[1:]]
BATCH_STAND_IN = [STAND_IN[0], f"--benchmark_filter={BATCH_CASES}", *STAND_IN[2:]]
FAULT = ["6.1-split", "6.18-percpu"]
SUM = ["read", "sum", "6.18-read", "6.18-sum"]
MOD = ["inc", "mod", "6.18-inc", "6.18-mod", "6.18-__mod"]
READ = ["repeated", "cached", "6.18-repeated", "6.18-cached"]
# Either side of where bdp_throttled/'s rows start to sum (2 x CPUs x batch over the
# threshold: 3.1's 22400 pages, the others' 25600): 12 and 13 on the stand-in's 1024
# CPUs, 6401 on this machine's 2 (3.1 already at 5601).
BDI_BATCHES = ["auto", "0", "12", "13", "6401", "2147483647"]
BDI_CASES = "^bdp/(2.6.31-rc8|cached-locals-v2|3.2|6.18)/|^bdp_throttled/(vanilla-3.1|3.2|6.18)/"
BDI_RUN = [f"--benchmark_filter={BDI_CASES}", *RUN[1:]]
BDI_STAND_IN = [STAND_IN[0], f"--benchmark_filter={BDI_CASES}", *STAND_IN[2:]]
BDP = ["2.6.31-rc8", "cached-locals-v2", "3.2", "6.18"]
THROTTLED = ["vanilla-3.1", "3.2", "6.18"]


def collect(args, rounds, knob="stat_threshold", values=VALUES):
    """{(value, family, variant, threads): [records]} over the rounds,
    {value: what auto resolved to} (this knob's part of mmscale_knobs_auto),
    and the last run's context."""
    runs, auto, ctx = {}, {}, {}
    with tempfile.TemporaryDirectory() as tmp:
        for r in range(rounds):
            for v in values:
                out = os.path.join(tmp, f"r{r}-{v}.json")
                recs, ctx, _ = run_json([*args, f"--set={knob}={v}"], out)
                auto[v] = next((part.split(": ", 1)[1] for part in
                                ctx.get("mmscale_knobs_auto", "").split("; ")
                                if part.startswith(knob + ": ")), "not recorded")
                for rec in recs:
                    key = (v, rec["family"], rec["variant"], rec["threads"])
                    runs.setdefault(key, []).append(rec)
    return runs, auto, ctx


def mean_count(recs, name):
    xs = [r["counters"][name] for r in recs if name in r["counters"]]
    return sum(xs) / len(xs) if xs else float("nan")


def count_text(x):
    """An exact count per call: whole numbers as such (24, not 24.0)."""
    return f"{x:.0f}" if x == x and x == round(x) else num(x)


def p_value(a, b):
    if len(set(a)) == 1 and set(a) == set(b):
        return 1.0
    return float(mannwhitneyu(a, b, alternative="two-sided").pvalue)


def time_cell(runs, v, family, variant, threads):
    """'3.15 (+1.2%*)': the trimmed mean, and its difference from auto with '*' for p < 0.05."""
    recs = runs.get((v, family, variant, threads))
    if not recs:
        return "-"
    times = [r["real_time_ns"] for r in recs]
    m = trimmed(times)[0]
    if v == "auto":
        return f"{num(m)} ns"
    base = [r["real_time_ns"] for r in runs[("auto", family, variant, threads)]]
    mb = trimmed(base)[0]
    star = "*" if p_value(base, times) < 0.05 else ""
    return f"{num(m)} ({(m - mb) / mb * 100:+.0f}%{star})"


def label(v, auto):
    if v != "auto":
        return v
    return f"auto <== default ({auto['auto']})"


def batch_part():
    """The percpu_counter_batch tables and their reading, as markdown lines."""
    here, auto_here, _ = collect(BATCH_RUN, ROUNDS, "percpu_counter_batch", BATCHES)
    standin, auto_standin, _ = collect(BATCH_STAND_IN, 1, "percpu_counter_batch", BATCHES)
    fam_fault, fam_sum = "rss/fault", "percpu/read_vs_sum"

    counts = ["| percpu_counter_batch | " +
              " | ".join(f"{var} folds | {var} lock_acquires" for var in FAULT) + " |",
              "|---|" + "---:|" * (2 * len(FAULT))]
    for v in BATCHES:
        cells = []
        for var in FAULT:
            for c in ("folds", "lock_acquires"):
                a = mean_count(here[(v, fam_fault, var, 1)], c)
                b = mean_count(standin[(v, fam_fault, var, 1)], c)
                cells.append(f"{count_text(a)} / {count_text(b)}")
        counts.append(f"| {v} | " + " | ".join(cells) + " |")

    times = ["| percpu_counter_batch | threads | " + " | ".join(FAULT) + " | " +
             " | ".join(SUM) + " |", "|---|---:|" + "---:|" * (len(FAULT) + len(SUM))]
    for v in BATCHES:
        for t in (1, 2):
            times.append(f"| {label(v, auto_here) if t == 1 else ''} | {t} | " +
                         " | ".join(time_cell(here, v, fam_fault, var, t) for var in FAULT) +
                         " | " +
                         " | ".join(time_cell(here, v, fam_sum, var, t) for var in SUM) + " |")

    def ratio(v, var, t, family=fam_fault):
        return (trimmed([r["real_time_ns"] for r in here[(v, family, var, t)]])[0] /
                trimmed([r["real_time_ns"] for r in here[("auto", family, var, t)]])[0])
    every = mean_count(here[("0", fam_fault, "6.18-percpu", 1)], "folds")
    never = mean_count(here[("2147483647", fam_fault, "6.18-percpu", 1)], "folds")
    split = {count_text(mean_count(runs[(v, fam_fault, "6.1-split", 1)], "folds"))
             for runs in (here, standin) for v in BATCHES}
    sum_counts = {(mean_count(runs[(v, fam_sum, "sum", 1)], "percpu_sum_slots"),
                   mean_count(runs[(v, fam_sum, "sum", 1)], "lock_acquires"))
                  for runs in (standin,) for v in BATCHES}
    para = (
        "Reading: 6.18's rss counter folds its CPU's s32 into fbc->count, under fbc->lock, "
        "once every batch faults, exactly (1/8 at 8, 1/128 at 128), "
        f"{count_text(every)} per fault at 0 and {count_text(never)} at an s32's largest; "
        f"auto is {auto_here['auto']} here and {auto_standin['auto']} on the stand-in "
        "(compute_batch_value: max(32, 2 x online CPUs)), so a 1024-CPU machine folds "
        f"{count_text(mean_count(standin[('auto', fam_fault, '6.18-percpu', 1)], 'folds'))} "
        "times per fault where this one folds "
        f"{count_text(mean_count(here[('auto', fam_fault, '6.18-percpu', 1)], 'folds'))}. "
        "With every fault folding (0), a fault costs "
        f"{ratio('0', '6.18-percpu', 1):.1f} times auto's with one thread and "
        f"{ratio('0', '6.18-percpu', 2):.1f} times with two threads of one process taking "
        "the same lock. 6.1's task cache has no percpu_counter: it syncs every 66th fault "
        f"({' / '.join(sorted(split))} per fault) whatever the batch. percpu/read_vs_sum's "
        "counts do not move either (one shared load per read; per sum the lock once and "
        "every online CPU's slot, "
        f"{', '.join(f'{count_text(a)} slots and {count_text(b)} lock' for a, b in sorted(sum_counts))}"
        " on the stand-in at every value): the batch decides when adds fold, and so how "
        "far a read may be from the sum (batch x CPUs), which no count here measures.")
    return [
        "## Knob tables: percpu_counter_batch (issue 28)",
        "",
        "The same machine and method, for `--set percpu_counter_batch` "
        f"({', '.join(BATCHES)}). Reproduce: `scripts/results_knobs.py`, which runs, for "
        "each round and each value V",
        "",
        f"    {command(BATCH_RUN)} --set=percpu_counter_batch=V",
        f"    {command(BATCH_STAND_IN)} --set=percpu_counter_batch=V   (once)",
        "",
        "bdp/'s percpu counters (the bdi statistics) fold at their own batch, "
        "BDI_STAT_BATCH: their table is the next section.",
        "",
        "### rss/fault: folds and fbc->lock acquisitions per fault (exact), this machine / "
        "the 1024-CPU stand-in",
        "",
        *counts,
        "",
        "### rss/fault (ns per fault) and percpu/read_vs_sum (ns per call) on this machine, "
        "against auto",
        "",
        *times,
        "",
        para,
    ]


def bdi_part():
    """The BDI_STAT_BATCH tables and their reading, as markdown lines."""
    here, auto_here, _ = collect(BDI_RUN, ROUNDS, "BDI_STAT_BATCH", BDI_BATCHES)
    standin, auto_standin, _ = collect(BDI_STAND_IN, 1, "BDI_STAT_BATCH", BDI_BATCHES)
    rows = [("bdp", var) for var in BDP] + [("bdp_throttled", var) for var in THROTTLED]

    def cell(runs, v, fam, var):
        recs = runs[(v, fam, var, 1)]
        return (f"{count_text(mean_count(recs, 'bdi_reads'))} + "
                f"{count_text(mean_count(recs, 'percpu_sum_slots'))}")
    counts = ["| BDI_STAT_BATCH | " + " | ".join(f"{fam}/{var}" for fam, var in rows) + " |",
              "|---|" + "---:|" * len(rows)]
    for v in BDI_BATCHES:
        counts.append(f"| {v} | " + " | ".join(
            f"{cell(here, v, fam, var)} / {cell(standin, v, fam, var)}" for fam, var in rows) +
            " |")
    times = ["| BDI_STAT_BATCH | threads | " +
             " | ".join(f"{fam}/{var}" for fam, var in rows) + " |",
             "|---|---:|" + "---:|" * len(rows)]
    for v in BDI_BATCHES:
        for t in (1, 2):
            times.append(f"| {label(v, auto_here) if t == 1 else ''} | {t} | " +
                         " | ".join(time_cell(here, v, fam, var, t) for fam, var in rows) + " |")

    def sums(runs, v, fam, var):
        return mean_count(runs[(v, fam, var, 1)], "percpu_sum_slots") > 0
    def summing(runs, v):
        return [f"{fam}/{var}" for fam, var in rows if sums(runs, v, fam, var)] or ["none"]
    def ratio(v, fam, var, t):
        return (trimmed([r["real_time_ns"] for r in here[(v, fam, var, t)]])[0] /
                trimmed([r["real_time_ns"] for r in here[("auto", fam, var, t)]])[0])
    big = [ratio("2147483647", "bdp_throttled", var, t) for var in THROTTLED for t in (1, 2)]
    para = (
        "Reading (each cell: bdi_stat or wb_stat reads + per-CPU slots summed per call, "
        "this machine / the stand-in): the batch decides the error bdi_stat_error "
        "(wb_stat_error) allows, nr_cpu_ids x the batch, and balance_dirty_pages sums both "
        "counters over every online CPU, each under its lock, instead of reading them where "
        "the bdi's (wb's) threshold is under twice that. auto is "
        f"{auto_here['auto']} here and {auto_standin['auto']} on the stand-in. "
        f"At auto on this machine the rows that sum are: {', '.join(summing(here, 'auto'))}; "
        f"on the stand-in: {', '.join(summing(standin, 'auto'))}. "
        "The throttled pass's threshold is the 100 MiB bench's 25600 pages (3.1's task "
        "limit 22400): at 12 the stand-in's 1024 CPUs make twice the error 24576 pages, "
        f"and the rows that sum there are {', '.join(summing(standin, '12'))}; at 13, 26624, "
        f"{', '.join(summing(standin, '13'))}. This machine's 2 CPUs need 6401 "
        f"({', '.join(summing(here, '6401'))}). At 0 the error is 0 and nothing sums "
        f"({', '.join(summing(standin, '0'))}), whatever the CPUs. In bdp/ the unthrottled "
        "IO-less and 6.18 calls leave before they read a bdi counter; the rows that sum "
        "there at an s32's largest are "
        f"{', '.join(r for r in summing(standin, '2147483647') if r.startswith('bdp/'))}, "
        "against a threshold that is the whole machine's dirty limit. On this 2-CPU VM a sum walks 2 slots, and a throttled pass at an s32's "
        f"largest costs {min(big):.2f} to {max(big):.2f} times auto's: what the stand-in's "
        "walk of 2048 slots per pass would cost a large machine is its counts, not these "
        "times.")
    return [
        "## Knob tables: BDI_STAT_BATCH (issue 28)",
        "",
        "The same machine and method, for `--set BDI_STAT_BATCH` (WB_STAT_BATCH in 6.18) "
        f"({', '.join(BDI_BATCHES)}), on bdp/'s and bdp_throttled/'s rows. Reproduce: "
        "`scripts/results_knobs.py`, which runs, for each round and each value V",
        "",
        f"    {command(BDI_RUN)} --set=BDI_STAT_BATCH=V",
        f"    {command(BDI_STAND_IN)} --set=BDI_STAT_BATCH=V   (once)",
        "",
        "### bdi (wb) reads + per-CPU slots summed per call (exact), this machine / the "
        "1024-CPU stand-in",
        "",
        *counts,
        "",
        "### ns per call on this machine, against auto",
        "",
        *times,
        "",
        para,
    ]


def main():
    setup()
    here, auto_here, ctx = collect(RUN, ROUNDS)
    mem = mm_param(ctx, "mem") or "not recorded"
    standin, auto_standin, _ = collect(STAND_IN, 1)
    fam_mod, fam_read = "vmstat/mod", "vmstat/global_read"

    folds = ["| stat_threshold | " + " | ".join(MOD) + " |", "|---|" + "---:|" * len(MOD)]
    for v in VALUES:
        cells = []
        for var in MOD:
            a = mean_count(here[(v, fam_mod, var, 1)], "folds")
            b = mean_count(standin[(v, fam_mod, var, 1)], "folds")
            cells.append(f"{num(a)} / {num(b)}")
        folds.append(f"| {v} | " + " | ".join(cells) + " |")

    times = ["| stat_threshold | threads | " + " | ".join(MOD) + " |",
             "|---|---:|" + "---:|" * len(MOD)]
    for v in VALUES:
        for t in (1, 2):
            times.append(f"| {label(v, auto_here) if t == 1 else ''} | {t} | " +
                         " | ".join(time_cell(here, v, fam_mod, var, t) for var in MOD) + " |")

    reads = ["| stat_threshold | " + " | ".join(READ) + " | global_reads per call |",
             "|---|" + "---:|" * len(READ) + "---|"]
    for v in VALUES:
        counts = "; ".join(
            f"{var} {count_text(mean_count(here[(v, fam_read, var, 1)], 'global_reads'))}"
            f"/{count_text(mean_count(standin[(v, fam_read, var, 1)], 'global_reads'))}"
            for var in READ)
        reads.append(f"| {label(v, auto_here)} | " +
                     " | ".join(time_cell(here, v, fam_read, var, 1) for var in READ) +
                     f" | {counts} |")

    # What the counts show, computed from them.
    def fold_every(v, var, runs=here):
        f = mean_count(runs[(v, fam_mod, var, 1)], "folds")
        return 1 / f if f else float("inf")
    def ratio(v, var, t, family=fam_mod):
        return (trimmed([r["real_time_ns"] for r in here[(v, family, var, t)]])[0] /
                trimmed([r["real_time_ns"] for r in here[("auto", family, var, t)]])[0])
    slow0 = [ratio("0", var, 1) for var in MOD]
    slow0_2 = [ratio("0", var, 2) for var in MOD]
    cap_2 = [ratio("125", var, 2) for var in MOD]
    read_moves = [abs(ratio(v, var, 1, fam_read) - 1) * 100 for v in VALUES[1:] for var in READ]
    inc127 = mean_count(here[("127", fam_mod, "inc", 1)], "folds")
    read_counts = {mean_count(runs[(v, fam_read, var, 1)], "global_reads")
                   for runs in (here, standin) for v in VALUES for var in ("repeated",)}
    para = (
        f"Reading: the folds are exact and follow the threshold t as the kernel's code does: "
        f"__mod_zone_page_state and 6.18's mod forms fold once every t + 1 updates (every "
        f"{fold_every('125', 'mod'):.0f} at 125, every {fold_every('32', 'mod'):.0f} at 32), "
        f"the inc forms, whose fold leaves the delta at -t/2, once every t + 1 + t/2 "
        f"({fold_every('125', '6.18-inc'):.0f} at 125); at 0 every update folds (1 per "
        f"update in every row), and one update then costs {min(slow0):.1f} to "
        f"{max(slow0):.1f} times what it costs at auto on this machine with one thread, "
        f"{min(slow0_2):.0f} to {max(slow0_2):.0f} times with two threads folding into the "
        "same vm_stat line; with two threads the kernel's cap, 125, costs "
        f"{(1 - max(cap_2)) * 100:.0f} to {(1 - min(cap_2)) * 100:.0f}% less than auto: on "
        "this 2-CPU VM, a figure of the line shared by two CPUs, not of a large machine. "
        f"auto resolves to {auto_here['auto']} here and "
        f"{auto_standin['auto']} on the 1024-CPU stand-in "
        f"(2 x fls(CPUs) x (1 + fls(zone size / 128 MiB)), its 128 zones sharing mem={mem}), "
        "so the stand-in's folds at auto differ from this machine's and at every forced value "
        "they are the same. At 127, the largest an s8 holds and two past the kernel's cap "
        f"of 125, 2.6.31's __inc_zone_state folds {num(inc127)} times per update: its "
        "(*p)++ takes the s8 delta from 127 to -128, so it never passes the threshold; "
        "only the vmstat work folds the delta it finds at each interval, and every wrap "
        "loses 256 updates (calculate_threshold caps at 125); "
        f"6.18's inc_node_state adds in a long and folds every "
        f"{fold_every('127', '6.18-inc'):.0f} updates. vmstat/global_read's counts do not "
        f"depend on the threshold ({' and '.join(count_text(c) for c in sorted(read_counts))}"
        " global reads per call for the re-reading rows at every value, on both machines), "
        "and neither does how often its folding CPU writes the shared line: it adds "
        "threshold + 1 and takes it back, two folds per step at every value. Its times "
        f"differ from auto's by {min(read_moves):.0f} to {max(read_moves):.0f}% across the "
        "values.")

    batch_lines = batch_part()
    bdi_lines = bdi_part()
    replace_section("knobs (scripts/results_knobs.py)", [
        "## Knob tables: vmstat's stat_threshold (issue 28)",
        "",
        f"Run on: {machine()} (the times), and a synthetic 128-node, 1024-CPU stand-in "
        f"(exact counts only; not for timing); git {ctx.get('mmscale_git_revision')}, "
        f"{ctx.get('mmscale_compiler')}, {ctx.get('mmscale_build_type')}. One mmscale per value and round, "
        f"{ROUNDS} rounds of the {len(VALUES)} values in turn, 2 repetitions each: 10 "
        "runs per value; figures are the seeds' trimmed means, differences against auto in "
        "the same rounds, '*' where Mann-Whitney p < 0.05.",
        "",
        "Reproduce: `scripts/results_knobs.py`, which runs, for each round and each value V "
        f"of {', '.join(VALUES)}",
        "",
        f"    {command(RUN)} --set=stat_threshold=V",
        f"    {command(STAND_IN)} --set=stat_threshold=V   (once)",
        "",
        "(A sweep of the same: `scripts/sweep --cases '^vmstat/mod/' --threads 1,2 --set "
        "stat_threshold=auto,127,125,32,0`, then `scripts/compare` on it, prints one knob "
        "table per row.)",
        "",
        "### vmstat/mod: folds per update (exact), this machine / the 1024-CPU stand-in",
        "",
        *folds,
        "",
        "### vmstat/mod: ns per update on this machine, against auto",
        "",
        *times,
        "",
        "### vmstat/global_read (k=8, a CPU folding into the same line): ns per call, 1 "
        "thread, and the exact global reads (this machine/stand-in)",
        "",
        *reads,
        "",
        para,
        "",
        *batch_lines,
        "",
        *bdi_lines,
    ])
    return 0


if __name__ == "__main__":
    from mmresults import main_guard
    main_guard(main)
