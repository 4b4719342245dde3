import groovy.json.JsonSlurper

def log = new File(basedir, 'build.log').text
assert log.contains('BUILD FAILURE')
def file = 'src/main/java/com/example/jobs/JobRunner.java'
// Compiler-style lines, paths relative to the project's base directory.
assert log.contains("[ERROR] ${file}:14:95 [lock-in-limit-query] pg_try_advisory_lock(id) is evaluated in the WHERE clause")
assert log.contains("[ERROR] ${file}:22:32 [lock-without-finally-unlock] pg_advisory_lock(42) takes a session-level lock")
assert log.contains("[ERROR]     ${file}:24:32 related unlock that an exception would skip")
assert log.contains('pg-advisory-lint: 2 errors, 0 warnings, 1 note in 1 file')
// The failure names the counts and the SARIF file.
assert log.contains('pg-advisory-lint found 2 findings at or above failOnSeverity=warning (2 errors, 0 warnings, 1 note). SARIF report: target/pg-advisory-lint.sarif')

def doc = new JsonSlurper().parse(new File(basedir, 'target/pg-advisory-lint.sarif'))
def results = doc.runs[0].results
// a note (below failOnSeverity): the blocking lock has no lock_timeout (a rule off by default, switched on in
// .pg-advisory-lint.yml); the dropped unlock boolean is unlock-result-ignored's, off by default and not switched on
assert results*.ruleId == ['lock-in-limit-query', 'blocking-lock-without-timeout', 'lock-without-finally-unlock']
assert results*.level == ['error', 'note', 'error']
assert results.collect { it.locations[0].physicalLocation.artifactLocation.uri } == [file, file, file]
assert results.collect { it.locations[0].physicalLocation.region.startLine } == [14, 22, 22]

def text = new File(basedir, 'target/pg-advisory-lint.txt').text
assert text.contains("${file}:14:95: error [lock-in-limit-query]")
assert !new File(basedir, 'target/pg-advisory-lint.json').exists()
return true
