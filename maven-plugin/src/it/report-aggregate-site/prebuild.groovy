// This project stands for a repository of its own: .git makes its root the path base of the
// reports, and .mvn makes it ${maven.multiModuleProjectDirectory} (the mvn script walks up to the
// nearest .mvn), as in a real checkout, instead of the pg-advisory-lint checkout that holds it.
new File(basedir, ".git").mkdirs()
new File(basedir, ".mvn").mkdirs()
return true
