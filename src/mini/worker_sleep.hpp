// rayon's sleep since 1.8 (rayon-core 1.13.0, sleep/mod.rs and sleep/README.md): each worker
// sleeps on its own mutex and condition variable, and a latch wakes only its owner. Built with
// -DSLEEP=per-worker (Part II, chapter 10) in place of the pool's one mutex and condvar (sleep.hpp).
//
// The protocol, for a worker W that finds no work (pool.cpp, wait_until):
// 1. start_looking: W counts itself inactive.
// 2. A few failed rounds (yielding); then announce_sleepy: W bumps the jobs event counter (JEC)
//    to an even value and remembers it. One more failed round.
// 3. sleep: W's latch goes UNSET -> SLEEPY; W locks its own mutex; the latch SLEEPY -> SLEEPING;
//    W checks the JEC still has the value it announced, and counts itself asleep in the same
//    CAS; seq_cst fence; a last look at the injector; then it blocks until a waker clears
//    is_blocked.
// A publisher (push or inject) bumps the JEC only if it is even (someone is sleepy), then wakes
// sleepers if there are any. A latch's setter swaps SET in and wakes its owner only if the swap
// saw SLEEPING (wake_specific_thread).
//
// Two re-checks, each against one race (chapter 10; both can be switched off):
// - The latch's SLEEPY -> SLEEPING CAS: a setter that swaps SET in while W is SLEEPY wakes nobody;
//   the failed CAS tells W. [SKIP_LATCH_SLEEPY] ignores it: W sleeps with its latch set, a hang.
// - The JEC comparison: a job published after W's announcement bumped the JEC; W sees the
//   change and searches again. [SKIP_JEC_CHECK] skips it: W sleeps beside the job. A worker's
//   push costs only parallelism (the pusher pops it back); an injected job is still found by the
//   last look at the injector, which the fence orders against inject's fence.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <thread>

#include <mini/probe.hpp>
#include <mini/sabotage.hpp>
#include <mini/sleep_counters.hpp>

namespace mini {

// The latch's half of the protocol (rayon's CoreLatch, latch.rs:57-135): only its owner moves it
// UNSET -> SLEEPY -> SLEEPING (and back); anyone may set it.
class CoreLatch {
public:
    static constexpr std::uint8_t unset = 0, sleepy = 1, sleeping = 2, set_state = 3;

    bool probe() const noexcept { return state_.load(std::memory_order_acquire) == set_state; }
    bool get_sleepy() noexcept { return cas(unset, sleepy); }
    bool fall_asleep() noexcept { return cas(sleepy, sleeping); }
    void wake_up() noexcept { if (!probe()) cas(sleeping, unset); }
    // True if the owner was asleep (SLEEPING): then, and only then, the setter must wake it.
    // seq_cst, not rayon's AcqRel: a latch with no owner (see SpinLatch) pairs it with a fence.
    bool set() noexcept { return state_.exchange(set_state, std::memory_order_seq_cst) == sleeping; }

private:
    bool cas(std::uint8_t from, std::uint8_t to) noexcept {
        return state_.compare_exchange_strong(from, to, std::memory_order_relaxed);
    }
    std::atomic<std::uint8_t> state_{unset};
};

class Sleep {
public:
    // rayon's ROUNDS_UNTIL_SLEEPY is 32 (sleep/mod.rs:56); 4 here: the rounds are yields, as in
    // rayon, and on a loaded core each may give away a time slice. The pool's sleep searches for
    // a time instead (ThreadPool::search_time_before_sleep), so compare's round trip differs.
    static constexpr int rounds_until_sleepy = 4, rounds_until_sleeping = rounds_until_sleepy + 1;
    static constexpr std::size_t no_owner = ~std::size_t{0};

    // A worker's state between two jobs (rayon's IdleState).
    struct IdleState {
        std::size_t worker;
        int rounds = 0;
        JobsEventCounter jobs_counter{JobsEventCounter::dummy};
    };

    explicit Sleep(std::size_t num_threads = 0)
        : states_(std::make_unique<WorkerSleepState[]>(num_threads)), n_(num_threads) {}

    // The worker index of this thread in this pool's sleep, or no_owner (the owner of a latch).
    std::size_t current_index() const noexcept { return current_sleep == this ? current : no_owner; }

    // Worker `worker` of this pool's sleep is this thread, from its start (main_loop): before its
    // first search it may run a broadcast copy from its own queue, and a latch made there must
    // have it as its owner, or the latch's set wakes every sleeper instead of it.
    void enter(std::size_t worker) noexcept { current_sleep = this, current = worker; }

    IdleState start_looking(std::size_t worker) {
        enter(worker);
        counters_.add_inactive_thread();
        return {worker};
    }

    void work_found() { wake_any_threads(counters_.sub_inactive_thread()); }

    // rayon's no_work_found (sleep/mod.rs:87-108). `latch` is the one W waits for; `shared` if
    // it has no owner (the pool's terminate latch, which every worker waits for).
    template <class HasInjectedJobs>
    void no_work_found(IdleState& idle, CoreLatch& latch, bool shared, HasInjectedJobs&& has_injected) {
        if (idle.rounds == rounds_until_sleepy) idle.jobs_counter = announce_sleepy();
        if (idle.rounds < rounds_until_sleeping) {
            ++idle.rounds;
            std::this_thread::yield();
            return;
        }
        sleep(idle, latch, shared, has_injected);
    }

