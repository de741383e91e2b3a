// mergesort (rayon-demo's mergesort/): a parallel merge sort of random u32, after Intel's
// "parallel stable sort". Not mini's par_sort: the demo's own. The halves are sorted under join,
// ping-ponging between the data and one buffer of the same size (allocated inside the timed
// function, as the demo does), and each merge is itself split under join: the longer run at its
// middle, the other where that element would go. Leaves: a sequential stable sort below 32 Ki
// elements, a sequential merge below 64 Ki. The same data and timing as quicksort.hpp.
//
// The demo's leaf is Rust's std sort. Its C++ twin is not std::stable_sort, a different algorithm
// (libstdc++'s branchy merges, and a buffer allocated by each call): it is chapter 15's
// mini::slice::merge_sort, a simpler cousin of the sort rayon copied from Rust's std (runs sorted
// by insertion, merged without a branch on the comparison), with the demo's buffer as its scratch.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include <mini/join.hpp>
#include <mini/slice/mergesort.hpp>

#include "demos/outcome.hpp"
#include "demos/quicksort.hpp"

namespace demos::mergesort {

inline constexpr std::size_t sort_chunk = 32 * 1024, merge_chunk = 64 * 1024;

template <bool Parallel, class A, class B>
void join(A&& a, B&& b) {
    if constexpr (Parallel)
        mini::join(a, b);
    else
        a(), b();
}

// Merges the sorted runs a and b into dest (a.size() + b.size() elements); a's elements first
// among equals, so the sort stays stable.
template <bool Parallel, class T>
void merge(std::span<const T> a, std::span<const T> b, std::span<T> dest) {
    if (dest.size() <= merge_chunk || a.empty() || b.empty()) {
        std::merge(a.begin(), a.end(), b.begin(), b.end(), dest.begin());
        return;
    }
    std::size_t ai, bi; // where a and b are cut
    if (a.size() >= b.size()) {
        ai = a.size() / 2;
        bi = std::size_t(std::lower_bound(b.begin(), b.end(), a[ai]) - b.begin());
    } else {
        bi = b.size() / 2;
        ai = std::size_t(std::upper_bound(a.begin(), a.end(), b[bi]) - a.begin());
    }
    join<Parallel>([&] { merge<Parallel>(a.first(ai), b.first(bi), dest.first(ai + bi)); },
                   [&] { merge<Parallel>(a.subspan(ai), b.subspan(bi), dest.subspan(ai + bi)); });
}

// The leaf: src sorted in place, stable, scratch (as long as src) its buffer.
template <class T>
void leaf_sort(std::span<T> src, std::span<T> scratch) {
    mini::slice::merge_sort(src, scratch.data(), std::less<T>{});
}

template <bool Parallel, class T>
void sort_into(std::span<T> src, std::span<T> dest);

// ANCHOR: sort
// Sorts src, using buf (the same size) as scratch: the halves are sorted into buf, then merged
// back into src.
template <bool Parallel, class T>
void sort(std::span<T> src, std::span<T> buf) {
    if (src.size() <= sort_chunk) return leaf_sort(src, buf);
    const std::size_t mid = src.size() / 2;
    join<Parallel>([&] { sort_into<Parallel>(src.first(mid), buf.first(mid)); },
                   [&] { sort_into<Parallel>(src.subspan(mid), buf.subspan(mid)); });
    merge<Parallel, T>(buf.first(mid), buf.subspan(mid), src);
}
// ANCHOR_END: sort

// Sorts src into dest: the halves are sorted in place, dest's halves their scratch, then merged
// from src into dest.
template <bool Parallel, class T>
void sort_into(std::span<T> src, std::span<T> dest) {
    if (src.size() <= sort_chunk) {
        leaf_sort(src, dest);
        std::copy(src.begin(), src.end(), dest.begin());
        return;
    }
    const std::size_t mid = src.size() / 2;
    join<Parallel>([&] { sort<Parallel>(src.first(mid), dest.first(mid)); },
                   [&] { sort<Parallel>(src.subspan(mid), dest.subspan(mid)); });
    merge<Parallel, T>(src.first(mid), src.subspan(mid), dest);
}

// The whole sort, with its buffer.
template <bool Parallel, class T>
void merge_sort(std::span<T> v) {
    const auto buf = std::unique_ptr<T[]>(new T[v.size()]); // libc++ 14: no make_unique_for_overwrite
    sort<Parallel>(v, std::span<T>(buf.get(), v.size()));
}

inline Outcome serial(std::size_t n) {
    std::vector<std::uint32_t> v = quicksort::input(n);
    return quicksort::sorted(seconds_of([&] { merge_sort<false>(std::span(v)); }), v);
}

inline Outcome on_mini(mini::ThreadPool& pool, std::size_t n) {
    std::vector<std::uint32_t> v = quicksort::input(n);
    return quicksort::sorted(
        seconds_of([&] { pool.install([&] { merge_sort<true>(std::span(v)); }); }), v);
}

} // namespace demos::mergesort
