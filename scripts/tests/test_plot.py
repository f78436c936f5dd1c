#!/usr/bin/python3
"""scripts/plot's plots, checked on the figures it draws (caught before they
are saved), not on pixels, from small hand-written results and one tiny
real run: the counts plot has one row of panels per argument row and
thread count with each row's exact values (never the mean of cpus:16 and
cpus:1024), the variants in their family's order, no all-zero series (each
named in its panel), error bars where the repetitions differ (exact counts
say they have none), unsteady points and bars marked '~' (bars hatched),
tick labels that do not overlap, and a knob sweep's axis saying what auto
resolved to ('auto (=24)', from mmscale_knobs_auto)."""
import json
import os
import re
import subprocess
import sys
import tempfile

from matplotlib.container import BarContainer, ErrorbarContainer
from matplotlib.text import Annotation

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPTS = os.path.dirname(HERE)
sys.path.insert(0, SCRIPTS)
import mmresults  # noqa: E402
sys.path.insert(0, HERE)
from check import check, report  # noqa: E402  (scripts/tests/check.py)


plot = mmresults.load_script("plot")
drawn = {}  # file name -> the figure scripts/plot would have saved under it


def keep(fig, out, name):
    drawn[name] = fig
    return [name]


plot.save = keep  # the plot functions save through it: keep the figure, write nothing


# ---- results by hand: the families as mmscale --list=json names them ----

def family(name, variants, counts, metrics=()):
    return {"name": name, "baseline": variants[0], "variants": [{"name": v} for v in variants],
            "metrics": [{"name": m, "label": m, "exact": exact} for m, exact in metrics],
            "counts": counts, "machine_wide": False}


DRAIN_VARIANTS = ["ipi-all", "quick-scan", "count-check", "ipi-mask", "workqueue", "remote",
                  "6.18"]
FAMILIES = [
    family("pcp/drain", ["6.18-empty", "6.18-full"],
           ["lock_acquires", "pages_moved", "pages_drained", "locked_ops", "zone_locks"]),
    family("drain/empty", DRAIN_VARIANTS,
           ["lock_acquires", "ipis_sent", "call_function_locks"]),
    family("drain/swap_cpuset", DRAIN_VARIANTS, ["ipis_sent"]),
    family("vmstat/mod", ["inc", "mod"], ["global_reads", "folds"],
           [("time", False), ("folds", True)]),
    family("bdp", ["2.6.31-rc8", "6.18"], ["global_reads"], [("time", False)]),
]
# What auto resolved to, as mmscale writes it: '; ' inside pcp_high's own text too.
KNOBS_AUTO = ("stat_threshold: 24 in 1 zone; percpu_counter_batch: 32 with 2 CPUs online; "
              "dirty_ratio: 20 in the 2.6.31 rows, 0 in the IO-less and 6.18 benches, each "
              "scenario's in throttle/ (20, or 0 where it sets thresh=); "
              "percpu_pagelist_high_fraction: 0: high from the low watermark (6.18: tuned "
              "between it and the share at fraction 8); pcp_batch: zone_batchsize's, per zone; "
              "pcp_high: 6 x batch (2.6.x), zone_highsize's (6.1; 6.18's high_min); "
              "pcp_high_max: zone_highsize's at fraction 8")
KNOBS = ["stat_threshold", "percpu_counter_batch", "dirty_ratio",
         "percpu_pagelist_high_fraction", "pcp_batch", "pcp_high", "pcp_high_max"]


def context(**knobs):
    return {"mmscale_families": json.dumps(FAMILIES),
            "mmscale_variants": ";".join(
                f"{f['name']}={','.join(v['name'] for v in f['variants'])}" for f in FAMILIES),
            "mmscale_placement": "compact",
            "mmscale_knobs": " ".join(f"{k}={knobs.get(k, 'auto')}" for k in KNOBS),
            "mmscale_knobs_auto": KNOBS_AUTO}


