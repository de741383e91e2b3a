"""Self-tests of the grader's flow (grade.Grader.grade) on a toy lab, with checks that need no
build: a toy compiler (a name used before an `int NAME` declares it, or an #error line, is an
error at its line) and a toy test run (a line with BUG fails it). Each case is a defect the
grader had: it fails on the grader before its fix."""
import re
import tempfile
import unittest
from pathlib import Path

import grade
import labs
import verdicts as v
from labtable import Lab

SRC = """void f() {
    // LAB: one step 1
    int lock = 0;
    // LAB_END: one
    // LAB: two step 2
    use(lock);
    // LAB_END: two
}"""
PATH = "/scratch/src/f.hpp"


class Toy(grade.Grader):
    def __init__(self, source=SRC, rows=(), finds=None):
        self.lab = Lab("toy", (), (), (), {"one": ("step 1", "ch#1"), "two": ("step 2", "ch#2")})
        self.scratch, self.progress, self.source, self.rows = Path("/scratch"), False, source, []
        self.rows = list(rows)
        self.finds = finds  # what the model finds when a row's statement is not in its step
        self.checks = [("compile", self.compile), ("unit", self.unit)]
        self.builds, self.baselines = [], 0
        self.tree, self.results = "", grade.Results()  # kept in memory only

    def compile(self, text, preset="release", drivers=False):
        self.builds.append(text)
        out, declared = [], set()
        for n, line in enumerate(text.split("\n"), 1):
            if line.strip().startswith("#error"):
                out.append(f"{PATH}:{n}:6: error: {line.strip()}")
            declared |= set(re.findall(r"\bint (\w+)", line))
            for name in re.findall(r"\buse\((\w+)\)", line):
                if name not in declared:
                    out.append(f"{PATH}:{n}:9: error: '{name}' was not declared in this scope")
        return v.compile_errors("\n".join(out), PATH, text) or None

    def unit(self, text):
        self.compile(text)
        return "`toy.test`, a check failed" if "BUG" in text else None

    def model(self, row):
        return self.finds

    def baseline(self):
        self.baselines += 1


def mine(one, two):
    return labs.fill(labs.skeleton(SRC), {"one": one, "two": two})


def verdicts(result):
    return {r.step: (r.status, r.check) for r in result}


class WholeFile(unittest.TestCase):
    def test_the_skeleton_is_all_missing_and_the_source_all_ok(self):
        g = Toy()
        self.assertEqual(verdicts(g.grade(labs.skeleton(SRC))),
                         {"one": ("missing", ""), "two": ("missing", "")})
        self.assertEqual(verdicts(g.grade(SRC)), {"one": ("ok", ""), "two": ("ok", "")})
        self.assertEqual(g.builds, [])  # neither needs a build of its own


    def test_a_name_the_reader_renames_in_every_step_compiles(self):
        g = Toy()
        got = verdicts(g.grade(mine(["    int lk = 0;"], ["    use(lk);"])))
        self.assertEqual(got, {"one": ("ok", ""), "two": ("ok", "")})

    def test_a_name_renamed_in_one_step_only_blames_that_step_and_says_where(self):
        g = Toy()
        result = g.grade(mine(["    int lk = 0;"], ["    use(lock);"]))
        self.assertEqual(verdicts(result), {"one": ("wrong", "compile"), "two": ("ok", "")})
        self.assertIn("'lock' was not declared in this scope (in step two, which is as in the "
                      "source", result[0].detail)

    def test_a_step_the_model_judges_stays_in_the_build(self):
        # the model row of step two looks for `use(lock);`: a step two written `use(lk);` is the
        # model's to judge, but step one must not be built against the source's step two
        model = v.catalogue.Model("toy.pml", "NO_USE", "error")
        row = v.Row(v.catalogue.Mutant("r", "f", ["use(lock);"], [], "it breaks", "model", model),
                    "two", v.tokens(["use(lock);"]), "use(lock);")
        g = Toy(rows=[row], finds=("deadlock", "wmm: toy: a deadlock\n  T0.0 use"))
        result = g.grade(mine(["    int lk = 0;"], ["    use(lk);"]))
        self.assertEqual(verdicts(result), {"one": ("ok", ""), "two": ("wrong", "model")})
        self.assertEqual(result[1].trace, ["wmm: toy: a deadlock", "  T0.0 use"])
        self.assertIn("finds deadlock: it breaks", result[1].detail)
        self.assertTrue(all("int lk" in b and "use(lk)" in b for b in g.builds), g.builds)

    def test_an_error_line_left_in_a_hole_never_passes(self):
        g = Toy()
        result = g.grade(mine([labs.hole_statement("one", "    "), "    int lock = 0;"],
                              ["    use(lock);"]))
        self.assertEqual(verdicts(result)["one"], ("wrong", "compile"))
        self.assertIn("#error", result[0].detail)

    def test_a_failing_run_blames_the_step_that_fails_alone(self):
        g = Toy()
        result = g.grade(mine(["    int lk = 0; BUG;"], ["    use(lk);"]))
        # step one alone needs step two's name: it cannot be built alone, so both are suspects
        self.assertEqual(verdicts(result)["one"][0], "wrong")
        result = g.grade(mine(["    int lock = 0; BUG;"], ["    use(lock); use(lock);"]))
        self.assertEqual(verdicts(result), {"one": ("wrong", "unit"), "two": ("ok", "")})


