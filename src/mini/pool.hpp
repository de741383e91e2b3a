// The work-stealing pool: ThreadPool (the registry) and WorkerThread (one per thread).
//
// Each worker owns a LIFO deque. A worker looks for work in its own deque first (the newest job,
// still warm in its cache), then steals the oldest job of another worker (the biggest piece, in a
// fork-join tree), then takes from the global injector, where threads outside the pool put their
// jobs: "finish what we started before we take on something new", as rayon's comment says.
// A worker that finds nothing searches again for a bounded time, then sleeps (sleep.hpp).
//
// A job's path: install() -> Injector -> a worker's wait_until loop -> join_context (join.hpp)
// pushes B onto that worker's deque -> thieves steal it -> ... -> the splitter's leaf.
#pragma once

#include <algorithm>
#include <atomic>
#include <cassert>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <functional>
#include <memory>
#include <optional>
#include <thread>
#include <type_traits>
#include <vector>

#include <mini/broadcast_queue.hpp>
#include <mini/deque.hpp>
#include <mini/job.hpp>
#include <mini/job_fifo.hpp>
#include <mini/latch.hpp>
#include <mini/probe.hpp>
#include <mini/sabotage.hpp>
#include <mini/sleep_counters.hpp>

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
    // Owner only: `job` into `fifo`, one of this worker's FIFO queues, and the queue's JobRef onto
    // the deque (rayon's push_fifo, registry.rs:714-716; job_fifo.hpp). If the deque's push
    // throws, the job is taken back out of the queue: no JobRef stands for it. The pool's
    // spawn_fifo uses the worker's own queue; a ScopeFifo has one per worker.
    void push_fifo(JobFifo& fifo, JobRef job) {
        const JobRef front = fifo.push(job);
        try {
            push(front);
        } catch (...) {
            fifo.pop_newest();
            throw;
        }
    }
    void push_fifo(JobRef job) { push_fifo(fifo_, job); }
    // Own deque first, then own broadcast queue (rayon's take_local_job, registry.rs:749-763):
    // join's wait and every search drain broadcasts before they steal (chapter 12).
    std::optional<JobRef> take_local_job();
    // The last look before sleeping: a job this worker may run that no search found (rayon's
    // has_injected_job, registry.rs:765-766; its own broadcast queue is rayon #992's fix).
    bool has_injected_job() const;
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
    bool any_deque_has_work() const;
    void main_loop();

    ThreadPool& pool_;
    const std::size_t index_;
    Worker<JobRef> deque_;
    std::uint64_t rng_; // xorshift state, for the first victim
    JobFifo fifo_;      // the pool's spawn_fifo jobs this worker spawned (spawn_fifo.hpp)
    static inline thread_local WorkerThread* current_ = nullptr;
};

class ThreadPool {
public:
    // How long a worker that finds nothing keeps searching, with cpu_relax between searches,
    // before it sleeps. A time, not a count of yields: on a busy core a yield can give away a
    // whole time slice, while a job injected meanwhile waits (chapter 6, "A busy machine").
    static constexpr std::chrono::nanoseconds search_time_before_sleep = std::chrono::microseconds(80);

    // What a searching worker does between two failed searches: keep its core (cpu_relax) while
    // the pool's awake workers fit on the machine's cores, each then has one, and a yield could
    // only hand it to another program's thread for a time slice. Yield it when they outnumber
    // the cores and one of them is not searching: that one has work and may wait for a core, as
    // rayon's searching worker yields between its rounds (rayon-core 1.13.0, sleep/mod.rs:87-108,
    // no_work_found). When all of them search, a yield helps nobody of the pool and gives the
    // core to whatever else runs. The bound above holds either way: a yield counts its time.
    // ANCHOR: search_yields
    static constexpr bool search_yields(std::size_t awake, std::size_t searching,
                                        std::size_t cores) noexcept {
        return awake > cores && awake > searching;
    }
    // ANCHOR_END: search_yields

    // Throws std::invalid_argument for 0 threads; if a thread cannot be started, stops the ones
    // that were and rethrows (std::system_error).
    // More than max_num_threads() gives max_num_threads().
    explicit ThreadPool(std::size_t num_threads);
    ThreadPool(const ThreadPool&) = delete;
    ThreadPool& operator=(const ThreadPool&) = delete;
    // Waits for every spawned job, then wakes and joins every worker. Refused (a message, then
    // abort) on a worker of this pool, which would join itself, and when a caller still waits
    // inside install, join, scope or broadcast with its job queued: in Rust the borrow of the
    // pool rules both out.
    ~ThreadPool();

    // rayon's max_num_threads (rayon-core 1.13.0, registry.rs:246 clamps every pool to it): the
    // per-worker sleep packs its thread counts in 16 bits (sleep_counters.hpp), and one more
    // thread would carry into the next count. The pool's sleep has no such limit; both clamp.
    static constexpr std::size_t max_num_threads() noexcept { return threads_max; }

