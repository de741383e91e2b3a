// join3: three closures, two jobs on the caller's stack, taken back newest first
// (src/mini/join3.hpp; the join lab, chapters/labs/join.hpp). Not in rayon: these are the
// workbook's own tests. The [forced] cases place B and C where they want them: both in the
// owner's deque (a pool of one thread: nobody can steal them), under jobs left above them, or C on
// a thief, held there by explicit hand-offs until the owner waits for it.
#include <mini/join3.hpp>
#include <instrument/watchdog.hpp>

#include <catch2/catch.hpp>

#include <atomic>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <thread>
#include <type_traits>

#include "helpers.hpp"

using mini::FnContext;

namespace {

// Tribonacci, each call a join3 of the three before it: trib(0) = trib(1) = 0, trib(2) = 1.
std::uint64_t trib(unsigned n) {
    if (n < 3) return n == 2;
    auto [a, b, c] = mini::join3([n] { return trib(n - 1); }, [n] { return trib(n - 2); },
                                 [n] { return trib(n - 3); });
    return a + b + c;
}

std::uint64_t trib_value(unsigned n) {
    std::uint64_t a = 0, b = 0, c = 1;
    for (unsigned i = 0; i < n; ++i) {
        const std::uint64_t next = a + b + c;
        a = b;
        b = c;
        c = next;
    }
    return a;
}

[[noreturn]] void boom(const char* what) { throw std::out_of_range(what); }

} // namespace

TEST_CASE("join3 is correct on 1, 2 and 4 threads", "[join3]") {
    const std::size_t threads = GENERATE(1, 2, 4);
    test::Pool pool(threads);
    std::atomic<std::uint64_t> done{0};
    mini::Watchdog dog("computing trib", test::watchdog_time, [&] { return done.load(); },
                       [&] { return test::describe(mini::stats(pool)); });
    for (unsigned n : {0u, 1u, 2u, 3u, 10u, 18u}) {
        CHECK(pool.install([=] { return trib(n); }) == trib_value(n));
        ++done;
    }
}

TEST_CASE("join3 returns the three results, a reference as one, a void as Unit", "[join3]") {
    test::Pool pool(2);
    test::Progress progress("a join3 of three types", pool); // one step, never bumped
    int x = 1;
    auto [r, s, u] = mini::join3(
        pool, [&x]() -> int& { return x; }, [] { return std::string("mid"); }, [] {});
    r = 5;
    CHECK(x == 5);
    CHECK(s == "mid");
    CHECK(std::is_same_v<decltype(u), mini::Unit>);
}

TEST_CASE("the three closures of a join3 called from outside the pool have migrated", "[join3]") {
    const std::size_t threads = GENERATE(1, 2);
    test::Pool pool(threads);
    test::Progress progress("a join3 called from outside the pool", pool); // never bumped
    const auto [a, b, c] = mini::join3_context(
        pool, [](FnContext x) { return x.migrated(); }, [](FnContext x) { return x.migrated(); },
        [](FnContext x) { return x.migrated(); });
    CHECK(a);
    CHECK(b);
    CHECK(c);
}

// One thread: nobody steals, so the owner takes B and C back itself. B was pushed last, so it is
// on top: taken back first, it runs here; then C. A serial program's order, none migrated. B taken
// back second (or pushed first) is found above C and run through its JobRef: migrated, though it
// never left this thread.
TEST_CASE("one thread runs A, B and C in argument order, none migrated", "[join3][forced]") {
    test::Pool pool(1);
    test::Progress progress("a join3 on a one-thread pool", pool); // never bumped
    std::string order;
    const auto [a, b, c] = pool.install([&] {
        return mini::join3_context(
            [&](FnContext x) { order += 'A'; return x.migrated(); },
            [&](FnContext x) { order += 'B'; return x.migrated(); },
            [&](FnContext x) { order += 'C'; return x.migrated(); });
    });
    CHECK(order == "ABC");
    INFO("B or C ran through its JobRef, as if stolen: take B back first (it is the newer), then "
         "C, and run a job nobody took here, not migrated");
    CHECK_FALSE(a);
    CHECK_FALSE(b);
    CHECK_FALSE(c);
}

