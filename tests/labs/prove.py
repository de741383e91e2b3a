#!/usr/bin/env python3
"""Proof that a lab's grader is right (the ctests labs.prove.LAB, label labs).

    python3 tests/labs/prove.py sleep [--scratch DIR] [--rows NAME,...]

Three claims, in this order, on one scratch build that every grading reuses:
  1. the untouched skeleton grades every step `missing` (and builds nothing);
  2. the skeleton filled with the source grades every step `ok` (the baseline: one build, every
     check);
  2b. a copy of an older skeleton solved as the source was then (tests/labs/fixtures/
     solved-2026-12-04) grades every step `ok`: a learner's copy outlives a change of the source
     (for a lab that has such a copy: Part II's labs are newer); a lab cut from another file
     since (RECUT: sleep) refuses that copy, saying "reset it";
  (with --variants: the fixtures of variants.ini instead of 3; a fixture that names the tsan
     check is graded with --tsan, as the lab page tells a learner to grade such a step)
  3. for every catalogue row that touches the lab's file, the filled skeleton with that row's
     mutation grades exactly the row's step not ok, every other step ok, and the check that
     decided it is the one the row expects (`model` for a model row, a run of the release build
     for `unit`, the stress for `drivers`, TSan for `tsan`); a row whose mutation empties its
     step may be `missing` instead, by the model or with no check at all.
Prints one line per claim and the seconds it took; exit 0 when every claim holds, 1 otherwise,
2 when grading itself failed (a build, the baseline).
"""
import argparse
import re
import sys
import time
from pathlib import Path

import grade
import labs
import verdicts as v

sys.path.insert(0, str(labs.REPO / "tests" / "mutants"))
from catalogue import apply  # noqa: E402

# A learner's copy of the skeletons as they were when the steps left the source for steps.ini:
# it must still grade (the skeleton's format may gain, never lose).
# solved-*: the same copy with every step written as the source was then.
OLD_SKELETONS = Path(__file__).resolve().parent / "fixtures" / "skeletons-2026-12-04"
OLD_SOLVED = OLD_SKELETONS.parent / "solved-2026-12-04"
# The labs cut from another file since that copy, with the file it was cut from then: the copy is
# of another lab, which the grader refuses ("reset it") rather than grade. sleep: Sleep's protocol
# (sleep.hpp, printed by chapter 2) then, QuietLatch's now.
RECUT = {"sleep": "src/mini/sleep.hpp"}

# The grader's checks that stand for each of the catalogue's (tests/mutants/catalogue.py CHECKS).
STANDS_FOR = {"model": {"model"}, "unit": {"compile", "unit", "forced"}, "drivers": {"stress"},
              "tsan": {"tsan"}, "asan": {"effect"}}


def judge_row(row, result):
    """None if `result` (the verdicts of the mutated file) is exactly the row's, else why not."""
    bad = [r for r in result if r.status != "ok"]
    if [r.step for r in bad] != [row.step]:
        return (f"expected only {row.step} not ok, got "
                + (", ".join(f"{r.step} {r.status}" for r in bad) or "every step ok"))
    r = bad[0]
    if r.check in STANDS_FOR[row.mutant.expect] or (r.status == "missing" and r.check in
                                                     ("", "model")):
        return None
    return f"{row.step} decided by {r.check or 'nothing'}, the row expects {row.mutant.expect}"


