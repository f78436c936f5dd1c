#!/usr/bin/python3
"""The projection (scripts/projection.py, scripts/project) and the machine
descriptions (scripts/machines.py, machines/, scripts/machine-from-c2c):

- the model's arithmetic on worked examples, each worked out by hand in the
  comment beside it: a ping-pong, a ticket and a queued lock with 2 cores
  and with many, an ipi-all drain on 1024 CPUs, the local work here;
- a projected figure is never a measured one: the JSON has no benchmarks
  list (every results reader refuses it), the text's title and every row
  say projected, name the model and the machine file;
- what cannot be priced is said per row, never priced as 0 silently;
- machine files: every shipped one reads and names its source's commit;
  mmscale --c2c-matrix --save-machine writes one of this machine that reads;
  every malformed one is one line and exit status 2; machine-from-c2c on a
  small CSV gives the clusters' medians and says when a cluster holds
  other pairs than the topology has;
- scripts/project end to end on the counting build (c2c/pingpong), where
  it is built."""
import contextlib
import io
import json
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPTS = os.path.dirname(HERE)
ROOT = os.path.dirname(SCRIPTS)
sys.path.insert(0, HERE)
sys.path.insert(0, SCRIPTS)
from check import check, report  # noqa: E402
import machines  # noqa: E402
import mmresults  # noqa: E402
import projection  # noqa: E402

MMSCALE = os.environ.get("MMSCALE") or os.path.join(ROOT, "build", "mmscale")
COUNTING = os.path.join(os.path.dirname(MMSCALE), "mmscale-transfers")
TMP = tempfile.mkdtemp(prefix="test_project-")


def near(a, b, eps=1e-9):
    return abs(a - b) <= eps * max(1.0, abs(b))


def machine_text(**kw):
    lines = {"format": "mmscale-machine 1", "name": "worked", "source": "by hand",
             "method": "by hand", "confidence": "low", "transfer_ns.cache": "25",
             "transfer_ns.node": "100", "transfer_ns.remote": "300"}
    lines.update({k.replace("__", "."): v for k, v in kw.items()})
    return "\n".join(f"{k} = {v}" for k, v in lines.items() if v is not None) + "\n"


def write(name, text):
    path = os.path.join(TMP, name)
    with open(path, "w") as f:
        f.write(text)
    return path


def counted_file(name, row, **counts):
    """A counting run's results of one 1-thread row with these counts per op."""
    bench = {"name": row, "run_name": row, "run_type": "iteration", "threads": 1,
             **counts, "real_time": 1, "cpu_time": 1, "time_unit": "ns"}
    return write(name, json.dumps({"context": {"mmscale_transfers": "counted: test"},
                                   "benchmarks": [bench]}))


def project_cli(*args):
    return subprocess.run([sys.executable, os.path.join(SCRIPTS, "project"), *args],
                          capture_output=True, text=True, env=dict(os.environ, MMSCALE=MMSCALE))


M = machines.parse_text(machine_text(ipi_send_ns="100", ipi_receive_ns="2000"))

# -- worked examples ------------------------------------------------------------
# A ping-pong round trip moves the line twice, from a core of the same L3:
# 2 x 25 ns = 50 ns, all of it transfers.
r = projection.project({"transfers": 2, "transfers_cache": 2}, M, local_ns=0.0)
check(near(r["total"], 50.0) and near(r["parts"]["transfers"], 50.0),
      f"ping-pong: 2 transfers x 25 ns = 50 ns ({r})")
check(r["model"] == projection.MODEL and r["machine"] == "worked" and not r["unpriced"],
      f"the projection names its model and machine, and priced everything ({r})")

# A locked transfer at locked_ns: half the 2 transfers locked, locked_ns.cache 45:
# 1 x 25 + 1 x 45 = 70.
ML = machines.parse_text(machine_text(locked_ns__cache="45"))
r = projection.project({"transfers": 2, "transfers_cache": 2, "transfers_locked": 1}, ML,
                       local_ns=0.0)
check(near(r["total"], 70.0), f"a locked transfer at locked_ns: 25 + 45 = 70 ({r['total']})")

# A ticket lock, 2 cores, a = 100 ns outside, s = 10 ns hold, c = 5 ns a transfer.
# States 0, 1, 2; hand-offs S = s + c = 15 with one core, 15 + 5/2 = 17.5 with two (the
# paper's c k / 2 for one waiter); weights 1, (2/100) x 15 = 0.3, 0.3 x (1/100) x 17.5 =
# 0.0525; sum 1.3525. Hand-offs per ns X = (0.3/15 + 0.0525/17.5) / 1.3525 = 0.023 / 1.3525;
# the cycle 2/X = 117.61 ns against 115 uncontended: 2.61 ns of queueing per acquisition.
p, x = projection.lock_chain(2, 100.0, 10.0, 5.0, "ticket")
check(near(p[0], 1 / 1.3525) and near(p[1], 0.3 / 1.3525) and near(p[2], 0.0525 / 1.3525),
      f"ticket, 2 cores: P = 1, 0.3, 0.0525 over 1.3525 ({p})")
check(near(x, 0.023 / 1.3525), f"ticket, 2 cores: X = 0.023/1.3525 per ns ({x})")
q_ticket = projection.lock_queueing_ns(2, 100.0, 10.0, 5.0, "ticket")
check(near(q_ticket, 2 * 1.3525 / 0.023 - 115), f"ticket, 2 cores: {q_ticket} ns of queueing")
# The same as a queued lock: every hand-off S = 15: weights 1, 0.3, 0.045; sum
# 1.345; X = 0.345 / (15 x 1.345); the cycle 116.96: 1.96 ns.
q_queued = projection.lock_queueing_ns(2, 100.0, 10.0, 5.0, "queued")
check(near(q_queued, 2 * 15 * 1.345 / 0.345 - 115), f"queued, 2 cores: {q_queued} ns")
check(q_queued < q_ticket, "the ticket lock queues longer than the queued one")
# One core never waits: the cycle is a + s + c.
check(near(projection.lock_queueing_ns(1, 100.0, 10.0, 5.0, "ticket"), 0.0, 1e-6),
      "one core: no queueing")
