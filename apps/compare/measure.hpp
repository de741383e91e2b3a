// One measurement of one of compare's workloads (apps/compare.cpp) by one column: the joins and
// fib, the sum, chapter 11's iterator chains, the wake-up round trips. Each goes through
// Bench::timed (or round_trips), so its result is checked and its time recorded in its row.
#pragma once

#include <atomic>
#include <cstdint>
#include <optional>

#include <fmt/core.h>

#include <mini/join.hpp>
#include <mini/splitter.hpp>

#include "common.hpp"
#include "compare/bench.hpp"
#include "compare/indexed.hpp"
#include "compare/iter.hpp"
#include "compare/placement.hpp"
#include "compare/rows.hpp"
#include "compare/table.hpp"
#include "compare/workloads.hpp"
#include "fib.hpp"
#if MINI_HAVE_RAYON
#include "rayon/rayon.h"
#endif

namespace cmp {

// join_1, join_t: fib(join_n) with every call a join, in ns per join (join_1 on each runtime's
// one-thread pool); fib: fib(fib_n) with its cutoff, in ms.
inline void measure_fib(Bench& b, RowId r, int impl) {
    const bool one = r == join_1;
    mini::ThreadPool& pool = one ? b.rt.pool1 : b.rt.pool;
    [[maybe_unused]] const int t = one ? 1 : int(b.o.threads);
    const unsigned n = r == fib ? b.o.fib_n : b.o.join_n, c = r == fib ? b.o.cutoff : 0;
    const bool noted = b.placed(r, impl);
    if (noted) placement::start();
    const std::uint64_t expected = r == fib ? b.in.fib_expected : b.in.join_expected;
    const double unit = r == fib ? 1e-3 : 1e-9, per = r == fib ? 1 : b.in.joins;
    auto timed = [&](auto&& f) { b.timed(r, impl, unit, per, expected, f); };
    switch (impl) {
    case serial:
        timed([&] { return fib_serial(n, c); });
        break;
    case workbook:
        b.counted(r, impl, [&] {
            timed([&] {
                return pool.install([&] {
                    b.started = app::now();
                    return noted ? placement::fib_with(n, c, &placement::noted_leaf)
                                 : app::fib(n, c);
                });
            });
        });
        break;
#if MINI_HAVE_PW
    case workbook_pw:
        b.counted(r, impl,
                  [&] { timed([&] { return (one ? b.rt.pw1 : b.rt.pw)->fib(n, c, b.started); }); });
        break;
#endif
#if MINI_HAVE_RAYON
    case rayon: {
        // rayon::join, its leaves the same fib_leaf called through the C ABI; the joins it made
        // are checked too.
        const rayon_side_pool* rpool = (one ? b.rt.rayon1 : b.rt.rayon).get();
        std::uint64_t made = 0;
        timed([&] {
            return rayon_side_fib(rpool, n, c, noted ? &placement::noted_leaf : &fib_leaf, &made);
        });
        if (made != app::joins_of(n, c)) {
            fmt::print("WRONG: {} on rayon: {} joins, expected {}\n", b.rows[r].label, made,
                       app::joins_of(n, c));
            b.all_ok = false;
        }
        break;
    }
#endif
#if MINI_HAVE_TBB
    case onetbb: {
        tbb::task_arena& arena = one ? b.rt.arena1 : b.rt.arena;
        timed([&] { return arena.execute([&] { return fib_tbb(n, c); }); });
        break;
    }
#endif
#if MINI_HAVE_OPENMP
    case openmp:
        timed([&] { return fib_omp_team(t, n, c); });
        break;
#endif
    }
}

// The sum of `len` u64, in ms.
inline void measure_sum(Bench& b, int impl) {
    const std::vector<std::uint64_t>& values = b.in.values;
    [[maybe_unused]] const int t = int(b.o.threads);
    auto timed = [&](auto&& f) { b.timed(sum, impl, 1e-3, 1, b.in.sum_expected, f); };
    switch (impl) {
    case serial:
        timed([&] { return sum_serial(values); });
        break;
    case workbook:
        b.counted(sum, impl, [&] {
            timed([&] {
                return b.rt.pool.install(
                    [&] { return b.started = app::now(), mini::sum(b.rt.pool, values); });
            });
        });
        break;
#if MINI_HAVE_PW
    case workbook_pw:
        b.counted(sum, impl, [&] { timed([&] { return b.rt.pw->sum(values, b.started); }); });
        break;
#endif
#if MINI_HAVE_RAYON
    case rayon:
        timed([&] { return rayon_side_sum(b.rt.rayon.get(), values.data(), values.size()); });
        break;
#endif
#if MINI_HAVE_TBB
    case onetbb:
        timed([&] { return b.rt.arena.execute([&] { return sum_tbb(values); }); });
        break;
#endif
#if MINI_HAVE_OPENMP
    case openmp:
        timed([&] { return sum_omp(t, values); });
        break;
#endif
    }
}

// Chapter 11's chains and their limits (compare/iter.hpp), in ms.
inline void measure_iter(Bench& b, RowId r, int impl) {
#if MINI_HAVE_RAYON
    const void* rpool = b.rt.rayon.get();
#else
    const void* rpool = nullptr;
#endif
    const iter::Where where{b.rt.pool, rpool, int(b.o.threads)};
    const iter::Values v = chain_of(r) == iter::Chain::collect ? b.in.first : b.in.all;
    const bool limit = limit_row(r);
    b.timed(r, impl, 1e-3, 1, b.in.iter_expected[r], [&] {
        return iter::run(chain_of(r), limit, impl, where,
                         limit && r == it_find_limit ? b.in.to_find : v, b.in.target);
    });
}

// The sort rows (compare/sort.hpp), in ms: the same sorted order in every column (a stable and
// an unstable sort of these inputs agree: equal elements are indistinguishable).
inline void measure_sort(Bench& b, RowId r, int impl) {
#if MINI_HAVE_RAYON
    const void* rpool = b.rt.rayon.get();
#else
    const void* rpool = nullptr;
#endif
    const bool stable = r == sort_u64 || r == sort_str, strings = r == sort_str || r == usort_str;
    b.timed(r, impl, 1e-3, 1, b.in.sort_expected[strings],
            [&] { return sort::run(impl, stable, strings, b.rt.pool, rpool, *b.in.sorts); });
}

// Chapter 13's chains (compare/indexed.hpp), in ms.
inline void measure_indexed(Bench& b, RowId r, int impl) {
#if MINI_HAVE_RAYON
    const void* rpool = b.rt.rayon.get();
#else
    const void* rpool = nullptr;
#endif
    const iter::Where w{b.rt.pool, rpool, int(b.o.threads)};
    b.timed(r, impl, 1e-3, 1, b.in.iter_expected[r], [&] {
        switch (indexed_chain_of(r)) {
        case indexed::Chain::zip: return indexed::run_dot(impl, w, b.in.xs, b.in.ys);
        case indexed::Chain::chunks: return indexed::run_strip(impl, w, b.in.strip);
        default:
            return indexed::run_find_first(impl, w, b.in.all,
                                           r == ix_find_quarter ? b.in.quarter : b.in.target);
        }
    });
}

// Chapter 14's unindexed chains (compare/unindexed.hpp), in ms: mini, rayon and serial.
inline void measure_unindexed(Bench& b, RowId r, int impl) {
#if MINI_HAVE_RAYON
    const void* rpool = b.rt.rayon.get();
#else
    const void* rpool = nullptr;
#endif
    mini::ThreadPool* pool = impl == workbook ? &b.rt.pool : nullptr;
    b.timed(r, impl, 1e-3, 1, b.in.unindexed_expected[r], [&] {
        return unindexed::run(unindexed_chain_of(r), impl == serial, rpool, pool, b.in.all,
                              b.in.first, b.in.target);
    });
}

// PRODUCERS outside threads, ROUNDS round trips each: the trip row and the rows under it.
inline void measure_trip(Bench& b, int impl) {
    const std::size_t producers = b.o.producers, rounds = b.o.rounds;
    const std::uint64_t trips_per_run = b.o.trips_per_run;
    std::optional<app::Trips> got;
    // Each trip timed (for its median and p90); the CPU without the busy threads'.
    const app::TripOptions opt{
        true, [](void* busy) { return static_cast<Busy*>(busy)->cpu_seconds(); }, &b.load};
    const Counted dump(key_of(trip), impl_names[impl], b.run_label, trips_per_run);
    const std::uint64_t slept = b.counts(impl).sleeps;
    if (impl == workbook)
        got = app::round_trips(
            producers, rounds, b.progress,
            [&](std::atomic<std::uint64_t>& e) { trip_mini(b.rt.pool, e); }, opt);
#if MINI_HAVE_PW
    if (impl == workbook_pw)
        got = app::round_trips(
            producers, rounds, b.progress, [&](std::atomic<std::uint64_t>& e) { b.rt.pw->trip(e); },
            opt);
#endif
    const double sleeps = double(b.counts(impl).sleeps - slept);
#if MINI_HAVE_RAYON
    if (impl == rayon)
        got = app::round_trips(
            producers, rounds, b.progress,
            [&](std::atomic<std::uint64_t>& e) {
                e.fetch_add(rayon_side_trip(b.rt.rayon.get()), std::memory_order_relaxed);
            },
            opt);
#endif
#if MINI_HAVE_TBB
    if (impl == onetbb)
        got = app::round_trips(
            producers, rounds, b.progress,
            [&](std::atomic<std::uint64_t>& e) { trip_tbb(b.rt.outside, e); }, opt);
#endif
    if (!got || !b.check(trip, impl, got->executed, trips_per_run)) return;
    auto& rows = b.rows;
    rows[trip].samples[impl].push_back(got->secs / trips_per_run * 1e6);
    rows[trip_p50].samples[impl].push_back(app::quantile(got->trip_secs, 0.5) * 1e6);
    rows[trip_p90].samples[impl].push_back(app::quantile(got->trip_secs, 0.9) * 1e6);
    rows[trip_cpu].samples[impl].push_back(got->cpu_secs / trips_per_run * 1e6);
    if (impl == workbook || impl == workbook_pw)
        rows[trip_sleeps].samples[impl].push_back(sleeps / trips_per_run);
}

// One measurement of workload `r` by implementation `impl`, if that one runs it.
inline void measure(Bench& b, RowId r, int impl) {
    if (r == join_1 || r == join_t || r == fib)
        measure_fib(b, r, impl);
    else if (r == sum)
        measure_sum(b, impl);
    else if (iter_row(r))
        measure_iter(b, r, impl);
    else if (sort_row(r))
        measure_sort(b, r, impl);
    else if (indexed_row(r))
        measure_indexed(b, r, impl);
    else if (unindexed_row(r))
        measure_unindexed(b, r, impl);
    else if (r == trip)
        measure_trip(b, impl);
}

} // namespace cmp
