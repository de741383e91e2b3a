#!/usr/bin/env python3
"""claims.py -- the prose's claims checked against the tree: names in backticks, measured sentences.

    python3 tests/docs/claims.py [--root ROOT] [FILE.md ...]

Reads the prose (outside fenced blocks) of chapters/*.md, chapters/part*/*.md,
chapters/labs/README.md and README.md. Two rules, each problem reported as file:line, exit 1:

Names. A span in backticks that looks like code must exist in the source tree: src/, apps/,
tests/, cmake/, CMakeLists.txt, CMakePresets.json, .ci/ (their identifiers, comments included).
A span looks like code when, with no blank in it, it is
  - a qualified name, `Probe::idle`, `SpinLatch::set`, `~ThreadPool`, `Sleep::sleep()`: every
    identifier in it must be one of the tree's;
  - a call, `wait_until(latch)`, `pool.install()`, `self->sleep_`: the identifiers before the
    argument list must be the tree's;
  - a snake_case or UPPER_SNAKE identifier, or a member ending in `_`: `join_context`, `len_`,
    `NO_RECHECK`;
  - a CamelCase compound, `SpinLatch`, `StackJob`;
  - a path whose first part is one of the repository's own top-level entries (`src/mini/pool.hpp`,
    `tests/test_*.cpp`): it must exist (a `*` globs).
Not checked: a span that is the text of a link to another site (`[`src/registry.rs`](https://...)`)
names that site's file; a `std::` name is the standard library's; a name listed in
tests/docs/outside-names.txt is rayon's, oneTBB's, OpenMP's, the kernel's (each line names its
source). So a name the tree lost (renamed, never written) fails by the line that names it.

Measured sentences. A paragraph (or list item) with the word `Measured` in it (a claim, so
capitalised: "how the figures were measured" is not one) must carry its command: a span in
backticks that runs something (it starts with `build/`, `python3 `, `ctest`, `cmake ` or a
driver's name) or a console block right after it. A heading `... Measured ...` needs a console
block in its section.
"""
import argparse
import re
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
TREE = ["src", "apps", "tests", "cmake", ".ci", "CMakeLists.txt", "CMakePresets.json"]
SKIP_DIRS = {"node_modules", "build", "__pycache__", ".git"}
OUTSIDE = "tests/docs/outside-names.txt"

SPAN = re.compile(r"(?<!`)`([^`\n]+)`(?!`)")
LINK = re.compile(r"\[((?:[^\[\]]|\[[^\]]*\])*)\]\((https?://[^)\s]*)\)")  # [text](http...)
IDENT = re.compile(r"~?[A-Za-z_][A-Za-z0-9_]*")
QUALIFIED = re.compile(r"^~?[A-Za-z_]\w*(?:<[^<>]*>)?(?:::~?[A-Za-z_]\w*)+(?:\(.*\))?$")
CALL = re.compile(r"^[A-Za-z_]\w*(?:(?:\.|->)[A-Za-z_]\w*)*\(.*\)$")
MEMBER = re.compile(r"^[A-Za-z_]\w*(?:->[A-Za-z_]\w*|\.[A-Za-z_]\w*(?<=_))+$|^[A-Za-z_]\w*_\.\w+$")
SNAKE = re.compile(r"^(?:[a-z][a-z0-9]*(?:_[a-z0-9]+)+_?|[a-z][a-z0-9]*_|[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)$")
CAMEL = re.compile(r"^[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]*)+$")
PATH = re.compile(r"^[A-Za-z0-9_.*-]+(?:/[A-Za-z0-9_.*-]*)+$")
FENCE = re.compile(r"^\s*(```+|~~~+)")
COMMAND = re.compile(r"^(build/|python3 |ctest|cmake |(compare|fib|splits|lost_wakeup|steal_wait|"
                     r"litmus)\b)")


def tree_words(root):
    """Every identifier in the source tree's text files."""
    words = set()
    for top in TREE:
        p = root / top
        files = [p] if p.is_file() else [f for f in p.rglob("*") if f.is_file()] if p.is_dir() else []
        for f in files:
            if SKIP_DIRS & set(f.relative_to(root).parts) or f.stat().st_size > 2_000_000:
                continue
            try:
                words.update(w.lstrip("~") for w in IDENT.findall(f.read_text(encoding="utf-8")))
            except UnicodeDecodeError:
                continue
    return words


def outside_names(root):
    """Names from outside the tree: the first field of each line of outside-names.txt."""
    p = root / OUTSIDE
    if not p.is_file():
        return set()
    return {l.split()[0] for l in p.read_text(encoding="utf-8").split("\n")
            if l.strip() and not l.lstrip().startswith("#")}


def prose_lines(text):
    """(line number, line) of the lines outside fenced blocks."""
    fence = None
    for n, line in enumerate(text.split("\n"), 1):
        m = FENCE.match(line)
        if m and fence is None:
            fence = m.group(1)[0]
            continue
        if m and fence == m.group(1)[0]:
            fence = None
            continue
        if fence is None:
            yield n, line


