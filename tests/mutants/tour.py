#!/usr/bin/env python3
"""The tour: build every variant, run what the catalogue says about it, and judge each run.

The observations are the `tour` lines of tests/mutants/catalogue.ini: a command run in one
preset's build (a driver, or ctest) and a judge that decides whether its output shows what the
chapters say. Only what holds on any machine is judged: an exit code, the watchdog's line, a leaf
count, a count of jobs run while waiting, and one ratio of two medians measured side by side in
one process on a workload where the difference is structural (steal_wait, chapter 3).

    python3 tests/mutants/tour.py                         every preset the catalogue names
    python3 tests/mutants/tour.py --presets release,no-recheck
    python3 tests/mutants/tour.py --no-build              use the build trees as they are

Per preset it configures once (unless build/PRESET exists) and builds only the targets its lines
run. It prints progress on stderr, then the matrix: preset, command, expected, observed, verdict.
Exit codes: 0 every observation agrees, 1 some DISAGREE, 2 usage or catalogue error. Each
command's full output is kept in build/tour/tour.log.
"""
import argparse
import re
import sys
import time
from pathlib import Path

from catalogue import CatalogueError, parse
from presets import Presets

ROOT = Path(__file__).resolve().parents[2]
CATALOGUE = Path(__file__).resolve().with_name("catalogue.ini")
TIMEOUT = 600  # a safety net only: a deadlock ends by the watchdog's exit 3


def exit_text(rc):
    if rc is None:
        return "KILLED (timeout)"
    return f"KILLED (signal {-rc})" if rc < 0 else f"exit {rc}"


def passes(rc, out, *regex):
    """Exit 0 and the output matches REGEX."""
    m = re.search(" ".join(regex), out)
    return rc == 0 and m is not None, f"{exit_text(rc)}, " + (m.group(0) if m else "no match")


def watchdog(rc, out, *what):
    """The watchdog's deadlock: exit 3 and its line, naming WHAT the driver was doing."""
    what = " ".join(what)
    m = re.search(rf"WATCHDOG: no progress for ([0-9.]+) s while {re.escape(what)}: ([^\n]*)",
                  out)
    seen = f"WATCHDOG after {m.group(1)} s: {m.group(2)}" if m else "no WATCHDOG line"
    return rc == 3 and m is not None, f"{exit_text(rc)}, {seen}"


def _count_ok(spec, n):
    if spec == "*":
        return True
    return n >= int(spec[:-1]) if spec.endswith("+") else n == int(spec)


def leaves(rc, out, outside, inside):
    """splits count: every run's leaves, outside=N inside=N (N exact, N+ at least, * any)."""
    want_o, want_i = outside.removeprefix("outside="), inside.removeprefix("inside=")
    runs = [(int(o), int(i)) for o, i in re.findall(r"run \d+: outside +(\d+) .*? inside +(\d+) ",
                                                    out)]
    ok = rc == 0 and runs and all(_count_ok(want_o, o) and _count_ok(want_i, i) for o, i in runs)
    return bool(ok), (f"{exit_text(rc)}, {len(runs)} runs, outside "
                      f"{' '.join(str(o) for o, _ in runs)}, inside "
                      f"{' '.join(str(i) for _, i in runs)}")


def waited(rc, out, count):
    """fib: exit 0, every result correct and every run's "run while waiting" equal to COUNT."""
    runs = [int(w) for w in re.findall(r"run while waiting (\d+)", out)]
    correct = "all results correct" in out
    median = re.search(r"median ([0-9.]+) s", out)
    ok = rc == 0 and correct and runs and all(w == int(count) for w in runs)
    return bool(ok), (f"{exit_text(rc)}, {'all correct' if correct else 'NOT all correct'}, "
                      f"run while waiting {' '.join(map(str, runs))}"
                      + (f", median {median.group(1)} s" if median else ""))


def slower(rc, out, ratio):
    """steal_wait: exit 0, every result correct, NO_STEAL_WAIT ran nothing while waiting, and the
    median of its runs takes more than RATIO times that of the core as built."""
    nsw = [int(w) for w in re.findall(r"NO_STEAL_WAIT [0-9.]+ s correct, run while waiting (\d+)",
                                      out)]
    m = re.search(r"median: as built ([0-9.]+) s, NO_STEAL_WAIT ([0-9.]+) s: NO_STEAL_WAIT "
                  r"takes ([0-9.]+)x", out)
    correct = "all results correct" in out
    ok = (rc == 0 and correct and nsw and not any(nsw) and m is not None
          and float(m.group(3)) > float(ratio))
    medians = (f", takes {m.group(3)}x = {m.group(2)}/{m.group(1)} s" if m else ", no medians")
    return bool(ok), (f"{exit_text(rc)}, {'all correct' if correct else 'NOT all correct'}, "
                      f"NO_STEAL_WAIT ran {sum(nsw)} jobs while waiting in {len(nsw)} runs"
                      + medians)


