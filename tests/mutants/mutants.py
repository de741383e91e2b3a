#!/usr/bin/env python3
"""The mutant runner: proves that each line in tests/mutants/catalogue.ini matters.

For each mutant it changes one line of src/mini in a scratch copy of the repository (never the
working tree), builds what the next check needs and runs the checks in order of cost, stopping at
the first that fails: that check killed the mutant. A mutant no check kills SURVIVED. Then it prints
the matrix. Before the mutants it runs the same checks on the unmutated copy (the baseline): a
check that fails there would "kill" every mutant, so the run stops instead.

    python3 tests/mutants/mutants.py                        every mutant, the default checks
    python3 tests/mutants/mutants.py deque.pop.fence ...    a subset, by name
    python3 tests/mutants/mutants.py --checks unit,model    only these checks
    python3 tests/mutants/mutants.py --tests test_deque     only this test executable
    python3 tests/mutants/mutants.py --list                 the catalogue, without running

The scratch copy and its build trees live in build/mutants and are reused between runs, so a run
rebuilds only what a mutated line touches. Exit codes: 0 every mutant ended as the catalogue
expects, 1 some did not, 2 usage, a catalogue error (an anchor that does not apply) or a failed
build or baseline.
"""
import argparse
import re
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass, replace
from pathlib import Path

import catalogue
from catalogue import CatalogueError, apply, parse_catalogue, select
from presets import Presets
from verdict import NOT_THE_SYMPTOM, as_expected, judge, row_checks  # noqa: F401

ROOT = Path(__file__).resolve().parents[2]
CATALOGUE = Path(__file__).resolve().with_name("catalogue.ini")
# The programs that kill the most mutants first (the pool's stress and forced windows, then the
# deque's), so that a killed mutant rarely waits for the others' tests.
TESTS = ["test_pool", "test_deque", "test_join", "test_latch", "test_sleep", "test_splitter",
         "test_pools", "test_scope", "test_exceptions", "test_par_iter", "test_par_indexed",
         "test_par_unindexed", "test_par_sources", "test_broadcast", "test_spawn", "test_publish",
         "test_sort", "test_quiet_latch"]
DRIVERS = ["lost_wakeup", "fib", "splits"]


@dataclass
class Check:
    name: str
    preset: str = None  # the build preset whose tests run; None for the model check
    targets: tuple = ()  # built and tested one at a time, so a kill saves the later builds
    label: str = ""
    tests_of: str = "^{}[.]"  # the ctest -R regex of one target's tests
    exclude: str = None  # a ctest -E regex
    env: tuple = ()  # (name, value) pairs for the tests


# In order of cost. The model check needs no build and takes seconds, so it comes first; it only
# runs for mutants that name a model variant. The release unit tests include the forced
# interleavings (sync hooks). The drivers' stress runs rebuild three more programs per mutant and
# kill nothing the unit tests miss, so they run only when asked for (--checks ...,drivers).
# TSan runs before ASan although its tests take twice as long: it kills most of the sanitizers'
# rows, and the other order would build and run ASan for each of them in vain. ASan sees a use
# of a returned frame only with fake stacks on (touch-after-set-asan sets the same option).
CHECKS = [
    Check("model"),
    Check("unit", "release", tuple(TESTS), "unit"),
    Check("drivers", "release", tuple(DRIVERS), "driver|stress", "[.]{}([._]|$)", "compare"),
    Check("tsan", "tsan", tuple(TESTS), "unit"),
    Check("asan", "asan", tuple(TESTS), "unit",
          env=(("ASAN_OPTIONS", "detect_stack_use_after_return=1"),)),
]
# How a failed check ended, first match in its output: the matrix's "how" column.
SYMPTOMS = [
    ("WATCHDOG: deadlock", "watchdog"),
    (r"\*\*\*Timeout", "ctest timeout"),
    ("ThreadSanitizer: (data race|heap-use-after-free)", None),
    (r"AddressSanitizer: ([\w-]+)", None),
    ("pan:.* (assertion violated|invalid end state|acceptance cycle)", None),
    (r"(?m)^wmm: .*?: (job \d+ (?:taken twice|lost)|a take returned \d+|lost wake-up)", None),
    ("FAILED:", "assertion"),
]
DEFAULT_CHECKS = ["model", "unit", "tsan", "asan"]
CHECK_NAMES = [c.name for c in CHECKS]
assert CHECK_NAMES == catalogue.CHECKS


