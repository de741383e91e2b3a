// Parallel iterators (rayon's iter): sources, adaptors and terminals over the pool.
//
//     #include <mini/par.hpp>
//     std::uint64_t s = mini::par_iter(v).map([](std::uint64_t x) { return x * x; }).sum();
//
// A terminal runs on the calling worker's pool, or on the global pool from outside any pool;
// pool.install([&] { ... }) chooses another one. Chapter 11 explains the layers below.
//
// The sorts, mini::par_sort(v) (stable) and mini::par_sort_unstable(v) with their _by and _by_key
// forms, are declared by mini/slice/sort.hpp (chapter 15).
#pragma once

#include <concepts>
#include <span>
#include <type_traits>
#include <vector>

#include <mini/iter/adaptors.hpp>
#include <mini/iter/filter_map.hpp>
#include <mini/iter/flat_map.hpp>
#include <mini/iter/flat_map_iter.hpp>
#include <mini/iter/fold.hpp>
#include <mini/iter/map_with.hpp>
#include <mini/iter/try_fold.hpp>
#include <mini/iter/try_reduce.hpp>
#include <mini/iter/collect_into.hpp>
#include <mini/iter/unzip.hpp>
#include <mini/iter/par_bridge.hpp>
#include <mini/result.hpp>
#include <mini/iter/sources.hpp>
#include <mini/slice/sort.hpp>
#include <mini/iter/chunks.hpp>
#include <mini/iter/collect_into_vec.hpp>
#include <mini/iter/copied.hpp>
#include <mini/iter/find_first_last.hpp>
#include <mini/iter/min_max.hpp>
#include <mini/iter/rev.hpp>
#include <mini/iter/skip_take.hpp>
#include <mini/iter/sources.hpp>
#include <mini/iter/step_by.hpp>
#include <mini/iter/while_some.hpp>
#include <mini/iter/panic_fuse.hpp>
#include <mini/iter/zip.hpp>

namespace mini {

// Items T& of the vector: writes through them change its elements.
template <class T, class A>
iter::SliceIter<T> par_iter(std::vector<T, A>& v) { return iter::SliceIter<T>(std::span<T>(v)); }
// Items const T&.
template <class T, class A>
iter::SliceIter<const T> par_iter(const std::vector<T, A>& v) {
    return iter::SliceIter<const T>(std::span<const T>(v));
}
// A temporary vector would be gone before the terminal runs.
template <class T, class A>
void par_iter(std::vector<T, A>&&) = delete;
// Items T& (const T& for a span of const T).
template <class T, std::size_t E>
iter::SliceIter<T> par_iter(std::span<T, E> s) { return iter::SliceIter<T>(std::span<T>(s)); }

// Items std::span<const T> of n elements each (the last one shorter): rayon's par_chunks.
template <class T, class A>
iter::ChunksIter<const T, false> par_chunks(const std::vector<T, A>& v, std::size_t n) {
    return {std::span<const T>(v), n};
}
template <class T, std::size_t E>
iter::ChunksIter<const T, false> par_chunks(std::span<T, E> s, std::size_t n) { return {s, n}; }
// Items std::span<T>: writes through them change the elements.
template <class T, class A>
iter::ChunksIter<T, false> par_chunks_mut(std::vector<T, A>& v, std::size_t n) {
    return {std::span<T>(v), n};
}
template <class T, std::size_t E>
iter::ChunksIter<T, false> par_chunks_mut(std::span<T, E> s, std::size_t n) { return {s, n}; }
// Only whole chunks of n; the rest is .remainder().
template <class T, class A>
iter::ChunksIter<const T, true> par_chunks_exact(const std::vector<T, A>& v, std::size_t n) {
    return {std::span<const T>(v), n};
}
template <class T, std::size_t E>
iter::ChunksIter<const T, true> par_chunks_exact(std::span<T, E> s, std::size_t n) { return {s, n}; }
template <class T, class A>
iter::ChunksIter<T, true> par_chunks_exact_mut(std::vector<T, A>& v, std::size_t n) {
    return {std::span<T>(v), n};
}
template <class T, std::size_t E>
iter::ChunksIter<T, true> par_chunks_exact_mut(std::span<T, E> s, std::size_t n) { return {s, n}; }
// A temporary vector would be gone before the terminal runs.
template <class T, class A>
void par_chunks(std::vector<T, A>&&, std::size_t) = delete;
template <class T, class A>
void par_chunks_exact(std::vector<T, A>&&, std::size_t) = delete;

// ANCHOR: par_range
// Items begin, begin + 1, ..., end - 1 (none if end <= begin), of the bounds' one type I: rayon's
// Range<T> has one T. 128-bit ranges may be longer than std::size_t can count: not indexed.
template <iter::range_integer I>
auto par_range(I begin, I end) {
    if constexpr (iter::wide_integer<I>) return iter::WideRangeIter<I>(begin, end);
    else return iter::RangeIter<I>(begin, end);
}
// Bounds of two types: an `int` takes the other bound's type, as a Rust literal does in
// (0..v.len()), so par_range(0, v.size()) is a range of std::size_t. Without this overload the
// call would convert both bounds to one type by C++'s own rules, where -5 becomes 2^64 - 5 and
// the range is silently empty; an int that does not fit the other type throws instead.
template <iter::range_integer A, iter::range_integer B>
    requires(!std::same_as<A, B>)
auto par_range(A begin, B end) {
    static_assert(std::same_as<A, int> || std::same_as<B, int>,
                  "mini::par_range: the two bounds have different integer types; cast one of them "
                  "so that both have the range's type (rayon's Range<T> has one T)");
    using I = std::conditional_t<std::same_as<A, int>, B, A>;
    return par_range(iter::exact_cast<I>(begin), iter::exact_cast<I>(end));
}
// ANCHOR_END: par_range

// par_extend(c, iter): iter's items appended to the container c, in order (chapter 14).
using iter::par_extend;

} // namespace mini
