// broadcast and spawn_broadcast: rayon-core's own broadcast tests, ported, the scope's
// spawn_broadcast tests, and the cases the chapter's switches break, forced.
//
// Ported from rayon-core-v1.13.0, rayon-core/src/broadcast/test.rs: broadcast_global,
// spawn_broadcast_global, broadcast_pool, spawn_broadcast_pool, broadcast_self,
// spawn_broadcast_self, broadcast_mutual, spawn_broadcast_mutual, broadcast_mutual_sleepy,
// spawn_broadcast_mutual_sleepy, broadcast_panic_one, spawn_broadcast_panic_one,
// broadcast_panic_many, spawn_broadcast_panic_many, broadcast_sleep_race,
// broadcast_after_spawn_broadcast, broadcast_after_spawn; and from rayon-core/src/scope/test.rs:
// scope_spawn_broadcast, scope_spawn_broadcast_nested, scope_spawn_broadcast_barrier,
// scope_spawn_broadcast_panic_one, scope_spawn_broadcast_panic_many (the scope_fifo one is left
// out: mini has no scope_fifo). rayon's channels are test::Inbox; its panic!("Hello, world!") is a
// std::runtime_error. rayon's sleeps "to give pool1 time to fall asleep" are waits until the
// workers are counted as sleepers; broadcast_sleep_race spreads its copies by a spin, not a sleep,
// and runs a count of rounds, not a second. scope_spawn_broadcast_barrier's eighth party is a
// thread outside the pool (rayon's in_place_scope body; mini's scope body runs on a worker).
#include <mini/broadcast.hpp>

#include <catch2/catch.hpp>

#include <algorithm>
#include <atomic>
#include <barrier>
#include <semaphore>
#include <cstddef>
#include <cstdio>
#include <memory>
#include <numeric>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "broadcast_helpers.hpp"
#include "helpers.hpp"

using mini::BroadcastContext;
using mini::Scope;

namespace {

std::vector<std::size_t> iota(std::size_t n) {
    std::vector<std::size_t> v(n);
    std::iota(v.begin(), v.end(), std::size_t{0});
    return v;
}

std::vector<std::size_t> sorted(std::vector<std::size_t> v) {
    std::sort(v.begin(), v.end());
    return v;
}

void wait_for_sleepers(const mini::ThreadPool& pool, std::uint64_t n) {
    while (pool.sleep().sleepers() != n) std::this_thread::yield();
}

// The indices a broadcast saw, and which ran other than once: the reverse test's symptom.
std::string describe_indices(const std::vector<std::size_t>& v, std::size_t n) {
    std::ostringstream out;
    out << "indices";
    for (std::size_t i : v) out << ' ' << i;
    const char* sep = " (";
    for (std::size_t i = 0; i < n; ++i)
        if (std::count(v.begin(), v.end(), i) == 0) out << sep << "index " << i << " never ran", sep = ", ";
    for (std::size_t i = 0; i < n; ++i)
        if (auto c = std::count(v.begin(), v.end(), i); c > 1)
            out << sep << "index " << i << " ran " << c << " times", sep = ", ";
    out << (*sep == ' ' ? " (each index ran once)" : ")");
    return out.str();
}

const auto index_of = [](BroadcastContext c) { return c.index(); };

} // namespace

TEST_CASE("broadcast_global", "[broadcast]") {
    test::Progress progress("broadcast on the global pool", mini::ThreadPool::global());
    CHECK(mini::broadcast(index_of) == iota(mini::current_num_threads()));
}

TEST_CASE("spawn_broadcast_global", "[broadcast]") {
    test::Progress progress("spawn_broadcast on the global pool", mini::ThreadPool::global());
    auto inbox = std::make_shared<test::Inbox<std::size_t>>();
    mini::spawn_broadcast([inbox](BroadcastContext c) { inbox->send(c.index()); });
    const std::size_t n = mini::current_num_threads();
    CHECK(sorted(inbox->wait_for(n)) == iota(n));
}

