// Several pools: a worker of one pool that calls into another keeps running its own pool's jobs
// while it waits (ThreadPool::in_worker_cross), and the cross latch keeps the waiter's pool's sleep
// state alive until its setter's wake-up is done (SpinLatch::set). rayon-core's own tests, ported:
// mutual_install and mutual_install_sleepy (rayon-core-v1.13.0, src/thread_pool/test.rs:154-200)
// and cross_pool_busy (tests/cross-pool.rs:4-22). Each case runs under a watchdog: with
// BLOCK_CROSS, five of them deadlock and end with exit 3; cross_pool_busy and the join on another
// pool pass, as their work on the other pool needs nothing from the blocked worker's pool.
#include <mini/join.hpp>
#include <mini/splitter.hpp>

#include <catch2/catch.hpp>

#include <atomic>
#include <cstdint>
#include <memory>
#include <semaphore>
#include <stdexcept>
#include <thread>
#include <vector>

#include "helpers.hpp"

using mini::FnContext;
using mini::ThreadPool;
using mini::WorkerThread;

namespace {

// The pool of the worker running this, or nullptr outside every pool.
const ThreadPool* here() {
    const WorkerThread* w = WorkerThread::current();
    return w != nullptr ? &w->pool() : nullptr;
}

void wait_for_sleepers(const ThreadPool& pool, std::uint64_t n) {
    while (pool.sleep().sleepers() != n) std::this_thread::yield();
}

} // namespace

// pool1's one worker waits in pool2.install; the innermost closure is injected into pool1, and only
// that waiting worker can run it. Blocked on its thread (BLOCK_CROSS), it never does.
// ANCHOR: mutual_install
TEST_CASE("mutual_install: pool 1's worker waiting on pool 2 runs pool 1's innermost job",
          "[pools]") {
    test::Pool pool1(1), pool2(1); // one worker each: only pool 1's can run the innermost job
    test::Progress progress("the mutual install (pool1 -> pool2 -> pool1)", pool1);
    const int r = pool1.install([&] {
        ++progress;
        return pool2.install([&] {
            ++progress;
            return pool1.install([&] {
                ++progress;
                return 42;
            });
        });
    });
    CHECK(r == 42);
}
// ANCHOR_END: mutual_install

// The same with each waiting worker asleep first (rayon's test sleeps a second in each closure
// "to give pool1 time to fall asleep"; here each closure waits until the other pool's one worker
// has registered as a sleeper). pool1's worker sleeps on its cross latch and is woken by the
// injection of the innermost job; pool2's worker sleeps on its cross latch and is woken by the set
// of that latch by pool1's worker, a thread of another pool.
TEST_CASE("mutual_install_sleepy: a worker asleep on a cross latch is woken by an injection "
          "and by the other pool's set",
          "[pools]") {
    test::Pool pool1(1), pool2(1);
    test::Progress progress("the sleepy mutual install", pool1);
    const mini::Stats before = mini::stats(pool1);
    const bool r = pool1.install([&] {
        return pool2.install([&] {
            wait_for_sleepers(pool1, 1); // pool1's worker is asleep on its cross latch
            ++progress;
            return pool1.install([&] {
                wait_for_sleepers(pool2, 1); // and now pool2's, on its own
                ++progress;
                return true;
            });
        });
    });
    CHECK(r);
    CHECK((mini::stats(pool1) - before).sleeps >= 2); // both workers slept on a cross latch
}

// Each item blocks on pool2 while pool1's worker keeps running the other pieces of the range
// (rayon's comment: pool1 may see the latch set without being woken, and then drops that stack
// job, so the latch must not assume the job is still alive after it is set).
TEST_CASE("cross_pool_busy: a parallel sum on pool 1 whose every item installs on pool 2",
          "[pools]") {
    test::Pool pool1(1), pool2(1);
    test::Progress progress("a parallel sum whose items call into another pool", pool1);
    constexpr std::int64_t n = 100;
    const std::int64_t sum = pool1.install([&] {
        return mini::bridge<std::int64_t>(
            pool1, 1, n + 1, 1,
            [&](const mini::Piece& piece) {
                std::int64_t s = 0;
                for (std::size_t i = piece.begin; i < piece.end; ++i) {
                    s += pool2.install([i] { return std::int64_t(i); });
                    ++progress;
                }
                return s;
            },
            [](std::int64_t a, std::int64_t b) { return a + b; });
    });
    CHECK(sum == n * (n + 1) / 2);
}

// An exception thrown on Q by a cross call from a worker of P reaches the caller on P with its
// type, and P's worker goes on (issue 51: no test threw through a cross call, and a cross call
// that dropped the exception passed, then crashed).
TEST_CASE("a cross call's exception reaches its caller on the other pool with its type", "[pools]") {
    test::Pool p(1), q(2);
    test::Progress progress("a cross call that throws", p);
    for (int round = 0; round < 10; ++round) {
        CHECK_THROWS_AS(p.install([&] { return q.install([]() -> int { throw std::out_of_range("Q"); }); }),
                        std::out_of_range);
        CHECK_THROWS_AS(p.install([&] { q.install([] { throw std::out_of_range("Q, void"); }); }),
                        std::out_of_range);
        CHECK(p.install([&] { return q.install([] { return 7; }); }) == 7); // P's worker goes on
        ++progress;
    }
}