    // The pool used by join_context called outside any pool (rayon's global pool): as many
    // threads as the machine has cores, created on first use and never destroyed.
    static ThreadPool& global();

    std::size_t num_threads() const noexcept { return workers_.size(); }
    // The machine's cores as the standard library tells them (at least 1), read once.
    std::size_t cores() const noexcept { return cores_; }
    Sleep& sleep() noexcept { return sleep_; }
    const Sleep& sleep() const noexcept { return sleep_; }
    std::size_t queued() const { return injector_.len(); } // jobs in the injector, now

    // Runs op(worker, injected) on a worker of this pool, from one of three callers (rayon-core
    // 1.13.0, registry.rs:496-514, Registry::in_worker):
    // - a worker of this pool runs it inline (injected = false);
    // - a thread outside every pool injects it and blocks on a LockLatch (in_worker_cold);
    // - a worker of another pool injects it and keeps running its own pool's jobs meanwhile
    //   (in_worker_cross): blocked, it could hold the only thread that runs a job the op waits for.
    // ANCHOR: in_worker
    template <class Op>
    decltype(auto) in_worker(Op&& op) {
        WorkerThread* w = WorkerThread::current();
        if (w != nullptr && &w->pool() == this) return call(op, *w, false);
        if (w == nullptr) return in_worker_cold(op);
        if constexpr (sabotage::block_cross) return in_worker_cold(op); // [BLOCK_CROSS] blocks
        return in_worker_cross(op, *w);
    }
    // ANCHOR_END: in_worker

    // Runs f() on a worker of this pool and returns its result; from a worker of this pool, inline.
    // A void f gives Unit. An exception that escapes f reaches the caller, from inside the pool
    // (it unwinds directly) and from outside (in_worker_cold's StackJob keeps it and rethrows it).
    template <class F>
    decltype(auto) install(F&& f) {
        return in_worker([&f](WorkerThread&, bool) -> decltype(auto) { return call(f); });
    }

    // From outside the pool: publish a job in the injector, then wake a sleeper if there is one.
    void inject(JobRef job);

    // Runs body(Scope&) on a worker of this pool, with the jobs it spawns: defined in scope.hpp.
    template <class Body>
    decltype(auto) scope(Body&& body);
    // The same with body(ScopeFifo&), whose spawn_fifo runs a worker's jobs oldest first:
    // scope_fifo.hpp. The in_place_ kinds run the body on the calling thread, wherever it is.
    template <class Body>
    decltype(auto) scope_fifo(Body&& body);
    template <class Body>
    decltype(auto) in_place_scope(Body&& body);
    template <class Body>
    decltype(auto) in_place_scope_fifo(Body&& body);
    template <class Op>
    void spawn_fifo(Op&& op); // spawn, oldest first on each worker: spawn_fifo.hpp
    // A here, on a worker of another pool, while B runs on this one; both results: join_across.hpp.
    template <class A, class B>
    auto join_across(A&& a, B&& b);

    // ---- Chapter 12: broadcast, spawn (defined in broadcast.hpp and spawn.hpp) ----
    // What an exception that escapes a spawned job is handed to (rayon's panic_handler); a pool
    // built without one aborts instead.
    using PanicHandler = std::function<void(std::exception_ptr)>;
    ThreadPool(std::size_t num_threads, PanicHandler panic_handler);
    template <class Op>
    auto broadcast(Op&& op); // op(BroadcastContext) once per worker: vector<R> by index, or void
    template <class Op>
    void spawn(Op&& op); // fire and forget: the destructor waits for it
    template <class Op>
    void spawn_broadcast(Op&& op); // fire and forget, once on every worker
    std::size_t queued_broadcasts() const { return broadcasts_.len(); } // all queues, now

private:
    friend class WorkerThread;
    friend class Scope; // its spawn_broadcast calls inject_broadcast (rayon: pub(super))
    void terminate_and_join() noexcept;
    bool search_yields_now() const noexcept; // search_yields for this pool, now (pool.cpp)

    // ---- Chapter 12 (broadcast.hpp, spawn.hpp, pool.cpp) ----
    // Job i into worker i's broadcast queue, all or nothing, then wake every worker. jobs.size()
    // must be num_threads() (BroadcastQueues::push asserts it): private, as rayon's is pub(super).
    void inject_broadcast(const std::vector<JobRef>& jobs);
    template <class Op, class Latch, class Wait>
    auto broadcast_in(const Op& op, Latch& latch, Wait&& wait);
    void inject_or_push(JobRef job);
    void increment_terminate_count(std::size_t n) noexcept {
        // Relaxed: the push after it orders it. From 0, the workers may have left, and the job
        // about to be published would never run (rayon's debug_assert!(previous != 0) in
        // Registry::increment_terminate_count).
        const std::size_t previous = terminate_count_.fetch_add(n, std::memory_order_relaxed);
        assert(previous != 0 && "a job spawned into a pool whose terminate count reached 0");
        (void)previous;
    }
    void terminate() noexcept; // one spawned job (or the destructor) done: 0 sets terminate_
    void handle_panic(std::exception_ptr e) const noexcept;

