import groovy.json.JsonSlurper

def log = new File(basedir, 'build.log').text
assert log.contains('BUILD FAILURE')
def file = 'src/main/resources/db/migration/V2__claim_job.sql'
assert log.contains("[ERROR] ${file}:4:30 [lock-in-limit-query] pg_try_advisory_lock(id) is evaluated in the WHERE clause")
assert log.contains('pg-advisory-lint found 1 finding at or above failOnSeverity=warning (1 error, 0 warnings, 0 notes). SARIF report: target/pg-advisory-lint.sarif')
// Excluded by a glob, and test resources without includeTests: not reported.
assert !log.contains('db/legacy/old_claim.sql')
assert !log.contains('claim_fixture.sql')

def doc = new JsonSlurper().parse(new File(basedir, 'target/pg-advisory-lint.sarif'))
def results = doc.runs[0].results
assert results.size() == 1
assert results[0].ruleId == 'lock-in-limit-query'
assert results[0].locations[0].physicalLocation.artifactLocation.uri == file
assert results[0].locations[0].physicalLocation.region.startLine == 4
return true
