// CountLatch: a latch that is set when a count of outstanding work drops to zero.
//
// scope (scope.hpp) starts it at 1, for the scope's own body, adds 1 for every job it spawns and
// takes 1 away as the body and each job finish. The 1 -> 0 step sets a SpinLatch, so that the
// scope's owner, a worker, waits for it in the pool's wait_until, running other jobs meanwhile
// as join's owner does (rayon-core's CountLatch, rayon-core-v1.13.0, rayon-core/src/latch.rs,
// lines 320-424; rayon also has a blocking kind for an owner outside any pool, which mini's scope
// never needs: it always runs its body on a worker, through in_worker).
#pragma once

#include <atomic>
#include <cassert>
#include <cstddef>

#include <mini/latch.hpp>

namespace mini {

class CountLatch {
public:
    explicit CountLatch(Sleep* sleep) : latch_(sleep) {}

    // Relaxed: the count only has to be right, not to publish anything. The increment must come
    // before the job it counts is published (scope.hpp says why), and the push that publishes it
    // orders it.
    void increment() noexcept {
        [[maybe_unused]] const std::size_t old = counter_.fetch_add(1, std::memory_order_relaxed);
        // From 0 the latch is set and the owner may have returned (rayon's debug_assert).
        assert(old != 0 && "a CountLatch incremented from 0: a spawn into a scope that ended");
    }

    // What the owner waits on in wait_until.
    const SpinLatch& as_spin_latch() const noexcept { return latch_; }

    // The same rule as SpinLatch::set: from the decrement on, *self may be gone, unless this call
    // is the one that takes the count to 0 (the owner cannot return before the latch below is
    // set). acq_rel: each job's release makes its writes visible to the last decrement, which
    // passes them on through the SpinLatch's release to the owner's acquire.
    // ANCHOR: countlatch_set
    static void set(CountLatch* self) noexcept {
        SpinLatch* latch = &self->latch_; // an address, computed before: no read of *self
        if (self->counter_.fetch_sub(1, std::memory_order_acq_rel) == 1) SpinLatch::set(latch);
    }
    // ANCHOR_END: countlatch_set

private:
    std::atomic<std::size_t> counter_{1}; // 1: the scope's body, not yet finished
    SpinLatch latch_;
};

} // namespace mini
