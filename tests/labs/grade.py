#!/usr/bin/env python3
"""The labs' grader: builds the library with your file in place of the mechanism's and says, step
by step, which line is missing and what it protects against.

    python3 tests/labs/grade.py sleep                 grades chapters/labs/sleep.hpp (all missing)
    python3 tests/labs/grade.py join my_join.hpp      grades your copy (cp chapters/labs/join.hpp)
    python3 tests/labs/grade.py splitter --tsan       ThreadSanitizer too (one more build)

It works like the mutant runner (tests/mutants/mutants.py): a scratch copy of the repository
(build/labs-scratch, never the working tree) gets your file, and the checks run in order of
cost: the model check, which reads the lines that no run on this machine can show (a fence); the
compile; the unit tests; the forced interleavings; the stress runs under their watchdog; TSan if
asked. A step left empty is `missing`; a step that a check fails is `wrong`, with what failed and
the section to re-read; a step with the source's code takes the verdict of the source's own run
(the baseline). When a run fails with more than one step of yours in it, each is built alone
with the others from the source, to say which. Every check's result is kept in the scratch
(labs-results.json), keyed by everything it depends on: a text graded before, the baseline, or
a step built alone before, is not built or run again. Exit codes: 0 every step ok, 1 some
step is not, 2 usage, broken markers, or a build or baseline that fails for another reason.
"""
import argparse
import dataclasses
import hashlib
import json
import re
import sys
import time
from pathlib import Path

import labs
import verdicts as v
from labtable import LABS

sys.path.insert(0, str(labs.REPO / "tests" / "mutants"))
import mutants  # noqa: E402  the scratch copy, the model check and the symptoms
from presets import Presets  # noqa: E402

# The files of the scratch copy that a build, a test or a model reads: the key of every kept
# result hashes them all (the lab's own file aside: its text is part of the key).
TREE = ("src", "tests", "apps", "cmake", "CMakeLists.txt", "CMakePresets.json")


def tree_hash(root, leave_out):
    h = hashlib.sha256()
    for top in TREE:
        paths = [root / top] if (root / top).is_file() else sorted((root / top).rglob("*"))
        for path in paths:
            rel = path.relative_to(root).as_posix()
            if path.is_file() and rel != leave_out and "__pycache__" not in rel:
                h.update(rel.encode() + b"\0" + path.read_bytes() + b"\0")
    return h.hexdigest()


class Results:
    """The checks' results, kept in a JSON file across gradings and runs of the proof (None: in
    memory only). A key is the hash of everything the result depends on; a result is JSON (None
    for a check that passed)."""
    LIMIT = 4000  # entries kept, the newest

    def __init__(self, path=None):
        self.path, self.kept = path, {}
        if path and path.is_file():
            try:
                self.kept = json.loads(path.read_text())
            except ValueError:
                self.kept = {}

    @staticmethod
    def key(*parts):
        return hashlib.sha256(json.dumps(parts).encode()).hexdigest()

    def get(self, key):
        """(True, result) if kept, else (False, None)."""
        return (True, self.kept[key]) if key in self.kept else (False, None)

    def put(self, key, result):
        self.kept.pop(key, None)
        self.kept[key] = result
        while len(self.kept) > self.LIMIT:
            self.kept.pop(next(iter(self.kept)))
        if self.path:
            tmp = self.path.with_suffix(".tmp")
            tmp.write_text(json.dumps(self.kept))
            tmp.replace(self.path)


