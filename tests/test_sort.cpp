// The parallel sorts (chapter 15): rayon's sort tests ported (src/slice/test.rs: test_par_sort,
// test_par_sort_unstable, test_par_sort_stability; tests/sort-panic-safe.rs), each on pools of
// 1, 2 and 4 threads, for both engines: par_mergesort behind par_sort*, par_quicksort behind
// par_sort_unstable*. Inputs come from seeded generators, so a failure replays.
//
// Tags: [merge] needs par_merge's consistent cut (MERGE_SPLIT_INCONSISTENT loses elements),
// [spread] needs the quicksort's join (QUICKSORT_NO_JOIN keeps every partition on the caller).
#include <mini/par.hpp>

#include <catch2/catch.hpp>

#include <algorithm>
#include <atomic>
#include <compare>
#include <cstdint>
#include <functional>
#include <numeric>
#include <random>
#include <span>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "helpers.hpp"
#include "scaled.hpp"
#include "sort_helpers.hpp"

namespace {

using u64 = std::uint64_t;

// Runs `body` inside pools of 1, 2 and 4 threads.
template <class Body>
void on_pools(Body body) {
    for (std::size_t threads : {1, 2, 4}) {
        test::Pool pool(threads);
        INFO("inside a pool of " << threads << " threads");
        pool.install(body);
    }
}

// The two engines, by their _by form, so that one test body covers both.
struct Stable {
    template <class S, class F>
    static void sort_by(S&& s, const F& cmp) { mini::par_sort_by(s, cmp); }
};
struct Unstable {
    template <class S, class F>
    static void sort_by(S&& s, const F& cmp) { mini::par_sort_unstable_by(s, cmp); }
};

const auto ascending = [](const auto& a, const auto& b) { return a <=> b; };
const auto descending = [](const auto& a, const auto& b) { return b <=> a; };

// Sorts a copy of `input` with `cmp` and checks it against std::stable_sort's answer, which is
// sorted and a permutation of the input (the permutation check names the value it lost).
template <class Sort, class T, class Cmp>
void check_sorts(const std::vector<T>& input, const Cmp& cmp) {
    std::vector<T> v = input;
    Sort::sort_by(v, cmp);
    std::vector<T> expected = input;
    std::stable_sort(expected.begin(), expected.end(), [&](const T& a, const T& b) { return cmp(a, b) < 0; });
    INFO("length " << input.size());
    REQUIRE(test::count_difference(input, v) == "");
    REQUIRE(v == expected);
}

// rayon's "many pre-sorted runs": sorted descending, then five random reversals or swaps.
std::vector<u64> with_runs(std::size_t len, u64 modulus, u64 seed) {
    std::vector<u64> v = test::random_values(len, modulus, seed);
    std::sort(v.begin(), v.end(), std::greater<>());
    std::mt19937_64 rng(seed + 1);
    for (int i = 0; i < 5; ++i) {
        const std::size_t a = rng() % len, b = rng() % len;
        if (a < b) std::reverse(v.begin() + a, v.begin() + b); else std::swap(v[a], v[b]);
    }
    return v;
}

} // namespace

TEMPLATE_TEST_CASE("sorts every length up to 24 and 500, both ways: rayon's test_par_sort", "[sort]", Stable,
                   Unstable) {
    on_pools([] {
        u64 seed = 1;
        for (std::size_t len = 0; len <= 500; len = len < 24 ? len + 1 : 500) {
            for (u64 modulus : {5, 10, 100}) {
                for (int rep = 0; rep < 10; ++rep) {
                    const std::vector<u64> v = test::random_values(len, modulus, seed++);
                    check_sorts<TestType>(v, ascending);
                    check_sorts<TestType>(v, descending);
                }
            }
            if (len == 500) break;
        }
    });
}

TEMPLATE_TEST_CASE("sorts many duplicates and pre-sorted runs at 1000, 10000 and 100000", "[sort][merge]",
                   Stable, Unstable) {
    on_pools([] {
        for (std::size_t len : {std::size_t{1000}, std::size_t{10000}, test::scaled(100000)}) {
            for (u64 modulus : {5, 10, 100, 10000}) check_sorts<TestType>(test::random_values(len, modulus, len + modulus), ascending);
            for (u64 modulus : {5, 10, 1000, 50000}) check_sorts<TestType>(with_runs(len, modulus, len * modulus), ascending);
        }
    });
}

TEMPLATE_TEST_CASE("sorts sorted, reversed and all-equal slices around every threshold", "[sort][merge]",
                   Stable, Unstable) {
    // 20: insertion sort; 2000: a chunk, and the quicksort's sequential partitions; 5000: par_merge.
    const std::size_t lengths[] = {0, 1, 2, 19, 20, 21, 22, 1999, 2000, 2001, 2002, 4000, 4001,
                                   4999, 5000, 5001, 6000, 10007, std::size_t{1} << 16};
    on_pools([&] {
        for (std::size_t len : lengths) {
            std::vector<u64> v(len);
            std::iota(v.begin(), v.end(), u64{0});
            check_sorts<TestType>(v, ascending);                 // already sorted
            check_sorts<TestType>(v, descending);                // reversed
            check_sorts<TestType>(std::vector<u64>(len, 7), ascending); // all equal
            check_sorts<TestType>(test::random_values(len, 3, len), ascending);
            check_sorts<TestType>(test::random_values(len, u64{1} << 40, len), ascending);
        }
    });
}

