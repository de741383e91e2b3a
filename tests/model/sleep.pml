/* sleep.pml -- mini-rayon sleep protocol (one Worker, one Producer) under
 * x86-TSO-like store buffers.  Deadlock = Worker stuck in wait() although a
 * job was published; pan reports it as "invalid end state".
 *   spin -a sleep.pml               as built: errors: 0
 *   spin -a -DNO_RECHECK sleep.pml  worker skips the re-check: deadlock
 *   spin -a -DNO_FENCE sleep.pml    both fence(seq_cst) removed: deadlock
 *   spin -a -DNO_WORKER_FENCE / -DNO_PUBLISHER_FENCE   one of them removed: deadlock   */

bit  M = 0;              /* pool mutex M (1 = held) */
bool waiting = false;    /* Worker is blocked in wait(CV, M) */
byte qlen = 0;           /* memory: atomic queue length `len` (renamed:
                            len is a Promela keyword) */
byte sleepers = 0;       /* memory: atomic sleepers counter */

/* One-slot store buffers. Only the Producer stores `len`; the Worker stores
 * `sleepers` through its buffer, the Producer only while holding M (the
 * waker counts the sleeper out, sleep.hpp's wake), when the Worker's buffer
 * is empty (it drains before releasing M), so one slot per thread is enough. */
bool wbuf = false; byte wval;   /* Worker's pending store to sleepers */
bool pbuf = false; byte pval;   /* Producer's pending store to len */

/* A store waits for a free slot.  A load reads own buffer first, then memory;
 * every load below is either of a variable the thread never stores, or done
 * with its own buffer empty, so it reads memory directly. */
#define W_STORE_SLEEPERS(v) atomic { !wbuf -> wval = (v); wbuf = true }
#define P_STORE_LEN(v)      atomic { !pbuf -> pval = (v); pbuf = true }

active proctype Memory() {        /* the hardware drains buffers at any time */
end:  do
      :: atomic { wbuf -> sleepers = wval; wbuf = false }  /* drain Worker */
      :: atomic { pbuf -> qlen = pval; pbuf = false }      /* drain Producer */
      od
}

active proctype Worker() {
search:
  if :: qlen > 0 -> goto got_job    /* search: find work (we start right */
     :: else                        /*   after a failed search)          */
  fi;
  atomic { !wbuf && M == 0 -> M = 1 };    /* lock(M) (locked op = full barrier) */
  W_STORE_SLEEPERS(sleepers + 1);         /* register: sleepers += 1 (buffered) */
#if !defined(NO_FENCE) && !defined(NO_WORKER_FENCE)
  !wbuf;                                  /* fence(seq_cst): drain own buffer */
#endif
#ifndef NO_RECHECK
  if
  :: qlen > 0 ->                          /* re-check: len > 0, job visible */
       W_STORE_SLEEPERS(sleepers - 1);    /*   sleepers -= 1 */
       atomic { !wbuf -> M = 0 };         /*   unlock(M) */
       goto got_job                       /*   go run the job */
  :: else                                 /* re-check: queue looks empty */
  fi;
#endif
  atomic { !wbuf -> M = 0; waiting = true };  /* wait(CV, M): unlock + block */
  !waiting;                                   /*   ... until notify(CV) */
  atomic { M == 0 -> M = 1 };             /* wait returns holding M (the waker */
  M = 0;                                  /*   counted us out): unlock(M) */
  goto search;                            /* search again */
got_job:
  skip                                    /* run the job: valid end state */
}

active proctype Producer() {
  P_STORE_LEN(qlen + 1);                  /* publish: len += 1 (buffered) */
#if !defined(NO_FENCE) && !defined(NO_PUBLISHER_FENCE)
  !pbuf;                                  /* fence(seq_cst): drain own buffer */
#endif
  if
  :: sleepers > 0 ->                      /* if sleepers > 0 (load) */
       atomic { !pbuf && M == 0 -> M = 1 };   /* lock(M) */
       atomic { if :: sleepers > 0 ->             /* wake(): still one?  */
                      sleepers = sleepers - 1;    /*   count it out,     */
                      waiting = false             /*   notify(CV)        */
                   :: else                        /* counted out before  */
                fi };
       M = 0                                  /* unlock(M) */
  :: else                                 /* sleepers == 0: skip notify */
  fi
}
