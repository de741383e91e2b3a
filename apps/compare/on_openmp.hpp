// compare's OpenMP column (chapter 6): tasks for fib, parallel for for the rest, each in a team of
// THREADS (join_1: of one). Only where cmake/Compare.cmake found OpenMP; elsewhere the column says
// why (MINI_OPENMP_ABSENT). OpenMP has no sort and no way to hand a team a job from outside.
#pragma once

#include "compare/column.hpp"

#if MINI_HAVE_OPENMP
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

#include <omp.h>

#include "compare/bench.hpp"
#include "compare/indexed.hpp"
#include "fib.hpp"

namespace cmp::on_openmp {

using app::fib_leaf;
using iter::Values, iter::u64, iter::square, iter::timed_vector;
using indexed::F64s, indexed::Pixels, indexed::Strip, indexed::fill_row, indexed::timed_fill,
    indexed::keep_first, indexed::found_at;

// ---- the implementations ------------------------------------------------------------------------

// ANCHOR: fib_omp
inline std::uint64_t fib_omp(unsigned n, unsigned cutoff) {
    if (n <= cutoff || n < 2) return fib_leaf(n);
    std::uint64_t a, b;
#pragma omp task shared(b) // B: a task any thread of the team may run
    b = fib_omp(n - 2, cutoff);
    a = fib_omp(n - 1, cutoff); // A: here
#pragma omp taskwait
    return a + b;
}
// ANCHOR_END: fib_omp

inline std::uint64_t fib_omp_team(int threads, unsigned n, unsigned cutoff) {
    std::uint64_t r = 0;
#pragma omp parallel num_threads(threads)
#pragma omp single
    r = fib_omp(n, cutoff);
    return r;
}

// ANCHOR: sum_omp
inline std::uint64_t sum_omp(int threads, const std::vector<std::uint64_t>& v) {
    const std::uint64_t* p = v.data();
    const std::size_t n = v.size();
    std::uint64_t s = 0;
#pragma omp parallel for reduction(+ : s) num_threads(threads)
    for (std::size_t i = 0; i < n; ++i) s += p[i];
    return s;
}
// ANCHOR_END: sum_omp

inline u64 sum_squares_omp(int threads, Values v) {
    const u64* p = v.data();
    const std::size_t n = v.size();
    u64 s = 0;
#pragma omp parallel for reduction(+ : s) num_threads(threads)
    for (std::size_t i = 0; i < n; ++i) s += square(p[i]);
    return s;
}
inline Timing collect_omp(int threads, Values v) {
    return timed_vector([&] {
        std::vector<u64> out(v.size());
        const u64* p = v.data();
        const std::size_t n = v.size();
#pragma omp parallel for num_threads(threads)
        for (std::size_t i = 0; i < n; ++i) out[i] = square(p[i]);
        return out;
    });
}
// A parallel for cannot break: each thread scans its own block and stops at its next item.
inline u64 find_omp(int threads, Values v, u64 target) {
    std::atomic<u64> found{0};
#pragma omp parallel num_threads(threads)
    {
        const std::size_t t = std::size_t(omp_get_thread_num()), k = std::size_t(omp_get_num_threads());
        const std::size_t lo = v.size() * t / k, hi = v.size() * (t + 1) / k;
        for (std::size_t i = lo; i < hi && found.load(std::memory_order_relaxed) == 0; ++i)
            if (v[i] == target) found.store(v[i], std::memory_order_relaxed);
    }
    return found.load();
}
inline u64 dot_omp(int threads, F64s a, F64s b) {
    const double *pa = a.data(), *pb = b.data();
    const std::size_t n = a.size();
    double s = 0;
#pragma omp parallel for reduction(+ : s) num_threads(threads)
    for (std::size_t i = 0; i < n; ++i) s += pa[i] * pb[i];
    return u64(s);
}
// Rows differ in cost, so the rows are dealt out one at a time (schedule(dynamic)).
inline void strip_omp(int threads, Pixels img, Strip s) {
#pragma omp parallel for schedule(dynamic) num_threads(threads)
    for (std::size_t y = 0; y < s.height; ++y) fill_row(img.subspan(y * s.width, s.width), y, s);
}
// Each thread scans its own block and stops once a match left of where it is has been found.
inline u64 find_first_omp(int threads, Values v, u64 target) {
    std::atomic<std::size_t> best{std::numeric_limits<std::size_t>::max()};
#pragma omp parallel num_threads(threads)
    {
        const std::size_t t = std::size_t(omp_get_thread_num()), k = std::size_t(omp_get_num_threads());
        for (std::size_t i = v.size() * t / k, hi = v.size() * (t + 1) / k; i < hi; ++i) {
            if (i > best.load(std::memory_order_relaxed)) break;
            if (v[i] == target) { keep_first(best, i); break; }
        }
    }
    return found_at(v, best);
}

// ---- the column ---------------------------------------------------------------------------------

inline int threads(const Bench& b) { return int(b.o.threads); }

inline Timing fib(Bench& b, RowId r) {
    const unsigned n = b.fib_n(r), c = b.cutoff(r);
    return clocked([&] { return fib_omp_team(r == join_1 ? 1 : threads(b), n, c); });
}
inline Timing sum(Bench& b, RowId) { return clocked([&] { return sum_omp(threads(b), b.in.values); }); }
inline Timing par_iter(Bench& b, RowId) {
    return clocked([&] { return sum_squares_omp(threads(b), b.in.all); });
}
inline Timing collect_vec(Bench& b, RowId) { return collect_omp(threads(b), b.in.first); }
inline Timing find_any(Bench& b, RowId) {
    return clocked([&] { return find_omp(threads(b), b.in.all, b.in.target); });
}
inline Timing zip(Bench& b, RowId) {
    return clocked([&] { return dot_omp(threads(b), b.in.xs, b.in.ys); });
}
inline Timing par_chunks_mut(Bench& b, RowId) {
    return timed_fill(b.in.strip, [&](Pixels img) { strip_omp(threads(b), img, b.in.strip); });
}
inline Timing find_first(Bench& b, RowId r) {
    return clocked([&] { return find_first_omp(threads(b), b.in.all, b.in.find_first_target(r)); });
}

inline constexpr Column column{
    .join = &fib, .fib = &fib, .sum = &sum,
    .par_iter = &par_iter, .collect_vec = &collect_vec, .find_any = &find_any,
    .zip = &zip, .par_chunks_mut = &par_chunks_mut, .find_first = &find_first};

} // namespace cmp::on_openmp
#else
namespace cmp::on_openmp {
inline constexpr Column column{};
}
#endif
