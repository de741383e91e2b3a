"""Self-tests of the grader's logic that needs no build (verdicts.py, grade.py's parsing, the
proof's judge)."""
import re
import unittest
from pathlib import Path

import grade
import labs
import prove
import verdicts as v

SRC = """int f() {
    // LAB: one step 1
    fence(); // why
    // LAB_END: one
    // LAB: two step 2
    if (x) {
        y();
    }
    // LAB_END: two
}"""


class Tokens(unittest.TestCase):
    def test_comments_blanks_and_hole_statements_are_not_code(self):
        self.assertEqual(v.tokens(["  a::b(1); // c", "", labs.hole_statement("x", "  "),
                                   "/* d */ e->f && g"]),
                         ["a", "::", "b", "(", "1", ")", ";", "e", "->", "f", "&&", "g"])

    def test_a_statement_stands_on_its_own(self):
        wait = v.tokens(["cv_.wait(lock);"])
        self.assertTrue(v.has_statement(["x = 1;", "cv_.wait(lock); // 5."], wait))
        self.assertTrue(v.has_statement(["cv_.wait(lock);"], wait))
        self.assertTrue(v.has_statement(["if (a) b(); else", "  cv_.wait(lock);"], wait))
        # sleep.wait.for-token: the same call in a loop is not the statement
        self.assertFalse(v.has_statement(["while (t == 0) cv_.wait(lock);"], wait))
        self.assertFalse(v.has_statement(["cv_.wait(lock, pred);"], wait))


class Rows(unittest.TestCase):
    def test_each_row_of_a_lab_file_lives_in_one_hole(self):
        steps = {}
        for lab, (src, _) in labs.LABS.items():
            try:
                for row in v.rows(src, labs.marked(lab),
                                  others=None if grade.LABS[lab].whole_file else []):
                    steps[row.mutant.name] = row.step
            except v.catalogue.CatalogueError as e:  # a line edited on purpose (an exercise):
                self.skipTest(f"{e} (tooling.mutants.self_tests reports it)")  # not ours to say
        self.assertEqual(steps, {
            "quiet_latch.wait.fence": "fence", "quiet_latch.recheck.removed": "fence",
            "quiet_latch.wait.stays-counted": "fence", "quiet_latch.set.fence": "publish",
            "quiet_latch.set.always-locks": "publish", "quiet_latch.set.unlocked-notify": "wake"})

    def test_a_lab_cut_from_part_of_a_file_leaves_the_rows_outside_its_regions(self):
        # pool.hpp with in_worker_cross's last line as the one hole (the cross lab before its
        # variation, join_across): the file's other rows change none of its regions
        src, others = "src/mini/pool.hpp", []
        step = labs.Step("result", "in_worker_cross", "h", ["return job.into_result();"])
        marked = labs.mark((labs.REPO / src).read_text(encoding="utf-8"), [step], src)
        try:
            self.assertEqual(v.rows(src, marked, others=others), [])
        except v.catalogue.CatalogueError as e:  # as above
            self.skipTest(f"{e} (tooling.mutants.self_tests reports it)")
        self.assertIn("pools.cross.removed", others)
        self.assertTrue(all(lab.whole_file for lab in grade.LABS.values()))

    def test_the_model_statement_is_the_changed_line_without_its_brace(self):
        src = labs.LABS["sleep"][0]
        try:
            row = {r.mutant.name: r for r in v.rows(src, labs.marked("sleep"))}
        except v.catalogue.CatalogueError as e:  # as above
            self.skipTest(f"{e} (tooling.mutants.self_tests reports it)")
        self.assertEqual(row["quiet_latch.recheck.removed"].shown,
                         "while (!probe()) cv_.wait(lock);")
        self.assertEqual(row["quiet_latch.set.fence"].shown,
                         "std::atomic_thread_fence(std::memory_order_seq_cst);")

    def test_a_row_outside_the_holes_is_an_error(self):
        m = v.catalogue.parse_catalogue("[r]\nfile = f\nanchor = int f() {\nreplace = int g() {\n"
                                        "breaks = b\nexpect = unit\n")
        with self.assertRaisesRegex(labs.LabError, "row r changes f outside one hole"):
            v.rows("f", SRC, m)
        # a lab cut from part of its file: a row outside the regions that hold its holes is not
        # its own; one inside such a region but outside the holes is still an error
        regions = "// ANCHOR: r\n" + SRC.replace("}", "}\n// ANCHOR_END: r", 1) + "\nint h() {"
        others = []
        outside = v.catalogue.parse_catalogue("[o]\nfile = f\nanchor = int h() {\nreplace = "
                                              "int k() {\nbreaks = b\nexpect = unit\n")
        self.assertEqual(v.rows("f", regions, outside, others), [])
        self.assertEqual(others, ["o"])
        with self.assertRaisesRegex(labs.LabError, "row r changes f outside one hole"):
            v.rows("f", regions, m, others)


