"""The labs' grader, the part that needs no build: which holes the reader wrote, which catalogue
row lives in which hole, what the model check reads, what a failed run said, and how a verdict
is printed.

grade.py runs the checks; this module decides what their results say about each step, and is
unit-tested by test_verdicts.py.
"""
import configparser
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

import labs

sys.path.insert(0, str(labs.REPO / "tests" / "mutants"))
import catalogue  # noqa: E402  the catalogue of broken variants (tests/mutants/catalogue.ini)
from mutants import symptom  # noqa: E402  how a check failed, as the mutant matrix says it

CATALOGUE = labs.REPO / "tests" / "mutants" / "catalogue.ini"
TOKEN = re.compile(r"[A-Za-z_]\w*|\d\w*|::|->|\+\+|--|\+=|-=|&&|\|\||[^\s\w]")
COMMENT = re.compile(r"//[^\n]*|/\*.*?\*/", re.S)
# Tokens after which a statement starts. Not ")": `while (...) cv_.wait(lock);` is not the
# statement `cv_.wait(lock);` but a loop around it (the trap of sleep.wait.for-token).
BOUNDARY = {";", "{", "}", "else", ":"}


def tokens(lines):
    """The code tokens of some lines: comments, blanks and hole statements left out."""
    text = "\n".join(l for l in lines if not labs.HOLE_STATEMENT.match(l))
    return TOKEN.findall(COMMENT.sub(" ", text))


def has_statement(body, statement):
    """Whether `statement` (tokens) stands in `body` (lines) as a statement of its own."""
    have, n = tokens(body), len(statement)
    return any(have[i:i + n] == statement and (i == 0 or have[i - 1] in BOUNDARY)
               for i in range(len(have) - n + 1))


# The sleep protocol's names in the files the labs cut it from: the count of sleepers (Sleep's
# `sleepers_`, QuietLatch's `waiters_`) with its accessor, the re-check (Sleep's `has_work()`, a
# latch's `probe()`), and the flag a publisher stores (QuietLatch's `set_`).
COUNTS, COUNT_READS = ("sleepers_", "waiters_"), ("sleepers", "waiters")
RECHECKS, FLAGS = ("has_work", "probe"), ("set_",)


def operations(lines):
    """The model's operations that some lines of C++ perform, in order, by their effect and not
    their spelling: ("fence", "seq_cst" or the weaker order), ("register",) and ("unregister",)
    for any write that adds or takes one from the count (COUNTS: fetch_add, ++, += 1;
    fetch_sub, --, -= 1), ("load",) for any other read of it (or a call of its accessor),
    ("recheck",) for a call of `has_work()` or `probe()` (its result may go through a bool; a
    `cv_.wait(lock, PREDICATE)` that calls one is a re-check, then the wait),
    ("publish",) for a store of the flag (`set_.store`, `set_ =`), ("wait", alone) for
    `cv_.wait(ANY LOCK)`, alone when it is a statement of its own (not the body of a loop or an
    if), and ("unlock",) for a `NAME.unlock()`."""
    tk, out = tokens(lines), []
    for i, t in enumerate(tk):
        nxt = tk[i + 1:i + 4]
        if t == "atomic_thread_fence" and nxt[:1] == ["("]:
            args = tk[i + 2:tk.index(")", i)] if ")" in tk[i:] else []
            sc = "memory_order_seq_cst" in args or any(
                args[k:k + 3] == ["memory_order", "::", "seq_cst"] for k in range(len(args)))
            out.append(("fence", "seq_cst" if sc else "weaker"))
        elif t in COUNTS:
            prev = tk[i - 1] if i else ""
            if nxt[:2] == [".", "fetch_add"] or "++" in (prev, nxt[0] if nxt else "") or (
                    nxt[:2] == ["+=", "1"]):
                out.append(("register",))
            elif nxt[:2] == [".", "fetch_sub"] or "--" in (prev, nxt[0] if nxt else "") or (
                    nxt[:2] == ["-=", "1"]):
                out.append(("unregister",))
            elif nxt[:2] != [".", "store"] and nxt[:1] != ["="]:
                out.append(("load",))
        elif t in COUNT_READS and nxt[:2] == ["(", ")"]:  # the accessor: a load of the count
            out.append(("load",))
        elif t in RECHECKS and nxt[:2] == ["(", ")"]:
            out.append(("recheck",))
        elif t in FLAGS and (nxt[:2] in ([".", "store"], [".", "exchange"]) or nxt[:1] == ["="]):
            out.append(("publish",))
        elif t == "cv_" and nxt[:2] == [".", "wait"]:
            end = tk.index(")", i) if ")" in tk[i:] else i
            alone = (i == 0 or tk[i - 1] in BOUNDARY) and end - i == 5  # cv_ . wait ( x )
            depth, close = 0, len(tk)  # the call's own closing parenthesis
            for k in range(i + 3, len(tk)):
                depth += {"(": 1, ")": -1}.get(tk[k], 0)
                if depth == 0:
                    close = k
                    break
            if tk[i + 5:i + 6] == [","] and any(  # cv_.wait(lock, pred): pred is looked at first
                    tk[k] in RECHECKS and tk[k + 1:k + 2] == ["("] for k in range(i + 6, close)):
                out.append(("recheck",))
            out.append(("wait", alone))
        elif t == "unlock" and nxt[:2] == ["(", ")"] and i and tk[i - 1] == ".":
            out.append(("unlock",))
    return out


