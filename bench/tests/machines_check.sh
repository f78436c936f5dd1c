#!/bin/bash
# Run mmscale on every machine topology of bench/tests/machines/ (written by
# scripts/gen-machine-topologies) and check its plan and a short run of some
# cases against what the XML says.
#
#   bench/tests/machines_check.sh MMSCALE [NAME...]
#
# With NAMEs, only the fixtures whose file name contains one of them.
# MACHINES_DIR names another folder of them (ctest generates them into the
# build tree: scripts/gen-machine-topologies --out DIR). MACHINES_RUN_EVERY=N
# makes the short runs on every Nth fixture only (the sanitizer builds: a
# run there costs ten times as much; every plan is still checked).
#
# For each fixture:
#  - --describe, --placement=scatter --describe and --describe=json with both
#    placements exit 0;
#  - from the JSON (schema: bench/describe.c): the topology is a stand-in; the
#    plan has one CPU per PU the XML allows (its PUs within the root's
#    allowed_cpuset), each on an allowed PU, none twice; each CPU's node lists
#    its PU; compact fills node by node (node numbers never decrease); scatter
#    deals the CPUs round-robin over the nodes that still have some; every
#    memory_node of a CPU has memory, unless no node has any;
#  - --threads=auto (the boundary sweep) is sorted, distinct, starts at 1, ends
#    at the plan's CPUs, and holds the PUs of the first core and of the first
#    node; it is printed, one "sweep" line per fixture; --sample=core, llc
#    (where the XML has L3 or L2 caches) and node plan one CPU per group;
#  - every CPU's memory node is one the XML allows;
#  - one short run of each of ^c2c/, ^vmstat/, ^percpu/, ^bdp/ and
#    ^drain/empty/ at --threads=1,2 (1 where the plan has one CPU) exits 0
#    with JSON whose context marks it a stand-in, not for timing, with no
#    benchmark in error, each labelled "not for timing", and, where the plan
#    has 2 CPUs, at least one run. drain/empty/ runs only its cpus:2 rows
#    (a drain with 2 CPUs online): its rows go up to every CPU of the plan,
#    and on the 1024-CPU stand-in those take 30 s of this 2-core machine. On
#    a one-CPU plan drain/empty/ has no row at all (a drain needs 2 CPUs
#    online; mmscale registers none and says nothing) and Google Benchmark
#    exits non-zero for a filter that matches nothing: a note, not a failure.
# Each failure is one line, "FAIL <fixture>: <check>"; the exit status is 1 if
# any check failed. Lines "note <fixture>: ..." report what looks odd but is
# not a failure: a node whose planned CPUs are not all within the CPUs of one
# node of the XML.
#
# The large stand-ins cost the most (the 1024-CPU, 128-node one about a
# third of the total, mostly vmstat/ and bdp/ walking every CPU's per-CPU
# data and every node's zones): the runs already use the smallest thread
# counts, 1 and 2, and drain/empty/ only its 2-CPU rows.
set -u

MMSCALE=${1:?usage: $0 MMSCALE [NAME...]}
shift
HERE=$(cd "$(dirname "$0")" && pwd)
DIR=${MACHINES_DIR:-$HERE/machines}
FAMILIES=('^c2c/' '^vmstat/' '^percpu/' '^bdp/' '^drain/empty/[^/]+/cpus:2/')
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

failed=0
checked=0
ran=0
fail() {
	echo "FAIL $1: $2"
	failed=$((failed + 1))
}

