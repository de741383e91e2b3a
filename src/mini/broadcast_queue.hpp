// BroadcastQueues: one FIFO queue of broadcast jobs per worker, filled under one mutex.
//
// A broadcast is N jobs pinned one per worker (broadcast.hpp). Job i goes into worker i's queue
// and nowhere else: no thief looks at it (steal() reads only the deques), so only worker i can run
// it, and its BroadcastContext::index() is i. rayon-core 1.13.0 keeps the push ends of N FIFO
// deques behind one mutex (registry.rs:132,263-269) and gives each worker the steal end of its own
// (registry.rs:285-292). The one lock over the whole push also gives every worker the same order
// for two racing broadcasts (rayon #492): barriers inside broadcasts A and B cannot interleave
// into a deadlock, A's copy first on one worker and B's first on another.
#pragma once

#include <cstddef>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

#include <mini/deque.hpp>
#include <mini/job.hpp>

namespace mini {

class BroadcastQueues {
public:
    explicit BroadcastQueues(std::size_t num_threads)
        : queues_(std::make_unique<Queue[]>(num_threads)), n_(num_threads) {}

    // Job i to worker i, all under one mutex (rayon's inject_broadcast, registry.rs:482-484).
    // The caller wakes the workers afterwards.
    // ANCHOR: broadcast_push
    void push(const std::vector<JobRef>& jobs) {
        std::lock_guard lock(mutex_);
        for (std::size_t i = 0; i < n_; ++i) queues_[i].push(jobs[i]);
    }
    // ANCHOR_END: broadcast_push

    // Worker `index` only: the oldest broadcast job for it (FIFO: broadcasts run in the order
    // they were pushed).
    std::optional<JobRef> take(std::size_t index) {
        if (auto s = queues_[index].steal(); s.success()) return s.value;
        return std::nullopt;
    }

    // An acquire load of the queue's length: what a worker's last look before sleeping reads.
    bool is_empty(std::size_t index) const { return queues_[index].is_empty(); }
    std::size_t len() const {
        std::size_t total = 0;
        for (std::size_t i = 0; i < n_; ++i) total += queues_[i].len();
        return total;
    }

private:
    // Each queue on cache lines of its own (pool.hpp's cache_line): worker i reads its queue's
    // length in every search, and a push into a neighbour's queue must not evict that line.
    struct alignas(64) Queue : Injector<JobRef> {};

    std::mutex mutex_;
    std::unique_ptr<Queue[]> queues_;
    const std::size_t n_;
};

} // namespace mini