TEST_CASE("broadcast_pool", "[broadcast]") {
    test::Pool pool(7);
    test::Progress progress("broadcast_pool", pool);
    CHECK(pool.broadcast(index_of) == iota(7));
}

TEST_CASE("spawn_broadcast_pool", "[broadcast]") {
    test::Inbox<std::size_t> inbox;
    {
        test::Pool pool(7);
        test::Progress progress("spawn_broadcast_pool", pool);
        pool.spawn_broadcast([&inbox](BroadcastContext c) { inbox.send(c.index()); });
    } // the destructor waits for the 7 copies
    CHECK(sorted(inbox.items()) == iota(7));
}

TEST_CASE("broadcast_self", "[broadcast]") {
    test::Pool pool(7);
    test::Progress progress("broadcast_self", pool);
    CHECK(pool.install([] { return mini::broadcast(index_of); }) == iota(7));
}

TEST_CASE("spawn_broadcast_self", "[broadcast]") {
    test::Inbox<std::size_t> inbox;
    test::Pool pool(7);
    test::Progress progress("spawn_broadcast_self", pool);
    pool.spawn([&inbox] { mini::spawn_broadcast([&inbox](BroadcastContext c) { inbox.send(c.index()); }); });
    CHECK(sorted(inbox.wait_for(7)) == iota(7));
}

TEST_CASE("broadcast_mutual", "[broadcast]") {
    std::atomic<std::size_t> count{0};
    test::Pool pool1(3), pool2(7);
    test::Progress progress("broadcast_mutual", pool1);
    pool1.install([&] {
        pool2.broadcast([&](BroadcastContext) {
            pool1.broadcast([&](BroadcastContext) { count.fetch_add(1, std::memory_order_relaxed); });
        });
    });
    CHECK(count.load() == 3 * 7);
}

TEST_CASE("spawn_broadcast_mutual", "[broadcast]") {
    test::Inbox<int> inbox;
    test::Pool pool1(3), pool2(7);
    test::Progress progress("spawn_broadcast_mutual", pool1);
    pool1.spawn([&] {
        pool2.spawn_broadcast([&](BroadcastContext) {
            pool1.spawn_broadcast([&](BroadcastContext) { inbox.send(1); });
        });
    });
    CHECK(inbox.wait_for(3 * 7).size() == 3 * 7);
}

// Every worker of pool1 asleep (the installing one on its cross latch) before the first copy
// calls back into pool1; the copies wait for copy 0 to have seen that.
TEST_CASE("broadcast_mutual_sleepy", "[broadcast]") {
    std::atomic<std::size_t> count{0};
    std::atomic<bool> pool1_asleep{false};
    test::Pool pool1(3), pool2(7);
    test::Progress progress("broadcast_mutual_sleepy", pool1);
    pool1.install([&] {
        wait_for_sleepers(pool1, 2);
        pool2.broadcast([&](BroadcastContext c) {
            if (c.index() == 0) wait_for_sleepers(pool1, 3), pool1_asleep = true;
            while (!pool1_asleep) std::this_thread::yield();
            pool1.broadcast([&](BroadcastContext) { count.fetch_add(1, std::memory_order_relaxed); });
        });
    });
    CHECK(count.load() == 3 * 7);
}

TEST_CASE("spawn_broadcast_mutual_sleepy", "[broadcast]") {
    test::Inbox<int> inbox;
    std::atomic<bool> pool1_asleep{false};
    test::Pool pool1(3), pool2(7);
    test::Progress progress("spawn_broadcast_mutual_sleepy", pool1);
    pool1.spawn([&] {
        wait_for_sleepers(pool1, 2);
        pool2.spawn_broadcast([&](BroadcastContext c) {
            if (c.index() == 0) wait_for_sleepers(pool1, 3), pool1_asleep = true;
            while (!pool1_asleep) std::this_thread::yield();
            pool1.spawn_broadcast([&](BroadcastContext) { inbox.send(1); });
        });
    });
    CHECK(inbox.wait_for(3 * 7).size() == 3 * 7);
}

