#!/usr/bin/env python3
"""The classic litmus shapes under the explorer, each outcome checked against the literature.

    python3 litmus.py            every shape; exit 1 if any outcome differs from the table
    python3 litmus.py SB MP      these shapes (ctest runs one shape per test)
    python3 litmus.py --table    the table, as markdown (the deque appendix shows it)

Each row is (shape, variant, the weak outcome, expected under RC11 without no-thin-air, expected
under RC11, where the expectation comes from). Locations start at 0; a thread's return value
is what it read, and "x=1" in an outcome is the final value (the last write in mo).
Sources:
  GenMC N (k)  GenMC's test tests/correct/litmus/N has this shape; genmc.py transcribes it and
               checks our count of its RC11 executions against GenMC's k, which includes the
               weak outcome or not
  axioms       derived by hand from RC11's axioms (Lahav et al., "Repairing Sequential
               Consistency in C/C++11", PLDI 2017; herd's rc11.cat), which rc11.py transcribes
  C11          Batty et al., "Mathematizing C++ Concurrency", POPL 2011 (LB allowed)
  RA           Lahav, Giannarakis, Vafeiadis, "Taming Release-Acquire Consistency", POPL 2016
HARDWARE is the same shape on ARM and Power, plain accesses and a full barrier (dmb, sync) for
each fence, as herd's "Herding cats" tables give it (Alglave, Maranget, Tautschnig,
TOPLAS 2014; herdtools7 catalogue/herding-cats/{arm,ppc}/tests/*.allowed, the model column).
"""
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from rc11 import outcomes  # noqa: E402

A, F = "allowed", "forbidden"


def sb(st, ld, fence0=None, fence1=None, rmw=False):
    def thread(mine, other, fence):
        def t(m):
            if rmw:
                m.exchange(mine, 1, st)
            else:
                m.store(mine, 1, st)
            if fence:
                m.fence(fence)
            return m.load(other, ld)
        return t
    return [thread("x", "y", fence0), thread("y", "x", fence1)]


def mp(st, ld, fences=False):
    def writer(m):
        m.store("x", 1, "rlx")
        if fences:
            m.fence("rel")
        m.store("y", 1, st)

    def reader(m):
        r0 = m.load("y", ld)
        if fences:
            m.fence("acq")
        return r0, m.load("x", "rlx")
    return [writer, reader]


def lb(ld, st, fence=None):
    def thread(src, dst):
        def t(m):
            r = m.load(src, ld)
            if fence:
                m.fence(fence)
            m.store(dst, 1, st)
            return r
        return t
    return [thread("x", "y"), thread("y", "x")]


def iriw(st, ld, fence=None):
    def writer(loc):
        return lambda m: m.store(loc, 1, st)

    def reader(a, b):
        def t(m):
            r0 = m.load(a, ld)
            if fence:
                m.fence(fence)
            return r0, m.load(b, ld)
        return t
    return [writer("x"), writer("y"), reader("x", "y"), reader("y", "x")]


def wrc(x_st, x_ld, y_st, y_ld):
    def t0(m):
        m.store("x", 1, x_st)

    def t1(m):
        r = m.load("x", x_ld)
        m.store("y", 1, y_st)
        return r

    def t2(m):
        return m.load("y", y_ld), m.load("x", "rlx")
    return [t0, t1, t2]


def two_plus_two_w(st, fence=None):
    def thread(a, b):
        def t(m):
            m.store(a, 1, st)
            if fence:
                m.fence(fence)
            m.store(b, 2, st)
        return t
    return [thread("x", "y"), thread("y", "x")]


def s(st, ld):
    def t0(m):
        m.store("x", 2, "rlx")
        m.store("y", 1, st)

    def t1(m):
        r = m.load("y", ld)
        m.store("x", 1, "rlx")
        return r
    return [t0, t1]


def finals(*locs):
    return lambda ex: ex.results + tuple(ex.final(loc) for loc in locs)


