"""Verdicts on paired rounds: is AFTER faster than BEFORE, and by how much?

scripts/ab runs both sides once per round, in random order, so that a
machine whose speed drifts (another job starting, a neighbour on the host)
moves both sides of a round alike. The sample is then one figure per
round: the ratio AFTER/BEFORE of that round's times. Everything here works
on the logarithms of those ratios, d = ln(after/before): a difference of
log times is symmetric (x1.05 and /1.05 are +0.049 and -0.049), and an
interval on d, exponentiated, is an interval on the ratio that cannot pass
-100%.

The estimator and its interval are distribution-free: the Hodges-Lehmann
estimate of the median of d (the median of the Walsh averages (d_i + d_j)/2,
i <= j), with the exact confidence interval from the Wilcoxon signed-rank
distribution (Tukey's; Hollander and Wolfe, Nonparametric Statistical
Methods, 3.2), and the signed-rank test's exact p-value; both by the normal
approximation above EXACT_MAX rounds. Why these: rounds on a shared
machine are not normal (an interfered round is an outlier, and the seeds'
trimmed mean is a sign of that), and the signed-rank test needs only that
d be symmetric about its centre under no difference - which the random
order of the sides in each round makes true for an A/A comparison. Kalibera
and Jones ("Rigorous benchmarking in reasonable time", ISMM 2013) make the
execution the unit of replication and ask for a ratio with an interval;
each round here is a fresh execution of each side, and pairing the two
executions of a round removes the drift between rounds that their
independent-samples intervals would carry.

Several rows are corrected together: Benjamini-Hochberg at q over the
rows' p-values decides which rows differ, and every interval is given at
the level 1 - R q / m (R of m rows found different, R at least 1): the
false coverage-statement rate intervals of Benjamini and Yekutieli (2005),
which agree with the rows BH selects.

A row's verdict is one word:
  faster / slower  BH selects it; the ratio is below / above 1
  same             not selected, and the interval lies within
                   +-UNSTEADY_WIDTH: the run could have seen a difference as
                   small as the interval's farther end, and saw none
  unsteady         the machine interfered too much to say: runs that say
                   they are not for timing (a stand-in or oversubscribed
                   plan), more than MARKED_MAX of the rounds marked by the
                   witness of interference, fewer than MIN_ROUNDS usable
                   rounds, too few for an interval at the corrected level
                   (min_rounds), or an interval wider than +-UNSTEADY_WIDTH
"""
import math
import statistics

EXACT_MAX = 50          # the exact signed-rank distribution up to this many rounds
MIN_ROUNDS = 6          # fewer usable rounds cannot reach p < 0.05 at all (2/2^5)
MARKED_MAX = 0.5        # more than half a row's rounds marked: unsteady
UNSTEADY_WIDTH = 0.10   # an interval reaching past x1.10 (or /1.10) says nothing: unsteady

_NULL = {}


def signed_rank_null(n):
    """The number of subsets of {1..n} with each sum s = 0..n(n+1)/2: the
    exact null distribution of the signed-rank statistic W+ (without ties),
    each subset having probability 2^-n."""
    if n not in _NULL:
        counts = [1]
        for rank in range(1, n + 1):
            grown = counts + [0] * rank
            for s in range(len(counts)):
                grown[s + rank] += counts[s]
            counts = grown
        _NULL[n] = counts
    return _NULL[n]


