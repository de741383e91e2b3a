// The adaptive splitter: leaf counts as chapter 4 derives them, exact coverage, the minimum
// length, and what a steal does to the count.
#include <mini/splitter.hpp>
#include <instrument/watchdog.hpp>

#include <catch2/catch.hpp>

#include <algorithm>
#include <atomic>
#include <bit>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include "helpers.hpp"

using mini::Piece;
using mini::ThreadPool;

namespace {

// The leaves of one bridge run over [0, len), sorted.
std::vector<std::pair<std::size_t, std::size_t>> leaves(ThreadPool& pool, std::size_t len,
                                                        std::size_t min_len, bool inside) {
    std::mutex m;
    std::vector<std::pair<std::size_t, std::size_t>> out;
    auto run = [&] {
        return mini::bridge<mini::Unit>(
            pool, 0, len, min_len,
            [&](const Piece& p) {
                std::lock_guard lock(m);
                out.emplace_back(p.begin, p.end);
                return mini::Unit{};
            },
            [](mini::Unit, mini::Unit) { return mini::Unit{}; });
    };
    inside ? pool.install(run) : run();
    std::sort(out.begin(), out.end());
    return out;
}

bool covers_exactly(const std::vector<std::pair<std::size_t, std::size_t>>& ls, std::size_t len) {
    std::size_t at = 0;
    for (const auto& [b, e] : ls) {
        if (b != at || e <= b) return false;
        at = e;
    }
    return at == len;
}

// A bridge run in which a steal is forced: the leaf that holds index 0 wakes another worker
// (through the injector) and waits until some leaf has run on a thread other than its own, which
// that worker can only do by stealing from the left spine's deque.
std::size_t count_with_forced_steal(ThreadPool& pool, std::size_t len) {
    std::atomic<bool> stolen_leaf_ran{false};
    // A pool where nobody steals would leave leaf 0 spinning for good: end it with exit 3, until
    // a thief has run a leaf.
    std::optional<mini::Watchdog> dog(
        std::in_place, "leaf 0 waiting for a thief to run a leaf", test::watchdog_time,
        [&] { return mini::stats(pool).executed; }, [&] { return test::describe(mini::stats(pool)); });
    return pool.install([&] {
        const auto first_thread = std::this_thread::get_id();
        return mini::count_leaves(pool, 0, len, [&](std::size_t i) {
            if (i == 0) {
                test::wake_a_worker(pool);
                while (!stolen_leaf_ran.load()) std::this_thread::yield();
                dog.reset();
            } else if (std::this_thread::get_id() != first_thread) {
                stolen_leaf_ran = true;
            }
        });
    });
}

constexpr std::size_t no_steal_inside(std::size_t threads) {
    return std::size_t{1} << std::bit_width(threads);
}

} // namespace

TEST_CASE("one thread: 8 leaves from outside the pool, 2 inside, every run",
          "[splitter][adaptive]") {
    test::Pool pool(1);
    for (int run = 0; run < 20; ++run) {
        CHECK(mini::count_leaves(pool, 0, 1 << 20, [](std::size_t) {}) == 8);
        CHECK(pool.install(
                  [&] { return mini::count_leaves(pool, 0, 1 << 20, [](std::size_t) {}); }) == 2);
    }
}

TEST_CASE("try_split follows rayon's three lines", "[splitter][adaptive]") {
    mini::Splitter s(4);
    CHECK(s.try_split(false)); // 4 -> 2
    CHECK(s.splits() == 2);
    CHECK(s.try_split(true)); // migrated: max(4, 2 / 2) = 4
    CHECK(s.splits() == 4);
    CHECK(s.try_split(false)); // 2
    CHECK(s.try_split(false)); // 1
    CHECK(s.try_split(false)); // 0
    CHECK_FALSE(s.try_split(false));
    CHECK(s.try_split(true)); // a migrated piece always splits once more
    CHECK(s.splits() == 4);
}

TEST_CASE("the leaves cover the range exactly: disjoint, in order, nothing missing", "[splitter]") {
    const std::size_t threads = GENERATE(1, 2, 4, 12);
    test::Pool pool(threads);
    for (const std::size_t len : {1, 2, 3, 5, 7, 100, 1000, 1 << 16}) {
        INFO("threads " << threads << ", len " << len);
        CHECK(covers_exactly(leaves(pool, len, 1, false), len));
        CHECK(covers_exactly(leaves(pool, len, 1, true), len));
    }
}

