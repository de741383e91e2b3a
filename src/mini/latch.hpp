// Latches: a one-shot "it is done" flag that a waiter can probe, and the setter's wake-up.
//
// SpinLatch is for a worker that waits on a job it pushed (join's B): the worker does not block on
// it but keeps finding work (ThreadPool's wait_until) and probes it between jobs, so it may also
// fall asleep in the pool's sleep protocol; setting it must then wake it.
// LockLatch is for a thread outside the pool, with no work to do: it spins a few microseconds,
// then blocks.
#pragma once

#include <atomic>
#include <cassert>
#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>

#include <mini/cpu_relax.hpp>
#include <mini/probe.hpp>
#include <mini/sabotage.hpp>
#if MINI_SLEEP_PER_WORKER // -DSLEEP=per-worker: rayon's per-worker Sleep and its SpinLatch (chapter 10)
#include <mini/worker_latch.hpp>
#else
#include <mini/sleep.hpp>
#endif

namespace mini {

#if !MINI_SLEEP_PER_WORKER
class SpinLatch {
public:
    explicit SpinLatch(Sleep* sleep) : sleep_(sleep) {}

    // A cross latch (rayon's SpinLatch::cross, rayon-core 1.13.0, latch.rs:161-179): its waiter
    // is a worker of one pool, P, and its setter a worker of another (ThreadPool::in_worker_cross).
    // `owner` is P's shared sleep state, which set() keeps alive until its wake-up is done.
    struct Cross {};
    static constexpr Cross cross{};
    SpinLatch(Cross, const std::shared_ptr<Sleep>& owner)
        : sleep_(owner.get()), cross_owner_(&owner) {}

    // Acquire: pairs with set()'s release, so the job's result is visible once this is true.
    bool probe() const noexcept { return set_.load(std::memory_order_acquire); }

    // `self` is a raw pointer on purpose: the moment the store below lands, the waiting owner may
    // see it, return from join and pop the stack frame that holds this latch. So set reads
    // everything it needs (which pool's sleep state to wake) before the store and touches
    // nothing of *self after it. rayon broke this rule twice (use-after-free fixes in rayon-core
    // 1.7.1 and 1.9.3). The Sleep object must outlive the wake-up too. For a latch of the
    // setter's own pool it does: a pool joins its workers before it dies. A cross latch's waiter
    // belongs to another pool, which may be gone as soon as the store lets the waiter return:
    // keep_alive holds its sleep state until the wake-up is done. The probes pass `self` as a
    // value and never follow it (tests hold the setter there); TOUCH_AFTER_SET adds a late read.
    // ANCHOR: spinlatch_set
    static void set(SpinLatch* self) noexcept {
        // A cross latch: once the store lands, the waiter (another pool's worker) may return and
        // its pool be destroyed before the wake-up below; this copy keeps that pool's sleep state
        // alive until set returns (rayon-core 1.7.1's use-after-free, rayon issue #739; rayon
        // clones its Arc<Registry> here, latch.rs:197-203).
        std::shared_ptr<Sleep> keep_alive;
        if (self->cross_owner_ != nullptr) keep_alive = *self->cross_owner_; // before the store
        Sleep* sleep = self->sleep_;                       // read before setting ...
        assert(!self->set_.load(std::memory_order_relaxed) && "a latch set twice");
        self->set_.store(true, std::memory_order_release); // ... now *self may be gone
        mini::probe(Probe::latch_stored, self); // mini::, not the member probe() above
        if constexpr (sabotage::touch_after_set) sleep = self->sleep_; // [TOUCH_AFTER_SET]
        const auto sleepers = sleep->latch_is_set();       // the owner may be asleep: wake it
        mini::probe(Probe::latch_set, self, sleepers);
    }
    // ANCHOR_END: spinlatch_set

private:
    std::atomic<bool> set_{false};
    Sleep* const sleep_;
    const std::shared_ptr<Sleep>* const cross_owner_ = nullptr; // the waiter's pool's, if cross
};
#endif

class LockLatch {
public:
    // How long the waiter spins on the flag, with cpu_relax, before it blocks. A tiny job from
    // outside (compare's round trip) is often done within it: then neither side makes a futex
    // call, since glibc's notify_all with no waiter and an uncontended mutex stay in user space.
    // A time, not a count of yields: on a core shared with another runnable thread, each yield
    // can give that thread a whole time slice (milliseconds), while a blocked waiter is woken by
    // the setter's futex wake and may run at once (chapter 6, "A busy machine").
    static constexpr std::chrono::nanoseconds spin_time_before_block = std::chrono::microseconds(5);
    // How long it spins while no worker has started the job (the caller's started() says so).
    // A worker that is running takes an injected job within a microsecond; one that has not
    // taken it by then is off-CPU, often queued behind the waiter on the waiter's own core, and
    // every further microsecond of spin delays it (chapter 6, "Two modes of one round trip").
    static constexpr std::chrono::nanoseconds spin_time_unstarted = std::chrono::microseconds(1);

    // before_block runs once, only if the latch is still unset after the spin, just before the
    // waiter blocks (the pool wakes a second worker there: in_worker_cold).
    // ANCHOR: lock_latch_wait
    template <class BeforeBlock, class Started>
    void wait(BeforeBlock&& before_block, Started&& started) {
        if (spin(started)) {
            // The setter may still be inside set(), between the store and its unlock: take
            // the mutex once, so that this frame (and the latch in it) outlives set().
            std::lock_guard lock(mutex_);
            return;
        }
        before_block();
        // Only a probe can tell a test that the spin returned: a set latch passes cv_.wait's
        // predicate at once, so blocking on it shows up in no result and no timing.
        probe(Probe::lock_latch_block, this);
        std::unique_lock lock(mutex_);
        cv_.wait(lock, [this] { return set_.load(std::memory_order_relaxed); });
    }
    // ANCHOR_END: lock_latch_wait
    template <class BeforeBlock>
    void wait(BeforeBlock&& before_block) { wait(before_block, [] { return true; }); }
    void wait() { wait([] {}); }

    // Notifies while holding the mutex: the waiter cannot return (and destroy the latch) before
    // it acquires the mutex, which is after this unlock; a waiter that saw set_ while spinning
    // takes the mutex too.
    static void set(LockLatch* self) noexcept {
        std::lock_guard lock(self->mutex_);
        self->set_.store(true, std::memory_order_release);
        self->cv_.notify_all();
    }

private:
    // True if the latch is set within spin_time_before_block of the first load that found it
    // unset, and false at once if started() is false once spin_time_unstarted has passed. Each
    // round loads the flag before it reads the clock, and the clock starts after
    // Probe::lock_latch_spin: a latch set while a test holds the waiter there is seen, however
    // long the hold lasted.
    // ANCHOR: lock_latch_spin
    template <class Started>
    bool spin(Started& started) noexcept {
        if (set_.load(std::memory_order_acquire)) return true;
        probe(Probe::lock_latch_spin, this);
        const auto start = std::chrono::steady_clock::now();
        for (;;) {
            if (set_.load(std::memory_order_acquire)) return true;
            const auto spun = std::chrono::steady_clock::now() - start;
            if (spun >= spin_time_unstarted) {
                if (!started()) return false; // nobody runs it now: block
                // Asked before the bound too: a waiter descheduled past both bounds still
                // gives its started job one more look instead of blocking on it.
                if (spun >= spin_time_before_block) return set_.load(std::memory_order_acquire);
            }
            cpu_relax();
        }
    }
    // ANCHOR_END: lock_latch_spin

    std::mutex mutex_;
    std::condition_variable cv_;
    std::atomic<bool> set_{false};
};

} // namespace mini