    // Publisher side. new_injected_job: after a push into the injector; the fence pairs with
    // sleep's, before its last look at the injector. Returns the sleepers it read.
    std::uint64_t new_injected_job() {
        std::atomic_thread_fence(std::memory_order_seq_cst);
        return new_jobs();
    }
    // After a worker's push onto its own deque. No fence, as in rayon (sleep/mod.rs:213-238):
    // a missed wake-up costs parallelism only, the pusher pops the job back.
    void new_internal_job() { new_jobs(); }

    // A latch was set: wake its owner if the swap saw it asleep (rayon's
    // notify_worker_latch_is_set). A latch with no owner wakes every sleeper: its set and the
    // sleeper's registration are seq_cst, ordered by the fence in sleep. Returns the sleepers woken.
    std::uint64_t latch_is_set(bool was_sleeping, std::size_t owner) {
        if (owner != no_owner) return was_sleeping && wake_specific_thread(owner) ? 1 : 0;
        std::atomic_thread_fence(std::memory_order_seq_cst);
        return counters_.load().sleeping_threads() > 0 ? wake_any_threads(n_) : 0;
    }

    std::uint64_t sleepers() const { return counters_.load().sleeping_threads(); }

private:
    // One per worker, each on its own cache line (rayon's WorkerSleepState, sleep/mod.rs:46-54).
    struct alignas(64) WorkerSleepState {
        std::mutex mutex;
        bool is_blocked = false; // mutex's
        std::condition_variable condvar;
    };

    JobsEventCounter announce_sleepy() {
        return counters_.increment_jobs_event_counter_if([](JobsEventCounter j) { return j.is_active(); })
            .jobs_counter();
    }

    // rayon's sleep (sleep/mod.rs:117-194).
    // ANCHOR: worker_sleep
    template <class HasInjectedJobs>
    void sleep(IdleState& idle, CoreLatch& latch, bool shared, HasInjectedJobs& has_injected) {
        probe(Probe::idle, &latch, shared);
        if (!shared) {
            if (!latch.get_sleepy()) return wake_fully(idle, &latch, false); // set meanwhile
            probe(Probe::sleepy, &latch);
        }
        WorkerSleepState& me = states_[idle.worker];
        // Locked before fall_asleep: a setter that saw SLEEPING waits here for our wait(), or it
        // would find is_blocked still false and wake nobody (sleep/mod.rs:180-184).
        std::unique_lock lock(me.mutex);
        if (!shared && !latch.fall_asleep()) {                // the latch was set while SLEEPY
            if constexpr (!sabotage::skip_latch_sleepy) return wake_fully(idle, &latch, false);
        }
        for (;;) {
            const Counters counters = counters_.load();
            if constexpr (!sabotage::skip_jec_check) {
                if (counters.jobs_counter() != idle.jobs_counter) { // a job since we announced
                    idle.rounds = rounds_until_sleepy, idle.jobs_counter = {JobsEventCounter::dummy};
                    if (!shared) latch.wake_up();
                    return probe(Probe::woken, &latch, 0);
                }
            }
            if (counters_.try_add_sleeping_thread(counters)) break;
        }
        // Pairs with new_injected_job's fence and a shared latch's set: a job injected, or the
        // terminate latch set, before a publisher read 0 sleepers is seen here.
        std::atomic_thread_fence(std::memory_order_seq_cst);
        if (has_injected() || (shared && latch.probe())) {
            counters_.sub_sleeping_thread(); // no waker saw us: count ourselves out
            if (!shared) latch.wake_up();
            return wake_fully(idle, &latch, false);
        }
        me.is_blocked = true;
        while (me.is_blocked) me.condvar.wait(lock);
        if (!shared) latch.wake_up();
        wake_fully(idle, &latch, true);
    }
    // ANCHOR_END: worker_sleep

    void wake_fully(IdleState& idle, const CoreLatch* latch, bool waited) {
        idle.rounds = 0, idle.jobs_counter = {JobsEventCounter::dummy};
        probe(Probe::woken, latch, waited);
    }

    // rayon's new_jobs (sleep/mod.rs:241-272) for one job: bump the JEC if someone is sleepy,
    // then wake one sleeper if there is one. rayon wakes none onto an empty queue while an awake
    // idle worker remains (it will find the job, or see the bump); like the pool's sleep
    // (pool.cpp, push) we take every queue as non-empty and wake one: the comparison then
    // measures the sleep's own design, and a worker held awake and idle (a test's hook, or a
    // worker waiting for a core) cannot strand a job meanwhile.
    std::uint64_t new_jobs() {
        const Counters c = counters_.increment_jobs_event_counter_if(
            [](JobsEventCounter j) { return j.is_sleepy(); });
        const std::uint64_t sleepers = c.sleeping_threads();
        if (sleepers > 0) wake_any_threads(1);
        return sleepers;
    }

    std::uint64_t wake_any_threads(std::uint64_t n) {
        std::uint64_t woken = 0;
        for (std::size_t i = 0; i < n_ && woken < n; ++i) woken += wake_specific_thread(i);
        return woken;
    }

    // The waker, not the woken thread, counts the sleeper out (sleep/README.md:75-80): until the
    // woken thread gets a core it would still count as asleep, and draw more wake-ups.
    bool wake_specific_thread(std::size_t index) {
        WorkerSleepState& s = states_[index];
        std::lock_guard lock(s.mutex);
        if (!s.is_blocked) return false;
        s.is_blocked = false;
        s.condvar.notify_one();
        counters_.sub_sleeping_thread();
        probe(Probe::notified, this, 0);
        return true;
    }

    static inline thread_local const Sleep* current_sleep = nullptr;
    static inline thread_local std::size_t current = no_owner;

    AtomicCounters counters_;
    std::unique_ptr<WorkerSleepState[]> states_;
    const std::size_t n_;
};

} // namespace mini
