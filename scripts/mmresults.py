"""The one results library of scripts/: where the checkout and mmscale are
(ROOT, MMSCALE), running our own scripts in-process (run_script), drawing
(save_figure, line_plot), the families the results describe (families:
the case tables' baselines and metrics, from mmscale_families), reading
mmscale results (Google Benchmark JSON) for every script that reads them:
one record per run (repetition), the case family / variant / parameters
split out of the benchmark name using the variant list the results carry
in their context (mmscale_variants), grouped by run (by_name) - and the
seeds' statistics (drop the fastest and the slowest run; mean and
standard deviation of the rest: trimmed, trimmed_by_name), as
bench/stats.c computes them; and what the scripts that regenerate
RESULTS.md's sections share (run_json, replace_section, ...).

Every script that reads results goes through read() (or load(), built on
it): a run it cannot use (error_occurred, or no numeric real_time) is
reported on stderr, one line each,

  <script>: unusable run: <file>: <run name> (repetition <i>): <why>

and kept in the result's .unusable list, so the script can count it in its
summary (and exit 1). Nothing is dropped without a word."""
import argparse
import contextlib
import glob
import importlib.machinery
import importlib.util
import io
import json
import math
import os
import platform
import re
import signal
import subprocess
import sys

# The checkout and the mmscale every script runs (MMSCALE overrides it).
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MMSCALE = os.environ.get("MMSCALE") or os.path.join(ROOT, "build", "mmscale")


def load_script(name):
    """One of scripts/ (ab, compare, ...: files without .py) as a module, to
    call its functions."""
    path = os.path.join(ROOT, "scripts", name)
    mod_name = "mmscale_script_" + re.sub(r"\W", "_", name)
    loader = importlib.machinery.SourceFileLoader(mod_name, path)
    spec = importlib.util.spec_from_loader(mod_name, loader)
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


def run_script(name, argv):
    """Run one of scripts/ (compare, plot, floor_table.py, quick_tables.py) in
    this process, as its command line would: -> (exit status, what it printed
    on stdout). Its stderr (the unusable runs it names) goes to ours."""
    module = load_script(name)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        try:
            status = module.main(list(argv))
        except SystemExit as e:
            status = e.code if isinstance(e.code, int) else 1
    return status or 0, out.getvalue()


# What an interrupted script says it kept (scripts set it as they go).
KEPT = "every file it finished is whole (each is written to FILE.partial, then renamed)"


class ArgumentParser(argparse.ArgumentParser):
    """argparse's parser whose refusal is one line and exit status 2 (argparse's
    own prints its usage first): "PROG: what is wrong (PROG --help says more)"."""

    def error(self, message):
        self.exit(2, f"{self.prog}: {message} ({self.prog} --help says more)\n")


def main_guard(main, *args):
    """Run a script's main() as its command line does and exit with its
    status. An interrupt (SIGINT, SIGTERM) ends with one line saying what was
    kept (KEPT), status 130; a failed read or write (a full disk, standard
    output closed) with one line naming the file and the error, status 1:
    never a traceback."""
    name = script_name()

    def on_sigterm(signum, frame):
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, on_sigterm)
    sys.stdout = _NamedStream(sys.stdout, "standard output")
    try:
        status = main(*args)
        sys.stdout.flush()
    except SystemExit as e:  # sys.exit(N) or sys.exit("message") inside main
        status = e.code
        if isinstance(status, str):
            print(status, file=sys.stderr)
            status = 1
    except KeyboardInterrupt:
        print(f"{name}: interrupted; {KEPT}", file=sys.stderr)
        status = 130
    except OSError as e:
        where = f"{e.filename}: " if e.filename else ""
        print(f"{name}: {where}{e.strerror or e}", file=sys.stderr)
        status = 1
    try:
        sys.stdout.flush()
    except OSError:
        pass
    # Python flushes stdout again at exit, and would print a traceback for a
    # failure there: point it at /dev/null first.
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    sys.exit(status or 0)


class _NamedStream:
    """A stream whose failed writes say which stream failed: an OSError from
    print() names no file ("standard output" does)."""

    def __init__(self, stream, name):
        self._stream, self._name = stream, name

    def _named(self, call, *args):
        try:
            return call(*args)
        except OSError as e:
            if e.filename:
                raise
            raise OSError(e.errno, e.strerror, self._name) from None

    def write(self, text):
        return self._named(self._stream.write, text)

    def flush(self):
        return self._named(self._stream.flush)

    def __getattr__(self, attr):
        return getattr(self._stream, attr)


def write_atomic(path, text):
    """text as path, whole or not at all: path.partial renamed over path."""
    tmp = path + ".partial"
    try:
        with open(tmp, "w") as f:
            f.write(text)
        os.replace(tmp, path)
    except BaseException as e:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        if isinstance(e, OSError) and not e.filename:
            raise OSError(e.errno, e.strerror, path) from None  # name the file
        raise