def has_effect(body, statement):
    """Whether the step `body` does what the model's line `statement` (tokens) does there: the
    same operation, in the same order with the step's others (a fence before the step's read of
    the sleepers and after its registration or its store of the flag; a re-check before the
    step's first wait). A statement the mapping does not know is looked for as text
    (has_statement)."""
    want = operations([" ".join(statement)])
    have = operations(body)
    if want == [("fence", "seq_cst")]:
        at = [k for k, op in enumerate(have) if op == ("fence", "seq_cst")]
        return any(all(op != ("load",) for op in have[:k])
                   and all(op not in (("register",), ("publish",)) for op in have[k + 1:])
                   for k in at)
    if want[:1] == [("recheck",)]:  # a re-check before the step's first wait, if it waits
        first = next((k for k, op in enumerate(have) if op[0] == "wait"), len(have))
        return ("recheck",) in have[:first]
    if want and want[0][0] in ("unregister", "register"):
        return want[0] in have
    if want[:1] == [("wait", True)]:
        return ("wait", True) in have
    return has_statement(body, statement)


# The worker's side of the sleep protocol as the learner wrote it: the steps register and fence,
# judged by the C++20 model with the learner's own memory orders (the weak-memory explorer's
# WORKER: variants, tests/model/wmm/sleep.py and quiet_latch.py) instead of by the spelling of the
# book's fence. A seq_cst fetch_add with no fence passes every run on x86, whose lock xadd is a
# full barrier; C++20 orders it only with other seq_cst operations, and the re-check's reads are
# not. The rows of the worker's fence: Sleep's (sleep.hpp) and QuietLatch's (quiet_latch.hpp, the
# sleep lab's file).
WORKER_MODELS = {("wmm/sleep.py", "NO_WORKER_FENCE"), ("wmm/quiet_latch.py", "NO_WAITER_FENCE")}
WORKER_STEPS = ("register", "fence")
ORDER_NAMES = {"relaxed": "rlx", "consume": "acq", "acquire": "acq", "release": "rel",
               "acq_rel": "acq_rel", "seq_cst": "sc"}


def memory_order(args):
    """The model's name of the memory order among a call's argument tokens; an atomic operation
    or operator without one is seq_cst."""
    for k, t in enumerate(args):
        if t.startswith("memory_order_") and t[13:] in ORDER_NAMES:
            return ORDER_NAMES[t[13:]]
        if t == "memory_order" and args[k + 1:k + 2] == ["::"] and args[k + 2:k + 3] and \
                args[k + 2] in ORDER_NAMES:
            return ORDER_NAMES[args[k + 2]]
    return "sc"


