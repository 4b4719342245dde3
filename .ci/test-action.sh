#!/usr/bin/env bash
# Tests the GitHub Action (action.yml, steps in .github/action/) here: deploys the CLI into a temporary
# file Maven repository with ./mvnw deploy, as a release does (see .ci/check-release-bundle.sh), once as
# the SNAPSHOT this tree is and once as a release version, then runs the action's steps with
# .ci/action-runner.py, which follows action.yml as a GitHub runner would (setup-java and upload-sarif
# cannot run here: their inputs are checked instead), against a copy of the bundled example:
#   1. the SNAPSHOT, fetched over HTTP (a local server): exit 1 (the example has findings at or above
#      warning), the SARIF uploaded, the text report in the log and the Markdown in the step summary;
#   2. the release version from a file:// URL with fail-on none, upload-sarif false, annotations true:
#      exit 0, no upload, workflow commands printed;
#   3. a baseline of every finding and args --show-suppressed: exit 0, every SARIF result suppressed;
#   4. a jar that does not match its published .sha1: the fetch step fails, nothing is scanned;
#   5. a repository without any checksum: the fetch step fails.
# Installs nothing into ~/.m2 (maven.install.skip). About 3 minutes.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd -P)

work=$(mktemp -d)
server=""
cleanup() { [ -z "$server" ] || kill "$server" 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT
fail() { echo "test-action: $*" >&2; exit 1; }
repo=$work/maven-repository
copy=$work/src
mkdir "$copy"
tar -cf - --exclude=./.git --exclude=target . | tar -xf - -C "$copy"

snapshot=$(sed -n 's:^  <version>\(.*\)</version>$:\1:p' pom.xml | head -n 1)
case $snapshot in *-SNAPSHOT) ;; *) fail "the root POM's version $snapshot is not a SNAPSHOT" ;; esac
release=${snapshot%-SNAPSHOT}
export RELEASE=$release