# (shape, variant, program, observe, weak outcome, text, no-NTA, RC11, source)
R = lambda ex: ex.results  # noqa: E731
TESTS = [
    ("SB", "rlx", sb("rlx", "rlx"), R, (0, 0), "r0=0 r1=0", A, A, "axioms; apps/litmus none"),
    ("SB", "rel+acq", sb("rel", "acq"), R, (0, 0), "r0=0 r1=0", A, A, "GenMC SB (4); RA"),
    ("SB", "sc", sb("sc", "sc"), R, (0, 0), "r0=0 r1=0", F, F, "GenMC SB+4sc (3)"),
    ("SB", "fences", sb("rlx", "rlx", "sc", "sc"), R, (0, 0), "r0=0 r1=0", F, F,
     "GenMC SB+scfs (3); apps/litmus fences"),
    ("SB", "fence+po", sb("rlx", "rlx", "sc", None), R, (0, 0), "r0=0 r1=0", A, A, "axioms"),
    ("SB", "rmw", sb("rlx", "rlx", rmw=True), R, (0, 0), "r0=0 r1=0", A, A,
     "axioms (x86 forbids it: apps/litmus rmw)"),
    ("MP", "rlx", mp("rlx", "rlx"), R, (None, (1, 0)), "flag=1 data=0", A, A, "C11; axioms"),
    ("MP", "rel+acq", mp("rel", "acq"), R, (None, (1, 0)), "flag=1 data=0", F, F,
     "GenMC MP+rel+acq (2)"),
    ("MP", "rel+rlx", mp("rel", "rlx"), R, (None, (1, 0)), "flag=1 data=0", A, A, "C11; axioms"),
    ("MP", "fences", mp("rlx", "rlx", fences=True), R, (None, (1, 0)), "flag=1 data=0", F, F,
     "GenMC MP+relf+acqf (2)"),
    ("LB", "rlx", lb("rlx", "rlx"), R, (1, 1), "r0=1 r1=1", A, F,
     "C11 (allowed); RC11 (no-thin-air)"),
    ("LB", "acq+rel", lb("acq", "rel"), R, (1, 1), "r0=1 r1=1", F, F, "GenMC LB (3)"),
    ("LB", "fences", lb("rlx", "rlx", "sc"), R, (1, 1), "r0=1 r1=1", F, F,
     "axioms (fence synchronisation)"),
    ("IRIW", "rlx", iriw("rlx", "rlx"), R, (None, None, (1, 0), (1, 0)),
     "r2=(1,0) r3=(1,0)", A, A, "axioms"),
    ("IRIW", "rel+acq", iriw("rel", "acq"), R, (None, None, (1, 0), (1, 0)),
     "r2=(1,0) r3=(1,0)", A, A, "RA; GenMC IRIW-acq-sc (16)"),
    ("IRIW", "sc", iriw("sc", "sc"), R, (None, None, (1, 0), (1, 0)),
     "r2=(1,0) r3=(1,0)", F, F, "axioms (psc)"),
    ("IRIW", "fences", iriw("rlx", "rlx", "sc"), R, (None, None, (1, 0), (1, 0)),
     "r2=(1,0) r3=(1,0)", F, F, "axioms (psc_F)"),
    ("WRC", "rlx", wrc("rlx", "rlx", "rlx", "rlx"), R, (None, 1, (1, 0)),
     "r1=1 r2=(1,0)", A, A, "axioms"),
    ("WRC", "rel+acq", wrc("rel", "acq", "rel", "acq"), R, (None, 1, (1, 0)),
     "r1=1 r2=(1,0)", F, F, "RA; axioms"),
    ("WRC", "po+rel+acq", wrc("rlx", "rlx", "rel", "acq"), R, (None, 1, (1, 0)),
     "r1=1 r2=(1,0)", F, F, "axioms (hb, read-read coherence)"),
    ("2+2W", "rlx", two_plus_two_w("rlx"), finals("x", "y"), (None, None, 1, 1),
     "x=1 y=1", A, A, "axioms"),
    ("2+2W", "rel", two_plus_two_w("rel"), finals("x", "y"), (None, None, 1, 1),
     "x=1 y=1", A, A, "GenMC 2+2W (4); RA"),
    ("2+2W", "sc", two_plus_two_w("sc"), finals("x", "y"), (None, None, 1, 1),
     "x=1 y=1", F, F, "GenMC 2+2W+4sc (3)"),
    ("2+2W", "fences", two_plus_two_w("rlx", "sc"), finals("x", "y"), (None, None, 1, 1),
     "x=1 y=1", F, F, "GenMC 2+2W+scfs (3)"),
    ("S", "rlx", s("rlx", "rlx"), finals("x"), (None, 1, 2), "r1=1 x=2", A, A, "GenMC S (4)"),
    ("S", "rel+acq", s("rel", "acq"), finals("x"), (None, 1, 2), "r1=1 x=2", F, F,
     "GenMC S+rel+acq (2)"),
]


# test: (ARM, Power), for the rows with a direct hardware counterpart
HARDWARE = {
    "SB+rlx": (A, A), "SB+fences": (F, F), "SB+fence+po": (A, A), "MP+rlx": (A, A),
    "MP+fences": (F, F), "LB+rlx": (A, A), "LB+fences": (F, F), "IRIW+rlx": (A, A),
    "IRIW+fences": (F, F), "WRC+rlx": (A, A), "2+2W+rlx": (A, A), "2+2W+fences": (F, F),
    "S+rlx": (A, A),
}


def verdict(program, observe, weak, nta):
    seen = outcomes(program, nta=nta, observe=observe)
    return A if weak in seen else F


def main(argv):
    table = "--table" in argv
    shapes = [a for a in argv if not a.startswith("--")]
    known = {t[0] for t in TESTS}
    if set(shapes) - known:
        print(f"litmus: unknown shapes {sorted(set(shapes) - known)}", file=sys.stderr)
        return 2
    rows, bad = [], 0
    for shape, variant, prog, observe, weak, text, exp_lb, exp_rc11, source in TESTS:
        if shapes and shape not in shapes:
            continue
        start = time.monotonic()
        got_lb, got_rc11 = (verdict(prog, observe, weak, nta) for nta in (False, True))
        ok = (got_lb, got_rc11) == (exp_lb, exp_rc11)
        bad += not ok
        rows.append((f"{shape}+{variant}", text, exp_lb, got_lb, exp_rc11, got_rc11, source,
                     "ok" if ok else "WRONG", time.monotonic() - start))
    if table:
        print("| test | weak outcome | published, no NTA | ours | published, RC11 | ours "
              "| source | ARM, Power |\n|---|---|---|---|---|---|---|---|")
        for r in rows:
            hw = " / ".join(HARDWARE.get(r[0], ("",))).strip()
            print("| " + " | ".join(r[:7] + (hw,)) + " |")
    else:
        for r in rows:
            print(f"{r[7]:5}  {r[0]:18} {r[1]:18} no-NTA {r[3]:9} (published {r[2]}), "
                  f"RC11 {r[5]:9} (published {r[4]})  {r[8]:.2f} s")
        print(f"litmus: {len(rows) - bad} of {len(rows)} agree with the published outcomes")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
