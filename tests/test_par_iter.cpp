// Parallel iterators (chapter 11): every terminal against the sequential answer, on one, two and
// three threads, inside a pool and from outside; collect's ownership when a closure throws; the
// short-circuit of find_any, any and all; and rayon's own tests where they apply (tests/
// octillion.rs, tests/collect.rs, src/iter/collect/test.rs, src/iter/test.rs).
//
// Tags: [order] needs the reducer's left-before-right (REDUCE_SWAPPED breaks it), [collect] needs
// collect's release (COLLECT_NO_RELEASE), [octillion] needs full() (IGNORE_FULL), [adaptive] the
// migrated flag (IGNORE_MIGRATED).
#include <mini/par.hpp>
#include <instrument/watchdog.hpp>

#include <catch2/catch.hpp>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <memory>
#include <numeric>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "helpers.hpp"

namespace {

const std::size_t sizes[] = {0, 1, 2, 3, 17, 1000, 100000};

std::vector<std::uint64_t> iota_vec(std::size_t n) {
    std::vector<std::uint64_t> v(n);
    std::iota(v.begin(), v.end(), std::uint64_t{0});
    return v;
}

// Runs `body` inside a pool of each size and from outside any pool (the global pool).
template <class Body>
void everywhere(Body body) {
    for (std::size_t threads : {1, 2, 3}) {
        test::Pool pool(threads);
        INFO("inside a pool of " << threads << " threads");
        pool.install(body);
    }
    INFO("from outside any pool");
    body();
}

// A value that counts the values made and destroyed; a moved-from shell is not a value (a Rust
// move runs no drop, and rayon's tests count drops).
struct Counted {
    static inline std::atomic<std::size_t> made{0}, dropped{0};
    std::uint64_t value;
    bool owns = true;
    explicit Counted(std::uint64_t v) : value(v) { ++made; }
    Counted(Counted&& other) noexcept : value(other.value), owns(std::exchange(other.owns, false)) {}
    Counted(const Counted&) = delete;
    Counted& operator=(const Counted&) = delete;
    Counted& operator=(Counted&&) = delete;
    ~Counted() {
        if (owns) ++dropped;
    }
    static void reset() { made = 0, dropped = 0; }
};

// The octillion tests' watchdog: the call is one step, so progress never moves; a find_any that
// reads its whole piece ends the test with exit 3.
mini::Watchdog octillion_dog(const char* what) {
    return mini::Watchdog(what, test::watchdog_time, [] { return std::uint64_t{0}; },
                          [] { return std::string("the call has not returned"); });
}

// A consumer whose result lists the lengths of its leaves, in order: the pieces the bridge made.
struct LeafLengths {
    using Result = std::vector<std::size_t>;
    struct Folder {
        using Result = std::vector<std::size_t>;
        std::size_t n = 0;
        void consume(const auto&) { ++n; }
        bool full() const { return false; }
        Result complete() && { return {n}; }
    };
    struct Concat {
        Result reduce(Result a, Result b) const {
            a.insert(a.end(), b.begin(), b.end());
            return a;
        }
    };
    std::tuple<LeafLengths, LeafLengths, Concat> split_at(std::size_t) const { return {}; }
    LeafLengths split_off_left() const { return {}; }
    Concat to_reducer() const { return {}; }
    Folder into_folder() const { return {}; }
    bool full() const { return false; }
};
static_assert(mini::iter::UnindexedConsumer<LeafLengths, std::size_t>);
static_assert(mini::iter::Producer<mini::iter::RangeProducer<std::size_t>>);
static_assert(mini::iter::UnindexedProducer<mini::iter::UnindexedRangeProducer<mini::iter::u128>>);

constexpr std::uint64_t octillion = std::uint64_t{1} << 62; // as many as fit; rayon's is 10^27

} // namespace

TEST_CASE("sum, reduce, count and for_each give the sequential answer", "[par_iter]") {
    everywhere([] {
        for (std::size_t n : sizes) {
            INFO("n = " << n);
            auto v = iota_vec(n);
            const std::uint64_t squares = std::accumulate(
                v.begin(), v.end(), std::uint64_t{0}, [](auto s, auto x) { return s + x * x; });
            CHECK(mini::par_iter(v).sum() == n * (n - (n > 0)) / 2);
            CHECK(mini::par_iter(v).map([](std::uint64_t x) { return x * x; }).sum() == squares);
            CHECK(mini::par_iter(v).reduce([] { return std::uint64_t{0}; },
                                          [](std::uint64_t a, std::uint64_t b) { return a + b; }) ==
                  n * (n - (n > 0)) / 2);
            CHECK(mini::par_iter(v).count() == n);
            CHECK(mini::par_iter(v).filter([](auto x) { return x % 3 == 0; }).count() ==
                  (n + 2) / 3);
            std::vector<std::atomic<int>> seen(n);
            mini::par_iter(v).for_each([&](std::uint64_t x) { ++seen[x]; });
            CHECK(test::count_not_once(seen) == 0);
        }
    });
}