def runs(name, times, **counters):
    """One run's repetitions: times (ns) one per repetition, each counter a
    number (the same in every repetition) or a list (one per repetition)."""
    threads = int(re.search(r"threads:(\d+)$", name).group(1))
    return [dict({"name": name, "run_name": name, "run_type": "iteration",
                  "repetitions": len(times), "repetition_index": i, "threads": threads,
                  "iterations": 1000, "real_time": t, "cpu_time": t, "time_unit": "ns"},
                 **{k: v[i] if isinstance(v, list) else v for k, v in counters.items()})
            for i, t in enumerate(times)]


STEADY = [100, 101, 102, 103, 104]
UNSTEADY = [100, 120, 150, 180, 200]  # trimmed: 120, 150, 180: s.d. 30, 20% of 150


def load(tmp, name, benchmarks, ctx=None):
    path = os.path.join(tmp, name)
    with open(path, "w") as f:
        json.dump({"context": ctx or context(), "benchmarks": benchmarks}, f)
    return mmresults.load(path, "test_plot")


# ---- what a figure shows (each helper takes None, a figure or axes not drawn, as empty) ----

def bars_of(ax):
    """{series: [(width, hatch, error half-length or None), ...]} of ax's
    bars, in the order drawn (the first label on top)."""
    out = {}
    for c in ax.containers if ax else []:
        if isinstance(c, BarContainer):
            # Each error bar a segment across its bar's centre (none where no bar is drawn).
            halves = {}
            if c.errorbar is not None:
                halves = {round(seg[0][1], 9): abs(seg[1][0] - seg[0][0]) / 2
                          for seg in c.errorbar.lines[2][0].get_segments()
                          if len(seg) and seg[0][0] == seg[0][0]}
            out[c.get_label()] = [(p.get_width(), p.get_hatch(),
                                   halves.get(round(p.get_y() + p.get_height() / 2, 9)))
                                  for p in c.patches]
    return out


def lines_of(ax):
    """{legend label: (xs, ys, error half-lengths)} of ax's lines, in order."""
    out = {}
    for c in ax.containers if ax else []:
        if isinstance(c, ErrorbarContainer) and not c.get_label().startswith("_"):
            data, _, (bars, *_) = c.lines
            halves = [abs(s[1][1] - s[0][1]) / 2 for s in bars.get_segments()]
            out[c.get_label()] = (list(data.get_xdata()), list(data.get_ydata()), halves)
    return out


def texts(ax):
    return [t.get_text() for t in ax.texts] if ax else []


def annotations(ax):
    return [t.get_text() for t in ax.texts if isinstance(t, Annotation)] if ax else []


def xticks(ax):
    return [t.get_text() for t in ax.get_xticklabels()] if ax else []


def yticks(ax):
    return [t.get_text() for t in ax.get_yticklabels()] if ax else []


def axes_of(fig):
    return fig.axes if fig else []


def ylabel(ax):
    return ax.get_ylabel() if ax else ""


def figure_text(fig):
    """The figure's title and notes."""
    return "\n".join(t.get_text() for t in ([fig._suptitle] if fig._suptitle else []) +
                     fig.texts) if fig else ""


def overlapping_labels(fig):
    """Pairs of one axis's tick labels whose boxes overlap, once drawn."""
    if fig is None:
        return ["no figure"]
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    clashes = []
    for ax in fig.axes:
        for labels in (ax.get_xticklabels(), ax.get_yticklabels()):
            boxes = [(t.get_text(), t.get_window_extent(renderer)) for t in labels
                     if t.get_visible() and t.get_text()]
            clashes += [(a, b) for i, (a, box) in enumerate(boxes) for b, other in boxes[i + 1:]
                        if box.overlaps(other)]
    return clashes


def grid(fig):
    """A counts figure's panels: {(its row's label, first line; its count): axes}."""
    cells, row = {}, None
    for ax in axes_of(fig):
        if ax.get_ylabel():
            row = ax.get_ylabel().split("\n")[0]
        cells[row, ax.get_title()] = ax
    return cells


