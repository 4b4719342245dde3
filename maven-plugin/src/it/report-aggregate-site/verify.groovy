def log = new File(basedir, 'build.log').text
assert log.contains('BUILD SUCCESS')
def html = new File(basedir, 'target/site/pg-advisory-lint.html').text
assert html.contains('jobs/src/main/java/com/example/jobs/JobRunner.java:14')
assert html.contains('jobs/src/main/java/com/example/jobs/JobRunner.java:22')
assert html.contains('queue/src/main/java/com/example/jobs/QueueWorker.java:14')
assert html.contains('queue/src/main/java/com/example/jobs/QueueWorker.java:22')
assert html.contains('4 errors, 0 warnings, 0 notes in 2 files.')
assert html.contains('in every module of the build') || html.contains('pg-advisory-lint')
assert !new File(basedir, 'jobs/target/site/pg-advisory-lint.html').exists()
assert !new File(basedir, 'queue/target/site/pg-advisory-lint.html').exists()
return true