def worker_ops(lines):
    """The registrations ("R") and fences ("F") some lines perform, with their memory orders, in
    order: `sleepers_.fetch_add(1, ORDER)`, `++sleepers_` or `sleepers_ += 1` (seq_cst; or the
    same of `waiters_`), and `atomic_thread_fence(ORDER)`."""
    tk, out = tokens(lines), []
    for i, t in enumerate(tk):
        nxt = tk[i + 1:i + 3]
        if t == "atomic_thread_fence" and nxt[:1] == ["("]:
            end = tk.index(")", i) if ")" in tk[i:] else len(tk)
            out.append(("F", memory_order(tk[i + 2:end])))
        elif t in COUNTS:
            prev = tk[i - 1] if i else ""
            if nxt == [".", "fetch_add"]:
                end = tk.index(")", i) if ")" in tk[i:] else len(tk)
                out.append(("R", memory_order(tk[i + 3:end])))
            elif "++" in (prev, nxt[0] if nxt else "") or nxt == ["+=", "1"]:
                out.append(("R", "sc"))
    return out


def worker_variant(register, fence):
    """The model's WORKER: variant for the lines of the steps register and fence, or None when they do not
    register exactly once (the model's worker registers once)."""
    ops = worker_ops(register) + worker_ops(fence)
    if [k for k, _ in ops].count("R") != 1:
        return None
    return "WORKER:" + ",".join(f"{k}-{o}" for k, o in ops)


def describe_worker(variant):
    """A WORKER: variant in words: "a fetch_add sc, no fence"."""
    ops = [item.split("-", 1) for item in variant[len("WORKER:"):].split(",")]
    words = [("a fetch_add " if k == "R" else "a fence ") + o for k, o in ops]
    return ", ".join(words) + ("" if any(k == "F" for k, _ in ops) else ", no fence")


def worker_detail(row, variant, symptom):
    m = row.mutant
    return (f"your steps register and fence do {describe_worker(variant)}; with these orders "
            f"C++20's model ({m.model.file} {variant}) finds {symptom}: the re-check's reads may "
            "still see the state from before the registration while a publisher reads no "
            "sleeper. Only a seq_cst fence after the registration and before the re-check pairs "
            "with the publisher's fence, whatever the registration's order (x86 hides this: its "
            "lock xadd is a full barrier)")


@dataclass
class Row:
    """A catalogue row of the lab's file: the hole it lives in and, for a row the model kills,
    the statement the model check looks for (the anchor's changed lines, a trailing `{` off)."""
    mutant: catalogue.Mutant
    step: str
    statement: list
    shown: str  # the statement as the source writes it


def changed_lines(m):
    """The anchor lines the row's replacement changes (leading and trailing kept lines off)."""
    old, new, keep, tail = m.anchor, m.replace, 0, 0
    while keep < min(len(old), len(new)) and old[keep] == new[keep]:
        keep += 1
    while tail < min(len(old), len(new)) - keep and old[-1 - tail] == new[-1 - tail]:
        tail += 1
    return old[keep:len(old) - tail]


def lab_regions(source):
    """[(first, last)] line indices of the ANCHOR regions of a marked text that hold a hole."""
    lines, out = source.split("\n"), []
    names = {m.group(1) for l in lines if (m := labs.ANCHOR.search(l))}
    for name in sorted(names):
        first, last = labs.region_span(lines, name)
        if any(labs.START.search(l) for l in lines[first:last]):
            out.append((first, last))
    return out


def first_change(before, after):
    """The index of the first line where two texts differ."""
    a, b = before.split("\n"), after.split("\n")
    return next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))


