// join_context: run two closures, potentially in parallel, and return both results.
//
// On a worker, B becomes a StackJob in this stack frame and is pushed onto the worker's own deque,
// where an idle worker may steal it; A runs right here. Then the owner pops its deque: if B comes
// back, nobody wanted it and the owner runs it inline (not migrated); if B was stolen, the owner
// keeps running other jobs until B's latch is set (wait_until), because blocking here could
// strand jobs that only this thread's deque holds. No allocation, no lock on the fast path.
//
// Called outside any pool, the whole join is injected into the pool and both closures report
// migrated() == true (rayon's in_worker_cold); the splitter relies on this.
//
// An exception in A or B reaches join's caller, as rayon's panics do; if both throw, A's wins.
// When A throws, join waits for B before the exception leaves its frame (run_a, unwind.hpp).
#pragma once

#include <thread>
#include <utility>

#include <mini/cpu_relax.hpp>
#include <mini/pool.hpp>
#include <mini/sabotage.hpp>
#include <mini/unwind.hpp>

namespace mini {

// What a closure of join_context learns about where it runs.
class FnContext {
public:
    explicit FnContext(bool migrated) : migrated_(migrated) {}
    // True when the closure runs on another thread than the one that provided it.
    bool migrated() const noexcept { return migrated_; }

private:
    bool migrated_;
};

namespace detail {

// ANCHOR: wait_idle
// Waiting without working, for the two sabotage switches: the owner gives its core away until
// the latch is set, so that the switch removes only the work done while waiting. A short spin
// first, then yield, as crossbeam-utils' Backoff::snooze does: a pure spin would burn the time
// slices a thief needs when threads outnumber cores, and the switch would then measure that burnt
// CPU rather than the work left undone. (Not the pool's condition variable: an injection's
// notify_one could pick this thread, which would not take the job, and the job would wait.)
inline void wait_idle(const SpinLatch& latch) {
    for (int spins = 0; spins < 64 && !latch.probe(); ++spins) cpu_relax();
    while (!latch.probe()) std::this_thread::yield();
}
// ANCHOR_END: wait_idle

// ANCHOR: join
template <class A, class B>
auto join_on(WorkerThread& worker, bool injected, A& a, B& b) {
    auto body_b = [&b](bool migrated) -> decltype(auto) { return call(b, FnContext(migrated)); };
    StackJob<SpinLatch, decltype(body_b)> job_b(std::move(body_b), &worker.pool().sleep());
    const JobRef ref_b = job_b.as_job_ref();
    // LAB: push step 1: push B onto your own deque, then run A yourself with run_a (into result_a, a decltype(auto): a reference stays one)
    #error "lab: step push is not written yet (write it, then delete this line)"
    // LAB_END: push
    using RA = decltype(result_a); // A's result as A returned it: a reference stays one
    using Pair = std::pair<RA, typename decltype(job_b)::Result>;

    if constexpr (sabotage::block_wait) {
        probe(Probe::block_wait, ref_b.data);
        detail::wait_idle(job_b.latch()); // [BLOCK_WAIT] only yield, though B may sit in our deque
        return Pair(std::forward<RA>(result_a), job_b.into_result());
    }
    std::uint64_t ran = 0; // jobs run while waiting, for the probe
    while (!job_b.latch().probe()) {
        // LAB: popback step 2: pop your own deque (into job): B, if nobody stole it
        #error "lab: step popback is not written yet (write it, then delete this line)"
        // LAB_END: popback
        if (!job) { // B was stolen: wait for its latch
            if constexpr (sabotage::no_steal_wait)
                detail::wait_idle(job_b.latch()); // [NO_STEAL_WAIT] wait, but run nothing else
            else
                // LAB: stolen step 3: one statement: work until B's latch is set (count into ran)
                #error "lab: step stolen is not written yet (write it, then delete this line)"
                // LAB_END: stolen
            break;
        }
        // LAB: inline step 4: if the job is B, nobody took it: run it inline and return both (a Pair)
        #error "lab: step inline is not written yet (write it, then delete this line)"
        // LAB_END: inline
        // LAB: other step 5: any other job is one A pushed and left above B: run it
        #error "lab: step other is not written yet (write it, then delete this line)"
        // LAB_END: other
    }
    probe(Probe::b_stolen, ref_b.data, ran);
    return Pair(std::forward<RA>(result_a), job_b.into_result());
}
// ANCHOR_END: join

} // namespace detail

// join_context on `pool`: on one of its workers directly, else through its injector.
template <class A, class B>
auto join_context(ThreadPool& pool, A&& a, B&& b) {
    return pool.in_worker([&](WorkerThread& worker, bool injected) {
        return detail::join_on(worker, injected, a, b);
    });
}

// join_context on the pool of the calling worker, or on the global pool from outside any pool.
template <class A, class B>
auto join_context(A&& a, B&& b) {
    WorkerThread* w = WorkerThread::current();
    return join_context(w != nullptr ? w->pool() : ThreadPool::global(), a, b);
}

// join: the same without the context. A void closure gives Unit.
template <class A, class B>
auto join(A&& a, B&& b) {
    return join_context([&a](FnContext) -> decltype(auto) { return call(a); },
                        [&b](FnContext) -> decltype(auto) { return call(b); });
}

template <class A, class B>
auto join(ThreadPool& pool, A&& a, B&& b) {
    return join_context(pool, [&a](FnContext) -> decltype(auto) { return call(a); },
                        [&b](FnContext) -> decltype(auto) { return call(b); });
}

} // namespace mini
