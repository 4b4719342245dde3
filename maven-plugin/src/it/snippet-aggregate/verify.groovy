import groovy.json.JsonSlurper

def log = new File(basedir, 'build.log').text
def file = 'jobs/src/main/java/com/example/jobs/JobRunner.java'
def analysis = log.indexOf("[ERROR] ${file}:22:32 [lock-without-finally-unlock]")
assert analysis > 0
assert log.indexOf(':compile (default-compile) @ api ---') in 0..<analysis
assert log.indexOf(':compile (default-compile) @ jobs ---') in 0..<analysis
assert log.count(':aggregate (default) @ ') == 3
assert log.indexOf(':aggregate (default) @ jobs ---') < analysis
// the baseline at the root, found from the module the analysis runs in, holds the LIMIT finding
assert !log.contains('[lock-in-limit-query]')
assert log.contains('pg-advisory-lint found 1 finding in the reactor\'s 3 projects at or above failOnSeverity=warning (1 error, 0 warnings, 0 notes). SARIF report: target/pg-advisory-lint.sarif')
def results = new JsonSlurper().parse(new File(basedir, 'target/pg-advisory-lint.sarif')).runs[0].results
assert results*.ruleId == ['lock-without-finally-unlock']
assert !new File(basedir, 'jobs/target/pg-advisory-lint.sarif').exists()
return true
