// join_across: A on the calling worker of one pool, B on another pool, both results
// (src/mini/join_across.hpp; the cross lab, chapters/labs/cross.hpp). Not in rayon: these are the
// workbook's own tests. Each runs under a watchdog: a caller that waits for B without running its
// own pool's jobs, or runs A before B is published while A waits for B, hangs, and ends with
// exit 3. The [forced] cases hold B on the other pool with explicit hand-offs.
#include <mini/join_across.hpp>
#include <instrument/instrument.hpp>

#include <catch2/catch.hpp>

#include <atomic>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <type_traits>

#include "helpers.hpp"

using mini::ThreadPool;
using mini::WorkerThread;

namespace {

// The pool of the worker running this, or nullptr outside every pool.
const ThreadPool* here() {
    const WorkerThread* w = WorkerThread::current();
    return w != nullptr ? &w->pool() : nullptr;
}

[[noreturn]] void boom(const char* what) { throw std::out_of_range(what); }

} // namespace

TEST_CASE("join_across runs A on the caller's pool and B on the other, and returns both",
          "[join_across]") {
    test::Pool p(1), q(2);
    test::Progress progress("a join across two pools", p);
    const auto [a, b] = p.install([&] { return q.join_across([] { return here(); },
                                                             [] { return here(); }); });
    CHECK(a == &p);
    CHECK(b == &q);
    int x = 1;
    auto [r, u] = p.install([&] { return q.join_across([&x]() -> int& { return x; }, [] {}); });
    r = 5;
    CHECK(x == 5);
    CHECK(std::is_same_v<decltype(u), mini::Unit>);
}

TEST_CASE("from outside every pool, or on the other pool itself, join_across is join there",
          "[join_across]") {
    test::Pool q(2);
    const auto [a, b] = q.join_across([] { return here(); }, [] { return here(); });
    CHECK(a == &q);
    CHECK(b == &q);
    const auto [c, d] = q.install([&] { return q.join_across([] { return 1; }, [] { return 2; }); });
    CHECK(c + d == 3);
}

TEST_CASE("an exception from A or from B reaches join_across's caller with its type, A's first",
          "[join_across]") {
    test::Pool p(1), q(1);
    test::Progress progress("a join across two pools that throws", p);
    auto what = [&](auto a, auto b) {
        std::string seen;
        p.install([&] {
            try {
                q.join_across(a, b);
            } catch (const std::out_of_range& e) {
                seen = e.what();
            }
        });
        return seen;
    };
    CHECK(what([] { boom("from A"); }, [] {}) == "from A");
    CHECK(what([] {}, [] { boom("from B"); }) == "from B");
    CHECK(what([] { boom("from A"); }, [] { boom("from B"); }) == "from A");
}

// B, on Q, calls back into P: its job is injected into P, whose one worker is the caller, waiting
// for B. Only a caller that runs its own pool's jobs while it waits ever runs it.
TEST_CASE("join_across's caller runs its own pool's jobs while it waits for B",
          "[join_across][forced]") {
    test::Pool p(1), q(1);
    test::Progress progress("a join across whose B waits for a job of the caller's pool", p);
    const auto [a, b] = p.install([&] {
        return q.join_across([] { return 1; },
                             [&] {
                                 const ThreadPool* ran_on = p.install([] { return here(); });
                                 ++progress;
                                 return ran_on;
                             });
    });
    CHECK(a == 1);
    CHECK(b == &p);
}

// A returns at once, and the caller, P's one worker, falls asleep in P's sleep state while B
// waits for that. Only the set of a latch that wakes P's sleepers (the cross latch on the
// caller's pool) ever wakes it.
TEST_CASE("join_across's caller asleep on B's latch is woken by B's set on the other pool",
          "[join_across][forced]") {
    test::Pool p(1), q(1);
    test::Progress progress("a join across whose caller sleeps until B is done", p);
    const auto [a, b] = p.install([&] {
        return q.join_across([] { return 1; },
                             [&] {
                                 while (p.sleep().sleepers() != 1) std::this_thread::yield();
                                 ++progress;
                                 return 2;
                             });
    });
    CHECK(a + b == 3);
}

// A waits until B has started on Q, so B must be published before A runs; then A throws. B is
// held until the caller waits for it (P's worker's first idle probe), or, without that wait, until
// the exception has been caught; the caller then reuses nothing until B's latch is set.
namespace {
std::atomic<bool> b_started{false}, go_on{false}, b_finished{false}, b_done{false};
std::atomic<bool> idle_armed{false}, set_armed{false};

void hold_b(mini::Probe point) {
    using mini::Probe;
    if (point == Probe::idle && idle_armed.exchange(false)) go_on = true; // the caller waits
    if (point == Probe::latch_set && set_armed.exchange(false)) b_done = true; // B's latch
}

[[gnu::noinline]] void a_throws_while_b_runs(ThreadPool& q) {
    q.join_across(
        [] {
            while (!b_started.load()) std::this_thread::yield(); // B runs on Q meanwhile
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

TEST_CASE("join_across waits for B on the other pool before A's exception leaves",
          "[join_across][forced]") {
    test::Pool p(1), q(1);
    std::optional<test::Progress> progress;
    progress.emplace("a join across whose A threw while B was held on the other pool", p);
    b_started = go_on = b_finished = b_done = idle_armed = false;
    set_armed = true;
    mini::instrument::sync_hook = &hold_b;
    std::string what;
    bool finished_when_caught = false;
    p.install([&] {
        try {
            a_throws_while_b_runs(q);
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
