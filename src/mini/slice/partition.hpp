// pdqsort's partitions (rayon 1.6.1, src/slice/quicksort.rs: partition_in_blocks, partition and
// partition_equal; rayon v1.11.0, src/slice/sort.rs, the same three).
//
// partition_in_blocks is BlockQuicksort's (Edelkamp and Weiß, ESA 2016): it first compares a
// block of 128 elements on each side with the pivot, writing down the offsets of the ones on the
// wrong side without a branch, then exchanges the two lists. The comparisons no longer decide a
// jump, so a random slice costs no mispredicted branch per element, which Hoare's loop pays about
// once in two.
//
// The comparator runs only while the offsets are written down, never while elements move, and
// the pivot sits in a guard that puts it back: an exception leaves the slice a permutation.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <utility>

#include <mini/slice/insertion.hpp>

namespace mini::slice {

// Puts every element of v less than `pivot` first and returns how many.
template <Sortable T, LessThan<T> F>
std::size_t partition_in_blocks(std::span<T> v, const T& pivot, const F& is_less) {
    constexpr std::size_t block = 128;
    T* l = v.data();
    T* r = v.data() + v.size();
    std::size_t block_l = block, block_r = block;
    std::uint8_t offsets_l[block], offsets_r[block];
    std::uint8_t *start_l = offsets_l, *end_l = offsets_l; // offsets not yet exchanged
    std::uint8_t *start_r = offsets_r, *end_r = offsets_r;
    for (;;) {
        const bool is_done = static_cast<std::size_t>(r - l) <= 2 * block;
        if (is_done) { // size the last blocks so that they cover the gap exactly
            std::size_t rem = static_cast<std::size_t>(r - l);
            if (start_l < end_l || start_r < end_r) rem -= block;
            if (start_l < end_l) block_r = rem;
            else if (start_r < end_r) block_l = rem;
            else block_l = rem / 2, block_r = rem - block_l;
        }
        // ANCHOR: partition_in_blocks
        if (start_l == end_l) { // offsets of the left block's elements not less than the pivot
            start_l = end_l = offsets_l;
            const T* elem = l;
#pragma GCC unroll 4 // rustc unrolls both loops four times; g++ at -O3 does not unless asked
            for (std::size_t i = 0; i < block_l; ++i, ++elem) {
                *end_l = static_cast<std::uint8_t>(i);
                end_l += !is_less(*elem, pivot); // no branch: the offset stays if it belongs right
            }
        }
        if (start_r == end_r) { // offsets (from r, backwards) of the right block's smaller ones
            start_r = end_r = offsets_r;
            const T* elem = r;
#pragma GCC unroll 4
            for (std::size_t i = 0; i < block_r; ++i) {
                --elem;
                *end_r = static_cast<std::uint8_t>(i);
                end_r += is_less(*elem, pivot);
            }
        }
        // ANCHOR_END: partition_in_blocks
        const std::size_t count = static_cast<std::size_t>(std::min(end_l - start_l, end_r - start_r));
        if (count > 0) { // exchange as a cycle: one temporary, one move per element
            T* left = l + *start_l; // the two places this step moves between
            T* const r1 = r - 1; // right = r1 - offset
            T* right = r1 - *start_r;
            T tmp = std::move(*left);
            *left = std::move(*right);
            for (std::size_t i = 1; i < count; ++i) {
                left = l + start_l[i];
                *right = std::move(*left);
                right = r1 + -static_cast<std::ptrdiff_t>(start_r[i]); // g++: neg + lea, not three
                *left = std::move(*right);
            }
            *right = std::move(tmp);
            start_l += count, start_r += count; // after the loop: one index inside it, not three
        }
        if (start_l == end_l) l += block_l; // the left block is done: the next one
        if (start_r == end_r) r -= block_r;
        if (is_done) break;
    }
    // At most one block still has offsets: move its misplaced elements to the far end of the gap.
    if (start_l < end_l) {
        while (start_l < end_l) std::swap(l[*--end_l], *--r);
        return static_cast<std::size_t>(r - v.data());
    }
    while (start_r < end_r) std::swap(*l++, *(r - 1 - *--end_r));
    return static_cast<std::size_t>(l - v.data());
}

// Moves the pivot to v[0], then every element less than it to its left: returns the pivot's final
// index and whether the slice was already partitioned (nothing out of place).
template <Sortable T, LessThan<T> F>
std::pair<std::size_t, bool> partition(std::span<T> v, std::size_t pivot, const F& is_less) {
    std::swap(v[0], v[pivot]);
    std::size_t l = 0, r = v.size() - 1;
    bool was_partitioned = false;
    {
        // The pivot in a local: the compiler keeps it in a register instead of reloading v[0]
        // after each write. The guard puts it back, also when is_less throws (rayon's CopyOnDrop).
        detail::Hole<T> held(std::move(v[0]), &v[0]);
        const T& p = held.tmp;
        std::span<T> rest = v.subspan(1);
        while (l < r && is_less(rest[l], p)) ++l;
        while (l < r && !is_less(rest[r - 1], p)) --r;
        was_partitioned = l >= r;
        l += partition_in_blocks(rest.subspan(l, r - l), p, is_less);
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

} // namespace mini::slice
