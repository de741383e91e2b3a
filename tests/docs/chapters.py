#!/usr/bin/env python3
"""chapters.py -- every code block and console block of the chapters, tied to where it comes from.

  python3 tests/docs/chapters.py check  [--snippets | --console] [--slow] [FILE.md ...]
  python3 tests/docs/chapters.py update [--snippets | --console] [--slow] [FILE.md ...]
  python3 tests/docs/chapters.py words  [FILE.md ...]

Code blocks (snippets): the line before a fence says where the block comes from,
    <!-- snippet: src/mini/pool.hpp:find_work -->   body == that file's region `find_work`
    <!-- not-from-source -->                        C++ that is not from the tree
and every ```cpp / ```c++ block needs one of the two. A region is the lines strictly between
`ANCHOR: name` and `ANCHOR_END: name` (mdBook anchors), minus any line carrying a marker.

Console blocks: the line before a ```console fence names the command that printed it,
    <!-- console: build/release/apps/fib 2 30 | exit 0 | varies: ns/join | timeout 60 | slow -->
and the block is `$ CMD` followed by the output of `bash -c CMD` run from the repository root with
stderr joined to stdout. The options after the command are all optional, each after ` | `:
  exit N       the expected exit code (default 0)
  varies: RE   lines matching the regular expression RE carry timings; they are compared by shape
               (numbers become #, runs of blanks one blank); RE must not contain ` | ` (may repeat)
  timeout S    seconds before the command is killed (default 120)
  slow         run only with --slow (the full check of .ci/run), not by ctest
  needs: TOOL  skipped when the build tree lacks the optional TOOL (rayon, tbb, openmp, render;
               build/NAME/optional-tools.txt lists what it has); may repeat
Every block runs in CI: there is no option that exempts one (a marker still saying `manual` is a
problem), so a block too slow for CI is shortened or cut.
A command that names a build tree (build/NAME/..., ctest --preset NAME) that does not exist is
skipped, not failed. The checkout's absolute path in the output is written as `.`.

check reports every problem with file:line and exits 1; update rewrites what it can (only files
that change are written) and still fails on what it cannot fix. Files default to chapters/*.md and chapters/part*/*.md
and, for console blocks, README.md too. words counts each chapter's prose (words.py) and exits 1
when a main-path chapter (chapters/[0-9]*.md) or the main path as a whole is over its budget.
"""
import argparse
import os
import re
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import chart
import words

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "tests" / "labs"))
import labs  # noqa: E402  the labs' skeletons (tests/labs/labs.py), generated from steps.ini
NESTED = "MINI_CHAPTERS_CHECK"  # set while commands run: a ctest inside a block skips this check

FENCE = re.compile(r"^( *)(```+|~~~+)(.*)$")
SNIPPET = re.compile(r"^[ \t]*<!--[ \t]*snippet:[ \t]*([^ \t].*):([A-Za-z0-9_-]+)[ \t]*-->[ \t]*$")
NFS = re.compile(r"^[ \t]*<!--[ \t]*not-from-source[ \t]*-->[ \t]*$")
CONSOLE = re.compile(r"^[ \t]*<!--[ \t]*console:[ \t]*(.*?)[ \t]*-->[ \t]*$")
OPTION = re.compile(r"^(exit -?\d+|varies: .+|timeout \d+(\.\d+)?|slow|manual|needs: [a-z]+)$")
OPTIONAL_TOOLS = ("rayon", "tbb", "openmp", "render")  # what `needs:` may name (CMakeLists.txt)


@dataclass
class Block:
    path: str  # relative to the root
    fence_line: int  # 1-based line of the opening fence
    indent: str  # the fence's indentation
    lang: str
    start: int  # index (0-based) of the first body line
    end: int  # index of the closing fence
    body: list  # body lines without the fence's indentation
    kind: str = "none"  # marker kind: none | snippet | nfs | console
    marker_line: int = 0
    arg: tuple = ()  # snippet: (path, anchor); console: (command, options)


@dataclass
class Doc:
    path: Path
    rel: str
    lines: list
    blocks: list = field(default_factory=list)
    edits: dict = field(default_factory=dict)  # block start -> new body lines


