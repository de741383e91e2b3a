// compare's indexed rows (chapter 13): three chains rayon users write, on every runtime.
//
//   zip:            the dot product of two vectors of N f64 (a zip, a map, a sum); the values are
//                   small integers, so every order of the additions gives the same exact sum;
//   par_chunks_mut: a Mandelbrot strip, `width` u32 a row, each chunk one row: the row's pixels
//                   get their escape counts (an honest compute load, uneven from row to row);
//   find_first:     the first item equal to the one at 1/4 of N, then at 3/4 (values 1..N, so
//                   each is unique; find_first must still find the first).
//
// mini: par_iter(a).zip(par_iter(b)), par_chunks_mut(img, width).enumerate(), find_first; rayon:
// the same chains (apps/rayon/src/lib.rs); oneTBB, std-par and OpenMP: what their users write.
// Each runtime's chains are in its own file (on_NAME.hpp); here: the inputs, the serial loops and
// the helpers of the find_first leaves. Each returns a check value: the sum, the image's checksum (taken off the clock), the item found.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <numeric>
#include <span>
#include <vector>

#include <mini/par.hpp>


#include "common.hpp"
#include "compare/iter.hpp"
#include "compare/mandelbrot.hpp"

namespace cmp::indexed {

using iter::Timing, iter::clocked, iter::Values, iter::u64;
using F64s = std::span<const double>;

// ---- serial ---------------------------------------------------------------------------------

// zip's two vectors: small integers (i % 1000 and i % 7), so the exact dot product is below 2^53.
inline std::vector<double> dot_input(std::size_t n, std::size_t mod) {
    std::vector<double> v(n);
    for (std::size_t i = 0; i < n; ++i) v[i] = double(i % mod);
    return v;
}
inline u64 dot_serial(F64s a, F64s b) { return u64(std::inner_product(a.begin(), a.end(), b.begin(), 0.0)); }
inline void strip_serial(Pixels img, Strip s) {
    for (std::size_t y = 0; y < s.height; ++y) fill_row(img.subspan(y * s.width, s.width), y, s);
}

// The leftmost match so far; a piece that starts right of it has nothing to offer and stops.
inline void keep_first(std::atomic<std::size_t>& best, std::size_t i) {
    std::size_t b = best.load(std::memory_order_relaxed);
    while (i < b && !best.compare_exchange_weak(b, i, std::memory_order_relaxed)) {}
}
inline u64 found_at(Values v, const std::atomic<std::size_t>& best) {
    const std::size_t i = best.load();
    return i < v.size() ? v[i] : 0;
}

} // namespace cmp::indexed