TEST_CASE("find_any, any and all give the sequential answer", "[par_iter]") {
    everywhere([] {
        for (std::size_t n : sizes) {
            INFO("n = " << n);
            auto v = iota_vec(n);
            const auto found = mini::par_iter(v).find_any([n](auto x) { return x == n / 2; });
            CHECK(found.has_value() == (n > 0));
            if (found) CHECK(*found == n / 2);
            CHECK_FALSE(mini::par_iter(v).find_any([](auto x) { return x == ~0ull; }).has_value());
            CHECK(mini::par_iter(v).any([n](auto x) { return x + 1 == n; }) == (n > 0));
            CHECK_FALSE(mini::par_iter(v).any([n](auto x) { return x >= n; }));
            CHECK(mini::par_iter(v).all([n](auto x) { return x < n; }));
            CHECK(mini::par_iter(v).all([](auto x) { return x != 1; }) == (n < 2));
            // find_any may return any match, but a match
            const auto odd = mini::par_iter(v).find_any([](auto x) { return x % 2 == 1; });
            CHECK(odd.has_value() == (n > 1));
            if (odd) CHECK(*odd % 2 == 1);
        }
    });
}

TEST_CASE("collect_vec keeps the order, after map and after filter", "[par_iter][order][collect]") {
    everywhere([] {
        for (std::size_t n : sizes) {
            INFO("n = " << n);
            auto v = iota_vec(n);
            const auto strings =
                mini::par_iter(v).map([](std::uint64_t x) { return std::to_string(x); }).collect_vec();
            REQUIRE(strings.size() == n);
            for (std::size_t i = 0; i < n; ++i) REQUIRE(strings[i] == std::to_string(i));
            const auto odd = mini::par_iter(v).filter([](auto x) { return x % 2 == 1; }).collect_vec();
            REQUIRE(odd.size() == n / 2);
            for (std::size_t i = 0; i < odd.size(); ++i) REQUIRE(odd[i] == 2 * i + 1);
            CHECK(mini::par_range(std::size_t{0}, n).collect_vec() == v);
        }
    });
}

TEST_CASE("enumerate pairs each item with its index and writes through to the element",
          "[par_iter][order][collect]") {
    everywhere([] {
        for (std::size_t n : sizes) {
            std::vector<std::uint64_t> v(n, 7);
            mini::par_iter(v).enumerate().for_each([](auto&& item) {
                auto&& [i, x] = item;
                x = 3 * i;
            });
            for (std::size_t i = 0; i < n; ++i) REQUIRE(v[i] == 3 * i);
            const auto pairs = mini::par_iter(std::as_const(v))
                                   .enumerate()
                                   .map([](auto&& item) { return item.first + item.second; })
                                   .collect_vec();
            for (std::size_t i = 0; i < n; ++i) REQUIRE(pairs[i] == 4 * i);
        }
    });
}

// One thread inside its pool: no steal, so the tree is fixed; with_max_len(1) makes a leaf of
// every item and a reduce at every level.
TEST_CASE("a non-commutative reduce keeps left before right", "[par_iter][order]") {
    test::Pool pool(1);
    const std::string joined = pool.install([] {
        return mini::par_range(0, 8).with_max_len(1).map([](int i) { return std::to_string(i); })
            .reduce([] { return std::string(); }, [](std::string a, std::string b) { return a + b; });
    });
    CHECK(joined == "01234567");
}

// A trivially copyable value type takes collect_in_place: the leaves write into the returned
// vector's own elements, which resize created first (collect.hpp). Under the asan preset
// (_GLIBCXX_SANITIZE_VECTOR) a write into the vector's spare capacity is a container-overflow.
TEST_CASE("collect_vec of numbers writes into the vector it returns, and a throw frees it",
          "[par_iter][collect]") {
    everywhere([] {
        const auto v = iota_vec(100000); // 196 pages of 4 KiB
        auto square = [](std::uint64_t x) { return x * x; };
        const auto squares = mini::par_iter(v).map(square).collect_vec();
        REQUIRE(squares.size() == v.size());
        for (std::size_t i = 0; i < v.size(); ++i) REQUIRE(squares[i] == i * i);
        CHECK_THROWS_WITH(mini::par_iter(v).map([](std::uint64_t x) {
            if (x == 77777) throw std::runtime_error("boom");
            return x;
        }).collect_vec(), "boom");
    });
}

