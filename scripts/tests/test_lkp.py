#!/usr/bin/python3
"""mmscale inside LKP, against the real lkp-tests tree (a snapshot in
../shared/lkp-tests, or MMSCALE_LKP_TREE), run with lkp-tests' own commands
as its users run them: scripts/lkp/install puts the program and job into a
writable copy (registering the testcase, writing the host file); `lkp
split-job` (no --no-defaults) expands jobs/mmscale.yaml's matrix and `lkp
job2sh` turns a 50% point into a thread count; `lkp run` runs small jobs
(exit 0) at two mmscale "revisions" and with two settings of the flags
parameter, in a mount namespace that gives it its own /lkp; each run's
stats (parse's one record, through dump-stat) are the means scripts/compare
computes; `sbin/ncompare REV1 REV2` and `ncompare -c flags REV` print the
same mmscale rows as `scripts/compare --format=lkp` on the result folders.
A failed repetition goes through parse and dump-stat with every case
aligned and its .fail kept; a value LKP's index would split is refused.
Then --format=lkp on fixture results is checked against rows worked out by
hand (the layout, '± N%', %change and points, and LKP's change rule).

Without the lkp-tests tree this test is skipped (exit 77, named); without
Ruby and the gems split-job loads (scripts/setup's test set) it fails,
naming them; without a mount namespace (unshare -m) the lkp run and
ncompare part is skipped with one line."""
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
import dialects  # noqa: E402
import mmresults  # noqa: E402
sys.path.insert(0, HERE)
from check import check, report  # noqa: E402  (scripts/tests/check.py)
import frameworks  # noqa: E402  (scripts/tests/frameworks.py)

SKIP = frameworks.SKIP
MMSCALE = os.environ.get("MMSCALE") or os.path.join(ROOT, "build", "mmscale")
TREE = frameworks.tree_path("MMSCALE_LKP_TREE", "lkp-tests")


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
    """lkp split-job as its users run it: no --no-defaults, no -t; the host
    file scripts/lkp/install wrote gives the box's CPUs."""
    env = dict(os.environ, LKP_SRC=tree)
    p = subprocess.run(["bin/lkp", "split-job", "-o", out, "jobs/mmscale.yaml"],
                       cwd=tree, env=env, capture_output=True, text=True)
    jobs = sorted(glob.glob(os.path.join(out, "*.yaml")))
    check(p.returncode == 0 and jobs, f"lkp split-job exited {p.returncode}, {len(jobs)} jobs: "
          f"{(p.stdout + p.stderr)[-500:]}")
    points = set()
    for job in jobs:
        text = open(job).read()
        point = tuple(re.search(rf"^\s*{k}: (.*)$", text, re.M).group(1).strip('"')
                      if re.search(rf"^\s*{k}: (.*)$", text, re.M) else None
                      for k in ("case", "nr_threads", "placement"))
        points.add(point)
    want = {(c, n, pl) for c in ("vmstat.global_read", "bdp", "drain")
            for n in ("1", "50%", "100%") for pl in ("compact", "scatter")}
    check(len(jobs) == 18 and points == want,
          f"split-job expands the matrix: 3 cases x 3 nr_threads x 2 placements: "
          f"{len(jobs)} jobs, missing {sorted(want - points)}, extra {sorted(points - want)}")
    half = [j for j in jobs if os.path.basename(j) == "mmscale-bdp-0.1-50%-scatter-5.yaml"]
    check(len(half) == 1, f"one job for bdp at 50% scatter: {[os.path.basename(j) for j in jobs]}")
    if half:
        nproc = int(subprocess.run(["nproc"], capture_output=True, text=True).stdout)
        nr_cpu = re.search(r"^nr_cpu: (\d+)$", open(half[0]).read(), re.M)
        check(nr_cpu is not None and int(nr_cpu.group(1)) == nproc,
              f"the job carries the host file's nr_cpu, this box's {nproc} (nproc)")
        p = subprocess.run(["bin/lkp", "job2sh", half[0]], cwd=tree, env=env,
                           capture_output=True, text=True)
        check(p.returncode == 0, f"job2sh exited {p.returncode}: {p.stderr[-300:]}")
        threads = nproc * 50 // 100  # params/nr_threads: an integer, 0 on one CPU
        check(f"export nr_threads={threads}" in p.stdout,
              f"job2sh: nr_threads 50% of {nproc} CPUs is {threads}")
        check(re.search(r"run_test case='bdp' placement='scatter' repetitions=5 min_time=0.1 "
                        r"\$LKP_SRC/bin/run-test mmscale", p.stdout) is not None,
              f"job2sh runs the program with the job's parameters: "
              f"{[line for line in p.stdout.splitlines() if 'run_test' in line]}")


