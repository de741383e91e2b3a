// What join does when its closure A throws: wait for B, then let the exception go on.
//
// B's StackJob (closure, result slot, latch) is a local of join_on's frame, pushed where a thief
// may take it, and B's closure may refer to the frames below. An exception that unwinds those
// frames while anyone may still run B lets B write into dead frames. rayon-core 1.13 catches A's
// panic (join/mod.rs line 142), waits for B's latch, working meanwhile, and only then resumes
// unwinding: join_recover_from_panic (join/mod.rs lines 175-186). run_a is that, in C++.
#pragma once

#include <exception>

#include <mini/job.hpp>
#include <mini/latch.hpp>
#include <mini/pool.hpp>
#include <mini/sabotage.hpp>

namespace mini::detail {

// noexcept: an exception out of the wait itself would unwind join's frame with B in it all the
// same (rayon runs this wait under AbortIfPanic: registry.rs lines 786-816).
inline void wait_for_b(WorkerThread& worker, const SpinLatch& latch_b) noexcept {
    worker.wait_until(latch_b);
}

// Runs A with its context. If A throws, waits for B's latch first, then rethrows A's exception.
// wait_until looks in our own deque first, so a B nobody stole comes back and runs here, through
// its JobRef, whose execute keeps B's own exception in B's slot (it dies with the frame: A's
// wins, as in rayon); a stolen B is waited for as join's step 3 waits for it.
// The wait comes after the handler, not inside it: inside, A's exception would be the current
// one (std::current_exception, a bare `throw;`) for every job the owner runs while it waits.
// ANCHOR: run_a
template <class A, class Context>
decltype(auto) run_a(WorkerThread& worker, const SpinLatch& latch_b, A& a, Context context) {
    // LAB: run step 1: run A (call(a, context)) and return its result; if it throws, keep the exception in an exception_ptr named panic
    #error "lab: step run is not written yet (write it, then delete this line)"
    // LAB_END: run
    // LAB: wait step 2: outside the handler, wait for B's latch with wait_for_b (it works meanwhile)
    #error "lab: step wait is not written yet (write it, then delete this line)"
    // LAB_END: wait
    // LAB: rethrow step 3: B is done: let A's exception go on, as it was thrown
    #error "lab: step rethrow is not written yet (write it, then delete this line)"
    // LAB_END: rethrow
}
// ANCHOR_END: run_a

} // namespace mini::detail
