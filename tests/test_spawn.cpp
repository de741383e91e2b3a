// spawn outside a scope, the terminate count, and yield: rayon-core's own spawn tests, ported.
//
// Ported from rayon-core-v1.13.0, rayon-core/src/spawn/test.rs: spawn_then_join_in_worker,
// spawn_then_join_outside_worker, panic_fwd, termination_while_things_are_executing,
// custom_panic_handler_and_spawn, custom_panic_handler_and_nested_spawn, lifo_order. The
// spawn_fifo ones (fifo_order, lifo_fifo_order, fifo_lifo_order, mixed_lifo_fifo_order,
// mixed_fifo_lifo_order) are in tests/test_scope_fifo.cpp. rayon's channels are test::Inbox; a panic with a &str
// payload is a std::runtime_error here. Besides: the done-when (a pool destroyed right
// after spawn has run the job), the op destroyed as soon as it ran, yield_now and yield_local.
#include <mini/broadcast.hpp>

#include <catch2/catch.hpp>

#include <atomic>
#include <cstddef>
#include <memory>
#include <semaphore>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "broadcast_helpers.hpp"
#include "helpers.hpp"

namespace {

std::string message_of(std::exception_ptr e) {
    try {
        std::rethrow_exception(e);
    } catch (const std::runtime_error& x) {
        return x.what();
    } catch (...) {
        return "(not a runtime_error)";
    }
}

} // namespace

TEST_CASE("spawn_then_join_in_worker", "[spawn]") {
    test::Progress progress("spawn_then_join_in_worker", mini::ThreadPool::global());
    auto inbox = std::make_shared<test::Inbox<int>>();
    mini::scope([&](mini::Scope&) { mini::spawn([inbox] { inbox->send(22); }); });
    CHECK(inbox->wait_for(1) == std::vector<int>{22});
}

TEST_CASE("spawn_then_join_outside_worker", "[spawn]") {
    test::Progress progress("spawn_then_join_outside_worker", mini::ThreadPool::global());
    auto inbox = std::make_shared<test::Inbox<int>>();
    mini::spawn([inbox] { inbox->send(22); });
    CHECK(inbox->wait_for(1) == std::vector<int>{22});
}

TEST_CASE("panic_fwd", "[spawn]") {
    test::Inbox<int> inbox;
    {
        mini::ThreadPool pool(mini::current_num_threads(), [&](std::exception_ptr e) {
            inbox.send(message_of(e) == "Hello, world!" ? 1 : 2);
        });
        pool.spawn([] { throw std::runtime_error("Hello, world!"); });
        test::Progress progress("panic_fwd", pool);
        CHECK(inbox.wait_for(1) == std::vector<int>{1});
    }
}

// The pool is destroyed while its spawned job still waits for the test; the job then spawns one
// more (onto its own worker's deque), and that one runs too before the workers leave.
TEST_CASE("termination_while_things_are_executing", "[spawn]") {
    test::Inbox<int> inbox;
    std::binary_semaphore go{0};
    int data = 0;
    std::thread destroyer([&] {
        mini::ThreadPool pool(mini::current_num_threads());
        pool.spawn([&] {
            go.acquire();
            mini::spawn([&] { inbox.send(data); });
        });
    }); // ~ThreadPool waits in `destroyer` for both jobs
    data = 22;
    go.release();
    CHECK(inbox.wait_for(1) == std::vector<int>{22});
    destroyer.join();
}

TEST_CASE("custom_panic_handler_and_spawn", "[spawn]") {
    test::Inbox<std::string> inbox;
    mini::ThreadPool pool(mini::current_num_threads(), [&](std::exception_ptr e) { inbox.send(message_of(e)); });
    test::Progress progress("custom_panic_handler_and_spawn", pool);
    pool.spawn([] { throw std::runtime_error("Hello, world!"); });
    CHECK(inbox.wait_for(1) == std::vector<std::string>{"Hello, world!"});
}

TEST_CASE("custom_panic_handler_and_nested_spawn", "[spawn]") {
    constexpr int panics = 3;
    test::Inbox<std::string> inbox;
    mini::ThreadPool pool(mini::current_num_threads(), [&](std::exception_ptr e) { inbox.send(message_of(e)); });
    test::Progress progress("custom_panic_handler_and_nested_spawn", pool);
    pool.spawn([] {
        for (int i = 0; i < panics; ++i) mini::spawn([] { throw std::runtime_error("Hello, world!"); });
    });
    CHECK(inbox.wait_for(panics) == std::vector<std::string>(panics, "Hello, world!"));
}

// One worker, no thief: spawns from a worker go onto its own deque and run newest first.
TEST_CASE("lifo_order", "[spawn]") {
    test::Inbox<int> inbox;
    {
        test::Pool pool(1);
        test::Progress progress("lifo_order", pool);
        pool.install([&] {
            for (int i = 0; i < 10; ++i)
                mini::spawn([&inbox, i] {
                    for (int j = 0; j < 10; ++j) mini::spawn([&inbox, i, j] { inbox.send(i * 10 + j); });
                });
        });
    }
    std::vector<int> expected;
    for (int k = 99; k >= 0; --k) expected.push_back(k);
    CHECK(inbox.items() == expected);
}

// ---- The done-when and the rest of the contract ----

// ANCHOR: destroyed_after_spawn
TEST_CASE("a pool destroyed right after spawn has run the job", "[spawn]") {
    std::atomic<int> ran{0};
    {
        test::Pool pool(3);
        pool.spawn([&] { ++ran; });
    } // ~ThreadPool: the terminate count is 2, the job's terminate() takes it to 0
    CHECK(ran.load() == 1);
}
// ANCHOR_END: destroyed_after_spawn

