// The indexed half of Part III (chapter 13): zip and zip_eq, the chunk producers, step_by, skip,
// take, rev, copied, cloned, collect_into_vec, the ordered searches (find_first, find_last, the
// positions), min and max with rayon's tie rule, while_some. Each against the sequential answer
// on 1, 2 and 4 threads and from outside any pool, with empty inputs and lengths that do not
// divide; rayon's own tests where they apply (src/iter/test.rs, src/slice/test.rs,
// src/iter/find_first_last/test.rs, tests/producer_split_at.rs); and one forced case per switch.
//
// Tags: [zip] needs zip's one split index (ZIP_UNEVEN_SPLIT breaks it), [chunks] the chunks'
// aligned split (CHUNK_SPLIT_UNALIGNED), [best_index] find_first's best-index rule (FIND_FIRST_ANY),
// [while_some] full() (IGNORE_FULL). The whole file needs left-before-right (REDUCE_SWAPPED).
#include <mini/par.hpp>

#include <catch2/catch.hpp>

#include <algorithm>
#include <atomic>
#include <compare>
#include <cstdint>
#include <functional>
#include <mutex>
#include <numeric>
#include <optional>
#include <span>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "helpers.hpp"

namespace {

const std::size_t sizes[] = {0, 1, 2, 3, 17, 1000, 100001};

std::vector<int> iota_vec(std::size_t n, int from = 0) {
    std::vector<int> v(n);
    std::iota(v.begin(), v.end(), from);
    return v;
}

// Runs `body` inside pools of 1, 2 and 4 threads and from outside any pool (the global pool).
template <class Body>
void everywhere(Body body) {
    for (std::size_t threads : {1, 2, 4}) {
        test::Pool pool(threads);
        INFO("inside a pool of " << threads << " threads");
        pool.install(body);
    }
    INFO("from outside any pool");
    body();
}

// A folder that keeps every item it is given, as a value: a producer's items, in order.
template <class V>
struct VecFolder {
    using Result = std::vector<V>;
    std::vector<V> items;
    template <class T>
    void consume(T&& x) { items.emplace_back(std::forward<T>(x)); }
    bool full() const { return false; }
    Result complete() && { return std::move(items); }
};

template <class V, class P>
std::vector<V> items_of(const P& producer) { return producer.fold_with(VecFolder<V>{}).items; }

// rayon's tests/producer_split_at.rs: cut the producer at every index (and the left part once
// more at every index of its own); the lengths add up and the items, in order, are the whole's.
template <class V, class It>
void check_split_at(const It& it, const std::vector<V>& expected) {
    it.with_producer([&](auto producer) {
        REQUIRE(producer.len() == expected.size());
        REQUIRE(items_of<V>(producer) == expected);
        for (std::size_t i = 0; i <= expected.size(); ++i) {
            auto [left, right] = producer.split_at(i);
            CHECK(left.len() == i);
            CHECK(right.len() == expected.size() - i);
            for (std::size_t j = 0; j <= i; ++j) {
                auto [ll, lr] = left.split_at(j);
                std::vector<V> got = items_of<V>(ll);
                for (auto& x : items_of<V>(lr)) got.push_back(x);
                for (auto& x : items_of<V>(right)) got.push_back(x);
                CHECK(got == expected);
            }
        }
        return 0;
    });
}

std::vector<std::vector<int>> as_vectors(const std::vector<std::span<const int>>& spans) {
    std::vector<std::vector<int>> out;
    for (auto s : spans) out.emplace_back(s.begin(), s.end());
    return out;
}

// The sequential chunks of v, n at a time.
std::vector<std::vector<int>> seq_chunks(const std::vector<int>& v, std::size_t n, bool exact) {
    std::vector<std::vector<int>> out;
    for (std::size_t i = 0; i + (exact ? n : 1) <= v.size(); i += n)
        out.emplace_back(v.begin() + i, v.begin() + std::min(v.size(), i + n));
    return out;
}

} // namespace

static_assert(mini::iter::IndexedProducer<mini::iter::ChunksProducer<int>>);
static_assert(mini::iter::IndexedProducer<
              mini::iter::ZipProducer<mini::iter::SliceProducer<int>, mini::iter::RangeProducer<int>>>);
