#!/usr/bin/env python3
"""Self-tests of the mutant runner's catalogue parser and apply logic (run by ctest)."""
import re
import sys
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import mutants  # noqa: E402
from catalogue import Model, cmake_models, parse  # noqa: E402
from mutants import (CatalogueError, apply, matrix, parse_catalogue, select,  # noqa: E402
                     symptom)

ONE = """
[a.b]
file = src/x.hpp
anchor = x.store(1, std::memory_order_release);
replace = x.store(1, std::memory_order_relaxed);
breaks = something
expect = tsan
"""

SOURCE = """void f() {
    x.store(1, std::memory_order_release);
    if (ok(1,
           2))
        g();
}
"""


def mutant(text=ONE):
    return parse_catalogue(text)[0]


class ParseTest(unittest.TestCase):
    def test_fields(self):
        m = mutant()
        self.assertEqual((m.name, m.file, m.expect, m.model), ("a.b", "src/x.hpp", "tsan", None))
        self.assertEqual(m.anchor, ["x.store(1, std::memory_order_release);"])

    def test_continuation_lines_are_anchor_lines(self):
        m = mutant(ONE.replace("anchor = x.store(1, std::memory_order_release);",
                               "anchor = if (ok(1,\n    2))"))
        self.assertEqual(m.anchor, ["if (ok(1,", "2))"])

    def test_empty_replace_is_no_lines(self):
        self.assertEqual(mutant(ONE.replace("replace = x.store(1, std::memory_order_relaxed);",
                                            "replace =")).replace, [])

    def test_symptom_and_tests(self):
        m = mutant(ONE + "symptom = WATCHDOG: .* exiting with code 3\ntests = test_latch test_join\n")
        self.assertEqual(m.symptom, "WATCHDOG: .* exiting with code 3")
        self.assertEqual(m.tests, ("test_latch", "test_join"))
        self.assertEqual((mutant().symptom, mutant().tests), ("", ()))

    def test_model(self):
        m = mutant(ONE.replace("expect = tsan", "expect = model")
                   + "model = deque.pml NO_POP_FENCE error\ntrail = assert(x)\n")
        self.assertEqual(m.model, Model("deque.pml", "NO_POP_FENCE", "error", "assert(x)"))
        self.assertEqual(m.model.test_name, "model.deque.no_pop_fence")
        self.assertEqual(mutant(ONE + "model = deque.pml NO_STEAL_FENCE ok\n").model.result, "ok")

    def test_model_and_tour_rows(self):
        cat = parse(ONE.replace("expect = tsan", "expect = model")
                    + "model = sleep.pml NO_RECHECK error\n"
                    + "[model.two-lines]\nmodel = sleep.pml NO_FENCE error\nbreaks = both\n"
                    + "[tour.release]\npreset = release\nbuild = test_latch\n"
                    + "tour = fib 2 30 -> passes all results correct\n"
                    + "    other: ctest -R x -> passes y\n")
        self.assertEqual([m.name for m in cat.mutants], ["a.b"])
        self.assertEqual([m.test_name for m in cat.models],
                         ["model.sleep.as_built", "model.sleep.no_recheck", "model.sleep.no_fence"])
        self.assertEqual([(o.preset, o.command, o.judge, o.args) for o in cat.tour],
                         [("release", ("fib", "2", "30"), "passes", ("all", "results", "correct")),
                          ("other", ("ctest", "-R", "x"), "passes", ("y",))])
        self.assertEqual(cat.builds, {"release": ["test_latch"]})

    def test_cmake_models(self):
        text = cmake_models([Model("wake.pml", "none", "ok"),
                             Model("wake.pml", "X", "error", 'assert("a";$b)')])
        self.assertEqual(text, "_mini_model(wake.pml wake.as_built none ok)\n"
                               '_mini_model(wake.pml wake.x X error '
                               '"-DEXPECT_TRAIL=assert(\\"a\\"\\;\\$b)")\n')

    def test_wmm_model(self):
        """The explorer's variants need no SPIN ctest and no as-built one: wmm has its own."""
        cat = parse(ONE.replace("expect = tsan", "expect = model")
                    + "model = wmm/deque.py STEAL_FENCE error\n")
        self.assertEqual(cat.mutants[0].model, Model("wmm/deque.py", "STEAL_FENCE", "error"))
        self.assertEqual(cmake_models(cat.models), "\n")

    def test_errors(self):
        bad = {
            "missing": ONE.replace("breaks = something\n", ""),
            "unknown": ONE + "colour = red\n",
            "expect": ONE.replace("expect = tsan", "expect = luck"),
            "survivor": ONE.replace("expect = tsan", "expect = survives"),
            "model": ONE.replace("expect = tsan", "expect = model"),
            "model form": ONE + "model = deque.pml X\n",
            "model result": ONE + "model = deque.pml X maybe\n",
            "model kills first": ONE + "model = deque.pml X error\n",
            "model expects error": ONE.replace("expect = tsan", "expect = model")
                                   + "model = deque.pml X ok\n",
            "trail without error": ONE + "model = deque.pml X ok\ntrail = t\n",
            "variant expected twice": ONE + "model = d.pml X ok\n"
                                      + ONE.replace("[a.b]", "[c.d]") + "model = d.pml X error\n",
            "model row": "[model.x]\nbreaks = y\n",
            "tour row": "[tour.x]\npreset = release\n",
            "tour row field": "[tour.x]\npreset = p\ntour = a -> b\nfile = f\n",
            "tour line": ONE + "preset = p\ntour = fib 2 30\n",
            "tour preset": ONE + "tour = fib -> passes x\n",
            "duplicate": ONE + ONE,
            "survivor's symptom": ONE.replace("expect = tsan", "expect = survives\nwhy = w")
                                  + "symptom = x\n",
            "symptom regex": ONE + "symptom = WATCHDOG: (\n",
        }
        for what, text in bad.items():
            with self.subTest(what), self.assertRaises(CatalogueError):
                parse_catalogue(text)

    def test_select(self):
        ms = parse_catalogue(ONE + ONE.replace("[a.b]", "[c.d]"))
        self.assertEqual([m.name for m in select(ms, [])], ["a.b", "c.d"])
        self.assertEqual([m.name for m in select(ms, ["c.d"])], ["c.d"])
        with self.assertRaises(CatalogueError):
            select(ms, ["nope"])