class Report:
    def __init__(self, name):
        self.name, self.texts = name, []

    @property
    def problems(self):
        return len(self.texts)

    def problem(self, text):
        self.texts.append(text)
        print(text, flush=True)


def recap(texts, lines_each=12):
    """The problems again, after the last summary: a log read from its tail (a CI report that
    keeps the last lines) still shows which block failed and how, not only that one did."""
    out = [f"chapters.py: the {len(texts)} problems again:"]
    for t in texts:
        rows = t.split("\n")
        out += rows[:lines_each] + ([f"  ({len(rows) - lines_each} more lines in its first report, above)"]
                                    if len(rows) > lines_each else [])
    return out


def parse(path, rel, report):
    """Splits a markdown file into its fenced blocks and the markers above them."""
    doc = Doc(path, rel, path.read_text(encoding="utf-8").split("\n"))
    prev, prev_line, prev_arg = "none", 0, ()
    lines, i = doc.lines, 0
    while i < len(lines):
        text = lines[i].rstrip("\r")
        m = FENCE.match(text)
        if m and not (m.group(2)[0] == "`" and "`" in m.group(3)):
            indent, fence, info = m.group(1), m.group(2), m.group(3).strip()
            lang = re.match(r"[^ \t,{]*", info).group(0).lower()
            if prev == "bad":
                report.problem(f"{rel}:{prev_line}: malformed marker; expected <!-- snippet: "
                               "path/from/root:anchor -->, <!-- not-from-source --> or "
                               "<!-- console: COMMAND -->")
                prev = "nfs"  # do not report the block a second time
            close = re.compile("^ *" + re.escape(fence[0]) + "{" + str(len(fence)) + r",}[ \t]*$")
            j = i + 1
            while j < len(lines) and not close.match(lines[j].rstrip("\r")):
                j += 1
            if j == len(lines):
                report.problem(f"{rel}:{i + 1}: code fence '{fence}' is never closed")
                return doc
            n = len(indent)
            body = [re.sub("^ {1,%d}" % n, "", l) if n else l for l in lines[i + 1:j]]
            doc.blocks.append(Block(rel, i + 1, indent, lang, i + 1, j, body, prev, prev_line,
                                    prev_arg))
            prev, i = "none", j + 1
            continue
        if prev != "none":
            report.problem(f"{rel}:{prev_line}: marker is not directly followed by a code fence "
                           "(the marker must be on the line right before the opening ``` or ~~~)")
        prev, prev_line, prev_arg = "none", i + 1, ()
        if re.match(r"^[ \t]*<!--[ \t]*snippet", text):
            m = SNIPPET.match(text)
            prev, prev_arg = ("snippet", (m.group(1).strip(), m.group(2))) if m else ("bad", ())
        elif re.match(r"^[ \t]*<!--[ \t]*not-from-source", text):
            prev = "nfs" if NFS.match(text) else "bad"
        elif re.match(r"^[ \t]*<!--[ \t]*console", text):
            m = CONSOLE.match(text)
            prev, prev_arg = ("console", console_marker(m.group(1))) if m else ("bad", ())
        i += 1
    if prev != "none":
        report.problem(f"{rel}:{prev_line}: marker is not directly followed by a code fence "
                       "(the marker must be on the line right before the opening ``` or ~~~)")
    return doc


def console_marker(text):
    """`CMD | exit 3 | varies: RE` -> (CMD, {"exit": 3, "varies": [RE], ...}); options at the end."""
    parts = text.split(" | ")
    opts = {"exit": 0, "varies": [], "timeout": 120.0, "slow": False, "manual": False, "needs": []}
    # `manual` (never run) is gone; it is still read as an option so that console() can say so.
    while len(parts) > 1 and OPTION.match(parts[-1].strip()):
        o = parts.pop().strip()
        if o.startswith("varies: "):
            opts["varies"].insert(0, o[len("varies: "):])
        elif o.startswith("needs: "):
            opts["needs"].insert(0, o[len("needs: "):])
        elif o.startswith(("exit", "timeout")):
            key, value = o.split()
            opts[key] = int(value) if key == "exit" else float(value)
        else:
            opts[o] = True
    return " | ".join(parts).strip(), opts