TEST_CASE("collect_vec merges its pieces left before right", "[par_iter][order]") {
    test::Pool pool(1);
    std::vector<int> v;
    REQUIRE_NOTHROW(v = pool.install([] { return mini::par_range(0, 8).with_max_len(1).collect_vec(); }));
    CHECK(v == std::vector<int>{0, 1, 2, 3, 4, 5, 6, 7});
}

TEST_CASE("sources: const vectors, spans and integer ranges", "[par_iter]") {
    everywhere([] {
        std::vector<int> v{5, -3, 8, 1};
        const std::vector<int>& cv = v;
        CHECK(mini::par_iter(cv).sum() == 11);
        CHECK(mini::par_iter(std::span<const int>(v)).map([](const int& x) { return 2 * x; }).sum() == 22);
        mini::par_iter(std::span<int>(v)).for_each([](int& x) { x = -x; });
        CHECK(v == std::vector<int>{-5, 3, -8, -1});
        CHECK(mini::par_range(-10, 10).sum() == -10);
        CHECK(mini::par_range(10, -10).count() == 0);
        CHECK(mini::par_range(std::int8_t{-128}, std::int8_t{127}).count() == 255);
        CHECK(mini::par_range(std::int8_t{-128}, std::int8_t{127}).map([](std::int8_t x) { return int{x}; }).sum() == -255); // -128 + ... + 126
        CHECK(mini::par_range(INT64_MIN, INT64_MAX).find_any([](std::int64_t x) { return x == INT64_MIN + 5; }) ==
              std::optional<std::int64_t>(INT64_MIN + 5));
        CHECK(mini::par_range(std::uint64_t{1}, std::uint64_t{1001}).sum() == 500500);
    });
}

TEST_CASE("with_min_len and with_max_len bound the pieces", "[par_iter]") {
    test::Pool pool(2);
    for (std::size_t bound : {1, 7, 100, 5000}) {
        INFO("bound " << bound);
        const auto range = mini::par_range(std::size_t{0}, std::size_t{10000});
        const auto min_lens = range.with_min_len(bound).drive(pool, LeafLengths{});
        CHECK(std::accumulate(min_lens.begin(), min_lens.end(), std::size_t{0}) == 10000);
        CHECK(*std::min_element(min_lens.begin(), min_lens.end()) >= bound);
        const auto max_lens = range.with_max_len(bound).drive(pool, LeafLengths{});
        CHECK(std::accumulate(max_lens.begin(), max_lens.end(), std::size_t{0}) == 10000);
        CHECK(*std::max_element(max_lens.begin(), max_lens.end()) <= bound);
    }
}

// rayon's LengthSplitter::new divides by max(max, 1) (plumbing/mod.rs:308-326): a max of 0 splits
// as a max of 1 does, down to one-item pieces, not as no max at all.
TEST_CASE("with_max_len(0) splits as with_max_len(1) does in rayon",
          "[par_iter]") {
    test::Pool pool(1);
    const auto range = mini::par_range(0, 8);
    const std::vector<std::size_t> ones(8, 1);
    CHECK(pool.install([&] { return range.with_max_len(0).drive(pool, LeafLengths{}); }) == ones);
    CHECK(pool.install([&] { return range.with_max_len(1).drive(pool, LeafLengths{}); }) == ones);
}

TEST_CASE("par_iter's leaves are the Splitter's: one thread, 8 from outside and 2 inside",
          "[par_iter][adaptive]") {
    // Chapter 4's counts (splits' row "run 4: outside 8 inside 2"), through the new bridge.
    test::Pool pool(1);
    const auto range = mini::par_range(std::size_t{0}, std::size_t{1} << 20);
    for (int run = 0; run < 5; ++run) {
        CHECK(range.drive(pool, LeafLengths{}).size() == 8);
        CHECK(pool.install([&] { return range.drive(pool, LeafLengths{}).size(); }) == 2);
    }
}