    // ANCHOR: in_worker_cold
    template <class Op>
    decltype(auto) in_worker_cold(Op& op) {
        std::atomic<bool> started{false}; // a worker has taken the job: the wait's spin goes on
        auto body = [this, &op, &started](bool injected) -> decltype(auto) {
            started.store(true, std::memory_order_relaxed);
            awaited_.fetch_sub(1, std::memory_order_relaxed); // started: see awaited_
            return call(op, *WorkerThread::current(), injected);
        };
        StackJob<LockLatch, decltype(body)> job(std::move(body));
        awaited_.fetch_add(1, std::memory_order_relaxed);
        inject(job.as_job_ref());
        // No work to do here: spin a few microseconds while a worker runs it, then block.
        job.latch().wait([this] { wake_second_worker(); },
                         [&started] { return started.load(std::memory_order_relaxed); });
        return job.into_result();
    }
    // ANCHOR_END: in_worker_cold

    // A worker of another pool (`current`, of pool P) calls into this one (Q): the job goes into
    // Q's injector with a cross latch, and `current` waits in P's own loop, running P's jobs and
    // sleeping in P's sleep state; a Q worker's set of the latch wakes it there (latch.hpp).
    // ANCHOR: in_worker_cross
    template <class Op>
    decltype(auto) in_worker_cross(Op& op, WorkerThread& current) {
        auto body = [this, &op](bool injected) -> decltype(auto) {
            awaited_.fetch_sub(1, std::memory_order_relaxed); // started: see awaited_
            return call(op, *WorkerThread::current(), injected);
        };
        StackJob<SpinLatch, decltype(body)> job(std::move(body), SpinLatch::cross,
                                                current.pool().sleep_owner_);
        awaited_.fetch_add(1, std::memory_order_relaxed);
        inject(job.as_job_ref());
        current.wait_until(job.latch()); // P's jobs meanwhile: perhaps the one op waits for
        return job.into_result();
    }
    // ANCHOR_END: in_worker_cross

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

    // Its mutex and counters, written on every sleep and wake, on lines of their own (see
    // cache_line), as the member they were: make_shared honours the alignment.
    // The per-worker sleep (-DSLEEP=per-worker, chapter 10) has a state per worker to allocate.
    struct alignas(cache_line) PaddedSleep : Sleep { using Sleep::Sleep; };
    static std::shared_ptr<Sleep> make_sleep(std::size_t num_threads) {
        if constexpr (std::is_constructible_v<Sleep, std::size_t>)
            return std::make_shared<PaddedSleep>(num_threads);
        else
            return std::make_shared<PaddedSleep>();
    }

    std::vector<std::unique_ptr<WorkerThread>> workers_;
    std::vector<Stealer<JobRef>> stealers_;
    // Each on its own cache line (see cache_line): every idle worker reads the injector's length
    // and terminate_ in each search, while every sleep and wake writes the sleep mutex and the
    // sleep counters; sharing a line, each such write would evict the line the readers poll.
    alignas(cache_line) Injector<JobRef> injector_;
    // Jobs injected by a caller that waits for them (in_worker_cold, in_worker_cross) and not yet
    // started. Non-zero once the workers have left: someone waits for a job nobody will run, and
    // the destructor says so. Written on each such injection, as the injector is.
    std::atomic<std::size_t> awaited_{0};
    // The sleep state is shared, not a member: a cross latch's setter (a worker of another pool)
    // may still be waking it after its store let our worker return and this pool be destroyed;
    // the setter's copy of sleep_owner_ keeps it alive until then (SpinLatch::set). Both fields
    // are written once, and terminate_ only at the end: one read-mostly line for the three.
    alignas(cache_line) const std::shared_ptr<Sleep> sleep_owner_;
    Sleep& sleep_ = *sleep_owner_;
    SpinLatch terminate_{&sleep_};
    std::vector<std::thread> threads_; // written only by the constructor: may share that line
    const std::size_t cores_ = std::max(1u, std::thread::hardware_concurrency()); // read-mostly too
    // Workers between a failed search and a job or a sleep (wait_until), for search_yields: every
    // searcher writes it twice a search, so it has a line of its own.
    alignas(cache_line) std::atomic<std::size_t> searching_{0};

    // ---- Chapter 12 ----
    alignas(cache_line) BroadcastQueues broadcasts_; // one FIFO queue per worker
    // 1 for the pool itself (the destructor takes it), 1 per spawned job not yet done.
    std::atomic<std::size_t> terminate_count_{1};
    PanicHandler panic_handler_; // written by the constructor only
};

} // namespace mini