class Effects(unittest.TestCase):
    def test_operations_by_effect_not_spelling(self):
        ops = v.operations
        self.assertEqual(ops(["std::atomic_thread_fence(std::memory_order::seq_cst);"]),
                         [("fence", "seq_cst")])
        self.assertEqual(ops(["atomic_thread_fence(std::memory_order_acq_rel);"]),
                         [("fence", "weaker")])
        for reg in ("sleepers_.fetch_add(1);", "++sleepers_;", "sleepers_++;", "sleepers_ += 1;"):
            self.assertEqual(ops([reg]), [("register",)], reg)
        for out in ("sleepers_.fetch_sub(1, std::memory_order_relaxed);", "--sleepers_;",
                    "sleepers_--;", "sleepers_ -= 1;"):
            self.assertEqual(ops([out]), [("unregister",)], out)
        self.assertEqual(ops(["const bool w = has_work();", "if (w) return false;"]),
                         [("recheck",)])
        self.assertEqual(ops(["cv_.wait(lk);"]), [("wait", True)])
        self.assertEqual(ops(["while (t == 0) cv_.wait(lock);"]), [("wait", False)])
        self.assertEqual(ops(["lock.unlock();", "auto s = sleepers_.load();"]),
                         [("unlock",), ("load",)])
        # QuietLatch's names (the sleep lab): its count, its accessor, its re-check, its flag
        self.assertEqual(ops(["set_.store(true);", "++waiters_;", "if (waiters() == 0) return;",
                              "if (probe()) { waiters_.fetch_sub(1); }", "set_ = true;"]),
                         [("publish",), ("register",), ("load",), ("recheck",), ("unregister",),
                          ("publish",)])

    def test_the_accessor_is_a_load_a_local_of_its_name_is_not(self):
        self.assertEqual(v.operations(["const auto n = sleepers();"]), [("load",)])
        self.assertEqual(v.operations(["const auto n = this->sleepers();"]), [("load",)])
        self.assertEqual(v.operations(["if (sleepers > 0) wake(true);"]), [])
        fence = v.tokens(["std::atomic_thread_fence(std::memory_order_seq_cst);"])
        self.assertTrue(v.has_effect(["std::atomic_thread_fence(std::memory_order_seq_cst);",
                                      "const auto n = sleepers();"], fence))
        self.assertFalse(v.has_effect(["const auto n = sleepers();",
                                       "std::atomic_thread_fence(std::memory_order_seq_cst);"],
                                      fence))

    def test_a_step_with_no_wait_where_the_line_waits_is_a_busy_wait(self):
        # Sleep's wait_counted_out (sleep.hpp, the sleep lab's file before QuietLatch) as a step:
        # its rows sleep.wait.for-token and sleep.wait.spurious-not-counted are the model's
        src = "src/mini/sleep.hpp"
        text = (labs.REPO / src).read_text(encoding="utf-8")
        first, last = labs.region_span(text.split("\n"), "wait_counted_out")
        lines = [l.strip() for l in text.split("\n")[first:last]][1:-1]  # the body
        step = labs.Step("counted_out", "wait_counted_out", "h", lines)
        try:
            rows = [r for r in v.rows(src, labs.mark(text, [step], src), others=[])
                    if r.step == "counted_out"]
        except v.catalogue.CatalogueError as e:  # as above
            self.skipTest(f"{e} (tooling.mutants.self_tests reports it)")
        self.assertEqual(len(rows), 2)
        spin = ["while (tokens_ == 0) {", "lock.unlock();", "lock.lock();", "}", "--tokens_;"]
        loop = ["while (tokens_ == 0) cv_.wait(lock);", "--tokens_;"]
        self.assertTrue(any(v.never_waits(spin, r) for r in rows))
        self.assertFalse(any(v.never_waits(loop, r) for r in rows))  # the model's: tokens
        self.assertFalse(any(v.never_waits(["cv_.wait(lock);"], r) for r in rows))
        self.assertIn("never blocks in `cv_.wait(...)`", v.NO_WAIT)
        self.assertNotIn("token", v.NO_WAIT)

    def test_the_replays_guess_about_the_re_check_is_said_only_of_the_re_check(self):
        detail = ("`test_pool.x`, hung: the watchdog ended it (exit 3), the watchdog's replay: lost "
                  "wake-up: job 1 was injected by producer 0, which read 0 sleepers and notified "
                  "nobody; worker 0 registered after that read and waited without re-checking")
        self.assertEqual(v.for_step("recheck", detail), detail)
        other = v.for_step("wait", detail)
        self.assertNotIn("waited without re-checking", other)
        self.assertIn("notified nobody, while worker 0 was asleep and not counted as a sleeper",
                      other)
        self.assertIn("your re-check is not in question", other)
        # a lab with no sleep protocol of its own (cross: a latch on the wrong sleep state): what
        # the replay saw, without its guess about a re-check
        cross = v.for_step("job", detail, "cross")
        self.assertTrue(cross.endswith("read 0 sleepers and notified nobody"), cross)

    def test_a_step_without_the_effect_its_lab_names(self):
        effect = grade.LABS["cross"].effects["job"]
        self.assertTrue(v.lacks_effect(["StackJob<SpinLatch, decltype(body)> job(std::move(body),",
                                        "&current.pool().sleep());"], effect))
        for ok in ["StackJob<SpinLatch, decltype(body)> job(std::move(body), SpinLatch::cross,",
                   "auto owner = current.pool().sleep_owner_; StackJob<mini::SpinLatch, "
                   "decltype(body)> job(std::move(body), mini::SpinLatch::Cross{}, owner);"]:
            self.assertFalse(v.lacks_effect([ok, "current.pool().sleep_owner_);"], effect), ok)
        self.assertTrue(v.lacks_effect(["// SpinLatch::cross", "f();"], effect))  # a comment

    def test_a_fence_counts_only_on_its_side_of_the_load_and_the_registration(self):
        fence = v.tokens(["std::atomic_thread_fence(std::memory_order_seq_cst);"])
        self.assertTrue(v.has_effect(["std::atomic_thread_fence(std::memory_order::seq_cst);",
                                      "auto s = sleepers_.load();"], fence))
        self.assertFalse(v.has_effect(["auto s = sleepers_.load();",
                                       "std::atomic_thread_fence(std::memory_order_seq_cst);"],
                                      fence))
        self.assertFalse(v.has_effect(["std::atomic_thread_fence(std::memory_order_seq_cst);",
                                       "++sleepers_;"], fence))
        # a re-check before the step's first wait: a loop's test or cv_.wait's predicate, not
        # a look after the wait (QuietLatch's recheck.removed)
        recheck = v.tokens(["while (!probe()) cv_.wait(lock);"])
        for ok in (["while (!probe()) cv_.wait(lock);"], ["cv_.wait(lk, [this] { return probe(); });"],
                   ["if (probe()) return;", "do cv_.wait(lock); while (!probe());"]):
            self.assertTrue(v.has_effect(ok, recheck), ok)
        for bad in (["do cv_.wait(lock); while (!probe());"], ["cv_.wait(lock);"],
                    ["cv_.wait(lock, [&] { return done; });", "if (probe()) return;"]):
            self.assertFalse(v.has_effect(bad, recheck), bad)
        # a setter's fence: after its store of the flag, before its read of the waiters
        store, read = "set_.store(true, std::memory_order_release);", "if (waiters() == 0) return;"
        f = "std::atomic_thread_fence(std::memory_order_seq_cst);"
        self.assertTrue(v.has_effect([store, f, read], fence))
        self.assertFalse(v.has_effect([f, store, read], fence))
        self.assertFalse(v.has_effect([read, store, f], fence))

    def test_every_variant_gets_its_model_verdict_by_effect(self):
        # variants.ini's fixtures, the part that needs no build: the model check finds the
        # effect of each model line in every step but the one a variant breaks by the model
        for lab in labs.LABS:
            source = labs.marked(lab)
            rows = v.rows(labs.LABS[lab][0], source,
                          others=None if grade.LABS[lab].whole_file else [])
            for variant in v.variants(lab):
                bodies = {n: b for n, _, b in labs.holes(variant.text(source))}
                judged = {r.mutant.name: v.has_effect(bodies[r.step], r.statement)
                          for r in rows if r.mutant.expect == "model"}
                for r in rows:
                    if r.mutant.expect != "model":
                        continue
                    if r.step == variant.step and "model" in variant.checks:
                        continue  # one row of the step must fail: below
                    self.assertTrue(judged[r.mutant.name], f"{variant.name}: {r.mutant.name}")
                if "model" in variant.checks:
                    self.assertFalse(all(judged[r.mutant.name] for r in rows
                                         if r.step == variant.step and r.mutant.expect == "model"),
                                     variant.name)

    def test_variants_parse(self):
        names = [x.name for lab in labs.LABS for x in v.variants(lab)]
        self.assertIn("lock-named-lk", names)
        (x,) = v.variants("t", "[t.a]\nintent = one unit|forced\nwhy = w\none = a;\n    b;\n")
        self.assertEqual((x.step, x.checks, x.bodies, x.says), ("one", ("unit", "forced"),
                                                                {"one": ["a;", "b;"]}, ""))
        (x,) = v.variants("t", "[t.a]\nintent = one unit\nwhy = w\nsays = ^(?!.*x)\none = a;\n")
        self.assertEqual((x.says, x.bodies), ("^(?!.*x)", {"one": ["a;"]}))


