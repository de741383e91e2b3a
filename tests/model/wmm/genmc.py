#!/usr/bin/env python3
"""The explorer against an independent RC11 checker: GenMC's own litmus tests, counted.

    python3 genmc.py      each program's consistent executions under RC11; exit 1 on a difference

GenMC (MPI-SWS/genmc, a stateless model checker for RC11, among other models) keeps in its test
suite, for each program tests/correct/litmus/NAME/*.c, the number of complete consistent
executions it finds under RC11 (expected.rc11.mo.in, at commit b03f01ed of 2025-04-05). The
programs below are those C files transcribed op for op; a non-atomic access (`int x`) is relaxed
here, which is the same in a race-free execution. An execution is a choice of rf and mo, so the
count pins down which outcomes RC11 allows: SB's 4 include r0 = r1 = 0, SB+scfs's 3 do not.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from rc11 import consistent_executions  # noqa: E402


def thread(*ops):
    """A thread from ops: ("W", loc, value, order), ("R", loc, order), ("F", order),
    ("COPY", src, dst) (a relaxed load whose value is stored, relaxed, to dst) and
    ("IF", loc, order, ops) (a load; the ops run if it read non-zero)."""
    def run(m, ops):
        for op in ops:
            if op[0] == "W":
                m.store(op[1], op[2], op[3])
            elif op[0] == "R":
                m.load(op[1], op[2])
            elif op[0] == "F":
                m.fence(op[1])
            elif op[0] == "COPY":
                m.store(op[2], m.load(op[1], "rlx"), "rlx")
            elif m.load(op[1], op[2]):
                run(m, op[3])
    return lambda m: run(m, ops)


W, R, F = (lambda *a: ("W",) + a), (lambda *a: ("R",) + a), (lambda o: ("F", o))
T = thread
# GenMC's directory name: (its threads, its expected.rc11.mo.in)
TESTS = {
    "SB": ([T(W("x", 1, "rel"), R("y", "acq")), T(W("y", 1, "rel"), R("x", "acq"))], 4),
    "SB+scfs": ([T(W("x", 1, "rlx"), F("sc"), R("y", "rlx")),
                 T(W("y", 1, "rlx"), F("sc"), R("x", "rlx"))], 3),
    "SB+4sc": ([T(W("x", 1, "sc"), R("y", "sc")), T(W("y", 1, "sc"), R("x", "sc"))], 3),
    "SB+2sc+scf": ([T(W("x", 1, "sc"), R("y", "sc")),
                    T(W("y", 1, "rlx"), F("sc"), R("x", "rlx"))], 3),
    "LB": ([T(R("y", "acq"), W("x", 1, "rel")), T(R("x", "acq"), W("y", 1, "rel"))], 3),
    "LB+acq": ([T(R("x", "acq"), W("y", 1, "rlx")), T(R("y", "acq"), W("x", 1, "rlx"))], 3),
    "LB+rel": ([T(R("x", "rlx"), W("y", 1, "rel")), T(R("y", "rlx"), W("x", 1, "rel"))], 3),
    "MP": ([T(W("x", 1, "rel"), W("y", 1, "rel")), T(R("y", "acq"), R("x", "acq"))], 3),
    "MP+rel+acq": ([T(W("x", 1, "rlx"), W("y", 1, "rel")),
                    T(("IF", "y", "acq", [R("x", "rlx")]))], 2),
    "MP+relf+acqf": ([T(W("x", 1, "rlx"), F("rel"), W("y", 1, "rlx")),
                      T(("IF", "y", "rlx", [F("acq"), R("x", "rlx")]))], 2),
    "2+2W": ([T(W("x", 1, "rel"), W("y", 2, "rel")), T(W("y", 1, "rel"), W("x", 2, "rel"))], 4),
    "2+2W+scfs": ([T(W("x", 1, "rlx"), F("sc"), W("y", 2, "rlx")),
                   T(W("y", 1, "rlx"), F("sc"), W("x", 2, "rlx"))], 3),
    "2+2W+4sc": ([T(W("x", 1, "sc"), W("y", 2, "sc")), T(W("y", 1, "sc"), W("x", 2, "sc"))], 3),
    "S": ([T(W("x", 2, "rlx"), W("y", 1, "rlx")), T(R("y", "rlx"), W("x", 1, "rlx"))], 4),
    "S+rel+acq": ([T(W("x", 1, "rlx"), W("y", 1, "rel")),
                   T(("IF", "y", "acq", [W("x", 2, "rlx")]))], 2),
    # RC11's own counterexample to C11's SC (Lahav et al., section 2): allowed, all 16.
    "IRIW-acq-sc": ([T(W("x", 1, "sc")), T(R("x", "acq"), R("y", "sc")),
                     T(R("y", "acq"), R("x", "sc")), T(W("y", 1, "sc"))], 16),
    "WRC+dep": ([T(W("x", 1, "rlx")), T(("COPY", "x", "y")),
                 T(R("y", "rlx"), F("acq_rel"), R("x", "rlx"))], 8),
    "RWC+syncs": ([T(W("x", 1, "rlx")), T(R("x", "rlx"), F("sc"), R("y", "rlx")),
                   T(W("y", 1, "rlx"), F("sc"), R("x", "rlx"))], 7),
}


def count(threads, nta=True):
    return sum(1 for _ in consistent_executions(threads, {}, nta))


def main(argv):
    bad = 0
    for name, (threads, expected) in TESTS.items():
        got = count(threads)
        bad += got != expected
        verdict = "ok" if got == expected else "WRONG"
        print(f"{verdict:5}  {name:14} GenMC {expected:2}  ours {got:2}")
    print(f"genmc: {len(TESTS) - bad} of {len(TESTS)} execution counts equal GenMC's under RC11")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
