#!/usr/bin/python3
"""Regenerate the scripts/ab section of RESULTS.md (issue 38): does its verdict
hold on a shared machine?

1. A/A: the README's command with the same revision on both sides
   (scripts/ab HEAD HEAD --cases '^(bdp|drain/empty|vmstat/mod)/'
   --seconds 60), AA_RUNS times with the machine as it is, and AA_RUNS
   times with a busy loop pinned to CPU 1 for the whole run: how many
   rows came out faster or slower (the goal: none), same, unsteady.
2. Sensitivity: test/work (units of dependent arithmetic per operation)
   at 100 against 102, 105 and 110 units, one binary, --after-flags, for
   SENSITIVITY_SECONDS each; the rounds are then replayed through ab's own
   verdict, and the table says after how many seconds (and rounds) the row
   was called slower and stayed so to the end.
3. --calibrate on the A/A's cases: the seconds this machine needs per
   row for 2%, 5% and 10%, from a minute of A/A rounds.
4. The seeds' questions through scripts/ab: bdp/cached-locals-v2 against
   2.6.31-rc8 (seed 000), and drain/empty's variants against ipi-all
   (seed 002), each one side, its variants against the baseline in the
   same runs.
5. A patch that changes a count: kernel/linux-6.18/mm/page_alloc.c with 55f77df7d715's
   batched drain undone (drain_pages_zone frees the whole list under one
   lock again), built from a copy of HEAD, against HEAD: the row keeps its
   time and shows its counts and the claims they break.

Each run's table is kept under results/ab-results/ (the whole ab output).

usage: scripts/results_ab.py [--print] [--quick]   (--quick: 2 A/A runs a
       kind and 30 s runs, to try the script; not for RESULTS.md)"""
import json
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mmresults  # noqa: E402
from mmresults import ROOT, machine, replace_section  # noqa: E402

QUICK = "--quick" in sys.argv
AA_RUNS = 2 if QUICK else 10
AA_SECONDS = 30 if QUICK else 60
SENSITIVITY_SECONDS = 15 if QUICK else 60
AA_CASES = "^(bdp|drain/empty|vmstat/mod)/"
OUT = os.path.join(ROOT, "results", "ab-results")
AB = os.path.join(ROOT, "scripts", "ab")


def ab(args, name, busy=False):
    """Run scripts/ab with args (OUT/<name> its --out) -> its JSON."""
    out = os.path.join(OUT, name)
    if os.path.exists(out):
        shutil.rmtree(out)
    cmd = [sys.executable, AB, *args[:args.index("--") if "--" in args else len(args)],
           "--out", out, "--format", "json",
           *(args[args.index("--"):] if "--" in args else [])]
    loop = subprocess.Popen(["taskset", "-c", "1", "sh", "-c", "while :; do :; done"]) \
        if busy else None
    try:
        p = subprocess.run(cmd, capture_output=True, text=True)
    finally:
        if loop:
            loop.kill()
            loop.wait()
    if p.returncode != 0:
        sys.exit(f"results_ab.py: `{shlex.join(['scripts/ab', *args])}` exited "
                 f"{p.returncode}: {p.stderr.strip().splitlines()[-1:]}: no section written")
    print(f"results_ab.py: {name}: {p.stderr.strip().splitlines()[-1]}", file=sys.stderr)
    return json.loads(p.stdout)


def from_kept(name, alpha):
    """scripts/ab --from OUT/<name> --alpha A: the verdict again from the kept rounds."""
    p = subprocess.run([sys.executable, AB, "--from", os.path.join(OUT, name), "--alpha", alpha,
                        "--format", "json"], capture_output=True, text=True)
    if p.returncode not in (0, 1):
        sys.exit(f"results_ab.py: scripts/ab --from {name} exited {p.returncode}: no section "
                 "written")
    return json.loads(p.stdout)


def words(doc):
    ws = [r["verdict"] for r in doc["rows"] if r["verdict"]]
    return {w: ws.count(w) for w in ("faster", "slower", "same", "unsteady")}


