#!/usr/bin/env python3
"""Scores pg-advisory-lint's JSON reports against the blind verdicts of eval/.

Input (see eval/README.md):
  - eval/repositories.tsv: one public repository per row (name, repo, commit, styles, why);
  - eval/verdicts/NAME.tsv: defect rows written by reading the code before any scan, and verdict rows
    (true / debatable / false) for the errors and warnings a scan gives;
  - eval/cases/SLUG/: small programs with inline `want:` / `may:` markers;
  - a folder of JSON reports, REPORTS/repositories/NAME.json and REPORTS/cases/SLUG.json, in the
    format of `pg-advisory-lint scan --format json` (docs/report.schema.json).

Output: per half (dev, sealed) the precision of errors and warnings, the recall of real defects, the
unjudged findings, the misses and per-rule counts, as text on standard output; with --json FILE also as
JSON. Only the Python standard library is used. Exit code 0, or 2 when an input is malformed.
"""

import argparse
import csv
import hashlib
import json
import os
import re
import sys
from dataclasses import dataclass, field

HALVES = ("dev", "sealed")
REPORTED = ("error", "warning")
# A finding counts for a defect or a marker when its line is this close to the marked range.
SLACK = 3
MARKER = re.compile(r"(?://|--|#)\s*(want|may):\s*([A-Za-z0-9|, -]+)")
VERDICT_HEADER = ["kind", "path", "lines", "rule", "verdict", "reason"]
REPOSITORY_HEADER = ["name", "repo", "commit", "seen", "styles", "why"]


class EvalError(Exception):
    """Malformed eval input: the message names the file and line."""


# Fixed once, on 2026-12-01, before any scan of the corpus was read: the first salt from 0 up that put
# between 45 % and 55 % of both the repositories and the cases of the first corpus in sealed.
SPLIT_SALT = "26"
SOURCE = re.compile(r"^//\s*Source:\s*https?://(?:www\.)?([^/\s]+)/([^/\s]+)/([^/\s#?]+)", re.M)


def half_of(project, seen_projects=frozenset()):
    """The half of every item of a project (a repository's owner/name; a case's source repository): dev
    when the analysis was tuned on a repository of that project before it entered eval/ (seen), else
    sealed when the first byte of SHA-256("SALT:project", lower case) is odd, else dev. The items of one
    project (a bug and its fix, a case and its repository) always share a half, and adding items never
    moves another."""
    project = project.lower()
    if project in seen_projects:
        return "dev"
    digest = hashlib.sha256(f"{SPLIT_SALT}:{project}".encode("utf-8")).digest()
    return "sealed" if digest[0] % 2 else "dev"


def case_project(case_dir):
    """owner/name of the repository whose thread a case was rewritten from (its first `// Source:` line;
    for another host than GitHub, host/first-segment/second-segment)."""
    for root, dirs, files in sorted(os.walk(case_dir)):
        dirs.sort()
        for name in sorted(files):
            if not name.endswith(".java"):
                continue
            with open(os.path.join(root, name), encoding="utf-8", errors="replace") as handle:
                match = SOURCE.search(handle.read())
            if match:
                host, owner, repo = match.groups()
                return f"{owner}/{repo}" if host == "github.com" else f"{host}/{owner}/{repo}"
    raise EvalError(f"{case_dir}: no Java file has a '// Source: <address>' line")


@dataclass(frozen=True)
class Finding:
    """One finding of a JSON report: rule id, severity, path, line and the lines of its related locations."""

    rule: str
    severity: str
    path: str
    line: int
    related: tuple
    message: str

    def covers(self, rules):
        """True when this finding is one of those rules, or takes over one of them (TAKES_OVER)."""
        return any(r in rules for r in (self.rule,) + taken_over(self))

    def touches(self, path, first, last, slack=SLACK):
        """True when the primary location, or a related one, lies in path at lines [first, last] +- slack."""
        locations = ((self.path, self.line),) + self.related
        return any(p == path and first - slack <= line <= last + slack for (p, line) in locations)


# One result per bug: where one change fixes what two rules see, one rule reports both consequences
# and the other stays silent (docs/architecture.md). Such a result counts for the silent rule's defect
# rows too when its message says that rule's consequence: (reporting rule, silent rule, words).
TAKES_OVER = (
    ("session-unlock-before-commit", "lock-without-finally-unlock", "SQLSTATE 25P02"),
    # a session lock through a per-call pooled connection: pinning one connection fixes the lock and its unlock,
    # which the result names as a related location
    ("unpinned-session-lock", "unlock-mismatch", "the unlock may run on another one"),
)


