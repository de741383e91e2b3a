#!/usr/bin/env python3
"""Self-tests of the weak-memory explorer (run by ctest, label model): the enumeration, the
axioms one at a time on small programs, and the deque model's bookkeeping."""
import contextlib
import io
import sys
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import deque  # noqa: E402
import genmc  # noqa: E402
import latch  # noqa: E402
import litmus  # noqa: E402
import quiet_latch  # noqa: E402
import sleep  # noqa: E402
from explore import Execution, Event, _mo_orders, all_traces, executions, traces  # noqa: E402
import rc11  # noqa: E402
from rc11 import outcomes  # noqa: E402


class EnumerationTest(unittest.TestCase):
    def test_one_trace_per_guessed_value(self):
        ts = traces(lambda m: m.load("x"), 0, {"x": {0, 1, 2}})
        self.assertEqual(sorted(r for _, r in ts), [0, 1, 2])

    def test_assume_cuts_a_trace(self):
        def t(m):
            m.assume(m.load("x") == 1)
            return "ran"
        self.assertEqual([r for _, r in traces(t, 0, {"x": {0, 1}})], ["ran"])

    def test_domain_takes_stores_made_before_a_cut(self):
        # T0 stores y = 1 only to be cut unless it reads x == 1; T1 copies y into x. The
        # fixpoint must see T0's y = 1 although the first round cuts T0 after it.
        def t0(m):
            m.store("y", 1)
            m.assume(m.load("x") == 1)

        def t1(m):
            m.store("x", m.load("y"))
        per = all_traces([t0, t1], {})
        self.assertEqual(len(per[0]), 1)
        self.assertEqual(len(per[1]), 2)  # T1 reads y = 0 or 1

    def test_mo_keeps_program_order_and_puts_an_rmw_after_its_source(self):
        init = Event(-1, 0, "W", "x", wval=0)
        a, b = Event(0, 0, "W", "x", wval=1), Event(0, 1, "W", "x", wval=2)
        u = Event(1, 0, "U", "x", rval=0, wval=5)
        events = [init, a, b, u]
        orders = list(_mo_orders(events, [0, 1, 2, 3], {3: 0}))
        self.assertEqual(orders, [[0, 3, 1, 2]])

    def test_two_rmws_cannot_read_the_same_write(self):
        init = Event(-1, 0, "W", "x", wval=0)
        u1, u2 = Event(0, 0, "U", "x", rval=0, wval=1), Event(1, 0, "U", "x", rval=0, wval=1)
        self.assertEqual(list(_mo_orders([init, u1, u2], [0, 1, 2], {1: 0, 2: 0})), [])

    def test_without_axioms_every_candidate_comes_out(self):
        # SB with seq_cst: 4 outcomes as candidates, 3 of them consistent.
        prog = litmus.sb("sc", "sc")
        self.assertEqual(len({ex.results for ex in executions(prog)}), 4)
        self.assertEqual(set(outcomes(prog)), {(0, 1), (1, 0), (1, 1)})