def save_figure(fig, out_dir, name):
    """fig as out_dir/name.png and .svg, each whole or not at all; -> the
    paths written."""
    import matplotlib.pyplot as plt

    os.makedirs(out_dir, exist_ok=True)
    written = []
    try:
        for ext in ("png", "svg"):
            path = os.path.join(out_dir, f"{name}.{ext}")
            try:
                fig.savefig(path + ".partial", bbox_inches="tight", format=ext)
                os.replace(path + ".partial", path)
            except BaseException as e:
                with contextlib.suppress(OSError):
                    os.unlink(path + ".partial")
                if isinstance(e, OSError) and not e.filename:
                    raise OSError(e.errno, e.strerror, path) from None  # name the file
                raise
            written.append(path)
    finally:
        plt.close(fig)
    return written


def line_plot(out_dir, name, title, xlabel, ylabel, series, logx=False, logy=False):
    """series: {label: [(x, y), ...]}, one line each -> the paths written."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4.2))
    for label, pts in series.items():
        pts = sorted(pts)
        ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o", label=label)
    if logx:
        ax.set_xscale("log", base=2)
    if logy:
        ax.set_yscale("log")
    ax.set_title(title)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.legend(fontsize=7)
    return save_figure(fig, out_dir, name)

NON_COUNTERS = {
    "name", "run_name", "run_type", "repetitions", "repetition_index", "threads", "iterations",
    "real_time", "cpu_time", "time_unit", "label", "family_index",
    "per_family_instance_index", "aggregate_name", "aggregate_unit", "error_occurred",
    "error_message", "manual_time",
}


# mmscale --transfers --project=FILE's counters (bench/projection.c).
PROJECTED_PREFIX = "projected_"

SWEEP_PARAMS = "sweep.json"  # what scripts/sweep records of a sweep, beside raw/


def mmtests_logs(path):
    """The mmscale results of an mmtests run folder (work/log/RUN), in the
    order compare-mmtests.pl reads them: iter-* as Perl's glob sorts them,
    then the shellpack's mmscale-N.json by N. [] for any other path."""
    files = []
    for iterdir in sorted(glob.glob(os.path.join(path, "iter-*"))):
        logs = glob.glob(os.path.join(iterdir, "mmscale", "logs", "mmscale-*.json"))
        files += sorted(logs, key=lambda f: int(m.group(1))
                        if (m := re.search(r"-(\d+)\.json$", f)) else 0)
    return files


def mmtests_run_name(path):
    """The name compare-mmtests.pl heads a run's column with: an mmtests run
    folder's name; for a result elsewhere, its file or folder name."""
    base = os.path.basename(os.path.normpath(path))
    return base[:-5] if base.endswith(".json") else base


def lkp_runs(path):
    """The mmscale outputs of an LKP result folder, in run order: a run's
    folder (RESULT_ROOT: its mmscale file, the program's output) or the
    folder of a commit's runs (0/, 1/, ...: LKP's _rt). [] for any other path."""
    if os.path.isfile(os.path.join(path, "mmscale")) and \
            os.path.isfile(os.path.join(path, "job.yaml")):
        return [os.path.join(path, "mmscale")]
    runs = [d for d in glob.glob(os.path.join(path, "*", "mmscale"))
            if os.path.basename(os.path.dirname(d)).isdigit()]
    return sorted(runs, key=lambda d: int(os.path.basename(os.path.dirname(d))))


def result_files(path):
    """A JSON file, or every raw/*.json / *.json of a results folder, or the
    mmscale results of an mmtests run folder (mmtests_logs) or of an LKP
    result folder (lkp_runs)."""
    if os.path.isfile(path):
        return [path]
    logs = mmtests_logs(path) or lkp_runs(path)
    if logs:
        return logs
    files = sorted(glob.glob(os.path.join(path, "raw", "*.json")))
    return files or sorted(f for f in glob.glob(os.path.join(path, "*.json"))
                           if os.path.basename(f) != SWEEP_PARAMS)


def unit_args(command):
    """The arguments of an mmscale command line (a unit's, or a result's
    mmscale_command) that decide its results: all but argv[0] and where the
    results file goes."""
    import shlex
    args = shlex.split(command) if isinstance(command, str) else list(command)
    return [a for a in args[1:] if not a.startswith("--benchmark_out=")]


SWEEP_PARAM_KEYS = ("cases", "threads", "placements", "repetitions", "min_time",
                    "mmscale_flags")


def sweep_params(path):
    """The sweep.json of a sweep folder, or None (a file, or a folder no
    sweep recorded); ValueError naming what is missing if it is not what
    scripts/sweep writes."""
    f = os.path.join(path, SWEEP_PARAMS)
    if not os.path.isdir(path) or not os.path.exists(f):
        return None
    with open(f) as fh:
        try:
            d = json.load(fh)
        except ValueError as e:
            raise ValueError(f"{f}: not JSON ({e})") from None
    missing = [k for k in ("params", "thread_counts", "units") if k not in d]
    missing += [f"params.{k}" for k in SWEEP_PARAM_KEYS if k not in d.get("params", {})]
    missing += [f"units[{i}].{k}" for i, u in enumerate(d.get("units", []))
                for k in ("unit", "placement", "threads", "command") if k not in u]
    if missing:
        raise ValueError(f"{f}: not as scripts/sweep writes it (no {', '.join(missing[:3])})")
    return d


