#!/usr/bin/python3
"""The result scripts: compare on recorded fixtures (known input, known
table; the tables to paste: the machine line off the defaults, a Gmean per
family, exact counts as they are, no s.d. from too few runs, effects as
ratios, no empty table), the sweep CSV schema and its linear column, plots
from a small fixture, and a sweep interrupted by SIGINT that keeps its
finished unit, discards and names the running one, and resumes. Failures are
loud: every loader (compare, sweep's CSV, plot, floor_table.py,
quick_tables.py) names each run it cannot use (errored, no real_time) and
counts it; a sweep whose mmscale exits 1 (fixtures/fake_mmscale) keeps that
unit's JSON, goes on, writes everything and exits 1; --threads auto plans
from a recorded --describe=json (and the real one); scripts/run takes
mmscale flags after -- and ends non-zero naming the step that failed."""
import contextlib
import copy
import csv
import glob
import io
import json
import importlib.machinery
import importlib.util
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPTS = os.path.dirname(HERE)
FIX = os.path.join(HERE, "fixtures")
sys.path.insert(0, SCRIPTS)
import mmresults  # noqa: E402
sys.path.insert(0, HERE)
from check import check, report  # noqa: E402  (scripts/tests/check.py)


def setup_trap(tmp):
    """A folder of scripts named like scripts/setup's tools (dpkg-query, cmake,
    apt-get, sudo) that only note that they ran, in <folder>/ran; put it first
    on PATH to see that nothing ran setup."""
    trap = os.path.join(tmp, "trap")
    os.makedirs(trap)
    for tool in ("dpkg-query", "cmake", "apt-get", "sudo"):
        with open(os.path.join(trap, tool), "w") as f:
            f.write(f"#!/bin/sh\necho {tool} >> {trap}/ran\nexit 1\n")
        os.chmod(os.path.join(trap, tool), 0o755)
    return trap


def script(name, *args, **kw):
    return subprocess.run([sys.executable, os.path.join(SCRIPTS, name), *args],
                          capture_output=True, text=True, **kw)


def load_module(name):
    loader = importlib.machinery.SourceFileLoader(name, os.path.join(SCRIPTS, name))
    spec = importlib.util.spec_from_loader(name, loader)
    mod = importlib.util.module_from_spec(spec)
    loader.exec_module(mod)
    return mod


def load_sweep_module():
    return load_module("sweep")


# compare: the recorded tables, exactly (the fixtures' folder written $FIX),
# each starting with the command that reproduces it.
p = script("compare", os.path.join(FIX, "before.json"), os.path.join(FIX, "after.json"))
check(p.returncode == 0 and p.stdout.replace(FIX, "$FIX") ==
      open(os.path.join(FIX, "expected_compare.txt")).read(),
      f"compare before/after:\n{p.stdout}{p.stderr}")
p = script("compare", os.path.join(FIX, "before.json"), "--markdown")
check(p.returncode == 0 and p.stdout.replace(FIX, "$FIX") ==
      open(os.path.join(FIX, "expected_within.md")).read(),
      f"compare within:\n{p.stdout}{p.stderr}")
# The summary row: the geometric mean of the two rows' ratios, sqrt(57/52 * 40/40).
check("+4.7%" in open(os.path.join(FIX, "expected_compare.txt")).read() and
      "over 2 rows, 1.0470" in open(os.path.join(FIX, "expected_compare.txt")).read(),
      "the Gmean row of the before/after table")
# --format=json: the comparison with its samples and figures; read back, it
# prints the same table (its header names the command that made it).
with tempfile.TemporaryDirectory() as tmp:
    saved = os.path.join(tmp, "comparison.json")
    p = script("compare", os.path.join(FIX, "before.json"), os.path.join(FIX, "after.json"),
               "--format=json")
    check(p.returncode == 0, f"compare --format=json: {p.stderr}")
    open(saved, "w").write(p.stdout)
    doc = json.loads(p.stdout)
    row = {r["case"]: r for r in doc["rows"]}.get("bdp/2.6.31-rc8/real_time/threads:1", {})
    check(row.get("baseline_mean") == 52.0 and row.get("variant_mean") == 57.0 and
          abs(row.get("diff_pct", 0) - 100 * 5 / 52) < 1e-9 and row.get("significant") is False,
          f"the JSON row's figures: {row}")
    check(len(doc["gmean"]) == 1 and doc["gmean"][0]["family"] == "bdp" and
          abs(doc["gmean"][0]["ratio"] - (57 / 52) ** 0.5) < 1e-12 and
          doc["gmean"][0]["rows"] == 2 and doc["gmean"][0]["left_out"] == [],
          f"the JSON's Gmean: {doc['gmean']}")
    for extra in ([], ["--effect"], ["--markdown"]):
        again = script("compare", saved, *extra)
        direct = script("compare", os.path.join(FIX, "before.json"),
                        os.path.join(FIX, "after.json"), *extra)
        check(again.returncode == 0 and again.stdout.split("\n", 1)[1] ==
              direct.stdout.split("\n", 1)[1] and "--format=json" in again.stdout.split("\n")[0],
              f"the saved comparison prints the table again {extra}:\n{again.stdout}{again.stderr}")
    p = script("compare", saved, "--format=mmtests")
    check(p.returncode == 2 and len(p.stderr.splitlines()) == 1,
          f"a saved comparison has no mmtests dialect: one line, exit 2: {p.stderr}")
# Pooled units that disagree, and unsteady sides: a sweep-like folder whose
# two units ran bdp/2.6.31-rc8 at 50..60 ns and 30 ns slower, and
# cached-locals-v2 alike.
with tempfile.TemporaryDirectory() as tmp:
    before = json.load(open(os.path.join(FIX, "before.json")))
    slower = copy.deepcopy(before)
    for b in slower["benchmarks"]:
        if b["name"].startswith("bdp/2.6.31-rc8"):
            b["real_time"] += 30
    for side, units in (("a", {"compact-t1": before, "scatter-t1": slower}),
                        ("b", {"compact-t1": json.load(open(os.path.join(FIX, "after.json")))})):
        os.makedirs(os.path.join(tmp, side, "raw"))
        for unit, doc in units.items():
            json.dump(doc, open(os.path.join(tmp, side, "raw", unit + ".json"), "w"))
    p = script("compare", os.path.join(tmp, "a"), os.path.join(tmp, "b"))
    lines = p.stdout.splitlines()
    flagged = [line for line in lines if "bdp/2.6.31-rc8" in line]
    steady = [line for line in lines if "bdp/cached-locals-v2" in line]
    check(p.returncode == 0 and flagged and re.search(r"\s! ~ bdp/2\.6\.31-rc8/", flagged[0]) and
          steady and "! " not in steady[0] and "~ " not in steady[0],
          f"the row whose units disagree is marked '!', its pooled s.d. '~', the other not:\n"
          f"{p.stdout}")
    check(any(line.strip() == "! before's units disagree (Kruskal-Wallis p 0.009): compact-t1 "
              "52.0, scatter-t1 82.0" for line in lines),
          f"each unit's trimmed mean is shown under the row:\n{p.stdout}")
    check(any(line.startswith("~ 1 row(s)") for line in lines) and
          any(line.startswith("! 1 row(s)") for line in lines),
          f"the table says what '~' and '!' mean:\n{p.stdout}")
    saved = os.path.join(tmp, "c.json")
    open(saved, "w").write(script("compare", os.path.join(tmp, "a"), os.path.join(tmp, "b"),
                                  "--format=json").stdout)
    again = script("compare", saved)
    check(again.stdout.split("\n", 1)[1] == p.stdout.split("\n", 1)[1],
          f"the saved comparison keeps the units:\n{again.stdout}")
# The c2c matrix's heatmap: a 3-node fixture (node 2's diagonal pair SMT
# siblings, node 5 without a CPU) draws; this one-node machine's matrix is
# one line, and so is its plot; a file that is not a matrix is bad input.
with tempfile.TemporaryDirectory() as tmp:
    p = script("plot", "--c2c", os.path.join(FIX, "c2c-3nodes.json"), "--out", tmp)
    check(p.returncode == 0 and sorted(os.listdir(tmp)) == ["c2c-matrix.png", "c2c-matrix.svg"],
          f"plot --c2c draws the heatmap: {p.stderr} {os.listdir(tmp)}")
    one = subprocess.run([mmresults.MMSCALE, "--c2c-matrix=json"], capture_output=True, text=True)
    matrix = json.loads(one.stdout) if one.returncode == 0 else {}
    nodes = len(glob.glob("/sys/devices/system/node/node[0-9]*")) or 1
    if nodes == 1:
        check(matrix.get("nodes") == [0] and matrix.get("ns") == [],
              f"one node: --c2c-matrix=json has no matrix: {one.stdout} {one.stderr}")
        text = subprocess.run([mmresults.MMSCALE, "--c2c-matrix"], capture_output=True, text=True)
        check(text.returncode == 0 and len(text.stdout.splitlines()) == 1 and
              "one NUMA node" in text.stdout, f"one node: one line: {text.stdout}")
        saved = os.path.join(tmp, "one.json")
        open(saved, "w").write(one.stdout)
        p = script("plot", "--c2c", saved, "--out", os.path.join(tmp, "one"))
        check(p.returncode == 0 and "one NUMA node" in p.stdout and
              not os.path.exists(os.path.join(tmp, "one")), f"plot of one node: {p.stdout}")
    p = script("plot", "--c2c", os.path.join(FIX, "before.json"))
    check(p.returncode == 2 and len(p.stderr.splitlines()) == 1,
          f"plot --c2c of results that are not a matrix: one line, exit 2: {p.stderr}")
