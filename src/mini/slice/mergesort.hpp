// par_mergesort: rayon's stable sort (rayon v1.11.0, src/slice/sort.rs:1510-1608). The slice is
// cut into chunks of 2000 elements, each sorted sequentially; then merge_recurse merges the
// chunks pairwise up a tree whose two halves are sorted under join, and each merge of two big runs
// is itself split under join (par_merge, merge.hpp).
//
// The levels of the tree alternate between the slice and the buffer, so that each level moves an
// element once: a level that must leave its run in the buffer (IntoBuf) asks its halves for runs
// in the slice, and the other way round. At the top the runs must end in the slice.
//
// rayon sorts the chunks in a first parallel pass and merges them in a second; here the leaves of
// the merge tree sort their chunk, which is the same work in one recursion.
#pragma once

#include <algorithm>
#include <cstddef>
#include <span>

#include <mini/join.hpp>
#include <mini/slice/buffer.hpp>
#include <mini/slice/insertion.hpp>
#include <mini/slice/merge.hpp>

namespace mini::slice {

inline constexpr std::size_t max_insertion = 20;   // sort.rs:1517: no buffer at or below this
inline constexpr std::size_t chunk_length = 2000; // sort.rs:1521: the sequential sort's chunks

// The sequential stable sort of one chunk, in place, with buf (raw, as long as v) as scratch: a
// strictly descending chunk is reversed (strictly: reversing equal keys would swap them); else
// runs of 20 are insertion-sorted and merged bottom-up, each merge skipped when its runs are
// already in order. A throwing comparator leaves v a permutation and buf raw (merge.hpp).
template <Sortable T, LessThan<T> F>
void merge_sort(std::span<T> v, T* buf, const F& is_less) {
    const std::size_t len = v.size();
    if (len <= max_insertion) return insertion_sort(v, is_less);
    std::size_t desc = 1;
    while (desc < len && is_less(v[desc], v[desc - 1])) ++desc;
    if (desc == len) return std::reverse(v.begin(), v.end());
    for (std::size_t i = 0; i < len; i += max_insertion)
        insertion_sort(v.subspan(i, std::min(max_insertion, len - i)), is_less);
    for (std::size_t width = max_insertion; width < len; width *= 2) {
        for (std::size_t i = 0; i + width < len; i += 2 * width)
            merge(v.subspan(i, std::min(2 * width, len - i)), width, buf, is_less);
    }
}

// Sorts v (`chunks` chunks; every chunk but the last chunk_length long), leaving the result in the
// buffer's part `buf` (IntoBuf) or in v. On entry the elements are in v and buf is raw. On return,
// and on an exception (which it lets out after both halves finished), every element is in the
// array it promised: the caller can then merge or move it from there without knowing more.
template <bool IntoBuf, Sortable T, LessThan<T> F>
void merge_recurse(std::span<T> v, T* buf, std::size_t chunks, const F& is_less) {
    if (chunks == 1) {
        try {
            merge_sort(v, buf, is_less);
        } catch (...) {
            if constexpr (IntoBuf) relocate<true>(v.data(), buf, v.size());
            throw;
        }
        if constexpr (IntoBuf) relocate<true>(v.data(), buf, v.size());
        return;
    }
    const std::size_t half = chunks / 2, split = half * chunk_length;
    T* const src = IntoBuf ? v.data() : buf; // where the halves leave their runs
    T* const dest = IntoBuf ? buf : v.data();
    try {
        mini::join([&] { merge_recurse<!IntoBuf>(v.first(split), buf, half, is_less); },
                   [&] { merge_recurse<!IntoBuf>(v.subspan(split), buf + split, chunks - half, is_less); });
    } catch (...) {
        relocate<IntoBuf>(src, dest, v.size()); // both halves kept their promise: move all of it
        throw;
    }
    par_merge<IntoBuf>(std::span<T>(src, split), std::span<T>(src + split, v.size() - split), dest,
                       is_less);
}

template <Sortable T, LessThan<T> F>
void par_mergesort(std::span<T> v, const F& is_less) {
    if (v.size() <= max_insertion) return insertion_sort(v, is_less); // no allocation
    Buffer<T> buf(v.size());
    const std::size_t chunks = (v.size() + chunk_length - 1) / chunk_length;
    merge_recurse<false>(v, buf.data(), chunks, is_less);
}

} // namespace mini::slice
