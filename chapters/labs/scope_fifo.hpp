// scope_fifo and spawn_fifo: a scope whose jobs each worker runs in the order it spawned them.
//
//     mini::scope_fifo([&](mini::ScopeFifo& s) {
//         for (int i = 0; i < 10; ++i) s.spawn_fifo([&, i](mini::ScopeFifo&) { ... });
//     });
//
// A Scope's spawn pushes onto the spawner's deque, and the spawner pops its newest job first: on
// one worker, ten spawns run last to first. rayon promises (rayon-core-v1.10.1, scope/mod.rs,
// lines 315-394, the doc of scope_fifo) that spawn_fifo's jobs are "prioritized in a FIFO order
// on each thread": those one worker spawned start oldest first, wherever they end up running; a
// thief still takes the oldest JobRef of a deque, so across threads and against other kinds of
// jobs there is no order. Each worker has its own queue in the scope (a JobFifo: job_fifo.hpp),
// and its deque gets one JobRef per job, each of which runs the queue's front job
// (ScopeFifo::spawn_fifo, scope/mod.rs lines 598-620). From outside the pool a job is injected,
// and the injector is FIFO already.
//
// Everything else is Scope's: the count of jobs still to run, the first exception kept and
// rethrown, the owner working until the count reaches 0 (scope.hpp). A ScopeFifo holds a Scope,
// as rayon's holds its ScopeBase, and hands its body and its jobs itself, not the Scope.
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <type_traits>
#include <utility>

#include <mini/heap_job.hpp>
#include <mini/job_fifo.hpp>
#include <mini/pool.hpp>
#include <mini/probe.hpp>
#include <mini/scope.hpp>

namespace mini {

class ScopeFifo {
public:
    explicit ScopeFifo(ThreadPool& pool)
        : base_(pool), fifos_(std::make_unique<JobFifo[]>(pool.num_threads())) {}
    ScopeFifo(const ScopeFifo&) = delete;
    ScopeFifo& operator=(const ScopeFifo&) = delete;

    // Runs body(scope) on some worker before the scope returns; the jobs one worker spawns start
    // in the order it spawned them.
    // ANCHOR: spawn_fifo
    template <class Body>
    void spawn_fifo(Body&& body) {
        using B = std::decay_t<Body>;
        auto run = [this, body = std::optional<B>(std::forward<Body>(body))]() mutable noexcept {
            // LAB: run step 1: the boxed job's closure: run the body once, the way every job of a scope runs (its exception kept, its count given back), handing it this ScopeFifo
            #error "lab: step run is not written yet (write it, then delete this line)"
            // LAB_END: run
        };
        using Job = HeapJob<decltype(run)>;
        const JobRef job = Job::into_job_ref(std::move(run));
        // LAB: count step 2: count the job in the scope (base_) while nobody can run it yet
        #error "lab: step count is not written yet (write it, then delete this line)"
        // LAB_END: count
        try {
            probe(Probe::scope_publish, job.data); // a test throws here, as an allocation can
            // LAB: queue step 3: publish the job so that the jobs one worker spawns start in the order it spawned them, whichever end of its deque they are taken from; a thread that is not a worker of this scope's pool has no queue of its own here
            #error "lab: step queue is not written yet (write it, then delete this line)"
            // LAB_END: queue
        } catch (...) { // the publish threw before anyone could run the job
            // LAB: giveback step 4: the publish threw before anyone could run the job: undo step 2, free the box unrun, let the spawner see the exception
            #error "lab: step giveback is not written yet (write it, then delete this line)"
            // LAB_END: giveback
        }
    }
    // ANCHOR_END: spawn_fifo

    // Scope::complete, with this ScopeFifo handed to the body.
    // ANCHOR: complete_fifo
    template <class Body>
    decltype(auto) complete(WorkerThread& owner, Body& body) {
        // LAB: complete step 5: run the scope as Scope::complete does (body, wait, rethrow or return), except that the body is handed this ScopeFifo
        #error "lab: step complete is not written yet (write it, then delete this line)"
        // LAB_END: complete
    }
    // ANCHOR_END: complete_fifo

private:
    friend struct InPlace;

    Scope base_;
    // One queue per worker of the pool, by index; they die with the scope, after its last job.
    std::unique_ptr<JobFifo[]> fifos_;
};

template <class Body>
decltype(auto) ThreadPool::scope_fifo(Body&& body) {
    return in_worker([this, &body](WorkerThread& owner, bool) -> decltype(auto) {
        ScopeFifo s(*this);
        return s.complete(owner, body);
    });
}

// scope_fifo on the pool of the calling worker, or on the global pool from outside any pool.
template <class Body>
decltype(auto) scope_fifo(Body&& body) {
    WorkerThread* w = WorkerThread::current();
    return (w != nullptr ? w->pool() : ThreadPool::global()).scope_fifo(std::forward<Body>(body));
}

} // namespace mini