# Many waiters: 64 cores on a lock held 10 ns, 100 ns apart: the queued lock's
# hand-offs are 15 ns, so it saturates at X = 1/15 (cycle 64 x 15 = 960 ns);
# the ticket lock's grow with the waiters, up to 15 + 63 x 2.5 = 172.5 ns with all
# 64 queued: its cycle at most 64 x 172.5, and it collapses far beyond the queued one.
q64t = projection.lock_queueing_ns(64, 100.0, 10.0, 5.0, "ticket")
q64q = projection.lock_queueing_ns(64, 100.0, 10.0, 5.0, "queued")
check(near(q64q, 64 * 15 - 115, 1e-3), f"queued, 64 cores: saturated, {q64q:.1f} ns")
check(10 * q64q < q64t < 64 * 172.5 - 115,
      f"ticket, 64 cores: collapse, below its all-queued bound ({q64t:.0f} ns against {q64q:.0f})")
# 1024 cores, the stand-in's: the weights overflow a double from about 256 cores
# (mmscale-proj 1 priced no queueing there); the queued lock saturates at 1024 x 15.
q1024q = projection.lock_queueing_ns(1024, 100.0, 10.0, 5.0, "queued")
q1024t = projection.lock_queueing_ns(1024, 100.0, 10.0, 5.0, "ticket")
check(near(q1024q, 1024 * 15 - 115, 1e-3), f"queued, 1024 cores: saturated, {q1024q:.1f} ns")
check(100 * q1024q < q1024t < 1024 * (15 + 1023 * 2.5) - 115,
      f"ticket, 1024 cores: finite, collapsed ({q1024t:.0f} ns)")

# An ipi-all drain on 1024 CPUs (128 nodes): 1023 IPIs sent and the lines of 7
# CPUs of the node and 1016 beyond: 1023 x 100 + 2000 (one answer waited for)
# + 7 x 100 + 1016 x 300 = 409800 ns.
drain = {"ipis_sent": 1023, "transfers": 1023, "transfers_node": 7, "transfers_remote": 1016}
r = projection.project(drain, M, local_ns=0.0)
check(near(r["parts"]["ipis"], 104300) and near(r["total"], 409800),
      f"ipi-all drain on 1024 CPUs: 409800 ns ({r['total']})")
# The same drain where the counting run says which transfers were the caller's own: 1023
# (a read of each target's answer), and 10 a target, 10230, on the targets' side. The
# caller waits for one target's mean share: 1023 + 10230 / 1023 = 1033 remote transfers
# on its path, 1033 x 300 = 309900, and the IPIs' 104300: 414200 ns.
split = {"ipis_sent": 1023, "transfers": 11253, "transfers_remote": 11253,
         "transfers_by_threads": 1023}
r = projection.project(split, M, local_ns=0.0)
check(near(r["parts"]["transfers"], 309900) and near(r["total"], 414200) and not r["unpriced"],
      f"ipi-all drain, the caller's own and one target's share: 414200 ns ({r})")
r = projection.project(drain, M, local_ns=0.0)
check(any("targets made" in u for u in r["unpriced"]),
      f"a drain without transfers_by_threads: its transfers in series, and said ({r['unpriced']})")
# Without IPI figures the IPIs are said, not priced as free.
r = projection.project(drain, machines.parse_text(machine_text()), local_ns=0.0)
check(r["parts"]["ipis"] == 0 and any("1023 IPIs" in u for u in r["unpriced"]),
      f"a machine without IPI figures: the IPIs are named unpriced ({r['unpriced']})")
# A class the machine has no figure for is named; local work left out is named.
r = projection.project({"transfers": 3, "transfers_core": 3}, M)
check(any("core transfers" in u for u in r["unpriced"]) and
      any("local work" in u for u in r["unpriced"]), f"unpriced parts named ({r['unpriced']})")
# Lock queueing needs the lock's kind; given it, a 2-thread row with one lock per op
# whose transfers cost 50 ns queues (the hold is one hand-off, c = 25).
row = {"transfers": 2, "transfers_cache": 2, "lock_acquires": 1}
r = projection.project(row, M, threads=2, local_ns=100.0)
check(r["parts"]["queueing"] == 0 and any("lock queueing" in u for u in r["unpriced"]),
      "lock queueing without the kind: named, not priced")
# The chain by hand: a = 150 - 25 - 25 = 100 outside, s = c = 25, S = 50: weights 1,
# (2/100) x 50 = 1, 1 x (1/100) x (50 + 25/2) = 0.625; sum 2.625; X = (1/50 + 0.625/62.5)
# / 2.625; the cycle 2/X = 175 against 150 uncontended: 25 ns a lock, one lock per op.
r = projection.project(row, M, threads=2, local_ns=100.0, lock_kind="ticket")
check(near(r["parts"]["queueing"], 2 * 2.625 / 0.03 - 150),
      f"queueing of a 2-thread row: {r['parts']['queueing']} ns, 25 by hand")
r = projection.project(row, M, threads=2, lock_kind="ticket")
check(r["parts"]["queueing"] == 0 and any("--local" in u for u in r["unpriced"]),
      "lock queueing without the local work: named, not priced")
# A lock row whose classes the machine does not price: named, no traceback.
r = projection.project({"transfers": 2, "transfers_core": 2, "lock_acquires": 1}, M,
                       threads=2, local_ns=100.0, lock_kind="ticket")
