"""The labs' skeletons: a mechanism file with the lines its chapter teaches cut out.

The source carries no lab markers. The table tests/labs/steps.ini names each step's lines by
their ANCHOR region and their content; `mark` puts a step's two marker lines around them, in any
comment style, like an mdBook anchor:

    // LAB: recheck step 4: re-check for work; if there is some, unregister and return false
    ...the lines the reader writes...
    // LAB_END: recheck

The skeleton (chapters/labs/<file>) is the marked source with every hole's lines replaced by one
hole statement, `#error "lab: ..."`, between its two marker lines: the reader sees where each
step goes and what it is, and a skeleton compiled as it is fails at the first step left empty
(the grader, tests/labs/grade.py, reports such a hole as `missing` without compiling it). It is
generated, never edited: `python3 tests/docs/chapters.py check` reports a stale one, `update`
rewrites it. The round trips (the holes filled with the source's lines give the marked source;
the marked source without its markers is the source) are tested in test_labs.py.
"""
import configparser
import re
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
STEPS = Path(__file__).resolve().parent / "steps.ini"
# The labs: lab -> (source file, skeleton), both relative to the repository root. Each lab is
# cut from a variation of its chapter's mechanism that no chapter prints: `sleep` from
# quiet_latch (chapter 2's sleep protocol with a latch as its consumer), `join` from join3
# (chapter 3's join with three closures: two jobs taken back newest first), `splitter` from
# bridge_2d (chapter 4's thief-splitting over a rectangle, a cut halving its longer side), `unwind`
# from join_fused (chapter 7's run_a, with an exception that cancels a B nobody started), `scope`
# from scope_fused (chapter 8's scope, with a fuse: the first exception skips the jobs not yet
# started), `cross` from join_across (chapter 9's cross call, with A run on the caller's pool
# meanwhile); `scope_fifo` has no listing in chapter 8.
LABS = {"sleep": ("src/mini/quiet_latch.hpp", "chapters/labs/sleep.hpp"),
        "join": ("src/mini/join3.hpp", "chapters/labs/join.hpp"),
        "splitter": ("src/mini/bridge_2d.hpp", "chapters/labs/splitter.hpp"),
        "unwind": ("src/mini/join_fused.hpp", "chapters/labs/unwind.hpp"),
        "scope": ("src/mini/scope_fused.hpp", "chapters/labs/scope.hpp"),
        "cross": ("src/mini/join_across.hpp", "chapters/labs/cross.hpp"),
        "scope_fifo": ("src/mini/scope_fifo.hpp", "chapters/labs/scope_fifo.hpp")}
START = re.compile(r"\bLAB:[ \t]*([A-Za-z0-9_-]+)")
END = re.compile(r"\bLAB_END:[ \t]*([A-Za-z0-9_-]+)")
ANCHOR = re.compile(r"\bANCHOR:[ \t]*([A-Za-z0-9_-]+)")
ANCHOR_END = re.compile(r"\bANCHOR_END:[ \t]*([A-Za-z0-9_-]+)")


class LabError(Exception):
    """Markers that do not pair up, or a step whose lines are not in its region."""


@dataclass
class Step:
    name: str
    region: str  # the ANCHOR region that holds it
    hint: str
    lines: list  # its lines, stripped


def steps(lab, table=None):
    """[Step] of `lab`, in the table's order (steps.ini, or the text `table`)."""
    cp = configparser.ConfigParser(interpolation=None, comment_prefixes=("#",),
                                   inline_comment_prefixes=None, empty_lines_in_values=False)
    cp.optionxform = str
    cp.read_string(table if table is not None else STEPS.read_text(encoding="utf-8"))
    out = []
    for section in cp.sections():
        name_lab, _, name = section.partition(".")
        if name_lab != lab:
            continue
        row = cp[section]
        missing = [k for k in ("region", "hint", "lines") if not row.get(k, "").strip()]
        if missing:
            raise LabError(f"steps.ini [{section}]: no {', '.join(missing)}")
        out.append(Step(name, row["region"].strip(), row["hint"].strip(),
                        [l.strip() for l in row["lines"].strip().split("\n")]))
    return out


