// QuietLatch: a latch that any number of threads may block on, whose set() takes no lock and makes
// no system call while nobody waits: one store, one fence, one load.
//
// LockLatch (latch.hpp) sets under its mutex and always notifies, as rayon's LockLatch does
// (rayon-core-v1.13.0, rayon-core/src/latch.rs, lines 228-267): every set() pays for a lock and a
// notify even when the waiter never blocked. QuietLatch is chapter 2's sleep protocol applied to
// a second consumer, a latch: a waiter locks, registers as a waiter, fences, re-checks the flag
// and only then waits; set() stores the flag, fences, reads the waiters and only if there is
// one locks and notifies. The two seq_cst fences close the same store-buffering race as Sleep's:
// either the waiter's re-check sees the flag, or set() sees the waiter, and then takes the mutex
// that the waiter holds from before registering until it is inside wait(), so the notify cannot
// come before the wait. The re-check is the first test of the wait's loop: a waiter that waited
// before looking would miss a set() that ran before it registered, which read no waiter. The
// flag is the only work a waiter looks for, and set once, so every waiter is woken (notify_all)
// and counts itself out.
// The price of the quiet set(): set() reads waiters_ after its store, when a waiter may already
// have seen the flag and returned. A QuietLatch must outlive every set() (a member of a longer-
// lived object: a pool's, a queue's), not live in a waiter's frame as LockLatch may, whose set()
// ends under the mutex that its waiter takes before it returns.
// Not in rayon: a design of this workbook, and the sleep lab (chapters/labs/sleep.hpp).
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <mutex>

namespace mini {

class QuietLatch {
public:
    bool probe() const noexcept { return set_.load(std::memory_order_acquire); }

    // Returns once the latch is set: at once if it is, else after blocking until set() wakes it.
    // ANCHOR: quiet_wait
    void wait() {
        if (probe()) return; // set already: no lock
        // LAB: register step 1: the latch was unset: lock the mutex and register as a waiter
        #error "lab: step register is not written yet (write it, then delete this line)"
        // LAB_END: register
        // LAB: fence step 2: the fence that pairs with set()'s; then block on the condition variable until the flag is set, looking at it before the first wait; then unregister
        #error "lab: step fence is not written yet (write it, then delete this line)"
        // LAB_END: fence
    }
    // ANCHOR_END: quiet_wait

    // ANCHOR: quiet_set
    void set() noexcept {
        // LAB: publish set, step 1: publish the flag, the fence that pairs with wait()'s, then read the waiters: with none, return
        #error "lab: step publish is not written yet (write it, then delete this line)"
        // LAB_END: publish
        // LAB: wake set, step 2: wake every waiter, such that no registered waiter can miss the wake-up
        #error "lab: step wake is not written yet (write it, then delete this line)"
        // LAB_END: wake
    }
    // ANCHOR_END: quiet_set

    // The waiters registered now (a test's window: one that registered, one that left).
    std::uint64_t waiters() const noexcept { return waiters_.load(std::memory_order_relaxed); }
    // The mutex, for a test that holds it to force an interleaving.
    std::mutex& mutex_for_test() noexcept { return mutex_; }

private:
    std::atomic<bool> set_{false};
    std::mutex mutex_;
    std::condition_variable cv_;
    std::atomic<std::uint64_t> waiters_{0}; // written only while holding mutex_
};

} // namespace mini
