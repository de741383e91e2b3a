"""How the mutant runner (mutants.py) judges one row's run against the row: the checks it runs for
the row, and whether the row ended as the catalogue says, its symptom included."""
import re
from dataclasses import replace

NOT_THE_SYMPTOM = ", not the symptom"


def row_checks(checks, mutant):
    """`checks` as they run for `mutant`: its own test programs, if its row names them, in the
    checks that run test programs."""
    if mutant is None or not mutant.tests:
        return checks
    return [replace(c, targets=mutant.tests) if c.name in ("unit", "tsan", "asan") else c
            for c in checks]


def judge(mutant, how, output):
    """The "how" of a kill: the symptom's name, marked if the row expects a symptom (a regex)
    that the output lacks."""
    if mutant is not None and mutant.symptom and not re.search(mutant.symptom, output, re.S):
        return how + NOT_THE_SYMPTOM
    return how


def as_expected(mutant, killer, how):
    """Whether a row ended as the catalogue says: killed by the check it expects, with its
    symptom if it names one, or survived if it expects that."""
    return (killer or "survives") == mutant.expect and not how.endswith(NOT_THE_SYMPTOM)
