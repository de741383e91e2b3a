"""GenMC's litmus folder (MPI-SWS/genmc at b03f01ed0f34a873f7b8b960313a5279a6c9ab45, v0.11.0,
tests/correct/litmus/), transcribed op for op in genmc.py's notation: NAME is the directory
tests/correct/litmus/NAME/ (its C file is named above each entry), with the count of its
expected.rc11.mo.in (one line per configuration of its args.rc11.mo.in: rel-pporf and wrw have
several, named here with their -D flags). Threads are in the order main() creates them.
"""
from genmc import ASSUME, CAS, FAA, IF, R, SET, T, W, XCHG, F  # noqa: F401

FOLDER = 111  # programs in the folder at the pinned commit

# The programs the explorer does not express, with the reason.
LEFT_OUT = {
    "W+JW": "a thread joins another (pthread_join on a pid that main publishes): thread "
            "creation and join are synchronisation the explorer does not model",
    "malloc-dep": "malloc, structs and pointers, and threads created in a loop",
}

# The RC11 paper as published (standard="c++11"), where its count differs from GenMC's C++20:
# these are the explorer's counts under the paper's axioms (herd's rc11.cat), and why.
PAPER = {
    # A relaxed store after the release store continues its release sequence in C++11, not in
    # C++20 (P0982R1): the reader synchronizes through it in C++11 only.
    "MP+rels+acq": 3, "MP+rels+acqf": 3, "S+rels+acq": 3, "S+rels+acqf": 3,
    "MPU+rels+acq": 12, "MPU+rels+acqf": 12, "MPU2+rels+acq": 35, "MPU2+rels+acqf": 35,
    "relseq": 16,
    # C++20's SC order includes sb;hb;sb between operations on one location (P0668R5); the
    # paper only takes it between different locations.
    "WWmerge1": 18,
    # The same, through the read and the write of one seq_cst RMW (sb;hb;sb ends inside it).
    "Z6.U": 24,
}

