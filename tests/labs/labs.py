"""The labs' skeletons: a mechanism file with the bodies the chapter teaches cut out.

A hole is marked in the source, in any comment style, like an mdBook anchor:

    // LAB: recheck step 4: re-check for work; if there is some, unregister and return false
    ...the lines the reader writes...
    // LAB_END: recheck

The skeleton (chapters/labs/<file>) is the source with every hole's lines replaced by one hole
statement, `#error "lab: ..."`, between its two marker lines: the reader sees where each step
goes and what it is, and a skeleton compiled as it is fails at the first step left empty (the
grader, tests/labs/grade.py, reports such a hole as `missing` without compiling it). It is
generated, never edited: `python3 tests/docs/chapters.py check` reports a stale one, `update`
rewrites it. The round trip (the holes filled with the source's lines give the source) is tested
in test_labs.py.
Marker lines never show in the chapters' snippets (chapters.py leaves them out of regions).
"""
import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
# The labs: source file -> skeleton, both relative to the repository root.
LABS = {"sleep": ("src/mini/sleep.hpp", "chapters/labs/sleep.hpp"),
        "join": ("src/mini/join.hpp", "chapters/labs/join.hpp"),
        "splitter": ("src/mini/splitter.hpp", "chapters/labs/splitter.hpp")}
START = re.compile(r"\bLAB:[ \t]*([A-Za-z0-9_-]+)")
END = re.compile(r"\bLAB_END:[ \t]*([A-Za-z0-9_-]+)")


class LabError(Exception):
    """Markers that do not pair up."""


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


def skeleton(source):
    """The source with every hole's lines replaced by its hole statement, indented like the
    hole's first marker."""
    lines, bodies = source.split("\n"), {}
    for line in lines:
        s = START.search(line)
        if s:
            bodies[s.group(1)] = [hole_statement(s.group(1), line[:len(line) - len(line.lstrip())])]
    holes(source)  # raises on bad markers
    return fill(source, bodies)


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
            want = skeleton((root / src).read_text(encoding="utf-8"))
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
