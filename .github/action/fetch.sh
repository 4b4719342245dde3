#!/usr/bin/env bash
# Step of action.yml: downloads the runnable CLI jar of pg-advisory-lint from a Maven repository and
# checks it against the checksum published beside it.
#
#   io.github.pgadvisorylint:pg-advisory-lint-cli:$PGAL_VERSION:jar:all  (the cli module's "all" jar)
#
# Environment: PGAL_VERSION (required; a -SNAPSHOT version is resolved through the repository's
# maven-metadata.xml), PGAL_REPOSITORY_URL (default https://repo1.maven.org/maven2; http(s):// or file://),
# PGAL_DEST_DIR (default $RUNNER_TEMP/pg-advisory-lint, else a new temporary directory).
# The strongest checksum the repository has is verified: .sha512, else .sha256, else .sha1 (Maven
# Central always has .sha1 and .md5; .sha256 and .sha512 only when the publisher uploaded them). A
# mismatch, or no checksum at all, fails the step. The jar must then print its version.
# Writes jar=PATH to $GITHUB_OUTPUT when set, and prints the path on standard output otherwise.
set -euo pipefail

fail() { echo "::error title=pg-advisory-lint::$*"; echo "pg-advisory-lint fetch: $*" >&2; exit 1; }

version=${PGAL_VERSION:-}
[ -n "$version" ] || fail "the version input is required (a version of io.github.pgadvisorylint:pg-advisory-lint-cli)"
[[ $version =~ ^[A-Za-z0-9][A-Za-z0-9._-]*$ ]] || fail "not a Maven version: $version"
repository=${PGAL_REPOSITORY_URL:-https://repo1.maven.org/maven2}
repository=${repository%/}
directory=$repository/io/github/pgadvisorylint/pg-advisory-lint-cli/$version
dest=${PGAL_DEST_DIR:-}
if [ -z "$dest" ]; then
  if [ -n "${RUNNER_TEMP:-}" ]; then dest=$RUNNER_TEMP/pg-advisory-lint; else dest=$(mktemp -d); fi
fi
mkdir -p "$dest"

# curl -f fails on an HTTP error and on a missing file:// file alike.
get() { curl -fsSL --retry 3 --retry-delay 2 --connect-timeout 20 -o "$2" "$1"; }

# A SNAPSHOT is stored under a timestamped name, read from the version's maven-metadata.xml.
file_version=$version
if [[ $version == *-SNAPSHOT ]]; then
  get "$directory/maven-metadata.xml" "$dest/maven-metadata.xml" \
    || fail "no maven-metadata.xml for $version in $repository"
  file_version=$(awk '
    /<snapshotVersion>/ { classifier = ""; extension = ""; value = "" }
    /<classifier>/ { classifier = $0; gsub(/.*<classifier>|<\/classifier>.*/, "", classifier) }
    /<extension>/ { extension = $0; gsub(/.*<extension>|<\/extension>.*/, "", extension) }
    /<value>/ { value = $0; gsub(/.*<value>|<\/value>.*/, "", value) }
    /<\/snapshotVersion>/ && classifier == "all" && extension == "jar" { print value; exit }
  ' "$dest/maven-metadata.xml")
  [ -n "$file_version" ] || fail "maven-metadata.xml of $version lists no jar with classifier all"
fi

name=pg-advisory-lint-cli-$file_version-all.jar
jar=$dest/$name
echo "pg-advisory-lint fetch: $directory/$name" >&2
get "$directory/$name" "$jar" || fail "cannot download $directory/$name"

verified=""
for algorithm in sha512 sha256 sha1; do
  if get "$directory/$name.$algorithm" "$jar.$algorithm" 2>/dev/null; then
    # the file holds the hex digest, sometimes followed by a file name
    expected=$(tr -d '\r' <"$jar.$algorithm" | awk 'NF { print tolower($1); exit }')
    if command -v "${algorithm}sum" >/dev/null 2>&1; then
      actual=$("${algorithm}sum" "$jar" | awk '{ print $1 }')
    else
      actual=$(shasum -a "${algorithm#sha}" "$jar" | awk '{ print $1 }')
    fi
    [ -n "$expected" ] && [ "$expected" = "$actual" ] \
      || fail "$name: $algorithm checksum mismatch (published ${expected:-nothing}, downloaded file $actual)"
    verified=$algorithm
    break
  fi
done
[ -n "$verified" ] || fail "$name: the repository has no .sha512, .sha256 or .sha1 checksum for it"
echo "pg-advisory-lint fetch: $verified checksum verified" >&2

java=java
[ -z "${JAVA_HOME:-}" ] || java=$JAVA_HOME/bin/java
reported=$("$java" -jar "$jar" --version 2>/dev/null | head -n 1) || true
[ "$reported" = "pg-advisory-lint $version" ] \
  || fail "$name does not run as pg-advisory-lint $version (it printed: ${reported:-nothing})"
echo "pg-advisory-lint fetch: $reported" >&2

if [ -n "${GITHUB_OUTPUT:-}" ]; then
  echo "jar=$jar" >>"$GITHUB_OUTPUT"
else
  echo "$jar"
fi
