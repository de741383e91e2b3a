"""The three labs: each one's test programs, forced interleavings, stress runs, and the title
and chapter section of each of its holes (the grader's table, tests/labs/grade.py)."""
from dataclasses import dataclass

import labs

CH1, CH2, CH3 = "chapters/01-pool.md", "chapters/02-join.md", "chapters/03-splitter.md"


@dataclass
class Lab:
    name: str
    tests: tuple  # test executables: their ctests are the unit and forced checks
    forced: tuple  # the ctest names (after "exe.") that force an interleaving
    stress: tuple  # driver command lines, run under their watchdog
    titles: dict  # hole -> (title, section to re-read)

    @property
    def source(self):
        return labs.LABS[self.name][0]

    @property
    def skeleton(self):
        return labs.LABS[self.name][1]


SLEEP = f"{CH1}#the-sleep-protocol"
LABS = {
    "sleep": Lab("sleep", ("test_pool", "test_sleep", "test_latch"),
                 ("the re-check catches a job published between the last search and registering",
                  "the re-check sees the terminate latch set between the last search and "
                  "registering", "the waker counts the sleeper out before the woken worker runs"),
                 (("lost_wakeup", "2", "4", "20000", "3", "--watchdog", "10"),
                  ("fib", "2", "25", "10", "3")),
                 {"lock": ("step 1, lock", SLEEP), "register": ("step 2, register", SLEEP),
                  "fence": ("step 3, the fence", f"{CH1}#15-why-the-fence-the-model"),
                  "recheck": ("step 4, the re-check",
                              f"{CH1}#14-breaking-it-the-no-recheck-preset"),
                  "wait": ("step 5, wait", SLEEP),
                  "injected": ("publish side, new_injected_job", SLEEP),
                  "latch": ("publish side, latch_is_set", SLEEP),
                  "wake": ("the waker, wake", f"{CH1}#the-choices")}),
    "join": Lab("join", ("test_join",),
                ("an owner whose B was stolen runs other jobs while it waits",
                 "a push onto a non-empty deque wakes a sleeper, which takes the stranded B1"),
                (("fib", "2", "27", "10", "3"),),
                {"push": ("step 1, push B and run A", f"{CH2}#the-code"),
                 "popback": ("step 2, pop B back", f"{CH2}#breaking-it-block-on-b"),
                 "stolen": ("step 3, work while a stolen B runs",
                            f"{CH2}#breaking-it-wait-without-working"),
                 "inline": ("step 4, run a popped B inline", f"{CH2}#the-code"),
                 "other": ("step 5, run a job A left above B", f"{CH2}#the-code")}),
    "splitter": Lab("splitter", ("test_splitter",),
                    ("a forced steal makes the stolen piece split again",),
                    (("splits", "sum", "2", "1000000", "3"), ("splits", "count", "1", "1048576",
                                                              "5")),
                    {"migrated": ("step 1, reset when migrated",
                                  f"{CH3}#breaking-it-ignore-migrated"),
                     "halve": ("step 2, halve the splits",
                               f"{CH3}#try_split-three-lines-from-rayon"),
                     "bridge": ("step 3, the bridge", f"{CH3}#the-bridge")}),
}
