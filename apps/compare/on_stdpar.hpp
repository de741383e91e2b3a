// compare's std-par column: libstdc++'s parallel algorithms (std::execution::par), which run on
// oneTBB: so only where oneTBB was found. The table shows the column only beside the rows that have
// it (compare.cpp's print_table_of).
#pragma once

#include "compare/column.hpp"

#if MINI_HAVE_TBB
#include <algorithm>
#include <cstddef>
#include <execution>
#include <functional>
#include <numeric>
#include <vector>

#include "compare/bench.hpp"
#include "compare/indexed.hpp"
#include "compare/sort.hpp"

namespace cmp::on_stdpar {

using iter::Values, iter::u64, iter::square, iter::timed_vector;
using indexed::F64s, indexed::Pixels, indexed::Strip, indexed::fill_row, indexed::timed_fill;
using sort::timed_sort;

// ---- the implementations ------------------------------------------------------------------------

inline u64 sum_squares_std(Values v) {
    return std::transform_reduce(std::execution::par, v.begin(), v.end(), u64{0}, std::plus<>{},
                                 square);
}
inline Timing collect_std(Values v) {
    return timed_vector([&] {
        std::vector<u64> out(v.size());
        std::transform(std::execution::par, v.begin(), v.end(), out.begin(), square);
        return out;
    });
}
inline u64 find_std(Values v, u64 target) {
    auto it = std::find(std::execution::par, v.begin(), v.end(), target);
    return it == v.end() ? 0 : *it;
}
inline u64 dot_std(F64s a, F64s b) {
    return u64(std::transform_reduce(std::execution::par, a.begin(), a.end(), b.begin(), 0.0));
}
inline void strip_std(Pixels img, Strip s) {
    std::vector<std::size_t> ys(s.height);
    std::iota(ys.begin(), ys.end(), std::size_t{0});
    std::for_each(std::execution::par, ys.begin(), ys.end(),
                  [&](std::size_t y) { fill_row(img.subspan(y * s.width, s.width), y, s); });
}
template <class T>
Timing sort_std(const std::vector<T>& input, bool stable) {
    return timed_sort(input, [&](std::vector<T>& v) {
        stable ? std::stable_sort(std::execution::par, v.begin(), v.end())
               : std::sort(std::execution::par, v.begin(), v.end());
    });
}

// ---- the column ---------------------------------------------------------------------------------

inline Timing par_iter(Bench& b, RowId) { return clocked([&] { return sum_squares_std(b.in.all); }); }
inline Timing collect_vec(Bench& b, RowId) { return collect_std(b.in.first); }
inline Timing find_any(Bench& b, RowId) {
    return clocked([&] { return find_std(b.in.all, b.in.target); });
}
inline Timing par_sort(Bench& b, RowId r) {
    return b.in.each_sort_input(r, [](const auto& v) { return sort_std(v, true); });
}
inline Timing par_sort_unstable(Bench& b, RowId r) {
    return b.in.each_sort_input(r, [](const auto& v) { return sort_std(v, false); });
}
inline Timing zip(Bench& b, RowId) { return clocked([&] { return dot_std(b.in.xs, b.in.ys); }); }
inline Timing par_chunks_mut(Bench& b, RowId) {
    return timed_fill(b.in.strip, [&](Pixels img) { strip_std(img, b.in.strip); });
}
// std::find finds the first.
inline Timing find_first(Bench& b, RowId r) {
    return clocked([&] { return find_std(b.in.all, b.in.find_first_target(r)); });
}

inline constexpr Column column{
    .par_iter = &par_iter, .collect_vec = &collect_vec, .find_any = &find_any,
    .par_sort = &par_sort, .par_sort_unstable = &par_sort_unstable,
    .zip = &zip, .par_chunks_mut = &par_chunks_mut, .find_first = &find_first};

} // namespace cmp::on_stdpar
#else
namespace cmp::on_stdpar {
inline constexpr Column column{};
}
#endif
