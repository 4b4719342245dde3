#!/usr/bin/env bash
# Benchmarks the pg-advisory-lint CLI (through the launcher bin/pg-advisory-lint, so with its JVM
# flags and class-data-sharing archive) and prints one Markdown table, one measured row per tree,
# each as a ratio to a reference measured in the same runs (the machine is shared and noisy):
#
#   | tree | lines | CLI median | reference | ratio | lines/s | peak RSS | goal | result |
#
# Usage:
#   bench/run.sh [--runs N] [--repo NAME=DIR]... [--edit NAME] [--no-synthetic | --scaling-only]
#
#   --repo NAME=DIR   a real repository (repeatable); a bare DIR means --repo "$(basename DIR)"=DIR.
#                     Its row is the ratio to `grep -rlI --include='*.java' -i advisory DIR`; the goal
#                     is at most 4x grep for a tree without a lock user (no Java file matches
#                     'pg_.*advisory'), else at most 8x.
#   --edit NAME       the repository of the edited-file row (default: concord when named, else the
#                     first named repository with a lock user; no such row without one). It is
#                     copied to a temporary folder (without .git): the named repositories are only read.
#   --runs N          timed runs per measurement (default 3, or $RUNS); the median is reported.
#   --no-synthetic    skip the synthetic trees (and the scaling rows).
#   --scaling-only    of the synthetic rows, only the two scaling rows (about 2 minutes).
#
#   bench/run.sh                                   # the synthetic rows only (about 3 minutes)
#   bench/run.sh --repo concord=/work/repos/concord --repo thingsboard=/work/repos/thingsboard \
#                --repo spring-framework=/work/repos/spring-framework    # every row of issue 15
#
# Rows:
#   - each repository: CLI median wall time against grep's median (runs interleaved, after one
#     untimed read of every file so that both read from the page cache);
#   - synthetic 1.5 M lines, 5% lock users (bench/generate.py --files 9200 --lock-share 0.05): at
#     most 7x grep;
#   - synthetic, every file a lock user (--files 2000 --lock-share 1.0 --helper-share 0), with three
#     more rows: the CLI against JavaParser alone parsing the same files on the same threads
#     (bench/ParseOnly.java, run by the same java with the launcher's JVM flags, read from the launcher
#     itself; whole process wall time on both sides), the peak RSS, and one run with -Xmx256m (PASS
#     when it exits 0 with the same report as the run with the default heap; stopped after 3x the
#     CLI median, at least 30 s);
#   - scaling (issue 27): one Java method of 1,250 and of 5,000 statements, one SQL script of 1,000 and of
#     4,000 statements (bench/generate.py --long-method / --long-script); the ratio of the analysis
#     times (each CLI median less an empty scan's) at 4N and N is at most 5x: linear work gives 4x;
#   - warm --cache with one lock-using file edited: a cache is filled, then RUNS times a warm run on the
#     unchanged copy and a warm run after appending a fresh comment line to the first file of
#     `grep -rlI --include='*.java' -i 'pg_.*advisory' DIR | sort`. The report of the last edited run
#     is compared with a cold scan (no cache) of the same copy.
# The ratio is the median of the per-run ratios, each CLI run against the reference run next to it
# (pairs see the same load on a shared machine); the time cells are medians.
# Lines are the lines of the Java files the tool reads (target/, build/, node_modules/ and
# version-control folders skipped); lines/s is lines over the CLI median; peak RSS is the largest
# maximum resident set of the row's timed runs (/usr/bin/time -f %M). Progress goes to standard error,
# the table to standard output. JAVA_OPTS adds JVM flags to the CLI and to the parser reference alike.
# Every scan writes the JSON report (--format json --fail-on none): it is byte-identical between equal
# runs, where the text report's summary line carries the scan's wall time.
set -euo pipefail
export LC_ALL=C
here="$(cd "$(dirname "$0")" && pwd)"
root="$(dirname "$here")"
lint="$root/bin/pg-advisory-lint"
jar="$root/cli/target/pg-advisory-lint.jar"

usage() { sed -n '8,20p' "$0" | sed 's/^# \{0,1\}//' >&2; exit "${1:-2}"; }
die() { echo "bench/run.sh: $*" >&2; exit 2; }
note() { echo "[bench $(date +%H:%M:%S)] $*" >&2; }

