"""Self-tests of claims.py: names in backticks checked against a tiny tree, measured sentences.

    python3 -m unittest discover -s tests/docs -p 'test_*.py'      (ctest: docs.selftest)
"""
import contextlib
import io
import tempfile
import unittest
from pathlib import Path

import claims

SOURCE = """// src/mini/pool.hpp
enum class Probe { idle, woken };
struct SpinLatch { void set(); };
void wait_until(const SpinLatch& latch);
std::size_t len_;
"""


class Claims(unittest.TestCase):
    def run_on(self, chapter, outside="", extra=None):
        """(exit code, output) of claims.py over one chapter in a tiny tree."""
        with tempfile.TemporaryDirectory() as tmp:
            root = Path(tmp)
            files = {"src/mini/pool.hpp": SOURCE, "chapters/01-c.md": chapter,
                     "tests/docs/outside-names.txt": outside, **(extra or {})}
            for rel, text in files.items():
                (root / rel).parent.mkdir(parents=True, exist_ok=True)
                (root / rel).write_text(text)
            out = io.StringIO()
            with contextlib.redirect_stdout(out):
                code = claims.main(["--root", str(root)])
            return code, out.getvalue()

    def assertFails(self, chapter, *expected, **kw):
        code, out = self.run_on(chapter, **kw)
        self.assertEqual(code, 1, out)
        for e in expected:
            self.assertIn(e, out)
        return out

    def assertPasses(self, chapter, **kw):
        code, out = self.run_on(chapter, **kw)
        self.assertEqual(code, 0, out)
        self.assertIn(" 0 problems", out)
        return out

    def test_names_that_exist_pass(self):
        out = self.assertPasses("# T\n\n`Probe::idle`, `SpinLatch::set`, `wait_until(latch)`,\n"
                                "`len_`, `SpinLatch` and [`src/mini/pool.hpp`](../src/mini/pool.hpp).\n")
        self.assertIn("claims: 6 spans in 1 files", out)  # the spans were seen, not skipped

    def test_a_name_the_tree_lacks_fails_by_its_line(self):
        self.assertFails("# T\n\nfirst line\nthe `before_sleep` hook\n",
                         "chapters/01-c.md:4: `before_sleep`: no `before_sleep` in the source tree")

    def test_each_kind_of_code_like_span_is_checked(self):
        for span, missing in [("Probe::before_sleep", "before_sleep"),   # qualified name
                              ("Sleep::sleep()", "Sleep"),                # qualified call
                              ("hand_over_core(w)", "hand_over_core"),    # a call
                              ("self->sleep_", "self"),                   # a member
                              ("spins_until_block", "spins_until_block"), # snake_case
                              ("NO_FENCE", "NO_FENCE"),                   # UPPER_SNAKE
                              ("terminate_", "terminate_"),               # a member's name
                              ("StackJob", "StackJob")]:                  # CamelCase
            with self.subTest(span=span):
                self.assertFails(f"`{span}`\n", f"no `{missing}` in the source tree")

    def test_a_path_of_the_tree_must_exist(self):
        self.assertFails("see `src/mini/gone.hpp`\n",
                         "chapters/01-c.md:1: `src/mini/gone.hpp` names a path that does not exist")
        self.assertPasses("see `src/mini/*.hpp` and `src/mini/`\n")
        self.assertPasses("rayon's `rayon-core/src/registry.rs`, a ratio `T/2`, `ns/join`\n")

    def test_prose_words_and_commands_are_not_code(self):
        self.assertPasses("`top`, `release`, `no-recheck`, `sleepers == 0`, `-O3`, "
                          "`cmake --workflow --preset release`, `run while waiting 0`\n")

    def test_fenced_blocks_are_not_prose(self):
        self.assertPasses("```text\n`before_sleep`\n```\n~~~\n`gone_name`\n~~~\n")

    def test_outside_names(self):
        """A name linked to another site, a std:: name and a listed name are that source's."""
        self.assertPasses("[rayon's `src/registry.rs`, `Registry::in_worker_cross`]"
                          "(https://github.com/rayon-rs/rayon/blob/x/rayon-core/src/registry.rs)\n"
                          "`std::atomic_thread_fence`, `std::bit_width`\n")
        chapter = "rayon's `CoreLatch::set` and `LengthSplitter`\n"
        self.assertFails(chapter, "no `CoreLatch`")
        self.assertPasses(chapter, outside="# rayon\nCoreLatch::set  rayon-core latch.rs\n"
                                           "LengthSplitter  rayon iter/plumbing/mod.rs\n")
        # a link to a file of the tree is not an outside citation
        self.assertFails("[`gone_name`](../src/mini/pool.hpp)\n", "no `gone_name`")

    def test_measured_needs_its_command(self):
        self.assertFails("# T\n\nA claim.\nMeasured, it failed in 3 of 5 runs.\n\nNext.\n",
                         "chapters/01-c.md:4: a \"Measured\" sentence without its command")
        self.assertPasses("Measured with `build/release/apps/fib 2 30`: 3 of 5.\n")
        self.assertPasses("Measured over five tries:\n\n<!-- console: echo 3 -->\n"
                          "```console\n$ echo 3\n3\n```\n")
        self.assertPasses("the figures were measured on an idle machine\n")  # not a claim

    def test_a_measured_heading_needs_a_console_block_in_its_section(self):
        self.assertFails("## Measured: ours\n\ntext\n\n## Next\n\n```console\n$ x\n```\n",
                         "chapters/01-c.md:1: a \"Measured\" heading with no console block")
        self.assertPasses("## Measured: ours\n\ntext\n\n```console\n$ x\n```\n")

    def test_list_items_are_paragraphs_of_their_own(self):
        self.assertFails("- `build/release/apps/fib` prints it\n- Measured: 3 of 5\n",
                         "chapters/01-c.md:2: a \"Measured\" sentence")


if __name__ == "__main__":
    unittest.main()
