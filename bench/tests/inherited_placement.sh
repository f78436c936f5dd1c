#!/bin/bash
# The CPUs and memory a run was given are the ones it uses: under taskset the
# plan, --describe and a run's context name only the given CPU, --cpus
# outside it is bad input unless --widen-affinity says otherwise; inside a
# cpuset cgroup this test creates (v1 or v2; skipped with one line where the
# machine cannot make one) the run stays inside it even when widened. Needs
# two CPUs (skipped with one line on one). numactl --cpunodebind and
# --membind are checked on the multi-node guests of scripts/vmtest.
set -u
MMSCALE=$(readlink -f "${1:?usage: inherited_placement.sh path/to/mmscale}")
tmp=$(mktemp -d)
cg=""
cleanup() {
  if [ -n "$cg" ] && [ -d "$cg" ]; then
    # Move anything left back to the parent, then remove the group.
    for pid in $(cat "$cg/$procs" 2>/dev/null); do echo "$pid" > "$(dirname "$cg")/$procs"; done
    rmdir "$cg" 2>/dev/null
  fi
  rm -rf "$tmp"
}
trap cleanup EXIT
passed=0
failed=0
check() {  # what, then a command whose status says whether it holds
  local what=$1
  shift
  if "$@"; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAIL: $what"; fi
}
field() {  # python expression over d (the --describe=json document) on stdin
  /usr/bin/python3 -c "import json,sys; d=json.load(sys.stdin); print($1)"
}

cpus=$(taskset -pc $$ | sed 's/.*: //')
if [ "$(nproc)" -lt 2 ]; then
  echo "inherited_placement: skipped: this process may use one CPU ($cpus); the checks need two"
  exit 0
fi
# The last CPU this test may use, and another one.
last=$(/usr/bin/python3 -c "import os; print(max(os.sched_getaffinity(0)))")
other=$(/usr/bin/python3 -c "import os; print(min(os.sched_getaffinity(0)))")

# taskset: the plan and the run use only the given CPU, and say so.
taskset -c "$last" "$MMSCALE" --describe=json > "$tmp/d.json"
check "taskset -c $last: the plan uses PUs $(field 'd["plan"]["used_pus"]' < "$tmp/d.json"), want $last" \
  [ "$(field 'd["plan"]["used_pus"]' < "$tmp/d.json")" = "$last" ]
check "taskset -c $last: --describe=json's allowed affinity is $last" \
  [ "$(field 'd["topology"]["allowed"]["affinity"]' < "$tmp/d.json")" = "$last" ]
taskset -c "$last" "$MMSCALE" --describe > "$tmp/d.txt"
check "taskset -c $last: --describe says 'allowed: CPUs $last (the affinity'" \
  grep -q "^allowed: CPUs $last (the affinity mmscale was started with" "$tmp/d.txt"
check "taskset -c $last: --describe says 'used: PUs $last'" grep -qx "used: PUs $last" "$tmp/d.txt"
taskset -c "$last" "$MMSCALE" --benchmark_filter='^vmstat/mod/inc/' --benchmark_min_time=0.001 \
  --benchmark_repetitions=1 --papi-events=none --threads=1 --benchmark_format=json \
  > "$tmp/run.json" 2> "$tmp/run.err"
check "taskset -c $last: a run exits 0 ($(head -c 300 "$tmp/run.err"))" [ $? -eq 0 ]
check "taskset -c $last: the run's context says mmscale_used_pus $last" \
  [ "$(field 'd["context"]["mmscale_used_pus"]' < "$tmp/run.json")" = "$last" ]
check "taskset -c $last: the run's context names the affinity" \
  grep -q "\"mmscale_allowed\": \"CPUs $last (the affinity" "$tmp/run.json"
taskset -c "$last" "$MMSCALE" --cpus="$other" --describe > "$tmp/out" 2> "$tmp/err"
rc=$?
check "taskset -c $last --cpus=$other: exit $rc, want 2" [ $rc -eq 2 ]
check "taskset -c $last --cpus=$other: one line naming --widen-affinity ($(cat "$tmp/err"))" \
  [ "$(wc -l < "$tmp/err")" -eq 1 ] && grep -q "CPU $other is outside the affinity.*--widen-affinity" "$tmp/err"
