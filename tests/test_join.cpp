// join_context: results, the migrated flag, work while waiting; and the two sabotage symptoms.
#include <mini/join.hpp>
#include <instrument/watchdog.hpp>

#include <catch2/catch.hpp>

#include <atomic>
#include <optional>
#include <semaphore>
#include <thread>

#include "helpers.hpp"

using mini::FnContext;
using mini::ThreadPool;

namespace {

std::uint64_t fib(unsigned n) {
    if (n < 2) return n;
    auto [a, b] = mini::join([=] { return fib(n - 1); }, [=] { return fib(n - 2); });
    return a + b;
}

constexpr std::uint64_t fib_value(unsigned n) {
    std::uint64_t a = 0, b = 1;
    for (unsigned i = 0; i < n; ++i) b = std::exchange(a, b) + b;
    return a;
}

// The outcome of one join whose B is forced to be stolen.
struct Forced {
    bool a_migrated, b_migrated;
    std::thread::id a_thread, b_thread;
    mini::Stats stats;
};

// On a pool of at least 2 threads: A wakes another worker (through the injector, which never
// loses a wake-up) and waits until B has started on it; `then_b` runs inside B.
template <class ThenB>
Forced force_steal(ThreadPool& pool, ThenB then_b) {
    Forced f{};
    std::atomic<bool> b_started{false};
    const mini::Stats before = mini::stats(pool);
    // A pool where nobody steals B would leave A spinning for good: end it with exit 3. Only
    // until B has started: what B then waits for is the calling test's watchdog's business.
    std::optional<mini::Watchdog> dog(
        std::in_place, "A waiting for a thief to start B", test::watchdog_time,
        [&] { return mini::stats(pool).executed; }, [&] { return test::describe(mini::stats(pool)); });
    pool.install([&] {
        mini::join_context(
            [&](FnContext ctx) {
                f.a_migrated = ctx.migrated();
                f.a_thread = std::this_thread::get_id();
                test::wake_a_worker(pool);
                while (!b_started.load()) std::this_thread::yield(); // hand-off: B is elsewhere
                dog.reset();
            },
            [&](FnContext ctx) {
                f.b_migrated = ctx.migrated();
                f.b_thread = std::this_thread::get_id();
                b_started = true;
                then_b();
            });
    });
    f.stats = mini::stats(pool) - before;
    return f;
}

} // namespace

TEST_CASE("fib is correct on 1, 2, 4 and 12 threads", "[join]") {
    const std::size_t threads = GENERATE(1, 2, 4, 12);
    test::Pool pool(threads);
    // A join whose B nobody runs hangs for good: the watchdog ends the test (exit 3) in seconds.
    std::atomic<std::uint64_t> done{0};
    mini::Watchdog dog("computing fib", test::watchdog_time, [&] { return done.load(); },
                       [&] { return test::describe(mini::stats(pool)); });
    for (unsigned n : {0u, 1u, 2u, 10u, 20u, 25u}) {
        CHECK(pool.install([=] { return fib(n); }) == fib_value(n));
        ++done;
    }
}

TEST_CASE("join returns both results, of any type", "[join]") {
    test::Pool pool(2);
    test::Progress progress("two joins from inside the pool", pool);
    const auto [s, d] = pool.install(
        [] { return mini::join([] { return std::string("left"); }, [] { return 2.5; }); });
    ++progress;
    CHECK(s == "left");
    CHECK(d == 2.5);
    const auto units = pool.install([] { return mini::join([] {}, [] {}); });
    CHECK(units == std::pair(mini::Unit{}, mini::Unit{}));
}

TEST_CASE("a B popped back and run inline has not migrated", "[join]") {
    test::Pool pool(1); // nobody to steal it
    test::Progress progress("a join whose B comes back inline", pool); // one step, never bumped
    const mini::Stats before = mini::stats(pool);
    const auto [a, b] = pool.install([] {
        return mini::join_context([](FnContext c) { return c.migrated(); },
                                  [](FnContext c) { return c.migrated(); });
    });
    CHECK_FALSE(a);
    CHECK_FALSE(b);
    CHECK((mini::stats(pool) - before).b_stolen == 0); // the one join's B came back inline
}

TEST_CASE("a stolen B has migrated and ran on another thread", "[join]") {
    test::Pool pool(2);
    // One step, never bumped: force_steal's own watchdog ends when B starts.
    test::Progress progress("a join whose B is stolen, after B started", pool);
    const Forced f = force_steal(pool, [] {});
    CHECK_FALSE(f.a_migrated);
    CHECK(f.b_migrated);
    CHECK(f.a_thread != f.b_thread);
    CHECK(f.stats.b_stolen == 1);
}

TEST_CASE("both closures of a join called from outside the pool have migrated", "[join]") {
    const std::size_t threads = GENERATE(1, 2);
    test::Pool pool(threads);
    test::Progress progress("a join called from outside the pool", pool); // one step, never bumped
    const auto [a, b] = mini::join_context(
        pool, [](FnContext c) { return c.migrated(); }, [](FnContext c) { return c.migrated(); });
    CHECK(a);
    CHECK(b);
}