// The op's captures go as soon as it ran, while the pool still runs: the test waits for the
// destructor of a capture with the pool alive (a hang here: the watchdog's exit 3).
namespace {
struct Tracker {
    std::binary_semaphore* destroyed;
    bool armed = true;
    explicit Tracker(std::binary_semaphore* d) : destroyed(d) {}
    Tracker(Tracker&& o) noexcept : destroyed(o.destroyed) { o.armed = false; }
    ~Tracker() {
        if (armed) destroyed->release();
    }
};
} // namespace

TEST_CASE("spawn and spawn_broadcast destroy the op as soon as it ran and not with the pool", "[spawn]") {
    test::Pool pool(3);
    test::Progress progress("an op's captures destroyed after it ran", pool);
    std::binary_semaphore destroyed{0};
    std::atomic<int> ran{0};
    pool.spawn([t = Tracker(&destroyed), &ran] { ++ran; });
    destroyed.acquire();
    CHECK(ran.load() == 1);
    pool.spawn_broadcast([t = Tracker(&destroyed), &ran](mini::BroadcastContext) { ++ran; });
    destroyed.acquire(); // after the last of the 3 copies
    CHECK(ran.load() == 4);
}

TEST_CASE("a spawn from a worker of the pool goes onto that worker's own deque", "[spawn]") {
    test::Pool pool(2);
    test::Progress progress("a spawn from a worker", pool);
    test::BusyWorker busy;
    busy.start(pool); // the other worker cannot steal: it is held
    std::size_t spawner = 0, runner = 99;
    pool.install([&] {
        spawner = *mini::current_thread_index();
        mini::spawn([&] { runner = *mini::current_thread_index(); });
        CHECK(mini::yield_local() == mini::Yield::executed); // it was in our own deque
    });
    busy.release();
    CHECK(runner == spawner);
}

TEST_CASE("yield_now and yield_local: nullopt outside a pool and executed or idle inside", "[yield]") {
    CHECK(mini::yield_now() == std::nullopt);
    CHECK(mini::yield_local() == std::nullopt);
    CHECK(mini::current_thread_index() == std::nullopt);
    test::Pool pool(1);
    test::Progress progress("yield_now", pool);
    pool.install([&] {
        CHECK(mini::current_thread_index() == std::size_t{0});
        CHECK(mini::current_num_threads() == 1);
        int ran = 0;
        mini::spawn([&] { ++ran; });
        CHECK(mini::yield_now() == mini::Yield::executed);
        CHECK(ran == 1);
        CHECK(mini::yield_now() == mini::Yield::idle);
        CHECK(mini::yield_local() == mini::Yield::idle);
    });
}

// yield_local runs only this worker's own jobs: a job in the injector is for yield_now.
TEST_CASE("yield_local leaves the injector's jobs and yield_now takes them", "[yield]") {
    test::Pool pool(1);
    test::Progress progress("yield_local", pool);
    std::atomic<int> ran{0};
    pool.install([&] {
        pool.inject(mini::JobRef{&ran, [](void* r) noexcept { ++*static_cast<std::atomic<int>*>(r); }});
        CHECK(mini::yield_local() == mini::Yield::idle);
        CHECK(mini::yield_now() == mini::Yield::executed);
    });
    CHECK(ran.load() == 1);
}

// Issue 47, item 10. The destructor has taken the pool's own count while the only copy of a
// spawn_broadcast runs (a hand-off at its Probe::terminate); the copy's capture spawns from its
// destructor. Destroyed after the copy's terminate(), it spawned into a count already at 0: the
// workers had left, and its job never ran (a debug build's main_loop assertion said so). rayon
// drops the op with the ArcJob before the count is given back.
namespace {
std::atomic<std::thread::id> destroyer_id{};
std::binary_semaphore destructor_counted{0};

void on_destructor_terminate(mini::Probe point) {
    if (point == mini::Probe::terminate && std::this_thread::get_id() == destroyer_id.load())
        destroyer_id = std::thread::id{}, destructor_counted.release();
}

struct SpawnsWhenDestroyed {
    mini::ThreadPool* pool;
    test::Inbox<int>* inbox;
    bool armed = true;
    SpawnsWhenDestroyed(mini::ThreadPool* p, test::Inbox<int>* i) : pool(p), inbox(i) {}
    SpawnsWhenDestroyed(SpawnsWhenDestroyed&& o) noexcept : pool(o.pool), inbox(o.inbox) { o.armed = false; }
    ~SpawnsWhenDestroyed() {
        if (armed) pool->spawn([inbox = inbox] { inbox->send(1); });
    }
};
} // namespace

TEST_CASE("spawn_broadcast destroys its op before its last terminate: a capture's destructor may spawn",
          "[spawn]") {
    test::Inbox<int> inbox;
    std::binary_semaphore go{0};
    auto* pool = new mini::ThreadPool(1);
    pool->spawn_broadcast([s = SpawnsWhenDestroyed(pool, &inbox), &go](mini::BroadcastContext) { go.acquire(); });
    mini::instrument::sync_hook = &on_destructor_terminate;
    std::thread destroyer([pool] {
        destroyer_id = std::this_thread::get_id();
        delete pool; // its terminate() takes the pool's own 1: the copy's count is the last
    });
    destructor_counted.acquire();
    go.release();
    destroyer.join();
    mini::instrument::sync_hook = nullptr;
    CHECK(inbox.items() == std::vector<int>{1});
}
