// compare's sort rows (chapter 15): par_sort and par_sort_unstable of 2^22 random u64 and of
// 2^20 strings (the decimal digits of 2^20 random u64: the same strings in C++ and in Rust).
//
// serial: std::stable_sort, std::sort; mini: mini::par_sort, mini::par_sort_unstable; rayon: its
// own par_sort, par_sort_unstable (apps/rayon/src/sort.rs); oneTBB: tbb::parallel_sort, unstable
// only; std-par: std::stable_sort and std::sort with std::execution::par (libstdc++'s parallel
// algorithms, on oneTBB). Each run sorts a fresh copy of the same input: the copy is made before
// the clock starts, and the result is checked after it stops (a checksum that depends on the
// order, equal to serial's only if the slice is sorted and holds the same elements).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <random>
#include <span>
#include <string>
#include <vector>

#include <mini/par.hpp>

#if MINI_HAVE_TBB
#include <execution>
#include <oneapi/tbb/parallel_sort.h>
#endif
#if MINI_HAVE_RAYON
#include "rayon/rayon.h"
#endif

#include "common.hpp"
#include "compare/iter.hpp"
#include "compare/table.hpp"

namespace cmp::sort {

using u64 = std::uint64_t;
using iter::Timing;

// The inputs, made once, only when a sort row runs.
struct Inputs {
    Inputs(std::size_t n_values, std::size_t n_strings) {
        std::mt19937_64 rng(2022);
        values.resize(n_values);
        for (u64& x : values) x = rng();
        string_seeds.resize(n_strings);
        for (u64& x : string_seeds) x = rng();
        for (u64 x : string_seeds) strings.push_back(std::to_string(x));
    }
    std::vector<u64> values, string_seeds;
    std::vector<std::string> strings;
};

// FNV-1a over the elements in order (a string's bytes, then 0xff): apps/rayon/src/sort.rs
// computes the same.
inline u64 checksum(std::span<const u64> v) {
    u64 h = 14695981039346656037ull;
    for (u64 x : v) h = (h ^ x) * 1099511628211ull;
    return h;
}
inline u64 checksum(std::span<const std::string> v) {
    u64 h = 14695981039346656037ull;
    for (const std::string& s : v) {
        for (unsigned char c : s) h = (h ^ c) * 1099511628211ull;
        h = (h ^ 0xff) * 1099511628211ull;
    }
    return h;
}

// Sorts a copy of `input` with sort_it, on the clock; checks it off the clock.
template <class T, class Sort>
Timing timed_sort(const std::vector<T>& input, Sort sort_it) {
    std::vector<T> v = input;
    const double t0 = app::now();
    sort_it(v);
    const double secs = app::now() - t0;
    return {secs, checksum(std::span<const T>(v))};
}

// ANCHOR: compare_sort_mini
template <class T>
Timing sort_mini(mini::ThreadPool& pool, const std::vector<T>& input, bool stable) {
    return timed_sort(input, [&](std::vector<T>& v) {
        pool.install([&] { stable ? mini::par_sort(v) : mini::par_sort_unstable(v); });
    });
}
// ANCHOR_END: compare_sort_mini

template <class T>
Timing sort_serial(const std::vector<T>& input, bool stable) {
    return timed_sort(input, [&](std::vector<T>& v) {
        stable ? std::stable_sort(v.begin(), v.end()) : std::sort(v.begin(), v.end());
    });
}

#if MINI_HAVE_RAYON
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
#endif

#if MINI_HAVE_TBB
template <class T>
Timing sort_tbb(const std::vector<T>& input) { // tbb::parallel_sort is unstable
    return timed_sort(input, [](std::vector<T>& v) { tbb::parallel_sort(v.begin(), v.end()); });
}
template <class T>
Timing sort_std(const std::vector<T>& input, bool stable) {
    return timed_sort(input, [&](std::vector<T>& v) {
        stable ? std::stable_sort(std::execution::par, v.begin(), v.end())
               : std::sort(std::execution::par, v.begin(), v.end());
    });
}
#endif

// One run of a sort row by column `impl`: `strings` picks the input, `stable` the sort.
inline Timing run(int impl, bool stable, bool strings, mini::ThreadPool& pool,
                  [[maybe_unused]] const void* rayon_pool, const Inputs& in) {
    auto each = [&](auto f) { return strings ? f(in.strings) : f(in.values); };
    switch (impl) {
    case serial:
        return each([&](const auto& v) { return sort_serial(v, stable); });
    case workbook:
        return each([&](const auto& v) { return sort_mini(pool, v, stable); });
#if MINI_HAVE_RAYON
    case rayon: {
        const auto* rp = static_cast<const rayon_side_pool*>(rayon_pool);
        return strings ? sort_strings_rayon(rp, in, stable) : sort_rayon(rp, in.values, stable);
    }
#endif
#if MINI_HAVE_TBB
    case onetbb:
        return each([&](const auto& v) { return sort_tbb(v); });
    case stdpar:
        return each([&](const auto& v) { return sort_std(v, stable); });
#endif
    }
    return {0, 0};
}

} // namespace cmp::sort
