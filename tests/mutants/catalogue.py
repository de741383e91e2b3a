"""The catalogue of broken variants (catalogue.ini): its rows, and how one row is applied to a file.

One table drives everything that breaks the workbook on purpose: the mutant runner (mutants.py)
applies the mutant rows, tests/model/CMakeLists.txt registers one ctest per model variant
(`python3 catalogue.py cmake-models FILE`, at configure time), the tour (tour.py) runs the
observations of the switch rows and of the tour.* rows, and the exercise runner (exercises.py)
checks the answers of the chapters' exercise.* rows. The format is described at the top of
catalogue.ini.
"""
import configparser
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

from errors import CatalogueError
from exercise_rows import EXERCISE_FIELDS, Exercise, parse_exercise  # noqa: F401

MUTANT_FIELDS = {"file", "anchor", "replace", "breaks", "expect"}
OPTIONAL_FIELDS = {"model", "trail", "why", "preset", "build", "tour", "symptom", "tests"}
# The checks a row may expect to kill it: mutants.py's checks, cheapest first.
CHECKS = ["model", "unit", "drivers", "tsan", "asan"]


@dataclass(frozen=True)
class Model:
    """A variant of a SPIN model and what pan must find: "ok" (no error) or "error"."""
    file: str
    variant: str  # a macro of the model, or "none" for the model as built
    result: str
    trail: str = ""  # with "error": text the replayed trail must contain (else: a deadlock)

    @property
    def test_name(self):
        return f"model.{Path(self.file).stem}.{self.variant.lower().replace('none', 'as_built')}"


@dataclass(frozen=True)
class Observation:
    """One line of a row's `tour`: run `command` in `preset`'s build, judge it by `judge`."""
    row: str
    preset: str
    command: tuple  # a driver and its arguments, or ("ctest", args...)
    judge: str
    args: tuple


@dataclass
class Mutant:
    name: str
    file: str
    anchor: list  # lines, stripped of indentation
    replace: list  # lines, indented like the anchor when applied
    breaks: str
    expect: str
    model: Model = None
    why: str = ""
    symptom: str = ""  # a regex the killing check's output must match ("": any kill will do)
    tests: tuple = ()  # the test programs its unit, tsan and asan checks run (): all of them


@dataclass
class Catalogue:
    mutants: list = field(default_factory=list)
    exercises: list = field(default_factory=list)
    models: list = field(default_factory=list)  # every variant once, SPIN's as-built ones first
    tour: list = field(default_factory=list)  # Observations, in catalogue order
    builds: dict = field(default_factory=dict)  # preset -> extra targets the tour builds


def _model(name, s):
    words = s["model"].split()
    if len(words) != 3 or words[2] not in ("ok", "error"):
        raise CatalogueError(f"catalogue: [{name}]: model = 'file.pml VARIANT ok|error'")
    if s.get("trail") and words[2] != "error":
        raise CatalogueError(f"catalogue: [{name}]: a trail needs 'error'")
    return Model(words[0], words[1], words[2], s.get("trail", ""))


def _observations(name, s):
    """The row's tour lines: `[PRESET:] COMMAND... -> JUDGE ARGS...`."""
    out = []
    for line in filter(None, (l.strip() for l in s["tour"].splitlines())):
        command, arrow, judgement = line.partition(" -> ")
        words, judge = command.split(), judgement.split()
        if not arrow or not words or not judge:
            raise CatalogueError(f"catalogue: [{name}]: tour line {line!r}: "
                                 "'[PRESET:] COMMAND... -> JUDGE ARGS...'")
        preset = s.get("preset")
        if words[0].endswith(":"):
            preset, words = words[0][:-1], words[1:]
        if not preset:
            raise CatalogueError(f"catalogue: [{name}]: a tour line needs a preset")
        out.append(Observation(name, preset, tuple(words), judge[0], tuple(judge[1:])))
    return out