class Grader:
    def __init__(self, lab, scratch, tsan=False, progress=True, fresh=False, eager=False):
        # eager: the test programs' build takes the stress driver along (a learner's grade: the
        # driver's one long file compiles on the core the tests leave idle, and most learners' files
        # reach the stress); the proof's rows, mostly killed by the tests, build it only for the
        # stress
        self.lab, self.scratch, self.progress, self.eager = lab, scratch, progress, eager
        self.bodies, self.status = {}, {}  # the graded file's steps (grade)
        scratch.mkdir(parents=True, exist_ok=True)
        mutants.sync_scratch(labs.REPO, scratch)
        for src, _ in labs.LABS.values():  # a previous grading's file, back to the source
            (scratch / src).write_text((labs.REPO / src).read_text())
        self.log = scratch / "labs.log"
        self.presets = Presets(scratch, self.log)
        self.models = mutants.Runner(scratch, [], self.log, False)
        self.source = labs.marked(lab.name)  # the source with its steps' markers
        self.others = []  # the file's rows outside the lab's regions (cross: pool.hpp's others)
        self.rows = v.rows(lab.source, self.source,
                           others=None if lab.whole_file else self.others)
        self.checks = [("compile", self.compile_check), ("unit", self.unit), ("forced", self.forced),
                       ("stress", self.stress)] + ([("tsan", self.tsan)] if tsan else [])
        self.tree = tree_hash(scratch, lab.source)
        if fresh:
            (scratch / "labs-results.json").unlink(missing_ok=True)
        self.results = Results(scratch / "labs-results.json")

    def say(self, msg):
        if self.progress:
            print(f"grade: {msg}", file=sys.stderr, flush=True)

    def put(self, text):
        path = self.scratch / self.lab.source
        if path.read_text() != text:
            path.write_text(text)

    def run(self, name, text, doing=None):
        """The check `name` on `text`: None (passed) or what failed, from the kept results when
        this tree and this text were checked before. `doing` is said when it runs."""
        lab = self.lab
        key = Results.key(self.tree, name, lab.name, list(lab.tests), list(lab.forced),
                          [list(a) for a in lab.stress], text)
        hit, result = self.results.get(key)
        if hit:
            return {(n or None): m for n, m in result} if name == "compile" and result else result
        if doing:
            self.say(doing)
        result = dict(self.checks)[name](text)
        self.results.put(key, [[n or "", m] for n, m in result.items()]
                         if name == "compile" and result else result)
        return result

    # --- the checks: each takes the text to build and returns None (passed) or what failed ---

    def compile(self, text, preset="release", drivers=False, targets=None):
        """The lab's test programs, or `targets` (and with `drivers`, its drivers too, which only
        the stress runs need: a row the tests kill never waits for them)."""
        self.put(text)
        rc, out = self.presets.try_build(preset, list(targets or self.lab.tests)
                                         + (self.drivers() if drivers else []))
        if rc == 0:
            return None
        errors = v.compile_errors(out, self.scratch / self.lab.source, text)
        first = re.search(r"error: ([^\n]*)", out)
        return errors or {None: first.group(1) if first else f"see {self.log}"}

    def compile_check(self, text):
        """The compile check: the smallest build that compiles every line of the lab's file (for
        sleep, the library; a step the model then judges never waits for the tests' build)."""
        return self.compile(text, targets=self.lab.compiles)

    def drivers(self):
        return sorted({argv[0] for argv in self.lab.stress})

    def ctest(self, text, names, exclude=(), preset="release", label="unit"):
        failed = self.compile(text, preset, drivers=self.eager and preset == "release")
        if failed:
            return "does not compile: " + next(iter(failed.values()))
        def full(ns):
            return [f"{t}.{n}" for t in self.lab.tests for n in ns]
        regex = "^(" + "|".join(self.lab.tests) + ")[.]" if names is None else v.ctest_regex(
            full(names))
        # two at a time: the lab's longest tests (a pool's every-job-once, a LockLatch's
        # lifetime) take most of a run one after the other
        args = ["-L", label, "-R", regex, "--stop-on-failure", "-j", "2"] + (
            ["-E", v.ctest_regex(full(exclude))] if exclude else [])
        rc, out = self.presets.ctest(preset, args)
        if rc != 0 and "No tests were found" not in out:
            return v.failure_detail(out)
        ran = re.search(r"tests passed, \d+ tests? failed out of (\d+)", out)
        if rc != 0 or not ran or (names is not None and int(ran.group(1)) != len(names)):
            # a test renamed or gone: a check that runs nothing must not pass anything
            raise RuntimeError(f"lab {self.lab.name}: ctest {' '.join(args)} did not run the "
                               f"tests it names (see {self.log})")
        return None

    def unit(self, text):
        return self.ctest(text, None, self.lab.forced)

    def forced(self, text):
        return self.ctest(text, self.lab.forced)

    def stress(self, text):
        failed = self.compile(text, drivers=True)
        if failed:
            return "does not compile: " + next(iter(failed.values()))
        for argv in self.lab.stress:
            rc, out = self.presets.driver("release", argv, timeout=120)
            if rc != 0:
                how = {3: "hung: the watchdog ended it (exit 3)", 1: "a wrong result (exit 1)",
                       None: "killed after 120 s"}.get(rc, f"exit {rc}")
                diag = v.DIAGNOSIS.search(out or "")
                return (f"`{' '.join(argv)}` {how}"
                        + (f", the watchdog's replay: {diag.group(1)}" if diag else ""))
        return None

    def tsan(self, text):
        return self.ctest(text, None, preset="tsan")

    def model(self, row, variant=None):
        """What the row's model variant (or `variant` of the same model) finds (None: nothing),
        kept like the checks' results."""
        mutant = row.mutant if variant is None else dataclasses.replace(
            row.mutant, model=dataclasses.replace(row.mutant.model, variant=variant))
        m = mutant.model
        key = Results.key(self.tree, "model", m.file, m.variant)
        hit, result = self.results.get(key)
        if hit:
            return tuple(result) if result else None
        result = self.models.failure(mutants.CHECKS[0], mutant)
        self.results.put(key, list(result) if result else None)
        return result

    # --- grading ---

    def baseline(self):
        """Every check on the source (kept, so run once per tree): the verdict of a step written
        as in the source. RuntimeError if the source fails a check."""
        for name, _ in self.checks:
            failed = self.run(name, self.source, f"baseline (the source): {name}")
            if failed:
                raise RuntimeError(f"the source itself fails the {name} check ({failed}); see "
                                   f"{self.log}")

    def grade(self, reader):
        """[Verdict] of each hole, in order. The reader's whole file is built and tested first,
        every step they wrote in it: a step is never judged in a build that holds the source's
        lines in place of another step of theirs (a name they share would break there)."""
        status = v.classify(reader, self.source)
        bodies = {n: b for n, _, b in labs.holes(reader)}
        out = {}
        # each step as the build has it (the source's where the reader's is missing or absent),
        # and which are the reader's: the worker's fence is judged with the reader's orders
        self.bodies = {**{n: b for n, _, b in labs.holes(self.source)},
                       **{n: b for n, b in bodies.items() if status[n] != "missing"}}
        self.status = status
        for n in status:
            if status[n] == "missing":
                out[n] = self.missing(n)
        building = [n for n in status if status[n] == "written"]  # the reader's steps in the build
        undecided = list(building)

        def text():
            return v.compose(reader, self.source, [n for n in status if n not in building
                                                   and status[n] != "same"])
        while building:  # the compile: until it passes, each error blames its step
            failed = self.run("compile", text(), f"compile: your file, steps {', '.join(building)}")
            if not failed:
                break
            for n, msg in self.blame_compile(failed, building, status).items():
                out[n] = v.Verdict(n, "", "wrong", "compile", f"does not compile: {msg}")
            building = [n for n in building if n not in out]
            undecided = [n for n in undecided if n not in out]
        for n in list(undecided):  # the model, for the lines no run here can show
            verdict = self.judge_model(n, bodies[n])
            if not verdict and n in self.lab.effects and v.lacks_effect(bodies[n],
                                                                         self.lab.effects[n]):
                verdict = v.Verdict(n, "", "wrong", "effect", self.lab.effects[n][1])
            if verdict:
                out[n] = verdict
                undecided.remove(n)
        for name, _ in self.checks[1:]:  # the runs, on the whole file
            if not undecided:
                break
            failed = self.run(name, text(), f"{name}: your file, steps {', '.join(building)}")
            if not failed:
                continue
            alone = {building[0]: failed} if len(building) == 1 else {}
            for n in (building if len(building) > 1 else []):
                alone_text = labs.fill(self.source, {n: bodies[n]})
                if self.run("compile", alone_text):
                    continue  # it needs another of the reader's steps to compile: not alone
                f = self.run(name, alone_text, f"{name}: step {n} alone, the others from the source")
                if f:
                    alone[n] = f
            if not alone:
                alone = self.together(name, reader, building, status, failed)
            for n, detail in alone.items():
                if n in undecided:
                    out[n] = v.Verdict(n, "", "wrong", name,
                                       v.for_step(n, detail, self.lab.name))
            building = [n for n in building if n not in alone]
            undecided = [n for n in undecided if n not in out]
        if any(s in ("same", "absent") for s in status.values()):
            self.baseline()
        ok = {"written": "", "same": "as in the source",
              "absent": "not in your copy (an older skeleton): the source's lines"}
        for n in status:
            if n not in out:
                out[n] = v.Verdict(n, "", "ok", detail=ok[status[n]])
        result = []
        for n in status:
            title, section = self.lab.titles.get(n, (n, ""))
            out[n].title, out[n].section = title, section
            result.append(out[n])
        return result

    def together(self, name, reader, building, status, failed):
        """{step: detail} when the check `name` fails on the reader's whole file and on none of
        its steps alone: the steps without which it passes (the file with that one step from
        the source), each named with the others; a step the failure does not need (a correct
        step in a wrong file) is not blamed. If every such file still fails, no single step can
        be left out, and every step is blamed together."""
        needed = []
        for n in building:
            keep = [m for m in status if m not in building and status[m] != "same"] + [n]
            without = v.compose(reader, self.source, keep)
            if self.run("compile", without):
                continue  # another step needs its name: it cannot be left out
            if not self.run(name, without, f"{name}: your file without step {n} (the source's)"):
                needed.append(n)
        if not needed:
            return {n: f"{failed} (only together: each alone passes)" for n in building}
        def others(n):
            rest = [m for m in needed if m != n]
            return "step " + ", ".join(rest) if rest else "the rest of your file"
        return {n: f"{failed} (only together with {others(n)}: each step alone passes, and "
                   "your file with this step as in the source passes)" for n in needed}

    def worker_model(self, row, n):
        """For the row of the worker's fence: (the WORKER: variant of the steps register and
        fence as the reader wrote them, what the model finds with it), or None when the row is another, the steps
        are the source's (orders and all), or they cannot be mapped to the model."""
        m = row.mutant.model
        if (m.file, m.variant) not in v.WORKER_MODELS or n not in v.WORKER_STEPS:
            return None
        step = {s: [] if self.status.get(s) == "missing" else self.bodies.get(s, [])
                for s in v.WORKER_STEPS}
        variant = v.worker_variant(step["register"], step["fence"])
        source = {s: b for s, _, b in labs.holes(self.source)}
        if variant is None or variant == v.worker_variant(source["register"], source["fence"]):
            return None
        self.say(f"model check of {n}: {m.file} {variant} (your orders)")
        return variant, self.model(row, variant)

    def missing(self, n):
        """The verdict of a step left empty: what the model finds without it, if a row of the
        catalogue has a model there (for the worker's fence, with the reader's registration)."""
        source = {s: b for s, _, b in labs.holes(self.source)}
        own_register = v.tokens(self.bodies.get("register", [])) != v.tokens(
            source.get("register", []))
        for row in self.rows:
            judged = (self.worker_model(row, n) if row.step == n and own_register
                      and row.mutant.expect == "model" else None)
            if judged and judged[1]:  # no fence after the reader's own registration
                variant, found = judged
                return v.Verdict(n, "", "missing", "model", v.worker_detail(row, variant, found[0]),
                                 trace=v.trace_text(found[1]))
            if row.step == n and row.mutant.expect == "model":
                self.say(f"model check of {n}: {row.mutant.model.file} {row.mutant.model.variant}")
                found = self.model(row)
                if found:
                    return v.Verdict(n, "", "missing", "model", v.model_detail(row, found[0], True),
                                     trace=v.trace_text(found[1]))
        return v.Verdict(n, "", "missing", detail="write it between its two markers")

    def judge_model(self, n, body):
        """The model's verdict of a written step: None when each of its model rows finds the
        line's effect in the step."""
        for row in self.rows:
            if row.step == n and row.mutant.expect == "model" and v.never_waits(body, row):
                return v.Verdict(n, "", "wrong", "model", v.NO_WAIT)
        for row in self.rows:
            if row.step != n or row.mutant.expect != "model":
                continue
            judged = self.worker_model(row, n)
            if judged:  # the worker's fence: the model with the reader's own orders
                variant, found = judged
                if found:
                    return v.Verdict(n, "", "wrong", "model",
                                     v.worker_detail(row, variant, found[0]),
                                     trace=v.trace_text(found[1]))
                continue
            if v.has_effect(body, row.statement):
                continue
            self.say(f"model check of {n}: {row.mutant.model.file} {row.mutant.model.variant}")
            found = self.model(row)
            if found:
                return v.Verdict(n, "", "wrong", "model", v.model_detail(row, found[0]),
                                 trace=v.trace_text(found[1]))
        return None

    @staticmethod
    def blame_compile(failed, building, status):
        """{step: message} of a failed compile: an error in a step of the reader's blames that
        step; one elsewhere (a step as in the source, or outside the steps: a name one of the
        reader's steps changed or left out) blames every step of theirs in the build, saying
        where it is."""
        blamed = {n: msg for n, msg in failed.items() if n in building}
        if blamed:
            return blamed
        where, msg = next(iter(failed.items()))
        at = (f" (in step {where}, which is as in the source: a name that one of your steps "
              "changes?)" if where in status else "")
        return {n: msg + at for n in building}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("lab", choices=sorted(LABS))
    ap.add_argument("file", nargs="?", type=Path, help="your copy of the skeleton (default: "
                    "the skeleton itself, chapters/labs/LAB.hpp, which grades every step missing: "
                    "it is generated, never edited; copy it and edit the copy)")
    ap.add_argument("--tsan", action="store_true", help="ThreadSanitizer last (one more build)")
    ap.add_argument("--quiet", action="store_true", help="no progress on stderr")
    ap.add_argument("--fresh", action="store_true", help="forget the results kept from earlier "
                    "gradings (build/labs-scratch/labs-results.json) and check everything again")
    ap.add_argument("--scratch", type=Path, default=labs.REPO / "build" / "labs-scratch",
                    help="scratch copy with its build trees (default: build/labs-scratch)")
    args = ap.parse_args(argv)
    lab = LABS[args.lab]
    path = args.file or labs.REPO / lab.skeleton
    start = time.monotonic()
    try:
        grader = Grader(lab, args.scratch.resolve(), args.tsan, not args.quiet, args.fresh,
                        eager=True)
        result = grader.grade(path.read_text())
    except (OSError, labs.LabError) as e:
        print(f"grade: {e}", file=sys.stderr)
        return 2
    except RuntimeError as e:
        print(f"grade: {e}", file=sys.stderr)
        return 2
    print(f"lab {lab.name}: {path} in place of {lab.source}")
    for verdict in result:
        print(verdict.text())
    ok = sum(r.status == "ok" for r in result)
    print(f"{ok} of {len(result)} steps ok ({time.monotonic() - start:.0f} s)")
    return 0 if ok == len(result) else 1


if __name__ == "__main__":
    sys.exit(main())
