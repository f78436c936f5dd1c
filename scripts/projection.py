"""What a row would cost on a machine we do not have: its exact counts per
operation (from the counting build, mmscale --transfers, on any machine or
stand-in) priced with a machine description (scripts/machines.py). The
model, MODEL below, and nothing else: every projected figure names it and
its machine, and is never stored where a measured time goes (a projection
has no real_time, so scripts/compare and every results reader refuse it as
a run).

A row's projected time per operation - one thread's: a threaded run's
reported real_time is its wall time over every thread's iterations, so a
thread's own is that times the threads - is the sum of its parts
(breakdown):

  local      the work that moves no line, measured on this machine:
             a timed run's ns per op here, less the row's transfers here
             priced with this machine's own description (--local, --here);
             without them 0, and the projection says "local work not included"
  transfers  the transfers per op by where the previous holder sat (core,
             cache, node, remote) x the machine's transfer_ns of that class;
             the locked share of them (transfers_locked / transfers) at
             locked_ns where the file gives it; of a row that sends IPIs,
             its own threads' transfers and one target's mean share of the
             targets' (in_series_share: they answer in parallel)
  ipis       per op, ipis_sent x ipi_send_ns, plus one ipi_receive_ns for
             an operation that sends any (the targets answer in parallel; the
             caller waits for them once; min(ipis_sent, 1) of it per op);
             unpriced, and said, where the file has no IPI figures
  queueing   per lock acquisition, the wait of a lock that the row's threads
             share, by the Markov model of Boyd-Wickizer, Kaashoek, Morris
             and Zeldovich, "Non-scalable locks are dangerous" (Linux
             Symposium 2012): n cores, each outside the lock for a mean a,
             then queueing for it; in state k (k cores holding or waiting) a
             new core arrives at rate (n - k) / a, and the lock is handed on
             after S + (k - 1) c / 2 for a ticket lock (the paper's
             s + c k' / 2 with k' = k - 1 waiters: the next holder's read is
             answered, on average, after half of the waiters' re-reads) and
             after S for a queued (MCS-like) lock, each waiter spinning on its
             own line (our extension: the paper models the ticket lock, and
             says a scalable lock's hand-off costs a constant number of
             transfers); S the hold plus the lock line's own transfer (s + c),
             c a transfer. The kind is the row's own, counted: the
             queued_lock_acquires among its lock_acquires (none: ticket;
             all: queued; some: both, not modelled). That is the
             emulation's lock: 6.18's files take the queued one, every
             older generation's the ticket lock, 6.1's and 6.6's drain rows
             too, though x86 has had queued spinlocks since 4.2; --lock
             prices a row as the kind it names instead, and says so. The paper's rates were read from secondary
             sources (its text is not in ../shared). The queueing per
             acquisition is the mean cycle n / X (X the chain's hand-offs per
             ns) less the cycle without contention, a + S. The weights are
             kept as logarithms: at 256 cores and more they overflow a double.

  targets_queueing
             of a row that sends an IPI to T targets (ipis_sent >= 1) whose
             every CPU takes the same L locks in the same order (lock_acquires
             = (T + 1) L: drain_all_pages's for_each_populated_zone), the
             caller's extra wait for the last target: the targets arrive at
             the first lock one ipi_send_ns apart (together where the machine
             has no IPI figure: an upper bound) and are served in order, each
             hand-off as the chain's (S + (k - 1) c / 2 ticket, k contending;
             S queued). Past the first lock they are spread S or more apart,
             so no later lock queues (a target reaches it as the one before
             leaves it): the wait is the last departure from the first lock
             less its uncontended T ipi_send_ns + S.

What the model leaves out is said where the figures are printed
(LEAVES_OUT): an IPI's targets are taken as equal (one's mean share of
their transfers is the caller's wait), and they queue only on locks that
every CPU takes alike (a row whose CPUs take different locks is said, not
queued); the hold s is one transfer (the lock's
line), a lower bound; a's contenders are the row's threads; prefetchers, capacity misses, the
home node's placement, and the interconnect's own queueing on lines that
are not locks."""
import argparse
import bisect
import json
import math
import re
import sys

# 2: the paper's c k / 2 ticket hand-off, log weights, the targets' queueing
MODEL = "mmscale-proj 2"
CLASSES = ("core", "cache", "node", "remote")
LOCKS = ("ticket", "queued")
LEAVES_OUT = ("an IPI's targets are taken as equal (the caller waits for one's mean share of "
              "their transfers), and queue only on locks every CPU takes alike; a lock's hold is one "
              "transfer (a lower bound on queueing); other "
              "nodes' transfers at transfer_ns.remote, not by distance; no prefetch, capacity "
              "misses, home-node placement or interconnect queueing")


