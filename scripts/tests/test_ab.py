#!/usr/bin/python3
"""scripts/ab and scripts/verdict.py.

The verdict logic on synthetic rounds, where the truth is known: the
signed-rank distribution and interval against brute force; a known shift
is called slower (and its interval holds it), no shift is same, a machine
whose level drifts between rounds (both sides alike within a round) is
still same without a shift and slower with one, rows corrected together
(BH selects the shifted row among null ones), and the three ways to be
unsteady. No timing claim is checked on this machine's runs: those are in
RESULTS.md.

scripts/ab end to end on the built mmscale, with test/claim standing for a
patch that changes a count: the row is kept, the count shows 1 -> 2 with
the claim it breaks, and every format (text, markdown, JSON with its
fields) says so; both sides are named; revisions resolve to their cached
builds; bad input is one line and exit 2; a busy loop on the run's CPU
makes the witness mark the rounds and the rows unsteady."""
import itertools
import json
import math
import os
import random
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPTS = os.path.dirname(HERE)
ROOT = os.path.dirname(SCRIPTS)
sys.path.insert(0, SCRIPTS)
import mmresults  # noqa: E402
import verdict  # noqa: E402
sys.path.insert(0, HERE)
from check import check, report  # noqa: E402

MMSCALE = os.environ.get("MMSCALE") or os.path.join(ROOT, "build", "mmscale")


# -- the signed-rank distribution and test against brute force -------------
def brute_w_plus(d):
    """Every sign pattern of the ranks of |d|: the exact null W+ values."""
    n = len(d)
    return [sum(r for r, s in zip(range(1, n + 1), signs) if s)
            for signs in itertools.product((0, 1), repeat=n)]


