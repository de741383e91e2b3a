// spawn_fifo outside a scope: fire and forget, each worker's jobs started oldest first.
//
//     pool.spawn_fifo([data = std::move(data)] { ... });  // returns at once
//
// ThreadPool::spawn (spawn.hpp) with the order of scope_fifo: a worker of the pool puts the job
// into its own JobFifo and pushes the queue's JobRef onto its deque (job_fifo.hpp); any other
// thread injects it (rayon-core-v1.10.1, spawn/mod.rs lines 130-160, spawn_fifo and
// spawn_fifo_in; registry.rs lines 714-716, push_fifo). The terminate count, the panic handler
// and the closure that owns everything it uses are spawn's.
// A publish that throws (the queue or the deque could not grow) frees the job unrun, gives its
// terminate count back and reaches the caller: rayon aborts there (AbortIfPanic).
#pragma once

#include <exception>
#include <optional>
#include <type_traits>
#include <utility>

#include <mini/heap_job.hpp>
#include <mini/pool.hpp>
#include <mini/spawn.hpp>

namespace mini {

template <class Op>
void ThreadPool::spawn_fifo(Op&& op) {
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
    const JobRef job = Job::into_job_ref(std::move(run));
    increment_terminate_count(1); // before the job is published: see spawn
    try {
        WorkerThread* w = WorkerThread::current();
        if (w != nullptr && &w->pool() == this)
            w->push_fifo(job);
        else
            inject(job);
    } catch (...) { // nobody saw the job: the pool's own 1 keeps this from reaching 0
        Job::discard(job);
        terminate();
        throw;
    }
}

template <class Op>
void spawn_fifo(Op&& op) {
    current_pool().spawn_fifo(std::forward<Op>(op));
}

} // namespace mini