check(r["parts"]["queueing"] == 0 and any("no transfer figure" in u for u in r["unpriced"]),
      f"a lock row of unpriced classes: its queueing named ({r['unpriced']})")
# Fewer than one IPI per operation (a drain every 4 allocations): the targets' side of
# that operation at most, and a quarter of an answer: 0.25 x 100 + 0.25 x 2000 = 525 ns
# of IPIs; transfers 2 own + 8 the targets' (every target's, not 8 x 4): 10 x 300.
r = projection.project({"ipis_sent": 0.25, "transfers": 10, "transfers_remote": 10,
                        "transfers_by_threads": 2}, M, local_ns=0.0)
check(near(r["parts"]["ipis"], 525) and near(r["parts"]["transfers"], 3000),
      f"a quarter of an IPI per op: 525 + 3000 ns ({r['parts']})")

# The targets' queueing: an IPI to T targets that each take the same lock. Two targets
# at once, c = 10, S = s + c = 20: the first is served with 2 contending (ticket: 20 +
# 10/2 = 25), the second after it (20): the last leaves at 45 against 20 uncontended:
# 25 ns. A queued lock: 20 + 20, 20 ns. Sent 30 ns apart (more than S): no queueing.
check(near(projection.targets_queueing_ns(2, 0.0, 10.0, 10.0, "ticket"), 25.0) and
      near(projection.targets_queueing_ns(2, 0.0, 10.0, 10.0, "queued"), 20.0) and
      projection.targets_queueing_ns(2, 30.0, 10.0, 10.0, "ticket") == 0.0,
      "targets' queueing, 2 targets: 25 ns ticket, 20 queued, 0 when sent apart")
# Three sent 5 ns apart (arriving at 5, 10, 15): the first alone (20, leaves at 25), the
# second with the third there (25, leaves at 50), the third alone (20): 70 against 15 + 20.
check(near(projection.targets_queueing_ns(3, 5.0, 10.0, 10.0, "ticket"), 35.0),
      "targets' queueing, 3 targets 5 ns apart: 35 ns")
# In a row: 1023 targets and 1024 x 128 zone locks (drain_all_pages over 128 zones, every
# list empty), all remote at 300 ns, a queued lock, sent 100 ns apart: S = 600 > 100, so
# they queue: the last leaves the first lock at 100 + 1023 x 600 (each served S after
# the one before, the first on arrival), less 1023 x 100 + 600 uncontended.
drain_locks = {"ipis_sent": 1023, "transfers": 1023, "transfers_remote": 1023,
               "lock_acquires": 1024 * 128}
r = projection.project(drain_locks, M, local_ns=0.0, lock_kind="queued")
check(near(r["parts"]["targets_queueing"], 100 + 1023 * 600 - (1023 * 100 + 600)),
      f"ipi-all drain, 1023 targets queued on zone locks: 511000 ns ({r['parts']})")
r = projection.project(drain_locks, M, local_ns=0.0)
check(r["parts"]["targets_queueing"] == 0 and
      any("targets' queueing" in u and "--lock" in u for u in r["unpriced"]),
      f"the targets' queueing without the lock kind: named, not priced ({r['unpriced']})")
# The kind counted: queued_lock_acquires among lock_acquires (none ticket, all queued).
kinds = [projection.counted_lock_kind(dict(drain_locks, queued_lock_acquires=q))
         for q in (0, 1024 * 128, 1024)] + [projection.counted_lock_kind(drain_locks),
                                            projection.counted_lock_kind({"ipis_sent": 1})]
check(kinds == ["ticket", "queued", "mixed", None, None], f"the counted lock kind: {kinds}")
# The counted kind prices a row without --lock: queued counts the queued 511000 ns,
# ticket counts the ticket lock's hand-off, more.
queued_drain = dict(drain_locks, queued_lock_acquires=1024 * 128)
r = projection.project(queued_drain, M, local_ns=0.0)
check(near(r["parts"]["targets_queueing"], 511000.0) and r["lock_kind"] == "queued",
      f"counted queued locks: 511000 ns without --lock ({r['parts']})")
r = projection.project(dict(drain_locks, queued_lock_acquires=0), M, local_ns=0.0)
ticket_wait = r["parts"]["targets_queueing"]
check(r["lock_kind"] == "ticket" and ticket_wait > 511000.0,
      f"counted ticket locks: the ticket hand-off, more than the queued lock's ({ticket_wait})")
# --lock prices a row as the kind it names over the counted one (the kernel's lock where
# the emulation takes another), said in one line, once per row however often it is asked.
err = io.StringIO()
with contextlib.redirect_stderr(err):
    for _ in range(2):
        given = projection.lock_kind_for([("ticket", re.compile(""))], "drain/x", queued_drain,
                                         "test")
    same = projection.lock_kind_for([("queued", re.compile(""))], "drain/y", queued_drain,
                                    "test")
r = projection.project(queued_drain, M, local_ns=0.0, lock_kind=given)
check(near(r["parts"]["targets_queueing"], ticket_wait) and r["lock_kind"] == "ticket" and
      same == "queued" and err.getvalue() == "test: drain/x: priced with --lock ticket; its "
      "counts say its emulated locks are queued\n",
      f"--lock ticket over counted queued locks: the ticket figure, one line "
      f"({r['parts']}, {err.getvalue()!r})")
mixed = dict(drain_locks, queued_lock_acquires=1024)
r = projection.project(mixed, M, local_ns=0.0)
check(r["parts"]["targets_queueing"] == 0 and r["lock_kind"] is None and
      any("both ticket and queued" in u for u in r["unpriced"]),
      f"a row of both kinds: named, not priced ({r['unpriced']})")
