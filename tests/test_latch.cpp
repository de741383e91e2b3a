// Latches, and the rule that SpinLatch::set touches nothing of the latch after setting it.
#include <mini/join.hpp>
#include <mini/latch.hpp>
#include <instrument/watchdog.hpp>

#include <catch2/catch.hpp>

#include <atomic>
#include <semaphore>
#include <thread>

#include <sys/syscall.h>
#include <unistd.h>

#include "helpers.hpp"

TEST_CASE("a LockLatch releases its waiter", "[latch]") {
    mini::LockLatch latch;
    std::thread setter([&] { mini::LockLatch::set(&latch); });
    latch.wait();
    setter.join();
}

// Whether wait() blocked, from its probe: Probe::lock_latch_block comes just before cv_.wait.
// Whether it yielded, from sched_yield itself: this definition comes before libc's in the
// dynamic lookup, so std::this_thread::yield() calls it; each thread counts its own calls.
namespace {
std::atomic<int> blocks{0}, spins{0};
thread_local int yields = 0;
void count_blocks(mini::Probe point) {
    if (point == mini::Probe::lock_latch_spin) ++spins;
    if (point == mini::Probe::lock_latch_block) ++blocks;
}
} // namespace

extern "C" int sched_yield() noexcept {
    ++yields;
    return int(syscall(SYS_sched_yield));
}

// A latch already set must be seen by the first load, which returns before blocking. Blocking
// would not hang (cv_.wait's predicate sees the set latch and returns at once), so only the
// probe tells the two paths apart: a wait that skips its spin fails on the count.
TEST_CASE("a LockLatch set before the wait returns from the spin, without blocking", "[latch]") {
    mini::LockLatch latch;
    mini::LockLatch::set(&latch);
    blocks = spins = 0;
    mini::instrument::sync_hook = &count_blocks;
    latch.wait();
    mini::instrument::sync_hook = nullptr;
    CHECK(blocks == 0);
    CHECK(spins == 0);
}

// The latch is set mid-spin: the waiter found it unset and is held at Probe::lock_latch_spin
// until another thread has set it. It must return from the spin, without blocking and without
// a yield, however long the hold took (the spin's clock starts after the probe).
namespace {
std::binary_semaphore spin_started{0}, latch_was_set{0};
void set_during_spin(mini::Probe point) {
    count_blocks(point);
    if (point == mini::Probe::lock_latch_spin) {
        const int before = yields; // the semaphore's own wait may yield: not the latch's
        spin_started.release();
        latch_was_set.acquire();
        yields = before;
    }
}
} // namespace

TEST_CASE("a LockLatch set during its spin returns without blocking or yielding", "[latch]") {
    mini::LockLatch latch;
    blocks = spins = 0;
    mini::Watchdog dog(
        "a waiter held in its spin, and its setter", test::watchdog_time,
        [] { return std::uint64_t(spins.load()); },
        [] { return "the waiter never started its spin"; });
    std::thread setter([&] {
        spin_started.acquire();
        mini::LockLatch::set(&latch);
        latch_was_set.release();
    });
    mini::instrument::sync_hook = &set_during_spin;
    yields = 0;
    latch.wait();
    const int waiter_yields = yields;
    mini::instrument::sync_hook = nullptr;
    setter.join();
    CHECK(spins == 1);
    CHECK(blocks == 0);
    CHECK(waiter_yields == 0);
}

// The other path, so that the counts above are not zero for want of a probe: the setter sets the
// latch only once the waiter has spun out and is about to block. The waiter spins with
// cpu_relax, bounded in time, and never yields: on a core shared with another runnable thread a
// yield can give away a whole time slice, where a blocked waiter is woken by the setter.
TEST_CASE("a LockLatch still unset after the spin blocks, without yielding, until it is set",
          "[latch]") {
    mini::LockLatch latch;
    blocks = spins = 0;
    mini::instrument::sync_hook = &count_blocks;
    mini::Watchdog dog(
        "a waiter that should block, and its setter", test::watchdog_time,
        [] { return std::uint64_t(blocks.load()); }, [] { return "the waiter never blocked"; });
    std::thread setter([&] {
        while (blocks.load() == 0) std::this_thread::yield();
        mini::LockLatch::set(&latch);
    });
    yields = 0;
    latch.wait();
    const int waiter_yields = yields;
    setter.join();
    mini::instrument::sync_hook = nullptr;
    CHECK(spins == 1);
    CHECK(blocks == 1);
    CHECK(waiter_yields == 0);
}

// The caller's started() (in_worker_cold: has a worker taken the job?) is asked only once the
// waiter has spun spin_time_unstarted, and here it sets the latch as it answers. A started job
// keeps the spin going: the next round sees the latch set and returns without blocking. A job
// nobody started ends the spin at once, although the latch is set by then: the waiter takes the
// blocking path (its probe fires; cv_.wait's predicate then returns at once). Without the rule,
// the second wait would also return from its spin (blocks == 0).
TEST_CASE("a LockLatch spins on while its job has started and blocks at once while nobody has",
          "[latch]") {
    for (const bool started : {true, false}) {
        mini::LockLatch latch;
        std::atomic<int> asked{0};
        std::atomic<bool> returned{false};
        blocks = spins = 0;
        mini::instrument::sync_hook = &count_blocks;
        // Without the rule started() is never asked: this thread then sets the latch once the
        // waiter blocks, and the counts below fail instead of the test hanging.
        std::thread fallback([&] {
            while (blocks.load() == 0 && !returned.load()) std::this_thread::yield();
            if (asked.load() == 0) mini::LockLatch::set(&latch);
        });
        latch.wait([] {}, [&] {
            if (asked++ == 0) mini::LockLatch::set(&latch);
            return started;
        });
        returned = true;
        fallback.join();
        mini::instrument::sync_hook = nullptr;
        INFO("started() says " << started);
        CHECK(asked == 1);
        CHECK(spins == 1);
        CHECK(blocks == (started ? 0 : 1));
    }
}

