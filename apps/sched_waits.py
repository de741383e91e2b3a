#!/usr/bin/env python3
"""sched_waits.py -- where the kernel ran a program's woken threads, from its scheduler trace.

  python3 apps/sched_waits.py TRACE COMM
  python3 apps/sched_waits.py --self-test

TRACE is the text of the kernel's trace buffer (/sys/kernel/tracing/trace) taken with the events
sched:sched_wakeup and sched:sched_switch on, while the program ran (appendix-measuring.md shows
the commands). COMM is the program's name (`demos`): its threads are those the trace names so.
They are numbered by thread id, so in the order they were made, 0 being the main thread.

For each thread it prints the milliseconds it ran, the milliseconds it was ready to run but
waited for a CPU (from a wake-up, or from losing its CPU while still runnable, to running again),
how often it was woken, and how often a wake-up put it on a CPU that was running something (its
waker, mostly) while another CPU ran nothing. A worker woken there waits for the first thread, or
shares its CPU with it, until the idle CPU pulls it over.
"""
import collections
import re
import sys
import unittest

SWITCH = re.compile(r"\[(\d+)\]\s.*?\s(\d+\.\d+): sched_switch: prev_comm=(.*?) prev_pid=(\d+) "
                    r".*?prev_state=(\S+) ==> next_comm=(.*?) next_pid=(\d+)")
WAKEUP = re.compile(r"\s(\d+\.\d+): sched_wakeup: comm=(.*?) pid=(\d+) .*?target_cpu=(\d+)")


class Thread:
    def __init__(self):
        self.ran = self.waited = 0.0
        self.wakes = self.stacked = 0


def waits(lines, comm):
    """{tid: Thread} for the threads named `comm`, from the trace's lines."""
    threads = collections.defaultdict(Thread)
    on_cpu = {}     # cpu -> tid running there (0: idle)
    since = {}      # tid -> when it began to run
    ready = {}      # tid -> when it became runnable without running
    for line in lines:
        m = SWITCH.search(line)
        if m:
            cpu, ts = int(m.group(1)), float(m.group(2))
            prev, state, nxt = int(m.group(4)), m.group(5), int(m.group(7))
            if prev in since:
                threads[prev].ran += ts - since.pop(prev)
                if state.startswith("R"):
                    ready[prev] = ts  # preempted: still runnable
            if m.group(6) == comm:
                since[nxt] = ts
                if nxt in ready:
                    threads[nxt].waited += ts - ready.pop(nxt)
            on_cpu[cpu] = nxt
            continue
        m = WAKEUP.search(line)
        if m and m.group(2) == comm:
            ts, tid, target = float(m.group(1)), int(m.group(3)), int(m.group(4))
            t = threads[tid]
            t.wakes += 1
            ready[tid] = ts
            idle_elsewhere = any(c != target and r == 0 for c, r in on_cpu.items())
            if on_cpu.get(target, 0) != 0 and idle_elsewhere:
                t.stacked += 1
    return threads


def report(threads):
    out = []
    for i, tid in enumerate(sorted(threads)):
        t = threads[tid]
        out.append(f"thread {i} ({tid}): ran {t.ran * 1e3:.1f} ms, waited for a CPU "
                   f"{t.waited * 1e3:.1f} ms, woken {t.wakes} times, {t.stacked} of them onto a "
                   f"busy CPU while another was idle")
    return "\n".join(out)


class SelfTest(unittest.TestCase):
    # Two CPUs. Worker 11 wakes worker 12 onto its own CPU 0 while CPU 1 is idle; 12 waits
    # 0.3 ms, runs 0.2 ms on CPU 0 and sleeps; 11 is preempted by 12 (runnable, waits 0.2 ms).
    TRACE = """\
 <idle>-0 [001] d..2. 10.000000: sched_switch: prev_comm=swapper/1 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=swapper/1 next_pid=0 next_prio=120
 demos-11 [000] d..2. 10.000000: sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=demos next_pid=11 next_prio=120
 demos-11 [000] d..2. 10.001000: sched_wakeup: comm=demos pid=12 prio=120 target_cpu=000
 demos-11 [000] d..2. 10.001300: sched_switch: prev_comm=demos prev_pid=11 prev_prio=120 prev_state=R+ ==> next_comm=demos next_pid=12 next_prio=120
 demos-12 [000] d..2. 10.001500: sched_switch: prev_comm=demos prev_pid=12 prev_prio=120 prev_state=S ==> next_comm=demos next_pid=11 next_prio=120
 other-40 [001] d..2. 10.002000: sched_wakeup: comm=other pid=41 prio=120 target_cpu=001
"""

    def test_counts(self):
        t = waits(self.TRACE.splitlines(), "demos")
        self.assertEqual(sorted(t), [11, 12])
        self.assertEqual((t[12].wakes, t[12].stacked), (1, 1))
        self.assertAlmostEqual(t[12].waited, 0.0003)
        self.assertAlmostEqual(t[12].ran, 0.0002)
        self.assertAlmostEqual(t[11].waited, 0.0002)
        self.assertAlmostEqual(t[11].ran, 0.0013)

    def test_wake_onto_idle_cpu_is_not_stacked(self):
        lines = self.TRACE.splitlines()[:2] + [
            " demos-11 [000] d..2. 10.001000: sched_wakeup: comm=demos pid=12 prio=120 target_cpu=001"]
        self.assertEqual(waits(lines, "demos")[12].stacked, 0)

    def test_report_numbers_threads_by_id(self):
        text = report(waits(self.TRACE.splitlines(), "demos"))
        self.assertTrue(text.startswith("thread 0 (11): ran 1.3 ms"))
        self.assertIn("thread 1 (12): ran 0.2 ms, waited for a CPU 0.3 ms, woken 1 times, 1 of", text)


def main(argv):
    if argv[1:] == ["--self-test"]:
        return 0 if unittest.main(argv=[argv[0]], exit=False).result.wasSuccessful() else 1
    if len(argv) != 3:
        print(__doc__.strip().split("\n\n")[1], file=sys.stderr)
        return 2
    try:
        with open(argv[1]) as f:
            threads = waits(f, argv[2])
    except OSError as e:
        print(f"sched_waits.py: {e}", file=sys.stderr)
        return 2
    if not threads:
        print(f"sched_waits.py: no thread named {argv[2]} in {argv[1]}", file=sys.stderr)
        return 1
    print(report(threads))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