# lkp run writes /lkp/result and /lkp/data, fixed paths (lib/constant.rb): the
# test gives it a folder of its own there, in a mount namespace, as root
# (unshare -m) or not (unshare -Urm), so nothing outside the test's folder
# is written. A new root of bind mounts, with the folder at /lkp.
LKP_NAMESPACE = r"""
set -e
lkp=$(realpath "$1"); shift
cwd=$PWD
root=$(mktemp -d "$lkp.root.XXXXXX")  # beside it, in the test's folder
mount -t tmpfs tmpfs "$root"
for d in /*; do
    name=${d#/}
    [ "$name" = lkp ] && continue  # a real LKP box's own /lkp stays out
    if [ -L "$d" ]; then cp -P "$d" "$root/"; continue; fi
    [ -d "$d" ] || continue
    mkdir "$root/$name"; mount --rbind "$d" "$root/$name"
done
mkdir "$root/lkp"; mount --bind "$lkp" "$root/lkp"
exec chroot "$root" /bin/sh -c 'cd "$1" && shift && exec "$@"' sh "$cwd" "$@"
"""


def in_lkp_root(lkp_root, args, **kw):
    unshare = ["unshare", "-m"] if os.geteuid() == 0 else ["unshare", "-Urm"]
    return subprocess.run(unshare + ["sh", "-c", LKP_NAMESPACE, "sh", lkp_root] + args,
                          capture_output=True, text=True, **kw)


def namespace_missing(tmp):
    """None where a mount namespace can hold /lkp, else why not."""
    if not shutil.which("unshare") or not shutil.which("chroot"):
        return "no unshare or chroot (util-linux, coreutils)"
    os.makedirs(os.path.join(tmp, "probe"))
    p = in_lkp_root(os.path.join(tmp, "probe"), ["test", "-d", "/lkp"])
    return None if p.returncode == 0 else f"unshare -m: {(p.stderr.strip() or 'failed')[-200:]}"


# The test's selection: exact counts that --swap changes (bdp's global reads,
# 8 with swap, 6 without), and one timed read. Every value of the job is
# free of '/' and '=', which LKP's result index cannot keep.
LKP_CASES = "bdp.(vanilla-3.1|3.2),vmstat.global_read.cached.k:4.writers:0"
SMALL_JOB = """suite: mmscale
testcase: mmscale
category: benchmark
nr_threads: 1
mmscale:
  case: {case}
  placement: compact
  repetitions: 3
  min_time: 0.005
{flags}"""


def lkp_rows(text):
    """The %stddev rows of mmscale's own stats (a case name holds a '/')."""
    return [line for line in text.splitlines()
            if re.search(r"\s(mmscale\.\S*/\S+)$", line) and not line.rstrip().endswith(
                (".pass", ".fail")) and "%" in line]


