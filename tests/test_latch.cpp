// Latches, and the rule that SpinLatch::set touches nothing of the latch after setting it.
#include <mini/join.hpp>
#include <mini/latch.hpp>
#include <instrument/watchdog.hpp>

#include <catch2/catch.hpp>

#include <atomic>
#include <semaphore>
#include <thread>

#include "helpers.hpp"

TEST_CASE("a LockLatch releases its waiter", "[latch]") {
    mini::LockLatch latch;
    std::thread setter([&] { mini::LockLatch::set(&latch); });
    latch.wait();
    setter.join();
}

TEST_CASE("a LockLatch set before the wait returns from the spin, without blocking", "[latch]") {
    mini::LockLatch latch;
    mini::LockLatch::set(&latch);
    latch.wait(); // would hang in cv_.wait if the spin missed a set latch: the ctest TIMEOUT ends it
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