def _mutant(name, s):
    missing = MUTANT_FIELDS - set(s)
    if missing:
        raise CatalogueError(f"catalogue: [{name}]: missing fields {sorted(missing)}")
    expect = s["expect"]
    if expect not in CHECKS + ["survives"]:
        raise CatalogueError(f"catalogue: [{name}]: expect = {expect!r}, not one of "
                             f"{', '.join(CHECKS)}, survives")
    if expect == "survives" and not s.get("why"):
        raise CatalogueError(f"catalogue: [{name}]: a survivor needs a 'why'")
    model = _model(name, s) if s.get("model") else None
    # The model check runs first, so a variant that fails kills the mutant there.
    if (expect == "model") != (model is not None and model.result == "error"):
        raise CatalogueError(f"catalogue: [{name}]: expect = model if and only if its model "
                             "variant is 'error'")
    anchor = [line.strip() for line in s["anchor"].splitlines()]
    if not anchor or not anchor[0]:
        raise CatalogueError(f"catalogue: [{name}]: empty anchor")
    replace = [line.strip() for line in s["replace"].splitlines()]
    symptom = s.get("symptom", "").strip()
    if symptom:
        if expect == "survives":
            raise CatalogueError(f"catalogue: [{name}]: a survivor has no symptom")
        try:
            re.compile(symptom)
        except re.error as e:
            raise CatalogueError(f"catalogue: [{name}]: symptom is not a regex: {e}") from e
    return Mutant(name, s["file"], anchor, replace, s["breaks"], expect, model, s.get("why", ""),
                  symptom, tuple(s.get("tests", "").split()))


def parse(text):
    """The whole catalogue of an INI text. Raises CatalogueError on a malformed entry.

    Four kinds of row: a mutant (a line of src/ and what kills it, maybe a model variant and
    tour lines); `model.*`, a model variant that stands for more than one line; `tour.*`, tour
    lines of a build that breaks nothing (release); `exercise.*`, a chapter's exercise that
    edits a line, with the outcome its answer predicts."""
    parser = configparser.ConfigParser(interpolation=None, comment_prefixes=("#",),
                                       empty_lines_in_values=False)
    parser.optionxform = str
    try:
        parser.read_string(text)
    except configparser.Error as e:
        raise CatalogueError(f"catalogue: {e}") from e
    cat, variants = Catalogue(), {}
    for name in parser.sections():
        s = parser[name]
        kind = name.split(".")[0]
        allowed = {"model": {"model", "trail", "breaks"}, "tour": {"preset", "build", "tour"},
                   "exercise": EXERCISE_FIELDS}.get(kind, MUTANT_FIELDS | OPTIONAL_FIELDS)
        if set(s) - allowed:
            raise CatalogueError(f"catalogue: [{name}]: unknown fields {sorted(set(s) - allowed)}")
        if kind == "exercise":
            cat.exercises.append(parse_exercise(name, s))
            continue
        if kind == "model":
            if not s.get("model") or not s.get("breaks"):
                raise CatalogueError(f"catalogue: [{name}]: needs 'model' and 'breaks'")
            model = _model(name, s)
        elif kind == "tour":
            if not s.get("tour"):
                raise CatalogueError(f"catalogue: [{name}]: needs 'tour'")
            model = None
        else:
            m = _mutant(name, s)
            cat.mutants.append(m)
            model = m.model
        if model:
            old = variants.setdefault((model.file, model.variant), model)
            if old != model:
                raise CatalogueError(f"catalogue: [{name}]: {model.file} {model.variant} is "
                                     "expected differently by another row")
        if s.get("tour"):
            cat.tour += _observations(name, s)
        if s.get("build"):
            if not s.get("preset"):
                raise CatalogueError(f"catalogue: [{name}]: 'build' needs a 'preset'")
            cat.builds.setdefault(s["preset"], []).extend(s["build"].split())
    # Every SPIN model a row names is also checked as built. (A .py model is the weak-memory
    # explorer, tests/model/wmm, whose ctests check its as-built models themselves.)
    spin = sorted({f for f, _ in variants if f.endswith(".pml")})
    cat.models = [Model(f, "none", "ok") for f in spin] + list(variants.values())
    return cat