static_assert(mini::iter::IndexedProducer<mini::iter::RevProducer<mini::iter::SliceProducer<int>>>);
static_assert(mini::iter::IndexedProducer<mini::iter::StepByProducer<mini::iter::RangeProducer<int>>>);

// ---- zip and zip_eq --------------------------------------------------------------------------

TEST_CASE("zip pairs items at the same index and writes through references", "[zip]") {
    everywhere([] {
        for (std::size_t n : sizes) {
            INFO("n = " << n);
            std::vector<int> a = iota_vec(n), b = iota_vec(n, 1000);
            const auto pairs = mini::par_iter(a).zip(mini::par_iter(b)).collect_vec();
            REQUIRE(pairs.size() == n);
            for (std::size_t i = 0; i < n; ++i) {
                CHECK(pairs[i].first == int(i)); // pairs[i] is a std::pair<int&, int&>
                CHECK(&pairs[i].second == &b[i]);
            }
            mini::par_iter(a).zip(mini::par_iter(std::as_const(b))).for_each([](auto p) {
                auto [d, s] = p;
                d += s; // d is an int&: the element of a
            });
            for (std::size_t i = 0; i < n; ++i) CHECK(a[i] == 2 * int(i) + 1000);
        }
    });
}

TEST_CASE("zip of two lengths has the shorter one; zip_eq refuses them", "[zip]") {
    everywhere([] {
        const std::vector<int> a = iota_vec(1000), b = iota_vec(17);
        auto z = mini::par_iter(a).zip(mini::par_range(0, 17).map([](int x) { return x * 2; }));
        CHECK(z.len() == 17);
        const auto pairs = z.collect_vec();
        REQUIRE(pairs.size() == 17);
        CHECK(pairs.back().first == 16);
        CHECK(pairs.back().second == 32);
        CHECK(mini::par_iter(b).zip(mini::par_iter(a)).count() == 17);
        CHECK_THROWS_WITH(mini::par_iter(a).zip_eq(mini::par_iter(b)),
                          "mini::zip_eq: iterators must have the same length (1000 and 17)");
        CHECK(mini::par_iter(a).zip_eq(mini::par_iter(a)).map([](auto p) { return p.first * p.second; }).sum() ==
              std::inner_product(a.begin(), a.end(), a.begin(), 0));
    });
}

TEST_CASE("rayon's check_zip, check_zip_range, check_zip_eq", "[zip]") {
    // src/iter/test.rs: check_zip, check_zip_into_par_iter, check_zip_range, check_zip_eq
    everywhere([] {
        std::vector<int> a = iota_vec(1024), b = iota_vec(1024);
        mini::par_iter(a).zip(mini::par_iter(std::as_const(b))).for_each([](auto p) {
            auto [x, y] = p;
            x += y;
        });
        for (std::size_t i = 0; i < 1024; ++i) CHECK(a[i] == 2 * int(i));

        std::vector<int> c = iota_vec(1024);
        mini::par_iter(c).zip(mini::par_range(0, 1024)).for_each([](auto p) { p.first += p.second; });
        CHECK(c == a);

        std::vector<int> d = iota_vec(1024);
        mini::par_iter(d).zip_eq(mini::par_range(0, 1024)).for_each([](auto p) { p.first += p.second; });
        CHECK(d == a);
    });
}

TEST_CASE("zip, enumerate, rev and step_by compose: every producer's split_at", "[zip][chunks]") {
    // tests/producer_split_at.rs: cut each producer at every index.
    const std::vector<int> v = iota_vec(13);
    const auto r = mini::par_range(0, 13);
    check_split_at(mini::par_iter(v).copied(), v);
    std::vector<std::pair<int, int>> zipped;
    for (int i = 0; i < 11; ++i) zipped.emplace_back(i, 100 + i);
    check_split_at(r.take(11).zip(mini::par_range(100, 113)), zipped);
    std::vector<int> reversed(v.rbegin(), v.rend());
    check_split_at(r.rev(), reversed);
    check_split_at(r.step_by(3), std::vector<int>{0, 3, 6, 9, 12});
    check_split_at(r.step_by(3).rev(), std::vector<int>{12, 9, 6, 3, 0});
    check_split_at(r.skip(4).take(5), std::vector<int>{4, 5, 6, 7, 8});
    check_split_at(mini::par_chunks(v, 4).map([](auto s) { return int(s.size()); }),
                   std::vector<int>{4, 4, 4, 1});
    check_split_at(mini::par_chunks_exact(v, 4).map([](auto s) { return s.front(); }),
                   std::vector<int>{0, 4, 8});
    check_split_at(mini::par_chunks(v, 5).rev().map([](auto s) { return s.front(); }),
                   std::vector<int>{10, 5, 0});
}

