"""A scratch copy of the tree, for the scripts that change files and build
(scripts/mutants, scripts/walkthrough): the files git tracks or would
track, as they are in the working tree. Only the files that differ are
written, and they get the time of the copy, not their own: a build there
stays incremental, and never takes an object built from an earlier copy
(newer than the file's own time, when the file was edited while a scratch
build ran) for one of the new text."""
import os
import shutil
import subprocess

from mmresults import ROOT


def tree_files():
    out = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                         cwd=ROOT, capture_output=True, check=True).stdout.decode()
    return [rel for rel in out.split("\0") if rel and os.path.isfile(os.path.join(ROOT, rel))]


def sync_tree(dst, prune=False):
    """Copy the tree's files into dst, touching only those that changed; with
    prune, remove the files of dst that the tree does not have (what an
    earlier run added)."""
    files = tree_files()
    for rel in files:
        src, out = os.path.join(ROOT, rel), os.path.join(dst, rel)
        with open(src, "rb") as f:
            data = f.read()
        if os.path.exists(out):
            with open(out, "rb") as f:
                if f.read() == data:
                    continue
        os.makedirs(os.path.dirname(out), exist_ok=True)
        shutil.copyfile(src, out)
        shutil.copymode(src, out)
    if prune:
        keep = set(files)
        for folder, _, names in os.walk(dst):
            for name in names:
                rel = os.path.relpath(os.path.join(folder, name), dst)
                if rel not in keep:
                    os.remove(os.path.join(dst, rel))
