#!/usr/bin/env python3
"""compare_instructions.py -- instructions per join and per outside round trip, beside the timing.

  python3 apps/compare_instructions.py [--compare PATH] [--threads N] [--producers N] [--runs N]
                                       [--rounds N] [--runtimes LIST] [--futex] [--quick]
  python3 apps/compare_instructions.py --self-test

A timing on a shared 2-core machine moves by tens of percent from one minute to the next; the
number of instructions a workload executes does not. This runs `compare` twice (chapter 6):

1. natively, `compare THREADS RUNS --rows join1,trip`, for the timings (medians of RUNS runs);
2. under `valgrind --tool=callgrind`, one run, where compare brackets each workload with client
   requests (apps/compare/callgrind.hpp): the costs of every thread are zeroed before it and
   dumped, labelled, after it. Each dump's total, divided by the joins or trips the workload made,
   is the figure: instructions per join (fib(30), every call a join, on a one-thread pool: the
   serial column is the same recursion without join) and per outside round trip (one tiny job
   installed from a thread outside a pool of THREADS, default 1, and waited for).

The instructions are user-space instructions of every thread, the idle workers' search rounds
included; the kernel's side of a futex or sched_yield call is not in them, which is what --futex
adds: one native `strace -f -c` run of the round trip per runtime, futex and sched_yield calls per
trip (strace slows every system call, so these counts show who sleeps, not how fast). Under
valgrind the threads of the process take turns on one core, so the round trip's count is that of
a single-core schedule: steady from run to run (within about 1%), but not the two-core figure.
"""
import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import unittest

RUNTIMES = ["serial", "mini", "mini-pw", "rayon", "oneTBB", "OpenMP"]
# compare's row labels (apps/compare/rows.hpp) and the keys of its --rows and dump labels
# (apps/compare/workloads.hpp).
JOIN_LABEL = re.compile(r"^join, fib\(\d+\), 1 thread \[ns/join\]")
TRIP_LABEL = re.compile(r"^wake-up round trip \[us/trip\]")
CPU_LABEL = re.compile(r"^  CPU per round trip \[us/trip\]")
SUM_LABEL = re.compile(r"^sum of \d+ u64 \[ms\]")
FIB_LABEL = re.compile(r"^fib\(\d+\), cutoff \d+ \[ms\]")
DUMP_LABEL = re.compile(r"^desc: Trigger: Client Request: compare (\S+) (\S+) run (\S+) per (\d+)$")


def parse_table(text):
    """compare's table as {label: {runtime: median}}: the cells are cut at the header's column
    starts (compare pads every column to its widest cell), and a cell's first number is the
    median; a cell with no number (n/a, empty, not built) is left out."""
    lines = text.splitlines()
    header = next((i for i, l in enumerate(lines) if l.startswith("workload [unit]")), None)
    if header is None:
        return {}
    names = [n for n in RUNTIMES if re.search(rf"\s{re.escape(n)}(\s|$)", lines[header])]
    starts = [re.search(rf"\s{re.escape(n)}(\s|$)", lines[header]).start() + 1 for n in names]
    bounds = list(zip(names, starts, starts[1:] + [None]))
    table = {}
    for line in lines[header + 1:]:
        if not line.strip() or not line.startswith((" ", *map(chr, range(ord("a"), ord("z") + 1)))):
            break
        label = line[: starts[0]].rstrip() if starts else line
        cells = {}
        for name, lo, hi in bounds:
            m = re.match(r"\s*(\d+(?:\.\d+)?) \[", line[lo:hi])
            if m:
                cells[name] = float(m.group(1))
        table[label] = cells
    return table


def row(table, pattern):
    """The cells of the first row whose label matches `pattern`, or {}."""
    return next((cells for label, cells in table.items() if pattern.match(label)), {})


def parse_dump(text):
    """(row, runtime, run, per, instructions) of one callgrind dump that compare labelled, else
    None. The instructions are the dump's `summary:` (or `totals:`) line, the Ir of all threads."""
    label = total = None
    for line in text.splitlines():
        m = DUMP_LABEL.match(line)
        if m:
            label = m.groups()
        elif line.startswith(("summary:", "totals:")) and total is None:
            total = int(line.split()[1])
    if label is None or total is None:
        return None
    key, runtime, run, per = label
    return key, runtime, run, int(per), total


def per_unit(dumps):
    """{(row, runtime): (median, min, max)} of the instructions per join or trip over the runs;
    warm-up measurements (compare's first, unrecorded round) are left out."""
    runs = {}
    for key, runtime, run, per, total in dumps:
        if run != "warm-up" and per > 0:
            runs.setdefault((key, runtime), []).append(total / per)
    return {k: (statistics.median(v), min(v), max(v)) for k, v in runs.items()}


def parse_strace(text):
    """{syscall: calls} from the summary table of `strace -c`."""
    calls = {}
    for line in text.splitlines():
        f = line.split()
        # % time, seconds, usecs/call, calls, [errors], syscall
        if len(f) >= 5 and re.fullmatch(r"\d+\.\d+", f[0]) and f[-1] != "total":
            calls[f[-1]] = int(f[3])
    return calls