def write(doc):
    """Writes the doc back with its edited blocks re-indented; True if the file changed."""
    lines = list(doc.lines)
    for b in sorted(doc.blocks, key=lambda b: -b.start):
        if b.start in doc.edits:
            lines[b.start:b.end] = [b.indent + l if l else "" for l in doc.edits[b.start]]
    text = "\n".join(lines)
    if text == "\n".join(doc.lines):
        return False
    doc.path.write_text(text, encoding="utf-8")
    return True


# ---- snippets --------------------------------------------------------------------------------
ANCHOR = re.compile(r"ANCHOR:[ \t]*([A-Za-z0-9_-]+)")
ANCHOR_END = re.compile(r"ANCHOR_END:[ \t]*([A-Za-z0-9_-]+)")


def regions(path):
    """{name: (state, first line, region lines, duplicate lines)}; state open | done | dup."""
    found, open_ = {}, []
    for n, line in enumerate(path.read_text(encoding="utf-8").split("\n"), 1):
        ends, starts = ANCHOR_END.findall(line), ANCHOR.findall(line)
        if not ends and not starts and not labs.is_marker(line):
            for name in open_:
                found[name][2].append(line)
            continue
        for name in ends:  # a marker line is never part of a region
            if name in open_:
                open_.remove(name)
                if found[name][0] == "open":
                    found[name][0] = "done"
        for name in starts:
            if name in found:
                found[name][0] = "dup"
                found[name][3].append(n)
            else:
                found[name] = ["open", n, [], []]
                open_.append(name)
    return found


def visible(line):
    return '"' + line.replace("\t", "\\t") + '"' if line is not None else None


def check_snippet(root, b, cache, update, report):
    """Returns the block's new body, or None."""
    src, anchor = b.arg
    where = f"{b.path}:{b.marker_line}"
    p = root / src
    if not p.exists():
        return report.problem(f"{where}: snippet marker names a missing file '{src}' "
                              f"(anchor '{anchor}')")
    if not p.is_file():
        return report.problem(f"{where}: snippet marker names '{src}', which is not a regular file")
    if src not in cache:
        cache[src] = regions(p)  # each source file is read once
    r = cache[src]
    if anchor not in r:
        return report.problem(f"{where}: anchor '{anchor}' not found in '{src}' "
                              f"(no line with 'ANCHOR: {anchor}')")
    state, first, text, dups = r[anchor]
    if state == "open":
        return report.problem(f"{where}: anchor '{anchor}' is started at {src}:{first} but never "
                              f"ended (no 'ANCHOR_END: {anchor}')")
    if state == "dup":
        return report.problem(f"{where}: anchor '{anchor}' is started more than once in '{src}' "
                              f"(lines {', '.join(map(str, [first] + dups))})")
    if b.body == text:
        return None
    if update:
        print(f"snippets: updated {b.path}:{b.fence_line} from {src}:{anchor}", flush=True)
        return text
    k = 0
    while k < len(b.body) and k < len(text) and b.body[k] == text[k]:
        k += 1
    mine = visible(b.body[k] if k < len(b.body) else None) or "(end of block)"
    theirs = visible(text[k] if k < len(text) else None) or "(end of region)"
    show = lambda prefix, ls: "".join(f"{prefix}{l}\n" for l in ls) or f"{prefix}(empty)\n"
    report.problem(
        f"{b.path}:{b.fence_line}: block differs from {src}:{anchor} (source region starts at "
        f"{src}:{first})\n"
        f"  first difference at {b.path}:{b.fence_line + 1 + k} (block line {k + 1}; block has "
        f"{len(b.body)} lines, region {len(text)}):\n"
        f"    chapter: {mine}\n    source : {theirs}\n"
        f"  chapter version ({b.path}:{b.fence_line}):\n{show('  chapter| ', b.body)}"
        f"  source version ({src}:{anchor}):\n{show('  source | ', text)}"
        f"  fix: python3 tests/docs/chapters.py update --snippets {b.path}")


