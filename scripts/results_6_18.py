#!/usr/bin/python3
"""Regenerate the "Linux 6.18 beside the seed kernels" section of RESULTS.md:
per family, the 6.18 rows beside the seed kernels' rows - exact counts
first, then the median time and its ratio to the family's seed row at the
same arguments and thread count, all from one run on this machine - and
the counts of the same rows on the 1024-CPU stand-in.

usage: scripts/results_6_18.py [--print]   (default: rewrite RESULTS.md)"""
import os
import statistics
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mmresults import command, machine, replace_section, run_json, setup  # noqa: E402

REPS = ["--benchmark_repetitions=5", "--benchmark_enable_random_interleaving=true",
        "--papi-events=none"]
BDP = "bdp/(2.6.31-rc8|3.2|6.18)/|bdp_throttled/(3.2|6.18|6.18-store-if-changed)/"
HERE = [f"--benchmark_filter=^(vmstat/|percpu/|rss/|pcp/|{BDP})", "--threads=1,2",
        "--benchmark_min_time=0.05", *REPS]
TOPO = "--topology=synthetic:node:128 core:8 pu:1"
STANDIN_1T = [TOPO, "--threads=1", "--mem=1T", "--benchmark_filter=^pcp/autotune/",
              "--benchmark_min_time=0.005", "--papi-events=none"]
STANDIN = [TOPO, "--threads=1",
           "--benchmark_filter=^(vmstat/shepherd|vmstat/numa_event|percpu/read_vs_sum/(sum|6.18-sum)"
           "|rss/read|rss/fork_exit/.*/cpus:(2|64|1024)/|pcp/drain/.*/cpus:(2|64|1024)/|"
           f"{BDP})",
           "--benchmark_min_time=0.005", "--papi-events=none"]

# throttle/: the seed's 19 scenarios in the virtual-time world, 6.18's row beside the
# seed kernels' (deterministic: one run each).
THROTTLE_VARIANTS = ("vanilla-3.1", "reserve-v11", "freerun", "3.2", "6.18")
THROTTLE = ["--benchmark_filter=^throttle/", "--throttle-seconds=60", "--papi-events=none"]
# Within this much both ways a difference in nr_written is "no change" (as results_throttle.py).
TIE_PCT = 0.5

# Each family's seed-kernel row that a 6.18 row is set beside (the ratio's denominator).
BASELINE = {
    "vmstat/global_read": {"6.18-repeated": "repeated", "6.18-cached": "cached"},
    "vmstat/mod": {"6.18-inc": "inc", "6.18-mod": "mod", "6.18-__mod": "mod",
                   "6.18-memcg": "6.18-__mod", "6.18-memcg-irqsave": "6.18-memcg"},
    "percpu/read_vs_sum": {"6.18-read": "read", "6.18-sum": "sum"},
    "rss/fault": {"6.18-percpu": "6.1-split"},
    "rss/read": {"6.18-get_mm_counter": "6.1-get_mm_counter",
                 "6.18-get_mm_counter_sum": "6.1-get_mm_counter"},
    "rss/fork_exit": {"6.18": "6.1"},
    "vmstat/numa_event": {"6.18-numa_event": "6.18-zone_stat"},
    "vmstat/shepherd": {"6.18-idle": "6.18-busy"},
    "pcp/autotune": {"6.18": "6.18-fixed-high", "6.18-warm": "6.18"},
    "pcp/drain": {"6.18-full": "6.18-empty"},
    "pcp/decay": {"6.18.7": "6.18"},
    "bdp": {"6.18": "3.2", "2.6.31-rc8": "3.2"},
    "bdp_throttled": {"6.18": "3.2", "6.18-store-if-changed": "6.18"},
}
COUNTS = ["global_reads", "bdi_reads", "percpu_sum_slots", "bdi_stores", "folds", "lock_acquires",
          "zone_locks", "locked_ops", "pages_moved", "pages_drained", "zone_hold_pages_max"]


def fmt_count(v):
    if v is None:
        return ""
    return f"{v:.0f}" if abs(v - round(v)) < 1e-9 else f"{v:.4g}"