TEST_CASE("a range shorter than the number of leaves still splits into single items",
          "[splitter][adaptive]") {
    test::Pool pool(1); // 8 leaves in theory from outside
    const auto ls = leaves(pool, 3, 1, false);
    CHECK(ls.size() == 3);
    CHECK(covers_exactly(ls, 3));
}

TEST_CASE("no piece is split below the minimum length", "[splitter]") {
    const std::size_t threads = GENERATE(2, 12);
    test::Pool pool(threads);
    for (const std::size_t min_len : {1000, 4096, 100000}) {
        const auto ls = leaves(pool, 1 << 20, min_len, false);
        CHECK(covers_exactly(ls, 1 << 20));
        for (const auto& [b, e] : ls) CHECK(e - b >= min_len);
    }
    const auto whole = leaves(pool, 10, 1000, false); // shorter than the minimum: one piece
    CHECK(whole.size() == 1);
}

TEST_CASE("a forced steal makes the stolen piece split again", "[splitter][adaptive]") {
    const std::size_t threads = GENERATE(2, 4, 12);
    test::Pool pool(threads);
    for (int run = 0; run < 5; ++run)
        CHECK(count_with_forced_steal(pool, 1 << 16) > no_steal_inside(threads));
}

TEST_CASE("the parallel sum and for_each agree with serial loops", "[splitter]") {
    test::Pool pool(4);
    std::vector<std::uint64_t> v(1 << 18);
    for (std::size_t i = 0; i < v.size(); ++i) v[i] = i * 2654435761u;
    std::uint64_t serial = 0;
    for (auto x : v) serial += x;
    CHECK(pool.install([&] { return mini::sum(pool, v); }) == serial);
    CHECK(mini::sum(pool, v) == serial);
    std::vector<std::atomic<int>> hit(v.size());
    mini::for_each(pool, 0, hit.size(), [&](std::size_t i) { hit[i].fetch_add(1); });
    CHECK(test::count_not_once(hit) == 0);
}

TEST_CASE("reverse: with IGNORE_MIGRATED one thread gives 2 leaves from outside and not 8",
          "[reverse][ignore_migrated]") {
    test::Pool pool(1);
    for (int run = 0; run < 20; ++run)
        CHECK(mini::count_leaves(pool, 0, 1 << 20, [](std::size_t) {}) == 2);
}

TEST_CASE("reverse: with IGNORE_MIGRATED every count is the same power of two with steals or not",
          "[reverse][ignore_migrated]") {
    for (const std::size_t threads : {4, 12}) {
        test::Pool pool(threads);
        for (int run = 0; run < 5; ++run) {
            const std::size_t n = count_with_forced_steal(pool, 1 << 16);
            CHECK(std::has_single_bit(n));
            CHECK(n == no_steal_inside(threads));
        }
    }
}

// What the bridge hands its callbacks. Inside a pool of one thread nothing migrates and the
// splits start at 1: the whole range is split once, and observe sees it with the 0 splits that
// try_split left; each half is a leaf with 0. A range too short to split is never offered to
// try_split, so its one leaf still carries 1.
TEST_CASE("observe sees each split piece, and a leaf's piece carries its splits", "[splitter]") {
    test::Pool pool(1); // one thread: the callbacks never run concurrently
    std::vector<mini::Piece> observed, seen;
    const auto run = [&](std::size_t len, std::size_t min_len) {
        observed.clear();
        seen.clear();
        return pool.install([&] {
            return mini::bridge<int>(
                pool, 0, len, min_len,
                [&](const mini::Piece& p) {
                    seen.push_back(p);
                    return 1;
                },
                [](int a, int b) { return a + b; },
                [&](const mini::Piece& p) { observed.push_back(p); });
        });
    };
    CHECK(run(1 << 10, 1) == 2);
    REQUIRE(observed.size() == 1);
    CHECK((observed[0].begin == 0 && observed[0].end == 1 << 10));
    CHECK((!observed[0].migrated && observed[0].splits == 0));
    for (const mini::Piece& p : seen) CHECK((!p.migrated && p.splits == 0));
    CHECK(run(10, 1000) == 1);
    CHECK(observed.empty());
    REQUIRE(seen.size() == 1);
    CHECK(seen[0].splits == 1);
}