# Sweeps interleave repetitions at random unless told not to; a sweep
# recorded before that keeps its commands (so that it resumes).
sweep_mod = load_sweep_module()
params = dict(sweep_mod.DEFAULTS, placements=["compact"], mmscale_flags=[])
check(sweep_mod.INTERLEAVE in sweep_mod.unit_command("compact", 1, params),
      "a sweep's units interleave their repetitions by default")
check(sweep_mod.INTERLEAVE not in sweep_mod.unit_command("compact", 1, dict(params,
                                                                            interleave=False)),
      "--no-interleave (or a sweep recorded before interleaving) runs them in order")
check(sweep_mod.unit_command("compact", 1, dict(params, mmscale_flags=[
      "--benchmark_enable_random_interleaving=false"])).count(
      "--benchmark_enable_random_interleaving=false") == 1 and sweep_mod.INTERLEAVE not in
      sweep_mod.unit_command("compact", 1, dict(params, mmscale_flags=[
          "--benchmark_enable_random_interleaving=false"])),
      "an interleaving flag after -- is the sweep's, not overridden")
# The effect: the Hodges-Lehmann shift and its exact interval, worked by hand:
# 10..14 against 20..24 differ by 6..14 (1,2,3,4,5,4,3,2,1 of the 25 pairs);
# P(U <= 2) = 4/252 <= 0.025 < P(U <= 3) = 7/252, so the interval runs from
# the 3rd smallest difference (7) to the 3rd largest (13), at 1 - 8/252.
compare_mod = load_module("compare")
shift, lo, hi, level = compare_mod.hl_effect([10, 11, 12, 13, 14], [20, 21, 22, 23, 24])
check((shift, lo, hi) == (10, 7, 13) and abs(level - (1 - 8 / 252)) < 1e-12,
      f"Hodges-Lehmann: {shift} [{lo}, {hi}] at {level}")
check(compare_mod.hl_effect([1, 2, 3], [4, 5, 6])[1] is None and
      "[too few]" in compare_mod.effect_text([1, 2, 3], [4, 5, 6]),
      "3 runs a side are too few for a 95% interval (P(U = 0) = 1/20)")
# The numbers in that table: trimmed mean of 50,52,51,53,60 is 52 (51,52,53), s.d. 1.
p = script("compare", os.path.join(FIX, "before.json"), "--markdown")
check("52.0 (1)" in p.stdout and "-23.1%" in p.stdout and "0.0079*" in p.stdout,
      "seeds' statistic and Mann-Whitney p in the table")
# The machine settings that differ between the two sides are named above the table.
with tempfile.TemporaryDirectory() as tmp:
    for side, ratio, gov in (("a", 20, "performance"), ("b", 40, "performance")):
        doc = json.load(open(os.path.join(FIX, "before.json" if side == "a" else "after.json")))
        doc["context"].update(mmscale_sysctl_vm=f"dirty_ratio={ratio} stat_interval=1 "
                              f"dirty_bytes={ratio * 1000}",
                              mmscale_cpufreq=f"governor={gov} boost=absent")
        with open(os.path.join(tmp, f"{side}.json"), "w") as f:
            json.dump(doc, f)
    p = script("compare", os.path.join(tmp, "a.json"), os.path.join(tmp, "b.json"))
    lines = p.stdout.splitlines()
    check(p.returncode == 0 and "machine settings that differ between the two:" in lines and
          "  vm.dirty_ratio: 20 (before) | 40 (after)" in lines and
          not any("stat_interval" in l or "governor" in l for l in lines) and
          lines.index("  vm.dirty_bytes: 20000 (before) | 40000 (after)") + 1 ==
          lines.index("  vm.dirty_ratio: 20 (before) | 40 (after)") and
          lines.index("  vm.dirty_ratio: 20 (before) | 40 (after)") < next(
              i for i, l in enumerate(lines) if "case (runs)" in l),
          f"compare names the settings that differ, above the table:\n{p.stdout}{p.stderr}")
p = script("compare", os.path.join(FIX, "before.json"), "--metric", "global_reads")
check(p.returncode == 0 and "-35.7%" in p.stdout, "compare on an exact count")
# Results of two emulated machines (3.x's counts depend on swap): each is named.
with tempfile.TemporaryDirectory() as tmp:
    d = json.load(open(os.path.join(FIX, "after.json")))
    d["context"]["mmscale_params"] = "mem=3072MiB swap=no"
    json.dump(d, open(os.path.join(tmp, "noswap.json"), "w"))
    p = script("compare", os.path.join(FIX, "before.json"), os.path.join(tmp, "noswap.json"))
    check(p.returncode == 0 and
          "before's emulated machine: mem=3072MiB (defaults not recorded)\n" in p.stdout and
          "after's emulated machine: mem=3072MiB swap=no (defaults not recorded)\n" in p.stdout,
          f"compare names both machines where they differ:\n{p.stdout}")

# Tables to paste (issue 38). fixtures/families.json: bdp at 3 runs a side and
# drain/empty at 5, recorded with mmscale's defaults (mmscale_params_default) and
# four settings off them (vmstat_interval's value holds a space). The whole table is
# expected_families.txt; its parts are checked one by one below.
FAMILIES = os.path.join(FIX, "families.json")
p = script("compare", FAMILIES, "--effect")
check(p.returncode == 0 and p.stdout.replace(FIX, "$FIX") ==
      open(os.path.join(FIX, "expected_families.txt")).read(),
      f"compare families.json --effect:\n{p.stdout}{p.stderr}")


def markdown_table(*args):
    """compare ARGS --markdown, which must exit 0 -> ({case before ' vs ' or the
    run name: its cells}, the lines that are not a case's row)."""
    p = script("compare", *args, "--markdown")
    check(p.returncode == 0, f"compare {args} --markdown: exit {p.returncode}\n{p.stderr}")
    rows, other = {}, []
    for line in p.stdout.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if line.startswith("| ") and cells[0] not in ("", "baseline", "before"):
            rows[cells[-2].split(" vs ")[0]] = cells
        else:
            other.append(line)
    return rows, other


# The emulated machine: only the settings off the defaults, the one with a space whole;
# all at the defaults, one word; two builds, what differs between them too (their
# defaults of device differ), each side with its own values.
check(mmresults.params_pairs("mem=1MiB vmstat_interval=1000ms (dirty/: 1000us) ipi=auto") ==
      {"mem": "1MiB", "vmstat_interval": "1000ms (dirty/: 1000us)", "ipi": "auto"},
      "params_pairs keeps the value with a space whole")
_, other = markdown_table(FAMILIES)
check("emulated machine: swap=no vmstat_interval=100ms (dirty/: 100us) device=250pages/ms "
      "throttle=10s; otherwise the defaults (mmscale --help)" in other,
      "the machine line lists the settings that are not the defaults:\n" + "\n".join(other))
with tempfile.TemporaryDirectory() as tmp:
    base = json.load(open(FAMILIES))
    default = base["context"]["mmscale_params_default"]
    before, after = copy.deepcopy(base), copy.deepcopy(base)
    before["context"]["mmscale_params"] = default
    after["context"]["mmscale_params_default"] = default.replace("device=25pages/ms",
                                                                 "device=250pages/ms")
    after["context"]["mmscale_params"] = after["context"]["mmscale_params_default"].replace(
        "swap=yes", "swap=no")
    for name, doc in (("before", before), ("after", after)):
        json.dump(doc, open(os.path.join(tmp, name + ".json"), "w"))
    _, other = markdown_table(os.path.join(tmp, "before.json"))
    check("emulated machine: defaults (mmscale --help)" in other,
          "every setting at its default: one word:\n" + "\n".join(other))
    _, other = markdown_table(os.path.join(tmp, "before.json"), os.path.join(tmp, "after.json"))
    check("before's emulated machine: swap=yes device=25pages/ms; otherwise the defaults "
          "(mmscale --help)" in other and
          "after's emulated machine: swap=no device=250pages/ms; otherwise the defaults "
          "(mmscale --help)" in other,
          "two builds: the settings off the defaults and those that differ:\n" + "\n".join(other))
# The s.d. only where two runs or more remain after trimming: none from 1 or 3 runs
# (never '(0)'), and a line saying why; 2 runs, 4 runs, and 4 that agree have one.
rows, other = markdown_table(FAMILIES)
check(rows.get("bdp/cached-locals-v2", [""] * 2)[:2] == ["31.0", "28.0"] and
      rows.get("drain/empty/ipi-mask", [""] * 2)[:2] == ["706.3 (3.21)", "23.4 (0.153)"] and
      "a figure without (s.d.): fewer than 2 of its runs remain once the fastest and the "
      "slowest are dropped (it had 1 or 3), too few for an s.d." in other,
      f"no s.d. from 3 runs, and why; 5 runs have one: {rows}\n" + "\n".join(other))
check([compare_mod.figure(v, False) for v in ([5], [1, 2], [1, 2, 3], [1, 2, 3, 4], [7] * 4)] ==
      ["5", "1.5 (0.707)", "2", "2.5 (0.707)", "7 (0)"],
      "figure: the s.d. of the trimmed runs where two or more remain")
_, other = markdown_table(os.path.join(FIX, "before.json"))
check(not any("without (s.d.)" in line for line in other), "5 runs: no line about the s.d.")
# Exact counts as they are: the value (a whole number to its last digit, a fraction to
# six significant digits, a range where the runs differ), the difference, 'exact' for p;
# no s.d., no star, no effect.
rows, other = markdown_table(FAMILIES, "--metric", "lock_acquires", "--effect")
check(rows.get("drain/empty/ipi-mask", [])[:5] == ["2", "0", "-100.0%", "exact", "-"] and
      rows.get("drain/empty/remote", [])[:5] == ["2", "2", "+0.0%", "exact", "-"] and
      other[2] == "lock_acquires: exact counts, the same on any machine: the value "
      "(lowest..highest where the runs differ), no s.d., no p",
      f"an exact count: no s.d., p or effect: {rows}\n" + "\n".join(other))