def names_in(span):
    """The identifiers a code-like span claims, ("path", span) for a path, or None if not code."""
    s = span.strip()
    if not s or re.search(r"\s", s) and not CALL.match(s) and not QUALIFIED.match(s):
        return None
    if s.startswith("std::"):
        return None
    if PATH.match(s):
        return ("path", s)
    head = re.sub(r"\(.*\)$", "", s)
    head = re.sub(r"<[^<>]*>", "", head)
    if QUALIFIED.match(s) or CALL.match(s) or MEMBER.match(s):
        return [w.lstrip("~") for w in IDENT.findall(head)]
    if SNAKE.match(s) or CAMEL.match(s):
        return [s]
    return None


def check_names(root, rel, text, words, outside, tops):
    problems = []
    for n, line in prose_lines(text):
        linked = [range(m.start(1), m.end(1)) for m in LINK.finditer(line)]
        for m in SPAN.finditer(line):
            if any(m.start() in r for r in linked):  # [... `name` ...](https://...): that site's
                continue
            span = m.group(1)
            claim = names_in(span)
            if claim is None or span.strip() in outside:
                continue
            if isinstance(claim, tuple):
                path = claim[1]
                first = path.split("/")[0]
                if first in tops and not list(root.glob(path.rstrip("/"))):
                    problems.append(f"{rel}:{n}: `{span}` names a path that does not exist")
                continue
            missing = [w for w in claim if w not in words]
            if missing:
                problems.append(f"{rel}:{n}: `{span}`: no `{missing[0]}` in the source tree "
                                f"({', '.join(TREE)}); if it is rayon's or another outside name, "
                                f"list it in {OUTSIDE} with its source")
    return problems


def paragraphs(text):
    """(first line, last line, paragraph text, kind) where kind is heading | text | console."""
    out, cur, first, fence = [], [], 0, None
    lines = text.split("\n")
    for n, line in enumerate(lines, 1):
        m = FENCE.match(line)
        if fence is not None:
            if m and m.group(1)[0] == fence:
                fence = None
            continue
        if m:
            if cur:
                out.append((first, n - 1, "\n".join(cur), "text"))
                cur = []
            fence = m.group(1)[0]
            out.append((n, n, line, "console" if "console" in line else "fence"))
            continue
        starts_item = re.match(r"^\s*(?:[-*]|\d+\.)\s", line)
        if not line.strip() or line.startswith("#") or (starts_item and cur):
            if cur:
                out.append((first, n - 1, "\n".join(cur), "text"))
                cur = []
            if line.startswith("#"):
                out.append((n, n, line, "heading"))
                continue
            if not line.strip():
                continue
        if not cur:
            first = n
        cur.append(line)
    if cur:
        out.append((first, len(lines), "\n".join(cur), "text"))
    return out


def check_measured(rel, text):
    problems, paras = [], paragraphs(text)
    for i, (first, _, body, kind) in enumerate(paras):
        if kind not in ("text", "heading") or not re.search(r"\bMeasured\b", body):
            continue
        at = first + next(k for k, l in enumerate(body.split("\n")) if "Measured" in l)
        if kind == "heading":
            section = []
            for p in paras[i + 1:]:
                if p[3] == "heading":
                    break
                section.append(p[3])
            if "console" not in section:
                problems.append(f"{rel}:{at}: a \"Measured\" heading with no console block in its "
                                "section")
            continue
        spans = [m.group(1) for m in SPAN.finditer(re.sub(r"<!--.*?-->", "", body, flags=re.S))]
        after = next((p[3] for p in paras[i + 1:] if p[3] != "text" or not p[2].startswith("<!--")),
                     None)
        if not any(COMMAND.match(s) for s in spans) and after != "console":
            problems.append(f"{rel}:{at}: a \"Measured\" sentence without its command: put the "
                            "command beside it (a span in backticks, or a console block right "
                            "after), or drop the sentence")
    return problems


def default_files(root):
    files = sorted((root / "chapters").glob("*.md")) + sorted((root / "chapters").glob("part[0-9]*/*.md"))
    return files + [p for p in (root / "chapters/labs/README.md", root / "README.md") if p.is_file()]


def check(root, files):
    words, outside = tree_words(root), outside_names(root)
    tops = {p.name for p in root.iterdir() if p.name not in (".git", "build")}
    problems, spans = [], 0
    for f in files:
        rel = f.relative_to(root).as_posix() if f.is_relative_to(root) else str(f)
        text = f.read_text(encoding="utf-8")
        spans += sum(len(SPAN.findall(l)) for _, l in prose_lines(text))
        problems += check_names(root, rel, text, words, outside, tops)
        problems += check_measured(rel, text)
    return problems, spans


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 epilog="Details: tests/docs/README.md")
    ap.add_argument("files", nargs="*", help="markdown files (default: the chapters and README.md)")
    ap.add_argument("--root", default=str(REPO), help="repository root (default: this checkout)")
    a = ap.parse_args(argv)
    root = Path(a.root).absolute()
    if not root.is_dir():
        ap.error(f"ROOT '{root}' is not a directory")
    files = [Path(f).absolute() for f in a.files] or default_files(root)
    for f in files:
        if not f.is_file():
            ap.error(f"no such file: {f}")
    problems, spans = check(root, files)
    for p in problems:
        print(p)
    print(f"claims: {spans} spans in {len(files)} files, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