# The local work here leaves out what project() adds back: the targets' queueing too.
here_parts = projection.project(queued_drain, M, local_ns=0.0)["parts"]
left, clamped = projection.local_here(2e6, queued_drain, M)
check(near(left, 2e6 - here_parts["transfers"] - here_parts["ipis"] -
           here_parts["targets_queueing"]) and not clamped and here_parts["targets_queueing"] > 0,
      f"local_here takes the targets' queueing here out of the measured time ({left})")
# A row of both kinds: local_here takes out what project() adds with the same --lock.
left, _ = projection.local_here(2e6, mixed, M, lock_kind="queued")
check(near(left, 2e6 - here_parts["transfers"] - here_parts["ipis"] -
           here_parts["targets_queueing"]),
      f"local_here of a row of both kinds with --lock queued: its queueing out too ({left})")
left, _ = projection.local_here(2e6, queued_drain, M, lock_kind="ticket")
check(near(left, 2e6 - here_parts["transfers"] - here_parts["ipis"] -
           here_parts["targets_queueing"]),
      f"local_here of a counted row: here's own kind, whatever --lock says ({left})")
r = projection.project(mixed, M, local_ns=0.0, lock_kind="queued")
check(near(r["parts"]["targets_queueing"], 511000.0),
      f"a row of both kinds with --lock queued: priced as queued ({r['parts']})")
r = projection.project(dict(drain_locks, lock_acquires=1000), M, local_ns=0.0,
                       lock_kind="queued")
check(r["parts"]["targets_queueing"] == 0 and
      any("not the same locks on every CPU" in u for u in r["unpriced"]),
      f"lock acquisitions that are not L per CPU: named, not priced ({r['unpriced']})")
r = projection.project(drain_locks, machines.parse_text(machine_text()), local_ns=0.0,
                       lock_kind="queued")
check(near(r["parts"]["targets_queueing"], 1022 * 600) and
      any("upper bound" in u for u in r["unpriced"]),
      f"no IPI figures: the targets arrive together, an upper bound, said ({r['parts']})")

# The local work: 500 ns measured here with 2 cache transfers at here's 25 ns: 450.
check(projection.local_here(500.0, {"transfers_cache": 2}, M) == (450.0, False),
      "local work: measured less here's transfers")
check(projection.local_here(40.0, {"transfers_cache": 2}, M) == (0.0, True),
      "local work: never below 0, and said")

# -- machine files -----------------------------------------------------------------
for name in machines.shipped():
    m = machines.load(name)
    check(m["confidence"] == "published" and "commit" in m["source"] and
          m.get("topology"), f"machines/{name}: published, its source's commit and topology")
bad = {
    "no format": machine_text(format=None),
    "other format": machine_text(format="mmscale-machine 9"),
    "no transfer": machine_text(**{"transfer_ns.cache": None, "transfer_ns.node": None,
                                   "transfer_ns.remote": None}),
    "a word for a number": machine_text(transfer_ns__cache="fast"),
    "a negative": machine_text(transfer_ns__cache="-1"),
    "an unknown key": machine_text(latency="3"),
    "a bad confidence": machine_text(confidence="sure"),
    "a key given twice": machine_text() + "transfer_ns.cache = 30\n",
}
counted = counted_file("counted.json", "x/y", transfers=2, transfers_cache=2)
for what, text in bad.items():
    p = project_cli("--machine", write("bad.machine", text), counted)
    lines = p.stderr.strip().splitlines()
    check(p.returncode == 2 and len(lines) == 1 and "bad.machine" in lines[0],
          f"a machine file with {what}: one line naming the file, exit 2 "
          f"({p.returncode}: {p.stderr.strip()})")
latin = os.path.join(TMP, "latin.machine")
with open(latin, "wb") as f:
    f.write(machine_text(name="caf\xe9").encode("latin-1"))
p = project_cli("--machine", latin, counted)
check(p.returncode == 2 and len(p.stderr.strip().splitlines()) == 1 and "UTF-8" in p.stderr,
      f"a machine file that is not UTF-8: one line, exit 2 ({p.stderr.strip()})")
# A row one of whose repetitions failed is not projected: named, exit 1.
doc = json.loads(open(counted).read())
doc["benchmarks"].append(dict(doc["benchmarks"][0], error_occurred=True,
                              error_message="a test failure", repetition_index=1))
p = project_cli("--machine", write("ok.machine", machine_text()),
                write("failed.json", json.dumps(doc)))
check(p.returncode == 1 and "x/y: a run failed (a test failure): not projected" in p.stderr,
      f"a failed repetition: the row named, not projected, exit 1 ({p.returncode}: "
      f"{p.stderr.strip()})")
timed = write("timed.json", json.dumps({"context": {}, "benchmarks": [
    {"name": "x/y", "run_name": "x/y", "run_type": "iteration", "threads": 1,
     "real_time": 1, "cpu_time": 1, "time_unit": "ns"}]}))
p = project_cli("--machine", write("ok.machine", machine_text()), timed)
check(p.returncode == 2 and "not a counting run" in p.stderr,
      f"a timed run is refused: it has no transfers ({p.stderr.strip()})")

# -- projected, never measured ----------------------------------------------------
ok = write("ok.machine", machine_text())
p = project_cli("--machine", ok, counted)
out = p.stdout.splitlines()
check(p.returncode == 0 and out and out[0].startswith("PROJECTED, not measured: " +
                                                       projection.MODEL),
      f"the table's title says projected and names the model ({out[:1]})")
check(any("x/y" in line and "ok.machine" in line and "50.0" in line for line in out),
      f"the row: the machine file and 2 x 25 ns ({p.stdout})")
