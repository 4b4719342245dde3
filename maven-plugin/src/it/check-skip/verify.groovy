def log = new File(basedir, 'build.log').text
assert log.contains('BUILD SUCCESS')
assert log.contains('pg-advisory-lint: skipped (pgAdvisoryLint.skip)')
assert !log.contains('[lock-in-limit-query]')
assert !new File(basedir, 'target/pg-advisory-lint.sarif').exists()
return true