def foreign_unit(params, f, ctx):
    """Why the unit file f (its context ctx) was not made with the sweep's
    recorded parameters, or None when it was."""
    unit = os.path.basename(f).removesuffix(".json")
    want = {u["unit"]: u["command"] for u in params.get("units", [])}
    if unit not in want:
        return f"unit {unit} is not one the sweep planned ({SWEEP_PARAMS})"
    got = ctx.get("mmscale_command")
    if got is None:
        return f"unit {unit} does not say how it was run (no mmscale_command in its context)"
    if unit_args(got) != unit_args(want[unit]):
        return (f"unit {unit} was run as '{got}', not with the sweep's parameters "
                f"('{want[unit]}', {SWEEP_PARAMS})")
    return None


def variants_map(context):
    out = {}
    for part in context.get("mmscale_variants", "").split(";"):
        if "=" in part:
            # A case name may hold '=' (throttle/JBOD-10HDD-thresh=100M/...), a variant's not.
            case, _, vs = part.rpartition("=")
            out[case] = vs.split(",")
    return out


def families(context):
    """{family: {"baseline", "variants": [names], "metrics": [(name, label, exact)],
    "counts": [names], "machine_wide", "virtual_time"}} from the results' context (mmscale_families,
    what `mmscale --list=json` prints), in --list order. Results of an mmscale
    that did not write it: the variant lists of mmscale_variants, no metrics."""
    raw = context.get("mmscale_families")
    if raw:
        out = {}
        for f in json.loads(raw):
            out[f["name"]] = {
                "baseline": f["baseline"], "variants": [v["name"] for v in f["variants"]],
                "metrics": [(m["name"], m["label"], m["exact"]) for m in f["metrics"]],
                "counts": f["counts"], "machine_wide": f["machine_wide"],
                "virtual_time": f.get("virtual_time", False),
            }
        return out
    return {case: {"baseline": vs[0], "variants": vs, "metrics": [], "counts": [],
                   "machine_wide": False, "virtual_time": False}
            for case, vs in variants_map(context).items()}


def family_exact(fam):
    """The figures one family (an entry of families()) marks exact: its
    exact metrics, then its counts, each once."""
    names = [name for name, _, exact in fam.get("metrics", []) if exact]
    return names + [c for c in fam.get("counts", []) if c not in names]


# What a counting run (mmscale --transfers) adds to every row: include/mmscale/opcount.h.
TRANSFER_COUNTS = ["transfers", "transfers_read", "transfers_write", "transfers_locked",
                   "upgrades", "transfers_core", "transfers_cache", "transfers_node",
                   "transfers_remote"]


def transfer_counts(context):
    """The transfer counts of a counting run's rows (its context says mmscale_transfers),
    else none."""
    return list(TRANSFER_COUNTS) if context.get("mmscale_transfers") else []


def exact_counts(context):
    """Every figure some family marks exact (a count the same on any machine)."""
    names = []
    for fam in families(context).values():
        names += [n for n in family_exact(fam) if n not in names]
    return names


class RunNames(dict):
    """A results document's naming: {case: [its variants, baseline first]}
    (the context's mmscale_variants), and .split(run name) from the
    document's mmscale_runs, the contract mmscale writes for every run name,
    so that no name is split by guesswork."""

    def __init__(self, doc):
        doc = doc if isinstance(doc, dict) else {}
        super().__init__(variants_map(doc.get("context", {})))
        runs = doc.get("mmscale_runs")
        self.runs = runs if isinstance(runs, dict) else {}

    def split(self, run_name):
        """-> (family, variant or '', params 'k:4/writers:1', threads): the
        contract's; split_name's for a name it lacks (results from before
        mmscale wrote it, a run listed but not run)."""
        e = self.runs.get(run_name)
        if not isinstance(e, dict) or "family" not in e:
            return split_name(run_name, self)
        params = "/".join(f"{k}:{v}" for k, v in (e.get("args") or {}).items())
        return e["family"], e.get("variant") or "", params, int(e.get("threads", 1))

    def knobs(self, run_name):
        """-> ({knob: value the kernel ran with}, {knob: value asked for where
        it differs}), or ({}, {}) where the results do not say."""
        e = self.runs.get(run_name) or {}
        return e.get("knobs") or {}, e.get("knobs_requested") or {}


def split_name(run_name, variants):
    """-> (family, variant or '', params 'k:4/writers:1', threads), from the
    name alone: for results without mmscale_runs (RunNames.split)."""
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


def mm_param(ctx, key):
    """One emulation parameter from the results' context (mmscale_params:
    "mem=3072MiB swap=yes ..."), or None where it was not recorded."""
    for word in ctx.get("mmscale_params", "").split():
        k, sep, v = word.partition("=")
        if sep and k == key:
            return v
    return None