TEST_CASE("a terminal runs on the calling worker's pool, else on the global pool", "[par_iter]") {
    test::Pool pool(2);
    auto pools_seen = [] {
        std::atomic<int> other{0};
        std::atomic<const mini::ThreadPool*> seen{nullptr};
        mini::par_range(0, 1000).for_each([&](int) {
            const mini::ThreadPool* p = &mini::WorkerThread::current()->pool();
            const mini::ThreadPool* expected = nullptr;
            if (!seen.compare_exchange_strong(expected, p) && expected != p) ++other;
        });
        CHECK(other == 0);
        return seen.load();
    };
    CHECK(pool.install(pools_seen) == &pool);
    CHECK(pools_seen() == &mini::ThreadPool::global());
}

TEST_CASE("an exception thrown by a closure comes out of the terminal", "[par_iter]") {
    everywhere([] {
        auto v = iota_vec(10000);
        auto boom = [](std::uint64_t x) {
            if (x == 7777) throw std::runtime_error("boom at 7777");
            return x;
        };
        CHECK_THROWS_WITH(mini::par_iter(v).map(boom).sum(), "boom at 7777");
        CHECK_THROWS_WITH(mini::par_iter(v).for_each([&](auto x) { boom(x); }), "boom at 7777");
        CHECK_THROWS_WITH(mini::par_iter(v).find_any([&](auto x) { return boom(x) == ~0ull; }),
                          "boom at 7777");
        CHECK_THROWS_WITH(mini::par_iter(v).filter([&](auto x) { return boom(x) > 0; }).count(),
                          "boom at 7777");
    });
}

// rayon tests/collect.rs collect_drop_on_unwind, and collect/test.rs left_panics / right_panics:
// a throw at item k destroys exactly the values constructed so far, each once.
TEST_CASE("collect_vec of a throwing map destroys exactly what it constructed",
          "[par_iter][collect][order]") {
    everywhere([] {
        const std::size_t n = 1000;
        for (std::size_t k : {std::size_t{0}, std::size_t{1}, n / 4, n / 2, n / 2 + 1, n - 1}) {
            INFO("throw at item " << k);
            Counted::reset();
            CHECK_THROWS_WITH(mini::par_range(std::size_t{0}, n).with_max_len(16).map([k](std::size_t i) {
                if (i == k) throw std::runtime_error("boom");
                return Counted(i);
            }).collect_vec(), "boom");
            CHECK(Counted::dropped == Counted::made);
            CHECK(Counted::made <= n - 1);
        }
        Counted::reset();
        {
            const auto all = mini::par_range(std::size_t{0}, n).map([](std::size_t i) { return Counted(i); }).collect_vec();
            CHECK(all.size() == n);
            CHECK(all[n - 1].value == n - 1);
            CHECK(Counted::made == n);
            CHECK(Counted::dropped == 0);
        }
        CHECK(Counted::dropped == n);
    });
}

TEST_CASE("collect_vec needs only a move-constructible value type", "[par_iter][collect][order]") {
    everywhere([] {
        const auto boxes = mini::par_range(0, 500)
                               .map([](int i) { return std::make_unique<int>(i); })
                               .collect_vec();
        REQUIRE(boxes.size() == 500);
        for (int i = 0; i < 500; ++i) REQUIRE(*boxes[i] == i);
        const auto kept = mini::par_range(0, 500)
                              .filter([](int i) { return i % 5 == 0; })
                              .map([](int i) { return std::make_unique<int>(i); })
                              .collect_vec();
        REQUIRE(kept.size() == 100);
        for (int i = 0; i < 100; ++i) REQUIRE(*kept[i] == 5 * i);
    });
}

// rayon collect/test.rs produce_fewer_items and left_produces_fewer_items_drops: a drive that
// writes fewer than len items fails collect's final check, and what it wrote is destroyed.
TEST_CASE("collect's final check: a short result throws and destroys what was written", "[par_iter]") {
    Counted::reset();
    auto write_three = [](mini::iter::CollectConsumer<Counted> consumer) {
        auto folder = consumer.into_folder();
        for (std::uint64_t i = 0; i < 3; ++i) folder.consume(Counted(i));
        return std::move(folder).complete();
    };
    CHECK_THROWS_WITH(mini::iter::collect_with_consumer<Counted>(10, write_three),
                      "mini::collect: expected 10 total writes, but got 3");
    CHECK(Counted::made == 3);
    CHECK(Counted::dropped == 3);
}