mixed = [compare_mod.Row([1, 2], [3, 4], "c", "f", False),
         compare_mod.Row([1, 1], [2, 2], "d", "g", True)]
check(compare_mod.header_line("x", mixed, ("a", "b"), 0.05, True) ==
      "x: trimmed mean (s.d.), Mann-Whitney p ('*' < 0.05); rows with p 'exact': exact counts, "
      "the same on any machine: the value (lowest..highest where the runs differ), no s.d., "
      "no p; effect: b/a, the Hodges-Lehmann ratio (on the logs) with its exact 95% interval",
      "a table of measured and exact rows says which is which")
rows, _ = markdown_table(FAMILIES, "--metric", "locked_ops")
check(rows.get("drain/empty/remote", [])[:2] == ["134144", "2079.42..2080.5"],
      f"an exact count to its last digit, and its range: {rows}")
rows, _ = markdown_table(FAMILIES, "--metric", "folds")
check(rows.get("bdp/cached-locals-v2", [])[:2] == ["0.0415..0.0417", "0.0416667"],
      f"a fraction per operation to six significant digits: {rows}")
check([mmresults.num(v, exact=True) for v in (134144, 14.0, 2079.42, 1 / 24, 134144.25,
                                                2.0000001, 0.0)] ==
      ["134144", "14", "2079.42", "0.0416667", "134144.25", "2.0000001", "0"] and
      mmresults.num(26400.3) == "26400" and mmresults.num(14.0) == "14.0",
      "num(exact=True): whole numbers exactly, fractions never rounded to a whole number")
# Exact where both results mark it: before.json and after.json do (global_reads, bdp);
# after.json without its mmscale_families does not, and keeps its p.
with tempfile.TemporaryDirectory() as tmp:
    d = json.load(open(os.path.join(FIX, "after.json")))
    del d["context"]["mmscale_families"]
    json.dump(d, open(os.path.join(tmp, "old.json"), "w"))
    both, _ = markdown_table(os.path.join(FIX, "before.json"), os.path.join(FIX, "after.json"),
                                "--metric", "global_reads")
    one, _ = markdown_table(os.path.join(FIX, "before.json"), os.path.join(tmp, "old.json"),
                               "--metric", "global_reads")
    name = "bdp/cached-locals-v2/real_time/threads:1"
    check(both.get(name, [""] * 4)[3] == "exact" and one.get(name, [""] * 4)[3] == "1",
          f"exact where both results mark it: {both.get(name)} / {one.get(name)}")
# One Gmean per family, never across them; a row with a mean of 0 is left out and named.
_, other = markdown_table(FAMILIES)
gmeans = [line for line in other if "Gmean" in line]
drain = (23.2 + 23.4 + 23.5) / 3 / ((704 + 705 + 710) / 3) * \
    (30.5 + 30.7 + 31) / 3 / ((704 + 705 + 710) / 3)
check(gmeans == [f"| | | -37.3% | | Gmean of bdp: geometric mean of variant/baseline over 2 "
                 f"rows, {(28 / 31 * 13.5 / 31) ** 0.5:.4f} | |",
                 f"| | | -96.2% | | Gmean of drain/empty: geometric mean of variant/baseline "
                 f"over 2 rows, {drain ** 0.5:.4f} | |"],
      "one Gmean per family:\n" + "\n".join(gmeans))
_, other = markdown_table(FAMILIES, "--metric", "lock_acquires")
check([line for line in other if "Gmean" in line] == [
    "| | | +0.0% | | Gmean of drain/empty: geometric mean of variant/baseline over 1 row, "
    "1.0000; left out, a mean not above 0: drain/empty/ipi-mask vs ipi-all "
    "[cpus:2/threads:1] | |"], "the Gmean names the row it left out:\n" + "\n".join(other))
_, other = markdown_table(FAMILIES, "--metric", "ipis_sent")
check([line for line in other if "Gmean" in line] == [
    "| | | - | | Gmean of drain/empty: none, no row has both means above 0; left out, a mean "
    "not above 0: drain/empty/ipi-mask vs ipi-all [cpus:2/threads:1], drain/empty/remote vs "
    "ipi-all [cpus:2/threads:1] | |"], "no Gmean where every row is 0:\n" + "\n".join(other))
# The effect as a ratio: the median of the 25 ratios ipi-mask/ipi-all, its interval the
# 3rd smallest and 3rd largest (as the worked example above: c = 3 for 5 a side); it
# stays above 0 where a shift in percent of the baseline's median passes -100%.
p = script("compare", FAMILIES, "--format=json")
doc = json.loads(p.stdout) if p.returncode == 0 else {"rows": [], "gmean": []}
effect = {r["case"].split(" vs ")[0]: r["effect"] for r in doc["rows"]}
ratios = sorted(y / x for x in (700, 704, 705, 710, 720) for y in (23, 23.2, 23.4, 23.5, 24))
got = effect.get("drain/empty/ipi-mask") or {}
check(all(abs(got.get(k, 0) - want) < 1e-12 for k, want in
          (("ratio", ratios[12]), ("low", ratios[2]), ("high", ratios[-3]))) and
      abs(got.get("level", 0) - (1 - 8 / 252)) < 1e-12 and
      "Hodges-Lehmann shift of the logs" in doc.get("effect_method", ""),
      f"the effect's ratio and interval: {got}")
check([(g["family"], g["rows"], g["left_out"]) for g in doc["gmean"]] ==
      [("bdp", 2, []), ("drain/empty", 2, [])], f"the JSON's Gmean per family: {doc['gmean']}")
far = ([100, 101, 102, 103, 400], [1, 2, 3, 4, 5])
check(compare_mod.hl_effect(*far)[1] / 102 < -1 and
      abs(compare_mod.effect_ratio(*far)[1] - 3 / 400) < 1e-15 and
      compare_mod.effect_text(*far).endswith(" [0.00750, 0.0490]"),
      f"the interval as a ratio stays above 0: {compare_mod.effect_text(*far)}")
# The knob table: its machine line leaves the swept knob out; exact figures as above.
with tempfile.TemporaryDirectory() as tmp:
    for value in ("auto", "0"):
        d = json.load(open(FAMILIES))
        for key in ("mmscale_params", "mmscale_knobs"):
            d["context"][key] = d["context"][key].replace("stat_threshold=auto",
                                                          f"stat_threshold={value}")
        json.dump(d, open(os.path.join(tmp, f"stat_threshold={value}.json"), "w"))
    p = script("compare", tmp, "--metric", "folds")
    lines = p.stdout.splitlines()
    block = lines[lines.index("bdp/2.6.31-rc8 [threads:1]"):][:4] \
        if "bdp/2.6.31-rc8 [threads:1]" in lines else []
    check(p.returncode == 0 and
          "emulated machine (but stat_threshold): swap=no vmstat_interval=100ms (dirty/: "
          "100us) device=250pages/ms throttle=10s; otherwise the defaults (mmscale --help)"
          in lines and len(block) == 4 and block[1].split()[:3] == ["stat_threshold", "folds",
                                                                    "diff"] and
          block[3].split()[:4] == ["0", "0.0415..0.0417", "+0.0%", "exact"],
          f"the knob table's machine line and exact figures:\n{p.stdout}{p.stderr}")
# No empty table: results without a floor case print one line, never a header alone.
for extra in ([], ["--markdown"]):
    p = script("floor_table.py", os.path.join(FIX, "before.json"), *extra)
    check(p.returncode == 0 and p.stdout ==
          "floor table: no floor case (c2c/, harness/, ipi/) in these results\n",
          f"floor_table.py without a floor case {extra}:\n{p.stdout}{p.stderr}")


def quick_rows(path):
    """quick_tables.py PATH --markdown -> ({(table title, case before ' vs '): cells}, stdout)."""
    p = script("quick_tables.py", path, "--markdown")
    rows, title = {}, ""
    for line in p.stdout.splitlines():
        if line.startswith("**"):
            title = line.strip("*")
        elif line.startswith("| ") and " vs " in line:
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            rows[(title.split(" (")[0], cells[3].split(" vs ")[0])] = cells
    return rows, p.stdout


rows, out = quick_rows(FAMILIES)
check(rows.get(("bdp: ns per operation", "bdp/cached-locals-v2"), [])[:2] == ["31.0", "28.0"] and
      rows.get(("drain/empty: ns per operation", "drain/empty/ipi-mask"), [])[:2] ==
      ["706.3 (3.21)", "23.4 (0.153)"] and
      rows.get(("bdp: global counter reads per call", "bdp/cached-locals-v2"), [])[:2] ==
      ["14", "9"] and
      rows.get(("drain/empty: locked read-modify-writes per operation, machine-wide",
                "drain/empty/remote"), [])[:2] == ["134144", "2079.42..2080.5"],
      f"quick_tables.py: no s.d. from 3 runs, exact counts as they are:\n{out}")
