#!/usr/bin/env python3
"""src/mini/latch.hpp's latches under RC11 (rc11.py): does the owner see B's result?

    python3 latch.py                      as built: exit 0, every owner that returns sees it
    python3 latch.py SET_RELAXED          a mutant: exit 1 and a counterexample
    python3 latch.py --model rc11-lb-c++11 ...   C++11's rules (default: C++20, no no-thin-air)
    python3 latch.py --list               the variants

B's thread stores its result (a plain write, relaxed here) and sets the latch; the owner waits
and then reads the result. Scenarios:
  spin        SpinLatch: set() is a release store, the owner's probe() an acquire load that must read
         true (wait_until probes until it does: an execution in which it reads false is left out)
  lock-spin   LockLatch: set() locks the mutex, stores with release and unlocks (notify_all
              under the mutex); the owner spins: an acquire load that reads true, then it takes
              the mutex once
  lock-block  the same set(); the owner blocks: lock, then cv_.wait's predicate, a relaxed load
              under the mutex that must read true, then unlock (a wait that blocks first takes
              the mutex again after the setter's unlock, the same edge)
The mutex is a location, as in sleep.py: lock is an acquire exchange 0 -> 1 that must read 0,
unlock a release store of 0. Each latch is set once, by one store, and no seq_cst operation
takes part: C++20's two changes (release sequences, the SC order) leave both latches as they
were under C++11, which the ctests check. The sleep protocol's part of SpinLatch::set
(latch_is_set) is sleep.py's latch scenario. Exit codes: 0 no violation, 1 a violation, 2 usage.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from rc11 import consistent_executions, model_cli  # noqa: E402

VARIANTS = {
    "none": "as built",
    "SET_RELAXED": "SpinLatch::set stores relaxed (latch.set.relaxed)",
    "PROBE_RELAXED": "SpinLatch::probe loads relaxed (latch.probe.relaxed)",
}
RESULT = 42


def lock(m, what):
    m.assume(m.exchange("mutex", 1, "acq", what) == 0)


def unlock(m, what):
    m.store("mutex", 0, "rel", what)


def spin_setter(variant):
    def run(m):
        m.store("result", RESULT, "rlx", "B: store result")
        m.store("set", 1, "rlx" if variant == "SET_RELAXED" else "rel", "SpinLatch::set: store")
    return run


def spin_owner(variant):
    def run(m):
        m.assume(m.load("set", "rlx" if variant == "PROBE_RELAXED" else "acq", "probe") == 1)
        return m.load("result", "rlx", "owner: read result")
    return run


def lock_setter(m):
    m.store("result", RESULT, "rlx", "B: store result")
    lock(m, "LockLatch::set: lock")
    m.store("set", 1, "rel", "LockLatch::set: store")
    unlock(m, "LockLatch::set: unlock (after notify_all)")


def lock_owner(blocks):
    def run(m):
        if blocks:
            lock(m, "wait: lock")
            m.assume(m.load("set", "rlx", "wait: predicate") == 1)
            unlock(m, "wait: unlock")
        else:
            m.assume(m.load("set", "acq", "wait: spin probe") == 1)
            lock(m, "wait: lock once")
            unlock(m, "wait: unlock")
        return m.load("result", "rlx", "owner: read result")
    return run


def scenarios(variant):
    """name -> threads (the owner first). The LockLatch rows are not mutated: their variants
    are SpinLatch's."""
    return {"spin": [spin_owner(variant), spin_setter(variant)],
            "lock-spin": [lock_owner(False), lock_setter],
            "lock-block": [lock_owner(True), lock_setter]}


def check(variant, nta=False, standard="c++20"):
    """(scenario, the execution) of the first owner that reads no result, or None; and the
    number of consistent executions explored."""
    explored = 0
    for name, threads in scenarios(variant).items():
        for ex in consistent_executions(threads, {}, nta, standard):
            explored += 1
            if ex.results[0] != RESULT:
                return (name, ex), explored
    return None, explored


def main(argv):
    parsed = model_cli(argv, VARIANTS, "latch.py")
    if isinstance(parsed, int):
        return parsed
    variant, nta, standard, model = parsed
    found, explored = check(variant, nta, standard)
    if found is None:
        print(f"wmm: {VARIANTS[variant]}: every owner sees B's result in {explored} consistent "
              f"executions ({model}; scenarios: {', '.join(scenarios(variant))})")
        return 0
    name, ex = found
    print(f"wmm: {VARIANTS[variant]}: the owner saw the latch set but read result "
          f"{ex.results[0]}, not B's ({model}, scenario {name})")
    print(ex.explain())
    return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
