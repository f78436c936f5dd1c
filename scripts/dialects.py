"""The table dialects of the frameworks mmscale's users run, computed as
those frameworks compute them, for scripts/compare --format=mmtests|lkp.

mmtests: what compare-mmtests.pl prints for mmscale's shellpack
(scripts/mmtests/shellpack_src/src/mmscale/, summarise: Multiops), as mmtests
at 638401e0 computes it in bin/lib/MMTests/Summarise.pm, Stat.pm, Compare.pm
and PrintGeneric.pm. The samples are what the shellpack's parse-results
prints: each run one sample, as Perl prints a number (15 significant
digits), labelled METRIC-CASE.

  - the data sorted best first (ascending where lower is better, descending
    where higher is), then Min, the mean (Amean, or Hmean where higher is
    better), its s.d. (Stddev: n-1; HStddev: sqrt(sum((1/x - 1/H)^2) H^4 / n)),
    CoeffVar (100 s.d. / mean), Max, and BAmean.95 (BHmean.95): the mean of the
    best int(0.95 n) samples, at least one;
  - the percent beside each figure: + always means better. pndiff (100 -
    new*100/base) where lower is better, and always for Stddev and CoeffVar;
    pdiff (new*100/base - 100) where higher is better;
  - the mean's confidence interval: mean +- qnorm(0.975) s.d. (the sample
    spread, not divided by sqrt n), where R computes the quantile and prints
    it with 7 significant digits; a mean is marked '*' (its percent between
    stars) where |diff of the means| over the sum of the two half-widths
    facing each other (cidiff) exceeds 1: where the bands do not overlap;
  - a statistic that is NaN (an s.d. of one sample) prints as 0.00.
"""
import math
from decimal import Decimal
import re

# qnorm(0.975): R's quantile of the standard normal, which Stat.pm scales by
# the s.d. (R's qnorm(p, mean=0, sd=s) is s * qnorm(p)).
QNORM_975 = 1.959963984540054
NAN = float("nan")


def perl_number(v):
    """A number as the shellpack's parse-results prints it and
    compare-mmtests.pl reads it back: Perl's %.15g."""
    return float(f"{v:.15g}")


def _r_printed(v):
    """A number as `R --slave` prints it: 7 significant digits, except that
    R writes a number in fixed notation where that is no wider than the
    scientific one, and fixed notation keeps every digit before the point
    (12347773.2 prints as 12347773, not 1.234777e+07)."""
    s7 = f"{v:.7g}"
    if "e" in s7 and abs(v) >= 1:
        mantissa, exponent = s7.split("e")
        if "." in mantissa:
            mantissa = mantissa.rstrip("0").rstrip(".")
        fixed = f"{v:.0f}"
        if len(fixed) <= len(mantissa + "e" + exponent):
            return float(fixed)
    return float(s7)


def _mean(values, higher):
    if not values:
        return NAN
    if not higher:
        return sum(values) / len(values)
    if any(v <= 0 for v in values):
        return NAN
    return len(values) / sum(1 / v for v in values)


def _stddev(values, mean, higher):
    n = len(values)
    if math.isnan(mean) or n <= 1:
        return NAN
    if not higher:
        return math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1))
    return math.sqrt(sum((1 / v - 1 / mean) ** 2 for v in values) * mean ** 4 / n)


def mmtests_stats(values, higher):
    """Multiops' six statistics of one operation's samples, and the mean's
    confidence interval (None where Stat.pm has none: fewer than two
    samples, or a NaN mean). -> ([min, mean, sd, cv, max, bmean95], ci)"""
    data = sorted(values, reverse=higher)
    mean = _mean(data, higher)
    sd = _stddev(data, mean, higher)
    cv_sd = 0.0 if math.isnan(sd) else sd
    cv_mean = 0.0 if math.isnan(mean) else mean
    cv = cv_sd * 100 / cv_mean if cv_mean else 0.0
    best = data[:max(1, int(len(data) * 95 / 100))]
    stats = [min(data), mean, sd, cv, max(data), _mean(best, higher)]
    ci = None
    if not math.isnan(mean) and not math.isnan(sd):
        # Perl hands R the s.d. as it prints it (15 digits).
        q = _r_printed(QNORM_975 * perl_number(sd))
        ci = (mean - q, mean + q)
    return stats, ci


def pdiff(new, base):
    if new == base or new == 0:
        return 0.0
    if base == 0 or math.isnan(base):
        return 100.0
    return new * 100 / base - 100


def pndiff(new, base):
    if new == base:
        return 0.0
    if new == 0:
        return 100.0
    if base == 0:
        return -99.0
    return 100 - new * 100 / base


