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
        if (!top) { // it is gone, and so is every job pushed before it: stolen
            worker.wait_until(job.latch()); // run other jobs until the thief sets its latch
            return;
        }
        if (*top == ref) return job.run_kept(injected); // nobody took it: here, not migrated
        worker.execute(*top); // pushed after it and left above it (by A, or by B run here)
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
    worker.push(ref_c);       // the older: a thief's first pick
    worker.push(ref_b);       // the newer: the owner's first pop
    job_a.run_kept(injected); // A here; its exception waits in job_a until B and C are done
    take_back(worker, job_b, ref_b, injected); // B is above C
    take_back(worker, job_c, ref_c, injected);
    return Results{job_a.into_result(), job_b.into_result(), // a braced list runs left to right
                   job_c.into_result()}; // (a call's arguments need not): A's exception first
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
