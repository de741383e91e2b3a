#!/usr/bin/env python3
"""check_trace.py -- runs a driver with --trace and checks the Chrome trace it wrote.

  python3 tests/check_trace.py FILE [--exit N] [--track NAME ...] -- COMMAND...
  python3 tests/check_trace.py --self-test

Runs COMMAND (it must exit with N, default 0), then checks FILE: valid JSON with a "traceEvents"
list; one track per thread (every tid named by exactly one thread_name event, no event on an
unnamed tid); on every track the slices are balanced (each "E" closes the innermost open "B" of
the same name, none left open) and in time order; instant events have a scope; at least one slice
in the whole trace; and a track for each NAME given.
"""
import json
import subprocess
import sys
import unittest


def problems(trace, tracks=()):
    """Everything wrong with a parsed trace, as a list of messages (empty: it is fine)."""
    out = []
    events = trace.get("traceEvents") if isinstance(trace, dict) else None
    if not isinstance(events, list):
        return ['no "traceEvents" list']
    names, slices = {}, 0
    for e in events:
        if e.get("ph") == "M" and e.get("name") == "thread_name":
            if e["tid"] in names:
                out.append(f"tid {e['tid']} named twice: {names[e['tid']]!r}, {e['args']['name']!r}")
            names[e["tid"]] = e["args"]["name"]
    open_slices, last_time = {}, {}
    for e in events:
        ph, tid = e.get("ph"), e.get("tid")
        if ph == "M":
            continue
        if tid not in names:
            out.append(f"event {e.get('name')!r} on tid {tid}, which no thread_name names")
            continue
        if e.get("ts", -1) < last_time.get(tid, 0):
            out.append(f"tid {tid}: {e.get('name')!r} at {e.get('ts')} goes back in time")
        last_time[tid] = e.get("ts", 0)
        stack = open_slices.setdefault(tid, [])
        if ph == "B":
            stack.append(e["name"])
            slices += 1
        elif ph == "E":
            if not stack or stack[-1] != e["name"]:
                out.append(f"tid {tid}: end of {e['name']!r} does not close the open slice "
                           f"{stack[-1] if stack else None!r}")
            else:
                stack.pop()
        elif ph == "i":
            if e.get("s") not in ("t", "p", "g"):
                out.append(f"tid {tid}: instant {e.get('name')!r} without a scope")
        else:
            out.append(f"tid {tid}: unexpected phase {ph!r}")
    for tid, stack in open_slices.items():
        if stack:
            out.append(f"tid {tid} ({names[tid]}): slices left open: {stack}")
    if slices == 0:
        out.append("no slice at all")
    for name in tracks:
        if name not in names.values():
            out.append(f"no track named {name!r} (tracks: {sorted(set(names.values()))})")
    return out


def main(argv):
    if argv == ["--self-test"]:
        result = unittest.main(argv=["check_trace"], exit=False).result
        return 0 if result.wasSuccessful() else 1
    if "--" not in argv:
        print(__doc__)
        return 2
    sep = argv.index("--")
    opts, cmd = argv[:sep], argv[sep + 1:]
    path, want_exit, tracks = opts[0], 0, []
    i = 1
    while i < len(opts):
        if opts[i] == "--exit":
            want_exit = int(opts[i + 1])
        elif opts[i] == "--track":
            tracks.append(opts[i + 1])
        i += 2
    code = subprocess.run(cmd).returncode
    if code != want_exit:
        print(f"check_trace: {' '.join(cmd)} exited {code}, expected {want_exit}")
        return 1
    try:
        with open(path) as f:
            trace = json.load(f)
    except (OSError, ValueError) as err:
        print(f"check_trace: {path}: {err}")
        return 1
    found = problems(trace, tracks)
    for p in found:
        print(f"check_trace: {path}: {p}")
    if not found:
        n = sum(1 for e in trace["traceEvents"] if e.get("name") == "thread_name")
        print(f"check_trace: {path}: valid, {len(trace['traceEvents'])} events on {n} tracks")
    return 1 if found else 0


def named(tid, name):
    return {"ph": "M", "name": "thread_name", "pid": 1, "tid": tid, "ts": 0,
            "args": {"name": name}}


def ev(ph, tid, name, ts):
    e = {"ph": ph, "pid": 1, "tid": tid, "name": name, "ts": ts}
    if ph == "i":
        e["s"] = "t"
    return e


class SelfTest(unittest.TestCase):
    def test_a_good_trace_passes(self):
        t = {"traceEvents": [named(1, "worker 0"), ev("B", 1, "job 1", 1), ev("i", 1, "steal", 2),
                             ev("E", 1, "job 1", 3)]}
        self.assertEqual(problems(t, ["worker 0"]), [])

    def test_an_unclosed_slice_fails(self):
        t = {"traceEvents": [named(1, "w"), ev("B", 1, "job 1", 1)]}
        self.assertIn("left open", problems(t)[0])

    def test_crossed_slices_fail(self):
        t = {"traceEvents": [named(1, "w"), ev("B", 1, "a", 1), ev("B", 1, "b", 2),
                             ev("E", 1, "a", 3), ev("E", 1, "b", 4)]}
        self.assertTrue(any("does not close" in p for p in problems(t)))

    def test_an_unnamed_or_twice_named_track_fails(self):
        t = {"traceEvents": [named(1, "w"), named(1, "v"), ev("B", 1, "a", 1), ev("E", 1, "a", 2),
                             ev("i", 2, "x", 3)]}
        p = problems(t)
        self.assertTrue(any("named twice" in x for x in p))
        self.assertTrue(any("no thread_name" in x for x in p))

    def test_a_missing_track_and_no_slice_fail(self):
        p = problems({"traceEvents": [named(1, "w"), ev("i", 1, "x", 1)]}, ["worker 1"])
        self.assertEqual(len(p), 2)

    def test_not_a_trace_fails(self):
        self.assertEqual(problems([]), ['no "traceEvents" list'])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