def taken_over(finding):
    """The rules a finding also stands for, by TAKES_OVER."""
    return tuple(silent for (rule, silent, words) in TAKES_OVER if finding.rule == rule and words in finding.message)


@dataclass
class Row:
    """One row of a verdict file or one marker of a case."""

    kind: str  # defect, correct, finding (verdict files); want, may (cases)
    path: str
    first: int
    last: int
    rules: tuple  # rule ids; empty for `none` or `-`
    verdict: str
    reason: str
    origin: str  # file:line, for messages


@dataclass
class Item:
    """A repository or a case, with its rows and the findings of its report."""

    name: str
    kind: str  # repository or case
    half: str
    rows: list = field(default_factory=list)
    findings: list = field(default_factory=list)
    scanned: bool = False
    detail: dict = field(default_factory=dict)


def parse_lines(text, origin):
    match = re.fullmatch(r"(\d+)(?:-(\d+))?", text.strip())
    if not match:
        raise EvalError(f"{origin}: lines must be N or N-M, not {text!r}")
    first = int(match.group(1))
    last = int(match.group(2) or first)
    if last < first:
        raise EvalError(f"{origin}: the range {text} ends before it starts")
    return first, last


def parse_rules(text):
    text = text.strip()
    if text in ("", "-", "none"):
        return ()
    return tuple(sorted({r.strip() for r in re.split(r"[|,]", text) if r.strip()}))


def read_tsv(path, header):
    """Rows of a tab-separated file with the given header; '#' lines and blank lines are skipped."""
    rows = []
    with open(path, encoding="utf-8") as handle:
        lines = [(n, line.rstrip("\n")) for n, line in enumerate(handle, 1)]
    body = [(n, line) for n, line in lines if line.strip() and not line.startswith("#")]
    if not body or body[0][1].split("\t") != header:
        raise EvalError(f"{path}: the first row must be the header {' '.join(header)}")
    for n, line in body[1:]:
        cells = line.split("\t")
        if len(cells) != len(header):
            raise EvalError(f"{path}:{n}: {len(cells)} cells, expected {len(header)}")
        rows.append((n, dict(zip(header, cells))))
    return rows


def read_verdicts(path):
    rows = []
    for n, cells in read_tsv(path, VERDICT_HEADER):
        origin = f"{path}:{n}"
        kind = cells["kind"]
        if kind not in ("defect", "correct", "finding"):
            raise EvalError(f"{origin}: kind must be defect, correct or finding, not {kind!r}")
        verdict = cells["verdict"]
        if kind == "finding" and verdict not in ("true", "debatable", "false"):
            raise EvalError(f"{origin}: a finding's verdict is true, debatable or false, not {verdict!r}")
        first, last = parse_lines(cells["lines"], origin)
        rows.append(Row(kind, cells["path"], first, last, parse_rules(cells["rule"]), verdict, cells["reason"], origin))
    return rows


def read_markers(case_dir):
    """want/may markers of every file below a case folder, with paths relative to it."""
    rows = []
    for root, dirs, files in os.walk(case_dir):
        dirs.sort()
        for name in sorted(files):
            full = os.path.join(root, name)
            rel = os.path.relpath(full, case_dir).replace(os.sep, "/")
            try:
                with open(full, encoding="utf-8") as handle:
                    lines = handle.readlines()
            except (UnicodeDecodeError, OSError):
                continue
            for n, line in enumerate(lines, 1):
                for match in MARKER.finditer(line):
                    kind = match.group(1)
                    rules = parse_rules(match.group(2).split(" - ")[0].split("  ")[0])
                    if kind == "may" and not rules:
                        raise EvalError(f"{full}:{n}: a may marker names a rule")
                    rows.append(Row(kind, rel, n, n, rules, "", line.strip(), f"{full}:{n}"))
    return rows


def read_report(path):
    with open(path, encoding="utf-8") as handle:
        report = json.load(handle)
    findings = []
    for f in report.get("findings", []):
        if f.get("suppression"):
            continue
        related = tuple((r["path"], r["line"]) for r in f.get("related", []))
        findings.append(Finding(f["ruleId"], f["severity"], f["path"], f["line"], related, f.get("message", "")))
    return findings


