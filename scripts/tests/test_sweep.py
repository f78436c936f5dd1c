#!/usr/bin/python3
"""scripts/sweep keeps its word: a knob sweep (--set) runs its values in
rounds, every value once per round in the order drawn from the seed that
sweep.json records, and merges each value's rounds into the one unit file
every reader expects (all its repetitions, the planned one-repetition
command); an interrupted knob sweep resumes with the rounds it had not run,
and a crashed round is named and run again by --resume; a sweep without
--set stays one process per unit. Compact and scatter run once where they
are the same plan (a one-node stand-in), twice where they are not (two
nodes of two cores). Cases mmscale does not register on the plan reach the
console, once each, those among --cases only. The estimate comes from a
probe (its arithmetic on known runs; a probe cut short says it is a lower
bound), follows measured time as units finish, and --budget stops a sweep
between units when the measured estimate exceeds it. Every option has help.

Behaviour, never timing thresholds: the fake mmscale (fixtures/fake_mmscale,
wrapped here to sleep, hang or crash on chosen runs) gives known failures and
lower bounds; the built mmscale (MMSCALE) runs a case or two at --min-time
0.01."""
import glob
import importlib.machinery
import importlib.util
import json
import os
import re
import shlex
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

SWEEP = os.path.join(SCRIPTS, "sweep")


def load_sweep():
    loader = importlib.machinery.SourceFileLoader("sweep", SWEEP)
    spec = importlib.util.spec_from_loader("sweep", loader)
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


sweep = load_sweep()


def run_sweep(*args, env=None, **kw):
    return subprocess.run([sys.executable, SWEEP, *args], capture_output=True, text=True,
                          timeout=600, env=env, **kw)


def logged_jobs(out):
    """(unit, round or None, the command's arguments) of every mmscale
    process the sweep ran, in order, from sweep.log."""
    jobs = []
    log = os.path.join(out, "sweep.log")
    if not os.path.exists(log):
        return jobs
    for line in open(log):
        args = line.split()
        outs = [a for a in args if a.startswith("--benchmark_out=")]
        if not outs or not args[0].endswith("mmscale"):
            continue
        path = outs[0][len("--benchmark_out="):]
        m = re.search(r"/raw/rounds/([^/]+)/round-(\d+)\.json\.partial$", path)
        if m:
            jobs.append((m.group(1), int(m.group(2)), args))
        else:
            jobs.append((os.path.basename(path).removesuffix(".json.partial"), None, args))
    return jobs


