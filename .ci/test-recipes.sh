#!/usr/bin/env bash
# Tries the CI recipes of docs/ci.md as far as they run without the hosted services (docs/ci.md, "How the
# recipes were tried"), on reports of the bundled example plus a file that cannot be parsed (a located
# notification):
#   - "Getting the CLI in any CI": the snippet of docs/ci.md, run against a Maven repository layout served over
#     HTTP (the host replaced), then again with a wrong .sha1, which must fail;
#   - Jenkins Warnings NG: the Checkstyle XML and the SARIF read by the parsers Warnings NG uses
#     (analysis-model from Maven Central; .ci/recipes/WarningsNgParse.java compares them with the JSON report);
#   - SonarQube and every SARIF consumer: the SARIF validated by Microsoft's SARIF Multitool (npm), SARIF and
#     GitHub rule sets, no error or warning; a broken SARIF must give an error (the validator works);
#   - GitLab: docs/gitlab-code-quality.jq on the JSON report, checked for what GitLab's Code Quality reads;
#   - SonarQube: docs/sonarqube-generic-issues.jq on the JSON report, checked for SonarQube's generic issue format;
#   - reviewdog: the Checkstyle XML checked against what reviewdog's Checkstyle parser decodes.
# Needs java, python3, jq, curl and npm (.ci/run installs them). About a minute once the downloads are cached.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd -P)

