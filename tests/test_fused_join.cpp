// join_fused: join, except that an exception from A cancels a B nobody has started
// (src/mini/join_fused.hpp; the unwind lab, chapters/labs/unwind.hpp). Not in rayon: these are
// the workbook's own tests. The [forced] cases place B where they want it when A throws: still in
// the owner's deque (a pool of one thread: nobody can steal it), under a job A left above it, or
// on a thief, held there by explicit hand-offs until the owner waits for it.
#include <mini/join_fused.hpp>
#include <mini/spawn.hpp>
#include <instrument/instrument.hpp>

#include <catch2/catch.hpp>

#include <atomic>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <type_traits>

#include "helpers.hpp"

namespace {

[[noreturn]] void boom(const char* what) { throw std::out_of_range(what); }

std::uint64_t fib(std::uint64_t n) {
    if (n < 2) return n;
    auto [a, b] = mini::join_fused([n] { return fib(n - 1); }, [n] { return fib(n - 2); });
    return a + b;
}

} // namespace

TEST_CASE("join_fused returns both results, a reference as one", "[join_fused]") {
    test::Pool pool(2);
    CHECK(pool.install([] { return fib(20); }) == 6765);
    int x = 1;
    auto [r, u] = mini::join_fused(pool, [&x]() -> int& { return x; }, [] {});
    r = 5;
    CHECK(x == 5);
    CHECK(std::is_same_v<decltype(u), mini::Unit>);
}

TEST_CASE("an exception from A or from B reaches join_fused's caller with its type",
          "[join_fused]") {
    test::Pool pool(2);
    std::string what;
    try {
        mini::join_fused(pool, [] { boom("from A"); }, [] {});
    } catch (const std::out_of_range& e) {
        what = e.what();
    }
    CHECK(what == "from A");
    what.clear();
    try {
        mini::join_fused(pool, [] {}, [] { boom("from B"); });
    } catch (const std::out_of_range& e) {
        what = e.what();
    }
    CHECK(what == "from B");
}

// One thread: nobody steals B, which is still in the owner's deque when A throws. The fuse takes
// it back and drops it: it never runs, and it is not left in the deque either, where the next
// install would run it from join_fused's dead frame.
TEST_CASE("join_fused drops a B nobody started when A throws", "[join_fused][forced]") {
    test::Pool pool(1);
    std::optional<test::Progress> progress;
    progress.emplace("an owner whose A threw with B in its own deque", pool);
    std::atomic<int> b_runs{0};
    std::string what;
    pool.install([&] {
        try {
            mini::join_fused([] { boom("from A"); }, [&] { ++b_runs; });
        } catch (const std::out_of_range& e) {
            what = e.what();
        }
    });
    progress.reset();
    pool.install([] {}); // a B left in the deque would run now
    CHECK(what == "from A");
    CHECK(b_runs == 0);
}

// One thread again; A spawns a job, which lands on the owner's deque above B, and then throws.
// That job is not B's to cancel: the owner runs it before it finds B, and drops only B.
TEST_CASE("a job A left above B still runs when A throws, before the exception leaves",
          "[join_fused][forced]") {
    test::Pool pool(1);
    test::Progress progress("an owner whose A threw above a job it spawned", pool);
    std::atomic<int> b_runs{0};
    std::atomic<bool> spawned_ran{false};
    bool ran_when_caught = false;
    std::string what;
    pool.install([&] {
        try {
            mini::join_fused(
                [&] {
                    pool.spawn([&spawned_ran] { spawned_ran = true; });
                    boom("from A");
                },
                [&] { ++b_runs; });
        } catch (const std::out_of_range& e) {
            what = e.what();
            ran_when_caught = spawned_ran;
        }
    });
    CHECK(what == "from A");
    CHECK(ran_when_caught);
    CHECK(b_runs == 0);
}

// Two threads: A wakes the other worker, which steals B, and throws once B has started. B is
// held until the owner waits for it (its first idle probe), or, without that wait, until the
// exception has been caught; the owner then reuses nothing until B's latch is set. Right: B has
// finished when the exception is caught.
namespace {
std::atomic<bool> b_started{false}, go_on{false}, b_finished{false}, b_done{false};
std::atomic<bool> idle_armed{false}, set_armed{false};

void hold_b(mini::Probe point) {
    using mini::Probe;
    if (point == Probe::idle && idle_armed.exchange(false)) go_on = true; // the owner waits for B
    if (point == Probe::latch_set && set_armed.exchange(false)) b_done = true; // B's latch
}

[[gnu::noinline]] void a_throws_while_b_runs(mini::ThreadPool& pool) {
    mini::join_fused(
        [&] {
            test::wake_a_worker(pool); // so that the other worker steals B
            while (!b_started.load()) std::this_thread::yield();
            boom("from A");
        },
        [] { // only globals: B may outlive the frame in a wrong build
            idle_armed = true;
            b_started = true;
            while (!go_on.load()) std::this_thread::yield();
            b_finished = true;
        });
}
} // namespace

TEST_CASE("join_fused waits for a stolen B before A's exception leaves",
          "[join_fused][forced]") {
    test::Pool pool(2);
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
        } catch (const std::out_of_range& e) {
            what = e.what();
            finished_when_caught = b_finished;
        }
        progress.reset();
        go_on = true; // not waited for: B is still held; let it go on
        while (!b_done.load()) std::this_thread::yield(); // and reuse nothing until it is done
    });
    mini::instrument::sync_hook = nullptr;
    CHECK(what == "from A");
    CHECK(finished_when_caught);
}
