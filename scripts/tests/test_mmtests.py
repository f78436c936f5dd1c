#!/usr/bin/python3
"""mmscale inside mmtests, end to end, against the real tree (a snapshot in
../shared/mmtests, or MMSCALE_MMTESTS_TREE): scripts/mmtests/install puts the
shellpack, driver and config into a writable copy; run-mmtests.sh runs the
shipped config-mmscale-seeds twice (its cases and min time narrowed from the
environment, the second run with --set dirty_ratio=10), and once more
without MMSCALE_BIN, so that the shellpack builds mmscale itself;
graph-mmtests.sh draws three reports' graphs, pairing the same case on each
line; the real compare-mmtests.pl
compares the two runs and its table is checked against the runs' JSON
(rows, values, percents, significance marks), for the time, counts and
nr_written reports. Then `scripts/compare --format=mmtests` must print
exactly what compare-mmtests.pl prints: on those runs, and on fixture runs
whose samples are chosen to reach the rules' corners (bands apart and
overlapping, one sample, a harmonic mean of a zero, a case only in the
baseline, two iterations, a left-out errored run, '-rcN' run names).

Without the mmtests tree this test is skipped (exit 77, named); without
what compare-mmtests.pl needs (R, the Perl modules, /usr/bin/time: the test
set of scripts/setup, which scripts/test installs) it fails, naming them."""
import copy
import glob
import itertools
import json
import math
import os
import re
import shutil
import subprocess
import tempfile
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPTS = os.path.dirname(HERE)
ROOT = os.path.dirname(SCRIPTS)
sys.path.insert(0, SCRIPTS)
import dialects  # noqa: E402
import mmresults  # noqa: E402
sys.path.insert(0, HERE)
from check import check, report  # noqa: E402  (scripts/tests/check.py)
import frameworks  # noqa: E402  (scripts/tests/frameworks.py)

SKIP = frameworks.SKIP
MMSCALE = os.environ.get("MMSCALE") or os.path.join(ROOT, "build", "mmscale")
TREE = frameworks.tree_path("MMSCALE_MMTESTS_TREE", "mmtests")
# Fast cases of the seeds config: two vmstat reads, drain/empty's rows, and
# one throttle/ scenario for nr_written (deterministic, in virtual time).
CASES = r"^(vmstat/global_read/(repeated|cached)/k:4/writers:0|drain/empty|throttle/JBOD-10HDD-6G/xfs-1dd)"
RUNS = ("stock-default", "stock-dirty10")
REPORTS = (("", "time"), ("counts", "counts"), ("nr_written", "nr_written"))


def missing_prerequisites():
    missing = []
    if not shutil.which("R"):
        missing.append("R (r-base-core)")
    for module, package in (("File::Which", "libfile-which-perl"), ("YAML::PP", "libyaml-pp-perl"),
                            ("File::Slurp", "libfile-slurp-perl")):
        if subprocess.run(["perl", f"-M{module}", "-e", "1"], capture_output=True).returncode:
            missing.append(f"{module} ({package})")
    if not os.path.exists("/usr/bin/time"):
        missing.append("/usr/bin/time (time)")
    return missing


def graph_tools_missing():
    """What graph-mmtests.sh needs and this machine lacks (Debian's yq, the
    jq wrapper, which prints JSON)."""
    missing = [f"{tool} ({package})" for tool, package in (("gnuplot", "gnuplot-nox"),
                                                          ("yq", "yq")) if not shutil.which(tool)]
    if not missing and subprocess.run(["yq", "--help"], capture_output=True,
                                      text=True).stdout.find("jq") < 0:
        missing.append("yq, Debian's (jq's wrapper)")
    return missing


def commands(tree, name):
    """The run's commands.log (the bench's log_cmd lines), or "" with a failed check."""
    logs = os.path.join(tree, "work/log", name, "iter-0/mmscale/logs")
    check(os.path.exists(os.path.join(logs, "mmscale-1.json")),
          f"{name}: the bench kept mmscale-1.json in {logs}")
    try:
        return open(os.path.join(logs, "commands.log")).read()
    except OSError as e:
        check(False, f"{name}: no commands.log: {e}")
        return ""


