// par_quicksort: rayon's unstable sort, pattern-defeating quicksort (pdqsort) whose two partitions
// are sorted under join once either has more than 2000 elements (rayon v1.11.0, src/slice/sort.rs,
// recurse and par_quicksort).
//
// Every step calls the comparator only where no element is out of the slice, or where a guard
// puts it back (the shifts of insertion.hpp, the pivot of partition.hpp), so an exception leaves
// the slice a permutation of its input; join waits for both partitions before it lets the
// exception out, so no partition still runs on a slice the caller owns again.
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
#include <mini/slice/partition.hpp>
#include <mini/slice/pivot.hpp>

namespace mini::slice {

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
