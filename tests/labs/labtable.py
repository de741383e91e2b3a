"""The labs: each one's test programs, forced interleavings, stress runs, and the title
and chapter section of each of its holes (the grader's table, tests/labs/grade.py)."""
import dataclasses
from dataclasses import dataclass

import labs

CH2, CH3, CH4 = "chapters/02-sleep.md", "chapters/03-join.md", "chapters/04-splitter.md"
CH7, CH8 = "chapters/part2/07-exceptions.md", "chapters/part2/08-scope.md"
CH9 = "chapters/part2/09-pools.md"
FIFO = "chapters/part2/08-scope.md#85-lab-the-fifo-scope"
UNWIND_LAB = "chapters/part2/07-exceptions.md#75-lab-a-fused-join"
CROSS_LAB = "chapters/part2/09-pools.md#96-lab-a-join-across-two-pools"
SCOPE_LAB = "chapters/part2/08-scope.md#86-lab-a-fused-scope"
SPLITTER_LAB = "chapters/labs/README.md#the-splitter-lab-tiles-of-a-rectangle"
JOIN_LAB = "chapters/labs/README.md#the-join-lab-join3"
DESIGN = "chapters/appendix-design.md"


@dataclass
class Lab:
    name: str
    tests: tuple  # test executables: their ctests are the unit and forced checks
    forced: tuple  # the ctest names (after "exe.") that force an interleaving
    stress: tuple  # driver command lines, run under their watchdog
    titles: dict  # hole -> (title, section to re-read)
    # The targets whose build compiles every line of the lab's file, template bodies instantiated
    # (the compile check); empty: the test programs.
    compiles: tuple = ()
    # A step's effect that no run of the release build can show, as the model check judges the
    # sleep lab's fence: {step: ((token sequence, ...), what a step without any of them lacks)}.
    # The grade says `wrong` (check `effect`) when none of the sequences is in the step's code.
    effects: dict = dataclasses.field(default_factory=dict)
    # False for a lab cut from part of its file (none today; cross was, from in_worker_cross of
    # pool.hpp, before its variation): the file's catalogue rows that change none of the lab's
    # ANCHOR regions are not its own. True: every row of the file must live in one of its holes.
    whole_file: bool = True

    @property
    def source(self):
        return labs.LABS[self.name][0]

    @property
    def skeleton(self):
        return labs.LABS[self.name][1]