p = project_cli("--machine", ok, "--format", "json", counted)
doc = json.loads(p.stdout)
check("benchmarks" not in doc and doc["mmscale_projection"]["rows"][0]["total"] == 50.0,
      "the JSON: a projection, no benchmarks list")
try:
    mmresults.read_text(p.stdout, "projection.json", quiet=True)
    check(False, "a results reader took a projection for a run")
except ValueError as e:
    check("no benchmarks list" in str(e), f"a results reader refuses a projection ({e})")
# The frameworks' dialects: projected-ns rows, one column per machine, under the title.
two = write("two.machine", machine_text(transfer_ns__cache="50", name="two"))
p = project_cli("--machine", ok, "--machine", two, "--format", "mmtests", counted)
lines = p.stdout.splitlines()
check(p.returncode == 0 and lines[0].startswith("PROJECTED") and
      any(line.startswith("Amean") and "projected-ns-x/y" in line and "50.00" in line and
          "100.00" in line for line in lines),
      f"--format mmtests: the projected-ns row, 50 and 100 ns ({p.stdout[:600]})")
p = project_cli("--machine", ok, "--machine", two, "--format", "lkp", counted)
check(p.returncode == 0 and p.stdout.startswith("PROJECTED") and
      "mmscale.x/y.projected_ns" in p.stdout and "+100.0%" in p.stdout,
      f"--format lkp: every row shown, +100% ({p.stdout[-400:]})")
p = project_cli("--machine", ok, "--format", "lkp", counted)
check(p.returncode == 2 and len(p.stderr.strip().splitlines()) == 1,
      "--format lkp with one machine: one line, exit 2")

# --ipi-ns: a what-if for a machine without IPI figures, said in the title.
ipi_row = counted_file("ipi_row.json", "d/e", transfers=2, transfers_cache=2, ipis_sent=3)
p = project_cli("--machine", ok, "--ipi-ns", "100,2000", "--format", "json", ipi_row)
doc = json.loads(p.stdout) if p.returncode == 0 else {}
row = doc.get("mmscale_projection", {}).get("rows", [{}])[0]
check(row.get("parts", {}).get("ipis") == 3 * 100 + 2000 and
      doc["mmscale_projection"]["ipi_ns_what_if"] == [100.0, 2000.0],
      f"--ipi-ns: 3 IPIs at 100 and one answer at 2000: 2300 ns, recorded ({p.stderr}, {row})")
p = project_cli("--machine", ok, "--ipi-ns", "100,2000", ipi_row)
check(p.returncode == 0 and "a what-if: not the machine files' figures" in p.stdout.splitlines()[0],
      f"--ipi-ns: the title says what-if ({p.stdout[:300]})")
p = project_cli("--machine", ok, "--ipi-ns", "100,2000", "--local",
                write("t.json", json.dumps({"context": {}, "benchmarks": []})), "--here", ok,
                ipi_row)
check(p.returncode == 2 and "count IPIs twice" in p.stderr,
      f"--ipi-ns with --local and a --here without IPI figures: refused ({p.stderr.strip()})")
for bad_ipi in ("100", "a,b", "-1,5", "inf,1"):
    p = project_cli("--machine", ok, "--ipi-ns", bad_ipi, ipi_row)
    check(p.returncode == 2 and len(p.stderr.strip().splitlines()) == 1,
          f"--ipi-ns {bad_ipi}: one line, exit 2 ({p.stderr.strip()})")

# scripts/compare --project: two saved counting runs priced on one machine, side by side.
counted4 = counted_file("counted4.json", "x/y", transfers=4, transfers_cache=4)
p = subprocess.run([sys.executable, os.path.join(SCRIPTS, "compare"), "--project", ok, counted,
                    counted4], capture_output=True, text=True)
lines = p.stdout.splitlines()
check(p.returncode == 0 and lines and lines[0].startswith("PROJECTED, not measured") and
      any("50.0" in line and "100.0" in line and "+100.0%" in line and "x/y" in line
          for line in lines), f"compare --project: 50 against 100 ns, +100% ({p.stdout}{p.stderr})")
# compare --project --lock: ipi-all against quick-scan as seed 002 asks, in small: 3
# targets that each take the one lock the caller takes (4 acquisitions), against none.
# No IPI figures, so they arrive together; a queued lock, S = 2 x 25: the last leaves at
# 3 x 50 = 150 against 50 alone: 100 ns of wait, on the 2 x 25 ns of transfers: 150 and 50.
ipi_m = write("ipi_m.machine", machine_text())
drains = [counted_file(f"drain{i}.json", "d/e", transfers=2, transfers_cache=2, ipis_sent=3,
                       lock_acquires=locks) for i, locks in ((1, 4), (2, 0))]
p = subprocess.run([sys.executable, os.path.join(SCRIPTS, "compare"), "--project", ipi_m,
                    "--lock", "queued", *drains], capture_output=True, text=True)
check(p.returncode == 0 and any(line.split()[:3] == ["150.0", "50.0", "-66.7%"]
                                for line in p.stdout.splitlines()),
      f"compare --project --lock: the targets' queueing on one side, 150 against 50 ns "
      f"({p.stdout}{p.stderr})")
p = subprocess.run([sys.executable, os.path.join(SCRIPTS, "compare"), "--lock", "queued",
                    *drains], capture_output=True, text=True)
check(p.returncode == 2 and len(p.stderr.strip().splitlines()) == 1,
      f"compare --lock without --project: one line, exit 2 ({p.stderr.strip()})")
p = subprocess.run([sys.executable, os.path.join(SCRIPTS, "compare"), "--project", ok, timed],
                   capture_output=True, text=True)
check(p.returncode == 2 and len(p.stderr.strip().splitlines()) == 1 and
      "not a counting run" in p.stderr, f"compare --project of a timed run: one line, exit 2 "
      f"({p.stderr.strip()})")

