/* deque.pml -- Chase-Lev Worker::pop racing Stealer::steal (src/mini/deque.hpp) under
 * x86-TSO-like store buffers. The deque holds two jobs (slots 0 and 1); the owner pops once, one
 * thief steals twice. Every job must be taken exactly once or still be in the deque at the end:
 * a double take fails the assertion in TAKE, a lost job fails the one in Check.
 *   spin -a deque.pml                 as built: errors: 0
 *   spin -a -DNO_POP_FENCE deque.pml  pop's fence(seq_cst) removed: job 1 taken twice
 *   spin -a -DNO_STEAL_FENCE deque.pml  steal's fence removed: errors: 0 (a no-op on TSO)
 *   spin -a -DNO_POP_CAS deque.pml    the last job's CAS made a store: job 1 taken twice  */

byte top = 0;            /* memory: Inner::top */
byte bottom = 2;         /* memory: Inner::bottom (two jobs pushed before the race) */
byte taken[2];           /* how often each job was taken */
bool odone, tdone;       /* Owner / Thief finished */

/* The owner's one-slot store buffer for bottom (the only variable it stores without a locked
 * instruction). The thief stores only with CAS, a locked instruction: it never buffers. */
bool obuf = false; byte oval;
#define O_STORE_BOTTOM(v) atomic { !obuf -> oval = (v); obuf = true }
#define TAKE(i) atomic { taken[i]++; assert(taken[i] == 1) }

active proctype Memory() {        /* the hardware drains the owner's buffer at any time */
end:  do
      :: atomic { obuf -> bottom = oval; obuf = false }
      od
}

active proctype Owner() {         /* Worker::pop */
  byte b, t; bool won;
  b = bottom - 1;                 /* b = bottom.load(relaxed) - 1 (own buffer empty) */
  O_STORE_BOTTOM(b);              /* bottom.store(b, relaxed): claim slot b (buffered) */
#ifndef NO_POP_FENCE
  !obuf;                          /* fence(seq_cst): drain own buffer before reading top */
#endif
  t = top;                        /* t = top.load(relaxed) */
  if
  :: t > b -> O_STORE_BOTTOM(b + 1)          /* it was empty: put bottom back */
  :: t == b ->                               /* the last job: race the thieves on top */
#ifndef NO_POP_CAS
       atomic { !obuf -> if :: top == t -> top = t + 1; won = true   /* CAS (locked: */
                           :: else -> won = false                     /*  drains first) */
                         fi };
#else
       atomic { !obuf -> top = t + 1; won = true };  /* a plain store: the owner always "wins" */
#endif
       O_STORE_BOTTOM(b + 1);
       if :: won -> TAKE(b) :: else fi
  :: t < b -> TAKE(b)                        /* more than one job left: no race, take it */
  fi;
  odone = true
}

active proctype Thief() {         /* Stealer::steal, twice */
  byte t, b, n = 0;
  do
  :: n < 2 ->
       t = top;                   /* t = top.load(acquire) */
#ifndef NO_STEAL_FENCE
       skip;                      /* fence(seq_cst): the thief has no buffered store, and TSO
                                     never reorders two loads, so on TSO this is a no-op */
#endif
       b = bottom;                /* b = bottom.load(acquire) */
       if
       :: t >= b -> skip                                  /* empty */
       :: else -> atomic { if :: top == t -> top = t + 1; TAKE(t)   /* CAS top won */
                              :: else                               /* lost: Retry */
                           fi }
       fi;
       n++
  :: else -> break
  od;
  tdone = true
}

active proctype Check() {         /* at the end: each job taken once, or still in [top, bottom) */
  atomic { odone && tdone && !obuf ->
    assert(taken[0] + (top <= 0 && 0 < bottom) == 1 && taken[1] + (top <= 1 && 1 < bottom) == 1) }
}