with tempfile.TemporaryDirectory() as tmp:
    d = json.load(open(FAMILIES))
    aggregates_only = dict(d, benchmarks=[b for b in d["benchmarks"]
                                          if b["run_type"] == "aggregate"])
    json.dump(aggregates_only, open(os.path.join(tmp, "aggregates.json"), "w"))
    rows, out = quick_rows(os.path.join(tmp, "aggregates.json"))
    check(rows.get(("drain/empty: locked read-modify-writes per operation, machine-wide",
                    "drain/empty/remote"), [])[:2] == ["134144", "2079.42 (varies)"] and
          rows.get(("bdp: ns per operation", "bdp/3.2"), [])[:2] == ["31.0", "13.5"],
          f"quick_tables.py from aggregates only: an exact count that varied says so:\n{out}")
    baseline_only = dict(d, benchmarks=[b for b in d["benchmarks"] if "/ipi-all/" in b["name"]])
    json.dump(baseline_only, open(os.path.join(tmp, "baseline.json"), "w"))
    p = script("quick_tables.py", os.path.join(tmp, "baseline.json"))
    check(p.returncode == 0 and p.stdout == "no variant tables: no family has its baseline and "
          "a variant in these results\n", f"quick_tables.py with no table: {p.stdout}")
for bad in ([os.path.join(FIX, "nope.json")], [os.path.join(FIX, "before.json")] * 3):
    p = script("compare", *bad)
    check(p.returncode == 2 and len(p.stderr.strip().splitlines()) == 1, f"compare {bad}: {p.stderr}")
# A metric no case reports is not a failure: one line, exit 0.
p = script("compare", os.path.join(FIX, "before.json"), "--metric", "no_such_counter")
check(p.returncode == 0 and p.stderr == "" and
      p.stdout == "no_such_counter: no case in these results reports this metric\n",
      f"compare --metric no_such_counter: exit {p.returncode}\n{p.stdout}{p.stderr}")

# Runs that cannot be used are named, one line each, and counted; the tables
# still print, and the exit status is 1.
ERR = os.path.join(FIX, "errored.json")
UNUSABLE = [
    f"{ERR}: bdp/cached-locals-v2/real_time/threads:1 (repetition 2): errored: page "
    "conservation failed: 3 pages lost (fixture)",
    f"{ERR}: bdp/2.6.31-rc8/real_time/threads:1 (repetition 4): no real_time",
    f"{ERR}: c2c/mailbox/real_time/threads:1 (repetition 1): errored: CPU 1 did not answer a "
    "cross-CPU call within 10000 ms (it was: idle)",
]
COUNT = "3 unusable runs (2 errored, 1 no real_time)"


def names_unusable(lines, who, what):
    want = [f"{who}: unusable run: {u}" for u in UNUSABLE]
    check(lines == want, f"{what} names each unusable run:\n" + "\n".join(lines))


p = script("compare", ERR)
check(p.returncode == 1, f"compare with unusable runs exits 1, not {p.returncode}")
names_unusable(p.stderr.splitlines(), "compare", "compare")
check("bdp/cached-locals-v2 vs 2.6.31-rc8 [threads:1] (4/4)" in p.stdout and
      p.stdout.endswith(f"\nleft out: {COUNT}, named on stderr\n"),
      f"compare prints its table, then counts the unusable runs:\n{p.stdout}")
p = script("compare", os.path.join(FIX, "before.json"), ERR)
check(p.returncode == 1 and "bdp/2.6.31-rc8/real_time/threads:1 (5/4)" in p.stdout and
      f"left out: {COUNT}" in p.stdout, f"compare before/after with unusable runs:\n{p.stdout}")
names_unusable(p.stderr.splitlines(), "compare", "compare before/after")
p = script("compare", ERR, "--quiet", "--metric", "global_reads")
check(p.returncode == 1 and p.stderr == "" and p.stdout.endswith(f"\nleft out: {COUNT}\n"),
      f"compare --quiet counts without naming: {p.returncode}\n{p.stdout}{p.stderr}")
with tempfile.TemporaryDirectory() as tmp:
    d = json.load(open(ERR))
    d["benchmarks"] = [b for b in d["benchmarks"] if b.get("error_occurred")]
    only = os.path.join(tmp, "only-errored.json")
    json.dump(d, open(only, "w"))
    p = script("compare", only)
    check(p.returncode == 1 and p.stderr.splitlines()[-1] ==
          f"compare: {only} has no usable runs: 2 unusable runs (2 errored)",
          f"compare, every run errored: {p.returncode} {p.stderr}")
p = script("floor_table.py", ERR)
check(p.returncode == 1 and p.stdout.startswith("command: ") and
      p.stdout.splitlines()[1].startswith("case ") and
      "c2c/mailbox/real_time/threads:1" in p.stdout and
      p.stdout.endswith(f"\nleft out: {COUNT}, named on stderr\n"),
      f"floor_table.py with unusable runs: exit {p.returncode}\n{p.stdout}")
names_unusable(p.stderr.splitlines(), "floor_table", "floor_table.py")
# The note comes from the runs: Google Benchmark blanks an aggregate's label
# when the runs' labels differ (one migrated run), which must not hide "stand-in".
with tempfile.TemporaryDirectory() as tmp:
    d = json.load(open(ERR))
    runs = [b for b in d["benchmarks"] if b["name"].startswith("c2c/mailbox/")
            and not b.get("error_occurred")]
    for b, label in zip(runs, ["stand-in, not for timing", "stand-in, not for timing, migrated"]):
        b["label"] = label
    d["benchmarks"].append(dict(runs[0], run_type="aggregate", aggregate_name="trimmed_mean",
                                label=""))
    labelled = os.path.join(tmp, "labelled.json")
    json.dump(d, open(labelled, "w"))
    p = script("floor_table.py", labelled)
    row = [l for l in p.stdout.splitlines() if l.startswith("c2c/mailbox/")]
    check(len(row) == 1 and row[0].endswith(
        "  stand-in, not for timing (1 of 2 runs); stand-in, not for timing, migrated (1 of 2 runs)"),
        f"floor_table.py's note from runs whose labels differ:\n{p.stdout}")
p = script("quick_tables.py", ERR)
check(p.returncode == 1 and "bdp/cached-locals-v2 vs 2.6.31-rc8 [threads:1] (4)" in p.stdout and
      p.stdout.endswith(f"\nleft out: {COUNT}, named on stderr\n"),
      f"quick_tables.py with unusable runs: exit {p.returncode}\n{p.stdout}")
names_unusable(p.stderr.splitlines(), "quick_tables", "quick_tables.py")
for name in ("floor_table.py", "quick_tables.py"):
    p = script(name, os.path.join(FIX, "before.json"))
    check(p.returncode == 0 and p.stderr == "" and "left out" not in p.stdout,
          f"{name} on clean results: exit {p.returncode} {p.stderr}")
with tempfile.TemporaryDirectory() as tmp:
    p = script("plot", ERR, "--out", tmp)
    check(p.returncode == 1 and p.stderr.splitlines()[-1].endswith(f"; left out: {COUNT}"),
          f"plot with unusable runs: exit {p.returncode} {p.stderr}")
    names_unusable(p.stderr.splitlines()[:-1], "plot", "plot")

# The results' contract: mmresults takes each run's family, variant,
# arguments and threads from mmscale_runs where the results have it (what
# the name alone would say, otherwise), and the knobs the run ran with.
with tempfile.TemporaryDirectory() as tmp:
    d = json.load(open(os.path.join(FIX, "before.json")))
    plain = mmresults.load(os.path.join(FIX, "before.json"), quiet=True)
    name = plain[0]["name"]
    d["mmscale_runs"] = {name: {"name": "x", "family": "contract-family", "variant": "v",
                                "args": {"writers": 3, "k": 4}, "threads": 7,
                                "knobs": {"pcp_batch": "auto"},
                                "knobs_requested": {"pcp_batch": 7}}}
    path = os.path.join(tmp, "contract.json")
    json.dump(d, open(path, "w"))
    recs = mmresults.load(path, quiet=True)
    by_contract = [r for r in recs if r["name"] == name]
    check(by_contract and all((r["family"], r["variant"], r["params"], r["threads"],
                               r["knobs_ran"], r["knobs_requested"]) ==
                              ("contract-family", "v", "writers:3/k:4", 7, {"pcp_batch": "auto"},
                               {"pcp_batch": 7}) for r in by_contract),
          f"mmresults reads the contract: {[(r['family'], r['params']) for r in by_contract]}")
    others = [(r["name"], r["family"], r["variant"], r["params"], r["threads"])
              for r in recs if r["name"] != name]
    check(others and others == [(r["name"], r["family"], r["variant"], r["params"], r["threads"])
                                for r in plain if r["name"] != name],
          "a run the contract lacks is named from its name, as before")