// The ZIP_UNEVEN_SPLIT case: with_min_len(512) over 1024 pairs makes one split, at 512; every
// pair (x, y) of a zip of 0..1024 with itself must have x == y.
TEST_CASE("zip cuts both sides at one index: one split and no wrong pair", "[zip]") {
    test::Pool pool(2);
    std::atomic<std::size_t> first_wrong{SIZE_MAX};
    std::atomic<int> wrong_y{0};
    pool.install([&] {
        mini::par_range(0, 1024).zip(mini::par_range(0, 1024)).with_min_len(512).for_each([&](auto p) {
            if (p.first == p.second) return;
            std::size_t cur = first_wrong.load();
            while (std::size_t(p.first) < cur && !first_wrong.compare_exchange_weak(cur, p.first)) {}
            if (std::size_t(p.first) == first_wrong.load()) wrong_y = p.second;
        });
    });
    std::ostringstream out;
    out << "(" << first_wrong.load() << ", " << wrong_y.load() << ")";
    const std::string first_wrong_pair = first_wrong == SIZE_MAX ? "none" : out.str();
    CHECK(first_wrong_pair == "none");
}

// ---- the chunk producers ---------------------------------------------------------------------

TEST_CASE("par_chunks and par_chunks_exact give n-element spans; exact leaves a remainder", "[chunks]") {
    everywhere([] {
        for (std::size_t len : sizes) {
            const std::vector<int> v = iota_vec(len);
            for (std::size_t n : {1, 2, 3, 7, 1000}) {
                INFO("len = " << len << ", n = " << n);
                CHECK(as_vectors(mini::par_chunks(v, n).collect_vec()) == seq_chunks(v, n, false));
                auto exact = mini::par_chunks_exact(v, n);
                CHECK(as_vectors(exact.collect_vec()) == seq_chunks(v, n, true));
                CHECK(exact.remainder().size() == len % n);
                CHECK(std::equal(exact.remainder().begin(), exact.remainder().end(),
                                 v.end() - std::ptrdiff_t(len % n)));
                CHECK(mini::par_chunks(std::span<const int>(v), n).count() == (len + n - 1) / n);
            }
        }
    });
}

TEST_CASE("par_chunks_mut and par_chunks_exact_mut write through their spans", "[chunks]") {
    // rayon src/slice/test.rs, test_par_chunks_exact_mut_remainder, and the chunks_mut examples
    everywhere([] {
        std::vector<int> v(1000, 0);
        mini::par_chunks_mut(v, 7).enumerate().for_each([](auto p) {
            for (int& x : p.second) x = int(p.first);
        });
        for (std::size_t i = 0; i < v.size(); ++i) CHECK(v[i] == int(i / 7));
        std::vector<int> w = {0, 1, 2, 3, 4};
        auto exact = mini::par_chunks_exact_mut(w, 2);
        CHECK(exact.remainder().size() == 1);
        exact.remainder()[0] += 100;
        exact.for_each([](std::span<int> c) { std::reverse(c.begin(), c.end()); });
        CHECK(w == std::vector<int>{1, 0, 3, 2, 104});
        auto exact_span = mini::par_chunks_exact_mut(std::span<int>(w), 3);
        CHECK(exact_span.len() == 1);
        CHECK(exact_span.remainder().size() == 2);
    });
}

TEST_CASE("a chunk size of zero is refused, as rayon's assert", "[chunks]") {
    const std::vector<int> v = iota_vec(10);
    CHECK_THROWS_WITH(mini::par_chunks(v, 0), "mini::par_chunks: chunk_size must not be zero");
    std::vector<int> w = iota_vec(10);
    CHECK_THROWS_AS(mini::par_chunks_exact_mut(w, 0), std::invalid_argument);
}

