#!/usr/bin/env python3
"""Variant tables from one mmscale Google Benchmark JSON file, in the format
of the seed threads (seed 004): one row per case, baseline and variant side
by side, the difference in percent, the case name. Which families get
tables, of which figures, with which labels, and each family's baseline
(its first variant, the oldest kernel) come from the results' context
(mmscale_families: the case tables, as `mmscale --list=json` prints them);
nothing here names a family or a variant. Figures are the seeds' statistic when repetitions were
run (trimmed mean: drop the fastest and the slowest run), else the single run.

usage: scripts/quick_tables.py RESULTS.json [--markdown]

These tables come from the aggregates Google Benchmark computed (they work
with --benchmark_report_aggregates_only); for significance (Mann-Whitney p)
and before/after comparison of two results use scripts/compare, which needs
the individual runs. A measured figure is followed by its trimmed standard
deviation in parentheses where at least two runs remain after trimming (2
runs, or 4 and more: 1 or 3 leave one, whose s.d. would print as a
meaningless 0). A figure the family marks exact (an exact count, the same
on any machine) is shown as it is, without s.d.: a whole number to its last
digit, a fraction per operation to six significant digits,
lowest..highest where its runs differ ('(varies)' where only aggregates
were kept and they say so).

Where no family has both its baseline and a variant in the results, one
line says so instead of the tables.

A run it cannot use (errored, or no real_time) is named on stderr, one line
each, counted in a last line of the output, and the exit status is then 1."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mmresults  # noqa: E402

def value(entry, key):
    if key == "time":
        return entry["real_time"]
    return entry.get(key)


def spread(entries, key, runs):
    """The trimmed standard deviation of runs repetitions, where at least two
    remain after trimming (scripts/compare's rule)."""
    sd = entries.get("trimmed_stddev")
    kept = runs - 2 if runs >= 3 else runs
    return value(sd[0], key) if sd and kept >= 2 else None


def fmt(v, sd):
    num = mmresults.num
    return num(v) if sd is None else f"{num(v)} ({num(sd)})"


def exact_fmt(entries, key, v):
    """An exact figure as it is (v: the one picked): 'lowest..highest' where
    its runs differ, ' (varies)' after it where only the aggregates were
    kept and their stddev says the runs differed."""
    runs = [x for x in (value(r, key) for r in entries.get("run", [])) if x is not None]
    if runs:
        lo, hi = min(runs), max(runs)
        text = mmresults.num(lo, exact=True)
        return text if lo == hi else f"{text}..{mmresults.num(hi, exact=True)}"
    sd = entries.get("stddev")
    return mmresults.num(v, exact=True) + (" (varies)" if sd and value(sd[0], key) else "")


def load(path):
    """-> (context, variants, {run name: {kind: [entries]}}, unusable runs)"""
    entries = mmresults.read(path, "quick_tables")
    ctx, variants = (entries[0][1], entries[0][2]) if entries else ({}, mmresults.RunNames({}))
    runs = {}
    for _, _, _, b in entries:
        kind = b.get("aggregate_name") if b.get("run_type") == "aggregate" else "run"
        runs.setdefault(b["run_name"], {}).setdefault(kind, []).append(b)
    return ctx, variants, runs, entries.unusable


def pick(entries):
    """The trimmed mean when there are aggregates, else the mean of the runs."""
    if "trimmed_mean" in entries:
        return entries["trimmed_mean"][0], len(entries.get("run", [])) or entries["trimmed_mean"][0].get("repetitions", 1)
    runs = entries.get("run", [])
    if not runs:
        return None, 0
    if len(runs) == 1:
        return runs[0], 1
    avg = dict(runs[0])
    for key, v in runs[0].items():
        if isinstance(v, (int, float)) and not isinstance(v, bool):
            vals = [r[key] for r in runs if isinstance(r.get(key), (int, float))]
            avg[key] = sum(vals) / len(vals)
    return avg, len(runs)


def split(run_name, variants):
    """('bdp', 'cached-locals-v2', 'threads:1') or None (variants: mmresults.RunNames)."""
    family, variant, params, threads = variants.split(run_name)
    if not variant:
        return None
    return family, variant, "/".join(p for p in (params, f"threads:{threads}") if p)


def picked(group, variant, key):
    """-> (the variant's value of key, its runs) in one case's group, or None
    where it did not run or has no such value."""
    if variant not in group:
        return None
    ent, n = pick(group[variant])
    v = value(ent, key) if ent else None
    return None if v is None else (v, n)


def tables(path, markdown=False):
    """-> (the tables' text, the unusable runs)"""
    ctx, variants, runs, unusable = load(path)
    groups = {}
    for name, entries in runs.items():
        s = split(name, variants)
        if s:
            case, variant, params = s
            groups.setdefault((case, params), {})[variant] = entries
    out = []
    fams = mmresults.families(ctx)
    if groups and not any(f["metrics"] for f in fams.values()):
        out.append("no variant tables: these results carry no mmscale_families (the case tables' "
                   "metrics; an mmscale older than --list=json wrote them)")
    for family, fam in fams.items():
        keys = sorted(k for k in groups if k[0] == family)
        if not keys or not fam["metrics"]:
            continue
        base_name = fam["baseline"]
        for key, label, exact in fam["metrics"]:

            def figure(entries, v, runs):
                return (exact_fmt(entries, key, v) if exact
                        else fmt(v, spread(entries, key, runs)))

            rows = []
            for case, params in keys:
                g = groups[(case, params)]
                base = picked(g, base_name, key)
                if base is None:
                    continue
                bv, nb = base
                for v in fam["variants"][1:]:
                    ent = picked(g, v, key)
                    if ent is None:
                        continue
                    vv, nv = ent
                    diff = mmresults.diff_text(bv, vv, key.endswith("_pct"))
                    rows.append((figure(g[base_name], bv, nb), figure(g[v], vv, nv),
                                 diff, f"{family}/{v} vs {base_name} [{params}]", min(nb, nv)))
            if not rows:
                continue
            title = f"{family}: {label}"
            out.append(mmresults.run_command_line(ctx, markdown))
            if markdown:
                out.append(f"**{title}**\n")
                out.append(f"| {base_name} | variant | diff | case | runs |")
                out.append("|---:|---:|---:|---|---:|")
                for bv, vv, diff, name, n in rows:
                    out.append(f"| {bv} | {vv} | {diff} | {name} | {n} |")
                out.append("")
            else:
                out.append(title)
                out.append(f"{base_name:>20} {'variant':>20} {'diff':>8}  case (runs)")
                out.append("-" * 90)
                for bv, vv, diff, name, n in rows:
                    out.append(f"{bv:>20} {vv:>20} {diff:>8}  {name} ({n})")
                out.append("")
    if not out:  # no empty table: one line saying there is none
        out.append("no variant tables: no family has its baseline and a variant in these "
                   "results")
    if unusable:
        out.append(f"left out: {mmresults.count_unusable(unusable)}, named on stderr")
    return "\n".join(out), unusable


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] in (["-h"], ["--help"]):
        print(__doc__.strip())
        return 0
    if not argv:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    try:
        text, unusable = tables(argv[0], "--markdown" in argv[1:])
    except (OSError, ValueError) as e:
        print(f"quick_tables: {e}", file=sys.stderr)
        return 2
    print(text)
    return 1 if unusable else 0


if __name__ == "__main__":
    mmresults.main_guard(main)
