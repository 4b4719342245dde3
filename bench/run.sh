#!/usr/bin/env bash
# Benchmarks the pg-advisory-lint CLI against `grep -rlI -i advisory` (reading every byte once) on
# synthetic repositories of 0.5x, 1x and 2x a size, or on directories you name.
#
#   bench/run.sh                      # synthetic: 4,600 / 9,200 / 18,400 files of ~160 lines
#   bench/run.sh DIR [DIR...]         # your own trees (e.g. a repository brought here with git clone)
#   RUNS=7 FILES=9200 bench/run.sh    # more runs, another base size
#
# Prints, per tree: files and lines, median/min/max wall time of the CLI and of grep over RUNS runs
# (warm file cache: one untimed run first), files/s and lines/s of the CLI, the ratio to grep, and
# the CLI's peak RSS (/usr/bin/time -v). Also one run with -Xmx256m to show it fits, and the median of
# RUNS runs with --cache on the unchanged tree (after one run that fills the cache).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(dirname "$here")"
# the launcher itself: its JVM flags and class-data-sharing archive are what is measured; JAVA_OPTS
# adds flags (e.g. JAVA_OPTS=-Xshare:off to measure without the archive)
lint="$repo/bin/pg-advisory-lint"
RUNS="${RUNS:-5}"
FILES="${FILES:-9200}"
"$lint" --version >/dev/null   # builds the jar first when it is missing or older than the sources
command -v /usr/bin/time >/dev/null || { echo "needs /usr/bin/time (Debian package: time)" >&2; exit 2; }

tf="$(mktemp)"
stats() { sort -n | awk '{a[NR]=$1} END {printf "%.2f %.2f %.2f", a[int((NR+1)/2)], a[1], a[NR]}'; }

bench_tree() {
  local dir="$1" label="$2"
  local files lines
  files=$(find "$dir" -name '*.java' -not -path '*/target/*' -not -path '*/build/*' | wc -l)
  lines=$(find "$dir" -name '*.java' -not -path '*/target/*' -not -path '*/build/*' -print0 | xargs -0 cat | wc -l)
  "$lint" scan "$dir" --fail-on none >/dev/null 2>&1 || true   # warm the file cache
  local cli=() grep_t=() rss=0
  for _ in $(seq "$RUNS"); do
    local t
    /usr/bin/time -f "%e %M" -o "$tf" "$lint" scan "$dir" --fail-on none >/dev/null 2>&1 || true
    t=$(tail -1 "$tf")
    cli+=("${t% *}")
    [ "${t#* }" -gt "$rss" ] && rss="${t#* }"
    /usr/bin/time -f "%e" -o "$tf" grep -rlI --include='*.java' -i advisory "$dir" >/dev/null || true
    grep_t+=("$(tail -1 "$tf")")
  done
  # incremental: one run fills the cache, then RUNS runs on the unchanged tree reuse it
  local cache warm=()
  cache="$(mktemp -u)"
  "$lint" scan "$dir" --fail-on none --cache "$cache" >/dev/null 2>&1 || true
  for _ in $(seq "$RUNS"); do
    /usr/bin/time -f "%e" -o "$tf" "$lint" scan "$dir" --fail-on none --cache "$cache" >/dev/null 2>&1 || true
    warm+=("$(tail -1 "$tf")")
  done
  rm -f "$cache"
  local c g w
  w=$(printf '%s\n' "${warm[@]}" | stats)
  c=$(printf '%s\n' "${cli[@]}" | stats)
  g=$(printf '%s\n' "${grep_t[@]}" | stats)
  local cm=${c%% *} gm=${g%% *}
  local small
  /usr/bin/time -f "%e" -o "$tf" env JAVA_OPTS="${JAVA_OPTS:-} -Xmx256m" "$lint" scan "$dir" --fail-on none >/dev/null 2>&1 || true
  small=$(tail -1 "$tf")
  awk -v l="$label" -v f="$files" -v n="$lines" -v c="$c" -v g="$g" -v cm="$cm" -v gm="$gm" -v rss="$rss" -v small="$small" -v warm="${w%% *}" 'BEGIN {
    printf "%-28s %7d files %9d lines | cli median/min/max %s s | grep %s s | %8.0f files/s %10.0f lines/s | %5.1fx grep | peak RSS %d MB | -Xmx256m %s s | warm --cache %s s\n",
      l, f, n, c, g, f / (cm > 0 ? cm : 0.001), n / (cm > 0 ? cm : 0.001), cm / (gm > 0 ? gm : 0.001), rss / 1024, small, warm }'
}

if [ "$#" -gt 0 ]; then
  for d in "$@"; do bench_tree "$d" "$(basename "$d")"; done
  exit 0
fi
work="$(mktemp -d)"
trap 'rm -rf "$work" "$tf"' EXIT
for factor in 0.5 1 2; do
  n=$(awk -v f="$FILES" -v k="$factor" 'BEGIN { printf "%d", f * k }')
  python3 "$here/generate.py" "$work/s$n" --files "$n"
  bench_tree "$work/s$n" "synthetic ${factor}x"
done
# worst case: every file a candidate
python3 "$here/generate.py" "$work/all" --files 2000 --lock-share 1.0 --helper-share 0
bench_tree "$work/all" "synthetic, all lock users"
