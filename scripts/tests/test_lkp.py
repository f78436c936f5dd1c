#!/usr/bin/python3
"""mmscale inside LKP, against the real lkp-tests tree (a snapshot in
../shared/lkp-tests, or MMSCALE_LKP_TREE): scripts/lkp/install puts the
program and job into a writable copy; lkp-tests' own sbin/split-job expands
jobs/mmscale.yaml's matrix and sbin/job2sh turns a 50% point into a thread
count; the program's run runs mmscale as LKP would (its parameters in the
environment), its parse turns that real output into key: value stats, and
lkp-tests' sbin/dump-stat reads them; the stats must be the results' own
figures, and the ones `scripts/compare --format=lkp` compares. Then
--format=lkp on fixture results is checked against rows worked out by hand
(the layout, '± N%', %change and points, and LKP's change rule).

Without the lkp-tests tree this test is skipped (exit 77, named); without
Ruby and the gems split-job loads (scripts/setup's test set) it fails,
naming them."""
import copy
import glob
import json
import os
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPTS = os.path.dirname(HERE)
ROOT = os.path.dirname(SCRIPTS)
sys.path.insert(0, SCRIPTS)
import mmresults  # noqa: E402
sys.path.insert(0, HERE)
from check import check, report  # noqa: E402  (scripts/tests/check.py)
import frameworks  # noqa: E402  (scripts/tests/frameworks.py)

SKIP = frameworks.SKIP
MMSCALE = os.environ.get("MMSCALE") or os.path.join(ROOT, "build", "mmscale")
TREE = frameworks.tree_path("MMSCALE_LKP_TREE", "lkp-tests")
CASES = r"^(vmstat/global_read/(repeated|cached)/k:4/writers:0|drain/empty/(ipi-all|6\.18))"


def missing_prerequisites():
    if not shutil.which("ruby"):
        return ["ruby"]
    missing = []
    for lib, package in (("active_support", "ruby-activesupport"), ("git", "ruby-git"),
                         ("tty-command", "ruby-tty-command")):
        if subprocess.run(["ruby", "-e", f"require '{lib}'"], capture_output=True).returncode:
            missing.append(f"{lib} ({package})")
    return missing


def check_split_job(tree, out):
    env = dict(os.environ, LKP_SRC=tree)
    p = subprocess.run(["ruby", "sbin/split-job", "--no-defaults", "-t", "lkp-skl-d01",
                        "-s", "nr_cpu: 8", "-o", out, "jobs/mmscale.yaml"],
                       cwd=tree, env=env, capture_output=True, text=True)
    check(p.returncode == 0, f"split-job exited {p.returncode}: {p.stderr[-500:]}")
    jobs = sorted(glob.glob(os.path.join(out, "*.yaml")))
    points = set()
    for job in jobs:
        text = open(job).read()
        point = tuple(re.search(rf"^\s*{k}: (.*)$", text, re.M).group(1).strip('"')
                      if re.search(rf"^\s*{k}: (.*)$", text, re.M) else None
                      for k in ("case", "nr_threads", "placement"))
        points.add(point)
    want = {(c, n, pl) for c in ("^vmstat/global_read/", "^bdp/", "^drain/")
            for n in ("1", "50%", "100%") for pl in ("compact", "scatter")}
    check(len(jobs) == 18 and points == want,
          f"split-job expands the matrix: 3 cases x 3 nr_threads x 2 placements: "
          f"{len(jobs)} jobs, missing {sorted(want - points)}, extra {sorted(points - want)}")
    half = [j for j in jobs if "-50%-scatter-" in os.path.basename(j) and "_bdp_" in j]
    check(len(half) == 1, f"one job for ^bdp/ at 50% scatter: {[os.path.basename(j) for j in jobs]}")
    if half:
        p = subprocess.run(["ruby", "sbin/job2sh", half[0]], cwd=tree, env=env,
                           capture_output=True, text=True)
        check(p.returncode == 0, f"job2sh exited {p.returncode}: {p.stderr[-300:]}")
        check("export nr_threads=4" in p.stdout,
              "job2sh: nr_threads 50% of the 8-CPU box is 4 threads")
        check(re.search(r"run_test case='\^bdp/' placement='scatter' repetitions=5 min_time=0.1 "
                        r"\$LKP_SRC/bin/run-test mmscale", p.stdout) is not None,
              f"job2sh runs the program with the job's parameters: "
              f"{[line for line in p.stdout.splitlines() if 'run_test' in line]}")