def check_listing_order(tree, name):
    """parse-results prints each case's samples together, the cases in
    mmscale's listing order, whatever order the repetitions ran in."""
    logs = os.path.join(tree, "work/log", name, "iter-0/mmscale/logs")
    parser = os.path.join(tree, "shellpack_src/src/mmscale/parse-results")
    p = subprocess.run([parser, logs], capture_output=True, text=True)
    printed = [line.split("\t")[1] for line in p.stdout.splitlines()]
    cases = list(dict.fromkeys(printed))
    runs = [b for b in json.load(open(os.path.join(logs, "mmscale-1.json")))["benchmarks"]
            if b["run_type"] == "iteration" and not b.get("error_occurred") and
            not b["run_name"].startswith("throttle/")]
    listed = sorted(runs, key=lambda b: (b["family_index"], b["per_family_instance_index"]))
    want = list(dict.fromkeys(re.sub(r"/(real|manual)_time", "", b["run_name"]) for b in listed))
    ran = list(dict.fromkeys(re.sub(r"/(real|manual)_time", "", b["run_name"]) for b in runs))
    check(p.returncode == 0 and cases == want and len(printed) == len(runs) and
          [case for case, _ in itertools.groupby(printed)] == cases,
          f"{name}: parse-results gives the cases in listing order, each case's samples "
          f"together (they ran as {ran[:4]}...): {cases} against {want}")


def check_contract(tree, name):
    """parse-results names each run as the results' contract (mmscale_runs)
    does: the same results with the contract's names changed print them."""
    logs = os.path.join(tree, "work/log", name, "iter-0/mmscale/logs")
    parser = os.path.join(tree, "shellpack_src/src/mmscale/parse-results")
    with tempfile.TemporaryDirectory() as tmp:
        doc = json.load(open(os.path.join(logs, "mmscale-1.json")))
        contract = doc.get("mmscale_runs", {})
        for entry in contract.values():
            entry["name"] = "contract-" + entry["name"]
        with open(os.path.join(tmp, "mmscale-1.json"), "w") as f:
            json.dump(doc, f)
        p = subprocess.run([parser, tmp], capture_output=True, text=True)
    printed = {line.split("\t")[1] for line in p.stdout.splitlines()}
    want = {e["name"] for run, e in contract.items() if not run.startswith("throttle/") and
            any(b["run_name"] == run and not b.get("error_occurred") for b in doc["benchmarks"])}
    check(p.returncode == 0 and printed and printed == want,
          f"{name}: parse-results names the runs as the results' contract does: "
          f"{sorted(printed)[:3]}... against {sorted(want)[:3]}...")


def run_mmtests(tree, config, name, **settings):
    """run-mmtests.sh with the config's MMSCALE_* settings narrowed from the
    environment, as a user narrows a run (the config's values are defaults)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("MMSCALE_")}
    env.update(ASSUME_PACKAGE_INSTALLED="yes", **settings)
    p = subprocess.run(["./run-mmtests.sh", "-n", "-c", config, name], cwd=tree, env=env,
                       capture_output=True, text=True, stdin=subprocess.DEVNULL)
    check(p.returncode == 0, f"run-mmtests.sh {name} exited {p.returncode}: {p.stdout[-800:]}")
    return p


_compared = {}


def compare_mmtests(tree, names, report_name=""):
    """compare-mmtests.pl's table (each asked once: R runs per operation)."""
    key = (tree, tuple(names), report_name)
    if key not in _compared:
        _compared[key] = _compare_mmtests(tree, names, report_name)
    return _compared[key]


def _compare_mmtests(tree, names, report_name):
    args = ["bin/compare-mmtests.pl", "-d", "work/log", "-b", "mmscale", "-n", ",".join(names)]
    if report_name:
        args += ["-a", report_name]
    p = subprocess.run(args, cwd=tree, capture_output=True, text=True)
    check(p.returncode == 0, f"compare-mmtests.pl {' '.join(args[1:])} exited {p.returncode}: "
          f"{p.stderr[-500:]}")
    return p.stdout