def rows(file, source, mutants=None, others=None):
    """The catalogue rows that touch `file` (source: its marked text), each with its hole. A row
    that changes lines outside the holes, or more than one hole, is a LabError: its lab could not
    give it a verdict of one step. With `others` (a lab cut from part of its file: `cross`,
    in_worker_cross of pool.hpp), a row that changes nothing in the ANCHOR regions that hold the
    lab's holes is not the lab's: its name goes into `others`, and it is left out."""
    if mutants is None:
        mutants = catalogue.parse_catalogue(CATALOGUE.read_text())
    before = {n: b for n, _, b in labs.holes(source)}
    regions = lab_regions(source)
    out = []
    for m in (m for m in mutants if m.file == file):
        after = catalogue.apply(source, m)
        steps = [n for n, _, b in labs.holes(after) if tokens(b) != tokens(before[n])]
        at = first_change(source, after)
        if others is not None and not steps and not any(first <= at < last
                                                        for first, last in regions):
            if others is not None:
                others.append(m.name)
            continue
        if labs.skeleton(after) != labs.skeleton(source) or len(steps) != 1:
            raise labs.LabError(f"catalogue row {m.name} changes {file} outside one hole")
        statement = tokens(changed_lines(m))
        if statement[-1:] == ["{"]:
            statement.pop()
        shown = " ".join(COMMENT.sub("", l).strip() for l in changed_lines(m)).removesuffix(" {")
        out.append(Row(m, steps[0], statement, shown))
    return out


def classify(reader, source):
    """{hole: "missing" | "same" | "written" | "absent"} of the reader's text against the
    source's: a hole left empty, one with the source's code (comments and blanks aside), one of
    the reader's own, or one the reader's copy does not have (it was made from an older
    skeleton: the step is taken from the source). A hole that still holds its `#error` line
    beside code is the reader's own: the compile says what that line does. LabError if the
    reader's holes are not the source's, in its order (some may be absent)."""
    mine, theirs = labs.holes(reader), labs.holes(source)
    order = iter([n for n, _, _ in theirs])
    if not all(n in order for n, _, _ in mine):
        raise labs.LabError("the holes are not the skeleton's (reset it: see chapters/labs/"
                            "README.md)")
    ref, have = {n: b for n, _, b in theirs}, {n: b for n, _, b in mine}

    def status(n):
        b = have.get(n)
        if b is None:
            return "absent"
        if labs.is_empty(b):
            return "missing"
        if any(labs.HOLE_STATEMENT.match(l) for l in b):
            return "written"
        return "same" if tokens(b) == tokens(ref[n]) else "written"
    return {n: status(n) for n, _, _ in theirs}


def compose(reader, source, from_source):
    """The marked source with the reader's lines in every hole but those named in `from_source`
    (a missing step, or one already judged, so that the checks test the others). Only the
    holes are the reader's: the lines around them are today's source, so a copy of an older
    skeleton grades against the source as it is now."""
    mine = {n: b for n, _, b in labs.holes(reader)}
    return labs.fill(source, {n: b for n, b in mine.items() if n not in from_source})


def hole_at(text):
    """For each line (index 0 = line 1): the name of the hole it is in, or None."""
    out, current = [], None
    for line in text.split("\n"):
        s, e = labs.START.search(line), labs.END.search(line)
        out.append(None if s or e else current)
        current = s.group(1) if s else None if e else current
    return out


def compile_errors(output, path, text):
    """{hole or None: first error message} of a compiler's output for errors in `path`."""
    where, out = hole_at(text), {}
    for m in re.finditer(rf"{re.escape(str(path))}:(\d+):\d+: error: ([^\n]*)", output):
        line = int(m.group(1))
        hole = where[line - 1] if line <= len(where) else None
        out.setdefault(hole, m.group(2).strip())
    return out


@dataclass
class Verdict:
    step: str  # the hole's name
    title: str  # "step 4, the re-check"
    status: str  # ok, missing, wrong
    check: str = ""  # the check that decided it: model, compile, unit, forced, stress, tsan
    detail: str = ""
    section: str = ""  # the chapter section to re-read
    trace: list = field(default_factory=list)  # the model's counterexample, as text lines

    def line(self):
        out = f"{self.title}: {self.status}"
        if self.detail:
            out += f" — {self.detail}"
        if self.status != "ok" and self.section:
            out += f"; re-read {self.section}"
        return out

    def text(self):
        """The verdict's line, then its trace, indented."""
        return "\n".join([self.line()] + [f"    {l}" for l in self.trace])


