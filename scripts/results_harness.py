#!/usr/bin/python3
"""Regenerate the harness section of RESULTS.md from a real run on this
machine: the c2c floor and harness overhead (10 repetitions, the seeds'
trimmed statistics, ratios measured side by side in one run) and the time
--describe takes for a 128-node, 1024-CPU stand-in.

usage: scripts/results_harness.py [--print]   (default: rewrite RESULTS.md)"""
import os
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mmresults import (MMSCALE, command, context_line, machine, replace_section,  # noqa: E402
                       run_json, setup, table)

RUN_ARGS = ["--benchmark_filter=c2c|harness", "--threads=1,2", "--benchmark_min_time=0.1",
            "--benchmark_repetitions=10", "--benchmark_enable_random_interleaving=true"]


def main():
    setup()
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "floor.json")
        _, ctx, notes = run_json(RUN_ARGS, out)
        floor = table("floor_table.py", out)
    describe_args = ["--describe", "--topology=synthetic:node:128 core:8 pu:1"]
    times = []
    for _ in range(10):
        t0 = time.perf_counter()
        subprocess.run([MMSCALE, *describe_args], capture_output=True, check=True)
        times.append(time.perf_counter() - t0)
    replace_section("harness (scripts/results_harness.py)", [
        "## Harness floor and overhead",
        "",
        f"Measured on: {machine()}; {context_line(ctx)}. A VM: timings move between runs by "
        "more than the s.d. within one run, so read the ratios (measured side by side in one "
        "run), not the absolute figures.",
        "",
        f"Reproduce: `scripts/results_harness.py` (runs `{command(RUN_ARGS)}` and "
        f"times `{command(describe_args)}` ten times).",
        "",
        "Time per operation: one round trip for pingpong, mailbox and signal; one read for "
        "read_local/read_shared; for ticket_lock at 2 threads, wall time divided by the "
        "acquisitions of both threads (Google Benchmark's convention for threaded runs).",
        "",
        floor,
        "",
        "Notices printed by that run:",
        "",
        *([f"    {n}" for n in notes] or ["    (none)"]),
        "",
        f"`--describe` for a 128-node, 1024-CPU synthetic stand-in: median "
        f"{statistics.median(times) * 1000:.1f} ms, max {max(times) * 1000:.1f} ms over 10 runs "
        "(whole process, including hwloc's topology build).",
        "",
        "Reading: the shim's batch API adds (shim-batch / raw - 1) to a trivial body; the "
        "one-call-per-operation API costs an out-of-line call per iteration, which is why "
        "short bodies use keep_running_batch. This machine has one NUMA node and no PMU, "
        "so the node-by-node c2c matrix is 1 x 1 and the cache-miss events are dropped.",
    ])
    return 0


if __name__ == "__main__":
    from mmresults import main_guard
    main_guard(main)
