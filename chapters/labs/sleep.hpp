// The pool's sleep state: one mutex, one condition variable and an atomic count of sleepers for
// the whole pool (rayon-core before 1.8 had the same shape; rayon today has one per worker).
//
// A worker going to sleep does: lock, register, fence, re-check, wait.
// A thread that makes work visible does: publish, fence, read the sleeper count, and only if it is
// non-zero lock and notify.
//
// The race this closes is store-buffering (Dekker): the worker writes `sleepers` and reads "is
// there work", the publisher writes the work and reads `sleepers`. Without the two seq_cst fences
// both may read the old value (each store still sitting in its core's store buffer): the publisher
// sees no sleeper and notifies nobody, the worker sees no work and waits, and the job is stranded.
// With them, the fences fall in one total order: if the publisher's fence comes first, the
// worker's re-check sees the work; if the worker's comes first, the publisher sees the sleeper and
// takes the mutex, which the worker holds from before registering until it is inside wait(), so
// the notify cannot slip in before the wait. The re-check is the read on the worker's side:
// without it the worker registers and waits on a job that was published just before it registered.
// The waker counts the sleeper out as it notifies (see wake): a publisher that then reads 0 has
// missed no one, since every thread counted out is awake, or about to be, and searches again.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <mutex>

#include <mini/probe.hpp>
#include <mini/sabotage.hpp>

namespace mini {

class Sleep {
public:
    // Worker side. `has_work` is the re-check: it must look at everything a publisher fences for
    // (the injector, the latch the worker waits on). Returns after a wake-up (true) or a
    // successful re-check (false); the caller then searches again.
    // ANCHOR: sleep
    template <class HasWork>
    bool sleep(HasWork&& has_work) {
        // LAB: lock step 1: lock the sleep mutex
        #error "lab: step lock is not written yet (write it, then delete this line)"
        // LAB_END: lock
        // LAB: register step 2: register as a sleeper
        #error "lab: step register is not written yet (write it, then delete this line)"
        // LAB_END: register
        // LAB: fence step 3: the fence that pairs with the publisher's
        #error "lab: step fence is not written yet (write it, then delete this line)"
        // LAB_END: fence
        if constexpr (!sabotage::no_recheck) {               // [NO_RECHECK] skips step 4
            // LAB: recheck step 4: re-check for work; if there is some, unregister and return false
            #error "lab: step recheck is not written yet (write it, then delete this line)"
            // LAB_END: recheck
        }
        // LAB: wait step 5: wait with the helper below, wait_counted_out, then return true
        #error "lab: step wait is not written yet (write it, then delete this line)"
        // LAB_END: wait
    }
    // ANCHOR_END: sleep

    // Publisher side, after pushing a job into the injector from outside the pool. notify_one:
    // any worker can take an injected job, so waking one is enough; waking all would be a stampede.
    // Returns the sleepers it read (the recorder's "read 0 sleepers" comes from here).
    // ANCHOR: new_injected_job
    std::uint64_t new_injected_job() {
        // LAB: injected publish side: fence, read the sleepers, wake one if any, return them
        #error "lab: step injected is not written yet (write it, then delete this line)"
        // LAB_END: injected
    }
    // ANCHOR_END: new_injected_job

    // After a worker pushed onto its own deque: wake one sleeper if there is one (the rule is
    // explained at WorkerThread::push). No fence, as in rayon: a missed wake-up here only costs
    // parallelism, since the pusher pops the job back and runs it itself if nobody steals it, and
    // the next push looks again.
    // ANCHOR: new_internal_job
    void new_internal_job() {
        if (sleepers_.load(std::memory_order_relaxed) > 0) wake(false);
    }
    // ANCHOR_END: new_internal_job

    // After a latch was set. notify_all: with one condition variable we cannot wake the one thread
    // that waits on this latch, and a notify_one could wake another sleeper, which would find
    // nothing and sleep again while the owner stays asleep. The cost: every sleeper wakes up.
    // Returns the sleepers it read.
    // ANCHOR: latch_is_set
    std::uint64_t latch_is_set() {
        // LAB: latch publish side: fence, read the sleepers, wake all if any, return them
        #error "lab: step latch is not written yet (write it, then delete this line)"
        // LAB_END: latch
    }
    // ANCHOR_END: latch_is_set

    std::uint64_t sleepers() const { return sleepers_.load(std::memory_order_relaxed); }

private:
    // Step 5 of sleep: wait once and leave counted out. The waker, not the woken thread, counts a
    // sleeper out (see wake), so a thread that wakes must tell whether a waker did: a notify_all
    // started a new generation, or a notify_one left a token (this thread's or another's: tokens
    // are not addressed, each counts one sleeper out). With neither, the wake-up was spurious and
    // the thread counts itself out; else `sleepers` would count it twice once it registers again.
    // It never waits for a token: a thread registering later could take the token, and the one
    // the notify woke (the owner of a latch set meanwhile, by a setter that read 0 sleepers) would
    // wait again, for good. It leaves after any return from wait(), and its caller searches again.
    // ANCHOR: wait_counted_out
    void wait_counted_out(std::unique_lock<std::mutex>& lock) {
        // LAB: counted_out step 5's helper: wait once, then count yourself out if no waker did
        #error "lab: step counted_out is not written yet (write it, then delete this line)"
        // LAB_END: counted_out
    }
    // ANCHOR_END: wait_counted_out

    // The waker, not the woken thread, counts the sleeper out (as rayon does: sleep/mod.rs,
    // wake_specific_thread). The woken thread may wait a long time for a core, and until it runs
    // it would still count as a sleeper: every push meanwhile would take the mutex to wake it
    // again (measured: 23,000 such calls in one fib(36) run on 12 threads and 2 cores). So a
    // notify_one hands out a token and a notify_all starts a new generation, which the woken
    // thread reads in wait_counted_out.
    // ANCHOR: wake
    void wake(bool all) {
        // LAB: wake the waker: lock, count the sleeper(s) out, notify
        #error "lab: step wake is not written yet (write it, then delete this line)"
        // LAB_END: wake
        probe(Probe::notified, this, all); // before the unlock: the woken thread needs the mutex
    }
    // ANCHOR_END: wake

    std::mutex mutex_;
    std::condition_variable cv_;
    std::atomic<std::uint64_t> sleepers_{0}; // written only while holding mutex_
    std::uint64_t tokens_ = 0, generation_ = 0; // mutex_'s too
};

} // namespace mini
