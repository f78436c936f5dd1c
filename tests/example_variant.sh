#!/bin/bash
# The walkthrough's example variant (a build with -DMMSCALE_EXAMPLE_VARIANT=ON):
# its row and its file alone bring it to --list, to the runs (whose claim check
# passes) and to the compare tables, beside the baseline.
set -euo pipefail
mmscale=$1 root=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

"$mmscale" --list >"$tmp/list"
grep -qE '^  example +the README walkthrough' "$tmp/list" || fail "--list has no bdp/example"
"$mmscale" --benchmark_filter='^bdp/(2.6.31-rc8|example)/' --threads=1 --benchmark_min_time=0.01 \
  --papi-events=none --benchmark_repetitions=3 --benchmark_format=json >"$tmp/out.json" \
  2>"$tmp/err" || fail "the run exited $?: $(cat "$tmp/err")"
grep -q '"name": "bdp/example/real_time/threads:1"' "$tmp/out.json" || fail "no bdp/example run"
/usr/bin/python3 "$root/scripts/compare" "$tmp/out.json" --metric global_reads >"$tmp/table" ||
  fail "compare exited $?"
grep -E '^ *14\.0 \(0\) +5 \(0\) .*bdp/example vs 2\.6\.31-rc8' "$tmp/table" >/dev/null ||
  fail "the compare table has no example row beside the baseline: $(cat "$tmp/table")"
echo "example variant: in --list, run (its claim held), and in the compare table"
