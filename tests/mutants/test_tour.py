#!/usr/bin/env python3
"""Self-tests of the tour's judges, on the drivers' real output formats (run by ctest)."""
import json
import sys
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import tour  # noqa: E402
from catalogue import CatalogueError, Observation, parse  # noqa: E402

SPLITS = """run 0: outside    8 rayon    8 (no-steal theory    8,   2 pieces migrated)   inside    2 rayon
run 1: outside   16 rayon   16 (no-steal theory   16,   2 pieces migrated)   inside    2 rayon
"""
FIB = """run 0: 0.0301 s  correct  joins 143, B inline 140, B stolen 3, run while waiting 0, sleeps 1
run 1: 0.0302 s  correct  joins 143, B inline 143, B stolen 0, run while waiting {w}, sleeps 1
median 0.0302 s, serial 0.0302 s, speedup 1.00x on 2 threads
all results correct
"""
STEAL_WAIT = """run 0:  as built 0.0545 s correct, run while waiting 18  NO_STEAL_WAIT 0.1002 s correct, run while waiting {w}
median: as built 0.0545 s, NO_STEAL_WAIT 0.1002 s: NO_STEAL_WAIT takes {x}x
all results correct
"""
WATCHDOG = ("WATCHDOG: no progress for 5.0 s while running fib: run 1/1, 3 B stolen so far\n"
            "WATCHDOG: deadlock, exiting with code 3\n")


class JudgeTest(unittest.TestCase):
    def test_passes(self):
        self.assertEqual(tour.passes(0, "x\n10/10 runs passed\n", "10/10", "runs", "passed"),
                         (True, "exit 0, 10/10 runs passed"))
        self.assertFalse(tour.passes(1, "10/10 runs passed", "10/10")[0])
        self.assertEqual(tour.passes(0, "9/10 runs passed", "10/10"), (False, "exit 0, no match"))

    def test_watchdog_needs_exit_3_and_its_line(self):
        self.assertEqual(tour.watchdog(3, WATCHDOG, "running", "fib"),
                         (True, "exit 3, WATCHDOG after 5.0 s: run 1/1, 3 B stolen so far"))
        self.assertFalse(tour.watchdog(3, WATCHDOG, "running", "splits")[0])
        self.assertFalse(tour.watchdog(1, WATCHDOG, "running", "fib")[0])
        self.assertEqual(tour.watchdog(None, "", "running", "fib"),
                         (False, "KILLED (timeout), no WATCHDOG line"))
        self.assertEqual(tour.watchdog(-6, "", "x")[1], "KILLED (signal 6), no WATCHDOG line")

    def test_leaves(self):
        self.assertEqual(tour.leaves(0, SPLITS, "outside=8+", "inside=2"),
                         (True, "exit 0, 2 runs, outside 8 16, inside 2 2"))
        self.assertFalse(tour.leaves(0, SPLITS, "outside=8", "inside=2")[0])
        self.assertTrue(tour.leaves(0, SPLITS, "outside=*", "inside=*")[0])
        self.assertFalse(tour.leaves(0, "", "outside=*", "inside=*")[0])  # no run at all

    def test_waited(self):
        self.assertEqual(tour.waited(0, FIB.format(w=0), "0"),
                         (True, "exit 0, all correct, run while waiting 0 0, median 0.0302 s"))
        self.assertFalse(tour.waited(0, FIB.format(w=2), "0")[0])
        self.assertFalse(tour.waited(0, FIB.format(w=0).replace("all results", "x"), "0")[0])

    def test_slower(self):
        self.assertEqual(tour.slower(0, STEAL_WAIT.format(w=0, x="1.84"), "1.25"),
                         (True, "exit 0, all correct, NO_STEAL_WAIT ran 0 jobs while waiting "
                                "in 1 runs, takes 1.84x = 0.1002/0.0545 s"))
        self.assertFalse(tour.slower(0, STEAL_WAIT.format(w=0, x="1.10"), "1.25")[0])
        self.assertFalse(tour.slower(0, STEAL_WAIT.format(w=3, x="1.84"), "1.25")[0])


class CatalogueTest(unittest.TestCase):
    def test_unknown_judge_or_arguments(self):
        for judge, args in (("luck", ()), ("leaves", ("outside=1",)), ("slower", ())):
            with self.subTest(judge), self.assertRaises(CatalogueError):
                tour.check_judges([Observation("r", "release", ("fib",), judge, args)])

    def test_release_runs_first(self):
        obs = [Observation("r", p, ("x",), "passes", ()) for p in ("b", "release", "b", "a")]
        self.assertEqual([o.preset for o in tour.in_order(obs)], ["release", "b", "b", "a"])

    def test_the_real_catalogue(self):
        """Every tour line has a known judge, and names a preset CMakePresets.json defines."""
        cat = parse(tour.CATALOGUE.read_text())
        tour.check_judges(cat.tour)
        presets = {p["name"] for p in json.loads((tour.ROOT / "CMakePresets.json").read_text())
                   ["configurePresets"]}
        self.assertGreaterEqual(len(cat.tour), 10)
        for o in cat.tour:
            with self.subTest(f"{o.row}: {' '.join(o.command)}"):
                self.assertIn(o.preset, presets)


if __name__ == "__main__":
    unittest.main()