// A waiter that sees the latch set while spinning returns and destroys the latch at once; the
// setter may still be inside set(), between its store and its unlock. wait() takes the mutex
// once before returning, so the setter is out first: under ASan and TSan, a use of the dead
// latch by the setter (stack-use-after-return, or a race with the next latch in the same frame)
// would be reported here.
TEST_CASE("a LockLatch destroyed as soon as wait returns outlives its setter", "[latch]") {
    constexpr int trips = 20000;
    std::atomic<mini::LockLatch*> next{nullptr};
    std::thread setter([&] {
        for (int i = 0; i < trips; ++i) {
            mini::LockLatch* l;
            while ((l = next.exchange(nullptr, std::memory_order_acquire)) == nullptr)
                std::this_thread::yield();
            mini::LockLatch::set(l);
        }
    });
    for (int i = 0; i < trips; ++i) {
        mini::LockLatch latch; // a fresh one in the same frame each time
        next.store(&latch, std::memory_order_release);
        latch.wait();
    }
    setter.join();
    CHECK(next.load() == nullptr);
}

TEST_CASE("a SpinLatch probes false until set", "[latch]") {
    mini::Sleep sleep;
    mini::SpinLatch latch(&sleep);
    CHECK_FALSE(latch.probe());
    mini::SpinLatch::set(&latch);
    CHECK(latch.probe());
}

// SpinLatch::set's wake-up, forced: the owner of a stolen B falls asleep in the pool's sleep
// protocol while B runs (B waits until the owner is the pool's one sleeper), so the owner returns
// only if set wakes it. Without that wake it sleeps for good and the watchdog ends the test.
TEST_CASE("SpinLatch::set wakes the owner asleep on the latch of its stolen B",
          "[latch][steal_wait]") {
    test::Pool pool(2);
    std::atomic<bool> b_started{false};
    std::atomic<std::uint64_t> steps{0};
    mini::Watchdog dog(
        "an owner asleep until its stolen B's latch is set", test::watchdog_time,
        [&] { return steps.load(); }, [&] { return test::describe(mini::stats(pool)); });
    const mini::Stats before = mini::stats(pool);
    const bool b_migrated = pool.install([&] {
        return mini::join_context(
                   [&](mini::FnContext) {
                       test::wake_a_worker(pool); // so that the other worker steals B
                       while (!b_started.load()) std::this_thread::yield();
                       ++steps;
                   },
                   [&](mini::FnContext ctx) {
                       b_started = true;
                       // The owner registered and found B's latch unset: it is in cv_.wait.
                       while (pool.sleep().sleepers() != 1) std::this_thread::yield();
                       ++steps;
                       return ctx.migrated();
                   })
            .second;
    });
    ++steps;
    CHECK(b_migrated);
    CHECK((mini::stats(pool) - before).sleeps >= 1); // the owner's
}

// ---------------------------------------------------------------------------------------------
// The setter of a stolen B's latch is held right after its store until the owner has seen the
// latch set, returned from the join and so freed the frame that held the latch; the owner then
// parks until the setter is done, so that nothing reuses that dead frame meanwhile. Whatever set
// does in between must not touch the latch: in the touch-after-set-asan build it does, and
// AddressSanitizer reports a stack-use-after-return in SpinLatch::set every time.

namespace {
std::atomic<bool> hold_armed{false}, done_armed{false};
std::binary_semaphore latch_stored{0}, frame_gone{0}, setter_done{0};

void hold_setter(mini::Probe point) {
    using mini::Probe;
    if (point == Probe::latch_stored && hold_armed.exchange(false)) {
        latch_stored.release();
        frame_gone.acquire();
    } else if (point == Probe::latch_set && done_armed.exchange(false)) {
        setter_done.release();
    }
}

// The join whose frame dies: A waits until B's latch is stored, so the owner finds it set at once.
[[gnu::noinline]] bool join_and_return(mini::ThreadPool& pool) {
    std::atomic<bool> b_migrated{false};
    mini::join_context(
        [&](mini::FnContext) {
            test::wake_a_worker(pool); // so that another worker steals B
            latch_stored.acquire();    // B ran elsewhere and its latch is stored
        },
        [&](mini::FnContext ctx) { b_migrated = ctx.migrated(); });
    return b_migrated;
}
} // namespace

TEST_CASE("SpinLatch::set touches nothing after the store even when the owner's frame is gone",
          "[latch][touch_after_set]") {
    test::Pool pool(2);
    // A setter that wakes nobody can leave a worker asleep for good, here or in the pool's
    // destructor (which test::Pool watches): the watchdogs end that with exit 3, not ctest.
    mini::Watchdog dog(
        "an owner and a setter held until the owner's frame is gone", test::watchdog_time,
        [&] { return mini::stats(pool).executed; }, [&] { return test::describe(mini::stats(pool)); });
    hold_armed = done_armed = true;
    mini::instrument::sync_hook = &hold_setter;
    const bool migrated = pool.install([&] {
        const bool m = join_and_return(pool);
        frame_gone.release();  // the frame that held B's latch is gone: let the setter go on
        setter_done.acquire(); // and run nothing here until it has returned
        return m;
    });
    mini::instrument::sync_hook = nullptr;
    CHECK(migrated);
}
