"""RC11's consistency axioms (Lahav, Vafeiadis, Kang, Hur, Dreyer, "Repairing Sequential
Consistency in C/C++11", PLDI 2017, Section 3), over the executions of explore.py.

An execution is consistent if
  coherence     hb ; eco?  is irreflexive
  atomicity     rmw ∩ (fr ; mo) = ∅       (by construction: explore puts an RMW right after the
                                           write it read from in mo)
  SC            psc is acyclic
  no-thin-air   sb ∪ rf is acyclic        (only with nta=True)
With nta=False this is the C++ model as RC11 repairs it, without the ban on load buffering:
C11's LB outcome (Batty et al., "Mathematizing C++ Concurrency", POPL 2011) is allowed, as it is
on ARMv8 and POWER. They are herd's rc11.cat (herdtools7, herd/libdir/rc11.cat) relation for
relation, data races left out. Relations are bit sets: rel[i] has bit j set when (i, j) is in rel.

The paper follows C++11. standard="c++20" (the default: the workbook is C++20) makes C++20's two
changes: release sequences without the releasing thread's later stores (P0982R1, in Graph._rs)
and the SC order by strongly-happens-before, sb;hb;sb on any locations (P0668R5, in scb).
GenMC's litmus folder agrees with both (genmc.py).
"""
import sys

from explore import executions

ACQ = ("acq", "acq_rel", "sc")
REL = ("rel", "acq_rel", "sc")


def _closure(rel):
    rel = list(rel)
    for k in range(len(rel)):
        bit = 1 << k
        rk = rel[k]
        for i in range(len(rel)):
            if rel[i] & bit:
                rel[i] |= rk
    return rel


def _compose(a, b):
    out = []
    for row in a:
        acc, j = 0, 0
        while row:
            if row & 1:
                acc |= b[j]
            row >>= 1
            j += 1
        out.append(acc)
    return out


def _union(*rels):
    return [_or(rows) for rows in zip(*rels)]


def _or(rows):
    acc = 0
    for r in rows:
        acc |= r
    return acc


def _irreflexive(rel):
    return all(not (row >> i) & 1 for i, row in enumerate(rel))


def _acyclic(rel):
    return _irreflexive(_closure(rel))


def _bits(mask):
    j = 0
    while mask:
        if mask & 1:
            yield j
        mask >>= 1
        j += 1


class Events:
    """What depends on the events alone (one per combination of thread traces): sb, same-location
    masks, and for each event the writes and the acquire fences after it in its thread."""

    def __init__(self, events):
        n = len(events)
        self.events, self.n = events, n
        self.sb = [_or(1 << j for j, b in enumerate(events)
                       if (a.tid < 0 <= b.tid) or (a.tid == b.tid >= 0 and a.idx < b.idx))
                   for a in events]
        self.sameloc = [_or(1 << j for j, b in enumerate(events) if a.loc and b.loc == a.loc)
                        for a in events]
        writes = _or(1 << j for j, e in enumerate(events) if e.writes)
        acq_fences = _or(1 << j for j, e in enumerate(events)
                         if e.kind == "F" and e.order in ACQ)
        self.writes_after = [self.sb[i] & writes for i in range(n)]
        self.acqf_after = [self.sb[i] & acq_fences for i in range(n)]
        self.sc = [e.order == "sc" for e in events]
        self.fsc = [s and e.kind == "F" for s, e in zip(self.sc, events)]
        self.fsc_mask = _or(1 << i for i in range(n) if self.fsc[i])
        self.sb_neq = [self.sb[i] & ~self.sameloc[i] for i in range(n)]
        self.sb_rmw = [self.sb[i] | ((1 << i) if e.kind == "U" else 0)
                       for i, e in enumerate(events)]


STANDARDS = ("c++20", "c++11")