class Holes(unittest.TestCase):
    def test_classify(self):
        mine = labs.fill(SRC, {"one": ["    fence();   // mine"], "two": ["    z();"]})
        self.assertEqual(v.classify(mine, SRC), {"one": "same", "two": "written"})
        self.assertEqual(v.classify(labs.skeleton(SRC), SRC), {"one": "missing", "two": "missing"})
        with self.assertRaises(labs.LabError):
            v.classify(SRC.replace("LAB: two", "LAB: three").replace("_END: two", "_END: three"),
                       SRC)

    def test_compose_takes_the_named_holes_from_the_source(self):
        mine = labs.skeleton(SRC)
        self.assertEqual(v.compose(mine, SRC, ["one", "two"]), SRC)
        self.assertIn("#error", v.compose(mine, SRC, ["one"]))

    def test_a_copy_of_an_older_skeleton_still_grades(self):
        for lab, (_, dst) in labs.LABS.items():
            # Part II's, and the variations of join (join3) and splitter (bridge_2d): newer than that copy
            if lab in ("join", "splitter", "unwind", "scope", "cross", "scope_fifo"):
                self.assertFalse((prove.OLD_SKELETONS / Path(dst).name).exists(), lab)
                continue
            if lab in prove.RECUT:  # cut from another file since: the copy is of another lab
                for copy in (prove.OLD_SKELETONS, prove.OLD_SOLVED):
                    with self.assertRaisesRegex(labs.LabError, "reset it"):
                        v.classify((copy / Path(dst).name).read_text(), labs.marked(lab))
                continue
            old = (prove.OLD_SKELETONS / Path(dst).name).read_text()
            source = labs.marked(lab)
            status = v.classify(old, source)
            self.assertEqual({n: s for n, s in status.items() if s != "missing"}, {}, lab)
            solved = (prove.OLD_SOLVED / Path(dst).name).read_text()
            changed = {}  # no lab today grades an older solved copy (see above)
            self.assertEqual({n: s for n, s in v.classify(solved, source).items()
                              if s not in ("same", "absent")}, changed, lab)

    def test_a_hole_that_keeps_its_error_line_is_written(self):
        mine = labs.fill(SRC, {"one": [labs.hole_statement("one", "    "), "    fence(); // why"]})
        self.assertEqual(v.classify(mine, SRC)["one"], "written")

    def test_compose_takes_only_the_readers_holes(self):
        # a copy of an older skeleton: the lines around the holes are today's source's
        older = labs.fill(labs.skeleton(SRC), {"two": ["    z();"]}).replace("int f()", "int g()")
        want = SRC.replace("        y();\n    }\n", "").replace("if (x) {", "z();")
        self.assertEqual(v.compose(older, SRC, ["one"]), want)

    def test_compile_errors_name_their_hole(self):
        self.assertEqual(v.hole_at(SRC), [None, None, "one", None, None, "two", "two", "two",
                                          None, None])
        out = ("/s/src/f.hpp:7:9: error: 'y' was not declared\n"
               "/s/src/f.hpp:10:1: error: expected ';'\n/s/src/g.hpp:3:1: error: other\n")
        self.assertEqual(v.compile_errors(out, "/s/src/f.hpp", SRC),
                         {"two": "'y' was not declared", None: "expected ';'"})

    def test_verdict_line(self):
        self.assertEqual(v.Verdict("r", "step 4, the re-check", "wrong", "forced", "it hung",
                                   "ch.md#s").line(),
                         "step 4, the re-check: wrong — it hung; re-read ch.md#s")
        self.assertEqual(v.Verdict("r", "step 1", "ok", section="ch.md#s").line(), "step 1: ok")


