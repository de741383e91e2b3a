// Part III's unindexed and stateful chains (chapter 14): filter_map, flat_map, flat_map_iter,
// flatten, fold, the *_init / *_with family, the try_* terminals, collect into other containers,
// unzip and partition, par_bridge. Each against the sequential answer on 1, 2 and 4 threads and
// on empty input, and rayon's own tests where they apply (rayon 1.6.1 src/iter/test.rs,
// tests/par_bridge_recursion.rs).
//
// Tags: [fold_one_acc] needs one accumulator per leaf (FOLD_ONE_ACC breaks it), [try_full] needs
// an error to stop the other leaves (TRY_NO_FULL), [bridge_guard] the par_bridge guard
// (BRIDGE_NO_GUARD), [order] the reducer's left-before-right (REDUCE_SWAPPED).
#include <mini/par.hpp>
#include <instrument/watchdog.hpp>

#include <catch2/catch.hpp>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <numeric>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "helpers.hpp"

namespace {

const std::size_t sizes[] = {0, 1, 2, 17, 1000, 100000};

std::vector<std::uint64_t> iota_vec(std::size_t n) {
    std::vector<std::uint64_t> v(n);
    std::iota(v.begin(), v.end(), std::uint64_t{0});
    return v;
}

// Runs `body` inside a pool of 1, 2 and 4 threads.
template <class Body>
void on_1_2_4(Body body) {
    for (std::size_t threads : {1, 2, 4}) {
        test::Pool pool(threads);
        INFO("inside a pool of " << threads << " threads");
        pool.install(body);
    }
}

// A consumer whose result has one entry per leaf: how many leaves the bridge made.
struct LeafCount {
    using Result = std::size_t;
    struct Folder {
        using Result = std::size_t;
        void consume(const auto&) {}
        bool full() const { return false; }
        Result complete() && { return 1; }
    };
    struct Add {
        Result reduce(Result a, Result b) const { return a + b; }
    };
    std::tuple<LeafCount, LeafCount, Add> split_at(std::size_t) const { return {}; }
    LeafCount split_off_left() const { return {}; }
    Add to_reducer() const { return {}; }
    Folder into_folder() const { return {}; }
    bool full() const { return false; }
};

} // namespace