class ApplyTest(unittest.TestCase):
    def test_keeps_indentation(self):
        self.assertIn("\n    x.store(1, std::memory_order_relaxed);\n", apply(SOURCE, mutant()))

    def test_changes_only_the_anchor(self):
        out = apply(SOURCE, mutant())
        self.assertEqual(out.replace("relaxed", "release"), SOURCE)

    def test_multi_line_anchor(self):
        m = mutant(ONE.replace("anchor = x.store(1, std::memory_order_release);",
                               "anchor = if (ok(1,\n    2))").replace(
            "replace = x.store(1, std::memory_order_relaxed);", "replace = if (false)"))
        self.assertIn("\n    if (false)\n        g();\n", apply(SOURCE, m))

    def test_delete(self):
        m = mutant(ONE.replace("replace = x.store(1, std::memory_order_relaxed);", "replace ="))
        self.assertEqual(apply(SOURCE, m), SOURCE.replace(
            "    x.store(1, std::memory_order_release);\n", ""))

    def test_anchor_must_be_a_whole_line(self):
        m = mutant(ONE.replace("anchor = x.store(1, std::memory_order_release);",
                               "anchor = x.store(1,"))
        with self.assertRaisesRegex(CatalogueError, "not found"):
            apply(SOURCE, m)

    def test_anchor_that_moved_is_an_error(self):
        with self.assertRaisesRegex(CatalogueError, "a.b.*not found in src/x.hpp"):
            apply(SOURCE.replace("release", "seq_cst"), mutant())

    def test_lab_markers_between_anchor_lines_are_skipped_and_kept(self):
        # sleep.injected.fence: a two-line anchor whose second line opens a lab's hole.
        src = ("    int f() {\n        // LAB: fence step 1: the fence\n        fence();\n"
               "        g();\n        // LAB_END: fence\n    }\n")
        m = mutant(ONE.replace("anchor = x.store(1, std::memory_order_release);",
                               "anchor = int f() {\n    fence();").replace(
            "replace = x.store(1, std::memory_order_relaxed);", "replace = int f() {"))
        self.assertEqual(apply(src, m), src.replace("        fence();\n", ""))
        m.replace = ["int f() {", "weaker();"]
        self.assertEqual(apply(src, m), src.replace("fence();", "weaker();"))
        m.anchor, m.replace = ["g();", "}"], ["g();", "h();", "}"]  # inserted after its line
        self.assertEqual(apply(src, m), src.replace("g();\n", "g();\n        h();\n"))

    def test_an_anchor_never_matches_a_marker_line(self):
        m = mutant(ONE.replace("anchor = x.store(1, std::memory_order_release);",
                               "anchor = // LAB_END: fence"))
        with self.assertRaisesRegex(CatalogueError, "not found"):
            apply("    // LAB_END: fence\n", m)

    def test_ambiguous_anchor_is_an_error(self):
        with self.assertRaisesRegex(CatalogueError, "found 2 times"):
            apply(SOURCE + SOURCE, mutant())


