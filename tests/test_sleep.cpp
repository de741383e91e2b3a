// The sleep state's wake-up: the waker counts the sleeper out, forced.
#include <mini/pool.hpp>
#include <instrument/watchdog.hpp>

#include <catch2/catch.hpp>

#include <atomic>
#include <cstdint>
#include <mutex>
#include <semaphore>
#include <string>
#include <thread>
#include <type_traits>
#include <utility>

#include "helpers.hpp"

// The one worker of a pool sleeps; the test wakes it with an install. The sync point after the
// notify runs in the waking thread while it still holds the sleep mutex, which the woken worker
// must take before it can run a single line: whatever the count says there, the woken thread
// has not touched it. It must say 0. If the woken thread counted itself out once it ran (as
// mini did before), the count would still read 1 there, and every push until the woken thread
// got a core would take the mutex to wake it again.
namespace {
std::atomic<mini::ThreadPool*> observed{nullptr};
std::atomic<std::uint64_t> sleepers_at_notify{~std::uint64_t{0}};

void read_sleepers(mini::Probe point) {
    if (point != mini::Probe::notified) return;
    if (mini::ThreadPool* pool = observed.exchange(nullptr)) // only the first notify
        sleepers_at_notify = pool->sleep().sleepers();
}
} // namespace

TEST_CASE("the waker counts the sleeper out before the woken worker runs", "[sleep]") {
    test::Pool pool(1);
    test::Progress progress("waiting for the worker to sleep, then waking it", pool);
    const mini::Stats before = mini::stats(pool);
    observed = &pool;
    mini::instrument::sync_hook = &read_sleepers;
    // Injected once the worker registered: it is the only sleeper, and it is woken, unless its
    // re-check saw the job first (no notify: the hook did not clear `observed`); then again.
    while (observed.load() != nullptr) {
        while (pool.sleep().sleepers() == 0) std::this_thread::yield();
        pool.install([] {});
        ++progress;
    }
    mini::instrument::sync_hook = nullptr;
    CHECK(sleepers_at_notify == 0);
    CHECK((mini::stats(pool) - before).wakeups == 1);
}

// Part I's Sleep only (sleep.hpp), from here on: the per-worker sleep of -DSLEEP=per-worker has
// another interface and its own tests (test_worker_sleep.cpp), and wakes by rayon's rules (a
// worker that finds work may wake more sleepers), so the count of wake-ups below can be 3 there
// (1 run in about 30 of the per-worker build).
#if !MINI_SLEEP_PER_WORKER
// An outside caller whose job outlasts its spin wakes a second sleeper just before it blocks
// (wake_second_worker): woken then, while the caller's core is about to go idle, that worker
// often gets a core at once, instead of being woken later by the first worker's push onto the
// first worker's core (chapter 6). Both workers of the pool sleep; the job holds its worker
// until the caller has passed its spin and is about to block. There, at Probe::lock_latch_block,
// the pool has made two wake-ups: the inject's (the job's worker) and the caller's. Without the
// caller's the count reads 1. (A count of sleepers read later would race with the second worker,
// which finds nothing and may fall asleep again first.)
namespace {
std::atomic<bool> caller_blocked{false};
const mini::ThreadPool* blocking_pool = nullptr;
mini::Stats before_block{};
std::uint64_t wakeups_at_block = 0;

void note_block(mini::Probe point) {
    if (point != mini::Probe::lock_latch_block) return;
    wakeups_at_block = (mini::stats(*blocking_pool) - before_block).wakeups;
    caller_blocked = true;
}
} // namespace

TEST_CASE("an outside caller about to block wakes a second sleeper first", "[sleep]") {
    test::Pool pool(2);
    test::Progress progress("waiting for both workers to sleep, then for the caller to block",
                            pool);
    while (pool.sleep().sleepers() != 2) std::this_thread::yield();
    ++progress;
    caller_blocked = false;
    blocking_pool = &pool;
    before_block = mini::stats(pool);
    mini::instrument::sync_hook = &note_block;
    pool.install([&] {
        while (!caller_blocked.load()) std::this_thread::yield();
        ++progress;
    });
    mini::instrument::sync_hook = nullptr;
    CHECK(wakeups_at_block == 2);
}

// The two rules of the sleep mutex that no count shows, tested on a Sleep of the test's own: a
// registered sleeper holds the mutex until it is inside wait(), and a publisher that reads no
// sleeper never takes it. The test looks at the mutex from outside: Sleep is a standard-layout
// class whose first member is its mutex, so the two are pointer-interconvertible.
namespace {
static_assert(std::is_standard_layout_v<mini::Sleep>);
std::mutex& mutex_of(mini::Sleep& sleep) { return *reinterpret_cast<std::mutex*>(&sleep); }
} // namespace

// A sleeper that unlocks between registering and waiting (to re-check, say) lets a waker count it
// out and notify before it waits: the notify reaches nobody, and it sleeps with a job pending.
// The test's re-check (its has_work) holds the sleeper there, registered, and tries the mutex.
TEST_CASE("a registered sleeper holds the sleep mutex through its re-check", "[sleep]") {
    mini::Sleep sleep;
    std::binary_semaphore in_recheck{0}, go_on{0};
    std::atomic<std::uint64_t> steps{0};
    mini::Watchdog dog(
        "holding a sleeper in its re-check", test::watchdog_time, [&] { return steps.load(); },
        [&] {
            return std::to_string(steps.load()) + " of 2 steps: the sleeper, with " +
                   std::to_string(sleep.sleepers()) + " sleepers registered, never re-checked " +
                   "or never returned after a re-check that found work";
        });
    std::thread sleeper([&] {
        bool first = true;
        sleep.sleep([&] { // the re-check: it finds work, so the sleeper backs out without waiting
            if (std::exchange(first, false)) {
                in_recheck.release();
                go_on.acquire();
            }
            return true;
        });
        ++steps;
    });
    in_recheck.acquire();
    ++steps;
    const std::uint64_t registered = sleep.sleepers();
    const bool mutex_free = mutex_of(sleep).try_lock();
    if (mutex_free) mutex_of(sleep).unlock();
    go_on.release();
    sleeper.join();
    CHECK(registered == 1);
    CHECK_FALSE(mutex_free); // free: a waker could notify now, before the wait
    CHECK(sleep.sleepers() == 0);
}

// A publisher that reads 0 sleepers wakes nobody without taking the mutex (`if (sleepers > 0)`):
// else every publish, a push or a latch set, would contend for the one sleep mutex. The test holds
// the mutex while a publisher of each kind publishes with nobody asleep: each must return.
TEST_CASE("a publisher that reads no sleeper does not take the sleep mutex", "[sleep]") {
    mini::Sleep sleep;
    std::atomic<std::uint64_t> published{0}, read{0};
    mini::Watchdog dog(
        "publishing with no sleeper while the test holds the sleep mutex", test::watchdog_time,
        [&] { return published.load(); },
        [&] {
            return std::to_string(published.load()) + " of 2 publishers returned: the next one "
                   "waits for the sleep mutex although there are " +
                   std::to_string(sleep.sleepers()) + " sleepers";
        });
    {
        std::lock_guard held(mutex_of(sleep));
        std::thread publisher([&] {
            read += sleep.new_injected_job();
            ++published;
            read += sleep.latch_is_set();
            ++published;
        });
        publisher.join();
    }
    CHECK(published == 2);
    CHECK(read == 0);
}
#endif // !MINI_SLEEP_PER_WORKER
