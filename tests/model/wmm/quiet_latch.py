#!/usr/bin/env python3
"""src/mini/quiet_latch.hpp's QuietLatch under RC11 (rc11.py), as built or with one mutation.

    python3 quiet_latch.py                    as built: exit 0, no lost wake-up
    python3 quiet_latch.py NO_WAITER_FENCE    a mutant: exit 1 and a counterexample
    python3 quiet_latch.py WORKER:R-sc        the waiter's registration and fence as a learner
                                              wrote them (the labs' grader), as in sleep.py
    python3 quiet_latch.py --list             the variants

The sleep protocol of sleep.py with one consumer, the latch: one waiter (wait(): lock, register,
fence, re-check the flag, wait) and one setter (set(): store the flag, fence, read the waiters,
and if there is one: lock, notify_all, unlock). The waiter's fast path is left out: a waiter it
lets through has seen the flag. The mutex and the lost wake-up are sleep.py's: the waiter waits
and the setter's lock does not read from the wait's unlock (it read no waiter, or locked
before the waiter did). Exit codes: 0 no violation, 1 a violation, 2 usage.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from rc11 import consistent_executions, model_cli  # noqa: E402
from sleep import (PUBLISHER_LOCK, WAIT_UNLOCK, lock, lost_wakeup, unlock,  # noqa: E402
                   worker_ops, worker_variants)

VARIANTS = {
    "none": "as built",
    "NO_WAITER_FENCE": "wait() without its seq_cst fence (quiet_latch.wait.fence)",
    "NO_SETTER_FENCE": "set() without its seq_cst fence (quiet_latch.set.fence)",
    "NO_RECHECK": "wait() without its re-check (quiet_latch.recheck.removed)",
}


def waiter(variant):
    ops = worker_ops(variant) or [("R", "rlx")] + ([] if variant == "NO_WAITER_FENCE"
                                                   else [("F", "sc")])

    def run(m):
        lock(m, "wait: lock")
        for kind, order in ops:
            if kind == "R":
                m.fetch_add("waiters", 1, order, "wait: register")
            else:
                m.fence(order, "wait: fence")
        if variant != "NO_RECHECK" and m.load("latch", "acq", "re-check: flag"):
            m.fetch_sub("waiters", 1, "rlx", "re-check: count out")
            unlock(m, "re-check: unlock")
            return "found set"
        unlock(m, WAIT_UNLOCK)
        return "waits"
    return run


def setter(variant):
    def run(m):
        m.store("latch", 1, "rel", "set: store the flag")
        if variant != "NO_SETTER_FENCE":
            m.fence("sc", "set: fence")
        if m.load("waiters", "rlx", "set: load waiters") == 0:
            return "no waiter"
        lock(m, PUBLISHER_LOCK)
        unlock(m, "wake: unlock")
        return "notify_all"
    return run


def check(variant, nta=False, standard="c++20"):
    """The first execution with a lost wake-up, or None; and the number explored."""
    explored = 0
    for ex in consistent_executions([waiter(variant), setter(variant)], {}, nta, standard):
        explored += 1
        if lost_wakeup(ex):
            return ex, explored
    return None, explored


def main(argv):
    variants = worker_variants(argv, VARIANTS, "quiet_latch.py", "a waiter")
    if variants is None:
        return 2
    parsed = model_cli(argv, variants, "quiet_latch.py")
    if isinstance(parsed, int):
        return parsed
    variant, nta, standard, model = parsed
    ex, explored = check(variant, nta, standard)
    if ex is None:
        print(f"wmm: {variants[variant]}: no lost wake-up in {explored} consistent executions "
              f"({model})")
        return 0
    why = "read no waiter" if ex.results[1] == "no waiter" else "notified before the wait"
    print(f"wmm: {variants[variant]}: lost wake-up: the waiter waits, the setter {why} ({model})")
    print(ex.explain())
    return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
