# pg-advisory-lint JSON report (schemaVersion 1) to SonarQube's generic issue import format (SonarQube 10.3
# and newer, SonarQube Cloud), for the SonarQube recipe in docs/ci.md:
#   jq -f sonarqube-generic-issues.jq pg-advisory-lint.json > pg-advisory-lint-sonar.json
# Each rule is filed under the RELIABILITY software quality with the LOGICAL attribute (a lock bug, not a
# vulnerability), its impact HIGH, MEDIUM or LOW after its most severe finding (error, warning, note).
[ .findings[] | select(.suppression == null) ] as $findings
| { rules: ($findings | group_by(.ruleId) | map(
      { id: .[0].ruleId,
        name: .[0].ruleId,
        description: "pg-advisory-lint rule \(.[0].ruleId): https://github.com/pg-advisory-lint/pg-advisory-lint/blob/main/rules/src/main/resources/docs/\(.[0].ruleId).md",
        engineId: "pg-advisory-lint",
        cleanCodeAttribute: "LOGICAL",
        impacts: [ { softwareQuality: "RELIABILITY",
                     severity: (if any(.[]; .severity == "error") then "HIGH"
                                elif any(.[]; .severity == "warning") then "MEDIUM" else "LOW" end) } ] })),
    issues: ($findings | map(
      { ruleId: .ruleId,
        primaryLocation: { message: .message, filePath: .path,
                           textRange: { startLine: .line, endLine: .endLine } } })) }