# sleep: a variation chapter 2 does not print (quiet_latch.hpp, QuietLatch): the labs page's
# section "The sleep lab" says what the steps must do and why.
SLEEP = "chapters/labs/README.md#the-sleep-lab-a-quiet-latch"
LABS = {
    "sleep": Lab("sleep", ("test_quiet_latch",),
                 ("a set with no waiter registered does not take the mutex",
                  "the re-check sees the latch set between the fast path and registering",
                  "a set that reads a waiter takes the mutex before it notifies"),
                 # No driver: the tests' rounds of wait() and set() are the stress.
                 (),
                 {"register": ("step 1, lock and register", SLEEP),
                  "fence": ("step 2, the fence, the re-check and the wait",
                            f"{CH2}#25-why-the-fence-the-model"),
                  "publish": ("set, step 1: publish, fence, read the waiters", SLEEP),
                  "wake": ("set, step 2: wake", SLEEP)}),
    # join: a variation chapter 3 does not print (join3.hpp): the labs page's section "The join
    # lab: join3" says what the steps must do and why. Graded on its own test program alone: fib
    # calls join, not join3, so it has no stress.
    "join": Lab("join", ("test_three_join",),
                ("one thread runs A, B and C in argument order, none migrated",
                 "jobs left above B and above C run before join3 returns, each before the job "
                 "below it",
                 "an owner whose C was stolen runs B here, and other jobs while it waits for C",
                 "join3 waits for a stolen C before it returns, and C runs once",
                 "A's exception leaves join3 after B has run here and a stolen C has finished"),
                (),
                {"stolen": ("step 1, wait for a stolen job by working", JOIN_LAB),
                 "here": ("step 2, run a job nobody took here", JOIN_LAB),
                 "other": ("step 3, run a job left above it", f"{CH3}#32-the-code"),
                 "push": ("step 4, push B and C, and run A", JOIN_LAB),
                 "order": ("step 5, take B and C back", JOIN_LAB),
                 "result": ("step 6, the results in argument order", JOIN_LAB)}),
    # splitter: a variation chapter 4 does not print (bridge_2d.hpp): the labs page's section
    # says what the steps must do and why. Graded on its one test program: the counts are exact
    # where nobody can steal, so no driver adds a check the tests lack.
    "splitter": Lab("splitter", ("test_bridge_2d",),
                    ("a forced steal makes the stolen tile split again",),
                    (),
                    {"cut": ("step 1, the cut: the longer side", SPLITTER_LAB),
                     "halve": ("step 2, halve the splits", SPLITTER_LAB),
                     "migrated": ("step 3, reset when migrated",
                                  f"{CH4}#46-breaking-it-ignore-migrated"),
                     "join": ("step 4, both halves, each its own migrated", SPLITTER_LAB)}),
    # Part II. No driver throws, spawns or calls across pools: their tests are the whole check.
    # unwind: a variation chapter 7 does not print (join_fused.hpp): its section "The lab" says
    # what the steps must do and why.
    "unwind": Lab("unwind", ("test_fused_join",),
                  ("join_fused drops a B nobody started when A throws",
                   "a job A left above B still runs when A throws, before the exception leaves",
                   "join_fused waits for a stolen B before A's exception leaves"),
                  (),
                  {"keep": ("step 1, run A and keep its exception", UNWIND_LAB),
                   "cancel": ("step 2, take back and drop a B nobody started", UNWIND_LAB),
                   "stolen": ("step 3, wait for a stolen B, then rethrow",
                              f"{CH7}#74-breaking-it-rethrow-at-once")}),
    # scope: a variation chapter 8 does not print (scope_fused.hpp): its section 8.6 says what the
    # steps must do and why.
    "scope": Lab("scope", ("test_fused_scope",),
                 ("the body's exception skips the jobs nobody started, and the scope still ends",
                  "a job's exception skips the jobs of the scope that have not started yet",
                  "a job that started before the fuse blew runs to its end and the first "
                  "exception wins",
                  "a job that throws on another worker while the owner waits: scope_fused "
                  "rethrows it",
                  "a skipped job's captures are destroyed before scope_fused returns",
                  "a scope_fused spawn whose publish throws gives its count back"),
                 (),
                 {"fuse": ("step 1, look at the fuse as the job starts", SCOPE_LAB),
                  "wait": ("step 2, work until the count is 0", f"{CH8}#82-the-code"),
                  "finish": ("step 3, rethrow the first exception or return", SCOPE_LAB),
                  "keep": ("step 4, keep the first exception and blow the fuse", SCOPE_LAB),
                  "done": ("step 5, count the job done on every path", SCOPE_LAB)}),
    # cross: a variation chapter 9 does not print (join_across.hpp): its section 9.6 says what
    # the steps must do and why.
    "cross": Lab("cross", ("test_cross_join",),
                 ("join_across's caller runs its own pool's jobs while it waits for B",
                  "join_across's caller asleep on B's latch is woken by B's set on the other pool",
                  "join_across waits for B on the other pool before A's exception leaves"),
                 (),
                 {"job": ("step 1, B's job and its cross latch", CROSS_LAB),
                  "inject": ("step 2, count B awaited and inject it", CROSS_LAB),
                  "run_a": ("step 3, run A and keep its result or exception", CROSS_LAB),
                  "wait": ("step 4, wait in your own pool's loop",
                           f"{CH9}#95-breaking-it-block-a-cross-call"),
                  "result": ("step 5, rethrow or return both", CROSS_LAB)},
                 # A plain SpinLatch on P's sleep state passes every run of the release build:
                 # the setter's wake-up of a freed sleep state shows only under ASan (chapter
                 # 9's exercise "Drop the keep-alive"). Only SpinLatch's cross constructor keeps
                 # the waiter's pool's sleep state alive (latch.hpp: cross_owner_ is private).
                 effects={"job": ((("SpinLatch", "::", "cross"), ("SpinLatch", "::", "Cross")),
                                  "your latch is not a cross latch (SpinLatch::cross, with the "
                                  "caller's pool's sleep_owner_): once its store lets the caller "
                                  "return, the caller's pool may be destroyed while the setter, a "
                                  "worker of this pool, still wakes that pool's sleep state; only "
                                  "the cross latch's copy of sleep_owner_ keeps it alive. No run "
                                  "of the release build shows this, AddressSanitizer does (chapter "
                                  "9's exercise \"Drop the keep-alive\")")}),
    # The lab whose answer no chapter prints: chapter 8.5 says what spawn_fifo must do, not how.
    "scope_fifo": Lab("scope_fifo", ("test_scope_fifo",),
                      ("a spawn_fifo whose publish throws gives its count back and rethrows to the "
                       "spawner",),
                      (),
                      {"run": ("step 1, the job's closure", FIFO),
                       "count": ("step 2, count the job", f"{CH8}#83-breaking-it-count-after-the-push"),
                       "queue": ("step 3, the queue per worker", FIFO),
                       "giveback": ("step 4, a publish that threw", FIFO),
                       "complete": ("step 5, hand the body this ScopeFifo", FIFO)}),
}
