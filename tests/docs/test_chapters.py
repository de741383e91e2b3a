"""Self-tests of chapters.py: the snippet fixtures under fixtures/, console blocks written here.

    python3 -m unittest discover -s tests/docs -p 'test_*.py'      (ctest: docs.selftest)
"""
import contextlib
import io
import os
import re
import shutil
import tempfile
import time
import unittest
from pathlib import Path

import chapters

FIXTURES = Path(__file__).resolve().parent / "fixtures"


def run(*argv):
    """(exit code, output) of chapters.py with these arguments."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
        try:
            code = chapters.main(list(argv))
        except SystemExit as e:  # argparse's usage errors
            code = e.code
    return code, out.getvalue()


class Tree:
    """Fixtures copied over each other into a fresh directory: `good, stale` is the good tree
    with the stale chapters."""

    def __init__(self, *fixtures, files=None):
        self.tmp = tempfile.TemporaryDirectory()
        self.root = Path(self.tmp.name)
        for f in fixtures:
            shutil.copytree(FIXTURES / f, self.root, dirs_exist_ok=True)
        for rel, text in (files or {}).items():
            (self.root / rel).parent.mkdir(parents=True, exist_ok=True)
            (self.root / rel).write_text(text)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.tmp.cleanup()

    def run(self, mode, *args):
        return run(mode, "--root", str(self.root), *args)


class Snippets(unittest.TestCase):
    def check(self, root, summary):
        code, out = run("check", "--snippets", "--root", str(root))
        self.assertEqual(code, 0, out)
        self.assertIn(summary, out)  # the count: a parser that finds nothing cannot pass

    def fails(self, tree, mode, *expected):
        code, out = tree.run(mode, "--snippets")
        self.assertEqual(code, 1, out)
        for e in expected:
            self.assertRegex(out, e)

    def test_good(self):
        self.check(FIXTURES / "good", "snippets: 15 blocks checked in 2 chapters, 0 problems")

    def test_nested_and_overlapping_regions(self):
        self.check(FIXTURES / "nested", "snippets: 7 blocks checked in 1 chapters, 0 problems")

    def test_no_chapters(self):
        self.check(FIXTURES / "empty", "snippets: 0 blocks checked in 0 chapters, 0 problems")

    def test_stale(self):
        with Tree("good", "stale") as t:
            self.fails(t, "check",
                       r"chapters/x\.md:14: block differs from src/a\.hpp:hostile",
                       r"  chapter\| int a\[3\] = \{1, 2, 4\}",
                       r"  source \| int a\[3\] = \{1, 2, 3\}",
                       r"  source \| \[\[nodiscard\]\] int f\(\)",
                       r"  source \| auto s = \"\$\{x\} \$ENV\{HOME\}",
                       r"chapters/y\.md:6: block differs from src/a\.hpp:indented",
                       r"chapters/y\.md:23: block differs from src/a\.hpp:indented",
                       r"chapter: \(end of block\)",
                       r"in 2 chapters, 3 problems")

    def test_each_problem(self):
        cases = {
            "unmarked": [r"chapters/unmarked\.md:5: cpp block without a marker",
                         r"in 1 chapters, 1 problems"],
            "missing-file": [r"chapters/missing-file\.md:3: snippet marker names a missing file "
                             r"'src/does_not_exist\.hpp'", r" 1 problems"],
            "missing-anchor": [r"chapters/missing-anchor\.md:8: anchor 'absent' not found in "
                               r"'src/b\.hpp'", r"2 blocks checked in 1 chapters, 1 problems"],
            "unterminated": [r"chapters/unterminated\.md:3: anchor 'opened' is started at "
                             r"src/open\.hpp:1 but never ended", r" 1 problems"],
            "duplicate": [r"anchor 'twice' is started more than once in 'src/dup\.hpp' "
                          r"\(lines 1, 4\)", r" 1 problems"],
            "malformed": [r"chapters/malformed\.md:3: malformed marker",
                          r"chapters/malformed\.md:8: marker is not directly followed by a code "
                          r"fence", r"chapters/malformed\.md:15: code fence '```' is never closed",
                          r" 3 problems"],
        }
        for fixture, expected in cases.items():
            with self.subTest(fixture), Tree(fixture) as t:
                self.fails(t, "check", *expected)

    def test_every_problem_is_reported(self):
        with Tree("good", "stale", "unmarked", "missing-file", "missing-anchor", "unterminated",
                  "duplicate", "malformed") as t:
            self.fails(t, "check", r"chapters/x\.md:14: block differs",
                       r"chapters/unmarked\.md:5: cpp block without a marker",
                       r"chapters/missing-file\.md:3: snippet marker names a missing file",
                       r"chapters/missing-anchor\.md:8: anchor 'absent' not found",
                       r"chapters/unterminated\.md:3: anchor 'opened' is started",
                       r"chapters/duplicate\.md:3: anchor 'twice' is started more than once",
                       r"chapters/malformed\.md:15: code fence",
                       r"snippets: [0-9]+ blocks checked in 8 chapters, 11 problems")

    def test_update_fixes_what_it_can_and_fails_on_the_rest(self):
        with Tree("good", "stale", "missing-file", "unmarked") as t:
            self.fails(t, "update", r"snippets: updated chapters/x\.md:14 from src/a\.hpp:hostile",
                       r"chapters/missing-file\.md:3: snippet marker names a missing file",
                       r"chapters/unmarked\.md:5: cpp block without a marker",
                       r"in 4 chapters, 3 blocks updated, 2 problems")

    def roundtrip(self, fixtures, updated):
        with Tree(*fixtures) as t:
            code, out = t.run("update", "--snippets")
            self.assertEqual(code, 0, out)
            self.assertIn(f", {updated} blocks updated, 0 problems", out)
            code, out = t.run("check", "--snippets")
            self.assertEqual(code, 0, out)
            code, out = t.run("update", "--snippets")
            self.assertIn(", 0 blocks updated, 0 problems", out)
            self.assertNotIn("wrote", out)
            good = [p for p in (FIXTURES / "good").rglob("*") if p.is_file()]
            self.assertTrue(good)
            for p in good:  # byte for byte, the missing final newline of y.md included
                rel = p.relative_to(FIXTURES / "good")
                self.assertEqual((t.root / rel).read_bytes(), p.read_bytes(), rel)

    def test_update_roundtrip(self):
        self.roundtrip(["good", "stale"], 3)

    def test_update_of_a_fresh_tree_is_a_noop(self):
        self.roundtrip(["good"], 0)

    def test_bad_arguments(self):
        code, out = run("bogus")
        self.assertEqual(code, 2)
        self.assertIn("invalid choice: 'bogus'", out)
        code, out = run("check", "--root", str(FIXTURES / "does-not-exist"))
        self.assertEqual(code, 2)
        self.assertRegex(out, r"ROOT '.*does-not-exist' is not a directory")


def chapter(*blocks):
    return "# C\n\n" + "\n".join(f"Text.\n\n<!-- console: {m} -->\n```console\n{b}```\n"
                                 for m, b in blocks)


class Console(unittest.TestCase):
    def tree(self, *blocks):
        return Tree(files={"chapters/c.md": chapter(*blocks)})

    def test_marker_options(self):
        cmd, o = chapters.console_marker(
            "grep -c x a | sort | exit 3 | varies: ^run \\d | varies: s$ | timeout 9 | slow")
        self.assertEqual(cmd, "grep -c x a | sort")  # the shell's pipes stay in the command
        self.assertEqual((o["exit"], o["varies"], o["timeout"], o["slow"]),
                         (3, ["^run \\d", "s$"], 9.0, True))

    def test_a_fresh_block_passes(self):
        with self.tree(("echo a; echo b >&2; exit 3 | exit 3", "$ echo a; echo b >&2; exit 3\na\nb\n")) as t:
            code, out = t.run("check", "--console")
            self.assertEqual(code, 0, out)
            self.assertIn("console: 1 blocks run", out)

    def test_update_then_check_then_noop(self):
        with self.tree(("printf 'x\\ny\\n'", "$ printf 'x\\ny\\n'\nold\n"),
                       ("echo 'one | two'", "$ echo 'one | two'\n")) as t:
            code, out = t.run("check", "--console")
            self.assertEqual(code, 1, out)
            self.assertRegex(out, r"chapters/c\.md:6: block differs from a fresh run of "
                             r"`printf 'x\\ny\\n'` \(2 lines differ")
            self.assertRegex(out, r"chapter: old\n    fresh  : x")
            self.assertRegex(out, r"chapters/c\.md:14: block differs")
            code, out = t.run("update", "--console", str(t.root / "chapters/c.md"))
            self.assertEqual(code, 0, out)
            self.assertIn("2 updated", out)
            self.assertIn("$ printf 'x\\ny\\n'\nx\ny\n```", (t.root / "chapters/c.md").read_text())
            self.assertEqual(t.run("check", "--console")[0], 0)
            self.assertNotIn("wrote", t.run("update", "--console")[1])

    def test_the_problems_are_repeated_after_the_summary(self):
        # a CI report that keeps only the log's last lines must still name the block and the diff
        with self.tree(("echo new", "$ echo new\nold\n"), ("echo same", "$ echo same\nsame\n")) as t:
            code, out = t.run("check", "--console")
            self.assertEqual(code, 1, out)
            tail = out[out.index("console: 2 blocks run"):]
            self.assertRegex(tail, r"the 1 problems again:\nchapters/c\.md:6: block differs from "
                                   r"a fresh run of `echo new`")
            self.assertIn("    chapter: old\n    fresh  : new", tail)
            self.assertTrue(tail.rstrip().endswith("failed with 1 problems (see above)"), tail)

    def test_repeat_finds_a_block_whose_verdict_varies(self):
        # a correct program whose output differs between runs: the block holds on the first run
        # only (a file in the tree says whether it ran before), as a timing-dependent block would
        flip = "test -e ran && echo b || { touch ran; echo a; }"
        with self.tree((flip, f"$ {flip}\na\n"), ("echo same", "$ echo same\nsame\n")) as t:
            code, out = t.run("check", "--console", "--repeat", "3")
            self.assertEqual(code, 1, out)
            self.assertIn("console: 2 blocks run (3 times each)", out)
            self.assertIn(", 1 varied between runs,", out)
            self.assertRegex(out, r"chapters/c\.md:6: VARIES: `test -e ran.*` held in 1 of 3 "
                                  r"runs; the first that failed:\nchapters/c\.md:6: block differs")
            self.assertNotRegex(out, r"chapters/c\.md:14: (VARIES|block differs)")
        with self.tree(("echo new", "$ echo new\nold\n")) as t:  # fails every run: not VARIES
            code, out = t.run("check", "--console", "--repeat", "2")
            self.assertEqual(code, 1, out)
            self.assertNotIn("VARIES", out)
            self.assertIn("chapters/c.md:6: block differs", out)

    def test_repeat_is_for_check_only(self):
        with self.tree(("echo a", "$ echo a\na\n")) as t:
            for args in (("update", "--repeat", "2"), ("check", "--repeat", "0")):
                code, out = t.run(*args)
                self.assertEqual(code, 2, out)
                self.assertIn("--repeat takes a whole number from 1, and only with check", out)

    def test_a_long_problem_is_cut_in_the_recap(self):
        lines = chapters.recap(["a\n" + "\n".join(f"l{i}" for i in range(20))], lines_each=3)
        self.assertEqual(lines, ["chapters.py: the 1 problems again:", "a", "l0", "l1",
                                 "  (18 more lines in its first report, above)"])

    def test_wrong_exit_code_fails_and_is_not_rewritten(self):
        with self.tree(("echo out; exit 3", "$ echo out; exit 3\nout\n")) as t:
            for mode in ("check", "update"):
                code, out = t.run(mode, "--console")
                self.assertEqual(code, 1, out)
                self.assertIn("chapters/c.md:6: `echo out; exit 3` exited 3, the marker expects "
                              "exit 0", out)
            self.assertNotIn("wrote", out)

    def test_varying_lines_compared_by_shape(self):
        block = "$ echo 'run 0: 12.5 ms, 3 sleeps'\nrun 0: 9.75 ms, 3 sleeps\n"
        with self.tree(("echo 'run 0: 12.5 ms, 3 sleeps' | varies: ms", block)) as t:
            self.assertEqual(t.run("check", "--console")[0], 0)  # numbers differ, shape same
        with self.tree(("echo 'run 0: 12.5 ms, 3 sleeps'", block)) as t:
            self.assertEqual(t.run("check", "--console")[0], 1)  # not marked: exact
        with self.tree(("echo 'run 0: 12.5 ms, 3 wakes' | varies: ms", block)) as t:
            self.assertEqual(t.run("check", "--console")[0], 1)  # a word differs: not the shape

    def test_a_source_line_number_is_never_a_varying_number(self):
        block = "$ echo 'pc 0x12 in set src/mini/latch.hpp:39'\npc 0x34 in set src/mini/latch.hpp:39\n"
        with self.tree(("echo 'pc 0x12 in set src/mini/latch.hpp:39' | varies: pc", block)) as t:
            self.assertEqual(t.run("check", "--console")[0], 0)  # the address varies
        moved = block.replace("pc 0x34 in set src/mini/latch.hpp:39", "pc 0x34 in set src/mini/latch.hpp:58")
        with self.tree(("echo 'pc 0x12 in set src/mini/latch.hpp:39' | varies: pc", moved)) as t:
            self.assertEqual(t.run("check", "--console")[0], 1)  # the line moved: stale

    def test_first_line_must_be_the_command(self):
        with self.tree(("echo a", "$ echo b\na\n")) as t:
            code, out = t.run("check", "--console")
            self.assertEqual(code, 1)
            self.assertIn("chapters/c.md:6: the block's first line is not `$ echo a`", out)

    def test_missing_build_tree_is_skipped(self):
        with self.tree(("build/nope/apps/fib 2", "$ build/nope/apps/fib 2\n"),
                       ("ctest --preset tsan -L docs", "$ ctest --preset tsan -L docs\n")) as t:
            code, out = t.run("check", "--console")
            self.assertEqual(code, 0, out)
            self.assertIn("skipped chapters/c.md:6: build/nope is not built", out)
            self.assertIn("skipped chapters/c.md:13: build/tsan is not built", out)
            self.assertIn("0 blocks run", out)

    def test_a_tree_the_command_configures_is_not_required(self):
        cmd = "mkdir -p build/mine && cmake -B build/mine --version >/dev/null; echo made"
        with self.tree((cmd, f"$ {cmd}\nmade\n")) as t:
            code, out = t.run("check", "--console")
            self.assertEqual(code, 0, out)
            self.assertIn("1 blocks run", out)

    def test_needs_an_optional_tool_the_tree_lacks_is_skipped(self):
        """A block printing what an optional tool adds is skipped where configure did not find it
        (build/NAME/optional-tools.txt), run where it did, and `needs:` names a known tool."""
        block = ("echo r | needs: rayon", "$ echo r\nwrong\n")
        with self.tree(block, ("build/release/x | needs: rayon", "$ build/release/x\n")) as t:
            (t.root / "build/release").mkdir(parents=True)
            (t.root / "build/release/optional-tools.txt").write_text("tbb\nopenmp\n")
            code, out = t.run("check", "--console")
            self.assertEqual(code, 0, out)
            self.assertIn("skipped chapters/c.md:6: rayon is not in build/release", out)
            self.assertIn("skipped chapters/c.md:14: rayon is not in build/release", out)
            (t.root / "build/release/optional-tools.txt").write_text("rayon\ntbb\n")
            code, out = t.run("check", "--console")
            self.assertEqual(code, 1, out)  # now it runs, and the block is stale
            self.assertIn("chapters/c.md:6: block differs", out)
        with self.tree(("echo r | needs: chromium", "$ echo r\nr\n")) as t:
            code, out = t.run("check", "--console")
            self.assertEqual(code, 1, out)
            self.assertIn("chapters/c.md:5: `needs: chromium` names no optional tool", out)

    def test_slow_runs_only_when_asked(self):
        with self.tree(("echo s | slow", "$ echo s\nwrong\n")) as t:
            code, out = t.run("check", "--console")
            self.assertEqual(code, 0, out)
            self.assertIn("0 blocks run", out)
            self.assertIn("1 slow not run", out)
            code, out = t.run("check", "--console", "--slow")
            self.assertEqual(code, 1)
            self.assertIn("1 blocks run", out)

    def test_manual_is_a_problem_and_never_run(self):
        """Every block is executed by CI: the old `manual` exemption is reported, not honoured."""
        with self.tree(("echo m | manual", "$ echo m\nm\n")) as t:
            for mode in ("check", "update"):
                code, out = t.run(mode, "--console", "--slow")
                self.assertEqual(code, 1, out)
                self.assertIn("chapters/c.md:5: `manual` is gone: every console block is "
                              "executed by CI", out)
                self.assertIn("0 blocks run", out)
            self.assertEqual(t.run("check", "--console", "--manual")[0], 2)  # no such option

    def test_timeout_kills_the_command(self):
        with self.tree(("sleep 30 | timeout 1", "$ sleep 30\n")) as t:
            start = time.monotonic()
            code, out = t.run("check", "--console")
            self.assertEqual(code, 1)
            self.assertIn("`sleep 30` was killed after 1 s", out)
            self.assertLess(time.monotonic() - start, 10)

    def test_the_checkout_path_is_written_as_dot(self):
        with self.tree(("pwd; ls chapters", "$ pwd; ls chapters\n")) as t:
            t.run("update", "--console")
            self.assertIn("$ pwd; ls chapters\n.\nc.md\n```", (t.root / "chapters/c.md").read_text())

    def test_inside_a_console_command_the_console_check_is_skipped(self):
        # a block running ctest would otherwise run this check again, recursively
        with self.tree(("echo a", "$ echo a\nwrong\n")) as t:
            os.environ[chapters.NESTED] = "1"
            try:
                code, out = t.run("check", "--console")
            finally:
                del os.environ[chapters.NESTED]
            self.assertEqual(code, 0, out)
            self.assertIn("console: skipped (already inside", out)

    def test_marker_above_another_language(self):
        with Tree(files={"chapters/c.md": "<!-- console: echo a -->\n```sh\n$ echo a\n```\n"}) as t:
            code, out = t.run("check", "--console")
            self.assertEqual(code, 1)
            self.assertIn("chapters/c.md:1: console marker above a ```sh block", out)


class Words(unittest.TestCase):
    CHAPTER = ("# One two\n\nThree four, five `six` [seven](https://x/y) | --- |\n"
               "<!-- console: echo a b c d -->\n```console\n$ echo a b c d\na b c d\n```\n"
               "<!-- a comment\nover two lines -->\n<details><summary>Eight</summary>\n\n"
               "   ~~~cpp\n   int x;\n   ~~~\nnine\n")

    def test_prose_only(self):
        with Tree(files={"chapters/01-one.md": self.CHAPTER}) as t:
            code, out = t.run("words")
        self.assertEqual(code, 0, out)
        # "#", "|", "---", "[seven](https://x/y)" and the <details><summary>Eight</summary> run
        # count as the reviewers count them; the console block, its marker and the comment do not
        self.assertRegex(out, r"chapters/01-one.md +13\n")
        self.assertRegex(out, r"main path +13 +\(budget 18000")

    def test_over_a_chapter_budget_or_the_total(self):
        import words
        long = "word " * 4501
        with Tree(files={"chapters/01-a.md": long, "chapters/02-b.md": "a b\n",
                         "chapters/appendix-x.md": long * 4, "chapters/part2/07-p.md": long}) as t:
            code, out = t.run("words")
            self.assertEqual(code, 1, out)
            self.assertRegex(out, r"chapters/01-a.md +4501  OVER the budget of 4500 by 1\n")
            self.assertRegex(out, r"chapters/appendix-x.md +18004  \(off the main path: no budget\)")
            self.assertRegex(out, r"chapters/part2/07-p.md +4501  \(off the main path: no budget\)")
            self.assertRegex(out, r"main path +4503  \(budget")
            self.assertIn("chapters.py: words: 1 over the budget", out)
            docs = [chapters.parse(p, os.path.relpath(p, t.root), chapters.Report("x"))
                    for p in sorted((t.root / "chapters").glob("*.md"))]
        lines, over = words.report(docs, per_chapter=5000, total=4000)
        self.assertEqual(over, 1)
        self.assertRegex(lines[-1], r"main path +4503  OVER the budget of 4000 by 503")


if __name__ == "__main__":
    unittest.main()