runs="${RUNS:-3}"
repo_names=()
repo_dirs=()
edit=""
synthetic=1
while [ "$#" -gt 0 ]; do
  case "$1" in
    --runs) [ "$#" -ge 2 ] || usage; runs="$2"; shift 2 ;;
    --runs=*) runs="${1#--runs=}"; shift ;;
    --repo) [ "$#" -ge 2 ] || usage; spec="$2"; shift 2 ;;
    --repo=*) spec="${1#--repo=}"; shift ;;
    --edit) [ "$#" -ge 2 ] || usage; edit="$2"; shift 2 ;;
    --edit=*) edit="${1#--edit=}"; shift ;;
    --no-synthetic) synthetic=0; shift ;;
    --scaling-only) synthetic=2; shift ;;
    -h | --help) usage 0 ;;
    -*) echo "bench/run.sh: unknown option $1" >&2; usage ;;
    *) spec="$(basename "$1")=$1"; shift ;;
  esac
  if [ -n "${spec:-}" ]; then
    case "$spec" in *=*) ;; *) die "--repo wants NAME=DIR, got '$spec'" ;; esac
    [ -d "${spec#*=}" ] || die "no such directory: ${spec#*=}"
    repo_names+=("${spec%%=*}")
    repo_dirs+=("$(cd "${spec#*=}" && pwd)")
    spec=""
  fi
done
case "$runs" in '' | *[!0-9]* | 0) die "--runs wants a positive number, got '$runs'" ;; esac
[ "${#repo_names[@]}" -gt 0 ] || [ "$synthetic" != 0 ] || die "nothing to measure: --no-synthetic without --repo"
command -v /usr/bin/time >/dev/null || die "needs /usr/bin/time (Debian package: time)"
command -v python3 >/dev/null || die "needs python3 (bench/generate.py)"

started=$EPOCHREALTIME
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
errlog="$work/stderr.log"

"$lint" --version >/dev/null # builds the jar first when it is missing or older than the sources

# The launcher's JVM flags, exactly as it passes them (JAVA_OPTS and the CDS archive included): run it
# once with a stand-in java that records its arguments, and keep those before -jar.
java_bin="${JAVA_HOME:+$JAVA_HOME/bin/}java"
javac_bin="${JAVA_HOME:+$JAVA_HOME/bin/}javac"
mkdir -p "$work/fake-jdk/bin"
cat >"$work/fake-jdk/bin/java" <<'EOF'
#!/bin/sh
for a in "$@"; do printf '%s\0' "$a"; done >"$BENCH_JAVA_ARGS"
EOF
chmod +x "$work/fake-jdk/bin/java"
BENCH_JAVA_ARGS="$work/java-args" JAVA_HOME="$work/fake-jdk" "$lint" --version
mapfile -d '' launcher_args <"$work/java-args"
jvm_flags=()
for a in "${launcher_args[@]}"; do
  [ "$a" = "-jar" ] && break
  jvm_flags+=("$a")
done
[ "${#jvm_flags[@]}" -lt "${#launcher_args[@]}" ] || die "could not read the JVM flags from $lint (no -jar)"
note "launcher JVM flags: ${jvm_flags[*]}"

# ---------------------------------------------------------------- helpers

# timed OUT CMD...: runs CMD under /usr/bin/time with standard output to OUT; sets T (wall seconds,
# from bash's clock), M (peak RSS in KB) and RC (exit code).
T=0 M=0 RC=0
timed() {
  local out="$1" s e
  shift
  s=$EPOCHREALTIME
  set +e
  /usr/bin/time -f %M -o "$work/time" "$@" >"$out" 2>>"$errlog"
  RC=$?
  set -e
  e=$EPOCHREALTIME
  T=$(awk -v s="$s" -v e="$e" 'BEGIN { printf "%.3f", e - s }')
  M=$(tail -n 1 "$work/time")
  case "$M" in '' | *[!0-9]*) M=0 ;; esac
}

# scan DIR OUT [ARGS...]: one CLI scan, timed; dies unless it exits 0.
scan() {
  local dir="$1" out="$2"
  shift 2
  timed "$out" "$lint" scan "$dir" --fail-on none --format json "$@"
  if [ "$RC" != 0 ]; then
    tail -n 20 "$errlog" >&2
    die "scan of $dir exited $RC"
  fi
}

# grep_time DIR: grep's wall time into T.
grep_time() {
  local s e
  s=$EPOCHREALTIME
  grep -rlI --include='*.java' -i advisory "$1" >/dev/null || true
  e=$EPOCHREALTIME
  T=$(awk -v s="$s" -v e="$e" 'BEGIN { printf "%.3f", e - s }')
}

