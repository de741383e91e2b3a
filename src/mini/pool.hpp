// The work-stealing pool: ThreadPool (the registry) and WorkerThread (one per thread).
//
// Each worker owns a LIFO deque. A worker looks for work in its own deque first (the newest job,
// still warm in its cache), then steals the oldest job of another worker (the biggest piece, in a
// fork-join tree), then takes from the global injector, where threads outside the pool put their
// jobs: "finish what we started before we take on something new", as rayon's comment says.
// A worker that finds nothing yields for a few rounds, then sleeps (sleep.hpp).
//
// A job's path: install() -> Injector -> a worker's wait_until loop -> join_context (join.hpp)
// pushes B onto that worker's deque -> thieves steal it -> ... -> the splitter's leaf.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <thread>
#include <type_traits>
#include <vector>

#include <mini/deque.hpp>
#include <mini/job.hpp>
#include <mini/latch.hpp>
#include <mini/probe.hpp>
#include <mini/sleep.hpp>

namespace mini {

class ThreadPool;

// The cache line by which ThreadPool keeps hot fields apart: 64 bytes, as on x86-64 and most ARM
// cores (Apple's M-series have 128), the same choice as the deque's alignas(64). Not
// std::hardware_destructive_interference_size: libc++ 14 lacks it, g++ 12 warns about it in a
// header (-Winterference-size: it follows -mtune, so two translation units could disagree on this
// class's layout), and for generic aarch64 g++ makes it 256.
inline constexpr std::size_t cache_line = 64;

// alignas(cache_line): each WorkerThread is a heap object of its own; aligned, its hot fields
// (the deque's inner pointer, rng_) share no line with a neighbouring allocation, which could be
// another worker's, written on every one of its steals.
class alignas(cache_line) WorkerThread {
public:
    WorkerThread(ThreadPool& pool, std::size_t index);

    // The worker this thread is, or nullptr on a thread outside every pool.
    static WorkerThread* current() noexcept { return current_; }

    ThreadPool& pool() const noexcept { return pool_; }
    std::size_t index() const noexcept { return index_; }

    // Owner only.
    void push(JobRef job);
    std::optional<JobRef> take_local_job() { return deque_.pop(); }
    std::optional<JobRef> find_work();
    // Runs other jobs until `latch` is set, sleeping when there are none; returns how many it ran.
    std::uint64_t wait_until(const SpinLatch& latch);
    void execute(JobRef job) noexcept {
        probe(Probe::job_begin, job.data);
        job.execute();
        probe(Probe::job_end, job.data); // the address only: *data may be gone
    }

private:
    friend class ThreadPool;
    std::optional<JobRef> steal();
    void main_loop();

    ThreadPool& pool_;
    const std::size_t index_;
    Worker<JobRef> deque_;
    std::uint64_t rng_; // xorshift state, for the first victim
    static inline thread_local WorkerThread* current_ = nullptr;
};

class ThreadPool {
public:
    // How many failed searches, each followed by a yield, before a worker sleeps.
    static constexpr int rounds_until_sleep = 4;

    // Throws std::invalid_argument for 0 threads; if a thread cannot be started, stops the ones
    // that were and rethrows (std::system_error).
    explicit ThreadPool(std::size_t num_threads);
    ThreadPool(const ThreadPool&) = delete;
    ThreadPool& operator=(const ThreadPool&) = delete;
    ~ThreadPool(); // wakes and joins every worker; no job may still be running

    // The pool used by join_context called outside any pool (rayon's global pool): as many
    // threads as the machine has cores, created on first use and never destroyed.
    static ThreadPool& global();

    std::size_t num_threads() const noexcept { return workers_.size(); }
    Sleep& sleep() noexcept { return sleep_; }
    const Sleep& sleep() const noexcept { return sleep_; }
    std::size_t queued() const { return injector_.len(); } // jobs in the injector, now

    // Runs op(worker, injected) on a worker of this pool: inline (injected = false) if the calling
    // thread is one, else injected and awaited on a LockLatch (injected = true).
    template <class Op>
    auto in_worker(Op&& op) {
        if (WorkerThread* w = WorkerThread::current(); w != nullptr && &w->pool() == this)
            return call(op, *w, false);
        return in_worker_cold(op);
    }

    // Runs f() on a worker of this pool and returns its result; from a worker of this pool, inline.
    // A void f gives Unit. An exception that escapes f aborts, from inside the pool and from
    // outside alike (propagating it is left out, as for join's closures: job.hpp).
    template <class F>
    auto install(F&& f) {
        return in_worker([&f](WorkerThread&, bool) { return call_or_abort("install's closure", f); });
    }

    // From outside the pool: publish a job in the injector, then wake a sleeper if there is one.
    void inject(JobRef job);

private:
    friend class WorkerThread;
    void terminate_and_join() noexcept;

    // ANCHOR: in_worker_cold
    template <class Op>
    auto in_worker_cold(Op& op) {
        auto body = [&op](bool injected) { return call(op, *WorkerThread::current(), injected); };
        StackJob<LockLatch, decltype(body)> job(std::move(body));
        inject(job.as_job_ref());
        // No work to do here: spin a few microseconds, then block until a worker ran it.
        job.latch().wait([this] { wake_second_worker(); });
        return job.into_result();
    }
    // ANCHOR_END: in_worker_cold

    // An outside caller whose job outlasted its spin is about to block, and its core to go
    // idle. If every worker sleeps but the one the inject woke, that job is likely a big one
    // that will fork: wake a second sleeper now. The kernel picks its core; woken from here, it
    // often gets this one, idle once the caller blocks. Woken later by the first worker's push,
    // it often lands on the pusher's core, where it waits a time slice or more while this one
    // stays idle (chapter 6). In a busier pool awake workers will steal from the first one, and
    // the wake would only cost CPU.
    // ANCHOR: wake_second_worker
    void wake_second_worker() {
        if (sleep_.sleepers() + 1 == num_threads()) sleep_.new_internal_job();
    }
    // ANCHOR_END: wake_second_worker

    std::vector<std::unique_ptr<WorkerThread>> workers_;
    std::vector<Stealer<JobRef>> stealers_;
    // Each on its own cache line (see cache_line): every idle worker reads the injector's length
    // and terminate_ in each search, while every sleep and wake writes the sleep mutex and the
    // sleep counters; sharing a line, each such write would evict the line the readers poll.
    alignas(cache_line) Injector<JobRef> injector_;
    alignas(cache_line) Sleep sleep_;
    alignas(cache_line) SpinLatch terminate_{&sleep_};
    std::vector<std::thread> threads_; // written only by the constructor: may share that line
};

} // namespace mini