# A step with no wait on the condition variable where the book's line waits: the model's
# counterexample (about tokens, say) would answer a question the learner did not ask.
NO_WAIT = ("your step never blocks in `cv_.wait(...)`: a loop that spins or yields instead keeps "
           "a core busy (and the mutex, unless it unlocks), and only a thread blocked in the wait "
           "releases the mutex for the waker as one step and is woken by its notify; wait once "
           "on `cv_` with the lock you were given")


def never_waits(body, row):
    """Whether the row's line is a wait on the condition variable and the step `body` has none
    (a busy-wait)."""
    want = operations([" ".join(row.statement)])
    return bool(want) and want[0][0] == "wait" and not any(op[0] == "wait"
                                                           for op in operations(body))


# The watchdog's replay infers a lost wake-up's cause from the events, assuming the book's steps
# around the one that failed: "registered after that read and waited without re-checking". Said
# of a step other than the re-check, it points at a line the learner did not write.
NOT_RECHECKED = re.compile(r"; (\S+(?: \d+)?) registered after that read and waited without "
                           r"re-checking")


def for_step(step, detail, lab="sleep"):
    """A failed run's detail as it bears on `step`: the replay's guess about the re-check is
    replaced by what it shows when the step graded is another one; in a lab that does not write
    the sleep protocol (all but sleep) the guess is left out, and what the replay saw stays."""
    if lab != "sleep":
        return NOT_RECHECKED.sub("", detail)
    if step == "recheck":
        return detail
    return NOT_RECHECKED.sub(
        r", while \1 was asleep and not counted as a sleeper: with your step a sleeper stays "
        r"blocked after a waker counted it out and notified it, or was never counted in (the "
        r"replay's own guess blames the re-check, as if your other lines were the book's: your "
        r"re-check is not in question)", detail)


def lacks_effect(body, effect):
    """Whether the step `body` lacks the effect a lab names for it (labtable.Lab.effects): one
    of its token sequences, as a subsequence of the step's tokens."""
    have = tokens(body)
    return not any(have[i:i + len(seq)] == list(seq)
                   for seq in effect[0] for i in range(len(have) - len(seq) + 1))


def model_detail(row, symptom, missing=False):
    m = row.mutant
    what = "without it" if missing else (f"your step does not do what `{row.shown}` does there "
                                         "(its effect, in its order)")
    return f"{what}, the model ({m.model.file} {m.model.variant}) finds {symptom}: {m.breaks}"


# A trace longer than this is cut; the whole one is in the grader's log.
TRACE_LINES, TRACE_WIDTH = 24, 110


def trace_text(output, limit=TRACE_LINES, width=TRACE_WIDTH):
    """The counterexample in a model's output, as text lines: the weak-memory explorer's
    `wmm:` finding and its events, or SPIN's error and its replayed trail; at most `limit`
    lines of at most `width` characters."""
    lines = output.split("\n")
    start = next((i for i, l in enumerate(lines) if l.startswith("wmm: ")), None)
    if start is not None:
        body = lines[start:]
    else:
        found = [l for l in lines if l.startswith("pan:") and "wrote" not in l][:1]
        trail = next((i for i, l in enumerate(lines) if l.startswith("-- counterexample")), None)
        body = found + (lines[trail + 1:] if trail is not None else [])
    body = [l.replace("\t", " ").rstrip() for l in body]
    body = [l if len(l) <= width else l[:width - 3] + "..." for l in body if l.strip()]
    if len(body) > limit:
        body = body[:limit] + [f"... {len(body) - limit} more lines in the grader's log, labs.log"]
    return body


def ctest_regex(names):
    """A ctest -R regex matching exactly these test names."""
    return "^(" + "|".join(re.sub(r"([.\[\]()*+?^$|\\])", r"\\\1", n) for n in names) + ")$"


# The watchdog's diagnosis of the replayed events (src/instrument/timeline.cpp), not its other
# lines.
DIAGNOSIS = re.compile(r"WATCHDOG: (?!no progress|each thread's events|deadlock, exiting)([^\n]*)")


