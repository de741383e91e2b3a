/* worker_sleep.pml -- rayon's per-worker sleep (src/mini/worker_sleep.hpp, -DSLEEP=per-worker):
 * the counters' protocol, the jobs event counter (JEC) and the latch's UNSET/SLEEPY/SLEEPING/SET.
 * One worker S waits in wait_until for its latch L and is the only one that can run the job;
 * a publisher P publishes one job (pushes it onto its deque, or with INJECT injects it) and
 * waits outside the pool; B's thief T sets L once the job has run (B waits for it).
 * Every atomic of the protocol is seq_cst, or ordered by seq_cst fences (worker_sleep.hpp says
 * which), so the model interleaves them and has no store buffers: it checks the protocol's
 * logic, not the orderings (the pool's sleep.pml does those for the fences).
 * Deadlock = S blocked for good, or T waiting for a job nobody runs: pan reports an invalid
 * end state.
 *   spin -a worker_sleep.pml                          as built: errors: 0
 *   -DINJECT                                          the job injected: errors: 0
 *   -DSKIP_LATCH_SLEEPY   L set while S is SLEEPY wakes nobody, S sleeps on its set latch: deadlock
 *   -DSKIP_JEC_CHECK      a job pushed after S announced slips past it: deadlock (only because
 *                         P waits outside the pool; in the pool, P pops its job back)
 *   -DNO_INJECTED_CHECK   no last look at the injector: a pushed job is the JEC's: errors: 0
 *   -DSKIP_JEC_CHECK_INJECT    the same, injected: the last look at the injector finds it: 0
 *   -DNO_INJECTED_CHECK_INJECT without that last look the JEC check alone finds it: 0
 *   -DSKIP_BOTH_INJECT    neither: the injected job slips past S: deadlock                    */
#ifdef SKIP_JEC_CHECK_INJECT
#define SKIP_JEC_CHECK
#define INJECT
#endif
#ifdef NO_INJECTED_CHECK_INJECT
#define NO_INJECTED_CHECK
#define INJECT
#endif
#ifdef SKIP_BOTH_INJECT
#define SKIP_JEC_CHECK
#define NO_INJECTED_CHECK
#define INJECT
#endif

#define UNSET    0
#define SLEEPY   1
#define SLEEPING 2
#define SET      3

byte L = UNSET;        /* S's latch (CoreLatch) */
byte jec = 1;          /* jobs event counter: odd, touched last by a publisher */
byte sleeping = 0;     /* the counters' sleeping threads */
bit  m = 0;            /* S's mutex */
bool blocked = false;  /* S's is_blocked (m's) */
byte deque = 0;        /* P's deque */
byte injector = 0;
bool taken = false;    /* S took the job */

#define LOCK   atomic { m == 0 -> m = 1 }
#define UNLOCK m = 0
/* find_work: take the job from P's deque (a steal) or from the injector */
#define FOUND  atomic { deque > 0 -> deque--; taken = true } \
            :: atomic { injector > 0 -> injector--; taken = true }
/* the latch's wake_up: SLEEPING -> UNSET unless set */
#define WAKE_UP atomic { if :: L == SLEEPING -> L = UNSET :: else fi }

/* wake_specific_thread(S): the waker counts the sleeper out */
#define WAKE_S LOCK; atomic { if :: blocked -> blocked = false; sleeping-- :: else fi }; UNLOCK

active proctype S() {
  byte mine;           /* the JEC S announced */
  do
  :: L == SET -> break                       /* latch.probe() */
  :: else ->
     if
     :: FOUND                                /* a job: run it, look again */
     :: else ->
        /* announce_sleepy: bump the JEC to even if it is odd, remember it */
        atomic { if :: jec % 2 == 1 -> jec++ :: else fi; mine = jec };
        if
        :: FOUND                             /* one more round */
        :: else ->
           /* sleep(): get_sleepy */
           if
           :: atomic { L == UNSET -> L = SLEEPY } ->
              LOCK;
              if
              :: atomic { L == SLEEPY -> L = SLEEPING }    /* fall_asleep */
              :: else ->                                   /* L set while SLEEPY */
#ifndef SKIP_LATCH_SLEEPY
                 UNLOCK; goto again
#else
                 skip
#endif
              fi;
              /* the JEC check and try_add_sleeping_thread: one CAS */
              if
#ifndef SKIP_JEC_CHECK
              :: atomic { jec != mine -> skip } -> WAKE_UP; UNLOCK; goto again
#endif
              :: atomic { jec == mine -> sleeping++ }
#ifdef SKIP_JEC_CHECK
              :: atomic { jec != mine -> sleeping++ }
#endif
              fi;
              /* fence; has_injected_jobs */
              if
#ifndef NO_INJECTED_CHECK
              :: injector > 0 -> sleeping--; WAKE_UP; UNLOCK; goto again
#endif
              :: else -> skip
              fi;
              atomic { blocked = true; UNLOCK };           /* wait: unlock and block */
              !blocked;                                    /* ... until a waker clears it */
              LOCK; UNLOCK;                                /* wait returns holding m */
              WAKE_UP
           :: else                                         /* L set meanwhile */
           fi
        fi
     fi
again: skip
  od
}

active proctype P() {
#ifdef INJECT
  injector++;                                /* inject: publish, then the fence and new_jobs */
#else
  deque++;                                   /* push: publish, then new_jobs (no fence) */
#endif
  /* new_jobs: bump the JEC only if it is even (someone sleepy), in the CAS that reads the
   * sleepers; wake one if any sleeps */
  byte sleepers;
  atomic { if :: jec % 2 == 0 -> jec++ :: else fi; sleepers = sleeping };
  if
  :: sleepers > 0 -> WAKE_S
  :: else
  fi
}

active proctype T() {                        /* B's thief: B waits for the job, then sets L */
  byte old;
  taken;
  atomic { old = L; L = SET };               /* set: swap SET in */
  if
  :: old == SLEEPING -> WAKE_S               /* notify_worker_latch_is_set: only if SLEEPING */
  :: else
  fi
}