def parse_catalogue(text):
    """The mutant rows of an INI text, in order."""
    return parse(text).mutants


# A lab's hole marker (`// LAB: name ...`, `// LAB_END: name`), which tests/labs/labs.py puts
# around a step's lines in the grader's copy of the source and in a skeleton. Anchors never name
# one: matching skips them, so a two-line anchor still matches when a hole starts or ends between
# its lines, and the markers stay where they were.
LAB_MARKER = re.compile(r"\bLAB(_END)?:[ \t]*[A-Za-z0-9_-]+")


def apply(text, mutant):
    """`text` with the mutant's anchor lines replaced. The anchor must match exactly once, LAB
    marker lines aside. Leading and trailing lines that the replacement keeps stay in place; the
    changed lines go where the first changed anchor line was, indented like it (or like the
    anchor's first line, for a pure insertion)."""
    lines = text.splitlines(keepends=True)
    code = [i for i, l in enumerate(lines) if not LAB_MARKER.search(l)]  # indices of non-markers
    n = len(mutant.anchor)
    hits = [k for k in range(len(code) - n + 1)
            if [lines[i].strip() for i in code[k:k + n]] == mutant.anchor]
    if len(hits) != 1:
        where = "not found" if not hits else f"found {len(hits)} times"
        raise CatalogueError(f"mutant {mutant.name}: anchor {mutant.anchor[0]!r} {where} in "
                             f"{mutant.file}: update tests/mutants/catalogue.ini")
    matched = code[hits[0]:hits[0] + n]  # the anchor's lines, in `lines`
    old, new = mutant.anchor, mutant.replace
    keep = 0  # leading lines the replacement keeps
    while keep < min(len(old), len(new)) and old[keep] == new[keep]:
        keep += 1
    tail = 0  # trailing ones
    while tail < min(len(old), len(new)) - keep and old[-1 - tail] == new[-1 - tail]:
        tail += 1
    changed = matched[keep:n - tail]
    at = changed[0] if changed else matched[max(keep - 1, 0)] + 1
    ref = lines[changed[0] if changed else matched[0]]
    indent = ref[:len(ref) - len(ref.lstrip())]
    inserted = [indent + line + "\n" for line in new[keep:len(new) - tail]]
    out = []
    for i, line in enumerate(lines):
        if i == at:
            out += inserted
        if i not in changed:
            out.append(line)
    if at == len(lines):
        out += inserted
    return "".join(out)


def select(rows, names, kind="mutant"):
    """The named rows (mutants, or exercises), in catalogue order; all of them if no names.
    Unknown names: error."""
    known = {r.name for r in rows}
    unknown = [n for n in names if n not in known]
    if unknown:
        raise CatalogueError(f"unknown {kind}(s): {', '.join(unknown)} (see --list)")
    return [r for r in rows if not names or r.name in names]


def cmake_models(models):
    """The SPIN model ctests as CMake calls of _mini_model (tests/model/CMakeLists.txt)."""
    def quote(s):
        return '"' + re.sub(r'([\\"$;])', r"\\\1", s) + '"'
    lines = []
    for m in (m for m in models if m.file.endswith(".pml")):
        trail = f" {quote('-DEXPECT_TRAIL=' + m.trail)}" if m.trail else ""
        lines.append(f"_mini_model({m.file} {m.test_name[len('model.'):]} {m.variant} "
                     f"{m.result}{trail})")
    return "\n".join(lines) + "\n"


def main(argv):
    if len(argv) != 3 or argv[1] != "cmake-models":
        print("usage: catalogue.py cmake-models OUT.cmake", file=sys.stderr)
        return 2
    try:
        text = cmake_models(parse(Path(__file__).with_name("catalogue.ini").read_text()).models)
    except CatalogueError as e:
        print(e, file=sys.stderr)
        return 1
    out = Path(argv[2])
    if not out.is_file() or out.read_text() != text:  # unchanged: no re-run of what depends on it
        out.write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
