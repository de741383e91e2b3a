// scope_fifo, spawn_fifo and in_place_scope: rayon-core's own tests, ported.
//
// Ported from rayon-core-v1.10.1: rayon-core/src/scope/test.rs: fifo_order, nested_fifo_order,
// nested_lifo_fifo_order, nested_fifo_lifo_order, mixed_fifo_order, mixed_lifo_fifo_order,
// mixed_fifo_lifo_order, static_scope_fifo, mixed_lifetime_scope_fifo (their run-time half: every
// job ran, the sum is right) and panic_propagate_* for a ScopeFifo; rayon-core/src/spawn/test.rs:
// fifo_order, lifo_fifo_order, fifo_lifo_order, mixed_lifo_fifo_order, mixed_fifo_lifo_order;
// rayon-core/src/thread_pool/test.rs: in_place_scope_no_deadlock, in_place_scope_fifo_no_deadlock.
// Left out: scope_fifo_spawn_broadcast (mini's ScopeFifo has no spawn_broadcast).
// The order tests run on a pool of one worker, where nobody steals and the order is fixed.
// Besides: the body of in_place_scope runs on the calling thread (outside any pool, on a worker
// of another pool), a job's exception reaches the caller with its own type, and a many-worker
// tree of FIFO spawns counts every job once (for ThreadSanitizer).
#include <mini/in_place_scope.hpp>
#include <mini/scope_fifo.hpp>
#include <mini/spawn_fifo.hpp>
#include <instrument/instrument.hpp>

#include <catch2/catch.hpp>

#include <atomic>
#include <cstddef>
#include <mutex>
#include <new>
#include <stdexcept>
#include <thread>
#include <vector>

#include "broadcast_helpers.hpp"
#include "helpers.hpp"

using mini::Scope;
using mini::ScopeFifo;

namespace {

// rayon's test_order!: ten jobs, each spawning ten, on one worker; the order they ran in.
template <class ScopeFn, class SpawnFn>
std::vector<int> test_order(ScopeFn scope, SpawnFn spawn) {
    test::Pool pool(1);
    test::Progress progress("test_order", pool);
    return pool.install([&] {
        std::mutex m;
        std::vector<int> vec;
        scope([&](auto& s) {
            for (int i = 0; i < 10; ++i)
                spawn(s, [&, i, spawn](auto& s) {
                    for (int j = 0; j < 10; ++j)
                        spawn(s, [&, i, j](auto&) {
                            std::lock_guard lock(m);
                            vec.push_back(i * 10 + j);
                        });
                });
        });
        return vec;
    });
}

// rayon's test_nested_order!: ten jobs of an outer scope, each opening an inner scope of ten.
template <class OuterScope, class OuterSpawn, class InnerScope, class InnerSpawn>
std::vector<int> test_nested_order(OuterScope outer_scope, OuterSpawn outer_spawn,
                                   InnerScope inner_scope, InnerSpawn inner_spawn) {
    test::Pool pool(1);
    test::Progress progress("test_nested_order", pool);
    return pool.install([&] {
        std::mutex m;
        std::vector<int> vec;
        outer_scope([&](auto& s) {
            for (int i = 0; i < 10; ++i)
                outer_spawn(s, [&, i](auto&) {
                    inner_scope([&](auto& s) {
                        for (int j = 0; j < 10; ++j)
                            inner_spawn(s, [&, i, j](auto&) {
                                std::lock_guard lock(m);
                                vec.push_back(i * 10 + j);
                            });
                    });
                });
        });
        return vec;
    });
}

// rayon's test_mixed_order!: spawns into an outer and an inner scope, interleaved; the inner
// scope's are negative.
template <class OuterScope, class OuterSpawn, class InnerScope, class InnerSpawn>
std::vector<int> test_mixed_order(OuterScope outer_scope, OuterSpawn outer_spawn,
                                  InnerScope inner_scope, InnerSpawn inner_spawn) {
    test::Pool pool(1);
    test::Progress progress("test_mixed_order", pool);
    return pool.install([&] {
        std::mutex m;
        std::vector<int> vec;
        auto push = [&](int i) {
            return [&m, &vec, i](auto&) {
                std::lock_guard lock(m);
                vec.push_back(i);
            };
        };
        outer_scope([&](auto& outer) {
            outer_spawn(outer, push(0));
            inner_scope([&](auto& inner) {
                inner_spawn(inner, push(-1));
                outer_spawn(outer, push(1));
                inner_spawn(inner, push(-2));
                outer_spawn(outer, push(2));
                inner_spawn(inner, push(-3));
            });
            outer_spawn(outer, push(3));
        });
        return vec;
    });
}

const auto lifo_scope = [](auto&& body) { mini::scope([&](Scope& s) { body(s); }); };
const auto fifo_scope = [](auto&& body) { mini::scope_fifo([&](ScopeFifo& s) { body(s); }); };
const auto lifo_spawn = [](Scope& s, auto job) { s.spawn(job); };
const auto fifo_spawn = [](ScopeFifo& s, auto job) { s.spawn_fifo(job); };

std::vector<int> up(int n) {
    std::vector<int> v;
    for (int k = 0; k < n; ++k) v.push_back(k);
    return v;
}
std::vector<int> down(int n) {
    std::vector<int> v;
    for (int k = n - 1; k >= 0; --k) v.push_back(k);
    return v;
}

} // namespace