def our_compare(tree, names, metric):
    return subprocess.run([sys.executable, os.path.join(SCRIPTS, "compare"), "--format=mmtests",
                           "--metric", metric] +
                          [os.path.join(tree, "work", "log", n) for n in names],
                          capture_output=True, text=True)


ROW = re.compile(r"^(\S+)\s+(\S+)((?:\s+-?[\d.]+|\s+NaN)\s+[(*]\s*-?[\d.]+%[)*]"
                 r"(?:\s+-?[\d.]+\s+[(*]\s*-?[\d.]+%[)*])*)$")
CELL = re.compile(r"(-?[\d.]+|NaN)\s+([(*])\s*(-?[\d.]+)%[)*]")


def parse_table(text):
    """compare-mmtests.pl's rows -> {(stat, op): [(value, percent, marked)]}"""
    rows = {}
    for line in text.splitlines()[2:]:
        m = ROW.match(line)
        check(m is not None, f"compare-mmtests.pl row not understood: {line!r}")
        if m:
            rows[(m.group(1), m.group(2))] = [(float(v), float(p), mark == "*")
                                              for v, mark, p in CELL.findall(m.group(3))]
    return rows


def json_samples(tree, name, metric):
    """{case: [values]} straight from a run's JSON (not through the
    shellpack or scripts/compare), the way a reader of the logs would."""
    out = {}
    for f in sorted(glob.glob(os.path.join(tree, "work/log", name, "iter-*/mmscale/logs/*.json"))):
        doc = json.load(open(f))
        for b in doc["benchmarks"]:
            if b.get("run_type") == "aggregate" or b.get("error_occurred"):
                continue
            case = re.sub(r"/(real|manual)_time", "", b["run_name"])
            v = b.get("real_time") if metric == "time" else b.get(metric)
            if v is not None and not (metric == "time" and case.startswith("throttle/")):
                out.setdefault(case, []).append(v)
    return out


