// compare's indexed rows (chapter 13): three chains rayon users write, on every runtime.
//
//   zip:            the dot product of two vectors of N f64 (a zip, a map, a sum); the values are
//                   small integers, so every order of the additions gives the same exact sum;
//   par_chunks_mut: a Mandelbrot strip, `width` u32 a row, each chunk one row: the row's pixels
//                   get their escape counts (an honest compute load, uneven from row to row);
//   find_first:     the first item equal to the one at 1/4 of N, then at 3/4 (values 1..N, so
//                   each is unique; find_first must still find the first).
//
// mini: par_iter(a).zip(par_iter(b)), par_chunks_mut(img, width).enumerate(), find_first; rayon:
// the same chains (apps/rayon/src/lib.rs); oneTBB, std-par and OpenMP: what their users write.
// Each returns a check value: the sum, the image's checksum (taken off the clock), the item found.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <numeric>
#include <span>
#include <vector>

#include <mini/par.hpp>

#if MINI_HAVE_TBB
#include <execution>
#include <oneapi/tbb/blocked_range.h>
#include <oneapi/tbb/parallel_for.h>
#include <oneapi/tbb/parallel_reduce.h>
#endif
#if MINI_HAVE_RAYON
#include "rayon/rayon.h"
#endif

#include "common.hpp"
#include "compare/iter.hpp"
#include "compare/mandelbrot.hpp"
#include "compare/table.hpp"

namespace cmp::indexed {

using iter::Timing, iter::Where, iter::clocked, iter::Values, iter::u64;
using F64s = std::span<const double>;

// ---- serial and mini ---------------------------------------------------------------------------

// zip's two vectors: small integers (i % 1000 and i % 7), so the exact dot product is below 2^53.
inline std::vector<double> dot_input(std::size_t n, std::size_t mod) {
    std::vector<double> v(n);
    for (std::size_t i = 0; i < n; ++i) v[i] = double(i % mod);
    return v;
}
inline u64 dot_serial(F64s a, F64s b) { return u64(std::inner_product(a.begin(), a.end(), b.begin(), 0.0)); }
inline void strip_serial(Pixels img, Strip s) {
    for (std::size_t y = 0; y < s.height; ++y) fill_row(img.subspan(y * s.width, s.width), y, s);
}

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

// ---- rayon's own chains --------------------------------------------------------------------------

#if MINI_HAVE_RAYON
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
#endif

// ---- oneTBB, and libstdc++'s parallel algorithms (on oneTBB) -------------------------------------

// The leftmost match so far; a piece that starts right of it has nothing to offer and stops.
inline void keep_first(std::atomic<std::size_t>& best, std::size_t i) {
    std::size_t b = best.load(std::memory_order_relaxed);
    while (i < b && !best.compare_exchange_weak(b, i, std::memory_order_relaxed)) {}
}
inline u64 found_at(Values v, const std::atomic<std::size_t>& best) {
    const std::size_t i = best.load();
    return i < v.size() ? v[i] : 0;
}

#if MINI_HAVE_TBB
using iter::Range;

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

inline u64 dot_std(F64s a, F64s b) {
    return u64(std::transform_reduce(std::execution::par, a.begin(), a.end(), b.begin(), 0.0));
}
inline void strip_std(Pixels img, Strip s) {
    std::vector<std::size_t> ys(s.height);
    std::iota(ys.begin(), ys.end(), std::size_t{0});
    std::for_each(std::execution::par, ys.begin(), ys.end(),
                  [&](std::size_t y) { fill_row(img.subspan(y * s.width, s.width), y, s); });
}
#endif

// ---- OpenMP ------------------------------------------------------------------------------------

#if MINI_HAVE_OPENMP
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
#endif

// ---- one measurement ---------------------------------------------------------------------------

enum class Chain { zip, chunks, find_first };

inline Timing run_dot(int impl, const Where& w, F64s a, F64s b) {
    return clocked([&]() -> u64 {
        switch (impl) {
        case serial: return dot_serial(a, b);
        case workbook: return dot_mini(w.pool, a, b);
#if MINI_HAVE_RAYON
        case rayon: return dot_rayon(static_cast<const rayon_side_pool*>(w.rayon), a, b);
#endif
#if MINI_HAVE_TBB
        case onetbb: return dot_tbb(a, b);
        case stdpar: return dot_std(a, b);
#endif
#if MINI_HAVE_OPENMP
        case openmp: return dot_omp(w.threads, a, b);
#endif
        }
        return 0;
    });
}

inline Timing run_strip(int impl, const Where& w, Strip s) {
    return timed_fill(s, [&](Pixels img) {
        switch (impl) {
        case serial: return strip_serial(img, s);
        case workbook: return strip_mini(w.pool, img, s);
#if MINI_HAVE_RAYON
        case rayon: return strip_rayon(static_cast<const rayon_side_pool*>(w.rayon), img, s);
#endif
#if MINI_HAVE_TBB
        case onetbb: return strip_tbb(img, s);
        case stdpar: return strip_std(img, s);
#endif
#if MINI_HAVE_OPENMP
        case openmp: return strip_omp(w.threads, img, s);
#endif
        }
    });
}

inline Timing run_find_first(int impl, const Where& w, Values v, u64 target) {
    return clocked([&]() -> u64 {
        switch (impl) {
        case serial: return iter::find_serial(v, target);
        case workbook: return find_first_mini(w.pool, v, target);
#if MINI_HAVE_RAYON
        case rayon: return find_first_rayon(static_cast<const rayon_side_pool*>(w.rayon), v, target);
#endif
#if MINI_HAVE_TBB
        case onetbb: return find_first_tbb(v, target);
        case stdpar: return iter::find_std(v, target); // the first, as std::find
#endif
#if MINI_HAVE_OPENMP
        case openmp: return find_first_omp(w.threads, v, target);
#endif
        }
        return 0;
    });
}

} // namespace cmp::indexed
