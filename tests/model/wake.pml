/* wake.pml -- who counts a woken sleeper out (sleep.hpp's wake and step 5).
 * Two workers sleep on the pool's one condition variable: W0 waits for a latch (a join's owner
 * whose B was stolen), W1 is idle. The pusher P pushes a job and wakes one sleeper if it reads
 * sleepers > 0; the setter L sets W0's latch and wakes all if it reads sleepers > 0. The waker
 * counts the sleepers out under the mutex: a notify_one leaves a token, a notify_all starts a new
 * generation. Memory is sequentially consistent here: the question is the bookkeeping, not the
 * fences (that is sleep.pml). A notify_one unblocks one blocked waiter, chosen by the model, and
 * up to two waits in all return with no notify at all (a spurious wake-up, which
 * condition_variable::wait allows). The Monitor runs when nothing else can: then W0 must have
 * seen its latch, and `sleepers` must count exactly the workers blocked and not notified.
 *   spin -a wake.pml                   as built: errors: 0
 *   spin -a -DWAIT_FOR_TOKEN wake.pml  a sleeper waits until it finds a token: errors: 1
 *     (W1 registers after P counted W0 out, takes W0's token without waiting; W0 waits again,
 *      and L, which read 0 sleepers, woke nobody)
 *   spin -a -DNO_SPURIOUS_COUNT_OUT wake.pml
 *                                      a spuriously woken sleeper does not count itself out:
 *     errors: 1 (it registers again, so `sleepers` counts it twice)                          */

bit  M = 0;                 /* the sleep mutex */
byte sleepers = 0;          /* registered and not counted out */
byte tokens = 0;            /* counted out by a notify_one, not yet claimed */
byte gen = 0;               /* bumped by a notify_all */
bool latch = false;         /* W0's latch */
bool owner_done = false;    /* W0 saw its latch set */
bool waiting[2];            /* blocked in wait(CV, M) */
bool signalled[2];          /* ... and notified */
byte spurious = 2;          /* spurious wake-ups left */

inline notify_one() {
  if
  :: waiting[0] && !signalled[0] -> signalled[0] = true
  :: waiting[1] && !signalled[1] -> signalled[1] = true
  :: else -> skip                       /* nobody blocked: the notify is lost, the token stays */
  fi
}

proctype Worker(byte i) {
  byte g;
sleep:
  atomic { M == 0 -> M = 1 };           /* 1. lock */
  sleepers++;                           /* 2. register */
  if                                    /* 4. re-check: W0's latch (nothing else to find) */
  :: i == 0 && latch -> sleepers--; M = 0; goto woke
  :: else
  fi;
  g = gen;
#ifdef WAIT_FOR_TOKEN
  do                                    /* 5. wait until a token or a new generation */
  :: tokens > 0 || gen != g -> break
  :: else ->
       atomic { M = 0; waiting[i] = true; signalled[i] = false };
end_a: signalled[i];
       atomic { M == 0 -> M = 1; waiting[i] = false }
  od;
  if :: gen == g -> tokens-- :: else fi;
#else
  atomic { M = 0; waiting[i] = true; signalled[i] = false }; /* 5. wait, once */
end_b:
  if
  :: signalled[i]
  :: atomic { spurious > 0 -> spurious-- } /* wait() returns unnotified */
  fi;
  atomic { M == 0 -> M = 1; waiting[i] = false };
  if
  :: gen == g && tokens > 0 -> tokens-- /* counted out by a notify_one */
  :: gen == g && tokens == 0 ->         /* nobody counted it out: spurious */
#ifdef NO_SPURIOUS_COUNT_OUT
       skip
#else
       sleepers--                       /* count itself out */
#endif
  :: else                               /* counted out by a notify_all */
  fi;
#endif
  M = 0;
woke:                                   /* search again: only W0's latch can be found */
  if
  :: i == 0 && latch -> owner_done = true
  :: else -> goto sleep
  fi
}

active proctype Pusher() {              /* new_internal_job, then wake(false) */
  if
  :: sleepers > 0 ->
       atomic { M == 0 -> M = 1 };
       if
       :: sleepers > 0 -> sleepers--; tokens++; notify_one()
       :: else
       fi;
       M = 0
  :: else
  fi
}

active proctype Setter() {              /* SpinLatch::set, latch_is_set, then wake(true) */
  latch = true;
  if
  :: sleepers > 0 ->
       atomic { M == 0 -> M = 1 };
       if
       :: sleepers > 0 -> sleepers = 0; gen++; tokens = 0;
            signalled[0] = waiting[0] || signalled[0]; signalled[1] = waiting[1] || signalled[1]
       :: else
       fi;
       M = 0
  :: else
  fi
}

active proctype Monitor() {
  timeout -> assert(owner_done);        /* nothing can move: W0 must be done, */
  assert(sleepers == (waiting[0] && !signalled[0]) + (waiting[1] && !signalled[1]))
                                        /* ... and every sleeper counted is one that waits */
}

init { atomic { run Worker(0); run Worker(1) } }
