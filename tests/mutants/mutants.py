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
import configparser
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass, replace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CATALOGUE = Path(__file__).resolve().with_name("catalogue.ini")
TESTS = ["test_deque", "test_pool", "test_join", "test_latch", "test_splitter"]
DRIVERS = ["lost_wakeup", "fib", "splits"]
FIELDS = {"file", "anchor", "replace", "breaks", "expect", "model", "why"}


class CatalogueError(Exception):
    """The catalogue is malformed, or a mutant does not apply to its file."""


@dataclass
class Mutant:
    name: str
    file: str
    anchor: list  # lines, stripped of indentation
    replace: list  # lines, indented like the anchor when applied
    breaks: str
    expect: str
    model: tuple = None  # (model file, variant)
    why: str = ""


@dataclass
class Check:
    name: str
    preset: str = None  # the build preset whose tests run; None for the model check
    targets: tuple = ()  # built and tested one at a time, so a kill saves the later builds
    label: str = ""
    tests_of: str = "^{}[.]"  # the ctest -R regex of one target's tests
    exclude: str = None  # a ctest -E regex


# In order of cost. The model check needs no build and takes seconds, so it comes first; it only
# runs for mutants that name a model variant. The release unit tests include the forced
# interleavings (sync hooks). The drivers' stress runs rebuild three more programs per mutant and
# kill nothing the unit tests miss, so they run only when asked for (--checks ...,drivers).
CHECKS = [
    Check("model"),
    Check("unit", "release", tuple(TESTS), "unit"),
    Check("drivers", "release", tuple(DRIVERS), "driver|stress", "[.]{}([._]|$)", "compare"),
    Check("tsan", "tsan", tuple(TESTS), "unit"),
    Check("asan", "asan", tuple(TESTS), "unit"),
]
DEFAULT_CHECKS = ["model", "unit", "tsan", "asan"]
CHECK_NAMES = [c.name for c in CHECKS]


def parse_catalogue(text):
    """The mutants of an INI text, in order. Raises CatalogueError on a malformed entry."""
    parser = configparser.ConfigParser(interpolation=None, comment_prefixes=("#",),
                                       empty_lines_in_values=False)
    parser.optionxform = str
    try:
        parser.read_string(text)
    except configparser.Error as e:
        raise CatalogueError(f"catalogue: {e}") from e
    mutants = []
    for name in parser.sections():
        s = parser[name]
        unknown = set(s) - FIELDS
        missing = {"file", "anchor", "replace", "breaks", "expect"} - set(s)
        if unknown or missing:
            raise CatalogueError(f"catalogue: [{name}]: unknown fields {sorted(unknown)}, "
                                 f"missing fields {sorted(missing)}")
        expect = s["expect"]
        if expect not in CHECK_NAMES + ["survives"]:
            raise CatalogueError(f"catalogue: [{name}]: expect = {expect!r}, not one of "
                                 f"{', '.join(CHECK_NAMES)}, survives")
        if expect == "survives" and not s.get("why"):
            raise CatalogueError(f"catalogue: [{name}]: a survivor needs a 'why'")
        model = tuple(s["model"].split()) if s.get("model") else None
        if model is not None and len(model) != 2:
            raise CatalogueError(f"catalogue: [{name}]: model = 'file.pml VARIANT'")
        if expect == "model" and model is None:
            raise CatalogueError(f"catalogue: [{name}]: expect = model needs a 'model'")
        anchor = [line.strip() for line in s["anchor"].splitlines()]
        if not anchor or not anchor[0]:
            raise CatalogueError(f"catalogue: [{name}]: empty anchor")
        replace = [line.strip() for line in s["replace"].splitlines()]
        mutants.append(Mutant(name, s["file"], anchor, replace, s["breaks"], expect, model,
                              s.get("why", "")))
    return mutants


def apply(text, mutant):
    """`text` with the mutant's anchor lines replaced. The anchor must match exactly once."""
    lines = text.splitlines(keepends=True)
    n = len(mutant.anchor)
    hits = [i for i in range(len(lines) - n + 1)
            if [l.strip() for l in lines[i:i + n]] == mutant.anchor]
    if len(hits) != 1:
        where = "not found" if not hits else f"found {len(hits)} times"
        raise CatalogueError(f"mutant {mutant.name}: anchor {mutant.anchor[0]!r} {where} in "
                             f"{mutant.file}: update tests/mutants/catalogue.ini")
    i = hits[0]
    indent = lines[i][:len(lines[i]) - len(lines[i].lstrip())]
    new = [indent + line + "\n" for line in mutant.replace]
    return "".join(lines[:i] + new + lines[i + n:])


