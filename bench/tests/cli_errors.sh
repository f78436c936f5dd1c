#!/bin/bash
# Bad input, table-driven: each invocation must exit 2 with exactly one line
# on stderr naming the problem, print nothing on stdout and leave no file.
set -u
MMSCALE=$(readlink -f "${1:?usage: cli_errors.sh path/to/mmscale}")
SELF=$(readlink -f "$0")
HERE=$(dirname "$SELF")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

passed=0
failed=0

# expected stderr fragment | arguments (one per tab-separated field)
cases=(
  "unknown option '--frobnicate'|--frobnicate"
  "unexpected argument 'c2c'|c2c"
  "--topology needs a value|--topology"
  "--topology needs a value|--topology="
  "--topology is given twice|--topology=real|--topology=real"
  "unknown kind 'numa:4'|--topology=numa:4"
  "not a valid hwloc synthetic topology|--topology=synthetic:node:2 bogus:1"
  "not a valid hwloc synthetic topology|--topology=synthetic:"
  "cannot read '/nonexistent.xml'|--topology=xml:/nonexistent.xml"
  "hwloc cannot import '$SELF'|--topology=xml:$SELF"
  # hwloc's own reason: a newer hwloc's format, a file cut short.
  "cannot import XML version 3.0 > 2|--topology=xml:$HERE/fixtures/topology-v3.xml"
  "truncated|--topology=xml:$HERE/fixtures/topology-truncated.xml"
  "--placement: 'diagonal' is not compact or scatter|--placement=diagonal"
  "--cpus: '0-' is not a list of numbers|--cpus=0-"
  "--cpus: 'x' is not a list of numbers|--cpus=x"
  "--cpus: '3-1' is not a list of numbers|--cpus=3-1"
  "--nodes: 'x' is not a list of numbers|--nodes=x"
  "--nodes: node 7 is not in the stand-in topology (2 nodes)|--topology=synthetic:node:2 core:2 pu:1|--nodes=7"
  "--nodes: node 4000 is not in the machine's topology|--nodes=4000|--topology=real"
  "--cpus=0 and --nodes=1 have no CPU in common|--topology=synthetic:node:2 core:2 pu:1|--cpus=0|--nodes=1"
  "--widen-affinity takes no value|--widen-affinity=yes"
  "--sample: 'socket' is not core, llc, node or none|--sample=socket"
  "--sample=llc: the topology shows no last-level cache|--topology=synthetic:node:2 core:2 pu:1|--sample=llc"
  "--threads: 'autos' is not auto or a list|--threads=autos"
  "--oversubscribe: '0' is not 1 to 16|--oversubscribe=0"
  "--oversubscribe: '2x' is not 1 to 16|--oversubscribe=2x"
  "--oversubscribe=16: 8192 emulated CPUs, more than mmscale emulates|--topology=synthetic:node:128 core:4 pu:1|--oversubscribe=16"
  "CPU 4096 is not in the|--cpus=4096"
  "CPU 8 is not in the stand-in topology|--topology=synthetic:node:2 core:2 pu:1|--cpus=8"
  "--threads: a thread count must be at least 1|--threads=0"
  "a thread count must be at least 1|--threads=0-2"
  "the plan has|--threads=100000"
  "is not auto or a list of thread counts|--threads=two"
  "--papi-events: empty event name|--papi-events=PAPI_L1_DCM,,x"
  "is not a PAPI event name|--papi-events=PAPI L1"
  "is listed twice|--papi-events=PAPI_TOT_INS,PAPI_TOT_INS"
  "exclude each other|--list|--describe"
  "unknown Google Benchmark flag '--benchmark_nonsense=1'|--benchmark_nonsense=1"
  "--c2c-matrix measures this machine|--c2c-matrix|--topology=synthetic:node:2 core:1 pu:1"
  "--save-machine writes what --c2c-matrix measures|--save-machine=$tmp/m.machine"
  "--save-machine needs a value|--c2c-matrix|--save-machine="
  "--save-machine=/nonexistent/m.machine: /nonexistent/m.machine.tmp: No such file or directory|--c2c-matrix|--save-machine=/nonexistent/m.machine"
  "--benchmark_min_time: 'abc' is not a positive|--benchmark_min_time=abc"
  "--benchmark_min_time: '0' is not a positive|--benchmark_min_time=0"
  "--benchmark_repetitions: '-1' is not a count|--benchmark_repetitions=-1"
  "--benchmark_repetitions: 'x' is not a count|--benchmark_repetitions=x"
  "--benchmark_format: 'xml' is not console, json or csv|--benchmark_format=xml"
  "--benchmark_out_format: 'yaml' is not|--benchmark_out_format=yaml"
  "--benchmark_time_unit: 'h' is not|--benchmark_time_unit=h"
  "--benchmark_out: cannot write '/nonexistent/dir/x.json'|--benchmark_out=/nonexistent/dir/x.json"
  "--benchmark_out: cannot write '/'|--benchmark_out=/"
  "Mismatched|--benchmark_filter=(|--papi-events=none"
  "Failed to match any benchmarks|--benchmark_filter=no/such/case|--papi-events=none"
  "Failed to match any benchmarks|--benchmark_filter=no/such/case"
  "Failed to match any benchmarks|--benchmark_filter=no/such/case|--papi-events=PAPI_L1_DCM,PAPI_L2_TCM,PAPI_L3_TCM"
  # An unknown name after presets: a software-defined one, which PAPI's SDE
  # component refuses on every machine (a CPU-event typo can be told from a
  # missing PMU only where PAPI's perf_event component works: test_papi).
  "PAPI knows no event 'sde:::mmscale::no_such_event'|--papi-events=PAPI_L1_DCM,PAPI_L2_TCM,sde:::mmscale::no_such_event"
  "--describe: 'yaml' is not text, json or xml|--describe=yaml"
  "--list: 'yaml' is not text or json|--list=yaml"
  "--list is given twice|--list|--list=json"
  "--mem: '3X' is not a memory size|--mem=3X"
  "--mem: '1M' is not a memory size of at least 64M|--mem=1M"
  "--mem: '-3G' is not a memory size|--mem=-3G"
  "--counter-layout: 'sparse' is not packed or padded|--counter-layout=sparse"
  "--swap: 'maybe' is not yes or no|--swap=maybe"
  "--throttle-percpu-error: 'some' is not yes or no|--throttle-percpu-error=some"
  "--smp-model: 'llist' is not auto, global-queue-2.6.32, global-queue or percpu|--smp-model=llist"
  "--claims: 'warn' is not check or report|--claims=warn"
  "--congestion-wait-us: 'soon' is not 0 to 1000000|--congestion-wait-us=soon"
  "--device-pages-per-ms: '0' is not 1 to|--device-pages-per-ms=0"
  "--ipi: 'carrier-pigeon' is not spin, futex, signal or kernel|--ipi=carrier-pigeon"
  "--ipi-timeout-ms: '0' is not 1 to 3600000|--ipi-timeout-ms=0"
  "--vmstat-interval-ms: '0' is not 1 to 3600000|--vmstat-interval-ms=0"
  "--throttle-seconds: '0' is not 1 to 3600|--throttle-seconds=0"
  "--throttle-seconds: 'a minute' is not 1 to 3600|--throttle-seconds=a minute"
  "--set: stat_threshold '128' is not auto or 0 to 127|--set|stat_threshold=128"
  "--set: stat_threshold '-1' is not auto or 0 to 127|--set=stat_threshold=-1"
  "--set: stat_threshold 'x' is not auto or 0 to 127|--set=stat_threshold=x"
  "--set: stat_threshold '' is not auto or 0 to 127|--set=stat_threshold="
  "--set: 'stat_thresh' is not a knob (stat_threshold, percpu_counter_batch, BDI_STAT_BATCH, dirty_ratio, dirty_background_ratio, dirty_bytes, dirty_background_bytes, ratelimit_pages, percpu_pagelist_fraction, percpu_pagelist_high_fraction, numa_stat, pcp_batch, pcp_high, pcp_high_max)|--set=stat_thresh=3"
  "--set: 'stat_threshold' has no value (NAME=VALUE)|--set=stat_threshold"
  "--set: give NAME=VALUE|--set"
  "--set: percpu_counter_batch '2147483648' is not auto or 0 to 2147483647|--set=percpu_counter_batch=2147483648"
  "--set: 'percpu_batch' is not a knob (stat_threshold, percpu_counter_batch, BDI_STAT_BATCH, dirty_ratio, dirty_background_ratio, dirty_bytes, dirty_background_bytes, ratelimit_pages, percpu_pagelist_fraction, percpu_pagelist_high_fraction, numa_stat, pcp_batch, pcp_high, pcp_high_max)|--set=percpu_batch=3"
  "--set: BDI_STAT_BATCH '2147483648' is not auto or 0 to 2147483647|--set=BDI_STAT_BATCH=2147483648"
  "--set: dirty_ratio '101' is not auto or 0 to 100|--set=dirty_ratio=101"
  "--set: dirty_background_ratio '-5' is not auto or 0 to 100|--set=dirty_background_ratio=-5"
  "--set: dirty_bytes '8191' is not auto or 8192 to 17592186040320|--set=dirty_bytes=8191"
  "--set: dirty_background_bytes '0' is not auto or 1 to 17592186040320|--set=dirty_background_bytes=0"
  "--set: dirty_bytes '17592186040321' is not auto or 8192 to 17592186040320|--set=dirty_bytes=17592186040321"
  "--set: dirty_bytes '99999999999999999999' is not auto or 8192 to 17592186040320|--set=dirty_bytes=99999999999999999999"
  "--set: dirty_ratio and dirty_bytes exclude each other (writing either sysctl zeroes the other): set one|--set=dirty_ratio=10|--set=dirty_bytes=1000000"
  "--set: dirty_background_bytes and dirty_background_ratio exclude each other (writing either sysctl zeroes the other): set one|--set=dirty_background_bytes=4096|--set=dirty_background_ratio=5"
  "--set: ratelimit_pages '2147483648' is not auto or 0 to 2147483647|--set=ratelimit_pages=2147483648"
  "--set: percpu_pagelist_fraction '7' is not auto or 8 to 2147483647|--set=percpu_pagelist_fraction=7"
  "--set: percpu_pagelist_high_fraction '1' is not auto, 0 or 8 to 2147483647|--set=percpu_pagelist_high_fraction=1"
  "--set: percpu_pagelist_high_fraction '-8' is not auto, 0 or 8 to 2147483647|--set=percpu_pagelist_high_fraction=-8"
  "--set: numa_stat '2' is not auto or 0 to 1|--set=numa_stat=2"
  "--set: pcp_batch '0' is not auto or 1 to 2147483647|--set=pcp_batch=0"
  "--throttle-trace: give a directory|--throttle-trace="
  "--throttle-cpus: '0' is not 1 to 4096|--throttle-cpus=0"
  "--throttle-trace: '/nonexistent/trace' is not a writable directory|--throttle-trace=/nonexistent/trace"
  "--throttle-trace: '/proc/version' is not a writable directory|--throttle-trace=/proc/version"
  "Failed to match any benchmarks|--benchmark_filter=^bdp/no-such-variant/|--papi-events=none"
  "Failed to match any benchmarks|--benchmark_filter=^no-such-case|--benchmark_out=out.json|--papi-events=none"
  "--threads: 3 threads, but the plan has 2 CPUs|--threads=1,3|--cpus=0-1"
  "--cpus: CPU 2 is not in the stand-in topology|--topology=synthetic:node:1 core:2 pu:1|--cpus=1-2"
  "--placement is given twice|--placement=compact|--placement=scatter"
  "--test-stuck-cpu: 'zero' is not a CPU number|--test-stuck-cpu=zero"
  "has more than 4096 PUs|--topology=synthetic:node:100000 core:100 pu:4|--describe"
  "has more than 4096 PUs|--topology=synthetic:node:128 core:8 pu:5|--describe"
  "has more than 4096 PUs|--topology=synthetic:pack nno..:129 core:8 pu:141|--describe"
  "has more than 4096 PUs|--topology=synthetic:no:161 core:2 1612|--describe"
  "has more than 4096 PUs|--topology=synthetic:pack nnno..:129no..:129 core:8 pu:1|--describe"
  "has more than 4096 PUs|--topology=synthetic:no:161 cor(e:2 1612|--describe"
  "--mem: ' -1' is not a memory size|--mem= -1"
  "PAPI knows no event 'sde:::mmscale::no_such_event'|--papi-events=sde:::mmscale::no_such_event|--benchmark_filter=^bdp/"
  "--verify-placement checks this machine|--verify-placement|--topology=synthetic:node:2 core:1 pu:1"
  "--transfer-line sizes the lines --transfers counts|--transfer-line=128"
  "--transfers counts the emulation's accesses|--transfers|--c2c-matrix"
  "--project prices a counting run's counts: give --transfers too|--project=x.machine"
  "--project needs a value|--transfers|--project"
)
# --transfers runs the counting build beside mmscale, which a sanitizer build has not.
if [ -x "$(dirname "$MMSCALE")/mmscale-transfers" ]; then
  cases+=("--transfer-line: '96' is not 64 or 128|--transfers|--transfer-line=96|--describe")
  cases+=("--project: /nonexistent.machine: No such file or directory (the shipped machines are|--transfers|--project=/nonexistent.machine|--describe")
  cases+=("--project: /proc/version:1: want 'key = value'|--transfers|--project=/proc/version|--describe")
