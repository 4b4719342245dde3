#!/usr/bin/env bash
# Step of action.yml: runs `pg-advisory-lint scan` with the fetched jar, writes SARIF, prints the text
# report in the job log and the Markdown summary into $GITHUB_STEP_SUMMARY.
#
# Environment: PGAL_JAR (the jar fetch.sh wrote), PGAL_PATH (paths to scan, one per line; default .),
# PGAL_CONFIG, PGAL_BASELINE (optional files), PGAL_FAIL_ON (error|warning|note|none; default warning),
# PGAL_FAIL_ON_INCOMPLETE (true, the default: a file, method or rule left out of the analysis fails too),
# PGAL_SARIF_FILE (default pg-advisory-lint.sarif), PGAL_ANNOTATIONS (true: also workflow-command
# annotations), PGAL_ARGS (more options, split at white space; quotes are not interpreted).
# Exit code: 0 when the scan ran, whether or not it found something (the upload step comes next; the
# verdict step fails the job on findings); the scan's own code on a usage, input or internal error
# (2, 3). Outputs: exit-code (the scan's) and sarif-file (when written).
set -euo pipefail

fail() { echo "::error title=pg-advisory-lint::$*"; echo "pg-advisory-lint scan: $*" >&2; exit 2; }

jar=${PGAL_JAR:-}
[ -f "$jar" ] || fail "no jar to run (PGAL_JAR=${jar:-unset}); the fetch step did not run?"
sarif=${PGAL_SARIF_FILE:-pg-advisory-lint.sarif}

args=(scan)
while IFS= read -r path; do
  [ -z "$path" ] || args+=("$path")
done <<<"${PGAL_PATH:-.}"
args+=(--fail-on "${PGAL_FAIL_ON:-warning}")
case ${PGAL_FAIL_ON_INCOMPLETE:-true} in
  true) args+=(--fail-on-incomplete) ;;
  false) args+=(--no-fail-on-incomplete) ;;
  *) fail "fail-on-incomplete must be true or false, not ${PGAL_FAIL_ON_INCOMPLETE}" ;;
esac
[ -z "${PGAL_CONFIG:-}" ] || args+=(--config "$PGAL_CONFIG")
[ -z "${PGAL_BASELINE:-}" ] || args+=(--baseline "$PGAL_BASELINE")
args+=(--format text --output - --format sarif --output "$sarif")
summary=""
if [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then
  summary=$(mktemp)
  args+=(--format markdown --output "$summary")
fi
if [ "${PGAL_ANNOTATIONS:-false}" = true ]; then
  annotations=$(mktemp)
  args+=(--format github --output "$annotations")
fi
if [ -n "${PGAL_ARGS:-}" ]; then
  set -f
  # shellcheck disable=SC2206 # split at white space on purpose, without globbing
  args+=($PGAL_ARGS)
  set +f
fi

java=java
[ -z "${JAVA_HOME:-}" ] || java=$JAVA_HOME/bin/java
echo "pg-advisory-lint scan: java -jar $(basename "$jar") ${args[*]}" >&2
set +e
"$java" -jar "$jar" "${args[@]}"
code=$?
set -e

[ -z "$summary" ] || { [ ! -s "$summary" ] || cat "$summary" >>"$GITHUB_STEP_SUMMARY"; rm -f "$summary"; }
# workflow commands must start a line of the step's output: print them after the report
[ -z "${annotations:-}" ] || { cat "$annotations"; rm -f "$annotations"; }
if [ -n "${GITHUB_OUTPUT:-}" ]; then
  echo "exit-code=$code" >>"$GITHUB_OUTPUT"
  [ ! -f "$sarif" ] || echo "sarif-file=$sarif" >>"$GITHUB_OUTPUT"
fi
case $code in
  0 | 1) exit 0 ;;
  *) echo "::error title=pg-advisory-lint::the scan stopped with exit code $code (see the log above)"; exit "$code" ;;
esac
