// The merges of par_mergesort (rayon v1.11.0, src/slice/sort.rs: merge, split_for_merge and
// par_merge), over a slice `v` of live elements and a buffer of raw, uninitialized storage of the
// same length (buffer.hpp). An element is in exactly one of the two at any time: moving it into
// the buffer constructs it there (the moved-from shell left in v is overwritten later), moving it
// back assigns it to v and destroys the buffer's copy. Nothing else is ever constructed or
// destroyed, so a sort neither leaks nor destroys an element twice, whatever the comparator does.
#pragma once

#include <cstddef>
#include <memory>
#include <new>
#include <span>
#include <utility>

#include <mini/join.hpp>
#include <mini/sabotage.hpp>
#include <mini/slice/insertion.hpp>

namespace mini::slice {

// Moves n elements from the other array to `dest`: into the raw buffer (IntoBuf: construct; the
// source stays a shell in v) or back into v (assign, then end the buffer's element).
template <bool IntoBuf, class T>
void relocate(T* src, T* dest, std::size_t n) noexcept {
    for (std::size_t i = 0; i < n; ++i) {
        if constexpr (IntoBuf) {
            ::new (static_cast<void*>(dest + i)) T(std::move(src[i]));
        } else {
            dest[i] = std::move(src[i]);
            std::destroy_at(src + i);
        }
    }
}

// Merges the sorted runs v[..mid] and v[mid..] in place, through `buf` (raw, at least mid long):
// the left run moves into buf and is merged back. Ties take the left run: stable. If the
// comparator throws, the guard moves what is left of the left run into the gap, which is exactly
// its size (rayon's MergeHole).
template <Sortable T, LessThan<T> F>
void merge(std::span<T> v, std::size_t mid, T* buf, const F& is_less) {
    if (mid == 0 || mid == v.size() || !is_less(v[mid], v[mid - 1])) return; // already in order
    relocate<true>(v.data(), buf, mid);
    struct Gap {
        T *start, *from, *end, *dest; // buf[start..from] moved out, not yet destroyed
        ~Gap() {
            std::destroy(start, from);
            relocate<false>(from, dest, static_cast<std::size_t>(end - from));
        }
    } gap{buf, buf, buf + mid, v.data()};
    T *r = v.data() + mid, *r_end = v.data() + v.size(); // dest < r while the left run lasts
    while (gap.from < gap.end && r < r_end) {
        // One move from a chosen source, no branch on the comparison (rayon's to_copy): on random
        // input the comparison is a coin toss that a branch would mispredict every other time.
        const bool right = is_less(*r, *gap.from);
        *gap.dest++ = std::move(*(right ? r : gap.from));
        r += right;
        gap.from += !right;
    }
}

// Where to cut two sorted runs so that the two halves merge independently: the middle of the
// longer run, and in the other the first element that must come after it. Left longer: the first
// right[i] not less than left[mid] (equal keys from the right run go after left[mid]); right
// longer: the first left[i] greater than right[mid] (equal keys from the left run stay before).
struct Cut {
    std::size_t left, right;
};

template <Sortable T, LessThan<T> F>
Cut split_for_merge(std::span<T> left, std::span<T> right, const F& is_less) {
    if (left.size() >= right.size()) {
        const std::size_t mid = left.size() / 2;
        std::size_t a = 0, b = right.size();
        while (a < b) {
            const std::size_t m = a + (b - a) / 2;
            if (is_less(right[m], left[mid])) a = m + 1; else b = m;
        }
        return {mid, a};
    }
    const std::size_t mid = right.size() / 2;
    std::size_t a = 0, b = left.size();
    while (a < b) {
        const std::size_t m = a + (b - a) / 2;
        if (is_less(right[mid], left[m])) b = m; else a = m + 1;
    }
    return {a, mid};
}

// The first right[i] greater than `key`: the cut the sabotage gives the second half only.
template <Sortable T, LessThan<T> F>
std::size_t upper_cut(std::span<T> right, const T& key, const F& is_less) {
    std::size_t a = 0, b = right.size();
    while (a < b) {
        const std::size_t m = a + (b - a) / 2;
        if (is_less(key, right[m])) b = m; else a = m + 1;
    }
    return a;
}

// Merges the sorted runs `left` and `right` (both in the other array) into dest[..left+right].
// Below 5000 elements, sequentially; above, it cuts both runs at consistent points and merges the
// two halves under join into disjoint parts of dest. On every path, `rest`'s destructor moves
// whatever has not been merged yet, so dest ends up with every element even if is_less throws.
template <bool IntoBuf, Sortable T, LessThan<T> F>
void par_merge(std::span<T> left, std::span<T> right, T* dest, const F& is_less) {
    constexpr std::size_t max_sequential = 5000; // sort.rs:1342
    struct Rest {
        T *left_start, *left, *left_end, *right_start, *right, *right_end, *dest;
        ~Rest() {
            if constexpr (!IntoBuf) { // [start..] was moved out of the buffer: end it there
                std::destroy(left_start, left);
                std::destroy(right_start, right);
            }
            relocate<IntoBuf>(left, dest, static_cast<std::size_t>(left_end - left));
            relocate<IntoBuf>(right, dest + (left_end - left), static_cast<std::size_t>(right_end - right));
        }
    } rest{left.data(),  left.data(),  left.data() + left.size(), right.data(),
           right.data(), right.data() + right.size(), dest};
    if (left.empty() || right.empty() || left.size() + right.size() < max_sequential) {
        while (rest.left < rest.left_end && rest.right < rest.right_end) {
            const bool from_right = is_less(*rest.right, *rest.left); // ties: left. No branch on
            T* from = from_right ? rest.right : rest.left;              // it: one move from a
            if constexpr (IntoBuf) {                                    // chosen source (merge)
                ::new (static_cast<void*>(rest.dest)) T(std::move(*from));
            } else {
                *rest.dest = std::move(*from);
            }
            ++rest.dest, rest.right += from_right, rest.left += !from_right;
        }
        return; // ~Rest moves the run that is left
    }
    // ANCHOR: par_merge_split
    const Cut cut = split_for_merge(left, right, is_less); // if it throws, ~Rest moves everything
    Cut second = cut; // where the second half starts reading each run
    if constexpr (sabotage::merge_split_inconsistent) { // [MERGE_SPLIT_INCONSISTENT]
        if (cut.left < left.size()) second.right = upper_cut(right, left[cut.left], is_less);
    }
    rest.left_start = rest.left = rest.left_end; // the halves move them from here on
    rest.right_start = rest.right = rest.right_end;
    T* const dest_second = dest + cut.left + cut.right;
    mini::join([&] { par_merge<IntoBuf>(left.first(cut.left), right.first(cut.right), dest, is_less); },
               [&] {
                   par_merge<IntoBuf>(left.subspan(second.left), right.subspan(second.right),
                                      dest_second, is_less);
               });
    // ANCHOR_END: par_merge_split
}

} // namespace mini::slice
