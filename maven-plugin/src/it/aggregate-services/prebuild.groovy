// This project stands for a repository of its own: the .git marker makes its root the path base of
// the reports (as in a real checkout), instead of the pg-advisory-lint checkout that holds target/it.
new File(basedir, '.git').mkdirs()
return true