SRC3 = """void g() {
    // LAB: one step 1
    int lock = 0;
    // LAB_END: one
    // LAB: two step 2
    use(lock);
    // LAB_END: two
    // LAB: three step 3
    use(lock);
    // LAB_END: three
}"""


class Together(Toy):
    """A toy whose run fails only with both BUGA and BUGB in the file."""
    def __init__(self):
        super().__init__(SRC3)
        self.lab.titles["three"] = ("step 3", "ch#3")

    def unit(self, text):
        self.compile(text)
        return "`toy.test`, a check failed" if "BUGA" in text and "BUGB" in text else None


class OnlyTogether(unittest.TestCase):
    def mine3(self, one, two, three):
        return labs.fill(labs.skeleton(SRC3), {"one": one, "two": two, "three": three})

    def test_a_correct_step_in_a_file_that_fails_only_together_is_not_blamed(self):
        # issue 51: a correct step (step three, written otherwise) in a wrong file was graded
        # wrong "only together: each alone passes"
        g = Together()
        result = g.grade(self.mine3(["    int lock = 0; BUGA;"], ["    use(lock); BUGB;"],
                                    ["    use(lock); use(lock);"]))
        self.assertEqual(verdicts(result), {"one": ("wrong", "unit"), "two": ("wrong", "unit"),
                                            "three": ("ok", "")})
        self.assertIn("only together with step two", result[0].detail)
        self.assertIn("only together with step one", result[1].detail)


class Kept(unittest.TestCase):
    def test_the_baseline_is_kept_across_gradings(self):
        g = Toy()
        runs = []
        g.checks = [("compile", lambda text: runs.append(text))]
        for _ in range(2):
            grade.Grader.baseline(g)
        self.assertEqual(runs, [SRC])

    def test_a_text_graded_before_is_not_built_again(self):
        g = Toy()
        reader = mine(["    int lk = 0;"], ["    use(lk);"])
        first = verdicts(g.grade(reader))
        builds = len(g.builds)
        self.assertEqual(verdicts(g.grade(reader)), first)
        self.assertEqual(len(g.builds), builds)

    def test_another_tree_or_text_is_checked_again(self):
        g = Toy()
        g.grade(mine(["    int lk = 0;"], ["    use(lk);"]))
        builds = len(g.builds)
        g.grade(mine(["    int lk = 1;"], ["    use(lk);"]))  # another text
        self.assertGreater(len(g.builds), builds)
        builds = len(g.builds)
        g.tree = "another"  # a test or a source outside the lab's file changed
        g.grade(mine(["    int lk = 1;"], ["    use(lk);"]))
        self.assertGreater(len(g.builds), builds)

    def test_kept_results_outlive_the_grader_compile_errors_included(self):
        with tempfile.TemporaryDirectory() as d:
            path = Path(d) / "labs-results.json"
            g = Toy()
            g.results = grade.Results(path)
            reader = mine(["    int lk = 0;"], ["    use(lock);"])
            first = [r.line() for r in g.grade(reader)]
            h = Toy()
            h.results = grade.Results(path)
            self.assertEqual([r.line() for r in h.grade(reader)], first)
            self.assertEqual(h.builds, [])
            self.assertIn("was not declared", first[0])


class Traces(unittest.TestCase):
    def test_a_wmm_trace_is_text_from_its_finding(self):
        out = "noise\nwmm: sleep(): lost wake-up\n  T0.0 mutex.rmw(0 -> 1)\n      reads from init\n"
        self.assertEqual(v.trace_text(out), ["wmm: sleep(): lost wake-up",
                                             "  T0.0 mutex.rmw(0 -> 1)", "      reads from init"])

    def test_a_spin_trace_is_its_error_and_trail_within_the_limit(self):
        out = ("-- pan output:\npan:1: invalid end state (at depth 10)\npan: wrote x.trail\n"
               "State-vector 36 byte\n-- counterexample (spin -t -p x.pml):\n"
               + "".join(f"  {i}:\tproc  1 (Worker:1) x.pml:{i} [{'a' * 200}]\n"
                         for i in range(1, 40)) + "spin: trail ends after 39 steps\n")
        lines = v.trace_text(out, limit=10, width=60)
        self.assertEqual(lines[0], "pan:1: invalid end state (at depth 10)")
        self.assertEqual(len(lines), 11)
        self.assertTrue(all(len(l) <= 60 for l in lines))
        self.assertRegex(lines[-1], r"^\.\.\. 31 more lines")
        self.assertFalse(any(l.startswith(("(", "['")) for l in lines))  # not a tuple's repr


if __name__ == "__main__":
    unittest.main()
