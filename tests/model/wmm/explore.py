"""The executions of a small concurrent program, enumerated in the axiomatic (herd) style.

A program is a list of thread functions over named locations, each called with a Thread `m`
whose methods are the C++ atomic operations (m.load, m.store, m.cas, m.exchange, m.fence). Every
location starts at 0 unless the program's `init` says otherwise. The explorer:

1. enumerates each thread's traces on its own, by running the function again and again: each
   load returns a guessed value from the location's finite value domain, and each run follows one
   combination of guesses (the domain is the fixpoint of "every value some trace can store");
2. combines one trace per thread, picks for each read a write of the same value to read from
   (rf) and for each location a total order of its writes (mo);
3. keeps the candidates that rc11.consistent accepts.

A load is a guess, and the axioms decide if some write justifies it; that is what lets a read
see a write that comes later in another thread's program order (load buffering), which an
interleaving explorer (SPIN, loom) never produces. README.md (tests/model/wmm/README.md) says
what is modelled, what is left out and how to add a program.
"""
import itertools
from dataclasses import dataclass

ORDERS = ("rlx", "acq", "rel", "acq_rel", "sc")


@dataclass(frozen=True)
class Event:
    tid: int  # -1 for the initial writes
    idx: int  # position in the thread's trace
    kind: str  # "R" load, "W" store, "U" successful RMW (reads and writes), "F" fence
    loc: str = None
    rval: int = None  # the value read (R, U)
    wval: int = None  # the value written (W, U)
    order: str = "rlx"
    what: str = ""  # the source line it stands for, for counterexamples

    @property
    def reads(self):
        return self.kind in "RU"

    @property
    def writes(self):
        return self.kind in "WU"

    def __str__(self):
        who = "init" if self.tid < 0 else f"T{self.tid}.{self.idx}"
        if self.kind == "F":
            body = f"fence({self.order})"
        elif self.kind == "R":
            body = f"{self.loc}.load({self.order}) = {self.rval}"
        elif self.kind == "W":
            body = f"{self.loc}.store({self.wval}, {self.order})"
        else:
            body = f"{self.loc}.rmw({self.rval} -> {self.wval}, {self.order})"
        return f"{who} {body}" + (f"  [{self.what}]" if self.what else "")


class _NeedValue(Exception):
    def __init__(self, loc):
        self.loc = loc


class _Pruned(Exception):
    pass


class Thread:
    """What a thread function sees: the atomic operations, each recorded as an event."""

    def __init__(self, tid, guesses):
        self.tid, self._guesses, self.events = tid, guesses, []

    def _read(self, loc):
        n = sum(1 for e in self.events if e.reads)
        if n >= len(self._guesses):
            raise _NeedValue(loc)
        return self._guesses[n]

    def _add(self, kind, loc=None, rval=None, wval=None, order="rlx", what=""):
        assert order in ORDERS, order
        self.events.append(Event(self.tid, len(self.events), kind, loc, rval, wval, order, what))

    def load(self, loc, order="rlx", what=""):
        v = self._read(loc)
        self._add("R", loc, rval=v, order=order, what=what)
        return v

    def store(self, loc, value, order="rlx", what=""):
        self._add("W", loc, wval=value, order=order, what=what)

    def exchange(self, loc, value, order="rlx", what=""):
        v = self._read(loc)
        self._add("U", loc, rval=v, wval=value, order=order, what=what)
        return v

    def fetch_add(self, loc, n, order="rlx", what=""):
        v = self._read(loc)
        self._add("U", loc, rval=v, wval=v + n, order=order, what=what)
        return v

    def fetch_sub(self, loc, n, order="rlx", what=""):
        return self.fetch_add(loc, -n, order, what)

    def cas(self, loc, expected, desired, success="sc", failure="rlx", what=""):
        """compare_exchange_strong: (won, the value read). A failed CAS is a load."""
        v = self._read(loc)
        if v == expected:
            self._add("U", loc, rval=v, wval=desired, order=success, what=what)
            return True, v
        self._add("R", loc, rval=v, order=failure, what=what + " (fails)")
        return False, v

    def fence(self, order="sc", what=""):
        self._add("F", order=order, what=what)

    def assume(self, cond):
        """Executions in which cond is false are left out (a bound, not a check)."""
        if not cond:
            raise _Pruned()


def traces(fn, tid, domain, cut=None):
    """Every (events, result) of thread function fn whose loads read values from domain. The
    events of a trace that an assume() cut are appended to cut: the values they store join the
    domain too, as a later round of the domain fixpoint may let the trace through."""
    out, todo = [], [[]]
    while todo:
        guesses = todo.pop()
        m = Thread(tid, guesses)
        try:
            result = fn(m)
        except _NeedValue as need:
            todo.extend(guesses + [v] for v in sorted(domain.get(need.loc, {0}), reverse=True))
            continue
        except _Pruned:
            if cut is not None:
                cut.append(tuple(m.events))
            continue
        out.append((tuple(m.events), result))
    return out


def _write_bound(per_thread):
    """How many writes that some load may read one execution can hold: the sum over threads of
    the most that one trace of the thread makes to a location that some trace reads."""
    read = {e.loc for lists in per_thread for events in lists for e in events if e.reads}
    return sum(max((sum(e.writes and e.loc in read for e in events) for events in lists),
                   default=0)
               for lists in per_thread)