class AxiomTest(unittest.TestCase):
    def test_read_read_coherence(self):
        def writer(m):
            m.store("x", 1)

        def reader(m):
            return m.load("x"), m.load("x")
        self.assertNotIn((None, (1, 0)), outcomes([writer, reader]))
        self.assertIn((None, (0, 1)), outcomes([writer, reader]))

    def test_atomicity_two_exchanges_never_both_read_0(self):
        def swap(v):
            return lambda m: m.exchange("x", v)
        seen = outcomes([swap(1), swap(2)], observe=lambda ex: ex.results + (ex.final("x"),))
        self.assertEqual(set(seen), {(0, 1, 2), (2, 0, 1)})

    def test_a_growing_domain_is_an_error(self):
        # Each value read makes the thread write once more: no bound on the writes, no fixpoint.
        def count(m):
            n = m.load("x")
            for _ in range(n + 1):
                m.store("x", n + 1)
        with self.assertRaisesRegex(ValueError, "does not converge"):
            all_traces([count], {})

    def test_a_stored_increment_is_bounded(self):
        # x = x + 1 in one thread: its one write reads init, so x is 0 or 1 (it did not converge).
        def count(m):
            m.store("x", m.load("x") + 1)
        self.assertEqual(len(all_traces([count], {})[0]), 2)  # it reads 0 or 1
        seen = outcomes([count], observe=lambda ex: ex.final("x"))
        self.assertEqual(set(seen), {1})

    def test_a_single_fetch_add_converges(self):
        # It failed with "the value domain does not converge": read 1, write 2, read 2, ...
        seen = outcomes([lambda m: m.fetch_add("x", 1)],
                        observe=lambda ex: ex.results + (ex.final("x"),))
        self.assertEqual(set(seen), {(0, 1)})

    def test_fetch_add_and_fetch_sub_count_exactly(self):
        def inc(m):
            return m.fetch_add("x", 1)

        def dec(m):
            return m.fetch_sub("x", 2, "acq_rel")
        seen = outcomes([inc, inc, dec], observe=lambda ex: ex.results + (ex.final("x"),))
        # Each RMW reads the one before it in mo: 3! orders, and the final value is always 0.
        self.assertEqual(len(seen), 6)
        self.assertEqual({o[-1] for o in seen}, {0})
        self.assertIn((0, 1, 2, 0), seen)
        self.assertIn((-2, -1, 0, 0), seen)

    def test_cas_fails_on_another_value(self):
        def t(m):
            return m.cas("x", 0, 1)
        self.assertEqual(set(outcomes([t, t])), {((True, 0), (False, 1)),
                                                 ((False, 1), (True, 0))})

    def test_release_acquire_message_passing_exact_outcomes(self):
        self.assertEqual(set(outcomes(litmus.mp("rel", "acq"))),
                         {(None, (0, 0)), (None, (0, 1)), (None, (1, 1))})

    def test_no_thin_air_is_the_only_difference_on_lb(self):
        prog = litmus.lb("rlx", "rlx")
        self.assertEqual(set(outcomes(prog, nta=False)) - set(outcomes(prog, nta=True)),
                         {(1, 1)})

    def test_the_litmus_table_agrees(self):
        self.assertEqual(litmus.main([]), 0)
        self.assertEqual(litmus.main(["XX"]), 2)

    def test_the_appendix_shows_the_table_as_generated(self):
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            litmus.main(["--table"])
        appendix = (Path(__file__).resolve().parents[3] / "chapters" / "appendix-deque.md")
        self.assertIn(out.getvalue(), appendix.read_text())

    def test_genmc_counts_agree(self):
        # A few, one per change (the whole folder is ctest model.wmm.genmc's).
        with contextlib.redirect_stdout(io.StringIO()):
            self.assertEqual(genmc.main(["SB", "MP+rels+acqf", "WWmerge1", "Z6.U", "ori"]), 0)
        with contextlib.redirect_stderr(io.StringIO()):
            self.assertEqual(genmc.main(["W+JW"]), 2)

    def test_genmc_notation(self):
        # casdep: a failed CAS puts the value read in its expected register, and z gets it.
        prog = [genmc.T(genmc.SET("a", 5), genmc.CAS("y", "a", 1, "rlx", "rlx", "ok"),
                        genmc.W("z", "a * 10 + ok", "rlx"))]
        seen = outcomes(prog, observe=lambda ex: (ex.final("y"), ex.final("z")))
        self.assertEqual(set(seen), {(0, 0)})
        prog = [genmc.T(genmc.R("x", "rlx", "a"), genmc.R("y{a}", "rlx"))]
        locs = {e.loc for ex in rc11.consistent_executions(prog) for e in ex.events}
        self.assertEqual(locs, {"x", "y0"})


