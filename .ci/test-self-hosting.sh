#!/usr/bin/env bash
# Tests the self-hosting recipe of docs/releases.md ("Hosting it in your own repository"): a team that cannot
# use Maven Central deploys the plugin and the CLI to its internal repository with `./mvnw deploy
# -DaltDeploymentRepository=...`, then
#   1. a project of its own runs the Maven plugin from that repository (pluginRepositories), and
#   2. its CI downloads the runnable CLI jar (pg-advisory-lint-cli-VERSION-all.jar) from it and runs it.
# The internal repository is a file repository here (what `mvn deploy` writes to a repository manager is the
# same layout). The tree is deployed under a version no Maven repository can already hold, so the consumer
# can only have found the plugin in the file repository.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd -P)

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "test-self-hosting: $*" >&2; exit 1; }

repo=$work/internal-repo
copy=$work/src
mkdir "$repo" "$copy"
tar -cf - --exclude=./.git --exclude=target . | tar -xf - -C "$copy"

snapshot=$(sed -n 's:^  <version>\(.*\)</version>$:\1:p' pom.xml | head -n 1)
version="0.0.0-selfhost-$(date +%s)-$$"
for pom in "$copy"/pom.xml "$copy"/*/pom.xml; do
  sed -i "s:<version>$snapshot</version>:<version>$version</version>:" "$pom"
done

echo "test-self-hosting: ./mvnw deploy of $version into $repo" >&2
if ! (cd "$copy" && ./mvnw -B -ntp deploy -DskipTests -Dmaven.install.skip=true \
    -DaltDeploymentRepository="internal::file://$repo") >"$work/deploy.log" 2>&1; then
  tail -40 "$work/deploy.log" >&2
  fail "the deploy failed"
fi
plugin=$repo/io/github/pgadvisorylint/pg-advisory-lint-maven-plugin/$version
cli=$repo/io/github/pgadvisorylint/pg-advisory-lint-cli/$version
[ -f "$plugin/pg-advisory-lint-maven-plugin-$version.jar" ] || fail "no plugin jar in the repository"
[ -f "$cli/pg-advisory-lint-cli-$version-all.jar" ] || fail "no runnable CLI jar in the repository"

# 1. A project that takes the plugin from the internal repository (the example service, its plugin version
#    set to the deployed one, the repository declared as in the recipe).
consumer=$work/consumer
cp -r examples/invoice-service "$consumer"
sed -i "s:<pg-advisory-lint.version>.*</pg-advisory-lint.version>:<pg-advisory-lint.version>$version</pg-advisory-lint.version>:" \
  "$consumer/pom.xml"
python3 - "$consumer/pom.xml" "file://$repo" <<'PY'
import sys
path, url = sys.argv[1], sys.argv[2]
pom = open(path, encoding="utf-8").read()
declared = ("  <pluginRepositories>\n    <pluginRepository>\n      <id>internal</id>\n      <url>" + url
            + "</url>\n    </pluginRepository>\n  </pluginRepositories>\n\n  <build>")
open(path, "w", encoding="utf-8").write(pom.replace("  <build>", declared, 1))
PY
grep -q "<url>file://$repo</url>" "$consumer/pom.xml" || fail "the consumer POM was not edited"
set +e
"$root/mvnw" -B -ntp -f "$consumer/pom.xml" verify >"$work/consumer.log" 2>&1
code=$?
set -e
[ "$code" -ne 0 ] || { tail -40 "$work/consumer.log" >&2; fail "the example's build passed; its two errors should fail it"; }
grep -q "pg-advisory-lint-maven-plugin:$version:check" "$work/consumer.log" \
  || { tail -40 "$work/consumer.log" >&2; fail "the plugin $version did not run"; }
grep -q 'pg-advisory-lint found 2 findings at or above failOnSeverity=warning' "$work/consumer.log" \
  || { tail -40 "$work/consumer.log" >&2; fail "the plugin did not report the example's two findings"; }
echo "test-self-hosting: the plugin from the internal repository ran and failed the example's build"

# 2. The CLI as a CI job gets it: the runnable jar from the repository, checked against its .sha1.
jar=$work/pg-advisory-lint.jar
cp "$cli/pg-advisory-lint-cli-$version-all.jar" "$jar"
[ "$(sha1sum "$jar" | cut -d ' ' -f 1)" = "$(cat "$cli/pg-advisory-lint-cli-$version-all.jar.sha1")" ] \
  || fail "the CLI jar does not match its .sha1"
set +e
java -jar "$jar" scan examples/invoice-service >"$work/scan.out" 2>"$work/scan.err"
code=$?
set -e
[ "$code" -eq 1 ] || { cat "$work/scan.err" >&2; fail "the CLI from the repository exited $code, not 1"; }
grep -q '^2 errors, 0 warnings, 0 notes in ' "$work/scan.out" || { cat "$work/scan.out" >&2; fail "unexpected summary"; }
echo "test-self-hosting: the CLI jar from the internal repository scanned the example"

echo "test-self-hosting: OK"