def judge_repository(item):
    """Sorts each error and warning of a repository into true/debatable/false/unjudged and each defect into
    reported (by an error or warning), reported only as a note, or missed."""
    judged = []
    for f in item.findings:
        if f.severity not in REPORTED:
            continue
        verdict, why = "unjudged", ""
        explicit = [r for r in item.rows if r.kind == "finding" and f.rule in r.rules and f.path == r.path
                    and r.first <= f.line <= r.last]
        if explicit:
            verdict, why = explicit[0].verdict, explicit[0].reason
        else:
            defects = [r for r in item.rows if r.kind == "defect" and f.covers(r.rules) and f.touches(r.path, r.first, r.last)]
            if defects:
                verdict, why = "true", "reports the defect row " + defects[0].origin
            elif any(r.kind == "correct" and f.path == r.path and r.first <= f.line <= r.last for r in item.rows):
                why = "on a site the reader judged correct"
        judged.append((f, verdict, why))
    return judged, match_defects(item, [r for r in item.rows if r.kind == "defect"])


def judge_case(item):
    """In a case every error and warning is judged by the markers: on a want line of its rule true, on a may
    line of its rule debatable, elsewhere false."""
    judged = []
    for f in item.findings:
        if f.severity not in REPORTED:
            continue
        wants = [r for r in item.rows if r.kind == "want" and f.covers(r.rules) and f.touches(r.path, r.first, r.last)]
        mays = [r for r in item.rows if r.kind == "may" and f.covers(r.rules) and f.touches(r.path, r.first, r.last)]
        if wants:
            judged.append((f, "true", "want marker " + wants[0].origin))
        elif mays:
            judged.append((f, "debatable", "may marker " + mays[0].origin))
        else:
            judged.append((f, "false", "no want or may marker of this rule here"))
    return judged, match_defects(item, [r for r in item.rows if r.kind == "want"])


def match_defects(item, defects):
    results = []
    for d in defects:
        hits = [f for f in item.findings if f.covers(d.rules) and f.touches(d.path, d.first, d.last)]
        if any(f.severity in REPORTED for f in hits):
            status = "reported"
        elif hits:
            status = "note-only"
        else:
            status = "missed"
        results.append((d, status))
    return results


def load(eval_dir, reports_dir):
    items = []
    repos = read_tsv(os.path.join(eval_dir, "repositories.tsv"), REPOSITORY_HEADER)
    seen_projects = frozenset(cells["repo"].lower() for _, cells in repos if cells["seen"] == "yes")
    seen = set()
    for n, cells in repos:
        name = cells["name"]
        if name in seen:
            raise EvalError(f"repositories.tsv:{n}: {name} is listed twice")
        seen.add(name)
        if not re.fullmatch(r"[0-9a-f]{40}", cells["commit"]):
            raise EvalError(f"repositories.tsv:{n}: the commit of {name} is not 40 hex digits")
        if cells["seen"] not in ("yes", "no"):
            raise EvalError(f"repositories.tsv:{n}: seen is yes or no, not {cells['seen']!r}")
        item = Item(name, "repository", half_of(cells["repo"], seen_projects), detail=cells)
        verdicts = os.path.join(eval_dir, "verdicts", name + ".tsv")
        if os.path.exists(verdicts):
            item.rows = read_verdicts(verdicts)
        report = os.path.join(reports_dir, "repositories", name + ".json") if reports_dir else None
        if report and os.path.exists(report):
            item.findings, item.scanned = read_report(report), True
        items.append(item)
    cases_dir = os.path.join(eval_dir, "cases")
    for slug in sorted(os.listdir(cases_dir)) if os.path.isdir(cases_dir) else []:
        case_dir = os.path.join(cases_dir, slug)
        if not os.path.isdir(case_dir):
            continue
        item = Item(slug, "case", half_of(case_project(case_dir), seen_projects), rows=read_markers(case_dir))
        report = os.path.join(reports_dir, "cases", slug + ".json") if reports_dir else None
        if report and os.path.exists(report):
            item.findings, item.scanned = read_report(report), True
        items.append(item)
    return items


def ratio(num, den):
    return f"{100.0 * num / den:.0f} %" if den else "-"