// rayon: check_sum_filtermap_ints, and the same on every size.
TEST_CASE("filter_map gives the sequential answer", "[unindexed]") {
    const std::vector<int> a{1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
    auto evens = [](int x) { return (x & 1) == 0 ? std::optional<std::uint32_t>(x) : std::nullopt; };
    CHECK(mini::par_iter(a).filter_map(evens).sum() == 30u);
    on_1_2_4([] {
        for (std::size_t n : sizes) {
            INFO("n = " << n);
            auto v = iota_vec(n);
            auto thirds = [](std::uint64_t x) { return x % 3 == 0 ? std::optional(x * 2) : std::nullopt; };
            std::vector<std::uint64_t> expected;
            for (auto x : v)
                if (auto y = thirds(x)) expected.push_back(*y);
            CHECK(mini::par_iter(v).filter_map(thirds).collect_vec() == expected);
            CHECK(mini::par_iter(v).filter_map(thirds).count() == expected.size());
        }
    });
}

// rayon: check_flat_map_nested_ranges, check_empty_flat_map_sum, par_iter_unindexed_flat_map.
TEST_CASE("flat_map gives the sequential answer", "[unindexed][order]") {
    on_1_2_4([] {
        const int v = mini::par_range(0, 10)
                          .flat_map([](int i) { return mini::par_range(0, 10).map([i](int j) { return i * j; }); })
                          .sum();
        CHECK(v == 45 * 45);
        std::vector<int> a(1024);
        std::iota(a.begin(), a.end(), 0);
        const std::span<const int> empty(a.data(), 0);
        CHECK(mini::par_iter(a).flat_map([&](const int&) { return mini::par_iter(empty); }).sum() == 0);
        CHECK(mini::par_iter(empty).flat_map([&](const int&) { return mini::par_iter(a); }).sum() == 0);
        for (std::size_t n : sizes) {
            INFO("n = " << n);
            std::vector<std::uint64_t> expected;
            for (std::uint64_t i = 0; i < n / 100; ++i)
                for (std::uint64_t j = 0; j < i % 7; ++j) expected.push_back(i * 10 + j);
            auto got = mini::par_range(std::uint64_t{0}, std::uint64_t{n / 100})
                           .flat_map([](std::uint64_t i) {
                               return mini::par_range(std::uint64_t{0}, i % 7).map([i](auto j) { return i * 10 + j; });
                           })
                           .collect_vec();
            CHECK(got == expected);
        }
    });
}

TEST_CASE("flat_map_iter gives the sequential answer", "[unindexed][order]") {
    on_1_2_4([] {
        for (std::size_t n : sizes) {
            INFO("n = " << n);
            std::vector<std::uint64_t> expected;
            for (std::uint64_t i = 0; i < n / 10; ++i)
                for (std::uint64_t j = 0; j < i % 5; ++j) expected.push_back(i + j);
            auto got = mini::par_range(std::uint64_t{0}, std::uint64_t{n / 10})
                           .flat_map_iter([](std::uint64_t i) {
                               std::vector<std::uint64_t> out;
                               for (std::uint64_t j = 0; j < i % 5; ++j) out.push_back(i + j);
                               return out;
                           })
                           .collect_vec();
            CHECK(got == expected);
        }
        // an lvalue range: items are references into it
        const std::vector<std::vector<int>> rows{{1, 2}, {}, {3}, {4, 5, 6}};
        auto got = mini::par_iter(rows).flat_map_iter([](const std::vector<int>& r) -> const std::vector<int>& { return r; }).collect_vec();
        CHECK(got == std::vector<int>{1, 2, 3, 4, 5, 6});
    });
}

// rayon: check_flatten_vec, check_flatten_vec_empty.
TEST_CASE("flatten gives the sequential answer", "[unindexed][order]") {
    on_1_2_4([] {
        std::vector<int> a(1024);
        std::iota(a.begin(), a.end(), 0);
        const std::vector<std::vector<int>> b{a, a, a, a};
        std::vector<int> d;
        for (int k = 0; k < 4; ++k) d.insert(d.end(), a.begin(), a.end());
        CHECK(mini::par_iter(b).flatten().collect_vec() == d);
        const std::vector<std::vector<int>> e{{}};
        CHECK(mini::par_iter(e).flatten().collect_vec().empty());
        // items that are vectors made by map: each lives while its iterator is driven
        auto got = mini::par_range(0, 100).map([](int i) { return std::vector<int>(i % 3, i); }).flatten().sum();
        int expected = 0;
        for (int i = 0; i < 100; ++i) expected += (i % 3) * i;
        CHECK(got == expected);
    });
}

// rayon: fold_map_reduce: with_max_len(1), one leaf per item, 32 accumulators in order.
TEST_CASE("fold gives one accumulator per leaf, in order", "[unindexed][order]") {
    on_1_2_4([] {
        auto r = mini::par_range(0, 32)
                     .with_max_len(1)
                     .fold([] { return std::vector<int>{}; },
                           [](std::vector<int> v, int e) { v.push_back(e); return v; })
                     .map([](std::vector<int> v) { return std::vector<std::vector<int>>{std::move(v)}; })
                     .reduce([] { return std::vector<std::vector<int>>{}; },
                             [](auto a, auto b) { a.insert(a.end(), b.begin(), b.end()); return a; });
        REQUIRE(r.size() == 32);
        for (int i = 0; i < 32; ++i) CHECK(r[i] == std::vector<int>{i});
    });
}

TEST_CASE("fold then sum gives the sequential answer", "[unindexed][fold_one_acc]") {
    on_1_2_4([] {
        for (std::size_t n : sizes) {
            INFO("n = " << n);
            auto v = iota_vec(n);
            const std::uint64_t expected = n * (n - (n > 0)) / 2;
            CHECK(mini::par_iter(v).fold([] { return std::uint64_t{0}; }, [](std::uint64_t a, std::uint64_t x) { return a + x; }).sum() == expected);
            CHECK(mini::par_iter(v).fold_with(std::uint64_t{0}, [](std::uint64_t a, std::uint64_t x) { return a + x; }).sum() == expected);
        }
    });
}

// rayon: fold_is_full: fold then find_any stops early.
TEST_CASE("fold stops its leaf when the consumer after it is full", "[unindexed]") {
    on_1_2_4([] {
        std::atomic<int> counter{0};
        auto a = mini::par_range(0, 2048)
                     .map([&](int x) { counter.fetch_add(1); return x; })
                     .fold([] { return 0; }, [](int a, int b) { return a + b; })
                     .find_any([](int) { return true; });
        CHECK(a.has_value());
        CHECK(counter.load() < 2048);
    });
}

// rayon: check_fold_with: every item reaches some copy of the init.
TEST_CASE("fold_with copies its init for every leaf", "[unindexed]") {
    on_1_2_4([] {
        std::vector<std::atomic<int>> seen(1024);
        auto sender = &seen;
        mini::par_range(0, 1024).fold_with(sender, [](auto s, int i) { ++(*s)[i]; return s; }).count();
        CHECK(test::count_not_once(seen) == 0);
    });
}

TEST_CASE("map_init, map_with, for_each_init and for_each_with give the sequential answer", "[unindexed]") {
    on_1_2_4([] {
        for (std::size_t n : sizes) {
            INFO("n = " << n);
            auto v = iota_vec(n);
            const std::uint64_t expected = n * (n - (n > 0)) / 2;
            auto add_to_state = [](std::uint64_t& s, std::uint64_t x) { s += 1; return x + s - s; };
            CHECK(mini::par_iter(v).map_init([] { return std::uint64_t{0}; }, add_to_state).sum() == expected);
            CHECK(mini::par_iter(v).map_with(std::uint64_t{7}, add_to_state).collect_vec() == v);
            std::vector<std::atomic<int>> seen(n);
            mini::par_iter(v).for_each_init([] { return 1; }, [&](int& one, std::uint64_t x) { seen[x] += one; });
            CHECK(test::count_not_once(seen) == 0);
            std::vector<std::atomic<int>> seen2(n);
            mini::par_iter(v).for_each_with(&seen2, [](auto* s, std::uint64_t x) { ++(*s)[x]; });
            CHECK(test::count_not_once(seen2) == 0);
            // map_init keeps the length: enumerate after it sees every index
            auto pairs = mini::par_iter(v).map_init([] { return 0; }, [](int&, std::uint64_t x) { return x * 2; }).enumerate().collect_vec();
            REQUIRE(pairs.size() == n);
            for (std::size_t i = 0; i < n; ++i) CHECK((pairs[i].first == i && pairs[i].second == 2 * i));
        }
    });
}

// rayon #718 / #1214: init runs once per leaf, not once per thread. The count of the same call's
// leaves (a consumer whose result counts them) and of fold's accumulators equal the init count.
TEST_CASE("init runs once per leaf: the init count equals the leaf count", "[unindexed]") {
    for (std::size_t threads : {1, 2, 4}) {
        test::Pool pool(threads);
        INFO("threads = " << threads);
        pool.install([&] {
            for (std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{4000}, std::size_t{100000}}) {
                INFO("n = " << n);
                std::atomic<std::size_t> inits{0};
                auto chain = mini::par_range(std::size_t{0}, n).map_init([&] { return ++inits; }, [](std::size_t&, std::size_t x) { return x; });
                const std::size_t leaves = chain.drive_unindexed(pool, LeafCount{});
                CHECK(inits.load() == leaves);
                inits = 0;
                const std::size_t accs = mini::par_range(std::size_t{0}, n).fold([&] { return ++inits; }, [](std::size_t a, std::size_t) { return a; }).count();
                CHECK(inits.load() == accs);
                inits = 0;
                mini::par_range(std::size_t{0}, n).for_each_init([&] { return ++inits; }, [](std::size_t&, std::size_t) {});
                CHECK(inits.load() >= 1);
                if (threads == 1) { // nobody steals: the same leaves as the bridge alone
                    CHECK(inits.load() == mini::par_range(std::size_t{0}, n).drive_unindexed(pool, LeafCount{}));
                }
            }
        });
    }
}
