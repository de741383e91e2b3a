// pdqsort's pivot (rayon v1.11.0, src/slice/sort.rs, choose_pivot and break_patterns).
//
// choose_pivot reads three candidates at a quarter, half and three quarters of the slice (each the
// median of its neighbours when the slice has 50 elements or more: Tukey's ninther) and returns
// the median's index. It swaps nothing: it sorts indices. Its count of index swaps is a guess at
// the slice's shape: none means likely sorted; all twelve means likely descending, and the slice is
// reversed, which turns that case into the first.
//
// break_patterns swaps three elements near the middle with pseudo-random ones, after an
// unbalanced partition, so that an adversarial pattern cannot make every pivot a bad one.
#pragma once

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <span>
#include <utility>

#include <mini/slice/insertion.hpp>

namespace mini::slice {

struct Pivot {
    std::size_t index;
    bool likely_sorted;
};

template <Sortable T, LessThan<T> F>
Pivot choose_pivot(std::span<T> v, const F& is_less) {
    constexpr std::size_t shortest_median_of_medians = 50;
    constexpr int max_swaps = 4 * 3;
    const std::size_t len = v.size();
    std::size_t a = len / 4 * 1, b = len / 4 * 2, c = len / 4 * 3;
    int swaps = 0;
    if (len >= 8) {
        auto sort2 = [&](std::size_t& x, std::size_t& y) {
            if (is_less(v[y], v[x])) std::swap(x, y), ++swaps;
        };
        auto sort3 = [&](std::size_t& x, std::size_t& y, std::size_t& z) {
            sort2(x, y), sort2(y, z), sort2(x, y);
        };
        auto sort_adjacent = [&](std::size_t& x) {
            std::size_t lo = x - 1, hi = x + 1;
            sort3(lo, x, hi);
        };
        if (len >= shortest_median_of_medians) sort_adjacent(a), sort_adjacent(b), sort_adjacent(c);
        sort3(a, b, c);
    }
    if (swaps < max_swaps) return {b, swaps == 0};
    std::reverse(v.begin(), v.end());
    return {len - 1 - b, true};
}

template <Sortable T>
void break_patterns(std::span<T> v) {
    const std::size_t len = v.size();
    if (len < 8) return;
    std::uint32_t random = static_cast<std::uint32_t>(len); // xorshift, seeded by the length
    auto gen_u32 = [&] {
        random ^= random << 13;
        random ^= random >> 17;
        random ^= random << 5;
        return random;
    };
    auto gen_usize = [&] {
        const std::uint64_t high = gen_u32(); // two statements: rayon's order of the two draws
        return (high << 32) | gen_u32();
    };
    const std::uint64_t modulus = std::bit_ceil(std::uint64_t{len});
    const std::size_t pos = len / 4 * 2;
    for (std::size_t i = 0; i < 3; ++i) {
        std::size_t other = static_cast<std::size_t>(gen_usize() & (modulus - 1));
        if (other >= len) other -= len;
        std::swap(v[pos - 1 + i], v[other]);
    }
}

} // namespace mini::slice
