import groovy.json.JsonSlurper

def builds = new File(basedir, 'build.log').text.split(/\[INFO\] Scanning for projects\.\.\./)
assert builds.length == 3: 'two builds'
def log = builds[1]
def parallel = builds[2]

// Every module is compiled and tested before the analysis runs, once, in the reactor's last module.
def analysis = log.indexOf('[duplicate-lock-key]')
assert analysis > 0
assert log.indexOf(':compile (default-compile) @ orders ---') in 0..<analysis
assert log.indexOf(':compile (default-compile) @ payments ---') in 0..<analysis
def tests = log.indexOf('Tests run: 1, Failures: 0, Errors: 0, Skipped: 0')
assert tests in 0..<analysis
assert log.count(':aggregate (default) @ ') == 3
assert log.count('pg-advisory-lint: aggregate runs once, after the reactor') == 2
assert log.indexOf(':aggregate (default) @ payments ---') < analysis
assert log.contains('pg-advisory-lint found 4 findings in the reactor\'s 3 projects at or above failOnSeverity=warning (0 errors, 4 warnings, 0 notes). SARIF report: target/pg-advisory-lint.sarif')

// Two threads: the analysis runs once, after both modules, in whichever module got there last.
assert parallel.count(':aggregate (default) @ ') == 3
assert parallel.count('pg-advisory-lint: aggregate runs once, after the reactor') == 2
assert parallel.count('[duplicate-lock-key]') == 2
// not an aggregator goal: Maven does not serialise it, so no warning box per module
assert !parallel.contains('An aggregator mojo is already being executed')
assert parallel.indexOf('[duplicate-lock-key]') > parallel.indexOf('Tests run: 1, Failures: 0, Errors: 0, Skipped: 0')
assert parallel.contains('pg-advisory-lint found 4 findings in the reactor\'s 3 projects at or above failOnSeverity=warning (0 errors, 4 warnings, 0 notes). SARIF report: target/pg-advisory-lint.sarif')

// One SARIF for the reactor, at the root.
def results = new JsonSlurper().parse(new File(basedir, 'target/pg-advisory-lint.sarif')).runs[0].results
def uri = { r -> r.locations[0].physicalLocation.artifactLocation.uri }
def orders = 'orders/src/main/java/com/example/orders/CartSweeper.java'
def payments = 'payments/src/main/java/com/example/payments/SettlementJob.java'

// The same key in two modules, for two purposes: found only because both modules are analysed together.
def duplicates = results.findAll { it.ruleId == 'duplicate-lock-key' }
assert duplicates.collect(uri).sort() == [orders, payments]
assert duplicates.every { it.message.text.contains('4242') }

// orders' application.properties (port 6432) speaks for orders only: payments, which connects straight to PostgreSQL,
// gets no pooling finding.
def pooling = results.findAll { it.ruleId == 'session-lock-under-transaction-pooling' }
assert pooling.collect(uri) == [orders, orders]
assert pooling.every { it.level == 'warning' && it.message.text.contains('orders/src/main/resources/application.properties') }
assert results.size() == 4
return true