def check_real_runs(tree):
    config = os.path.join(tree, "configs", "config-mmscale-seeds")
    check(os.path.exists(config), "install put configs/config-mmscale-seeds in the tree")
    narrow = dict(MMSCALE_BIN=MMSCALE, MMSCALE_CASES=CASES, MMSCALE_MIN_TIME="0.01",
                  MMSCALE_THREADS="1")
    run_mmtests(tree, "configs/config-mmscale-seeds", RUNS[0], **narrow,
                MMSCALE_EXTRA="--throttle-seconds=2")
    run_mmtests(tree, "configs/config-mmscale-seeds", RUNS[1], **narrow,
                MMSCALE_EXTRA="--throttle-seconds=2 --set dirty_ratio=10")
    for name in RUNS:
        cmd = commands(tree, name)
        check(f"{MMSCALE} --benchmark_filter={CASES} --threads=1 " in cmd and
              "--benchmark_repetitions=5" in cmd and "--benchmark_min_time=0.01" in cmd,
              f"{name}: the environment's binary, cases, threads and min time, and the "
              f"config's repetitions reached mmscale: {cmd[:300]}")
        check_listing_order(tree, name)
        check_contract(tree, name)

    # The time report: each case, six statistics, values from the JSON.
    table = compare_mmtests(tree, RUNS)
    lines = table.splitlines()
    check(lines[0].split() == ["stock", "stock"] and lines[1].split() == ["default", "dirty10"],
          f"the header splits the run names at '-': {lines[:2]}")
    rows = parse_table(table)
    a, b = (json_samples(tree, n, "time") for n in RUNS)
    check(len(a) >= 9, f"the time report's cases: {sorted(a)}")
    for case in a:
        op = f"time-{case}"
        for stat in ("Min", "Amean", "Stddev", "CoeffVar", "Max", "BAmean.95"):
            check((stat, op) in rows, f"time report has a {stat} row for {op}")
        if ("Amean", op) not in rows:
            continue
        for stat, f in (("Min", min), ("Max", max), ("Amean", lambda v: sum(v) / len(v))):
            got = [c[0] for c in rows[(stat, op)]]
            want = [round(f(a[case]), 2), round(f(b[case]), 2)]
            check(all(abs(g - w) <= 0.0051 for g, w in zip(got, want)),
                  f"{stat} {op}: compare-mmtests.pl {got}, the JSON {want}")
        # Lower is better: the percent is 100 - new*100/base, + when faster.
        ma, mb = sum(a[case]) / len(a[case]), sum(b[case]) / len(b[case])
        pct = rows[("Amean", op)][1][1]
        check(abs(pct - (100 - mb * 100 / ma)) <= 0.0051,
              f"Amean {op}: percent {pct}, the JSON's {100 - mb * 100 / ma:.2f}")
        # The mark is the 95% bands' overlap: mean +- 1.96 s.d. each.
        sa = math.sqrt(sum((x - ma) ** 2 for x in a[case]) / (len(a[case]) - 1))
        sb = math.sqrt(sum((x - mb) ** 2 for x in b[case]) / (len(b[case]) - 1))
        apart = abs(ma - mb) / (1.959964 * (sa + sb)) if sa + sb else abs(ma - mb)
        if abs(apart - 1) > 1e-3:
            check(rows[("Amean", op)][1][2] == (apart > 1),
                  f"Amean {op}: marked {rows[('Amean', op)][1][2]}, bands apart {apart:.3f}")

    # nr_written: higher is better (Hmean, pdiff); deterministic, so the
    # bands are points and a difference of more than a page is marked.
    rows = parse_table(compare_mmtests(tree, RUNS, "nr_written"))
    a, b = (json_samples(tree, n, "nr_written") for n in RUNS)
    check(len(a) == 5, f"nr_written: one throttle/ scenario x 5 variants: {sorted(a)}")
    changed = 0
    for case in a:
        op = f"nr_written-{case}"
        check(("Hmean", op) in rows and ("BHmean.95", op) in rows,
              f"nr_written is higher-is-better: Hmean and BHmean.95 rows for {op}")
        if ("Hmean", op) not in rows:
            continue
        (va, _, _), (vb, pct, marked) = rows[("Hmean", op)]
        check(len(set(a[case])) == 1 and len(set(b[case])) == 1,
              f"{op}: the throttle model is deterministic: {a[case]} {b[case]}")
        check(va == a[case][0] and vb == b[case][0], f"Hmean {op}: {va} {vb} vs {a[case]} {b[case]}")
        want = b[case][0] * 100 / a[case][0] - 100
        check(abs(pct - want) <= 0.0051, f"Hmean {op}: percent {pct}, + where more: {want:.2f}")
        check(marked == (abs(b[case][0] - a[case][0]) > 1), f"Hmean {op}: marked {marked}")
        changed += marked
    check(changed >= 1, "dirty_ratio=10 changes some variant's nr_written (a marked row)")

    # counts: exact, lower is better; unchanged counts are 0.00% and unmarked.
    rows = parse_table(compare_mmtests(tree, RUNS, "counts"))
    check(any(op.startswith("global_reads-vmstat/global_read/repeated") for _, op in rows),
          "the counts report has the global_reads of vmstat/global_read")
    for (stat, op), cells in rows.items():
        if stat == "Amean" and cells[0][0] == cells[1][0]:
            check(cells[1][1] == 0 and not cells[1][2], f"counts {op}: equal means, 0.00%, unmarked")
    check(not any(op.startswith("nr_written-") for _, op in rows),
          "nr_written (more is better) is not in the counts report")

    for report_name, metric in REPORTS:
        theirs = compare_mmtests(tree, RUNS, report_name)
        ours = our_compare(tree, RUNS, metric)
        check(ours.returncode == 0, f"scripts/compare --format=mmtests --metric {metric} exited "
              f"{ours.returncode}: {ours.stderr}")
        same(ours.stdout, theirs, f"real runs, report {report_name or 'time'}")


def same(ours, theirs, what):
    if ours == theirs:
        check(True, what)
        return
    for i, (x, y) in enumerate(zip(ours.splitlines() + [""] * 999, theirs.splitlines())):
        if x != y:
            check(False, f"{what}: scripts/compare --format=mmtests differs from compare-mmtests.pl "
                  f"at line {i + 1}:\n  ours:   {x!r}\n  theirs: {y!r}")
            return
    check(False, f"{what}: scripts/compare prints {len(ours.splitlines())} lines, "
          f"compare-mmtests.pl {len(theirs.splitlines())}")


