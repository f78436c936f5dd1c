#!/usr/bin/python3
"""Regenerate the "Drains of full lists" section of RESULTS.md (issue 41):
drain/full's rows - every drain_all_pages variant on its own generation,
every online CPU's list full before each drain - with their exact counts
per drain (zone->lock and all spin lock acquisitions, IPIs, pages, and the
pages freed under the longest zone->lock hold and in the longest
interrupts-off section), on this machine at a pinned size where every
generation's lists are longer than a chunk, at the default sizes, and on
the 1024-CPU stand-in; the clocked figures of one run; and scripts/ab's
verdict on the drain time of 6.6-chunked against remote, the one row pair
that differs in nothing but the chunking.

usage: scripts/results_drain_full.py [--print]   (default: rewrite RESULTS.md)"""
import os
import statistics
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mmresults import ROOT, command, machine, replace_section, run_json, setup  # noqa: E402

REPS = ["--benchmark_repetitions=5", "--benchmark_enable_random_interleaving=true",
        "--papi-events=none"]
# The pinned machine: 2 CPUs, one zone, batch 4 (a chunk of 128 pages), lists of 300.
PINNED = ["--benchmark_filter=^drain/full/.*/victims:0/", "--topology=synthetic:node:1 core:2 pu:1",
          "--set", "pcp_batch=4", "--set", "pcp_high=300", "--benchmark_min_time=0.01",
          "--papi-events=none"]
# This machine, every generation's list at 4096 pages: longer than 6.1/6.18's chunk (63 << 5).
EQUAL = ["--benchmark_filter=^drain/full/", "--set", "pcp_high=4096", "--benchmark_min_time=0.05",
         *REPS]
DEFAULT = ["--benchmark_filter=^drain/full/.*/victims:0/", "--benchmark_min_time=0.01",
           "--papi-events=none"]
STANDIN = ["--topology=synthetic:node:128 core:8 pu:1", "--benchmark_filter=^drain/full/",
           "--mem=64G", "--benchmark_min_time=0.001", "--papi-events=none"]
AB = ["scripts/ab", "build/mmscale", "--cases", "^drain/full/(remote|6.6-chunked)/fill_pct:100/victims:0/",
      "--baseline", "remote", "--seconds", "120", "--format", "markdown", "--",
      "--set", "pcp_high=4096"]

EXACT = ["list_pages", "pages_drained", "ipis_sent", "zone_locks", "lock_acquires",
         "zone_hold_pages_max", "irqoff_pages_max"]
CLOCKED = ["zone_hold_us_p99", "zone_hold_us_max", "irqoff_us_p99", "irqoff_us_max",
           "victim_gap_us_p99", "victim_gap_us_max"]


def fmt(v):
    return f"{v:.0f}" if abs(v - round(v)) < 1e-9 else f"{v:.4g}"


def rows(records, victims):
    """[(variant, [records])] of the rows with victims:N, in the family's order."""
    out = {}
    for r in records:
        if f"victims:{victims}" in r["params"]:
            out.setdefault(r["variant"], []).append(r)
    order = records[0]["variants"].get("drain/full", []) if records else []
    return [(v, out[v]) for v in order if v in out]


def exact_table(records, timed=False):
    lines = ["| row | " + " | ".join(EXACT) + (" | median ns per drain |" if timed else " |"),
             "|---|" + "---:|" * (len(EXACT) + timed)]
    for v, rs in rows(records, 0):
        cells = [fmt(statistics.median(r["counters"].get(c, float("nan")) for r in rs))
                 for c in EXACT]
        if timed:
            cells.append(fmt(statistics.median(r["real_time_ns"] for r in rs)))
        lines.append(f"| {v} | " + " | ".join(cells) + " |")
    return lines + [""]


def clocked_table(records):
    lines = ["| row | median ns per drain | " + " | ".join(CLOCKED) + " |",
             "|---|" + "---:|" * (len(CLOCKED) + 1)]
    for v, rs in rows(records, 1):
        cells = [fmt(statistics.median(r["real_time_ns"] for r in rs))]
        cells += [fmt(statistics.median(r["counters"][c] for r in rs)) for c in CLOCKED]
        lines.append(f"| {v} | " + " | ".join(cells) + " |")
    return lines + [""]


