// yield_now and yield_local: let a worker that waits for something outside the pool run one
// pending job meanwhile, and the queries of where the calling thread runs.
//
// Neither calls the OS's yield (rayon-core 1.13.0, thread_pool/mod.rs:465-502): yield_now runs
// one job from anywhere a search looks (own deque, own broadcast queue, other workers, the
// injector: WorkerThread::find_work); yield_local only from this worker's own queues
// (take_local_job), so it never takes a job from another thread. Outside every pool there is
// nothing to run: nullopt.
#pragma once

#include <cstddef>
#include <optional>

#include <mini/pool.hpp>

namespace mini {

enum class Yield { executed, idle };

// ANCHOR: yield_now
inline std::optional<Yield> yield_now() {
    WorkerThread* w = WorkerThread::current();
    if (w == nullptr) return std::nullopt;
    std::optional<JobRef> job = w->find_work();
    if (!job) return Yield::idle;
    w->execute(*job);
    return Yield::executed;
}
// ANCHOR_END: yield_now

inline std::optional<Yield> yield_local() {
    WorkerThread* w = WorkerThread::current();
    if (w == nullptr) return std::nullopt;
    std::optional<JobRef> job = w->take_local_job();
    if (!job) return Yield::idle;
    w->execute(*job);
    return Yield::executed;
}

// The index of the calling worker in its pool, or nullopt outside every pool.
inline std::optional<std::size_t> current_thread_index() {
    const WorkerThread* w = WorkerThread::current();
    if (w == nullptr) return std::nullopt;
    return w->index();
}

// The number of workers of the calling worker's pool, or of the global pool outside every pool.
inline std::size_t current_num_threads() {
    const WorkerThread* w = WorkerThread::current();
    return (w != nullptr ? w->pool() : ThreadPool::global()).num_threads();
}

} // namespace mini
