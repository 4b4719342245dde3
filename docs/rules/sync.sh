#!/bin/sh
# Copies the rule pages, rules/src/main/resources/docs/*.md (what `pg-advisory-lint explain` prints and
# SARIF carries as each rule's help), to docs/rules/ byte for byte, and removes the copies of pages that
# no longer exist. docs/rules/README.md and this script are not copies and stay. RuleDocsMirrorTest (rules
# module) fails until this has run after a page was added, changed or removed.
#
#   docs/rules/sync.sh
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
src=$root/rules/src/main/resources/docs
dst=$root/docs/rules
for f in "$dst"/*.md; do
    [ -e "$f" ] || continue
    name=$(basename "$f")
    [ "$name" = README.md ] && continue
    [ -e "$src/$name" ] || rm -- "$f"
done
for f in "$src"/*.md; do
    cp -- "$f" "$dst/$(basename "$f")"
done
