// An outside caller's wait in install (ThreadPool::in_worker_cold): it probes its LockLatch a
// while only if a worker was awake to take the job, and blocks at once if its inject had to wake
// a sleeper, which starts tens of microseconds later (chapter 6: a caller yielding meanwhile
// holds a core the woken workers need). Which path it took, the latch's probe says: its arg is
// the spins made before blocking.
#include <mini/pool.hpp>
#include <instrument/watchdog.hpp>

#include <catch2/catch.hpp>

#include <atomic>
#include <cstdint>
#include <thread>

#include "helpers.hpp"

namespace {

std::thread::id caller;                 // the thread whose wait is observed
std::atomic<bool> caller_blocked{false};
std::atomic<std::uint64_t> spins_made{~std::uint64_t{0}};
std::atomic<bool> hold_woken_worker{false};

// In the caller: note that it blocks, and after how many spins. In a woken worker (when asked):
// stay until the caller has blocked, so that the job cannot be done during the caller's spins.
void observe(mini::Probe point) {
    if (point == mini::Probe::lock_latch_block && std::this_thread::get_id() == caller) {
        spins_made = mini::instrument::probe_arg;
        caller_blocked = true;
    }
    if (point == mini::Probe::woken && hold_woken_worker.load())
        while (!caller_blocked.load()) std::this_thread::yield();
}

void reset() {
    caller = std::this_thread::get_id();
    caller_blocked = false, spins_made = ~std::uint64_t{0}, hold_woken_worker = false;
}

} // namespace

TEST_CASE("an install that had to wake a sleeper blocks without spinning", "[install]") {
    reset();
    test::Pool pool(1);
    mini::Watchdog dog(
        "an install that wakes a sleeper", test::watchdog_time,
        [] { return std::uint64_t(caller_blocked.load()); },
        [] { return "the caller never blocked on its LockLatch"; });
    while (pool.sleep().sleepers() == 0) std::this_thread::yield(); // the worker is asleep
    hold_woken_worker = true; // the job waits until the caller blocks: spinning cannot see it
    mini::instrument::sync_hook = &observe;
    CHECK(pool.install([] { return 7; }) == 7);
    mini::instrument::sync_hook = nullptr;
    CHECK(caller_blocked);
    CHECK(spins_made == 0);
}

TEST_CASE("an install whose job an awake worker can take spins before it blocks", "[install]") {
    reset();
    test::Pool pool(1);
    std::atomic<bool> busy{false};
    mini::Watchdog dog(
        "an install while the worker is busy", test::watchdog_time,
        [&] { return std::uint64_t(busy.load()) + caller_blocked.load(); },
        [] { return "the worker never got busy, or the caller never blocked"; });
    mini::instrument::sync_hook = &observe;
    // Another outside thread keeps the one worker busy until this caller blocks, so that this
    // inject reads no sleeper and the job stays undone through the spins.
    std::thread other([&] {
        pool.install([&] {
            busy = true;
            while (!caller_blocked.load()) std::this_thread::yield();
        });
    });
    while (!busy.load()) std::this_thread::yield();
    CHECK(pool.install([] { return 7; }) == 7);
    other.join();
    mini::instrument::sync_hook = nullptr;
    CHECK(caller_blocked);
    CHECK(spins_made == mini::LockLatch::spins_until_block);
}
