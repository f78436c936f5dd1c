#!/usr/bin/python3
"""The result scripts: compare on recorded fixtures (known input, known
table), the sweep CSV schema and its linear column, plots from a small
fixture, and a sweep interrupted by SIGINT that keeps its finished unit,
discards and names the running one, and resumes."""
import csv
import importlib.machinery
import importlib.util
import os
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

passed = failed = 0


def check(cond, what):
    global passed, failed
    if cond:
        passed += 1
    else:
        failed += 1
        print("FAIL:", what)


def script(name, *args, **kw):
    return subprocess.run([sys.executable, os.path.join(SCRIPTS, name), *args],
                          capture_output=True, text=True, **kw)


def load_sweep_module():
    loader = importlib.machinery.SourceFileLoader("sweep", os.path.join(SCRIPTS, "sweep"))
    spec = importlib.util.spec_from_loader("sweep", loader)
    mod = importlib.util.module_from_spec(spec)
    loader.exec_module(mod)
    return mod


# compare: the recorded tables, exactly.
p = script("compare", os.path.join(FIX, "before.json"), os.path.join(FIX, "after.json"))
check(p.returncode == 0 and p.stdout == open(os.path.join(FIX, "expected_compare.txt")).read(),
      f"compare before/after:\n{p.stdout}{p.stderr}")
p = script("compare", os.path.join(FIX, "before.json"), "--markdown")
check(p.returncode == 0 and p.stdout == open(os.path.join(FIX, "expected_within.md")).read(),
      f"compare within:\n{p.stdout}{p.stderr}")
# The numbers in that table: trimmed mean of 50,52,51,53,60 is 52 (51,52,53), s.d. 1.
check("52.0 (1)" in p.stdout and "-23.1%" in p.stdout and "0.0079*" in p.stdout,
      "seeds' statistic and Mann-Whitney p in the table")
p = script("compare", os.path.join(FIX, "before.json"), "--metric", "global_reads")
check(p.returncode == 0 and "-35.7%" in p.stdout, "compare on an exact count")
for bad in ([os.path.join(FIX, "nope.json")], [os.path.join(FIX, "before.json")] * 3,
            [os.path.join(FIX, "before.json"), "--metric", "no_such_counter"]):
    p = script("compare", *bad)
    check(p.returncode == 2 and len(p.stderr.strip().splitlines()) == 1, f"compare {bad}: {p.stderr}")

# The sweep folder: CSV schema and the linear column; plots.
sweep = load_sweep_module()
with tempfile.TemporaryDirectory() as tmp:
    os.makedirs(os.path.join(tmp, "raw"))
    shutil.copy(os.path.join(FIX, "before.json"), os.path.join(tmp, "raw", "compact-t1.json"))
    shutil.copy(os.path.join(FIX, "t2.json"), os.path.join(tmp, "raw", "compact-t2.json"))
    n = sweep.write_csv(tmp)
    check(n == 20, f"csv rows {n}")
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
        p = subprocess.run([sys.executable, os.path.join(SCRIPTS, "sweep"), "--cases", "^c2c/ticket_lock",
                            "--threads", "1,2", "--placements", "compact", "--repetitions", "1",
                            "--min-time", "0.05", "--resume", out, "--", "--papi-events=none"],
                           capture_output=True, text=True, timeout=300)
        check(p.returncode == 0 and "1 already done" in p.stderr and "[1/1]" in p.stderr,
              f"resume: {p.stderr}")
        with open(os.path.join(out, "results.csv")) as f:
            names = {r["name"] for r in csv.DictReader(f)}
        check(names == {"c2c/ticket_lock/real_time/threads:1", "c2c/ticket_lock/real_time/threads:2"},
              f"both units in the csv: {names}")
else:
    print("note: MMSCALE not set: the interrupted-sweep check did not run")

print(f"test_scripts: {passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
