// join_across: run A here, on a worker of one pool, and B on another pool, and return both.
//
//     auto [parsed, fetched] = io_pool.join_across([&] { return parse(buf); },  // here, on P
//                                                  [&] { return fetch(url); }); // on io_pool (Q)
//
// A join of chapter 9's cross call and chapter 3's join: B goes to Q as a cross call's job goes
// (in_worker_cross: a StackJob with a cross latch, counted in awaited_, injected into Q), but the
// caller does not wait idle for it: it runs A meanwhile, on its own worker of P, and only then
// waits for B's latch in P's loop, running P's jobs (a job B waits for may be one of them). B's
// job lives in this frame, so the caller waits for it even when A threw (chapter 7's rule), and
// only then lets A's exception go on; when both throw, A's wins, as in join.
// Called from outside every pool, or from a worker of Q itself, it is join on Q.
// Not in rayon: a design of this workbook, and the cross lab (chapters/labs/cross.hpp).
#pragma once

#include <exception>
#include <optional>
#include <type_traits>
#include <utility>

#include <mini/job.hpp>
#include <mini/join.hpp>
#include <mini/latch.hpp>
#include <mini/pool.hpp>

namespace mini {

// ANCHOR: join_across
template <class A, class B>
auto ThreadPool::join_across(A&& a, B&& b) {
    using RA = stored_t<std::invoke_result_t<A&>>;
    using RB = stored_t<std::invoke_result_t<B&>>;
    WorkerThread* w = WorkerThread::current();
    if (w == nullptr || &w->pool() == this) return std::pair<RA, RB>(join(*this, a, b));
    WorkerThread& current = *w; // a worker of another pool, P
    auto body_b = [this, &b](bool) -> decltype(auto) {
        awaited_.fetch_sub(1, std::memory_order_relaxed); // started: see awaited_
        return call(b);
    };
    // LAB: job step 1: B's job, body_b in a StackJob whose latch is a cross latch (SpinLatch::cross) that keeps the caller's pool's sleep state (current.pool().sleep_owner_) alive
    #error "lab: step job is not written yet (write it, then delete this line)"
    // LAB_END: job
    // LAB: inject step 2: count B in awaited_ (as in_worker_cold does), then publish it on this pool, before A runs
    #error "lab: step inject is not written yet (write it, then delete this line)"
    // LAB_END: inject
    // LAB: run_a step 3: run A here (call(a)), its result into result_a (a std::optional<slot_t<RA>>); if it throws, keep the exception in an exception_ptr named thrown
    #error "lab: step run_a is not written yet (write it, then delete this line)"
    // LAB_END: run_a
    // LAB: wait step 4: wait for B's latch in your own pool's loop, running its jobs meanwhile
    #error "lab: step wait is not written yet (write it, then delete this line)"
    // LAB_END: wait
    // LAB: result step 5: rethrow A's exception if it threw, else return both results as a std::pair<RA, RB> (B's through its job)
    #error "lab: step result is not written yet (write it, then delete this line)"
    // LAB_END: result
}
// ANCHOR_END: join_across

} // namespace mini