def _ranks(values):
    """Midranks (1-based) of values, ties sharing their mean rank."""
    order = sorted(range(len(values)), key=lambda i: values[i])
    ranks = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            ranks[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return ranks


def signed_rank_p(d):
    """The two-sided p-value of the Wilcoxon signed-rank test that d is
    centred on 0 (zeros dropped, as Wilcoxon did); exact without ties up to
    EXACT_MAX values, else the normal approximation with its tie correction
    and a continuity correction. 1.0 when nothing is left."""
    d = [x for x in d if x != 0]
    n = len(d)
    if n == 0:
        return 1.0
    absd = [abs(x) for x in d]
    ranks = _ranks(absd)
    w_plus = sum(r for r, x in zip(ranks, d) if x > 0)
    ties = len(set(absd)) < n
    if n <= EXACT_MAX and not ties:
        counts = signed_rank_null(n)
        total = 2 ** n
        w = int(round(w_plus))
        low = sum(counts[:w + 1]) / total
        high = sum(counts[w:]) / total
        return min(1.0, 2 * min(low, high))
    mean = n * (n + 1) / 4
    tie_term = 0.0
    for v in set(absd):
        t = absd.count(v)
        tie_term += t ** 3 - t
    var = n * (n + 1) * (2 * n + 1) / 24 - tie_term / 48
    if var <= 0:
        return 1.0
    z = (abs(w_plus - mean) - 0.5) / math.sqrt(var)
    return min(1.0, 2 * (1 - statistics.NormalDist().cdf(max(z, 0.0))))


def walsh_interval(d, level):
    """-> (estimate, low, high, achieved level): the Hodges-Lehmann estimate
    of d's centre (the median of its Walsh averages) and the distribution-
    free interval at least at `level` from the signed-rank distribution
    (the c-th smallest and c-th largest Walsh average, c the largest count
    with P(W+ < c) <= (1 - level)/2). low, high and the level are None where
    the rounds are too few for the level."""
    n = len(d)
    walsh = sorted((d[i] + d[j]) / 2 for i in range(n) for j in range(i, n))
    big_n = len(walsh)
    estimate = statistics.median(walsh) if walsh else float("nan")
    alpha = 1 - level
    if n <= EXACT_MAX:
        counts = signed_rank_null(n)
        total = 2 ** n
        c, below = 0, 0
        # P(W+ <= c - 1) <= alpha / 2: c Walsh averages can be cut from each end.
        while c < len(counts) and (below + counts[c]) / total <= alpha / 2:
            below += counts[c]
            c += 1
        achieved = 1 - 2 * below / total if c else None
    else:
        z = statistics.NormalDist().inv_cdf(1 - alpha / 2)
        c = int(math.floor(big_n / 2 - z * math.sqrt(n * (n + 1) * (2 * n + 1) / 24)))
        achieved = level if c > 0 else None
    if c < 1:
        return estimate, None, None, None
    return estimate, walsh[c - 1], walsh[big_n - c], achieved


def benjamini_hochberg(pvalues, q):
    """-> the set of indices BH selects at false discovery rate q."""
    m = len(pvalues)
    order = sorted(range(m), key=lambda i: pvalues[i])
    last = 0
    for k, i in enumerate(order, 1):
        if pvalues[i] <= k * q / m:
            last = k
    return set(order[:last])


def interval_level(selected, m, q):
    """Benjamini-Yekutieli's FCR-adjusted level for the rows' intervals."""
    return 1 - max(selected, 1) * q / m if m else 1 - q


def min_rounds(level):
    """The fewest rounds whose signed-rank interval can reach `level`: the
    most extreme outcome, all signs alike, has probability 2 / 2^n."""
    return max(MIN_ROUNDS, math.ceil(math.log2(2 / (1 - level))))


def reach(low, high):
    """The farther end of a ratio interval from 1, as a fraction: the
    smallest difference this run could have told from none."""
    return max(abs(low - 1), abs(high - 1))


def verdicts(rows, q=0.05):
    """rows: [{"d": [ln ratios of the usable rounds], "rounds": all rounds,
    "marked": rounds left out for interference, and optionally "unfit":
    rounds whose runs say they are not for timing}] -> one dict per row:
    ratio, low, high (ratio interval), nominal (the level the correction
    asks for), level (the interval's own, at least nominal), tested (the
    rows corrected together), p, verdict, why."""
    pvalues = [signed_rank_p(r["d"]) if len(r["d"]) >= MIN_ROUNDS else 1.0 for r in rows]
    testable = [i for i, r in enumerate(rows) if len(r["d"]) >= MIN_ROUNDS]
    selected = benjamini_hochberg([pvalues[i] for i in testable], q)
    selected = {testable[k] for k in selected}
    nominal = interval_level(len(selected), len(testable), q)
    out = []
    for i, r in enumerate(rows):
        d = r["d"]
        res = {"p": pvalues[i], "nominal": nominal, "level": None, "tested": len(testable),
               "rounds": r["rounds"], "used": len(d), "marked": r["marked"], "ratio": None,
               "low": None, "high": None}
        if d:
            est, lo, hi, achieved = walsh_interval(d, nominal)
            res["ratio"] = math.exp(est)
            if lo is not None:
                res.update(low=math.exp(lo), high=math.exp(hi), level=achieved)
        marked_share = r["marked"] / r["rounds"] if r["rounds"] else 0.0
        if r.get("unfit"):
            res["verdict"], res["why"] = "unsteady", (
                f"its runs in {r['unfit']} round(s) say they are not for timing (a stand-in "
                "or oversubscribed plan: its threads share PUs)")
        elif marked_share > MARKED_MAX:
            res["verdict"], res["why"] = "unsteady", (
                f"{r['marked']} of {r['rounds']} rounds marked by the witness of interference")
        elif len(d) < MIN_ROUNDS:
            res["verdict"], res["why"] = "unsteady", (
                f"{len(d)} usable round(s), fewer than {MIN_ROUNDS}")
        elif i in selected:
            res["verdict"] = "faster" if res["ratio"] < 1 else "slower"
            res["why"] = f"Benjamini-Hochberg selects it (p {pvalues[i]:.2g})"
        elif res["low"] is None:
            res["verdict"], res["why"] = "unsteady", (
                f"{len(d)} usable rounds: an interval at {nominal:.2%} needs "
                f"{min_rounds(nominal)}")
        elif reach(res["low"], res["high"]) > UNSTEADY_WIDTH:
            res["verdict"], res["why"] = "unsteady", (
                f"its interval reaches past +-{UNSTEADY_WIDTH:.0%}")
        else:
            res["verdict"] = "same"
            res["why"] = (f"no difference; this run could have seen "
                          f"{reach(res['low'], res['high']):.1%}")
        out.append(res)
    return out


def rounds_needed(sd_log, delta, level, power=0.8):
    """Paired rounds a difference delta (0.05: 5%) needs to be told from
    none at `level` with the given power, for per-round log ratios of
    standard deviation sd_log: ((z_level + z_power) sd / ln(1 + delta))^2,
    over the signed-rank test's asymptotic efficiency against the t-test
    (3/pi). A planning figure, not a promise."""
    if sd_log <= 0:
        return min_rounds(level)
    z = statistics.NormalDist().inv_cdf
    n = ((z(1 - (1 - level) / 2) + z(power)) * sd_log / math.log1p(delta)) ** 2
    return max(min_rounds(level), math.ceil(n / (3 / math.pi)))


def robust_sd(values):
    """1.4826 x the median absolute deviation: the s.d. of the bulk of the
    rounds, not of its outliers."""
    if len(values) < 2:
        return 0.0
    med = statistics.median(values)
    return 1.4826 * statistics.median(abs(v - med) for v in values)
