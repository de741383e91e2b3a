// A spawn or a broadcast whose publish fails: every count it took is given back, and nothing it
// leaves queued points into a frame the exception unwinds (issue 47, items 3, 4, 5 and 7).
//
// Two ways to fail, both forced:
// - the closure's copy or move throws, as a capture's can (a std::string's allocation): a type
//   whose copy (or move) constructor throws std::bad_alloc;
// - the push into the broadcast queues fails partway, as a queue's allocation can: a hook that
//   throws at Probe::broadcast_push, once per copy, at the copy it is told to.
// Before the fix each case hung (a count taken and never given back: the pool's destructor, or
// the scope, waits for good, and the watchdog exits 3), or left copy 0 queued in worker 0's queue
// while broadcast_in's frame was unwound (ASan: heap-use-after-free in StackJob::execute).
#include <mini/broadcast.hpp>

#include <catch2/catch.hpp>

#include <atomic>
#include <cstddef>
#include <new>
#include <stdexcept>

#include "broadcast_helpers.hpp"
#include "helpers.hpp"

using mini::BroadcastContext;
using mini::Scope;

namespace {

// A closure whose copy throws (the spawns copy an lvalue op into their job); its call counts.
struct ThrowingCopy {
    std::atomic<int>* ran;
    explicit ThrowingCopy(std::atomic<int>* r) : ran(r) {}
    ThrowingCopy(const ThrowingCopy&) { throw std::bad_alloc(); }
    void operator()() const { ++*ran; }
    void operator()(BroadcastContext) const { ++*ran; }
};

// A body whose move out of the caller's argument succeeds and whose next move throws: the move
// of the closure into its box (Scope::spawn_broadcast builds the closure, then boxes it), where
// the box's own allocation can throw too.
struct ThrowingMove {
    std::atomic<int>* ran;
    int moves = 0;
    explicit ThrowingMove(std::atomic<int>* r) : ran(r) {}
    ThrowingMove(ThrowingMove&& o) : ran(o.ran), moves(o.moves + 1) {
        if (moves > 1) throw std::bad_alloc();
    }
    void operator()(Scope&, BroadcastContext) const { ++*ran; }
};

// Throws std::bad_alloc at the push of copy `refuse_at` (0-based) of the next broadcast.
std::atomic<int> pushes_left{-1};

void throw_at_push(mini::Probe point) {
    if (point == mini::Probe::broadcast_push && pushes_left.fetch_sub(1) == 0) throw std::bad_alloc();
}

struct RefusePush {
    explicit RefusePush(int refuse_at) {
        pushes_left = refuse_at;
        mini::instrument::sync_hook = &throw_at_push;
    }
    ~RefusePush() { mini::instrument::sync_hook = nullptr, pushes_left = -1; }
};

} // namespace

// Item 3. The count taken before the copy stayed: the destructor waited for a job that never was.
TEST_CASE("spawn whose closure's copy throws takes no count: the pool's destructor returns", "[publish]") {
    std::atomic<int> ran{0};
    {
        test::Pool pool(2); // its destructor runs under a watchdog: a leaked count is exit 3
        const ThrowingCopy op(&ran);
        CHECK_THROWS_AS(pool.spawn(op), std::bad_alloc);
        pool.spawn([&] { ++ran; }); // the pool still works
    }
    CHECK(ran.load() == 1);
}

// Item 4. n counts taken before the copy and the box: the same hang, n times over.
TEST_CASE("spawn_broadcast whose closure's copy throws takes no count: the pool's destructor returns",
          "[publish]") {
    std::atomic<int> ran{0};
    {
        test::Pool pool(3);
        const ThrowingCopy op(&ran);
        CHECK_THROWS_AS(pool.spawn_broadcast(op), std::bad_alloc);
        pool.spawn_broadcast([&](BroadcastContext) { ++ran; });
    }
    CHECK(ran.load() == 3);
}

// Item 5. The scope counted n copies before the move: it waited for them for good.
TEST_CASE("Scope::spawn_broadcast whose body's move throws takes no count: scope rethrows", "[publish]") {
    test::Pool pool(3);
    test::Progress progress("a scope whose spawn_broadcast's body threw in its move", pool);
    std::atomic<int> ran{0};
    CHECK_THROWS_AS(pool.scope([&](Scope& s) { s.spawn_broadcast(ThrowingMove(&ran)); }), std::bad_alloc);
    CHECK(ran.load() == 0);
    pool.scope([&](Scope& s) { s.spawn_broadcast([&](Scope&, BroadcastContext) { ++ran; }); });
    CHECK(ran.load() == 3);
}

// Item 7. Both workers are held, so that nobody can take a copy; the push of copy 1 throws. Copy 0
// must not be left in worker 0's queue: it points into broadcast_in's frame, which the exception
// unwinds. Released, worker 0 would run it there (ASan: heap-use-after-free).
TEST_CASE("broadcast whose push throws at copy 1 leaves no copy queued", "[publish]") {
    test::Pool pool(2);
    test::Progress progress("a broadcast whose push threw at copy 1", pool);
    test::BusyWorker a, b;
    a.start(pool), b.start(pool);
    std::atomic<int> ran{0};
    {
        RefusePush refuse(1);
        CHECK_THROWS_AS(pool.broadcast([&](BroadcastContext) { ++ran; }), std::bad_alloc);
    }
    CHECK(pool.queued_broadcasts() == 0);
    a.release(), b.release();
    CHECK(pool.broadcast([&](BroadcastContext c) { return ++ran, c.index(); }) ==
          std::vector<std::size_t>{0, 1});
    CHECK(ran.load() == 2);
}

// The same failure under spawn_broadcast: nothing queued, and its n counts given back.
TEST_CASE("spawn_broadcast whose push throws gives its counts back: the pool's destructor returns",
          "[publish]") {
    std::atomic<int> ran{0};
    {
        test::Pool pool(3);
        {
            RefusePush refuse(2);
            CHECK_THROWS_AS(pool.spawn_broadcast([&](BroadcastContext) { ++ran; }), std::bad_alloc);
        }
        CHECK(pool.queued_broadcasts() == 0);
    }
    CHECK(ran.load() == 0);
}

// And under Scope::spawn_broadcast: its n counts given back, the exception out of scope.
TEST_CASE("Scope::spawn_broadcast whose push throws gives its counts back: scope rethrows", "[publish]") {
    test::Pool pool(3);
    test::Progress progress("a scope whose spawn_broadcast's push threw", pool);
    std::atomic<int> ran{0};
    {
        RefusePush refuse(0);
        CHECK_THROWS_AS(pool.scope([&](Scope& s) { s.spawn_broadcast([&](Scope&, BroadcastContext) { ++ran; }); }),
                        std::bad_alloc);
    }
    CHECK(pool.queued_broadcasts() == 0);
    CHECK(ran.load() == 0);
}