def fixture_run(tree, name, template, iterations, listing=None):
    """A run folder of chosen samples: iterations is a list (one per iter-N)
    of lists (one per mmscale-N.json) of [(case, metric, value)]; listing
    gives cases their (family_index, per_family_instance_index)."""
    for i, files in enumerate(iterations):
        logs = os.path.join(tree, "work/log", name, f"iter-{i}", "mmscale", "logs")
        os.makedirs(logs)
        for n, runs in enumerate(files, 1):
            doc = copy.deepcopy(template)
            doc["benchmarks"] = []
            for case, metric, value in runs:
                b = {"name": case, "run_name": case, "run_type": "iteration",
                     "repetitions": 1, "repetition_index": 0, "threads": 1, "iterations": 1,
                     "real_time": 1.0, "cpu_time": 1.0, "time_unit": "ns"}
                if listing and case in listing:
                    b["family_index"], b["per_family_instance_index"] = listing[case]
                if value is None:
                    b.update(error_occurred=True, error_message="fixture: a failed run")
                elif metric == "time":
                    b["real_time"] = value
                else:
                    b[metric] = value
                doc["benchmarks"].append(b)
            json.dump(doc, open(os.path.join(logs, f"mmscale-{n}.json"), "w"))


def check_fixture_runs(tree):
    template = json.load(open(os.path.join(tree, "work/log", RUNS[0],
                                           "iter-0/mmscale/logs/mmscale-1.json")))
    g = "vmstat/global_read/{}/k:4/writers:0/real_time/threads:1"
    t = "throttle/JBOD-10HDD-6G/xfs-1dd-1M-16p-5895M-20/{}/iterations:1/manual_time/threads:1"
    base = [[
        [(g.format("repeated"), "time", v) for v in (20.0, 20.5, 21.0)] +
        [(g.format("cached"), "time", v) for v in (10.0, 12.0, 14.0)] +
        [(g.format("6.18-repeated"), "time", 33.3)] +
        [(g.format("6.18-cached"), "time", v) for v in (7.0, 7.0, 7.0)] +
        [(g.format("only-before"), "time", v) for v in (5.0, 6.0)] +
        [(t.format("3.2"), "nr_written", v) for v in (1000, 1000, 1000)] +
        [(t.format("6.18"), "nr_written", v) for v in (900, 0, 950)],
        [(g.format("repeated"), "time", 22.0), (g.format("cached"), "time", None)],
    ], [
        [(g.format("repeated"), "time", 20.2), (g.format("cached"), "time", 11.0)],
    ]]
    new = [[
        [(g.format("repeated"), "time", v) for v in (12.0, 12.1, 11.9)] +
        [(g.format("cached"), "time", v) for v in (11.0, 13.0, 15.0)] +
        [(g.format("6.18-repeated"), "time", 30.0)] +
        [(g.format("6.18-cached"), "time", v) for v in (7.0, 7.0, 7.0)] +
        [(t.format("3.2"), "nr_written", v) for v in (1500, 1500, 1500)] +
        [(t.format("6.18"), "nr_written", v) for v in (910, 905, 915)],
    ]]
    names = ("before", "v6.18-rc1-patched")
    fixture_run(tree, names[0], template, base)
    fixture_run(tree, names[1], template, new)
    for report_name, metric in REPORTS[::2]:
        theirs = compare_mmtests(tree, names, report_name)
        ours = our_compare(tree, names, metric)
        same(ours.stdout, theirs, f"fixture runs, report {report_name or 'time'}")
        check(ours.returncode == 1 and "left out: 1 unusable run (1 errored)" in ours.stderr,
              f"the errored fixture run is left out and named, exit 1: {ours.returncode} "
              f"{ours.stderr.strip()}")
    # A baseline of single samples has no interval at all (Compare.pm then
    # takes its mean as 0); a percent of 90.625 rounds twice (to 90.62); a
    # NaN sample is left out.
    single = [[[(g.format("x"), "time", 100.0), (g.format("y"), "time", 50.0)] +
               [(g.format("z"), "time", 32 / 3)] + [(g.format("w"), "time", 6.0)] * 3]]
    spread = [[[(g.format("x"), "time", v) for v in (100.4, 100.5, 100.6)] +
               [(g.format("y"), "time", v) for v in (50.0, 50.1, 49.9)] +
               [(g.format("z"), "time", 1.0)] +
               [(g.format("w"), "time", v) for v in (6.0, float("nan"), 6.0)]]]
    corner = ("single-base", "spread-new")
    fixture_run(tree, corner[0], template, single)
    fixture_run(tree, corner[1], template, spread)
    theirs = compare_mmtests(tree, corner)
    same(our_compare(tree, corner, "time").stdout, theirs,
         "fixture runs: a baseline without intervals, a percent rounded twice, a NaN sample")
    check(" 90.62%" in theirs, f"the twice-rounded percent is in the table:\n{theirs}")
    # The listing decides the order, whatever order the runs came in, in
    # each iteration folder (compare-mmtests.pl calls parse-results once per
    # folder; it dies where the folders' cases differ) and each file.
    listing = {g.format("a"): (0, 0), g.format("b"): (1, 0), g.format("c"): (1, 1)}
    per_iter = [[[(g.format("c"), "time", 3.0)],
                 [(g.format("b"), "time", 2.0), (g.format("a"), "time", 1.2)]],
                [[(g.format("a"), "time", v) for v in (1.0, 1.1, 0.9)] +
                 [(g.format("c"), "time", 3.1), (g.format("b"), "time", 2.1)]]]
    listed = ("listed-one", "listed-two")
    for name in listed:
        fixture_run(tree, name, template, per_iter, listing)
    theirs = compare_mmtests(tree, listed)
    same(our_compare(tree, listed, "time").stdout, theirs,
         "fixture runs: listing order within each iteration folder")
    order = [line.split()[1] for line in theirs.splitlines() if line.startswith("Min ")]
    check(order == [f"time-{g.format(c)}".replace("/real_time", "") for c in "abc"],
          f"compare-mmtests.pl's rows in listing order: {order}")
    # Three runs, as a knob sweep's values print (scripts/compare --format=mmtests DIR):
    # the table of dialects.mmtests_table with three sides.
    three = (names[0], names[1], corner[0])
    compare = frameworks.load_compare()
    sides = [compare.mmtests_samples(mmresults.load(os.path.join(tree, "work/log", n),
                                                    "test_mmtests", quiet=True), "time")
             for n in three]
    same("\n".join(dialects.mmtests_table(list(three), sides, lambda op: False)) + "\n",
         compare_mmtests(tree, three), "fixture runs, three columns")
    lines = compare_mmtests(tree, names).splitlines()
    check(lines[0].split() == ["befor", "v6.18-rc1"] and lines[1].split() == ["before", "patched"],
          f"a name without '-' and a -rcN name head their columns as mmtests heads them: {lines[:2]}")
    rows = parse_table("\n".join(lines))
    marked = {op.split("/")[2]: cells[1][2] for (stat, op), cells in rows.items() if stat == "Amean"}
    check(marked == {"repeated": True, "cached": False, "6.18-repeated": False,
                     "6.18-cached": False, "only-before": False},
          f"the fixture's marks (bands apart, overlapping, one sample, equal, missing): {marked}")


