// join3: three closures, potentially in parallel, with two jobs on the caller's stack.
//
//     auto [l, m, r] = mini::join3([&] { return walk(t.left); }, [&] { return walk(t.mid); },
//                                  [&] { return walk(t.right); });
//
// rayon has only the two-closure join (rayon-core v1.13.0, src/join/mod.rs:93): for three, a user
// nests it, join(a, || join(b, c)), whose outer B is one job holding two: a thief runs B and C's
// join, and C can be stolen only from that thief, after it. join3 pushes C, then B, and runs A:
// both are in the owner's deque at once, for two thieves, and one frame holds them.
//
// What chapter 3's join does once, join3 does twice, in the deque's order: the owner pops its
// newest job first and thieves steal the oldest. So B, pushed last, is taken back first; a
// thief takes C first; and if B was stolen, C was stolen before it. Each job taken back may have
// jobs above it, left by A (or by B, run here): they are run first. A job nobody took runs here
// (not migrated); a stolen one is waited for while working (wait_until), as join's B is.
//
// Exceptions: no exception leaves before all three jobs are done (B's and C's StackJobs live in
// this frame), so each job keeps its own (run_kept; a thief's execute); then the first in
// argument order leaves: A's, else B's, else C's, as join lets A's win over B's.
// Not in rayon: a design of this workbook, and the join lab (chapters/labs/join.hpp).
#pragma once

#include <optional>
#include <tuple>
#include <utility>

#include <mini/job.hpp>
#include <mini/join.hpp>
#include <mini/latch.hpp>
#include <mini/pool.hpp>

namespace mini {

namespace detail {

// Takes back one of join3's jobs from the owner's deque: returns once the job has run.
// ANCHOR: take_back
template <class Job>
void take_back(WorkerThread& worker, Job& job, JobRef ref, bool injected) {
    while (!job.latch().probe()) {
        std::optional<JobRef> top = worker.take_local_job();
        // LAB: stolen step 1: nothing popped: the job is gone, and so is every job pushed before it (stolen): run other jobs until its latch is set, then return
        #error "lab: step stolen is not written yet (write it, then delete this line)"
        // LAB_END: stolen
        // LAB: here step 2: the popped job is this one: nobody took it: run it here, not migrated, its result or exception kept in the job (run_kept), and return
        #error "lab: step here is not written yet (write it, then delete this line)"
        // LAB_END: here
        // LAB: other step 3: any other job was pushed after it and left above it (by A, or by B run here): run it
        #error "lab: step other is not written yet (write it, then delete this line)"
        // LAB_END: other
    }
}
// ANCHOR_END: take_back

// ANCHOR: join3
template <class A, class B, class C>
auto join3_on(WorkerThread& worker, bool injected, A& a, B& b, C& c) {
    auto body_a = [&a](bool migrated) -> decltype(auto) { return call(a, FnContext(migrated)); };
    auto body_b = [&b](bool migrated) -> decltype(auto) { return call(b, FnContext(migrated)); };
    auto body_c = [&c](bool migrated) -> decltype(auto) { return call(c, FnContext(migrated)); };
    Sleep* sleep = &worker.pool().sleep();
    StackJob<SpinLatch, decltype(body_a)> job_a(std::move(body_a), sleep); // never pushed
    StackJob<SpinLatch, decltype(body_b)> job_b(std::move(body_b), sleep);
    StackJob<SpinLatch, decltype(body_c)> job_c(std::move(body_c), sleep);
    const JobRef ref_b = job_b.as_job_ref(), ref_c = job_c.as_job_ref();
    using Results = std::tuple<typename decltype(job_a)::Result, typename decltype(job_b)::Result,
                               typename decltype(job_c)::Result>;
    // LAB: push step 4: push B and C onto your own deque, in the order that lets you take B back first and a thief steal C first; then run A here, its result or exception kept in job_a (run_kept)
    #error "lab: step push is not written yet (write it, then delete this line)"
    // LAB_END: push
    // LAB: order step 5: take back B and C with take_back, in the order your deque gives them back
    #error "lab: step order is not written yet (write it, then delete this line)"
    // LAB_END: order
    // LAB: result step 6: return the three results (into_result) as a Results, built so that A's exception leaves first, then B's, then C's
    #error "lab: step result is not written yet (write it, then delete this line)"
    // LAB_END: result
}
// ANCHOR_END: join3

} // namespace detail

// join3_context on `pool`: on one of its workers directly, else through its injector (where the
// three closures report migrated() == true, as join_context's two do).
template <class A, class B, class C>
auto join3_context(ThreadPool& pool, A&& a, B&& b, C&& c) {
    return pool.in_worker([&](WorkerThread& worker, bool injected) {
        return detail::join3_on(worker, injected, a, b, c);
    });
}

// join3_context on the pool of the calling worker, or on the global pool from outside any pool.
template <class A, class B, class C>
auto join3_context(A&& a, B&& b, C&& c) {
    WorkerThread* w = WorkerThread::current();
    return join3_context(w != nullptr ? w->pool() : ThreadPool::global(), a, b, c);
}

// join3: the same without the context. A void closure gives Unit.
template <class A, class B, class C>
auto join3(A&& a, B&& b, C&& c) {
    return join3_context([&a](FnContext) -> decltype(auto) { return call(a); },
                         [&b](FnContext) -> decltype(auto) { return call(b); },
                         [&c](FnContext) -> decltype(auto) { return call(c); });
}

template <class A, class B, class C>
auto join3(ThreadPool& pool, A&& a, B&& b, C&& c) {
    return join3_context(pool, [&a](FnContext) -> decltype(auto) { return call(a); },
                         [&b](FnContext) -> decltype(auto) { return call(b); },
                         [&c](FnContext) -> decltype(auto) { return call(c); });
}

} // namespace mini
