#!/usr/bin/python3
"""Regenerate the "what moved" section of RESULTS.md: the code before the
latest fidelity pass (issue 25; BEFORE, built from git in build-before/)
and the current build, run alternately in one session on the cases that
pass changed (drain/, ipi/, bdp/, bdp_throttled/, dirty/), so both sides
see the same machine, and the virtual-time throttle/ runs once each (they
are deterministic); then scripts/compare's tables, before vs after. (The
previous pass's section, issue 12's, is in RESULTS.md as of bb09b54.)

usage: scripts/results_changes.py [--print] [--rounds N]
       (default: 5 rounds of 2 repetitions per side; rewrite RESULTS.md)"""
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mmresults import (MMSCALE, ROOT, command, context_line, count_unusable,  # noqa: E402
                       document, machine, replace_section, run_script, setup)

# The last commit before issue 25's changes (1e706d7 is the first of them).
BEFORE = "7ff1141"
BUILD_BEFORE = os.path.join(ROOT, "build-before")

REPS = ["--benchmark_repetitions=2"]
RUNS = [
    ["--benchmark_filter=^(drain|ipi)/", "--threads=1", "--benchmark_min_time=0.05", *REPS],
    ["--benchmark_filter=^dirty/.*/file_mib:(400|700)/", "--threads=1",
     "--device-pages-per-ms=250", *REPS],
    ["--benchmark_filter=^bdp", "--threads=1", "--benchmark_min_time=0.1", *REPS],
]
# Deterministic: once per side.
THROTTLE = ["--benchmark_filter=^throttle/", "--throttle-seconds=60", "--papi-events=none"]
MOVED_PCT = 5.0
METRICS = [
    ("time", "ns per operation"),
    ("lock_acquires", "spin_lock acquisitions per operation (exact)"),
    ("ipis_sent", "IPIs sent per operation (exact)"),
    ("drain_us_mean", "drain_all_pages latency, mean us"),
    ("MiB_per_s", "dirty pass, MiB/s"),
    ("folds", "folds into shared counters per operation (exact)"),
    ("global_reads", "global_page_state calls per operation (exact)"),
    ("locked_ops", "locked read-modify-writes per operation (exact; new in this pass)"),
    ("nr_written", "throttle/: pages written in 60 virtual seconds (deterministic)"),
]


def sh(args, **kw):
    return subprocess.run(args, check=True, **kw)


def build_before():
    """BEFORE's tree from git archive (no worktree bookkeeping), built once."""
    rev = sh(["git", "-C", ROOT, "rev-parse", "--short=12", BEFORE],
             capture_output=True, text=True).stdout.strip()
    src = os.path.join(BUILD_BEFORE, "src-" + rev)
    binary = os.path.join(BUILD_BEFORE, "build-" + rev, "mmscale")
    if not os.path.exists(binary):
        os.makedirs(src, exist_ok=True)
        archive = subprocess.Popen(["git", "-C", ROOT, "archive", rev], stdout=subprocess.PIPE)
        sh(["tar", "-x", "-C", src], stdin=archive.stdout)
        if archive.wait() != 0:
            sys.exit(f"results_changes: git archive {rev} failed")
        build = os.path.dirname(binary)
        print(f"results_changes: building {rev} in {build}", file=sys.stderr)
        sh(["cmake", "-S", src, "-B", build, "-DCMAKE_BUILD_TYPE=RelWithDebInfo"],
           stdout=subprocess.DEVNULL)
        sh(["cmake", "--build", build, "-j", str(os.cpu_count() or 1), "--target", "mmscale"],
           stdout=subprocess.DEVNULL)
    return rev, binary


def run(binary, args, out):
    p = subprocess.run([binary, *args, "--benchmark_format=json", "--benchmark_out=" + out],
                       capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"results_changes: {binary} {' '.join(args)} exited {p.returncode}:\n"
                 + p.stderr[-2000:])
    d, entries = document(out)
    if entries.unusable:
        sys.exit(f"results_changes: {binary} {' '.join(args)}: "
                 f"{count_unusable(entries.unusable)}: no section written")
    return d


def merge(merged, side, d):
    """One run's results into its side's: the runs, and what each is (mmscale_runs)."""
    if merged[side] is None:
        merged[side] = d
        return
    merged[side]["benchmarks"] += d["benchmarks"]
    if "mmscale_runs" in d:
        merged[side].setdefault("mmscale_runs", {}).update(d["mmscale_runs"])


def moved_rows(metric, what, markdown):
    """The rows of a compare table that moved: p < 0.05 and at least 5% (or a new count);
    an exact count (compare's 'exact' where a p would be) and throttle/'s deterministic
    single runs (no p): at least 5%."""
    out = []
    for line in markdown.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 6 or not (cells[3].endswith("*") or cells[3] == "exact" or
                                   (metric == "nr_written" and cells[3] == "-")):
            continue
        before, after, diff, _, case, _ = cells
        if diff == "from 0" or (diff.endswith("%") and abs(float(diff[:-1])) >= MOVED_PCT):
            out.append(f"- {what}: {case}: {before.split()[0]} -> {after.split()[0]} ({diff})")
    return out