def params_pairs(text):
    """{name: value} of an "name=value ..." text as mmscale_params (and
    mmscale_params_default) hold it, in its order. A value may hold spaces
    inside parentheses ("vmstat_interval=1000ms (dirty/: 1000us)"): a word
    inside them, or without '=', belongs to the value before it."""
    pairs = {}
    name, depth = None, 0
    for word in (text or "").split():
        key, sep, value = word.partition("=")
        if name is not None and (depth > 0 or not sep):
            pairs[name] += " " + word
        else:
            name = key
            pairs[name] = value
        depth += word.count("(") - word.count(")")
    return pairs


def render_table(head, body, markdown):
    """head and body's rows of cells (strings) as a markdown table, or as text
    in columns each as wide as its widest cell."""
    if markdown:
        return "\n".join(["| " + " | ".join(head) + " |", "|" + "---|" * len(head)] +
                         ["| " + " | ".join(row) + " |" for row in body])
    widths = [max(len(x) for x in col) for col in zip(head, *body)]
    return "\n".join("  ".join(x.ljust(w) for x, w in zip(row, widths)).rstrip()
                     for row in [head] + body)


def machine_lines(sides, heads=(), leave_out=None):
    """The emulated machine each side (a list of records) ran on
    (mmscale_params: --mem, --swap, ..., the --set knobs), which exact counts
    depend on: 3.x's global_reads are 8 with swap, 6 without. Only what is
    worth reading: the settings whose value is not mmscale's default
    (mmscale_params_default, the same settings as that mmscale's defaults
    print them) and, for two sides, every setting that differs between them
    (two builds whose defaults differ); "defaults (mmscale --help)" where
    that is none. A result that does not record its defaults (an older
    mmscale) shows every setting, marked "(defaults not recorded)": nothing
    can be left out without knowing what the default was. leave_out: the
    swept knob of a knob table. One line, or one per side where they
    differ; a side whose results ran on several machines joins them with
    ' | '."""
    machines = []
    for recs in sides:
        contexts = {id(r["context"]): r["context"] for r in recs}.values()
        machines.append([tuple(None if ctx.get(key) is None else
                               {k: v for k, v in params_pairs(ctx[key]).items()
                                if k != leave_out}
                               for key in ("mmscale_params", "mmscale_params_default"))
                         for ctx in contexts])
    differ = set()
    if len(sides) == 2:
        values = [{} for _ in sides]  # per side: setting -> its values
        for side, side_machines in zip(values, machines):
            for params, _ in side_machines:
                for k, v in (params or {}).items():
                    side.setdefault(k, set()).add(v)
        differ = {k for k in {*values[0], *values[1]} if values[0].get(k) != values[1].get(k)}
    texts = [" | ".join(sorted({machine_text(params, default, differ)
                                for params, default in side_machines}))
             for side_machines in machines]
    label = f"emulated machine (but {leave_out})" if leave_out else "emulated machine"
    if len(texts) == 2 and texts[0] != texts[1]:
        return [f"{h}'s {label}: {t}" for h, t in zip(heads, texts)]
    return [f"{label}: {texts[0]}"]


def machine_text(params, default, differ):
    """One result's emulated machine for machine_lines: its settings that
    are not the default, or are in differ."""
    if params is None:
        return "not recorded"
    if default is None:
        return " ".join(f"{k}={v}" for k, v in params.items()) + " (defaults not recorded)"
    shown = [f"{k}={v}" for k, v in params.items() if v != default.get(k) or k in differ]
    shown += [f"{k}: not recorded" for k in sorted(differ - params.keys())]
    if not shown:
        return "defaults (mmscale --help)"
    return " ".join(shown) + "; otherwise the defaults (mmscale --help)"


def knobs_of(rec):
    """{knob: value} of the run (mmscale_knobs; results from before knobs: {})."""
    return dict(w.split("=", 1) for w in rec["context"].get("mmscale_knobs", "").split()
                if "=" in w)


def swept_knob(records):
    """The knob whose value differs between the runs, or None; ValueError
    when several do (one knob table at a time)."""
    values = {}
    for r in records:
        for k, v in knobs_of(r).items():
            values.setdefault(k, set()).add(v)
    swept = sorted(k for k, vs in values.items() if len(vs) > 1)
    if len(swept) > 1:
        raise ValueError(f"the runs differ in several knobs ({', '.join(swept)}): "
                         "compare one knob's sweep at a time")
    return swept[0] if swept else None


def knob_value_order(v):
    """auto first, then the numbers in order."""
    return (0, 0) if v == "auto" else (1, int(v)) if v.isdigit() else (2, v)


class Results(list):
    """A list (of entries or records) with .unusable: one dict per run that
    could not be used (file, name, repetition, aggregate, why)."""

    def __init__(self, items=(), unusable=()):
        super().__init__(items)
        self.unusable = list(unusable)