def select(mutants, names):
    """The named mutants, in catalogue order; all of them if no names. Unknown names: error."""
    known = {m.name for m in mutants}
    unknown = [n for n in names if n not in known]
    if unknown:
        raise CatalogueError(f"unknown mutant(s): {', '.join(unknown)} (see --list)")
    return [m for m in mutants if not names or m.name in names]


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
        self.configured = set()

    def say(self, msg, end="\n"):
        if self.progress:
            print(msg, end=end, file=sys.stderr, flush=True)

    def sh(self, cmd, timeout=None):
        """Run cmd in the scratch copy, its output appended to the log. True on exit 0."""
        with open(self.log, "a") as log:
            log.write(f"\n$ {' '.join(cmd)}\n")
            log.flush()
            try:
                return subprocess.run(cmd, cwd=self.scratch, stdout=log, stderr=subprocess.STDOUT,
                                      timeout=timeout).returncode == 0
            except subprocess.TimeoutExpired:
                log.write(f"(timed out after {timeout} s)\n")
                return False

    def build(self, preset, target):
        if preset not in self.configured:
            if not (self.scratch / "build" / preset / "build.ninja").exists():
                if not self.sh(["cmake", "--preset", preset]):
                    raise RuntimeError(f"configuring preset {preset} failed (see {self.log})")
            self.configured.add(preset)
        if not self.sh(["cmake", "--build", "--preset", preset, "--target", target]):
            raise RuntimeError(f"building {target} ({preset}) failed (see {self.log})")

    def passes(self, check, mutant):
        """Whether `check` passes on the scratch copy as it is now; None if it does not apply."""
        if check.name == "model":
            if mutant is None or mutant.model is None:
                return None
            model, variant = mutant.model
            return self.sh(["cmake", f"-DMODEL=tests/model/{model}", f"-DVARIANT={variant}",
                            "-DEXPECT=ok", f"-DWORKDIR=build/mutants-model/{mutant.name}",
                            "-P", "cmake/run_spin.cmake"], timeout=120)
        exclude = ["-E", check.exclude] if check.exclude else []
        for target in check.targets:
            self.build(check.preset, target)
            if not self.sh(["ctest", "--preset", check.preset, "-L", check.label,
                            "-R", check.tests_of.format(target), *exclude, "--stop-on-failure"]):
                return False
        return True

    def run(self, mutant):
        """(name of the check that failed, or None, seconds taken)."""
        start = time.monotonic()
        for check in self.checks:
            self.say(f" {check.name}", end="")
            verdict = self.passes(check, mutant)
            if verdict is False:
                return check.name, time.monotonic() - start
        return None, time.monotonic() - start


def mutate(scratch, mutant):
    """Apply the mutant in the scratch copy; returns a function that undoes it."""
    path = scratch / mutant.file
    original = path.read_text()
    path.write_text(apply(original, mutant))
    return lambda: path.write_text(original)


def matrix(rows, times):
    """The matrix as text: one row per (mutant, killer or None, seconds)."""
    width = max([len("mutant")] + [len(m.name) for m, _, _ in rows])
    out = [f"{'mutant':<{width}}  {'killed by':<9}" + ("  after" if times else "")]
    for m, killer, secs in rows:
        verdict = killer or "SURVIVED"
        note = "" if (killer or "survives") == m.expect else f"  (expected: {m.expect})"
        out.append(f"{m.name:<{width}}  {verdict:<9}" + (f"  {secs:5.0f} s" if times else "")
                   + note)
    killed = sum(1 for _, k, _ in rows if k)
    out.append(f"{killed} killed, {len(rows) - killed} survived, of {len(rows)} mutants")
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
            killer, _ = runner.run(None)
            runner.say("")
            if killer:
                print(f"mutants: the {killer} check fails without a mutant (see {log})",
                      file=sys.stderr)
                return 2
        rows = []
        for i, m in enumerate(mutants, 1):
            runner.say(f"[{i}/{len(mutants)}] {m.name}:", end="")
            undo = mutate(scratch, m)
            try:
                killer, secs = runner.run(m)
            finally:
                undo()
            runner.say(f" -> {killer or 'SURVIVED'} ({secs:.0f} s)")
            rows.append((m, killer, secs))
    except RuntimeError as e:
        print(f"mutants: {e}", file=sys.stderr)
        return 2
    print(matrix(rows, not args.no_times))
    runner.say(f"total {time.monotonic() - start:.0f} s; log in {log}")
    return 0 if all((k or "survives") == m.expect for m, k, _ in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
