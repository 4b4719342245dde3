#!/usr/bin/env bash
# Scans every repository and case of eval/ with the built CLI and prints the detection-quality table
# per half (dev, sealed): precision of errors and warnings, recall of the defects read blind, the
# unjudged findings, the misses and per-rule counts (eval/score.py does the scoring).
#
# Usage: eval/run.sh [--repos DIR] [--workdir DIR] [--out DIR] [--half dev|sealed|all] [--jar JAR]
#                    [--only NAME]... [--no-cases] [--no-repositories]
#   --repos DIR    take each repository from DIR/NAME (a checkout or a bare repository; offline). When it is
#                  bare, or its HEAD is not the commit of eval/repositories.tsv but the commit is in its
#                  history, that commit's tree is exported (git archive) into the output folder and
#                  scanned there; the checkout is not changed.
#   --workdir DIR  without --repos: clone each missing repository into DIR/NAME from its public address
#                  and check out its commit (needs network access to the code host).
#   --out DIR      where the JSON reports, logs and the table go (default: a new temporary folder)
#   --half H       scan and score only this half (default: all, both halves). Day-to-day work uses
#                  dev; sealed is scanned once, when an issue is done (eval/README.md).
#   --jar JAR      the CLI jar (default: cli/target/pg-advisory-lint.jar, built by the launcher if missing)
#   --only NAME    only this repository or case (repeatable)
# Exit code: 0 when every scan ran and the table was printed, 1 when a scan failed or a repository was
# not available (the table is still printed for the rest), 2 on bad usage or malformed eval input.
set -euo pipefail

eval_dir=$(cd "$(dirname "$0")" && pwd -P)
root=$(cd "$eval_dir/.." && pwd -P)
repos="" workdir="" out="" half=all jar="$root/cli/target/pg-advisory-lint.jar"
only=() cases=1 repositories=1
while [ $# -gt 0 ]; do
    case $1 in
        --repos) repos=$2; shift 2 ;;
        --workdir) workdir=$2; shift 2 ;;
        --out) out=$2; shift 2 ;;
        --half) half=$2; shift 2 ;;
        --jar) jar=$2; shift 2 ;;
        --only) only+=("$2"); shift 2 ;;
        --no-cases) cases=0; shift ;;
        --no-repositories) repositories=0; shift ;;
        -h|--help) sed -n '2,21p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "eval/run.sh: unknown argument $1 (see --help)" >&2; exit 2 ;;
    esac
done
case $half in dev|sealed|all) ;; *) echo "eval/run.sh: --half takes dev, sealed or all" >&2; exit 2 ;; esac
if [ -z "$repos" ] && [ -z "$workdir" ] && [ "$repositories" = 1 ]; then
    echo "eval/run.sh: give --repos DIR (checkouts) or --workdir DIR (clones made there)" >&2
    exit 2
fi
[ -n "$out" ] || out=$(mktemp -d "${TMPDIR:-/tmp}/pg-advisory-lint-eval.XXXXXX")
mkdir -p "$out/repositories" "$out/cases" "$out/logs"
out=$(cd "$out" && pwd -P)

if [ ! -f "$jar" ]; then
    "$root/bin/pg-advisory-lint" --version >/dev/null
fi
java -jar "$jar" --version >&2

# half, kind and name of every item, by the fixed rule of eval/score.py
items=$(python3 "$eval_dir/score.py" --eval "$eval_dir" --list) || exit 2
selected() { # kind name
    local h
    h=$(printf '%s\n' "$items" | awk -F'\t' -v k="$1" -v n="$2" '$2 == k && $3 == n { print $1 }')
    [ "$half" = all ] || [ "$h" = "$half" ] || return 1
    [ ${#only[@]} -eq 0 ] && return 0
    local o
    for o in "${only[@]}"; do [ "$o" = "$2" ] && return 0; done
    return 1
}

failed=0
scan() { # kind name dir
    local log="$out/logs/$2.log" code=0
    java -jar "$jar" scan "$3" --path-base "$3" --format json --output "$out/$1/$2.json" --fail-on none \
        >"$log" 2>&1 || code=$?
    if [ "$code" -ne 0 ]; then
        echo "eval/run.sh: the scan of $2 exited $code; see $log" >&2
        rm -f "$out/$1/$2.json"
        failed=1
    fi
}

if [ "$repositories" = 1 ]; then
    while IFS=$'\t' read -r name repo commit _; do
        case $name in ''|'#'*|name) continue ;; esac
        selected repository "$name" || continue
        dir=${repos:+$repos/$name}
        if [ -z "$repos" ]; then
            dir=$workdir/$name
            if [ ! -d "$dir/.git" ]; then
                git clone -q "https://github.com/$repo.git" "$dir" || { echo "eval/run.sh: cannot clone $repo" >&2; failed=1; continue; }
            fi
            git -C "$dir" checkout -q --detach "$commit" || { echo "eval/run.sh: $repo has no commit $commit" >&2; failed=1; continue; }
        fi
        if [ ! -d "$dir" ]; then
            echo "eval/run.sh: $dir is missing (repository $repo at $commit)" >&2
            failed=1
            continue
        fi
        # a checkout at another commit, or a bare repository (a mirror: no work tree to scan), is exported
        if [ "$(git -C "$dir" rev-parse HEAD 2>/dev/null)" != "$commit" ] \
            || [ "$(git -C "$dir" rev-parse --is-bare-repository 2>/dev/null)" = true ]; then
            if ! git -C "$dir" cat-file -e "$commit^{commit}" 2>/dev/null; then
                echo "eval/run.sh: $dir is not at $commit and does not hold it" >&2
                failed=1
                continue
            fi
            tree=$out/trees/$name
            rm -rf "$tree" && mkdir -p "$tree"
            python3 "$eval_dir/export.py" "$dir" "$commit" "$tree"
            dir=$tree
        fi
        echo "eval/run.sh: scanning $name" >&2
        scan repositories "$name" "$dir"
    done <"$eval_dir/repositories.tsv"
fi

if [ "$cases" = 1 ]; then
    for dir in "$eval_dir"/cases/*/; do
        [ -d "$dir" ] || continue
        name=$(basename "$dir")
        selected case "$name" || continue
        scan cases "$name" "${dir%/}"
    done
fi

only_args=()
for o in ${only[@]+"${only[@]}"}; do only_args+=(--only "$o"); done
python3 "$eval_dir/score.py" --eval "$eval_dir" --reports "$out" --half "$half" --json "$out/figures.json" \
    ${only_args[@]+"${only_args[@]}"} \
    | tee "$out/table.md" || exit 2
echo "eval/run.sh: reports, logs and the table are in $out" >&2
exit "$failed"
