// The jobs and the latch of a broadcast.
//
// A broadcast's N StackJobs (job.hpp) live in the caller's frame and share one count of N: each
// copy's latch is a LatchRef to it (rayon's LatchRef, latch.rs:452-456), and the last of the N
// sets the latch the caller waits on. A spawn_broadcast has no frame to live in: its N JobRefs
// share one box, an ArcJob, freed by the copy that runs last (rayon's ArcJob, job.rs:175-214).
#pragma once

#include <atomic>
#include <cstddef>
#include <utility>
#include <vector>

#include <mini/job.hpp>

namespace mini {

// A count of `n` in front of a latch L (a SpinLatch for a caller that is a worker, a LockLatch
// for a thread outside every pool: rayon's CountLatch kinds, latch.rs:364-378). The count must be
// exactly the number of jobs: one too few and the caller returns, pops the frame with the jobs in
// it, while a copy still runs there.
template <class L>
class CountedLatch {
public:
    template <class... Args>
    explicit CountedLatch(std::size_t n, Args&&... args)
        : counter_(n), latch_(std::forward<Args>(args)...) {}

    L& latch() noexcept { return latch_; }

    // As CountLatch::set (count_latch.hpp): only the 1 -> 0 step touches the latch, and nobody
    // touches *self after its own decrement otherwise.
    static void set(CountedLatch* self) noexcept {
        L* latch = &self->latch_; // an address, computed before: no read of *self after
        if (self->counter_.fetch_sub(1, std::memory_order_acq_rel) == 1) L::set(latch);
    }

private:
    std::atomic<std::size_t> counter_;
    L latch_;
};

// The latch of one copy: a pointer to the shared one (a StackJob owns its latch by value).
template <class L>
class LatchRef {
public:
    explicit LatchRef(L* target) noexcept : target_(target) {}
    static void set(LatchRef* self) noexcept { L::set(self->target_); } // reads target_ first

private:
    L* const target_;
};

// What a copy does after the box is gone: nothing, unless the owner of the copies says.
struct NoThen {
    void operator()() const noexcept {}
};

// One closure behind n JobRefs. The copies call it at once on different workers: through a
// const reference, as rayon's Fn + Sync. The last copy to finish frees the box, closure and
// captures with it; then every copy calls `then`, copied out of the box first. A spawn_broadcast
// gives its terminate count back there: after the box, since a capture's destructor may still
// spawn into the pool, which must then still count (rayon's ArcJob is dropped before the count
// is given back).
template <class F, class Then = NoThen>
class ArcJob {
public:
    // May throw (the vector's or the box's allocation, F's move): then nothing is left behind.
    static std::vector<JobRef> into_job_refs(F func, std::size_t n, Then then = {}) {
        std::vector<JobRef> refs(n);
        auto* job = new ArcJob(std::move(func), n, then);
        for (JobRef& ref : refs) ref = JobRef{job, &ArcJob::execute};
        return refs;
    }

    // Frees a box whose refs were never published, without running it (their publish threw).
    static void discard(const std::vector<JobRef>& refs) noexcept {
        delete static_cast<ArcJob*>(refs.front().data);
    }

private:
    ArcJob(F func, std::size_t n, Then then) : func_(std::move(func)), then_(then), refs_(n) {}

    // ANCHOR: arcjob_execute
    static void execute(void* data) noexcept {
        auto* self = static_cast<ArcJob*>(data);
        std::as_const(self->func_)(); // must not throw: its callers catch everything
        const Then then = self->then_; // copied out: the box may go next
        if (self->refs_.fetch_sub(1, std::memory_order_acq_rel) == 1) delete self; // the last copy
        then();
    }
    // ANCHOR_END: arcjob_execute

    F func_;
    const Then then_;
    std::atomic<std::size_t> refs_;
};

} // namespace mini