TEST_CASE("broadcast_panic_one", "[broadcast]") {
    std::atomic<std::size_t> count{0};
    test::Pool pool(7);
    test::Progress progress("broadcast_panic_one", pool);
    auto op = [&](BroadcastContext c) {
        count.fetch_add(1, std::memory_order_relaxed);
        if (c.index() == 3) throw std::runtime_error("Hello, world!");
    };
    CHECK_THROWS_WITH(pool.broadcast(op), "Hello, world!");
    CHECK(count.load() == 7);
}

TEST_CASE("spawn_broadcast_panic_one", "[broadcast]") {
    std::atomic<std::size_t> count{0}, panics{0};
    {
        mini::ThreadPool pool(7, [&](std::exception_ptr) { ++panics; });
        test::Progress progress("spawn_broadcast_panic_one", pool);
        pool.spawn_broadcast([&](BroadcastContext c) {
            ++count;
            if (c.index() == 3) throw std::runtime_error("Hello, world!");
        });
    }
    CHECK(count.load() == 7);
    CHECK(panics.load() == 1);
}

// Several copies throw: all run, and the lowest index's exception is the one rethrown.
TEST_CASE("broadcast_panic_many", "[broadcast]") {
    std::atomic<std::size_t> count{0};
    test::Pool pool(7);
    test::Progress progress("broadcast_panic_many", pool);
    auto op = [&](BroadcastContext c) {
        count.fetch_add(1, std::memory_order_relaxed);
        if (c.index() % 2 == 0) throw std::runtime_error("copy " + std::to_string(c.index()));
        return c.index();
    };
    CHECK_THROWS_WITH(pool.broadcast(op), "copy 0");
    CHECK(count.load() == 7);
}

TEST_CASE("spawn_broadcast_panic_many", "[broadcast]") {
    std::atomic<std::size_t> count{0}, panics{0};
    {
        mini::ThreadPool pool(7, [&](std::exception_ptr) { ++panics; });
        test::Progress progress("spawn_broadcast_panic_many", pool);
        pool.spawn_broadcast([&](BroadcastContext c) {
            ++count;
            if (c.index() % 2 == 0) throw std::runtime_error("Hello, world!");
        });
    }
    CHECK(count.load() == 7);
    CHECK(panics.load() == 4);
}

// rayon #992's test: copies of uneven length, so that workers go idle one by one and race into
// their sleep while the next broadcast arrives.
TEST_CASE("broadcast_sleep_race", "[broadcast]") {
    test::Pool pool(7);
    test::Progress progress("broadcast_sleep_race", pool);
    std::atomic<std::uint64_t> sink{0};
    for (int round = 0; round < 300; ++round) {
        pool.broadcast([&](BroadcastContext c) {
            std::uint64_t x = 0;
            for (std::size_t i = 0; i < 1000 * c.index(); ++i) x += i; // a spread, not a wait
            sink.fetch_add(x, std::memory_order_relaxed);
        });
        ++progress;
    }
}

TEST_CASE("broadcast_after_spawn_broadcast", "[broadcast]") {
    test::Progress progress("broadcast_after_spawn_broadcast", mini::ThreadPool::global());
    auto inbox = std::make_shared<test::Inbox<std::size_t>>();
    mini::spawn_broadcast([inbox](BroadcastContext c) { inbox->send(c.index()); });
    mini::broadcast([](BroadcastContext) {}); // runs after every earlier broadcast, on every worker
    CHECK(sorted(inbox->items()) == iota(mini::current_num_threads())); // no wait: already there
}