class WorkerOrders(unittest.TestCase):
    """The steps register and fence as the model's WORKER: variant (tests/model/wmm/sleep.py,
    quiet_latch.py)."""

    def test_the_books_steps(self):
        self.assertEqual(v.worker_variant(
            ["sleepers_.fetch_add(1, std::memory_order_relaxed);"],
            ["std::atomic_thread_fence(std::memory_order_seq_cst);"]), "WORKER:R-rlx,F-sc")

    def test_orders_in_either_spelling_and_the_operators_default(self):
        self.assertEqual(v.worker_variant(["++sleepers_;"],
                                          ["std::atomic_thread_fence(std::memory_order::acq_rel);"]),
                         "WORKER:R-sc,F-acq_rel")
        self.assertEqual(v.worker_variant(["sleepers_.fetch_add(1);"], []), "WORKER:R-sc")
        # the sleep lab's (QuietLatch): the lock in the same step, the re-check after the fence
        self.assertEqual(v.worker_variant(
            ["std::unique_lock lock(mutex_);", "waiters_.fetch_add(1, std::memory_order_relaxed);"],
            ["std::atomic_thread_fence(std::memory_order_seq_cst);", "if (probe()) {",
             "waiters_.fetch_sub(1, std::memory_order_relaxed);", "return;", "}"]),
            "WORKER:R-rlx,F-sc")

    def test_a_seq_cst_fetch_add_with_no_fence(self):
        variant = v.worker_variant(["sleepers_.fetch_add(1, std::memory_order_seq_cst);"],
                                   ["/* the fetch_add above is the fence */"])
        self.assertEqual(variant, "WORKER:R-sc")
        self.assertEqual(v.describe_worker(variant), "a fetch_add sc, no fence")

    def test_program_order_across_the_two_steps(self):
        self.assertEqual(v.worker_variant(["std::atomic_thread_fence(std::memory_order_seq_cst);"],
                                          ["sleepers_.fetch_add(1, std::memory_order_relaxed);"]),
                         "WORKER:F-sc,R-rlx")

    def test_no_single_registration_is_not_mapped(self):
        self.assertIsNone(v.worker_variant(["// registered below"], []))
        self.assertIsNone(v.worker_variant(["++sleepers_;"], ["++sleepers_;"]))