// The CHUNK_SPLIT_UNALIGNED case: 5 chunks of 2 over 0..10, with_min_len(2): one split, at
// chunk 2. Chunk i must be {2i, 2i + 1}.
TEST_CASE("par_chunks cuts at a multiple of n: one split and every chunk whole", "[chunks]") {
    test::Pool pool(2);
    const std::vector<int> v = iota_vec(10);
    // for_each, not collect_vec: a chunk too many would stop collect before the wrong chunk shows
    std::vector<std::vector<int>> chunks(8);
    std::mutex m;
    pool.install([&] {
        mini::par_chunks(v, 2).with_min_len(2).enumerate().for_each([&](auto p) {
            std::lock_guard lock(m);
            chunks.at(p.first).assign(p.second.begin(), p.second.end());
        });
    });
    std::string first_wrong = "none";
    for (std::size_t i = 0; i < chunks.size() && first_wrong == "none"; ++i) {
        const bool whole = chunks[i].size() == 2 && chunks[i][0] == int(2 * i);
        if (i < 5 ? whole : chunks[i].empty()) continue; // 5 chunks, then no more
        std::ostringstream out;
        out << "chunk " << i << " = [";
        for (std::size_t k = 0; k < chunks[i].size(); ++k) out << (k ? ", " : "") << chunks[i][k];
        first_wrong = out.str() + "]";
    }
    CHECK(first_wrong == "none");
}

// ---- step_by, skip, take, rev, copied, cloned, collect_into_vec ------------------------------

TEST_CASE("step_by, skip, take and rev give the sequential items, after map and enumerate", "[par_indexed]") {
    // src/iter/test.rs: check_step_by, check_step_by_unaligned, check_step_by_rev, check_skip,
    // check_take, check_rev (each against the sequential iterator)
    everywhere([] {
        for (std::size_t n : sizes) {
            INFO("n = " << n);
            const std::vector<int> v = iota_vec(n);
            for (std::size_t step : {1, 2, 3, 10}) {
                std::vector<int> expected;
                for (std::size_t i = 0; i < n; i += step) expected.push_back(int(i) * 3);
                const auto got = mini::par_iter(v).map([](int x) { return x * 3; }).step_by(step).collect_vec();
                CHECK(got == expected);
                std::reverse(expected.begin(), expected.end());
                CHECK(mini::par_iter(v).map([](int x) { return x * 3; }).step_by(step).rev().collect_vec() == expected);
            }
            for (std::size_t k : {std::size_t{0}, std::size_t{1}, n / 2, n, n + 5}) {
                const std::size_t m = std::min(k, n);
                CHECK(mini::par_iter(v).skip(k).collect_vec() == std::vector<int>(v.begin() + m, v.end()));
                CHECK(mini::par_iter(v).take(k).collect_vec() == std::vector<int>(v.begin(), v.begin() + m));
                CHECK(mini::par_iter(v).skip(k).len() == n - m);
            }
            const auto rev = mini::par_iter(v).enumerate().rev().collect_vec();
            REQUIRE(rev.size() == n);
            for (std::size_t i = 0; i < n; ++i) {
                CHECK(rev[i].first == n - 1 - i);
                CHECK(&rev[i].second == &v[n - 1 - i]);
            }
            CHECK(mini::par_range(0, int(n)).rev().enumerate().map([](auto p) { return p.first + std::size_t(p.second); })
                      .collect_vec() == std::vector<std::size_t>(n, n == 0 ? 0 : n - 1));
        }
    });
    CHECK_THROWS_WITH(mini::par_range(0, 10).step_by(0), "mini::step_by: step must not be zero");
}

TEST_CASE("rev writes through to the elements, last first", "[par_indexed]") {
    everywhere([] {
        std::vector<int> v(1000, 0);
        mini::par_iter(v).rev().enumerate().for_each([](auto p) { p.second = int(p.first); });
        for (std::size_t i = 0; i < v.size(); ++i) CHECK(v[i] == int(999 - i));
    });
}

TEST_CASE("copied and cloned make values of references", "[par_indexed]") {
    everywhere([] {
        const std::vector<int> v = iota_vec(1000);
        auto copies = mini::par_iter(v).copied();
        static_assert(std::is_same_v<decltype(copies)::Item, int>);
        CHECK(copies.collect_vec() == v);
        const std::vector<std::string> s = {"a", "bb", "ccc"};
        auto clones = mini::par_iter(s).cloned();
        static_assert(std::is_same_v<decltype(clones)::Item, std::string>);
        CHECK(clones.collect_vec() == s);
        CHECK(mini::par_iter(v).filter([](int x) { return x % 2 == 0; }).copied().count() == 500);
    });
}

