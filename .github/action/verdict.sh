#!/usr/bin/env bash
# Last step of action.yml, after the SARIF upload: fails the job when the scan found something at or
# above fail-on (its exit code 1). Environment: PGAL_EXIT_CODE (the scan step's exit-code output),
# PGAL_FAIL_ON (for the message).
set -euo pipefail
case ${PGAL_EXIT_CODE:-} in
  0) echo "pg-advisory-lint: no finding at or above ${PGAL_FAIL_ON:-warning}" ;;
  1) echo "::error title=pg-advisory-lint::findings at or above ${PGAL_FAIL_ON:-warning}, or part of the input left out of the analysis (see the report above)"
     exit 1 ;;
  *) echo "::error title=pg-advisory-lint::the scan did not finish (exit code ${PGAL_EXIT_CODE:-none})"
     exit 2 ;;
esac