def check_lkp_runs(tree, tmp):
    """lkp run on split jobs (exit 0); each run's stats are parse's: one
    record, each figure the mean of the case's repetitions, .pass 1; two
    mmscale revisions compared by ncompare in its commit form and two
    settings (the flags parameter) by ncompare -c flags, each printing the
    same mmscale rows as scripts/compare --format=lkp on the result folders."""
    why = namespace_missing(tmp)
    if why:
        print(f"test_lkp: SKIPPED lkp run and ncompare: no mount namespace for /lkp ({why})")
        return
    lkp_root = os.path.join(tmp, "lkp-root")
    os.makedirs(lkp_root)
    jobs = os.path.join(tmp, "small-jobs")
    os.makedirs(jobs)
    for name, flags in (("plain", ""), ("swap-yes", "  flags: --swap:yes\n"),
                        ("swap-no", "  flags: --swap:no\n")):
        path = os.path.join(tmp, f"{name}.yaml")
        open(path, "w").write(SMALL_JOB.format(case=LKP_CASES, flags=flags))
        p = subprocess.run(["bin/lkp", "split-job", "-o", jobs, path], cwd=tree,
                           capture_output=True, text=True)
        check(p.returncode == 0, f"split-job {name}: {p.stderr[-300:]}")
    split = {n: glob.glob(os.path.join(jobs, f"{n}-*.yaml")) for n in ("plain", "swap-yes",
                                                                     "swap-no")}
    check(all(len(v) == 1 for v in split.values()), f"one job each: {split}")
    if not all(len(v) == 1 for v in split.values()):
        return
    # Two "revisions": wrappers that run the built mmscale with and without
    # swap, so that the revisions differ in an exact count.
    revisions = {}
    for rev, swap in (("rev-a", "yes"), ("rev-b", "no")):
        revisions[rev] = os.path.join(tmp, f"mmscale-{rev}")
        open(revisions[rev], "w").write(f'#!/bin/sh\nexec {MMSCALE} --swap={swap} "$@"\n')
        os.chmod(revisions[rev], 0o755)
    runs = [(split["plain"][0], revisions["rev-a"], "rev-a")] * 3 + \
        [(split["plain"][0], revisions["rev-b"], "rev-b")] * 3 + \
        [(split["swap-yes"][0], MMSCALE, "c")] * 3 + [(split["swap-no"][0], MMSCALE, "c")] * 3
    # bin/run-local empties /tmp/lkp-$USER, which is the host's /tmp: a user
    # of the test's own, whose folder is removed after.
    user = f"mmscale-test-{os.getpid()}"
    env = dict(os.environ, USER=user, LKP_SRC=tree)
    for job, binary, commit in runs:
        p = in_lkp_root(lkp_root, ["env", f"MMSCALE_BIN={binary}", "bin/lkp", "run", "-s",
                                   f"commit: {commit}", job], cwd=tree, env=env)
        said = [line for line in (p.stdout + p.stderr).splitlines()
                if "skip non-executable" not in line]  # the snapshot's lost exec bits
        check(p.returncode == 0, f"lkp run {os.path.basename(job)} at {commit} exited "
              f"{p.returncode}: {said[-8:]}")
    shutil.rmtree(f"/tmp/lkp-{user}", ignore_errors=True)
    roots = {}
    for rt in glob.glob(os.path.join(lkp_root, "result/mmscale/*/*/*/*/*/*")):
        flags = "swap-no" if "--swap:no" in rt else "swap-yes" if "--swap:yes" in rt else ""
        roots[(os.path.basename(rt), flags)] = rt
    want = {("rev-a", ""), ("rev-b", ""), ("c", "swap-yes"), ("c", "swap-no")}
    check(set(roots) == want and all(len(mmresults.lkp_runs(rt)) == 3 for rt in roots.values()),
          f"three runs in each result folder: {sorted(roots)}")
    if set(roots) != want:
        return

    # One run's stats: parse's record, through dump-stat and stats.json.
    run0 = os.path.join(roots[("rev-a", "")], "0")
    stats = json.load(open(os.path.join(run0, "mmscale.json")))
    compare = frameworks.load_compare()
    records = mmresults.load(run0, "test_lkp", quiet=True)
    ours = compare.lkp_stats(records, per_run=True)
    cases = {compare.case_name(r) for r in records}
    passes = {k: v for k, v in stats.items() if k.endswith((".pass", ".fail"))}
    check(passes == {f"mmscale.{c}.pass": [1] for c in cases},
          f"each case that ran is one .pass of 1: {passes}")
    stats = {k: v for k, v in stats.items() if k not in passes}
    check(ours == stats, f"a run's stats are the means of its repetitions, as scripts/compare "
          f"computes them: only ours {sorted(set(ours) - set(stats))}, only LKP's "
          f"{sorted(set(stats) - set(ours))}, differing "
          f"{[k for k in ours if k in stats and ours[k] != stats[k]][:3]}")
    check(stats.get("mmscale.bdp/3.2/threads:1.global_reads") == [8.0],
          f"bdp/3.2 reads 8 global counters with swap: {stats.get('mmscale.bdp/3.2/threads:1.global_reads')}")

    # ncompare, both forms, against scripts/compare --format=lkp.
    for what, ncompare_args, sides in (
            ("two revisions: ncompare rev-a rev-b", ["rev-a", "rev-b"],
             [roots[("rev-a", "")], roots[("rev-b", "")]]),
            ("two settings: ncompare -c flags c", ["-c", "flags", "c"],
             [roots[("c", "swap-no")], roots[("c", "swap-yes")]])):
        p = in_lkp_root(lkp_root, [os.path.join(tree, "sbin/ncompare")] + ncompare_args,
                        cwd=tree, env=env)
        theirs = lkp_rows(p.stdout)
        q = subprocess.run([sys.executable, os.path.join(SCRIPTS, "compare"), "--format=lkp",
                            *sides], capture_output=True, text=True)
        mine = lkp_rows(q.stdout)
        reads = [r for r in theirs if ".global_reads" in r]
        changed = "-25.0%" if what.startswith("two revisions") else "+33.3%"
        check(p.returncode == 0 and len(reads) == 2 and all(changed in r for r in reads),
              f"{what}: LKP shows bdp's global reads changed by {changed}:\n{p.stdout[-1500:]}")
        check(q.returncode == 0 and mine == theirs,
              f"{what}: scripts/compare --format=lkp prints LKP's rows:\n  ours:   {mine}\n"
              f"  theirs: {theirs}\n{q.stderr}")


