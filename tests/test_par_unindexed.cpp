// Part III's unindexed and stateful chains (chapter 14): filter_map, flat_map, flat_map_iter,
// flatten, fold, the *_init / *_with family, the try_* terminals, collect into other containers,
// unzip and partition, par_bridge. Each against the sequential answer on 1, 2 and 4 threads and
// on empty input, and rayon's own tests where they apply (rayon 1.6.1 src/iter/test.rs,
// tests/par_bridge_recursion.rs).
//
// Tags: [full] needs the consumer's full() (IGNORE_FULL breaks it), [fold_one_acc] one
// accumulator per leaf (FOLD_ONE_ACC), [try_full] an error that stops the other leaves
// (TRY_NO_FULL, and IGNORE_FULL), [bridge_guard] the par_bridge guard (BRIDGE_NO_GUARD), [order]
// the reducer's left-before-right (REDUCE_SWAPPED).
#include <mini/broadcast.hpp>
#include <mini/par.hpp>
#include <mini/yield.hpp>
#include <instrument/watchdog.hpp>

#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <atomic>
#include <istream>
#include <ranges>
#include <sstream>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <numeric>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <thread>
#include <unordered_map>
#include <unordered_set>
#include <variant>
#include <vector>

#include "helpers.hpp"
#include "thread_state.hpp"

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

constexpr std::uint64_t octillion = std::uint64_t{1} << 62; // as many as fit; rayon's is 10^27

// The octillion tests' watchdog: the call is one step, so progress never moves.
mini::Watchdog octillion_dog(const char* what) {
    return mini::Watchdog(what, test::watchdog_time, [] { return std::uint64_t{0}; },
                          [] { return std::string("the call has not returned"); });
}

// 0, 1, 2, ... as an input iterator, and a sentinel no count reaches: std::views::iota, which
// libc++ 14 does not have.
struct Counting {
    using value_type = std::uint64_t;
    using difference_type = std::ptrdiff_t;
    std::uint64_t x = 0;
    std::uint64_t operator*() const { return x; }
    Counting& operator++() { return ++x, *this; }
    Counting operator++(int) { return Counting{x++}; }
    bool operator==(const Counting&) const = default;
};
struct Endless {
    bool operator==(const Counting&) const { return false; }
};

// Which item's next() each worker is inside, plus one (0: none). par_bridge calls next() under
// its lock, so a worker inside it holds that bridge's lock: what the watchdog reports.
std::array<std::atomic<std::size_t>, 16> in_next{};
std::atomic<std::uint64_t> nexts_done{0};

// rayon's once_with(|| rayon::join(|| i, || i.to_string())): one item, made by a join when it is
// read, i.e. under the bridge's lock.
struct JoinOnce {
    struct iterator {
        using value_type = std::pair<std::size_t, std::string>;
        using difference_type = std::ptrdiff_t;
        std::size_t i = 0;
        bool end = true;
        value_type operator*() const {
            const std::size_t w = mini::WorkerThread::current()->index();
            in_next[w % in_next.size()] = i + 1;
            auto [a, b] = mini::join([&] { return i; }, [&] { return std::to_string(i); });
            in_next[w % in_next.size()] = 0;
            ++nexts_done;
            return {a, std::move(b)};
        }
        iterator& operator++() { end = true; return *this; }
        void operator++(int) { ++*this; }
        bool operator==(const iterator& o) const { return end == o.end; }
    };
    std::size_t i = 0;
    iterator begin() const { return {i, false}; }
    iterator end() const { return {i, true}; }
};

std::string who_holds_a_bridge_lock() {
    std::string out;
    for (std::size_t w = 0; w < in_next.size(); ++w)
        if (std::size_t i = in_next[w].load(); i > 0)
            out += "worker " + std::to_string(w) + " holds the par_bridge's lock of item " + std::to_string(i - 1) +
                   ": it entered the iterator's next() (which uses the pool) and has not returned. ";
    return out.empty() ? "no worker is inside a par_bridge's next()" : out;
}

