#!/usr/bin/env python3
"""Print the harness floor as a table from a Google Benchmark JSON file:
each case's trimmed mean (the seeds' statistic) with its s.d. where at least
two runs remain after trimming ('-' otherwise: 1 or 3 runs leave one, whose
s.d. would print as a meaningless 0), and the side-by-side ratios this run
measured (shim overhead, shared vs local reads, signal vs mailbox).
The note is the runs' label ("stand-in, not for timing", "migrated", ...);
where the runs' labels differ, each is given with how many runs carried it.

usage: scripts/floor_table.py RESULTS.json [--markdown]

Results without a floor case (c2c/, harness/, ipi/) print one line saying
so, never a table's header without rows; the ratios' table is printed only
where this run measured both sides of one.

A run it cannot use (errored, or no real_time) is named on stderr, one line
each, counted in a last line of the output, and the exit status is then 1."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mmresults  # noqa: E402


def sd_text(sd):
    return "-" if sd is None else f"{sd:.2f}"


def note_text(labels):
    """The runs' labels as one note. Google Benchmark gives an aggregate a
    label only when every run had the same one, so one migrated run would
    blank the note of all; each distinct label is kept instead, with how
    many of the runs carried it where not all did."""
    counts = {}
    for label in labels:
        counts[label] = counts.get(label, 0) + 1
    if len(counts) == 1:
        return next(iter(counts))
    return "; ".join(f"{label} ({n} of {len(labels)} runs)" if label else
                     f"no label ({n} of {len(labels)} runs)" for label, n in counts.items())


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] in (["-h"], ["--help"]):
        print(__doc__.strip())
        return 0
    if not argv:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    markdown = "--markdown" in argv[1:]
    try:
        entries = mmresults.read(argv[0], "floor_table")
    except (OSError, ValueError) as e:
        print(f"floor_table: {e}", file=sys.stderr)
        return 2
    stat, run_labels = {}, {}
    for _, _, _, b in entries:
        agg = b.get("aggregate_name", "") if b.get("run_type") == "aggregate" else "run"
        stat.setdefault(b["run_name"], {})[agg] = b
        if agg == "run":
            run_labels.setdefault(b["run_name"], []).append(b.get("label", ""))

    def t(name, agg="trimmed_mean"):
        s = stat.get(name, {})
        b = s.get(agg) or s.get("run")
        return b["real_time"] if b else None

    rows = []
    for name in sorted(stat):
        if not name.startswith(("c2c/", "harness/", "ipi/")):
            continue  # the floor only; variants are scripts/quick_tables.py's
        s = stat[name]
        mean = t(name)
        sd_entry = s.get("trimmed_stddev")
        repetitions = sd_entry.get("repetitions", 1) if sd_entry else 1
        kept = repetitions - 2 if repetitions >= 3 else repetitions
        sd = sd_entry["real_time"] if sd_entry and kept >= 2 else None
        label = note_text(run_labels[name]) if run_labels.get(name) else \
            (s.get("trimmed_mean") or {}).get("label", "")
        rows.append((name, mean, sd, label))
    ratios = [
        ("shim-batch / raw (harness overhead)", "harness/overhead/shim-batch/real_time/threads:1",
         "harness/overhead/raw/real_time/threads:1"),
        ("shim per op / raw", "harness/overhead/shim/real_time/threads:1",
         "harness/overhead/raw/real_time/threads:1"),
        ("read_shared / read_local", "c2c/read_shared/real_time/threads:1",
         "c2c/read_local/real_time/threads:1"),
        ("mailbox / pingpong", "c2c/mailbox/real_time/threads:1",
         "c2c/pingpong/real_time/threads:1"),
        ("signal / mailbox", "c2c/signal/real_time/threads:1", "c2c/mailbox/real_time/threads:1"),
        ("ipi/unicast/spin / c2c/mailbox (IPI emulation overhead)",
         "ipi/unicast/spin/real_time/threads:1", "c2c/mailbox/real_time/threads:1"),
        ("ipi/unicast/signal / c2c/signal (IPI emulation overhead)",
         "ipi/unicast/signal/real_time/threads:1", "c2c/signal/real_time/threads:1"),
        ("ipi/unicast/kernel / c2c/membarrier (IPI emulation overhead)",
         "ipi/unicast/kernel/real_time/threads:1", "c2c/membarrier/real_time/threads:1"),
    ]
    measured = [(what, t(a) / t(b)) for what, a, b in ratios
                if t(a) is not None and t(b) is not None]
    if not rows:
        print("floor table: no floor case (c2c/, harness/, ipi/) in these results")
    elif markdown:
        print(mmresults.run_command_line(entries[0][1], markdown))
        print("| case | time (ns), trimmed mean | trimmed s.d. | note |")
        print("|---|---:|---:|---|")
        for name, mean, sd, label in rows:
            print(f"| {name} | {mean:.2f} | {sd_text(sd)} | {label} |")
        if measured:
            print()
            print("| ratio, same run | value |")
            print("|---|---:|")
            for what, ratio in measured:
                print(f"| {what} | {ratio:.3f} |")
    else:
        print(mmresults.run_command_line(entries[0][1], markdown))
        print(f"{'case':<56} {'ns (trimmed mean)':>18} {'s.d.':>9}  note")
        for name, mean, sd, label in rows:
            print(f"{name:<56} {mean:>18.2f} {sd_text(sd):>9}  {label}")
        if measured:
            print()
            for what, ratio in measured:
                print(f"{what:<56} {ratio:>18.3f}")
    if entries.unusable:
        print()
        print(f"left out: {mmresults.count_unusable(entries.unusable)}, named on stderr")
        return 1
    return 0


if __name__ == "__main__":
    mmresults.main_guard(main)
