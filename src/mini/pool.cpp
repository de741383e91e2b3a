#include <mini/pool.hpp>

#include <mini/cpu_relax.hpp>

#include <algorithm>
#include <cassert>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <thread>

namespace mini {

WorkerThread::WorkerThread(ThreadPool& pool, std::size_t index)
    : pool_(pool), index_(index), rng_(0x9E3779B97F4A7C15ull * (index + 1)) {}

// rayon's rule for a push (rayon-core 1.10.1, sleep/mod.rs, new_jobs): with sleepers present, a
// push onto a non-empty deque always wakes one, since the jobs already there were not enough to
// draw a thief; onto an empty deque only if no awake idle worker will find it. We keep one count
// (sleepers) and no count of awake idle workers, so we wake one in both cases (a trial build
// with rayon's count was no faster: chapter 6). Waking only when the deque was empty (the
// old rule) strands a job: if that first push read 0 sleepers, because a worker was between its
// last search and registering, every later push finds the deque non-empty and wakes nobody.
// That worker's re-check now looks at the deques too (any_deque_has_work).
// ANCHOR: push
void WorkerThread::push(JobRef job) {
    deque_.push(job);
    pool_.sleep_.new_internal_job(); // no fence, as in rayon: a miss here costs parallelism only
}
// ANCHOR_END: push

// ANCHOR: find_work
std::optional<JobRef> WorkerThread::find_work() {
    if (auto job = take_local_job()) return job; // 1. own deque, newest first; own broadcasts
    if (auto job = steal()) return job;                          // 2. other workers, oldest first
    if (auto s = pool_.injector_.steal(); s.success()) { // 3. jobs from outside
        probe(Probe::steal, s.value.data, from_injector);
        return s.value;
    }
    return std::nullopt;
}
// ANCHOR_END: find_work

// The re-check's look at the deques (wait_until, pool's sleep). A push has no fence and wakes
// only a sleeper it reads: one made while this worker was between its last failed search and
// registering read none, and without this look the worker would sleep beside the pushed job
// while its owner runs it alone (issue 40 measured 9 of 40 fresh pools on a loaded machine).
// The look narrows that window to a store still in the pusher's store buffer; a miss then costs
// parallelism only, as in rayon, since the pusher pops its job back.
bool WorkerThread::any_deque_has_work() const {
    for (const auto& stealer : pool_.stealers_)
        if (!stealer.is_empty()) return true;
    return false;
}

// Go round the other workers once, from a varying start; go round again only if a steal lost a
// race (Retry), since then that deque may still hold work.
// ANCHOR: steal
std::optional<JobRef> WorkerThread::steal() {
    const std::size_t n = pool_.num_threads();
    if (n <= 1) return std::nullopt;
    for (;;) {
        rng_ ^= rng_ << 13, rng_ ^= rng_ >> 7, rng_ ^= rng_ << 17;
        const std::size_t start = rng_ % n;
        bool retry = false;
        for (std::size_t i = 0; i < n; ++i) {
            const std::size_t victim = (start + i) % n;
            if (victim == index_) continue;
            Steal<JobRef> s = pool_.stealers_[victim].steal();
            if (s.success()) {
                probe(Probe::steal, s.value.data, victim);
                return s.value;
            }
            retry |= s.retry();
        }
        if (!retry) return std::nullopt;
    }
}
// ANCHOR_END: steal

#if !MINI_SLEEP_PER_WORKER
namespace {
// Counts a worker among its pool's searchers (ThreadPool::searching_) from start to stop. Relaxed:
// the count is a hint for search_yields, and orders nothing.
class Searching {
public:
    explicit Searching(std::atomic<std::size_t>& n) noexcept : n_(n) {}
    Searching(const Searching&) = delete;
    Searching& operator=(const Searching&) = delete;
    ~Searching() { stop(); }
    void start() noexcept {
        if (!on_) on_ = true, n_.fetch_add(1, std::memory_order_relaxed);
    }
    void stop() noexcept {
        if (on_) on_ = false, n_.fetch_sub(1, std::memory_order_relaxed);
    }

private:
    std::atomic<std::size_t>& n_;
    bool on_ = false;
};
} // namespace

bool ThreadPool::search_yields_now() const noexcept {
    const std::size_t n = num_threads(), asleep = sleep_.sleepers();
    const std::size_t awake = n - std::min(n, asleep); // relaxed reads: hints, not counts
    return search_yields(awake, searching_.load(std::memory_order_relaxed), cores_);
}

// The loop a worker idles in, and the loop a join's owner waits in: run whatever can be found
// until the latch is set. A worker that finds nothing searches again for
// search_time_before_sleep; a job injected meanwhile is found in microseconds, with no futex call
// on either side. Between searches it keeps its core (cpu_relax), or yields it when the pool's
// awake workers outnumber the cores (search_yields). Then it yields once and sleeps. That yield
// puts the last failed search and the sleep protocol a yield apart: a wide window, which is what
// makes a missing re-check visible (appendix D.4).
// ANCHOR: wait_until
std::uint64_t WorkerThread::wait_until(const SpinLatch& latch) {
    using clock = std::chrono::steady_clock;
    std::uint64_t ran = 0;
    Searching searching(pool_.searching_); // counted among the searchers while sleep_at is set
    clock::time_point sleep_at{}; // {}: no failed search since the last job or sleep
    while (!latch.probe()) {
        if (auto job = find_work()) {
            searching.stop(), sleep_at = {};
            execute(*job);
            ++ran;
            continue;
        }
        const auto now = clock::now();
        if (sleep_at == clock::time_point{})
            searching.start(), sleep_at = now + ThreadPool::search_time_before_sleep;
        if (now < sleep_at) {
            if (pool_.search_yields_now()) std::this_thread::yield();
            else cpu_relax();
            continue;
        }
        searching.stop(), sleep_at = {};
        std::this_thread::yield();
        probe(Probe::idle, &latch, &latch == &pool_.terminate_);
        const bool waited = pool_.sleep_.sleep([&] {
            return latch.probe() || has_injected_job() || any_deque_has_work();
        });
        probe(Probe::woken, &latch, waited);
    }
    return ran;
}
// ANCHOR_END: wait_until
#else
// The same loop with rayon's per-worker sleep (-DSLEEP=per-worker, chapter 10; rayon-core 1.13.0,
// registry.rs:780-817, wait_until_cold). A local job first, before touching the shared counters;
// then the worker counts itself inactive while it looks, and no_work_found yields, announces it
// is sleepy, and sleeps (worker_sleep.hpp). A job found, or the latch set: active again.
// ANCHOR: wait_until_per_worker
std::uint64_t WorkerThread::wait_until(const SpinLatch& latch) {
    std::uint64_t ran = 0;
    Sleep& sleep = pool_.sleep_;
    while (!latch.probe()) {
        if (auto job = take_local_job()) {
            execute(*job), ++ran;
            continue;
        }
        Sleep::IdleState idle = sleep.start_looking(index_);
        std::optional<JobRef> job;
        while (!latch.probe() && !(job = find_work()))
            sleep.no_work_found(idle, latch.core(), latch.shared(),
                                [&] { return has_injected_job(); });
        sleep.work_found(); // may wake up to two sleepers: a worker with work makes more
        if (job) execute(*job), ++ran;
    }
    return ran;
}
// ANCHOR_END: wait_until_per_worker
#endif

void WorkerThread::main_loop() {
    current_ = this;
#if MINI_SLEEP_PER_WORKER
    pool_.sleep_.enter(index_); // an identity before any job: its first may be a broadcast copy
#endif
    probe(Probe::worker_start, nullptr, index_);
    wait_until(pool_.terminate_); // a worker is a thread waiting for the end, working meanwhile
    // Every job a worker pushes, it pops or sees stolen before the job that pushed it returns
    // (rayon-core's main_loop: registry.rs, debug_assert on take_local_job).
    assert(deque_.is_empty() && "a worker left with jobs in its deque");
    current_ = nullptr;
}

ThreadPool::ThreadPool(std::size_t requested)
    : sleep_owner_(make_sleep(std::min(requested, max_num_threads()))),
      broadcasts_(std::min(requested, max_num_threads())) {
    const std::size_t num_threads = std::min(requested, max_num_threads()); // rayon's clamp
    if (num_threads == 0) // no worker would ever run an injected job: install would hang
        throw std::invalid_argument("mini::ThreadPool: num_threads must be at least 1, got 0");
    for (std::size_t i = 0; i < num_threads; ++i) {
        workers_.push_back(std::make_unique<WorkerThread>(*this, i));
        stealers_.push_back(workers_.back()->deque_.stealer());
    }
    threads_.reserve(num_threads); // so that a started thread is always stored in threads_
    // rayon's Terminator (registry.rs, Registry::new): if starting thread k fails, threads 0..k-1
    // are already running on this half-built pool. Stop and join them before the exception
    // leaves, or they would outlive the members they use, and ~thread on a joinable thread
    // calls std::terminate.
    try {
        for (auto& w : workers_) {
            probe(Probe::spawn, this, workers_.size());
            threads_.emplace_back([w = w.get()] { w->main_loop(); });
        }
    } catch (...) {
        terminate_and_join();
        throw;
    }
}

ThreadPool::~ThreadPool() {
    if (WorkerThread* w = WorkerThread::current(); w != nullptr && &w->pool() == this) {
        std::fprintf(stderr, "mini: a ThreadPool destroyed by one of its own workers (worker %zu): "
                             "its destructor joins every worker, and a thread cannot join itself; "
                             "destroy a pool from a thread outside it\n", w->index());
        std::abort();
    }
    terminate_and_join();
}

void ThreadPool::terminate_and_join() noexcept {
    terminate(); // the pool's own count: spawned jobs still to run keep the workers going
    for (auto& t : threads_) t.join();
    // The workers left at the latch, whatever was still queued. A job queued by a caller that
    // waits for it (install, join or scope from outside, or from another pool's worker) will
    // never run: say so, rather than let that caller wait in silence.
    if (const std::size_t n = awaited_.load(std::memory_order_relaxed); n != 0) {
        std::fprintf(stderr, "mini: a ThreadPool destroyed while %zu caller%s inside its install, "
                             "join or scope, with %s still queued: its workers have left and "
                             "nobody will run it; destroy a pool only after every call into it "
                             "has returned\n", n, n == 1 ? " waits" : "s wait",
                     n == 1 ? "its job" : "their jobs");
        std::abort();
    }
    // The same for a broadcast (or a scope's spawn_broadcast): a copy still queued when the
    // workers have left is one its caller waits for, since every copy that ran left its queue.
    if (const std::size_t n = broadcasts_.len(); n != 0) {
        std::fprintf(stderr, "mini: a ThreadPool destroyed with %zu broadcast cop%s still queued: "
                             "a caller waits inside its broadcast for %s, and its workers have left; "
                             "destroy a pool only after every call into it has returned\n", n,
                     n == 1 ? "y" : "ies", n == 1 ? "it" : "them");
        std::abort();
    }
}

// Created on first use and never destroyed, as rayon's global registry (registry.rs,
// THE_REGISTRY) is never dropped. A function-local static would be joined at exit: a job that
// calls std::exit would then wait for its own thread ("Resource deadlock avoided", abort), and
// workers still running jobs at exit would meet destroyed members. The leak is one pool.
ThreadPool& ThreadPool::global() {
    static ThreadPool* const pool =
        new ThreadPool(std::max(1u, std::thread::hardware_concurrency()));
    return *pool;
}

// ANCHOR: inject
void ThreadPool::inject(JobRef job) {
    injector_.push(job);                             // publish ...
    const auto sleepers = sleep_.new_injected_job(); // ... fence, wake a sleeper if any
    probe(Probe::inject, job.data, sleepers);
}
// ANCHOR_END: inject

// ---- Chapter 12: broadcast and spawn's parts of the pool (broadcast.hpp, spawn.hpp) ----

// ANCHOR: take_local_job
std::optional<JobRef> WorkerThread::take_local_job() {
    if (auto job = deque_.pop()) return job;
    return pool_.broadcasts_.take(index_); // after our own work, before anyone else's
}
// ANCHOR_END: take_local_job

// ANCHOR: has_injected_job
bool WorkerThread::has_injected_job() const {
    return !pool_.broadcasts_.is_empty(index_) || !pool_.injector_.is_empty(); // #992: both
}
// ANCHOR_END: has_injected_job

// rayon's inject_broadcast (registry.rs:465-489). Every worker is woken, asleep or not: only
// worker i can run job i, while the wake of a push or an inject goes to any one sleeper. In the
// pool's sleep (one condition variable) that is a notify_all after the fence that pairs with a
// sleeper's (latch_is_set does exactly that); in the per-worker sleep, a wake of each worker by
// index, which takes its mutex: a sleeper between its last look and its wait holds that mutex, so
// the wake waits for its wait; one that locks after this wake sees the job in its last look.
// ANCHOR: inject_broadcast
void ThreadPool::inject_broadcast(const std::vector<JobRef>& jobs) {
    if constexpr (sabotage::broadcast_via_injector) { // [BROADCAST_VIA_INJECTOR] anyone's
        for (const JobRef& job : jobs) inject(job);
        return;
    }
    broadcasts_.push(jobs); // job i to worker i, under one mutex
    if constexpr (sabotage::no_broadcast_wake) return; // [NO_BROADCAST_WAKE] sleepers stay asleep
#if MINI_SLEEP_PER_WORKER
    for (std::size_t i = 0; i < num_threads(); ++i) sleep_.latch_is_set(true, i);
#else
    sleep_.latch_is_set();
#endif
}
// ANCHOR_END: inject_broadcast

ThreadPool::ThreadPool(std::size_t num_threads, PanicHandler panic_handler)
    : ThreadPool(num_threads) {
    panic_handler_ = std::move(panic_handler); // read only by spawned jobs, spawned after this
}

// ANCHOR: terminate
void ThreadPool::terminate() noexcept {
    const std::size_t previous = terminate_count_.fetch_sub(1, std::memory_order_acq_rel);
    probe(Probe::terminate, this, previous - 1); // a test holds the destructor here
    if (previous == 1) SpinLatch::set(&terminate_); // wakes every sleeper, as any latch's set
}
// ANCHOR_END: terminate

// An exception out of the handler itself aborts too (rayon aborts if its handler panics).
void ThreadPool::handle_panic(std::exception_ptr e) const noexcept {
    const char* closure = panic_handler_ ? "the panic handler of a ThreadPool"
                                         : "a spawned job of a ThreadPool built without a panic handler";
    if (panic_handler_) {
        try {
            panic_handler_(e);
            return;
        } catch (...) {
            e = std::current_exception(); // the handler threw: abort with its exception
        }
    }
    try {
        std::rethrow_exception(e);
    } catch (const std::exception& x) {
        abort_on_exception(closure, x.what());
    } catch (...) {
        abort_on_exception(closure, "(not a std::exception)");
    }
}

} // namespace mini
