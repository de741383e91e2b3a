// The small sorts under both parallel sorts: insertion sort (every slice of at most 20 elements)
// and the shifts that pdqsort's partial_insertion_sort uses (rayon v1.11.0, src/slice/sort.rs,
// insertion_sort_shift_left and friends, copied there from core::slice::sort).
//
// A shift takes one element out of the slice into a local and moves its neighbours over; the slot
// it leaves is the hole. If the comparator throws, the hole's guard puts the element back into the
// hole before the exception leaves, so the slice is a permutation of its input whatever happens
// (rayon's InsertionHole / CopyOnDrop).
#pragma once

#include <concepts>
#include <cstddef>
#include <span>
#include <type_traits>
#include <utility>

namespace mini::slice {

// What the sorts ask of an element: moves that cannot throw, so that a guard's move back into a
// hole always completes (a Rust move is a memcpy and never fails).
template <class T>
concept Sortable = std::is_nothrow_move_constructible_v<T> && std::is_nothrow_move_assignable_v<T>;

// is_less(a, b): rayon's comparator after the API turned `cmp` into `cmp(a, b) == Less`.
template <class F, class T>
concept LessThan = std::predicate<const F&, const T&, const T&>;

namespace detail {

// The element taken out of the slice, and where it goes back.
template <class T>
struct Hole {
    T tmp;
    T* dest;
    Hole(T&& value, T* at) : tmp(std::move(value)), dest(at) {}
    Hole(const Hole&) = delete;
    Hole& operator=(const Hole&) = delete;
    ~Hole() { *dest = std::move(tmp); } // on return and on a throwing comparator alike
};

} // namespace detail

// Inserts v.back() into the sorted v[..len-1]; the element moves left past every greater one, so
// equal elements keep their order (stable).
template <Sortable T, LessThan<T> F>
void shift_tail(std::span<T> v, const F& is_less) {
    if (v.size() < 2) return;
    T* const first = v.data(); // pointers: with indices g++ kept both (7 % more instructions)
    T* const last = first + v.size() - 1;
    if (!is_less(*last, last[-1])) return;
    detail::Hole<T> hole(std::move(*last), last - 1);
    *last = std::move(last[-1]);
    for (T* p = last - 1; p != first && is_less(hole.tmp, p[-1]); --p) {
        *p = std::move(p[-1]);
        hole.dest = p - 1;
    }
}

// Inserts v.front() into the sorted v[1..]; the element moves right past every smaller one.
template <Sortable T, LessThan<T> F>
void shift_head(std::span<T> v, const F& is_less) {
    const std::size_t len = v.size();
    if (len < 2 || !is_less(v[1], v[0])) return;
    detail::Hole<T> hole(std::move(v[0]), &v[1]);
    v[0] = std::move(v[1]);
    for (std::size_t i = 2; i < len && is_less(v[i], hole.tmp); ++i) {
        v[i - 1] = std::move(v[i]);
        hole.dest = &v[i];
    }
}

// Sorts v by inserting each element into the sorted prefix before it: stable, O(n^2), no buffer.
template <Sortable T, LessThan<T> F>
void insertion_sort(std::span<T> v, const F& is_less) {
    for (std::size_t i = 2; i <= v.size(); ++i) shift_tail(v.first(i), is_less);
}

// pdqsort's bet on a nearly sorted slice: fix at most 5 adjacent out-of-order pairs, each by a
// shift both ways; true if the slice ends up sorted. Gives up at once on slices shorter than 50,
// where the shifts would cost as much as the sort they hope to avoid.
template <Sortable T, LessThan<T> F>
bool partial_insertion_sort(std::span<T> v, const F& is_less) {
    constexpr int max_steps = 5;
    constexpr std::size_t shortest_shifting = 50;
    const std::size_t len = v.size();
    std::size_t i = 1;
    for (int step = 0; step < max_steps; ++step) {
        while (i < len && !is_less(v[i], v[i - 1])) ++i;
        if (i == len) return true;
        if (len < shortest_shifting) return false;
        std::swap(v[i - 1], v[i]);
        shift_tail(v.first(i), is_less);
        shift_head(v.subspan(i), is_less);
    }
    return false;
}

} // namespace mini::slice
