"""chapters.py words: the prose of each chapter counted, against the main path's word budget.

Prose is what a reader reads as text: fenced blocks (code, console output, diagrams) and HTML
comments (the markers) are left out. Everything else counts as the reviewers count it: a word is
any run of non-blanks, so a table's `|` and `---`, a list's `-`, a dash, a link's `[x](target)` and
an HTML tag each count as they stand. The main path is chapters/[0-9]*.md; the appendices and Part
II and III (chapters/part2/, chapters/part3/) are counted but have no budget.
"""
import re
from pathlib import Path

PER_CHAPTER = 4500  # issue 22: at most about 4,500 words of prose per main-path chapter
TOTAL = 18000  # issue 35: a ceiling on the whole main path, not a target that drives edits


def prose(lines, blocks):
    """The text of a parsed doc without its fenced blocks (fence lines included)."""
    drop = set()
    for b in blocks:
        drop.update(range(b.start - 1, b.end + 1))
    text = "\n".join(l for i, l in enumerate(lines) if i not in drop)
    return re.sub(r"<!--.*?-->", " ", text, flags=re.S)


def count(text):
    """Every whitespace-separated token: punctuation, link targets and tags included."""
    return len(text.split())


def main_path(rel):
    return re.fullmatch(r"chapters/[0-9][^/]*\.md", rel) is not None


def report(docs, per_chapter=PER_CHAPTER, total=TOTAL):
    """(lines to print, problems) for the parsed docs: each chapter's count, then the total."""
    out, problems, main = [], 0, 0
    width = max([len(d.rel) for d in docs] + [len("main path")])
    for d in sorted(docs, key=lambda d: (not main_path(d.rel), d.rel)):
        n = count(prose(d.lines, d.blocks))
        if main_path(d.rel):
            main += n
            over = n > per_chapter
            problems += over
            note = f"  OVER the budget of {per_chapter} by {n - per_chapter}" if over else ""
            out.append(f"  {d.rel:<{width}}  {n:6}{note}")
        else:
            out.append(f"  {d.rel:<{width}}  {n:6}  (off the main path: no budget)")
    over = main > total
    problems += over
    out.append(f"  {'main path':<{width}}  {main:6}" + (f"  OVER the budget of {total} by "
                                                       f"{main - total}" if over else
                                                       f"  (budget {total}; {per_chapter} a "
                                                       "chapter)"))
    return ["words: prose words per chapter (fenced blocks and comments left out)"] + out, problems

