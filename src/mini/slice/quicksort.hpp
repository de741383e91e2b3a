// par_quicksort: rayon's unstable sort, pattern-defeating quicksort (pdqsort) whose two partitions
// are sorted under join once either has more than 2000 elements (rayon v1.11.0, src/slice/sort.rs,
// recurse and par_quicksort).
//
// Every step moves elements by swaps only (the shifts of insertion.hpp put their element back
// when the comparator throws), so an exception leaves the slice a permutation of its input; join
// waits for both partitions before it lets the exception out, so no partition still runs on a
// slice the caller owns again.
#pragma once

#include <algorithm>
#include <bit>
#include <cstddef>
#include <span>
#include <utility>

#include <mini/join.hpp>
#include <mini/sabotage.hpp>
#include <mini/slice/heapsort.hpp>
#include <mini/slice/insertion.hpp>
#include <mini/slice/pivot.hpp>

namespace mini::slice {

// Moves the pivot to v[0], then every element less than it to its left: returns the pivot's final
// index and whether the slice was already partitioned (nothing swapped).
template <Sortable T, LessThan<T> F>
std::pair<std::size_t, bool> partition(std::span<T> v, std::size_t pivot, const F& is_less) {
    std::swap(v[0], v[pivot]);
    const T& p = v[0]; // stays at v[0]: the swaps below touch v[1..] only
    std::span<T> rest = v.subspan(1);
    std::size_t l = 0, r = rest.size();
    while (l < r && is_less(rest[l], p)) ++l;
    while (l < r && !is_less(rest[r - 1], p)) --r;
    const bool was_partitioned = l >= r;
    for (;;) { // Hoare's scheme: rest[..l] < p <= rest[r..]
        while (l < r && is_less(rest[l], p)) ++l;
        while (l < r && !is_less(rest[r - 1], p)) --r;
        if (l >= r) break;
        std::swap(rest[l++], rest[--r]);
    }
    std::swap(v[0], v[l]);
    return {l, was_partitioned};
}

// For a pivot no greater than the predecessor (the pivot of the partition to the left, which is
// no greater than anything here): puts every element equal to the pivot first and returns how
// many. Slices with many duplicates finish in linear time.
template <Sortable T, LessThan<T> F>
std::size_t partition_equal(std::span<T> v, std::size_t pivot, const F& is_less) {
    std::swap(v[0], v[pivot]);
    const T& p = v[0];
    std::span<T> rest = v.subspan(1);
    std::size_t l = 0, r = rest.size();
    for (;;) {
        while (l < r && !is_less(p, rest[l])) ++l;
        while (l < r && is_less(p, rest[r - 1])) --r;
        if (l >= r) break;
        std::swap(rest[l++], rest[--r]);
    }
    return l + 1; // the pivot and the l elements equal to it
}

// Sorts v; `pred` is null or an element before v no greater than any of v's. `limit` counts the
// unbalanced partitions left before heapsort takes over.
template <Sortable T, LessThan<T> F>
void recurse(std::span<T> v, const F& is_less, const T* pred, unsigned limit) {
    constexpr std::size_t max_insertion = 20;   // sort.rs: slices up to this length: insertion sort
    constexpr std::size_t max_sequential = 2000; // sort.rs:839: partitions up to this: no join
    bool was_balanced = true, was_partitioned = true;
    for (;;) {
        const std::size_t len = v.size();
        if (len <= max_insertion) return insertion_sort(v, is_less);
        if (limit == 0) return heapsort(v, is_less);
        if (!was_balanced) {
            break_patterns(v);
            --limit;
        }
        const auto [pivot, likely_sorted] = choose_pivot(v, is_less);
        if (was_balanced && was_partitioned && likely_sorted && partial_insertion_sort(v, is_less))
            return;
        if (pred != nullptr && !is_less(*pred, v[pivot])) { // the pivot equals the predecessor
            v = v.subspan(partition_equal(v, pivot, is_less));
            continue;
        }
        const auto [mid, partitioned] = partition(v, pivot, is_less);
        was_balanced = std::min(mid, len - mid) >= len / 8;
        was_partitioned = partitioned;
        std::span<T> left = v.first(mid), right = v.subspan(mid + 1);
        const T* p = &v[mid]; // read by both sides, moved by neither
        // ANCHOR: quicksort_join
        if (std::max(left.size(), right.size()) <= max_sequential) {
            // Recurse into the shorter side and loop on the longer: the stack stays O(log n).
            if (left.size() < right.size()) {
                recurse(left, is_less, pred, limit);
                v = right, pred = p;
            } else {
                recurse(right, is_less, p, limit);
                v = left;
            }
            continue;
        }
        if constexpr (sabotage::quicksort_no_join) { // [QUICKSORT_NO_JOIN] both sides, one thread
            recurse(left, is_less, pred, limit);
            recurse(right, is_less, p, limit);
        } else {
            mini::join([&] { recurse(left, is_less, pred, limit); },
                       [&] { recurse(right, is_less, p, limit); });
        }
        return;
        // ANCHOR_END: quicksort_join
    }
}

template <Sortable T, LessThan<T> F>
void par_quicksort(std::span<T> v, const F& is_less) {
    // Imbalanced partitions allowed before heapsort: floor(log2(len)) + 1 (sort.rs:943-944).
    const auto limit = static_cast<unsigned>(std::bit_width(v.size()));
    recurse(v, is_less, static_cast<const T*>(nullptr), limit);
}

} // namespace mini::slice