median() { printf '%s\n' "$@" | sort -g | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }
max() { printf '%s\n' "$@" | sort -g | tail -n 1; }

java_lines() {
  find "$1" -type d \( -name target -o -name build -o -name node_modules -o -name .git -o -name .hg \
    -o -name .svn -o -name .gradle -o -name .idea \) -prune -o -type f -name '*.java' -print0 |
    xargs -0 cat | wc -l
}

rows=()
# row TREE LINES CLI_S REFERENCE RATIO LINES_PER_S RSS_KB GOAL RESULT ('-' for an empty cell)
row() {
  rows+=("$(awk -v tree="$1" -v lines="$2" -v cli="$3" -v ref="$4" -v ratio="$5" -v lps="$6" -v rss="$7" \
    -v goal="$8" -v result="$9" '
    function commas(n,   s) { s = sprintf("%d", n); while (s ~ /[0-9][0-9][0-9][0-9]/) sub(/[0-9][0-9][0-9]($|,)/, ",&", s); return s }
    BEGIN {
      printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s |", tree,
        (lines == "-" ? "-" : commas(lines)), (cli == "-" ? "-" : sprintf("%.2f s", cli)), ref,
        (ratio == "-" ? "-" : sprintf("%.2fx", ratio)), (lps == "-" ? "-" : commas(lps)),
        (rss == "-" ? "-" : commas(rss / 1024) " MB"), goal, result
    }')")
  note "${rows[-1]}"
}

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.4f", a / (b > 0 ? b : 0.001) }'; }
at_most() { awk -v v="$1" -v g="$2" 'BEGIN { print (v <= g ? "PASS" : "MISS") }'; }
per_second() { awk -v n="$1" -v t="$2" 'BEGIN { printf "%d", n / (t > 0 ? t : 0.001) }'; }

# bench_tree NAME DIR GOAL [parse]: the CLI against grep (GOAL: at most GOALx grep, or "lines/s" for
# the worst case's throughput goal, with "parse" adding the parser reference, RSS and -Xmx256m rows).
bench_tree() {
  local name="$1" dir="$2" goal="$3" parse="${4:-}"
  local lines cli=() grep_t=() rss=() pt=() pm=() gr=() pr=() pinfo="" i
  lines=$(java_lines "$dir")
  note "$name: $lines lines, $runs runs"
  grep_time "$dir" # untimed (counting the lines above read every Java file too: all in the page cache)
  for i in $(seq "$runs"); do
    scan "$dir" "$work/report-$i.json" # the first one is the report the -Xmx256m run must match
    cli+=("$T")
    rss+=("$M")
    grep_time "$dir"
    grep_t+=("$T")
    gr+=("$(ratio "${cli[-1]}" "$T")")
    if [ -n "$parse" ]; then
      timed "$work/parse.out" "$java_bin" "${jvm_flags[@]}" -cp "$jar:$work/parse-only" ParseOnly "$dir"
      [ "$RC" = 0 ] || { tail -n 20 "$errlog" >&2; die "ParseOnly exited $RC"; }
      pt+=("$T")
      pm+=("$M")
      pr+=("$(ratio "${cli[-1]}" "$T")")
      pinfo=$(cat "$work/parse.out")
    fi
    note "$name run $i: CLI ${cli[-1]} s, grep ${grep_t[-1]} s${pinfo:+, JavaParser alone $T s (files lines parse-seconds: $pinfo)}"
  done
  local cm gm r lps peak
  cm=$(median "${cli[@]}")
  gm=$(median "${grep_t[@]}")
  r=$(median "${gr[@]}")
  lps=$(per_second "$lines" "$cm")
  peak=$(max "${rss[@]}")
  if [ "$goal" = "lines/s" ]; then
    row "$name" "$lines" "$cm" "grep $(printf '%.2f' "$gm") s" "$r" "$lps" "$peak" "at least 40,000 lines/s" \
      "$(awk -v v="$lps" 'BEGIN { print (v >= 40000 ? "PASS" : "MISS") }')"
  else
    row "$name" "$lines" "$cm" "grep $(printf '%.2f' "$gm") s" "$r" "$lps" "$peak" "at most ${goal}x grep" "$(at_most "$r" "$goal")"
  fi
  [ -n "$parse" ] || return 0

  local plines pmed
  plines=$(awk '{ print $2 }' <<<"$pinfo")
  pmed=$(median "${pt[@]}")
  r=$(median "${pr[@]}")
  row "↳ same tree: CLI against JavaParser alone ($(awk '{ print $1 }' <<<"$pinfo") files, same threads)" \
    "$plines" "$cm" "JavaParser $(printf '%.2f' "$pmed") s" "$r" "$(per_second "$plines" "$pmed")" "$(max "${pm[@]}")" \
    "at most 1.25x JavaParser" "$(at_most "$r" 1.25)"
  row "↳ same tree: peak RSS" "-" "-" "-" "-" "-" "$peak" "at most 512 MB" "$(at_most "$peak" $((512 * 1024)))"

  # -Xmx256m: a run that thrashes is stopped after 3x the median (at least 30 s)
  local limit result
  limit=$(awk -v c="$cm" 'BEGIN { l = int(3 * c) + 1; print (l < 30 ? 30 : l) }')
  note "$name: one run with -Xmx256m (stopped after $limit s)"
  local saved="$errlog"
  errlog="$work/small.err"
  timed "$work/report-small.txt" env JAVA_OPTS="${JAVA_OPTS:-} -Xmx256m" timeout -k 10 "$limit" \
    "$lint" scan "$dir" --fail-on none --format json
  errlog="$saved"
  if [ "$RC" = 124 ] || [ "$RC" = 137 ]; then
    result="MISS (stopped after $limit s)"
  elif [ "$RC" != 0 ]; then
    result="MISS (exit $RC: $(tail -n 1 "$work/small.err" | sed 's/\. .*/./' | cut -c1-120 | tr '|' '/'))"
  elif ! cmp -s "$work/report-small.txt" "$work/report-1.json"; then
    result="MISS (the report differs)"
  else
    result="PASS"
  fi
  row "↳ same tree: -Xmx256m" "$lines" "$T" "-" "-" "-" "$M" "exit 0, same report" "$result"
}

# bench_edit NAME DIR: warm --cache, unchanged against one lock-using file edited, on a copy of DIR.
bench_edit() {
  local name="$1" src="$2" copy="$work/edit-copy" cache="$work/edit.cache" file lines
  local warm=() edited=() rss=() er=() i
  note "$name: copying to a temporary folder for the edited-file row"
  rm -rf "$copy"
  mkdir -p "$copy/.git" # an empty .git: the configuration lookup stops at the copy's root, as in DIR
  tar -C "$src" --exclude=./.git -cf - . | tar -C "$copy" -xf -
  file=$(grep -rlI --include='*.java' -i 'pg_.*advisory' "$copy" | sort | head -n 1 || true)
  [ -n "$file" ] || die "$name has no lock-using Java file (nothing matches 'pg_.*advisory')"
  lines=$(java_lines "$copy")
  note "$name: edited file ${file#"$copy"/}"
  rm -f "$cache"
  scan "$copy" /dev/null --cache "$cache" # fills the cache
  for i in $(seq "$runs"); do
    # the cache holds every file as it is now (the previous run wrote it): an unchanged warm run, then
    # a fresh edit and a warm run that sees it
    scan "$copy" /dev/null --cache "$cache"
    warm+=("$T")
    printf '// bench/run.sh edit %s %s\n' "$i" "$EPOCHREALTIME" >>"$file"
    scan "$copy" "$work/report-edited.txt" --cache "$cache"
    edited+=("$T")
    rss+=("$M")
    er+=("$(ratio "$T" "${warm[-1]}")")
    note "$name: warm unchanged ${warm[-1]} s, after an edit $T s"
  done
  scan "$copy" "$work/report-cold.txt" # the report a cold scan gives on the same (edited) files
  local wm em r result
  wm=$(median "${warm[@]}")
  em=$(median "${edited[@]}")
  r=$(median "${er[@]}")
  result=$(at_most "$r" 1.5)
  cmp -s "$work/report-edited.txt" "$work/report-cold.txt" || result="MISS (report differs from a cold scan)"
  row "$name, warm --cache, one lock-using file edited" "$lines" "$em" "warm unchanged $(printf '%.2f' "$wm") s" \
    "$r" "$(per_second "$lines" "$em")" "$(max "${rss[@]}")" "at most 1.5x warm unchanged" "$result"
  rm -rf "$copy" "$cache"
}

# bench_scale LABEL --long-method|--long-script N: the scaling row of one long method or script (issue
# 27): the analysis time at N and at 4N statements, each the CLI median less the median of a scan of
# an empty folder (the JVM's start and the walk), and their ratio. Linear work gives 4x, quadratic 16x;
# the goal is at most 5x. Both reports must be those of a complete analysis (no notification that a
# budget left something out).
bench_scale() {
  local label="$1" flag="$2" n="$3" empty="$work/empty" t_small=() t_large=() t_empty=() peak=0 i
  mkdir -p "$empty"
  python3 "$here/generate.py" "$work/scale-1" "$flag" "$n"
  python3 "$here/generate.py" "$work/scale-4" "$flag" $((4 * n))
  for ((i = 0; i < runs; i++)); do
    scan "$empty" "$work/scale-empty.json"
    t_empty+=("$T")
    scan "$work/scale-1" "$work/scale-1.json"
    t_small+=("$T")
    scan "$work/scale-4" "$work/scale-4.json"
    t_large+=("$T")
    [ "$M" -gt "$peak" ] && peak=$M
  done
  if grep -q '"method-budget"\|"file-too-large"\|"java-too-deep"' "$work/scale-1.json" "$work/scale-4.json"; then
    die "$label: a budget left part of the analysis out; the scaling row would not measure it"
  fi
  local e s l r
  e=$(median "${t_empty[@]}")
  s=$(awk -v t="$(median "${t_small[@]}")" -v e="$e" 'BEGIN { printf "%.3f", (t - e > 0.001 ? t - e : 0.001) }')
  l=$(awk -v t="$(median "${t_large[@]}")" -v e="$e" 'BEGIN { printf "%.3f", (t - e > 0.001 ? t - e : 0.001) }')
  r=$(ratio "$l" "$s")
  row "$label, $((4 * n)) statements against $n (analysis time: CLI less an empty scan)" \
      "$(wc -l < "$(find "$work/scale-4" -type f \( -name '*.java' -o -name '*.sql' \) | head -n 1)")" \
      "$l" "$n statements $(printf '%.2f' "$s") s" "$r" "-" "$peak" "at most 5x (linear: 4x)" "$(at_most "$r" 5)"
  rm -rf "$work/scale-1" "$work/scale-4"
}

# ---------------------------------------------------------------- the rows

# goal per repository: at most 4x grep without a lock user, 8x with; the edited-file row: --edit NAME,
# else concord, else the first named repository with a lock user (decided before anything runs)
goals=() edit_name="" edit_dir=""
for i in "${!repo_names[@]}"; do
  name="${repo_names[$i]}"
  if grep -rqI --include='*.java' -i 'pg_.*advisory' "${repo_dirs[$i]}"; then
    goals+=(8)
    pick=0
    if [ -n "$edit" ]; then
      [ "$edit" = "$name" ] && pick=1
    elif [ -z "$edit_dir" ] || { [ "$name" = concord ] && [ "$edit_name" != concord ]; }; then
      pick=1
    fi
    if [ "$pick" = 1 ]; then
      edit_name="$name"
      edit_dir="${repo_dirs[$i]}"
    fi
  else
    goals+=(4)
  fi
done
[ -z "$edit" ] || [ "$edit_name" = "$edit" ] || die "--edit $edit: no named repository of that name with a lock user"

for i in "${!repo_names[@]}"; do
  bench_tree "${repo_names[$i]}" "${repo_dirs[$i]}" "${goals[$i]}"
done

if [ "$synthetic" = 1 ]; then
  note "generating the synthetic trees"
  python3 "$here/generate.py" "$work/synthetic" --files 9200 --lock-share 0.05
  bench_tree "synthetic 1.5 M lines, 5% lock users" "$work/synthetic" 7
  mkdir -p "$work/parse-only"
  "$javac_bin" -d "$work/parse-only" -cp "$jar" "$here/ParseOnly.java"
  python3 "$here/generate.py" "$work/all" --files 2000 --lock-share 1.0 --helper-share 0
  bench_tree "synthetic, every file a lock user" "$work/all" lines/s parse
  rm -rf "$work/all"
fi
if [ "$synthetic" != 0 ]; then
  bench_scale "one Java method" --long-method 1250
  bench_scale "one SQL script" --long-script 1000
fi
[ -z "$edit_dir" ] || bench_edit "$edit_name" "$edit_dir"

echo "bench/run.sh on $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo '?'), $(date '+%Y-%m-%d %H:%M'), $(nproc) cores, runs=$runs, median wall time per row:"
echo
echo "| tree | lines | CLI median | reference | ratio | lines/s | peak RSS | goal | result |"
echo "|---|---|---|---|---|---|---|---|---|"
printf '%s\n' "${rows[@]}"
echo
awk -v s="$started" -v e="$EPOCHREALTIME" 'BEGIN { printf "(the benchmark took %.0f s)\n", e - s }'
