#!/usr/bin/python3
"""Regenerate the "NUMA statistics: Kemi Wang's threshold" section of
RESULTS.md (issue 41 part 3): vmstat/numa_stat's rows 4.13 (s8 zone diffs at
the zone's stat_threshold) and 4.14 (u16 NUMA diffs at 65533), their exact
folds and locked ops per allocation here and on the 1024-CPU stand-in, and
scripts/ab's verdict on their time at the 2017 table's base threshold (125).

usage: scripts/results_numa_stat.py [--print]   (default: rewrite RESULTS.md)"""
import os
import statistics
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mmresults import ROOT, command, machine, replace_section, run_json, setup  # noqa: E402

HERE = ["--benchmark_filter=^vmstat/numa_stat/", "--threads=1,2", "--benchmark_min_time=0.05",
        "--papi-events=none"]
HERE_125 = HERE + ["--set", "stat_threshold=125"]
STANDIN = ["--topology=synthetic:node:128 core:8 pu:1", "--benchmark_filter=^vmstat/numa_stat/",
           "--threads=1", "--benchmark_min_time=0.01", "--papi-events=none"]
AB = ["scripts/ab", "build/mmscale", "--cases", "^vmstat/numa_stat/", "--baseline", "4.13",
      "--seconds", "120", "--format", "markdown", "--", "--threads=1,2",
      "--set", "stat_threshold=125"]


def fmt(v):
    return f"{v:.0f}" if abs(v - round(v)) < 1e-9 else f"{v:.4g}"


def table(records, threshold):
    lines = ["| row | threads | stat_threshold (--set) | folds per allocation | locked_ops per allocation "
             "| allocations per fold |", "|---|---:|---:|---:|---:|---:|"]
    for r in sorted(records, key=lambda r: (r["threads"], r["variant"])):
        folds = r["counters"]["folds"]
        lines.append(f"| {r['variant']} | {r['threads']} | {threshold(r)} | {fmt(folds)} | "
                     f"{fmt(r['counters']['locked_ops'])} | "
                     f"{fmt(2 / folds) if folds else '-'} |")
    return lines + [""]


def ran_threshold(r):
    """The stat_threshold the 4.13 row ran with (the 4.14 row's NUMA diffs ignore it)."""
    if r["variant"] == "4.14":
        return "65533 (fixed)"
    return str(r["knobs_ran"].get("stat_threshold", "?"))


def main():
    setup()
    with tempfile.TemporaryDirectory() as tmp:
        here, _, _ = run_json(HERE, os.path.join(tmp, "here.json"))
        here_125, _, _ = run_json(HERE_125, os.path.join(tmp, "here125.json"))
        standin, _, _ = run_json(STANDIN, os.path.join(tmp, "standin.json"))
        ab = subprocess.run(AB, cwd=ROOT, capture_output=True, text=True)
        if ab.returncode not in (0, 1):
            sys.exit(f"results_numa_stat: `{' '.join(AB)}` exited {ab.returncode} "
                     f"({(ab.stderr.strip().splitlines() or [''])[-1]}): no section written")
    replace_section("numa-stat (scripts/results_numa_stat.py)", [
        "## NUMA statistics: Kemi Wang's threshold, 125 against 65533 (issue 41)",
        "",
        "Kemi Wang's 2017 series (v2 0/3 and 2/3 in ../shared/kernel/patches/f-*; 3a321d2a3dde "
        "and 1d90ca897cb0, v4.14) took the NUMA counters out of the zone statistics, made "
        "their per-CPU diffs u16 and folded them only past 65533, and reported on an 88-CPU, "
        "2-socket Broadwell running page_bench03 on every CPU 537 cycles per allocation and "
        "free at the old default threshold 125 against 369 (-31.3%) at 65533. "
        "vmstat/numa_stat times one local allocation's zone_statistics (NUMA_HIT and "
        "NUMA_LOCAL) per call: row 4.13 with s8 zone diffs at the zone's stat_threshold and a "
        "half-threshold overstep, row 4.14 with 4.14's own code. The exact part: folds and "
        "locked ops per allocation (claimed for any run length); the time part: scripts/ab's "
        "verdict at threshold 125, both rows in rounds.",
        "",
        f"Run on: {machine()}.",
        "",
        "Reproduce: `scripts/results_numa_stat.py`, which runs",
        "",
        f"    {command(HERE)}",
        f"    {command(HERE_125)}",
        f"    {command(STANDIN)}",
        f"    {' '.join(repr(a) if ('|' in a or ' ' in a or '^' in a) else a for a in AB)}",
        "",
        "### Folds per allocation (exact)",
        "",
        "At this machine's own threshold (2 CPUs and 3 GiB: 24) and at 125, the 88-CPU "
        "server's default that the 2017 table starts from: 4.13 folds two items every "
        "t + 1 + t / 2 allocations, each fold two locked adds (the zone's counter and the "
        "global one, lines every CPU of the node writes); 4.14 every 65534.",
        "",
        *table(here, ran_threshold),
        *table(here_125, ran_threshold),
        "On 1024 CPUs over 128 nodes (synthetic stand-in, one thread: counts only), 4.13's "
        "threshold is its own formula's for 1024 CPUs and the default 3 GiB (24 MiB a "
        "zone), as allocations per fold (t + 1 + t / 2) show; 4.14's does not move:",
        "",
        *table(standin, ran_threshold),
        "### Time, 4.14 against 4.13 at threshold 125 (scripts/ab)",
        "",
        *ab.stdout.rstrip().splitlines(),
        "",
        "The direction is the 2017 table's question; its size is not comparable: there 88 "
        "CPUs on 2 nodes wrote two zones' counter lines, and each allocation did the "
        "allocator's whole path, where here 1 or 2 CPUs share one zone and the call is "
        "zone_statistics alone. What this leaves out: the vmstat work's once-a-second fold of "
        "these diffs (both kernels have it), the readers (/proc/vmstat, numastat: 4.14 "
        "made them sum the per-CPU diffs, the series' third patch), and 4.15's vm.numa_stat "
        "switch.",
        "",
    ])


if __name__ == "__main__":
    main()