TEST_CASE("broadcast_after_spawn", "[broadcast]") {
    test::Progress progress("broadcast_after_spawn", mini::ThreadPool::global());
    auto inbox = std::make_shared<test::Inbox<int>>();
    mini::ThreadPool::global().install([inbox] { mini::spawn([inbox] { inbox->send(22); }); });
    mini::broadcast([](BroadcastContext) {}); // runs after that worker's deque is empty
    CHECK(inbox->items() == std::vector<int>{22});
}

TEST_CASE("scope_spawn_broadcast", "[broadcast][scope]") {
    test::Progress progress("scope_spawn_broadcast", mini::ThreadPool::global());
    std::atomic<std::size_t> sum{0};
    const std::size_t n = mini::scope([&](Scope& s) {
        s.spawn_broadcast([&](Scope&, BroadcastContext c) { sum += c.index(); });
        return mini::current_num_threads();
    });
    CHECK(sum.load() == n * (n - 1) / 2);
}

TEST_CASE("scope_spawn_broadcast_nested", "[broadcast][scope]") {
    test::Progress progress("scope_spawn_broadcast_nested", mini::ThreadPool::global());
    std::atomic<std::size_t> sum{0};
    const std::size_t n = mini::scope([&](Scope& s) {
        s.spawn_broadcast([&](Scope& s, BroadcastContext) {
            s.spawn_broadcast([&](Scope&, BroadcastContext c) { sum += c.index(); });
        });
        return mini::current_num_threads();
    });
    CHECK(sum.load() == n * n * (n - 1) / 2);
}

// Only a copy on every worker at once passes a barrier of 7 (+ this thread): copies in the
// injector would stack two on one worker, which blocks in the barrier with the other's copy.
TEST_CASE("scope_spawn_broadcast_barrier", "[broadcast][scope]") {
    test::Pool pool(7);
    test::Progress progress("scope_spawn_broadcast_barrier", pool);
    std::barrier barrier(8);
    std::thread scoped([&] {
        pool.scope([&](Scope& s) { s.spawn_broadcast([&](Scope&, BroadcastContext) { barrier.arrive_and_wait(); }); });
    });
    barrier.arrive_and_wait();
    scoped.join();
}

TEST_CASE("scope_spawn_broadcast_panic_one", "[broadcast][scope]") {
    std::atomic<std::size_t> count{0};
    test::Pool pool(7);
    test::Progress progress("scope_spawn_broadcast_panic_one", pool);
    CHECK_THROWS_WITH(pool.scope([&](Scope& s) {
        s.spawn_broadcast([&](Scope&, BroadcastContext c) {
            ++count;
            if (c.index() == 3) throw std::runtime_error("Hello, world!");
        });
    }), "Hello, world!");
    CHECK(count.load() == 7);
}

TEST_CASE("scope_spawn_broadcast_panic_many", "[broadcast][scope]") {
    std::atomic<std::size_t> count{0};
    test::Pool pool(7);
    test::Progress progress("scope_spawn_broadcast_panic_many", pool);
    CHECK_THROWS_WITH(pool.scope([&](Scope& s) {
        s.spawn_broadcast([&](Scope&, BroadcastContext c) {
            ++count;
            if (c.index() % 2 == 0) throw std::runtime_error("Hello, world!");
        });
    }), "Hello, world!");
    CHECK(count.load() == 7);
}

// ---- The done-when, and the chapter's cases ----

// ANCHOR: three_callers
TEST_CASE("ThreadPool(3).broadcast returns indices 0 1 2 from outside the pool and from a worker",
          "[broadcast]") {
    test::Pool pool(3);
    test::Progress progress("broadcast from outside and from a worker", pool);
    CHECK(pool.broadcast(index_of) == std::vector<std::size_t>{0, 1, 2});
    CHECK(pool.install([&] { return pool.broadcast(index_of); }) == std::vector<std::size_t>{0, 1, 2});
}
// ANCHOR_END: three_callers