TEMPLATE_TEST_CASE("sorts 2^20 random values", "[sort][merge]", Stable, Unstable) {
    const std::vector<u64> v = test::random_values(test::scaled(std::size_t{1} << 20), u64{1} << 62, 20);
    on_pools([&] { check_sorts<TestType>(v, ascending); });
}

TEMPLATE_TEST_CASE("a random comparator reorders somehow and breaks nothing", "[sort]", Stable, Unstable) {
    on_pools([] {
        for (std::size_t len : {100, 10000}) {
            std::vector<u64> v(len);
            std::iota(v.begin(), v.end(), u64{0});
            std::atomic<u64> state{12345};
            TestType::sort_by(v, [&](u64, u64) { // a shared xorshift: no data race, any answer
                u64 x = state.load(std::memory_order_relaxed);
                x ^= x << 13, x ^= x >> 7, x ^= x << 17;
                state.store(x, std::memory_order_relaxed);
                const std::weak_ordering answers[] = {std::weak_ordering::less, std::weak_ordering::equivalent,
                                                      std::weak_ordering::greater};
                return answers[x % 3];
            });
            TestType::sort_by(v, ascending);
            for (std::size_t i = 0; i < len; ++i) REQUIRE(v[i] == i);
        }
    });
}

TEST_CASE("par_sort is stable: rayon's test_par_sort_stability", "[sort][merge]") {
    std::vector<std::size_t> lengths;
    for (std::size_t len = 2; len < 25; ++len) lengths.push_back(len);
    for (std::size_t len = 500; len < 510; ++len) lengths.push_back(len);
    for (std::size_t len = 50000; len < 50005; ++len) lengths.push_back(len); // rayon: to 50009
    on_pools([&] {
        u64 seed = 7;
        for (std::size_t len : lengths) {
            // [(6, 1), (5, 1), (6, 2), ...]: a random key, and which occurrence of it this is.
            std::vector<u64> keys = test::random_values(len, 10, seed++);
            std::vector<std::pair<u64, u64>> v;
            u64 counts[10] = {};
            for (u64 k : keys) v.emplace_back(k, ++counts[k]);
            auto by_first = v, by_key = v;
            mini::par_sort_by(by_first, [](const auto& a, const auto& b) { return a.first <=> b.first; });
            mini::par_sort_by_key(by_key, [](const auto& p) { return p.first; });
            INFO("length " << len);
            // Sorted by key and by occurrence: equal keys kept their order.
            REQUIRE(std::is_sorted(by_first.begin(), by_first.end()));
            REQUIRE(std::is_sorted(by_key.begin(), by_key.end()));
        }
    });
}

TEST_CASE("the six functions sort vectors, spans and strings", "[sort][merge]") {
    on_pools([] {
        std::vector<std::string> words;
        for (u64 x : test::random_values(30000, 5000, 3)) words.push_back(std::to_string(x * 7919 % 5000));
        std::vector<std::string> expected = words;
        std::sort(expected.begin(), expected.end());
        auto a = words, b = words;
        mini::par_sort(a);
        mini::par_sort_unstable(b);
        REQUIRE(a == expected);
        REQUIRE(b == expected);
        auto by_len = words, by_len_u = words; // by length: then compare as by std::stable_sort
        mini::par_sort_by_key(by_len, [](const std::string& s) { return s.size(); });
        mini::par_sort_unstable_by_key(by_len_u, [](const std::string& s) { return s.size(); });
        auto len_expected = words;
        std::stable_sort(len_expected.begin(), len_expected.end(),
                         [](const auto& x, const auto& y) { return x.size() < y.size(); });
        REQUIRE(by_len == len_expected);
        REQUIRE(test::count_difference(words, by_len_u) == "");
        REQUIRE(std::is_sorted(by_len_u.begin(), by_len_u.end(),
                               [](const auto& x, const auto& y) { return x.size() < y.size(); }));
        std::vector<u64> v = test::random_values(9000, 100, 4); // a span: the middle only
        const std::vector<u64> before = v;
        mini::par_sort(std::span<u64>(v).subspan(1000, 7000));
        mini::par_sort_unstable_by(std::span<u64>(v).first(1000), descending);
        REQUIRE(std::is_sorted(v.begin() + 1000, v.begin() + 8000));
        REQUIRE(std::is_sorted(v.begin(), v.begin() + 1000, std::greater<>()));
        REQUIRE(std::equal(v.begin() + 8000, v.end(), before.begin() + 8000));
        REQUIRE(test::count_difference(before, v) == "");
    });
}

