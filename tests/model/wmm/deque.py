#!/usr/bin/env python3
"""src/mini/deque.hpp's push, pop and steal under RC11 (rc11.py), as built or with one mutation.

    python3 deque.py                      as built: exit 0, no double take and no lost job
    python3 deque.py PUSH_TOP_RELAXED     a mutant: exit 1 and a counterexample
    python3 deque.py --model rc11 ...     RC11 proper (no-thin-air on); default: without it
    python3 deque.py --model rc11-lb-c++11 ...   C++11's release sequences and SC order (the
                                          default is C++20, the language the code is built as)
    python3 deque.py --list               the variants

Each variant is one catalogue row's mutation (tests/mutants/catalogue.ini names them: the row
deque.push.top-relaxed is PUSH_TOP_RELAXED). The bounds, two scenarios, both must pass:
  pop race     capacity 2: the owner pushes jobs 1 and 2, then pops once; two thieves steal once
  wrap-around  capacity 1: the owner pushes jobs 1 and 2, then pops once; one thief steals once
               (the second push reuses the slot of the first, so a thief must have taken job 1)
A push that finds the buffer full ends the execution: grow is not modelled (its orderings are
the TSan rows'), so the buffer pointer is a constant and its loads are left out. Only the owner
writes bottom, so its relaxed loads of bottom read its own last store (coherence): the model
keeps that value in a local. Every other load is a load of the model, with the order in the code.
Exit codes: 0 no violation, 1 a violation (printed with its execution), 2 usage.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from rc11 import consistent_executions, model_cli  # noqa: E402

VARIANTS = {
    "none": "as built",
    "PUSH_TOP_RELAXED": "push loads top relaxed (deque.push.top-relaxed)",
    "PUSH_BOTTOM_RELAXED": "push stores bottom relaxed (deque.push.bottom-relaxed)",
    "POP_BOTTOM_RELAXED": "pop stores bottom relaxed (deque.pop.bottom-relaxed)",
    "POP_FENCE": "pop without its seq_cst fence (deque.pop.fence)",
    "POP_CAS_STORE": "pop stores top instead of its CAS (deque.pop.cas-store)",
    "STEAL_TOP_RELAXED": "steal loads top relaxed (deque.steal.top-relaxed)",
    "STEAL_FENCE": "steal without its seq_cst fence (deque.steal.fence)",
    "STEAL_BOTTOM_RELAXED": "steal loads bottom relaxed (deque.steal.bottom-relaxed)",
    "STEAL_CAS_STORE": "steal stores top instead of its CAS (deque.steal.cas-store)",
}


class Deque:
    """One thread's view of the shared deque: top, bottom and the slots slot0.. are locations."""

    def __init__(self, m, cap, variant):
        self.m, self.cap, self.v = m, cap, variant
        self.bottom = 0  # the owner's own last store to bottom

    def slot(self, i):
        return f"slot{i & (self.cap - 1)}"

    def order(self, mutant, mutated, built):
        return mutated if self.v == mutant else built

    def push(self, job):
        m, b = self.m, self.bottom
        t = m.load("top", self.order("PUSH_TOP_RELAXED", "rlx", "acq"), "push: load top")
        m.assume(b - t <= self.cap - 1)  # else grow: not modelled
        m.store(self.slot(b), job, "rlx", "push: store slot")
        m.store("bottom", b + 1, self.order("PUSH_BOTTOM_RELAXED", "rlx", "rel"),
                "push: store bottom")
        self.bottom = b + 1

    def pop(self):
        m, b = self.m, self.bottom - 1
        m.store("bottom", b, self.order("POP_BOTTOM_RELAXED", "rlx", "rel"),
                "pop: store bottom = b")
        self.bottom = b
        if self.v != "POP_FENCE":
            m.fence("sc", "pop: fence")
        t = m.load("top", "rlx", "pop: load top")
        if t > b:
            m.store("bottom", b + 1, "rlx", "pop: empty, restore bottom")
            self.bottom = b + 1
            return None
        job = m.load(self.slot(b), "rlx", "pop: load slot")
        if t == b:
            if self.v == "POP_CAS_STORE":
                m.store("top", t + 1, "sc", "pop: store top (the mutant)")
                won = True
            else:
                won, _ = m.cas("top", t, t + 1, "sc", "rlx", "pop: CAS top")
            m.store("bottom", b + 1, "rlx", "pop: restore bottom")
            self.bottom = b + 1
            if not won:
                return None
        return job

    def steal(self):
        m = self.m
        t = m.load("top", self.order("STEAL_TOP_RELAXED", "rlx", "acq"), "steal: load top")
        if self.v != "STEAL_FENCE":
            m.fence("sc", "steal: fence")
        b = m.load("bottom", self.order("STEAL_BOTTOM_RELAXED", "rlx", "acq"),
                   "steal: load bottom")
        if t >= b:
            return None
        job = m.load(self.slot(t), "rlx", "steal: load slot")
        if self.v == "STEAL_CAS_STORE":
            m.store("top", t + 1, "sc", "steal: store top (the mutant)")
            return job
        won, _ = m.cas("top", t, t + 1, "sc", "rlx", "steal: CAS top")
        return job if won else None


# name: (capacity, jobs the owner pushes before its one pop, thieves)
SCENARIOS = {"pop race": (2, 2, 2), "wrap-around": (1, 2, 1)}


def program(cap, jobs, thieves, variant):
    def owner(m):
        d = Deque(m, cap, variant)
        for job in range(1, jobs + 1):
            d.push(job)
        return d.pop()

    def thief(m):
        return Deque(m, cap, variant).steal()
    return [owner] + [thief] * thieves


def violation(ex, jobs):
    """What went wrong in a finished execution ("" if nothing): each job j (pushed at index
    j - 1) must be taken exactly once or still be in [top, bottom)."""
    taken = [r for r in ex.results if r is not None]
    top, bottom = ex.final("top"), ex.final("bottom")
    wrong = [f"a take returned {j}, no job (a slot read before its push)"
             for j in sorted(set(taken) - set(range(1, jobs + 1)))]
    for j in range(1, jobs + 1):
        n = taken.count(j) + (top <= j - 1 < bottom)
        if n != 1:
            wrong.append(f"job {j} " + ("lost" if n == 0 else "taken twice"))
    return ", ".join(wrong)


def check(variant, nta=False, standard="c++20"):
    """(scenario, what went wrong, the execution) for the first violation, or None; and the
    number of consistent executions explored."""
    explored = 0
    for name, (cap, jobs, thieves) in SCENARIOS.items():
        for ex in consistent_executions(program(cap, jobs, thieves, variant), {}, nta,
                                        standard):
            explored += 1
            what = violation(ex, jobs)
            if what:
                return (name, what, ex), explored
    return None, explored


def main(argv):
    parsed = model_cli(argv, VARIANTS, "deque.py")
    if isinstance(parsed, int):
        return parsed
    variant, nta, standard, model = parsed
    found, explored = check(variant, nta, standard)
    if found is None:
        print(f"wmm: {VARIANTS[variant]}: no violation in {explored} consistent executions "
              f"({model}; scenarios: {', '.join(SCENARIOS)})")
        return 0
    name, what, ex = found
    print(f"wmm: {VARIANTS[variant]}: {what} ({model}, scenario {name})")
    print("  thread 0 is the owner; returned: "
          + ", ".join(f"T{i} {r}" for i, r in enumerate(ex.results)))
    print(ex.explain())
    return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