def aa_section():
    cmd = ["HEAD", "HEAD", "--cases", AA_CASES, "--seconds", str(AA_SECONDS)]
    lines = ["### A/A: the same revision on both sides", "",
             f"`scripts/ab {shlex.join(cmd)}`, {AA_RUNS} times as the machine was and "
             f"{AA_RUNS} times with `taskset -c 1 sh -c 'while :; do :; done'` running "
             "throughout (CPU 1: the threads:2 rows and the drain rows' partner CPU share it). "
             "Every row should be `same` or `unsteady`.", "",
             "The last column re-reads the same rounds at q = 0.05 instead of ab's 0.01 "
             "(`scripts/ab --from results/ab-results/RUN --alpha 0.05`): what the stricter "
             "default buys.", "",
             "| run | machine | rounds | rows | faster | slower | same | unsteady | runs marked "
             "| widest `same` | faster or slower at q = 0.05 |",
             "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    wrong = total = wrong_05 = 0
    for busy in (False, True):
        for i in range(1, AA_RUNS + 1):
            name = f"aa-{'busy' if busy else 'quiet'}-{i}"
            doc = ab(cmd, name, busy)
            w = words(doc)
            reach = max((max(abs(r["ci"][0] - 1), abs(r["ci"][1] - 1)) for r in doc["rows"]
                         if r["verdict"] == "same" and r["ci"]), default=None)
            wrong += w["faster"] + w["slower"]
            total += sum(w.values())
            w05 = words(from_kept(name, "0.05"))
            wrong_05 += w05["faster"] + w05["slower"]
            st = doc["steadiness"]
            lines.append(f"| {i} | {'busy loop on CPU 1' if busy else 'as it was'} | "
                         f"{doc['rounds']} | {sum(w.values())} | {w['faster']} | {w['slower']} | "
                         f"{w['same']} | {w['unsteady']} | {st['marked']} of {st['runs']} | "
                         f"{'-' if reach is None else f'+-{reach:.1%}'} | "
                         f"{w05['faster'] + w05['slower']} |")
    lines += ["", f"**{wrong} of {total} rows** were called faster or slower where nothing "
              f"changed (the goal: 0), and {wrong_05} at q = 0.05. Benjamini-Hochberg keeps a "
              "false call somewhere in a run to about q of the runs; a minute of A/A rounds is "
              "at the edge of what 37 rows corrected together can resolve, so the rows that "
              "cannot be told within +-10% are unsteady.", ""]
    return lines


def replay_called(out_dir, row_case, doc):
    """Replay an ab run's rounds one by one through ab's verdict -> (seconds,
    rounds) after which row_case was called slower and stayed so (seconds
    at the run's own pace: its seconds over its rounds), or None."""
    abmod = mmresults.load_script("ab")
    study = abmod.Study(False, None)
    rounds = sorted(os.listdir(os.path.join(out_dir, "raw", "before")))
    per_round = doc["seconds"] / doc["rounds"]
    called = None
    for k, f in enumerate(rounds, 1):
        recs = {}
        for side in ("before", "after"):
            entries = mmresults.read(os.path.join(out_dir, "raw", side, f), "results_ab",
                                     quiet=True)
            recs[side] = mmresults.records_from(entries)
        study.add_round(recs, {"before": [], "after": []})
        # Every round up to 100, then every 10th (and the last): the interval
        # of n rounds sorts n^2/2 Walsh averages.
        if k > 100 and k % 10 and k != len(rounds):
            continue
        word = next((v["verdict"] for r, v in abmod.evaluate(study, doc["alpha"])
                     if r.title == row_case and v), None)
        if word == "slower" and called is None:
            called = (k * per_round, k)
        elif word != "slower":
            called = None
    return called


def sensitivity_section():
    binary = os.path.join(ROOT, "build", "mmscale")
    lines = ["### Sensitivity: a known difference", "",
             "test/work does N units of dependent arithmetic per operation (--test-work=N); "
             "the same binary at 100 units against 102, 105 and 110, one row, "
             f"{SENSITIVITY_SECONDS} s each (--resolution 0.01: no early stop). The rounds are "
             "then replayed one by one through ab's own verdict (each of the first 100 rounds, "
             "then every 10th): the time (and rounds) after which the row was called `slower` "
             "and stayed so to the end, the time at the run's own pace.", "",
             "| after | command | ratio [interval] at the end | verdict at the end | "
             "called slower after |", "|---|---|---|---|---:|"]
    for units in (102, 105, 110):
        cmd = ["build/mmscale", "build/mmscale", "--cases", "^test/work",
               f"--after-flags=--test-work={units}", "--seconds", str(SENSITIVITY_SECONDS),
               "--resolution", "0.01", "--", "--test-cases"]
        args = [binary, binary, *cmd[2:]]
        doc = ab(args, f"sensitivity-{units}")
        row = doc["rows"][0]
        called = replay_called(os.path.join(OUT, f"sensitivity-{units}"), row["case"], doc)
        ci = f"{row['ratio']:.4f} [{row['ci'][0]:.4f}, {row['ci'][1]:.4f}]" if row["ci"] else "-"
        when = f"{called[0]:.1f} s ({called[1]} rounds)" if called else "not called"
        lines.append(f"| {units} units | `scripts/ab {shlex.join(cmd)}` | {ci} | "
                     f"{row['verdict']} | {when} |")
    lines.append("")
    return lines


def calibrate_section():
    """scripts/ab --calibrate's own table: how long this machine needs."""
    cmd = ["--calibrate", "HEAD", "--cases", AA_CASES, "--seconds", str(AA_SECONDS)]
    out = os.path.join(OUT, "calibrate")
    if os.path.exists(out):
        shutil.rmtree(out)
    p = subprocess.run([sys.executable, AB, *cmd, "--out", os.path.relpath(out, ROOT)],
                       capture_output=True, text=True, cwd=ROOT)
    if p.returncode != 0:
        sys.exit(f"results_ab.py: `scripts/ab {shlex.join(cmd)}` exited {p.returncode}: "
                 f"{p.stderr.strip().splitlines()[-1:]}: no section written")
    return ["### How long this machine needs: scripts/ab --calibrate", "",
            f"`scripts/ab {shlex.join(cmd)}` runs HEAD against itself for a minute and turns "
            "each row's spread of round ratios into the seconds it needs to call a 2%, 5% or 10% "
            "difference with the rows corrected together (a planning figure: the sensitivity "
            "runs above are what happened).", "", "```", *p.stdout.rstrip().splitlines(), "```",
            ""]


def table(doc, title):
    lines = [f"#### {title}", "", "```", *doc["header"], ""]
    for r in doc["rows"]:
        ci = f"{r['ratio']:.3f} [{r['ci'][0]:.3f}, {r['ci'][1]:.3f}]" if r["ci"] else "-"
        before, after = (mmresults.num(v) if v is not None else "-"
                         for v in (r["before"], r["after"]))
        lines.append(f"{before:>10} {after:>10}  "
                     f"{ci:<24} {r['verdict'] or '-':<9} {r['case']}")
        lines += [" " * 24 + n for n in r["notes"]]
    return lines + ["```", ""]


def seeds_section():
    lines = ["### The seeds' questions through scripts/ab", "",
             "One side, each variant against its family's baseline in the same runs (the "
             "first table: `--format=markdown` prints the same as a table; exact counts as they "
             "are):", ""]
    for cases, title, extra in (("^bdp/(2.6.31-rc8|cached-locals-v2)/", "seed 000: cached "
                                 "locals against repeated global reads", ["--threads=1,2"]),
                                ("^drain/empty/", "seed 002: empty-list drains", [])):
        cmd = ["HEAD", "--cases", cases, "--seconds", "60", *(["--", *extra] if extra else [])]
        doc = ab(cmd, "seeds-" + cases.split("/")[0].strip("^"))
        lines.append(f"`scripts/ab {shlex.join(cmd)}`")
        lines.append("")
        lines += table(doc, title)
    return lines


def undo_batched_drain(src):
    """kernel/linux-6.18/mm/page_alloc.c's drain_pages_zone as before 55f77df7d715: the whole
    list under one lock."""
    path = os.path.join(src, "kernel", "linux-6.18", "mm", "page_alloc.c")
    text = open(path).read()
    old = """	do {
		spin_lock(&pcp->lock);
		count = READ_ONCE(pcp->count);
		if (count) {
			int to_drain = min(count, pcp->batch << CONFIG_PCP_BATCH_SCALE_MAX);

			free_pcppages_bulk(zone, to_drain, pcp, 0);
			/* whole blocks: a THP list frees 512 at a time */
			mmscale_count_add(MMSCALE_PAGES_DRAINED, (u64)(count - pcp->count));
			count -= to_drain;
		}
		spin_unlock(&pcp->lock);
	} while (count);"""
    new = """	spin_lock(&pcp->lock);
	count = READ_ONCE(pcp->count);
	if (count) {
		free_pcppages_bulk(zone, count, pcp, 0);
		mmscale_count_add(MMSCALE_PAGES_DRAINED, (u64)(count - pcp->count));
	}
	spin_unlock(&pcp->lock);"""
    if old not in text:
        sys.exit("results_ab.py: kernel/linux-6.18/mm/page_alloc.c's drain_pages_zone is not the batched loop "
                 "this section undoes: no section written")
    with open(path, "w") as f:
        f.write(text.replace(old, new))


def patch_section():
    work = tempfile.mkdtemp(prefix="results_ab-")
    src = os.path.join(work, "src")
    subprocess.run(["git", "-C", ROOT, "worktree", "add", "--detach", "--quiet", src, "HEAD"],
                   check=True)
    try:
        undo_batched_drain(src)
        build = os.path.join(work, "build")
        for cmd in (["cmake", "-S", src, "-B", build, "-DCMAKE_BUILD_TYPE=RelWithDebInfo",
                     "-DMMSCALE_BUILD_TESTS=OFF"],
                    ["cmake", "--build", build, "-j2", "--target", "mmscale"]):
            subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
        binary = os.path.join(build, "mmscale")
        cmd = ["HEAD", binary, "--cases", "^pcp/drain/", "--seconds", "60"]
        doc = ab(cmd, "patch-55f77df7d715-undone")
    finally:
        subprocess.run(["git", "-C", ROOT, "worktree", "remove", "--force", src])
        shutil.rmtree(work, ignore_errors=True)
    shown = ["HEAD", "PATCHED/build/mmscale", *cmd[2:]]
    return ["### A patch that changes a count", "",
            "kernel/linux-6.18/mm/page_alloc.c with 55f77df7d715 (\"mm: page_alloc: control latency caused by "
            "zone PCP draining\", 2024) undone - drain_pages_zone frees a CPU's whole list under "
            "one pcp->lock again instead of batch << 5 pages at a time - built from a copy of "
            f"HEAD (PATCHED), against HEAD: `scripts/ab {shlex.join(shown)}`. The patched side's "
            "runs differ from their rows' claims and are kept (`--claims=report`): the row "
            "shows the counts that changed and the claim each breaks, and its time is compared.",
            "", *table(doc, "55f77df7d715 undone, against HEAD")]


def main():
    os.makedirs(OUT, exist_ok=True)
    subprocess.run([os.path.join(ROOT, "scripts", "setup")], check=True)
    started = time.strftime("%Y-%m-%d")
    head = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short=12", "HEAD"],
                          capture_output=True, text=True).stdout.strip()
    lines = ["## Is my patch faster? scripts/ab on a shared VM", "",
             f"Measured on {machine()}, {started}, at {head}, with `scripts/results_ab.py`"
             f"{' --quick' if QUICK else ''} (about {2 * AA_RUNS * AA_SECONDS // 60 + 10} "
             "minutes). A 2-vCPU KVM guest on a shared host: its times are this machine's, the "
             "verdicts and their rates are what the section is about.", ""]
    lines += aa_section()
    lines += sensitivity_section()
    lines += calibrate_section()
    lines += seeds_section()
    lines += patch_section()
    replace_section("ab (scripts/results_ab.py)", lines)


if __name__ == "__main__":
    mmresults.main_guard(main)