TESTS = {
    # tests/correct/litmus/2+2W/2+2W.c
    '2+2W': ([
        T(W('x', 1, 'rel'), W('y', 2, 'rel')),
        T(W('y', 1, 'rel'), W('x', 2, 'rel'))], 4),
    # tests/correct/litmus/2+2W+2sc+scf/2+2w+2sc+scf.c
    '2+2W+2sc+scf': ([
        T(W('x', 1, 'sc'), W('y', 2, 'sc')),
        T(W('y', 1, 'rlx'), F('sc'), W('x', 2, 'rlx'))], 3),
    # tests/correct/litmus/2+2W+3sc+rel1/2+2w+3sc+rel1.c
    '2+2W+3sc+rel1': ([
        T(W('x', 1, 'sc'), W('y', 2, 'sc')),
        T(W('y', 1, 'rel'), W('x', 2, 'sc'))], 4),
    # tests/correct/litmus/2+2W+3sc+rel2/2+2w+3sc+rel2.c
    '2+2W+3sc+rel2': ([
        T(W('x', 1, 'sc'), W('y', 2, 'sc')),
        T(W('y', 1, 'sc'), W('x', 2, 'rel'))], 4),
    # tests/correct/litmus/2+2W+4sc/2+2w+4sc.c
    '2+2W+4sc': ([
        T(W('x', 1, 'sc'), W('y', 2, 'sc')),
        T(W('y', 1, 'sc'), W('x', 2, 'sc'))], 3),
    # tests/correct/litmus/2+2W+scfs/2+2w+scfs.c
    '2+2W+scfs': ([
        T(W('x', 1, 'rlx'), F('sc'), W('y', 2, 'rlx')),
        T(W('y', 1, 'rlx'), F('sc'), W('x', 2, 'rlx'))], 3),
    # tests/correct/litmus/2CoWR/2cowr.c
    '2CoWR': ([
        T(R('y', 'acq')),
        T(R('x', 'acq')),
        T(W('x', 1, 'rel')),
        T(W('y', 1, 'rel'))], 4),
    # tests/correct/litmus/atomicpo/atomicpo.c
    'atomicpo': ([
        T(W('y', 1, 'rlx'), F('acq_rel'), W('x', 1, 'rlx')),
        T(XCHG('x', 1, 'rlx', 'r1'), XCHG('y', 1, 'rlx', 'r2'))], 4),
    # tests/correct/litmus/casdep/casdep.c
    'casdep': ([
        T(R('x', 'rlx', 'a'), CAS('y', 'a', 1, 'rlx', 'rlx', 'b'), W('z', 'a', 'rlx')),
        T(W('y', 2, 'rlx'))], 2),
    # tests/correct/litmus/ccr/ccr.c
    'ccr': ([
        T(SET('r', 0), CAS('x', 'r', 42, 'rlx', 'rlx')),
        T(SET('r', 0), CAS('x', 'r', 17, 'rlx', 'rlx'), R('x', 'rlx'))], 2),
    # tests/correct/litmus/cii/cii.c
    'cii': ([
        T(SET('r', 1), CAS('x', 'r', 2, 'rlx', 'rlx')),
        T(FAA('x', 1, 'rlx')),
        T(FAA('x', 1, 'rlx'))], 6),
    # tests/correct/litmus/CoRR/corr.c
    'CoRR': ([
        T(W('x', 1, 'rel'), W('x', 2, 'rel')),
        T(R('x', 'acq'), R('x', 'acq'))], 6),
    # tests/correct/litmus/CoRR0/corr0.c
    'CoRR0': ([
        T(W('x', 1, 'rel')),
        T(R('x', 'acq')),
        T(R('x', 'acq'))], 4),
    # tests/correct/litmus/CoRR1/corr1.c
    'CoRR1': ([
        T(W('x', 1, 'rel')),
        T(W('x', 2, 'rel')),
        T(R('x', 'acq'), R('x', 'acq')),
        T(R('x', 'acq'))], 36),
    # tests/correct/litmus/CoRR2/corr2.c
    'CoRR2': ([
        T(W('x', 1, 'rel')),
        T(W('x', 2, 'rel')),
        T(R('x', 'acq'), R('x', 'acq')),
        T(R('x', 'acq'), R('x', 'acq'))], 72),
    # tests/correct/litmus/CoRW/corw.c
    'CoRW': ([
        T(R('x', 'acq'), W('x', 1, 'rel')),
        T(W('x', 2, 'rel'))], 3),
    # tests/correct/litmus/CoWR/cowr.c
    'CoWR': ([
        T(W('x', 1, 'rel'), R('x', 'acq')),
        T(W('x', 2, 'rel'))], 3),
    # tests/correct/litmus/cumul-release/cumul-release.c
    'cumul-release': ([
        T(W('x', 1, 'rlx'), W('y', 1, 'rel')),
        T(R('y', 'rlx', 'r1'), W('z', 'r1', 'rlx')),
        T(R('z', 'rlx', 'r2'), F('acq_rel'), R('x', 'rlx', 'r3'))], 8),
    # tests/correct/litmus/default/default.c
    'default': ([
        T(R('x', 'acq'), R('x', 'acq')),
        T(W('x', 1, 'rel')),
        T(W('x', 2, 'rel'))], 12),
    # tests/correct/litmus/detour/detour.c
    'detour': ([
        T(W('x', 1, 'rlx')),
        T(R('z', 'rlx', 'a'), W('x', 'a - 1', 'rlx'), R('x', 'rlx', 'b'), W('y', 'b', 'rlx')),
        T(R('y', 'rlx', 'c'), W('z', 'c', 'rlx'))], 9),
    # tests/correct/litmus/fr+w+w+w+reads/fr+w+w+w+reads.c
    'fr+w+w+w+reads': ([
        T(W('x', 1, 'rlx')),
        T(W('x', 2, 'rlx')),
        T(W('x', 3, 'rlx')),
        T(R('x', 'rlx', 'r1'), R('x', 'rlx', 'r2'), R('x', 'rlx', 'r3'), R('x', 'rlx', 'r4'))], 210),
    # tests/correct/litmus/inc+inc+RR+W+RR/inc+inc+rr+w+rr.c
    'inc+inc+RR+W+RR': ([
        T(FAA('x', 1, 'rlx')),
        T(FAA('x', 1, 'rlx')),
        T(R('x', 'rlx', 't1'), W('a', 't1', 'rlx'), R('x', 'rlx', 't2'), W('b', 't2', 'rlx')),
        T(W('x', 42, 'rlx')),
        T(R('x', 'rlx', 't3'), W('c', 't3', 'rlx'), R('x', 'rlx', 't4'), W('d', 't4', 'rlx'))], 600),
    # tests/correct/litmus/inc2w/inc2w.c
    'inc2w': ([
        T(FAA('x', 1, 'rlx')),
        T(W('x', 4, 'rel')),
        T(FAA('x', 2, 'rlx'))], 6),
    # tests/correct/litmus/IRIW-acq-sc/IRIW-acq-sc.c
    'IRIW-acq-sc': ([
        T(W('x', 1, 'sc')),
        T(R('x', 'acq'), R('y', 'sc')),
        T(R('y', 'acq'), R('x', 'sc')),
        T(W('y', 1, 'sc'))], 16),
    # tests/correct/litmus/IRIWish/IRIWish.c
    'IRIWish': ([
        T(W('x', 1, 'rlx')),
        T(R('x', 'rlx', 'r1'), W('y', 'r1', 'rel')),
        T(R('x', 'rlx', 'r1'), F('acq_rel'), R('y', 'rlx', 'r2')),
        T(R('y', 'rlx', 'r1'), F('acq_rel'), R('x', 'rlx', 'r2'))], 28),
    # tests/correct/litmus/isa2/isa2.c
    'isa2': ([
        T(W('a', 1, 'rlx'), W('b', 1, 'rel')),
        T(R('b', 'acq'), W('c', 1, 'rel')),
        T(R('c', 'acq'), R('a', 'rlx'))], 7),
    # tests/correct/litmus/JLT/jlt.c
    'JLT': ([
        T(W('x', 1, 'rel'), R('y', 'acq'), R('x', 'acq')),
        T(W('x', 2, 'rel'), R('x', 'acq')),
        T(W('y', 3, 'rel'))], 8),
    # tests/correct/litmus/LB/lb.c
    'LB': ([
        T(R('y', 'acq'), W('x', 1, 'rel')),
        T(R('x', 'acq'), W('y', 1, 'rel'))], 3),
    # tests/correct/litmus/LB+acq/lb+acq.c
    'LB+acq': ([
        T(R('x', 'acq', 'r'), W('y', 1, 'rlx')),
        T(R('y', 'acq', 'r'), W('x', 1, 'rlx'))], 3),
    # tests/correct/litmus/LB+ctrl/lb+ctrl.c
    'LB+ctrl': ([
        T(R('x', 'rlx', 'r'), IF('not r', [W('y', 1, 'rlx')], [W('y', 2, 'rlx')])),
        T(R('y', 'rlx', 'r'), IF('not r', [W('x', 1, 'rlx')], [W('x', 2, 'rlx')]))], 3),
    # tests/correct/litmus/LB+ctrl+rel/lb+ctrl+rel.c
    'LB+ctrl+rel': ([
        T(R('x', 'rlx', 'r'), IF('not r', [W('y', 1, 'rlx')], [W('y', 2, 'rlx')])),
        T(R('y', 'rlx', 'r'), W('x', 1, 'rel'))], 3),
    # tests/correct/litmus/LB+dep/lb+dep.c
    'LB+dep': ([
        T(R('x', 'rlx', 'r'), W('y', 'r + 1', 'rlx')),
        T(R('y', 'rlx', 'r'), W('x', 'r + 1', 'rlx'))], 3),
    # tests/correct/litmus/LB+fr-fr-data+data/LB+fr-fr-data+data.c
    'LB+fr-fr-data+data': ([
        T(R('x', 'rlx', 'r0'), W('y', '1 + (r0 ^ r0)', 'rlx')),
        T(R('y', 'rlx', 'r0'), R('y', 'rlx', 'r1'), W('x', '1 + (r1 ^ r1)', 'rlx')),
        T(W('y', 2, 'rlx'))], 18),
    # tests/correct/litmus/LB+incMPs/LB+incMPs.c
    'LB+incMPs': ([
        T(R('x', 'acq'), FAA('z', 1, 'acq_rel')),
        T(FAA('z', 1, 'acq_rel'), W('y', 1, 'rel')),
        T(R('y', 'acq'), FAA('w', 1, 'acq_rel')),
        T(FAA('w', 1, 'acq_rel'), W('x', 1, 'rel'))], 15),
    # tests/correct/litmus/LB+rel/lb+rel.c
    'LB+rel': ([
        T(R('x', 'rlx', 'r'), W('y', 1, 'rel')),
        T(R('y', 'rlx', 'r'), W('x', 1, 'rel'))], 3),
    # tests/correct/litmus/LB2/lb.c
    'LB2': ([
        T(R('x', 'rlx', 'r'), W('y', 1, 'rlx')),
        T(R('y', 'rlx', 'r'), W('x', 1, 'rlx'))], 3),
    # tests/correct/litmus/LB3/lb3.c
    'LB3': ([
        T(R('a', 'rlx', 'r1'), W('b', 1, 'rlx')),
        T(R('b', 'rlx', 'r1'), W('c', 1, 'rlx')),
        T(R('c', 'rlx', 'r1'), W('a', 1, 'rlx'))], 7),
    # tests/correct/litmus/MCP-rrw/MCP-rrw.c
    'MCP-rrw': ([
        T(W('x', 1, 'rel')),
        T(W('x', 2, 'rel')),
        T(R('x', 'acq'))], 6),
    # tests/correct/litmus/MP/mp.c
    'MP': ([
        T(W('x', 1, 'rel'), W('y', 1, 'rel')),
        T(R('y', 'acq'), R('x', 'acq'))], 3),
    # tests/correct/litmus/MP+incMP/MP+incMP.c
    'MP+incMP': ([
        T(R('y', 'acq'), FAA('z', 1, 'acq_rel')),
        T(FAA('z', 1, 'acq_rel'), R('x', 'acq')),
        T(W('x', 1, 'rel'), W('y', 1, 'rel'))], 7),
    # tests/correct/litmus/MP+rel+acq/mp+rel+acq.c
    'MP+rel+acq': ([
        T(W('x', 1, 'rlx'), W('y', 1, 'rel')),
        T(R('y', 'acq', 't1'), IF('t1', [R('x', 'rlx', 't2'), SET('r_x', 't2')]))], 2),
    # tests/correct/litmus/MP+rel+acqf/mp+rel+acqf.c
    'MP+rel+acqf': ([
        T(W('x', 1, 'rlx'), W('y', 1, 'rel')),
        T(R('y', 'rlx', 't1'), IF('t1', [F('acq'), R('x', 'rlx', 't2'), SET('r_x', 't2')]))], 2),
    # tests/correct/litmus/MP+relf+acq/mp+relf+acq.c
    'MP+relf+acq': ([
        T(W('x', 1, 'rlx'), F('rel'), W('y', 1, 'rlx')),
        T(R('y', 'acq', 't1'), IF('t1', [R('x', 'rlx', 't2'), SET('r_x', 't2')]))], 2),
    # tests/correct/litmus/MP+relf+acqf/mp+relf+acqf.c
    'MP+relf+acqf': ([
        T(W('x', 1, 'rlx'), F('rel'), W('y', 1, 'rlx')),
        T(R('y', 'rlx', 't1'), IF('t1', [F('acq'), R('x', 'rlx', 't2'), SET('r_x', 't2')]))], 2),
    # tests/correct/litmus/MP+rels+acq/mp+rels+acq.c
    'MP+rels+acq': ([
        T(W('x', 1, 'rlx'), W('y', 0, 'rel'), W('y', 1, 'rlx')),
        T(R('y', 'acq', 't1'), IF('t1', [R('x', 'rlx', 't2'), SET('r_x', 't2')]))], 4),
    # tests/correct/litmus/MP+rels+acqf/mp+rels+acqf.c
    'MP+rels+acqf': ([
        T(W('x', 1, 'rlx'), W('y', 0, 'rel'), W('y', 1, 'rlx')),
        T(R('y', 'rlx', 't1'), IF('t1', [F('acq'), R('x', 'rlx', 't2'), SET('r_x', 't2')]))], 4),
    # tests/correct/litmus/MP2/mp2.c
    'MP2': ([
        T(W('a', 1, 'rlx'), W('c', 1, 'rlx'), F('acq_rel'), W('b', 1, 'rlx'), W('d', 1, 'rlx')),
        T(R('b', 'rlx', 'r1'), F('acq_rel'), R('a', 'rlx', 'r2')),
        T(R('d', 'rlx', 'r1'), F('acq_rel'), R('c', 'rlx', 'r2'))], 9),
    # tests/correct/litmus/MPU+rel+acq/mpu+rel+acq.c
    'MPU+rel+acq': ([
        T(W('x', 1, 'rlx'), W('y', 1, 'rel')),
        T(FAA('y', 1, 'rlx')),
        T(R('y', 'acq', 't1'), IF('t1 > 1', [W('x', 2, 'rlx')]))], 6),
    # tests/correct/litmus/MPU+rel+acqf/mpu+rel+acqf.c
    'MPU+rel+acqf': ([
        T(W('x', 1, 'rlx'), W('y', 1, 'rel')),
        T(FAA('y', 1, 'rlx')),
        T(R('y', 'rlx', 't1'), IF('t1 > 1', [F('acq'), W('x', 2, 'rlx')]))], 6),
    # tests/correct/litmus/MPU+relf+acq/mpu+relf+acq.c
    'MPU+relf+acq': ([
        T(W('x', 1, 'rlx'), F('rel'), W('y', 1, 'rlx')),
        T(FAA('y', 1, 'rlx')),
        T(R('y', 'acq', 't1'), IF('t1 > 1', [W('x', 2, 'rlx')]))], 6),
    # tests/correct/litmus/MPU+relf+acqf/mpu+relf+acqf.c
    'MPU+relf+acqf': ([
        T(W('x', 1, 'rlx'), F('rel'), W('y', 1, 'rlx')),
        T(FAA('y', 1, 'rlx')),
        T(R('y', 'rlx', 't1'), IF('t1 > 1', [F('acq'), W('x', 2, 'rlx')]))], 6),
    # tests/correct/litmus/MPU+rels+acq/mpu+rels+acq.c
    'MPU+rels+acq': ([
        T(W('x', 1, 'rlx'), W('y', 0, 'rel'), W('y', 1, 'rlx')),
        T(FAA('y', 1, 'rlx')),
        T(R('y', 'acq', 't1'), IF('t1 > 1', [W('x', 2, 'rlx')]))], 13),
    # tests/correct/litmus/MPU+rels+acqf/mpu+rels+acqf.c
    'MPU+rels+acqf': ([
        T(W('x', 1, 'rlx'), W('y', 0, 'rel'), W('y', 1, 'rlx')),
        T(FAA('y', 1, 'rlx')),
        T(R('y', 'rlx', 't1'), IF('t1 > 1', [F('acq'), W('x', 2, 'rlx')]))], 13),
    # tests/correct/litmus/MPU2+rel+acq/mpu2+rel+acq.c
    'MPU2+rel+acq': ([
        T(W('x', 1, 'rlx'), W('y', 1, 'rel')),
        T(SET('expected', 2), CAS('y', 'expected', 3, 'rlx', 'rlx')),
        T(SET('expected', 1), CAS('y', 'expected', 2, 'rlx', 'rlx')),
        T(R('y', 'acq', 't1'), IF('t1 > 2', [W('x', 2, 'rlx')]))], 14),
    # tests/correct/litmus/MPU2+rel+acqf/mpu2+rel+acqf.c
    'MPU2+rel+acqf': ([
        T(W('x', 1, 'rlx'), W('y', 1, 'rel')),
        T(SET('expected', 2), CAS('y', 'expected', 3, 'rlx', 'rlx')),
        T(SET('expected', 1), CAS('y', 'expected', 2, 'rlx', 'rlx')),
        T(R('y', 'rlx', 't1'), IF('t1 > 2', [F('acq'), W('x', 2, 'rlx')]))], 14),
    # tests/correct/litmus/MPU2+relf+acq/mpu2+relf+acq.c
    'MPU2+relf+acq': ([
        T(W('x', 1, 'rlx'), F('rel'), W('y', 1, 'rlx')),
        T(SET('expected', 2), CAS('y', 'expected', 3, 'rlx', 'rlx')),
        T(SET('expected', 1), CAS('y', 'expected', 2, 'rlx', 'rlx')),
        T(R('y', 'acq', 't1'), IF('t1 > 2', [W('x', 2, 'rlx')]))], 14),
    # tests/correct/litmus/MPU2+relf+acqf/mpu2+relf+acqf.c
    'MPU2+relf+acqf': ([
        T(W('x', 1, 'rlx'), F('rel'), W('y', 1, 'rlx')),
        T(SET('expected', 2), CAS('y', 'expected', 3, 'rlx', 'rlx')),
        T(SET('expected', 1), CAS('y', 'expected', 2, 'rlx', 'rlx')),
        T(R('y', 'rlx', 't1'), IF('t1 > 2', [F('acq'), W('x', 2, 'rlx')]))], 14),
    # tests/correct/litmus/MPU2+rels+acq/mpu2+rels+acq.c
    'MPU2+rels+acq': ([
        T(W('x', 1, 'rlx'), W('y', 0, 'rel'), W('y', 1, 'rlx')),
        T(SET('expected', 2), CAS('y', 'expected', 3, 'rlx', 'rlx')),
        T(SET('expected', 1), CAS('y', 'expected', 2, 'rlx', 'rlx')),
        T(R('y', 'acq', 't1'), IF('t1 > 2', [W('x', 2, 'rlx')]))], 36),
    # tests/correct/litmus/MPU2+rels+acqf/mpu2+rels+acqf.c
    'MPU2+rels+acqf': ([
        T(W('x', 1, 'rlx'), W('y', 0, 'rel'), W('y', 1, 'rlx')),
        T(SET('expected', 2), CAS('y', 'expected', 3, 'rlx', 'rlx')),
        T(SET('expected', 1), CAS('y', 'expected', 2, 'rlx', 'rlx')),
        T(R('y', 'rlx', 't1'), IF('t1 > 2', [F('acq'), W('x', 2, 'rlx')]))], 36),
    # tests/correct/litmus/ori/ori.c
    'ori': ([
        T(FAA('x', 1, 'rlx'), W('y', 1, 'rel')),
        T(SET('r', 0), CAS('x', 'r', 1, 'acq', 'acq')),
        T(R('y', 'rlx', 't1'), IF('t1', [W('x', 4, 'rel')]))], 5),
    # tests/correct/litmus/peterZ/peterZ.c
    'peterZ': ([
        T(W('x', 1, 'rlx'), F('sc'), R('y', 'rlx', 'r0')),
        T(W('y', 1, 'rlx'), W('z', 1, 'rel')),
        T(R('z', 'acq', 'r0'), F('sc'), R('x', 'rlx', 'r1'))], 7),
    # tests/correct/litmus/po-loc/po-loc.c
    'po-loc': ([
        T(R('y', 'rlx', 'r0'), F('acq_rel'), R('x', 'rlx', 'r1'), W('x', 1, 'rlx')),
        T(R('x', 'rlx', 'r2'), W('y', 'r2', 'rlx'))], 3),
    # tests/correct/litmus/psc-base-notin-ar/psc-base-notin-ar.c
    'psc-base-notin-ar': ([
        T(R('x', 'rlx', 'a'), ASSUME('a == 2'), W('y', 1, 'sc')),
        T(W('y', 2, 'sc')),
        T(R('y', 'rlx', 'b'), ASSUME('b == 2'), W('x', 'b', 'rlx'))], 2),
    # tests/correct/litmus/psc-sbhbsb/psc-sbhbsb.c
    'psc-sbhbsb': ([
        T(W('x', 1, 'sc'), W('y', 1, 'sc')),
        T(R('x', 'acq', 'a'), ASSUME('a == 1'), R('y', 'sc', 't1'), SET('b', 't1'), ASSUME('b == 0'))], 1),
    # tests/correct/litmus/rel-B-cumul-acq/relbcumulacq.c
    'rel-B-cumul-acq': ([
        T(W('x', 1, 'rlx'), W('y', 1, 'rel')),
        T(R('y', 'rlx', 'r1'), W('z', 'r1', 'rlx')),
        T(R('z', 'rlx', 'r2'), F('acq_rel'), R('x', 'rlx', 'r3')),
        T(R('y', 'acq', 'r4'))], 16),
    # tests/correct/litmus/relacq-B-cumul/relacq-b-cumul.c
    'relacq-B-cumul': ([
        T(W('x', 1, 'rlx'), W('y', 1, 'rel')),
        T(R('y', 'acq', 'r1'), W('z', 1, 'rlx')),
        T(R('z', 'rlx', 'r2'), F('acq_rel'), R('x', 'rlx', 'r3'))], 8),
    # tests/correct/litmus/relseq/relseq.c
    'relseq': ([
        T(W('x', 1, 'rlx'), W('y', 1, 'rel'), W('y', 2, 'rlx')),
        T(XCHG('y', 3, 'rlx')),
        T(R('y', 'rlx'), F('acq_rel'), R('x', 'rlx'))], 20),
    # tests/correct/litmus/rfi-preserved/rfi-preserved.c
    'rfi-preserved': ([
        T(R('x', 'rlx', 'a'), W('y', 1, 'rel'), R('y', 'rlx', 'b'), W('z', 'b', 'rlx')),
        T(R('z', 'rlx', 'c'), W('x', 'c', 'rlx'))], 3),
    # tests/correct/litmus/rii/rii.c
    'rii': ([
        T(R('x', 'rlx'), FAA('x', 1, 'rlx')),
        T(FAA('x', 1, 'rlx'))], 3),
    # tests/correct/litmus/rinc+wr/rinc+wr.c
    'rinc+wr': ([
        T(FAA('x', 1, 'rlx')),
        T(W('x', 2, 'rlx'), R('x', 'rlx'))], 3),
    # tests/correct/litmus/riwi/riwi.c
    'riwi': ([
        T(R('y', 'rlx'), FAA('x', 1, 'rlx')),
        T(FAA('x', 1, 'rlx'), W('y', 1, 'rel'))], 3),
    # tests/correct/litmus/RMWFix/rmwfix.c
    'RMWFix': ([
        T(R('y', 'sc', 't1'), IF('t1', [FAA('x', 1, 'sc'), FAA('x', 1, 'sc')])),
        T(FAA('x', 1, 'sc')),
        T(W('y', 42, 'sc'))], 4),
    # tests/correct/litmus/RWC+syncs/RWC+syncs.c
    'RWC+syncs': ([
        T(W('x', 1, 'rlx')),
        T(R('x', 'rlx'), F('sc'), R('y', 'rlx')),
        T(W('y', 1, 'rlx'), F('sc'), R('x', 'rlx'))], 7),
    # tests/correct/litmus/S/s.c
    'S': ([
        T(W('x', 2, 'rlx'), W('y', 1, 'rlx')),
        T(R('y', 'rlx'), W('x', 1, 'rlx'))], 4),
    # tests/correct/litmus/S+rel+acq/s+rel+acq.c
    'S+rel+acq': ([
        T(W('x', 1, 'rlx'), W('y', 1, 'rel')),
        T(R('y', 'acq', 't1'), IF('t1', [W('x', 2, 'rlx')]))], 2),
    # tests/correct/litmus/S+rel+acqf/s+rel+acqf.c
    'S+rel+acqf': ([
        T(W('x', 1, 'rlx'), W('y', 1, 'rel')),
        T(R('y', 'rlx', 't1'), IF('t1', [F('acq'), W('x', 2, 'rlx')]))], 2),
    # tests/correct/litmus/S+relf+acq/s+relf+acq.c
    'S+relf+acq': ([
        T(W('x', 1, 'rlx'), F('rel'), W('y', 1, 'rlx')),
        T(R('y', 'acq', 't1'), IF('t1', [W('x', 2, 'rlx')]))], 2),
    # tests/correct/litmus/S+relf+acqf/s+relf+acqf.c
    'S+relf+acqf': ([
        T(W('x', 1, 'rlx'), F('rel'), W('y', 1, 'rlx')),
        T(R('y', 'rlx', 't1'), IF('t1', [F('acq'), W('x', 2, 'rlx')]))], 2),
    # tests/correct/litmus/S+rels+acq/s+rels+acq.c
    'S+rels+acq': ([
        T(W('x', 1, 'rlx'), W('y', 0, 'rel'), W('y', 1, 'rlx')),
        T(R('y', 'acq', 't1'), IF('t1', [W('x', 2, 'rlx')]))], 4),
    # tests/correct/litmus/S+rels+acqf/s+rels+acqf.c
    'S+rels+acqf': ([
        T(W('x', 1, 'rlx'), W('y', 0, 'rel'), W('y', 1, 'rlx')),
        T(R('y', 'rlx', 't1'), IF('t1', [F('acq'), W('x', 2, 'rlx')]))], 4),
    # tests/correct/litmus/SB/sb.c
    'SB': ([
        T(W('x', 1, 'rel'), R('y', 'acq')),
        T(W('y', 1, 'rel'), R('x', 'acq'))], 4),
    # tests/correct/litmus/SB+2sc+scf/sb+2sc+scf.c
    'SB+2sc+scf': ([
        T(W('x', 1, 'sc'), R('y', 'sc')),
        T(W('y', 1, 'rlx'), F('sc'), R('x', 'rlx'))], 3),
    # tests/correct/litmus/SB+3sc+acq/sb+3sc+acq.c
    'SB+3sc+acq': ([
        T(W('x', 1, 'sc'), R('y', 'sc')),
        T(W('y', 1, 'sc'), R('x', 'acq'))], 4),
    # tests/correct/litmus/SB+3sc+rel/sb+3sc+rel.c
    'SB+3sc+rel': ([
        T(W('x', 1, 'sc'), R('y', 'sc')),
        T(W('y', 1, 'rel'), R('x', 'sc'))], 4),
    # tests/correct/litmus/SB+4sc/sb+4sc.c
    'SB+4sc': ([
        T(W('x', 1, 'sc'), R('y', 'sc')),
        T(W('y', 1, 'sc'), R('x', 'sc'))], 3),
    # tests/correct/litmus/SB+assert/SB+assert.c
    'SB+assert': ([
        T(W('x', 1, 'sc'), R('y', 'sc', 't1'), W('r_y', 't1', 'rlx')),
        T(W('y', 1, 'sc'), R('x', 'sc', 't2'), W('r_x', 't2', 'rlx'))], 3),
    # tests/correct/litmus/SB+rfis/SB+rfis.c
    'SB+rfis': ([
        T(W('x', 1, 'rel'), R('x', 'sc'), R('y', 'sc')),
        T(W('y', 1, 'rel'), R('y', 'sc'), R('x', 'sc'))], 4),
    # tests/correct/litmus/SB+scfs/sb+scfs.c
    'SB+scfs': ([
        T(W('x', 1, 'rlx'), F('sc'), R('y', 'rlx')),
        T(W('y', 1, 'rlx'), F('sc'), R('x', 'rlx'))], 3),
    # tests/correct/litmus/small0/small0.c
    'small0': ([
        T(R('x', 'acq')),
        T(R('x', 'acq'), W('x', 1, 'rel')),
        T(W('x', 2, 'rel'))], 9),
    # tests/correct/litmus/small1/small1.c
    'small1': ([
        T(R('y', 'acq'), R('z', 'acq'), R('x', 'acq')),
        T(W('x', 1, 'rel')),
        T(W('y', 1, 'rel'), W('z', 1, 'rel'))], 8),
    # tests/correct/litmus/TC1/tc1.c
    'TC1': ([
        T(R('x', 'rlx', 'r1'), IF('r1 >= 0', [W('y', 1, 'rlx')])),
        T(R('y', 'rlx', 'r2'), W('x', 'r2', 'rlx'))], 3),
    # tests/correct/litmus/TC2/variants/tc20.c
    'TC2': ([
        T(R('x', 'rlx', 'r1'), R('x', 'rlx', 'r2'), IF('r1 == r2', [W('y', 1, 'rlx')])),
        T(R('y', 'rlx', 'r3'), W('x', 'r3', 'rlx'))], 4),
    # tests/correct/litmus/viktor-relseq/viktor-relseq.c
    'viktor-relseq': ([
        T(FAA('lock', 1, 'rlx'), FAA('lock', 1, 'rlx')),
        T(FAA('lock', 1, 'acq'), FAA('lock', 1, 'rlx')),
        T(FAA('lock', 1, 'rel')),
        T(FAA('lock', 1, 'rlx'))], 180),
    # tests/correct/litmus/W+RRR+W/w+rrr+w.c
    'W+RRR+W': ([
        T(W('x', 1, 'rlx')),
        T(R('x', 'rlx', 'a'), R('x', 'rlx', 'b'), R('x', 'rlx', 'c')),
        T(W('x', 2, 'rlx'))], 20),
    # tests/correct/litmus/W+RWC/W+RWC.c
    'W+RWC': ([
        T(W('x', 1, 'rlx'), W('z', 1, 'rel')),
        T(R('z', 'acq'), F('sc'), R('y', 'rlx')),
        T(W('y', 1, 'rlx'), F('sc'), R('x', 'rlx'))], 7),
    # tests/correct/litmus/wcii/wcii.c
    'wcii': ([
        T(W('x', 5, 'rel')),
        T(SET('expected', 1), CAS('x', 'expected', 2, 'rlx', 'rlx')),
        T(FAA('x', 1, 'rlx')),
        T(FAA('x', 1, 'rlx'))], 24),
    # tests/correct/litmus/WRC+dep/variants/wrc+dep0.c
    'WRC+dep': ([
        T(W('x', 1, 'rlx')),
        T(R('x', 'rlx', 'r1'), W('y', 'r1', 'rlx')),
        T(R('y', 'rlx', 'r2'), F('acq_rel'), R('x', 'rlx', 'r3'))], 8),
    # tests/correct/litmus/WWmerge1/WWmerge1.c
    'WWmerge1': ([
        T(R('x', 'acq'), R('y', 'sc')),
        T(W('x', 1, 'sc'), W('x', 2, 'sc')),
        T(W('y', 1, 'sc'), R('x', 'sc'))], 17),
    # tests/correct/litmus/WWmerge2/WWmerge2.c
    'WWmerge2': ([
        T(R('x', 'acq'), R('y', 'sc')),
        T(W('x', 2, 'sc')),
        T(W('y', 1, 'sc'), R('x', 'sc'))], 8),
    # tests/correct/litmus/WWR+2WR/wwr+2wr.c
    'WWR+2WR': ([
        T(W('x', 1, 'sc'), W('y', 1, 'sc'), R('z', 'sc', 't1'), ASSUME('t1 == 0')),
        T(W('z', 1, 'sc'), R('y', 'sc', 't2'), ASSUME('t2 == 2')),
        T(W('y', 2, 'sc'), R('x', 'sc', 't3'), ASSUME('t3 == 0'))], 0),
    # tests/correct/litmus/Z6+acq/z6+acq.c
    'Z6+acq': ([
        T(W('a', 1, 'rlx'), F('sc'), W('b', 1, 'rlx')),
        T(R('b', 'acq', 'r1'), W('c', 1, 'rlx')),
        T(W('c', 2, 'rlx'), F('sc'), R('a', 'rlx'))], 7),
    # tests/correct/litmus/Z6.U/Z6.U.c
    'Z6.U': ([
        T(W('x', 1, 'sc'), W('y', 1, 'rel')),
        T(FAA('y', 1, 'sc'), R('y', 'rlx')),
        T(W('y', 3, 'sc'), R('x', 'sc'))], 22),
    # tests/correct/litmus/LB+addr/lb+addr.c (y is atomic_int y[2]: y + a is "y{a}")
    'LB+addr': ([
        T(R('x', 'rlx', 'a'), R('y{a}', 'rlx', 'b'), W('y0', 1, 'rlx')),
        T(R('y0', 'rlx', 'r'), W('x', 'r', 'rel'))], 3),
    # tests/correct/litmus/LB+addr-fun/lb+addr-fun.c (load_store(a) inlined)
    'LB+addr-fun': ([
        T(R('x', 'rlx', 'a'), R('y{a}', 'rlx', 'b'), W('y0', 1, 'rlx')),
        T(R('y0', 'rlx', 'r'), W('x', 'r', 'rel'))], 3),
    # tests/correct/litmus/LB+addr-ind-fun/lb+addr-ind-fun.c (fp(a) is load_store(a), inlined)
    'LB+addr-ind-fun': ([
        T(R('x', 'rlx', 'a'), R('y{a}', 'rlx', 'b'), W('y0', 1, 'rlx')),
        T(R('y0', 'rlx', 'r'), W('x', 'r', 'rel'))], 3),
    # tests/correct/litmus/assume-ctrl/assume-ctrl.c (||: the second load only if 2 > y failed)
    'assume-ctrl': ([
        T(R('y', 'rlx', 'a'), IF('not 2 > a', [R('y', 'rlx', 'b'), ASSUME('b > 3')]),
          W('x', 1, 'rlx')),
        T(R('x', 'rlx', 'c'), ASSUME('c < 3'), W('y', 3, 'rlx'), F('sc'), W('y', 4, 'rlx'))], 4),
    # tests/correct/litmus/psc-ar/psc-ar.c (without CHECK_ASSERTION, as GenMC's args run it)
    'psc-ar': ([
        T(R('y', 'rlx', 'a'), ASSUME('a == 1'), F('sc'), R('z', 'rlx', 'b'), ASSUME('b == 0')),
        T(W('z', 1, 'rlx'), F('sc'), W('x', 1, 'rlx')),
        T(R('x', 'rlx', 'd'), IF('d == 1', [W('y', 1, 'rlx')]), ASSUME('d == 1'),
          W('res', 'd', 'rlx'))], 1),
    # tests/correct/litmus/rel-pporf/rel-pporf.c, as built (an exchange) and -DUSE_STORE
    'rel-pporf': ([
        T(R('x', 'rlx', 'a'), XCHG('z', 1, 'rel'), W('y', 1, 'rel')),
        T(R('y', 'rlx', 'b'), W('x', 1, 'rlx'))], 3),
    'rel-pporf -DUSE_STORE': ([
        T(R('x', 'rlx', 'a'), W('z', 1, 'rel'), W('y', 1, 'rel')),
        T(R('y', 'rlx', 'b'), W('x', 1, 'rlx'))], 3),
    # tests/correct/litmus/wrw/wrw.c with variants/wrw0.c's main: thread_0, then N thread_n(i)
    'wrw -DN=2': ([
        T(W('x', 1, 'rel')),
        T(R('x', 'rlx'), W('x', 0, 'rel')),
        T(R('x', 'rlx'), W('x', 1, 'rel'))], 22),
    'wrw -DN=3': ([
        T(W('x', 1, 'rel')),
        T(R('x', 'rlx'), W('x', 0, 'rel')),
        T(R('x', 'rlx'), W('x', 1, 'rel')),
        T(R('x', 'rlx'), W('x', 2, 'rel'))], 300),
    'wrw -DN=4': ([
        T(W('x', 1, 'rel')),
        T(R('x', 'rlx'), W('x', 0, 'rel')),
        T(R('x', 'rlx'), W('x', 1, 'rel')),
        T(R('x', 'rlx'), W('x', 2, 'rel')),
        T(R('x', 'rlx'), W('x', 3, 'rel'))], 6576),
}
