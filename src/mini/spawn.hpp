// spawn outside a scope: fire and forget, on a pool that outlives the job.
//
//     pool.spawn([data = std::move(data)] { ... });  // returns at once
//
// Nothing waits for a spawned job, so nothing in the caller's frame may be borrowed: the closure
// owns what it uses. The pool does wait: each spawn adds 1 to its terminate count before the job
// is published and the job takes it away when it is done; the destructor takes away the pool's
// own 1, and only the step to 0 sets the terminate latch that lets the workers leave their loop
// (rayon's terminate count: registry.rs, Registry::increment_terminate_count and terminate). A
// pool destroyed right after a spawn therefore runs the job first.
// An exception that escapes the job goes to the pool's panic handler (ThreadPool(n, handler)),
// or, without one, aborts the process (rayon's Registry::catch_unwind, registry.rs:375-384).
#pragma once

#include <exception>
#include <optional>
#include <type_traits>
#include <utility>

#include <mini/heap_job.hpp>
#include <mini/pool.hpp>

namespace mini {

// ANCHOR: pool_spawn
template <class Op>
void ThreadPool::spawn(Op&& op) {
    auto run = [this, op = std::optional<std::decay_t<Op>>(std::forward<Op>(op))]() mutable noexcept {
        try {
            (*op)();
        } catch (...) {
            handle_panic(std::current_exception());
        }
        op.reset();  // the op and its captures go now, while the pool still runs
        terminate(); // from here on the pool may be gone
    };
    using Job = HeapJob<decltype(run)>;
    const JobRef job = Job::into_job_ref(std::move(run)); // may throw: not counted yet
    // Counted before the job is published: a worker may run it to the end at once, and its
    // terminate() must not spend the count that keeps the pool's workers alive for others.
    increment_terminate_count(1);
    try {
        inject_or_push(job); // may throw: the deque grows, the injector takes a new block
    } catch (...) { // nobody saw the job: free it unrun, give its count back
        Job::discard(job);
        terminate();
        throw;
    }
}
// ANCHOR_END: pool_spawn

// A worker of this pool pushes onto its own deque (rayon's spawn: LIFO, the newest spawn runs
// first on this worker, the oldest is stolen first); any other thread injects.
inline void ThreadPool::inject_or_push(JobRef job) {
    WorkerThread* w = WorkerThread::current();
    if (w != nullptr && &w->pool() == this)
        w->push(job);
    else
        inject(job);
}

// The pool of the calling worker, or the global pool from outside any pool.
inline ThreadPool& current_pool() {
    WorkerThread* w = WorkerThread::current();
    return w != nullptr ? w->pool() : ThreadPool::global();
}

template <class Op>
void spawn(Op&& op) {
    current_pool().spawn(std::forward<Op>(op));
}

} // namespace mini
