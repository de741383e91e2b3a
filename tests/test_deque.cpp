// The deque on its own: Worker/Stealer semantics, growth, and exactly-once under concurrency.
#include <mini/deque.hpp>

#include <catch2/catch.hpp>

#include <atomic>
#include <cstdint>
#include <thread>
#include <vector>

#include "helpers.hpp"
#include "scaled.hpp"

using mini::Injector;
using mini::StealStatus;
using mini::Worker;

TEST_CASE("the owner pops LIFO and a thief steals FIFO", "[deque]") {
    Worker<std::uint64_t> w;
    auto s = w.stealer();
    for (std::uint64_t i = 1; i <= 4; ++i) w.push(i);
    CHECK(*w.pop() == 4);
    auto first = s.steal();
    REQUIRE(first.success());
    CHECK(first.value == 1);
    CHECK(*w.pop() == 3);
    CHECK(s.steal().value == 2);
    CHECK_FALSE(w.pop().has_value());
    CHECK(s.steal().status == StealStatus::Empty);
    CHECK(w.is_empty());
    CHECK(s.is_empty());
}

TEST_CASE("an empty deque gives nothing to either end", "[deque]") {
    Worker<std::uint64_t> w;
    CHECK_FALSE(w.pop().has_value());
    CHECK(w.stealer().steal().status == StealStatus::Empty);
    w.push(7);
    CHECK_FALSE(w.is_empty());
    CHECK(*w.pop() == 7);
    CHECK_FALSE(w.pop().has_value());
}

TEST_CASE("the buffer grows far past its first capacity and keeps every item", "[deque]") {
    Worker<std::uint64_t> w;
    auto s = w.stealer();
    constexpr std::uint64_t n = 100'000; // the first buffer holds 64
    for (std::uint64_t i = 0; i < n; ++i) w.push(i);
    for (std::uint64_t i = 0; i < n / 2; ++i) REQUIRE(s.steal().value == i);
    for (std::uint64_t i = n; i-- > n / 2;) REQUIRE(*w.pop() == i);
    CHECK(w.is_empty());
}

TEST_CASE("a two-word item survives the deque intact", "[deque]") {
    struct Pair {
        std::uint64_t a, b;
    };
    Worker<Pair> w;
    for (std::uint64_t i = 0; i < 1000; ++i) w.push({i, ~i});
    for (std::uint64_t i = 1000; i-- > 0;) {
        const Pair p = *w.pop();
        REQUIRE(p.a == i);
        REQUIRE(p.b == ~i);
    }
}

// A thief that has read `bottom` but not yet the buffer pointer is held there while the owner's
// next push grows the buffer; then the thief reads the new pointer and the job copied into it.
// Only the pointer's acquire (pairing with grow's release) orders the new buffer's construction
// before the thief reads it, so with either made relaxed TSan reports a race on the buffer. The
// hand-offs are relaxed on purpose: a release/acquire hand-off would itself order the grow before
// the thief's read and hide exactly that.
namespace {
std::atomic<bool> thief_armed{false}, thief_held{false}, owner_grew{false};

void hold_thief(mini::Probe point) {
    if (point != mini::Probe::steal_before_buffer ||
        !thief_armed.exchange(false, std::memory_order_relaxed))
        return;
    thief_held.store(true, std::memory_order_relaxed);
    while (!owner_grew.load(std::memory_order_relaxed)) std::this_thread::yield();
}
} // namespace

TEST_CASE("a thief held before reading the buffer pointer takes its job from the grown buffer",
          "[deque][forced]") {
    Worker<std::uint64_t> w;
    for (std::uint64_t i = 0; i < 64; ++i) w.push(i); // the first buffer is full
    thief_armed = true;
    mini::instrument::sync_hook = &hold_thief;
    mini::Steal<std::uint64_t> got;
    std::thread thief([&, s = w.stealer()] { got = s.steal(); });
    while (!thief_held.load(std::memory_order_relaxed)) std::this_thread::yield();
    w.push(64); // grows: 64 jobs copied into a buffer of 128
    owner_grew.store(true, std::memory_order_relaxed);
    thief.join();
    mini::instrument::sync_hook = nullptr;
    REQUIRE(got.success());
    CHECK(got.value == 0);
    for (std::uint64_t i = 65; i-- > 1;) REQUIRE(*w.pop() == i); // the rest, none lost
    CHECK(w.is_empty());
}

// One owner pushes and pops while `thieves` threads steal; every item must be taken exactly once.
static void exactly_once(int thieves, std::uint64_t items) {
    Worker<std::uint64_t> w;
    std::vector<std::atomic<std::uint8_t>> taken(items);
    std::atomic<bool> done{false};
    std::atomic<std::uint64_t> stolen{0};
    auto take = [&](std::uint64_t i) { taken[i].fetch_add(1, std::memory_order_relaxed); };

    std::vector<std::thread> ts;
    for (int t = 0; t < thieves; ++t)
        ts.emplace_back([&, s = w.stealer()] {
            for (;;) {
                const bool finished = done.load(std::memory_order_acquire);
                auto r = s.steal();
                if (r.success()) {
                    take(r.value);
                    stolen.fetch_add(1, std::memory_order_relaxed);
                } else if (r.status == StealStatus::Empty && finished) {
                    return;
                }
            }
        });
    // Push in bursts and pop some back, so that the owner and the thieves meet on the last item.
    for (std::uint64_t i = 0; i < items;) {
        for (int k = 0; k < 7 && i < items; ++k) w.push(i++);
        for (int k = 0; k < 3; ++k)
            if (auto v = w.pop()) take(*v);
    }
    while (auto v = w.pop()) take(*v);
    done.store(true, std::memory_order_release);
    for (auto& t : ts) t.join();

    std::uint64_t lost = 0, twice = 0;
    for (auto& c : taken) {
        lost += c.load() == 0;
        twice += c.load() > 1;
    }
    INFO(thieves << " thieves, " << items << " items, " << stolen.load() << " stolen");
    CHECK(lost == 0);
    CHECK(twice == 0);
}

TEST_CASE("owner and thieves take every item exactly once", "[deque][concurrent]") {
    const int thieves = GENERATE(2, 4, 8);
    exactly_once(thieves, test::scaled(2'000'000));
}

TEST_CASE("the injector hands every item to exactly one consumer", "[deque][concurrent]") {
    constexpr int producers = 4, consumers = 4;
    constexpr std::uint64_t per_producer = 200'000, items = producers * per_producer;
    Injector<std::uint64_t> inj;
    std::vector<std::atomic<std::uint8_t>> taken(items);
    std::atomic<std::uint64_t> consumed{0};
    std::vector<std::thread> ts;
    for (int p = 0; p < producers; ++p)
        ts.emplace_back([&, p] {
            for (std::uint64_t i = 0; i < per_producer; ++i) inj.push(p * per_producer + i);
        });
    for (int c = 0; c < consumers; ++c)
        ts.emplace_back([&] {
            while (consumed.load(std::memory_order_relaxed) < items) {
                auto r = inj.steal();
                if (r.success()) {
                    taken[r.value].fetch_add(1, std::memory_order_relaxed);
                    consumed.fetch_add(1, std::memory_order_relaxed);
                }
            }
        });
    for (auto& t : ts) t.join();
    std::uint64_t wrong = 0;
    for (auto& c : taken) wrong += c.load() != 1;
    CHECK(wrong == 0);
    CHECK(inj.is_empty());
}