// Three one-thread pools, nested through all three and round again, in both directions: when the
// innermost closure runs, every pool's only worker is waiting in a cross call, and each level
// still runs on the pool it was installed on.
TEST_CASE("three pools nested both ways: every level runs on its own pool", "[pools]") {
    test::Pool a(1), b(1), c(1);
    test::Progress progress("three pools nested", a);
    const std::vector<std::vector<ThreadPool*>> orders = {{&a, &b, &c, &a, &b, &c},
                                                          {&c, &b, &a, &c, &b, &a}};
    for (const auto& order : orders) {
        // Installs order[i..] nested, and counts the levels that ran on the pool they were given.
        auto nest = [&](auto& self, std::size_t i) -> std::size_t {
            if (i == order.size()) return 0;
            return order[i]->install([&] {
                ++progress;
                return (here() == order[i]) + self(self, i + 1);
            });
        };
        CHECK(nest(nest, 0) == order.size());
    }
}

// The worker that waits on Q runs what its own pool has queued: here that work is the only way the
// closure on Q can finish, since it waits for it. P has one worker, so the one that ran the work
// is the one waiting.
TEST_CASE("a worker waiting on another pool runs its own pool's queued jobs", "[pools]") {
    test::Pool p(1), q(1);
    test::Progress progress("a cross call waiting for its own pool's queued work", p);

    SECTION("B of a join, in the waiting worker's own deque") {
        std::atomic<bool> b_ran{false};
        const auto [a_thread, b_thread] = p.install([&] {
            return mini::join(
                p,
                [&] {
                    q.install([&] { // B sits in p's worker's deque, under this call
                        while (!b_ran.load()) std::this_thread::yield();
                        ++progress;
                    });
                    return std::this_thread::get_id();
                },
                [&] {
                    b_ran = true;
                    return std::this_thread::get_id();
                });
        });
        CHECK(a_thread == b_thread); // B ran on the worker that waited in q.install
    }

    SECTION("jobs in its pool's injector") {
        struct Queued {
            std::atomic<int> ran{0};
            std::atomic<const ThreadPool*> where{nullptr};
        } queued;
        constexpr int jobs = 3;
        const int seen = p.install([&] {
            for (int i = 0; i < jobs; ++i)
                p.inject(mini::JobRef{&queued, [](void* data) noexcept {
                                          auto* self = static_cast<Queued*>(data);
                                          self->where = here();
                                          ++self->ran;
                                      }});
            return q.install([&] {
                while (queued.ran.load() != jobs) std::this_thread::yield();
                ++progress;
                return queued.ran.load();
            });
        });
        CHECK(seen == jobs);
        CHECK(queued.where.load() == &p);
    }
}

// join on Q called from a worker of P: the whole join is injected into Q (the cross path), both
// closures run on Q's workers, and A reports migrated(), as from outside.
TEST_CASE("join on another pool from a worker runs both closures there", "[pools]") {
    test::Pool p(1), q(2);
    test::Progress progress("a join on another pool", p);
    const auto [a, b] = p.install([&] {
        return mini::join_context(
            q,
            [&](FnContext ctx) {
                ++progress;
                return std::pair(here(), ctx.migrated());
            },
            [&](FnContext) { return here(); });
    });
    CHECK(a.first == &q);
    CHECK(a.second);
    CHECK(b == &q);
}

// ---------------------------------------------------------------------------------------------
// The race rayon fixed twice (rayon issue #739, rayon-core 1.7.1; commit cbd484ca, 1.8.0): the
// setter of a cross latch is a worker of Q; once its store lands, the waiter (P's worker) may
// return, and P may be destroyed, before the setter's wake-up of P's sleep state runs. Forced
// here: the setter is held between its store and its wake-up until P is destroyed. Without the
// setter's keep_alive copy P's sleep state is freed by then, and AddressSanitizer reports a
// heap-use-after-free in the wake-up (Sleep::latch_is_set), every time.

namespace {
std::atomic<bool> hold_armed{false};
std::binary_semaphore cross_stored{0}, pool_gone{0}, setter_done{0};
thread_local bool held = false; // this thread is the setter that was held

void hold_cross_setter(mini::Probe point) {
    using mini::Probe;
    if (point == Probe::latch_stored && hold_armed.exchange(false)) {
        held = true;
        cross_stored.release();
        pool_gone.acquire();
    } else if (point == Probe::latch_set && held) {
        held = false;
        setter_done.release();
    }
}
} // namespace

TEST_CASE("a cross latch keeps the waiter's pool alive until its setter's wake-up is done",
          "[pools]") {
    test::Pool q(1);
    auto p = std::make_unique<test::Pool>(1);
    test::Progress progress("a cross latch's setter held while the waiter's pool is destroyed", q);
    hold_armed = true; // the first SpinLatch stored from now on is the cross latch, by q's worker
    mini::instrument::sync_hook = &hold_cross_setter;
    int r = 0;
    std::thread caller([&] { r = p->install([&] { return q.install([] { return 42; }); }); });
    cross_stored.acquire(); // q's worker stored the cross latch and is held before its wake-up
    ++progress;
    test::wake_a_worker(*p); // p's worker may be asleep on that latch: the held wake-up is late
    caller.join();           // p's worker saw the latch set and returned: install is done
    ++progress;
    p.reset(); // joins p's worker, then frees p's sleep state unless the setter keeps it alive
    ++progress;
    pool_gone.release();
    setter_done.acquire(); // the setter's wake-up of p's sleep state is done
    ++progress;
    mini::instrument::sync_hook = nullptr;
    CHECK(r == 42);
}