class Grade(unittest.TestCase):
    def test_ctest_regex_matches_names_literally(self):
        self.assertEqual(v.ctest_regex(["t.a (b) c."]), r"^(t\.a \(b\) c\.)$")

    def test_failure_detail_of_an_abort_names_the_librarys_message(self):
        out = ("1/6 Test #31: test_pools.m ...Subprocess aborted***Exception:   0.02 sec\n"
               "mini: a ThreadPool destroyed while 18446744073709551615 callers wait inside its "
               "install\nFilters: m\n  SIGABRT - Abort (abnormal termination) signal\n"
               "The following tests FAILED:\n\t 31 - test_pools.m (Subprocess aborted)\n")
        detail = v.failure_detail(out)
        self.assertTrue(detail.startswith("`test_pools.m`, it aborted:"), detail)
        self.assertTrue(detail.endswith("it aborted: mini: a ThreadPool destroyed while "
                                        "18446744073709551615 callers wait inside its install"),
                        detail)

        out = ("Subprocess aborted***Exception:   0.02 sec\nterminate called without an active "
               "exception\n\t 75 - test_exceptions.any (Subprocess aborted)\n")
        self.assertEqual(v.failure_detail(out), "`test_exceptions.any`, it aborted: terminate "
                         "called without an active exception")

    def test_failure_detail(self):
        out = ("19/19 Test #19: test_sleep.the waker counts ... ***Failed    0.20 sec\n"
               "  CHECK( sleepers_at_notify == 0 )\nwith expansion:\n  1 == 0\n\n"
               "FAILED:\nThe following tests FAILED:\n\t 19 - test_sleep.the waker (Failed)\n")
        self.assertEqual(v.failure_detail(out), "`test_sleep.the waker`, a check failed, "
                         "CHECK( sleepers_at_notify == 0 ) with 1 == 0")
        out = ("WATCHDOG: no progress for 3.0 s while x: y\nWATCHDOG: each thread's events of "
               "the last 100 ms (up to 9 each), in time order:\nWATCHDOG: lost wake-up: job 1 was injected\n"
               "WATCHDOG: deadlock, exiting with code 3\n"
               "\t 17 - test_pool.the re-check catches (Failed)\n")
        self.assertEqual(v.failure_detail(out), "`test_pool.the re-check catches`, hung: the "
                         "watchdog ended it (exit 3), the watchdog's replay: lost wake-up: job 1 "
                         "was injected")
        out = ("WATCHDOG: no progress for 3.0 s while publishing: 0 of 2 returned\n"
               "WATCHDOG: deadlock, exiting with code 3\n\t 8 - test_sleep.a publisher (Failed)\n")
        self.assertEqual(v.failure_detail(out), "`test_sleep.a publisher`, hung: the watchdog "
                         "ended it (exit 3), stuck while publishing: 0 of 2 returned")
        out = ("  CHECK( sleep.sleepers() == 0 )\nwith expansion:\n  18446744073709551615 "
               "(0xffffffffffffffff)\n  ==\n  0\nwith message:\n  re-read it\n  under the mutex\n\nFAILED:\n"
               "\t 9 - test_sleep.two (Failed)\n")
        self.assertEqual(v.failure_detail(out), "`test_sleep.two`, a check failed, CHECK( "
                         "sleep.sleepers() == 0 ) with 18446744073709551615 (0xffffffffffffffff), "
                         "the test says: re-read it under the mutex")
        out = ("  CHECK( f.stats.waited_jobs >= 1 )\nwith expansion:\n  0 >= 1\nwith message:\n"
               "  keep the count in `ran`\n\nFAILED:\n\t 5 - test_join.an owner whose B (Failed)\n")
        self.assertEqual(v.failure_detail(out), "`test_join.an owner whose B`, a check failed, "
                         "CHECK( f.stats.waited_jobs >= 1 ) with 0 >= 1, the test says: keep the "
                         "count in `ran`")

    def test_every_lab_titles_every_hole(self):
        for name, lab in grade.LABS.items():
            names = [n for n, _, _ in labs.holes(labs.marked(name))]
            self.assertEqual(sorted(lab.titles), sorted(names), name)


    def test_every_section_to_re_read_is_a_heading_of_its_chapter(self):
        def slug(heading):  # GitHub's anchor of a heading
            return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")
        for lab in grade.LABS.values():
            for title, section in lab.titles.values():
                path, _, anchor = section.partition("#")
                headings = [slug(l.lstrip("#")) for l in (labs.REPO / path).read_text().split("\n")
                            if l.startswith("#")]
                self.assertIn(anchor, headings, f"{lab.name}: {title}: {section}")


