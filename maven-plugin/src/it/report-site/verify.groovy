def log = new File(basedir, 'build.log').text
assert log.contains('BUILD SUCCESS')
assert log.contains('[WARNING] pg-advisory-lint: baseline is set for the plugin in <build> but not in <reporting>')
def page = new File(basedir, 'target/site/pg-advisory-lint.html')
assert page.isFile()
def html = page.text
def file = 'src/main/java/com/example/jobs/QueueWorker.java'
// one row per finding: the rule linked to its page, the severity, file:line and the message
assert html.contains('https://github.com/pg-advisory-lint/pg-advisory-lint/blob/main/rules/src/main/resources/docs/lock-in-limit-query.md')
assert html.contains('>lock-in-limit-query</a>')
assert html.contains('>lock-without-finally-unlock</a>')
assert html.contains("${file}:14")
assert html.contains("${file}:22")
assert html.contains('pg_try_advisory_lock(id) is evaluated in the WHERE clause')
assert html.contains('pg_advisory_lock(77) takes a session-level lock')
assert html.contains('2 errors, 0 warnings, 0 notes in 1 file.')
// the rules table lists every rule that ran
assert html.contains('>unpinned-session-lock</a>')
// no report file of the check goal, no SARIF: only the page
assert !new File(basedir, 'target/pg-advisory-lint.sarif').exists()
return true