taskset -c "$last" "$MMSCALE" --cpus="$other" --widen-affinity --describe=json > "$tmp/d.json"
check "taskset -c $last --cpus=$other --widen-affinity: the plan uses PU $other" \
  [ "$(field 'd["plan"]["used_pus"]' < "$tmp/d.json")" = "$other" ]
check "--widen-affinity: --describe=json says widened" \
  [ "$(field 'd["topology"]["allowed"]["widened"]' < "$tmp/d.json")" = "True" ]
# A stand-in runs on the given CPUs too.
taskset -c "$last" "$MMSCALE" --topology="synthetic:node:4 core:2 pu:1" --describe=json > "$tmp/d.json"
check "taskset -c $last, a stand-in: every emulated CPU runs on $last" \
  [ "$(field '",".join(sorted({str(c["runs_on"]) for c in d["cpus"]}))' < "$tmp/d.json")" = "$last" ]

# A cpuset cgroup of one CPU: cgroup v1's cpuset hierarchy, or v2 with the
# cpuset controller.
procs=""
if [ -w /sys/fs/cgroup/cpuset ] && [ -f /sys/fs/cgroup/cpuset/cpuset.cpus ]; then
  cg=/sys/fs/cgroup/cpuset/mmscale-test-$$
  procs=tasks
  mkdir "$cg" 2>/dev/null && echo "$last" > "$cg/cpuset.cpus" &&
    cat /sys/fs/cgroup/cpuset/cpuset.mems > "$cg/cpuset.mems" || cg=""
elif [ -f /sys/fs/cgroup/cgroup.controllers ] && grep -qw cpuset /sys/fs/cgroup/cgroup.controllers; then
  cg=/sys/fs/cgroup/mmscale-test-$$
  procs=cgroup.procs
  { echo +cpuset > /sys/fs/cgroup/cgroup.subtree_control; } 2>/dev/null
  mkdir "$cg" 2>/dev/null && echo "$last" > "$cg/cpuset.cpus" 2>/dev/null || cg=""
fi
if [ -z "$cg" ]; then
  echo "inherited_placement: cgroup part skipped: this machine lets this test create no cpuset cgroup"
else
  in_cgroup() { sh -c 'echo $$ > "$0/$1" && shift && exec "$@"' "$cg" "$procs" "$@"; }
  in_cgroup "$MMSCALE" --describe=json > "$tmp/d.json"
  check "cpuset cgroup of CPU $last: the plan uses PUs $(field 'd["plan"]["used_pus"]' < "$tmp/d.json")" \
    [ "$(field 'd["plan"]["used_pus"]' < "$tmp/d.json")" = "$last" ]
  check "cpuset cgroup of CPU $last: --describe=json's cgroup cpuset is $last" \
    [ "$(field 'd["topology"]["allowed"]["cpuset"]' < "$tmp/d.json")" = "$last" ]
  in_cgroup "$MMSCALE" --widen-affinity --describe=json > "$tmp/d.json"
  check "cpuset cgroup, --widen-affinity: still only PU $last" \
    [ "$(field 'd["plan"]["used_pus"]' < "$tmp/d.json")" = "$last" ]
  in_cgroup "$MMSCALE" --widen-affinity --cpus="$other" --describe > "$tmp/out" 2> "$tmp/err"
  rc=$?
  check "cpuset cgroup, --widen-affinity --cpus=$other: exit $rc, want 2 ($(cat "$tmp/err"))" \
    [ $rc -eq 2 ] && grep -q "outside this process's cgroup cpuset (CPUs $last)" "$tmp/err"
  in_cgroup "$MMSCALE" --benchmark_filter='^vmstat/mod/inc/' --benchmark_min_time=0.001 \
    --benchmark_repetitions=1 --papi-events=none --threads=1 --benchmark_format=json \
    > "$tmp/run.json" 2> "$tmp/run.err"
  check "cpuset cgroup: a run exits 0 ($(head -c 300 "$tmp/run.err"))" [ $? -eq 0 ]
  check "cpuset cgroup: the run's context says mmscale_used_pus $last" \
    [ "$(field 'd["context"]["mmscale_used_pus"]' < "$tmp/run.json")" = "$last" ]
fi
echo "inherited_placement: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
