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

#include <atomic>
#include <cassert>
#include <cstddef>
#include <list>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

#include <mini/job.hpp>
#include <mini/probe.hpp>

namespace mini {

class BroadcastQueues {
public:
    explicit BroadcastQueues(std::size_t num_threads)
        : queues_(std::make_unique<Queue[]>(num_threads)), n_(num_threads) {}

    // Job i to worker i, all under one mutex (rayon's inject_broadcast, registry.rs:482-484).
    // All or nothing: every node is allocated before the first job is queued, then linked in,
    // which cannot throw. A push that failed at copy i with copies 0..i-1 queued would leave
    // them pointing into the broadcast's frame, which the exception unwinds while a worker runs
    // them there (issue 47). rayon aborts on a failed allocation instead. The caller wakes the
    // workers afterwards.
    // ANCHOR: broadcast_push
    void push(const std::vector<JobRef>& jobs) {
        assert(jobs.size() == n_ && "a broadcast of one job per worker"); // rayon's assert_eq!
        std::list<JobRef> nodes;
        for (std::size_t i = 0; i < n_; ++i) {
            probe(Probe::broadcast_push, this, i); // a test throws here, as an allocation can
            nodes.push_back(jobs[i]); // may throw: nothing is queued yet
        }
        std::lock_guard lock(mutex_);
        for (std::size_t i = 0; i < n_; ++i) queues_[i].link(nodes); // no allocation, no throw
    }
    // ANCHOR_END: broadcast_push

    // Worker `index` only: the oldest broadcast job for it (FIFO: broadcasts run in the order
    // they were pushed).
    std::optional<JobRef> take(std::size_t index) { return queues_[index].take(); }

    // An acquire load of the queue's length: what a worker's last look before sleeping reads.
    bool is_empty(std::size_t index) const { return queues_[index].len() == 0; }
    std::size_t len() const {
        std::size_t total = 0;
        for (std::size_t i = 0; i < n_; ++i) total += queues_[i].len();
        return total;
    }

private:
    // One worker's FIFO, an injector (deque.hpp) over a std::list, whose node a push can
    // allocate before it queues anything. Each on cache lines of its own (pool.hpp's
    // cache_line): worker i reads its queue's length in every search, and a push into a
    // neighbour's queue must not evict that line.
    struct alignas(64) Queue {
        void link(std::list<JobRef>& nodes) noexcept { // moves the first of `nodes` to the back
            std::lock_guard lock(mutex);
            jobs.splice(jobs.end(), nodes, nodes.begin());
            length.store(jobs.size(), std::memory_order_release);
        }
        std::optional<JobRef> take() {
            if (len() == 0) return std::nullopt;
            std::lock_guard lock(mutex);
            if (jobs.empty()) return std::nullopt;
            const JobRef job = jobs.front();
            jobs.pop_front();
            length.store(jobs.size(), std::memory_order_release);
            return job;
        }
        std::size_t len() const { return length.load(std::memory_order_acquire); }

        std::mutex mutex;
        std::list<JobRef> jobs;
        std::atomic<std::size_t> length{0};
    };

    std::mutex mutex_;
    std::unique_ptr<Queue[]> queues_;
    const std::size_t n_;
};

} // namespace mini
