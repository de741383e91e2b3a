// compare's mini column: the workbook's pool (chapters 1 to 15), every row.
// join_1 runs on a one-thread pool; every call installs from outside and blocks until done.
#pragma once

#include <atomic>
#include <cstdint>
#include <optional>
#include <variant>

#include <mini/join.hpp>
#include <mini/par.hpp>
#include <mini/result.hpp>
#include <mini/splitter.hpp>

#include "common.hpp"
#include "compare/bench.hpp"
#include "compare/column.hpp"
#include "compare/indexed.hpp"
#include "compare/placement.hpp"
#include "compare/sort.hpp"
#include "compare/unindexed.hpp"
#include "fib.hpp"

namespace cmp::on_mini {

using iter::Values, iter::u64, iter::square, iter::timed_vector;
using indexed::F64s, indexed::Pixels, indexed::Strip, indexed::fill_row, indexed::timed_fill;
using sort::timed_sort;
using unindexed::Counts, unindexed::words, unindexed::counts_check, unindexed::vector_check;

// ---- the implementations ------------------------------------------------------------------------

// ANCHOR: trip_mini
inline void trip_mini(mini::ThreadPool& pool, std::atomic<std::uint64_t>& executed) {
    pool.install([&] { executed.fetch_add(1, std::memory_order_relaxed); });
}
// ANCHOR_END: trip_mini

// ANCHOR: compare_mini
inline u64 sum_squares_mini(mini::ThreadPool& pool, Values v) {
    return pool.install([&] { return mini::par_iter(v).map(square).sum(); });
}
inline Timing collect_mini(mini::ThreadPool& pool, Values v) {
    return timed_vector(
        [&] { return pool.install([&] { return mini::par_iter(v).map(square).collect_vec(); }); });
}
inline u64 find_mini(mini::ThreadPool& pool, Values v, u64 target) {
    return pool.install([&] {
        const auto found = mini::par_iter(v).find_any([=](u64 x) { return x == target; });
        return found ? found->get() : 0; // the element itself, as rayon's &u64
    });
}
// ANCHOR_END: compare_mini

// ANCHOR: compare_sort_mini
template <class T>
Timing sort_mini(mini::ThreadPool& pool, const std::vector<T>& input, bool stable) {
    return timed_sort(input, [&](std::vector<T>& v) {
        pool.install([&] { stable ? mini::par_sort(v) : mini::par_sort_unstable(v); });
    });
}
// ANCHOR_END: compare_sort_mini

// ANCHOR: compare_indexed_mini
inline u64 dot_mini(mini::ThreadPool& pool, F64s a, F64s b) {
    return pool.install([&] {
        auto times = [](auto p) { return p.first * p.second; };
        return u64(mini::par_iter(a).zip(mini::par_iter(b)).map(times).sum());
    });
}
inline void strip_mini(mini::ThreadPool& pool, Pixels img, Strip s) {
    pool.install([&] {
        mini::par_chunks_mut(img, s.width).enumerate().for_each([s](auto p) {
            fill_row(p.second, p.first, s);
        });
    });
}
inline u64 find_first_mini(mini::ThreadPool& pool, Values v, u64 target) {
    return pool.install([&] {
        const auto found = mini::par_iter(v).find_first([=](u64 x) { return x == target; });
        return found ? found->get() : 0;
    });
}
// ANCHOR_END: compare_indexed_mini

inline u64 word_count_mini(mini::ThreadPool& pool, Values v) {
    return pool.install([&] {
        const Counts m = mini::par_iter(v)
                             .fold([] { return Counts{}; },
                                   [](Counts c, u64 x) { ++c[x % words]; return c; })
                             .reduce([] { return Counts{}; }, [](Counts a, Counts b) {
                                 for (const auto& [k, n] : b) a[k] += n;
                                 return a;
                             });
        return counts_check(m);
    });
}
inline u64 filter_map_mini(mini::ThreadPool& pool, Values v) {
    return pool.install([&] {
        return vector_check(mini::par_iter(v)
                                .filter_map([](u64 x) { return x % 3 == 0 ? std::optional<u64>(x * x) : std::nullopt; })
                                .collect_vec());
    });
}
inline u64 try_for_each_mini(mini::ThreadPool& pool, Values v, u64 target) {
    return pool.install([&] {
        const auto r = mini::par_iter(v).try_for_each([target](u64 x) -> mini::Result<std::monostate, u64> {
            if (x == target) return mini::err(x);
            return std::monostate{};
        });
        return r.ok() ? 0 : r.error();
    });
}
// 1, 2, ..., as an input iterator: what std::views::iota gives, which libc++ 14 does not have.
struct Counting {
    using value_type = u64;
    using difference_type = std::ptrdiff_t;
    u64 x = 0;
    u64 operator*() const { return x; }
    Counting& operator++() { return ++x, *this; }
    Counting operator++(int) { return Counting{x++}; }
    bool operator==(const Counting&) const = default;
};
inline u64 par_bridge_mini(mini::ThreadPool& pool, u64 n) {
    return pool.install([&] {
        return mini::par_bridge(Counting{1}, Counting{n + 1}).map([](u64 x) { return x * x; }).sum();
    });
}

// ---- the column ---------------------------------------------------------------------------------

// join_1, join_t, fib: app::fib (--placement: through the leaf that notes its thread). `started`:
// when the closure began on a worker, for the counters (Bench::counted).
inline Timing fib(Bench& b, RowId r) {
    mini::ThreadPool& pool = r == join_1 ? b.rt.pool1 : b.rt.pool;
    const unsigned n = b.fib_n(r), c = b.cutoff(r);
    const bool noted = b.placed(r, workbook);
    return clocked([&] {
        return pool.install([&] {
            b.started = app::now();
            return noted ? placement::fib_with(n, c, &placement::noted_leaf) : app::fib(n, c);
        });
    });
}
inline Timing sum(Bench& b, RowId) {
    return clocked([&] {
        return b.rt.pool.install(
            [&] { return b.started = app::now(), mini::sum(b.rt.pool, b.in.values); });
    });
}
inline void trip(Bench& b, std::atomic<u64>& executed) { trip_mini(b.rt.pool, executed); }
inline Timing par_iter(Bench& b, RowId) {
    return clocked([&] { return sum_squares_mini(b.rt.pool, b.in.all); });
}
inline Timing collect_vec(Bench& b, RowId) { return collect_mini(b.rt.pool, b.in.first); }
inline Timing find_any(Bench& b, RowId) {
    return clocked([&] { return find_mini(b.rt.pool, b.in.all, b.in.target); });
}
inline Timing par_sort(Bench& b, RowId r) {
    return b.in.each_sort_input(r, [&](const auto& v) { return sort_mini(b.rt.pool, v, true); });
}
inline Timing par_sort_unstable(Bench& b, RowId r) {
    return b.in.each_sort_input(r, [&](const auto& v) { return sort_mini(b.rt.pool, v, false); });
}
inline Timing zip(Bench& b, RowId) {
    return clocked([&] { return dot_mini(b.rt.pool, b.in.xs, b.in.ys); });
}
inline Timing par_chunks_mut(Bench& b, RowId) {
    return timed_fill(b.in.strip, [&](Pixels img) { strip_mini(b.rt.pool, img, b.in.strip); });
}
inline Timing find_first(Bench& b, RowId r) {
    return clocked([&] { return find_first_mini(b.rt.pool, b.in.all, b.in.find_first_target(r)); });
}
inline Timing word_count(Bench& b, RowId) {
    return clocked([&] { return word_count_mini(b.rt.pool, b.in.all); });
}
inline Timing filter_map(Bench& b, RowId) {
    return clocked([&] { return filter_map_mini(b.rt.pool, b.in.first); });
}
inline Timing try_for_each(Bench& b, RowId) {
    return clocked([&] { return try_for_each_mini(b.rt.pool, b.in.all, b.in.target); });
}
inline Timing par_bridge(Bench& b, RowId) {
    return clocked([&] { return par_bridge_mini(b.rt.pool, b.in.bridge_n()); });
}

inline constexpr Column column{
    .counted = true, .join = &fib, .fib = &fib, .sum = &sum, .trip = &trip,
    .par_iter = &par_iter, .collect_vec = &collect_vec, .find_any = &find_any,
    .par_sort = &par_sort, .par_sort_unstable = &par_sort_unstable,
    .zip = &zip, .par_chunks_mut = &par_chunks_mut, .find_first = &find_first,
    .word_count = &word_count, .filter_map = &filter_map, .try_for_each = &try_for_each,
    .par_bridge = &par_bridge};

} // namespace cmp::on_mini
