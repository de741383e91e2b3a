// The sleep state's wake-up: the waker counts the sleeper out, forced.
#include <mini/pool.hpp>
#include <instrument/watchdog.hpp>

#include <catch2/catch.hpp>

#include <atomic>
#include <cstdint>
#include <thread>

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
