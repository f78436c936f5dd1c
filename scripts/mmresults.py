"""Reading mmscale results (Google Benchmark JSON) for scripts/compare,
scripts/sweep and scripts/plot: one record per run (repetition), the case
family / variant / parameters split out of the benchmark name using the
variant list the results carry in their context (mmscale_variants), and the
seeds' statistics (drop the fastest and the slowest run; mean and standard
deviation of the rest), as bench/stats.c computes them."""
import glob
import json
import math
import os
import re

NON_COUNTERS = {
    "name", "run_name", "run_type", "repetitions", "repetition_index", "threads", "iterations",
    "real_time", "cpu_time", "time_unit", "label", "family_index",
    "per_family_instance_index", "aggregate_name", "aggregate_unit", "error_occurred",
    "error_message", "manual_time",
}


def result_files(path):
    """A JSON file, or every raw/*.json / *.json of a results folder."""
    if os.path.isfile(path):
        return [path]
    files = sorted(glob.glob(os.path.join(path, "raw", "*.json")))
    return files or sorted(glob.glob(os.path.join(path, "*.json")))


def variants_map(context):
    out = {}
    for part in context.get("mmscale_variants", "").split(";"):
        if "=" in part:
            case, vs = part.split("=", 1)
            out[case] = vs.split(",")
    return out


def split_name(run_name, variants):
    """-> (family, variant or '', params 'k:4/writers:1', threads)"""
    m = re.search(r"/threads:(\d+)$", run_name)
    threads = int(m.group(1)) if m else 1
    rest = re.sub(r"/threads:\d+$", "", run_name)
    rest = re.sub(r"/(real_time|manual_time)$", "", rest)
    rest = re.sub(r"/iterations:\d+$", "", rest)
    for case, vs in variants.items():
        if not rest.startswith(case + "/"):
            continue
        tail = rest[len(case) + 1:]
        for v in sorted(vs, key=len, reverse=True):
            if tail == v or tail.startswith(v + "/"):
                return case, v, tail[len(v) + 1:], threads
    parts = rest.split("/")
    params = [p for p in parts if ":" in p]
    family = "/".join(p for p in parts if ":" not in p)
    return family, "", "/".join(params), threads


def params_dict(params):
    out = {}
    for p in params.split("/"):
        if ":" in p:
            k, v = p.split(":", 1)
            out[k] = v
    return out


def load(path):
    """-> list of records (dict) for every non-aggregate, error-free run."""
    records = []
    for f in result_files(path):
        with open(f) as fh:
            d = json.load(fh)
        ctx = d.get("context", {})
        variants = variants_map(ctx)
        for b in d.get("benchmarks", []):
            if b.get("run_type") == "aggregate" or b.get("error_occurred"):
                continue
            family, variant, params, threads = split_name(b["run_name"], variants)
            rec = {
                "file": os.path.basename(f), "name": b["run_name"], "family": family,
                "variant": variant, "params": params, "threads": threads,
                "repetition": b.get("repetition_index", 0),
                "real_time_ns": to_ns(b["real_time"], b.get("time_unit", "ns")),
                "cpu_time_ns": to_ns(b["cpu_time"], b.get("time_unit", "ns")),
                "iterations": b.get("iterations", 0), "label": b.get("label", ""),
                "counters": {k: v for k, v in b.items()
                             if k not in NON_COUNTERS and isinstance(v, (int, float))},
                "context": ctx, "variants": variants,
            }
            records.append(rec)
    return records


def to_ns(v, unit):
    return v * {"ns": 1, "us": 1e3, "ms": 1e6, "s": 1e9}.get(unit, 1)


def metric(rec, name):
    if name in ("time", "real_time_ns"):
        return rec["real_time_ns"]
    return rec["counters"].get(name)


def trimmed(values):
    """The seeds' statistic: drop one fastest and one slowest (with 3 or more runs)."""
    v = sorted(values)
    if len(v) >= 3:
        v = v[1:-1]
    if not v:
        return float("nan"), float("nan")
    mean = sum(v) / len(v)
    sd = math.sqrt(sum((x - mean) ** 2 for x in v) / (len(v) - 1)) if len(v) > 1 else 0.0
    return mean, sd


def num(v):
    if v != v:
        return "-"
    if abs(v) >= 1000:
        return f"{v:.0f}"
    if abs(v) >= 10:
        return f"{v:.1f}"
    return f"{v:.3g}"