work=$(mktemp -d)
server=""
cleanup() { [ -z "$server" ] || kill "$server" 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT
fail() { echo "test-recipes: $*" >&2; exit 1; }
for tool in java python3 jq curl npm; do
  command -v "$tool" >/dev/null 2>&1 || fail "$tool is missing (.ci/run installs it)"
done

# The CLI (built by the launcher when missing) and the reports.
./bin/pg-advisory-lint --version >/dev/null
jar=$root/cli/target/pg-advisory-lint.jar
project=$work/project
cp -r examples/invoice-service "$project"
# a lock call in a file that cannot be parsed: a java-parse-error notification located in it
printf '%s\n' 'class Unfinished {' '  void f() { String q = "SELECT pg_advisory_lock(1)"; int x = ; }' \
  >"$project/src/main/java/Unfinished.java"
(cd "$project" && java -jar "$jar" scan . --fail-on none --format checkstyle --output "$work/report.xml" \
  --format sarif --output "$work/report.sarif" --format json --output "$work/report.json" 2>/dev/null)
[ "$(jq '.findings | length' "$work/report.json")" -gt 0 ] || fail "the example gave no finding"
[ "$(jq '.notifications | length' "$work/report.json")" -gt 0 ] || fail "the unparsable file gave no notification"

# --- Getting the CLI: the snippet of docs/ci.md against a repository layout served over HTTP.
snippet=$(awk '/^#+ Getting the CLI in any CI$/ { section = 1 } section && /^```sh$/ { block = 1; next }
               block && /^```$/ { exit } block { print }' docs/ci.md)
[ -n "$snippet" ] || fail "no snippet under 'Getting the CLI in any CI' in docs/ci.md"
version=$(printf '%s\n' "$snippet" | sed -n 's/^version=//p')
repo=$work/maven-repository
if ! ./mvnw -B -ntp -N deploy:deploy-file -Dfile="$jar" -DgroupId=io.github.pgadvisorylint \
    -DartifactId=pg-advisory-lint-cli -Dversion="$version" -Dclassifier=all -Dpackaging=jar -DgeneratePom=true \
    -Durl="file://$repo" >"$work/deploy.log" 2>&1; then
  tail -30 "$work/deploy.log" >&2
  fail "deploy:deploy-file failed"
fi
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
python3 -m http.server "$port" --bind 127.0.0.1 --directory "$repo" >"$work/http.log" 2>&1 &
server=$!
for _ in $(seq 50); do curl -fs "http://127.0.0.1:$port/" >/dev/null 2>&1 && break; sleep 0.2; done
local_snippet=${snippet//https:\/\/repo1.maven.org\/maven2/http://127.0.0.1:$port}
[ "$local_snippet" != "$snippet" ] || fail "the snippet does not download from Maven Central's URL"
mkdir "$work/get" "$work/get-bad"
(cd "$work/get" && bash -eo pipefail -c "$local_snippet") >"$work/get.log" 2>&1 \
  || { cat "$work/get.log" >&2; fail "the download snippet of docs/ci.md failed"; }
grep -q ': OK$' "$work/get.log" && grep -q '^pg-advisory-lint ' "$work/get.log" \
  || { cat "$work/get.log" >&2; fail "the snippet did not check the checksum and run the jar"; }
echo "test-recipes: getting the CLI: downloaded, $(grep ': OK$' "$work/get.log")"
echo 0000000000000000000000000000000000000000 \
  >"$repo/io/github/pgadvisorylint/pg-advisory-lint-cli/$version/pg-advisory-lint-cli-$version-all.jar.sha1"
if (cd "$work/get-bad" && bash -eo pipefail -c "$local_snippet") >"$work/get-bad.log" 2>&1; then
  fail "the download snippet of docs/ci.md passed with a wrong .sha1"
fi
echo "test-recipes: getting the CLI: a wrong .sha1 stops the snippet"

# --- Jenkins Warnings NG: its parsers, from Maven Central.
mkdir "$work/warnings-ng"
cat >"$work/warnings-ng/pom.xml" <<'EOF'
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>local.recipes</groupId>
  <artifactId>warnings-ng-parsers</artifactId>
  <version>1</version>
  <dependencies>
    <dependency>
      <groupId>edu.hm.hafner</groupId>
      <artifactId>analysis-model</artifactId>
      <version>13.18.0</version>
    </dependency>
  </dependencies>
</project>
EOF
if ! ./mvnw -B -ntp -q -f "$work/warnings-ng/pom.xml" dependency:build-classpath \
    -Dmdep.outputFile="$work/warnings-ng/classpath.txt" >"$work/warnings-ng.log" 2>&1; then
  tail -30 "$work/warnings-ng.log" >&2
  fail "could not resolve analysis-model"
fi
java -cp "$(cat "$work/warnings-ng/classpath.txt")" .ci/recipes/WarningsNgParse.java \
  "$work/report.xml" "$work/report.sarif" "$work/report.json" || fail "Warnings NG reads the reports differently"

# --- SARIF Multitool (npm): the SARIF and GitHub rule sets.
npm install --silent --no-audit --no-fund --prefix "$work/npm" @microsoft/sarif-multitool-linux@5.7.0 >/dev/null
multitool=$work/npm/node_modules/@microsoft/sarif-multitool-linux/Sarif.Multitool
chmod u+x "$multitool"
validate() { # $1 SARIF file, $2 validation log; prints the results at error or warning level
  DOTNET_SYSTEM_GLOBALIZATION_INVARIANT=1 "$multitool" validate --rule-kind "Sarif;Gh" \
    --level "Error;Warning;Note" --output "$2" "$1" >"$2.console" 2>&1 \
    || { cat "$2.console" >&2; fail "the SARIF Multitool did not run on $1"; }
  jq -r '.runs[0].results[] | select(.level == "error" or .level == "warning")
         | "\(.level) \(.ruleId) \(.message.arguments // [] | join(" | "))"' "$2"
}
jq 'del(.runs[0].tool.driver.name)' "$work/report.sarif" >"$work/broken.sarif"
[ -n "$(validate "$work/broken.sarif" "$work/broken-validation.sarif")" ] \
  || fail "the SARIF Multitool found nothing wrong in a SARIF without tool.driver.name"
problems=$(validate "$work/report.sarif" "$work/validation.sarif")
[ -z "$problems" ] || fail "the SARIF Multitool rejects the SARIF: $problems"
echo "test-recipes: SARIF Multitool: no error or warning ($(jq '.runs[0].results | length' "$work/validation.sarif") notes)"

# --- GitLab Code Quality: the jq program of docs/ci.md's GitLab recipe.
jq -f docs/gitlab-code-quality.jq "$work/report.json" >"$work/gl-code-quality-report.json"
python3 - "$work/gl-code-quality-report.json" "$work/report.json" <<'PY' || fail "the GitLab Code Quality report is not what GitLab reads"
import json, sys
issues, report = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
expected = [f for f in report["findings"] if f["suppression"] is None]
assert isinstance(issues, list) and len(issues) == len(expected), (len(issues), len(expected))
for issue in issues:
    assert isinstance(issue["description"], str) and issue["description"], issue
    assert isinstance(issue["check_name"], str) and issue["check_name"], issue
    assert issue["severity"] in ("info", "minor", "major", "critical", "blocker"), issue
    assert isinstance(issue["location"]["path"], str) and not issue["location"]["path"].startswith("/"), issue
    assert isinstance(issue["location"]["lines"]["begin"], int) and issue["location"]["lines"]["begin"] >= 1, issue
fingerprints = [i["fingerprint"] for i in issues]
assert all(isinstance(f, str) and f for f in fingerprints) and len(set(fingerprints)) == len(fingerprints), fingerprints
print(f"test-recipes: GitLab Code Quality: {len(issues)} issues, unique fingerprints")
PY

# --- SonarQube generic issue import: the jq program of docs/ci.md's SonarQube recipe.
jq -f docs/sonarqube-generic-issues.jq "$work/report.json" >"$work/sonar-issues.json"
python3 - "$work/sonar-issues.json" "$work/report.json" "$root" <<'PY' || fail "the SonarQube generic issue report is not what SonarQube reads"
import json, os, sys
doc, report, root = json.load(open(sys.argv[1])), json.load(open(sys.argv[2])), sys.argv[3]
expected = [f for f in report["findings"] if f["suppression"] is None]
rules = {r["id"]: r for r in doc["rules"]}
assert set(rules) == {f["ruleId"] for f in expected}, (set(rules), expected)
for r in doc["rules"]:
    for field in ("id", "name", "description", "engineId", "cleanCodeAttribute"):
        assert isinstance(r[field], str) and r[field], (field, r)
    assert r["cleanCodeAttribute"] == "LOGICAL" and r["engineId"] == "pg-advisory-lint", r
    assert r["impacts"] and all(i["softwareQuality"] == "RELIABILITY" and i["severity"] in ("HIGH", "MEDIUM", "LOW")
                                for i in r["impacts"]), r
    page = r["description"].rsplit("/blob/main/", 1)[1]
    assert os.path.isfile(os.path.join(root, page)), f"no rule page {page}"
assert len(doc["issues"]) == len(expected), (len(doc["issues"]), len(expected))
for issue in doc["issues"]:
    assert issue["ruleId"] in rules, issue
    loc = issue["primaryLocation"]
    assert loc["message"] and loc["filePath"] and not loc["filePath"].startswith("/"), issue
    assert 1 <= loc["textRange"]["startLine"] <= loc["textRange"]["endLine"], issue
print(f"test-recipes: SonarQube generic issues: {len(doc['rules'])} rules (RELIABILITY), {len(doc['issues'])} issues")
PY

# --- reviewdog: what its Checkstyle parser decodes (Go encoding/xml into ints and strings).
python3 - "$work/report.xml" "$work/report.json" <<'PY' || fail "the Checkstyle XML is not what reviewdog decodes"
import json, sys
import xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
report = json.load(open(sys.argv[2]))
assert root.tag == "checkstyle", root.tag
count = 0
for f in root:
    assert f.tag == "file" and f.get("name") and not f.get("name").startswith("/"), f.attrib
    for e in f:
        assert e.tag == "error", e.tag
        int(e.get("line")); int(e.get("column", "0"))
        assert e.get("message") and e.get("severity") in ("error", "warning", "info"), e.attrib
        assert e.get("source", "").startswith("pg-advisory-lint."), e.attrib
        count += 1
expected = len([f for f in report["findings"] if f["suppression"] is None]) + len(report["notifications"])
assert count == expected, (count, expected)
print(f"test-recipes: reviewdog's Checkstyle fields: {count} errors with integer line and column")
PY

echo "test-recipes: OK"
