#!/usr/bin/env python3
"""Self-tests of the exercise rows: the parser (exercise_rows.py) and the judge (exercises.py)."""
import sys
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from catalogue import CatalogueError, apply, parse  # noqa: E402
from exercises import judge, junit_results, listing  # noqa: E402

ROW = """
[exercise.x.y]
title = Change a line
file = src/x.hpp
anchor = x.store(1, std::memory_order_release);
replace = x.store(1, std::memory_order_relaxed);
build = test_x
tests = -R 'a b|c'
fails = test_x.a b one
    test_x.a b two
passes = c
count = 4
output = WATCHDOG.*queued 1
"""
SOMETIMES = ROW.replace("count = 4\n", "sometimes = d\nrepeat = 5\nfrequency = 1-4\n")
COMMAND = """
[exercise.cmd]
title = Run it
file = src/x.hpp
anchor = x.store(1, std::memory_order_release);
replace =
command = timeout 10 build/release/tests/test_x; echo "exit $?"
output = exit 124
"""


def row(text=ROW):
    return parse(text).exercises[0]


def run(passed, failed, out="WATCHDOG: no progress, queued 1"):
    return (8 if failed else 0, out, {**{n: True for n in passed}, **{n: False for n in failed}})


class ParseTest(unittest.TestCase):
    def test_fields(self):
        e = row()
        self.assertEqual((e.name, e.title, e.file, e.preset, e.build, e.count, e.repeat),
                         ("exercise.x.y", "Change a line", "src/x.hpp", "release", ("test_x",),
                          4, 1))
        self.assertEqual(e.tests, ("-R", "a b|c"))
        self.assertEqual(e.fails, ("test_x.a b one", "test_x.a b two"))
        self.assertEqual(e.passes, ("c",))
        self.assertEqual(parse(ROW).mutants, [])

    def test_sometimes(self):
        e = row(SOMETIMES)
        self.assertEqual((e.sometimes, e.repeat, e.frequency), (("d",), 5, (1, 4)))

    def test_command(self):
        e = row(COMMAND)
        self.assertEqual((e.command, e.exit, e.replace), (COMMAND.split("command = ")[1]
                                                          .split("\n")[0], 0, []))

    def test_applies_like_a_mutant(self):
        self.assertEqual(apply("  x.store(1, std::memory_order_release);\n", row()),
                         "  x.store(1, std::memory_order_relaxed);\n")

    def test_errors(self):
        bad = {
            "missing title": ROW.replace("title = Change a line\n", ""),
            "unknown field": ROW + "expect = unit\n",
            "no failure": ROW.replace("fails = test_x.a b one\n    test_x.a b two\n", ""),
            "count": ROW.replace("count = 4", "count = four"),
            "listed twice": ROW.replace("passes = c", "passes = test_x.a b one"),
            "sometimes without frequency": ROW + "sometimes = d\nrepeat = 3\n",
            "frequency without sometimes": ROW + "repeat = 3\nfrequency = 1-2\n",
            "frequency over repeat": SOMETIMES.replace("1-4", "1-6"),
            "frequency backwards": SOMETIMES.replace("1-4", "3-2"),
            "one run is no frequency": SOMETIMES.replace("repeat = 5", "repeat = 1")
                                               .replace("1-4", "1-1"),
            "bad regex": ROW.replace("output = WATCHDOG.*queued 1", "output = ("),
            "command with tests": COMMAND + "tests = -R x\n",
            "exit without command": ROW + "exit = 3\n",
            "empty anchor": ROW.replace("anchor = x.store(1, std::memory_order_release);",
                                        "anchor ="),
        }
        for what, text in bad.items():
            with self.subTest(what), self.assertRaises(CatalogueError):
                parse(text)

    def test_listing(self):
        self.assertIn("exercise.x.y  (release) Change a line: fails: test_x.a b one; "
                      "test_x.a b two; 4 tests run", listing([row()]))
        self.assertIn("fails in 1-4 of 5 runs: d", listing([row(SOMETIMES)]))