class StandardTest(unittest.TestCase):
    """C++20 against the RC11 paper (C++11), each change on its smallest GenMC program."""

    def count(self, name, standard):
        return sum(1 for _ in rc11.consistent_executions(genmc.program(name), {}, True, standard))

    def test_release_sequence_ends_at_a_later_relaxed_store_in_cxx20(self):
        # MP+rels+acqf: x=1; y.store(0, rel); y.store(1, rlx) || if (y) { fence(acq); x; }.
        # C++11 continues the release sequence through the relaxed store: r = 0 is forbidden.
        self.assertEqual(self.count("MP+rels+acqf", "c++11"), 3)
        self.assertEqual(self.count("MP+rels+acqf", "c++20"), 4)

    def test_sc_order_follows_strongly_happens_before_in_cxx20(self):
        # WWmerge1: C++20 orders Wx2 before the third thread's Rx by sb;hb;sb on one location.
        self.assertEqual(self.count("WWmerge1", "c++11"), 18)
        self.assertEqual(self.count("WWmerge1", "c++20"), 17)

    def test_the_default_is_cxx20(self):
        prog = genmc.program("MP+rels+acqf")
        self.assertEqual(sum(1 for _ in rc11.consistent_executions(prog, {}, True)), 4)

    def test_an_unknown_standard_is_refused(self):
        with self.assertRaises(AssertionError):
            list(rc11.consistent_executions(genmc.program("SB"), {}, True, "c++17"))


def fake(results, top, bottom):
    ev = [Event(-1, 0, "W", "top", wval=top), Event(-1, 0, "W", "bottom", wval=bottom)]
    return Execution(ev, {}, {"top": [0], "bottom": [1]}, results)


class DequeTest(unittest.TestCase):
    def test_violation_bookkeeping(self):
        self.assertEqual(deque.violation(fake((2, 1, None), 1, 1), 2), "")
        self.assertEqual(deque.violation(fake((None, 1, None), 1, 2), 2), "")  # job 2 left
        self.assertEqual(deque.violation(fake((2, 1, 2), 2, 1), 2), "job 2 taken twice")
        self.assertEqual(deque.violation(fake((2, 2), 2, 2), 2), "job 1 lost, job 2 taken twice")
        self.assertIn("a take returned 0", deque.violation(fake((2, 0, None), 1, 1), 2))

    def test_variants_are_the_catalogue_rows(self):
        text = (Path(__file__).resolve().parents[2] / "mutants" / "catalogue.ini").read_text()
        for v, what in deque.VARIANTS.items():
            if v != "none":
                with self.subTest(v):
                    self.assertIn("[" + what.split("(")[1].rstrip(")") + "]", text)

    def test_usage(self):
        with contextlib.redirect_stderr(io.StringIO()):
            self.assertEqual(deque.main(["NO_SUCH"]), 2)
            self.assertEqual(deque.main(["--model", "c++17"]), 2)

    def test_pop_bottom_relaxed_races_under_cxx20_only(self):
        # Under C++20 the thief that reads pop's b synchronizes with no push: it reads slot 0
        # before the push's store. C++11 continued the push's release sequence through it.
        found, _ = deque.check("POP_BOTTOM_RELAXED", standard="c++20")
        self.assertIsNotNone(found)
        self.assertIn("a take returned 0", found[1])
        found, _ = deque.check("POP_BOTTOM_RELAXED", standard="c++11")
        self.assertIsNone(found)

    def test_the_papers_release_fence_covers_a_relaxed_pop_under_cxx20(self):
        # Lê et al. and crossbeam publish with fence(release); store(b + 1, relaxed): the fence
        # synchronizes through any later store of the owner to bottom, pop's relaxed one too.
        class PaperPush(deque.Deque):
            def push(self, job):
                m, b = self.m, self.bottom
                t = m.load("top", "acq", "push: load top")
                m.assume(b - t <= self.cap - 1)
                m.store(self.slot(b), job, "rlx", "push: store slot")
                m.fence("rel", "push: fence")
                m.store("bottom", b + 1, "rlx", "push: store bottom")
                self.bottom = b + 1
        built = deque.Deque
        deque.Deque = PaperPush
        try:
            found, explored = deque.check("POP_BOTTOM_RELAXED", standard="c++20")
        finally:
            deque.Deque = built
        self.assertIsNone(found)
        self.assertGreater(explored, 100)


