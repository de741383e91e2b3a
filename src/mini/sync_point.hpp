// Test-only sync points: a test installs a hook to hold a thread at a named place, so that an
// interleaving can be forced with explicit hand-offs instead of luck (sleep.hpp, latch.hpp,
// pool.cpp and deque.hpp call them on their cold paths).
//
// In normal runs the hook is null and a sync point is one load and a not-taken branch, on a
// path that is about to block, has just finished its work, or (steal) runs only when a worker's
// own deque is empty and pays a seq_cst fence and a CAS anyway.
#pragma once

#include <atomic>

namespace mini::test {

enum class SyncPoint {
    before_sleep,    // a worker found no work and is about to take the sleep mutex
    after_latch_set, // SpinLatch::set has stored SET and not yet woken anyone
    latch_set_done,  // SpinLatch::set is about to return
    before_spawn,    // a pool is about to start a worker thread (a test may throw here, as
                     // std::thread's constructor does when the system refuses a thread)
    steal_before_buffer, // Stealer::steal has read bottom, not yet the buffer pointer
    after_notify,        // a waker has notified, still holding the sleep mutex
};
using SyncHook = void (*)(SyncPoint);
inline std::atomic<SyncHook> sync_hook{nullptr};

inline void sync_point(SyncPoint point) {
    if (SyncHook hook = sync_hook.load(std::memory_order_acquire)) [[unlikely]]
        hook(point);
}

} // namespace mini::test
