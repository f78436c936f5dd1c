#!/usr/bin/python3
"""Regenerate RESULTS.md's IO-less throttling section: the seed-004 table
(bdi reserve area vs bdi freerun, nr_written over the thread's 19 JBOD
scenarios) beside the same scenarios in mmscale's virtual-time world, how
many directions agree, the pauses and idle disks, the control loop in
pictures, and what such a model can and cannot say.

  scripts/results_throttle.py [--print]

Runs build/mmscale twice: every throttle/ case, 60 s of virtual time each,
with their traces, and 3.2's on a 1024-CPU world; the plots of four
scenarios go to docs/plots/."""
import glob
import os
import shutil
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mmresults  # noqa: E402

# Wu Fengguang's two nr_written tables of 18 Sep 2011, as he reported them
# (scripts/seed_nr_written.tsv says where each is from): SEED, with bdi
# reserve area (v11 10/18, his tree of 3.1.0-rc4) and with bdi freerun;
# SEED2, with vanilla 3.1.0-rc4 and with IO-less (the bdi-reserve kernel).
def load_seed_tables(path):
    tables = {}
    with open(path) as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            table, scenario, first, second = line.rstrip("\n").split("\t")
            tables.setdefault(table, {})[scenario] = (int(first), int(second))
    return tables


_SEED_TABLES = load_seed_tables(os.path.join(mmresults.ROOT, "scripts", "seed_nr_written.tsv"))
SEED = _SEED_TABLES["reserve-freerun"]
SEED2 = _SEED_TABLES["vanilla-ioless"]
VARIANTS = ("vanilla-3.1", "reserve-v11", "freerun", "3.2")
# The seed-era rows only: 6.18's throttle/ row is in the 6.18 section (results_6_18.py).
SEED_ROWS = r"--benchmark_filter=^throttle/.*/(vanilla-3\.1|reserve-v11|freerun|3\.2)/"
# Within this much both ways a difference is "no change" (the thread's own
# smallest reported differences are 0.4-0.8%).
TIE_PCT = 0.5
SECONDS = 60
PLOTTED = [
    "JBOD-10HDD-thresh=100M/xfs-10dd-1M-16p-5895M-100M",
    "JBOD-10HDD-thresh=100M/xfs-1dd-1M-16p-5895M-100M",
    "JBOD-10HDD-thresh=800M/xfs-2dd-1M-16p-5895M-800M",
    "JBOD-10HDD-6G/xfs-2dd-1M-16p-5895M-20",
]


def pct(a, b):
    return (b - a) / a * 100 if a else float("nan")


def sign(d):
    return 0 if abs(d) < TIE_PCT else (1 if d > 0 else -1)