TEST_CASE("an owner whose B was stolen runs other jobs while it waits", "[join][steal_wait]") {
    test::Pool pool(2);
    // An owner that only spins on B's latch never runs B2, and B1 waits for B2 for good.
    mini::Watchdog dog(
        "an owner waiting for a stolen B", test::watchdog_time,
        [&] { return mini::stats(pool).executed; }, [&] { return test::describe(mini::stats(pool)); });
    // Inside the stolen B, B1 waits until B2 has started elsewhere: the only idle thread is the
    // owner of B, waiting in wait_until, so it must steal B2 and run it while it waits.
    std::atomic<bool> b2_started{false};
    std::thread::id b2_thread;
    const Forced f = force_steal(pool, [&] {
        mini::join(
            [&] {
                test::wake_a_worker(pool); // in case the owner already fell asleep
                while (!b2_started.load()) std::this_thread::yield();
            },
            [&] {
                b2_thread = std::this_thread::get_id();
                b2_started = true;
            });
    });
    CHECK(f.stats.b_stolen >= 2); // B, and B2
    CHECK(b2_thread == f.a_thread); // the owner of the outer join ran B2 while it waited
    // The owner ran B2, so join's report of the jobs it ran while waiting (Probe::b_stolen's
    // count, the `ran` that wait_until returns) must count it: the statistics and the watchdogs
    // read it there.
    INFO("the owner ran B2 while it waited, but its join reported 0 jobs run while waiting: keep "
         "the count that wait_until returns in `ran`");
    CHECK(f.stats.waited_jobs >= 1);
}

TEST_CASE("reverse: with NO_STEAL_WAIT a waiting owner runs nothing and the result is right",
          "[reverse][no_steal_wait]") {
    test::Pool pool(2);
    std::uint64_t inner = 0;
    const Forced f = force_steal(pool, [&] { inner = fib(22); });
    CHECK(inner == fib_value(22));
    CHECK(f.stats.b_stolen >= 1);
    CHECK(f.stats.waited_jobs == 0);

    test::Pool wide(12);
    for (int r = 0; r < 5; ++r) {
        const mini::Stats before = mini::stats(wide);
        CHECK(wide.install([] { return fib(27); }) == fib_value(27));
        CHECK((mini::stats(wide) - before).waited_jobs == 0);
    }
}

TEST_CASE("reverse: with BLOCK_WAIT one thread deadlocks at its first nested join",
          "[reverse][block_wait]") {
    test::Pool pool(1);
    mini::Watchdog dog(
        "a nested join on a one-thread pool", test::watchdog_time,
        [&] { return mini::stats(pool).executed; }, [&] { return test::describe(mini::stats(pool)); });
    const auto result = pool.install([] { return fib(3); });
    CHECK(result == 2); // not reached in the block-wait build: the watchdog exits 3 first
}

// ---------------------------------------------------------------------------------------------
// The wake rule for pushes, forced. Worker W2 is held between its last failed search and
// registering as a sleeper while W1 pushes B1 (so that push reads 0 sleepers and wakes nobody);
// W2 then registers and sleeps beside B1, since its re-check looks at no deque. W1 pushes again,
// onto its now non-empty deque: with rayon's rule that push wakes W2, which steals B1. With the
// old rule (wake only when the deque was empty) nobody wakes W2 and B1 stays stranded: the
// watchdog ends the test with exit 3.

namespace {
std::atomic<bool> w2_armed{false};
std::binary_semaphore w2_in_window{0}, b1_pushed{0};

void hold_w2_in_window(mini::Probe point) {
    if (point != mini::Probe::idle || !w2_armed.exchange(false)) return;
    w2_in_window.release();
    b1_pushed.acquire();
}
} // namespace

TEST_CASE("a push onto a non-empty deque wakes a sleeper, which takes the stranded B1",
          "[join][push_wake]") {
    w2_armed = true;
    mini::instrument::sync_hook = &hold_w2_in_window;
    test::Pool pool(2);
    w2_in_window.acquire(); // one worker (W2) is held; the other (W1) will take the install
    std::atomic<bool> b1_ran{false};
    std::thread::id w1, b1_thread;
    mini::Watchdog dog(
        "waiting for B1, pushed while the other worker was in its sleep window", test::watchdog_time,
        [&] { return std::uint64_t{b1_ran.load()}; },
        [&] { return "B1 stranded in W1's deque, " + test::describe(mini::stats(pool)); });
    const mini::Stats before = mini::stats(pool);
    pool.install([&] {
        w1 = std::this_thread::get_id();
        mini::join(
            [&] {                   // A, on W1, with B1 in W1's deque
                b1_pushed.release(); // W2 goes on: registers and sleeps
                while (mini::stats(pool).sleepers != 1) std::this_thread::yield();
                mini::join([] {}, [] {}); // pushes B2 onto the non-empty deque
                while (!b1_ran.load()) std::this_thread::yield();
            },
            [&] { // B1
                b1_thread = std::this_thread::get_id();
                b1_ran = true;
            });
    });
    mini::instrument::sync_hook = nullptr;
    const mini::Stats s = mini::stats(pool) - before;
    CHECK(b1_thread != w1); // taken by the woken worker, not popped back by W1
    CHECK(s.b_stolen >= 1); // B1, and B2 too if the woken worker got to it before W1 did
}

// A job that A pushed and left above B: the owner pops it before B (its deque is LIFO) and must
// run it, not drop it (step 5 of the join loop). One thread: nobody steals it, so it has run by
// the time the join returns. Static: a job left in the deque would run after this case returned.
TEST_CASE("a job A pushes and leaves above B runs before the join returns", "[join]") {
    test::Pool pool(1);
    test::Progress progress("a join whose A leaves a job above B", pool); // never bumped
    static std::atomic<bool> ran{false};
    static auto body = [](bool) { ran = true; };
    static mini::StackJob<mini::LockLatch, decltype(body)> left(body);
    pool.install([] {
        mini::join([] { mini::WorkerThread::current()->push(left.as_job_ref()); }, [] {});
    });
    CHECK(ran);
}
