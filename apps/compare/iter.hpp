// compare's iterator rows (chapter 11): the same three chains on every runtime.
//
//   par_iter:    the sum of squares of N u64 (wrapping);
//   collect_vec: map x -> x * x over the first N / 4, collected into a new vector;
//   find_any:    any item equal to the one at 3/4 of N (the values are 1..N, so it is unique).
//
// mini: mini::par_iter; rayon: its own par_iter (apps/rayon/src/lib.rs); oneTBB: parallel_reduce
// and parallel_for; std-par: libstdc++'s parallel algorithms, which run on oneTBB; OpenMP: a
// parallel for. Each function returns a check value (the sum, a checksum of the vector, the item
// found) and, where the timing must end before the check, the seconds it took (Timing): a
// collected vector is checked and freed after its clock stops, in every column alike.
//
// The `limit` functions are the machine's limit beside a row: one plain serial pass over the same
// memory (read it, or copy it into a new vector), with nothing else to do.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <numeric>
#include <span>
#include <thread>
#include <vector>

#include <mini/par.hpp>
#include <mini/splitter.hpp>

#if MINI_HAVE_TBB
#include <execution>
#include <oneapi/tbb/blocked_range.h>
#include <oneapi/tbb/parallel_for.h>
#include <oneapi/tbb/parallel_reduce.h>
#endif
#if MINI_HAVE_OPENMP
#include <omp.h>
#endif
#if MINI_HAVE_RAYON
#include "rayon/rayon.h"
#endif

#include "common.hpp"
#include "compare/table.hpp"

namespace cmp::iter {

using u64 = std::uint64_t;
using Values = std::span<const u64>;

struct Timing {
    double secs;
    u64 value;
};

// A lambda, not a function: a function passed to map would be called through its pointer.
inline constexpr auto square = [](u64 x) { return x * x; };

// What every column's collected vector is checked by: the wrapping sum of its elements.
inline u64 checksum(const u64* p, std::size_t n) { return mini::sum_of(p, n); }

// Times make(), then checks the vector it made (and frees it) off the clock.
template <class Make>
Timing timed_vector(Make make) {
    const double t0 = app::now();
    std::vector<u64> out = make();
    const double secs = app::now() - t0;
    return {secs, checksum(out.data(), out.size())};
}

// ---- serial ------------------------------------------------------------------------------------

inline u64 sum_squares_serial(Values v) {
    u64 s = 0;
    for (u64 x : v) s += square(x);
    return s;
}
inline Timing collect_serial(Values v) {
    return timed_vector([&] {
        std::vector<u64> out(v.size());
        std::transform(v.begin(), v.end(), out.begin(), square);
        return out;
    });
}
inline u64 find_serial(Values v, u64 target) {
    auto it = std::find(v.begin(), v.end(), target);
    return it == v.end() ? 0 : *it;
}

// The machine's limits: read the same memory once; copy it once into a new vector.
inline u64 read_limit(Values v) { return mini::sum_of(v.data(), v.size()); }
inline Timing copy_limit(Values v) {
    return timed_vector([&] { return std::vector<u64>(v.begin(), v.end()); });
}

// ---- mini: the chains of chapter 11, on `pool` ---------------------------------------------------

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

// ---- rayon's own par_iter ----------------------------------------------------------------------

#if MINI_HAVE_RAYON
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
#endif

// ---- oneTBB, and libstdc++'s parallel algorithms (on oneTBB) -------------------------------------

#if MINI_HAVE_TBB
using Range = tbb::blocked_range<std::size_t>;

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

inline u64 sum_squares_std(Values v) {
    return std::transform_reduce(std::execution::par, v.begin(), v.end(), u64{0}, std::plus<>{},
                                 square);
}
inline Timing collect_std(Values v) {
    return timed_vector([&] {
        std::vector<u64> out(v.size());
        std::transform(std::execution::par, v.begin(), v.end(), out.begin(), square);
        return out;
    });
}
inline u64 find_std(Values v, u64 target) {
    auto it = std::find(std::execution::par, v.begin(), v.end(), target);
    return it == v.end() ? 0 : *it;
}
#endif

// ---- OpenMP ------------------------------------------------------------------------------------

#if MINI_HAVE_OPENMP
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
#endif

// ---- one measurement ---------------------------------------------------------------------------

enum class Chain { sum, collect, find };

struct Where {
    mini::ThreadPool& pool;
    const void* rayon; // a rayon_side_pool, where rayon is built
    int threads;
};

template <class F>
Timing clocked(F f) {
    const double t0 = app::now();
    const u64 value = f();
    return {app::now() - t0, value};
}

// One run of `chain` by column `impl` (the limit: serial's pass over the same memory), timed.
inline Timing run(Chain chain, bool limit, int impl, const Where& w, Values v, u64 target) {
#if MINI_HAVE_RAYON
    const auto* rp = static_cast<const rayon_side_pool*>(w.rayon);
#endif
    if (limit)
        return chain == Chain::collect ? copy_limit(v) : clocked([&] { return read_limit(v); });
    switch (impl) {
    case serial:
        if (chain == Chain::collect) return collect_serial(v);
        return clocked([&] { return chain == Chain::sum ? sum_squares_serial(v) : find_serial(v, target); });
    case workbook:
        if (chain == Chain::collect) return collect_mini(w.pool, v);
        return clocked([&] {
            return chain == Chain::sum ? sum_squares_mini(w.pool, v) : find_mini(w.pool, v, target);
        });
#if MINI_HAVE_RAYON
    case rayon:
        if (chain == Chain::collect) return collect_rayon(rp, v);
        return clocked([&] {
            return chain == Chain::sum ? sum_squares_rayon(rp, v) : find_rayon(rp, v, target);
        });
#endif
#if MINI_HAVE_TBB
    case onetbb:
        if (chain == Chain::collect) return collect_tbb(v);
        return clocked([&] { return chain == Chain::sum ? sum_squares_tbb(v) : find_tbb(v, target); });
    case stdpar:
        if (chain == Chain::collect) return collect_std(v);
        return clocked([&] { return chain == Chain::sum ? sum_squares_std(v) : find_std(v, target); });
#endif
#if MINI_HAVE_OPENMP
    case openmp:
        if (chain == Chain::collect) return collect_omp(w.threads, v);
        return clocked([&] {
            return chain == Chain::sum ? sum_squares_omp(w.threads, v) : find_omp(w.threads, v, target);
        });
#endif
    }
    return {0, 0};
}

} // namespace cmp::iter
