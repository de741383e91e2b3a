"""Self-tests of labs.py: markers, the skeleton, and the round trip on the real sources."""
import unittest

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
            text = (labs.REPO / src).read_text()
            hs = labs.holes(text)
            self.assertTrue(hs, lab)
            # (An empty hole in the source is the proof's to report, labs.prove.LAB: the source
            # would grade `missing`. Here it would fail a chapter's exercise that deletes a line.)
            sk = labs.skeleton(text)
            self.assertEqual(labs.fill(sk, {n: b for n, _, b in hs}), text, lab)
        self.assertEqual(labs.stale(), [])


if __name__ == "__main__":
    unittest.main()