def summarize(items):
    """Counts for one group of items: findings by verdict, defects by status (rule-covered and all)."""
    s = {"items": len(items), "scanned": sum(i.scanned for i in items), "true": 0, "debatable": 0, "false": 0,
         "unjudged": 0, "defects": 0, "covered": 0, "reported": 0, "note_only": 0, "per_rule": {},
         "unjudged_list": [], "missed_list": [], "false_list": []}
    for item in items:
        if not item.scanned:
            continue
        judged, defects = (judge_case if item.kind == "case" else judge_repository)(item)
        for f, verdict, why in judged:
            s[verdict] += 1
            rule = s["per_rule"].setdefault(f.rule, {"true": 0, "debatable": 0, "false": 0, "unjudged": 0,
                                                     "defects": 0, "reported": 0})
            rule[verdict] += 1
            if verdict == "unjudged":
                s["unjudged_list"].append(f"{item.name}: {f.path}:{f.line} {f.severity} [{f.rule}]"
                                          + (f" ({why})" if why else ""))
            elif verdict == "false":
                s["false_list"].append(f"{item.name}: {f.path}:{f.line} [{f.rule}] {why}")
        for d, status in defects:
            s["defects"] += 1
            if d.rules:
                s["covered"] += 1
            for r in d.rules:
                rule = s["per_rule"].setdefault(r, {"true": 0, "debatable": 0, "false": 0, "unjudged": 0,
                                                    "defects": 0, "reported": 0})
                rule["defects"] += 1
                rule["reported"] += status == "reported"
            if status == "reported":
                s["reported"] += 1
            else:
                s["note_only"] += status == "note-only"
                s["missed_list"].append(f"{item.name}: {d.path}:{d.first}-{d.last} [{'|'.join(d.rules) or 'none'}]"
                                        + (" (a note only)" if status == "note-only" else "") + f" {d.reason}")
    s["precision"] = ratio(s["true"], s["true"] + s["false"])
    s["recall_covered"] = ratio(s["reported"], s["covered"])
    s["recall_all"] = ratio(s["reported"], s["defects"])
    return s


TABLE_HEADER = ("| half | kind | items (scanned) | errors + warnings | true | debatable | false | unjudged | "
                "precision | rule-covered defects reported | all defects reported |")


def table_row(half, kind, s):
    return (f"| {half} | {kind} | {s['items']} ({s['scanned']}) | {s['true'] + s['debatable'] + s['false'] + s['unjudged']} "
            f"| {s['true']} | {s['debatable']} | {s['false']} | {s['unjudged']} | {s['precision']} "
            f"| {s['reported']} of {s['covered']} ({s['recall_covered']}) | {s['reported']} of {s['defects']} ({s['recall_all']}) |")


def report(items, out):
    results = {}
    out.write(TABLE_HEADER + "\n|" + "---|" * 11 + "\n")
    halves = [h for h in HALVES if any(i.half == h for i in items)]
    for half in halves:
        for kind, label in (("repository", "repositories"), ("case", "cases"), (None, "both")):
            group = [i for i in items if i.half == half and (kind is None or i.kind == kind)]
            s = summarize(group)
            results.setdefault(half, {})[label] = s
            out.write(table_row(half, label, s) + "\n")
    out.write("\nprecision = true / (true + false), debatable counted apart; a defect is reported when an error or\n"
              f"warning of one of its rules lies in its line range (±{SLACK} lines, related locations count).\n")
    for half in halves:
        s = results[half]["both"]
        out.write(f"\n## {half}: per rule\n\n| rule | true | debatable | false | unjudged | defects | reported |\n"
                  "|---|---|---|---|---|---|---|\n")
        for rule in sorted(s["per_rule"]):
            r = s["per_rule"][rule]
            out.write(f"| {rule} | {r['true']} | {r['debatable']} | {r['false']} | {r['unjudged']} | {r['defects']} | {r['reported']} |\n")
        for title, key in (("unjudged findings", "unjudged_list"), ("false findings", "false_list"),
                           ("missed defects", "missed_list")):
            out.write(f"\n### {half}: {title} ({len(s[key])})\n")
            for line in s[key]:
                out.write(f"- {line}\n")
        not_scanned = [i.name for i in items if i.half == half and not i.scanned]
        if not_scanned:
            out.write(f"\n### {half}: not scanned ({len(not_scanned)}): {', '.join(not_scanned)}\n")
    return results


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--eval", default=os.path.dirname(os.path.abspath(__file__)), help="the eval/ folder")
    parser.add_argument("--reports", help="folder of JSON reports (repositories/, cases/)")
    parser.add_argument("--json", help="also write the figures as JSON to this file")
    parser.add_argument("--list", action="store_true", help="print each item's half, kind and name, then exit")
    parser.add_argument("--half", choices=("dev", "sealed", "all"), default="all", help="score only this half")
    parser.add_argument("--only", action="append", default=[], metavar="NAME", help="score only this item (repeatable)")
    args = parser.parse_args(argv)
    try:
        items = load(args.eval, args.reports)
    except (EvalError, OSError, ValueError, KeyError) as error:
        print(f"eval: {error}", file=sys.stderr)
        return 2
    if args.list:
        for item in items:
            print(f"{item.half}\t{item.kind}\t{item.name}")
        return 0
    if not args.reports:
        parser.error("--reports is required unless --list")
    if args.half != "all":
        items = [i for i in items if i.half == args.half]
    if args.only:
        items = [i for i in items if i.name in args.only]
    results = report(items, sys.stdout)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as handle:
            json.dump(results, handle, indent=2, sort_keys=True)
            handle.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