# check_plan XML COMPACT_JSON SCATTER_JSON: prints failure lines, "note"
# lines, then "threads N" (the --threads list to run with).
check_plan() {
	/usr/bin/python3 - "$@" <<'EOF'
import json
import sys
import xml.etree.ElementTree as ET

xml_path, compact_path, scatter_path = sys.argv[1:4]


def bitmap(s):
    """An hwloc bitmap string: comma-separated 32-bit words, most significant first."""
    bits = set()
    words = s.split(',')
    for i, w in enumerate(reversed(words)):
        v = int(w, 16) if w else 0
        for b in range(32):
            if v >> b & 1:
                bits.add(32 * i + b)
    return bits


def cpulist(s):
    out = set()
    for part in filter(None, s.split(',')):
        a, _, b = part.partition('-')
        out.update(range(int(a), int(b or a) + 1))
    return out


fails = []
root = ET.parse(xml_path).getroot().find('object')
allowed_cpus = bitmap(root.get('allowed_cpuset'))
allowed_nodes = bitmap(root.get('allowed_nodeset'))
pus = {int(o.get('os_index')) for o in root.iter('object') if o.get('type') == 'PU'}
allowed = pus & allowed_cpus
xml_nodes = [(bitmap(o.get('cpuset')), int(o.get('local_memory', '0')))
             for o in root.iter('object') if o.get('type') == 'NUMANode']

plans = {}
for placement, path in (('compact', compact_path), ('scatter', scatter_path)):
    try:
        with open(path) as f:
            plans[placement] = json.load(f)
    except (OSError, ValueError) as e:
        fails.append('--describe=json --placement=%s: not JSON (%s)' % (placement, e))


def check(placement, d):
    where = '--placement=%s' % placement
    topo, plan, cpus, nodes = d['topology'], d['plan'], d['cpus'], d['nodes']
    if topo.get('stand_in') is not True:
        fails.append('%s: topology.stand_in is %r, not true' % (where, topo.get('stand_in')))
    if plan['cpus'] != len(allowed) or len(cpus) != len(allowed):
        fails.append('%s: plan has %d CPUs (%d listed), the XML allows %d PUs'
                     % (where, plan['cpus'], len(cpus), len(allowed)))
    seen = set()
    for c in cpus:
        if c['pu'] not in allowed:
            fails.append('%s: CPU %d is on PU %d, not an allowed PU of the XML'
                         % (where, c['cpu'], c['pu']))
        if c['pu'] in seen:
            fails.append('%s: PU %d planned twice' % (where, c['pu']))
        seen.add(c['pu'])
        if not 0 <= c['node'] < len(nodes) or c['pu'] not in cpulist(nodes[c['node']]['cpus']):
            fails.append('%s: CPU %d (PU %d) is planned on node %d, whose cpus do not list it'
                         % (where, c['cpu'], c['pu'], c['node']))
    seq = [c['node'] for c in cpus]
    if placement == 'compact':
        bad = [i for i in range(1, len(seq)) if seq[i] < seq[i - 1]]
        if bad:
            i = bad[0]
            fails.append('%s: not node by node: CPU %d on node %d after CPU %d on node %d'
                         % (where, i, seq[i], i - 1, seq[i - 1]))
    else:
        left = [seq.count(n) for n in range(len(nodes))]
        want = []
        while any(left):
            for n in range(len(nodes)):
                if left[n]:
                    want.append(n)
                    left[n] -= 1
        if seq != want:
            i = next(i for i in range(len(seq)) if seq[i] != want[i])
            fails.append('%s: not round-robin over nodes: CPU %d on node %d, expected node %d'
                         % (where, i, seq[i], want[i]))
    if any(n['memory_bytes'] > 0 and n['os_index'] in allowed_nodes for n in nodes):
        for c in cpus:
            m = c['memory_node']
            if not 0 <= m < len(nodes) or nodes[m]['memory_bytes'] == 0:
                fails.append('%s: CPU %d takes memory from node %d, which has none'
                             % (where, c['cpu'], m))
                break
            if nodes[m]['os_index'] not in allowed_nodes or not nodes[m]['memory_allowed']:
                fails.append('%s: CPU %d takes memory from node %d (OS %d), which the XML '
                             'does not allow' % (where, c['cpu'], m, nodes[m]['os_index']))
                break
    if placement == 'compact':
        for n in nodes:
            mine = cpulist(n['cpus'])
            if mine and not any(mine <= cs and mem == n['memory_bytes']
                                for cs, mem in xml_nodes):
                print('note node %d (CPUs %s): no allowed node of the XML with this memory '
                      'holds all these CPUs' % (n['node'], n['cpus']))

for placement, d in plans.items():
    try:
        check(placement, d)
    except (KeyError, TypeError, ValueError, IndexError) as e:
        fails.append('--placement=%s: describe JSON not as bench/describe.c writes it (%s: %s)'
                     % (placement, type(e).__name__, e))
for f in fails:
    print('fail ' + f)
print('threads %s' % ('1,2' if len(allowed) >= 2 else '1'))
EOF
}