# The sweep folder: CSV schema and the linear column; plots.
sweep = load_sweep_module()
with tempfile.TemporaryDirectory() as tmp:
    os.makedirs(os.path.join(tmp, "raw"))
    shutil.copy(os.path.join(FIX, "before.json"), os.path.join(tmp, "raw", "compact-t1.json"))
    shutil.copy(os.path.join(FIX, "t2.json"), os.path.join(tmp, "raw", "compact-t2.json"))
    n, unusable = sweep.write_csv(tmp)
    check(n == 20 and unusable == [], f"csv rows {n}, unusable {unusable}")
    with open(os.path.join(tmp, "results.csv")) as f:
        rows = list(csv.DictReader(f))
        header = list(rows[0].keys())
    check(header[:len(sweep.FIXED_COLUMNS)] == sweep.FIXED_COLUMNS, f"csv fixed columns {header}")
    check(header[-len(sweep.CONTEXT_COLUMNS):] == sweep.CONTEXT_COLUMNS, "csv context columns")
    check("global_reads" in header and "bdi_reads" in header, "csv counter columns")
    t1_ops = [1e9 / t for t in (50, 52, 51, 53, 60)]
    want = mmresults.trimmed(t1_ops)[0] * 2
    t2 = [r for r in rows if r["name"] == "bdp/2.6.31-rc8/real_time/threads:2"]
    check(len(t2) == 5 and all(abs(float(r["linear"]) - want) / want < 1e-5 for r in t2),
          f"linear column: {[r['linear'] for r in t2]} want {want}")
    check(all(r["mmscale_git_revision"] == "fixture" and r["placement"] == "compact" for r in rows),
          "csv context values")
    p = script("plot", tmp)
    made = sorted(os.listdir(os.path.join(tmp, "plots")))
    check(p.returncode == 0 and {"scaling-bdp.png", "scaling-bdp.svg", "counts-bdp.png",
                                 "counts-bdp.svg"} <= set(made), f"plots {made} {p.stderr}")
    check(all(os.path.getsize(os.path.join(tmp, "plots", f)) > 1000 for f in made), "plots not empty")
    # An errored run in a unit: sweep's CSV writing names it and counts it.
    shutil.copy(ERR, os.path.join(tmp, "raw", "compact-t1.json"))
    with contextlib.redirect_stderr(io.StringIO()) as err:
        n, unusable = sweep.write_csv(tmp)
    raw1 = os.path.join(tmp, "raw", "compact-t1.json")
    want = [f"sweep: unusable run: {u.replace(ERR, raw1)}" for u in UNUSABLE]
    check(err.getvalue().splitlines() == want, f"write_csv names the unusable runs:\n{err.getvalue()}")
    check(n == 20 and len(unusable) == 3 and mmresults.count_unusable(unusable) == COUNT,
          f"write_csv counts them: {n} rows, {mmresults.count_unusable(unusable)}")
    with open(os.path.join(tmp, "results.csv")) as f:
        rows = list(csv.DictReader(f))
    check(not any(r["real_time_ns"] in ("", "0") for r in rows), "no unusable run in the csv")

# --threads auto is mmscale's --threads=auto (the topology's boundaries,
# bench/plan.c; tested on the machine topologies by bench/tests/machines_check):
# the sweep takes the list --describe=json --threads=auto prints, and refuses
# one that is not a sorted list within the plan.
STANDIN = "--topology=synthetic:node:128 core:8 pu:1"
WANT_128 = [1, 8, 16, 24, 32, 64, 128, 256, 512, 768, 1024]
with open(os.path.join(FIX, "describe-128.json")) as f:
    d128 = json.load(f)
check(sweep.auto_threads(d128) == WANT_128, f"auto on the 128-node stand-in: {sweep.auto_threads(d128)}")
for bad in ([], [2, 1], [0, 1], [1, 2048]):
    try:
        sweep.auto_threads({"plan": {"cpus": 1024}, "threads": bad})
        check(False, f"auto accepted threads {bad}")
    except ValueError:
        pass

# No silent loss: a script whose output cannot be written (standard output on
# /dev/full, a plot beyond `ulimit -f`) exits 1 with one line naming the file,
# and leaves no .partial file.
p = subprocess.run(f"{sys.executable} {SCRIPTS}/compare {FIX}/before.json {FIX}/after.json "
                   "> /dev/full", shell=True, capture_output=True, text=True, timeout=300)
check(p.returncode == 1 and p.stderr.splitlines() == [
    "compare: standard output: No space left on device"],
    f"compare > /dev/full: {p.returncode}\n{p.stderr}")
with tempfile.TemporaryDirectory() as tmp:
    p = subprocess.run(f"ulimit -f 1; trap '' XFSZ; {sys.executable} {SCRIPTS}/plot "
                       f"{FIX}/before.json --out {tmp}/plots", shell=True, capture_output=True,
                       text=True, timeout=300, executable="/bin/bash")
    left = sorted(os.listdir(os.path.join(tmp, "plots"))) if os.path.isdir(
        os.path.join(tmp, "plots")) else []
    check(p.returncode == 1 and len(p.stderr.splitlines()) == 1 and
          re.match(rf"plot: {tmp}/plots/\S+\.png: File too large$", p.stderr.strip()) and
          not any(f.endswith(".partial") for f in left),
          f"plot into a full file limit: {p.returncode}\n{p.stderr}{left}")

# A sweep where mmscale fails: fixtures/fake_mmscale stands in for it.
with tempfile.TemporaryDirectory() as tmp:
    fake = os.path.join(tmp, "fake_mmscale")
    shutil.copy(os.path.join(FIX, "fake_mmscale"), fake)
    os.chmod(fake, 0o755)
    log = os.path.join(tmp, "calls")
    env = dict(os.environ, MMSCALE=fake, FAKE_LOG=log,
               FAKE_DESCRIBE=os.path.join(FIX, "describe-128.json"))

    def calls():
        if not os.path.exists(log):
            return []
        with open(log) as f:
            return [json.loads(l) for l in f]

    def unit_calls():
        """The calls that ran a unit (not the machine/ snapshot's --describe, nor
        the estimate's probe, whose results go to a sweep-probe- folder)."""
        return [c for c in calls() if any(a.startswith("--benchmark_out=") and
                                          "/sweep-probe-" not in a for a in c)]

    def read(path):
        try:
            with open(path) as f:
                return f.read()
        except OSError as e:
            return str(e)

    # The planning goes through the binary's --describe=json with the mmscale flags.
    saved, sweep.MMSCALE = sweep.MMSCALE, fake
    os.environ["FAKE_LOG"], os.environ["FAKE_DESCRIBE"] = log, env["FAKE_DESCRIBE"]
    got = sweep.thread_counts("auto", [STANDIN])
    sweep.MMSCALE = saved
    del os.environ["FAKE_LOG"], os.environ["FAKE_DESCRIBE"]
    check(got == WANT_128 and calls() == [["--describe=json", "--threads=auto", STANDIN]],
          f"auto through --describe=json: {calls()}")
    os.unlink(log)

    out = os.path.join(tmp, "sw")
    sweep_args = [sys.executable, os.path.join(SCRIPTS, "sweep"), "--threads", "1,2,4,8,16",
                  "--placements", "compact", "--repetitions", "3", "--out", out]
    p = subprocess.run(sweep_args, capture_output=True, text=True, timeout=300,
                       env=dict(env, FAKE_MMSCALE="2:errored,4:nojson,16:crash"))
    err = p.stderr.splitlines()
    check(p.returncode == 1, f"sweep with failed units exits 1, not {p.returncode}:\n{p.stderr}")
    check([c[1] for c in unit_calls()] == [f"--threads={t}" for t in (1, 2, 4, 8, 16)],
          f"every unit ran after the failures: {calls()}")
    kept = sorted(os.listdir(os.path.join(out, "raw"))) if os.path.isdir(os.path.join(out, "raw")) else []
    check(kept == ["compact-t1.json", "compact-t2.json", "compact-t8.json"],
          f"exit 1 keeps its JSON, no JSON or a crash keeps nothing: {kept}")
    bad_line = ("bdp/cached-locals-v2/real_time/threads:2 (repetition 1): errored: accounting check "
                "failed: nr_dirty off by 3 (fake)")
    check(f"sweep: unusable run: {out}/raw/compact-t2.json: {bad_line}" in err,
          f"sweep names the errored run:\n{p.stderr}")
    check("sweep: FAILED unit placement=compact threads=4: mmscale exit 1 (mmscale: too many "
          "benchmark registrations (fake)); nothing kept" in err and
          "sweep: FAILED unit placement=compact threads=16: mmscale killed by SIGABRT; nothing kept"
          in err, f"sweep names the failed units:\n{p.stderr}")
    problems = "3 of 5 units (compact-t2, compact-t4, compact-t16), 1 unusable run (1 errored)"
    check(err and err[-1] == f"sweep: 17 runs; {out}/results.csv, {out}/summary.md, {out}/plots/; "
          f"FAILED: {problems}; named above and in summary.md", f"sweep's last line: {err[-1:]}")
    rows = list(csv.DictReader(io.StringIO(read(os.path.join(out, "results.csv")))))
    check(len(rows) == 17 and sum(r["threads"] == "2" for r in rows) == 5,
          f"results.csv holds the finished runs of every unit it kept: {len(rows)}")
    summary = read(os.path.join(out, "summary.md"))
    check(f"**Failed: {problems}.**" in summary and
          f"- unusable run: raw/compact-t2.json: {bad_line}\n" in summary and
          "- unit compact-t16: mmscale killed by SIGABRT; nothing kept\n" in summary and
          "bdp/cached-locals-v2 vs 2.6.31-rc8 [threads:2] | 3/2 |" in summary,
          f"summary.md counts and names the failures, then the tables:\n{summary}")
    check(os.path.isdir(os.path.join(out, "plots")) and
          any(f.endswith(".png") for f in os.listdir(os.path.join(out, "plots"))), "plots written")
    # --resume runs the units that kept nothing; the errored run still fails the sweep.
    p = subprocess.run([*sweep_args[:-2], "--resume", out], capture_output=True, text=True,
                       timeout=300, env=env)
    check(p.returncode == 1 and "3 already done" in p.stderr and
          p.stderr.splitlines()[-1].endswith("FAILED: 1 unusable run (1 errored); named above "
                                              "and in summary.md"),
          f"resume after failures: {p.returncode}\n{p.stderr}")
    check(len(glob.glob(os.path.join(out, "raw", "*.json"))) == 5, "resume ran the discarded units")
    # Bad input still stops the sweep at once with exit 2: the estimate's probe
    # meets it, before any unit runs.
    os.unlink(log)
    out2 = os.path.join(tmp, "sw2")
    p = subprocess.run([*sweep_args[:-1], out2], capture_output=True, text=True, timeout=300,
                       env=dict(env, FAKE_MMSCALE="2:badinput"))
    check(p.returncode == 2 and p.stderr.splitlines()[-1] ==
          "sweep: compact threads=2: mmscale: --fake: bad input (fake)" and
          len(unit_calls()) == 0 and not os.path.exists(os.path.join(out2, "results.csv")),
          f"bad input stops the sweep: {p.returncode}\n{p.stderr}")

    # scripts/run with MMSCALE set: no scripts/setup (a trap on PATH would see it),
    # flags after -- reach mmscale, every table prints, then exit 1 naming the steps.
    trap = setup_trap(tmp)
    run_env = dict(env, PATH=trap + os.pathsep + os.environ["PATH"])
    os.unlink(log)
    out3 = os.path.join(tmp, "run")
    p = subprocess.run([os.path.join(SCRIPTS, "run"), "--out", out3, "--repetitions", "3", "--",
                        "--fake-flag=1"], capture_output=True, text=True, timeout=300,
                       env=dict(run_env, FAKE_MMSCALE="1:errored"))
    check(p.returncode == 1, f"scripts/run with a failed unit exits 1, not {p.returncode}:\n{p.stderr}")
    check(not os.path.exists(os.path.join(trap, "ran")), "scripts/run with MMSCALE set ran scripts/setup")
    check(all("--fake-flag=1" in c and "--" not in c for c in calls()),
          f"flags after -- reach mmscale, without the --: {calls()}")
    check("bdp/cached-locals-v2 vs 2.6.31-rc8 [threads:1] (3/2)" in p.stdout and
          "global_reads: trimmed mean" in p.stdout and
          "victim_lost_pct: no case in these results reports this metric" in p.stdout and
          "raw Google Benchmark JSON:" in p.stdout, f"scripts/run printed every table:\n{p.stdout}")
    check(p.stderr.splitlines()[-1:] and p.stderr.splitlines()[-1].startswith(
        "run: FAILED: sweep (exit 1), floor table (exit 1), compare (exit 1), compare --metric "
        "global_reads,bdi_reads,lock_acquires,locked_ops,ipis_sent,MiB_per_s,victim_lost_pct,nr_written "
        "(exit 1)"),
        f"scripts/run names the failed steps: {p.stderr.splitlines()[-1:]}")

