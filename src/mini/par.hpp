// Parallel iterators (rayon's iter): sources, adaptors and terminals over the pool.
//
//     #include <mini/par.hpp>
//     std::uint64_t s = mini::par_iter(v).map([](std::uint64_t x) { return x * x; }).sum();
//
// A terminal runs on the calling worker's pool, or on the global pool from outside any pool;
// pool.install([&] { ... }) chooses another one. Chapter 11 explains the layers below.
#pragma once

#include <concepts>
#include <span>
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

// Items begin, begin + 1, ..., end - 1 (none if end <= begin).
template <std::integral I>
iter::RangeIter<I> par_range(I begin, I end) { return {begin, end}; }
inline iter::WideRangeIter par_range(iter::u128 begin, iter::u128 end) { return {begin, end}; }

// par_extend(c, iter): iter's items appended to the container c, in order (chapter 14).
using iter::par_extend;

} // namespace mini
