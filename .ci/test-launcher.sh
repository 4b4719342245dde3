#!/usr/bin/env bash
# Checks bin/pg-advisory-lint (README "Quick start"):
#   - on a tree without a built jar, the first run shows Maven's progress on standard error (each module
#     built, BUILD SUCCESS) and standard output carries the report alone: valid SARIF; its build takes
#     the mirror of a settings file given through MAVEN_ARGS;
#   - nothing of the JVM's reaches standard output when the class-data-sharing archive beside the jar does
#     not fit: garbage in the archive, an archive made for another jar (the JVM warns; the warning must go
#     to standard error), an archive older than a rebuilt jar (not used at all, so no warning);
#   - all of it in a checkout whose path holds spaces and non-ASCII letters, the launcher called through a
#     relative symbolic link from another such folder, the archive really used there (-Xshare:on);
#   - then the same checkout moved below a folder named with an emoji (a character Java cannot have on
#     its class path, JDK-8258246), and below a folder named with a colon (a class-path separator): the
#     jar it built runs from the launcher's copy, nothing is rebuilt.
# Works on a copy of the source tree (no target/, no .git) in a temporary directory; about a minute.
set -euo pipefail
cd "$(dirname "$0")/.."

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "test-launcher: $*" >&2; exit 1; }
# a space, Latin and CJK letters: every expansion in the launcher must be quoted (issue 27)
copy="$work/check out/ünïcødé 日本/src"
mkdir -p "$copy"
tar -cf - --exclude=./.git --exclude=target . | tar -xf - -C "$copy"
# called as a user's PATH would: through a relative symbolic link in another folder with a space
mkdir "$work/bin dir"
ln -s "../check out/ünïcødé 日本/src/bin/pg-advisory-lint" "$work/bin dir/pg advisory lint"
launcher="$work/bin dir/pg advisory lint"

# stdout must be one SARIF document; the exit code 1 (the example has findings).
scan() {
  local name=$1
  set +e
  "$launcher" scan "$copy/examples/invoice-service" --format sarif \
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

# 1. First run: the launcher builds the jar and shows Maven's progress on stderr. Its build is ./mvnw, so
#    Maven's own settings apply: a mirror in a settings file given through MAVEN_ARGS (Maven 3.9), as a
#    repository manager behind a firewall needs (README "Quick start"), here the outer local repository
#    served as a file:// mirror to an empty local repository.
cat >"$work/settings.xml" <<EOF
<settings><mirrors><mirror><id>launcher-mirror</id><mirrorOf>*</mirrorOf>
<url>file://${HOME}/.m2/repository</url></mirror></mirrors></settings>
EOF
MAVEN_ARGS="-s $work/settings.xml -Dmaven.repo.local=$work/m2" scan first-build
grep -rqs --include=_remote.repositories 'launcher-mirror' "$work/m2" \
  || fail "the launcher's build did not download through the mirror of MAVEN_ARGS' settings file"
echo "test-launcher: first build: dependencies came through the settings file's mirror ($(du -sm "$work/m2" | cut -f1) MB)"
jar=$copy/cli/target/pg-advisory-lint.jar
jsa=$copy/cli/target/pg-advisory-lint.jsa
[ -f "$jar" ] && [ -f "$jsa" ] || fail "the first run did not build $jar and its archive"
grep -q '^\[INFO\] Building pg-advisory-lint' "$work/first-build.err" || fail "no module progress on stderr"
grep -q '^\[INFO\] BUILD SUCCESS' "$work/first-build.err" || fail "no BUILD SUCCESS on stderr"
echo "test-launcher: first build: $(grep -c '^\[INFO\]' "$work/first-build.err") progress lines on stderr"

# 1b. The archive the build wrote is used from a path with spaces: -Xshare:on makes the JVM fail when it
#     cannot map it (the launcher once split its path into two arguments: exit 1, "Could not find or load
#     main class").
JAVA_OPTS=-Xshare:on scan archive-used
if grep -q 'is missing; building it' "$work/archive-used.err"; then fail "the second run built the jar again"; fi

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

# 5. The checkout below a folder named with an emoji. Java cannot start a jar there (JDK-8258246): the
#    launcher runs a copy in its folder under TMPDIR (here a path with a space too). mv keeps the times,
#    so the jar stays newer than the sources and nothing is rebuilt.
mkdir -p "$work/lock 🔒"
mv "$work/check out/ünïcødé 日本" "$work/lock 🔒/ünïcødé 日本"
copy="$work/lock 🔒/ünïcødé 日本/src"
rm "$work/bin dir/pg advisory lint"
ln -s "../lock 🔒/ünïcødé 日本/src/bin/pg-advisory-lint" "$work/bin dir/pg advisory lint"
mkdir "$work/tmp dir"
TMPDIR="$work/tmp dir" scan emoji-path
if grep -q 'is missing; building it' "$work/emoji-path.err"; then fail "the moved checkout was built again"; fi
ls "$work/tmp dir/pg-advisory-lint-$(id -u)/"pg-advisory-lint-*.jar >/dev/null 2>&1 \
  || fail "no copy of the jar in TMPDIR for a checkout under an emoji"

# 6. The checkout below a folder whose name holds a colon: java -jar would split the jar's path on the
#    class path (ClassNotFoundException, exit 1 read as "findings"); the launcher runs its copy.
mkdir -p "$work/a:b"
mv "$work/lock 🔒/ünïcødé 日本" "$work/a:b/ünïcødé 日本"
copy="$work/a:b/ünïcødé 日本/src"
rm "$work/bin dir/pg advisory lint"
ln -s "../a:b/ünïcødé 日本/src/bin/pg-advisory-lint" "$work/bin dir/pg advisory lint"
rm -rf "$work/tmp dir"/*
TMPDIR="$work/tmp dir" scan colon-path
if grep -q 'is missing; building it' "$work/colon-path.err"; then fail "the moved checkout was built again"; fi
ls "$work/tmp dir/pg-advisory-lint-$(id -u)/"pg-advisory-lint-*.jar >/dev/null 2>&1 \
  || fail "no copy of the jar in TMPDIR for a checkout under a folder named with a colon"

echo "test-launcher: OK"