GRAPHS = (("", "time"), ("counts", "global_reads"), ("nr_written", "nr_written"))


def check_graphs(tree, names):
    """graph-mmtests.sh draws each report's metric with the shellpack's
    titles, and pairs like with like: its plot data (GRAPH_DEBUG dumps it)
    has the same case on the same line for every run."""
    missing = graph_tools_missing()
    if missing:
        print(f"test_mmtests: SKIPPED the graphs: graph-mmtests.sh needs {', '.join(missing)} "
              "(MMSCALE_SETUP_TESTS=1 scripts/setup installs them)")
        return
    for report_name, metric in GRAPHS:
        png = os.path.join(tree, f"graph-{metric}.png")
        args = ["bin/graph-mmtests.sh", "-d", "work/log", "-b", "mmscale", "-n", ",".join(names),
                "--metric", metric, "--format", "png", "--output", png]
        if report_name:
            args[5:5] = ["-a", report_name]
        p = subprocess.run(args, cwd=tree, env=dict(os.environ, GRAPH_DEBUG="yes"),
                           capture_output=True, text=True)
        plots = re.split(r"^TRACE: Dump plot data \S+\n", p.stdout, flags=re.M)[1:]
        cases = [[line.split()[1] for line in plot.splitlines() if line.strip()] for plot in plots]
        what = f"graph-mmtests.sh {' '.join(args[1:-4])}"
        check(p.returncode == 0 and os.path.exists(png) and os.path.getsize(png) > 0,
              f"{what} draws a PNG: exit {p.returncode}, {p.stderr[-300:]}")
        check(len(cases) == len(names) and cases[0] and all(c == cases[0] for c in cases),
              f"{what} pairs the same case on each line: {cases}")
        check("Unknown" not in p.stdout.split("TRACE: Dump plot data")[0],
              f"{what}: the title and units come from shellpack.yaml:\n{p.stdout[:600]}")