def last_message(stderr):
    """mmscale's own last message in its stderr (its 'mmscale: ...' line when
    there is one, else the last line): what a script says when a run failed."""
    lines = [l.strip() for l in stderr.splitlines() if l.strip()]
    own = [l for l in lines if l.startswith("mmscale:")]
    return (own or lines or [""])[-1]


def seconds(text):
    """'90', '90s', '15m', '2h' -> seconds; ValueError otherwise."""
    scale = {"s": 1, "m": 60, "h": 3600}.get(text[-1:], None)
    value = float(text[:-1] if scale else text)
    if value <= 0:
        raise ValueError(text)
    return value * (scale or 1)


def script_name():
    return os.path.basename(sys.argv[0]).removesuffix(".py") or "mmresults"


def why_unusable(b):
    """None when the entry can be used, else why not (one line)."""
    if b.get("error_occurred"):
        msg = " ".join(str(b.get("error_message") or "").split())
        return f"errored: {msg}" if msg else "errored (no error_message)"
    if "run_name" not in b and "name" not in b:
        return "no run_name"
    for key in ("real_time", "cpu_time"):
        v = b.get(key)
        if v is None:
            return f"no {key}"
        if isinstance(v, bool) or not isinstance(v, (int, float)) or v != v:
            return f"{key} is not a number ({v!r})"
    return None


def unusable_text(u, base=None):
    """'<file>: <run name> (repetition <i>): <why>', the file relative to base if given."""
    f = os.path.relpath(u["file"], base) if base else u["file"]
    rep = f" (repetition {u['repetition']})" if u["repetition"] is not None else ""
    agg = f" (aggregate {u['aggregate']})" if u["aggregate"] else ""
    return f"{f}: {u['name']}{rep}{agg}: {u['why']}"


def unusable_line(who, u):
    return f"{who}: unusable run: {unusable_text(u)}"


def count_unusable(unusable):
    """'2 unusable runs (1 errored, 1 no real_time)' or '' when none."""
    if not unusable:
        return ""
    kinds = {}
    for u in unusable:
        kind = u["why"].split(":", 1)[0].split(" (", 1)[0]
        kinds[kind] = kinds.get(kind, 0) + 1
    detail = ", ".join(f"{n} {k}" for k, n in kinds.items())
    return f"{len(unusable)} unusable run{'s' if len(unusable) != 1 else ''} ({detail})"


def read(path, who=None, quiet=False):
    """-> Results of (file path, context, variants, entry) for every usable
    entry (runs and aggregates) of every result file of path, in file order.
    Each unusable one is in .unusable and, unless quiet, reported on stderr
    (one line, named by who, default the running script's name)."""
    if not os.path.exists(path):
        raise FileNotFoundError(f"{path}: no such file or folder")
    out = Results()
    params = sweep_params(path)
    for f in result_files(path):
        with open(f) as fh:
            text = fh.read()
        if params is not None:
            # A sweep's units must all be what it planned: one run with other
            # flags (a --resume that changed them, a file copied in) is named
            # and left out, never mixed into its tables.
            try:
                ctx = json.loads(text).get("context", {})
            except (ValueError, AttributeError):
                ctx = {}
            why = foreign_unit(params, f, ctx)
            if why:
                u = {"file": f, "name": "(every run of the unit)", "repetition": None,
                     "aggregate": None, "why": f"other parameters: {why}"}
                out.unusable.append(u)
                if not quiet:
                    print(unusable_line(who or script_name(), u), file=sys.stderr)
                continue
        read_text(text, f, who, quiet, out)
    return out


def read_text(text, source, who=None, quiet=False, out=None):
    """read() of one results document given as text (source names it in the
    lines about its unusable runs); added to out if given."""
    who = who or script_name()
    out = Results() if out is None else out
    if os.path.basename(source) == "mmscale" and not text.startswith("{"):
        # LKP's program output: the command log_cmd wrote, then the JSON.
        start = text.find("\n{")
        text = text[start + 1:] if start >= 0 else text
    try:
        d = json.loads(text)
    except ValueError as e:
        raise ValueError(f"{source}: not JSON ({e})") from None
    if not isinstance(d, dict) or not isinstance(d.get("benchmarks"), list):
        raise ValueError(f"{source}: not Google Benchmark JSON (no benchmarks list)")
    ctx = d.get("context", {})
    variants = RunNames(d)
    for b in d["benchmarks"]:
        why = why_unusable(b)
        if why is None:
            b.setdefault("run_name", b.get("name"))
            out.append((source, ctx, variants, b))
            continue
        agg = b.get("aggregate_name") if b.get("run_type") == "aggregate" else None
        u = {"file": source, "name": b.get("run_name") or b.get("name") or "(unnamed)",
             "repetition": None if agg else b.get("repetition_index"),
             "aggregate": agg, "why": why}
        out.unusable.append(u)
        if not quiet:
            print(unusable_line(who, u), file=sys.stderr)
    return out


