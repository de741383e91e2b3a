"""The exercise.* rows of the catalogue (catalogue.ini): a chapter's exercise that edits a line,
and the outcome its answer predicts. catalogue.parse reads them; exercises.py runs and judges them.
"""
import re
import shlex
from dataclasses import dataclass

from errors import CatalogueError


@dataclass
class Exercise:
    """A chapter's exercise that edits a line, and the outcome its answer predicts."""
    name: str
    title: str  # the exercise's title in its chapter
    file: str
    anchor: list
    replace: list
    preset: str = "release"
    build: tuple = ()  # targets to build before the run; () builds everything
    tests: tuple = ()  # ctest arguments that select the tests the answer runs
    command: str = ""  # or a bash command run from the root instead of ctest
    exit: int = 0  # with command: its exit code
    fails: tuple = ()  # ctest names that fail in every run
    passes: tuple = ()  # ctest names that pass in every run (so do all others not listed)
    sometimes: tuple = ()  # ctest names that fail in some runs: `frequency` of `repeat`
    count: int = None  # how many tests the selection runs
    output: str = ""  # a regex the output of every run with a failure contains
    repeat: int = 1
    frequency: tuple = None  # (lo, hi): each `sometimes` test fails in lo..hi of the runs


EXERCISE_FIELDS = {"title", "file", "anchor", "replace", "preset", "build", "tests", "command",
                   "exit", "fails", "passes", "sometimes", "count", "output", "repeat",
                   "frequency"}


def parse_exercise(name, s):
    """The Exercise of the INI section `s`, named `name`."""
    def fail(what):
        raise CatalogueError(f"catalogue: [{name}]: {what}")
    missing = {"title", "file", "anchor", "replace"} - set(s)
    if missing:
        fail(f"missing fields {sorted(missing)}")
    lines = lambda key: tuple(filter(None, (l.strip() for l in s.get(key, "").splitlines())))
    ints = {}
    for key in ("exit", "count", "repeat"):
        if key in s:
            if not re.fullmatch(r"-?\d+", s[key].strip()):
                fail(f"{key} = {s[key]!r} is not a number")
            ints[key] = int(s[key])
    anchor = [line.strip() for line in s["anchor"].splitlines()]
    if not anchor or not anchor[0]:
        fail("empty anchor")
    e = Exercise(name, s["title"].strip(), s["file"].strip(), anchor,
                 [line.strip() for line in s["replace"].splitlines()],
                 s.get("preset", "release").strip(), tuple(s.get("build", "").split()),
                 tuple(shlex.split(s.get("tests", ""))), s.get("command", "").strip(),
                 ints.get("exit", 0), lines("fails"), lines("passes"), lines("sometimes"),
                 ints.get("count"), s.get("output", "").strip(), ints.get("repeat", 1))
    if e.command and (e.tests or e.fails or e.passes or e.sometimes or e.count is not None):
        fail("a command row judges exit and output only (no tests, fails, passes, sometimes, "
             "count)")
    if not e.command and "exit" in s:
        fail("exit goes with command")
    if not e.command and not (e.fails or e.sometimes):
        fail("predicts no failure: name the tests that fail (fails or sometimes)")
    overlap = set(e.fails) & set(e.passes) | set(e.sometimes) & set(e.fails + e.passes)
    if overlap:
        fail(f"{sorted(overlap)} listed twice")
    if e.repeat < 1:
        fail("repeat must be at least 1")
    if bool(e.sometimes) != ("frequency" in s):
        fail("sometimes and frequency go together")
    if e.sometimes:
        m = re.fullmatch(r"(\d+)-(\d+)", s["frequency"].strip())
        if not m or not int(m.group(1)) <= int(m.group(2)) <= e.repeat or e.repeat < 2:
            fail(f"frequency = LO-HI of repeat ({e.repeat}) runs, LO <= HI <= repeat >= 2")
        e.frequency = (int(m.group(1)), int(m.group(2)))
    if e.output:
        try:
            re.compile(e.output)
        except re.error as err:
            fail(f"output: {err}")
    return e
