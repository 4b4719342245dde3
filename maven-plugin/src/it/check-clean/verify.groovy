import groovy.json.JsonSlurper

def log = new File(basedir, 'build.log').text
def parts = log.split(/\[INFO\] Scanning for projects\.\.\./)
assert parts.length == 4: 'three builds'
assert parts[1].contains('pg-advisory-lint: cache target/pg-advisory-lint/cache.json: 0 files reused, 2 analysed')
assert parts[2].contains('pg-advisory-lint: cache target/pg-advisory-lint/cache.json: 2 files reused, 0 analysed')
assert !parts[1].contains('unknown property')
assert parts[2].contains('[WARNING] pg-advisory-lint: unknown property pg-advisory-lint.skip is ignored; did you mean pgAdvisoryLint.skip?')
assert !parts[2].contains('unknown property pgAdvisoryLint.failOnViolation')
assert parts[2].count('unknown property') == 1
// mvn ...:help, without the check goal running
assert parts[3].contains('pg-advisory-lint:check')
assert parts[3].contains('pg-advisory-lint:aggregate')
assert parts[3].contains('pg-advisory-lint:help')
assert !parts[3].contains('SARIF written')
assert new File(basedir, 'target/pg-advisory-lint/cache.json').isFile()
assert log.contains('BUILD SUCCESS')
assert !log.contains('BUILD FAILURE')
assert log.contains('pg-advisory-lint: 0 errors, 0 warnings, 0 notes in 2 files')
assert log.contains('SARIF written to target/pg-advisory-lint.sarif')
assert !log.contains('[ERROR] src/')

def sarif = new File(basedir, 'target/pg-advisory-lint.sarif')
assert sarif.isFile()
def doc = new JsonSlurper().parse(sarif)
assert doc.version == '2.1.0'
assert doc.runs.size() == 1
assert doc.runs[0].tool.driver.name == 'pg-advisory-lint'
assert doc.runs[0].results == []
return true
