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
    StackJob<SpinLatch, decltype(body_b)> job_b(std::move(body_b), SpinLatch::cross,
                                                current.pool().sleep_owner_); // P's sleep, kept alive
    awaited_.fetch_add(1, std::memory_order_relaxed);
    inject(job_b.as_job_ref()); // B may run on Q from here on
    std::optional<slot_t<RA>> result_a;
    std::exception_ptr thrown;
    try {
        result_a.emplace(call(a)); // A, here on P, while B runs on Q
    } catch (...) {
        thrown = std::current_exception();
    }
    current.wait_until(job_b.latch()); // thrown or not: B is in this frame; P's jobs meanwhile
    if (thrown) std::rethrow_exception(thrown); // A's wins, as in join
    return std::pair<RA, RB>(take<RA>(result_a), job_b.into_result());
}
// ANCHOR_END: join_across

} // namespace mini