# check_auto AUTO_JSON SAMPLE_JSON...: --threads=auto (the boundary sweep)
# and --sample plans; prints "fail ..." lines and one "sweep ..." line.
check_auto() {
	/usr/bin/python3 - "$@" <<'EOF'
import json
import sys

try:
    d = json.load(open(sys.argv[1]))
    t, cpus = d['threads'], d['cpus']
    n = d['plan']['cpus']
    if not t or t[0] != 1 or t[-1] != n or t != sorted(set(t)):
        print('fail --threads=auto: %s for a plan of %d CPUs' % (t, n))
    first = cpus[0]
    core = sum(1 for c in cpus if c['core'] == first['core'])
    node = sum(1 for c in cpus if c['node'] == first['node'])
    for what, k in (('the first core', core), ('the first node', node)):
        if k not in t:
            print('fail --threads=auto %s lacks %s\'s %d CPUs' % (t, what, k))
    print('sweep %s' % ','.join(map(str, t)))
    for path in sys.argv[2:]:
        s = json.load(open(path))
        kind = s['plan']['sample']
        groups = [c[kind] for c in s['cpus']]
        want = len({c[kind] for c in d['cpus']})
        if len(groups) != len(set(groups)) or len(groups) != want:
            print('fail --sample=%s: %d CPUs over %d groups, the plan has %d groups'
                  % (kind, len(groups), len(set(groups)), want))
except (OSError, ValueError, KeyError, IndexError, TypeError) as e:
    print('fail --threads=auto/--sample: describe JSON not as bench/describe.c writes it (%s)'
          % e)
EOF
}

# check_runs MIN_BENCHMARKS FAMILY JSON [FAMILY JSON...]: the context and
# benchmarks of each run, one line "FAMILY: problem" per problem.
check_runs() {
	/usr/bin/python3 - "$@" <<'EOF'
import json
import sys

min_runs = int(sys.argv[1])
args = sys.argv[2:]
for family, path in zip(args[0::2], args[1::2]):
    def bad(msg):
        print('%s: %s' % (family, msg))
    try:
        with open(path) as f:
            d = json.load(f)
    except (OSError, ValueError) as e:
        bad('output is not JSON (%s)' % e)
        continue
    ctx = d.get('context', {})
    if ctx.get('mmscale_stand_in') != 'yes':
        bad('context mmscale_stand_in is %r, not "yes"' % ctx.get('mmscale_stand_in'))
    if not str(ctx.get('mmscale_for_timing', '')).startswith('no'):
        bad('context mmscale_for_timing is %r, not "no ..."' % ctx.get('mmscale_for_timing'))
    runs = d.get('benchmarks', [])
    if len(runs) < min_runs:
        bad('ran %d benchmarks' % len(runs))
    for b in runs:
        if b.get('error_occurred'):
            bad('%s: error: %s' % (b.get('name'), b.get('error_message')))
            break
        if 'not for timing' not in b.get('label', ''):
            bad('%s: label %r does not say "not for timing"' % (b.get('name'), b.get('label')))
            break
EOF
}