def check_declared_metrics(tree):
    """Every exact count mmscale lists is declared in the counts report and
    described (title, units) in shellpack.yaml, which graph-mmtests reads."""
    listed = json.loads(subprocess.run([MMSCALE, "--list=json"], capture_output=True,
                                       text=True).stdout)
    exact = {m["name"] for f in listed for m in f["metrics"] if m["exact"]} | \
        {c for f in listed for c in f.get("counts", [])}
    if graph_tools_missing():
        return  # said by check_graphs
    src = os.path.join(tree, "shellpack_src/src/mmscale")
    try:
        main_yaml, counts_yaml = (
            json.loads(subprocess.run(["yq", ".", os.path.join(src, f)], capture_output=True,
                                      text=True).stdout)
            for f in ("shellpack.yaml", "shellpack-counts.yaml"))
    except ValueError as e:
        check(False, f"yq reads the shellpack's yaml files: {e}")
        return
    undescribed = sorted(m for m in exact | {"time"}
                         if not {"title", "units"} <= set(main_yaml.get(m) or {}))
    check(not undescribed, f"shellpack.yaml describes every metric: not {undescribed}")
    undeclared = sorted(exact - {"nr_written"} - set(counts_yaml.get("metrics", [])))
    check(not undeclared, f"shellpack-counts.yaml lists every exact count: not {undeclared}")


def check_shellpack_build(tree):
    """Without MMSCALE_BIN the shellpack's install step builds mmscale from
    the checkout the config names, and the run uses that build."""
    name = "stock-built"
    run_mmtests(tree, "configs/config-mmscale-seeds", name,
                MMSCALE_CASES=r"^vmstat/global_read/cached/k:4/writers:0/", MMSCALE_THREADS="1",
                MMSCALE_REPETITIONS="3", MMSCALE_MIN_TIME="0.005")
    installed = os.path.join(tree, "work/sources/mmscale-local-installed")
    cmd = commands(tree, name)
    check(cmd.startswith(os.path.join(installed, "bin/mmscale") + " --benchmark_filter="),
          f"the run used the shellpack's own build: {cmd[:200]}")
    head = subprocess.run(["git", "-C", ROOT, "rev-parse", "HEAD"], capture_output=True,
                          text=True).stdout.strip()
    try:
        built = open(os.path.join(installed, "revision")).read().strip()
    except OSError as e:
        built = str(e)
    if head:
        check(built == head, f"the build records the checkout's commit: {built} vs {head}")
    else:
        print("test_mmtests: not a git checkout: the build's recorded commit is not checked")


def main():
    status = frameworks.unready("test_mmtests", TREE, "bin/compare-mmtests.pl",
                                "MMSCALE_MMTESTS_TREE", "compare-mmtests.pl",
                                missing_prerequisites(), "mmtests")
    if status is not None:
        return status
    with frameworks.installed_copy(TREE, "mmtests", "not an mmtests") as tree:
        check_real_runs(tree)
        check_graphs(tree, RUNS)
        check_declared_metrics(tree)
        check_shellpack_build(tree)
        check_fixture_runs(tree)
    report("test_mmtests")


if __name__ == "__main__":
    sys.exit(main())
