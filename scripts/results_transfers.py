#!/usr/bin/python3
"""Regenerate the "Cache-line transfers, counted without a PMU" section of
RESULTS.md (issue 43): the counting build's floors, seed 000's
balance_dirty_pages and seed 002's drains in transfers per operation, the
rss counter designs in transfers, and what the rule cannot see. Every
figure is from `mmscale --transfers` runs this script makes.

usage: scripts/results_transfers.py   (rewrites RESULTS.md's section)"""
import json
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mmresults import command, machine, replace_section, run_json, setup  # noqa: E402

COMMON = ["--transfers", "--papi-events=none"]
FLOORS = COMMON + ["--benchmark_filter=^c2c/(pingpong|read_shared|read_local|ticket_lock|"
                   "queued_lock)/", "--threads=1,2", "--benchmark_min_time=0.05"]
SEED000 = COMMON + ["--benchmark_filter=^(vmstat/global_read|bdp|dirty)/(2.6.31-rc8|"
                    "cached-locals-v2|cached-locals-v2\\+wu|6.18|repeated|cached|6.18-repeated|"
                    "6.18-cached)/", "--threads=1,2", "--benchmark_min_time=0.05"]
STANDIN = "--topology=synthetic:node:128 core:8 pu:1"
SEED002 = COMMON + [STANDIN, "--benchmark_filter=^drain/empty/.*/cpus:1024/",
                    "--benchmark_min_time=0.001"]
RSS = COMMON + ["--benchmark_filter=^rss/(fault|fork_exit)/", "--threads=1,2",
                "--benchmark_min_time=0.05"]
RSS_STANDIN = COMMON + [STANDIN, "--benchmark_filter=^rss/fork_exit/.*/cpus:1024/",
                        "--benchmark_min_time=0.001"]

KINDS = ["transfers_read", "transfers_write", "transfers_locked"]
CLASSES = ["transfers_core", "transfers_cache", "transfers_node", "transfers_remote"]


def fmt(v):
    if v is None:
        return "-"
    if abs(v - round(v)) < 1e-9:
        return f"{v:.0f}"
    return f"{v:.3g}"


def hot_lines(path):
    """{run name without its time word: the JSON's transfers object} of a results file."""
    with open(path) as f:
        doc = json.load(f)
    return {name.replace("/real_time", "").replace("/manual_time", ""): run.get("transfers")
            for name, run in doc.get("mmscale_runs", {}).items()}


def run_name(r):
    parts = [r["family"], r["variant"]] + ([r["params"]] if r["params"] else [])
    return "/".join(p for p in parts if p) + f"/threads:{r['threads']}"


def hottest_text(lines, n=1):
    """The first n hottest lines as 'per op x: data (latest_by: `code`)'."""
    out = []
    for h in (lines or {}).get("hottest_lines", [])[:n]:
        code = f": `{h['code']}`" if h.get("code") else ""
        out.append(f"{fmt(h['transfers_per_op'])} {h['data']}, by {h['latest_by']}{code}")
    return "<br>".join(out).replace("|", "\\|") or "-"


def table(records, hot, columns, name_of=None, hottest=False):
    head = ["row", "threads", *[c for c, _ in columns]] + (["hottest line per op"] if hottest
                                                             else [])
    lines = ["| " + " | ".join(head) + " |",
             "|---|---:|" + "---:|" * len(columns) + ("---|" if hottest else "")]
    for r in records:
        c = r["counters"]
        cells = [name_of(r) if name_of else f"{r['family']}/{r['variant']}"
                 + (f" [{r['params']}]" if r["params"] else ""), str(r["threads"])]
        cells += [fmt(get(c)) for _, get in columns]
        if hottest:
            cells.append(hottest_text(hot.get(run_name(r))))
        lines.append("| " + " | ".join(cells) + " |")
    return lines + [""]


def col(name):
    return (name, lambda c, n=name: c.get(n))