def sync_scratch(src, dst):
    """Copy the files of `src` that git tracks or would track into `dst`, rewriting only files whose content differs, so
    the build trees in `dst` rebuild only what changed."""
    files = subprocess.run(["git", "-C", str(src), "ls-files", "-z", "--cached", "--others",
                            "--exclude-standard"], check=True,
                           capture_output=True).stdout.decode().split("\0")
    for rel in filter(None, files):
        s, d = src / rel, dst / rel
        if not s.is_file():
            continue
        data = s.read_bytes()
        if d.is_file() and d.read_bytes() == data:
            continue
        d.parent.mkdir(parents=True, exist_ok=True)
        d.write_bytes(data)
        shutil.copymode(s, d)


class Runner:
    def __init__(self, scratch, checks, log, progress):
        self.scratch, self.checks, self.log, self.progress = scratch, checks, log, progress
        self.presets = Presets(scratch, log)

    def say(self, msg, end="\n"):
        if self.progress:
            print(msg, end=end, file=sys.stderr, flush=True)

    def failure(self, check, mutant):
        """How `check` fails on the scratch copy as it is now: None if it passes or does not
        apply, else (the symptom ("watchdog", "data race", ...), the failing run's output)."""
        if check.name == "model":
            if mutant is None or mutant.model is None:
                return None
            m = mutant.model
            if m.file.endswith(".py"):  # the weak-memory explorer: exit 1 is a violation
                rc, out = self.presets.sh([sys.executable, f"tests/model/{m.file}", m.variant],
                                          timeout=120)
                if rc not in (0, 1) or (rc == 1 and not re.search(r"^wmm: .*: ", out, re.M)):
                    raise RuntimeError(f"the model {m.file} {m.variant} failed to run "
                                       f"(see {self.log})")
                return None if rc == 0 else (symptom(out), out)
            rc, out = self.presets.sh(["cmake", f"-DMODEL=tests/model/{m.file}",
                                       f"-DVARIANT={m.variant}", "-DEXPECT=ok",
                                       f"-DWORKDIR=build/mutants-model/{mutant.name}",
                                       "-P", "cmake/run_spin.cmake"], timeout=120)
            return None if rc == 0 else (symptom(out), out)
        exclude = ["-E", check.exclude] if check.exclude else []
        # The first program on its own (it kills the most), then the others in one build, which
        # keeps both cores busy.
        for group in (check.targets[:1], check.targets[1:]):
            if group:
                self.presets.build(check.preset, group)
            for target in group:
                rc, out = self.presets.ctest(check.preset, ["-L", check.label, "-R",
                                             check.tests_of.format(target), *exclude,
                                             "--stop-on-failure"], env=check.env)
                if rc != 0:
                    return symptom(out), out
        return None

    def run(self, mutant):
        """(name of the check that failed or None, how it failed, seconds taken)."""
        start = time.monotonic()
        for check in row_checks(self.checks, mutant):
            self.say(f" {check.name}", end="")
            failed = self.failure(check, mutant)
            if failed:
                return check.name, judge(mutant, *failed), time.monotonic() - start
        return None, "", time.monotonic() - start


def symptom(output):
    """How a check failed, from its output: the first of SYMPTOMS that matches, else "failed"."""
    for pattern, name in SYMPTOMS:
        m = re.search(pattern, output)
        if m:
            return name or m.group(1)
    return "failed"


def mutate(scratch, mutant):
    """Apply the mutant in the scratch copy; returns a function that undoes it."""
    path = scratch / mutant.file
    original = path.read_text()
    path.write_text(apply(original, mutant))
    return lambda: path.write_text(original)