def check_install(tree):
    """The install registered the testcase, wrote the host file, restored
    the links the snapshot stores as files; again, it adds nothing twice."""
    host = os.environ.get("HOSTNAME") or subprocess.run(
        ["hostname"], capture_output=True, text=True).stdout.strip()
    links = sum(os.path.islink(os.path.join(d, f)) for d, _, fs in os.walk(tree) for f in fs)
    check(os.path.isfile(os.path.join(tree, "hosts", host)) and links > 0,
          f"install wrote hosts/{host} and the tree holds symlinks ({links})")
    p = subprocess.run([os.path.join(SCRIPTS, "lkp", "install"), tree], capture_output=True,
                       text=True)
    cases = open(os.path.join(tree, "etc/linux-perf-test-cases")).read().split()
    check(p.returncode == 0 and cases.count("mmscale") == 1 and
          p.stdout.splitlines() == [f"lkp/install: mmscale's program and job are in {tree}; "
                                    "testcase mmscale registered"],
          f"install again: exit {p.returncode}, mmscale listed {cases.count('mmscale')} times, "
          f"{p.stdout}{p.stderr}")


def check_bad_values(tree):
    """A case or flags value that LKP's result index would split (a '/' or
    '=') stops the program with one line, before mmscale runs."""
    for value in ({"case": "^bdp/"}, {"case": "bdp=1"}, {"case": "bdp", "flags": "--swap=no"},
                  {"case": "bdp", "flags": "--topology:xml:/tmp/x.xml"}):
        p = subprocess.run([os.path.join(tree, "programs/mmscale/run")], capture_output=True,
                           text=True, env=dict(os.environ, LKP_SRC=tree, MMSCALE_BIN=MMSCALE,
                                               **value))
        check(p.returncode != 0 and "holds '/' or '='" in p.stdout + p.stderr and
              "benchmark_filter" not in p.stdout + p.stderr,
              f"programs/mmscale/run with {value}: exit {p.returncode} {p.stdout}{p.stderr}")


def check_failed_repetition(tree, doc, tmp):
    """A repetition that failed: parse's one record keeps every case aligned
    (the other repetitions' mean) and the case's .fail, through dump-stat."""
    fixture = synthetic(doc, [[("x/a/threads:1", {"global_reads": 4.0}),
                               ("x/b/threads:1", {"global_reads": 2.0})],
                              [("x/a/threads:1", None), ("x/b/threads:1", {"global_reads": 2.0})],
                              [("x/a/threads:1", {"global_reads": 6.0}),
                               ("x/b/threads:1", {"global_reads": 2.0})]])
    text = "2026-12-03 00:00:00 mmscale ...\n" + json.dumps(fixture, indent=1)
    parse = subprocess.run([os.path.join(tree, "programs/mmscale/parse")], input=text,
                           capture_output=True, text=True)
    results = os.path.join(tmp, "failed-repetition")
    os.makedirs(results)
    env = dict(os.environ, LKP_SRC=tree, RESULT_ROOT=results, TMP_RESULT_ROOT=results)
    dump = subprocess.run(["ruby", os.path.join(tree, "sbin/dump-stat"), "mmscale"],
                          input=parse.stdout, env=env, capture_output=True, text=True)
    try:
        stats = json.load(open(os.path.join(results, "mmscale.json")))
    except (OSError, ValueError) as e:
        stats = {"error": str(e)}
    want = {"mmscale.x/a/threads:1.ns_per_op": [1.0], "mmscale.x/a/threads:1.global_reads": [5.0],
            "mmscale.x/a/threads:1.fail": [1], "mmscale.x/b/threads:1.ns_per_op": [1.0],
            "mmscale.x/b/threads:1.global_reads": [2.0], "mmscale.x/b/threads:1.pass": [1]}
    check(parse.returncode == 0 and dump.returncode == 0 and stats == want and
          "incomplete" not in dump.stdout + dump.stderr,
          f"a failed repetition: dump-stat keeps the other case whole and the .fail: {stats} "
          f"{dump.stdout}{dump.stderr}")
    # scripts/compare reads the same run as an LKP result folder would hold it.
    run = os.path.join(tmp, "failed-run")
    os.makedirs(run)
    open(os.path.join(run, "mmscale"), "w").write(text)
    open(os.path.join(run, "job.yaml"), "w").write("testcase: mmscale\n")
    compare = frameworks.load_compare()
    ours = compare.lkp_stats(mmresults.load(run, "test_lkp", quiet=True), per_run=True)
    check(ours == {k: v for k, v in want.items() if not k.endswith((".pass", ".fail"))},
          f"scripts/compare reads an LKP run folder as parse does: {ours}")


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

    # The same runs with the results' contract (mmscale_runs): parse takes
    # each run's name and family from it, not from the run name.
    fam = next(f["name"] for f in json.loads(fixture["context"]["mmscale_families"])
               if f.get("virtual_time") and thr.startswith(f["name"] + "/"))
    fixture["mmscale_runs"] = {
        thr: {"name": "contract-throttle/threads:1", "family": fam, "variant": "3.2",
              "args": {}, "threads": 1},
        "x/a/threads:1": {"name": "contract-x/threads:1", "family": "x", "variant": "a",
                          "args": {}, "threads": 1}}
    p = subprocess.run([os.path.join(ROOT, "scripts/lkp/programs/mmscale/parse")],
                       input=json.dumps(fixture, indent=1), capture_output=True, text=True)
    want = ["contract-throttle/threads:1.nr_written: 504728.0",
            "contract-throttle/threads:1.pass: 1", "contract-x/threads:1.fail: 1"]
    check(p.returncode == 0 and p.stdout.splitlines() == want,
          f"parse names runs and finds virtual-time families by the contract: "
          f"{p.stdout.splitlines()} {p.stderr}")


