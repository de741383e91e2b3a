// compare's workloads as oneTBB and OpenMP write them (chapter 6): fib with a cutoff, the sum of
// a vector, and one wake-up round trip, beside the serial sum and mini's round trip. mini's fib
// is apps/fib.hpp's, mini-pw's sleep_work.cpp's, rayon's apps/rayon/src/lib.rs's; every fib
// runs the very same leaves (fib_leaf).
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <vector>

#include <mini/join.hpp>
#include <mini/splitter.hpp>

#if MINI_HAVE_TBB
#include <oneapi/tbb/blocked_range.h>
#include <oneapi/tbb/parallel_invoke.h>
#include <oneapi/tbb/parallel_reduce.h>
#include <oneapi/tbb/task_arena.h>
#endif

#include "fib.hpp"

namespace cmp {

// ---- fib (apps/fib.hpp): every implementation runs the very same leaves ------------------------

using app::fib_leaf;
using app::fib_serial;

#if MINI_HAVE_TBB
// parallel_invoke(f, g) spawns f and runs g itself, so f is B.
// ANCHOR: fib_tbb
inline std::uint64_t fib_tbb(unsigned n, unsigned cutoff) {
    if (n <= cutoff || n < 2) return fib_leaf(n);
    std::uint64_t a, b;
    tbb::parallel_invoke([&] { b = fib_tbb(n - 2, cutoff); }, [&] { a = fib_tbb(n - 1, cutoff); });
    return a + b;
}
// ANCHOR_END: fib_tbb
#endif

#if MINI_HAVE_OPENMP
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
#endif

// ---- sum of a vector --------------------------------------------------------------------------

// The same sequential loop as mini::sum's leaf, so that the speedup compares like with like.
inline std::uint64_t sum_serial(const std::vector<std::uint64_t>& v) {
    return mini::sum_of(v.data(), v.size());
}

#if MINI_HAVE_TBB
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
#endif

#if MINI_HAVE_OPENMP
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
#endif

// ---- one wake-up round trip (app::round_trips runs them in PRODUCERS threads) ------------------

// ANCHOR: trip_mini
inline void trip_mini(mini::ThreadPool& pool, std::atomic<std::uint64_t>& executed) {
    pool.install([&] { executed.fetch_add(1, std::memory_order_relaxed); });
}
// ANCHOR_END: trip_mini

#if MINI_HAVE_TBB
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
#endif

} // namespace cmp