def main():
    rounds = 5
    if "--rounds" in sys.argv:
        rounds = int(sys.argv[sys.argv.index("--rounds") + 1])
    setup()
    rev, before_bin = build_before()
    after_rev = sh(["git", "-C", ROOT, "rev-parse", "--short=12", "HEAD"],
                   capture_output=True, text=True).stdout.strip()
    merged = {"before": None, "after": None}
    with tempfile.TemporaryDirectory() as tmp:
        for r in range(rounds):
            for i, args in enumerate(RUNS):
                # Alternate which side goes first, so neither always runs on a warmer machine.
                sides = [("before", before_bin), ("after", MMSCALE)]
                if (r + i) % 2:
                    sides.reverse()
                for side, binary in sides:
                    print(f"results_changes: round {r + 1}/{rounds}, {side}: {' '.join(args)}",
                          file=sys.stderr)
                    d = run(binary, args, os.path.join(tmp, "run.json"))
                    merge(merged, side, d)
        for side, binary in (("before", before_bin), ("after", MMSCALE)):
            print(f"results_changes: {side}: {' '.join(THROTTLE)}", file=sys.stderr)
            merge(merged, side, run(binary, THROTTLE, os.path.join(tmp, "run.json")))
        paths = {}
        for side in merged:
            paths[side] = os.path.join(tmp, side + ".json")
            with open(paths[side], "w") as f:
                json.dump(merged[side], f)
        tables, moved = [], []
        for metric, what in METRICS:
            status, text = run_script("compare", [paths["before"], paths["after"], "--metric",
                                                  metric, "--markdown"])
            if status == 2 and metric == "locked_ops":
                # No case has it before: the new count, the after side's own table.
                status, text = run_script("compare", [paths["after"], "--metric", metric,
                                                      "--markdown"])
                tables += [f"**{what}: after ({after_rev}), each variant against its "
                           "family's baseline**", "", text.rstrip(), ""]
                continue
            if status != 0:
                sys.exit(f"results_changes: compare --metric {metric} exited {status}")
            tables += [f"**{what}: before ({rev}) vs after ({after_rev})**", "", text.rstrip(), ""]
            moved += moved_rows(metric, what, text)
        ctx = merged["after"]["context"]
    replace_section("changes (scripts/results_changes.py)", [
        "## What moved: before and after the third fidelity pass (issue 25)",
        "",
        f"Measured on: {machine()}; after: {context_line(ctx)}. Both builds ran alternately in "
        f"one session ({rounds} rounds, 2 repetitions per side per round), so a table row "
        "compares the two codes on the same machine at the same time; throttle/ once per side.",
        "",
        f"Reproduce: `scripts/results_changes.py`, which builds {rev} (the last commit before "
        "this pass) in build-before/ and runs, with each build,",
        "",
        *[f"    {command(a)}" for a in RUNS + [THROTTLE]],
        "",
        f"Moved (Mann-Whitney p < 0.05 and at least {MOVED_PCT:.0f}%; every other row of the "
        "tables below is unchanged within this machine's noise):",
        "",
        *(moved or ["- nothing"]),
        "",
        "Why, by family (`git log 7ff1141..` has the commits): **bdp/ and bdp_throttled/** of "
        "3.1 and the IO-less kernels read 8 global items per call where they read 6: the "
        "machine has swap (the default; `--swap=no` gives 6), and 3.x's "
        "global_reclaimable_pages then reads the anon LRUs too; their reads now span 3.2's "
        "three vm_stat lines (its item numbering), and every bdi field sits at 3.2's offset "
        "(the percpu_counter's CONFIG_HOTPLUG_CPU list). **drain/** of ipi-all runs 2.6.32's "
        "call-function handler and 2.6.32's struct zone (the pageset pointers off "
        "zone->lock's line); quick-scan, count-check, ipi-mask and workqueue run on 2.6.38's "
        "struct zone with its free area at the kernel's offsets (the order-0 movable list and "
        "nr_free on the two lines after zone->lock's, where the emulation had them on it) and "
        "test the low watermark before every allocation (NR_FREE_PAGES's line), as "
        "2.6.32-3.4's get_page_from_freelist does; ipi-mask shares one static mask with "
        "locked bitops; remote runs on 6.1's struct zone with 6.1's pcp sizing, watermark "
        "test, per-CPU NUMA events and __rmqueue's CMA balance reads; workqueue and remote "
        "take their mutex as the kernel's owner word; the global-queue generations make "
        "x86's locked clear of the sender's bit in its all-but-self copy (calls to two or "
        "more CPUs: none at cpus:2). **ipi/** and workqueue's calls go through 6.18's "
        "per-CPU csd queues: a csd line and the queue's line per round trip where an inline "
        "slot of the emulation's own made one; 6.18's on_each_cpu runs the caller's own "
        "call before it waits. "
        "**throttle/**: the v11 rows gained 07/18's think time compensation and 11/18's "
        "underrun break, every row 8 global reads per pass with swap. The exact counts the "
        "seeds argue over (14+4 vs 9+2 reads for the 2.6.31 rows; C x Z locks and C-1 IPIs "
        "per empty ipi-all drain) did not move.",
        "",
        *tables,
    ])
    return 0


if __name__ == "__main__":
    from mmresults import main_guard
    main_guard(main)
