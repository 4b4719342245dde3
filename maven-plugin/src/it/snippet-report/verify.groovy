def log = new File(basedir, 'build.log').text
assert log.contains('BUILD SUCCESS')
def html = new File(basedir, 'target/site/pg-advisory-lint.html').text
def file = 'src/main/java/com/example/jobs/QueueWorker.java'
// the baseline set under <reporting> is read: the LIMIT finding it holds is not on the page
assert html.contains('>lock-without-finally-unlock</a>')
assert html.contains("${file}:22")
assert !html.contains("${file}:14")
assert html.contains('1 error, 0 warnings, 0 notes in 1 file.')
assert !log.contains('baseline is set for the plugin in <build> but not in <reporting>')
return true