namespace {

struct Thrown {}; // the comparator's exception: nothing else may reach the test

// rayon's DropCounter inputs: random keys, or (has_runs) key = id with five random reversals.
std::vector<test::Tracked> tracked_input(std::size_t len, u64 modulus, bool has_runs, u64 seed) {
    std::vector<u64> keys = test::random_values(len, modulus, seed);
    if (has_runs) {
        std::iota(keys.begin(), keys.end(), u64{0});
        std::mt19937_64 rng(seed);
        for (int i = 0; i < 5; ++i) {
            const std::size_t a = rng() % len, b = rng() % len;
            if (a < b) std::reverse(keys.begin() + a, keys.begin() + b); else std::swap(keys[a], keys[b]);
        }
    }
    std::vector<test::Tracked> v;
    v.reserve(len);
    for (std::size_t id = 0; id < len; ++id) v.emplace_back(static_cast<std::uint32_t>(keys[id]), id);
    return v;
}

// Sorts tracked_input(...) with a comparator that throws at every k-th comparison (never if k is
// 0) and checks everything sort-panic-safe.rs checks: the sort throws if it reached a k-th
// comparison, the slice holds every id once, each value is destroyed exactly once, no element
// leaked or compared as a shell. Returns how many comparisons were made.
template <class Sort>
u64 sort_throwing(std::size_t len, u64 modulus, bool has_runs, u64 k) {
    test::Tracked::reset();
    std::atomic<u64> count{0};
    bool threw = false;
    {
        std::vector<test::Tracked> v = tracked_input(len, modulus, has_runs, len * 31 + modulus);
        try {
            Sort::sort_by(v, [&](const test::Tracked& a, const test::Tracked& b) {
                if (!a.owns || !b.owns) ++test::Tracked::bad;
                if (++count % k == 0) throw Thrown{};
                return a.x <=> b.x;
            });
        } catch (const Thrown&) {
            threw = true;
        }
        std::vector<std::uint32_t> ids; // one REQUIRE per check, not per element: TSan's time
        std::size_t shells = 0, misplaced = 0;
        for (const auto& t : v) {
            shells += !t.owns;
            ids.push_back(t.id);
        }
        std::sort(ids.begin(), ids.end());
        for (std::size_t i = 0; i < len; ++i) misplaced += ids[i] != i;
        REQUIRE(shells == 0);
        REQUIRE(misplaced == 0); // every id once: a permutation of the input
    }
    REQUIRE(threw == (count >= k));
    REQUIRE(test::Tracked::bad == 0);
    REQUIRE(test::Tracked::constructed == test::Tracked::destroyed);
    REQUIRE(test::Tracked::drops_not_once(len) == 0);
    return count;
}

} // namespace

TEMPLATE_TEST_CASE("a comparator that throws leaves a permutation: rayon's sort_panic_safe", "[sort][merge]",
                   Stable, Unstable) {
    on_pools([] {
        for (std::size_t len : {1, 2, 3, 4, 5, 10, 20, 100, 500, 5000, 20000}) {
            for (u64 modulus : {5, 20000}) { // rayon's 5, 30, 1000, 20000: many duplicates, few
                for (bool has_runs : {false, true}) {
                    INFO("length " << len << ", modulus " << modulus << (has_runs ? ", runs" : ""));
                    const u64 total = sort_throwing<TestType>(len, modulus, has_runs, ~u64{0});
                    for (u64 step = 1; step <= 5; ++step) { // throw from the first fifth on, then further
                        const u64 k = std::max<u64>(1, total * step / 5);
                        INFO("throwing at every " << k << "th of " << total << " comparisons");
                        sort_throwing<TestType>(len, modulus, has_runs, k);
                    }
                }
            }
        }
    });
}

// MERGE_SPLIT_INCONSISTENT's case: 20000 keys in 1..100, so that every par_merge (its runs add up
// to 5000 or more) finds keys equal to its cut in both runs. The cuts depend on the data only, not
// on who steals: the same elements go missing at every run.
TEST_CASE("par_sort keeps every element: 20000 keys with many duplicates", "[merge]") {
    std::vector<u64> input = test::random_values(20000, 100, 50);
    for (u64& x : input) ++x;
    test::Pool pool(2);
    std::vector<u64> v = input;
    pool.install([&] { mini::par_sort(v); });
    REQUIRE(test::count_difference(input, v) == "");
    REQUIRE(std::is_sorted(v.begin(), v.end()));
}

// QUICKSORT_NO_JOIN's case. Called from outside any pool, the sort runs its first partitions on
// this thread; its first join (a side above 2000 elements) goes into the global pool, and from
// then on the comparisons run on the pool's workers. Without join nothing ever leaves this thread.
TEST_CASE("par_sort_unstable hands its partitions to the pool: comparisons run off the calling thread",
          "[spread]") {
    std::vector<u64> v = test::random_values(std::size_t{1} << 18, u64{1} << 62, 60);
    const std::thread::id caller = std::this_thread::get_id();
    std::atomic<u64> off_caller{0};
    mini::par_sort_unstable_by(v, [&](u64 a, u64 b) {
        if (std::this_thread::get_id() != caller) off_caller.fetch_add(1, std::memory_order_relaxed);
        return a <=> b;
    });
    REQUIRE(std::is_sorted(v.begin(), v.end()));
    REQUIRE(off_caller.load() > 0);
}