// ---- scope/test.rs ----

TEST_CASE("scope_fifo_result", "[scope_fifo]") {
    test::Progress progress("scope_fifo_result", mini::ThreadPool::global());
    CHECK(mini::scope_fifo([](ScopeFifo&) { return 22; }) == 22);
    int x = 7;
    int& r = mini::scope_fifo([&](ScopeFifo&) -> int& { return x; }); // a reference stays one
    CHECK(&r == &x);
}

TEST_CASE("lifo_order", "[scope_fifo]") { // the baseline the FIFO tests differ from
    CHECK(test_order(lifo_scope, lifo_spawn) == down(100));
}

TEST_CASE("fifo_order", "[scope_fifo]") {
    CHECK(test_order(fifo_scope, fifo_spawn) == up(100));
}

TEST_CASE("nested_fifo_order", "[scope_fifo]") {
    CHECK(test_nested_order(fifo_scope, fifo_spawn, fifo_scope, fifo_spawn) == up(100));
}

TEST_CASE("nested_lifo_fifo_order", "[scope_fifo]") {
    std::vector<int> expected; // LIFO outside, FIFO inside
    for (int i = 9; i >= 0; --i)
        for (int j = 0; j < 10; ++j) expected.push_back(i * 10 + j);
    CHECK(test_nested_order(lifo_scope, lifo_spawn, fifo_scope, fifo_spawn) == expected);
}

TEST_CASE("nested_fifo_lifo_order", "[scope_fifo]") {
    std::vector<int> expected; // FIFO outside, LIFO inside
    for (int i = 0; i < 10; ++i)
        for (int j = 9; j >= 0; --j) expected.push_back(i * 10 + j);
    CHECK(test_nested_order(fifo_scope, fifo_spawn, lifo_scope, lifo_spawn) == expected);
}

TEST_CASE("mixed_fifo_order", "[scope_fifo]") {
    CHECK(test_mixed_order(fifo_scope, fifo_spawn, fifo_scope, fifo_spawn) ==
          std::vector<int>{-1, 0, -2, 1, -3, 2, 3});
}

TEST_CASE("mixed_lifo_fifo_order", "[scope_fifo]") {
    // The end of the inner scope runs some of the outer scope's jobs before all are spawned.
    CHECK(test_mixed_order(lifo_scope, lifo_spawn, fifo_scope, fifo_spawn) ==
          std::vector<int>{-1, 2, -2, 1, -3, 3, 0});
}

TEST_CASE("mixed_fifo_lifo_order", "[scope_fifo]") {
    CHECK(test_mixed_order(fifo_scope, fifo_spawn, lifo_scope, lifo_spawn) ==
          std::vector<int>{-3, 0, -2, 1, -1, 2, 3});
}