def load(path, who=None, quiet=False):
    """-> Results of records (dict), one for every usable non-aggregate run;
    .unusable lists (and stderr names, unless quiet) the runs it could not use."""
    return records_from(read(path, who, quiet))


def records_from(entries):
    """The records (see load) of what read() returned."""
    records = Results(unusable=entries.unusable)
    for f, ctx, variants, b in entries:
        if b.get("run_type") == "aggregate":
            continue
        family, variant, params, threads = variants.split(b["run_name"])
        ran, requested = variants.knobs(b["run_name"])
        rec = {
            "file": os.path.basename(f), "source": f, "name": b["run_name"], "family": family,
            "variant": variant, "params": params, "threads": threads,
            "repetition": b.get("repetition_index", 0),
            "real_time_ns": to_ns(b["real_time"], b.get("time_unit", "ns")),
            "cpu_time_ns": to_ns(b["cpu_time"], b.get("time_unit", "ns")),
            "iterations": b.get("iterations", 0), "label": b.get("label", ""),
            # Its place in mmscale's listing (runs interleave at random).
            "listing": (1e9 if b.get("family_index") is None else b["family_index"],
                        b.get("per_family_instance_index") or 0),
            "counters": {k: v for k, v in b.items()
                         if k not in NON_COUNTERS and isinstance(v, (int, float))
                         and not k.startswith(PROJECTED_PREFIX)},
            # mmscale --project's figures: priced on another machine, never a
            # count or a time of this run, so no table compares them as one.
            "projected": {k: v for k, v in b.items()
                          if k.startswith(PROJECTED_PREFIX) and isinstance(v, (int, float))},
            "context": ctx, "variants": variants,
            # The knobs the kernel ran with, and those asked for where they differ.
            "knobs_ran": ran, "knobs_requested": requested,
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


def diff_text(base, value, points=False):
    """The variant against the baseline: in percent, or in points for a
    percentage already (victim_lost_pct); no percentage of zero: a count
    that stays 0 is unchanged, one that appears is new."""
    if points:
        return f"{value - base:+.2f}pp"
    if base:
        return f"{(value - base) / base * 100:+.1f}%"
    return "+0.0%" if value == 0 else "from 0"


def num(v, exact=False):
    """Plain digits: 26400.3 -> '26400', 41.27 -> '41.3', 0.0134 -> '0.0134'; NaN -> '-'.
    exact: a figure that is the same on any machine (an exact count), never
    rounded to look like a measurement: a whole number as its digits (134144,
    14), a fraction per operation to six significant digits and at least two
    decimals, so that it never passes for a whole number (0.0416667,
    2079.42, 134144.25)."""
    if v != v:
        return "-"
    if exact and math.isfinite(v):
        if v == int(v):
            return str(int(v))
        decimals = max(2, 5 - math.floor(math.log10(abs(v))))
        text = f"{v:.{decimals}f}".rstrip("0")
        # Within a millionth of a whole number (2.0000001): every digit it has.
        return repr(float(v)) if text.endswith(".") else text
    if abs(v) >= 1000:
        return f"{v:.0f}"
    if abs(v) >= 10:
        return f"{v:.1f}"
    return f"{v:.3g}"


def by_name(records):
    """{run name: [its records, one per repetition]}, in the order first seen."""
    out = {}
    for r in records:
        out.setdefault(r["name"], []).append(r)
    return out


def trimmed_by_name(records, name="time"):
    """{run name: (trimmed mean, s.d.)} of a figure (metric()) over each run's
    repetitions: the seeds' statistic, as bench/stats.c computes it."""
    return {run: trimmed([metric(r, name) for r in recs if metric(r, name) is not None])
            for run, recs in by_name(records).items()}


def document(path, who=None):
    """One results file as Google Benchmark wrote it (context and benchmarks),
    for a script that merges files: read() first, so that each run it
    cannot use is named on stderr; -> (the document, the Results of read())."""
    entries = read(path, who)
    with open(path) as f:
        return json.load(f), entries


# ---- RESULTS.md sections (scripts/results_*.py) ----

PLOTS = os.path.join(ROOT, "docs", "plots")


def setup():
    subprocess.run([os.path.join(ROOT, "scripts", "setup")], check=True)


def machine():
    """'AMD EPYC, 2 CPUs, 1 NUMA node(s), kernel ...'"""
    model = "unknown CPU"
    with open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    node_dir = "/sys/devices/system/node"
    nodes = len([d for d in os.listdir(node_dir) if re.fullmatch(r"node\d+", d)]) \
        if os.path.isdir(node_dir) else 1
    return f"{model}, {os.cpu_count()} CPUs, {nodes} NUMA node(s), kernel {platform.release()}"


def command(args):
    return "build/mmscale " + " ".join(f"'{a}'" if (" " in a or "|" in a) else a for a in args)


def run_json(args, out, who=None):
    """Run mmscale with args, its results to out -> (records, context, notices).
    A section is never written from results that lack a run: where mmscale
    fails or a run cannot be used (each named on stderr, by read()), the
    script ends with one line saying so."""
    who = who or script_name()
    p = subprocess.run([MMSCALE, *args, "--benchmark_format=json", "--benchmark_out=" + out],
                       capture_output=True, text=True)
    why = (p.stderr.strip().splitlines() or [""])[-1]
    if not os.path.exists(out):
        sys.exit(f"{who}: `{command(args)}` exited {p.returncode} and wrote no results "
                 f"({why}): no section written")
    entries = read(out, who)
    if p.returncode != 0 or entries.unusable:
        sys.exit(f"{who}: `{command(args)}` exited {p.returncode}"
                 f"{'; ' + count_unusable(entries.unusable) if entries.unusable else ''} ({why}):"
                 " no section written")
    ctx = entries[0][1] if entries else {}
    notes = [line for line in p.stderr.splitlines() if line.startswith("mmscale: note:")]
    return records_from(entries), ctx, notes


# The settings of the machine a result ran on, as its context records them
# (bench/machine_settings.c, bench/describe.c): context key -> the prefix of
# its items; "name=value ..." keys are split into items.
SETTING_KEYS = [("mmscale_kernel", "kernel"), ("mmscale_git_revision", "git revision"),
                ("mmscale_topology", "topology"), ("mmscale_allowed", "allowed"),
                ("mmscale_sysctl_vm", "vm."), ("mmscale_thp", "thp."),
                ("mmscale_cpufreq", "cpufreq."), ("mmscale_cpus_state", "cpu."),
                ("mmscale_cmdline", "kernel command line"), ("mmscale_papi", "PAPI")]


def settings(ctx):
    """{setting: value} of one result's context (absent keys left out)."""
    out = {}
    for key, name in SETTING_KEYS:
        if key not in ctx:
            continue
        if name.endswith("."):
            for item in str(ctx[key]).split():
                k, _, v = item.partition("=")
                out[name + k] = v
        else:
            out[name] = str(ctx[key])
    return out


def settings_differ(sides, heads):
    """Lines naming the machine settings that differ between the sides (a
    list of record lists), or that vary within the one side: a changed
    dirty_ratio or governor explains a difference before anyone reads the
    numbers. [] when none differ."""
    values = []
    for recs in sides:
        seen = {}
        for ctx in {id(r["context"]): r["context"] for r in recs}.values():
            for k, v in settings(ctx).items():
                seen.setdefault(k, set()).add(v)
        values.append(seen)
    names = [n for _, n in SETTING_KEYS]

    def order(k):  # the group's place in SETTING_KEYS, then the name: stable
        group = next(n for n in names if k == n or (n.endswith(".") and k.startswith(n)))
        return names.index(group), k

    keys = sorted(set().union(*values), key=order)
    lines = []
    for k in keys:
        per_side = [" or ".join(sorted(v.get(k, {"not recorded"}))) for v in values]
        if len(sides) == 2 and per_side[0] != per_side[1]:
            lines.append(f"  {k}: {per_side[0]} ({heads[0]}) | {per_side[1]} ({heads[1]})")
        elif len(sides) == 1 and len(values[0].get(k, ())) > 1:
            lines.append(f"  {k}: {per_side[0]}")
    if not lines:
        return []
    head = ("machine settings that differ between the two:" if len(sides) == 2 else
            "machine settings that vary between the runs:")
    return [head] + lines


def write_machine(out_dir, mmscale_flags=()):
    """DIR/machine/: what decides many numbers on a real server, each read
    from its real source beside a sweep's raw/ (as mmtests keeps kconfig,
    lscpu, lstopo, numactl, cpupower and sysctl beside every run): the
    topology as mmscale's hwloc exports it and mmscale's plan (allowed and
    used CPUs and memory nodes), lscpu, numactl --hardware, every readable
    /proc/sys/vm and /sys/kernel/mm/transparent_hugepage setting, each CPU's
    cpufreq settings and boost, SMT, isolated and nohz_full CPUs, the
    kernel command line, uname, the kernel config and this process's
    cpuset. An item this machine does not have is a line saying so in
    ABSENT, never an empty file. -> the folder."""
    import shutil
    folder = os.path.join(out_dir, "machine")
    os.makedirs(folder, exist_ok=True)
    absent = []

    def save(name, text, source):
        if text is None:
            absent.append(f"{name}: {source}")
        else:
            write_atomic(os.path.join(folder, name), text)

    def save_output(name, cmd):
        if not shutil.which(cmd[0]) and not os.path.isabs(cmd[0]):
            return save(name, None, f"no {cmd[0]} on this machine")
        p = subprocess.run(cmd, capture_output=True, text=True)
        if p.returncode != 0:
            return save(name, None, f"{' '.join(cmd)} exited {p.returncode}: "
                        f"{(p.stderr.strip().splitlines() or [''])[-1]}")
        save(name, p.stdout, "")

    def files(name, pattern, source):
        lines = []
        for f in sorted(glob.glob(pattern)):
            try:
                with open(f) as fh:
                    lines.append(f"{f} = {fh.read().strip()}")
            except OSError:
                continue  # write-only or refused: not a setting to record
        save(name, "\n".join(lines) + "\n" if lines else None, source)

    save_output("topology.xml", [MMSCALE, "--describe=xml", *mmscale_flags])
    save_output("describe.txt", [MMSCALE, "--describe", "--threads=auto", *mmscale_flags])
    save_output("describe.json", [MMSCALE, "--describe=json", "--threads=auto", *mmscale_flags])
    save_output("lscpu.txt", ["lscpu"])
    save_output("numactl.txt", ["numactl", "--hardware"])
    files("sysctl-vm.txt", "/proc/sys/vm/*", "no /proc/sys/vm")
    files("thp.txt", "/sys/kernel/mm/transparent_hugepage/*", "no transparent hugepages "
          "(/sys/kernel/mm/transparent_hugepage)")
    files("cpufreq.txt", "/sys/devices/system/cpu/cpu[0-9]*/cpufreq/scaling_*",
          "no cpufreq (/sys/devices/system/cpu/cpu*/cpufreq)")
    files("boost.txt", "/sys/devices/system/cpu/cpufreq/boost", "no cpufreq boost switch")
    files("cpus.txt", "/sys/devices/system/cpu/[a-z]*[a-z]", "no /sys/devices/system/cpu")
    files("smt.txt", "/sys/devices/system/cpu/smt/*", "no SMT control "
          "(/sys/devices/system/cpu/smt)")
    files("cmdline.txt", "/proc/cmdline", "no /proc/cmdline")
    files("cpuset.txt", "/proc/self/cgroup", "no /proc/self/cgroup")
    save("uname.txt", " ".join(platform.uname()) + "\n", "")
    config = f"/boot/config-{platform.release()}"
    try:
        if os.path.exists(config):
            with open(config) as fh:
                save("kconfig", fh.read(), "")
        elif os.path.exists("/proc/config.gz"):
            import gzip
            with gzip.open("/proc/config.gz", "rt") as fh:
                save("kconfig", fh.read(), "")
        else:
            absent.append(f"kconfig: neither {config} nor /proc/config.gz")
    except (OSError, EOFError) as e:
        if isinstance(e, OSError) and e.filename and e.filename.startswith(folder):
            raise  # writing it failed: that is loud
        absent.append(f"kconfig: cannot read it ({e})")
    write_atomic(os.path.join(folder, "ABSENT"),
                 "".join(f"{a}\n" for a in absent) or "nothing: every item was read\n")
    return folder


def command_line(script, argv):
    """'command: scripts/<script> ARGS': the one line that reproduces a table."""
    import shlex
    return f"command: scripts/{script} {shlex.join(argv)}".rstrip()


def run_command_line(ctx, markdown=False):
    """'command: mmscale ...' of the run a table comes from (its context's
    mmscale_command), the line that starts the table."""
    import shlex
    cmd = ctx.get("mmscale_command")
    if cmd:  # where the results file went is not how to reproduce them
        cmd = shlex.join(["mmscale", *unit_args(cmd)])
    else:
        cmd = "(not recorded: an mmscale older than mmscale_command)"
    return f"`command: {cmd}`\n" if markdown else f"command: {cmd}"


def context_line(ctx):
    return (f"PAPI: {ctx.get('mmscale_papi')}; git {ctx.get('mmscale_git_revision')}, "
            f"{ctx.get('mmscale_compiler')}, {ctx.get('mmscale_build_type')}; "
            f"{ctx.get('mmscale_params')}")


def replace_section(name, lines):
    """Write lines between this section's markers in RESULTS.md (appending it if new)."""
    begin = f"<!-- BEGIN {name} -->"
    end = f"<!-- END {name} -->"
    section = "\n".join([begin, *lines, end]) + "\n"
    if "--print" in sys.argv:
        print(section)
        return
    path = os.path.join(ROOT, "RESULTS.md")
    text = open(path).read() if os.path.exists(path) else "# mmscale results\n\n"
    if begin in text:
        text = text[:text.index(begin)] + section + text[text.index(end) + len(end) + 1:]
    else:
        text = text.rstrip() + "\n\n" + section
    write_atomic(path, text)
    print(f"updated {path} ({name})")


def plot_lines(name, title, xlabel, ylabel, series, logx=False, logy=False):
    """series: {label: [(x, y), ...]} -> docs/plots/<name>.png/.svg; returns the markdown image."""
    line_plot(PLOTS, name, title, xlabel, ylabel, series, logx, logy)
    return f"![{title}](docs/plots/{name}.png)"


def table(script, path):
    """A table one of our scripts prints for path (floor_table.py, quick_tables.py), in markdown."""
    status, out = run_script(script, [path, "--markdown"])
    if status != 0:
        sys.exit(f"{script} {path} exited {status}: a RESULTS.md section is not written from it")
    return out.rstrip()
