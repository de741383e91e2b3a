// The sleep state's wake-up: the waker counts the sleeper out, forced.
#include <mini/pool.hpp>
#include <instrument/watchdog.hpp>

#include <catch2/catch.hpp>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <mutex>
#include <semaphore>
#include <string>
#include <thread>
#include <type_traits>
#include <utility>

#include "helpers.hpp"
#include "thread_state.hpp"

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

// A worker with nothing to do must block, not spin: an idle worker that spins or yields keeps a
// core busy that the program's other threads need, and no count shows it (a spinning wait still
// registers and is counted out like a sleeping one). The test learns the worker's thread id from a
// job, waits until the worker has registered as a sleeper, then until the kernel reports its thread
// blocked ('S'). A wait that spins keeps the thread runnable ('R'): that step never comes, and the
// watchdog ends the test (exit 3) saying so.
TEST_CASE("a worker with nothing to do blocks in its sleep instead of spinning", "[sleep]") {
    test::Pool pool(1);
    std::atomic<pid_t> tid{0};
    std::atomic<std::uint64_t> steps{0};
    mini::Watchdog dog(
        "waiting for the idle worker to block", test::watchdog_time, [&] { return steps.load(); },
        [&] {
            const pid_t t = tid.load();
            return std::to_string(pool.sleep().sleepers()) + " sleepers registered; the worker's "
                   "thread is in state '" + std::string(1, t ? test::thread_state(t) : '?') +
                   "', never blocked ('S'): its wait spins instead of blocking on the condition "
                   "variable";
        });
    tid = pool.install([] { return test::thread_id(); });
    ++steps;
    while (pool.sleep().sleepers() == 0) std::this_thread::yield();
    ++steps;
    while (test::thread_state(tid) != 'S') std::this_thread::yield();
    ++steps;
    // One worker, asleep once: any other count is a sleeper a waker did not count out (the
    // install's wake-up above, say), still counted as it registered again.
    INFO("the idle worker blocked, but the pool counts more sleepers than that one worker: a "
         "waker that woke it earlier did not count it out");
    CHECK(pool.sleep().sleepers() == 1);
}

// A searching worker keeps its core while the pool's awake workers fit on the cores, and yields
// it between searches when they outnumber them and one of them is not searching (it has work):
// ThreadPool::search_yields, chapter 2. On a busy machine a yield gives a time slice to another
// program; in a pool of more threads than cores it lets a worker with work run. When every awake
// worker searches, nobody of the pool needs the core.
TEST_CASE("a searching worker yields only when the pool's awake workers outnumber the cores and "
          "one of them has work",
          "[sleep]") {
    using mini::ThreadPool;
    CHECK_FALSE(ThreadPool::search_yields(1, 1, 2));
    CHECK_FALSE(ThreadPool::search_yields(2, 1, 2)); // two workers on two cores, busy or not
    CHECK(ThreadPool::search_yields(3, 1, 2));
    CHECK(ThreadPool::search_yields(12, 5, 2)); // fib on 12 threads and 2 cores
    CHECK_FALSE(ThreadPool::search_yields(12, 1, 12));
    CHECK_FALSE(ThreadPool::search_yields(8, 8, 2)); // 8 idle searchers: a tiny job's round trip
}

// Yielding is not waiting: workers that yield between searches must still block once their
// search time is over, or an idle pool of many threads keeps every core of the machine busy.
// A pool of four times as many threads as cores starts with every worker awake, so they search
// yielding; each must register as a sleeper. A search that yielded for ever never registers:
// the count stops short, and the watchdog ends the test (exit 3) saying how many slept.
TEST_CASE("workers that outnumber the cores still fall asleep when they find nothing", "[sleep]") {
    const std::size_t cores = std::max(1u, std::thread::hardware_concurrency());
    const std::size_t n = std::min<std::size_t>(4 * cores, 64);
    test::Pool pool(n);
    REQUIRE(pool.cores() == cores);
    mini::Watchdog dog(
        "waiting for every worker of an oversubscribed pool to sleep", test::watchdog_time,
        [&] { return pool.sleep().sleepers(); },
        [&] {
            return std::to_string(pool.sleep().sleepers()) + " of " + std::to_string(n) +
                   " workers asleep: the others search on, yielding, past their search time";
        });
    while (pool.sleep().sleepers() != n) std::this_thread::yield();
    CHECK(pool.sleep().sleepers() == n);
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
// Two publishers that both read the one sleeper both call wake: the first counts it out, and the
// second must find it counted out (the waker re-reads sleepers_ under the mutex) and do nothing.
// A waker that counts one out without that check takes the count below 0 (it wraps), and every
// publish after it takes the mutex for a sleeper that does not exist; the next thread to register
// brings it back to 0, and the publisher that then reads 0 wakes nobody. Forced: the test holds the
// mutex once the sleeper waits, starts both publishers, and lets them go only when the kernel
// reports both blocked on it ('S'), each having read 1.
TEST_CASE("two publishers that read the one sleeper count it out once", "[sleep]") {
    mini::Sleep sleep;
    std::atomic<std::uint64_t> steps{0};
    std::atomic<pid_t> tids[2] = {0, 0};
    std::uint64_t read[2] = {0, 0};
    mini::Watchdog dog(
        "two publishers and one sleeper", test::watchdog_time, [&] { return steps.load(); },
        [&] {
            return std::to_string(steps.load()) + " of 4 steps (sleeper registered, both "
                   "publishers blocked on the mutex, all returned), " +
                   std::to_string(sleep.sleepers()) + " sleepers";
        });
    std::thread sleeper([&] { sleep.sleep([] { return false; }); });
    while (sleep.sleepers() == 0) std::this_thread::yield();
    ++steps;
    std::thread publishers[2];
    {
        // The sleeper holds the mutex from before registering until it is inside wait(): once
        // the test has it, the sleeper waits, still counted.
        std::lock_guard held(mutex_of(sleep));
        for (int i = 0; i < 2; ++i)
            publishers[i] = std::thread([&, i] {
                tids[i] = test::thread_id();
                read[i] = sleep.new_injected_job(); // reads 1, then waits for the mutex
            });
        for (auto& t : tids) {
            while (t.load() == 0 || test::thread_state(t) != 'S') std::this_thread::yield();
            ++steps;
        }
    }
    for (auto& p : publishers) p.join();
    sleeper.join(); // counted out and notified by the first publisher
    ++steps;
    CHECK(read[0] == 1);
    CHECK(read[1] == 1); // both read the one sleeper: the interleaving was forced
    INFO("the second waker counted out a sleeper that the first had already counted out: re-read "
         "sleepers_ under the mutex and count one out only if it is not 0");
    CHECK(sleep.sleepers() == 0);
}
#endif // !MINI_SLEEP_PER_WORKER