TEST_CASE("static_scope_fifo", "[scope_fifo]") {
    test::Progress progress("static_scope_fifo", mini::ThreadPool::global());
    static std::atomic<std::size_t> counter{0};
    counter = 0;
    mini::scope_fifo([](ScopeFifo& s) {
        for (std::size_t i = 0; i < 100; ++i) s.spawn_fifo([i](ScopeFifo&) { counter += i; });
    });
    CHECK(counter == 4950);
}

TEST_CASE("mixed_lifetime_scope_fifo", "[scope_fifo]") {
    test::Progress progress("mixed_lifetime_scope_fifo", mini::ThreadPool::global());
    std::atomic<std::size_t> counter{0};
    std::vector<std::atomic<std::size_t>*> counters(100, &counter);
    mini::scope_fifo([&](ScopeFifo& s) {
        for (auto* c : counters) s.spawn_fifo([c](ScopeFifo&) { c->fetch_add(1); });
    });
    CHECK(counter == 100);
}

// panic_propagate_scope, _spawn, _nested_spawn and still_execute_2, for a ScopeFifo; the
// exception keeps its type (std::out_of_range, not the runtime_error it derives from).
TEST_CASE("panic_propagate_scope_fifo", "[scope_fifo]") {
    test::Progress progress("panic_propagate_scope_fifo", mini::ThreadPool::global());
    CHECK_THROWS_AS(mini::scope_fifo([](ScopeFifo&) { throw std::out_of_range("body"); }),
                    std::out_of_range);
    CHECK_THROWS_AS(mini::scope_fifo([](ScopeFifo& s) {
                        s.spawn_fifo([](ScopeFifo&) { throw std::out_of_range("job"); });
                    }),
                    std::out_of_range);
    CHECK_THROWS_AS(mini::scope_fifo([](ScopeFifo& s) {
                        s.spawn_fifo([](ScopeFifo& s) {
                            s.spawn_fifo([](ScopeFifo&) { throw std::out_of_range("nested"); });
                        });
                    }),
                    std::out_of_range);
    std::atomic<bool> x{false};
    CHECK_THROWS_AS(mini::scope_fifo([&](ScopeFifo& s) {
                        s.spawn_fifo([](ScopeFifo&) { throw std::out_of_range("first"); });
                        s.spawn_fifo([&](ScopeFifo&) { x = true; }); // still runs
                    }),
                    std::out_of_range);
    CHECK(x);
}

// Many workers, a tree of FIFO spawns: every leaf counted once (the case TSan watches).
TEST_CASE("scope_fifo divide and conquer on 4 workers counts every leaf once", "[scope_fifo]") {
    test::Pool pool(4);
    test::Progress progress("scope_fifo divide and conquer", pool);
    std::atomic<std::size_t> leaves{0};
    struct Tree {
        static void grow(ScopeFifo& s, std::atomic<std::size_t>& leaves, int depth) {
            if (depth == 0) {
                ++leaves;
                return;
            }
            for (int k = 0; k < 2; ++k)
                s.spawn_fifo([&leaves, depth](ScopeFifo& s) { grow(s, leaves, depth - 1); });
        }
    };
    for (int round = 0; round < 20; ++round) {
        leaves = 0;
        pool.scope_fifo([&](ScopeFifo& s) { Tree::grow(s, leaves, 10); });
        CHECK(leaves == 1024);
        ++progress;
    }
}

// ---- spawn/test.rs: the pool's spawn_fifo ----