def fmt(v):
    if v is None:
        return "-"
    return f"{v:.0f}" if v >= 100 else f"{v:.1f}" if v >= 10 else f"{v:.2f}"


def render(names, lines):
    """A table: `lines` are (label, {runtime: value or (median, min, max)}); each cell also gives
    its ratio to mini."""
    text = [["workload [unit]"] + names]
    median = lambda v: v[0] if isinstance(v, tuple) else v
    for label, cells in lines:
        out = [label]
        for n in names:
            v = median(cells.get(n))
            c = fmt(v)
            if isinstance(cells.get(n), tuple) and fmt(cells[n][2]) != fmt(cells[n][1]):
                c += f" [{fmt(cells[n][1])}–{fmt(cells[n][2])}]"
            base = median(cells.get("mini"))
            if v is not None and base and n not in ("mini", "serial"):
                c += f" ×{v / base:.2f}"
            out.append(c)
        text.append(out)
    widths = [max(len(r[c]) for r in text) for c in range(len(text[0]))]
    return "\n".join("  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip() for r in text)


def run(cmd, **kw):
    print("$", " ".join(cmd), file=sys.stderr, flush=True)
    p = subprocess.run(cmd, capture_output=True, text=True, **kw)
    if p.returncode != 0:
        sys.exit(f"{cmd[0]} exited {p.returncode}:\n{p.stdout}\n{p.stderr}")
    return p


def main(argv):
    if argv == ["--self-test"]:
        result = unittest.main(argv=["compare_instructions"], exit=False).result
        return 0 if result.wasSuccessful() else 1
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--compare", default="build/release/apps/compare")
    ap.add_argument("--threads", type=int, default=1, help="threads of the round trip's pool")
    ap.add_argument("--producers", type=int, default=1)
    ap.add_argument("--runs", type=int, default=5, help="native runs, for the timing medians")
    ap.add_argument("--rounds", type=int, default=1000, help="round trips under callgrind")
    ap.add_argument("--valgrind-runs", type=int, default=3, help="runs under callgrind")
    ap.add_argument("--runtimes", default=",".join(RUNTIMES))
    ap.add_argument("--futex", action="store_true", help="also futex calls per trip (strace)")
    ap.add_argument("--leaves", action="store_true",
                    help="also the sum (per element) and fib(36)/15 (per run), at THREADS")
    ap.add_argument("--quick", action="store_true", help="compare's --quick sizes (the tests)")
    a = ap.parse_args(argv)
    if not shutil.which("valgrind"):
        sys.exit("valgrind not found (Debian: apt-get install valgrind)")
    # Under valgrind, a pool of THREADS for the round trip; the join row always has one thread.
    keys = "join1,trip" + (",sum,fib" if a.leaves else "")
    rows = ["--rows", keys, "--producers", str(a.producers), "--runtimes", a.runtimes]
    rows += ["--quick"] if a.quick else []
    native = run([a.compare, str(a.threads), str(a.runs), *rows]).stdout
    table = parse_table(native)
    with tempfile.TemporaryDirectory() as tmp:
        run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={tmp}/cg.%p",
             a.compare, str(a.threads), str(a.valgrind_runs), *rows, "--rounds", str(a.rounds), "--watchdog", "600"])
        dumps = []
        for f in os.listdir(tmp):
            with open(os.path.join(tmp, f), encoding="utf-8", errors="replace") as fh:
                d = parse_dump(fh.read())
            if d:
                dumps.append(d)
    counts = per_unit(dumps)
    names = [n for n in RUNTIMES if n.lower() in a.runtimes.lower().split(",")]
    instr = lambda key: {n: counts[(key, n)] for n in names if (key, n) in counts}
    lines = [("join, 1 thread [instructions/join]", instr("join1")),
             ("join, 1 thread [ns/join]", row(table, JOIN_LABEL)),
             (f"outside round trip, {a.threads} thread{'s' * (a.threads > 1)} [instructions/trip]", instr("trip")),
             ("outside round trip [us/trip]", row(table, TRIP_LABEL)),
             ("  CPU per round trip [us/trip]", row(table, CPU_LABEL))]
    if a.leaves:
        lines += [(f"sum, {a.threads} thread{'s' * (a.threads > 1)} [instructions/element]", instr("sum")),
                  ("sum [ms]", row(table, SUM_LABEL)),
                  (f"fib(36)/15, {a.threads} thread{'s' * (a.threads > 1)} [instructions/run]", instr("fib")),
                  ("fib(36)/15 [ms]", row(table, FIB_LABEL))]
    if a.futex and shutil.which("strace"):
        futex, yields = {}, {}
        trips = a.producers * (50 if a.quick else 10000)
        for n in names:
            if n in ("serial", "OpenMP"):
                continue  # no round trip (compare: OpenMP has no install)
            p = run(["strace", "-f", "-c", "-e", "trace=futex,sched_yield", a.compare,
                     str(a.threads), "1", "--rows", "trip", "--producers", str(a.producers),
                     "--runtimes", n, *(["--quick"] if a.quick else [])])
            calls = parse_strace(p.stderr)
            futex[n] = calls.get("futex", 0) / trips
            yields[n] = calls.get("sched_yield", 0) / trips
        lines += [("  futex calls per trip (strace)", futex),
                  ("  sched_yield calls per trip (strace)", yields)]
    print(render(names, lines))
    print(f"instructions: callgrind, user space, all threads, median [min–max] of "
          f"{a.valgrind_runs} runs ({a.rounds} trips each); times: median of {a.runs} native "
          f"runs; ×r: / mini's")
    return 0