class Judge(unittest.TestCase):
    def row(self, expect):
        m = v.catalogue.Mutant("r", "f", ["a"], [], "b", expect)
        return v.Row(m, "two", [], "")

    def test_a_variant_whose_verdict_does_not_say_what_it_must_fails(self):
        x = v.Variant("x", "two", ("unit",), "w", {}, "^(?!.*without re-checking)")
        ok, bad = v.Verdict("one", "", "ok"), v.Verdict("two", "", "wrong", "unit", "waited "
                                                         "without re-checking")
        self.assertRegex(prove.judge_variant(x, [ok, bad]), "does not say")
        bad.detail = "stayed blocked"
        self.assertIsNone(prove.judge_variant(x, [ok, bad]))

    def test_exactly_the_rows_step_by_the_expected_check(self):
        ok = v.Verdict("one", "", "ok")
        self.assertIsNone(prove.judge_row(self.row("unit"), [ok, v.Verdict("two", "", "wrong",
                                                                           "forced")]))
        self.assertIsNone(prove.judge_row(self.row("model"), [ok, v.Verdict("two", "", "missing")]))
        self.assertRegex(prove.judge_row(self.row("model"), [ok, v.Verdict("two", "", "wrong",
                                                                           "unit")]),
                         "decided by unit, the row expects model")
        self.assertRegex(prove.judge_row(self.row("unit"), [ok, v.Verdict("two", "", "ok")]),
                         "got every step ok")
        self.assertRegex(prove.judge_row(self.row("unit"), [v.Verdict("one", "", "missing"),
                                                            v.Verdict("two", "", "wrong", "unit")]),
                         "got one missing, two wrong")


if __name__ == "__main__":
    unittest.main()