def cidiff(new, new_ci, base, base_ci):
    """Stat.pm's cidiff: the difference over the two half-widths that face
    each other (a missing interval counts as 0, as Perl's undef does)."""
    new_lo, new_hi = new_ci or (0.0, 0.0)
    base_lo, base_hi = base_ci or (0.0, 0.0)
    diff = new - base
    if new < base:
        cisum = new_hi - new + base - base_lo
    else:
        cisum = new - new_lo + base_hi - base
    return diff if cisum == 0 else diff / cisum


MMTESTS_STATS = (("Min", "Min"), ("Amean", "Hmean"), ("Stddev", "HStddev"),
                 ("CoeffVar", "HCoeffVar"), ("Max", "Max"), ("BAmean.95", "BHmean.95"))
MMTESTS_MEAN_ROW = 1
MMTESTS_FIELD = 18      # Extract.pm's _FieldLength
MMTESTS_COMPARE = 7     # Compare.pm's _CompareLength


def _perl_f(v, width, prec):
    """Perl's %W.Pf, which prints NaN and Inf as words."""
    if math.isnan(v):
        return f"{'NaN':>{width}}"
    if math.isinf(v):
        return f"{'-Inf' if v < 0 else 'Inf':>{width}}"
    return f"{v:{width}.{prec}f}"


def mmtests_header(names):
    """Compare.pm's two header lines' cells: each name split at its first
    '-' (past a '-rcN'); a name without one loses its last character above
    and shows whole below (Perl's substr with index -1)."""
    top, bottom = [], []
    for name in names:
        i = name.find("-")
        # Perl's substr($name, $i, $i + 3): from $i (the last character
        # when $i is -1), $i + 3 characters long.
        if re.search(r"-rc[0-9]", name[i:i + i + 3] if i >= 0 else name[-1:]):
            i += 4
        top.append(name[:i] if i >= 0 else name[:-1])
        bottom.append(name[i + 1:])
    return top, bottom


def mmtests_table(names, sides, higher, precision=2):
    """compare-mmtests.pl's table. names: the runs' names, baseline first;
    sides: per run, {label: [samples]} in the order parse-results printed
    them (the baseline's order is the table's); higher(label): whether more
    is better. -> the lines."""
    ops = list(sides[0])
    summaries = []
    for side in sides:
        summaries.append({op: mmtests_stats(side[op], higher(op)) for op in side if side[op]})
    stat_w = max(len(MMTESTS_STATS[i][1 if higher(op) else 0])
                 for op in ops for i in range(len(MMTESTS_STATS)))
    op_w = max(len(op) for op in ops)
    width = MMTESTS_FIELD + MMTESTS_COMPARE + 4
    # Compare.pm marks a run's means only if it has some interval, and takes
    # the baseline's mean only if the baseline has some (else Perl's undef, 0).
    has_ci = [any(c is not None for _, c in summary.values()) for summary in summaries]
    top, bottom = mmtests_header(names)
    lines = [" " * (stat_w + op_w + 1) + "".join(f"{t:>{width}}" for t in top),
             " " * (stat_w + op_w + 1) + "".join(f"{b:>{width}}" for b in bottom)]
    for row, names_of_row in enumerate(MMTESTS_STATS):
        for op in ops:
            up = higher(op)
            base_stats, base_ci = summaries[0].get(op, (None, None))
            base = base_stats[row]
            compare = pndiff if row in (2, 3) or not up else pdiff
            cells = []
            for j, summary in enumerate(summaries):
                stats, ci = summary.get(op, (None, None))
                value = stats[row] if stats else NAN
                if stats and not math.isnan(value) and value != -1 and base != -1:
                    # Compare.pm keeps the percent as a string (15 digits)
                    # that printf then rounds again: 90.625 prints 90.62.
                    figure, pct = value, perl_number(compare(value, base))
                else:
                    figure, pct = 0.0, 0.0
                sig = False
                if row == MMTESTS_MEAN_ROW and j > 0 and has_ci[j] and ci is not None:
                    # Compare.pm: cidiff(baseline, its CI, this run, its CI).
                    sig = abs(cidiff(base if has_ci[0] else 0.0, base_ci if has_ci[0] else None,
                                     stats[MMTESTS_MEAN_ROW], ci)) > 1
                mark = ("*", "*") if sig else ("(", ")")
                cells.append(_perl_f(figure, MMTESTS_FIELD, precision) +
                             f" {mark[0]}{_perl_f(pct, MMTESTS_COMPARE, 2)}%{mark[1]}")
            lines.append(f"{names_of_row[1 if up else 0]:<{stat_w}} {op:<{op_w}}" +
                         "".join(cells))
    return lines