class Graph:
    """The relations of one execution that depend on its events and rf only (sb, sw, hb)."""

    def __init__(self, static, rf, standard="c++20"):
        assert standard in STANDARDS, standard
        self.s, self.rf, self.n, self.standard = static, rf, static.n, standard
        self.events, self.sb, self.sameloc = static.events, static.sb, static.sameloc
        self.rfrel = [0] * self.n
        readers = {}
        for r, w in rf.items():
            self.rfrel[w] |= 1 << r
            readers.setdefault(w, []).append(r)
        self.hb = _closure(_union(self.sb, self._sw(readers)))

    def _rs(self, w, readers):
        """The release sequence headed by w: w, then RMWs reading from it, transitively. Under
        C++11 (and the RC11 paper) it also holds w's thread's later writes to the location, and
        the RMWs reading from those; C++20 dropped them (P0982R1, "Weaken release sequences")."""
        ev = self.events
        seq = [w]
        if self.standard == "c++11":
            seq += _bits(self.s.writes_after[w] & self.sameloc[w])
        todo = list(seq)
        while todo:
            x = todo.pop()
            for r in readers.get(x, []):
                if ev[r].kind == "U" and r not in seq:
                    seq.append(r)
                    todo.append(r)
        return seq

    def _sw(self, readers):
        ev, sw = self.events, [0] * self.n
        for a, e in enumerate(ev):
            if e.tid < 0 or e.order not in REL:
                continue
            if e.writes:
                heads = [a]
            elif e.kind == "F":
                heads = list(_bits(self.s.writes_after[a]))
            else:
                continue
            for h in heads:
                for x in self._rs(h, readers):
                    for r in readers.get(x, []):
                        if ev[r].order in ACQ:
                            sw[a] |= 1 << r
                        sw[a] |= self.s.acqf_after[r]
        return sw

    def early_ok(self, nta):
        """What can be judged before mo: hb is a partial order, no read reads from a write that
        happens after it, and (with nta) no sb ∪ rf cycle."""
        if not _irreflexive(self.hb) or not _irreflexive(_compose(self.hb, self.rfrel)):
            return False
        return not nta or _acyclic(_union(self.sb, self.rfrel))

    def consistent(self, mo):
        ev, n = self.events, self.n
        morel = [0] * n
        for ws in mo.values():
            for k, w in enumerate(ws):
                morel[w] = _or(1 << x for x in ws[k + 1:])
        fr = [0] * n
        for r, w in self.rf.items():
            fr[r] = morel[w] & ~(1 << r)
        eco = _closure(_union(self.rfrel, morel, fr))
        hb = self.hb
        if not _irreflexive(_compose(hb, eco)):
            return False
        sc, fsc, fsc_mask, sb_neq = self.s.sc, self.s.fsc, self.s.fsc_mask, self.s.sb_neq
        hb_loc = [hb[i] & self.sameloc[i] for i in range(n)]
        # C++20 orders seq_cst operations by strongly-happens-before, whose sb;hb;sb has no
        # location restriction (P0668R5, [intro.races]/12.3); the RC11 paper keeps sb|≠loc.
        # An RMW is a read and then a write in the formal model (RC11's rmw ⊆ sb, as GenMC
        # builds it), so the sb at either end may also be the step inside one RMW.
        sb_x = self.s.sb_rmw if self.standard == "c++20" else sb_neq
        scb = _union(self.sb, _compose(_compose(sb_x, hb), sb_x), hb_loc, morel, fr)
        left = [((1 << i) | hb[i]) if fsc[i] else (1 << i) if sc[i] else 0 for i in range(n)]
        right = [((1 << j) if sc[j] else 0) | (hb[j] & fsc_mask) for j in range(n)]
        psc = _compose(_compose(left, scb), right)
        hb_eco_hb = _compose(_compose(hb, eco), hb)
        for i in range(n):
            if fsc[i]:
                psc[i] |= (hb[i] | hb_eco_hb[i]) & fsc_mask
        return _acyclic(psc)


def consistent_executions(threads, init=None, nta=False, standard="c++20"):
    """The executions of the program that RC11 (with or without no-thin-air) allows, with the
    release sequences and the SC order of `standard`: "c++20" (the default, the language the
    workbook is compiled as) or "c++11" (the RC11 paper as published)."""
    cache = [None, None]

    def prepare(events, rf):
        if cache[0] is not events:
            cache[:] = [events, Events(events)]
        g = Graph(cache[1], rf, standard)
        return g if g.early_ok(nta) else None

    return executions(threads, init, prepare, lambda g, mo: g.consistent(mo))


def outcomes(threads, init=None, nta=False, observe=None, standard="c++20"):
    """{outcome: one execution showing it}; the outcome is observe(execution), by default the
    threads' return values."""
    observe = observe or (lambda ex: ex.results)
    seen = {}
    for ex in consistent_executions(threads, init, nta, standard):
        seen.setdefault(observe(ex), ex)
    return seen


MODELS = {  # --model NAME: (no-thin-air?, standard)
    "rc11-lb": (False, "c++20"), "rc11": (True, "c++20"),
    "rc11-lb-c++11": (False, "c++11"), "rc11-c++11": (True, "c++11"),
}


def model_name(nta, standard):
    return f"{'RC11' if nta else 'RC11 without no-thin-air'}, {standard.upper()}"


def model_cli(argv, variants, prog):
    """The models' command line (deque.py, sleep.py): `--list`, or one variant and `--model
    NAME` (MODELS; the default rc11-lb is C++20, the language the code is compiled as, without
    the no-thin-air axiom). Returns (variant, no-thin-air?, standard, the model's name), or an
    exit code: 0 after `--list`, 2 after a usage message."""
    if "--list" in argv:
        width = max(map(len, variants)) + 2
        for name, text in variants.items():
            print(f"{name:{width}} {text}")
        return 0
    model, args = "rc11-lb", list(argv)
    if "--model" in args:
        i = args.index("--model")
        model = args[i + 1] if i + 1 < len(args) else ""
        del args[i:i + 2]
    variant = args[0] if args else "none"
    if variant not in variants or len(args) > 1 or model not in MODELS:
        print(f"usage: {prog} [{'|'.join(variants)}] [--model {'|'.join(MODELS)}]",
              file=sys.stderr)
        return 2
    nta, standard = MODELS[model]
    return variant, nta, standard, model_name(nta, standard)
