"""Tests of eval/score.py on a tiny corpus written in a temporary folder (python3 -m unittest discover -s eval)."""

import io
import json
import os
import tempfile
import unittest
from contextlib import redirect_stdout

import score

REPOSITORIES = """name\trepo\tcommit\tseen\tstyles\twhy
alpha\towner/alpha\t{c}\tyes\tJDBC\ta tuned-on repository
beta\towner/beta\t{c}\tno\tJDBC\tan unseen repository
""".format(c="0123456789abcdef0123456789abcdef01234567")

ALPHA = """# alpha: owner/alpha
kind\tpath\tlines\trule\tverdict\treason
defect\tsrc/A.java\t10-14\tlock-without-finally-unlock\treal\tthe unlock is skipped by an exception
defect\tsrc/A.java\t30\tunlock-mismatch|try-lock-result-ignored\treal\tunlock after a failed try-lock
defect\tsrc/B.java\t5\tnone\treal\tno rule for this
correct\tsrc/C.java\t1-20\t-\t-\tfine
finding\tsrc/D.java\t7\tweak-lock-key-hash\tdebatable\ta handful of names
finding\tsrc/E.java\t9-9\tduplicate-lock-key\tfalse\tthe two keys are in different databases
"""

CASE = """package x;
// Case: a try-lock whose result is ignored
// Source: https://github.com/owner/beta/issues/7
class Job {
    void run() {
        jdbc.execute("select pg_try_advisory_lock(1)"); // want: try-lock-result-ignored
        jdbc.execute("select pg_advisory_unlock(1)"); // may: unlock-mismatch
        work(); // want: none
    }
}
"""


def finding(rule, path, line, severity="error", related=(), message="m"):
    return {"ruleId": rule, "severity": severity, "message": message, "path": path, "line": line,
            "related": [{"path": p, "line": n, "message": "r"} for (p, n) in related], "suppression": None}


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(text)


class ScoreTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.eval = os.path.join(self.dir.name, "eval")
        self.reports = os.path.join(self.dir.name, "reports")
        write(os.path.join(self.eval, "repositories.tsv"), REPOSITORIES)
        write(os.path.join(self.eval, "verdicts", "alpha.tsv"), ALPHA)
        write(os.path.join(self.eval, "cases", "ignored-try-lock", "src", "Job.java"), CASE)

    def tearDown(self):
        self.dir.cleanup()

    def report(self, kind, name, findings):
        write(os.path.join(self.reports, kind, name + ".json"), json.dumps({"findings": findings}))

    def run_score(self, *extra):
        out = io.StringIO()
        with redirect_stdout(out):
            code = score.main(["--eval", self.eval, "--reports", self.reports, "--json",
                               os.path.join(self.dir.name, "figures.json"), *extra])
        self.assertEqual(code, 0)
        with open(os.path.join(self.dir.name, "figures.json"), encoding="utf-8") as handle:
            return json.load(handle), out.getvalue()

    def test_halves_are_fixed_by_project_and_seen(self):
        self.assertEqual(score.half_of("owner/alpha", {"owner/alpha"}), "dev")
        self.assertEqual(score.half_of("Owner/Beta"), score.half_of("owner/beta"))
        halves = {score.half_of("owner/item-%d" % i) for i in range(20)}
        self.assertEqual(halves, {"dev", "sealed"})
        self.assertEqual(score.case_project(os.path.join(self.eval, "cases", "ignored-try-lock")), "owner/beta")
        out = io.StringIO()
        with redirect_stdout(out):
            score.main(["--eval", self.eval, "--list"])
        beta = score.half_of("owner/beta")
        self.assertIn(f"{beta}\trepository\tbeta\n", out.getvalue())
        self.assertIn(f"{beta}\tcase\tignored-try-lock\n", out.getvalue())

    def test_repository_findings_are_judged_by_rows_and_defects(self):
        self.report("repositories", "alpha", [
            finding("lock-without-finally-unlock", "src/A.java", 12),  # the first defect: true
            finding("try-lock-result-ignored", "src/Z.java", 1, related=[("src/A.java", 31)]),  # related hits defect 2
            finding("weak-lock-key-hash", "src/D.java", 7, "warning"),  # debatable row
            finding("duplicate-lock-key", "src/E.java", 9, "warning"),  # false row
            finding("unpinned-session-lock", "src/C.java", 5),  # unjudged, on a correct site
            finding("lock-in-row-filter", "src/F.java", 3, "note"),  # notes are not judged
        ])
        figures, text = self.run_score()
        alpha = figures["dev"]["repositories"]
        self.assertEqual((alpha["true"], alpha["debatable"], alpha["false"], alpha["unjudged"]), (2, 1, 1, 1))
        self.assertEqual((alpha["defects"], alpha["covered"], alpha["reported"]), (3, 2, 2))
        self.assertEqual(alpha["precision"], "67 %")
        self.assertIn("src/C.java:5 error [unpinned-session-lock] (on a site the reader judged correct)", text)
        self.assertIn("src/B.java:5-5 [none]", text)

    def test_a_result_that_takes_over_another_rule_counts_for_its_defects(self):
        self.report("repositories", "alpha", [
            # one result for one change: the unlock before commit says the aborted-transaction leak too
            finding("session-unlock-before-commit", "src/A.java", 13, message="... fails with SQLSTATE 25P02 ..."),
            # without those words it stands for its own rule only: not the defect at line 30
            finding("session-unlock-before-commit", "src/A.java", 30),
        ])
        figures, text = self.run_score()
        alpha = figures["dev"]["repositories"]
        self.assertEqual((alpha["true"], alpha["unjudged"]), (1, 1))
        self.assertEqual((alpha["defects"], alpha["reported"]), (3, 1))

    def test_an_unpinned_lock_naming_its_unlock_counts_for_the_unlock_mismatch_there(self):
        self.report("repositories", "alpha", [
            # the lock's result, with the pooled unlock at line 30 as a related location, says the unlock's consequence
            finding("unpinned-session-lock", "src/A.java", 22, related=(("src/A.java", 30),),
                    message="... the unlock may run on another one. ..."),
        ])
        figures, text = self.run_score()
        alpha = figures["dev"]["repositories"]
        self.assertEqual((alpha["true"], alpha["unjudged"]), (1, 0))
        self.assertEqual((alpha["defects"], alpha["reported"]), (3, 1))
        self.report("repositories", "alpha", [
            finding("unpinned-session-lock", "src/A.java", 22, related=(("src/A.java", 30),)),
        ])
        figures, text = self.run_score()
        self.assertEqual(figures["dev"]["repositories"]["reported"], 0)  # without those words: its own rule only

    def test_case_findings_are_judged_by_markers(self):
        self.report("cases", "ignored-try-lock", [
            finding("try-lock-result-ignored", "src/Job.java", 7),  # within 3 lines of the want marker
            finding("unlock-mismatch", "src/Job.java", 6),  # may: debatable
            finding("lock-without-finally-unlock", "src/Job.java", 5),  # no marker: false
        ])
        figures, text = self.run_score()
        case = figures[score.half_of("owner/beta")]["cases"]
        self.assertEqual((case["true"], case["debatable"], case["false"]), (1, 1, 1))
        self.assertEqual((case["defects"], case["covered"], case["reported"]), (2, 1, 1))
        self.assertIn("no want or may marker", text)

    def test_a_defect_reported_only_as_a_note_is_a_miss(self):
        self.report("cases", "ignored-try-lock", [finding("try-lock-result-ignored", "src/Job.java", 5, "note")])
        figures, text = self.run_score()
        case = figures[score.half_of("owner/beta")]["cases"]
        self.assertEqual((case["reported"], case["note_only"]), (0, 1))
        self.assertIn("(a note only)", text)

    def test_unscanned_items_are_listed_and_not_counted(self):
        figures, text = self.run_score()
        self.assertIn("not scanned", text)
        self.assertEqual(figures["dev"]["repositories"]["defects"], 0)

    def test_malformed_verdicts_are_located(self):
        write(os.path.join(self.eval, "verdicts", "alpha.tsv"),
              "kind\tpath\tlines\trule\tverdict\treason\nfinding\tsrc/A.java\t3\tx\tmaybe\twhy\n")
        err = io.StringIO()
        from contextlib import redirect_stderr
        with redirect_stderr(err):
            code = score.main(["--eval", self.eval, "--reports", self.reports])
        self.assertEqual(code, 2)
        self.assertIn("alpha.tsv:2: a finding's verdict is true, debatable or false", err.getvalue())


if __name__ == "__main__":
    unittest.main()
