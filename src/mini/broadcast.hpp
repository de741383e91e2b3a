// broadcast: run an op once on every worker of a pool, each copy on its own worker.
//
//     std::vector<std::size_t> v = pool.broadcast([](mini::BroadcastContext c) { return c.index(); });
//     // v == {0, 1, ..., n-1}: copy i ran on worker i
//
// Delivery (rayon-core 1.13.0, broadcast/mod.rs:97-120 and registry.rs:465-489): the N copies
// are StackJobs in the caller's frame, job i pushed into worker i's own broadcast queue under one
// mutex (broadcast_queue.hpp); then every worker is woken, asleep or not, since only worker i can
// run job i. A worker drains its broadcast queue after its own deque and before stealing, and
// looks at it once more before it sleeps (rayon #992). The caller waits for a count of N: a worker
// of this pool works meanwhile (its own copy sits in its own queue: blocked, it would wait for
// itself), a worker of another pool runs its own pool's jobs as in_worker_cross does, and a thread
// outside every pool blocks.
// If copies throw, every copy still runs (each StackJob keeps its exception and counts down),
// and the exception of the lowest index is rethrown; the others are dropped, as rayon's are.
//
// This header declares the whole of chapter 12: broadcast, spawn_broadcast (here), spawn
// (spawn.hpp), Scope::spawn_broadcast (here), yield_now and the thread queries (yield.hpp).
#pragma once

#include <cstddef>
#include <optional>
#include <type_traits>
#include <utility>
#include <vector>

#include <mini/broadcast_job.hpp>
#include <mini/job.hpp>
#include <mini/latch.hpp>
#include <mini/pool.hpp>
#include <mini/scope.hpp>
#include <mini/spawn.hpp>
#include <mini/yield.hpp>

