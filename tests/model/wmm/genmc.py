#!/usr/bin/env python3
"""The explorer against an independent checker: GenMC's own litmus folder, counted.

    python3 genmc.py            every program; exit 1 if a count differs
    python3 genmc.py SB MP      these programs

GenMC (MPI-SWS/genmc, a stateless model checker for RC11, among other models) keeps in its test
suite, for each program tests/correct/litmus/NAME/, the number of complete consistent executions
it finds under RC11 (expected.rc11.mo.in). Pinned: commit b03f01ed0f34a873f7b8b960313a5279a6c9ab45
(v0.11.0, 2025-04-05). genmc_litmus.py transcribes every program of that folder that the
explorer can express, op for op, and lists the ones it leaves out with the reason. An execution
is a choice of rf and mo, so a count pins down which outcomes the model allows: SB's 4 include
r0 = r1 = 0, SB+scfs's 3 do not.

GenMC's RC11 follows C++20: release sequences without the releasing thread's later stores
(P0982R1) and the SC order by strongly-happens-before (P0668R5). Every count must equal GenMC's
under standard="c++20". Where the RC11 paper as published (standard="c++11") gives another
count, genmc_litmus.PAPER has it, and it is checked too.

The notation (a thread is T(op, ...); registers are named, values are ints or Python
expressions over the registers; a non-atomic C access is relaxed here, the same in a race-free
execution):
  W(loc, value, order)                   a store
  R(loc, order[, reg])                   a load; loc "y{a}" is y[a] (an address dependency)
  F(order)                               a fence
  FAA(loc, n, order[, reg])              fetch_add (n < 0: fetch_sub), reg gets the old value
  XCHG(loc, value, order[, reg])         exchange
  CAS(loc, var, desired, succ, fail[, reg])   compare_exchange_strong with expected in register
                                         var (which gets the value read if it fails); reg
                                         gets 1 if it succeeded
  SET(reg, value)   IF(cond, ops[, else_ops])   ASSUME(cond) (__VERIFIER_assume)
An assert() that GenMC's program makes is transcribed as its loads (it holds in every
execution GenMC counts); main()'s final checks read plain variables after the joins, which
change no count, and are left out.
"""
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from rc11 import consistent_executions  # noqa: E402


def thread(*ops):
    def run(m):
        _run(m, ops, {})
    return run


def _value(v, regs):
    return v if isinstance(v, int) else eval(v, {"__builtins__": {}}, dict(regs))


def _run(m, ops, regs):
    for op in ops:
        kind, args = op[0], op[1:]
        if kind in ("R", "FAA", "XCHG", "CAS"):
            loc = args[0].format(**regs)
        if kind == "W":
            m.store(args[0].format(**regs), _value(args[1], regs), args[2])
        elif kind == "R":
            _set(regs, args[2:], m.load(loc, args[1]))
        elif kind == "F":
            m.fence(args[0])
        elif kind == "FAA":
            _set(regs, args[3:], m.fetch_add(loc, args[1], args[2]))
        elif kind == "XCHG":
            _set(regs, args[3:], m.exchange(loc, _value(args[1], regs), args[2]))
        elif kind == "CAS":
            won, seen = m.cas(loc, regs.get(args[1], 0), _value(args[2], regs), args[3], args[4])
            if not won:
                regs[args[1]] = seen
            _set(regs, args[5:], int(won))
        elif kind == "SET":
            regs[args[0]] = _value(args[1], regs)
        elif kind == "ASSUME":
            m.assume(_value(args[0], regs))
        elif kind == "IF":
            _run(m, args[1] if _value(args[0], regs) else args[2] if len(args) > 2 else (), regs)
        else:
            raise ValueError(f"genmc: unknown op {op}")


def _set(regs, name, value):
    if name:
        regs[name[0]] = value


def op(kind):
    return lambda *args: (kind,) + args


T = thread
W, R, F, FAA, XCHG, CAS, SET, IF, ASSUME = map(op, "W R F FAA XCHG CAS SET IF ASSUME".split())


def program(name):
    """GenMC's program NAME as thread functions."""
    import genmc_litmus
    return genmc_litmus.TESTS[name][0]


def count(threads, standard="c++20"):
    return sum(1 for _ in consistent_executions(threads, {}, True, standard))


def main(argv):
    import genmc_litmus as g
    names = argv or list(g.TESTS)
    unknown = [n for n in names if n not in g.TESTS]
    if unknown:
        print(f"genmc: not transcribed: {', '.join(unknown)} (see genmc_litmus.LEFT_OUT)",
              file=sys.stderr)
        return 2
    bad = papers = 0
    for name in names:
        threads, expected = g.TESTS[name]
        start = time.monotonic()
        got = count(threads)
        line = f"{name:24} GenMC {expected:4}  C++20 {got:4}"
        ok = got == expected
        if name in g.PAPER:
            papers += 1
            old = count(threads, "c++11")
            ok = ok and old == g.PAPER[name]
            line += f"  (paper {g.PAPER[name]:4}, C++11 {old:4})"
        bad += not ok
        print(f"{'ok' if ok else 'WRONG':5}  {line}  {time.monotonic() - start:.2f} s")
    programs = len({n.split()[0] for n in g.TESTS})
    print(f"genmc: {len(names) - bad} of {len(names)} runs have GenMC's count under C++20, "
          f"{papers} also the paper's under C++11 ({programs} of the {g.FOLDER} programs in "
          f"GenMC's litmus folder; left out: {', '.join(g.LEFT_OUT)})")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