class JudgeTest(unittest.TestCase):
    FAILS = ("test_x.a b one", "test_x.a b two")

    def test_the_answer_holds(self):
        ok, seen = judge(row(), [run(["c", "e"], self.FAILS)])
        self.assertTrue(ok, seen)
        self.assertEqual(seen, ["1 runs of 4 tests; failed: test_x.a b one (1/1), "
                                "test_x.a b two (1/1)"])

    def test_a_test_said_to_fail_passes(self):
        ok, seen = judge(row(), [run(["c", "e", "test_x.a b two"], ["test_x.a b one"])])
        self.assertFalse(ok)
        self.assertIn("'test_x.a b two' passed in 1 of 1 runs, the answer says it fails", seen)

    def test_a_test_not_named_fails(self):
        """1.1's wrong answer: docs.snippets fails too and the answer does not say so."""
        ok, seen = judge(row(), [run(["c"], self.FAILS + ("e",))])
        self.assertFalse(ok)
        self.assertIn("'e' failed in 1 of 1 runs, the answer says it passes", seen)

    def test_a_named_test_that_does_not_run(self):
        ok, seen = judge(row(), [run(["e", "f"], self.FAILS)])
        self.assertFalse(ok)
        self.assertIn("run 1: 'c' did not run", seen)

    def test_count(self):
        ok, seen = judge(row(), [run(["c"], self.FAILS)])
        self.assertFalse(ok)
        self.assertIn("run 1: 3 tests ran, the answer says 4", seen)

    def test_output(self):
        ok, seen = judge(row(), [run(["c", "e"], self.FAILS, out="exit 3")])
        self.assertFalse(ok)
        self.assertIn("run 1: output does not match /WATCHDOG.*queued 1/", seen)

    def test_nothing_ran(self):
        self.assertFalse(judge(row(), [(8, "No tests were found", {})])[0])

    def test_every_run_is_judged(self):
        ok, seen = judge(row(), [run(["c", "e"], self.FAILS), run(["c"], self.FAILS + ("e",))])
        self.assertFalse(ok)
        self.assertIn("'e' failed in 1 of 2 runs, the answer says it passes", seen)

    def test_sometimes_within_the_frequency(self):
        e = row(SOMETIMES)
        runs = [run(["c"], self.FAILS + ("d",))] * 3 + [run(["c", "d"], self.FAILS)] * 2
        ok, seen = judge(e, runs)
        self.assertTrue(ok, seen)
        self.assertIn("d (3/5)", seen[0])

    def test_sometimes_never_or_always(self):
        """3.3's wrong answer: "still passes" where the test failed in 3 of 5 runs; and a test
        said to fail sometimes that fails every time is not "sometimes" either."""
        e = row(SOMETIMES)
        never = judge(e, [run(["c", "d"], self.FAILS)] * 5)
        self.assertFalse(never[0])
        self.assertIn("'d' failed in 0 of 5 runs, the answer says 1 to 4", never[1])
        self.assertFalse(judge(e, [run(["c"], self.FAILS + ("d",))] * 5)[0])

    def test_command(self):
        e = row(COMMAND)
        self.assertTrue(judge(e, [(0, "...\nexit 124\n", None)])[0])
        ok, seen = judge(e, [(0, "all passed\nexit 0\n", None)])
        self.assertFalse(ok)
        self.assertIn("run 1: output does not match /exit 124/", seen)
        self.assertIn("run 1: exit 1, the answer says 0", judge(e, [(1, "exit 124", None)])[1])


class JunitTest(unittest.TestCase):
    def test_passed_failed_and_not_run(self):
        xml = """<?xml version="1.0" encoding="UTF-8"?>
<testsuite name="(empty)" tests="3" failures="1">
  <testcase name="test_x.a b one" classname="x" time="0.1" status="run"><system-out>ok</system-out></testcase>
  <testcase name="test_x.it&apos;s" classname="x" time="3" status="fail"><failure message="Failed"/></testcase>
  <testcase name="gone" classname="x" time="0" status="notrun"><skipped message="Not Run"/></testcase>
</testsuite>"""
        self.assertEqual(junit_results(xml), {"test_x.a b one": True, "test_x.it's": False})


if __name__ == "__main__":
    unittest.main()
