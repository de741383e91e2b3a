// Exceptions in join and install: they reach the caller, as rayon's panics do, and join waits for
// B before A's exception leaves its frame (chapter 7).
//
// Ported from rayon-core 1.13 (tag rayon-core-v1.13.0):
//   join/test.rs         panic_propagate_a (lines 61-65), panic_propagate_b (67-71),
//                        panic_propagate_both (73-77), panic_b_still_executes (79-87)
//   thread_pool/test.rs  panic_propagate (9-16)
//   tests/simple_panic.rs  simple_panic (3-7)
// Left out, with the reason:
//   thread_pool/test.rs panic_thread_name (121-143): mini has no thread-name, start or exit
//     handlers; a pool whose thread fails to start is test_pool's "a pool whose thread cannot
//     start stops the ones that did".
//   test.rs handler_panics_handled_correctly (76): mini has no panic_handler; a job nobody waits
//     for aborts (escape.unawaited), as rayon does when no handler is set.
//   the scope and spawn panic tests: the scope chapter's (scope/test.rs).
// The [forced] cases hold B with explicit hand-offs; in the rethrow-early-asan build they are
// its reverse tests (tests/CMakeLists.txt).
#include <mini/join.hpp>
#include <instrument/instrument.hpp>

#include <catch2/catch.hpp>

#include <atomic>
#include <cstdint>
#include <optional>
#include <semaphore>
#include <stdexcept>
#include <string>
#include <thread>

#include "helpers.hpp"

namespace {

[[noreturn]] void boom(const char* what) { throw std::runtime_error(what); }

// An exception type that counts its live objects, to see that B's exception is destroyed when A's
// wins (and so neither leaked nor kept).
struct Counted {
    static inline std::atomic<int> live{0};
    int id;
    explicit Counted(int i) : id(i) { ++live; }
    Counted(const Counted& o) : id(o.id) { ++live; }
    ~Counted() { --live; }
};

} // namespace

// ---------------------------------------------------------------------------------------------
// rayon-core's tests, called as they are there: from the test's thread, outside any pool, so
// the join runs in the global pool (and install in a pool of the machine's size).

TEST_CASE("panic_propagate_a: A's exception reaches join's caller", "[exceptions][rayon]") {
    REQUIRE_THROWS_WITH(mini::join([] { boom("Hello, world!"); }, [] {}), "Hello, world!");
}

TEST_CASE("panic_propagate_b: B's exception reaches join's caller", "[exceptions][rayon]") {
    REQUIRE_THROWS_WITH(mini::join([] {}, [] { boom("Hello, world!"); }), "Hello, world!");
}

TEST_CASE("panic_propagate_both: when both throw, A's exception is the one rethrown",
          "[exceptions][rayon]") {
    REQUIRE_THROWS_WITH(mini::join([] { boom("Hello, world!"); }, [] { boom("Goodbye, world!"); }),
                        "Hello, world!");
}

TEST_CASE("panic_b_still_executes: B runs although A threw", "[exceptions][rayon]") {
    bool x = false;
    REQUIRE_THROWS_WITH(mini::join([] { boom("Hello, world!"); }, [&] { x = true; }),
                        "Hello, world!");
    CHECK(x);
}

TEST_CASE("panic_propagate: install's exception reaches its caller", "[exceptions][rayon]") {
    test::Pool pool(std::max(1u, std::thread::hardware_concurrency()));
    REQUIRE_THROWS_WITH(pool.install([] { boom("Hello, world!"); }), "Hello, world!");
}

TEST_CASE("simple_panic: a join whose B throws", "[exceptions][rayon]") {
    REQUIRE_THROWS_WITH(mini::join([] {}, [] { boom("should panic"); }), "should panic");
}

// ---------------------------------------------------------------------------------------------
// Their kin: on a worker, inline and stolen, nested, any type, and the pool still usable after.

TEST_CASE("on a worker, an exception from A, from B or from both reaches join's caller",
          "[exceptions]") {
    test::Pool pool(2);
    const auto caught = [&](auto a, auto b) {
        return pool.install([&]() -> std::string {
            try {
                mini::join(a, b);
            } catch (const std::runtime_error& e) {
                return e.what();
            }
            return "nothing";
        });
    };
    CHECK(caught([] { boom("A"); }, [] {}) == "A");
    CHECK(caught([] {}, [] { boom("B"); }) == "B");
    CHECK(caught([] { boom("A"); }, [] { boom("B"); }) == "A");
    CHECK(caught([] {}, [] {}) == "nothing");
    CHECK(pool.install([] { return mini::join([] { return 1; }, [] { return 2; }); }) ==
          std::pair(1, 2)); // the pool still works
}

TEST_CASE("an install called on a worker of its pool rethrows to its caller, inline",
          "[exceptions]") {
    test::Pool pool(1); // one thread: the inner install runs inline or not at all
    const std::string what = pool.install([&]() -> std::string {
        try {
            pool.install([] { boom("inner"); });
        } catch (const std::runtime_error& e) {
            return e.what();
        }
        return "nothing";
    });
    CHECK(what == "inner");
}