def main():
    setup()
    with tempfile.TemporaryDirectory() as tmp:
        runs = {}
        for key, args in (("floors", FLOORS), ("seed000", SEED000), ("seed002", SEED002),
                          ("rss", RSS), ("rss_standin", RSS_STANDIN)):
            out = os.path.join(tmp, key + ".json")
            records, _, _ = run_json(args, out)
            runs[key] = (records, hot_lines(out))
    floors, floors_hot = runs["floors"]
    seed000, seed000_hot = runs["seed000"]
    seed002, seed002_hot = runs["seed002"]
    rss, rss_hot = runs["rss"]
    rss_standin, rss_standin_hot = runs["rss_standin"]
    per_op = [col("transfers"), *map(col, KINDS), col("upgrades"), *map(col, CLASSES)]
    # The moves by kind (plain writes leave them: none of these rows' moves are plain writes).
    moved = [col("transfers"), col("transfers_read"), col("transfers_locked")]
    replace_section("transfers (scripts/results_transfers.py)", [
        "## Cache-line transfers, counted without a PMU (issue 43)",
        "",
        "`mmscale --transfers` runs the counting build, build/mmscale-transfers: the emulated "
        "kernel, the cases and the c2c floor compiled again with GCC's thread-sanitizer "
        "instrumentation, as the kernel's KCSAN compiles the kernel, but with no sanitizer "
        "runtime linked: kernel/transfers.c supplies the hooks, attributes every access to the "
        "emulated CPU that makes it and keeps, per 64-byte line (`--transfer-line=128` for "
        "128), its last writer and the CPUs holding a copy, as MIT's mtrace did (caches fully "
        "associative and unbounded). A read moves the line when another CPU wrote it since "
        "this CPU last touched it; a write or locked operation moves it when this CPU holds "
        "no copy and another does; a write to a copy others share too is an upgrade "
        "(invalidations only), counted apart. include/mmscale/kernel/transfers.h says why "
        "that split: it makes a ping-pong round trip 2 transfers, as the floors below and "
        "tests/test_transfers.c require. The counts are machine-wide per operation (the "
        "partner's and the IPI targets' side too), by the requester's access and by where "
        "the previous holder sat (core: an SMT sibling; cache: the same last-level cache; "
        "node; remote: another node). The timed build, build/mmscale, is built as before: "
        "nothing of this is in it. The counting build's times are not for timing and say so.",
        "",
        f"Run on: {machine()}. Counts, not times: the same on a machine with a PMU, except "
        "where CPUs race (two threads on one lock), where they follow the interleaving.",
        "",
        "Reproduce: `scripts/results_transfers.py`, which runs",
        "",
        *[f"    {command(a)}" for a in (FLOORS, SEED000, SEED002, RSS, RSS_STANDIN)],
        "",
        "### The floors",
        "",
        "c2c/pingpong moves its line twice per round trip, c2c/read_local never; "
        "c2c/read_shared once per read that finds a new value (the partner, slowed by the "
        "hooks as much as the reader, does not write between every two reads here). The two "
        "locks at 2 threads: the waiter's spinning reads of the lock word are the reads.",
        "",
        *table(floors, floors_hot, per_op),
        "### Seed 000: balance_dirty_pages' global reads in transfers",
        "",
        "Richard Kennedy's case (2009) was `perf stat` cache references: 648.6M against "
        "620.1M (-4.4%) with the cached locals. Under the rule a repeated read of a line "
        "nobody wrote since costs nothing: what moves is what another CPU's fold or update "
        "wrote. vmstat/global_read's second CPU folds into the same line; bdp/ at 2 threads "
        "is two CPUs calling at once; dirty/ runs writers and a flusher.",
        "",
        *table(seed000, seed000_hot, [*moved, col("upgrades"), col("global_reads")],
               hottest=True),
        "### Seed 002: an empty drain on 1024 CPUs over 128 nodes, per drain",
        "",
        "drain/empty on the 128-node stand-in (one thread drains; the others answer its "
        "IPIs): the IPI rows pay for their call data and, in 2.6.32, for every target taking "
        "the zone locks; the rows that scan first (quick-scan, count-check) pay for the "
        "scan's call data only; the rows that send no IPI to empty lists (ipi-mask, workqueue, "
        "remote, 6.6-chunked, 6.18) move nothing here: their lists are empty and nobody wrote "
        "their lines since (their cost is reads of clean lines, which the rule calls free: "
        "see what it cannot see, below). The hottest line of ipi-all is the zone's lock, "
        "its 1023 targets spinning on it one after another; where they spin, the count is "
        "this interleaving's (oversubscribed: 1024 threads on 2 PUs).",
        "",
        *table(seed002, seed002_hot, [*moved, col("transfers_node"), col("transfers_remote"),
                                      col("ipis_sent")], hottest=True),
        "### The rss counter designs in transfers",
        "",
        "rss/fault at 1 and 2 threads (each thread faults into the one mm): one thread moves "
        "nothing; two move the lines both update (6.1's and Dorminy's shared atomics, a "
        "lock's word where a fold or an upgrade takes it). rss/fork_exit per fork and exit, "
        "here and on the 1024-CPU stand-in: one task forks and exits on CPU 0, so every "
        "per-CPU slot it zeroes and sums it wrote itself, and nothing moves, however many "
        "CPUs there are. That is the rule and the emulation's schedule speaking: memory the "
        "kernel's allocator hands back still holds lines other CPUs left there, and an mm "
        "whose threads ran elsewhere has their slots in their caches; neither is emulated "
        "(what a sum over slots other CPUs wrote costs is below: 1023 transfers on 1024 "
        "CPUs).",
        "",
        *table(rss, rss_hot, [*moved, col("upgrades"), col("transfers_remote")], hottest=True),
        *table(rss_standin, rss_standin_hot, [*moved, col("transfers_write"),
                                              col("transfers_remote")], hottest=True),
        "### Exact where the schedule is fixed",
        "",
        "tests/test_transfers.c plays every CPU from one thread, so its counts are exact and "
        "claimed: the floors (100 round trips: 200 transfers, 199 upgrades), each kind and "
        "class, memset, 128-byte lines, the windows of the hottest lines and pairs, and "
        "percpu_counter_sum over 1024 CPUs each of whose slot its own CPU wrote last: 1023 "
        "transfers, 7 from CPU 0's node and 1016 from other nodes, and 0 for a second sum. "
        "On the same stand-in (one populated zone a node), each CPU's own lines last "
        "written by that CPU, each emulated CPU on a stack of its own: 6.18's "
        "drain_all_pages with every list empty reads 128 pagesets of each other CPU, 130944 "
        "transfers (896 from the node, 130048 beyond), and a second drain 0; a "
        "vmstat_shepherd pass reads each other CPU's 128 zone and 128 node statistics, "
        "261888 (1792 and 260096); 6.18's refresh_cpu_vm_stats on CPUs 1 to 1023 in turn, "
        "one item each, 1919 locked transfers (the global item from the CPU before, the "
        "zone's from the CPU before on the same node: 1792 node, 127 remote). Where those "
        "rows run as cases above, nobody wrote the other CPUs' lines first, so they show 0.",
        "",
        "### What the rule cannot see",
        "",
        "- Prefetchers, capacity and conflict misses: caches are unbounded, so a line read "
        "again long after is free; a streaming walk over many lines costs nothing unless "
        "another CPU wrote them.",
        "- Reads of clean lines from memory or another node's cache (an empty drain's scan of "
        "1024 idle pagesets) are not transfers: their latency is real on a NUMA machine.",
        "- The allocator's layout: lines are the emulation's, not the kernel's. Where the "
        "emulated structs keep the kernel's layout (struct zone, per_cpu_pageset, vm_stat[], "
        "struct page) false sharing is the kernel's; memory mmscale allocates its own way "
        "(a run's globals, the per-CPU units) may share or split lines differently.",
        "- Struct copies GCC makes inline are seen as the accesses they compile to, or not "
        "at all; memset, memcpy and memmove by name are seen.",
        "- The emulated machine's hardware (doorbells, the interrupt vectors of an IPI) "
        "moves no line: an IPI's cost is the lines its calls share.",
        "- Virtual-time cases (throttle/) count nothing: one thread plays every CPU.",
        "- Where CPUs race, the count is this interleaving's; under the hooks every CPU runs "
        "slower, and a partner may write less often between two reads than unhooked.",
        "",
    ])


if __name__ == "__main__":
    main()