# An interrupted sweep keeps what finished and resumes (needs the built mmscale).
mmscale = os.environ.get("MMSCALE")
if mmscale and os.access(mmscale, os.X_OK):
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "sw")
        args = [sys.executable, os.path.join(SCRIPTS, "sweep"), "--cases", "^c2c/ticket_lock",
                "--threads", "1,2", "--placements", "compact", "--repetitions", "1",
                "--min-time", "1", "--out", out, "--", "--papi-events=none"]
        proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                start_new_session=True)
        first = os.path.join(out, "raw", "compact-t1.json")
        deadline = time.time() + 300
        while not os.path.exists(first) and proc.poll() is None and time.time() < deadline:
            time.sleep(0.05)
        os.killpg(proc.pid, signal.SIGINT)	# unit 2 is running now
        _, err = proc.communicate(timeout=300)
        check(proc.returncode == 130, f"interrupted sweep exit {proc.returncode}: {err}")
        check("interrupted during placement=compact threads=2" in err, f"names the unit: {err}")
        check(sorted(os.listdir(os.path.join(out, "raw"))) == ["compact-t1.json"],
              f"finished unit kept, partial discarded: {os.listdir(os.path.join(out, 'raw'))}")
        # --resume runs exactly the planned units with the recorded parameters:
        # a flag that contradicts them is bad input, and nothing runs.
        sweep_cmd = [sys.executable, os.path.join(SCRIPTS, "sweep")]
        p = subprocess.run([*sweep_cmd, "--min-time", "0.05", "--resume", out],
                           capture_output=True, text=True, timeout=300)
        check(p.returncode == 2 and p.stderr.splitlines() == [
            f"sweep: --resume {out}: --min-time '0.05' contradicts the sweep's '1.0' "
            "(sweep.json); leave it out to continue the sweep, or start a new one"] and
            sorted(os.listdir(os.path.join(out, "raw"))) == ["compact-t1.json"],
            f"resume with another --min-time: {p.returncode}\n{p.stderr}")
        p = subprocess.run([*sweep_cmd, "--resume", out, "--", "--papi-events=none", "--swap=no"],
                           capture_output=True, text=True, timeout=300)
        check(p.returncode == 2 and "-- flags '--papi-events=none --swap=no' contradicts" in p.stderr,
              f"resume with other mmscale flags: {p.returncode}\n{p.stderr}")
        p = subprocess.run([*sweep_cmd, "--resume", out, "--dry-run"], capture_output=True,
                           text=True, timeout=300)
        check(p.returncode == 0 and "1 already done; 1 to run: 1 runs x 1 repetitions, "
              "estimated " in p.stderr and "compact-t2: 1 runs" in p.stdout and
              sorted(os.listdir(os.path.join(out, "raw"))) == ["compact-t1.json"],
              f"resume --dry-run: {p.returncode}\n{p.stdout}{p.stderr}")
        p = subprocess.run([*sweep_cmd, "--resume", out], capture_output=True, text=True,
                           timeout=300)
        check(p.returncode == 0 and "1 already done" in p.stderr and "[1/1]" in p.stderr,
              f"resume: {p.stderr}")
        with open(os.path.join(out, "results.csv")) as f:
            names = {r["name"] for r in csv.DictReader(f)}
        check(names == {"c2c/ticket_lock/real_time/threads:1", "c2c/ticket_lock/real_time/threads:2"},
              f"both units in the csv: {names}")
        # The machine, beside raw/: the topology from mmscale's hwloc (it loads
        # back as a stand-in), the vm sysctls as /proc/sys/vm has them, what is absent.
        machine = os.path.join(out, "machine")
        have = sorted(os.listdir(machine)) if os.path.isdir(machine) else []
        check({"ABSENT", "topology.xml", "describe.json", "sysctl-vm.txt", "cmdline.txt",
               "uname.txt"} <= set(have), f"the sweep's machine/: {have}")
        p = subprocess.run([mmscale, f"--topology=xml:{machine}/topology.xml", "--describe"],
                           capture_output=True, text=True)
        check(p.returncode == 0 and "xml stand-in" in p.stdout,
              f"machine/topology.xml loads: {p.returncode} {p.stderr}")
        sysctl = open(os.path.join(machine, "sysctl-vm.txt")).read() if have else ""
        check(f"/proc/sys/vm/dirty_ratio = {open('/proc/sys/vm/dirty_ratio').read().strip()}\n"
              in sysctl, "machine/sysctl-vm.txt has dirty_ratio as /proc/sys/vm does")
        ctx2 = json.load(open(os.path.join(out, "raw", "compact-t2.json")))["context"]
        check("--benchmark_min_time=1.0" in ctx2.get("mmscale_command", "") and
              "--papi-events=none" in ctx2.get("mmscale_command", ""),
              f"the resumed unit ran with the recorded parameters: {ctx2.get('mmscale_command')}")
        # A unit run with other flags (copied in) is refused by every reader, named.
        doc = json.load(open(os.path.join(out, "raw", "compact-t2.json")))
        doc["context"]["mmscale_command"] = doc["context"]["mmscale_command"].replace(
            "--benchmark_repetitions=1", "--benchmark_repetitions=10")
        with open(os.path.join(out, "raw", "compact-t2.json"), "w") as f:
            json.dump(doc, f)
        p = subprocess.run([sys.executable, os.path.join(SCRIPTS, "compare"), out],
                           capture_output=True, text=True, timeout=300)
        check(p.returncode == 1 and f"compare: unusable run: {out}/raw/compact-t2.json: (every run "
              "of the unit): other parameters: unit compact-t2 was run as" in p.stderr,
              f"compare refuses a unit with other parameters: {p.returncode}\n{p.stderr}")
        # A sweep.json that is not what the sweep writes: one line, exit 2.
        bad_dir = os.path.join(tmp, "bad")
        os.makedirs(os.path.join(bad_dir, "raw"))
        with open(os.path.join(bad_dir, "sweep.json"), "w") as f:
            json.dump({"params": {"cases": "."}, "units": []}, f)
        p = subprocess.run([*sweep_cmd, "--resume", bad_dir], capture_output=True, text=True,
                           timeout=300)
        check(p.returncode == 2 and len(p.stderr.splitlines()) == 1 and
              "not as scripts/sweep writes it (no thread_counts, params.threads, "
              "params.placements)" in p.stderr and "Traceback" not in p.stderr,
              f"resume with a broken sweep.json: {p.returncode}\n{p.stderr}")
        # --budget: an estimate above it stops the sweep before it starts.
        out_b = os.path.join(tmp, "budget")
        p = subprocess.run([*sweep_cmd, "--cases", "^c2c/ticket_lock", "--threads", "1,2",
                            "--placements", "compact", "--repetitions", "3", "--min-time", "2",
                            "--budget", "5", "--out", out_b], capture_output=True, text=True,
                           timeout=300)
        check(p.returncode == 2 and "exceeds --budget 5 (5 s): nothing run" in p.stderr and
              not os.path.exists(out_b), f"--budget: {p.returncode}\n{p.stderr}")
        # An interrupt while it draws its plots: one line, no traceback.
        proc = subprocess.Popen([*sweep_cmd, "--resume", out], stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True, start_new_session=True,
                                env=dict(os.environ, MMSCALE_TEST_PAUSE_BEFORE_PLOTS="1"))
        deadline = time.time() + 300
        while not os.path.exists(os.path.join(out, ".paused")) and proc.poll() is None and \
                time.time() < deadline:
            time.sleep(0.05)
        os.killpg(proc.pid, signal.SIGINT)
        _, err = proc.communicate(timeout=300)
        check(proc.returncode == 130 and err.splitlines()[-1:] == [
            f"sweep: interrupted; every finished unit is in {out}/raw; scripts/sweep --resume "
            f"{out} writes the CSV, plots and summary again"] and "Traceback" not in err,
            f"sweep interrupted while plotting: {proc.returncode}\n{err}")
    # --threads auto on the real binary's --describe=json, the 128-node stand-in.
    sweep.MMSCALE = mmscale
    check(sweep.thread_counts("auto", [STANDIN]) == WANT_128, "auto from the real --describe=json")
    # scripts/run as the README has it, end to end: flags after -- go to mmscale.
    with tempfile.TemporaryDirectory() as tmp:
        trap = setup_trap(tmp)
        out = os.path.join(tmp, "quick")
        p = subprocess.run([os.path.join(SCRIPTS, "run"), "--out", out, "--cases", "^c2c/pingpong",
                            "--repetitions", "3", "--min-time", "0.01", "--",
                            "--topology=synthetic:node:2 core:1 pu:1"], capture_output=True,
                           text=True, timeout=300,
                           env=dict(os.environ, PATH=trap + os.pathsep + os.environ["PATH"]))
        check(p.returncode == 0, f"scripts/run -- --topology=...: exit {p.returncode}\n{p.stderr}")
        check(not os.path.exists(os.path.join(trap, "ran")), "scripts/run with MMSCALE set ran scripts/setup")
        check(any(l.startswith("c2c/pingpong/real_time/threads:1 ") and "stand-in" in l
                  for l in p.stdout.splitlines()) and "raw Google Benchmark JSON:" in p.stdout,
              f"scripts/run's floor table:\n{p.stdout}")
        try:
            ctx = json.load(open(os.path.join(out, "raw", "compact-t1.json")))["context"]
        except (OSError, ValueError, KeyError) as e:
            ctx = {"error": str(e)}
        check("'node:2 core:1 pu:1'" in ctx.get("mmscale_topology", ""),
              f"the topology after -- reached mmscale: {ctx.get('mmscale_topology', ctx)}")
    # throttle/: a case name with '=' splits right (the variants of its family found),
    # compare prints the seed-004 table, plot draws the traces and the control lines.
    with tempfile.TemporaryDirectory() as tmp:
        trace = os.path.join(tmp, "trace")
        out = os.path.join(tmp, "throttle.json")
        p = subprocess.run([mmscale, "--benchmark_filter=^throttle/JBOD-10HDD-thresh=100M/xfs-2dd",
                            "--throttle-seconds=2", "--throttle-trace=" + trace,
                            "--papi-events=none", "--benchmark_repetitions=2",
                            "--benchmark_out=" + out], capture_output=True, text=True, timeout=300)
        check(p.returncode == 0, f"a throttle/ run: exit {p.returncode}\n{p.stderr}")
        p = script("compare", out, "--metric", "nr_written")
        case = "throttle/JBOD-10HDD-thresh=100M/xfs-2dd-1M-16p-5895M-100M"
        check(p.returncode == 0 and f"{case}/reserve-v11 vs vanilla-3.1" in p.stdout and
              f"{case}/3.2 vs vanilla-3.1" in p.stdout, f"compare --metric nr_written:\n{p.stdout}")
        p = script("compare", out, "--metric", "nr_written", "--baseline", "reserve-v11")
        check(p.returncode == 0 and f"{case}/freerun vs reserve-v11" in p.stdout and
              f"{case}/vanilla-3.1 vs reserve-v11" in p.stdout and
              "vs vanilla-3.1" not in p.stdout,
              f"compare --baseline reserve-v11 (seed 004's first table):\n{p.stdout}")
        p = script("compare", out)
        check(p.returncode == 0 and "nothing to compare" in p.stdout and "throttle/" not in p.stdout,
              f"compare's time table leaves throttle/ out: exit {p.returncode}\n{p.stdout}")
        p = script("plot", "--throttle-trace", trace, "--out", os.path.join(tmp, "plots"))
        pngs = sorted(f for f in os.listdir(os.path.join(tmp, "plots")) if f.endswith(".png")) \
            if p.returncode == 0 else []
        # Five variants' traces (6.18's too); the control lines of the three IO-less ones of
        # 2011, in one picture.
        check(len(pngs) == 6 and sum(f.startswith("throttle-lines-") for f in pngs) == 1,
              f"plot --throttle-trace: exit {p.returncode}, {pngs}\n{p.stderr}")
        p = script("plot", "--throttle-trace", os.path.join(tmp, "no-such"))
        check(p.returncode == 2, f"plot --throttle-trace of no folder: exit {p.returncode}")

    # A knob sweep (--set): one unit per value; compare's knob table, the default marked and
    # the exact folds per update following the value; a plot against the knob.
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "knob")
        p = subprocess.run([sys.executable, os.path.join(SCRIPTS, "sweep"), "--cases",
                            "^vmstat/mod/(mod|inc)/", "--threads", "1", "--placements", "compact",
                            "--set", "stat_threshold=auto,0,127", "--repetitions", "2",
                            "--min-time", "0.01", "--out", out],
                           capture_output=True, text=True, timeout=300,
                           env=dict(os.environ, MMSCALE=mmscale))
        units = sorted(f for f in os.listdir(os.path.join(out, "raw")) if f.endswith(".json")) \
            if p.returncode == 0 else []  # (the rounds are in raw/rounds/: test_sweep.py)
        check(units == [f"compact-t1-stat_threshold={v}.json" for v in ("0", "127", "auto")],
              f"sweep --set: exit {p.returncode}, units {units}\n{p.stderr[-2000:]}")
        p = script("compare", out)
        rows = {}
        block = None
        for line in p.stdout.splitlines():
            if line.startswith("vmstat/mod/"):
                block = line.split()[0]
            elif block and line.strip() and not line.lstrip().startswith("stat_threshold"):
                # (a '~' before a noisy value's figure is not a column)
                rows[(block, line.split()[0])] = [w for w in line.split() if w != "~"]
        # folds per update: 1 at 0; none at 127 for 2.6.31's inc (its s8 wraps), 1/128 for mod.
        check(p.returncode == 0 and "auto <== default" in p.stdout and
              rows.get(("vmstat/mod/mod", "0"), [""] * 6)[5] == "1" and
              rows.get(("vmstat/mod/inc", "127"), [""] * 6)[5] in ("0", "0.0") and
              "auto, with every planned CPU online: stat_threshold: " in p.stdout,
              f"compare on a knob sweep: exit {p.returncode}\n{p.stdout}")
        # The knob tables in the frameworks' dialects: mmtests, one column per value, the
        # default first; its counts report has mod's folds per update, 1 at 0 (more than
        # auto's: a negative percent, + is better) and 1/128 at 127 (0.01); LKP, one report
        # per value against the default.
        p = script("compare", out, "--format=mmtests", "--metric", "counts")
        lines = p.stdout.splitlines()
        folds = [re.findall(r"(-?[\d.]+) [(*]\s*(-?[\d.]+)%", line) for line in lines
                 if line.startswith("Amean") and "folds-vmstat/mod/mod/" in line]
        check(p.returncode == 0 and len(lines) > 2 and
              lines[0].split() == ["stat_threshold"] * 3 and
              lines[1].split() == ["auto", "0", "127"] and folds and len(folds[0]) == 3 and
              folds[0][1][0] == "1.00" and float(folds[0][1][1]) < 0 and
              folds[0][2][0] == "0.01" and float(folds[0][2][1]) > 0,
              f"compare --format=mmtests on a knob sweep: {folds}\n{p.stdout}{p.stderr}")
        p = script("compare", out, "--format=lkp")
        check(p.returncode == 0 and
              "# stat_threshold=0 against stat_threshold=auto:" in p.stdout and
              "# stat_threshold=127 against stat_threshold=auto:" in p.stdout,
              f"compare --format=lkp on a knob sweep:\n{p.stdout}{p.stderr}")
        # A value whose runs spread over more than 10% of their mean is marked '~'.
        noisy = os.path.join(tmp, "noisy")
        shutil.copytree(out, noisy)
        unit = glob.glob(os.path.join(noisy, "raw", "*stat_threshold=127.json"))
        doc = json.load(open(unit[0])) if unit else {"benchmarks": []}
        runs = [b for b in doc["benchmarks"] if b.get("run_type") == "iteration" and
                b["name"].startswith("vmstat/mod/mod/")]
        for b, scale in zip(runs, (1, 3, 5)):
            b["real_time"] *= scale
        if unit:
            json.dump(doc, open(unit[0], "w"))
        p = script("compare", noisy)
        marked = [line for line in p.stdout.splitlines() if "~ " in line]
        check(len(runs) >= 2 and p.returncode == 0 and any(
              line.lstrip().startswith("127") for line in marked) and
              any(re.match(r"~ \d+ row\(s\)", line) for line in marked),
              f"a knob table marks the unsteady value '~':\n{p.stdout}{p.stderr}")
        p = script("compare", out, out)
        check(p.returncode == 2 and "several values of stat_threshold" in p.stderr,
              f"compare of two knob sweeps: exit {p.returncode}\n{p.stderr}")
        pngs = sorted(f for f in os.listdir(os.path.join(out, "plots")) if f.endswith(".png"))
        check(pngs == ["knob-stat_threshold-vmstat-mod-inc.png",
                       "knob-stat_threshold-vmstat-mod-mod.png"], f"knob plots: {pngs}")
        # Real runs at each knob's edges: every claim a run checks holds there too
        # (percpu/read_vs_sum's once failed at a batch of 0: its set-up add folded).
        # rss/oom_scan's 10,000 processes cost set-up time and read as rss/read does.
        counters = "^(vmstat|percpu|rss/(fault|read|drift|fork_exit))/"
        writeback = "^(bdp|bdp_throttled|dirty)/"
        # dirty/'s writers at a tiny limit crawl as the kernel's would: the benches only.
        benches = "^(bdp|bdp_throttled)/"
        pcp = "^(drain|pcp)/"
        for cases, knob in ((counters, "stat_threshold=0"), (counters, "stat_threshold=127"),
                            (counters, "percpu_counter_batch=0"),
                            (counters, "percpu_counter_batch=1"),
                            (counters, "percpu_counter_batch=2147483647"),
                            (writeback, "BDI_STAT_BATCH=0"),
                            (writeback, "BDI_STAT_BATCH=2147483647"),
                            (benches, "dirty_ratio=0"), (benches, "dirty_ratio=100"),
                            (benches, "dirty_background_ratio=0"),
                            (benches, "dirty_background_ratio=100"),
                            (benches, "dirty_background_bytes=1"),
                            (benches, "dirty_background_bytes=17592186040320"),
                            (benches, "dirty_bytes=209715200"),
                            (writeback, "ratelimit_pages=0"),
                            (writeback, "ratelimit_pages=2147483647"),
                            (pcp, "percpu_pagelist_fraction=8"),
                            (pcp, "percpu_pagelist_fraction=2147483647"),
                            (pcp, "percpu_pagelist_high_fraction=8"),
                            (pcp, "percpu_pagelist_high_fraction=2147483647"),
                            (pcp, "numa_stat=0"), (counters, "numa_stat=0"),
                            (pcp, "pcp_batch=1")):
            p = subprocess.run([mmscale, f"--benchmark_filter={cases}",
                                "--threads=1", "--benchmark_min_time=0.005",
                                "--papi-events=none", "--set", knob],
                               capture_output=True, text=True, timeout=300)
            check(p.returncode == 0, f"mmscale --set {knob}: exit {p.returncode}\n"
                                     f"{p.stderr[-1500:]}")
        # Knob values a case cannot be set up at: each run fails, named, with why
        # (pcp batch over high; a dirty limit too small for the throttled state).
        for case, knob, why in (("drain/empty/ipi-all/", "pcp_high=0", "above high 0"),
                                ("bdp_throttled/3.2/", "dirty_bytes=8192",
                                 "no throttled state at a 2-page dirty threshold")):
            p = subprocess.run([mmscale, f"--benchmark_filter=^{case}", "--threads=1",
                                "--benchmark_min_time=0.005", "--papi-events=none",
                                "--set", knob], capture_output=True, text=True, timeout=300)
            check(p.returncode == 1 and case in p.stderr and why in p.stderr,
                  f"{case} at {knob}: exit {p.returncode}\n{p.stderr[-800:]}")
        # The knob reaches throttle/'s world too: at an s32's largest every throttled
        # pass sums the bdi items over the world's 16 CPUs; at auto (40) none does (the
        # slots at auto are the completions' proportion sums alone).
        slots = {}
        for value in ("auto", "2147483647"):
            p = subprocess.run([mmscale, "--benchmark_filter=^throttle/JBOD-10HDD-thresh=100M/"
                                "xfs-1dd-.*/3.2/", "--throttle-seconds=2", "--papi-events=none",
                                "--benchmark_format=json", "--set", f"BDI_STAT_BATCH={value}"],
                               capture_output=True, text=True, timeout=300)
            runs = json.loads(p.stdout)["benchmarks"] if p.returncode == 0 else []
            slots[value] = runs[0].get("percpu_sum_slots") if len(runs) == 1 else None
            check(p.returncode == 0 and slots[value] is not None,
                  f"throttle/ at BDI_STAT_BATCH={value}: exit {p.returncode}, "
                  f"{len(runs)} runs\n{p.stderr[-800:]}")
        check(None not in slots.values() and slots["2147483647"] > slots["auto"] + 16,
              f"throttle/ percpu_sum_slots per call: {slots} (want 16 more at the max)")
        # A value mmscale refuses stops the sweep before anything runs: exit 2, one line.
        bad = os.path.join(tmp, "bad")
        p = subprocess.run([sys.executable, os.path.join(SCRIPTS, "sweep"), "--cases",
                            "^vmstat/mod/mod/", "--threads", "1", "--placements", "compact",
                            "--set", "stat_threshold=auto,128", "--out", bad],
                           capture_output=True, text=True, timeout=300,
                           env=dict(os.environ, MMSCALE=mmscale))
        check(p.returncode == 2 and "stat_threshold '128' is not auto or 0 to 127" in p.stderr
              and not os.path.exists(os.path.join(bad, "raw")),
              f"sweep --set with a bad value: exit {p.returncode}\n{p.stderr}")
        for arg in ("stat_threshold", "stat_threshold=1,1"):
            p = script("sweep", "--set", arg, "--out", bad)
            check(p.returncode == 2 and len(p.stderr.strip().splitlines()) == 1,
                  f"sweep --set {arg}: exit {p.returncode}\n{p.stderr}")