# --local with --here: the row's local work, 500 ns measured less 2 x 25 here.
timed500 = write("timed500.json", json.dumps({"context": {}, "benchmarks": [
    {"name": "x/y", "run_name": "x/y", "run_type": "iteration", "threads": 1,
     "real_time": 500, "cpu_time": 500, "time_unit": "ns", "iterations": 1}]}))
p = project_cli("--machine", ok, "--local", timed500, "--here", ok, "--format", "json", counted)
row = json.loads(p.stdout)["mmscale_projection"]["rows"][0] if p.returncode == 0 else {}
check(row.get("parts", {}).get("local") == 450.0 and row.get("total") == 500.0,
      f"--local/--here: 450 ns of local work, 500 projected ({p.stderr.strip()}, {row})")
p = project_cli("--machine", ok, "--local", timed500, counted)
check(p.returncode == 2 and len(p.stderr.strip().splitlines()) == 1,
      "--local without --here: one line, exit 2")

# -- machine-from-c2c -----------------------------------------------------------
# 4 CPUs, node:2 core:1 pu:2: CPUs 0,1 and 2,3 are siblings (5 ns), the rest 100.
csv = write("c2c.csv", ",,,\n5,,,\n100,100,,\n100,100,6,\n")
p = subprocess.run([sys.executable, os.path.join(SCRIPTS, "machine-from-c2c"), csv, "--name", "t",
                    "--source", "test", "--classes", "core,remote", "--topology",
                    "node:2 core:1 pu:2"], capture_output=True, text=True)
m = machines.parse_text(p.stdout) if p.returncode == 0 else {}
check(m and m["transfer_ns"] == {"core": 5.5, "remote": 100.0} and
      m["pairs"] == {"core": 2, "remote": 4} and not p.stderr,
      f"machine-from-c2c: medians 5.5 and 100, 2 and 4 pairs ({p.returncode}: {p.stderr})")
p = subprocess.run([sys.executable, os.path.join(SCRIPTS, "machine-from-c2c"), csv, "--name", "t",
                    "--source", "test", "--classes", "core,remote", "--topology",
                    "node:1 core:2 pu:2"], capture_output=True, text=True)
check(p.returncode == 0 and "the remote cluster holds 4 pairs where the topology has 0" in
      p.stdout and "the remote cluster holds 4 pairs where the topology has 0" in p.stderr,
      f"machine-from-c2c: a cluster of other pairs than the topology's is noted "
      f"({p.stderr.strip()})")
p = subprocess.run([sys.executable, os.path.join(SCRIPTS, "machine-from-c2c"),
                    write("bad.csv", ",,\n5,,\n1,2,3\n"), "--name", "t", "--source", "t",
                    "--classes", "core"], capture_output=True, text=True)
check(p.returncode == 1 and len(p.stderr.strip().splitlines()) == 1,
      f"a CSV that is not a triangle: one line, exit 1 ({p.stderr.strip()})")

# -- mmscale --c2c-matrix --save-machine: this machine's own description --------------
saved = os.path.join(TMP, "here.machine")
p = subprocess.run([MMSCALE, "--c2c-matrix", "--save-machine=" + saved], capture_output=True,
                   text=True)
try:
    here = machines.load(saved)
except (machines.MachineError, OSError) as e:
    here = None
    check(False, f"--save-machine wrote a file that reads ({p.returncode}: {p.stderr}: {e})")
if here:
    check(p.returncode == 0 and here["confidence"] == "measured" and here["transfer_ns"] and
          all(v > 0 for v in here["transfer_ns"].values()) and
          any("IPI" in n for n in here["notes"]) and not os.path.exists(saved + ".tmp"),
          f"--save-machine: measured, a transfer per class the plan has, no IPI said "
          f"({here['transfer_ns']}, {here['notes']})")
    # A locked operation per class it measured a transfer of (compare-and-swap round trips).
    check(here["locked_ns"].keys() == here["transfer_ns"].keys() and
          all(v > 0 for v in here["locked_ns"].values()),
          f"--save-machine: a locked figure per class ({here['locked_ns']})")
    # Every class the file leaves out, it says why.
    for c in ("core", "cache", "node", "remote"):
        check(c in here["transfer_ns"] or any(f"no {c} pair" in n for n in here["notes"]),
              f"--save-machine: the {c} class is measured or its absence said")

# -- machine-from-hwloc: a SLIT scaled by one measured pair ------------------------
# The dual EPYC 7742 in L3-as-NUMA mode (scripts/gen-machine-topologies): node 0's
# row is 10 (itself), 11 for one node, 12 for its socket's other 14, 32 for the
# other socket's 16. Scaled by a pair measured at distance 12 (120 ns): 11 -> 110,
# 32 -> 320; the median of the 31 other nodes (1 at 110, 14 at 120, 16 at 320) is 320.
gm = os.path.join(TMP, "gm")
subprocess.run([sys.executable, os.path.join(SCRIPTS, "gen-machine-topologies"), "--only",
                "256amd64-2p16n4c2t-epyc-7742-l3asnuma", "--out", gm], capture_output=True)
xml = os.path.join(gm, "256amd64-2p16n4c2t-epyc-7742-l3asnuma.xml")
measured = write("measured.machine", machine_text(transfer_ns__remote__12="120",
                                                  confidence="measured"))
p = subprocess.run([sys.executable, os.path.join(SCRIPTS, "machine-from-hwloc"), "--measured",
                    measured, "--topology", "xml:" + xml, "--name", "scaled"],
                   capture_output=True, text=True, env=dict(os.environ, MMSCALE=MMSCALE))
