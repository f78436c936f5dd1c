"""The pass/fail tally of the Python tests (scripts/tests/test_scripts.py,
bench/tests/json_output.py): check() counts, names a failure on stdout,
report() prints the tally and exits non-zero when anything failed."""
import sys

passed = failed = 0


def check(cond, what):
    global passed, failed
    if cond:
        passed += 1
    else:
        failed += 1
        print("FAIL:", what)


def report(name):
    print(f"{name}: {passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)