class MatrixTest(unittest.TestCase):
    def test_rows_and_unexpected_outcomes(self):
        m = mutant()
        text = matrix([(m, "tsan", "data race", 12.3), (m, None, "", 40.0)], times=True)
        self.assertIn("a.b     tsan       data race     12 s\n", text)
        self.assertIn("a.b     SURVIVED                 40 s  (expected: tsan)", text)
        self.assertTrue(text.endswith("1 killed, 1 survived (0 explained in the catalogue), "
                                      "of 2 mutants"))
        self.assertNotIn(" s", matrix([(m, "tsan", "data race", 12.3)], times=False)
                         .splitlines()[1])

    def test_a_kill_without_the_symptom_is_unexpected(self):
        m = mutant(ONE.replace("expect = tsan", "expect = unit")
                   + "symptom = WATCHDOG: no progress .* while waking\n")
        out = "WATCHDOG: no progress for 3.0 s while waking it\nWATCHDOG: deadlock"
        self.assertEqual(mutants.judge(m, "watchdog", out), "watchdog")
        self.assertEqual(mutants.judge(m, "ctest timeout", "***Timeout"),
                         "ctest timeout, not the symptom")
        self.assertEqual(mutants.judge(mutant(), "data race", ""), "data race")  # no symptom
        self.assertTrue(mutants.as_expected(m, "unit", "watchdog"))
        self.assertFalse(mutants.as_expected(m, "unit", "ctest timeout, not the symptom"))
        self.assertFalse(mutants.as_expected(m, "tsan", "watchdog"))
        text = matrix([(m, "unit", "ctest timeout, not the symptom", 1.0)], times=False)
        self.assertIn("unit       ctest timeout, not the symptom  (expected: unit)", text)

    def test_a_row_that_names_its_tests_runs_only_those(self):
        m = mutant(ONE + "tests = test_latch\n")
        checks = mutants.row_checks(mutants.CHECKS, m)
        self.assertEqual([c.targets for c in checks if c.name in ("unit", "tsan", "asan")],
                         [("test_latch",)] * 3)
        self.assertEqual([c.targets for c in checks if c.name == "drivers"],
                         [tuple(mutants.DRIVERS)])
        self.assertIs(mutants.row_checks(mutants.CHECKS, mutant()), mutants.CHECKS)
        self.assertIs(mutants.row_checks(mutants.CHECKS, None), mutants.CHECKS)

    def test_explained_survivors(self):
        m = mutant(ONE.replace("expect = tsan", "expect = survives\nwhy = x86 hides it"))
        self.assertIn("(1 explained", matrix([(m, None, "", 1.0)], times=False))