def judge_variant(variant, result):
    """None if `result` is the variant's intended verdict, else why not."""
    bad = [r for r in result if r.status != "ok"]
    if not variant.step:
        return None if not bad else "expected every step ok, got " + ", ".join(
            f"{r.step} {r.status} by {r.check or 'nothing'}" for r in bad)
    if [r.step for r in bad] != [variant.step]:
        return (f"expected only {variant.step} not ok, got "
                + (", ".join(f"{r.step} {r.status}" for r in bad) or "every step ok"))
    if bad[0].check not in variant.checks:
        return f"{variant.step} decided by {bad[0].check or 'nothing'}, expected {variant.checks}"
    if variant.says and not re.search(variant.says, bad[0].line()):
        return f"{variant.step}'s verdict does not say /{variant.says}/"
    return None


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("lab", choices=sorted(grade.LABS))
    ap.add_argument("--scratch", type=Path, default=labs.REPO / "build" / "labs-scratch")
    ap.add_argument("--rows", help="comma-separated catalogue rows, or with --variants the "
                    "fixtures, to grade (default: all of the lab's)")
    ap.add_argument("--tsan", action="store_true", help="grade with TSan too")
    ap.add_argument("--fresh", action="store_true", help="forget the results kept from earlier "
                    "runs in the scratch (a proof then rebuilds and reruns every check once)")
    ap.add_argument("--variants", action="store_true", help="instead of the catalogue's rows, "
                    "grade the lab's fixtures of tests/labs/variants.ini, each as it intends")
    args = ap.parse_args(argv)
    lab = grade.LABS[args.lab]
    failures, start = 0, time.monotonic()

    def claim(name, problem, t0):
        nonlocal failures
        failures += problem is not None
        print(f"{'ok  ' if problem is None else 'FAIL'} {name} ({time.monotonic() - t0:.0f} s)"
              + (f": {problem}" if problem else ""), flush=True)

    try:
        g = grade.Grader(lab, args.scratch.resolve(), args.tsan, progress=False, fresh=args.fresh)
        t0 = time.monotonic()
        result = g.grade((labs.REPO / lab.skeleton).read_text())
        claim("the skeleton: every step missing", None if all(r.status == "missing" for r in result)
              else "; ".join(r.line() for r in result if r.status != "missing"), t0)
        t0 = time.monotonic()
        result = g.grade(g.source)
        claim("the source: every step ok", None if all(r.status == "ok" for r in result)
              else "; ".join(r.line() for r in result if r.status != "ok"), t0)
        t0 = time.monotonic()
        old = OLD_SOLVED / Path(lab.skeleton).name
        if lab.name in RECUT:
            try:
                g.grade(old.read_text())
                problem = "graded, not refused"
            except labs.LabError as e:
                problem = None if "reset it" in str(e) else f"refused, but not by 'reset it': {e}"
            claim(f"a copy of the skeleton of {OLD_SOLVED.name[7:]}, cut from "
                  f"{RECUT[lab.name]} then: refused, 'reset it'", problem, t0)
        elif old.is_file():
            result = g.grade(old.read_text())
            claim(f"a copy of the skeleton of {OLD_SOLVED.name[7:]}, solved as the source was "
                  "then: every step ok", None if all(r.status == "ok" for r in result)
                  else "; ".join(r.line() for r in result if r.status != "ok"), t0)
        else:  # a lab added after that day (Part II's): no learner has an older copy of it
            print(f"--   no skeleton of {OLD_SOLVED.name[7:]} for lab {lab.name} (it is newer)",
                  flush=True)
        g_tsan = g if args.tsan else None  # the grader of the variants only TSan sees
        for variant in (v.variants(lab.name) if args.variants else []):
            if args.rows and variant.name not in args.rows.split(","):
                continue
            t0 = time.monotonic()
            if "tsan" in variant.checks and g_tsan is None:  # as the lab page says: --tsan
                g_tsan = grade.Grader(lab, args.scratch.resolve(), True, progress=False)
            result = (g_tsan if "tsan" in variant.checks else g).grade(variant.text(g.source))
            claim(f"variant {variant.name} ({variant.why}) -> "
                  + "; ".join(r.line() for r in result if r.status != "ok" or
                              r.step == variant.step), judge_variant(variant, result), t0)
        rows = [] if args.variants else g.rows
        for name in ([] if args.variants else g.others):
            print(f"--   row {name} changes no region of lab {lab.name} in {lab.source}: not "
                  "this lab's", flush=True)
        if args.rows:
            rows = [r for r in rows if r.mutant.name in args.rows.split(",")]
        for row in rows:
            t0 = time.monotonic()
            result = g.grade(apply(g.source, row.mutant))
            problem = judge_row(row, result)
            shown = next(r for r in result if r.step == row.step).line()
            claim(f"row {row.mutant.name} -> {shown}", problem, t0)
    except (RuntimeError, labs.LabError, OSError) as e:
        print(f"prove: {e}", file=sys.stderr)
        return 2
    print(f"lab {lab.name}: {failures} claims failed, {time.monotonic() - start:.0f} s")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