TEST_CASE("collect_into_vec fills the caller's vector, reusing its storage", "[par_indexed]") {
    // src/iter/collect/test.rs and rayon's collect_into_vec doc example
    everywhere([] {
        std::vector<int> out;
        out.reserve(100001);
        const int* storage = out.data();
        for (std::size_t n : sizes) {
            mini::par_range(0, int(n)).map([](int x) { return x * 2; }).collect_into_vec(out);
            REQUIRE(out.size() == n);
            for (std::size_t i = 0; i < n; ++i) CHECK(out[i] == 2 * int(i));
            CHECK(out.data() == storage);
        }
        std::vector<std::string> strings = {"old", "values"};
        mini::par_range(0, 3).map([](int x) { return std::to_string(x); }).collect_into_vec(strings);
        CHECK(strings == std::vector<std::string>{"0", "1", "2"});
    });
}

// ---- find_first, find_last, the positions ----------------------------------------------------

TEST_CASE("find_first and find_last give the first and last match, as references", "[best_index]") {
    // src/iter/find_first_last/test.rs and src/iter/test.rs: find_first_or_last, find_map_first
    everywhere([] {
        for (std::size_t n : sizes) {
            INFO("n = " << n);
            const std::vector<int> v = iota_vec(n);
            for (int mod : {1, 7, 1000, 200000}) {
                auto hit = [mod](int x) { return x % mod == mod - 1; };
                const auto seq_first = std::find_if(v.begin(), v.end(), hit);
                const auto seq_last = std::find_if(v.rbegin(), v.rend(), hit);
                const auto first = mini::par_iter(v).find_first(hit);
                const auto last = mini::par_iter(v).find_last(hit);
                REQUIRE(first.has_value() == (seq_first != v.end()));
                REQUIRE(last.has_value() == (seq_last != v.rend()));
                if (first) CHECK(&first->get() == &*seq_first); // the element itself
                if (last) CHECK(&last->get() == &*seq_last);
                const std::optional<int> value = first; // a value optional takes it
                CHECK(value == (first ? std::optional<int>(*seq_first) : std::nullopt));
                CHECK(mini::par_iter(v).position_first(hit) ==
                      (first ? std::optional<std::size_t>(seq_first - v.begin()) : std::nullopt));
                CHECK(mini::par_iter(v).position_last(hit) ==
                      (last ? std::optional<std::size_t>(v.rend() - seq_last - 1) : std::nullopt));
                const auto any = mini::par_iter(v).position_any(hit);
                CHECK(any.has_value() == first.has_value());
                if (any) CHECK(hit(v[*any]));
            }
        }
    });
}

TEST_CASE("find_first and find_last work after filter, map and zip", "[best_index]") {
    everywhere([] {
        const auto evens = mini::par_range(0, 100000).filter([](int x) { return x % 2 == 0; });
        CHECK(evens.find_first([](int x) { return x > 500; }) == 502);
        CHECK(evens.find_last([](int x) { return x < 500; }) == 498);
        CHECK(evens.find_first([](int x) { return x < 0; }) == std::nullopt);
        const auto z = mini::par_range(0, 1000).zip(mini::par_range(0, 1000).rev());
        CHECK(z.find_first([](auto p) { return p.first > p.second; }) == std::pair<int, int>(500, 499));
        CHECK(z.position_last([](auto p) { return p.first < p.second; }) == 499);
        // rayon's test: find_first over a range whose matches are everywhere still gives the first
        CHECK(mini::par_range(0, 1 << 20).find_first([](int) { return true; }) == 0);
        CHECK(mini::par_range(0, 1 << 20).find_last([](int) { return true; }) == (1 << 20) - 1);
    });
}

namespace {
// An item whose move into find's folder is the hand-off: find's folder publishes its best index
// and then moves the item in (rayon's order), so when token 2 is moved its leaf has published.
struct Token {
    static inline std::atomic<bool> two_published{false};
    int v;
    explicit Token(int x) : v(x) {}
    Token(Token&& other) noexcept : v(other.v) {
        if (v == 2) two_published.store(true, std::memory_order_release);
    }
    Token(const Token&) = delete;
};
} // namespace

