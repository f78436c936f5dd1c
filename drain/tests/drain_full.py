#!/usr/bin/env python3
"""drain/full end to end, on the pinned machine of the issue's table: 2 CPUs on
one node (one zone), every list filled to pcp_high=300 pages with pcp_batch=4,
so a chunk (batch << CONFIG_PCP_BATCH_SCALE_MAX) is 128 pages. Every row, as
the run reports it, against counts worked out by hand from the kernel
sources (drain/drain_6_6_chunked.c and the patches it cites; 6.18's
drain_pages_zone; the 2.6.x rows' one hold per list):

- the IPI rows free each list under one zone->lock hold (300 pages), with
  interrupts off for each CPU's whole call; ipi-all takes zone->lock for
  every list, empty or not;
- remote (6.1) takes pcp->lock and zone->lock once per list: 300 pages per
  hold, interrupts off from pcp->lock's irqsave;
- 6.6-chunked and 6.18 free a list in ceil(300 / 128) = 3 chunks (128, 128,
  44), each under its own pcp->lock and zone->lock: 6 of each, 128 pages at
  most per hold and per interrupts-off section (6.18's zone->lock irqsave).

A run whose hold maxima differ from its row's claim fails itself (one line
naming the drain); this test also checks the numbers it publishes, the clocked
row's time figures (present, not their size), and that every row ran."""
import json
import os
import subprocess
import sys

mmscale = sys.argv[1]
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                "scripts", "tests"))
from check import check, report  # noqa: E402  (scripts/tests/check.py)

N, CHUNK, CPUS = 300, 4 << 5, 2
CHUNKS = -(-N // CHUNK)
# row: zone_locks, lock_acquires, zone_hold_pages_max, irqoff_pages_max, ipis_sent
want = {
    "ipi-all": (2, 2, N, N, 1),
    "quick-scan": (2, 2, N, N, 1),
    "count-check": (2, 2, N, N, 1),
    "ipi-mask": (2, 2, N, N, 1),
    "workqueue": (2, 2, N, N, 1),
    "remote": (2, 4, N, N, 0),
    "6.6-chunked": (CPUS * CHUNKS, 2 * CPUS * CHUNKS, CHUNK, CHUNK, 0),
    "6.18": (CPUS * CHUNKS, 2 * CPUS * CHUNKS, CHUNK, CHUNK, 0),
}

p = subprocess.run([mmscale, "--benchmark_filter=drain/full/", "--topology=synthetic:node:1 core:2 pu:1",
                    "--set", "pcp_batch=4", "--set", "pcp_high=300", "--benchmark_min_time=0.02",
                    "--benchmark_format=json"], capture_output=True, text=True, timeout=600)
check(p.returncode == 0, f"exit status {p.returncode}: {p.stderr[-2000:]}")
runs = json.loads(p.stdout)["benchmarks"] if p.returncode == 0 else []
seen = set()
for b in runs:
    name = b["name"]
    row = name.split("/")[2]
    clocked = "/victims:1/" in name
    check(row in want, f"{name}: a row this test knows")
    if row not in want:
        continue
    seen.add((row, clocked))
    zl, la, hold, irq, ipis = want[row]
    got = (b.get("zone_locks"), b.get("lock_acquires"), b.get("zone_hold_pages_max"),
           b.get("irqoff_pages_max"), b.get("ipis_sent"))
    check(got == (zl, la, hold, irq, ipis),
          f"{name}: zone_locks, lock_acquires, hold pages, irq-off pages, IPIs {got}, "
          f"worked out {(zl, la, hold, irq, ipis)}")
    check(b.get("list_pages") == N and b.get("pages_drained") == CPUS * N,
          f"{name}: lists of {b.get('list_pages')} pages, {b.get('pages_drained')} drained")
    for key in ("zone_hold_us_p99", "irqoff_us_p99", "victim_gap_us_p99"):
        check((key in b) == clocked, f"{name}: {key} {'present' if clocked else 'absent'}")
# The clocked rows need a PU per emulated CPU: 2 here.
clocked_rows = (False, True) if len(os.sched_getaffinity(0)) >= CPUS else (False,)
check(seen == {(r, c) for r in want for c in clocked_rows},
      f"every row ran, idle and clocked: missing {sorted({(r, c) for r in want for c in clocked_rows} - seen)}")
# An oversubscribed plan (8 emulated CPUs on a machine of fewer PUs) registers
# no clocked row, and says so once; with 8 PUs or more nothing is
# oversubscribed and this part is left out.
p = subprocess.run([mmscale, "--topology=synthetic:node:4 core:2 pu:1", "--benchmark_filter=drain/full/",
                    "--benchmark_list_tests=true"], capture_output=True, text=True, timeout=120)
listed = [l for l in p.stdout.splitlines() if l.startswith("drain/full/")]
notes = [l for l in p.stderr.splitlines() if "victims:1 rows need a PU" in l]
if len(os.sched_getaffinity(0)) < 8:
    check(p.returncode == 0 and listed and all("/victims:0/" in l for l in listed),
          f"oversubscribed: the victims:0 rows only ({len(listed)} listed)")
    check(len(notes) == 1 and notes[0].startswith("mmscale: note: drain/full: "),
          f"one note for the case: {notes}")
report("drain_full")