class ProjectionError(ValueError):
    """A row that cannot be projected: one line saying why."""


def handoff_ns(k, s, c, kind):
    """The time to hand the lock on in state k (k cores holding or waiting)."""
    return s + c + (k - 1) * c / 2 if kind == "ticket" else s + c


def lock_chain(n, a, s, c, kind):
    """The lock's stationary distribution and hand-off rate: -> (P[0..n], X).
    n contending cores, a ns outside the lock, s ns hold, c ns a transfer."""
    if kind not in LOCKS:
        raise ProjectionError(f"lock kind {kind!r}: want one of {', '.join(LOCKS)}")
    if n < 1 or a <= 0 or s < 0 or c < 0 or s + c <= 0:
        raise ProjectionError(f"lock chain: n={n} a={a} s={s} c={c}: want n >= 1, a > 0, "
                              f"s + c > 0")
    # Balance: P[k+1] = P[k] x arrival(k) x handoff(k+1), as logarithms.
    logs = [0.0]
    for k in range(n):
        logs.append(logs[-1] + math.log((n - k) / a) + math.log(handoff_ns(k + 1, s, c, kind)))
    top = max(logs)
    weights = [math.exp(v - top) for v in logs]
    total = sum(weights)
    p = [w / total for w in weights]
    x = sum(p[k] / handoff_ns(k, s, c, kind) for k in range(1, n + 1))
    if not (x > 0 and math.isfinite(x)):
        raise ProjectionError(f"lock chain: n={n} a={a} s={s} c={c}: no finite hand-off rate")
    return p, x


def lock_queueing_ns(n, a, s, c, kind):
    """Mean wait per acquisition beyond the uncontended cycle a + s + c."""
    _, x = lock_chain(n, a, s, c, kind)
    return max(0.0, n / x - (a + s + c))


def targets_queueing_ns(targets, send_ns, s, c, kind):
    """The caller's extra wait for T targets convoying on the first of the
    locks they all take (see the module's docstring): the last one's
    departure from it less its uncontended T x send_ns + S."""
    if targets < 1 or send_ns < 0 or s < 0 or c < 0 or s + c <= 0:
        raise ProjectionError(f"targets' queueing: T={targets} send={send_ns} s={s} c={c}")
    arrive = [j * send_ns for j in range(1, targets + 1)]
    free = 0.0
    for j in range(targets):
        start = max(arrive[j], free)
        # Contending at its turn: itself and the later targets already there.
        k = bisect.bisect_right(arrive, start) - j
        free = start + handoff_ns(k, s, c, kind)
    return max(0.0, free - (targets * send_ns + s + c))


def price_transfers(counts, machine):
    """-> (ns per op, the classes the machine could not price)."""
    total = counts.get("transfers", 0.0)
    locked_share = counts.get("transfers_locked", 0.0) / total if total > 0 else 0.0
    ns, missing = 0.0, []
    for c in CLASSES:
        x = counts.get("transfers_" + c, 0.0)
        if x == 0:
            continue
        t = machine["transfer_ns"].get(c)
        if t is None:
            missing.append(c)
            continue
        lk = machine["locked_ns"].get(c, t)
        ns += x * ((1 - locked_share) * t + locked_share * lk)
    return ns, missing


def mean_transfer_ns(counts, machine):
    """The row's priced transfers' mean price (its own mix of the classes the
    machine prices); the remote figure where it moved none; 0 if none is priced."""
    total = sum(counts.get("transfers_" + c, 0.0) for c in CLASSES
                if c in machine["transfer_ns"])
    if total <= 0 and any(counts.get("transfers_" + c, 0.0) > 0 for c in CLASSES):
        return 0.0
    if total <= 0:
        return machine["transfer_ns"].get("remote", max(machine["transfer_ns"].values()))
    ns, _ = price_transfers(dict(counts, transfers_locked=0.0, transfers=total), machine)
    return ns / total


def in_series_share(counts):
    """The share of a row's transfers on its operation's path: its own
    threads' (transfers_by_threads) and, where it sends IPIs, one target's
    mean share of the rest (the targets answer in parallel, the caller waits
    for them); where it sends none, the rest too (a partner's transfers
    alternate with the caller's, as a ping-pong's). 1 where the run does
    not say which are its threads' (a counting run before that count)."""
    total = counts.get("transfers", 0.0)
    own = counts.get("transfers_by_threads")
    sent = counts.get("ipis_sent", 0.0)
    if own is None or total <= 0 or sent <= 0:
        return 1.0
    own = min(own, total)
    # Fewer than one IPI per operation: the targets' side of the operations
    # that send them, at most all of it; several: one target's mean share.
    return (own + (total - own) / max(sent, 1.0)) / total