class SymptomTest(unittest.TestCase):
    def test_first_match_names_the_failure(self):
        self.assertEqual(symptom("x\nWATCHDOG: deadlock, exiting with code 3\n"), "watchdog")
        self.assertEqual(symptom("WARNING: ThreadSanitizer: data race (pid=1)"), "data race")
        self.assertEqual(symptom("ERROR: AddressSanitizer: stack-use-after-return on"),
                         "stack-use-after-return")
        self.assertEqual(symptom("pan:1: assertion violated (taken[b]==1)"),
                         "assertion violated")
        self.assertEqual(symptom("1/7 Test  #7: every job ...***Timeout 120.12 sec"),
                         "ctest timeout")
        self.assertEqual(symptom("test.cpp:12: FAILED:\n  CHECK( x == 1 )"), "assertion")
        self.assertEqual(symptom("$ python3 deque.py\nwmm: steal (deque.steal.fence): job 2 taken twice (RC11"),
                         "job 2 taken twice")
        self.assertEqual(symptom("wmm: push ...: job 1 lost, job 2 taken twice (RC11"),
                         "job 1 lost")
        self.assertEqual(symptom("wmm: as built: no violation in 178"), "failed")
        self.assertEqual(symptom("Errors while running CTest"), "failed")


class CatalogueTest(unittest.TestCase):
    """The real catalogue: well formed, and every anchor applies to the tree exactly once."""

    def test_every_mutant_applies(self):
        ms = parse_catalogue(mutants.CATALOGUE.read_text())
        self.assertGreaterEqual(len(ms), 20)
        for m in ms:
            with self.subTest(m.name):
                apply((mutants.ROOT / m.file).read_text(), m)

    def test_every_exercise_applies(self):
        """An exercise row's edit, like a mutant's, must still find its line (exercises.py)."""
        for e in parse(mutants.CATALOGUE.read_text()).exercises:
            with self.subTest(e.name):
                apply((mutants.ROOT / e.file).read_text(), e)

    def test_every_exercise_is_in_a_chapter(self):
        """A row's title is an exercise's bold title in a chapter: a row whose exercise was
        renamed or removed would judge an answer nobody reads."""
        chapters = mutants.ROOT / "chapters"
        files = [*chapters.glob("*.md"), *chapters.glob("part[0-9]*/*.md")]  # Parts II and III too
        text = "\n".join(p.read_text() for p in files)
        for e in parse(mutants.CATALOGUE.read_text()).exercises:
            with self.subTest(e.name):
                self.assertIn(f"**{e.title}.**", text)

    def test_every_model_variant_exists(self):
        for m in parse(mutants.CATALOGUE.read_text()).models:
            if m.variant != "none" and m.file.endswith(".pml"):
                with self.subTest(m.test_name):
                    model = (mutants.ROOT / "tests" / "model" / m.file).read_text()
                    self.assertRegex(model, rf"defined\({m.variant}\)|ifn?def {m.variant}\b")

    def test_every_variant_of_a_model_is_in_the_catalogue(self):
        """One home: a variant a model implements is a catalogue row, so a ctest checks it."""
        listed = {(m.file, m.variant) for m in parse(mutants.CATALOGUE.read_text()).models}
        for pml in sorted((mutants.ROOT / "tests" / "model").glob("*.pml")):
            for variant in set(re.findall(r"(?:defined\(|ifn?def )([A-Z_]+)", pml.read_text())):
                with self.subTest(f"{pml.name} {variant}"):
                    self.assertIn((pml.name, variant), listed)


if __name__ == "__main__":
    unittest.main()