// The FIND_FIRST_ANY case, forced: 4 tokens, with_min_len(2): leaves [0, 1] and [2, 3], on a
// pool of 2. Matches are 1 and 2. The left leaf's predicate on token 0 waits until the right
// leaf (stolen by the other worker) has published its match, then returns false; by the rule the
// left leaf is left of the best, keeps going and finds 1.
// ANCHOR: forced_find_first
TEST_CASE("find_first: a leaf left of the best match keeps looking (forced)", "[best_index]") {
    test::Pool pool(2);
    Token::two_published = false;
    const auto found = pool.install([&] {
        return mini::par_range(0, 4).with_min_len(2).map([](int x) { return Token(x); }).find_first([&](const Token& t) {
            if (t.v == 0) {
                test::wake_a_worker(pool); // so that the other worker steals the right leaf
                while (!Token::two_published.load(std::memory_order_acquire)) std::this_thread::yield();
            }
            return t.v == 1 || t.v == 2;
        });
    });
    REQUIRE(found.has_value());
    const int first = found->v;
    CHECK(first == 1);
}
// ANCHOR_END: forced_find_first

// ---- min, max and ties -----------------------------------------------------------------------

namespace {
struct Keyed { // compared by key only: equal keys tell rayon's tie rule apart
    int key, id;
    bool operator<(const Keyed& o) const { return key < o.key; }
};
} // namespace

TEST_CASE("min is the first of equal minima, max the last of equal maxima", "[par_indexed]") {
    // src/iter/test.rs: min_max, min_max_by, min_max_by_key (rayon's tie rule, as Rust's Iterator)
    everywhere([] {
        for (std::size_t n : sizes) {
            INFO("n = " << n);
            std::vector<Keyed> v;
            for (std::size_t i = 0; i < n; ++i) v.push_back({int(i % 10), int(i)});
            const auto mn = mini::par_iter(v).min();
            const auto mx = mini::par_iter(v).max();
            REQUIRE(mn.has_value() == (n > 0));
            REQUIRE(mx.has_value() == (n > 0));
            if (n == 0) continue;
            const auto last_max_key = int(std::min<std::size_t>(n, 10) - 1);
            std::size_t last_max = n - 1;
            while (v[last_max].key != last_max_key) --last_max;
            CHECK(mn->get().id == 0);
            CHECK(&mx->get() == &v[last_max]);
            auto cmp = [](const Keyed& a, const Keyed& b) { return a.key <=> b.key; };
            CHECK(mini::par_iter(v).min_by(cmp)->get().id == 0);
            CHECK(mini::par_iter(v).max_by(cmp)->get().id == int(last_max));
            auto key = [](const Keyed& k) { return k.key; };
            CHECK(mini::par_iter(v).min_by_key(key)->get().id == 0);
            CHECK(mini::par_iter(v).max_by_key(key)->get().id == int(last_max));
            CHECK(mini::par_iter(v).copied().max_by_key(key)->id == int(last_max)); // a value item
            int seq_max = 0;
            for (int x = 0; x < int(n); ++x) seq_max = std::max(seq_max, (x * 37) % 101);
            CHECK(mini::par_range(0, int(n)).map([](int x) { return (x * 37) % 101; }).max() == seq_max);
        }
        CHECK(mini::par_range(0, 0).min() == std::nullopt);
    });
}

// ---- while_some ------------------------------------------------------------------------------

TEST_CASE("rayon's check_while_some: stops at a nullopt, before reading everything", "[while_some]") {
    everywhere([] {
        auto some = [](int x) { return std::optional<int>(x); };
        CHECK(mini::par_range(0, 2048).map(some).while_some().max() == 2047);
        std::atomic<int> counter{0};
        const auto value = mini::par_range(0, 2048)
                               .map([&](int x) {
                                   ++counter;
                                   return x < 1024 ? std::optional<int>(x) : std::nullopt;
                               })
                               .while_some()
                               .max();
        CHECK(value < 1024);
        // rayon asserts counter < 2048; on one thread and from a pool of 1 the halves run in
        // order, so the right half is never read past its first item.
        CHECK(counter.load() < 2048);
    });
    test::Pool one(1); // one thread: the leaves run left to right, and nothing after the nullopt
    const std::vector<std::optional<int>> items = {1, 2, std::nullopt, 4, 5, 6, 7, 8};
    CHECK(one.install([&] { return mini::par_iter(items).while_some().collect_vec(); }) ==
          std::vector<int>{1, 2});
}