def check_run_parse(tree, tmp):
    results = os.path.join(tmp, "result")
    os.makedirs(results)
    env = dict(os.environ, LKP_SRC=tree, TMP_RESULT_ROOT=results, RESULT_ROOT=results,
               MMSCALE_BIN=MMSCALE, case=CASES, nr_threads="1", placement="compact",
               repetitions="3", min_time="0.01")
    run = subprocess.run([os.path.join(tree, "programs/mmscale/run")], env=env,
                         capture_output=True, text=True)
    check(run.returncode == 0, f"programs/mmscale/run exited {run.returncode}: {run.stderr[-500:]}")
    output = os.path.join(results, "mmscale")
    open(output, "w").write(run.stdout)
    check(re.match(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d \S*mmscale --benchmark_filter=", run.stdout)
          is not None, f"run logs its command first, as log_cmd does: {run.stdout[:200]!r}")
    parse = subprocess.run([os.path.join(tree, "programs/mmscale/parse"), output],
                           stdin=open(output), env=env, capture_output=True, text=True)
    check(parse.returncode == 0, f"parse exited {parse.returncode}: {parse.stderr}")
    lines = parse.stdout.splitlines()
    check(lines and all(re.fullmatch(r"\S+: -?[\d.]+(e[+-]\d+)?", line) for line in lines),
          f"parse prints key: value lines, no white space in a key: {lines[:3]}")
    dump = subprocess.run(["ruby", os.path.join(tree, "sbin/dump-stat"), "mmscale"],
                          input=parse.stdout, env=env, capture_output=True, text=True)
    check(dump.returncode == 0, f"dump-stat exited {dump.returncode}: {dump.stderr[-300:]}")
    stats = json.load(open(os.path.join(results, "mmscale.json")))

    # The stats are the results' own figures: from the JSON run printed.
    doc = json.loads(run.stdout[run.stdout.index("\n{") + 1:])
    runs = [b for b in doc["benchmarks"] if b["run_type"] == "iteration"]
    cases = {re.sub(r"/real_time", "", b["run_name"]) for b in runs}
    check(len(cases) == 4, f"the run's cases: {sorted(cases)}")
    for case in cases:
        mine = [b for b in runs if re.sub(r"/real_time", "", b["run_name"]) == case]
        mine.sort(key=lambda b: b["repetition_index"])
        key = f"mmscale.{case}.ns_per_op"
        check(stats.get(key) == [b["real_time"] for b in mine],
              f"{key}: dump-stat {stats.get(key)}, the JSON {[b['real_time'] for b in mine]}")
        for count in ("global_reads", "ipis_sent", "locked_ops"):
            if any(b.get(count) for b in mine):
                check(stats.get(f"mmscale.{case}.{count}") == [b[count] for b in mine],
                      f"mmscale.{case}.{count}: {stats.get(f'mmscale.{case}.{count}')}")
    check(stats.get(f"mmscale.{sorted(cases)[-1]}.global_reads") in ([4.0] * 3, [12.0] * 3),
          "global_reads is an exact count per read: 4 cached, 12 repeated")
    # ... and what scripts/compare --format=lkp compares.
    compare = frameworks.load_compare()
    json_path = os.path.join(tmp, "run.json")
    open(json_path, "w").write(json.dumps(doc))
    ours = compare.lkp_stats(mmresults.load(json_path, "test_lkp", quiet=True))
    passes = {k for k in stats if k.endswith(".pass")}
    check(passes == {f"mmscale.{case}.pass" for case in cases} and all(
          stats[k] == [0, 0, 1] for k in passes),
          f"each case that ran is a .pass (LKP compares a .fail against it): {sorted(passes)}")
    stats = {k: v for k, v in stats.items() if k not in passes}
    check(ours == stats, f"--format=lkp's stats are dump-stat's: only ours "
          f"{sorted(set(ours) - set(stats))}, only LKP's {sorted(set(stats) - set(ours))}")
    return doc


def synthetic(template, runs):
    """A result of chosen runs: [(case, {figure: value} or None for an
    errored run)] per repetition."""
    doc = copy.deepcopy(template)
    doc["benchmarks"] = []
    for rep, reps in enumerate(runs):
        for case, figures in reps:
            b = {"name": case, "run_name": case, "run_type": "iteration", "repetitions": len(runs),
                 "repetition_index": rep, "threads": 1, "iterations": 1, "real_time": 1.0,
                 "cpu_time": 1.0, "time_unit": "ns"}
            if figures is None:
                b.update(error_occurred=True, error_message="fixture: a failed run")
            else:
                b.update(figures)
            doc["benchmarks"].append(b)
    return doc


# Worked by hand (lib/compare.rb, lib/stats.rb): each row's mean, population
# s.d. as a percent of it (shown above 2%), change, and whether LKP shows it.
#  a  10,10,10 -> 12,12,12: +20.0%, ranges apart: shown
#  b  10,11,12 -> 11,12,13: medians inside the other's range: not shown
#  c  100,110,120 (s.d. 8.165 = 7.4%) -> 150,160,170 (5.1%): +45.5%
#  d  victim_lost% 10,11,12 -> 20,21,22: +10.0 points (s.d. 7.4%, 3.9%)
#  e  2048 x3 -> 6401 x3: %10d, +212.5%
#  f  100 x3 -> 100.5 x3: ranges apart but the ratio 1.005 is under 1.01
#  g  two runs a side: fewer than 3 on both sides, not compared
#  h  global_reads 8,8,8 -> 0,0,0, which dump-stat drops (all 0): LKP fills
#     the baseline's stat with a 0 per run, -100.0% (ratio capped at 5)
EXPECTED_LKP = """\
=========================================================================================
testcase:
  mmscale

result: 
  lkp-before
  lkp-after

      lkp-before                   lkp-after 
---------------- --------------------------- 
         %stddev     %change         %stddev
             \\          |                \\  
     10.00           +20.0%      12.00        mmscale.x/a/threads:1.ns_per_op
    110.00 ±  7%     +45.5%     160.00 ±  5%  mmscale.x/c/threads:1.ns_per_op
     11.00 ±  7%     +10.0       21.00 ±  3%  mmscale.x/d/threads:1.victim_lost%
      2048          +212.5%       6401        mmscale.x/e/threads:1.percpu_sum_slots
      8.00          -100.0%       0.00        mmscale.x/h/threads:1.global_reads

# 5 of 11 stats in both results changed by LKP's rule; 6 did not and are not shown (each repetition is one run)
"""


def check_lkp_format(doc, tmp):
    # case: (figure, baseline runs, new runs), as worked above.
    cases = {"a": ("real_time", [10, 10, 10], [12, 12, 12]),
             "b": ("real_time", [10, 11, 12], [11, 12, 13]),
             "c": ("real_time", [100, 110, 120], [150, 160, 170]),
             "d": ("victim_lost_pct", [10, 11, 12], [20, 21, 22]),
             "e": ("percpu_sum_slots", [2048] * 3, [6401] * 3),
             "f": ("real_time", [100] * 3, [100.5] * 3),
             "g": ("real_time", [5, 5], [9, 9]),
             "h": ("global_reads", [8] * 3, [0] * 3)}
    base, new = ([[(f"x/{c}/threads:1", {fig: runs[side][i]})
                   for c, (fig, *runs) in cases.items() if i < len(runs[side])]
                  for i in range(3)] for side in (0, 1))
    paths = []
    for name, runs in (("lkp-before", base), ("lkp-after", new)):
        paths.append(os.path.join(tmp, name + ".json"))
        json.dump(synthetic(doc, runs), open(paths[-1], "w"))
    p = subprocess.run([sys.executable, os.path.join(SCRIPTS, "compare"), "--format=lkp", *paths],
                       capture_output=True, text=True)
    check(p.returncode == 0, f"compare --format=lkp exited {p.returncode}: {p.stderr}")
    if p.stdout != EXPECTED_LKP:
        for i, (x, y) in enumerate(zip(p.stdout.splitlines() + [""] * 99,
                                       EXPECTED_LKP.splitlines())):
            if x != y:
                check(False, f"--format=lkp differs from the rows worked by hand at line {i + 1}:"
                      f"\n  printed: {x!r}\n  by hand: {y!r}")
                break
        else:
            check(False, f"--format=lkp: {p.stdout!r}")
    else:
        check(True, "--format=lkp prints the rows worked by hand")

    # parse of an errored run and a virtual-time family: CASE.fail, and
    # no ns_per_op where the time is the simulator's.
    thr = "throttle/JBOD-10HDD-6G/xfs-1dd-1M-16p-5895M-20/3.2/iterations:1/manual_time/threads:1"
    fixture = synthetic(doc, [[(thr, {"nr_written": 504728.0}), ("x/a/threads:1", None)]])
    p = subprocess.run([os.path.join(ROOT, "scripts/lkp/programs/mmscale/parse")],
                       input="2026-12-03 00:00:00 mmscale ...\n" + json.dumps(fixture, indent=1),
                       capture_output=True, text=True)
    want = ["throttle/JBOD-10HDD-6G/xfs-1dd-1M-16p-5895M-20/3.2/iterations:1/threads:1."
            "nr_written: 504728.0",
            "throttle/JBOD-10HDD-6G/xfs-1dd-1M-16p-5895M-20/3.2/iterations:1/threads:1.pass: 1",
            "x/a/threads:1.fail: 1"]
    check(p.returncode == 0 and p.stdout.splitlines() == want,
          f"parse: nr_written but no ns_per_op for throttle/, CASE.fail for an errored run: "
          f"{p.stdout.splitlines()} {p.stderr}")


def main():
    status = frameworks.unready("test_lkp", TREE, "sbin/split-job", "MMSCALE_LKP_TREE",
                                "lkp-tests", missing_prerequisites(), "lkp-tests")
    if status is not None:
        return status
    with frameworks.installed_copy(TREE, "lkp", "not an lkp") as tree:
        tmp = os.path.dirname(tree)
        out = os.path.join(tmp, "jobs")
        os.makedirs(out)
        check_split_job(tree, out)
        doc = check_run_parse(tree, tmp)
        check_lkp_format(doc, tmp)
    report("test_lkp")


if __name__ == "__main__":
    sys.exit(main())