m = machines.parse_text(p.stdout) if p.returncode == 0 else {}
check(m and m["confidence"] == "low" and
      m["transfer_ns_by_distance"] == {11: 110.0, 12: 120.0, 32: 320.0} and
      m["transfer_ns"]["remote"] == 320.0 and m["transfer_ns"]["cache"] == 25.0,
      f"machine-from-hwloc: 11/12/32 scaled by 120 ns at 12, low confidence "
      f"({p.returncode}: {p.stderr.strip()}, {m and m['transfer_ns_by_distance']})")
p = subprocess.run([sys.executable, os.path.join(SCRIPTS, "machine-from-hwloc"), "--measured",
                    measured, "--topology", "synthetic:node:2 core:1 pu:1", "--name", "x"],
                   capture_output=True, text=True, env=dict(os.environ, MMSCALE=MMSCALE))
check(p.returncode == 2 and "no distance matrix" in p.stderr,
      f"machine-from-hwloc: a topology without distances, exit 2 ({p.stderr.strip()})")

# -- end to end on the counting build ------------------------------------------------
if os.access(COUNTING, os.X_OK):
    p = project_cli("--machine", "dual-xeon-gold-6242", "--format", "json", "--",
                    "--benchmark_filter=^c2c/pingpong/", "--benchmark_min_time=0.01",
                    "--papi-events=none", "--topology=synthetic:node:2 l3:1 core:16 pu:2")
    rows = json.loads(p.stdout)["mmscale_projection"]["rows"] if p.returncode == 0 else []
    xeon = machines.load("dual-xeon-gold-6242")
    # Placed compact, the partner is CPU 0's SMT sibling: its transfers (2 per round
    # trip, and what the window's edges add over few iterations) are all core ones.
    c = rows[0]["counts"] if rows else {}
    check(rows and c.get("transfers_core", 0) >= 2 and c["transfers_core"] == c["transfers"] and
          near(rows[0]["parts"]["transfers"], c["transfers_core"] * xeon["transfer_ns"]["core"]),
          f"scripts/project -- ...: c2c/pingpong on the Xeon stand-in, core transfers "
          f"({p.returncode}: {p.stderr[-300:]}, {rows[:1]})")
    # --validate: a 2-thread row projected on this machine's own description, beside
    # its measured time, the error per row and per family.
    if here:
        p = project_cli("--validate", "--here", saved, "--format", "json", "--",
                        "--benchmark_filter=^vmstat/mod/inc/", "--benchmark_min_time=0.01",
                        "--papi-events=none")
        v = json.loads(p.stdout)["mmscale_projection_validation"] if p.returncode == 0 else {}
        rows = v.get("rows", [])
        check(len(rows) == 1 and rows[0]["name"].endswith("threads:2") and
              rows[0]["measured"] > 0 and rows[0]["projected"] > 0 and
              abs(rows[0]["error"] - (rows[0]["projected"] - rows[0]["measured"]) /
                  rows[0]["measured"]) < 1e-9 and "vmstat/mod" in v["median_abs_error_by_family"],
              f"--validate: the 2-thread row, measured and projected apart, its error "
              f"({p.returncode}: {p.stderr[-300:]}, {v})")
        p = project_cli("--validate", "--here", saved, "--machine", "dual-epyc-7742", "--",
                        "--benchmark_filter=^vmstat/mod/inc/")
        check(p.returncode == 2 and len(p.stderr.strip().splitlines()) == 1,
              "--validate with --machine: one line, exit 2")
    # mmscale --transfers --project=FILE: bench/projection.c prices each row in C, and
    # must give what this model gives for the same counts (local work and queueing left
    # out), on a machine with IPI figures and without a core figure.
    ipi_machine = write("ipi.machine", machine_text(ipi_send_ns="100", ipi_receive_ns="2000"))
    MI = machines.load(ipi_machine)
    for topo in ("real", "synthetic:node:2 l3:1 core:4 pu:2"):
        p = subprocess.run([MMSCALE, "--transfers", "--project=" + ipi_machine,
                            "--benchmark_filter=^c2c/(pingpong|ticket_lock)/|"
                            "^drain/empty/(ipi-all|quick-scan)/", "--threads=1,2",
                            "--benchmark_min_time=0.01", "--benchmark_repetitions=2",
                            "--papi-events=none", "--topology=" + topo,
                            "--benchmark_format=json"], capture_output=True, text=True)
        try:
            doc = json.loads(p.stdout)
        except ValueError:
            doc = {"benchmarks": [], "context": {}}
        check(p.returncode == 0 and doc["benchmarks"] and
              doc["context"].get("mmscale_projection", "").startswith(
                  "PROJECTED, not measured: " + projection.MODEL) and
              "left out: the local work" in doc["context"]["mmscale_projection"] and
              "queueing of a row's own threads" in doc["context"]["mmscale_projection"],
              f"--project on {topo}: runs, and its context says projected, the model, what "
              f"it leaves out ({p.returncode}: {p.stderr[-300:]})")
        compared = queued_priced = 0
        for b in doc["benchmarks"]:
            counts = {k: v for k, v in b.items() if isinstance(v, (int, float))}
            if b.get("aggregate_name") in ("stddev", "cv", "trimmed_stddev"):
                check(not any(k.startswith("projected_") for k in b),
                      f"{b['name']}: a dispersion is not projected")
                continue
            r = projection.project(counts, MI, threads=b.get("threads", 1))
            ipis_priced = not any("IPIs per op" in u for u in r["unpriced"])
            classes_priced = not any("transfers per op" in u for u in r["unpriced"])
            # The targets' queueing: priced where the row's targets take the same locks
            # (by the row's counted kind, which the Python side reads from its counts too).
            targets_unpriced = any(u.startswith("the targets' queueing") for u in r["unpriced"])
            want = {"projected_transfers_ns": r["parts"]["transfers"]}
            if ipis_priced:
                want["projected_ipis_ns"] = r["parts"]["ipis"]
            if counts.get("ipis_sent", 0) >= 1 and counts.get("lock_acquires", 0) > 0 and \
                    not targets_unpriced:
                want["projected_targets_queueing_ns"] = r["parts"]["targets_queueing"]
                queued_priced += r["parts"]["targets_queueing"] > 0
            if ipis_priced and classes_priced and not targets_unpriced:
                want["projected_ns_excl_local"] = (r["parts"]["transfers"] + r["parts"]["ipis"] +
                                                   r["parts"]["targets_queueing"])
            got = {k: v for k, v in b.items() if k.startswith("projected_")}
            check(got.keys() == want.keys() and all(near(got[k], want[k], 1e-12) for k in want),
                  f"--project on {topo}: {b['name']}: C and Python agree ({got} against {want})")
            # Every unpriced transfer class and targets' queueing is said on the row, in
            # the model's words.
            for u in r["unpriced"]:
                if ("transfers per op" in u or u.startswith("the targets' queueing")) and \
                        b.get("run_type") == "iteration":
                    check(u in b.get("label", ""), f"{b['name']}: label says {u!r} "
                          f"({b.get('label')})")
            compared += 1
        check(compared >= 8, f"--project on {topo}: {compared} results compared")
        if topo != "real":
            # ipi-all's targets all take the zones' locks: some queue (2.6's ticket lock).
            check(queued_priced > 0, f"--project on {topo}: the targets' queueing priced in C "
                                     f"({queued_priced} results)")
    # The stand-in's ping-pong partner is an SMT sibling: core transfers, which this
    # machine does not price - no excl_local sum, and the row says so.
    check("no transfer_ns.core" in p.stdout, "--project: an unpriced class is named on the row")
    # A projected figure is never read as a count or a time of the run.
    saved_run = write("projected.json", p.stdout)
    recs = mmresults.load(saved_run, who="test")
    check(recs and not any(k.startswith("projected_") for r in recs for k in r["counters"]) and
          all("projected_transfers_ns" in r["projected"] for r in recs),
          "mmresults keeps projected_* apart from the run's counters")
    p = subprocess.run([sys.executable, os.path.join(SCRIPTS, "compare"), "--metric",
                        "projected_transfers_ns", saved_run, saved_run],
                       capture_output=True, text=True)
    check(p.returncode == 2 and len(p.stderr.strip().splitlines()) == 1,
          f"compare refuses a projected figure as a metric ({p.returncode}: {p.stderr.strip()})")
    # The C reader refuses what machines.py refuses: one line naming the file, exit 2.
    for what, text in bad.items():
        p = subprocess.run([MMSCALE, "--transfers", "--project=" + write("bad.machine", text),
                            "--describe"], capture_output=True, text=True)
        lines = p.stderr.strip().splitlines()
        check(p.returncode == 2 and len(lines) == 1 and "bad.machine" in lines[0],
              f"--project, a machine file with {what}: one line naming the file, exit 2 "
              f"({p.returncode}: {p.stderr.strip()})")
    # Both readers take or both refuse: the edges of the format (a carriage return is a
    # blank, not a line break; Unicode blanks, digits and underscores are not the
    # format's; 100 distance keys are fine; a NUL is not text).
    many = "".join(f"transfer_ns.remote.{10 + d} = {100 + d}\n" for d in range(100))
    edges = {
        "a CR line end": machine_text().replace("\n", "\r\n"),
        "a CR inside a line": machine_text() + "note = a\rtransfer_ns.core = 3\n",
        "a no-break space": machine_text(transfer_ns__core="7.4\u00a0"),
        "an underscore in a number": machine_text(transfer_ns__core="1_000"),
        "an Arabic-Indic digit": machine_text(transfer_ns__core="\u0667"),
        "a key with a non-ASCII digit": machine_text() + "transfer_ns.remote.\u0663 = 5\n",
        "100 distance keys": machine_text() + many,
        "a distance given twice": machine_text() + many + "transfer_ns.remote.10 = 1\n",
        "inf": machine_text(transfer_ns__core="inf"),
        "1e999": machine_text(transfer_ns__core="1e999"),
        "a long name": machine_text(name="\u00e9" * 300),
        "a NUL": machine_text(name="a\0b"),
        "an exponent": machine_text(transfer_ns__core="1.5e2"),
    }
    for what, text in edges.items():
        path = write("edge.machine", text)
        try:
            machines.load(path)
            py_ok = True
        except machines.MachineError:
            py_ok = False
        p = subprocess.run([MMSCALE, "--transfers", "--project=" + path, "--describe"],
                           capture_output=True, text=True)
        check((p.returncode == 0) == py_ok and (py_ok or len(p.stderr.strip().splitlines()) == 1),
              f"a machine file with {what}: both readers {'take' if py_ok else 'refuse'} it "
              f"(mmscale: {p.returncode}: {p.stderr.strip()[:200]})")
    p = subprocess.run([MMSCALE, "--transfers", "--project=" + latin, "--describe"],
                       capture_output=True, text=True)
    check(p.returncode == 2 and len(p.stderr.strip().splitlines()) == 1 and "UTF-8" in p.stderr,
          f"--project, a machine file that is not UTF-8: one line, exit 2 ({p.stderr.strip()})")
    for name in machines.shipped():
        p = subprocess.run([MMSCALE, "--transfers", "--describe", "--project=" +
                            os.path.join(ROOT, "machines", name + ".machine")],
                           capture_output=True, text=True)
        check(p.returncode == 0, f"--project reads machines/{name} ({p.stderr.strip()})")
else:
    print(f"test_project: {COUNTING} not built: the end-to-end check is skipped")

sys.exit(report("test_project"))
