#!/usr/bin/env python3
"""src/mini/sleep.hpp's sleep protocol under RC11 (rc11.py), as built or with one mutation.

    python3 sleep.py                      as built: exit 0, no lost wake-up
    python3 sleep.py NO_WORKER_FENCE      a mutant: exit 1 and a counterexample
    python3 sleep.py --model rc11 ...     RC11 proper (no-thin-air on); default: without it
    python3 sleep.py --model rc11-lb-c++11 ...   C++11's release sequences and SC order
    python3 sleep.py --list               the variants
    python3 sleep.py WORKER:R-sc          the worker's registration and fence as a learner wrote
                                          them (the labs' grader): R-ORDER a registering fetch_add,
                                          F-ORDER a fence, in program order, comma-separated

One worker goes to sleep (sleep(): lock, register, fence, re-check, wait) while one publisher
makes work visible and wakes sleepers (publish, fence, read sleepers, and if non-zero: lock, count
one out, notify, unlock), in two scenarios: the publisher pushes a job into the injector
(inject, new_injected_job: notify_one), or it sets the latch the worker waits on (SpinLatch::set,
latch_is_set: notify_all). The worker's re-check reads the latch, then the injector's length,
as wait_until's does.

The mutex is a location: lock is an acquire exchange 0 -> 1 that must read 0 (an execution in
which it would spin is left out), unlock a release store of 0. wait() unlocks; its notify is
the waker's, under the mutex. A lost wake-up is an execution in which the worker waits and the
publisher's wake does not come after it (the publisher read no sleeper, or took the mutex before
the worker did). The registration is a relaxed fetch_add and the re-check's count-out a
relaxed fetch_sub, as in the code: x86 makes them full barriers (lock xadd), the C++ model does
not. The models follow C++20 by default (--model rc11-lb); --model rc11-lb-c++11 is the RC11
paper's C++11. Left out: the injector's own mutex (its unlock is a release
store, which orders nothing after it), tokens and generations (one sleeper: whoever counts it out
wakes it), and the search before sleep(). Exit codes: 0 no violation, 1 a violation, 2 usage.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from rc11 import consistent_executions, model_cli  # noqa: E402

VARIANTS = {
    "none": "as built",
    "NO_WORKER_FENCE": "sleep() without its seq_cst fence (sleep.worker.fence)",
    "NO_PUBLISHER_FENCE": "the publisher without its seq_cst fence "
                          "(sleep.injected.fence, sleep.latch.fence)",
    "NO_RECHECK": "sleep() without its re-check (sleep.recheck.removed)",
}
# A worker written otherwise than the code: its registration (R) and fence (F) steps with their
# memory orders, in program order, e.g. "WORKER:R-sc" (a seq_cst fetch_add and no fence) or
# "WORKER:R-rlx,F-sc" (the code). The labs' grader (tests/labs/verdicts.py, worker_variant) names
# one for a learner's own steps register and fence, so that the model judges the orderings they
# wrote: this model's for a lab cut from sleep.hpp, quiet_latch.py's (which imports these) for
# the sleep lab, cut from quiet_latch.hpp.
WORKER = "WORKER:"
ORDERS = ("rlx", "acq", "rel", "acq_rel", "sc")


def worker_ops(variant):
    """[("R" or "F", order)] of a WORKER: variant, or None for any other name; ValueError if it
    is malformed."""
    if not variant.startswith(WORKER):
        return None
    ops = []
    for item in variant[len(WORKER):].split(","):
        kind, _, order = item.partition("-")
        if kind not in ("R", "F") or order not in ORDERS:
            raise ValueError(item)
        ops.append((kind, order))
    if [k for k, _ in ops].count("R") != 1:
        raise ValueError("one registration")
    return ops


def describe_ops(ops):
    return ", ".join(("a fetch_add " if k == "R" else "a fence ") + o for k, o in ops)


def worker_variants(argv, known, prog, who):
    """`known` plus a variant for each WORKER:... argument (a learner's own registration and
    fence orders, the labs' grader); None, with a message, for a malformed one."""
    variants = dict(known)
    for a in argv:
        try:
            ops = worker_ops(a)
        except ValueError:
            print(f"{prog}: {a}: want WORKER:R-ORDER[,F-ORDER...], ORDER one of "
                  f"{', '.join(ORDERS)}, one R", file=sys.stderr)
            return None
        if ops:
            variants[a] = f"{who} that registers and fences as written ({describe_ops(ops)})"
    return variants


WAIT_UNLOCK = "wait: unlock and block"
PUBLISHER_LOCK = "wake: lock"


def lock(m, what):
    m.assume(m.exchange("mutex", 1, "acq", what) == 0)


def unlock(m, what):
    m.store("mutex", 0, "rel", what)


def worker(variant):
    ops = worker_ops(variant) or [("R", "rlx")] + ([] if variant == "NO_WORKER_FENCE"
                                                   else [("F", "sc")])

    def run(m):
        lock(m, "sleep: lock")
        for kind, order in ops:
            if kind == "R":
                m.fetch_add("sleepers", 1, order, "sleep: register")
            else:
                m.fence(order, "sleep: fence")
        if variant != "NO_RECHECK":
            if m.load("latch", "acq", "re-check: latch") or m.load("len", "acq", "re-check: len"):
                m.fetch_sub("sleepers", 1, "rlx", "re-check: count out")
                unlock(m, "re-check: unlock")
                return "found work"
        unlock(m, WAIT_UNLOCK)
        return "waits"
    return run


def publisher(variant, scenario):
    loc, what, wake_all = {"injector": ("len", "inject: store len", False),
                           "latch": ("latch", "latch: store set", True)}[scenario]

    def run(m):
        m.store(loc, 1, "rel", what)
        if variant != "NO_PUBLISHER_FENCE":
            m.fence("sc", "publisher: fence")
        if m.load("sleepers", "rlx", "publisher: load sleepers") == 0:
            return "no sleeper"
        lock(m, PUBLISHER_LOCK)
        sleepers = m.load("sleepers", "rlx", "wake: load sleepers")
        if sleepers > 0:
            m.store("sleepers", 0 if wake_all else sleepers - 1, "rlx", "wake: count out")
        unlock(m, "wake: unlock")
        return ("notify_all" if wake_all else "notify_one") if sleepers > 0 else "counted out"
    return run


def lost_wakeup(ex):
    """True if the worker waits and no notify comes after it: the publisher's wake must read
    the mutex from the worker's wait (which unlocks) and find the sleeper still counted."""
    if ex.results[0] != "waits":
        return False
    if not ex.results[1].startswith("notify"):
        return True
    lock_ev = next(i for i, e in enumerate(ex.events) if e.what == PUBLISHER_LOCK)
    return ex.events[ex.rf[lock_ev]].what != WAIT_UNLOCK


SCENARIOS = ("injector", "latch")


def check(variant, nta=False, standard="c++20", scenarios=SCENARIOS):
    """(scenario, the execution) of the first lost wake-up, or None; and the number of
    consistent executions explored."""
    explored = 0
    for scenario in scenarios:
        threads = [worker(variant), publisher(variant, scenario)]
        for ex in consistent_executions(threads, {}, nta, standard):
            explored += 1
            if lost_wakeup(ex):
                return (scenario, ex), explored
    return None, explored


def main(argv):
    variants = worker_variants(argv, VARIANTS, "sleep.py", "a worker")
    if variants is None:
        return 2
    parsed = model_cli(argv, variants, "sleep.py")
    if isinstance(parsed, int):
        return parsed
    variant, nta, standard, model = parsed
    found, explored = check(variant, nta, standard)
    if found is None:
        print(f"wmm: {variants[variant]}: no lost wake-up in {explored} consistent executions "
              f"({model}; scenarios: {', '.join(SCENARIOS)})")
        return 0
    scenario, ex = found
    why = {"no sleeper": "read no sleeper", "counted out": "found it counted out"}
    print(f"wmm: {variants[variant]}: lost wake-up: the worker waits, the publisher "
          f"{why.get(ex.results[1], 'notified before the wait')} ({model}, scenario {scenario})")
    print(ex.explain())
    return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
