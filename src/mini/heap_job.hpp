// HeapJob: a job that lives in a box on the heap and frees itself when it has run.
//
// A StackJob (job.hpp) lives in its creator's frame, and the creator waits on its latch. A job
// that scope's spawn hands out has no such frame: the spawner goes on at once and may return
// long before the job runs. So the job is boxed, and its JobRef owns the box: execute runs the
// closure, then deletes the box (rayon-core's HeapJob, rayon-core-v1.13.0, rayon-core/src/job.rs,
// lines 126-171). It carries no latch; whoever needs to know it ran counts it (count_latch.hpp).
#pragma once

#include <memory>
#include <utility>

#include <mini/job.hpp>

namespace mini {

template <class F>
class HeapJob {
public:
    // Boxes `func`; the JobRef it returns must be executed exactly once, or the box leaks.
    static JobRef into_job_ref(F func) {
        return {new HeapJob(std::move(func)), &HeapJob::execute};
    }

    // Frees a box that was never published, without running it (its publish threw: scope.hpp).
    static void discard(JobRef job) noexcept { delete static_cast<HeapJob*>(job.data); }

private:
    explicit HeapJob(F func) : func_(std::move(func)) {}

    // ANCHOR: heapjob_execute
    static void execute(void* data) noexcept {
        std::unique_ptr<HeapJob> self(static_cast<HeapJob*>(data)); // freed on return
        self->func_(); // must not throw: scope's closure catches everything (scope.hpp), and it
                       // has destroyed its captures itself before it gave its count back
    }
    // ANCHOR_END: heapjob_execute

    F func_;
};

} // namespace mini