// One thread again. A pushes a job, which lands above B; B, run here, pushes one above C. Each is
// not the job being taken back, and must run before it (the owner's deque is LIFO), not be dropped.
// Static: a job left in the deque would run after this case returned.
namespace {
std::string left_order;
auto left_a_body = [](bool) { left_order += 'a'; };
auto left_b_body = [](bool) { left_order += 'b'; };
mini::StackJob<mini::LockLatch, decltype(left_a_body)> left_a(left_a_body);
mini::StackJob<mini::LockLatch, decltype(left_b_body)> left_b(left_b_body);
} // namespace

TEST_CASE("jobs left above B and above C run before join3 returns, each before the job below it",
          "[join3][forced]") {
    test::Pool pool(1);
    test::Progress progress("a join3 whose A and B leave jobs above B and C", pool); // never bumped
    pool.install([] {
        mini::join3(
            [] {
                left_order += 'A';
                mini::WorkerThread::current()->push(left_a.as_job_ref());
            },
            [] {
                left_order += 'B';
                mini::WorkerThread::current()->push(left_b.as_job_ref());
            },
            [] { left_order += 'C'; });
    });
    CHECK(left_order == "AaBbC");
}

// Two threads. A wakes the other worker, which steals C (the oldest job of the owner's deque),
// and waits until C has started there; B is left to the owner, which runs it here. Inside C, C1
// waits until its sibling C2 has started elsewhere: the thief is busy in C1, so the only thread
// that can start C2 is the owner, waiting for C. An owner that waits without working never
// runs C2, and C1 waits for good: the watchdog ends the case (exit 3).
TEST_CASE("an owner whose C was stolen runs B here, and other jobs while it waits for C",
          "[join3][forced]") {
    test::Pool pool(2);
    mini::Watchdog dog(
        "an owner waiting for a stolen C", test::watchdog_time,
        [&] { return mini::stats(pool).executed; }, [&] { return test::describe(mini::stats(pool)); });
    std::atomic<bool> c_started{false}, c2_started{false};
    std::thread::id owner, b_thread, c_thread, c2_thread;
    const auto [a, b, c] = pool.install([&] {
        owner = std::this_thread::get_id();
        return mini::join3_context(
            [&](FnContext x) {
                test::wake_a_worker(pool); // so that the other worker steals C
                while (!c_started.load()) std::this_thread::yield();
                return x.migrated();
            },
            [&](FnContext x) {
                b_thread = std::this_thread::get_id();
                return x.migrated();
            },
            [&](FnContext x) {
                c_thread = std::this_thread::get_id();
                c_started = true;
                mini::join(
                    [&] {
                        test::wake_a_worker(pool); // in case the owner already fell asleep
                        while (!c2_started.load()) std::this_thread::yield();
                    },
                    [&] {
                        c2_thread = std::this_thread::get_id();
                        c2_started = true;
                    });
                return x.migrated();
            });
    });
    CHECK_FALSE(a);
    CHECK(b_thread == owner); // B was not stolen: the thief took C, the oldest
    CHECK_FALSE(b);
    CHECK(c_thread != owner);
    INFO("C's result is not the thief's: join3 read it before the stolen C had finished, or ran "
         "C here too");
    CHECK(c);
    CHECK(c2_thread == owner); // the owner ran C2 while it waited for C
}

