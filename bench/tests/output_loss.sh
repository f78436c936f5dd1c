#!/bin/bash
# No silent loss of a result: a results file (--benchmark_out) or standard
# output that cannot be written - /dev/full, a full filesystem (a tmpfs of
# 8 KiB where this machine lets the test mount one, and a `ulimit -f` child
# everywhere) - is exit 1 with one line naming the file and the error, and
# leaves no results file that looks complete (neither FILE nor
# FILE.partial).
set -u
MMSCALE=$(readlink -f "${1:?usage: output_loss.sh path/to/mmscale}")
tmp=$(mktemp -d)
mnt=""
cleanup() { [ -n "$mnt" ] && umount "$mnt" 2>/dev/null; rm -rf "$tmp"; }
trap cleanup EXIT
passed=0
failed=0
RUN=(--benchmark_filter='^vmstat/' --benchmark_min_time=0.001 --benchmark_repetitions=1
     --threads=1 --papi-events=none)

# expect WHAT STATUS WANT_LINE_FRAGMENT: checks $tmp/err and the status.
expect() {
  local what=$1 rc=$2 want=$3 problems=""
  [ "$rc" -eq 1 ] || problems+=" exit=$rc"
  grep -qF -- "$want" "$tmp/err" || problems+=" no line '$want'"
  [ "$(grep -c '^mmscale: could not write' "$tmp/err")" -eq 1 ] || problems+=" not one line"
  if [ -z "$problems" ]; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    echo "FAIL: $what:$problems"
    tail -3 "$tmp/err" | sed 's/^/  stderr: /'
  fi
}
no_file() {  # no FILE and no FILE.partial left
  if [ -e "$1" ] || [ -e "$1.partial" ]; then
    failed=$((failed + 1))
    echo "FAIL: $2: $(ls "$1"* | tr '\n' ' ')left behind"
  else
    passed=$((passed + 1))
  fi
}

"$MMSCALE" "${RUN[@]}" --benchmark_out=/dev/full > /dev/null 2> "$tmp/err"
expect "--benchmark_out=/dev/full" $? "could not write /dev/full: No space left on device"
if [ -c /dev/full ]; then passed=$((passed + 1)); else failed=$((failed + 1));
  echo "FAIL: --benchmark_out=/dev/full replaced the device"; fi
for fmt in console json csv; do
  "$MMSCALE" "${RUN[@]}" --benchmark_format=$fmt > /dev/full 2> "$tmp/err"
  expect "--benchmark_format=$fmt > /dev/full" $? "could not write standard output"
done
for what in --describe --describe=json --list=json --help; do
  "$MMSCALE" $what > /dev/full 2> "$tmp/err"
  expect "$what > /dev/full" $? "could not write standard output: No space left on device"
done

# A symlinked results path: the link stays a link and its target (created
# when missing) holds the results. A link like /dev/stdout (to
# /proc/self/fd/1, made here, not the real one) with standard output in a
# file: that file holds the results, the link is untouched.
ln -s target.json "$tmp/link.json"
"$MMSCALE" "${RUN[@]}" --benchmark_out="$tmp/link.json" > /dev/null 2> "$tmp/err"
if [ $? -eq 0 ] && [ -L "$tmp/link.json" ] && grep -q '"benchmarks"' "$tmp/target.json"; then
  passed=$((passed + 1))
else
  failed=$((failed + 1)); echo "FAIL: a dangling symlink as results path: $(ls -l "$tmp" | tr '\n' ' ')"
fi
ln -s /proc/self/fd/1 "$tmp/stdout"
"$MMSCALE" "${RUN[@]}" --benchmark_out="$tmp/stdout" > "$tmp/out.txt" 2> "$tmp/err"
if [ $? -eq 0 ] && [ -L "$tmp/stdout" ] && grep -q '"benchmarks"' "$tmp/out.txt" &&
   [ ! -e "$tmp/out.txt.partial" ]; then
  passed=$((passed + 1))
else
  failed=$((failed + 1)); echo "FAIL: --benchmark_out=<link to /proc/self/fd/1> > file: $(ls -l "$tmp" | tr '\n' ' ')"
fi
rm -f "$tmp/link.json" "$tmp/target.json" "$tmp/stdout" "$tmp/out.txt"

# A full filesystem: the first write of the results file (the context)
# fits, a later one does not; the earlier file must go too.
"$MMSCALE" "${RUN[@]}" --benchmark_out="$tmp/whole.json" > /dev/null 2>&1
size_kib=$(( $(stat -c %s "$tmp/whole.json") / 1024 ))
(ulimit -f $((size_kib - 2)); trap '' XFSZ
 "$MMSCALE" "${RUN[@]}" --benchmark_out="$tmp/r.json" > /dev/null 2> "$tmp/err")
expect "ulimit -f $((size_kib - 2)) KiB" $? "could not write $tmp/r.json: File too large; the earlier, incomplete results file is removed"
no_file "$tmp/r.json" "ulimit -f"
mkdir "$tmp/small"
if mount -t tmpfs -o size=8k tmpfs "$tmp/small" 2>/dev/null; then
  mnt=$tmp/small
  "$MMSCALE" "${RUN[@]}" --benchmark_out="$mnt/r.json" > /dev/null 2> "$tmp/err"
  expect "a full 8 KiB tmpfs" $? "could not write $mnt/r.json: No space left on device"
  no_file "$mnt/r.json" "a full 8 KiB tmpfs"
  "$MMSCALE" "${RUN[@]}" --benchmark_format=json > "$mnt/stdout.json" 2> "$tmp/err"
  expect "standard output to a full 8 KiB tmpfs" $? "could not write standard output"
  umount "$mnt"
  # No inode left for FILE.partial after the first write: the earlier file goes too.
  if mount -t tmpfs -o size=1m,nr_inodes=2 tmpfs "$tmp/small" 2>/dev/null; then
    "$MMSCALE" "${RUN[@]}" --benchmark_out="$mnt/r.json" > /dev/null 2> "$tmp/err"
    expect "a tmpfs out of inodes" $? "could not write $mnt/r.json: No space left on device; the earlier, incomplete results file is removed"
    no_file "$mnt/r.json" "a tmpfs out of inodes"
  fi
else
  echo "output_loss: tmpfs part skipped: this machine lets the test mount no tmpfs (ulimit -f checked instead)"
fi
echo "output_loss: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
