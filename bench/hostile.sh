#!/usr/bin/env bash
# Benchmarks the two quadratic shapes of issue 19 with the CLI jar (not timed tests):
#   1. N SQL files that all take one key (`SELECT pg_advisory_xact_lock(42);`), for N = 250 and 2,000
#      (N=... to choose), under -Xmx256m: duplicate-lock-key reports every file against the others;
#   2. one Java method taking keys 0..K-1 and then the same keys in reverse, for K = 120 and 300.
# Prints per tree: wall seconds, peak RSS (/usr/bin/time -v), exit code and SARIF size.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(dirname "$here")"
lint="${LINT:-$repo/bin/pg-advisory-lint}"   # LINT=/path/to/other/checkout/bin/pg-advisory-lint compares
"$lint" --version >/dev/null   # builds the jar first when it is missing or older than the sources
command -v /usr/bin/time >/dev/null || { echo "needs /usr/bin/time (Debian package: time)" >&2; exit 2; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

measure() {
  local dir="$1" label="$2" heap="$3"
  local tf="$work/time.txt" code=0
  JAVA_OPTS="-Xmx$heap" /usr/bin/time -v -o "$tf" "$lint" scan "$dir" --format sarif --output "$work/out.sarif" \
      >/dev/null 2>"$work/err.txt" || code=$?
  local wall rss
  wall=$(awk -F': ' '/Elapsed \(wall clock\)/ {n=split($2,p,":"); s=0; for(i=1;i<=n;i++) s=s*60+p[i]; print s}' "$tf")
  rss=$(awk -F': ' '/Maximum resident/ {printf "%d", $2/1024}' "$tf")
  printf '%-34s heap %-5s wall %6.2f s  peak RSS %5s MB  exit %d  SARIF %s bytes\n' "$label" "$heap" "$wall" "$rss" \
      "$code" "$(stat -c %s "$work/out.sarif" 2>/dev/null || echo 0)"
}

for n in ${N:-250 2000}; do
  d="$work/shared-key-$n"
  mkdir -p "$d/db"
  for ((i = 0; i < n; i++)); do
    printf 'SELECT pg_advisory_xact_lock(42);\n' > "$d/db/V$(printf '%05d' "$i")__job.sql"
  done
  measure "$d" "$n files sharing key 42" 256m
done

for k in ${K:-120 300}; do
  d="$work/reverse-$k/src"
  mkdir -p "$d"
  {
    printf 'class Keys {\n  void both(java.sql.Statement st) throws Exception {\n'
    for ((i = 0; i < k; i++)); do printf '    st.execute("SELECT pg_advisory_lock(%d)");\n' "$i"; done
    for ((i = k - 1; i >= 0; i--)); do printf '    st.execute("SELECT pg_advisory_lock(%d)");\n' "$i"; done
    printf '  }\n}\n'
  } > "$d/Keys.java"
  measure "$(dirname "$d")" "$k keys, then in reverse" 256m
done