class SleepTest(unittest.TestCase):
    def test_each_mutant_loses_a_wakeup_in_each_scenario(self):
        for v in sleep.VARIANTS:
            for scenario in sleep.SCENARIOS:
                with self.subTest(v, scenario=scenario):
                    found, _ = sleep.check(v, scenarios=(scenario,))
                    self.assertEqual(found is None, v == "none")

    def test_a_notify_comes_after_the_wait_as_built(self):
        # The mutex orders them: the wake that finds the sleeper took the mutex from its wait.
        for scenario in sleep.SCENARIOS:
            threads = [sleep.worker("none"), sleep.publisher("none", scenario)]
            results = {ex.results for ex in rc11.consistent_executions(threads)}
            self.assertIn(("waits", "notify_all" if scenario == "latch" else "notify_one"),
                          results)
            self.assertIn(("found work", "counted out"), results)

    def test_variants_are_the_catalogue_rows(self):
        text = (Path(__file__).resolve().parents[2] / "mutants" / "catalogue.ini").read_text()
        for v, what in sleep.VARIANTS.items():
            for row in what.rsplit("(", 1)[1].rstrip(")").split(", ") if v != "none" else []:
                with self.subTest(v, row=row):
                    self.assertTrue(f"[{row}]" in text, row)
        self.assertIn("model = wmm/sleep.py NO_WORKER_FENCE error", text)

    def test_usage(self):
        with contextlib.redirect_stderr(io.StringIO()):
            self.assertEqual(sleep.main(["NO_SUCH"]), 2)


class QuietLatchTest(unittest.TestCase):
    def test_each_mutant_loses_a_wakeup_and_as_built_none(self):
        for v in quiet_latch.VARIANTS:
            with self.subTest(v):
                found, _ = quiet_latch.check(v)
                self.assertEqual(found is None, v == "none")

    def test_the_learners_orders(self):
        # A seq_cst fetch_add with no fence passes on x86 and loses a wake-up in C++20; a seq_cst
        # fence after the registration, of any order, does not.
        self.assertIsNotNone(quiet_latch.check("WORKER:R-sc")[0])
        self.assertIsNotNone(quiet_latch.check("WORKER:F-sc,R-rlx")[0])
        self.assertIsNone(quiet_latch.check("WORKER:R-sc,F-sc")[0])

    def test_variants_are_the_catalogue_rows(self):
        text = (Path(__file__).resolve().parents[2] / "mutants" / "catalogue.ini").read_text()
        for v, what in quiet_latch.VARIANTS.items():
            if v != "none":
                with self.subTest(v):
                    self.assertIn("[" + what.rsplit("(", 1)[1].rstrip(")") + "]", text)


class LatchTest(unittest.TestCase):
    def test_each_mutant_reads_a_stale_result_and_as_built_none_under_both_standards(self):
        for standard in rc11.STANDARDS:
            for v in latch.VARIANTS:
                with self.subTest(v, standard=standard):
                    found, explored = latch.check(v, standard=standard)
                    self.assertEqual(found is None, v == "none")
                    if found:
                        self.assertEqual(found[0], "spin")

    def test_the_blocking_owner_takes_the_mutex_after_the_setter(self):
        threads = latch.scenarios("none")["lock-block"]
        for ex in rc11.consistent_executions(threads):
            lock = next(i for i, e in enumerate(ex.events) if e.what == "wait: lock")
            self.assertEqual(ex.events[ex.rf[lock]].what,
                             "LockLatch::set: unlock (after notify_all)")

    def test_variants_are_the_catalogue_rows(self):
        text = (Path(__file__).resolve().parents[2] / "mutants" / "catalogue.ini").read_text()
        for v, what in latch.VARIANTS.items():
            if v != "none":
                with self.subTest(v):
                    self.assertIn("[" + what.split("(")[1].rstrip(")") + "]", text)


if __name__ == "__main__":
    unittest.main()