def main():
    mmresults.setup()
    tmp = tempfile.mkdtemp(prefix="mmscale-throttle-")
    try:
        section(tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def section(tmp):
    trace = os.path.join(tmp, "trace")
    args = [SEED_ROWS, f"--throttle-seconds={SECONDS}",
            f"--throttle-trace={trace}", "--papi-events=none"]
    t0 = time.monotonic()
    runs, ctx, notes = mmresults.run_json(args, os.path.join(tmp, "throttle.json"))
    wall = time.monotonic() - t0
    got = {(r["family"].removeprefix("throttle/"), r["variant"]): r["counters"] for r in runs}
    if len(got) != len(VARIANTS) * len(SEED):
        sys.exit(f"results_throttle: {len(got)} runs, not {len(VARIANTS) * len(SEED)}: "
                 "no section written")

    diffs = {}
    for case, (s_res, s_free) in SEED.items():
        diffs[case] = (pct(s_res, s_free), pct(got[(case, "reserve-v11")]["nr_written"],
                                               got[(case, "freerun")]["nr_written"]))

    def agree_at(tie):
        def sgn(d):
            return 0 if abs(d) < tie else (1 if d > 0 else -1)
        return sum(sgn(sd) == sgn(md) for sd, md in diffs.values())

    rows, agree, both_ties, model_ties, reversed_rows = [], 0, 0, [], []
    for case, (s_res, s_free) in SEED.items():
        m_res = got[(case, "reserve-v11")]["nr_written"]
        m_free = got[(case, "freerun")]["nr_written"]
        m_32 = got[(case, "3.2")]["nr_written"]
        sd, md = pct(s_res, s_free), pct(m_res, m_free)
        same = sign(sd) == sign(md)
        agree += same
        both_ties += same and sign(md) == 0
        if sign(md) == 0:
            model_ties.append(case)
        if sign(sd) * sign(md) < 0:
            reversed_rows.append((case, sd, md))
        rows.append(f"| {s_res} | {s_free} | {sd:+.1f}% | {int(m_res)} | {int(m_free)} | "
                    f"{md:+.1f}% | {'yes' if same else 'no'} | {int(m_32)} | {case} |")
    rows2, agree2, reversed2 = [], 0, []
    for case, (s_van, s_iol) in SEED2.items():
        m_van = got[(case, "vanilla-3.1")]["nr_written"]
        m_iol = got[(case, "reserve-v11")]["nr_written"]
        sd, md = pct(s_van, s_iol), pct(m_van, m_iol)
        same = sign(sd) == sign(md)
        agree2 += same
        if sign(sd) * sign(md) < 0:
            reversed2.append(case)
        rows2.append(f"| {s_van} | {s_iol} | {sd:+.1f}% | {int(m_van)} | {int(m_iol)} | "
                     f"{md:+.1f}% | {'yes' if same else 'no'} | "
                     f"{int(got[(case, '3.2')]['nr_written'])} | {case} |")
    tie_lo = min(abs(diffs[c][0]) for c in model_ties) if model_ties else 0
    tie_hi = max(abs(diffs[c][0]) for c in model_ties) if model_ties else 0
    idle = []
    for case in SEED:
        cells = []
        for v in VARIANTS:
            r = got[(case, v)]
            cells.append(f"{r['disk_idle_s']:.1f} / {r['pause_mean_ms']:.1f} / "
                         f"{r['pause_p99_ms']:.0f}")
        idle.append(f"| {' | '.join(cells)} | {case} |")
    calls = int(sum(r["bdp_calls"] for r in got.values()))
    reads = int(round(sum(r["global_reads"] * r["bdp_calls"] for r in got.values())))

    # 3.2 on a 1024-CPU world: what bdi_stat_sum walks there.
    big_args = [r"--benchmark_filter=^throttle/.*/3\.2/", f"--throttle-seconds={SECONDS}",
                "--throttle-cpus=1024", "--papi-events=none"]
    big_runs, _, _ = mmresults.run_json(big_args, os.path.join(tmp, "big.json"))
    if len(big_runs) != len(SEED):
        sys.exit(f"results_throttle: {len(big_runs)} runs of the 1024-CPU world, not "
                 f"{len(SEED)}: no section written")
    big = {r["family"].removeprefix("throttle/"): r["counters"] for r in big_runs}
    cpus_rows = []
    for case in SEED:
        a, b = got[(case, "3.2")], big[case]
        cpus_rows.append(
            f"| {a['global_reads']:.2f} | {a['bdi_reads']:.2f} | {a['percpu_sum_slots']:.1f} | "
            f"{b['global_reads']:.2f} | {b['bdi_reads']:.2f} | {b['percpu_sum_slots']:.1f} | "
            f"{pct(a['nr_written'], b['nr_written']):+.1f}% | {case} |")

    # The same runs with the reads carrying the per-CPU counters' error.
    err_args = [SEED_ROWS, f"--throttle-seconds={SECONDS}",
                "--throttle-percpu-error=yes", "--papi-events=none"]
    err_runs, _, _ = mmresults.run_json(err_args, os.path.join(tmp, "percpu-error.json"))
    err = {(r["family"].removeprefix("throttle/"), r["variant"]): r["counters"] for r in err_runs}
    if len(err) != len(got):
        sys.exit(f"results_throttle: {len(err)} runs with per-CPU error, not {len(got)}: "
                 "no section written")
    err_rows, moved = [], []
    for case in SEED:
        cells = []
        for v in VARIANTS:
            d = pct(got[(case, v)]["nr_written"], err[(case, v)]["nr_written"])
            moved.append(abs(d))
            cells.append(f"{int(err[(case, v)]['nr_written'])} ({d:+.1f}%)")
        err_rows.append(f"| {' | '.join(cells)} | {case} |")
    err_dirs = {}
    for case, (s_res, s_free) in SEED.items():
        err_dirs[case] = sign(pct(err[(case, "reserve-v11")]["nr_written"],
                                  err[(case, "freerun")]["nr_written"])) == sign(diffs[case][0])
    err_agree = sum(err_dirs.values())

    # The plots of four scenarios, from the traces (scripts/plot --throttle-trace).
    plots = os.path.join(tmp, "plots")
    status, out = mmresults.run_script("plot", ["--throttle-trace", trace, "--out", plots])
    if status != 0:
        sys.exit(f"results_throttle: scripts/plot exited {status}: {out}")
    dest = os.path.join(mmresults.PLOTS, "throttle")
    shutil.rmtree(dest, ignore_errors=True)
    os.makedirs(dest)
    images = []
    for case in PLOTTED:
        stem = "".join(c if c.isalnum() or c in "-_." else "-" for c in case.replace("/", "_"))
        for png in sorted(glob.glob(os.path.join(plots, f"throttle-*{stem}*.png"))):
            shutil.copy(png, dest)
            name = os.path.basename(png)
            images.append(f"![{name[:-4]}](docs/plots/throttle/{name})")

    lines = [
        "## IO-less dirty throttling: bdi reserve area vs bdi freerun (seed 004, issue 11)",
        "",
        f"Machine: {mmresults.machine()}. {mmresults.context_line(ctx)}.",
        f"Command: `{mmresults.command(args[:2] + ['--throttle-trace=DIR', args[3]])}` "
        f"(`scripts/results_throttle.py` runs it and writes this section); the same tables: "
        f"`scripts/compare RESULTS --metric nr_written --baseline reserve-v11` (the first) and "
        f"`scripts/compare RESULTS --metric nr_written` (vanilla-3.1 against each, the second).",
        "",
        f"All {len(VARIANTS) * len(SEED)} runs ({len(SEED)} scenarios x {len(VARIANTS)} "
        f"variants, {SECONDS} s of virtual time each) took "
        f"{wall:.1f} s of wall time here, traces included. Every run is deterministic: the "
        "same figures on any machine, every time (test_throttle checks two runs bit for bit). "
        "Linux 6.18's row of the same scenarios is in the section \"Linux 6.18 beside the "
        "seed kernels\" below.",
        "",
        "What runs: Linux 3.1's and 3.2's `balance_dirty_pages`, its ratelimiting, limits, bandwidth and "
        "ratelimit estimation and position ratio, ported line by line "
        "(counters/iol_balance.h, iol_control.h, iol_vanilla_3_1.c; kernel/linux-3.2/mm/page-writeback.c), "
        "deciding every pause of "
        "every dd task; the variants differ where their sources do (counters/iol_*.c): "
        "`reserve-v11` is the thread's \"bdi-reserve\" (v11 10/18, x_intercept = min(write_bw, "
        "freerun), no floor for an inactive bdi), `freerun` its \"bdi-freerun\" (the reserve "
        "area removed, no throttling below the bdi's own freerun point), `3.2` what was merged "
        "(v12: x_intercept = bdi_thresh / 2 and the inactive-bdi floor), `vanilla-3.1` the "
        "last kernel before IO-less (3.1.3). Both v11 variants are "
        "3.2 with the reserve-area lines changed and with what Wu's tree had of the v11 series "
        "and 3.2 has not: 07/18's think time compensation (the pause is what is left of the "
        "period since the last one ended) and 11/18's break while the disk's async queue "
        "underruns (`bdi_async_underrun()`: set when every queued request is in flight, cleared "
        "when 3 more are queued; the bdi-freerun patch's context shows both of his kernels had "
        "it), ported from the postings (docs/postings/).",
        "",
        "### nr_written: the thread's numbers and the model's",
        "",
        "Larger is better. The model writes for one virtual minute; the thread's runs were "
        "longer, so only the directions compare, not the sizes. \"agrees\": the two "
        f"differences have the same sign (within {TIE_PCT}% both ways counting as no change).",
        "",
        "| thread: reserve | thread: freerun | thread diff | model: reserve-v11 | "
        "model: freerun | model diff | agrees | model: 3.2 | case |",
        "|---:|---:|---:|---:|---:|---:|---|---:|---|",
        *rows,
        "",
        f"**{agree} of {len(SEED)} directions agree**, {both_ties} of them because both "
        f"differences are within {TIE_PCT}% (unrounded). The count depends on that margin: "
        + ", ".join(f"{agree_at(t)} at {t}%" for t in (0, 0.25, 1, 2)) + ". "
        f"The model's reserve-v11 and freerun differ by less than {TIE_PCT}% in "
        f"{len(model_ties)} cases (" + ", ".join(c.removeprefix("JBOD-10HDD-") for c in model_ties)
        + f"), where the thread's differ by {tie_lo:.1f}% to {tie_hi:.1f}%; the disks' idle "
        "seconds below show how seldom a disk ran short of dirty pages there, which is what a "
        "reserve area acts on. The model reverses the thread's sign in "
        + (", ".join(f"{c.removeprefix('JBOD-10HDD-')} (thread {sd:+.1f}%, model {md:+.1f}%)"
                     for c, sd, md in reversed_rows) or "no case") + ".",
        "",
        "### nr_written: vanilla 3.1 against IO-less",
        "",
        "The thread's second table: vanilla 3.1 (its dirtiers write back themselves) against "
        "the IO-less kernel of the first table (bdi-reserve), the same cases in the thread's "
        "order; the model's `vanilla-3.1` is 3.1.3's balance_dirty_pages (counters/"
        "iol_vanilla_3_1.c: the dirtier submits through the world's writeback path and waits "
        "for a free request like the flusher), its IO-less column `reserve-v11`.",
        "",
        "| thread: vanilla | thread: IO-less | thread diff | model: vanilla-3.1 | "
        "model: reserve-v11 | model diff | agrees | model: 3.2 | case |",
        "|---:|---:|---:|---:|---:|---:|---|---:|---|",
        *rows2,
        "",
        f"**{agree2} of {len(SEED2)} directions agree** (the same {TIE_PCT}% margin). The "
        "model reverses the thread's sign in "
        + (", ".join(c.removeprefix("JBOD-10HDD-") for c in reversed2) or "no case") + ".",
        "",
        "### Disks idle, pauses",
        "",
        "Per variant: seconds the 10 disks sat idle (summed), mean pause (ms), p99 pause (ms) "
        "(3.1's pauses are its 1 to 100 ms naps; its waits for a free request are not "
        "pauses).",
        "",
        "| vanilla-3.1 | reserve-v11 | freerun | 3.2 | case |",
        "|---|---|---|---|---|",
        *idle,
        "",
        f"balance_dirty_pages was called {calls} times over the {len(got)} runs and read the global "
        f"counters {reads} times: {reads / calls:.2f} global_page_state calls per call "
        + ("(8 per pass through its loop with swap, as here: three for the dirty counts, five in "
           "global_dirty_limits, free pages and global_reclaimable_pages' four LRUs; 6 without "
           "swap, the anon LRUs unread; "
           if mmresults.mm_param(ctx, "swap") == "yes" else
           "(6 per pass through its loop without swap, as here: three for the dirty counts, "
           "three in global_dirty_limits, free pages and the two file LRUs; 8 with swap; ")
        + "test_throttle checks both, and 2 bdi reads per throttled pass, exactly).",
        "",
        "### With the per-CPU counters' error",
        "",
        "The world reads exact counts by default. The kernel's are per-CPU: each CPU keeps its "
        "deltas of the vm items until they pass 3.2's stat_threshold (70 pages here: 16 CPUs, "
        "5895 MiB) or the vmstat work folds them each second, and of the bdi items until "
        f"BDI_STAT_BATCH (40); `{mmresults.command(err_args)}` makes the reads carry that "
        "(dirtiers on their CPUs, each disk's flusher and completions on one CPU; "
        "bdi_stat_sum stays exact; test_throttle checks every read within the kernel's bound). "
        "nr_written with the error, and its change from the exact runs above:",
        "",
        "| vanilla-3.1 | reserve-v11 | freerun | 3.2 | case |",
        "|---|---|---|---|---|",
        *err_rows,
        "",
        f"The error moves nr_written by {min(moved):.1f}% to {max(moved):.1f}% "
        f"(median {sorted(moved)[len(moved) // 2]:.1f}%); with it, the model's reserve-v11 "
        f"vs freerun direction agrees with the thread's in {err_agree} of {len(SEED)} cases "
        f"(exact reads: {agree}).",
        "",
        "### Per call, on 16 and on 1024 CPUs",
        "",
        "3.2's reads per balance_dirty_pages call, in its world of 16 CPUs and in the same "
        f"world with 1024 (`{mmresults.command(big_args)}`): bdi_stat_error grows with "
        "the CPUs (nr_cpu_ids x 8 x (1 + ilog2(nr_cpu_ids)): 640 pages on 16, 90112 = 352 MiB "
        "on 1024), so a throttled pass takes bdi_stat_sum, which walks every CPU's slot for "
        "each of its two items, whenever the bdi's threshold is below twice that (and "
        "ratelimit_pages, the dirty threshold over 32 per CPU, falls to its floor of 16). The "
        "counts are exact (the world counts each read and each slot walked; a bdi_stat_sum "
        "counts as its slots, not as a bdi read, as in bdp/); nr_written is the model's. The "
        "same calls timed on pinned threads are `bdp/<variant>` and `bdp_throttled/<variant>` "
        "(the counters section; their counts on 1024 CPUs in the stand-in section), where a "
        "sum also takes the counter's lock.",
        "",
        "| 16 CPUs: global reads | bdi reads | per-CPU slots | 1024 CPUs: global reads | "
        "bdi reads | per-CPU slots | nr_written, 1024 vs 16 | case |",
        "|---:|---:|---:|---:|---:|---:|---:|---|",
        *cpus_rows,
        "",
        "### The control loop in pictures",
        "",
        "Per scenario and variant, over virtual time: the dirty pages against the global "
        "freerun ceiling, setpoint and limit; disk 0's dirty pages, setpoint and threshold; its "
        "dirty ratelimit, balanced ratelimit and estimated write bandwidth; the mean pause of "
        "its tasks. And per scenario, pos_ratio against dirty pages for each variant: the "
        "global control line (the cubic, the same in all) and disk 0's bdi control line at "
        "the global setpoint, where the reserve areas differ (`scripts/plot --throttle-trace "
        "DIR` draws them from `mmscale --throttle-trace=DIR`).",
        "",
        *images,
        "",
        "### The device model, and how it was chosen",
        "",
        "From the hardware the names describe, before any run, not fitted to the table "
        "(kernel/linux-3.2/world/throttle.c states each choice): a 7200 rpm SATA disk of 2011 writes "
        "100 MiB/s sequentially; moving to another file's region of the same xfs allocation "
        "group costs a short seek (1 ms) and half a turn (4.2 ms); requests of up to 512 KiB "
        "(max_sectors_kb), 128 of them queued (nr_requests), served in C-LOOK order; the "
        "flusher writes each inode up to 3.2's background chunk (half a second of the "
        "estimated bandwidth, at most global_dirty_limit / 8, in 4 MiB steps) and, at 128 "
        "queued requests, waits for one in a FIFO with 3.1's dirtiers (each completion wakes "
        "the first, which may then take up to 32 more: the block layer's batching); a dd "
        "copies a page in 1 us; 256 MiB of the 5895 MiB are neither free "
        "nor page cache. \"Ndd\" is N dd per disk (the 1dd cases wrote as much as the 10dd "
        "ones in the thread, which one dd on one of ten disks could not).",
        "",
        "### What a model of this kind can and cannot say",
        "",
        "It can say what the ported control does to a dirty pool when the disks behave as "
        "stated: whether a variant lets a disk run dry (the idle seconds), how the pauses and "
        "ratelimits move, and which way a change pushes nr_written when only the throttling "
        "differs. It cannot reproduce the thread's sizes: the real runs were longer than a "
        "minute, started from another state, and their disks, xfs allocation, block layer "
        "(CFQ's idling, request merging), journal and metadata IO, page reclaim and per-CPU "
        "counter error (the world reads exact counts) all shaped nr_written and are here at "
        "most a line of arithmetic. Where the variants' differences come from effects the "
        "model leaves out (the disks' real interleaving cost, NCQ, CFQ), "
        "its direction can be wrong for reasons that have nothing to do with the control "
        "being emulated faithfully; a disagreeing row is a place to look, not a verdict on "
        "either variant.",
    ]
    if notes:
        lines += ["", *[f"Note: {n}" for n in notes]]
    mmresults.replace_section("throttle (scripts/results_throttle.py)", lines)


if __name__ == "__main__":
    mmresults.main_guard(main)
