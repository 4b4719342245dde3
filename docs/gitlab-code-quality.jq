# pg-advisory-lint JSON report (schemaVersion 1) to a GitLab Code Quality report (the Code Climate
# subset GitLab reads), for the GitLab CI recipe in docs/ci.md: jq -f gitlab-code-quality.jq pg-advisory-lint.json
[ .findings[]
  | select(.suppression == null)
  | { description: "[\(.ruleId)] \(.message)",
      check_name: .ruleId,
      fingerprint: .fingerprint,
      severity: ({ "error": "critical", "warning": "major", "note": "info" }[.severity]),
      location: { path: .path, lines: { begin: .line, end: .endLine } } } ]