namespace {
// rayon's spawn test_order!: jobs send into an inbox; the pool's destructor waits for them all.
template <class Outer, class Inner>
std::vector<int> spawn_order(Outer outer, Inner inner) {
    test::Inbox<int> inbox;
    {
        test::Pool pool(1);
        test::Progress progress("spawn_order", pool);
        pool.install([&] {
            for (int i = 0; i < 10; ++i)
                outer([&inbox, i, inner] {
                    for (int j = 0; j < 10; ++j) inner([&inbox, i, j] { inbox.send(i * 10 + j); });
                });
        });
    }
    return inbox.items();
}
template <class Pos, class Neg>
std::vector<int> spawn_mixed_order(Pos pos, Neg neg) {
    test::Inbox<int> inbox;
    {
        test::Pool pool(1);
        test::Progress progress("spawn_mixed_order", pool);
        pool.install([&] {
            auto send = [&inbox](int i) { return [&inbox, i] { inbox.send(i); }; };
            pos(send(0)), neg(send(-1)), pos(send(1)), neg(send(-2)), pos(send(2)), neg(send(-3)),
                pos(send(3));
        });
    }
    return inbox.items();
}
const auto lifo = [](auto op) { mini::spawn(op); };
const auto fifo = [](auto op) { mini::spawn_fifo(op); };
} // namespace

TEST_CASE("spawn fifo_order", "[spawn_fifo]") {
    CHECK(spawn_order(fifo, fifo) == up(100));
}

TEST_CASE("spawn lifo_fifo_order", "[spawn_fifo]") {
    std::vector<int> expected;
    for (int i = 9; i >= 0; --i)
        for (int j = 0; j < 10; ++j) expected.push_back(i * 10 + j);
    CHECK(spawn_order(lifo, fifo) == expected);
}

TEST_CASE("spawn fifo_lifo_order", "[spawn_fifo]") {
    std::vector<int> expected;
    for (int i = 0; i < 10; ++i)
        for (int j = 9; j >= 0; --j) expected.push_back(i * 10 + j);
    CHECK(spawn_order(fifo, lifo) == expected);
}

TEST_CASE("spawn mixed_lifo_fifo_order", "[spawn_fifo]") {
    CHECK(spawn_mixed_order(lifo, fifo) == std::vector<int>{3, -1, 2, -2, 1, -3, 0});
}

TEST_CASE("spawn mixed_fifo_lifo_order", "[spawn_fifo]") {
    CHECK(spawn_mixed_order(fifo, lifo) == std::vector<int>{0, -3, 1, -2, 2, -1, 3});
}

TEST_CASE("spawn_fifo from outside the pool runs every job before the pool is gone", "[spawn_fifo]") {
    std::atomic<int> ran{0};
    {
        test::Pool pool(2);
        test::Progress progress("spawn_fifo from outside", pool);
        for (int k = 0; k < 100; ++k) pool.spawn_fifo([&ran] { ++ran; });
    }
    CHECK(ran == 100);
}

// ---- thread_pool/test.rs: in_place_scope ----

// With scope, the body would hold the only worker while it waits for a job it spawned.
TEST_CASE("in_place_scope_no_deadlock", "[in_place_scope]") {
    test::Pool pool(1);
    test::Progress progress("in_place_scope_no_deadlock", pool);
    test::Inbox<int> inbox;
    pool.in_place_scope([&](Scope& s) {
        s.spawn([&](Scope&) { inbox.send(1); });
        inbox.wait_for(1);
    });
    CHECK(inbox.items() == std::vector<int>{1});
}

TEST_CASE("in_place_scope_fifo_no_deadlock", "[in_place_scope]") {
    test::Pool pool(1);
    test::Progress progress("in_place_scope_fifo_no_deadlock", pool);
    test::Inbox<int> inbox;
    pool.in_place_scope_fifo([&](ScopeFifo& s) {
        s.spawn_fifo([&](ScopeFifo&) { inbox.send(1); });
        inbox.wait_for(1);
    });
    CHECK(inbox.items() == std::vector<int>{1});
}