def region_span(lines, region):
    """(first, last) line indices inside the ANCHOR region `region` of `lines`."""
    starts = [i for i, l in enumerate(lines) if (m := ANCHOR.search(l)) and m.group(1) == region]
    ends = [i for i, l in enumerate(lines)
            if (m := ANCHOR_END.search(l)) and m.group(1) == region]
    if len(starts) != 1 or len(ends) != 1 or ends[0] < starts[0]:
        raise LabError(f"ANCHOR region {region} is not marked once")
    return starts[0] + 1, ends[0]


def locate(lines, step, path="the source"):
    """The index of the first of the step's lines in `lines` (they follow one another, exactly
    once in its region). LabError naming the step otherwise."""
    first, last = region_span(lines, step.region)
    n = len(step.lines)
    hits = [i for i in range(first, last - n + 1)
            if [l.strip() for l in lines[i:i + n]] == step.lines]
    if len(hits) != 1:
        where = "not found" if not hits else f"found {len(hits)} times"
        raise LabError(f"step {step.name}: its lines ({step.lines[0]!r} ...) {where} in region "
                       f"{step.region} of {path}: update tests/labs/steps.ini")
    return hits[0]


def mark(source, step_list, path="the source"):
    """`source` with each step's lines between its two marker lines, indented like its first
    line."""
    lines = source.split("\n")
    at = sorted((locate(lines, s, path), s) for s in step_list)
    for (i, s), (j, t) in zip(at, at[1:]):
        if i + len(s.lines) > j:
            raise LabError(f"steps {s.name} and {t.name} share lines in {path}")
    for i, s in reversed(at):
        indent = lines[i][:len(lines[i]) - len(lines[i].lstrip())]
        lines[i + len(s.lines):i + len(s.lines)] = [f"{indent}// LAB_END: {s.name}"]
        lines[i:i] = [f"{indent}// LAB: {s.name} {s.hint}"]
    return "\n".join(lines)


def unmark(text):
    """A marked text without its marker lines."""
    return "\n".join(l for l in text.split("\n") if not is_marker(l))


def marked(lab, root=REPO):
    """The lab's source file, marked."""
    src = LABS[lab][0]
    return mark((root / src).read_text(encoding="utf-8"), steps(lab), src)


def is_marker(line):
    return bool(START.search(line) or END.search(line))


def holes(text):
    """[(name, hint, body lines)] of a marked text, in order. Raises LabError on bad markers."""
    out, current = [], None
    for n, line in enumerate(text.split("\n"), 1):
        s, e = START.search(line), END.search(line)
        if s:
            if current:
                raise LabError(f"line {n}: LAB: {s.group(1)} inside hole {current[0]}")
            hint = line[s.end():].strip()
            current = (s.group(1), hint, [])
            if s.group(1) in [h[0] for h in out]:
                raise LabError(f"line {n}: hole {s.group(1)} marked twice")
        elif e:
            if not current or e.group(1) != current[0]:
                raise LabError(f"line {n}: LAB_END: {e.group(1)} without its LAB:")
            out.append(current)
            current = None
        elif current:
            current[2].append(line)
    if current:
        raise LabError(f"hole {current[0]} is never ended (no 'LAB_END: {current[0]}')")
    return out


def fill(text, bodies):
    """`text` with each hole's lines replaced by bodies[name] (a list of lines); holes not named
    keep their lines. skeleton(source) filled with holes(source) gives the source."""
    out, current = [], None
    for line in text.split("\n"):
        s, e = START.search(line), END.search(line)
        if s:
            current = s.group(1)
            out.append(line)
            out += bodies.get(current, [])
        elif e:
            current = None
            out.append(line)
        elif current is None or current not in bodies:
            out.append(line)
    return "\n".join(out)


