import groovy.json.JsonSlurper

def log = new File(basedir, 'build.log').text
def slurper = new JsonSlurper()

// Build 1, goal check per module: billing alone has no unlock for key 7, so it fails there.
def checkSarif = slurper.parse(new File(basedir, 'billing/target/pg-advisory-lint.sarif'))
def checkResults = checkSarif.runs[0].results
assert checkResults*.ruleId == ['lock-without-finally-unlock']
assert checkResults[0].locations[0].physicalLocation.artifactLocation.uri ==
        'src/main/java/com/example/billing/InvoiceBatch.java'
assert checkResults[0].message.text.contains('no pg_advisory_unlock for key (7)')
assert slurper.parse(new File(basedir, 'lock-support/target/pg-advisory-lint.sarif')).runs[0].results == []

// Build 2, mvn verify with aggregate at the root: both modules together, the helper's unlock
// counts, no finding; one SARIF at the root with paths relative to the root.
assert log.contains('pg-advisory-lint: 0 errors, 0 warnings, 0 notes in 2 files')
assert log.contains('SARIF written to target/pg-advisory-lint.sarif')
def aggregate = slurper.parse(new File(basedir, 'target/pg-advisory-lint.sarif'))
assert aggregate.runs.size() == 1
assert aggregate.runs[0].results == []
def uris = aggregate.runs[0].artifacts*.location*.uri
println "aggregate artifacts: ${uris}"
return true