# LKP: lkp-tests at bbbc29c4, lib/compare.rb's report of two results, with
# the change rule of lib/stats.rb and lib/changed_stat.rb. Keys are the
# stats mmscale's LKP program gives (scripts/lkp/programs/mmscale/parse):
# mmscale.CASE.METRIC. LKP's samples are job runs; here each repetition is
# one run.
LKP_ABS, LKP_REL, LKP_ERR = 10, 10, 6   # compare.rb's ABS_WIDTH, REL_WIDTH, ERR_WIDTH
LKP_MAX_RATIO = 5                      # stats.rb's MAX_RATIO
# The patterns of etc/perf-metrics-threshold.yaml that a key mmscale.* can
# match (each anchored, as reasonable_perf_change? anchors them).
LKP_THRESHOLDS = ((re.compile(r"^.*vmstat.*nr_.*$"), 100),)


def _lkp_summary(values, max_margin):
    """StatSummary: sorted, margin = min(size >> 5, max_margin) cut from each
    end; min, 'mean' (the element at size / 2) and max of the rest."""
    s = sorted(values)
    margin = min(len(values) >> 5, max_margin)
    s = s[margin:len(s) - margin]
    return (s[0], s[len(s) // 2], s[-1]) if s else None


def lkp_changed(key, new, base):
    """Whether lib/compare.rb shows key: at least 3 runs on one side, the
    two sides' ranges separate (each median outside the other's range:
    ChangedStat#change?), and the change is not small (skip_small_change?:
    the medians' ratio above 1.01, and the thresholds that apply)."""
    if len(new) < 3 and len(base) < 3:
        return False
    b = _lkp_summary(base, 3)
    a = _lkp_summary(new, 1 if len(base) <= 3 else 3)
    if a is None or b is None:
        return False
    (min_a, mean_a, max_a), (min_b, mean_b, max_b) = a, b
    if not ((min_b > mean_a and mean_b > max_a) or (min_a > mean_b and mean_a > max_b)):
        return False
    high, low = (a, b) if mean_a > mean_b else (b, a)
    ratio = high[1] / low[1] if low[1] > 0 else LKP_MAX_RATIO
    ratio = min(ratio, LKP_MAX_RATIO)
    delta, top = high[1] - low[1], max(max_a, max_b)
    if not ratio > 1.01:
        return False
    for pattern, v in LKP_THRESHOLDS:
        if pattern.match(key):
            return not (top < v or (delta < v / 2 and isinstance(v, int)))
    return True


# Ruby's dtoa (missing/dtoa.c): its floating-point path, as sprintf takes it.
_DTOA_TENS = [10.0 ** i for i in range(23)]
_DTOA_BIGTENS = [1e16, 1e32, 1e64, 1e128, 1e256]
_DTOA_QUICK_MAX = 14


def _dtoa_quick(d, k, ilim):
    """dtoa's floating-point path for ilim digits of d (> 0) whose decimal
    exponent is k: (digits, k), or None where it hands over to the exact
    path. Ruby's dtoa rounds a last digit that falls within its error
    bound of a half to even, where Gay's hands over."""
    ieps = 2
    i = 0
    if k > 0:
        ds = _DTOA_TENS[k & 0xf]
        j = k >> 4
        if j & 0x10:
            j &= 0xf
            d /= _DTOA_BIGTENS[4]
            ieps += 1
        while j:
            if j & 1:
                ieps += 1
                ds *= _DTOA_BIGTENS[i]
            j >>= 1
            i += 1
        d /= ds
    elif k < 0:
        j1 = -k
        d *= _DTOA_TENS[j1 & 0xf]
        j = j1 >> 4
        while j:
            if j & 1:
                ieps += 1
                d *= _DTOA_BIGTENS[i]
            j >>= 1
            i += 1
    if d < 1.0 and ilim > 0:
        if ilim - 1 <= 0:
            return None
        ilim -= 1
        k -= 1
        d *= 10.0
        ieps += 1
    if ilim <= 0:
        return None
    eps = math.ldexp(ieps * d + 7.0, -52) * _DTOA_TENS[ilim - 1]
    digits = []
    i = 1
    while True:
        L = int(d)
        d -= L
        if not d:
            ilim = i
        digits.append(L)
        if i == ilim:
            if d > 0.5 + eps:
                up = True
            elif d < 0.5 - eps:
                up = False
                while len(digits) > 1 and digits[-1] == 0:
                    digits.pop()
            else:
                up = digits[-1] & 1 == 1
            break
        i += 1
        d *= 10.0
    if up:
        while digits and digits[-1] == 9:
            digits.pop()
        if not digits:
            return [1], k + 1
        digits[-1] += 1
    return digits, k


def ruby_fixed(v, prec):
    """Ruby's sprintf('%.{prec}f', v), as lib/compare.rb prints its cells:
    Ruby's dtoa takes its floating-point path for up to 14 digits, and
    there rounds a last digit within its error bound of a half to even,
    so 343.25000000000006 prints as 343.2 where C and Python print 343.3
    (matched against ruby 3.1's printf on 132,009 values, each side of
    every boundary). Longer numbers take the exact path, as Python does."""
    if not math.isfinite(v) or v == 0:
        return f"{v:.{prec}f}"
    k = Decimal(abs(v)).adjusted()
    ilim = k + 1 + prec
    got = _dtoa_quick(abs(v), k, ilim) if 0 <= ilim <= _DTOA_QUICK_MAX else None
    if got is None:
        return f"{v:.{prec}f}"
    digits, k = got
    s = "".join(map(str, digits))
    point = k + 1
    if point <= 0:
        s = "0" * (1 - point) + s
        point = 1
    s = s.ljust(point + prec, "0")
    return ("-" if v < 0 else "") + s[:point] + ("." + s[point:point + prec] if prec else "")


def ruby_sum(values):
    """Ruby's Array#sum of numbers (array.c ary_sum, which ActiveSupport's
    Array#sum calls, and so LKP's Enumerable#average): Kahan-Babuska
    compensated summation from 0.0, not the naive sum Python's takes: the
    two differ in the last bits (0.1 + 0.2 + 0.3), enough to move a change
    printed to one decimal across its rounding boundary."""
    f = c = 0.0
    for x in map(float, values):
        if math.isnan(f):
            continue
        if math.isnan(x) or math.isinf(x):
            f = math.nan if math.isinf(f) and math.isinf(x) and (f > 0) != (x > 0) else x
            continue
        if math.isinf(f):
            continue
        t = f + x
        c += (f - t) + x if abs(f) >= abs(x) else (x - t) + f
        f = t
    return f + c


def _ruby_d(v, width):
    """Ruby's %Wd of a Float: truncated toward zero."""
    return f"{int(v):{width}d}"


def lkp_row(key, base, new):
    """show_perf_change and show_stat: the mean and s.d. (population) of
    each side, the change between them (absolute for a key ending in '%')."""
    cells = []
    avgs = []
    for i, vs in enumerate((base, new)):
        # statistics.rb: average is sum / length (Ruby's compensated sum);
        # sample_variance 1 / length * the plain sum of squares (inject).
        avg = ruby_sum(vs) / len(vs)
        sd = math.sqrt(1 / len(vs) * sum((v - avg) ** 2 for v in vs)) if len(vs) > 1 else -1
        avgs.append(avg)
        if i:
            if key.endswith("%"):
                p, tail = avgs[1] - avgs[0], "  "
            else:
                p, tail = 100.0 * (avgs[1] - (avgs[0] or 1e-100)) / (avgs[0] or 1e-100), "% "
            rel = ruby_fixed(p, 1) if abs(p) < 100_000 else f"{p:.2g}"
            rel = rel if rel.startswith("-") else "+" + rel
            cells.append(f"{rel:>{LKP_REL}}{tail}")
        if abs(avg) < 1000:
            cells.append(f"{ruby_fixed(avg, 2):>{LKP_ABS}}")
        elif abs(avg) > 100_000_000:
            cells.append(f"{avg:{LKP_ABS}.4g}")
        else:
            cells.append(_ruby_d(avg, LKP_ABS))
        rel = 100 * sd / avg if avg != 0 else sd
        cells.append(f" ±{_ruby_d(rel, LKP_ERR - 3)}%" if rel > 2 else " " * LKP_ERR)
    return "".join(cells) + f"  {key}"


def lkp_table(names, base, new, every_key=False):
    """compare.rb's report of two results (show_group): the group header
    (the common axes, then the compared ones: here the results' names), the
    %stddev %change %stddev header and the changed stats, sorted by key.
    base, new: {key: [samples]}; every_key: every stat, not only those
    LKP's change rule picks (a projection has no noise to pick them from).
    -> (lines, keys compared, keys shown)"""
    # stats.rb fills a baseline stat the new result lacks (dump-stat drops
    # a stat that is 0 in every run) with a 0 per run: it went to 0.
    runs = max((len(v) for v in new.values()), default=0)
    new = dict(new, **{k: [0] * runs for k in base if k not in new})
    keys = sorted(k for k in base if new.get(k))
    shown = [k for k in keys if every_key or lkp_changed(k, new[k], base[k])]
    if not shown:  # show_group prints nothing of a group without a change
        return [], len(keys), 0
    first = LKP_ABS + LKP_ERR
    width = first + LKP_REL + 1
    lines = ["=" * 89, "testcase:", "  mmscale", "", "result: "]
    lines += [f"  {n}" for n in names] + [""]
    lines.append(f"{names[0][:first]:>{first}} {names[1][:width]:>{width}} ")
    lines.append("-" * first + " " + "-" * width + " ")
    lines.append("         %stddev     %change         %stddev")
    lines.append("             \\          |                \\  ")
    lines += [lkp_row(k, base[k], new[k]) for k in shown]
    lines.append("")
    return lines, len(keys), len(shown)
