import groovy.json.JsonSlurper

// build.log holds the three builds one after the other.
def log = new File(basedir, 'build.log').text
def slurper = new JsonSlurper()
def parts = log.split(/\[INFO\] Scanning for projects\.\.\./)
assert parts.length == 4: 'three builds'
def (build1, build2, build3) = [parts[1], parts[2], parts[3]]
assert build1.contains('BUILD FAILURE') && build2.contains('BUILD SUCCESS') && build3.contains('BUILD FAILURE')

// Build 1, goal check per module: billing alone has no unlock for key 7, so it fails there. Paths are
// relative to the repository root (prebuild.groovy marks it with .git), not to the module: GitHub code
// scanning places them, and SARIF says so with %SRCROOT%.
def billingFile = 'billing/src/main/java/com/example/billing/InvoiceBatch.java'
assert build1.contains("[ERROR] ${billingFile}:14:32 [lock-without-finally-unlock] pg_advisory_lock(7) takes a session-level lock, but no pg_advisory_unlock for key (7)")
assert build1.contains('on project billing: pg-advisory-lint found 1 finding at or above failOnSeverity=warning (1 error, 0 warnings, 0 notes). SARIF report: billing/target/pg-advisory-lint.sarif')
def checkResults = slurper.parse(new File(basedir, 'billing/target/pg-advisory-lint.sarif')).runs[0].results
assert checkResults*.ruleId == ['lock-without-finally-unlock']
assert checkResults[0].locations[0].physicalLocation.artifactLocation.uri == billingFile
assert checkResults[0].locations[0].physicalLocation.artifactLocation.uriBaseId == '%SRCROOT%'
def checkRun = slurper.parse(new File(basedir, 'billing/target/pg-advisory-lint.sarif')).runs[0]
assert checkRun.originalUriBaseIds.containsKey('%SRCROOT%')
// lock-support: nothing (its unlock helper drops the unlock's boolean: unlock-result-ignored, off by default)
assert slurper.parse(new File(basedir, 'lock-support/target/pg-advisory-lint.sarif')).runs[0].results*.ruleId == []

// Build 2, mvn verify with aggregate bound in the parent and inherited: both modules together, the
// helper's unlock counts, no finding, the build passes. The execution reaches every project; the
// analysis runs once, in billing, the last module, after both modules compiled; the report is the
// root's.
assert build2.count(':aggregate (default) @ ') == 3
assert build2.count('pg-advisory-lint: aggregate runs once, after the reactor') == 2
def analysis = build2.indexOf('pg-advisory-lint: 0 errors, 0 warnings, 0 notes in 2 files')
assert analysis > build2.indexOf(':aggregate (default) @ billing ---')
assert analysis > build2.indexOf(':compile (default-compile) @ billing ---')
assert build2.indexOf(':compile (default-compile) @ billing ---') > 0
assert build2.contains('SARIF written to target/pg-advisory-lint.sarif')
assert !build2.contains('[lock-without-finally-unlock]')

// Build 3, aggregate with includeTests: one SARIF at the root, paths relative to the root.
def testFile = 'billing/src/test/resources/claim_invoices.sql'
assert build3.contains("[ERROR] ${testFile}:2:31 [lock-in-limit-query]")
assert build3.contains('pg-advisory-lint found 1 finding in the reactor\'s 3 projects at or above failOnSeverity=warning (1 error, 0 warnings, 0 notes). SARIF report: target/pg-advisory-lint.sarif')
def aggregate = slurper.parse(new File(basedir, 'target/pg-advisory-lint.sarif'))
assert aggregate.runs.size() == 1
assert aggregate.runs[0].results*.ruleId == ['lock-in-limit-query']
assert aggregate.runs[0].results[0].locations[0].physicalLocation.artifactLocation.uri == testFile
return true
