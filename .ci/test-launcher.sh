#!/usr/bin/env bash
# Checks bin/pg-advisory-lint (README "Quick start"):
#   - on a tree without a built jar, the first run shows Maven's progress on standard error (each module
#     built, BUILD SUCCESS) and standard output carries the report alone: valid SARIF;
#   - nothing of the JVM's reaches standard output when the class-data-sharing archive beside the jar does
#     not fit: garbage in the archive, an archive made for another jar (the JVM warns; the warning must go
#     to standard error), an archive older than a rebuilt jar (not used at all, so no warning).
# Works on a copy of the source tree (no target/, no .git) in a temporary directory; about a minute.
set -euo pipefail
cd "$(dirname "$0")/.."

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "test-launcher: $*" >&2; exit 1; }
copy=$work/src
mkdir "$copy"
tar -cf - --exclude=./.git --exclude=target . | tar -xf - -C "$copy"

# stdout must be one SARIF document; the exit code 1 (the example has findings).
scan() {
  local name=$1
  set +e
  "$copy/bin/pg-advisory-lint" scan "$copy/examples/invoice-service" --format sarif \
    >"$work/$name.out" 2>"$work/$name.err"
  local code=$?
  set -e
  [ "$code" -eq 1 ] || { cat "$work/$name.err" >&2; fail "$name: exit code $code, expected 1"; }
  python3 - "$work/$name.out" "$name" <<'PY' || { head -c 600 "$work/$name.out" >&2; fail "$name: stdout is not SARIF"; }
import json, sys
doc = json.load(open(sys.argv[1], encoding="utf-8"))
assert doc["version"] == "2.1.0" and doc["runs"][0]["results"], "no SARIF run with results"
print(f"test-launcher: {sys.argv[2]}: stdout is SARIF with {len(doc['runs'][0]['results'])} results")
PY
}

# 1. First run: the launcher builds the jar and shows Maven's progress on stderr.
scan first-build
jar=$copy/cli/target/pg-advisory-lint.jar
jsa=$copy/cli/target/pg-advisory-lint.jsa
[ -f "$jar" ] && [ -f "$jsa" ] || fail "the first run did not build $jar and its archive"
grep -q '^\[INFO\] Building pg-advisory-lint' "$work/first-build.err" || fail "no module progress on stderr"
grep -q '^\[INFO\] BUILD SUCCESS' "$work/first-build.err" || fail "no BUILD SUCCESS on stderr"
echo "test-launcher: first build: $(grep -c '^\[INFO\]' "$work/first-build.err") progress lines on stderr"

# 2. Garbage in the archive: the JVM refuses it; stdout stays the report.
chmod u+w "$jsa"
head -c 65536 /dev/urandom >"$jsa"
scan garbage-archive

# 3. An archive recorded for another jar (a copy with one more entry, elsewhere): the JVM warns that it
#    cannot use it. The warning must reach stderr, not stdout.
mkdir "$work/other"
cp "$jar" "$work/other/other.jar"
(cd "$work/other" && echo marker >marker.txt && jar uf other.jar marker.txt)
java -XX:ArchiveClassesAtExit="$work/other/other.jsa" -jar "$work/other/other.jar" --version >/dev/null 2>&1
[ -s "$work/other/other.jsa" ] || fail "could not make an archive for another jar"
rm -f "$jsa"
cp "$work/other/other.jsa" "$jsa"
scan foreign-archive
grep -q 'warning\]\[cds' "$work/foreign-archive.err" \
  || fail "the JVM did not warn about the foreign archive on stderr (stderr: $(cat "$work/foreign-archive.err"))"
echo "test-launcher: foreign archive: the JVM's warning went to stderr: $(grep -m1 'warning\]\[cds' "$work/foreign-archive.err")"

# 4. A jar rebuilt after its archive: the launcher leaves the archive out, so the JVM has nothing to say.
touch -d '2000-01-01' "$jsa"
scan stale-archive
if grep -q '\[cds' "$work/stale-archive.err"; then fail "an archive older than the jar was used"; fi

echo "test-launcher: OK"