def matrix(rows, times):
    """The matrix as text: one row per (mutant, killer or None, how, seconds)."""
    width = max([len("mutant")] + [len(m.name) for m, *_ in rows])
    how_width = max([len("how")] + [len(how) for _, _, how, _ in rows])
    out = [f"{'mutant':<{width}}  {'killed by':<9}  {'how':<{how_width}}"
           + ("  after" if times else "")]
    for m, killer, how, secs in rows:
        note = "" if as_expected(m, killer, how) else f"  (expected: {m.expect})"
        out.append((f"{m.name:<{width}}  {killer or 'SURVIVED':<9}  {how:<{how_width}}"
                    + (f"  {secs:5.0f} s" if times else "") + note).rstrip())
    killed = sum(1 for _, k, _, _ in rows if k)
    explained = sum(1 for m, k, _, _ in rows if not k and m.expect == "survives")
    out.append(f"{killed} killed, {len(rows) - killed} survived ({explained} explained in the "
               f"catalogue), of {len(rows)} mutants")
    return "\n".join(out)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("names", nargs="*", help="mutants to run (default: all)")
    ap.add_argument("--checks", default=",".join(DEFAULT_CHECKS),
                    help=f"comma-separated checks of {','.join(CHECK_NAMES)}, run in that order "
                         f"(default: {','.join(DEFAULT_CHECKS)})")
    ap.add_argument("--tests", help="comma-separated test executables the unit, tsan and asan "
                    f"checks build and run (default: all of {','.join(TESTS)})")
    ap.add_argument("--list", action="store_true", help="print the catalogue and exit")
    ap.add_argument("--no-times", action="store_true", help="leave the time column out")
    ap.add_argument("--quiet", action="store_true", help="no progress on stderr")
    ap.add_argument("--no-baseline", action="store_true",
                    help="skip the run of the checks on the unmutated copy")
    ap.add_argument("--scratch", type=Path, default=ROOT / "build" / "mutants",
                    help="scratch copy with its build trees (default: build/mutants)")
    args = ap.parse_args(argv)
    wanted = args.checks.split(",")
    if set(wanted) - set(CHECK_NAMES):
        ap.error(f"--checks: unknown {sorted(set(wanted) - set(CHECK_NAMES))}")
    try:
        mutants = select(parse_catalogue(CATALOGUE.read_text()), args.names)
        for m in mutants:  # every anchor must apply before anything runs
            apply((ROOT / m.file).read_text(), m)
            if set(m.tests) - set(TESTS):
                raise CatalogueError(f"catalogue: [{m.name}]: tests: unknown "
                                     f"{sorted(set(m.tests) - set(TESTS))}")
    except (CatalogueError, OSError) as e:
        print(f"mutants: {e}", file=sys.stderr)
        return 2
    if args.list:
        width = max(len(m.name) for m in mutants)
        for m in mutants:
            print(f"{m.name:<{width}}  {m.expect:<8}  {m.breaks}")
        return 0

    scratch = args.scratch.resolve()
    scratch.mkdir(parents=True, exist_ok=True)
    sync_scratch(ROOT, scratch)
    log = scratch / "mutants.log"
    log.write_text("")
    checks = [c for c in CHECKS if c.name in wanted]
    if args.tests:
        exes = args.tests.split(",")
        if set(exes) - set(TESTS):
            ap.error(f"--tests: unknown {sorted(set(exes) - set(TESTS))}")
        checks = [replace(c, targets=tuple(exes)) if c.targets == tuple(TESTS) else c
                  for c in checks]
    runner = Runner(scratch, checks, log, not args.quiet)
    start = time.monotonic()
    try:
        if not args.no_baseline:
            runner.say("baseline (no mutant):", end="")
            killer, how, _ = runner.run(None)
            runner.say("")
            if killer:
                print(f"mutants: the {killer} check fails without a mutant ({how}; see {log})",
                      file=sys.stderr)
                return 2
        rows = []
        for i, m in enumerate(mutants, 1):
            runner.say(f"[{i}/{len(mutants)}] {m.name}:", end="")
            with open(log, "a") as f:
                f.write(f"\n=== mutant {m.name}\n")
            undo = mutate(scratch, m)
            try:
                killer, how, secs = runner.run(m)
            finally:
                undo()
            runner.say(f" -> {killer or 'SURVIVED'} {how} ({secs:.0f} s)")
            rows.append((m, killer, how, secs))
    except RuntimeError as e:
        print(f"mutants: {e}", file=sys.stderr)
        return 2
    print(matrix(rows, not args.no_times))
    runner.say(f"total {time.monotonic() - start:.0f} s; log in {log}")
    return 0 if all(as_expected(m, k, how) for m, k, how, _ in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
