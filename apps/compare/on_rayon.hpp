// compare's rayon column: rayon itself, the Rust crate apps/rayon/ (rayon 1.6.1), through its C
// ABI (apps/rayon/rayon.h): rayon's own join, par_iter, sorts and chains, in its own thread pools
// (join_1: a one-thread pool). Only where cmake/Rayon.cmake built the crate; elsewhere the column
// says why (MINI_RAYON_ABSENT).
#pragma once

#include "compare/column.hpp"

#if MINI_HAVE_RAYON
#include <atomic>
#include <cstdint>
#include <vector>

#include <fmt/core.h>

#include "common.hpp"
#include "compare/bench.hpp"
#include "compare/indexed.hpp"
#include "compare/placement.hpp"
#include "compare/sort.hpp"
#include "fib.hpp"
#include "rayon/rayon.h"

namespace cmp::on_rayon {

using iter::Values, iter::u64, iter::checksum;
using indexed::F64s, indexed::Pixels, indexed::Strip, indexed::timed_fill;
using sort::timed_sort, sort::Inputs;

// ---- the implementations ------------------------------------------------------------------------

inline u64 sum_squares_rayon(const rayon_side_pool* pool, Values v) {
    return rayon_side_sum_squares(pool, v.data(), v.size());
}
inline Timing collect_rayon(const rayon_side_pool* pool, Values v) {
    std::size_t len = 0, cap = 0;
    const double t0 = app::now();
    u64* p = rayon_side_collect_squares(pool, v.data(), v.size(), &len, &cap);
    const double secs = app::now() - t0;
    const u64 sum = len == v.size() ? checksum(p, len) : 0;
    rayon_side_vec_free(p, len, cap);
    return {secs, sum};
}
inline u64 find_rayon(const rayon_side_pool* pool, Values v, u64 target) {
    u64 found = 0;
    return rayon_side_find_any(pool, v.data(), v.size(), target, &found) ? found : 0;
}
inline Timing sort_rayon(const rayon_side_pool* pool, const std::vector<u64>& input, bool stable) {
    return timed_sort(input, [&](std::vector<u64>& v) {
        rayon_side_sort_u64(pool, v.data(), v.size(), stable);
    });
}
// The strings are Rust Strings made by rayon's side from the same seeds; it times the sort itself.
inline Timing sort_strings_rayon(const rayon_side_pool* pool, const Inputs& in, bool stable) {
    double secs = 0;
    const u64 sum = rayon_side_sort_strings(pool, in.string_seeds.data(), in.string_seeds.size(),
                                            stable, &secs);
    return {secs, sum};
}
inline u64 dot_rayon(const rayon_side_pool* p, F64s a, F64s b) {
    return u64(rayon_side_dot(p, a.data(), b.data(), a.size()));
}
inline void strip_rayon(const rayon_side_pool* p, Pixels img, Strip s) {
    rayon_side_mandelbrot(p, img.data(), s.width, s.height);
}
inline u64 find_first_rayon(const rayon_side_pool* p, Values v, u64 target) {
    u64 found = 0;
    return rayon_side_find_first(p, v.data(), v.size(), target, &found) ? found : 0;
}

// ---- the column ---------------------------------------------------------------------------------

inline const rayon_side_pool* pool(Bench& b) { return b.rt.rayon.get(); }

// join_1, join_t, fib: rayon::join, its leaves the same fib_leaf called through the C ABI; the
// joins it made are checked too.
inline Timing fib(Bench& b, RowId r) {
    const unsigned n = b.fib_n(r), c = b.cutoff(r);
    const rayon_side_pool* rpool = (r == join_1 ? b.rt.rayon1 : b.rt.rayon).get();
    std::uint64_t made = 0;
    const Timing t = clocked([&] {
        return rayon_side_fib(rpool, n, c,
                              b.placed(r, rayon) ? &placement::noted_leaf : &app::fib_leaf, &made);
    });
    if (made != app::joins_of(n, c)) {
        fmt::print("WRONG: {} on rayon: {} joins, expected {}\n", b.rows[r].label, made,
                   app::joins_of(n, c));
        b.all_ok = false;
    }
    return t;
}
inline Timing sum(Bench& b, RowId) {
    return clocked([&] { return rayon_side_sum(pool(b), b.in.values.data(), b.in.values.size()); });
}
inline void trip(Bench& b, std::atomic<u64>& executed) {
    executed.fetch_add(rayon_side_trip(pool(b)), std::memory_order_relaxed);
}
inline Timing par_iter(Bench& b, RowId) {
    return clocked([&] { return sum_squares_rayon(pool(b), b.in.all); });
}
inline Timing collect_vec(Bench& b, RowId) { return collect_rayon(pool(b), b.in.first); }
inline Timing find_any(Bench& b, RowId) {
    return clocked([&] { return find_rayon(pool(b), b.in.all, b.in.target); });
}
// The strings row sorts Rust Strings made from the same seeds (sort_strings_rayon).
inline Timing sort_on_rayon(Bench& b, RowId r, bool stable) {
    const Inputs& in = *b.in.sorts;
    return r == sort_str || r == usort_str ? sort_strings_rayon(pool(b), in, stable)
                                           : sort_rayon(pool(b), in.values, stable);
}
inline Timing par_sort(Bench& b, RowId r) { return sort_on_rayon(b, r, true); }
inline Timing par_sort_unstable(Bench& b, RowId r) { return sort_on_rayon(b, r, false); }
inline Timing zip(Bench& b, RowId) {
    return clocked([&] { return dot_rayon(pool(b), b.in.xs, b.in.ys); });
}
inline Timing par_chunks_mut(Bench& b, RowId) {
    return timed_fill(b.in.strip, [&](Pixels img) { strip_rayon(pool(b), img, b.in.strip); });
}
inline Timing find_first(Bench& b, RowId r) {
    return clocked([&] { return find_first_rayon(pool(b), b.in.all, b.in.find_first_target(r)); });
}
inline Timing word_count(Bench& b, RowId) {
    return clocked([&] { return rayon_side_word_count(pool(b), b.in.all.data(), b.in.all.size()); });
}
inline Timing filter_map(Bench& b, RowId) {
    return clocked(
        [&] { return rayon_side_filter_map(pool(b), b.in.first.data(), b.in.first.size()); });
}
inline Timing try_for_each(Bench& b, RowId) {
    return clocked([&] {
        return rayon_side_try_for_each(pool(b), b.in.all.data(), b.in.all.size(), b.in.target);
    });
}
inline Timing par_bridge(Bench& b, RowId) {
    return clocked([&] { return rayon_side_par_bridge(pool(b), b.in.bridge_n()); });
}

inline constexpr Column column{
    .join = &fib, .fib = &fib, .sum = &sum, .trip = &trip,
    .par_iter = &par_iter, .collect_vec = &collect_vec, .find_any = &find_any,
    .par_sort = &par_sort, .par_sort_unstable = &par_sort_unstable,
    .zip = &zip, .par_chunks_mut = &par_chunks_mut, .find_first = &find_first,
    .word_count = &word_count, .filter_map = &filter_map, .try_for_each = &try_for_each,
    .par_bridge = &par_bridge};

} // namespace cmp::on_rayon
#else
namespace cmp::on_rayon {
inline constexpr Column column{};
}
#endif
