// scope_fused: a scope with a fuse. Once the body or a job of the scope has thrown, the jobs of
// the scope that have not started yet are skipped, and the first exception is rethrown.
//
//     mini::scope_fused([&](mini::ScopeFused& s) {
//         for (Item& item : items) s.spawn([&](mini::ScopeFused&) { check(item); });
//     });
//
// A Scope (scope.hpp) runs every job even after one threw, as rayon-core's does ("all spawned
// jobs still run", rayon-core-v1.13.0, rayon-core/src/scope/mod.rs, lines 269-276): the work
// after the first exception is wasted, since that exception is what the caller gets either way.
// ScopeFused is a Scope with rayon's panic_fuse as its model (v1.11.0, src/iter/panic_fuse.rs,
// lines 18-29 and 261-263): a flag that the first exception raises and that a job reads as it
// starts. A skipped job is still counted done, after its closure is destroyed unrun: the rules
// of chapter 8 hold for it as for a job that ran. A job that had started when the fuse blew runs
// to its end (it may ask panicked() and return early), and the scope waits for it. Not in
// rayon-core: a design of this workbook, and the scope lab (chapters/labs/scope.hpp).
#pragma once

#include <atomic>
#include <exception>
#include <mutex>
#include <optional>
#include <type_traits>
#include <utility>

#include <mini/count_latch.hpp>
#include <mini/heap_job.hpp>
#include <mini/pool.hpp>
#include <mini/probe.hpp>
#include <mini/scope.hpp>

namespace mini {

class ScopeFused {
public:
    explicit ScopeFused(ThreadPool& pool) : base_(pool) {}
    ScopeFused(const ScopeFused&) = delete;
    ScopeFused& operator=(const ScopeFused&) = delete;

    // True once the body or a job of this scope has thrown. A hint, as rayon's fuse is: a job
    // that starts later is skipped, and a long job may ask it and return early.
    bool panicked() const noexcept { return panicked_.load(std::memory_order_relaxed); }

    // Runs body(scope) on some worker of the pool before the scope returns, unless the fuse has
    // blown by the time it starts. Counted and published as Scope::spawn does.
    // ANCHOR: spawn_fused
    template <class Body>
    void spawn(Body&& body) {
        using B = std::decay_t<Body>;
        auto run = [this, body = std::optional<B>(std::forward<Body>(body))]() mutable noexcept {
            execute_job([&] {
                if (panicked()) return body.reset(); // skipped: destroyed unrun, before its count
                call_once(body, *this);
            });
        };
        using Job = HeapJob<decltype(run)>;
        const JobRef job = Job::into_job_ref(std::move(run));
        base_.job_completed_latch_.increment(); // before anyone can see it (chapter 8)
        try {
            probe(Probe::scope_publish, job.data); // a test throws here, as an allocation can
            base_.inject_or_push(job);
        } catch (...) { // nobody saw the job: free it unrun, give its count back, tell the spawner
            Job::discard(job);
            CountLatch::set(&base_.job_completed_latch_);
            throw;
        }
    }
    // ANCHOR_END: spawn_fused

    // Runs the body (never skipped: nothing can have thrown before it), then works until the
    // body and every job are done, skipped ones included; rethrows the first exception or
    // returns the body's result.
    // ANCHOR: complete_fused
    template <class Body>
    decltype(auto) complete(WorkerThread& owner, Body& body) {
        using Result = stored_t<std::invoke_result_t<Body&, ScopeFused&>>;
        std::optional<slot_t<Result>> result; // a reference is kept as one (job.hpp)
        execute_job([&] { result.emplace(call(body, *this)); }); // the body may blow the fuse
        owner.wait_until(base_.job_completed_latch_.as_spin_latch()); // skipped jobs count too
        if (base_.panic_) std::rethrow_exception(base_.panic_); // the first one, kept below
        return take<Result>(result);
    }
    // ANCHOR_END: complete_fused

private:
    // Runs f, keeps its exception if it is the first and blows the fuse, then counts it done.
    // ANCHOR: execute_job_fused
    template <class F>
    void execute_job(F&& f) noexcept {
        try {
            f();
        } catch (...) {
            std::lock_guard lock(base_.panic_mutex_);
            if (!base_.panic_) base_.panic_ = std::current_exception();
            panicked_.store(true, std::memory_order_relaxed); // the jobs not yet started skip
        }
        CountLatch::set(&base_.job_completed_latch_); // skipped, ran or threw: from here on *this may be gone
    }
    // ANCHOR_END: execute_job_fused

    Scope base_; // the count, the first exception and its mutex, inject_or_push
    std::atomic<bool> panicked_{false}; // the fuse
};

// scope_fused on `pool`: the body on one of its workers (from outside, through its injector).
template <class Body>
decltype(auto) scope_fused(ThreadPool& pool, Body&& body) {
    return pool.in_worker([&pool, &body](WorkerThread& owner, bool) -> decltype(auto) {
        ScopeFused s(pool);
        return s.complete(owner, body);
    });
}

// scope_fused on the pool of the calling worker, or on the global pool from outside any pool.
template <class Body>
decltype(auto) scope_fused(Body&& body) {
    WorkerThread* w = WorkerThread::current();
    return scope_fused(w != nullptr ? w->pool() : ThreadPool::global(), body);
}

} // namespace mini