def hole_statement(name, indent):
    """The line an unwritten hole holds: it fails to compile, naming the hole."""
    return f'{indent}#error "lab: step {name} is not written yet (write it, then delete this line)"'


HOLE_STATEMENT = re.compile(r'^\s*#error "lab: step ')


def skeleton(text):
    """A marked text with every hole's lines replaced by its hole statement, indented like the
    hole's first marker."""
    lines, bodies = text.split("\n"), {}
    for line in lines:
        s = START.search(line)
        if s:
            bodies[s.group(1)] = [hole_statement(s.group(1), line[:len(line) - len(line.lstrip())])]
    holes(text)  # raises on bad markers
    return fill(text, bodies)


def is_empty(body):
    """A hole the reader has not written: nothing but blank lines, // comments and the hole
    statement."""
    return all(not l.strip() or l.strip().startswith("//") or HOLE_STATEMENT.match(l)
               for l in body)


def stale(root=REPO, update=False):
    """[(skeleton path, problem)] for skeletons that differ from their source; with update,
    rewrites them instead (and reports nothing for those)."""
    problems = []
    for lab, (src, dst) in LABS.items():
        if not (root / src).is_file():  # a tree without this mechanism (the tool's fixtures)
            continue
        try:
            want = skeleton(marked(lab, root))
        except (OSError, LabError) as e:
            problems.append((dst, f"lab {lab}: {src}: {e}"))
            continue
        path = root / dst
        have = path.read_text(encoding="utf-8") if path.is_file() else None
        if have == want:
            continue
        if update:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(want, encoding="utf-8")
            print(f"labs: wrote {dst} from {src}")
        else:
            problems.append((dst, f"lab {lab}: {dst} is not the skeleton of {src} "
                             "(fix: python3 tests/docs/chapters.py update --snippets)"))
    return problems


# --- No chapter prints a lab's answer (issue 51) ---

# The labs whose steps a chapter still prints, each a known exception to the rule below (their
# chapters' listings came first; each is to get a variation its chapter does not show). The check
# holds the list to the truth both ways: a lab listed here whose steps no chapter prints any more
# must leave the list.
PRINTED = {}


def _code_text(text):
    """`text` with each line's // comment cut and every run of blanks one space."""
    lines = [re.sub(r"//.*", "", line) for line in text.split("\n")]
    return " " + re.sub(r"\s+", " ", " ".join(lines)).strip() + " "


def chapter_files(root=REPO):
    return (sorted((root / "chapters").glob("*.md")) + sorted((root / "chapters").glob("part*/*.md"))
            + [root / "chapters" / "labs" / "README.md", root / "README.md"])


def printed(root=REPO, table=None):
    """{lab: [(step, chapter)]}: the steps whose lines, comments and blanks aside, occur one
    after the other anywhere in a chapter (a listing, or code in the prose)."""
    texts = {p.relative_to(root).as_posix(): _code_text(p.read_text(encoding="utf-8"))
             for p in chapter_files(root) if p.is_file()}
    out = {}
    for lab in LABS:
        for step in steps(lab, table):
            code = _code_text("\n".join(step.lines)).strip()
            for chapter, text in texts.items():
                if code and code in text:
                    out.setdefault(lab, []).append((step.name, chapter))
                    break
    return out


def printed_problems(root=REPO, table=None):
    """What breaks the rule: a lab not in PRINTED whose step a chapter prints, a lab in PRINTED
    that no chapter prints any more (it must leave the list)."""
    found, problems = printed(root, table), []
    for lab in LABS:
        if lab not in PRINTED and lab in found:
            problems += [f"lab {lab}: step {step}'s lines are printed in {chapter}: a lab's answer "
                         "must not be on the page" for step, chapter in found[lab]]
        if lab in PRINTED and lab not in found:
            problems.append(f"lab {lab}: listed in labs.PRINTED, but no chapter prints any of its "
                            "steps: take it off the list")
    return problems