for xml in "$DIR"/*.xml; do
	name=$(basename "$xml")
	if [ $# -gt 0 ]; then
		want=0
		for pattern in "$@"; do
			[[ $name == *"$pattern"* ]] && want=1
		done
		[ $want = 1 ] || continue
	fi
	checked=$((checked + 1))
	for args in "--describe" "--placement=scatter --describe"; do
		# shellcheck disable=SC2086
		if ! "$MMSCALE" "--topology=xml:$xml" $args >/dev/null 2>"$TMP/err"; then
			fail "$name" "$args exited non-zero: $(tail -n 1 "$TMP/err")"
		fi
	done
	ok=1
	for placement in compact scatter; do
		if ! "$MMSCALE" "--topology=xml:$xml" --placement=$placement --describe=json \
			>"$TMP/$placement.json" 2>"$TMP/err"; then
			fail "$name" "--placement=$placement --describe=json exited non-zero: $(tail -n 1 "$TMP/err")"
			ok=0
		fi
	done
	[ $ok = 1 ] || continue
	samples=()
	for sample in core llc node; do
		if ! "$MMSCALE" "--topology=xml:$xml" --sample=$sample --describe=json \
			>"$TMP/sample-$sample.json" 2>"$TMP/err"; then
			if [ $sample = llc ] && grep -q "no last-level cache" "$TMP/err"; then
				continue	# the XML shows no L3 or L2: refused, as it should be
			fi
			fail "$name" "--sample=$sample --describe=json exited non-zero: $(tail -n 1 "$TMP/err")"
			continue
		fi
		samples+=("$TMP/sample-$sample.json")
	done
	if ! "$MMSCALE" "--topology=xml:$xml" --threads=auto --describe=json >"$TMP/auto.json" \
		2>"$TMP/err"; then
		fail "$name" "--threads=auto --describe=json exited non-zero: $(tail -n 1 "$TMP/err")"
	else
		while read -r kind rest; do
			case $kind in
			fail) fail "$name" "$rest" ;;
			sweep) echo "sweep $name: $rest" ;;
			esac
		done < <(check_auto "$TMP/auto.json" "${samples[@]}")
	fi
	threads=
	while read -r kind rest; do
		case $kind in
		fail) fail "$name" "$rest" ;;
		note) echo "note $name: $rest" ;;
		threads) threads=$rest ;;
		esac
	done < <(check_plan "$xml" "$TMP/compact.json" "$TMP/scatter.json")
	if [ -z "$threads" ]; then
		fail "$name" "the plan check did not finish (python3 failed: see above)"
		continue
	fi
	if [ $(((checked - 1) % ${MACHINES_RUN_EVERY:-1})) != 0 ]; then
		continue	# plans checked above; runs on every Nth fixture only
	fi
	ran=$((ran + 1))
	min=1
	[ "$threads" = 1 ] && min=0	# c2c/ and some others need 2 CPUs
	runs=()
	i=0
	for family in "${FAMILIES[@]}"; do
		i=$((i + 1))
		if ! "$MMSCALE" "--topology=xml:$xml" "--threads=$threads" --benchmark_min_time=0.001 \
			--benchmark_repetitions=1 --benchmark_format=json "--benchmark_filter=$family" \
			>"$TMP/run$i.json" 2>"$TMP/err"; then
			if [ "$threads" = 1 ] && grep -q "Failed to match any benchmarks" "$TMP/err"; then
				echo "note $name: run $family: no case of it runs on a one-CPU plan (GB exits non-zero)"
			else
				fail "$name" "run $family exited non-zero: $(tail -n 1 "$TMP/err")"
			fi
			continue
		fi
		runs+=("$family" "$TMP/run$i.json")
	done
	if [ ${#runs[@]} -gt 0 ]; then
		while read -r line; do
			fail "$name" "run $line"
		done < <(check_runs "$min" "${runs[@]}")
	fi
done

if [ "$checked" = 0 ]; then
	echo "FAIL: no fixture in $DIR"
	exit 1
fi
echo "machines_check: $checked fixtures (short runs on $ran), $failed failed checks"
[ "$failed" = 0 ]