def load_json(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        return {"error": str(e)}


def wrapped_fake(tmp, name, body):
    """tmp/<name>_mmscale: runs `body` (Python; args are its arguments, real
    whether it is a run and not the estimate's probe), then the fake mmscale
    with them: to sleep, hang or crash on chosen runs."""
    fake = os.path.join(tmp, "fake_mmscale")
    if not os.path.exists(fake):
        shutil.copy(os.path.join(FIX, "fake_mmscale"), fake)
        os.chmod(fake, 0o755)
    path = os.path.join(tmp, f"{name}_mmscale")
    with open(path, "w") as f:
        f.write(f"#!{sys.executable}\nimport os, signal, sys, time\nargs = sys.argv[1:]\n"
                "real = any(a.startswith('--benchmark_out=') for a in args) and "
                "'--benchmark_min_time=0.001' not in args  # not the estimate's probe\n"
                f"{body}\nos.execv({fake!r}, [{fake!r}, *args])\n")
    os.chmod(path, 0o755)
    return path


def fake_env(mmscale):
    return dict(os.environ, MMSCALE=mmscale, FAKE_DESCRIBE=os.path.join(FIX, "describe-128.json"))


# ---- The estimate's arithmetic, on known runs (no process) ----

# A probe at a tiny min time finished three runs in 1.0 s, 0.1 s of it the
# process's start: a fast one (its loop 0.01 s), a slow one (one iteration
# 0.5 s) and one of a fixed iteration count (0.2 s); untimed (1.0 - 0.1 -
# 0.71) / 3. At min time 0.1 s: the fast one's loop becomes 1.8 x 0.1, the
# slow one's stays (an iteration beyond the min time), the fixed one's too.
runs = [{"name": "a/fast/real_time/threads:1", "iterations": 10000, "real_time": 1000.0,
         "time_unit": "ns"},
        {"name": "a/slow/real_time/threads:1", "iterations": 1, "real_time": 0.5,
         "time_unit": "s"},
        {"name": "a/fixed/iterations:200/real_time/threads:1", "iterations": 200,
         "real_time": 1.0, "time_unit": "ms"}]
untimed = (1.0 - 0.1 - 0.71) / 3
costs = sweep.probe_costs(runs, 1.0, 0.1, 0.1)
want = [untimed + 0.18, untimed + 0.5, untimed + 0.2]
check(len(costs) == 3 and all(abs(c - w) < 1e-9 for c, w in zip(costs, want)),
      f"probe_costs: {costs}, want {want}")

# Measured time wins over the probe, per thread count; a thread count not run
# yet takes its probe's estimate scaled as the measured ones turned out.
est = sweep.Estimate({1: {"per_run": 0.1, "start": 0.5, "at_least": False},
                      2: {"per_run": 0.2, "start": 0.5, "at_least": True}}, {1: 10, 2: 5})
check(est.job(1, 3) == 0.5 + 3 * 10 * 0.1 and est.left([(1, 3), (2, 1)]) == (3.5 + 1.5, True),
      f"the probe's estimate: {est.job(1, 3)}, {est.left([(1, 3), (2, 1)])}")
est.finished(1, 3, 7.0)  # predicted 3.5 s, took 7: twice as long
check(abs(est.job(1, 1) - 7.0 / 3) < 1e-9 and abs(est.job(2, 1) - 2 * 1.5) < 1e-9 and
      est.left([(2, 1)])[1] and not est.left([(1, 1)])[1],
      f"measured: threads 1 {est.job(1, 1)} (want {7.0 / 3}), threads 2 {est.job(2, 1)} "
      "(want 3.0, its probe's doubled; still 'at least')")

# ---- A round run with another command is not merged ----

with tempfile.TemporaryDirectory() as tmp:
    planned = ["mmscale", "--benchmark_repetitions=1", "--set=stat_threshold=0"]
    for r, reps in ((1, 1), (2, 5)):
        f = sweep.round_file(tmp, "compact-t1-stat_threshold=0", r)
        os.makedirs(os.path.dirname(f), exist_ok=True)
        cmd = ["mmscale", f"--benchmark_repetitions={reps}", "--set=stat_threshold=0",
               f"--benchmark_out={f}.partial"]
        with open(f, "w") as fh:
            json.dump({"context": {"mmscale_command": shlex.join(cmd)},
                       "benchmarks": [{"name": "x", "run_type": "iteration"}]}, fh)
    why = sweep.merge_rounds(tmp, "compact-t1-stat_threshold=0", planned, 2)
    check(why is not None and why.startswith("round 2 (raw/rounds/compact-t1-stat_threshold=0/"
                                             "round-0002.json) was run as") and
          not os.path.exists(os.path.join(tmp, "raw", "compact-t1-stat_threshold=0.json")),
          f"a round run with other flags is refused, not merged: {why}")

# ---- Help: every option says what it does, and the docstring's usage names it ----

def option_help(text):
    """{option: its help text} from argparse's --help."""
    helps, current = {}, None
    for line in text.split("\n"):
        m = re.match(r"^  (-\S.*?)(?:\s{2,}(\S.*))?$", line)
        if m:
            current = re.findall(r"--[a-z-]+", m.group(1))[-1]
            helps[current] = m.group(2) or ""
        elif current and line.startswith("    ") and line.strip():
            helps[current] += " " + line.strip()
        else:
            current = None
    return helps


p = run_sweep("--help")
helps = option_help(p.stdout)
options = [o for o in helps if o != "--help"]
usage = sweep.__doc__[sweep.__doc__.index("usage: scripts/sweep"):]
bare = [o for o, text in helps.items() if len(text.split()) < 3]
check(p.returncode == 0 and len(options) >= 11 and not bare,
      f"every option has help text: {bare}\n{p.stdout}")
check(all(o in usage for o in options),
      f"the docstring's usage names every option: {[o for o in options if o not in usage]}")
p = run_sweep("--placements", "compact,compact", "--dry-run")
check(p.returncode == 2 and p.stderr.strip().splitlines() == [
    "sweep: --placements: 'compact,compact' names a placement twice"],
    f"a placement named twice: one line, exit 2: {p.returncode}\n{p.stderr}")

# ---- The fake mmscale: rounds that crash, hang, and a budget that stops ----

with tempfile.TemporaryDirectory() as tmp:
    # A knob sweep interrupted in round 2 keeps round 1 and resumes with round 2.
    marker = os.path.join(tmp, "hanging")
    hang = wrapped_fake(tmp, "hang", f"if real and any('round-0002.json' in a for a in args):\n"
                                     f"    open({marker!r}, 'w').close()\n    time.sleep(300)")
    out = os.path.join(tmp, "knob")
    knob_args = ["--threads", "1", "--placements", "compact", "--set", "stat_threshold=auto,0,32",
                 "--repetitions", "3", "--min-time", "0.01"]
    proc = subprocess.Popen([sys.executable, SWEEP, *knob_args, "--out", out],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True, env=fake_env(hang))
    deadline = time.time() + 300
    while not os.path.exists(marker) and proc.poll() is None and time.time() < deadline:
        time.sleep(0.05)
    os.killpg(proc.pid, signal.SIGINT)
    _, err = proc.communicate(timeout=300)
    first = logged_jobs(out)
    kept = sorted(os.path.relpath(f, out) for f in glob.glob(os.path.join(out, "raw", "**", "*"),
                                                             recursive=True)
                  if os.path.isfile(f))
    check(proc.returncode == 130 and re.search(
        r"sweep: interrupted during placement=compact threads=1 stat_threshold=\S+ round 2/3: "
        rf"that round is discarded; the finished rounds are in {out}/raw/rounds; "
        rf"scripts/sweep --resume {out} runs the rest", err),
        f"an interrupted knob sweep names the round: {proc.returncode}\n{err}")
    check(kept == [f"raw/rounds/compact-t1-stat_threshold={v}/round-0001.json"
                   for v in ("0", "32", "auto")],
          f"round 1 kept, the interrupted run and no unit file: {kept}")
    p = run_sweep("--resume", out, env=fake_env(wrapped_fake(tmp, "plain", "pass")))
    resumed = logged_jobs(out)[len(first):]
    check(p.returncode == 0 and sorted((u, r) for u, r, _ in resumed) == sorted(
        (f"compact-t1-stat_threshold={v}", r) for v in ("auto", "0", "32") for r in (2, 3)),
        f"--resume runs rounds 2 and 3 only: {p.returncode} {[(u, r) for u, r, _ in resumed]}"
        f"\n{p.stderr}")
    check([r for _, r, _ in resumed] == [2, 2, 2, 3, 3, 3],
          f"resumed round by round: {[r for _, r, _ in resumed]}")
    doc = load_json(os.path.join(out, "raw", "compact-t1-stat_threshold=32.json"))
    reps = sorted((b.get("repetition_index"), b.get("repetitions"))
                  for b in doc.get("benchmarks", []) if "2.6.31" in b.get("name", ""))
    check(reps == [(0, 3), (1, 3), (2, 3)], f"the resumed unit has its 3 rounds: {reps}")

    # A crashed round is named, its unit left unmerged; --resume runs that round alone.
    crash = wrapped_fake(tmp, "crash", "if real and 'round-0002.json' in ' '.join(args) and "
                                       "'--set=stat_threshold=0' in args:\n"
                                       "    os.kill(os.getpid(), signal.SIGABRT)")
    out = os.path.join(tmp, "crash")
    p = run_sweep(*knob_args, "--out", out, env=fake_env(crash))
    units = sorted(os.path.basename(f) for f in glob.glob(os.path.join(out, "raw", "*.json")))
    check(p.returncode == 1 and
          "sweep: FAILED round placement=compact threads=1 stat_threshold=0 round 2/3: mmscale "
          "killed by SIGABRT; nothing kept" in p.stderr.splitlines() and
          p.stderr.splitlines()[-1].endswith("FAILED: 1 of 3 units (compact-t1-stat_threshold=0)"
                                             "; named above and in summary.md") and
          units == ["compact-t1-stat_threshold=32.json", "compact-t1-stat_threshold=auto.json"],
          f"a crashed round: exit {p.returncode}, units {units}\n{p.stderr}")
    before = len(logged_jobs(out))
    p = run_sweep("--resume", out, env=fake_env(wrapped_fake(tmp, "plain", "pass")))
    again = [(u, r) for u, r, _ in logged_jobs(out)[before:]]
    check(p.returncode == 0 and again == [("compact-t1-stat_threshold=0", 2)] and
          os.path.exists(os.path.join(out, "raw", "compact-t1-stat_threshold=0.json")),
          f"--resume runs the crashed round and merges: {again}\n{p.stderr}")

    # Measured time: every real run sleeps 1 s (the probe does not), so once
    # one has finished, the 3 left take at least 3 s by what was measured.
    slow = wrapped_fake(tmp, "slow", "if real:\n    time.sleep(1)")
    out = os.path.join(tmp, "measured")
    p = run_sweep("--threads", "1", "--placements", "compact", "--set", "stat_threshold=auto,0",
                  "--repetitions", "2", "--min-time", "0.01", "--out", out,
                  env=fake_env(slow))
    left = re.search(r"sweep: \[2/4\] .* s so far, about (\S+) s left\)", p.stderr)
    check(p.returncode == 0 and re.search(r"^sweep: 2 units .*, estimated \S+ s", p.stderr, re.M)
          and "sweep: estimate from a " in p.stderr and "at threads 1" in p.stderr,
          f"the estimate and its probe are printed:\n{p.stderr}")
    check(left and float(left.group(1)) >= 3.0,
          f"'about N s left' follows the measured time: {left and left.group(0)}\n{p.stderr}")

    # --budget: the probe saw fast runs, the runs are slow: after the first,
    # the measured estimate (3 s so far and 9 left) exceeds it, and the sweep stops.
    slower = wrapped_fake(tmp, "slower", "if real:\n    time.sleep(3)")
    out = os.path.join(tmp, "budget")
    p = run_sweep("--threads", "1,2", "--placements", "compact", "--set", "stat_threshold=auto,0",
                  "--repetitions", "1", "--min-time", "0.01", "--budget", "8", "--out", out,
                  env=fake_env(slower))
    err = p.stderr.splitlines()
    check(p.returncode == 1 and len(logged_jobs(out)) == 1 and any(
        re.match(r"sweep: stopped before placement=compact threads=\d stat_threshold=\S+ round "
                 r"1/1: \S+ s so far and about \S+ s left \(measured\) exceed --budget 8 \(8 s\);"
                 rf" what finished is in {out}/raw; scripts/sweep --resume {out} runs the rest$",
                 line) for line in err) and
          err[-1].endswith("FAILED: stopped by --budget, 3 of 4 units unfinished; named above "
                           "and in summary.md"),
          f"--budget stops between units on the measured estimate: {p.returncode}\n{p.stderr}")

    # A probe that does not finish in its time is stopped, and says so.
    hung = wrapped_fake(tmp, "hung", "if not real and any(a.startswith('--benchmark_out=') "
                                     "for a in args):\n    time.sleep(300)")
    saved, sweep.MMSCALE = sweep.MMSCALE, hung
    params = dict(sweep.DEFAULTS, placements=["compact"], mmscale_flags=[], min_time=0.1)
    probed = sweep.probe(2, 2, 0.0, params, None, 0.5)
    sweep.MMSCALE = saved
    check(probed["at_least"] and probed["note"].startswith(
        "no run finished before the probe stopped at "),
        f"a probe cut short is a lower bound: {probed}")

# ---- The built mmscale ----

mmscale = os.environ.get("MMSCALE")
if not (mmscale and os.access(mmscale, os.X_OK)):
    print("note: MMSCALE not set: the checks on the built mmscale did not run")
    report("test_sweep")
env = dict(os.environ, MMSCALE=mmscale)

with tempfile.TemporaryDirectory() as tmp:
    # A knob sweep in rounds: every value once per round, in the recorded seed's order.
    out = os.path.join(tmp, "knob")
    values = ["auto", "0", "127"]
    p = run_sweep("--cases", "^vmstat/mod/mod/", "--threads", "1", "--placements", "compact",
                  "--set", "stat_threshold=" + ",".join(values), "--repetitions", "3",
                  "--min-time", "0.01", "--out", out, "--", "--papi-events=none", env=env)
    check(p.returncode == 0, f"knob sweep: exit {p.returncode}\n{p.stderr[-2000:]}")
    recorded = load_json(os.path.join(out, "sweep.json"))
    seed = recorded.get("rounds", {}).get("seed")
    jobs = logged_jobs(out)
    order = [(r, u.rsplit("=", 1)[1]) for u, r, _ in jobs]
    want = [(r, v) for r in (1, 2, 3)
            for v in sweep.round_order(seed, r, "compact", 1, values)] if seed is not None else []
    check(recorded.get("rounds", {}).get("count") == 3 and order == want,
          f"rounds in the recorded seed's order: {order}, want {want}")
    check(len(jobs) == 9 and all("--benchmark_repetitions=1" in args for _, _, args in jobs),
          f"each round runs every value once, one repetition: {[(u, r) for u, r, _ in jobs]}")
    planned = {u["unit"]: u["command"] for u in recorded.get("units", [])}
    for v in values:
        unit = f"compact-t1-stat_threshold={v}"
        f = os.path.join(out, "raw", unit + ".json")
        doc = load_json(f)
        runs = doc.get("benchmarks", [])
        ctx = doc.get("context", {})
        rounds = [load_json(sweep.round_file(out, unit, r)) for r in (1, 2, 3)]
        check(len(runs) == 3 and [b.get("repetition_index") for b in runs] == [0, 1, 2] and
              all(b.get("repetitions") == 3 and b.get("run_type") == "iteration" for b in runs)
              and [b.get("real_time") for b in runs] ==
              [d.get("benchmarks", [{}])[0].get("real_time") for d in rounds],
              f"{unit}: one run per round, repetition_index its round: "
              f"{[(b.get('repetition_index'), b.get('repetitions')) for b in runs]}")
        check("--benchmark_repetitions=1" in planned.get(unit, []) and
              mmresults.unit_args(ctx.get("mmscale_command", "")) ==
              mmresults.unit_args(planned.get(unit, [])) and
              mmresults.foreign_unit(recorded, f, ctx) is None,
              f"{unit}: its context carries the planned per-round command: "
              f"{ctx.get('mmscale_command')} / {planned.get(unit)}")
    records = mmresults.load(out, quiet=True)
    check(len(records) == 9 and not records.unusable,
          f"every reader loads the merged units: {len(records)} runs, {records.unusable}")

    # Without --set: one process per unit, every repetition in it, interleaved.
    # A one-node stand-in: compact and scatter are one plan, run once, and recorded.
    out = os.path.join(tmp, "one-node")
    one_node = "--topology=synthetic:node:1 core:2 pu:1"
    plain = ["--cases", "^bdp/3.2/", "--threads", "1,2", "--repetitions", "2", "--min-time",
             "0.01"]
    p = run_sweep(*plain, "--out", out, "--", "--papi-events=none", one_node, env=env)
    line = "sweep: placement scatter is the same plan as compact on this machine at threads 1,2: " \
           "run once"
    jobs = logged_jobs(out)
    check(p.returncode == 0 and p.stderr.splitlines().count(line) == 1 and
          [u for u, _, _ in jobs] == ["compact-t1", "compact-t2"] and
          sorted(os.listdir(os.path.join(out, "raw"))) == ["compact-t1.json", "compact-t2.json"],
          f"one node: one placement: {[u for u, _, _ in jobs]}\n{p.stderr}")
    check(all(r is None and "--benchmark_repetitions=2" in args and sweep.INTERLEAVE in args
              for _, r, args in jobs), "a sweep without --set runs a unit in one process")
    recorded = load_json(os.path.join(out, "sweep.json"))
    check(recorded.get("same_plan") == [{"placement": "scatter", "as": "compact",
                                         "threads": [1, 2]}] and
          [u["unit"] for u in recorded.get("units", [])] == ["compact-t1", "compact-t2"],
          f"sweep.json records it: {recorded.get('same_plan')}")
    p = run_sweep("--resume", out, env=env)
    check(p.returncode == 0 and line in p.stderr.splitlines() and
          "2 units (1 placement x threads 1,2), 2 already done; 0 to run" in p.stderr and
          len(logged_jobs(out)) == 2, f"--resume agrees: {p.returncode}\n{p.stderr}")
    # Two nodes of two cores: scatter is another plan, and runs.
    p = run_sweep(*plain, "--out", os.path.join(tmp, "two-nodes"), "--dry-run", "--",
                  "--papi-events=none", "--topology=synthetic:node:2 core:2 pu:1", env=env)
    check(p.returncode == 0 and "same plan" not in p.stderr and
          re.findall(r"^  (\S+):", p.stdout, re.M) == ["compact-t1", "compact-t2", "scatter-t1",
                                                       "scatter-t2"],
          f"two nodes: both placements: {p.stdout}{p.stderr}")
    # On this machine, when it has one node.
    one = json.loads(subprocess.run([mmscale, "--describe=json"], capture_output=True,
                                    text=True).stdout)["topology"]["nodes"] == 1
    if one:
        p = run_sweep(*plain, "--out", os.path.join(tmp, "here"), "--dry-run", env=env)
        check(p.returncode == 0 and "placement scatter is the same plan as compact on this "
              "machine at threads 1,2: run once" in p.stderr,
              f"this one-node machine runs one placement:\n{p.stderr}")

    # A case not registered on the plan (one CPU) is named on the console, once,
    # and only the sweep's (c2c/pingpong is not among --cases).
    out = os.path.join(tmp, "one-cpu")
    p = run_sweep("--cases", "^(drain/empty/ipi-all|bdp/3.2)/", "--threads", "1",
                  "--placements", "compact", "--repetitions", "1", "--min-time", "0.01",
                  "--out", out, "--", "--papi-events=none",
                  "--topology=synthetic:node:1 core:1 pu:1", env=env)
    note = ("sweep: mmscale: note: drain/empty/ipi-all needs 2 CPUs online (its smallest row); "
            "the plan has 1: not registered")
    notes = [l for l in p.stderr.splitlines() if "not registered" in l]
    check(p.returncode == 0 and notes == [note],
          f"the not-registered note on the console, once: {notes}\n{p.stderr}")
    # The command: under taskset nothing of drain/empty is left to run.
    if shutil.which("taskset") and len(os.sched_getaffinity(0)) > 1:
        cpu = max(os.sched_getaffinity(0))
        p = subprocess.run(["taskset", "-c", str(cpu), sys.executable, SWEEP, "--cases",
                            "^drain/empty/", "--threads", "1", "--repetitions", "1",
                            "--min-time", "0.01", "--out", os.path.join(tmp, "taskset")],
                           capture_output=True, text=True, timeout=600, env=env)
        notes = [l for l in p.stderr.splitlines() if "not registered" in l]
        rows = len(next(f for f in json.loads(subprocess.run(
            [mmscale, "--list=json"], capture_output=True, text=True).stdout)
            if f["name"] == "drain/empty")["variants"])
        check(p.returncode == 0 and len(notes) == rows and len(set(notes)) == rows and
              all(l.startswith("sweep: mmscale: note: drain/empty/") for l in notes) and
              "sweep: placement=compact threads=1: no case at this thread count" in p.stderr,
              f"taskset -c {cpu}: every drain/empty note once: {notes}\n{p.stderr}")

report("test_sweep")
