"""Self-tests of chart.py: the table parser, determinism, and the check's three verdicts."""
import tempfile
import unittest
import xml.etree.ElementTree as ET
from pathlib import Path

import chart

BLOCK = """$ build/release/apps/compare 2 5
run 1/5 done in 2.0 s

workload [unit]                          serial                  mini              rayon                   oneTBB
join, fib(30), 1 thread [ns/join]        1.95 [1.76–2.64] ×0.11  17.7 [12.8–22.6]  38.0 [36.8–38.0] ×2.15  122 [111–129] ×6.88
  speedup over serial                    (baseline)              1.36x             1.16x                   1.21x
wake-up round trip [us/trip]             n/a                     2.53 [2.01–3.31]  9.53 [6.93–13.9] ×3.77  n/a [1]
CPU in the 20 ms pause after a job [ms]  0.06 [0.03–0.13]        0.07 [0.02–0.13]  0.10 [0.05–0.22]        0.16 [0.05–0.48]
mini's counters per run, median [min–max]:
  join, fib(30), 2 threads: B stolen 12 [10–17]
""".split("\n")

CHAPTER = "text\n\n```console\n" + "\n".join(BLOCK) + "```\n<!-- chart: img/c.svg -->\n"


class Table(unittest.TestCase):
    def test_rows_with_ratios_only(self):
        runtimes, rows = chart.table(BLOCK)
        self.assertEqual(runtimes, ["serial", "rayon", "oneTBB"])
        self.assertEqual(rows, [("join, fib(30), 1 thread [ns/join]",
                                 {"serial": 0.11, "rayon": 2.15, "oneTBB": 6.88}),
                                ("wake-up round trip [us/trip]", {"rayon": 3.77})])

    def test_no_table(self):
        self.assertEqual(chart.table(["$ ls", "a"]), ([], []))


class Svg(unittest.TestCase):
    def test_well_formed_and_deterministic(self):
        a, b = chart.svg(BLOCK, "t <&>"), chart.svg(BLOCK, "t <&>")
        self.assertEqual(a, b)
        root = ET.fromstring(a)
        self.assertEqual(len([e for e in root if e.tag.endswith("rect")]), 1 + 3 + 4)
        self.assertIn("×3.77", a)

    def test_ratio_one_is_the_reference_line(self):
        self.assertLess(chart.x_of(0.5), chart.x_of(1))
        self.assertLess(chart.x_of(1), chart.x_of(2))
        self.assertEqual(chart.x_of(1000), chart.x_of(16))  # clamped at the edge


class Check(unittest.TestCase):
    def test_missing_then_written_then_fresh_then_stale(self):
        with tempfile.TemporaryDirectory() as d:
            doc = Path(d) / "ch.md"
            problems, _ = chart.check(doc, CHAPTER, update=False)
            self.assertRegex(problems[0], r"^ch.md:\d+: chart c.svg is missing")
            problems, written = chart.check(doc, CHAPTER, update=True)
            self.assertEqual((problems, written), ([], [Path(d) / "img" / "c.svg"]))
            self.assertEqual(chart.check(doc, CHAPTER, update=False), ([], []))
            changed = CHAPTER.replace("×2.15", "×2.25")
            self.assertRegex(chart.check(doc, changed, update=False)[0][0], "is stale")

    def test_a_chart_needs_a_table_above_it(self):
        text = "```console\n$ ls\na\n```\n<!-- chart: c.svg -->\n"
        problems, _ = chart.check(Path("/nowhere/ch.md"), text, update=True)
        self.assertRegex(problems[0], "has no compare table")


if __name__ == "__main__":
    unittest.main()