def counts(records, variant, key):
    return statistics.median(r["counters"][key] for r in dict(rows(records, 0))[variant])


def main():
    setup()
    with tempfile.TemporaryDirectory() as tmp:
        pinned, _, _ = run_json(PINNED, os.path.join(tmp, "pinned.json"))
        equal, _, _ = run_json(EQUAL, os.path.join(tmp, "equal.json"))
        default, _, _ = run_json(DEFAULT, os.path.join(tmp, "default.json"))
        standin, _, notes = run_json(STANDIN, os.path.join(tmp, "standin.json"))
        ab = subprocess.run(AB + [], cwd=ROOT, capture_output=True, text=True)
        if ab.returncode not in (0, 1):
            sys.exit(f"results_drain_full: `{' '.join(AB)}` exited {ab.returncode} "
                     f"({(ab.stderr.strip().splitlines() or [''])[-1]}): no section written")
    s618 = counts(standin, "6.18", "lock_acquires")
    sremote = counts(standin, "remote", "lock_acquires")
    replace_section("drain-full (scripts/results_drain_full.py)", [
        "## Drains of full lists: zone->lock holds and interrupts-off sections (issue 41)",
        "",
        "drain/full runs every drain_all_pages row on its own generation with every online "
        "CPU's list full before each drain, each list filled by its own CPU (the refill's "
        "calls and locks are taken out of the counts, its time out of the timing). Its exact "
        "figures per drain: the pages on each list (`list_pages`: the generation's high, or "
        "`--set pcp_high`), pages drained, IPIs, zone->lock and all spin lock acquisitions, "
        "and, from the emulation's own lock and interrupt accounting, the pages freed under "
        "the longest zone->lock hold and in the longest interrupts-off section on any CPU. "
        "A run checks its counts against the row's claim (claim x drains) and the two hold "
        "maxima after every drain (scripts/ab's runs report a difference instead). Exact "
        "means the same on any machine: they carry no interval.",
        "",
        f"Run on: {machine()}.",
        "",
        "Reproduce: `scripts/results_drain_full.py`, which runs",
        "",
        f"    {command(PINNED)}",
        f"    {command(EQUAL)}",
        f"    {command(DEFAULT)}",
        f"    {command(STANDIN)}",
        f"    {' '.join(repr(a) if ('|' in a or ' ' in a or '^' in a) else a for a in AB)}",
        "",
        "### The trade 55f77df7d715 made, at the size the issue pinned (exact)",
        "",
        "Two CPUs on one node, `pcp_batch=4` (a chunk, `batch << CONFIG_PCP_BATCH_SCALE_MAX`, "
        "is 128 pages), lists of 300 pages. Every row before 6.6 frees a list under one "
        "zone->lock hold; 6.6-chunked and 6.18 free it in three (128, 128, 44), each under "
        "its own pcp->lock and zone->lock: the longest hold and interrupts-off section fall "
        "from 300 pages to 128, the lock acquisitions rise from 4 (remote: pcp->lock and "
        "zone->lock per list) to 12. The IPI rows' interrupts-off section is the whole call "
        "on each CPU; remote's is pcp->lock's irqsave; 6.18's is zone->lock's (its pcp->lock "
        "leaves interrupts on). drain/tests/drain_full.py checks every cell of this table "
        "against the same numbers worked out by hand.",
        "",
        *exact_table(pinned),
        "### This machine, every list at 4096 pages (`--set pcp_high=4096`)",
        "",
        "At equal lists every generation frees the same pages; a chunk of 6.1's and 6.18's "
        "batch 63 is 2016 pages, so a list of 4096 is three chunks (2016, 2016, 64). Exact "
        "counts and the median drain time (5 repetitions interleaved at random, one run). "
        "The times are not a comparison across generations: the IPI rows drain each list on "
        "its own CPU, in parallel, where remote, 6.6-chunked and 6.18 drain both from the "
        "caller; and the rows on 6.1's code (remote, 6.6-chunked) take about three times "
        "6.18's time per page for the same pages and the same 64-byte struct page. Timed "
        "list by list (rdtscp, in a scratch copy), the whole difference is in the list the "
        "other CPU filled, whose lines the drainer pulls from that CPU's cache one pointer "
        "at a time; changes to 6.1's free_pcppages_bulk that do nothing (a branch never "
        "taken, one more read per page, a prefetch) make it as fast as 6.18's, and a "
        "byte-identical copy of a binary keeps its speed. So the gap is how this build's "
        "code lets the hardware prefetch another core's lines, not a cost of either "
        "kernel's algorithm: across generations these times are not a claim.",
        "",
        *exact_table([r for r in equal if "victims:0" in r["params"]], timed=True),
        "With a victim loop on the other CPU (`victims:1`), the holds, interrupts-off "
        "sections and the victim's largest gap between two work units are clocked (two clock "
        "reads inside each hold and section): per drain the longest of each, then p99 and "
        "max over the drains of a run, median over 5 repetitions. Figures of one run on a "
        "shared VM, not a comparison claim: the exact pages per hold above are the "
        "comparison. The gap is what a pinned thread on a drained CPU saw: the IPI rows "
        "interrupt it for its own list's drain, the remote rows never do (their cost falls "
        "on whoever wants the locks, which no row here measures), so remote, 6.6-chunked "
        "and 6.18 give this VM's floor: what a victim sees when no drain touches it (the "
        "host's interruptions, and the odd descheduling in the max column). Here the IPI "
        "rows' gaps sit within that floor: a list of 4096 pages drained on the victim's "
        "own CPU takes less time than the host already takes from it.",
        "",
        *clocked_table(equal),
        "scripts/ab on the one pair that differs in nothing but the chunking (6.6-chunked's "
        "drain_pages_zone against remote's, the rest 6.1's code on both), both in rounds, "
        "with its verdict (the A/A runs and the sensitivity of this machine are in the "
        "scripts/ab section):",
        "",
        *ab.stdout.rstrip().splitlines(),
        "",
        "### At the default sizes (exact)",
        "",
        "With 3 GiB on two CPUs the lists hold what each generation's high gives: 186 pages "
        "(2.6.x: 6 x batch 31), 1279 (6.1 and 6.6: the low watermark over the node's CPUs) and "
        "3520 (6.18: high_min, whose watermark includes khugepaged's minimum, which 6.1's "
        "emulated watermark leaves out). 1279 is below a chunk of 2016, so 6.6-chunked frees "
        "each list in one hold and its row equals remote's: at these sizes 55f77df7d715 "
        "changes nothing, and the table above needed `--set pcp_high` to show it.",
        "",
        *exact_table(default),
        "### 1024 CPUs on 128 nodes (synthetic stand-in, oversubscribed: counts only)",
        "",
        "`--mem=64G` (512 MiB per node; at the default 3 GiB a 2.6.x zone's batch rounds to "
        "a high of 0 and its lists stay empty). The victims:1 rows are not registered on an "
        "oversubscribed plan (one note says so). Every CPU's list in its local zone is full, "
        "the other 127 zones' lists of each CPU are empty.",
        "",
        *exact_table(standin),
        f"The do-while of 66eca1021a42, which 6.18 runs and 6.6-chunked backports, reads "
        f"pcp->count under pcp->lock for every populated zone of every CPU it drains, empty "
        f"lists too: on this stand-in {fmt(s618)} spin lock acquisitions per full drain "
        f"against remote's {fmt(sremote)} (6.1 reads the count without the lock and skips an "
        f"empty list), {s618 / sremote:.1f}x, each a locked operation on another CPU's "
        f"pageset line (6.6-chunked's lists here are 6.1's, shorter than 6.18's: the lock "
        f"count comes from the zones, not the pages).",
        "",
        *[f"    {n}" for n in notes if "drain/full" in n],
        "",
        "What this leaves out: 6.18.7's batched decay (Joshua Hahn's 3/4) changes no drain "
        "(`drain_pages_zone` is 6.18.0's on SMP) and belongs to a pcp/ case, not here; the "
        "remote rows' cost to an allocating CPU that finds pcp->lock held (its trylock falls "
        "back to zone->lock) is not measured; the 2.6.x machine's rows, remote and "
        "6.6-chunked take the ticket lock (6.1 and 6.6 have qspinlock; 6.18's rows take the "
        "queued lock), which no count here depends on.",
        "",
    ])


if __name__ == "__main__":
    main()