# The watchdog's first line: what the run was doing, and the test's own report of its state.
STUCK = re.compile(r"WATCHDOG: no progress for [\d.]+ s (while [^\n]*)")


# What the library prints before it aborts (a pool destroyed with callers waiting, an exception
# escaping a job nobody waits for), "mini: ..." on a line of its own, or the C++ runtime's
# std::terminate (a bare `throw;` with no exception current, an exception out of a noexcept).
ABORTED = re.compile(r"^(mini: [^\n]*|terminate called [^\n]*)", re.M)


def failure_detail(out):
    """What a failed ctest or driver said: the first failing test, how it ended, the check's
    expansion, the library's message before an abort, and the watchdog's diagnosis of the
    replayed events."""
    parts = []
    test = re.search(r"\d+ - (\S+\.[^\n]*?) \((Failed|Timeout|[^)]*)\)", out)
    if test:
        parts.append(f"`{test.group(1)}`")
    how = symptom(out)
    aborted = ABORTED.search(out) if "Subprocess aborted" in out else None
    if aborted:  # the library's own message before its abort, not Catch2's "check failed"
        parts.append(f"it aborted: {aborted.group(1)}")
    else:
        parts.append({"watchdog": "hung: the watchdog ended it (exit 3)",
                      "ctest timeout": "hung past the ctest timeout",
                      "assertion": "a check failed"}.get(how, how))
    # the expansion's first line; its other lines (a long one is split: left, ==, right), then
    # the test's INFO, if any
    check = re.search(r"((?:CHECK|REQUIRE)\w*\( .* \))\nwith expansion:\n\s*([^\n]*)"
                      r"(?:\n[ \t]+[^\n]*)*(?:\nwith messages?:\n((?:[ \t]+[^\n]*\n?)+))?", out)
    if check:
        parts.append(f"{check.group(1)} with {check.group(2)}")
        if check.group(3):  # the test's INFO (Catch2 wraps it): what the failed check means
            parts.append("the test says: " + " ".join(check.group(3).split()))
    diag = DIAGNOSIS.search(out)
    stuck = STUCK.search(out)
    if diag:
        parts.append(f"the watchdog's replay: {diag.group(1)}")
    elif stuck:  # no pattern in the replay: what the test says it was waiting for
        parts.append(f"stuck {stuck.group(1)}")
    return ", ".join(parts)


VARIANTS = Path(__file__).resolve().parent / "variants.ini"


@dataclass
class Variant:
    """A fixture of the grader's proof (variants.ini): a learner's steps and the verdict they
    must get."""
    name: str
    step: str  # "" when every step must grade ok, else the one step that must not
    checks: tuple  # the checks that may decide that step
    why: str
    bodies: dict  # step -> lines
    says: str = ""  # a regex the verdict of `step` must match (its message), if given

    def text(self, source):
        """The marked source with the variant's steps in place of the source's."""
        return labs.fill(source, {n: [f"        {l}" if l else "" for l in b]
                                  for n, b in self.bodies.items()})


def variants(lab, table=None):
    """[Variant] of `lab`, in the table's order."""
    cp = configparser.ConfigParser(interpolation=None, comment_prefixes=("#",),
                                   inline_comment_prefixes=None, empty_lines_in_values=False)
    cp.optionxform = str
    cp.read_string(table if table is not None else VARIANTS.read_text(encoding="utf-8"))
    out = []
    for section in cp.sections():
        name_lab, _, name = section.partition(".")
        if name_lab != lab:
            continue
        row = dict(cp[section])
        intent = row.pop("intent").split()
        why = row.pop("why")
        says = row.pop("says", "").strip()
        step, checks = ("", ()) if intent == ["ok"] else (intent[0], tuple(intent[1].split("|")))
        bodies = {n: [l.strip() for l in b.strip().split("\n")] for n, b in row.items()}
        out.append(Variant(name, step, checks, why, bodies, says))
    return out
