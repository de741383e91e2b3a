// scope and spawn: run a number of jobs not known in advance, and return once every one has run.
//
//     mini::scope([&](mini::Scope& s) {
//         s.spawn([&](mini::Scope& s) { ... s.spawn(...); ... });
//         ...
//     });
//
// The body runs on a worker of the pool (through in_worker, as join does: from outside any pool
// it is injected into the global pool). Each spawn boxes its closure in a HeapJob and publishes
// it, on the spawner's own deque if the spawner is a worker of this pool, else in the injector.
// A CountLatch counts the body and the spawned jobs still to finish; when it reaches 0 the owner,
// which ran the body and then worked while it waited, returns the body's result. The closures may
// refer to anything in the caller's frame, because nothing spawned outlives the scope.
// An exception from the body or from a job is caught and kept (the first one; the others are
// dropped), every other job still runs, and scope rethrows it at the end (rayon-core's
// scope/mod.rs, rayon-core-v1.13.0, lines 277-286 and 665-732).
#pragma once

#include <exception>
#include <mutex>
#include <optional>
#include <type_traits>
#include <utility>

#include <mini/count_latch.hpp>
#include <mini/heap_job.hpp>
#include <mini/pool.hpp>
#include <mini/probe.hpp>
#include <mini/sabotage.hpp>

namespace mini {

class Scope {
public:
    explicit Scope(ThreadPool& pool) : pool_(pool), job_completed_latch_(&pool.sleep()) {}
    Scope(const Scope&) = delete;
    Scope& operator=(const Scope&) = delete;

    // Runs body(scope) on some worker of the pool before the scope returns. Called by the body,
    // by a spawned job or by any thread the body handed the scope to, while the scope runs.
    // ANCHOR: spawn
    template <class Body>
    void spawn(Body&& body) {
        using B = std::decay_t<Body>;
        auto run = [this, body = std::optional<B>(std::forward<Body>(body))]() mutable noexcept {
            // call_once destroys body, and what it captured, before execute_job gives the count
            // back: once it is, scope may return, and a capture's destructor may write there.
            execute_job([&] { call_once(body, *this); });
        };
        using Job = HeapJob<decltype(run)>;
        const JobRef job = Job::into_job_ref(std::move(run));
        // Count the job before anyone can see it. Once published, a thief may run it to the end
        // at once; counted only then, its decrement would spend the count of the body (or of the
        // job that spawns it), the count could reach 0 with this job's work still to come, and
        // the owner would return from scope and pop the frame the late jobs write into.
        if constexpr (!sabotage::count_after_push) job_completed_latch_.increment();
        try {
            probe(Probe::scope_publish, job.data); // a test throws here, as an allocation can
            inject_or_push(job); // may throw: the deque grows, the injector takes a new block
        } catch (...) { // nobody saw the job: free it unrun, give its count back, tell the spawner
            Job::discard(job);
            if constexpr (!sabotage::count_after_push) CountLatch::set(&job_completed_latch_);
            throw;
        }
        probe(Probe::scope_spawned, job.data); // a test holds the spawner here
        if constexpr (sabotage::count_after_push) job_completed_latch_.increment(); // [COUNT_AFTER_PUSH]
    }
    // ANCHOR_END: spawn

    // Runs body(scope, context) once on every worker of the pool: defined in broadcast.hpp.
    template <class Body>
    void spawn_broadcast(Body&& body);

    // Runs the body, then works until the body and every job spawned have finished. Returns the
    // body's result, or rethrows the first exception once nothing can still write into this frame;
    // in_worker carries either to the caller of scope (a StackJob keeps a result or an exception).
    // ANCHOR: complete
    template <class Body>
    decltype(auto) complete(WorkerThread& owner, Body& body) {
        using Result = stored_t<std::invoke_result_t<Body&, Scope&>>;
        std::optional<slot_t<Result>> result; // a reference is kept as one (job.hpp)
        execute_job([&] { result.emplace(call(body, *this)); }); // the count's first 1
        owner.wait_until(job_completed_latch_.as_spin_latch()); // work while the jobs run
        if (panic_) std::rethrow_exception(panic_); // every job is done: no lock needed
        return take<Result>(result);
    }
    // ANCHOR_END: complete

private:
    friend class ScopeFifo;   // its spawn_fifo counts and runs its jobs here (scope_fifo.hpp)
    friend struct InPlace;    // in_place_scope runs the body on the caller (in_place_scope.hpp)
    friend class ScopeFused;  // its jobs and body run through its own execute_job (scope_fused.hpp)

    // Runs f, keeps the exception it throws, then counts it done.
    // ANCHOR: execute_job
    template <class F>
    void execute_job(F&& f) noexcept {
        try {
            f();
        } catch (...) {
            std::lock_guard lock(panic_mutex_);
            if (!panic_) panic_ = std::current_exception(); // the first one wins
        }
        CountLatch::set(&job_completed_latch_); // from here on *this may be gone
    }
    // ANCHOR_END: execute_job

    // rayon-core's Registry::inject_or_push (registry.rs, lines 414-423).
    // ANCHOR: inject_or_push
    void inject_or_push(JobRef job) {
        WorkerThread* w = WorkerThread::current();
        if (w != nullptr && &w->pool() == &pool_)
            w->push(job);
        else
            pool_.inject(job);
    }
    // ANCHOR_END: inject_or_push

    ThreadPool& pool_;
    CountLatch job_completed_latch_;
    std::mutex panic_mutex_;
    std::exception_ptr panic_;
};

// ANCHOR: pool_scope
template <class Body>
decltype(auto) ThreadPool::scope(Body&& body) {
    return in_worker([this, &body](WorkerThread& owner, bool) -> decltype(auto) {
        Scope s(*this);
        return s.complete(owner, body);
    });
}
// ANCHOR_END: pool_scope

// scope on the pool of the calling worker, or on the global pool from outside any pool.
template <class Body>
decltype(auto) scope(Body&& body) {
    WorkerThread* w = WorkerThread::current();
    return (w != nullptr ? w->pool() : ThreadPool::global()).scope(std::forward<Body>(body));
}

} // namespace mini
