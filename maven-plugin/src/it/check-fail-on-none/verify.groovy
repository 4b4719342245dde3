import groovy.json.JsonSlurper

def log = new File(basedir, 'build.log').text
assert log.contains('BUILD SUCCESS')
def file = 'src/main/java/com/example/jobs/JobRunner.java'
// failOnSeverity none: nothing can fail the build, so errors are logged as warnings that name their severity
assert log.contains("[WARNING] ${file}:14:95 error [lock-in-limit-query]")
assert log.contains("[WARNING] ${file}:22:32 error [lock-without-finally-unlock]")
assert !log.contains("[ERROR] ${file}")
// An unparsable file is a warning; with failOnIncomplete off it does not fail the build.
assert log.contains('[WARNING] src/main/java/com/example/jobs/Broken.java:3:')
assert log.contains('[tool:java-parse-error] Java file could not be parsed; skipped')
assert log.contains('pg-advisory-lint: 2 errors, 0 warnings, 0 notes in 2 files')
assert log.contains('SARIF written to target/pg-advisory-lint.sarif. JSON written to target/pg-advisory-lint.json')
assert !log.contains('pg-advisory-lint found')

def doc = new JsonSlurper().parse(new File(basedir, 'target/pg-advisory-lint.sarif'))
assert doc.runs[0].results*.ruleId == ['lock-in-limit-query', 'lock-without-finally-unlock']
def notes = doc.runs[0].invocations[0].toolExecutionNotifications
assert notes.any { it.descriptor.id == 'java-parse-error' }
assert new File(basedir, 'target/pg-advisory-lint.json').isFile()
return true