else:
    print("note: MMSCALE not set: the interrupted-sweep, real --describe=json and scripts/run "
          "checks did not run")

# scripts/new-variant: bad input is one line and exit 2, nothing written or
# overwritten; the file it writes holds the kernel's loop unchanged (the
# walkthrough builds and runs one).
p = script("new-variant", "pcp-6.18", "x")
check(p.returncode == 2 and len(p.stderr.splitlines()) == 1 and not p.stdout,
      f"new-variant with an unknown kind: exit {p.returncode} {p.stderr!r}")
p = script("new-variant", "bdp-6.18", "Not A Name")
check(p.returncode == 2 and len(p.stderr.splitlines()) == 1,
      f"new-variant with a bad name: exit {p.returncode} {p.stderr!r}")
taken = os.path.join(mmresults.ROOT, "counters", "bdp-6.18-store-if-changed.c")
before = open(taken).read()
p = script("new-variant", "bdp-6.18", "store-if-changed")
check(p.returncode == 2 and "already there" in p.stderr and open(taken).read() == before,
      f"new-variant over an existing file: exit {p.returncode} {p.stderr!r}, file kept")
# A file it writes, in a copy of what it reads (never this tree's counters/, which
# CMake's globs would build).
with tempfile.TemporaryDirectory() as tmp:
    for rel in ("scripts/new-variant", "kernel/linux-6.18/mm/page-writeback.c"):
        os.makedirs(os.path.join(tmp, os.path.dirname(rel)), exist_ok=True)
        shutil.copy(os.path.join(mmresults.ROOT, rel), os.path.join(tmp, rel))
    os.makedirs(os.path.join(tmp, "counters"))  # where the variant goes, as in the tree
    p = subprocess.run([sys.executable, os.path.join(tmp, "scripts/new-variant"), "bdp-6.18",
                        "mine"], capture_output=True, text=True)
    kernel = open(os.path.join(tmp, "kernel", "linux-6.18", "mm", "page-writeback.c")).read()
    loop = kernel[kernel.index("\nlong balance_dirty_pages_loop(struct bdi_writeback *wb)\n") + 1:]
    loop = loop[:loop.index("\n}\n") + 3]
    written = os.path.join(tmp, "counters", "bdp-6.18-mine.c")
    text = open(written).read() if os.path.exists(written) else ""
    check(p.returncode == 0 and "static " + loop in text and
          "MMSCALE_VARIANT_SYMBOL(bdp_6_18_mine, balance_dirty_pages_loop);" in text and
          'X(bdp_6_18_mine, "6.18-mine",' in p.stdout,
          f"new-variant copies 6.18's loop unchanged and prints its row: exit {p.returncode}")
    # drain-6.18: 6.18's __drain_all_pages, static under the kernel's name, and
    # the 6.18 row's claim with the comment that works it out.
    for rel in ("kernel/linux-6.18/mm/page_alloc.c", "drain/drain_6_18.c"):
        os.makedirs(os.path.join(tmp, os.path.dirname(rel)), exist_ok=True)
        shutil.copy(os.path.join(mmresults.ROOT, rel), os.path.join(tmp, rel))
    p = subprocess.run([sys.executable, os.path.join(tmp, "scripts/new-variant"), "drain-6.18",
                        "mine"], capture_output=True, text=True)
    kernel = open(os.path.join(tmp, "kernel", "linux-6.18", "mm", "page_alloc.c")).read()
    drain = kernel[kernel.index("\nvoid drain_all_pages_6_18(struct zone *zone)\n") + 1:]
    drain = drain[:drain.index("\n}\n") + 3]
    row = open(os.path.join(tmp, "drain", "drain_6_18.c")).read()
    claim = row[row.index("/*\n * No call at all."):]
    claim = claim[:claim.index("\n}\n") + 3]
    written = os.path.join(tmp, "drain", "drain_6_18_mine.c")
    text = open(written).read() if os.path.exists(written) else ""
    check(p.returncode == 0 and
          "static " + drain.replace("drain_all_pages_6_18(", "__drain_all_pages(", 1) in text and
          claim in text and "const struct drain_variant_ops drain_ops_6_18_mine = {" in text and
          ".world = &drain_world_6_18," in text and
          'X(drain_ops_6_18_mine, "6.18-mine",' in p.stdout,
          f"new-variant drain-6.18 copies 6.18's __drain_all_pages and claim, prints its row: "
          f"exit {p.returncode}")
    p = subprocess.run([sys.executable, os.path.join(tmp, "scripts/new-variant"), "drain-6.18",
                        "mine"], capture_output=True, text=True)
    check(p.returncode == 2 and "already there" in p.stderr and open(written).read() == text,
          f"new-variant drain-6.18 over an existing file: exit {p.returncode}, file kept")

report("test_scripts")