def groups(records):
    """{(family, params, threads, variant): [records]}, each family's rows by
    arguments, threads and the variant's place in its family's table."""
    out = {}
    order = {}
    for r in records:
        out.setdefault((r["family"], r["params"], r["threads"], r["variant"]), []).append(r)
        names = r["variants"].get(r["family"], [])
        order[(r["family"], r["variant"])] = names.index(r["variant"]) if r["variant"] in names else 0

    def key(k):
        nums = tuple(int(x.split(":")[1]) if x.split(":")[-1].isdigit() else 0
                     for x in k[1].split("/") if ":" in x)
        return (k[0], nums, k[1], k[2], order[(k[0], k[3])])
    return {k: out[k] for k in sorted(out, key=key)}


def table(records, timed):
    g = groups(records)
    fams = []
    for key in g:
        if key[0] not in fams:
            fams.append(key[0])
    lines = []
    for fam in fams:
        keys = [k for k in g if k[0] == fam]
        shown = [c for c in COUNTS if any(c in r["counters"] for k in keys for r in g[k])]
        head = ["row", "arguments", "threads", *shown]
        if timed:
            head += ["median ns", "vs"]
        lines += [f"**{fam}**", "", "| " + " | ".join(head) + " |",
                  "|" + "---|" * 3 + "---:|" * (len(head) - 3)]
        for k in keys:
            rs = g[k]
            counts = [fmt_count(statistics.median(r["counters"][c] for r in rs))
                      if c in rs[0]["counters"] else "" for c in shown]
            row = [k[3], k[1] or "-", str(k[2]), *counts]
            if timed:
                t = statistics.median(r["real_time_ns"] for r in rs)
                base = BASELINE.get(fam, {}).get(k[3])
                ratio = ""
                if base and (fam, k[1], k[2], base) in g:
                    tb = statistics.median(r["real_time_ns"] for r in g[(fam, k[1], k[2], base)])
                    ratio = f"{t / tb:.2f}x {base}"
                row += [f"{t:.4g}", ratio]
            lines.append("| " + " | ".join(row) + " |")
        lines.append("")
    return lines


def throttle_tables(records):
    """nr_written per variant, 6.18 against 3.2; then the pauses, idle disks and reads of
    the two. Ends the run if a scenario lacks a row."""
    got = {}
    for r in records:
        got[(r["family"].removeprefix("throttle/"), r["variant"])] = r["counters"]
    scenarios = sorted({s for s, _ in got})
    missing = [f"{s} {v}" for s in scenarios for v in THROTTLE_VARIANTS if (s, v) not in got]
    if len(scenarios) != 19 or missing:
        sys.exit(f"results_6_18: throttle/ ran {len(scenarios)} scenarios, missing "
                 f"{', '.join(missing) or 'none'}: no section written")
    written = ["| " + " | ".join(THROTTLE_VARIANTS) + " | 6.18 vs 3.2 | scenario |",
               "|" + "---:|" * (len(THROTTLE_VARIANTS) + 1) + "---|"]
    detail = ["| disk idle s, 3.2 | 6.18 | pause mean ms, 3.2 | 6.18 | pause p99 ms, 3.2 | "
              "6.18 | global reads/call, 3.2 | 6.18 | wb reads/call, 3.2 | 6.18 | scenario |",
              "|" + "---:|" * 10 + "---|"]
    more = fewer = same = 0
    for s in scenarios:
        a, b = got[(s, "3.2")], got[(s, "6.18")]
        d = (b["nr_written"] - a["nr_written"]) / a["nr_written"] * 100
        more += d >= TIE_PCT
        fewer += d <= -TIE_PCT
        same += abs(d) < TIE_PCT
        written.append("| " + " | ".join(str(int(got[(s, v)]["nr_written"]))
                                         for v in THROTTLE_VARIANTS) + f" | {d:+.1f}% | {s} |")
        detail.append(f"| {a['disk_idle_s']:.1f} | {b['disk_idle_s']:.1f} | "
                      f"{a['pause_mean_ms']:.1f} | {b['pause_mean_ms']:.1f} | "
                      f"{a['pause_p99_ms']:.0f} | {b['pause_p99_ms']:.0f} | "
                      f"{a['global_reads']:.2f} | {b['global_reads']:.2f} | "
                      f"{a['bdi_reads']:.2f} | {b['bdi_reads']:.2f} | {s} |")
    idle_less = sum(got[(s, "6.18")]["disk_idle_s"] < got[(s, "3.2")]["disk_idle_s"]
                    for s in scenarios)
    pause_longer = sum(got[(s, "6.18")]["pause_mean_ms"] > got[(s, "3.2")]["pause_mean_ms"]
                       for s in scenarios)
    # where 3.2 let the disks idle for more than 30 s (of 600 disk-seconds): 6.18's nr_written
    idle_32 = [s for s in scenarios if got[(s, "3.2")]["disk_idle_s"] > 30]
    idle_32_more = sum(got[(s, "6.18")]["nr_written"] > got[(s, "3.2")]["nr_written"]
                       for s in idle_32)
    # plentiful memory: the 2G and 4G thresholds
    big = [s for s in scenarios if "thresh=2G" in s or "thresh=4G" in s]
    big_tie = sum(abs(got[(s, "6.18")]["nr_written"] / got[(s, "3.2")]["nr_written"] - 1) * 100
                  < TIE_PCT for s in big)
    return written, detail, (more, fewer, same, idle_less, pause_longer,
                             len(idle_32), idle_32_more, len(big), big_tie)


