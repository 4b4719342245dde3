import groovy.json.JsonSlurper

def log = new File(basedir, 'build.log').text
assert log.contains('BUILD FAILURE')
assert !log.contains('InvalidPathException')
assert !log.contains('rule-failure')
def doc = new JsonSlurper().parse(new File(basedir, 'target/pg-advisory-lint.sarif'))
def results = doc.runs[0].results
// the name is decoded from its UTF-8 bytes, whatever the locale says
assert results.collect { it.ruleId + ' ' + it.locations[0].physicalLocation.artifactLocation.uri }
        .contains('lock-without-finally-unlock src/main/java/com/example/J%C3%B6b.java')
assert new File(basedir, 'target/pg-advisory-lint.txt').getText('UTF-8')
        .contains('src/main/java/com/example/Jöb.java:6:')
return true
