// The six parallel sorts of <mini/par.hpp>, rayon's ParallelSliceMut (rayon v1.11.0,
// src/slice/mod.rs:379-729), as free functions over a std::vector or a std::span:
//
//     mini::par_sort(v);                                       // stable, operator<
//     mini::par_sort_by(v, [](const P& a, const P& b) { return a.key <=> b.key; });
//     mini::par_sort_by_key(v, [](const P& p) { return p.key; });
//     mini::par_sort_unstable(v);                              // and _by, _by_key
//
// A comparator returns std::weak_ordering (rayon's Ordering); the sorts ask only whether it is
// less, as rayon's do. It runs on several threads at once, so it must be safe to call
// concurrently (rayon's Fn + Sync). If it throws, the exception reaches the caller once every
// part of the sort has stopped, and the slice is a permutation of its input.
#pragma once

#include <compare>
#include <concepts>
#include <ranges>
#include <span>
#include <utility>
#include <vector>

#include <mini/slice/mergesort.hpp>
#include <mini/slice/quicksort.hpp>

namespace mini {

namespace slice {
template <class F, class T>
concept Comparator = requires(const F& cmp, const T& a, const T& b) {
    { cmp(a, b) } -> std::convertible_to<std::weak_ordering>;
};
template <class K, class T>
concept KeyFn = requires(const K& key, const T& a) {
    { key(a) < key(a) } -> std::convertible_to<bool>;
};
template <class T, class A>
std::span<T> as_span(std::vector<T, A>& v) { return v; }
template <class T, std::size_t E>
std::span<T> as_span(std::span<T, E> s) { return s; }
} // namespace slice

// ANCHOR: api
// A std::vector or a std::span whose elements the sorts can move (slice::Sortable).
template <class S>
concept SortableRange = requires(S& s) {
    { slice::as_span(s) } -> std::ranges::contiguous_range;
} && slice::Sortable<typename decltype(slice::as_span(std::declval<S&>()))::element_type>;

template <class S>
using element_t = typename decltype(slice::as_span(std::declval<S&>()))::element_type;

template <SortableRange S>
void par_sort(S&& s) {
    slice::par_mergesort(slice::as_span(s), [](const auto& a, const auto& b) { return a < b; });
}
template <SortableRange S, slice::Comparator<element_t<S>> F>
void par_sort_by(S&& s, const F& cmp) {
    slice::par_mergesort(slice::as_span(s), [&cmp](const auto& a, const auto& b) {
        return std::weak_ordering(cmp(a, b)) < 0;
    });
}
template <SortableRange S, slice::KeyFn<element_t<S>> K>
void par_sort_by_key(S&& s, const K& key) {
    slice::par_mergesort(slice::as_span(s),
                         [&key](const auto& a, const auto& b) { return key(a) < key(b); });
}
// ANCHOR_END: api

template <SortableRange S>
void par_sort_unstable(S&& s) {
    slice::par_quicksort(slice::as_span(s), [](const auto& a, const auto& b) { return a < b; });
}
template <SortableRange S, slice::Comparator<element_t<S>> F>
void par_sort_unstable_by(S&& s, const F& cmp) {
    slice::par_quicksort(slice::as_span(s), [&cmp](const auto& a, const auto& b) {
        return std::weak_ordering(cmp(a, b)) < 0;
    });
}
template <SortableRange S, slice::KeyFn<element_t<S>> K>
void par_sort_unstable_by_key(S&& s, const K& key) {
    slice::par_quicksort(slice::as_span(s),
                         [&key](const auto& a, const auto& b) { return key(a) < key(b); });
}

} // namespace mini