else
  cases+=("--transfers needs the counting build|--transfers|--describe")
fi

for entry in "${cases[@]}"; do
  IFS='|' read -r -a fields <<< "$entry"
  want=${fields[0]}
  args=("${fields[@]:1}")
  (cd "$tmp" && "$MMSCALE" "${args[@]}" >"$tmp/out" 2>"$tmp/err")
  rc=$?
  lines=$(wc -l < "$tmp/err")
  problems=""
  [ "$rc" -eq 2 ] || problems+=" exit=$rc"
  [ "$lines" -eq 1 ] || problems+=" stderr-lines=$lines"
  [ -s "$tmp/out" ] && problems+=" stdout-not-empty"
  grep -qF -- "$want" "$tmp/err" || problems+=" message"
  leftovers=$(ls -A "$tmp" | grep -vx -e out -e err)
  [ -z "$leftovers" ] || problems+=" left-files:$leftovers"
  if [ -z "$problems" ]; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    echo "FAIL: mmscale ${args[*]}:$problems"
    sed 's/^/  stderr: /' "$tmp/err"
  fi
done

# --help tells the truth: every mmscale flag it documents is accepted with a
# sample value (a flag documented without a sample here fails the test).
declare -A sample=(
  [--topology]="--topology=real --describe" [--placement]="--placement=scatter --describe"
  [--cpus]="--cpus=0 --describe" [--nodes]="--nodes=0 --describe"
  [--widen-affinity]="--widen-affinity --describe" [--sample]="--sample=core --describe"
  [--threads]="--threads=auto --describe" [--oversubscribe]="--oversubscribe=2 --describe"
  [--papi-events]="--papi-events=none --describe" [--list]="--list"
  [--describe]="--describe" [--c2c-matrix]="--c2c-matrix --cpus=0" [--help]="--help"
  [--save-machine]="--c2c-matrix --cpus=0 --save-machine=$tmp/saved.machine"
  [--mem]="--mem=1G --describe" [--counter-layout]="--counter-layout=padded --describe"
  [--swap]="--swap=no --describe"
  [--throttle-percpu-error]="--throttle-percpu-error=yes --describe"
  [--congestion-wait-us]="--congestion-wait-us=0 --describe"
  [--device-pages-per-ms]="--device-pages-per-ms=100 --describe"
  [--ipi]="--ipi=signal --describe" [--ipi-timeout-ms]="--ipi-timeout-ms=500 --describe"
  [--smp-model]="--smp-model=global-queue --describe"
  [--claims]="--claims=report --describe"
  [--vmstat-interval-ms]="--vmstat-interval-ms=1 --describe"
  [--throttle-seconds]="--throttle-seconds=5 --describe"
  [--throttle-trace]="--throttle-trace=/tmp --describe"
  [--throttle-cpus]="--throttle-cpus=1024 --describe"
  [--verify-placement]="--verify-placement"
  [--set]="--set stat_threshold=0 --describe"
)
if [ -x "$(dirname "$MMSCALE")/mmscale-transfers" ]; then
  sample[--transfers]="--transfers --describe"
  sample[--transfer-line]="--transfers --transfer-line=128 --describe"
  sample[--project]="--transfers --project=$(cd "$(dirname "$0")/../.." && pwd)/machines/dual-epyc-7742.machine --describe"
else  # documented, and refused with one line: the counting build is not here
  sample[--transfers]="--help"
  sample[--transfer-line]="--help"
  sample[--project]="--help"
fi
for flag in $("$MMSCALE" --help | grep -oE -- '^ +--[a-z0-9-]+' | tr -d ' ' | sort -u); do
  # shellcheck disable=SC2086
  if [ -n "${sample[$flag]:-}" ] && "$MMSCALE" ${sample[$flag]} >/dev/null 2>"$tmp/err"; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    echo "FAIL: --help documents $flag, but it is not accepted (or has no sample here)"
  fi
done

echo "bad inputs: ${#cases[@]} tried, each must exit 2 with one line on stderr and leave no file"
echo "cli_errors: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
