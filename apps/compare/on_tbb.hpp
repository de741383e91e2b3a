// compare's oneTBB column (chapter 6): what oneTBB's users write, parallel_invoke, parallel_reduce,
// parallel_for, parallel_sort, in task arenas of THREADS (join_1: of one; runtimes.hpp). Only where
// cmake/Compare.cmake found oneTBB; elsewhere the column says why (MINI_TBB_ABSENT).
#pragma once

#include "compare/column.hpp"

#if MINI_HAVE_TBB
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <vector>

#include <oneapi/tbb/blocked_range.h>
#include <oneapi/tbb/parallel_for.h>
#include <oneapi/tbb/parallel_invoke.h>
#include <oneapi/tbb/parallel_reduce.h>
#include <oneapi/tbb/parallel_sort.h>
#include <oneapi/tbb/task_arena.h>

#include <mini/latch.hpp>

#include "compare/bench.hpp"
#include "compare/indexed.hpp"
#include "compare/sort.hpp"
#include "fib.hpp"

namespace cmp::on_tbb {

using app::fib_leaf;
using iter::Values, iter::u64, iter::square, iter::timed_vector;
using indexed::F64s, indexed::Pixels, indexed::Strip, indexed::fill_row, indexed::timed_fill,
    indexed::keep_first, indexed::found_at;
using sort::timed_sort;
using Range = tbb::blocked_range<std::size_t>;

// ---- the implementations ------------------------------------------------------------------------

// parallel_invoke(f, g) spawns f and runs g itself, so f is B.
// ANCHOR: fib_tbb
inline std::uint64_t fib_tbb(unsigned n, unsigned cutoff) {
    if (n <= cutoff || n < 2) return fib_leaf(n);
    std::uint64_t a, b;
    tbb::parallel_invoke([&] { b = fib_tbb(n - 2, cutoff); }, [&] { a = fib_tbb(n - 1, cutoff); });
    return a + b;
}
// ANCHOR_END: fib_tbb

// ANCHOR: sum_tbb
inline std::uint64_t sum_tbb(const std::vector<std::uint64_t>& v) {
    return tbb::parallel_reduce(
        tbb::blocked_range<std::size_t>(0, v.size()), std::uint64_t{0},
        [&v](const tbb::blocked_range<std::size_t>& r, std::uint64_t s) {
            for (std::size_t i = r.begin(); i < r.end(); ++i) s += v[i];
            return s;
        },
        std::plus<>{});
}
// ANCHOR_END: sum_tbb

// oneTBB's nearest to install: enqueue into an arena that reserves no slot for outside threads,
// then wait on the same LockLatch that mini's install waits on.
// ANCHOR: trip_tbb
inline void trip_tbb(tbb::task_arena& arena, std::atomic<std::uint64_t>& executed) {
    mini::LockLatch latch;
    arena.enqueue([&] {
        executed.fetch_add(1, std::memory_order_relaxed);
        mini::LockLatch::set(&latch);
    });
    latch.wait();
}
// ANCHOR_END: trip_tbb

inline u64 sum_squares_tbb(Values v) {
    return tbb::parallel_reduce(
        Range(0, v.size()), u64{0},
        [v](const Range& r, u64 s) {
            for (std::size_t i = r.begin(); i < r.end(); ++i) s += square(v[i]);
            return s;
        },
        std::plus<>{});
}
inline Timing collect_tbb(Values v) {
    return timed_vector([&] {
        std::vector<u64> out(v.size());
        tbb::parallel_for(Range(0, v.size()), [&](const Range& r) {
            for (std::size_t i = r.begin(); i < r.end(); ++i) out[i] = square(v[i]);
        });
        return out;
    });
}
// Every chunk stops at its next item once one is found, as a leaf of find_any does.
inline u64 find_tbb(Values v, u64 target) {
    std::atomic<u64> found{0};
    tbb::parallel_for(Range(0, v.size()), [&](const Range& r) {
        for (std::size_t i = r.begin(); i < r.end(); ++i) {
            if (found.load(std::memory_order_relaxed) != 0) return;
            if (v[i] == target) found.store(v[i], std::memory_order_relaxed);
        }
    });
    return found.load();
}
inline u64 dot_tbb(F64s a, F64s b) {
    return u64(tbb::parallel_reduce(
        Range(0, a.size()), 0.0,
        [a, b](const Range& r, double s) {
            for (std::size_t i = r.begin(); i < r.end(); ++i) s += a[i] * b[i];
            return s;
        },
        std::plus<>{}));
}
inline void strip_tbb(Pixels img, Strip s) {
    tbb::parallel_for(std::size_t{0}, s.height,
                      [&](std::size_t y) { fill_row(img.subspan(y * s.width, s.width), y, s); });
}
inline u64 find_first_tbb(Values v, u64 target) {
    std::atomic<std::size_t> best{std::numeric_limits<std::size_t>::max()};
    tbb::parallel_for(Range(0, v.size()), [&](const Range& r) {
        for (std::size_t i = r.begin(); i < r.end(); ++i) {
            if (i > best.load(std::memory_order_relaxed)) return;
            if (v[i] == target) return keep_first(best, i);
        }
    });
    return found_at(v, best);
}
template <class T>
Timing sort_tbb(const std::vector<T>& input) { // tbb::parallel_sort is unstable
    return timed_sort(input, [](std::vector<T>& v) { tbb::parallel_sort(v.begin(), v.end()); });
}

// ---- the column ---------------------------------------------------------------------------------

inline Timing fib(Bench& b, RowId r) {
    tbb::task_arena& arena = r == join_1 ? b.rt.arena1 : b.rt.arena;
    const unsigned n = b.fib_n(r), c = b.cutoff(r);
    return clocked([&] { return arena.execute([&] { return fib_tbb(n, c); }); });
}
inline Timing sum(Bench& b, RowId) {
    return clocked([&] { return b.rt.arena.execute([&] { return sum_tbb(b.in.values); }); });
}
inline void trip(Bench& b, std::atomic<u64>& executed) { trip_tbb(b.rt.outside, executed); }
inline Timing par_iter(Bench& b, RowId) { return clocked([&] { return sum_squares_tbb(b.in.all); }); }
inline Timing collect_vec(Bench& b, RowId) { return collect_tbb(b.in.first); }
inline Timing find_any(Bench& b, RowId) {
    return clocked([&] { return find_tbb(b.in.all, b.in.target); });
}
inline Timing par_sort_unstable(Bench& b, RowId r) {
    return b.in.each_sort_input(r, [](const auto& v) { return sort_tbb(v); });
}
inline Timing zip(Bench& b, RowId) { return clocked([&] { return dot_tbb(b.in.xs, b.in.ys); }); }
inline Timing par_chunks_mut(Bench& b, RowId) {
    return timed_fill(b.in.strip, [&](Pixels img) { strip_tbb(img, b.in.strip); });
}
inline Timing find_first(Bench& b, RowId r) {
    return clocked([&] { return find_first_tbb(b.in.all, b.in.find_first_target(r)); });
}

// No stable sort in oneTBB; chapter 14's chains are mini's and rayon's only.
inline constexpr Column column{
    .join = &fib, .fib = &fib, .sum = &sum, .trip = &trip,
    .par_iter = &par_iter, .collect_vec = &collect_vec, .find_any = &find_any,
    .par_sort_unstable = &par_sort_unstable,
    .zip = &zip, .par_chunks_mut = &par_chunks_mut, .find_first = &find_first};

} // namespace cmp::on_tbb
#else
namespace cmp::on_tbb {
inline constexpr Column column{};
}
#endif