// Items 0..n-1; reading one runs, under the bridge's lock, every job of the reader's own deque
// (yield_local): on a one-thread pool those are the other pieces of the same bridge, which the
// bridge pushed before its first leaf took the lock. The forced form of rayon #690.
struct YieldingRange {
    struct iterator {
        using value_type = std::size_t;
        using difference_type = std::ptrdiff_t;
        std::size_t i = 0;
        std::size_t operator*() const {
            const std::size_t w = mini::WorkerThread::current()->index();
            in_next[w % in_next.size()] = i + 1;
            while (mini::yield_local() == mini::Yield::executed) {}
            in_next[w % in_next.size()] = 0;
            ++nexts_done;
            return i;
        }
        iterator& operator++() { ++i; return *this; }
        void operator++(int) { ++*this; }
        bool operator==(const iterator& o) const { return i == o.i; }
    };
    std::size_t n = 0;
    iterator begin() const { return {0}; }
    iterator end() const { return {n}; }
};

using Res = mini::Result<std::uint64_t, std::string>;
using Done = mini::Result<std::monostate, std::string>;

} // namespace

// rayon: check_sum_filtermap_ints, and the same on every size.
TEST_CASE("filter_map gives the sequential answer", "[unindexed][order]") {
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

// A leaf's storage grows without moving what it holds (consumers.hpp, ListVecFolder): rayon's
// Vec grows by realloc, which moves nothing; a std::vector grown by push_back moves what it holds
// at each doubling, about once more per item (3,022 moves here instead of 2,000).
TEST_CASE("collect_vec after a filter moves each item once into its leaf and once into the result",
          "[unindexed]") {
    struct Moved {
        std::uint64_t value;
        std::atomic<std::uint64_t>* moves;
        Moved(std::uint64_t v, std::atomic<std::uint64_t>* m) : value(v), moves(m) {}
        Moved(const Moved&) = delete;
        Moved(Moved&& o) noexcept : value(o.value), moves(o.moves) { moves->fetch_add(1); }
        Moved& operator=(Moved&& o) noexcept {
            value = o.value, moves = o.moves;
            moves->fetch_add(1);
            return *this;
        }
    };
    test::Pool pool(1);
    std::atomic<std::uint64_t> moves{0};
    const auto all = pool.install([&] {
        return mini::par_range(std::uint64_t{0}, std::uint64_t{1000})
            .filter_map([&](std::uint64_t i) { return std::optional<Moved>(std::in_place, i, &moves); })
            .collect_vec();
    });
    REQUIRE(all.size() == 1000);
    for (std::size_t i = 0; i < all.size(); ++i) REQUIRE(all[i].value == i);
    CHECK(moves.load() == 2 * 1000); // out of each optional into the leaf, then into the result
}

// The leaf's blocks double up to 64 KiB and stay there (ListVecFolder::max_block): blocks of one
// size, which a later call can reuse, instead of new sizes that need fresh pages (chapter 14.5).
TEST_CASE("a leaf's vectors double up to 64 KiB, then stay that size", "[unindexed]") {
    test::Pool pool(1);
    constexpr std::size_t block = (64 << 10) / sizeof(std::uint64_t);
    const auto parts = pool.install([] {
        return mini::par_range(std::uint64_t{0}, std::uint64_t{100'000})
            .filter_map([](std::uint64_t i) { return std::optional(i); })
            .drive_unindexed(mini::iter::current_pool(), mini::iter::ListVecConsumer<std::uint64_t>{});
    });
    std::size_t total = 0, full_of_block = 0;
    for (const auto& part : parts) {
        REQUIRE(part.capacity() <= block);
        total += part.size();
        full_of_block += part.size() == block;
    }
    CHECK(total == 100'000);
    CHECK(full_of_block >= 100'000 / block - 2); // the leaves' last blocks may be partly full
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
TEST_CASE("fold stops its leaf when the consumer after it is full", "[unindexed][full]") {
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

TEST_CASE("map_init, map_with, for_each_init and for_each_with give the sequential answer", "[unindexed][order]") {
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

// rayon's try_for_each, try_reduce and try_fold doctests (iter/mod.rs), and each on every size.
TEST_CASE("try_for_each gives the first failure or success", "[unindexed]") {
    on_1_2_4([] {
        for (std::size_t n : sizes) {
            INFO("n = " << n);
            std::atomic<std::size_t> seen{0};
            auto ok = mini::par_range(std::uint64_t{0}, std::uint64_t{n}).try_for_each([&](std::uint64_t) {
                ++seen;
                return std::optional<std::monostate>(std::monostate{});
            });
            CHECK(ok.has_value());
            CHECK(seen.load() == n);
            auto failed = mini::par_range(std::uint64_t{0}, std::uint64_t{n}).try_for_each([n](std::uint64_t x) -> Done {
                if (x == n * 3 / 4) return mini::err("failed at " + std::to_string(x));
                return std::monostate{};
            });
            CHECK(failed.ok() == (n == 0));
            if (n > 0) CHECK(failed.error() == "failed at " + std::to_string(n * 3 / 4));
        }
    });
}

TEST_CASE("try_reduce gives the reduction or the first failure", "[unindexed]") {
    on_1_2_4([] {
        const std::vector<std::uint64_t> numbers{1, 2, 3, 4, 5, 6};
        auto sum_squares = mini::par_iter(numbers)
                               .map([](std::uint64_t x) { return std::optional(x * x); })
                               .try_reduce([] { return std::uint64_t{0}; }, [](std::uint64_t a, std::uint64_t b) { return std::optional(a + b); });
        CHECK(sum_squares == std::optional<std::uint64_t>(91));
        for (std::size_t n : sizes) {
            INFO("n = " << n);
            auto sum = mini::par_range(std::uint64_t{0}, std::uint64_t{n})
                           .map([](std::uint64_t x) { return Res(x); })
                           .try_reduce([] { return std::uint64_t{0}; }, [](std::uint64_t a, std::uint64_t b) { return Res(a + b); });
            CHECK((sum.ok() && *sum == n * (n - (n > 0)) / 2));
            // op itself fails once the sum passes 1000
            auto capped = mini::par_range(std::uint64_t{0}, std::uint64_t{n})
                              .map([](std::uint64_t x) { return std::optional(x); })
                              .try_reduce([] { return std::uint64_t{0}; }, [](std::uint64_t a, std::uint64_t b) {
                                  return a + b > 1000 ? std::nullopt : std::optional(a + b);
                              });
            CHECK(capped.has_value() == (n * (n - (n > 0)) / 2 <= 1000));
        }
    });
}

TEST_CASE("try_fold stops its own leaf, try_reduce after it the others", "[unindexed]") {
    on_1_2_4([] {
        for (std::size_t n : sizes) {
            INFO("n = " << n);
            auto total = mini::par_range(std::uint64_t{0}, std::uint64_t{n})
                             .try_fold([] { return std::uint64_t{0}; }, [](std::uint64_t a, std::uint64_t x) { return Res(a + x); })
                             .try_reduce([] { return std::uint64_t{0}; }, [](std::uint64_t a, std::uint64_t b) { return Res(a + b); });
            CHECK((total.ok() && *total == n * (n - (n > 0)) / 2));
            auto failed = mini::par_range(std::uint64_t{0}, std::uint64_t{n})
                              .try_fold([] { return std::uint64_t{0}; }, [n](std::uint64_t a, std::uint64_t x) {
                                  return x + 1 == n ? Res(mini::err(std::string("last"))) : Res(a + x);
                              })
                              .try_reduce([] { return std::uint64_t{0}; }, [](std::uint64_t a, std::uint64_t b) { return Res(a + b); });
            CHECK(failed.ok() == (n == 0));
        }
    });
}

// An error at the very start must stop every other leaf: without the shared flag the others
// read 2^62 items each (TRY_NO_FULL: the watchdog's exit 3).
TEST_CASE("try_for_each over 2^62 integers with an error at the start returns: the octillion test", "[unindexed][try_full]") {
    auto dog = octillion_dog("the octillion try_for_each");
    const auto r = mini::par_range(std::uint64_t{0}, octillion).try_for_each([](std::uint64_t x) -> Done {
        if (x == 0) return mini::err(std::string("the first item"));
        return std::monostate{};
    });
    REQUIRE_FALSE(r.ok());
    CHECK(r.error() == "the first item");
}

TEST_CASE("collect<C> into vectors, maps, sets and strings gives the sequential answer", "[unindexed][order]") {
    on_1_2_4([] {
        for (std::size_t n : sizes) {
            INFO("n = " << n);
            auto v = iota_vec(n);
            CHECK(mini::par_iter(v).collect<std::vector<std::uint64_t>>() == v);
            auto odd = [](std::uint64_t x) { return x % 2 == 1; };
            std::vector<std::uint64_t> odds;
            std::copy_if(v.begin(), v.end(), std::back_inserter(odds), odd);
            CHECK(mini::par_iter(v).filter(odd).collect<std::vector<std::uint64_t>>() == odds);
            // keys repeat: the last value of each key wins, as a sequential insert_or_assign
            auto pair = [](std::uint64_t x) { return std::pair(x % 100, x); };
            std::map<std::uint64_t, std::uint64_t> m;
            std::unordered_map<std::uint64_t, std::uint64_t> um;
            for (auto x : v) m.insert_or_assign(x % 100, x), um.insert_or_assign(x % 100, x);
            CHECK(mini::par_iter(v).map(pair).collect<std::map<std::uint64_t, std::uint64_t>>() == m);
            CHECK(mini::par_iter(v).map(pair).collect<std::unordered_map<std::uint64_t, std::uint64_t>>() == um);
            CHECK(mini::par_iter(v).map([](auto x) { return x % 37; }).collect<std::set<std::uint64_t>>() ==
                  std::set<std::uint64_t>(v.begin(), v.end() - (n > 37 ? n - 37 : 0)));
            std::string chars, words;
            for (auto x : v) chars.push_back(char('a' + x % 26)), words += std::to_string(x % 10) + ",";
            CHECK(mini::par_iter(v).map([](auto x) { return char('a' + x % 26); }).collect<std::string>() == chars);
            CHECK(mini::par_iter(v).map([](auto x) { return std::to_string(x % 10) + ","; }).collect<std::string>() == words);
        }
    });
}

// rayon: src/option.rs and src/result.rs: collect into Option<Vec<T>> / Result<Vec<T>, E>.
TEST_CASE("collect<C> into optional<vector> and Result<vector> stops at the first break", "[unindexed][order]") {
    on_1_2_4([] {
        for (std::size_t n : sizes) {
            INFO("n = " << n);
            auto v = iota_vec(n);
            auto all = mini::par_iter(v).map([](std::uint64_t x) { return std::optional(x); }).collect<std::optional<std::vector<std::uint64_t>>>();
            CHECK(all == std::optional(v));
            auto some = mini::par_iter(v).map([n](std::uint64_t x) { return x == n / 2 ? std::nullopt : std::optional(x); })
                            .collect<std::optional<std::vector<std::uint64_t>>>();
            CHECK(some.has_value() == (n == 0));
            auto ok = mini::par_iter(v).map([](std::uint64_t x) { return Res(x); }).collect<mini::Result<std::vector<std::uint64_t>, std::string>>();
            CHECK((ok.ok() && *ok == v));
            auto bad = mini::par_iter(v).map([n](std::uint64_t x) { return x == n / 3 ? Res(mini::err(std::string("bad"))) : Res(x); })
                           .collect<mini::Result<std::vector<std::uint64_t>, std::string>>();
            CHECK(bad.ok() == (n == 0));
            if (n > 0) CHECK(bad.error() == "bad");
        }
    });
}

// rayon: check_extend_items, check_extend_pairs.
TEST_CASE("par_extend appends in order to vectors, sets and maps", "[unindexed][order]") {
    on_1_2_4([] {
        std::vector<int> v(128);
        std::iota(v.begin(), v.end(), 0);
        std::vector<int> serial{-1, -2}, parallel{-1, -2};
        serial.insert(serial.end(), v.begin(), v.end());
        mini::par_extend(parallel, mini::par_iter(v));
        CHECK(parallel == serial);
        for (int i = -128; i < 0; ++i) serial.push_back(i);
        mini::par_extend(parallel, mini::par_range(-128, 0));
        CHECK(parallel == serial);
        for (int i = 0; i < 128; ++i) if (i % 3 == 0) serial.push_back(i);
        mini::par_extend(parallel, mini::par_iter(v).filter([](int x) { return x % 3 == 0; }));
        CHECK(parallel == serial);
        std::set<int> s{1000};
        mini::par_extend(s, mini::par_iter(v));
        CHECK(s.size() == 129);
        std::unordered_set<int> us;
        mini::par_extend(us, mini::par_range(-128, 0));
        CHECK(us.size() == 128);
        std::map<int, int> m;
        mini::par_extend(m, mini::par_iter(v).map([](int x) { return std::pair(x, x * x); }));
        CHECK((m.size() == 128 && m[11] == 121));
    });
}

// rayon: check_unzip, check_partition, check_partition_map.
TEST_CASE("unzip, partition and partition_map give the sequential answer", "[unindexed][order]") {
    on_1_2_4([] {
        for (std::size_t n : sizes) {
            INFO("n = " << n);
            auto v = iota_vec(n);
            std::vector<std::uint64_t> idx, sq, thirds, rest;
            for (auto x : v) idx.push_back(x), sq.push_back(x * x), (x % 3 == 0 ? thirds : rest).push_back(x);
            auto squares = mini::par_iter(v).map([](std::uint64_t x) { return x * x; });
            auto [a, b] = squares.enumerate().unzip();
            CHECK((a == std::vector<std::size_t>(idx.begin(), idx.end()) && b == sq));
            auto [c, d] = squares.enumerate().unzip<std::unordered_set<std::size_t>, std::vector<std::uint64_t>>();
            CHECK((c.size() == n && d == sq));
            auto [e, f] = mini::par_iter(v).filter_map([](std::uint64_t x) { return std::optional(std::pair(x, x * x)); }).unzip();
            CHECK((e == v && f == sq));
            auto [g, h] = mini::par_iter(v).partition([](std::uint64_t x) { return x % 3 == 0; });
            CHECK((g == thirds && h == rest));
        }
        const std::vector<std::string> input{"a", "b", "c", "1", "2", "3", "x", "y", "z"};
        auto [nums, letters] = mini::par_iter(input).partition_map<std::vector<int>, std::string>(
            [](const std::string& s) -> std::variant<int, std::string> {
                if (s[0] >= '0' && s[0] <= '9') return std::stoi(s);
                return s;
            });
        CHECK(nums == std::vector<int>{1, 2, 3});
        CHECK(letters == "abcxyz");
    });
}

TEST_CASE("par_bridge gives every item once, from iterators and ranges", "[unindexed]") {
    on_1_2_4([] {
        for (std::size_t n : sizes) {
            INFO("n = " << n);
            auto v = iota_vec(n);
            auto got = mini::par_bridge(v.begin(), v.end()).collect_vec();
            std::sort(got.begin(), got.end());
            CHECK(got == v);
            CHECK(mini::par_bridge(v).map([](std::uint64_t x) { return x * 2; }).sum() == n * (n - (n > 0)));
            CHECK(mini::par_bridge(Counting{0}, Counting{n}).count() == n);
        }
        // rayon's doctest: lines of a std::istream
        std::stringstream in;
        for (int i = 0; i < 1000; ++i) in << "line " << i << "\n";
        std::set<std::string> lines;
        for (auto& l : mini::par_bridge(std::istream_iterator<std::string>(in), std::istream_iterator<std::string>()).collect_vec()) lines.insert(l);
        CHECK(lines.size() == 1001); // "line" and the 1000 numbers
    });
}

// An endless range: only full() ends the bridge's leaves.
TEST_CASE("par_bridge over an endless range stops at find_any's full()", "[unindexed][full]") {
    on_1_2_4([] {
        for (std::uint64_t n : {0, 1, 1000, 100000}) {
            auto found = mini::par_bridge(Counting{0}, Endless{}).find_any([n](std::uint64_t x) { return x == n; });
            CHECK(found == std::optional<std::uint64_t>(n));
        }
    });
}

// The guard, forced: one thread, so the other pieces of the bridge wait in the reader's own deque,
// and next() runs them while it holds the lock. Each returns at once (this worker has been here);
// without the guard the first locks again and the thread waits for itself (BRIDGE_NO_GUARD: the
// watchdog's exit 3 names the lock).
TEST_CASE("par_bridge: a worker inside next() that reaches the same bridge again does not block on itself",
          "[unindexed][bridge_guard]") {
    test::Pool pool(1);
    mini::Watchdog dog("the par_bridge whose next() runs its own pieces", test::watchdog_time,
                       [] { return nexts_done.load(); }, [] { return who_holds_a_bridge_lock(); });
    pool.install([] {
        auto got = mini::par_bridge(YieldingRange{100}).collect_vec();
        std::sort(got.begin(), got.end());
        std::vector<std::size_t> expected(100);
        std::iota(expected.begin(), expected.end(), std::size_t{0});
        CHECK(got == expected);
    });
}

// rayon: tests/par_bridge_recursion.rs. The bridge's iterator joins under the bridge's lock;
// while its worker waits for the stolen half it may run another piece of the same bridge, which
// without the guard locks again and deadlocks (rayon #690; BRIDGE_NO_GUARD: the watchdog's
// exit 3 names the lock).
TEST_CASE("par_bridge over an iterator that joins: the recursion test", "[unindexed][bridge_guard]") {
#if defined(__SANITIZE_THREAD__) || defined(__SANITIZE_ADDRESS__)
    constexpr std::size_t N = 10000; // rayon's 100000 is over two minutes under TSan on two cores
#else
    constexpr std::size_t N = 100000; // rayon's
#endif
    std::vector<std::pair<std::size_t, std::string>> seq;
    for (std::size_t i = 0; i < N; ++i) seq.emplace_back(i, std::to_string(i));
    test::Pool pool(10);
    mini::Watchdog dog("the par_bridge recursion", test::watchdog_time, [] { return nexts_done.load(); },
                       [] { return who_holds_a_bridge_lock(); });
    auto results = pool.broadcast([&](mini::BroadcastContext) {
        auto par = mini::par_range(std::size_t{0}, N)
                       .flat_map([](std::size_t i) { return mini::par_bridge(JoinOnce{i}); })
                       .collect_vec();
        std::sort(par.begin(), par.end());
        return par == seq;
    });
    for (bool same : results) CHECK(same);
}

// par_bridge's batch (mini's, not rayon's: rayon takes one item per lock). A leaf takes one item
// per visit to the lock until it finds the lock taken; then it doubles what it takes per visit.
namespace {

struct BridgeEvent {
    std::size_t worker;
    char kind; // 't': taken under the lock (operator*), 'c': consumed (the map)
    std::size_t item;
};

struct BridgeLog {
    std::mutex m;
    std::vector<BridgeEvent> events;
    std::atomic<std::size_t> count{0}; // events.size(), for the watchdog
    void add(char kind, std::size_t item) {
        std::lock_guard lock(m);
        events.push_back({mini::WorkerThread::current()->index(), kind, item});
        ++count;
    }
    bool has(char kind, std::size_t item) {
        std::lock_guard lock(m);
        return std::any_of(events.begin(), events.end(), [&](const BridgeEvent& e) { return e.kind == kind && e.item == item; });
    }
    // The kinds of one worker's events, in order, as "t0 c0 t1 c1".
    std::string of(std::size_t worker) {
        std::lock_guard lock(m);
        std::string s;
        for (const auto& e : events)
            if (e.worker == worker) {
                if (!s.empty()) s += ' ';
                s += e.kind;
                s += std::to_string(e.item);
            }
        return s;
    }
};

// Items 0..n-1; operator* logs the take, then calls `hook` (under the bridge's lock).
struct LoggedRange {
    BridgeLog* log;
    std::size_t n;
    std::function<void()> hook;
    struct iterator {
        using value_type = std::size_t;
        using difference_type = std::ptrdiff_t;
        const LoggedRange* r = nullptr;
        std::size_t i = 0;
        std::size_t operator*() const {
            r->log->add('t', i);
            if (r->hook) r->hook();
            return i;
        }
        iterator& operator++() { return ++i, *this; }
        void operator++(int) { ++i; }
        bool operator==(const iterator& o) const { return i == o.i; }
    };
    iterator begin() const { return {this, 0}; }
    iterator end() const { return {this, n}; }
};

} // namespace

TEST_CASE("par_bridge: a leaf that never finds the lock taken takes one item per visit", "[unindexed]") {
    test::Pool pool(1); // one worker: nobody else ever holds the lock
    BridgeLog log;
    const LoggedRange range{&log, 6, {}};
    pool.install([&] {
        mini::par_bridge(range).for_each([&](std::size_t i) { log.add('c', i); });
    });
    CHECK(log.of(0) == "t0 c0 t1 c1 t2 c2 t3 c3 t4 c4 t5 c5");
}

// Forced, by roles rather than items (a leaf's first visit may already have found the lock taken):
// X is the worker that consumes first; it waits there until the other worker, Y, has consumed an
// item too, so both are in the bridge. Y waits in that consume until X's next take, which holds
// the lock and waits until Y is blocked in the kernel (on the bridge's mutex: the only thing Y can
// wait on there). X then waits in its consume until Y has taken again. Y found the lock taken, so
// that visit takes at least two items before it consumes either.
TEST_CASE("par_bridge: a leaf that finds the lock taken takes two items on its next visit", "[unindexed]") {
    test::Pool pool(2);
    BridgeLog log;
    constexpr std::size_t none = ~std::size_t{0};
    std::atomic<std::size_t> x{none}, y{none}, y_takes_before{none};
    std::atomic<bool> x_holds_lock{false};
    std::atomic<pid_t> y_tid{0};
    const auto me = [] { return mini::WorkerThread::current()->index(); };
    const auto takes_of = [&](std::size_t w) {
        const std::string e = log.of(w);
        return static_cast<std::size_t>(std::count(e.begin(), e.end(), 't'));
    };
    mini::Watchdog dog("the forced par_bridge contention", test::watchdog_time, [&] { return log.count.load(); }, [&] {
        return "X is worker " + std::to_string(x.load()) + ": " + log.of(0) + " / " + log.of(1) + "; Y's thread state " +
               (y_tid.load() ? std::string(1, test::thread_state(y_tid.load())) : "?");
    });
    const LoggedRange range{&log, 64, [&] {
                                // X's first take once Y has consumed: X holds the lock
                                if (y.load() == none || me() != x.load() || x_holds_lock.exchange(true)) return;
                                y_takes_before = takes_of(y.load());
                                while (y_tid.load() == 0 || test::thread_state(y_tid.load()) != 'S') std::this_thread::yield();
                            }};
    std::atomic<bool> x_waited_for_y_take{false};
    pool.install([&] {
        mini::par_bridge(range).for_each([&](std::size_t i) {
            log.add('c', i);
            std::size_t expected = none;
            if (x.compare_exchange_strong(expected, me())) { // X's first consume
                while (y.load() == none) std::this_thread::yield();
            } else if (me() != x.load() && y.load() == none) { // Y's first consume
                y_tid = test::thread_id();
                y = me();
                while (!x_holds_lock.load()) std::this_thread::yield();
            } else if (me() == x.load() && x_holds_lock.load() && !x_waited_for_y_take.exchange(true)) {
                while (takes_of(y.load()) == y_takes_before.load()) std::this_thread::yield(); // Y takes next
            }
        });
    });
    INFO("X is worker " << x.load() << ": " << log.of(x.load()) << "; Y: " << log.of(y.load()));
    REQUIRE(y_takes_before.load() != none);
    // Y's events from its first take after blocking: "tA tB ..." with no consume between.
    std::vector<std::string> ys;
    {
        std::istringstream in(log.of(y.load()));
        for (std::string e; in >> e;) ys.push_back(e);
    }
    std::size_t takes = 0, at = 0;
    while (at < ys.size() && takes < y_takes_before.load()) takes += ys[at++][0] == 't';
    while (at < ys.size() && ys[at][0] != 't') ++at; // the consumes of the visit before
    REQUIRE(at + 1 < ys.size());
    CHECK(ys[at + 1][0] == 't');
}