def main():
    setup()
    with tempfile.TemporaryDirectory() as tmp:
        here, _, _ = run_json(HERE, os.path.join(tmp, "here.json"))
        standin, _, _ = run_json(STANDIN, os.path.join(tmp, "standin.json"))
        standin_1t, _, _ = run_json(STANDIN_1T, os.path.join(tmp, "standin-1t.json"))
        throttle, _, _ = run_json(THROTTLE, os.path.join(tmp, "throttle.json"))
    written, detail, (more, fewer, same, idle_less, pause_longer, idle_32, idle_32_more, big,
                      big_tie) = throttle_tables(throttle)
    replace_section("6.18 (scripts/results_6_18.py)", [
        "## Linux 6.18 beside the seed kernels (issue 27)",
        "",
        "Today's code as the baseline: each 6.18 row is ported line by line from "
        "../shared/kernel/6.18 (the file and lines are in its header comment), runs beside "
        "the seed kernels' rows in the same case, and checks its exact-count claim where it "
        "has one. Columns: the exact counts per operation (median of the repetitions; they "
        "do not vary), then the median time and its ratio to the row named in `vs`, at the "
        "same arguments and thread count, from the same run (repetitions interleaved at "
        "random).",
        "",
        f"Run on: {machine()}.",
        "",
        "Reproduce: `scripts/results_6_18.py`, which runs",
        "",
        f"    {command(HERE)}",
        f"    {command(STANDIN)}",
        f"    {command(STANDIN_1T)}",
        f"    {command(THROTTLE)}",
        "",
        "### On this machine",
        "",
        *table(here, True),
        "### 1024 CPUs on 128 nodes (synthetic stand-in, oversubscribed: counts only)",
        "",
        *table(standin, False),
        "pcp/autotune with 1 TiB (8 GiB and 8 CPUs per node), where a node's low watermark "
        "split over its 8 CPUs gives a high_min that a burst's free_count (up to batch << 5) "
        "passes, so the tuning raises high:",
        "",
        *table(standin_1t, False),
        "### Which 6.18 the rows are",
        "",
        "The configuration of this machine's 6.18 (`/proc/config.gz`), x86-64, unless a row "
        "says otherwise: SMP, NUMA and HAVE_CMPXCHG_LOCAL (the cmpxchg forms of vmstat and "
        "percpu_counter); MEMCG=y with MEMCG_V1, SWAP, ZSWAP, THP, NUMA_BALANCING and "
        "HUGETLB_PAGE (the layout of the `6.18-memcg` rows' per-CPU statistics). Where the "
        "emulation differs "
        "from that configuration, the rows say so: CMA is set, as distributions build 6.18 "
        "and as the 6.1 rows' zones have it (one choice for the `remote` against `6.18` "
        "comparisons: zone->flags ends the free areas' last line and zone->lock starts the "
        "next, and every movable block __rmqueue takes reads NR_FREE_CMA_PAGES), where this "
        "VM's 6.18 has it off (UNACCEPTED_MEMORY stays off, as here, where distributions "
        "with TDX or SEV-SNP guest support set it); the bdp rows run the root wb only "
        "(CGROUP_WRITEBACK=y here, but one cgroup); HZ is 1000 (250 here and in most "
        "distributions); "
        "PREEMPT_COUNT's and PREEMPT_RCU's per-task counts are not kept (preempt_disable "
        "and rcu_read_lock cost nothing here). Per-CPU operations are x86's: "
        "this_cpu_try_cmpxchg, this_cpu_add and this_cpu_xchg are the cmpxchg, add and xadd "
        "instructions without the lock prefix (the kernel's address the variable through "
        "%gs), and local_irq_save reads the flags register as the kernel does (pushf), "
        "where cli and sti, privileged in user space, are stood in for by a thread-local "
        "flag: a row that saves and restores interrupts pays pushf and two stores where the "
        "kernel pays pushf, cli and sti. Locks: every 6.18 row takes queued spinlocks "
        "(QUEUED_SPINLOCKS=y, x86's since 4.2: kernel/qspinlock.c ports 6.18's slow path, "
        "pending bit and MCS queue, without paravirt), every other row the ticket lock of "
        "2.6.25-4.1, the 6.1 and 6.6 drain rows included (remote, 6.6-chunked: their zones "
        "are the 2.6-3.x drain machine's; 6.1 and 6.6 have qspinlock). Uncontended both are one locked instruction to take and "
        "a plain store to release, so the counts are the same; under contention the ticket "
        "lock has every waiter spin on the lock's line and the queued lock only the first "
        "two (the others on their own per-CPU node), which changes the times of the rows "
        "with three or more contenders, not their lock counts.",
        "",
        "### What moved since 2.6.31, and why",
        "",
        "**vmstat.** Dirty and writeback pages are node counters now (4.8), in "
        "`vm_node_stat[]`, cache-line aligned; NR_FILE_DIRTY and NR_WRITEBACK still share a "
        "line with the items beside them, which every dirtying CPU folds into. The 6.18 "
        "global_read rows make the same global reads per call as 2.6.31's (exact); their "
        "times are not the two kernels' difference (the 2.6.31 rows read through the "
        "emulation's numbering table, which lets them take 3.2's layout, the 6.18 rows index "
        "the array directly): compare repeated with cached within a generation. "
        "`mod_node_page_state` and `inc_node_state` moved from irq-off plain "
        "read-modify-writes to `this_cpu_try_cmpxchg` (no lock prefix on x86) with the "
        "same thresholds and the same half-threshold overstep for inc/dec: the folds per "
        "update are those of 2.6.31 at the same threshold (the mod rows). But with "
        "CONFIG_MEMCG (every distribution's 6.18, and this machine's) a page's dirty and "
        "writeback counts do not take those forms: they go through "
        "`__lruvec_stat_mod_folio` (mm/page-writeback.c 2661, 3015), the irq-off plain "
        "`__mod_node_page_state` (the `6.18-__mod` row) plus the memcg's and the lruvec's "
        "per-CPU state and rstat's bookkeeping (mm/memcontrol.c 564-799): a per-CPU "
        "`stats_updates` at each level from the task's memcg to the root (four in a "
        "systemd session), added into the level's shared count every 64 updates until it "
        "passes 64 x online CPUs, after which every update reads the task's memcg's shared "
        "count and stops there until the periodic flush (every 2 s, not emulated). That is "
        "the `6.18-memcg` row (irqs off by the caller, as folio_account_dirtied), and "
        "`6.18-memcg-irqsave` the same inside local_irq_save/restore (lruvec_stat_mod_folio, "
        "as folio_end_writeback); only NR_ZONE_WRITE_PENDING and NR_WRITTEN take the cmpxchg "
        "forms. Its locked ops are claimed per run length (tests/test_claims.c): one "
        "llist_add putting the memcg's css on the CPU's updated list, and four atomic adds "
        "per 64 updates for the first (online CPUs + 1) x 64. New is the cost "
        "of the per-CPU design's other end: the shepherd reads every online CPU's per-zone "
        "and per-node diffs each second when the CPUs are idle (vmstat/shepherd: "
        "CPUs x (zones + nodes) structures, 262144 on the stand-in), and a NUMA event is "
        "counted per CPU and folded on read, an xchg of six counters per CPU per zone for "
        "every /proc/vmstat open (vmstat/numa_event).",
        "",
        "**percpu_counter and rss.** percpu_counter_add_batch gained a cmpxchg fast path "
        "in 6.11 (Mateusz Guzik, <20240528204257.434817-1-mjguzik@gmail.com>); the fold "
        "and the sum are 2.6.31's, with interrupts saved around the lock. The mm's rss counters moved from 6.1's "
        "per-task cache, synced into four atomics every 66th fault, to percpu_counters "
        "(6.2): a fault folds under the counter's lock once per batch (max(32, 2 x CPUs)) "
        "instead of one atomic per 66 faults, and every mm now pays at fork and exit for "
        "per-CPU counters: one allocation through the per-CPU allocator (pcpu_alloc_mutex "
        "and pcpu_lock, mm/percpu.c) zeroed in every CPU's unit, the global "
        "percpu_counters list lock twice, check_mm's four sums over every online CPU, and "
        "free_percpu's pcpu_lock (rss/fork_exit: 4 x CPUs slots, 4096 at 1024 CPUs, 8 spin "
        "locks and 10 locked ops, against nothing in 6.1) - the cost the unixbench spawn "
        "report (-19.2% on 128 CPUs; its profile names __alloc_percpu_gfp and pcpu_alloc) "
        "and the later grouping patches were about. Not emulated, so the row's time is a "
        "lower bound of that regression's: the memcg charge and uncharge of the allocation "
        "(GFP_KERNEL_ACCOUNT: obj_cgroup_charge of 16 bytes x possible CPUs, the page "
        "counters up the hierarchy once the per-CPU stock is short, MEMCG_PERCPU_B's "
        "update).",
        "",
        "**per-CPU page lists.** 2.6.38 drained by IPI to every CPU; 6.1 drains remotely "
        "under each pcp->lock; 6.18 keeps that and drains in rounds of batch << 5 pages, "
        "dropping the lock between (pcp/drain: zone and pcp locks per CPU with pages, no "
        "IPI); drain_pages takes the pcp->lock of every populated zone of a CPU that has "
        "pages in any, so a full drain on the stand-in takes 131 spin locks per CPU, 127 of "
        "them pcp locks of zones with nothing to drain. pcp->high is tuned at run time (6.7): a burst of frees raises it towards "
        "high_max so that fewer pages go back to the buddy under zone->lock, and the vmstat "
        "work decays it by an eighth a second (pcp/autotune: zone locks and pages moved per "
        "burst against the same code with high fixed at high_min). Where high_min is "
        "above what a burst's free_count reaches (batch << 5), as for this machine's one "
        "3 GiB zone split over 2 CPUs, the two rows coincide; with 8 CPUs to a node they "
        "part (the 1 TiB stand-in table). Those two rows start every burst from a cold "
        "pageset; `6.18-warm` runs the bursts back to back on the pageset the last one "
        "left, with the CPU's vmstat work each second (decay_pcp_high takes high down by "
        "an eighth): what a CPU that frees and allocates for longer than a second pays. "
        "The counts of that row depend on how many seconds the run lasts (not claimed). "
        "That decay is where 6.18.7 differs from 6.18.0 (Joshua Hahn's batched freeing, "
        "backported): pcp/decay decays a full list once, and at this machine's high_max the "
        "2016 pages over the decayed high go back under one zone->lock hold in 6.18.0 and "
        "under 32 holds of 63 in 6.18.7, more acquisitions for a hold a 32nd as long "
        "(checked after every decay). A drain is the same in both (drain_pages_zone is "
        "6.18.0's on SMP).",
        "",
        "The same drain is also the `6.18` row of drain/empty and drain/swap_cpuset, beside "
        "the seed's variants (the drains section above), through its own zones and lists "
        "(kernel/linux-6.18/world/drain.c).",
        "",
        "**balance_dirty_pages.** 4.2 moved the bdi's statistics, bandwidths and "
        "dirty_exceeded into its bdi_writeback (93f78d882865, a88a341a73be; one wb per "
        "cgroup with CONFIG_CGROUP_WRITEBACK), 3.6 replaced the proportions with "
        "flex_proportions (eb608e3a344b), and 4.2's dirty_throttle_control carries the "
        "domain's limits through the pass; the arithmetic of 3.2's IO-less control "
        "(pos_ratio's cubic, the wb line, the reserve area, the ratelimit) is still there, "
        "now in per-PAGE_SIZE ratios. The global reads fell from 3.2's 8 (6 without swap) "
        "to 6 with or without swap: the dirtyable memory reads free pages and the two file "
        "LRUs only, and the dirty count is read twice (once at the loop's top, once with "
        "writeback). A throttled pass still reads the two wb items, and sums them over every "
        "CPU where the wb's threshold is under twice the counters' error (the 1024-CPU table: "
        "2048 slots and 2 locks, as 3.2). New in 6.18's throttled pass, and both from 2024: "
        "it stores `wb->dirty_exceeded` on every pass that is not free-running, the same "
        "value here, since Kemeng Shi's \"writeback: factor out wb_dirty_exceeded to remove "
        "repeated code\" (6.11, <20240514125254.142203-8-shikemeng@huaweicloud.com>), which "
        "replaced Jan Kara's store-if-changed (e92eebbb0921, 6.0; 3.2 to 5.19 also wrote "
        "the flag only when it changed); and it stamps `bdi->last_bdp_sleep` on every pass "
        "that sleeps (each throttled pass here), a field f814bdda774c (6.8, \"blk-wbt: Fix "
        "detection of dirty-throttled tasks\") put in the bdi, on the line that holds the "
        "bdi's ratios and the root wb's `state`. Both lines are read by every pass (the "
        "first beside the wb's completion period), so with two CPUs throttled at once the "
        "6.18 pass costs a multiple of 3.2's, far more than the difference at one thread "
        "(the `vs` column). The row `6.18-store-if-changed` stores `wb->dirty_exceeded` "
        "only when it changes, as every kernel before 6.11 did, and `bdi->last_bdp_sleep` "
        "likewise, which no kernel did (an experiment): `bdi_stores` counts the stores (2 "
        "per 6.18 pass, 0 for that row and for 3.2's settled pass), and its `vs 6.18` at 2 "
        "threads is what they cost here. The "
        "bench times passes back to back: a real throttled task sleeps for most of each "
        "period, so the line traffic matters with many tasks on many CPUs, which the bench "
        "stands in for and this 2-CPU machine cannot measure.",
        "",
        "### balance_dirty_pages in the seed's 19 scenarios (throttle/)",
        "",
        "The same 6.18 code drives the virtual-time world of the IO-less section above "
        "(kernel/linux-6.18/world/throttle.c): 10 disks, dd tasks, a flusher per disk, 60 s of "
        "virtual time, deterministic (the same numbers on every machine). Pages written "
        "(nr_written, larger is better), the seed kernels' rows beside 6.18's:",
        "",
        *written,
        "",
        f"6.18 writes more than 3.2 in {more} scenarios, fewer in {fewer}, the same (within "
        f"{TIE_PCT}%) in {same}. The same runs, 3.2 and 6.18: the disks' idle time (summed "
        "over the 10 disks), the pauses, and balance_dirty_pages' reads per call (global "
        "counters; wb/bdi counter reads, sums not included):",
        "",
        *detail,
        "",
        "What the world runs of 6.18 beside its balance_dirty_pages is its flusher's side "
        "(kernel/linux-6.18/world/throttle.c says which lines): background writeback goes on while "
        "a wb's own reclaimable pages are above its share of the background threshold "
        "(wb_over_bg_thresh), not only while the global dirty count is above it as in the "
        "3.x rows' world (Wu Fengguang posted that per-bdi test on 3 Oct 2011, \"writeback: "
        "per-bdi background threshold\", his JBOD table from -19% to +116% in nr_written; "
        "the 3.x rows do not run it); the write bandwidth is also sampled when the flusher writes "
        "an inode (do_writepages) and 200 ms after an inode's writeback ends; and the "
        "writeout fractions that split the threshold between the disks age every 3 s, "
        "where 3.2's aged with every dirty-limit's worth of completions. So the 3.2 and "
        "6.18 rows differ in the flusher as well as in balance_dirty_pages: "
        f"{idle_less} of the 19 scenarios leave the disks idle for less time under 6.18; "
        f"of the {idle_32} where 3.2 left them idle for more than 30 s (of 600 "
        f"disk-seconds), 6.18 writes more in {idle_32_more}; with plentiful memory "
        f"(thresh=2G, 4G) the disks are busy under every kernel and 6.18 and 3.2 agree "
        f"within {TIE_PCT}% in {big_tie} of {big}. 6.18's mean pause is the longer in "
        f"{pause_longer} of the 19. The disks, "
        "the request queue and the dd tasks are the world's, the same for every row (the "
        "IO-less section says what the world leaves out).",
    ])
    return 0


if __name__ == "__main__":
    from mmresults import main_guard
    main_guard(main)
