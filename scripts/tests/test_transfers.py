#!/usr/bin/python3
"""mmscale --transfers end to end, on the built binaries (the rule itself is
tests/test_transfers.c's, exactly):

- the floors through the harness: c2c/pingpong moves its line twice per
  round trip (once by the requester's own read) and upgrades it twice, c2c/read_local never, c2c/read_shared at
  most once per read; the transfer counts are machine-wide (the partner's
  side is in them), by kind and by class adding up to the total;
- every run of the counting build says it is not for timing, its context
  names the rule and the line, its mmscale_runs hold the hottest lines (a
  data name, an instruction with its source line) and the pairs;
- the timed build's results carry no transfer count (nothing of it there);
- --transfer-line=128 is taken; virtual-time runs say they count nothing;
- scripts/ab --transfers, scripts/sweep --transfers and scripts/run
  --transfers carry the counts into their tables;
- scripts/transfers-vs-pmu prints its one line where no PMU counts.
Skipped (exit 77) where the counting build was not built (a sanitizer build)."""
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPTS = os.path.dirname(HERE)
ROOT = os.path.dirname(SCRIPTS)
sys.path.insert(0, HERE)
from check import check, report  # noqa: E402

MMSCALE = os.environ.get("MMSCALE") or os.path.join(ROOT, "build", "mmscale")
COUNTING = os.path.join(os.path.dirname(MMSCALE), "mmscale-transfers")
XFER = ["transfers", "transfers_read", "transfers_write", "transfers_locked", "upgrades",
        "transfers_core", "transfers_cache", "transfers_node", "transfers_remote"]

if not os.access(COUNTING, os.X_OK):
    print(f"test_transfers: {COUNTING} is not built (a sanitizer build has no counting build)")
    sys.exit(77)


def mmscale(*args, binary=MMSCALE):
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "r.json")
        p = subprocess.run([binary, *args, "--papi-events=none", "--benchmark_format=json",
                            "--benchmark_out=" + out], capture_output=True, text=True)
        doc = json.load(open(out)) if os.path.exists(out) else {}
    return p, doc


def runs(doc):
    return {b["run_name"]: b for b in doc.get("benchmarks", [])
            if b.get("run_type", "iteration") == "iteration"}


# -- the floors, through the harness ------------------------------------------
p, doc = mmscale("--transfers", "--benchmark_filter=^c2c/(pingpong|read_local|read_shared)/",
                 "--benchmark_min_time=0.02")
check(p.returncode == 0, f"the floors ran (exit {p.returncode}: {p.stderr[-300:]})")
r = runs(doc)
pp = r.get("c2c/pingpong/real_time/threads:1", {})
check(pp.get("transfers") == 2 and pp.get("transfers_read") == 2 and pp.get("upgrades") == 2,
      f"c2c/pingpong: 2 transfers (both reads) and 2 upgrades per round trip "
      f"({pp.get('transfers')}, {pp.get('transfers_read')}, {pp.get('upgrades')})")
local = r.get("c2c/read_local/real_time/threads:1", {})
check(local.get("transfers") == 0 and local.get("upgrades") == 0,
      f"c2c/read_local: nothing moves ({local.get('transfers')})")
shared = r.get("c2c/read_shared/real_time/threads:1", {})
# At most one per read: how many reads find a new value is the scheduler's (a loaded
# machine may run the reader's whole loop before the partner writes again).
check(0 <= shared.get("transfers", -1) <= 1 and shared.get("transfers") == shared.get(
      "transfers_read"), f"c2c/read_shared: at most one transfer per read, by a read "
      f"({shared.get('transfers')})")
# The requester's own: its read of each pong; the partner's read of the ping is the other.
check(pp.get("transfers_by_threads") == 1,
      f"c2c/pingpong: 1 of the 2 transfers is the requester's own ({pp.get('transfers_by_threads')})")
for name, b in r.items():
    check(all(k in b for k in XFER), f"{name}: every transfer count published")
    check(0 <= b.get("transfers_by_threads", -1) <= b["transfers"],
          f"{name}: the run's threads' own transfers, at most all of them")
    check(abs(b["transfers"] - sum(b[k] for k in XFER[1:4])) < 1e-9 and
          abs(b["transfers"] - sum(b[k] for k in XFER[5:])) < 1e-9,
          f"{name}: kinds and classes each add up to the total")
    check("transfers counted, not for timing" in b.get("label", ""),
          f"{name}: labelled not for timing ({b.get('label')})")
ctx = doc.get("context", {})
check("mtrace" in ctx.get("mmscale_transfers", "") and "64-byte" in ctx["mmscale_transfers"],
      f"the context names the rule and the line ({ctx.get('mmscale_transfers')})")