def snippets(root, docs, update):
    report, cache, n, updated = Report("snippets"), {}, 0, 0
    for doc in docs:
        for b in doc.blocks:
            n += 1
            if b.kind == "snippet":
                new = check_snippet(root, b, cache, update, report)
                if new is not None:
                    doc.edits[b.start], updated = new, updated + 1
            elif b.kind == "none" and b.lang in ("cpp", "c++"):
                report.problem(f"{b.path}:{b.fence_line}: {b.lang} block without a marker; put "
                               "<!-- snippet: path:anchor --> or <!-- not-from-source --> on the "
                               "line directly before the fence")
    return report, n, updated


# ---- console blocks --------------------------------------------------------------------------
NUMBER = re.compile(r"[-+]?\d+(?:[.,]\d+)*(?:e[-+]?\d+)?")


def shape(line):
    return re.sub(r"[ \t]+", " ", NUMBER.sub("#", line)).strip()


def missing_build(root, cmd):
    """The build tree the command needs and that does not exist, or None."""
    trees = re.findall(r"(?:^|[\s=/'\"])build/([A-Za-z0-9_.-]+)", cmd)
    trees += re.findall(r"\bctest\b[^|;&]*?--preset[= ]([A-Za-z0-9_.-]+)", cmd)
    trees += re.findall(r"\bcmake --build --preset[= ]([A-Za-z0-9_.-]+)", cmd)
    made = set(re.findall(r"\s-B[= ]?build/([A-Za-z0-9_.-]+)", cmd))  # the command configures it
    for t in trees:
        if t not in made and not (root / "build" / t).is_dir():
            return f"build/{t}"
    return None


def missing_tool(root, cmd, needs):
    """The optional tool the block needs and its build tree lacks, or None. Each tree lists what it
    has in build/NAME/optional-tools.txt (written by configure); the tree is the first one the
    command names, build/release if it names none."""
    if not needs:
        return None
    trees = re.findall(r"(?:^|[\s=/'\"])build/([A-Za-z0-9_.-]+)", cmd) or ["release"]
    listing = root / "build" / trees[0] / "optional-tools.txt"
    have = listing.read_text().split() if listing.is_file() else []
    for tool in needs:
        if tool not in have:
            return f"{tool} is not in build/{trees[0]}"
    return None


