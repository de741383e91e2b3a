// quicksort (rayon-demo's quicksort/): a Lomuto quicksort of random u32 whose two halves are
// sorted under join. Not mini's par_sort_unstable: the demo's own, with the last element as the
// pivot (sorted input would degrade it to n^2) and plain recursion below 5 * 1024 elements.
// Data: n u32 from the seeded generator, made before the timer; the sort alone is timed.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include <mini/join.hpp>

#include "demos/outcome.hpp"
#include "demos/rng.hpp"

namespace demos::quicksort {

inline std::vector<std::uint32_t> input(std::size_t n) {
    XorShift rng;
    std::vector<std::uint32_t> v(n);
    for (auto& x : v) x = rng.next_u32();
    return v;
}

// Moves every element <= the last one before it, and it to its place; returns that place.
template <class T>
std::size_t partition(std::span<T> v) {
    const std::size_t pivot = v.size() - 1;
    std::size_t store = 0;
    for (std::size_t i = 0; i < pivot; ++i)
        if (v[i] <= v[pivot]) std::swap(v[i], v[store++]);
    std::swap(v[store], v[pivot]);
    return store;
}

// ANCHOR: quick_sort
template <bool Parallel, class T>
void quick_sort(std::span<T> v) {
    if (v.size() <= 1) return;
    if (Parallel && v.size() <= 5 * 1024) return quick_sort<false>(v); // too small to share
    const std::size_t mid = partition(v);
    const auto lo = v.first(mid), hi = v.subspan(mid + 1); // the pivot is in place
    if constexpr (Parallel)
        mini::join([lo] { quick_sort<true>(lo); }, [hi] { quick_sort<true>(hi); });
    else
        quick_sort<false>(lo), quick_sort<false>(hi);
}
// ANCHOR_END: quick_sort

// The fingerprint of the sorted vector, and whether it is sorted.
inline Outcome sorted(double secs, const std::vector<std::uint32_t>& v) {
    return {secs, fingerprint(std::span(v)), std::is_sorted(v.begin(), v.end())};
}

inline Outcome serial(std::size_t n) {
    std::vector<std::uint32_t> v = input(n);
    return sorted(seconds_of([&] { quick_sort<false>(std::span(v)); }), v);
}

inline Outcome on_mini(mini::ThreadPool& pool, std::size_t n) {
    std::vector<std::uint32_t> v = input(n);
    return sorted(seconds_of([&] { pool.install([&] { quick_sort<true>(std::span(v)); }); }), v);
}

} // namespace demos::quicksort