def counted_lock_kind(counts):
    """The kind of a row's spinlocks as its counts say: "ticket" (none of its
    lock_acquires was a queued lock's), "queued" (all were), "mixed", or None
    (no lock taken, or a run from before queued_lock_acquires was counted)."""
    locks = counts.get("lock_acquires", 0.0)
    queued = counts.get("queued_lock_acquires")
    if not locks > 0 or queued is None:
        return None
    if queued == 0:
        return "ticket"
    # Each acquisition counts in both: equal in every repetition, so in their mean.
    return "queued" if abs(queued - locks) <= 1e-9 * locks else "mixed"


_SAID_OVERRIDES = set()


def lock_kind_for(locks, name, counts, who):
    """--lock's kind for row name, which project() uses over the row's
    counted kind; where the counts say otherwise (the emulation's lock is
    not the one the user prices), one line on stderr, once per row."""
    given = lock_kind(locks, name)
    counted = counted_lock_kind(counts)
    if given and counted and given != counted and (who, name, counted) not in _SAID_OVERRIDES:
        _SAID_OVERRIDES.add((who, name, counted))
        print(f"{who}: {name}: priced with --lock {given}; its counts say its emulated "
              f"locks are {'ticket and queued' if counted == 'mixed' else counted}",
              file=sys.stderr)
    return given


def project(counts, machine, threads=1, local_ns=None, lock_kind=None):
    """One row: counts per op (transfers_*, ipis_sent, lock_acquires,
    queued_lock_acquires), the machine, the threads sharing its locks;
    lock_kind, --lock's, over the kind the counts give (a what-if: the
    kernel's lock where the emulation takes another).
    -> {"total": ns, "parts": {...}, "unpriced": [what could not be priced],
    "lock_kind": the kind used or None, "model": MODEL, "machine": name}."""
    parts, unpriced = {}, []
    counted = counted_lock_kind(counts)
    unknown = "the row's lock kind is not known: --lock"
    if lock_kind is None and counted == "mixed":
        unknown = "the row takes both ticket and queued locks: not modelled (--lock)"
    elif lock_kind is None:
        lock_kind = counted
    parts["local"] = local_ns if local_ns is not None else 0.0
    if local_ns is None:
        unpriced.append("local work (no timed run here: --local)")
    sent = counts.get("ipis_sent", 0.0)
    locks = counts.get("lock_acquires", 0.0)
    # A lock hand-off's transfer: the row's own mix of the classes priced.
    handoff = mean_transfer_ns(counts, machine) if locks > 0 else 0.0
    priced, missing = price_transfers(counts, machine)
    parts["transfers"] = priced * in_series_share(counts)
    if sent > 0 and "transfers_by_threads" not in counts:
        unpriced.append("which transfers an IPI's targets made (a counting run without "
                        "transfers_by_threads): all priced in series")
    for c in missing:
        unpriced.append(f"{counts['transfers_' + c]:g} {c} transfers per op "
                        f"(no transfer_ns.{c})")
    parts["ipis"] = 0.0
    if sent > 0:
        if machine["ipi_send_ns"] is None or machine["ipi_receive_ns"] is None:
            unpriced.append(f"{sent:g} IPIs per op (the machine file has no IPI figures)")
        else:
            # One answer waited for per call: per operation, at most one.
            parts["ipis"] = sent * machine["ipi_send_ns"] + min(sent, 1.0) * machine[
                "ipi_receive_ns"]
    parts["queueing"] = 0.0
    if locks > 0 and threads > 1:
        if lock_kind is None:
            unpriced.append(f"lock queueing ({unknown})")
        elif local_ns is None:
            unpriced.append("lock queueing (it needs the time outside the lock: --local)")
        elif not handoff > 0:
            unpriced.append("lock queueing (no transfer figure for the row's classes)")
        else:
            s = handoff	# the hold: one transfer of the lock's line (a lower bound)
            before = parts["local"] + parts["transfers"] + parts["ipis"]
            a = max(before / locks - s - handoff, 1e-3)
            parts["queueing"] = locks * lock_queueing_ns(int(threads), a, s, handoff, lock_kind)
    parts["targets_queueing"] = 0.0
    if sent >= 1 and locks > 0:
        targets = round(sent)
        per_cpu = locks / (targets + 1)
        if abs(per_cpu - round(per_cpu)) > 0.01 * per_cpu:
            unpriced.append(f"the targets' queueing ({locks:g} lock acquisitions for "
                            f"{targets + 1} CPUs: not the same locks on every CPU)")
        elif lock_kind is None:
            unpriced.append(f"the targets' queueing ({unknown})")
        elif not handoff > 0:
            unpriced.append("the targets' queueing (no transfer figure for the row's classes)")
        else:
            send = machine["ipi_send_ns"]
            if send is None:
                unpriced.append("the targets' arrival spacing (no IPI figures: taken as "
                                "together, an upper bound on their queueing)")
            parts["targets_queueing"] = targets_queueing_ns(targets, send or 0.0, handoff,
                                                            handoff, lock_kind)
    return {"total": sum(parts.values()), "parts": parts, "unpriced": unpriced,
            "lock_kind": lock_kind if locks > 0 else None, "model": MODEL,
            "machine": machine["name"]}