for n in (1, 5, 9):
    counts = verdict.signed_rank_null(n)
    brute = brute_w_plus([1] * n)
    check(counts == [brute.count(s) for s in range(n * (n + 1) // 2 + 1)],
          f"signed_rank_null({n}) against all 2^{n} sign patterns")

d = [0.3, -0.1, 0.25, 0.4, -0.05, 0.2, 0.15, 0.35, 0.06]
ranks = {abs(x): r for r, x in enumerate(sorted(d, key=abs), 1)}
w = sum(ranks[abs(x)] for x in d if x > 0)
null = brute_w_plus(d)
want = min(1.0, 2 * min(sum(v <= w for v in null), sum(v >= w for v in null)) / len(null))
check(abs(verdict.signed_rank_p(d) - want) < 1e-12,
      f"signed_rank_p exact: {verdict.signed_rank_p(d)} against brute force {want}")
neg = [-x for x in d]
check(abs(verdict.signed_rank_p(neg) - want) < 1e-12,
      f"signed_rank_p exact, the other tail: {verdict.signed_rank_p(neg)} against {want}")
check(verdict.signed_rank_p([]) == 1.0 and verdict.signed_rank_p([0.0, 0.0]) == 1.0,
      "signed_rank_p of nothing (zeros dropped) is 1")

# The interval: Walsh averages cut at the signed-rank critical value.
est, lo, hi, level = verdict.walsh_interval(d, 0.95)
walsh = sorted((d[i] + d[j]) / 2 for i in range(len(d)) for j in range(i, len(d)))
null_sorted = sorted(null)
c = 0
while sum(v <= c for v in null) / len(null) <= 0.025:
    c += 1
check(lo == walsh[c - 1] and hi == walsh[-c] and
      abs(level - (1 - 2 * sum(v <= c - 1 for v in null) / len(null))) < 1e-12,
      f"walsh_interval: [{lo}, {hi}] at {level}, want walsh[{c - 1}] and walsh[-{c}]")
check(est == walsh[len(walsh) // 2], "the Hodges-Lehmann estimate is the Walsh median")
check(verdict.walsh_interval(d[:4], 0.95)[1] is None,
      "4 rounds cannot give a 95% interval (the smallest tail is 1/16)")


# -- verdicts on synthetic rounds -------------------------------------------
def rounds(n, shift, noise, drift=0.0, seed=1):
    """Per round: (before, after) times of a machine whose level moves by
    up to +-drift between rounds, both sides alike within a round."""
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        level = 1 + rng.uniform(-drift, drift)
        before = 100 * level * math.exp(rng.gauss(0, noise))
        after = 100 * (1 + shift) * level * math.exp(rng.gauss(0, noise))
        out.append((before, after))
    return out


def row(pairs, marked=0):
    return {"d": [math.log(a / b) for b, a in pairs], "rounds": len(pairs) + marked,
            "marked": marked}


v = verdict.verdicts([row(rounds(40, 0.05, 0.02))])[0]
check(v["verdict"] == "slower" and v["low"] <= 1.05 <= v["high"] and
      abs(v["ratio"] - 1.05) < 0.01, f"a 5% shift is slower, its interval holds 1.05: {v}")
v = verdict.verdicts([row(rounds(40, -0.05, 0.02))])[0]
check(v["verdict"] == "faster" and v["ratio"] < 1, f"a -5% shift is faster: {v}")
v = verdict.verdicts([row(rounds(40, 0.0, 0.02))])[0]
check(v["verdict"] == "same" and v["low"] < 1 < v["high"] and
      verdict.reach(v["low"], v["high"]) < 0.02,
      f"no shift is same, with what it could have seen: {v}")
# Drift between rounds of +-30%: far more than the effect; pairing cancels it.
v = verdict.verdicts([row(rounds(40, 0.0, 0.02, drift=0.3, seed=2))])[0]
check(v["verdict"] == "same", f"drift between rounds, no shift: same: {v}")
v = verdict.verdicts([row(rounds(40, 0.05, 0.02, drift=0.3, seed=3))])[0]
check(v["verdict"] == "slower" and v["low"] <= 1.05 <= v["high"],
      f"drift between rounds, a 5% shift: slower: {v}")
# Unpaired, the same drifted rounds are no verdict at all: the case for pairing.
pairs = rounds(40, 0.0, 0.02, drift=0.3, seed=2)
spread = verdict.robust_sd([math.log(b) for b, _ in pairs])
check(spread > 5 * verdict.robust_sd(row(pairs)["d"]),
      "the drift's spread across rounds dwarfs the paired ratios' spread")

# Benjamini-Hochberg itself: step-up (four p of 0.04 all pass 4 x 0.05 / 4),
# and corrected (0.03 is not under 2 x 0.05 / 4).
check(verdict.benjamini_hochberg([0.04, 0.04, 0.04, 0.04], 0.05) == {0, 1, 2, 3} and
      verdict.benjamini_hochberg([0.011, 0.03, 0.2, 0.5], 0.05) == {0} and
      verdict.benjamini_hochberg([0.5, 0.011], 0.05) == {1},
      "Benjamini-Hochberg's step-up thresholds k q / m")

# Several rows corrected together: the one shifted row among ten null ones.
rows = [row(rounds(30, 0.0, 0.02, seed=10 + i)) for i in range(10)] + \
    [row(rounds(30, 0.08, 0.02, seed=99))]
vs = verdict.verdicts(rows, 0.05)
check([x["verdict"] for x in vs] == ["same"] * 10 + ["slower"],
      f"BH over 11 rows: {[x['verdict'] for x in vs]}")
check(vs[0]["nominal"] == 1 - 0.05 / 11 and vs[0]["tested"] == 11 and
      all(x["level"] >= x["nominal"] for x in vs),
      f"intervals at Benjamini-Yekutieli's 1 - R q / m (R = 1, m = 11), each at least that: "
      f"{[(x['nominal'], x['level']) for x in vs]}")

# Too few rounds for the corrected level: 8 rounds cannot give 99.9% (needs 11).
rows = [row(rounds(8, 0.0, 0.02, seed=20 + i)) for i in range(37)]
v = verdict.verdicts(rows, 0.05)[0]
check(v["verdict"] == "unsteady" and "needs 11" in v["why"] and verdict.min_rounds(
      1 - 0.05 / 37) == 11, f"8 rounds among 37 rows: too few for the level: {v}")

# Unsteady: too few rounds, too many marked, an interval too wide.
v = verdict.verdicts([row(rounds(5, 0.2, 0.01))])[0]
check(v["verdict"] == "unsteady" and "fewer than" in v["why"], f"5 rounds: {v}")
v = verdict.verdicts([row(rounds(30, 0.0, 0.02), marked=40)])[0]
check(v["verdict"] == "unsteady" and "marked" in v["why"], f"40 of 70 rounds marked: {v}")
v = verdict.verdicts([row(rounds(30, 0.0, 0.02), marked=20)])[0]
check(v["verdict"] == "same", f"20 of 50 rounds marked, 30 clean ones left: a verdict: {v}")
v = verdict.verdicts([row(rounds(8, 0.0, 0.5, seed=5))])[0]
check(v["verdict"] == "unsteady" and "reaches past" in v["why"],
      f"a spread of 50% per round in 8 rounds says nothing: {v}")
check(verdict.rounds_needed(0.02, 0.05, 0.95) < verdict.rounds_needed(0.02, 0.02, 0.95) <
      verdict.rounds_needed(0.04, 0.02, 0.95), "rounds needed grow as the effect shrinks and "
      "the spread grows")


# -- scripts/ab's counts and claims, as functions -----------------------------
abmod = mmresults.load_script("ab")


def count(*values):
    c = abmod.Count()
    for v in values:
        c.add(v)
    return c


check(count(2079.42).differs(count(2079.38)) and count(2079.42).text() == "2079.42",
      "two fractional counts, each the same in every round, differ by their digits")
check(not count(0.0416, 0.0417).differs(count(0.04165, 0.0418)) and
      count(0.0416, 0.0417).text() == "0.0416..0.0417",
      "a count that moves with the iteration count: overlapping ranges are no change")
check(count(8).differs(count(4)) and count(14).text() == "14" and
      count(14).exact_value() == 14 and count(0.5).exact_value() is None,
      "whole counts: exact, and a change")
check(abmod.claim_text("lock_acquires 4 per operation, the row claims 8") ==
      "lock_acquires: claims 8, measured 4", "a claim message as the row's note")


# -- scripts/ab end to end ----------------------------------------------------
def ab(*args, env=None, **kw):
    return subprocess.run([sys.executable, os.path.join(SCRIPTS, "ab"), *args],
                          capture_output=True, text=True, env=env, **kw)


tmp = tempfile.mkdtemp(prefix="test_ab-")
TEST = ["--", "--test-cases"]
out = os.path.join(tmp, "claim")
p = ab(MMSCALE, MMSCALE, "--cases", "^test/(claim|work)", "--seconds", "4", "--min-time",
       "0.005", "--after-flags=--test-claim-reads=2", "--out", out, "--format", "json", *TEST)
check(p.returncode == 0, f"ab with a changed count: exit {p.returncode}: {p.stderr[-2000:]}")
doc = json.loads(p.stdout) if p.returncode == 0 else {"rows": [], "sides": []}
byname = {r["case"]: r for r in doc["rows"]}
claim = byname.get("test/claim [threads:1]", {})
check(claim.get("counts", {}).get("global_reads") ==
      {"before": "1", "after": "2", "changed": True},
      f"the changed count is kept and exact: {claim.get('counts')}")
check(claim.get("claims", {}).get("after") == ["global_reads 2 per operation, the row claims 1"]
      and claim.get("claims", {}).get("before") == [],
      f"the after side's claim is reported, not failed: {claim.get('claims')}")
check(all(k in claim for k in ("case", "metric", "before", "after", "ratio", "ci", "verdict")),
      f"a JSON row carries case, metric, before, after, ratio, ci and verdict: {sorted(claim)}")
check(all(r.get("verdict") in ("faster", "slower", "same", "unsteady") for r in doc["rows"]),
      f"every row has one of the four words: {[r.get('verdict') for r in doc['rows']]}")
check(doc["rows"] and doc["rows"][0]["case"] == "test/claim [threads:1]",
      "the row whose count changed comes first")
check([s.get("binary") for s in doc["sides"]] == [os.path.realpath(MMSCALE)] * 2 and
      all(s.get("revision") for s in doc["sides"]) and
      doc["sides"][1]["flags"] == ["--test-claim-reads=2"],
      f"each side named by binary, revision and flags: {doc['sides']}")
rounds_done = doc.get("rounds", 0)
for label in ("before", "after"):
    got = sorted(os.listdir(os.path.join(out, "raw", label))) if os.path.isdir(
        os.path.join(out, "raw", label)) else []
    check(len(got) == rounds_done > 0, f"one raw file per round for {label}: {len(got)} of "
          f"{rounds_done}")
check(os.path.exists(os.path.join(out, "ab.json")) and os.path.exists(os.path.join(out, "ab.txt")),
      "ab.json and ab.txt are kept beside the rounds")
text = open(os.path.join(out, "ab.txt")).read() if os.path.exists(os.path.join(out, "ab.txt")) \
    else ""
check("counts: global_reads 1 -> 2 (+1)" in text and
      "after: global_reads: claims 1, measured 2" in text and "p=" not in text,
      f"the text table shows the count as exact and the claim it breaks:\n{text}")
check(text.count("before: ") == 1 and f"git {doc['sides'][0]['revision']}" in text
      if doc["sides"] else False, f"the text header names each side:\n{text[:1500]}")
# The same results read back by compare (the raw rounds are results folders).
p = subprocess.run([sys.executable, os.path.join(SCRIPTS, "compare"),
                    os.path.join(out, "raw", "before"), os.path.join(out, "raw", "after"),
                    "--metric", "global_reads"], capture_output=True, text=True)
check(p.returncode == 0 and "test/claim" in p.stdout, f"compare reads ab's rounds: {p.stderr}")

# --from: the same verdict again from the kept rounds, nothing run.
p = ab("--from", out, "--format", "json")
again = json.loads(p.stdout) if p.returncode == 0 else {"rows": []}
check(p.returncode == 0 and [(r["case"], r["verdict"], r["ratio"], r["counts"]) for r in
                             again["rows"]] == [(r["case"], r["verdict"], r["ratio"], r["counts"])
                                                for r in doc["rows"]] and
      sorted(os.listdir(out)) == ["ab.json", "ab.txt", "raw"],
      f"--from gives the run's verdict again and writes nothing: {p.stderr[-800:]}")

# Markdown, and one side: its variants against the baseline in the same runs.
p = ab(MMSCALE, "--cases", "^bdp/(2.6.31-rc8|cached-locals-v2)/", "--seconds", "3",
       "--min-time", "0.005", "--format", "markdown", "--out", os.path.join(tmp, "within"),
       "--", "--threads=1")
check(p.returncode == 0 and "| baseline ns | variant ns |" in p.stdout and
      "bdp/cached-locals-v2 vs 2.6.31-rc8 [threads:1]" in p.stdout and
      "counts: global_reads 14 -> 9 (-5); bdi_reads 4 -> 2 (-2)" in p.stdout,
      f"one side, markdown: the seed's counts as exact:\n{p.stdout}{p.stderr[-1500:]}")

# Revisions resolve to their build in the cache, once built (not rebuilt here).
head = subprocess.run(["git", "-C", ROOT, "rev-parse", "HEAD"], capture_output=True,
                      text=True).stdout.strip()
cache = os.path.join(tmp, "cache")
os.makedirs(os.path.join(cache, head[:12], "build"))
os.symlink(os.path.realpath(MMSCALE), os.path.join(cache, head[:12], "build", "mmscale"))
open(os.path.join(cache, head[:12], "build", "ab-built"), "w").close()  # a finished build
env = dict(os.environ, MMSCALE_AB_CACHE=cache)
p = ab("HEAD", MMSCALE, "--cases", "^test/work", "--seconds", "2", "--min-time", "0.005",
       "--format", "json", "--out", os.path.join(tmp, "rev"), *TEST, env=env)
check(p.returncode == 0 and f"{head[:12]} built before" in p.stderr and
      json.loads(p.stdout)["sides"][0]["how"] == f"revision HEAD ({head[:12]})",
      f"a revision finds its cached build: {p.stderr[-1500:]}")

# Bad input: one line, exit 2, nothing run.
for args, why in ((["no-such-revision-xyz", MMSCALE], "neither an mmscale binary"),
                  ([MMSCALE, MMSCALE, "--cases", "^no/such/case"], "matches no case"),
                  ([MMSCALE, MMSCALE, "--seconds", "soon"], "--seconds"),
                  ([MMSCALE, MMSCALE, MMSCALE], "give BEFORE AFTER"),
                  ([MMSCALE, "--after-flags=--swap=no"], "need two sides"),
                  ([MMSCALE, MMSCALE, "--after-flags=--swap=maybe"], "is not yes or no"),
                  ([MMSCALE, MMSCALE, "--", "--benchmark_repetitions=3"], "sets"),
                  ([MMSCALE, MMSCALE, "--before-flags=--benchmark_min_time=1"], "--min-time")):
    bad = os.path.join(tmp, "bad")
    p = ab(*args, "--out", bad)
    lines = p.stderr.strip().splitlines()
    check(p.returncode == 2 and len(lines) == 1 and why in lines[0] and
          not os.path.exists(os.path.join(bad, "raw")),
          f"bad input {args}: exit {p.returncode}, {p.stderr!r}")

# A run that fails is named and makes the exit status 1: on one side (its
# rounds left out), and within one side (a baseline that fails fails every
# variant row against it).
STUCK = "--test-stuck-cpu=1 --ipi-timeout-ms=50"
p = ab(MMSCALE, MMSCALE, "--cases", "^drain/empty/(ipi-all|ipi-mask)/", "--seconds", "2",
       "--after-flags", STUCK, "--format", "json", "--out", os.path.join(tmp, "failed"))
doc = json.loads(p.stdout) if p.stdout.startswith("{") else {"rows": []}
rows = {r["case"]: r for r in doc["rows"]}
ipi_all = rows.get("drain/empty/ipi-all [cpus:2/threads:1]", {})
check(p.returncode == 1 and "did not answer" in " ".join(ipi_all.get("notes", [])) and
      ipi_all.get("used") == 0 and
      rows.get("drain/empty/ipi-mask [cpus:2/threads:1]", {}).get("rounds", 0) > 0,
      f"an errored run on one side: named, exit 1, the other row compared: {p.returncode} "
      f"{ipi_all} {p.stderr[-600:]}")
p = ab(MMSCALE, "--cases", "^drain/empty/(ipi-all|ipi-mask)/", "--seconds", "2", "--format",
       "json", "--out", os.path.join(tmp, "failed-within"), "--", *STUCK.split())
doc = json.loads(p.stdout) if p.stdout.startswith("{") else {"rows": []}
check(p.returncode == 1 and len(doc["rows"]) == 1 and
      "its baseline ipi-all failed" in " ".join(doc["rows"][0]["notes"]),
      f"one side, its baseline failing: the variant's row says so, exit 1: {p.returncode} "
      f"{doc['rows']} {p.stderr[-600:]}")

# The witness: a busy loop on the one CPU the run may use marks its rounds,
# and the rows are unsteady (the machine interfered too much to say).
cpu = "0"
busy = subprocess.Popen(["taskset", "-c", cpu, "sh", "-c", "while :; do :; done"])
try:
    p = ab(MMSCALE, MMSCALE, "--cases", "^test/work", "--seconds", "3", "--min-time", "0.01",
           "--format", "json", "--out", os.path.join(tmp, "busy"), "--", "--test-cases",
           f"--cpus={cpu}")
finally:
    busy.kill()
    busy.wait()
doc = json.loads(p.stdout) if p.returncode == 0 else {"rows": [{}], "steadiness": {}}
r = doc["rows"][0]
check(r.get("verdict") == "unsteady" and "marked" in (r.get("why") or "") and
      doc["steadiness"].get("marked", 0) > doc["steadiness"].get("runs", 0) / 2,
      f"a busy loop on the run's CPU: rounds marked, unsteady: {r} {doc.get('steadiness')}"
      f" {p.stderr[-800:]}")

report("test_ab")
