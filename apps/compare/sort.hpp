// compare's sort rows (chapter 15): par_sort and par_sort_unstable of 2^22 random u64 and of
// 2^20 strings (the decimal digits of 2^20 random u64: the same strings in C++ and in Rust).
//
// serial: std::stable_sort, std::sort; mini: mini::par_sort, mini::par_sort_unstable; rayon: its
// own par_sort, par_sort_unstable (apps/rayon/src/sort.rs); oneTBB: tbb::parallel_sort, unstable
// only; std-par: std::stable_sort and std::sort with std::execution::par (libstdc++'s parallel
// algorithms, on oneTBB), each in its runtime's file (on_NAME.hpp). Each run sorts a fresh copy of the same input: the copy is made before
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


#include "common.hpp"
#include "compare/iter.hpp"

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

template <class T>
Timing sort_serial(const std::vector<T>& input, bool stable) {
    return timed_sort(input, [&](std::vector<T>& v) {
        stable ? std::stable_sort(v.begin(), v.end()) : std::sort(v.begin(), v.end());
    });
}

} // namespace cmp::sort