def near(a, b):
    return a is not None and b is not None and abs(a - b) < 1e-9


with tempfile.TemporaryDirectory() as tmp:
    # pcp/drain at two CPU counts, the bigger row first and 6.18-full before the baseline in
    # the file: lock_acquires 2096 and 134144 (their mean, 68120, is what must never show);
    # pages_drained 0 everywhere; zone_locks 0 in the cpus:16 row only; locked_ops unsteady
    # in one cell.
    bench = []
    for cpus, locks, zone in ((1024, 134144, 1024), (16, 2096, 0)):
        bench += runs(f"pcp/drain/6.18-full/cpus:{cpus}/real_time/threads:1", STEADY,
                      lock_acquires=locks, pages_moved=48 * cpus, pages_drained=0,
                      locked_ops=[1000, 1200, 1500, 1800, 2000] if cpus == 16 else 71762,
                      zone_locks=zone)
        bench += runs(f"pcp/drain/6.18-empty/cpus:{cpus}/real_time/threads:1", STEADY,
                      lock_acquires=0, pages_moved=0, pages_drained=0, locked_ops=cpus + 2,
                      zone_locks=0)
    drawn.clear()
    plot.counts(load(tmp, "pcp.json", bench), tmp)
    fig = drawn.get("counts-pcp-drain")
    cells = grid(fig)
    rows = list(dict.fromkeys(r for r, _ in cells))
    check(rows == ["cpus:16 threads:1", "cpus:1024 threads:1"],
          f"counts: one row of panels per argument row, in CPU order: {rows} {sorted(drawn)}")
    columns = list(dict.fromkeys(c for _, c in cells))
    check(columns == ["lock_acquires", "pages_moved", "locked_ops", "zone_locks"],
          f"counts: the family's order, pages_drained (0 everywhere) left out: {columns}")
    for row, locks in (("cpus:16 threads:1", 2096), ("cpus:1024 threads:1", 134144)):
        ax = cells.get((row, "lock_acquires"))
        got = bars_of(ax).get("lock_acquires", [])
        check([w for w, _, _ in got] == [0, locks],
              f"counts {row}: its own lock_acquires, 6.18-empty then 6.18-full: {got}")
        check(str(locks) in annotations(ax),
              f"counts {row}: the exact count written beside its bar: {annotations(ax)}")
        check(yticks(ax) == ["6.18-empty", "6.18-full"],
              f"counts {row}: the baseline first: {yticks(ax)}")
        check(all(e is None for _, _, e in got),
              f"counts {row}: an exact count has no error bar: {got}")
    label16 = ylabel(cells.get(("cpus:16 threads:1", "lock_acquires")))
    label1024 = ylabel(cells.get(("cpus:1024 threads:1", "lock_acquires")))
    check("all zero:" in label16 and "pages_drained" in label16 and "zone_locks" in label16 and
          "pages_drained" in label1024 and "zone_locks" not in label1024,
          f"counts: each row names its all-zero counts: {label16!r} {label1024!r}")
    zone16 = cells.get(("cpus:16 threads:1", "zone_locks"))
    check(zone16 is not None and not bars_of(zone16) and "all zero" in texts(zone16),
          "counts: the all-zero zone_locks of cpus:16 is no bar, and says so")
    locked = cells.get(("cpus:16 threads:1", "locked_ops"))
    cell = bars_of(locked).get("locked_ops", [])
    check(len(cell) == 2 and cell[0][2] is None and near(cell[1][0], 1500) and
          near(cell[1][2], 300),
          f"counts: a count that varies gets its trimmed s.d. (300) as an error bar, an exact "
          f"one none: {cell}")
    check(len(cell) == 2 and cell[1][1] == "//" and not cell[0][1] and
          "~1500" in annotations(locked),
          f"counts: the unsteady bar hatched, its value marked '~': {cell} {annotations(locked)}")
    check("per argument row and thread count" in figure_text(fig) and
          "an exact count (the same in every repetition) has none" in figure_text(fig) and
          "~: unsteady" in figure_text(fig),
          f"counts: the title says how it is split, the notes what bars and '~' mean: "
          f"{figure_text(fig)}")
    check(not overlapping_labels(fig),
          f"counts: no tick labels overlap: {overlapping_labels(fig)}")

    # drain/empty: the variants written out of order (remote first), quick-scan unsteady at
    # 4 CPUs; call_function_locks 0 everywhere.
    bench = []
    for variant in ("remote", "6.18", "ipi-all", "quick-scan", "count-check", "ipi-mask",
                    "workqueue"):
        for cpus in (2, 4):
            times = [t * 1000 for t in (UNSTEADY if (variant, cpus) == ("quick-scan", 4)
                                        else STEADY)]
            bench += runs(f"drain/empty/{variant}/cpus:{cpus}/real_time/threads:1", times,
                          lock_acquires=cpus * 2 if variant == "ipi-all" else 0,
                          ipis_sent=cpus - 1, call_function_locks=0)
    records = load(tmp, "empty.json", bench)
    drawn.clear()
    plot.drain_plots(records, tmp)
    plot.counts(records, tmp)
    ax = next(iter(axes_of(drawn.get("drain-cpus"))), None)
    lines = lines_of(ax)
    want = [("~ " if v == "quick-scan" else "") + v for v in DRAIN_VARIANTS]
    check(list(lines) == want, f"drain-cpus: the lines in the family's order: {list(lines)}")
    xs, ys, errors = lines.get("~ quick-scan", ([], [None, None], [None, None]))
    check(xs == [2, 4] and near(ys[0], 102) and near(ys[1], 150) and near(errors[1], 30),
          f"drain-cpus: each CPU count's trimmed mean (us) with its s.d. as an error bar: "
          f"{xs} {ys} {errors}")
    check(annotations(ax) == ["~"] and xticks(ax) == ["2", "4"],
          f"drain-cpus: the one unsteady point marked '~', the CPU counts on the axis: "
          f"{annotations(ax)} {xticks(ax)}")
    fig = drawn.get("counts-drain-empty")
    cells = grid(fig)
    check(yticks(next(iter(cells.values()), None)) == DRAIN_VARIANTS and
          [c for _, c in cells] == ["lock_acquires", "ipis_sent"] * 2 and
          all("call_function_locks" in ax.get_ylabel() for ax in cells.values()
              if ax.get_ylabel()),
          f"counts-drain-empty: family order, call_function_locks named, not drawn: {cells}")
    check(not overlapping_labels(fig),
          f"counts-drain-empty: no tick labels overlap: {overlapping_labels(fig)}")

    # drain/swap_cpuset: two argument rows (victims:0, victims:1) at two thread counts, each
    # with its own latencies; p99 0 everywhere; remote unsteady at victims:0 threads:2.
    bench = []
    for variant in ("remote", "ipi-all"):
        for victims in (1, 0):
            for threads in (2, 1):
                mean = (100 if variant == "ipi-all" else 1) * (1 + victims + 10 * threads)
                noisy = (variant, victims, threads) == ("remote", 0, 2)
                bench += runs(f"drain/swap_cpuset/{variant}/drain_every:256/victims:{victims}/"
                              f"iterations:65536/real_time/threads:{threads}",
                              UNSTEADY if noisy else STEADY,
                              drain_us_mean=[mean * x / 150 for x in UNSTEADY] if noisy
                              else mean, drain_us_p50=mean / 2, drain_us_p99=0, ipis_sent=1)
    records = load(tmp, "swap.json", bench)
    drawn.clear()
    plot.drain_plots(records, tmp)
    plot.scaling(records, tmp, None)
    axes = axes_of(drawn.get("drain-latency"))
    titles = [ax.get_title() for ax in axes]
    check([t.split(";")[0] for t in titles] ==
          [f"drain_every:256 victims:{v} threads:{t}" for v in (0, 1) for t in (1, 2)] and
          all("all zero: p99" in t for t in titles),
          f"drain-latency: one panel per argument row and thread count, p99 named: {titles}")
    for ax, (victims, threads) in zip(axes, [(v, t) for v in (0, 1) for t in (1, 2)]):
        got = bars_of(ax)
        want = [100 * (1 + victims + 10 * threads), 1 + victims + 10 * threads]
        check(list(got) == ["mean", "p50"] and [round(w, 9) for w, _, _ in got["mean"]] == want,
              f"drain-latency victims:{victims} threads:{threads}: ipi-all then remote, "
              f"their own means {want}: {got}")
    noisy = bars_of(axes[1] if len(axes) > 1 else None).get("mean", [None, None])[1]
    check(noisy is not None and noisy[1] == "//" and noisy[2] is not None and noisy[2] > 0,
          f"drain-latency: the unsteady bar hatched, with its error bar: {noisy}")
    ax = next(iter(axes_of(drawn.get("scaling-drain-swap_cpuset-drain_every-256-victims-0"))),
              None)
    lines = lines_of(ax)
    check(list(lines) == ["ipi-all (compact)", "~ remote (compact)"] and
          all(x == [1, 2] for x, _, _ in lines.values()) and
          all(h > 0 for _, _, hs in lines.values() for h in hs) and annotations(ax) == ["~"],
          f"scaling: one line per variant in order, error bars, the unsteady point '~': {lines}")
    check(sorted(n for n in drawn if n.startswith("scaling-")) ==
          ["scaling-drain-swap_cpuset-drain_every-256-victims-0",
           "scaling-drain-swap_cpuset-drain_every-256-victims-1"],
          f"scaling: one plot per argument row: {sorted(drawn)}")

    # What auto resolved to, as a tick label says it.
    check([plot.one_number(t) for t in ("24 in 1 zone", "32 with 2 CPUs online",
                                        "0: high from the low watermark (6.18: tuned, 8)",
                                        "20 in the 2.6.31 rows, 0 in the IO-less benches",
                                        "6 x batch (2.6.x), zone_highsize's (6.1; 6.18's)",
                                        "zone_batchsize's, per zone")] ==
          ["24", "32", "0", None, None, None], "one_number: one leading number, or None")
    # A knob sweep by hand: stat_threshold auto, 0 and 24 (24 is what auto resolved to), 0
    # unsteady; global_reads 0 at every value.
    records = mmresults.Results()
    for value, folds in (("auto", 1 / 25), ("0", 1), ("24", 1 / 25)):
        records += load(tmp, f"knob-{value}.json",
                        runs("vmstat/mod/mod/real_time/threads:1",
                             UNSTEADY if value == "0" else STEADY, folds=folds, global_reads=0),
                        context(stat_threshold=value))
    resolved = {k: plot.auto_resolved(records, k) for k in [*KNOBS, "numa_stat"]}
    check(resolved["stat_threshold"] == "=24" and resolved["percpu_counter_batch"] == "=32" and
          resolved["percpu_pagelist_high_fraction"] == "=0" and
          resolved["pcp_high"] == "6 x batch (2.6.x), zone_highsize's ..." and
          resolved["pcp_high_max"] == "zone_highsize's at fraction 8" and
          resolved["numa_stat"] == "not recorded",
          f"auto_resolved: '=N' where one number, the text where not: {resolved}")
    drawn.clear()
    plot.knob_plots(records, "stat_threshold", tmp)
    axes = axes_of(drawn.get("knob-stat_threshold-vmstat-mod-mod"))
    time_ax, folds_ax = (axes + [None, None])[:2]
    check(len(axes) == 2 and xticks(folds_ax) == ["auto (=24)", "0", "24"],
          f"knob: the axis says what auto resolved to: {xticks(folds_ax)}")
    check(len(axes) == 2 and "folds" in ylabel(folds_ax) and
          "all zero: global_reads" in time_ax.get_title(),
          f"knob: the all-zero count is no panel, the title names it: "
          f"{[(a.get_title(), a.get_ylabel()) for a in axes]}")
    label, (_, _, errors) = next(iter(lines_of(time_ax).items()), ("", ([], [], [None] * 3)))
    check(label == "~ threads:1 (compact)" and near(errors[1], 30) and
          annotations(time_ax) == ["~"],
          f"knob: the time's error bars, its unsteady value (0) marked '~': {label} {errors}")
    check("exact: no error bars" in ylabel(folds_ax).replace("\n", " "),
          f"knob: the exact folds say they have no error bars: {ylabel(folds_ax)!r}")
    # A knob whose auto is no one number: its text, cut short and wrapped.
    records = mmresults.Results()
    for value in ("auto", "10", "40"):
        records += load(tmp, f"dirty-{value}.json",
                        runs("bdp/6.18/real_time/threads:1", STEADY, global_reads=3),
                        context(dirty_ratio=value))
    drawn.clear()
    plot.knob_plots(records, "dirty_ratio", tmp)
    fig = drawn.get("knob-dirty_ratio-bdp-6.18")
    labels = xticks(axes_of(fig)[-1] if fig else None) or [""]
    check(labels[1:] == ["10", "40"] and labels[0].replace("\n", " ").startswith(
          "auto (20 in the 2.6.31 rows,") and "..." in labels[0] and
          max(len(line) for line in labels[0].split("\n")) <= 20 and
          not overlapping_labels(fig),
          f"knob: dirty_ratio's auto, its text short and wrapped: {labels}")

    # A tiny real run: pcp/drain on a two-node stand-in (cpus:2 and cpus:4 rows). scripts/plot
    # writes the counts plot, and its panels hold each row's own lock_acquires.
    mmscale = os.environ.get("MMSCALE") or mmresults.MMSCALE
    real = os.path.join(tmp, "real.json")
    p = subprocess.run([mmscale, "--topology=synthetic:node:2 core:2 pu:1",
                        "--benchmark_filter=^pcp/drain/", "--benchmark_min_time=0.01",
                        "--benchmark_repetitions=3", "--benchmark_format=json",
                        "--benchmark_out=" + real], capture_output=True, text=True, timeout=60)
    check(p.returncode == 0, f"mmscale pcp/drain on a stand-in: exit {p.returncode}\n{p.stderr}")
    if p.returncode == 0:
        out = os.path.join(tmp, "plots")
        p = subprocess.run([sys.executable, os.path.join(SCRIPTS, "plot"), real, "--out", out],
                           capture_output=True, text=True)
        made = set(os.listdir(out)) if os.path.isdir(out) else set()
        check(p.returncode == 0 and {"counts-pcp-drain.png", "counts-pcp-drain.svg"} <= made and
              p.stderr.strip() == f"plot: 2 files in {out}",
              f"scripts/plot on a real run: exit {p.returncode}, {made}\n{p.stderr}")
        records = mmresults.load(real, "test_plot")
        drawn.clear()
        plot.counts(records, tmp)
        want = {r["params"]: r["counters"]["lock_acquires"] for r in records
                if r["variant"] == "6.18-full"}
        got = {row.split()[0]: bars_of(ax).get("lock_acquires", [(None,)] * 2)[1][0]
               for (row, count), ax in grid(drawn.get("counts-pcp-drain")).items()
               if count == "lock_acquires"}
        check(got == want and list(got) == ["cpus:2", "cpus:4"] and len(set(got.values())) == 2,
              f"the real run's rows, each its own lock_acquires: {got} (runs: {want})")
        auto = plot.auto_resolved(records, "stat_threshold")
        check(re.fullmatch(r"=\d+", auto) is not None, f"the real run's stat_threshold: {auto}")

report("test_plot")
