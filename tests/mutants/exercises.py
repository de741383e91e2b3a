#!/usr/bin/env python3
"""The exercise runner: makes each exercise's edit and checks that its answer's outcome happens.

A chapter's exercise that edits a line is an `exercise.*` row of tests/mutants/catalogue.ini: the
edit (file, anchor, replace, like a mutant) and what the answer predicts (which ctest tests fail,
which still pass, how many run; or a command's exit code and output). For each row this applies
the edit in the mutant runner's scratch copy (build/mutants, never the working tree), builds the
row's preset there, runs the row's tests `repeat` times, judges every run, and undoes the edit.

    python3 tests/mutants/exercises.py                     every exercise row
    python3 tests/mutants/exercises.py exercise.NAME ...   some of them
    python3 tests/mutants/exercises.py --list              the rows and what their answers say

A row's answer is wrong when a test it says fails passes (or the reverse), when a test it names
is not run at all, when the count differs, or when a test it says fails only sometimes fails in
more or fewer runs than its frequency says. Exit codes: 0 every answer holds, 1 some answer is
wrong, 2 usage, a catalogue error (an anchor that does not apply) or a failed build. Every
command's output is kept in build/mutants/exercises.log.
"""
import argparse
import re
import sys
import time
import xml.etree.ElementTree as ET
from pathlib import Path

from catalogue import CatalogueError, apply, parse, select
from mutants import sync_scratch
from presets import Presets

ROOT = Path(__file__).resolve().parents[2]
CATALOGUE = Path(__file__).resolve().with_name("catalogue.ini")
TIMEOUT = 900  # a safety net for the whole selection: each ctest has its own TIMEOUT


def junit_results(text):
    """{test name: True if it passed} from ctest's --output-junit file."""
    results = {}
    for case in ET.fromstring(text).iter("testcase"):
        status = case.get("status")
        if status in ("disabled", "notrun") and case.find("skipped") is not None:
            continue  # not run: neither passed nor failed
        results[case.get("name")] = status == "run" and case.find("failure") is None
    return results


def judge(ex, runs):
    """(answer holds, what was observed) for one row and its runs. A run is (exit code, output,
    {test: passed}); a command row's runs have no results (None)."""
    problems, n = [], len(runs)
    if ex.command:
        for i, (rc, out, _) in enumerate(runs):
            if rc != ex.exit:
                problems.append(f"run {i + 1}: exit {rc}, the answer says {ex.exit}")
            elif ex.output and not re.search(ex.output, out):
                problems.append(f"run {i + 1}: output does not match /{ex.output}/")
        seen = ", ".join(sorted({f"exit {rc}" for rc, _, _ in runs}))
        return not problems, [f"{n} runs: {seen}"] + problems
    failed = {}  # test -> number of runs in which it failed
    for i, (rc, out, results) in enumerate(runs):
        if not results:
            problems.append(f"run {i + 1}: no test ran (exit {rc})")
            continue
        if ex.count is not None and len(results) != ex.count:
            problems.append(f"run {i + 1}: {len(results)} tests ran, the answer says {ex.count}")
        for name in ex.fails + ex.passes + ex.sometimes:
            if name not in results:
                problems.append(f"run {i + 1}: {name!r} did not run")
        for name, ok in results.items():
            failed[name] = failed.get(name, 0) + (not ok)
        if ex.output and not all(results.values()) and not re.search(ex.output, out):
            problems.append(f"run {i + 1}: output does not match /{ex.output}/")
    for name in ex.fails:
        if name in failed and failed[name] < n:
            problems.append(f"{name!r} passed in {n - failed[name]} of {n} runs, the answer says "
                            "it fails")
    for name in ex.sometimes:
        lo, hi = ex.frequency
        if name in failed and not lo <= failed[name] <= hi:
            problems.append(f"{name!r} failed in {failed[name]} of {n} runs, the answer says "
                            f"{lo} to {hi}")
    for name, k in sorted(failed.items()):
        if k and name not in ex.fails + ex.sometimes:
            problems.append(f"{name!r} failed in {k} of {n} runs, the answer says it passes")
    bad = sorted(name for name, k in failed.items() if k)
    observed = [f"{n} runs of {max((len(r) for _, _, r in runs if r), default=0)} tests; failed: "
                + (", ".join(f"{name} ({failed[name]}/{n})" for name in bad) or "none")]
    return not problems, observed + problems


def run_row(presets, scratch, ex, log):
    """Make the edit, build, run `repeat` times, undo: the row's runs."""
    path = scratch / ex.file
    original = path.read_text()
    path.write_text(apply(original, ex))
    try:
        presets.build(ex.preset, list(ex.build) or ["all"])
        runs = []
        for _ in range(ex.repeat):
            if ex.command:
                rc, out = presets.sh(["bash", "-c", ex.command], timeout=TIMEOUT)
                runs.append((rc, out, None))
                continue
            junit = scratch / "build" / "exercise-junit.xml"
            junit.unlink(missing_ok=True)
            rc, out = presets.ctest(ex.preset, ["--output-junit", str(junit), *ex.tests],
                                    timeout=TIMEOUT)
            results = junit_results(junit.read_text()) if junit.is_file() else {}
            runs.append((rc, out, results))
        return runs
    finally:
        path.write_text(original)


def listing(exercises):
    out = []
    for e in exercises:
        if e.command:
            said = f"`{e.command}` exits {e.exit}"
        else:
            said = "fails: " + "; ".join(e.fails) if e.fails else "fails: none for sure"
            if e.sometimes:
                said += (f"; fails in {e.frequency[0]}-{e.frequency[1]} of {e.repeat} runs: "
                         + "; ".join(e.sometimes))
            if e.count is not None:
                said += f"; {e.count} tests run"
        out.append(f"{e.name}  ({e.preset}) {e.title}: {said}")
    return "\n".join(out)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("names", nargs="*", help="exercise rows to run (default: all)")
    ap.add_argument("--list", action="store_true", help="print the rows and exit")
    ap.add_argument("--scratch", type=Path, default=ROOT / "build" / "mutants",
                    help="scratch copy with its build trees (default: build/mutants, shared "
                         "with the mutant runner)")
    args = ap.parse_args(argv)
    try:
        rows = select(parse(CATALOGUE.read_text()).exercises, args.names, "exercise")
        for e in rows:  # every anchor must apply before anything runs
            apply((ROOT / e.file).read_text(), e)
    except (CatalogueError, OSError) as e:
        print(f"exercises: {e}", file=sys.stderr)
        return 2
    if args.list:
        print(listing(rows))
        return 0
    scratch = args.scratch.resolve()
    scratch.mkdir(parents=True, exist_ok=True)
    sync_scratch(ROOT, scratch)
    log = scratch / "exercises.log"
    log.write_text("")
    presets, start, wrong = Presets(scratch, log), time.monotonic(), 0
    for i, e in enumerate(rows, 1):
        t0 = time.monotonic()
        print(f"[{i}/{len(rows)}] {e.name} ({e.title}):", flush=True)
        with open(log, "a") as f:
            f.write(f"\n=== exercise {e.name}\n")
        try:
            ok, observed = judge(e, run_row(presets, scratch, e, log))
        except RuntimeError as err:
            print(f"exercises: {err}", file=sys.stderr)
            return 2
        wrong += not ok
        for line in observed:
            print(f"    {line}")
        print(f"    {'answer holds' if ok else 'ANSWER WRONG'} ({time.monotonic() - t0:.0f} s)",
              flush=True)
    print(f"exercises: {len(rows) - wrong} of {len(rows)} answers hold "
          f"({time.monotonic() - start:.0f} s; log in {log})")
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