JUDGES = {"passes": passes, "watchdog": watchdog, "leaves": leaves, "waited": waited,
          "slower": slower}
EXPECTED = {
    "passes": lambda *r: f"exit 0, output matches /{' '.join(r)}/",
    "watchdog": lambda *w: f"exit 3, WATCHDOG line while {' '.join(w)}",
    "leaves": lambda o, i: f"every run: {o.replace('=', ' ')}, {i.replace('=', ' ')}",
    "waited": lambda c: f"exit 0, correct, run while waiting {c} in every run",
    "slower": lambda r: f"exit 0, correct, NO_STEAL_WAIT runs nothing while waiting, takes > {r}x",
}


def check_judges(observations):
    """CatalogueError for a tour line whose judge is unknown or has the wrong arguments."""
    for o in observations:
        if o.judge not in JUDGES:
            raise CatalogueError(f"catalogue: [{o.row}]: unknown judge {o.judge!r} "
                                 f"(known: {', '.join(JUDGES)})")
        try:
            EXPECTED[o.judge](*o.args)
        except (TypeError, ValueError) as e:
            raise CatalogueError(f"catalogue: [{o.row}]: {o.judge} {' '.join(o.args)}: {e}")


def in_order(observations):
    """The observations grouped by preset, release first, then in catalogue order."""
    presets = list(dict.fromkeys(["release"] + [o.preset for o in observations]))
    return [o for p in presets for o in observations if o.preset == p]


def matrix(rows):
    head = ("preset", "command", "expected (the chapters)", "observed", "verdict")
    table = [head] + rows
    widths = [max(len(r[c]) for r in table) for c in range(len(head))]
    lines = [" | ".join(cell.ljust(w) for cell, w in zip(r, widths)).rstrip() for r in table]
    lines.insert(1, "-" * len(lines[0]))
    return "\n".join(lines)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--presets", help="comma-separated presets to tour (default: all)")
    ap.add_argument("--no-build", action="store_true", help="configure and build nothing")
    args = ap.parse_args(argv)
    try:
        cat = parse(CATALOGUE.read_text())
        check_judges(cat.tour)
    except (CatalogueError, OSError) as e:
        print(f"tour: {e}", file=sys.stderr)
        return 2
    observations = in_order(cat.tour)
    if args.presets:
        wanted = args.presets.split(",")
        unknown = set(wanted) - {o.preset for o in observations}
        if unknown:
            ap.error(f"--presets: no tour lines for {', '.join(sorted(unknown))}")
        observations = [o for o in observations if o.preset in wanted]

    log = ROOT / "build" / "tour" / "tour.log"
    log.parent.mkdir(parents=True, exist_ok=True)
    log.write_text("")
    runner, start = Presets(ROOT, log), time.monotonic()

    def say(msg):
        print(f"[tour {time.monotonic() - start:4.0f} s] {msg}", file=sys.stderr, flush=True)

    unbuilt = {}
    for preset in dict.fromkeys(o.preset for o in observations):
        targets = list(dict.fromkeys([o.command[0] for o in observations
                                      if o.preset == preset and o.command[0] != "ctest"]
                                     + cat.builds.get(preset, [])))
        if args.no_build:
            missing = [t for t in targets if not any((ROOT / "build" / preset / d / t).exists()
                                                     for d in ("apps", "tests"))]
            if missing:
                unbuilt[preset] = f"not built (--no-build): {' '.join(missing)}"
            continue
        say(f"build {preset}: {' '.join(targets)}")
        try:
            runner.build(preset, targets)
        except RuntimeError as e:
            unbuilt[preset] = str(e)

    rows = []
    for o in observations:
        command = " ".join(o.command)
        expected = EXPECTED[o.judge](*o.args)
        if o.preset in unbuilt:
            rows.append((o.preset, command, expected, unbuilt[o.preset], "DISAGREE"))
            continue
        say(f"run {o.preset}: {command}")
        t0 = time.monotonic()
        if o.command[0] == "ctest":
            rc, out = runner.ctest(o.preset, ["--no-tests=error", *o.command[1:]], TIMEOUT)
        else:
            rc, out = runner.driver(o.preset, o.command, TIMEOUT)
        ok, observed = JUDGES[o.judge](rc, out, *o.args)
        say(f"    {'agree' if ok else 'DISAGREE'}: {observed} ({time.monotonic() - t0:.1f} s)")
        rows.append((o.preset, command, expected, observed, "agree" if ok else "DISAGREE"))

    print(f"The tour's matrix ({len(rows)} observations, {time.monotonic() - start:.0f} s; "
          f"logs in build/tour/tour.log):\n")
    print(matrix(rows))
    bad = sum(1 for r in rows if r[-1] != "agree")
    if bad:
        print(f"\ntour: {bad} of {len(rows)} observations DISAGREE with the chapters")
        return 1
    print(f"\ntour: all {len(rows)} observations agree with the chapters")
    return 0


if __name__ == "__main__":
    sys.exit(main())