contract = doc.get("mmscale_runs", {}).get("c2c/pingpong/real_time/threads:1", {})
t = contract.get("transfers", {})
hot = t.get("hottest_lines", [])
check(len(hot) == 1 and hot[0]["transfers_per_op"] == 2 and "bench/c2c.c" in hot[0]["latest_by"]
      and "atomic_load" in hot[0]["code"] and "c2c_start" in hot[0]["data"],
      f"pingpong's hottest line: its line, 2 per round trip, by c2c.c's load, in what "
      f"c2c_start allocated ({hot})")
check(sorted(p_[:2] for p_ in t.get("pairs", [])) == [[0, 1], [1, 0]],
      f"pingpong's pairs: CPU 0 from CPU 1 and back ({t.get('pairs')})")
check("hottest lines" in p.stderr and "c2c/pingpong (threads 1)" in p.stderr,
      "stderr lists each run's hottest lines")

# -- the timed build carries none of it --------------------------------------
p, doc = mmscale("--benchmark_filter=^c2c/pingpong/", "--benchmark_min_time=0.01")
b = runs(doc).get("c2c/pingpong/real_time/threads:1", {})
check(p.returncode == 0 and b and not any(k in b for k in XFER)
      and "mmscale_transfers" not in doc.get("context", {})
      and "transfers" not in doc.get("mmscale_runs", {}).get(
          "c2c/pingpong/real_time/threads:1", {}),
      "the timed build's results hold no transfer count, context or lines")

# -- 128-byte lines; virtual time counts nothing -----------------------------
p, doc = mmscale("--transfers", "--transfer-line=128", "--benchmark_filter=^c2c/pingpong/",
                 "--benchmark_min_time=0.01")
check(p.returncode == 0 and "128-byte" in doc.get("context", {}).get("mmscale_transfers", ""),
      "--transfer-line=128 counts 128-byte lines")
p, doc = mmscale("--transfers", "--benchmark_filter=^throttle/JBOD-10HDD-6G/xfs-1dd.*/6.18/",
                 "--throttle-seconds=1")
b = next(iter(runs(doc).values()), {})
check(p.returncode == 0 and "transfers" not in b and
      "virtual time: no transfers counted" in b.get("label", ""),
      f"a virtual-time run says it counts nothing ({b.get('label')})")

# -- the scripts --------------------------------------------------------------
env = dict(os.environ, MMSCALE=MMSCALE)
with tempfile.TemporaryDirectory() as tmp:
    p = subprocess.run([os.path.join(SCRIPTS, "ab"), MMSCALE, MMSCALE, "--cases",
                        "^c2c/pingpong/", "--transfers", "--format", "json",
                        "--out", os.path.join(tmp, "ab")], capture_output=True, text=True,
                       env=env)
    rows = json.loads(p.stdout).get("rows", []) if p.returncode == 0 else []
    counts = rows[0].get("counts", {}) if rows else {}
    # The lowest run is the floor, 2. A run's first ping finds the line with the partner
    # alone (a read for ownership, not an upgrade): one transfer more, which a loaded
    # machine's run of 1 iteration shows as 3 ('2..3').
    check(p.returncode == 0 and
          str(counts.get("transfers", {}).get("after", "")).split("..")[0] == "2",
          f"scripts/ab --transfers: the row's transfers (exit {p.returncode}, {counts}, "
          f"{p.stderr[-300:]})")
    p = subprocess.run([os.path.join(SCRIPTS, "sweep"), "--cases", "^c2c/pingpong/",
                        "--threads", "1", "--placements", "compact", "--repetitions", "2",
                        "--min-time", "0.01", "--transfers", "--out", os.path.join(tmp, "sw")],
                       capture_output=True, text=True, env=env)
    summary = open(os.path.join(tmp, "sw", "summary.md")).read() if p.returncode == 0 else ""
    check("transfers" in summary and "--transfers" in open(
          os.path.join(tmp, "sw", "sweep.json")).read(),
          f"scripts/sweep --transfers: recorded, and its summary has the transfer tables "
          f"(exit {p.returncode}: {p.stderr[-300:]})")
p = subprocess.run([os.path.join(SCRIPTS, "transfers-vs-pmu"), "--cases", "^c2c/pingpong/"],
                   capture_output=True, text=True, env=env)
check(p.returncode == 0 and ("no PMU here" in p.stdout or "per operation" in p.stdout)
      and "c2c/pingpong" in p.stdout, f"scripts/transfers-vs-pmu: a table ({p.stdout[-300:]})")

sys.exit(report("test_transfers (scripts)"))
