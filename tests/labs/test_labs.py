"""Self-tests of labs.py: the steps table, markers, the skeleton, and the round trips on the real
sources."""
import re
import tempfile
import unittest
from pathlib import Path

import labs

SRC = """a
    // LAB: one step 1: do it
    x = 1;
    // LAB_END: one
b
    // LAB: two the second
    y = 2; // why
    z = 3;
    // LAB_END: two
c"""


class Labs(unittest.TestCase):
    def test_holes(self):
        self.assertEqual(labs.holes(SRC), [("one", "step 1: do it", ["    x = 1;"]),
                                           ("two", "the second", ["    y = 2; // why",
                                                                  "    z = 3;"])])

    def test_skeleton_keeps_markers_and_drops_bodies(self):
        sk = labs.skeleton(SRC)
        self.assertNotIn("x = 1", sk)
        self.assertNotIn("z = 3", sk)
        self.assertIn("// LAB: two the second\n"
                      '    #error "lab: step two is not written yet (write it, then delete this '
                      'line)"\n    // LAB_END: two', sk)
        self.assertTrue(all(labs.is_empty(b) for _, _, b in labs.holes(sk)))

    def test_round_trip(self):
        sk = labs.skeleton(SRC)
        self.assertEqual(labs.fill(sk, {n: b for n, _, b in labs.holes(SRC)}), SRC)

    def test_is_empty(self):
        self.assertTrue(labs.is_empty(["", "   // TODO"]))
        self.assertFalse(labs.is_empty(["  f(); // TODO"]))
        self.assertTrue(labs.is_empty([labs.hole_statement("x", "  ")]))
        self.assertFalse(labs.is_empty([labs.hole_statement("x", "  "), "  f();"]))

    def test_bad_markers(self):
        for text in ["// LAB: a\n", "// LAB_END: a\n", "// LAB: a\n// LAB: b\n",
                     "// LAB: a\n// LAB_END: b\n",
                     "// LAB: a\n// LAB_END: a\n// LAB: a\n// LAB_END: a"]:
            with self.assertRaises(labs.LabError, msg=text):
                labs.holes(text)

    def test_real_sources_round_trip_and_skeletons_are_fresh(self):
        for lab, (src, dst) in labs.LABS.items():
            source = (labs.REPO / src).read_text()
            self.assertFalse([l for l in source.split("\n") if labs.is_marker(l)],
                             f"{src}: lab markers live in tests/labs/steps.ini, not the source")
            text = labs.marked(lab)
            self.assertEqual(labs.unmark(text), source, lab)
            hs = labs.holes(text)
            self.assertEqual([n for n, _, _ in hs], [s.name for s in labs.steps(lab)], lab)
            # (An empty hole in the source is the proof's to report, labs.prove.LAB: the source
            # would grade `missing`. Here it would fail a chapter's exercise that deletes a line.)
            sk = labs.skeleton(text)
            self.assertEqual(labs.fill(sk, {n: b for n, _, b in hs}), text, lab)
        self.assertEqual(labs.stale(), [])

    def test_marker_lines_are_under_5_percent_of_the_mechanism(self):
        # issue 35: the listings are the mechanism; ANCHOR regions are the only markers left
        lines = [l for p in sorted((labs.REPO / "src" / "mini").glob("*.[hc]pp"))
                 for l in p.read_text().split("\n")]
        markers = [l for l in lines if re.search(r"\b(ANCHOR|ANCHOR_END|LAB|LAB_END):", l)]
        self.assertLess(len(markers), 0.05 * len(lines), f"{len(markers)} of {len(lines)}")


PLAIN = """int f() {
    // ANCHOR: body
    int x = 0;
    x = 1; // one
    y = 2;
    // ANCHOR_END: body
    x = 1; // one
}"""
TABLE = """[t.one]
region = body
hint = step 1: set x
lines = x = 1; // one
    y = 2;
"""


