#!/usr/bin/env bash
# Tests the pre-commit hook (.pre-commit-hooks.yaml) with pre-commit itself (Debian package pre-commit;
# installed here when missing and run as root):
#   1. `pre-commit try-repo` of this repository on a new git repository with a staged SQL file that locks
#      under LIMIT: the hook fails and names lock-in-limit-query;
#   2. the way a user sets it up (.pre-commit-config.yaml naming this repository at its HEAD commit,
#      `pre-commit install`, `git commit`): the buggy file cannot be committed, the fixed one can; a commit
#      of a Markdown file alone skips the hook; a commit of an unrelated Java file is refused while a
#      committed SQL file still has the bug (the scan is project-wide; see .pre-commit-hooks.yaml), and so is
#      one of a staged pgbouncer.ini, .env or compose file alone (configuration the analysis reads).
# Each of the two builds the CLI once in pre-commit's clone (about a minute each). Part 2 uses the
# committed HEAD of this repository; part 1 also sees uncommitted changes (try-repo copies them).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd -P)

if ! command -v pre-commit >/dev/null 2>&1; then
  [ "$(id -u)" = 0 ] || { echo "test-pre-commit: pre-commit is missing (apt-get install pre-commit)" >&2; exit 1; }
  apt-get update -q
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q pre-commit
fi
pre-commit --version

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "test-pre-commit: $*" >&2; exit 1; }
export PRE_COMMIT_HOME=$work/cache PRE_COMMIT_COLOR=never
export GIT_AUTHOR_NAME=test GIT_AUTHOR_EMAIL=test@example.invalid
export GIT_COMMITTER_NAME=test GIT_COMMITTER_EMAIL=test@example.invalid

# The lock is evaluated for every row the sort reads, before LIMIT keeps one (fires lock-in-limit-query).
buggy() {
  printf '%s\n' '-- a worker claims the next ready job' \
    "SELECT id FROM jobs WHERE state = 'ready' AND pg_try_advisory_lock(id) ORDER BY id LIMIT 1;"
}
# The fix: choose the row in a subquery with its own LIMIT, lock only that one (silent).
fixed() {
  printf '%s\n' '-- a worker claims the next ready job' \
    "SELECT j.id FROM (SELECT id FROM jobs WHERE state = 'ready' ORDER BY id LIMIT 1) AS j" \
    ' WHERE pg_try_advisory_lock(j.id);'
}
new_repo() {
  rm -rf "$1"
  mkdir -p "$1/db"
  git -C "$1" init -q
}

# 1. try-repo on a staged buggy file.
project=$work/try
new_repo "$project"
buggy >"$project/db/claim.sql"
git -C "$project" add db/claim.sql
set +e
(cd "$project" && pre-commit try-repo "$root" pg-advisory-lint) >"$work/try.log" 2>&1
code=$?
set -e
[ "$code" -ne 0 ] || { cat "$work/try.log" >&2; fail "try-repo passed on a file with a finding"; }
grep -q 'db/claim.sql:2:.*\[lock-in-limit-query\]' "$work/try.log" \
  || { cat "$work/try.log" >&2; fail "try-repo did not report lock-in-limit-query in db/claim.sql"; }
echo "test-pre-commit: try-repo on a buggy staged file: exit $code, finding reported"

# 2. A user's setup: the hook from this repository's HEAD in .pre-commit-config.yaml.
project=$work/user
new_repo "$project"
cat >"$project/.pre-commit-config.yaml" <<EOF
repos:
  - repo: $root
    rev: $(git -C "$root" rev-parse HEAD)
    hooks:
      - id: pg-advisory-lint
EOF
(cd "$project" && pre-commit install >/dev/null && git add .pre-commit-config.yaml \
  && git commit -q -m config --no-verify)
commit() { # $1: message; commits what is staged, the hook's output in $work/commit.log; sets code
  set +e
  (cd "$project" && git commit -q -m "$1") >"$work/commit.log" 2>&1
  code=$?
  set -e
}

buggy >"$project/db/claim.sql"
git -C "$project" add db/claim.sql
commit buggy
[ "$code" -ne 0 ] || { cat "$work/commit.log" >&2; fail "a buggy file was committed"; }
grep -q '\[lock-in-limit-query\]' "$work/commit.log" || { cat "$work/commit.log" >&2; fail "no finding shown"; }
echo "test-pre-commit: commit of a buggy file refused"

fixed >"$project/db/claim.sql"
git -C "$project" add db/claim.sql
commit fixed
[ "$code" -eq 0 ] || { cat "$work/commit.log" >&2; fail "the fixed file was refused (exit $code)"; }
grep -q 'pg-advisory-lint.*Passed' "$work/commit.log" || { cat "$work/commit.log" >&2; fail "the hook did not run"; }
echo "test-pre-commit: commit of the fixed file passed"

echo '# notes' >"$project/NOTES.md"
git -C "$project" add NOTES.md
commit notes
[ "$code" -eq 0 ] && grep -q 'pg-advisory-lint.*Skipped' "$work/commit.log" \
  || { cat "$work/commit.log" >&2; fail "a Markdown-only commit did not skip the hook"; }
echo "test-pre-commit: Markdown-only commit skipped the hook"

# The bug committed past the hook, then an unrelated Java file staged: the whole project is scanned.
buggy >"$project/db/claim.sql"
git -C "$project" add db/claim.sql
(cd "$project" && git commit -q -m "bug past the hook" --no-verify)
mkdir -p "$project/src"
printf '%s\n' 'class Unrelated {}' >"$project/src/Unrelated.java"
git -C "$project" add src/Unrelated.java
commit unrelated
[ "$code" -ne 0 ] && grep -q 'db/claim.sql:2:.*\[lock-in-limit-query\]' "$work/commit.log" \
  || { cat "$work/commit.log" >&2; fail "the committed bug was not reported with a Java file staged"; }
echo "test-pre-commit: a staged Java file scans the whole project (committed bug reported)"

# Configuration the analysis reads (pooling evidence) runs the hook too: a pgbouncer.ini, a .env file and a
# compose file, each staged alone.
for config in deploy/pgbouncer.ini .env docker-compose.yml; do
  mkdir -p "$project/$(dirname "$config")"
  printf '%s\n' '# configuration' >"$project/$config"
  git -C "$project" add "$config"
  commit "config $config"
  [ "$code" -ne 0 ] && grep -q 'db/claim.sql:2:.*\[lock-in-limit-query\]' "$work/commit.log" \
    || { cat "$work/commit.log" >&2; fail "staging $config alone did not run the hook"; }
  git -C "$project" reset -q "$config"
done
echo "test-pre-commit: a staged pgbouncer.ini, .env or compose file runs the hook"

echo "test-pre-commit: OK"