namespace mini {

// What a copy of a broadcast knows: which worker runs it, of how many (rayon's BroadcastContext,
// broadcast/mod.rs:45-78). The index is the running worker's, so it names the copy only because
// job i can run on worker i alone.
class BroadcastContext {
public:
    explicit BroadcastContext(const WorkerThread& worker) noexcept : worker_(&worker) {}
    std::size_t index() const noexcept { return worker_->index(); }
    std::size_t num_threads() const noexcept { return worker_->pool().num_threads(); }

private:
    const WorkerThread* worker_;
};

// rayon's Fn + Sync: every worker calls the op at once, so mini calls it through a const
// reference. A mutable lambda (or an operator() that is not const) would have its state written
// by every worker at once, a data race; it does not compile, with this message.
template <class Op, class... Args>
inline constexpr bool callable_through_const = std::is_invocable_v<const std::decay_t<Op>&, Args...>;

// The three callers of rayon's broadcast_in, each with the latch it can wait on.
// ANCHOR: broadcast
template <class Op>
auto ThreadPool::broadcast(Op&& op) {
    static_assert(callable_through_const<Op, BroadcastContext>,
                  "mini::broadcast: every worker calls op at once, through a const reference "
                  "(rayon's Fn + Sync): no mutable lambda; keep what it writes in atomics");
    const std::size_t n = num_threads();
    WorkerThread* w = WorkerThread::current();
    if (w == nullptr) { // outside every pool: nothing to run, block
        CountedLatch<LockLatch> latch(n);
        return broadcast_in(op, latch, [&] { latch.latch().wait(); });
    }
    if (&w->pool() == this) { // our own copy is in our own queue: work while we wait
        CountedLatch<SpinLatch> latch(n, &sleep_);
        return broadcast_in(op, latch, [&] { w->wait_until(latch.latch()); });
    }
    // A worker of another pool: run that pool's jobs while we wait (broadcast_mutual); the last
    // copy's set wakes us in our pool's sleep, which the cross latch keeps alive meanwhile.
    CountedLatch<SpinLatch> latch(n, SpinLatch::cross, w->pool().sleep_owner_);
    return broadcast_in(op, latch, [&] { w->wait_until(latch.latch()); });
}
// ANCHOR_END: broadcast

// ANCHOR: broadcast_in
template <class Op, class Latch, class Wait>
auto ThreadPool::broadcast_in(const Op& op, Latch& latch, Wait&& wait) {
    auto body = [&op](bool) { return call(op, BroadcastContext(*WorkerThread::current())); };
    using Job = StackJob<LatchRef<Latch>, decltype(body)>;
    std::vector<std::optional<Job>> jobs(num_threads()); // in this frame until the count is 0
    std::vector<JobRef> refs;
    for (auto& job : jobs) refs.push_back(job.emplace(body, &latch).as_job_ref());
    inject_broadcast(refs);
    wait(); // every copy has run: jobs may go
    using R = std::invoke_result_t<const Op&, BroadcastContext>;
    if constexpr (std::is_void_v<R>) {
        for (auto& job : jobs) job->into_result(); // rethrows the lowest index's exception
    } else {
        std::vector<R> results;
        results.reserve(jobs.size());
        for (auto& job : jobs) results.push_back(job->into_result());
        return results;
    }
}
// ANCHOR_END: broadcast_in

// Fire and forget, once on every worker: each copy counts in the terminate count (spawn.hpp);
// the copies share one box, freed by the last before it gives its count back (rayon's
// spawn_broadcast, broadcast/mod.rs:132-147). Built before it counts: a copy or an allocation
// that throws leaves no count behind (issue 47).
// ANCHOR: spawn_broadcast
template <class Op>
void ThreadPool::spawn_broadcast(Op&& op) {
    static_assert(callable_through_const<Op, BroadcastContext>,
                  "mini::spawn_broadcast: every worker calls op at once, through a const reference "
                  "(rayon's Fn + Sync): no mutable lambda; keep what it writes in atomics");
    const std::size_t n = num_threads();
    auto run = [this, op = std::decay_t<Op>(std::forward<Op>(op))]() noexcept {
        try {
            op(BroadcastContext(*WorkerThread::current()));
        } catch (...) {
            handle_panic(std::current_exception()); // once per throwing copy
        }
    };
    auto then = [this]() noexcept { terminate(); }; // after the last copy freed the op
    using Job = ArcJob<decltype(run), decltype(then)>;
    const std::vector<JobRef> jobs = Job::into_job_refs(std::move(run), n, then); // may throw
    increment_terminate_count(n); // before any copy can run and terminate()
    try {
        inject_broadcast(jobs); // all or nothing (broadcast_queue.hpp)
    } catch (...) { // no copy was queued: free the box unrun, give the n counts back
        Job::discard(jobs);
        for (std::size_t i = 0; i < n; ++i) terminate();
        throw;
    }
}
// ANCHOR_END: spawn_broadcast

// body(scope, context) once on every worker, counted in the scope as N spawns (rayon's
// Scope::spawn_broadcast, scope/mod.rs:545-558,652-663). The copies share one box; the last one
// frees it after its count, so the closure must hold only what may outlive the scope's return
// by a moment (references, pointers, values whose destructor touches nothing of the scope).
// ANCHOR: scope_spawn_broadcast
template <class Body>
void Scope::spawn_broadcast(Body&& body) {
    static_assert(callable_through_const<Body, Scope&, BroadcastContext>,
                  "mini::Scope::spawn_broadcast: every worker calls body at once, through a const "
                  "reference (rayon's Fn + Sync): no mutable lambda; keep what it writes in atomics");
    const std::size_t n = pool_.num_threads();
    auto run = [this, body = std::decay_t<Body>(std::forward<Body>(body))]() noexcept {
        execute_job([&] { body(*this, BroadcastContext(*WorkerThread::current())); });
    };
    using Job = ArcJob<decltype(run)>;
    const std::vector<JobRef> jobs = Job::into_job_refs(std::move(run), n); // may throw: uncounted
    for (std::size_t i = 0; i < n; ++i) job_completed_latch_.increment(); // before publishing
    try {
        pool_.inject_broadcast(jobs); // all or nothing (broadcast_queue.hpp)
    } catch (...) { // no copy was queued: free the box unrun, give the n counts back
        Job::discard(jobs);
        for (std::size_t i = 0; i < n; ++i) CountLatch::set(&job_completed_latch_);
        throw;
    }
}
// ANCHOR_END: scope_spawn_broadcast

// On the calling worker's pool, or on the global pool from outside any pool.
template <class Op>
auto broadcast(Op&& op) {
    return current_pool().broadcast(std::forward<Op>(op));
}

template <class Op>
void spawn_broadcast(Op&& op) {
    current_pool().spawn_broadcast(std::forward<Op>(op));
}

} // namespace mini
