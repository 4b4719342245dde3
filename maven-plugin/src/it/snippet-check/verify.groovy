def log = new File(basedir, 'build.log').text
def file = 'src/main/java/com/example/jobs/JobRunner.java'
assert log.contains(':check (default) @ snippet-check ---')
assert log.contains("[ERROR] ${file}:14:95 [lock-in-limit-query]")
assert log.contains("[ERROR] ${file}:22:32 [lock-without-finally-unlock]")
assert log.contains('pg-advisory-lint found 2 findings at or above failOnSeverity=warning (2 errors, 0 warnings, 0 notes). SARIF report: target/pg-advisory-lint.sarif')
assert new File(basedir, 'target/pg-advisory-lint.sarif').isFile()
return true