class SelfTest(unittest.TestCase):
    TABLE = (
        "run 1/1 done in 0.2 s\n\n"
        "workload [unit]                          serial                  mini              "
        "rayon                   oneTBB       OpenMP\n"
        "join, fib(30), 1 thread [ns/join]        2.76 [2.76–2.76] ×0.19  14.3 [14.3–14.3]  "
        "40.3 [40.3–40.3] ×2.81\n"
        "wake-up round trip [us/trip]             n/a                     9.21 [9.21–9.21]  "
        "12.6 [12.6–12.6] ×1.36               n/a [1]\n"
        "  CPU per round trip [us/trip]           n/a                     9.20 [9.20–9.20]  "
        "12.2 [12.2–12.2] ×1.32               n/a [1]\n"
        "sum of 16777216 u64 [ms]                 n/a                     3.36 [3.09–4.77]  "
        "3.09 [2.69–5.88] ×0.92\n"
        "fib(36), cutoff 15 [ms]                  n/a                     19.3 [18.2–27.4]\n"
        "mini's counters per run, median [min–max]:\n")

    def test_table_cells_by_column(self):
        t = parse_table(self.TABLE)
        self.assertEqual(row(t, JOIN_LABEL), {"serial": 2.76, "mini": 14.3, "rayon": 40.3})
        self.assertEqual(row(t, TRIP_LABEL), {"mini": 9.21, "rayon": 12.6})
        self.assertEqual(row(t, CPU_LABEL), {"mini": 9.2, "rayon": 12.2})
        self.assertEqual(row(t, SUM_LABEL), {"mini": 3.36, "rayon": 3.09})
        self.assertEqual(row(t, FIB_LABEL), {"mini": 19.3})
        self.assertNotIn("mini's counters per run, median [min–max]:", t)

    def test_no_table(self):
        self.assertEqual(parse_table("all results correct\n"), {})

    DUMP = ("# callgrind format\nversion: 1\npart: 9\n\ndesc: I1 cache: \n"
            "desc: Trigger: Client Request: compare join1 mini run 1 per 1346268\n\n"
            "positions: line\nevents: Ir\nsummary: 236628895\n\nfl=(1) x\n")

    def test_dump(self):
        self.assertEqual(parse_dump(self.DUMP), ("join1", "mini", "1", 1346268, 236628895))
        end = self.DUMP.replace("Client Request: compare join1 mini run 1 per 1346268",
                                "Program termination")
        self.assertIsNone(parse_dump(end))  # the final dump, not a workload's

    def test_per_unit_median_without_warm_up(self):
        dumps = [("trip", "mini", "warm-up", 10, 10 ** 6), ("trip", "mini", "1", 10, 1000),
                 ("trip", "mini", "2", 10, 3000), ("trip", "mini", "3", 10, 2000)]
        self.assertEqual(per_unit(dumps), {("trip", "mini"): (200, 100, 300)})

    def test_strace_summary(self):
        text = ("% time     seconds  usecs/call     calls    errors syscall\n"
                "------ ----------- ----------- --------- --------- ----------------\n"
                " 92.31    0.120000           6     20011      1203 futex\n"
                "  7.69    0.010000           1     10002           sched_yield\n"
                "------ ----------- ----------- --------- --------- ----------------\n"
                "100.00    0.130000           4     30013      1203 total\n")
        self.assertEqual(parse_strace(text), {"futex": 20011, "sched_yield": 10002})

    def test_render_ratios_to_mini(self):
        out = render(["serial", "mini", "rayon"], [("x", {"serial": 37.7, "mini": 175.8,
                                                          "rayon": 204.4})])
        self.assertIn("176", out)
        self.assertIn("204 ×1.16", out)
        self.assertNotIn("37.7 ×", out)
        ranged = render(["mini", "rayon"], [("x", {"mini": (1400, 1300, 1600), "rayon": 2100})])
        self.assertIn("1400 [1300–1600]", ranged)
        self.assertIn("2100 ×1.50", ranged)
        self.assertTrue(render(["mini"], [("x", {"mini": (176.01, 175.99, 176.02)})]).endswith(" 176"))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
