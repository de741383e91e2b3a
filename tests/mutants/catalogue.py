"""The mutant catalogue (catalogue.ini): its rows, and how one row is applied to a source file.

Read by mutants.py, the runner; the format is described at the top of catalogue.ini.
"""
import configparser
from dataclasses import dataclass

FIELDS = {"file", "anchor", "replace", "breaks", "expect", "model", "why"}
# The checks a row may expect to kill it: mutants.py's checks, cheapest first.
CHECKS = ["model", "unit", "drivers", "tsan", "asan"]


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
    model: tuple = None  # (model file under tests/model, variant): SPIN's .pml or the .py explorer
    why: str = ""


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
        if expect not in CHECKS + ["survives"]:
            raise CatalogueError(f"catalogue: [{name}]: expect = {expect!r}, not one of "
                                 f"{', '.join(CHECKS)}, survives")
        if expect == "survives" and not s.get("why"):
            raise CatalogueError(f"catalogue: [{name}]: a survivor needs a 'why'")
        model = tuple(s["model"].split()) if s.get("model") else None
        if model is not None and len(model) != 2:
            raise CatalogueError(f"catalogue: [{name}]: model = 'file.pml VARIANT' or "
                                 f"'wmm/deque.py VARIANT'")
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
