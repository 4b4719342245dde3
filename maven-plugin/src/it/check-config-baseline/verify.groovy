import groovy.json.JsonSlurper

def log = new File(basedir, 'build.log').text
assert !log.contains('BUILD FAILURE')
assert !log.contains('db/legacy/old_claim.sql')

def baseline = new JsonSlurper().parse(new File(basedir, 'pg-advisory-lint-baseline.json'))
assert baseline.version == 1
assert baseline.findings.size() == 1
assert baseline.findings[0].ruleId == 'lock-in-limit-query'
assert baseline.findings[0].path == 'src/main/resources/db/migration/V2__claim_job.sql'

def sarif = new JsonSlurper().parse(new File(basedir, 'target/pg-advisory-lint.sarif'))
assert sarif.runs[0].results.isEmpty()
def checkstyle = new File(basedir, 'target/pg-advisory-lint-checkstyle.xml').text
assert checkstyle.contains('<checkstyle')
assert !checkstyle.contains('<error ')
def markdown = new File(basedir, 'target/pg-advisory-lint.md').text
assert markdown.contains('**No findings**')
assert markdown.contains('1 finding suppressed')
return true
