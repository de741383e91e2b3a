// JobFifo: a queue of jobs that one worker spawned, run oldest first whatever end of the deque
// its JobRefs are taken from.
//
// A worker's deque is LIFO for its owner: the newest job runs first. spawn_fifo wants the oldest
// first, on that worker, without a second deque the worker loop would have to search. rayon's
// trick (rayon-core-v1.10.1, rayon-core/src/job.rs, JobFifo, lines 232-264): the job goes into a
// FIFO queue, and the deque gets a JobRef to the queue itself, the same one for every job pushed.
// Whoever runs one of those JobRefs, the owner popping its newest or a thief stealing its
// oldest, runs the queue's front job. There are always as many JobRefs on deques as jobs in the
// queue, so each run finds one.
//
// One queue per worker (ScopeFifo keeps one per worker of its pool, WorkerThread one for the
// pool's spawn_fifo): only that worker pushes into it, anyone pops its front.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <deque>
#include <mutex>

#include <mini/job.hpp>

namespace mini {

class JobFifo {
public:
    JobFifo() = default;
    JobFifo(const JobFifo&) = delete;
    JobFifo& operator=(const JobFifo&) = delete;

    // Queues `job` and returns the JobRef that stands for "the front job of this queue": the
    // caller pushes that onto its deque. Throws what the queue's allocation throws, unchanged.
    JobRef push(JobRef job) {
        std::lock_guard lock(mutex_);
        jobs_.push_back(job);
        return {this, &JobFifo::execute};
    }

    // Takes back the job just pushed when the push of its JobRef onto the deque threw. It is the
    // newest, and still queued: the other JobRefs out there are one fewer than the jobs, so their
    // runs cannot have taken all of them (WorkerThread::push_fifo).
    void pop_newest() noexcept {
        std::lock_guard lock(mutex_);
        jobs_.pop_back();
    }

    bool empty() const {
        std::lock_guard lock(mutex_);
        return jobs_.empty();
    }

private:
    // "Runs the queue": takes its front job out under the lock, then runs it with the lock
    // released. Nothing of *this is touched once the job runs: it may be the last job of a scope
    // whose queues die when the scope returns.
    static void execute(void* data) noexcept {
        auto* self = static_cast<JobFifo*>(data);
        JobRef front;
        {
            std::lock_guard lock(self->mutex_);
            if (self->jobs_.empty()) {
                // rayon panics "FIFO is empty": a JobRef ran that stood for no job.
                std::fputs("mini: a JobFifo ran with no job queued\n", stderr);
                std::abort();
            }
            front = self->jobs_.front();
            self->jobs_.pop_front();
        }
        front.execute();
    }

    mutable std::mutex mutex_;
    std::deque<JobRef> jobs_;
};

} // namespace mini