def run(root, cmd, timeout):
    """(exit code or None on timeout, output lines) of `bash -c cmd` from the root, 2>&1."""
    env = dict(os.environ, **{NESTED: "1"})
    p = subprocess.Popen(["bash", "-c", cmd], cwd=root, stdin=subprocess.DEVNULL, env=env,
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        out, _ = p.communicate(timeout=timeout)
        code = p.returncode
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        out, _ = p.communicate()
        code = None
    text = out.decode("utf-8", "replace").replace("\r\n", "\n")
    text = re.sub(r"\x1b\[[0-9;]*[A-Za-z]", "", text).replace(str(root.resolve()), ".")
    lines = [l.rstrip() for l in text.split("\n")]
    while lines and lines[-1] == "":
        lines.pop()
    return code, lines


# A place in the source (src/mini/latch.hpp:58) is a fact, not a timing: a varying line that names
# one is stale when the place moved, though its shape is the same.
SOURCE_PLACE = re.compile(r"\b(?:src|tests|apps)/[\w/.+-]+\.(?:hpp|cpp|h|py|pml):\d+")


def differences(want, got, varies):
    """The first few differing lines of the block (want) and the fresh output (got)."""
    pats = [re.compile(v) for v in varies]
    same = lambda a, b: a == b or (any(p.search(a) for p in pats) and any(
        p.search(b) for p in pats) and shape(a) == shape(b)
        and SOURCE_PLACE.findall(a) == SOURCE_PLACE.findall(b))
    out = []
    for k in range(max(len(want), len(got))):
        a = want[k] if k < len(want) else "(end of block)"
        b = got[k] if k < len(got) else "(end of output)"
        if k >= len(want) or k >= len(got) or not same(a, b):
            out.append((k, a, b))
    return out


def console(root, docs, update, slow, repeat=1):
    """Runs every console block (`repeat` times each in check mode: a block whose verdict differs
    between runs is reported as VARIES, a check that would fail CI one day)."""
    report, counts = Report("console"), dict(run=0, updated=0, skipped=0, slow=0, varied=0)
    t0 = time.monotonic()
    for doc in docs:
        for b in doc.blocks:
            if b.kind == "console" and b.lang != "console":
                report.problem(f"{b.path}:{b.marker_line}: console marker above a ```{b.lang} "
                               "block (expected ```console)")
                continue
            if b.kind != "console":
                continue
            cmd, opts = b.arg
            where = f"{b.path}:{b.fence_line}"
            if not b.body or b.body[0] != f"$ {cmd}":
                if not update:
                    report.problem(f"{where}: the block's first line is not `$ {cmd}`")
                    continue
            if opts["manual"]:
                report.problem(f"{b.path}:{b.marker_line}: `manual` is gone: every console block "
                               "is executed by CI. Drop it, mark the block `slow` if it takes more "
                               "than a few seconds, mask only timing fields with `varies:`, or "
                               "remove the block")
                continue
            if opts["slow"] and not slow:
                counts["slow"] += 1
                continue
            unknown = [t for t in opts["needs"] if t not in OPTIONAL_TOOLS]
            if unknown:
                report.problem(f"{b.path}:{b.marker_line}: `needs: {unknown[0]}` names no optional "
                               f"tool (one of {', '.join(OPTIONAL_TOOLS)})")
                continue
            tree = missing_build(root, cmd)
            if tree:
                counts["skipped"] += 1
                print(f"console: skipped {where}: {tree} is not built", flush=True)
                continue
            tool = missing_tool(root, cmd, opts["needs"])
            if tool:
                counts["skipped"] += 1
                print(f"console: skipped {where}: {tool} (an optional tool)", flush=True)
                continue
            verdicts = []  # one a run: None (the block holds) or the problem's text
            counts["run"] += 1
            for _ in range(1 if update else repeat):
                problem, new = judge(root, b, cmd, opts, where)
                if update and new is not None:  # it ran as the marker expects, and differs
                    doc.edits[b.start] = new
                    counts["updated"] += 1
                    print(f"console: updated {where}", flush=True)
                    problem = None
                verdicts.append(problem)
            bad = [v for v in verdicts if v is not None]
            if not bad:
                continue
            if len(verdicts) > 1 and len(bad) < len(verdicts):
                counts["varied"] += 1
                report.problem(f"{where}: VARIES: `{cmd}` held in {len(verdicts) - len(bad)} of "
                               f"{len(verdicts)} runs; the first that failed:\n{bad[0]}")
            else:
                report.problem(bad[0])
    counts["secs"] = time.monotonic() - t0
    return report, counts


def judge(root, b, cmd, opts, where):
    """One fresh run of a console block: (None, None) when the block holds; (problem, None) when
    the command failed as the marker does not expect; (problem, new lines) when the block differs."""
    start = time.monotonic()
    code, got = run(root, cmd, opts["timeout"])
    print(f"console: {where}: `{cmd}` exit {code} in {time.monotonic() - start:.1f} s", flush=True)
    if code is None:
        return (f"{where}: `{cmd}` was killed after {opts['timeout']:g} s "
                "(raise it with `| timeout S` in the marker)"), None
    if code != opts["exit"]:
        return (f"{where}: `{cmd}` exited {code}, the marker expects exit "
                f"{opts['exit']} (`| exit {code}` in the marker if that is right); "
                "output:\n" + "".join(f"  output| {l}\n" for l in got[-20:])), None
    new = [f"$ {cmd}"] + got
    diff = differences(b.body, new, opts["varies"])
    if not diff:
        return None, None
    lines = "".join(f"  line {k + 1}:\n    chapter: {a}\n    fresh  : {c}\n"
                    for k, a, c in diff[:5])
    return (f"{where}: block differs from a fresh run of `{cmd}` ({len(diff)} lines differ; "
            f"varying lines compared by shape: {opts['varies'] or 'none'}):\n{lines}"
            f"  fix: python3 tests/docs/chapters.py update --console {b.path}"), new


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 epilog="Details: tests/docs/README.md")
    ap.add_argument("mode", choices=["check", "update", "words"])
    ap.add_argument("files", nargs="*", help="markdown files (default: chapters/*.md, chapters/part*/*.md, README.md)")
    what = ap.add_mutually_exclusive_group()
    what.add_argument("--snippets", action="store_true", help="only the code blocks")
    what.add_argument("--console", action="store_true", help="only the console blocks")
    ap.add_argument("--slow", action="store_true", help="also run the blocks marked slow")
    ap.add_argument("--root", default=str(REPO), help="repository root (default: this checkout)")
    ap.add_argument("--repeat", type=int, default=1, metavar="N",
                    help="check: run every console block N times and report the blocks whose "
                         "verdict varies between runs (default 1)")
    a = ap.parse_intermixed_args(argv)
    if a.repeat < 1 or (a.repeat > 1 and a.mode != "check"):
        ap.error("--repeat takes a whole number from 1, and only with check")
    root = Path(a.root).absolute()
    if not root.is_dir():
        ap.error(f"ROOT '{root}' is not a directory")
    if a.files:
        paths = [Path(f).absolute() for f in a.files]
        for p in paths:
            if not p.is_file():
                ap.error(f"no such file: {p}")
    else:
        paths = sorted((root / "chapters").glob("*.md")) + sorted((root / "chapters").glob("part[0-9]*/*.md"))
        if not paths:
            print(f"snippets: no chapters/ directory under {root}")
    chapters = [p for p in paths if p.parent.name == "chapters" or p.parent.name.startswith("part") or a.files]
    parse_report = Report("parse")
    if a.mode == "words":
        lines, over = words.report([parse(p, os.path.relpath(p, root), parse_report)
                                    for p in chapters])
        print("\n".join(lines))
        if over:
            print(f"chapters.py: words: {over} over the budget")
        return 1 if over or parse_report.problems else 0
    docs = {p: parse(p, os.path.relpath(p, root), parse_report) for p in paths}
    readme = root / "README.md"
    if not a.files and readme.is_file():
        docs[readme] = parse(readme, "README.md", parse_report)
    update = a.mode == "update"
    texts = list(parse_report.texts)  # every problem found, for the recap at the end
    if not a.console:
        r, n, updated = snippets(root, [docs[p] for p in chapters], update)
        k = r.problems + parse_report.problems
        upd = f", {updated} blocks updated" if update else ""
        print(f"snippets: {n} blocks checked in {len(chapters)} chapters{upd}, {k} problems")
        texts += r.texts
        if not a.files:  # the labs' skeletons: the source, holes from tests/labs/steps.ini
            lab_report = Report("labs")
            for dst, text in labs.stale(root, update):
                lab_report.problem(f"{dst}: {text}")
            print(f"labs: {len(labs.LABS)} skeletons checked, {lab_report.problems} problems")
            texts += lab_report.texts
    if not a.snippets and os.environ.get(NESTED):
        print("console: skipped (already inside a console block's command)")
    elif not a.snippets:
        r, c = console(root, docs.values(), update, a.slow, a.repeat)
        upd = f", {c['updated']} updated" if update else ""
        var = f", {c['varied']} varied between runs" if a.repeat > 1 else ""
        times = f" ({a.repeat} times each)" if a.repeat > 1 else ""
        print(f"console: {c['run']} blocks run{times} in {c['secs']:.0f} s{upd}{var}, {c['skipped']} skipped "
              f"(not built or no optional tool), {c['slow']} slow not run, "
              f"{r.problems} problems")
        texts += r.texts
    for doc in docs.values():
        if doc.edits and write(doc):
            print(f"{a.mode}: wrote {doc.rel}")
    if not a.snippets:  # charts are drawn from console blocks, as they now stand
        for p in chapters:
            problems, written = chart.check(p, p.read_text(), update)
            for line in problems + [f"{a.mode}: wrote {os.path.relpath(w, root)}" for w in written]:
                print(line)
            texts += problems
    if texts:
        print("\n".join(recap(texts)))
        print(f"chapters.py: {a.mode} failed with {len(texts)} problems (see above)")
    return 1 if texts else 0


if __name__ == "__main__":
    sys.exit(main())