TEST_CASE("an exception of any type keeps its type and value", "[exceptions]") {
    test::Pool pool(2);
    test::Progress progress("joins whose A or B throws a non-std exception", pool); // a hang: exit 3
    REQUIRE_THROWS_AS(pool.install([] { mini::join([] { throw 42; }, [] {}); }), int);
    try {
        pool.install([] { mini::join([] {}, [] { throw Counted(7); }); });
        FAIL("no exception");
    } catch (const Counted& c) {
        CHECK(c.id == 7);
    }
    CHECK(Counted::live == 0);
    test::Pool one(1); // B is popped back by the wait after A threw, and its exception kept
    try {
        one.install([] { mini::join([] { throw Counted(1); }, [] { throw Counted(2); }); });
        FAIL("no exception");
    } catch (const Counted& c) {
        CHECK(c.id == 1);
    }
    CHECK(Counted::live == 0); // B's was destroyed with join's frame
}

// A standard exception that is not a std::runtime_error keeps its type on its way to join's
// caller, from A and from B, stolen or not (issue 51: a rethrow of a runtime_error carrying the
// what() of A's exception passed every test while all of them threw runtime_errors).
TEST_CASE("a std::out_of_range from A or B reaches join's caller as a std::out_of_range",
          "[exceptions]") {
    test::Pool pool(2);
    test::Progress progress("joins whose A or B throws std::out_of_range", pool);
    for (int round = 0; round < 20; ++round) {
        CHECK_THROWS_AS(pool.install([] { mini::join([] { throw std::out_of_range("A"); }, [] {}); }),
                        std::out_of_range);
        CHECK_THROWS_AS(pool.install([] { mini::join([] {}, [] { throw std::out_of_range("B"); }); }),
                        std::out_of_range);
        ++progress;
    }
    test::Pool one(1); // A throws and B, popped back by the wait, runs on the same worker
    CHECK_THROWS_AS(one.install([] { mini::join([] { throw std::out_of_range("A"); }, [] {}); }),
                    std::out_of_range);
}

// One leaf of a join tree throws. Every join on the way up waits for its B, so every other leaf
// still runs exactly once before the exception reaches the top.
namespace {
void tree(std::atomic<int>* leaves, int lo, int hi, int bad) {
    if (hi - lo == 1) {
        leaves[lo].fetch_add(1);
        if (lo == bad) boom("leaf");
        return;
    }
    const int mid = lo + (hi - lo) / 2;
    mini::join([&] { tree(leaves, lo, mid, bad); }, [&] { tree(leaves, mid, hi, bad); });
}
} // namespace

TEST_CASE("a throw in one leaf of a join tree reaches the top after every other leaf ran",
          "[exceptions]") {
    test::Pool pool(4);
    constexpr int n = 1024;
    for (int bad : {0, 1, n / 2 - 1, n / 2, n - 1}) {
        std::vector<std::atomic<int>> leaves(n);
        REQUIRE_THROWS_WITH(pool.install([&] { tree(leaves.data(), 0, n, bad); }), "leaf");
        CHECK(test::count_not_once(leaves) == 0);
    }
}

// ---------------------------------------------------------------------------------------------
// B stolen, forced: A keeps the owner until B has started on the other worker.

namespace {
std::atomic<bool> b_started{false};

std::thread::id b_thread; // written by B before it sets b_started, read after

[[gnu::noinline]] void stolen_b_throws(mini::ThreadPool& pool) {
    mini::join(
        [&] {
            test::wake_a_worker(pool); // so that the other worker steals B
            while (!b_started.load()) std::this_thread::yield();
        },
        [] {
            b_thread = std::this_thread::get_id();
            b_started = true;
            throw Counted(2);
        });
}
} // namespace

TEST_CASE("a stolen B's exception is kept in its StackJob and rethrown on the owner",
          "[exceptions]") {
    test::Pool pool(2);
    test::Progress progress("an owner waiting for a stolen B that throws", pool);
    b_started = false;
    std::thread::id owner;
    int id = 0;
    pool.install([&] {
        owner = std::this_thread::get_id();
        try {
            stolen_b_throws(pool);
        } catch (const Counted& c) {
            id = c.id;
        }
        ++progress;
    });
    CHECK(id == 2);
    CHECK(b_thread != owner);
    CHECK(Counted::live == 0);
}

// ---------------------------------------------------------------------------------------------
// The line that matters, forced. A throws while B runs on the thief, held there: B goes on only
// once the owner waits for it (its first idle probe, in the right build) or once the exception
// has left join's frame (with RETHROW_EARLY). The owner then reuses nothing until B's latch is
// set. Right: B has finished when the exception is caught. RETHROW_EARLY: it has not, and B's
// StackJob::execute then writes B's result into join_on's dead frame, where the
// rethrow-early-asan build's AddressSanitizer reports a stack-use-after-return.