TEST_CASE("collect's reducer merges only adjacent results", "[par_iter]") {
    Counted::reset();
    std::allocator<Counted> alloc;
    Counted* slots = alloc.allocate(4);
    {
        mini::iter::CollectConsumer<Counted> consumer{slots, 4};
        auto [left, right, reducer] = consumer.split_at(2);
        auto l = left.into_folder(), r = right.into_folder();
        l.consume(Counted(0)); // left writes 1 of its 2: right does not start where it ends
        r.consume(Counted(2));
        const auto merged = reducer.reduce(std::move(l), std::move(r));
        CHECK(merged.len() == 1);     // right was not merged ...
        CHECK(Counted::dropped == 1); // ... and destroyed its value at once
    } // merged destroys the other one
    CHECK(Counted::dropped == 2);
    alloc.deallocate(slots, 4);
}

// rayon tests/octillion.rs: find_any, any and all over a range too long to read stop soon after
// the first match, because the bridge stops splitting and every leaf stops at its next item once
// the consumer is full. A find_any that never asks full() reads 2^62 items: the watchdog's exit 3.
TEST_CASE("find_any over 2^62 integers returns: the octillion test", "[par_iter][octillion]") {
    auto dog = octillion_dog("the octillion find_any");
    const auto found = mini::par_range(std::uint64_t{0}, octillion).find_any([](auto x) { return x == 12345; });
    REQUIRE(found.has_value());
    CHECK(*found == 12345);
}

TEST_CASE("any, all and filter then find_any over 2^62 integers return", "[par_iter][octillion]") {
    auto dog = octillion_dog("the octillion any, all and filter");
    const auto range = mini::par_range(std::uint64_t{0}, octillion);
    CHECK(range.any([](auto x) { return x == 12345; }));
    CHECK_FALSE(range.all([](auto x) { return x != 12345; }));
    const auto found = range.filter([](auto x) { return x % 12345 == 0; }).find_any([](auto x) { return x > 0; });
    CHECK(found.has_value());
    const auto wide = mini::par_range(mini::iter::u128{0}, mini::iter::u128{1} << 100)
                          .find_any([](auto x) { return x == 12345; });
    CHECK((wide.has_value() && *wide == 12345));
}

TEST_CASE("on one thread find_any stops at the next item: 12346 predicate calls", "[par_iter][octillion]") {
    auto dog = octillion_dog("find_any on one thread");
    test::Pool pool(1);
    std::atomic<std::uint64_t> calls{0};
    const auto found = pool.install([&] {
        return mini::par_range(std::uint64_t{0}, octillion).find_any([&](auto x) {
            ++calls;
            return x == 12345;
        });
    });
    CHECK(found == std::optional<std::uint64_t>(12345));
    CHECK(calls == 12346); // 0..12345 in the left leaf; the right leaf is skipped as full
}

TEST_CASE("bridge_unindexed: a producer that halves itself, results in order", "[par_iter][order]") {
    using mini::iter::u128;
    everywhere([] {
        auto& pool = mini::iter::current_pool();
        const mini::iter::UnindexedRangeProducer<u128> producer{0, 1000};
        CHECK(mini::iter::bridge_unindexed(pool, producer, mini::iter::SumConsumer<u128>{}) == 499500);
        const auto parts = mini::iter::bridge_unindexed(pool, producer, mini::iter::ListVecConsumer<u128>{});
        std::vector<u128> all;
        for (const auto& part : parts) all.insert(all.end(), part.begin(), part.end());
        REQUIRE(all.size() == 1000);
        for (std::size_t i = 0; i < 1000; ++i) REQUIRE(all[i] == i);
    });
}

// rayon collect/test.rs's drop counts, without a throw: the storage alone owns the values once
// collect returns. The result it took them from must own nothing (release_ownership).
TEST_CASE("collect_vec destroys each of its values once", "[par_iter][collect]") {
    test::Pool pool(2);
    Counted::reset();
    pool.install([] {
        const auto all = mini::par_range(std::uint64_t{0}, std::uint64_t{1000})
                             .map([](std::uint64_t i) { return Counted(i); })
                             .collect_vec();
        CHECK(all.size() == 1000);
    });
    CHECK(Counted::made == 1000);
    CHECK(Counted::dropped == 1000);
}

// The same with values that own memory: each string's buffer is freed once (AddressSanitizer
// checks it in the asan builds).
TEST_CASE("collect_vec of strings frees each string once", "[par_iter][collect]") {
    test::Pool pool(2);
    const auto strings = pool.install([] {
        return mini::par_range(0, 100)
            .map([](int i) { return std::string(40, static_cast<char>('a' + i % 26)); })
            .collect_vec();
    });
    CHECK(strings.size() == 100); // not the contents: with COLLECT_NO_RELEASE they are freed
}