TEST_CASE("in_place_scope runs its body on the calling thread and waits for every job",
          "[in_place_scope]") {
    test::Pool pool(2);
    test::Progress progress("in_place_scope on the caller", pool);
    const auto caller = std::this_thread::get_id();
    std::atomic<int> ran{0};
    std::thread::id body_thread;
    const int r = pool.in_place_scope([&](Scope& s) {
        body_thread = std::this_thread::get_id();
        for (int k = 0; k < 50; ++k) s.spawn([&](Scope& s) { s.spawn([&](Scope&) { ++ran; }); });
        return 5;
    });
    CHECK(r == 5);
    CHECK(body_thread == caller);
    CHECK(ran == 50);
    std::thread::id fifo_body;
    pool.in_place_scope_fifo([&](ScopeFifo& s) {
        fifo_body = std::this_thread::get_id();
        for (int k = 0; k < 50; ++k) s.spawn_fifo([&](ScopeFifo&) { ++ran; });
    });
    CHECK(fifo_body == caller);
    CHECK(ran == 100);
}

TEST_CASE("in_place_scope on a worker of another pool runs the body there", "[in_place_scope]") {
    test::Pool p(1), q(2);
    test::Progress progress("in_place_scope across pools", q);
    std::atomic<int> ran{0};
    const bool on_p = p.install([&] {
        mini::WorkerThread* me = mini::WorkerThread::current();
        return q.in_place_scope([&](Scope& s) {
            for (int k = 0; k < 20; ++k) s.spawn([&](Scope&) { ++ran; });
            return mini::WorkerThread::current() == me;
        });
    });
    CHECK(on_p);
    CHECK(ran == 20);
}

TEST_CASE("in_place_scope rethrows a job's exception with its type, after every job ran",
          "[in_place_scope]") {
    test::Pool pool(2);
    test::Progress progress("in_place_scope rethrows", pool);
    std::atomic<int> ran{0};
    CHECK_THROWS_AS(pool.in_place_scope([&](Scope& s) {
                        s.spawn([](Scope&) { throw std::out_of_range("job"); });
                        for (int k = 0; k < 20; ++k) s.spawn([&](Scope&) { ++ran; });
                    }),
                    std::out_of_range);
    CHECK(ran == 20);
    CHECK_THROWS_AS(pool.in_place_scope_fifo([&](ScopeFifo& s) {
                        s.spawn_fifo([&](ScopeFifo&) { ++ran; });
                        throw std::out_of_range("body");
                    }),
                    std::out_of_range);
    CHECK(ran == 21);
}

// ---- forced: a publish that throws ----

namespace {
std::atomic<bool> refuse_publish{false};

void throw_at_publish(mini::Probe point) {
    if (point == mini::Probe::scope_publish && refuse_publish.exchange(false)) throw std::bad_alloc();
}

struct Counts {
    int live = 0, ran = 0;
};
struct Tracked {
    Counts* c;
    explicit Tracked(Counts* counts) : c(counts) { ++c->live; }
    Tracked(const Tracked& t) : c(t.c) { ++c->live; }
    ~Tracked() { --c->live; }
};
} // namespace

// The publish of spawn_fifo's job throws (a test's probe, as a queue or a deque that cannot grow
// would): the spawner sees the exception, the job is freed unrun, its count is given back (else
// the scope would wait for it for good: exit 3), and the scope still takes other jobs.
TEST_CASE("a spawn_fifo whose publish throws gives its count back and rethrows to the spawner",
          "[scope_fifo][forced]") {
    test::Pool pool(2);
    test::Progress progress("a scope_fifo whose spawn threw at the push", pool);
    Counts counts;
    bool spawner_saw = false, second_ran = false;
    mini::instrument::sync_hook = &throw_at_publish;
    refuse_publish = true;
    CHECK_THROWS_AS(pool.scope_fifo([&](ScopeFifo& s) {
                        try {
                            s.spawn_fifo([t = Tracked(&counts)](ScopeFifo&) { ++t.c->ran; });
                        } catch (const std::bad_alloc&) {
                            spawner_saw = true;
                            s.spawn_fifo([&](ScopeFifo&) { second_ran = true; }); // still works
                            throw;
                        }
                    }),
                    std::bad_alloc);
    mini::instrument::sync_hook = nullptr;
    CHECK(spawner_saw);
    CHECK(second_ran);
    CHECK(counts.ran == 0);
    CHECK(counts.live == 0); // the box was freed, its closure destroyed
}