deploy() {
  echo "test-action: ./mvnw deploy -pl cli -am ($1) into $repo" >&2
  if ! (cd "$copy" && ./mvnw -B -ntp deploy -pl cli -am -DskipTests -Dmaven.install.skip=true \
      -DaltDeploymentRepository="local::file://$repo") >"$work/deploy-$1.log" 2>&1; then
    tail -40 "$work/deploy-$1.log" >&2
    fail "the deploy of $1 failed"
  fi
}
deploy "$snapshot"
# The same tree as a release version: the module POMs' version changed, nothing else.
for pom in "$copy"/pom.xml "$copy"/*/pom.xml; do
  sed -i "s:<version>$snapshot</version>:<version>$release</version>:" "$pom"
done
deploy "$release"
cli=$repo/io/github/pgadvisorylint/pg-advisory-lint-cli
ls "$cli/$snapshot"/pg-advisory-lint-cli-*-all.jar "$cli/$release/pg-advisory-lint-cli-$release-all.jar.sha1" >/dev/null

# The repository over HTTP, as Maven Central serves it.
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
python3 -m http.server "$port" --bind 127.0.0.1 --directory "$repo" >"$work/http.log" 2>&1 &
server=$!
for _ in $(seq 50); do
  curl -fs "http://127.0.0.1:$port/" >/dev/null 2>&1 && break
  sleep 0.2
done

# Runs the action in a fresh copy of the example; $1 names the case, the rest are inputs.
run_action() {
  local name=$1
  shift
  local workspace=$work/ws-$name
  rm -rf "$workspace"
  cp -r examples/invoice-service "$workspace"
  [ -z "${baseline_file:-}" ] || cp "$baseline_file" "$workspace/pg-advisory-lint-baseline.json"
  set +e
  python3 "$root/.ci/action-runner.py" "$root" "$workspace" "$work/$name.json" "$@" \
    >"$work/$name.out" 2>"$work/$name.err"
  code=$?
  set -e
  echo "test-action: $name: exit $code" >&2
}
# Checks a case's result: $1 case, then python assertions over `result`, `sarif` (or None) and `out`.
check() {
  python3 - "$work/$1.json" "$work/ws-$1" "$work/$1.out" "$1" "$2" <<'PY' || {
import json, os, sys
result = json.load(open(sys.argv[1]))
sarif_path = os.path.join(sys.argv[2], "pg-advisory-lint.sarif")
sarif = json.load(open(sarif_path)) if os.path.exists(sarif_path) else None
out = open(sys.argv[3]).read()
steps = {s["name"]: s for s in result["steps"]}
def ran(name): return steps[name]["ran"]
exec(sys.argv[5])
print(f"test-action: {sys.argv[4]}: OK")
PY
    cat "$work/$1.err" >&2
    fail "$1: unexpected result"
  }
}

# 1. SNAPSHOT over HTTP, defaults: findings fail the action after the upload.
run_action snapshot-http "version=$snapshot" "repository-url=http://127.0.0.1:$port/"
[ "$code" -eq 1 ] || { cat "$work/snapshot-http.err" >&2; fail "snapshot-http: exit $code, expected 1"; }
check snapshot-http '
assert ran("Set up Java") and steps["Set up Java"]["with"] == {"distribution": "temurin", "java-version": "17"}
assert steps["Fetch pg-advisory-lint"]["exit"] == 0
assert steps["Fetch pg-advisory-lint"]["outputs"]["jar"].endswith("-all.jar")
assert steps["Scan"]["exit"] == 0 and steps["Scan"]["outputs"]["exit-code"] == "1"
up = steps["Upload SARIF to code scanning"]
assert up["ran"] and up["exit"] == 0, up
assert up["with"] == {"sarif_file": "pg-advisory-lint.sarif", "category": "pg-advisory-lint"}, up["with"]
assert steps["Fail on findings"]["exit"] == 1 and result["exit"] == 1
assert result["outputs"]["exit-code"] == "1" and result["outputs"]["sarif-file"] == "pg-advisory-lint.sarif"
results = sarif["runs"][0]["results"]
assert any(r["ruleId"] == "lock-in-limit-query" and r["level"] == "error" for r in results), results
assert all(not loc["physicalLocation"]["artifactLocation"]["uri"].startswith("/")
           for r in results for loc in r["locations"])
assert "error [lock-in-limit-query]" in out, out
assert "## pg-advisory-lint" in result["step_summary"]
'
grep -q 'GET /io/github/pgadvisorylint/pg-advisory-lint-cli/.*-all.jar.sha1' "$work/http.log" \
  || fail "snapshot-http: the jar's checksum was not fetched over HTTP"

# 2. Release version from a file:// URL; report without failing, no upload, annotations.
run_action release-file "version=$release" "repository-url=file://$repo" fail-on=none upload-sarif=false \
  annotations=true setup-java=false
[ "$code" -eq 0 ] || { cat "$work/release-file.err" >&2; fail "release-file: exit $code, expected 0"; }
check release-file '
assert not ran("Set up Java") and not ran("Upload SARIF to code scanning")
assert steps["Fetch pg-advisory-lint"]["outputs"]["jar"].endswith("pg-advisory-lint-cli-" + os.environ["RELEASE"] + "-all.jar")
assert steps["Scan"]["outputs"]["exit-code"] == "0" and steps["Fail on findings"]["exit"] == 0
assert sarif["runs"][0]["results"]
assert "::error file=src/main/java/" in out, out
'

# 3. A baseline of every finding, extra args: nothing new, every result kept as suppressed.
jar=$(PGAL_VERSION=$release PGAL_REPOSITORY_URL=file://$repo PGAL_DEST_DIR=$work/jar .github/action/fetch.sh)
# written in a copy outside any git repository, as the workspaces are, so that paths have the same base
cp -r examples/invoice-service "$work/baseline-src"
(cd "$work/baseline-src" && java -jar "$jar" scan . --write-baseline "$work/baseline.json" --fail-on none \
  >/dev/null 2>&1)
baseline_file=$work/baseline.json run_action baseline "version=$release" "repository-url=file://$repo" \
  baseline=pg-advisory-lint-baseline.json args=--show-suppressed
[ "$code" -eq 0 ] || { cat "$work/baseline.err" >&2; fail "baseline: exit $code, expected 0"; }
check baseline '
results = sarif["runs"][0]["results"]
assert results and all(r.get("suppressions") for r in results), results
assert steps["Upload SARIF to code scanning"]["ran"] and steps["Fail on findings"]["exit"] == 0
'

# 4. A jar that is not the one its checksum describes.
cp -r "$repo" "$work/tampered"
tampered=$work/tampered/io/github/pgadvisorylint/pg-advisory-lint-cli/$release/pg-advisory-lint-cli-$release-all.jar
printf 'x' >>"$tampered"
run_action tampered "version=$release" "repository-url=file://$work/tampered"
[ "$code" -ne 0 ] || fail "tampered: the action passed with a jar that does not match its checksum"
check tampered '
assert steps["Fetch pg-advisory-lint"]["exit"] != 0
assert not ran("Scan") and not ran("Upload SARIF to code scanning") and not ran("Fail on findings")
assert sarif is None
'
grep -q 'sha1 checksum mismatch' "$work/tampered.err" || fail "tampered: no checksum message"

# 5. No checksum published at all.
cp -r "$repo" "$work/unsummed"
rm -f "$work"/unsummed/io/github/pgadvisorylint/pg-advisory-lint-cli/"$release"/*.sha1 \
  "$work"/unsummed/io/github/pgadvisorylint/pg-advisory-lint-cli/"$release"/*.sha256 \
  "$work"/unsummed/io/github/pgadvisorylint/pg-advisory-lint-cli/"$release"/*.sha512
run_action unsummed "version=$release" "repository-url=file://$work/unsummed"
[ "$code" -ne 0 ] || fail "unsummed: the action passed without a checksum"
grep -q 'no .sha512, .sha256 or .sha1 checksum' "$work/unsummed.err" || fail "unsummed: no message"

echo "test-action: OK"