// Two threads; C is stolen as above and held on the thief until the owner waits for it (its
// first idle probe), or, in a build that does not wait, until join3 has returned or its exception
// has been caught; the owner then reuses nothing until C's latch is set. Right: C has finished,
// once, when join3 returns or its exception is caught, and B, taken back by the owner, has run.
namespace {
std::atomic<bool> c_started{false}, go_on{false}, c_finished{false}, c_done{false};
std::atomic<bool> idle_armed{false}, set_armed{false}, b_ran{false};
std::atomic<int> c_runs{0};

void hold_c(mini::Probe point) {
    using mini::Probe;
    if (point == Probe::idle && idle_armed.exchange(false)) go_on = true; // the owner waits for C
    if (point == Probe::latch_set && set_armed.exchange(false)) c_done = true; // C's latch
}

[[gnu::noinline]] auto join3_with_c_held(mini::ThreadPool& pool, bool a_throws) {
    return mini::join3(
        [&pool, a_throws] {
            test::wake_a_worker(pool); // so that the other worker steals C
            while (!c_started.load()) std::this_thread::yield();
            if (a_throws) boom("from A");
            return 1;
        },
        [] {
            b_ran = true;
            return 2;
        },
        [] { // only globals: C may outlive the frame in a wrong build
            if (c_runs.fetch_add(1) > 0) return 3; // run twice (a wrong build): not held again
            idle_armed = true;
            c_started = true;
            while (!go_on.load()) std::this_thread::yield();
            c_finished = true;
            return 3;
        });
}

struct HeldOutcome {
    bool returned = false, b_ran = false, c_finished = false;
    int c_runs = 0;
    std::string what;
};

HeldOutcome run_with_c_held(bool a_throws) {
    test::Pool pool(2);
    std::optional<test::Progress> progress;
    progress.emplace("an owner whose stolen C is held on the thief", pool);
    c_started = go_on = c_finished = c_done = idle_armed = b_ran = false;
    c_runs = 0;
    set_armed = true;
    mini::instrument::sync_hook = &hold_c;
    HeldOutcome out;
    pool.install([&] {
        try {
            const auto [a, b, c] = join3_with_c_held(pool, a_throws);
            out.returned = a == 1 && b == 2 && c == 3;
        } catch (const std::out_of_range& e) {
            out.what = e.what();
        }
        out.b_ran = b_ran;
        out.c_finished = c_finished;
        out.c_runs = c_runs;
        progress.reset();
        go_on = true; // not waited for: C is still held; let it go on
        while (!c_done.load()) std::this_thread::yield(); // and reuse nothing until it is done
    });
    mini::instrument::sync_hook = nullptr;
    return out;
}
} // namespace

TEST_CASE("join3 waits for a stolen C before it returns, and C runs once", "[join3][forced]") {
    const HeldOutcome out = run_with_c_held(false);
    CHECK(out.returned);
    CHECK(out.b_ran);
    INFO("join3 returned while C still ran on the thief, or ran C a second time itself: wait for "
         "a stolen job's latch (working meanwhile), and run only a job you popped");
    CHECK(out.c_finished);
    CHECK(out.c_runs == 1);
}

TEST_CASE("A's exception leaves join3 after B has run here and a stolen C has finished",
          "[join3][forced]") {
    const HeldOutcome out = run_with_c_held(true);
    CHECK(out.what == "from A");
    CHECK(out.b_ran);
    CHECK(out.c_finished);
    CHECK(out.c_runs == 1);
}

// Every job runs, whichever throws; then the first exception in argument order leaves, with its
// type: A's, else B's, else C's (join lets A's win over B's). On one thread each job is taken
// back and run here; on two, B and C may be stolen and throw on a thief.
TEST_CASE("the first exception in argument order leaves join3, with its type, once all three ran",
          "[join3]") {
    const std::size_t threads = GENERATE(1, 2);
    test::Pool pool(threads);
    test::Progress progress("join3s that throw", pool); // never bumped
    const auto a = [] { throw std::out_of_range("A"); };
    const auto b = [] { throw std::invalid_argument("B"); };
    const auto c = [] { throw std::length_error("C"); };
    const auto ok = [] {};
    std::atomic<int> ran{0};
    const auto count = [&ran](auto f) {
        return [&ran, f] {
            ++ran;
            f();
        };
    };
    std::string caught;
    const auto attempt = [&](auto fa, auto fb, auto fc) {
        caught.clear();
        ran = 0;
        try {
            pool.install([&] { mini::join3(count(fa), count(fb), count(fc)); });
        } catch (const std::out_of_range& e) {
            caught = std::string("out_of_range ") + e.what();
        } catch (const std::invalid_argument& e) {
            caught = std::string("invalid_argument ") + e.what();
        } catch (const std::length_error& e) {
            caught = std::string("length_error ") + e.what();
        }
        return caught + ", ran " + std::to_string(ran.load());
    };
    CHECK(attempt(a, b, c) == "out_of_range A, ran 3");
    CHECK(attempt(ok, b, c) == "invalid_argument B, ran 3");
    CHECK(attempt(a, ok, c) == "out_of_range A, ran 3");
    CHECK(attempt(ok, ok, c) == "length_error C, ran 3");
    CHECK(attempt(ok, b, ok) == "invalid_argument B, ran 3");
}
