// compare's serial column: each workload's plain loop, from the workload's own header (iter.hpp,
// sort.hpp, indexed.hpp, unindexed.hpp; fib.hpp's recursion without join), the baseline of every
// speedup. Bench::timed runs it on each CPU in turn, pinned, and keeps the fastest. It alone runs
// the limit rows: one plain pass over the same memory.
#pragma once

#include <cstdint>
#include <vector>

#include <mini/splitter.hpp>

#include "compare/bench.hpp"
#include "compare/column.hpp"
#include "compare/indexed.hpp"
#include "compare/sort.hpp"
#include "compare/unindexed.hpp"
#include "fib.hpp"

namespace cmp::on_serial {

using iter::u64;

// The same sequential loop as mini::sum's leaf, so that the speedup compares like with like.
inline std::uint64_t sum_serial(const std::vector<std::uint64_t>& v) {
    return mini::sum_of(v.data(), v.size());
}

// join_1, join_t: the same recursion without join, per call that would join; fib: with its cutoff.
inline Timing fib(Bench& b, RowId r) {
    const unsigned n = b.fib_n(r), c = b.cutoff(r);
    return clocked([&] { return app::fib_serial(n, c); });
}
inline Timing sum(Bench& b, RowId) { return clocked([&] { return sum_serial(b.in.values); }); }
inline Timing par_iter(Bench& b, RowId) {
    return clocked([&] { return iter::sum_squares_serial(b.in.all); });
}
inline Timing par_iter_limit(Bench& b, RowId) {
    return clocked([&] { return iter::read_limit(b.in.all); });
}
inline Timing collect_vec(Bench& b, RowId) { return iter::collect_serial(b.in.first); }
inline Timing collect_vec_limit(Bench& b, RowId) { return iter::copy_limit(b.in.first); }
inline Timing find_any(Bench& b, RowId) {
    return clocked([&] { return iter::find_serial(b.in.all, b.in.target); });
}
inline Timing find_any_limit(Bench& b, RowId) {
    return clocked([&] { return iter::read_limit(b.in.to_find); });
}
inline Timing par_sort(Bench& b, RowId r) { // std::stable_sort
    return b.in.each_sort_input(r, [](const auto& v) { return sort::sort_serial(v, true); });
}
inline Timing par_sort_unstable(Bench& b, RowId r) { // std::sort
    return b.in.each_sort_input(r, [](const auto& v) { return sort::sort_serial(v, false); });
}
inline Timing zip(Bench& b, RowId) {
    return clocked([&] { return indexed::dot_serial(b.in.xs, b.in.ys); });
}
inline Timing par_chunks_mut(Bench& b, RowId) {
    return indexed::timed_fill(b.in.strip,
                               [&](indexed::Pixels img) { indexed::strip_serial(img, b.in.strip); });
}
inline Timing find_first(Bench& b, RowId r) {
    return clocked([&] { return iter::find_serial(b.in.all, b.in.find_first_target(r)); });
}
inline Timing word_count(Bench& b, RowId) {
    return clocked([&] { return unindexed::word_count_serial(b.in.all); });
}
inline Timing filter_map(Bench& b, RowId) {
    return clocked([&] { return unindexed::filter_map_serial(b.in.first); });
}
inline Timing try_for_each(Bench& b, RowId) {
    return clocked([&] { return unindexed::try_for_each_serial(b.in.all, b.in.target); });
}
inline Timing par_bridge(Bench& b, RowId) {
    return clocked([&] { return unindexed::par_bridge_serial(b.in.bridge_n()); });
}

// No round trip: nothing to hand a job to.
inline constexpr Column column{
    .join = &fib, .fib = &fib, .sum = &sum,
    .par_iter = &par_iter, .par_iter_limit = &par_iter_limit, .collect_vec = &collect_vec,
    .collect_vec_limit = &collect_vec_limit, .find_any = &find_any,
    .find_any_limit = &find_any_limit,
    .par_sort = &par_sort, .par_sort_unstable = &par_sort_unstable,
    .zip = &zip, .par_chunks_mut = &par_chunks_mut, .find_first = &find_first,
    .word_count = &word_count, .filter_map = &filter_map, .try_for_each = &try_for_each,
    .par_bridge = &par_bridge};

} // namespace cmp::on_serial