namespace {
std::atomic<bool> go_on{false}, b_finished{false}, b_done{false};
std::atomic<bool> idle_armed{false}, set_armed{false};

void hold_b(mini::Probe point) {
    using mini::Probe;
    if (point == Probe::idle && idle_armed.exchange(false)) go_on = true; // the owner waits for B
    if (point == Probe::latch_set && set_armed.exchange(false)) b_done = true; // B's latch
}

[[gnu::noinline]] void a_throws_while_b_runs(mini::ThreadPool& pool) {
    mini::join(
        [&] {
            test::wake_a_worker(pool); // so that the other worker steals B
            while (!b_started.load()) std::this_thread::yield();
            boom("boom from A");
        },
        [] { // only globals: the first touch of the dead frame is StackJob::execute's
            idle_armed = true;
            b_started = true;
            while (!go_on.load()) std::this_thread::yield();
            b_finished = true;
        });
}
} // namespace

TEST_CASE("join waits for a stolen B before A's exception leaves",
          "[exceptions][forced]") {
    test::Pool pool(2);
    // Watched until the exception is caught. Not after: with RETHROW_EARLY, ASan's report (which
    // takes seconds to symbolize) comes then, and a watchdog would cut it short with exit 3.
    std::optional<test::Progress> progress;
    progress.emplace("an owner whose A threw while its stolen B was held", pool);
    b_started = go_on = b_finished = b_done = idle_armed = false;
    set_armed = true;
    mini::instrument::sync_hook = &hold_b;
    std::string what;
    bool finished_when_caught = false;
    pool.install([&] {
        try {
            a_throws_while_b_runs(pool);
        } catch (const std::runtime_error& e) {
            what = e.what();
            finished_when_caught = b_finished;
        }
        progress.reset();
        go_on = true; // with RETHROW_EARLY B is still held: let it go on into the dead frame
        while (!b_done.load()) std::this_thread::yield(); // and reuse nothing until it is done
    });
    mini::instrument::sync_hook = nullptr;
    CHECK(what == "boom from A");
    CHECK(finished_when_caught);
}

// One thread, so nobody steals B: when A throws, B is still in the owner's deque. The right join
// pops it back and runs it before the exception leaves. With RETHROW_EARLY the JobRef stays in
// the deque, pointing into join_on's dead frame; the worker pops its own deque before it looks at
// the injector, so the next install makes it run that stale job first.
TEST_CASE("a B nobody stole runs before A's exception leaves",
          "[exceptions][forced]") {
    test::Pool pool(1);
    // Watched until the exception is caught (see the case above).
    std::optional<test::Progress> progress;
    progress.emplace("an owner whose A threw with B in its own deque", pool);
    std::atomic<int> b_runs{0};
    int runs_when_caught = -1;
    std::string what;
    try {
        pool.install([&] { mini::join([] { boom("boom from A"); }, [&] { ++b_runs; }); });
    } catch (const std::runtime_error& e) {
        what = e.what();
        runs_when_caught = b_runs;
    }
    progress.reset();
    pool.install([] {}); // a B left in the deque would run now, from its dead frame
    CHECK(what == "boom from A");
    CHECK(runs_when_caught == 1);
    CHECK(b_runs == 1);
}

// ---------------------------------------------------------------------------------------------
// Where the owner waits for B after A threw: outside the handler. A throws once B runs on the
// thief; B joins C and D there, and C holds the thief until D has run, so D can only be run by
// the owner, which finds it while it waits for B. D looks at std::current_exception(): inside
// the catch block that wait would make A's exception the current one for every job it runs (a
// bare `throw;` in D would rethrow it). rayon waits only after the panic was caught and stored
// (rayon-core-v1.13.0, join/mod.rs lines 142-145 and 184).

namespace {
std::binary_semaphore b_running{0}, d_ran{0};
std::atomic<bool> d_saw_an_exception{true};
} // namespace

TEST_CASE("a job the owner runs while it waits for B after A threw sees no current exception",
          "[exceptions][forced]") {
    test::Pool pool(2);
    test::Progress progress("an owner whose A threw, waiting for its stolen B", pool);
    d_saw_an_exception = true;
    std::string what;
    pool.install([&] {
        try {
            mini::join(
                [&] {
                    test::wake_a_worker(pool); // so that the other worker steals B
                    b_running.acquire();
                    boom("boom from A");
                },
                [] {
                    b_running.release();
                    mini::join([] { d_ran.acquire(); }, // C: holds the thief until D has run
                               [] { // D: stolen by the owner, in its wait for B
                                   d_saw_an_exception = std::current_exception() != nullptr;
                                   d_ran.release();
                               });
                });
        } catch (const std::runtime_error& e) {
            what = e.what();
        }
    });
    CHECK(what == "boom from A");
    CHECK_FALSE(d_saw_an_exception);
}
