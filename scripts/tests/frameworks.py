"""What test_mmtests.py and test_lkp.py share: the framework tree to test
against (a snapshot beside the checkout, or the one an environment
variable names), a writable copy of it with mmscale's files installed by
mmscale's own install step, and scripts/compare loaded as a module."""
import importlib.machinery
import importlib.util
import os
import shutil
import subprocess
import sys
import tempfile
from contextlib import contextmanager

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPTS = os.path.dirname(HERE)
ROOT = os.path.dirname(SCRIPTS)
sys.path.insert(0, HERE)
from check import check  # noqa: E402  (scripts/tests/check.py)

SKIP = 77  # ctest's SKIP_RETURN_CODE for these tests


def tree_path(env, snapshot):
    """The tree env names, else ../shared/<snapshot> beside the checkout."""
    return os.environ.get(env) or os.path.join(ROOT, "..", "shared", snapshot)


def load_compare():
    loader = importlib.machinery.SourceFileLoader("compare", os.path.join(SCRIPTS, "compare"))
    spec = importlib.util.spec_from_loader("compare", loader)
    mod = importlib.util.module_from_spec(spec)
    loader.exec_module(mod)
    return mod


@contextmanager
def installed_copy(tree, framework, refusal):
    """A writable copy of tree (the snapshots are read-only, and the
    frameworks write into their own folders) with scripts/<framework>/install
    run on it; also checks that the install step refuses a folder that is
    not the framework (one line, exit 2, naming it with refusal). Yields the
    copy's path; the copy is removed after."""
    with tempfile.TemporaryDirectory(prefix=f"mmscale-{framework}-") as tmp:
        copy = os.path.join(tmp, os.path.basename(os.path.normpath(tree)))
        shutil.copytree(tree, copy, symlinks=True)
        for d, _, files in os.walk(copy):
            os.chmod(d, 0o755)
            for f in files:
                p = os.path.join(d, f)
                if not os.path.islink(p):
                    os.chmod(p, os.stat(p).st_mode | 0o200)
        install = os.path.join(SCRIPTS, framework, "install")
        p = subprocess.run([install, copy], capture_output=True, text=True)
        check(p.returncode == 0, f"scripts/{framework}/install exited {p.returncode}: {p.stderr}")
        p = subprocess.run([install, tmp], capture_output=True, text=True)
        check(p.returncode == 2 and len(p.stderr.splitlines()) == 1 and refusal in p.stderr,
              f"install into a folder that is not {framework}: one line, exit 2: {p.stderr}")
        yield copy


def unready(test, tree, marker, env, needs, missing, name):
    """None when the test can run; else its exit status, said in one line:
    skipped where the tree is not there (no file marker in it), failed
    where what the framework needs (missing) is not installed."""
    if not os.path.isfile(os.path.join(tree, marker)):
        print(f"{test}: SKIPPED: no {name} tree at "
              f"{os.path.normpath(tree)} (set {env})")
        return SKIP
    if missing:
        print(f"{test}: FAIL: {needs} needs {', '.join(missing)}: "
              "MMSCALE_SETUP_TESTS=1 scripts/setup installs them")
        return 1
    return None