def local_here(measured_ns, counts_here, here, lock_kind=None):
    """The local work: a timed run's ns per op on this machine (one
    thread's), less what the model prices of it with this machine's own
    description (its transfers on the path, its IPIs and its targets'
    queueing by the kind its locks here were, as project() adds them
    again); never below 0 (then -> (0, True): the description prices more
    than the run took). lock_kind: --lock's, used only where the counts give
    no single kind (as project() would price the row's targets' queueing)."""
    if counted_lock_kind(counts_here) in LOCKS:
        lock_kind = None
    r = project(counts_here, here, local_ns=0.0, lock_kind=lock_kind)
    left = (measured_ns - r["parts"]["transfers"] - r["parts"]["ipis"] -
            r["parts"]["targets_queueing"])
    return (left, False) if left >= 0 else (0.0, True)


def lock_arg(text):
    """--lock KIND[:REGEX] (scripts/project, scripts/compare): -> (kind, regex)."""
    kind, _, regex = text.partition(":")
    if kind not in LOCKS:
        raise argparse.ArgumentTypeError(f"{text!r}: want ticket or queued, then :REGEX "
                                         f"if only for some rows")
    try:
        return kind, re.compile(regex or "")
    except re.error as e:
        raise argparse.ArgumentTypeError(f"{text!r}: {e}") from None


def lock_kind(locks, name):
    """The lock kind the first of --lock's (kind, regex) that matches row name gives, or None."""
    return next((kind for kind, regex in locks if regex.search(name)), None)


def counted_rows(path, cases=None, who="project"):
    """-> ([(name, threads, counts per op averaged over repetitions)], runs that failed)
    of a counting run's results; each failed run named on stderr by who;
    ProjectionError (one line) for a file that is no counting run."""
    try:
        with open(path) as f:
            doc = json.load(f)
    except OSError as e:
        raise ProjectionError(f"{path}: {e.strerror}") from None
    except ValueError as e:
        raise ProjectionError(f"{path}: not JSON ({e})") from None
    if not isinstance(doc, dict) or not isinstance(doc.get("benchmarks"), list):
        raise ProjectionError(f"{path}: not mmscale's results (no benchmarks list)")
    if not str(doc.get("context", {}).get("mmscale_transfers", "")).startswith("counted"):
        raise ProjectionError(f"{path}: not a counting run (mmscale --transfers): it has no "
                              f"transfers to price")
    rows = {}
    for b in doc["benchmarks"]:
        if b.get("run_type") == "aggregate":
            continue
        name = b.get("run_name") or b.get("name", "")
        if cases and not re.search(cases, name):
            continue
        r = rows.setdefault(name, {"threads": b.get("threads", 1), "runs": [], "why": None})
        if b.get("error_occurred"):
            r["why"] = r["why"] or f"a run failed ({b.get('error_message', '')})"
        elif "transfers" not in b:
            r["why"] = r["why"] or f"a run has no transfer counts ({b.get('label', '')})"
        else:
            r["runs"].append({k: v for k, v in b.items() if isinstance(v, (int, float))})
    out, failed = [], 0
    for name, r in rows.items():
        if r["why"]:
            # A repetition it cannot use and the row is not projected: named, counted.
            print(f"{who}: {path}: {name}: {r['why']}: not projected", file=sys.stderr)
            failed += 1
            continue
        keys = set.intersection(*(set(run) for run in r["runs"]))
        avg = {k: sum(run[k] for run in r["runs"]) / len(r["runs"]) for k in keys}
        out.append((name, r["threads"], avg))
    return out, failed