def all_traces(threads, init, rounds=32):
    """Each thread's traces over the value-domain fixpoint (init values, then stored values).

    A value is kept with its depth: 0 for an initial value; for a value written after loads
    that read values of depth at most d (its own read, for an RMW), d + 1 (the explorer cannot
    see which loads a value is computed from, so it takes all of them). In an execution whose
    sb ∪ rf is acyclic, a written value of depth d needs a chain of d writes, each reading the
    one before, so the domain keeps the depths up to the number of writes one execution can
    hold (_write_bound; the domain is only what loads guess, so writes to a location that no
    load reads do not count). That bounds a counter's values (a fetch_add reads its own last write
    back in the next round, forever, without the bound). A program whose number of writes
    keeps growing with the values it reads has no fixpoint: after `rounds` rounds that is an
    error."""
    depth = {loc: {v: 0} for loc, v in init.items()}
    for _ in range(rounds):
        domain = {loc: set(ds) for loc, ds in depth.items()}
        cut = [[] for _ in threads]
        per = [traces(fn, tid, domain, cut[tid]) for tid, fn in enumerate(threads)]
        lists = [[evs for evs, _ in ts] + cut[tid] for tid, ts in enumerate(per)]
        bound = _write_bound(lists)
        grown = {loc: dict(ds) for loc, ds in depth.items()}
        for events in (evs for ls in lists for evs in ls):
            read = 0  # the deepest value this trace has read so far
            for e in events:
                if e.reads:
                    read = max(read, depth.get(e.loc, {0: 0}).get(e.rval, 0))
                    grown.setdefault(e.loc, {0: 0})
                if e.writes and read + 1 <= bound:
                    ds = grown.setdefault(e.loc, {0: 0})
                    ds[e.wval] = min(ds.get(e.wval, read + 1), read + 1)
        if grown == depth:
            return per
        depth = grown
    raise ValueError("the value domain does not converge: "
                     f"{ {loc: sorted(ds) for loc, ds in depth.items()} }")


@dataclass
class Execution:
    events: list  # the initial writes first, then each thread's events in program order
    rf: dict  # read index -> write index
    mo: dict  # location -> write indices in modification order
    results: tuple  # each thread function's return value

    def final(self, loc):
        return self.events[self.mo[loc][-1]].wval

    def explain(self):
        """The execution as text: each read with the write it read from."""
        lines = []
        for i, e in enumerate(self.events):
            if e.tid < 0:
                continue
            line = f"  {e}"
            if i in self.rf:
                w = self.events[self.rf[i]]
                line += f"\n      reads from {'init' if w.tid < 0 else f'T{w.tid}.{w.idx}'}"
                if w.tid >= 0 and w.tid != e.tid:
                    line += f" ({w.loc} = {w.wval}, {w.what or w.kind})"
            lines.append(line)
        mo = [f"{loc}: " + " < ".join(str(self.events[w].wval) +
                                      ("@init" if self.events[w].tid < 0 else
                                       f"@T{self.events[w].tid}.{self.events[w].idx}")
                                      for w in ws)
              for loc, ws in sorted(self.mo.items()) if len(ws) > 1]
        return "\n".join(lines + ["  modification order: " + "; ".join(mo)])


def _mo_orders(events, writes, rf):
    """The modification orders of one location's writes (the initial write first) in which each
    RMW comes right after the write it read from (atomicity) and a thread's writes keep their
    program order (coherence); the rest rc11 checks."""
    after = {}
    for w in writes:
        if events[w].kind == "U":
            src = rf[w]
            if src in after:
                return  # two RMWs read the same write: one of them breaks atomicity
            after[src] = w
    heads = [w for w in writes if not (events[w].kind == "U" and rf[w] in writes)]
    chains = {}
    for h in heads:
        chain = [h]
        while chain[-1] in after:
            chain.append(after[chain[-1]])
        chains[h] = chain
    if sum(len(c) for c in chains.values()) != len(writes):
        return  # an RMW cycle
    init = [h for h in heads if events[h].tid < 0]
    rest = [h for h in heads if events[h].tid >= 0]
    for perm in itertools.permutations(rest):
        order = [w for h in init + list(perm) for w in chains[h]]
        last = {}
        ok = True
        for w in order:
            t = events[w].tid
            if t >= 0 and last.get(t, -1) > events[w].idx:
                ok = False
                break
            last[t] = events[w].idx
        if ok:
            yield order


def executions(threads, init=None, prepare=None, accept=None):
    """Every candidate execution, with its thread results. prepare(events, rf) may reject an rf
    choice before any mo is tried (None) or return a state; accept(state, mo) then judges each
    mo. Without them every candidate comes out, consistent or not."""
    init = dict(init or {})
    per = all_traces(threads, init)
    for combo in itertools.product(*per):
        locs = set(init)
        for evs, _ in combo:
            locs.update(e.loc for e in evs if e.loc)
        events = [Event(-1, 0, "W", loc, wval=init.get(loc, 0), what="initial value")
                  for loc in sorted(locs)]
        for evs, _ in combo:
            events.extend(evs)
        results = tuple(r for _, r in combo)
        writers, by_loc = {}, {}
        for i, e in enumerate(events):
            if e.writes:
                writers.setdefault((e.loc, e.wval), []).append(i)
                by_loc.setdefault(e.loc, []).append(i)
        reads = [i for i, e in enumerate(events) if e.reads]
        choices = []
        for r in reads:
            e = events[r]
            # Not its own write, nor a later write of its own thread (coherence).
            cs = [w for w in writers.get((e.loc, e.rval), [])
                  if w != r and not (events[w].tid == e.tid and events[w].idx > e.idx)]
            if not cs:
                break
            choices.append(cs)
        else:
            for pick in itertools.product(*choices):
                rf = dict(zip(reads, pick))
                state = prepare(events, rf) if prepare else True
                if state is None:
                    continue
                per_loc = [[(loc, o) for o in _mo_orders(events, ws, rf)]
                           for loc, ws in sorted(by_loc.items())]
                for mos in itertools.product(*per_loc):
                    mo = dict(mos)
                    if accept is None or accept(state, mo):
                        yield Execution(events, rf, mo, results)
