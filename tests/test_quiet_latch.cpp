// QuietLatch: the sleep protocol on a latch, its windows forced by holding its mutex.
#include <mini/quiet_latch.hpp>
#include <instrument/watchdog.hpp>

#include <catch2/catch.hpp>

#include <atomic>
#include <cstdint>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "helpers.hpp"
#include "thread_state.hpp"

namespace {
// Waits until thread `tid` (0: not started yet) is blocked in the kernel ('S'): on the latch's
// mutex or its condition variable, the only places these threads block.
void until_blocked(const std::atomic<pid_t>& tid) {
    while (tid.load() == 0 || test::thread_state(tid.load()) != 'S') std::this_thread::yield();
}
} // namespace

TEST_CASE("a QuietLatch releases every waiter once set, and each counts itself out",
          "[quiet_latch]") {
    mini::QuietLatch latch;
    std::atomic<std::uint64_t> returned{0};
    mini::Watchdog dog(
        "four waiters, then set()", test::watchdog_time, [&] { return returned.load(); }, [&] {
            return std::to_string(returned.load()) + " of 4 waiters returned, " +
                   std::to_string(latch.waiters()) + " waiters registered";
        });
    std::vector<std::thread> waiters;
    for (int i = 0; i < 4; ++i) waiters.emplace_back([&] { latch.wait(); ++returned; });
    while (latch.waiters() < 4 && returned.load() == 0) std::this_thread::yield();
    latch.set();
    for (auto& w : waiters) w.join();
    latch.wait(); // set: returns at once
    CHECK(latch.probe());
    INFO("a waiter left still counted: a waiter must count itself out, or every later set() "
         "takes the mutex for nobody");
    CHECK(latch.waiters() == 0);
}

// A waiter must block, not spin: a wait that yields or spins keeps a core busy, and no count shows
// it (it registers as a blocked one does). The kernel's state of its thread says which ('R' for a
// thread that spins or yields).
TEST_CASE("a waiter on an unset QuietLatch blocks instead of spinning", "[quiet_latch]") {
    mini::QuietLatch latch;
    std::atomic<pid_t> tid{0};
    std::atomic<std::uint64_t> steps{0};
    mini::Watchdog dog(
        "waiting for the waiter to block", test::watchdog_time, [&] { return steps.load(); },
        [&] {
            const pid_t t = tid.load();
            return std::to_string(latch.waiters()) + " waiters registered; the waiter's thread "
                   "is in state '" + std::string(1, t ? test::thread_state(t) : '?') +
                   "', never blocked ('S'): its wait spins instead of blocking on the condition "
                   "variable";
        });
    std::thread waiter([&] {
        tid = test::thread_id();
        latch.wait();
    });
    while (latch.waiters() == 0) std::this_thread::yield();
    ++steps;
    until_blocked(tid);
    ++steps;
    latch.set();
    waiter.join();
    CHECK(latch.waiters() == 0);
}

// The quiet set(): with nobody registered it stores, fences, reads 0 and returns, without the
// mutex. The test holds the mutex while set() runs: a set() that takes it anyway never returns.
TEST_CASE("a set with no waiter registered does not take the mutex", "[quiet_latch][forced]") {
    mini::QuietLatch latch;
    std::atomic<std::uint64_t> steps{0};
    mini::Watchdog dog(
        "set() with no waiter while the test holds the latch's mutex", test::watchdog_time,
        [&] { return steps.load(); },
        [&] {
            return "set() did not return while the test held the mutex, with " +
                   std::to_string(latch.waiters()) + " waiters registered: it takes the mutex "
                   "although nobody waits";
        });
    {
        std::lock_guard held(latch.mutex_for_test());
        std::thread setter([&] { latch.set(); });
        setter.join();
        ++steps;
    }
    CHECK(latch.probe());
}