// One worker held in a spawned job; the copies that run count themselves. The held worker is
// released when its own copy is the only one left: n - 1 copies ran and one waits in a broadcast
// queue, its own (it ran nothing meanwhile). With BROADCAST_VIA_INJECTOR the queues stay empty
// and the free workers run every copy, the last of which releases it: the line shows the held
// worker's index missing, and the case fails (exit 1).
// ANCHOR: busy_worker
std::vector<std::size_t> broadcast_while_busy(std::size_t n) {
    test::Pool pool(n);
    test::Progress progress("a broadcast while one worker is busy", pool);
    test::BusyWorker busy;
    const std::size_t held = busy.start(pool);
    std::atomic<std::size_t> ran{0};
    std::atomic<bool> released{false};
    const auto v = pool.broadcast([&](BroadcastContext c) {
        const std::size_t k = ran.fetch_add(1) + 1;
        const bool only_its_own_left = k == n - 1 && pool.queued_broadcasts() == 1;
        if ((only_its_own_left || k == n) && !released.exchange(true)) busy.release();
        ++progress;
        return c.index();
    });
    std::printf("broadcast on %zu workers while worker %zu was busy: %s\n", n, held,
                describe_indices(v, n).c_str());
    return v;
}

TEST_CASE("ThreadPool(3).broadcast returns indices 0 1 2 while one worker is busy", "[broadcast][busy]") {
    CHECK(broadcast_while_busy(3) == iota(3));
}
// ANCHOR_END: busy_worker

// The same on two workers: with BROADCAST_VIA_INJECTOR the one free worker runs both copies.
TEST_CASE("ThreadPool(2).broadcast returns indices 0 1 while one worker is busy", "[broadcast][busy]") {
    CHECK(broadcast_while_busy(2) == iota(2));
}

// Every worker asleep when the copies arrive: the broadcast's wake of every worker is the only
// thing that gets them out. With NO_BROADCAST_WAKE nobody wakes them: the watchdog reports the
// copies still queued beside the sleepers, exit 3.
// ANCHOR: sleeping_workers
TEST_CASE("broadcast wakes every sleeping worker", "[broadcast][wake]") {
    test::Pool pool(3);
    std::atomic<std::size_t> ran{0};
    mini::Watchdog dog("a broadcast to 3 sleeping workers", test::watchdog_time,
        [&] { return std::uint64_t{ran.load()}; },
        [&] {
            return std::to_string(ran.load()) + " of 3 copies ran, " +
                   std::to_string(pool.queued_broadcasts()) + " wait in the broadcast queues of " +
                   std::to_string(pool.sleep().sleepers()) + " sleeping workers, whom nobody woke";
        });
    wait_for_sleepers(pool, 3);
    CHECK(pool.broadcast([&](BroadcastContext c) { return ++ran, c.index(); }) == iota(3));
}
// ANCHOR_END: sleeping_workers

// rayon #992, forced. The one worker is held between its last failed search and its sleep; a
// thread outside the pool broadcasts into exactly that window: the push finds nobody asleep, so
// its wake wakes nobody, and the broadcaster blocks (Probe::lock_latch_spin says so). Only then
// is the worker let go: its last look before sleeping must see its own broadcast queue. With a
// last look at the injector only (rayon-core 1.10.0), it sleeps beside its copy: exit 3.
namespace {
std::atomic<bool> window_armed{false}, broadcast_armed{false};
std::binary_semaphore worker_in_window{0}, broadcast_waits{0}, let_go{0};

void hold_in_sleep_window(mini::Probe point) {
    if (point == mini::Probe::idle && window_armed.exchange(false)) {
        worker_in_window.release();
        let_go.acquire();
    } else if (point == mini::Probe::lock_latch_spin && broadcast_armed.exchange(false)) {
        broadcast_waits.release(); // inject_broadcast and its wake are done
    }
}
} // namespace

