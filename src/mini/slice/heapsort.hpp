// pdqsort's guarantee: after too many unbalanced partitions, the rest of the slice is heapsorted,
// O(n log n) whatever the input (rayon v1.11.0, src/slice/sort.rs, heapsort). Swaps only: a
// throwing comparator leaves a permutation.
#pragma once

#include <cstddef>
#include <span>
#include <utility>

#include <mini/slice/insertion.hpp>

namespace mini::slice {

// Moves v[node] down the max-heap v until both children are no greater.
template <Sortable T, LessThan<T> F>
void sift_down(std::span<T> v, std::size_t node, const F& is_less) {
    for (;;) {
        std::size_t child = 2 * node + 1;
        if (child >= v.size()) return;
        if (child + 1 < v.size() && is_less(v[child], v[child + 1])) ++child; // the greater child
        if (!is_less(v[node], v[child])) return;
        std::swap(v[node], v[child]);
        node = child;
    }
}

template <Sortable T, LessThan<T> F>
void heapsort(std::span<T> v, const F& is_less) {
    for (std::size_t i = v.size() / 2; i-- > 0;) sift_down(v, i, is_less); // build the heap
    for (std::size_t end = v.size(); end-- > 1;) { // pop the maximum to the back, one at a time
        std::swap(v[0], v[end]);
        sift_down(v.first(end), 0, is_less);
    }
}

} // namespace mini::slice