// The window the re-check closes: a waiter past its fast path (the latch was unset) but not yet
// registered, and set() run there to the end: it reads no waiter and notifies nobody. The test
// holds the mutex, so the waiter blocks at step 1, then lets it go: only its re-check, after
// registering, can see the flag; a waiter that waits without it waits for good.
TEST_CASE("the re-check sees the latch set between the fast path and registering",
          "[quiet_latch][forced]") {
    mini::QuietLatch latch;
    std::atomic<pid_t> tid{0};
    std::atomic<std::uint64_t> steps{0};
    mini::Watchdog dog(
        "a waiter held before registering while set() runs", test::watchdog_time,
        [&] { return steps.load(); },
        [&] {
            return std::to_string(steps.load()) + " of 3 steps (waiter blocked on the mutex, "
                   "set() returned, waiter returned), " + std::to_string(latch.waiters()) +
                   " waiters registered: at step 2 the waiter waits on a latch set before it "
                   "registered (no re-check after registering?)";
        });
    std::unique_lock held(latch.mutex_for_test());
    std::thread waiter([&] {
        tid = test::thread_id();
        latch.wait();
    });
    until_blocked(tid); // past the fast path, blocked at step 1
    ++steps;
    std::thread setter([&] { latch.set(); }); // reads no waiter: returns without the mutex
    setter.join();
    ++steps;
    const std::uint64_t read = latch.waiters();
    held.unlock();
    waiter.join();
    ++steps;
    CHECK(read == 0);
    INFO("the waiter returned still counted as a waiter: a re-check that finds the flag must "
         "count itself out");
    CHECK(latch.waiters() == 0);
}

// The other window: a waiter registered and fenced, and set() reading it. A set() that notified
// without the mutex could notify while the waiter is between its re-check and wait(), and the
// notify would reach nobody. The test waits until the waiter is inside wait() (it then holds no
// mutex), takes the mutex and starts set(): set() must block on the mutex, not return.
TEST_CASE("a set that reads a waiter takes the mutex before it notifies", "[quiet_latch][forced]") {
    mini::QuietLatch latch;
    std::atomic<pid_t> tid{0};
    std::atomic<bool> returned{false};
    std::atomic<std::uint64_t> steps{0};
    mini::Watchdog dog(
        "set() with a waiter while the test holds the latch's mutex", test::watchdog_time,
        [&] { return steps.load(); },
        [&] {
            return std::to_string(steps.load()) + " of 3 steps (waiter registered, set() blocked "
                   "on the mutex or returned, waiter returned), " +
                   std::to_string(latch.waiters()) + " waiters registered";
        });
    std::thread waiter([&] { latch.wait(); });
    while (latch.waiters() == 0) std::this_thread::yield();
    ++steps;
    bool returned_while_held = false;
    std::thread setter;
    {
        std::lock_guard held(latch.mutex_for_test()); // the waiter is inside wait()
        setter = std::thread([&] {
            tid = test::thread_id();
            latch.set();
            returned = true;
        });
        while (!returned.load() && (tid.load() == 0 || test::thread_state(tid.load()) != 'S'))
            std::this_thread::yield();
        ++steps;
        returned_while_held = returned.load();
    }
    setter.join();
    waiter.join();
    ++steps;
    INFO("set() read a waiter and notified without taking the mutex: a waiter between its re-check "
         "and wait() would miss that notify");
    CHECK_FALSE(returned_while_held);
    CHECK(latch.waiters() == 0);
}

// Many rounds of one waiter and one setter, each on its own latch (the latches outlive both
// threads, as a QuietLatch must outlive its set()): the waiter announces the round and waits, the
// setter sets as soon as it sees the announcement, so that its set() falls anywhere in the wait.
TEST_CASE("rounds of a waiter and a setter lose no wake-up", "[quiet_latch]") {
    constexpr std::size_t rounds = 20000;
    std::vector<mini::QuietLatch> latches(rounds);
    std::vector<std::atomic<bool>> announced(rounds);
    std::atomic<std::uint64_t> done{0};
    mini::Watchdog dog(
        "rounds of wait() and set()", test::watchdog_time, [&] { return done.load(); },
        [&] {
            const std::uint64_t i = done.load();
            return "round " + std::to_string(i) + " of " + std::to_string(rounds) +
                   ": the waiter waits on a set latch, " +
                   std::to_string(i < rounds ? latches[i].waiters() : 0) + " waiters registered";
        });
    std::thread setter([&] {
        for (std::size_t i = 0; i < rounds; ++i) {
            while (!announced[i].load(std::memory_order_acquire)) std::this_thread::yield();
            latches[i].set();
        }
    });
    for (std::size_t i = 0; i < rounds; ++i) {
        announced[i].store(true, std::memory_order_release);
        latches[i].wait();
        ++done;
    }
    setter.join();
    std::size_t counted = 0;
    for (const auto& l : latches) counted += l.waiters() != 0;
    INFO("latches that still count a waiter that left: a waiter must count itself out, whether "
         "it waited or found the flag set");
    CHECK(counted == 0);
}