TEST_CASE("the last look before sleeping sees a broadcast pushed in the sleep window", "[broadcast][992]") {
    window_armed = true;
    mini::instrument::sync_hook = &hold_in_sleep_window;
    test::Pool pool(1);
    worker_in_window.acquire(); // found nothing, about to sleep
    std::atomic<bool> ran{false};
    mini::Watchdog dog("a broadcast pushed while its worker was going to sleep", test::watchdog_time,
        [&] { return std::uint64_t{ran.load()}; },
        [&] {
            return std::to_string(pool.queued_broadcasts()) + " copy waits in the broadcast queue of " +
                   std::to_string(pool.sleep().sleepers()) + " sleeping worker";
        });
    broadcast_armed = true;
    std::thread broadcaster([&] { pool.broadcast([&](BroadcastContext) { ran = true; }); });
    broadcast_waits.acquire();
    CHECK(pool.sleep().sleepers() == 0); // so the broadcast's wake woke nobody
    let_go.release();
    broadcaster.join();
    mini::instrument::sync_hook = nullptr;
    CHECK(ran);
}

// rayon #492's promise: two broadcasts racing reach every worker in the same order, so a barrier
// of N inside each cannot deadlock (worker 0 in A's barrier while worker 1 waits in B's).
TEST_CASE("racing broadcasts with a barrier inside each reach every worker in one order",
          "[broadcast]") {
    test::Pool pool(3);
    test::Progress progress("two racing broadcasts with barriers", pool);
    std::barrier a(3), b(3);
    for (int round = 0; round < 50; ++round) {
        std::thread other([&] { pool.broadcast([&](BroadcastContext) { b.arrive_and_wait(); }); });
        pool.broadcast([&](BroadcastContext) { a.arrive_and_wait(); });
        other.join();
        ++progress;
    }
}

// A copy's result type needs no default constructor, and a void op gives void.
TEST_CASE("broadcast returns what op returns by index and a void op returns void", "[broadcast]") {
    test::Pool pool(2);
    test::Progress progress("broadcast's result types", pool);
    struct Copy { // no default constructor
        explicit Copy(BroadcastContext c) : index(c.index()), of(c.num_threads()) {}
        std::size_t index, of;
    };
    const std::vector<Copy> v = pool.broadcast([](BroadcastContext c) { return Copy(c); });
    REQUIRE(v.size() == 2);
    CHECK((v[0].index == 0 && v[1].index == 1 && v[0].of == 2 && v[1].of == 2));
    static_assert(std::is_void_v<decltype(pool.broadcast([](BroadcastContext) {}))>);
}

#if MINI_SLEEP_PER_WORKER
// Issue 47, item 11 (per-worker sleep). A fresh worker's first look finds a broadcast copy in its
// queue: the worker is held at its start until the copy is queued. A latch the copy makes must
// have that worker as its owner, so that its set wakes the owner only. Before the worker had an
// identity from its start, it got one only in its first search, after the copy ran: the latch
// had no owner, and its set would wake every sleeper.
namespace {
std::atomic<bool> start_armed{false}, spin_armed{false};
std::binary_semaphore worker_started{0}, copy_queued{0}, let_start{0};

void hold_fresh_worker(mini::Probe point) {
    if (point == mini::Probe::worker_start && start_armed.exchange(false)) {
        worker_started.release();
        let_start.acquire();
    } else if (point == mini::Probe::lock_latch_spin && spin_armed.exchange(false)) {
        copy_queued.release(); // inject_broadcast and its wake are done
    }
}
} // namespace

TEST_CASE("a fresh worker's first broadcast copy makes latches it owns", "[broadcast]") {
    start_armed = true;
    mini::instrument::sync_hook = &hold_fresh_worker;
    test::Pool pool(1);
    worker_started.acquire();
    std::atomic<bool> owned{false};
    spin_armed = true;
    std::thread broadcaster([&] {
        pool.broadcast([&](BroadcastContext) { owned = !mini::SpinLatch(&pool.sleep()).shared(); });
    });
    copy_queued.acquire();
    let_start.release();
    broadcaster.join();
    mini::instrument::sync_hook = nullptr;
    CHECK(owned);
}
#endif