def check_ruby_numbers(tree):
    """--format=lkp's numbers as lib/compare.rb's Ruby makes them: the
    average from Ruby's compensated Array#sum (with lkp-tests' ActiveSupport
    loaded, as compare.rb has it), and %.1f / %.2f as Ruby's dtoa rounds,
    on values where Python's own sum and format differ from Ruby's."""
    lists = [[0.1, 0.2, 0.3], [1e16, 1.0, -1e16], [7.14, 4.26, 6.33], [1.1, 1.71, 1.19],
             [2.675, 1e-17, 3.3, 0.7]]
    values = [343.25000000000006, 0.25000000000000006, 9697.949999999999, 8164.450000000001,
              6103.05, 2.675, -0.05, 0.005, 1234567890123.455]
    script = ('require "json"; require "%s/lib/statistics.rb"; d = JSON.parse(STDIN.read); '
              'd[0].each { |a| printf("%%s\\n", a.sum.to_s) }; '
              'd[1].each { |v| printf("%%.1f %%.2f\\n", v, v) }' % tree)
    p = subprocess.run(["ruby", "-e", script], input=json.dumps([lists, values]),
                       capture_output=True, text=True)
    lines = p.stdout.splitlines()
    ours = [repr(dialects.ruby_sum(a)) for a in lists] + \
        [f"{dialects.ruby_fixed(v, 1)} {dialects.ruby_fixed(v, 2)}" for v in values]
    check(p.returncode == 0 and [float(x) for x in lines[:len(lists)]] ==
          [dialects.ruby_sum(a) for a in lists] and lines[len(lists):] == ours[len(lists):],
          f"Ruby's sum and %.1f/%.2f, as --format=lkp computes them: ruby {lines} {p.stderr[-200:]}"
          f" ours {ours}")
    check(any(sum(a) != dialects.ruby_sum(a) for a in lists) and
          any(f"{v:.1f}" != dialects.ruby_fixed(v, 1) for v in values),
          "the values above tell Ruby's numbers from Python's own")


def main():
    status = frameworks.unready("test_lkp", TREE, "sbin/split-job", "MMSCALE_LKP_TREE",
                                "lkp-tests", missing_prerequisites(), "lkp-tests")
    if status is not None:
        return status
    with frameworks.installed_copy(TREE, "lkp", "not an lkp") as tree:
        tmp = os.path.dirname(tree)
        out = os.path.join(tmp, "jobs")
        os.makedirs(out)
        check_install(tree)
        check_ruby_numbers(tree)
        check_split_job(tree, out)
        check_bad_values(tree)
        check_lkp_runs(tree, tmp)
        # A real result's context (its families) for the fixtures below.
        p = subprocess.run([MMSCALE, r"--benchmark_filter=^vmstat/global_read/cached/k:4/writers:0/",
                            "--threads=1", "--benchmark_min_time=0.001", "--benchmark_format=json"],
                           capture_output=True, text=True)
        check(p.returncode == 0, f"mmscale for the fixtures' context: {p.stderr[-300:]}")
        doc = json.loads(p.stdout)
        check_failed_repetition(tree, doc, tmp)
        check_lkp_format(doc, tmp)
    report("test_lkp")


if __name__ == "__main__":
    sys.exit(main())
