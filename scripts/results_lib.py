"""Shared by the scripts that regenerate RESULTS.md sections: the machine a
figure was taken on, running mmscale into a JSON file, and replacing one
section of RESULTS.md between its markers."""
import json
import os
import platform
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mmresults import MMSCALE, ROOT, line_plot, run_script  # noqa: E402,F401


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


def run_json(args, out):
    """Run mmscale with args, results to out; returns (context, notices)."""
    p = subprocess.run([MMSCALE, *args, "--benchmark_format=json", "--benchmark_out=" + out],
                       capture_output=True, text=True, check=True)
    notes = [l for l in p.stderr.splitlines() if l.startswith("mmscale: note:")]
    with open(out) as f:
        return json.load(f)["context"], notes


def context_line(ctx):
    return (f"PAPI: {ctx.get('mmscale_papi')}; git {ctx.get('mmscale_git_revision')}, "
            f"{ctx.get('mmscale_compiler')}, {ctx.get('mmscale_build_type')}; "
            f"{ctx.get('mmscale_params')}")


def command(args):
    return "build/mmscale " + " ".join(f"'{a}'" if (" " in a or "|" in a) else a for a in args)


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
    with open(path, "w") as f:
        f.write(text)
    print(f"updated {path} ({name})")


PLOTS = os.path.join(ROOT, "docs", "plots")


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