class Steps(unittest.TestCase):
    def test_a_step_is_found_by_its_lines_in_its_region(self):
        (step,) = labs.steps("t", TABLE)
        self.assertEqual(step.lines, ["x = 1; // one", "y = 2;"])
        self.assertEqual(labs.mark(PLAIN, [step]).split("\n")[3:7],
                         ["    // LAB: one step 1: set x", "    x = 1; // one", "    y = 2;",
                          "    // LAB_END: one"])
        self.assertEqual(labs.unmark(labs.mark(PLAIN, [step])), PLAIN)

    def test_lines_added_around_a_step_move_nothing(self):
        (step,) = labs.steps("t", TABLE)
        moved = PLAIN.replace("    int x = 0;\n", "    int x = 0;\n    try {\n\n")
        self.assertEqual(labs.holes(labs.mark(moved, [step])),
                         [("one", "step 1: set x", ["    x = 1; // one", "    y = 2;"])])

    def test_a_step_whose_lines_changed_is_named(self):
        (step,) = labs.steps("t", TABLE)
        for text, why in [(PLAIN.replace("y = 2;", "y = 3;"), "not found"),
                          (PLAIN.replace("    y = 2;\n", "    y = 2;\n    x = 1; // one\n"
                                         "    y = 2;\n"), "found 2 times"),
                          (PLAIN.replace("ANCHOR: body", "ANCHOR: other"), "region body")]:
            with self.assertRaisesRegex(labs.LabError, why):
                labs.mark(text, [step])
        with self.assertRaisesRegex(labs.LabError, "steps one and two share lines"):
            labs.mark(PLAIN, labs.steps("t", TABLE + "\n[t.two]\nregion = body\nhint = h\n"
                                        "lines = y = 2;\n"))
        with self.assertRaisesRegex(labs.LabError, r"\[t.one\]: no hint"):
            labs.steps("t", TABLE.replace("hint = step 1: set x\n", ""))


if __name__ == "__main__":
    unittest.main()


class Printed(unittest.TestCase):
    """No chapter prints a lab's answer, beyond the labs listed in labs.PRINTED (issue 51)."""

    def test_no_chapter_prints_the_steps_of_a_lab_outside_the_known_exceptions(self):
        self.assertEqual(labs.printed_problems(), [])

    def test_the_fifo_lab_is_held_to_the_rule(self):
        self.assertNotIn("scope_fifo", labs.PRINTED)
        self.assertNotIn("scope_fifo", labs.printed())

    def test_the_labs_given_a_variation_are_held_to_the_rule(self):
        # unwind (join_fused.hpp), cross (join_across.hpp) and join (join3.hpp): their chapters
        # keep the listings of run_a, in_worker_cross and join_on, and the labs ask for a
        # variation no chapter prints
        for lab, src in (("unwind", "src/mini/join_fused.hpp"),
                         ("cross", "src/mini/join_across.hpp"), ("join", "src/mini/join3.hpp")):
            self.assertEqual(labs.LABS[lab][0], src)
            self.assertNotIn(lab, labs.PRINTED)
            self.assertNotIn(lab, labs.printed())

    def test_a_step_in_a_listing_or_in_the_prose_is_found_comments_and_blanks_aside(self):
        with tempfile.TemporaryDirectory() as d:
            root = Path(d)
            (root / "chapters" / "labs").mkdir(parents=True)
            (root / "README.md").write_text("")
            (root / "chapters" / "labs" / "README.md").write_text("")
            table = "[scope_fifo.count]\nregion = r\nhint = h\nlines = a.b(); // why\n"
            (root / "chapters" / "x.md").write_text("Replace `a.b();` with nothing.\n")
            self.assertEqual(labs.printed(root, table), {"scope_fifo": [("count", "chapters/x.md")]})
            (root / "chapters" / "x.md").write_text("```cpp\n    a.b();   // other words\n```\n")
            self.assertEqual(labs.printed(root, table), {"scope_fifo": [("count", "chapters/x.md")]})
            (root / "chapters" / "x.md").write_text("a.c();\n")
            self.assertEqual(labs.printed(root, table), {})
