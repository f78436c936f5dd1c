"""Shared by the scripts that regenerate RESULTS.md sections: the machine a
figure was taken on, running mmscale into a JSON file, and replacing one
section of RESULTS.md between its markers."""
import json
import os
import platform
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MMSCALE = os.path.join(ROOT, "build", "mmscale")


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
    """series: {label: [(x, y), ...]} -> docs/plots/<name>.png; returns the markdown image."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    os.makedirs(PLOTS, exist_ok=True)
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
    fig.savefig(os.path.join(PLOTS, name + ".png"), bbox_inches="tight", dpi=90)
    fig.savefig(os.path.join(PLOTS, name + ".svg"), bbox_inches="tight")
    plt.close(fig)
    return f"![{title}](docs/plots/{name}.png)"
