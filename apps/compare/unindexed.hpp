// compare's unindexed rows (chapter 14): the same four chains on mini, on rayon (apps/rayon/
// src/lib.rs) and serially; the other columns say n/a.
//
//   word_count:   the N u64 read as word ids x % 4096, counted into a hash map per leaf by fold,
//                 the maps merged by reduce (std::unordered_map; rayon: std's HashMap);
//   filter_map:   the squares of the multiples of 3 among the first N / 4, collected into a
//                 vector (a vector per leaf, then one append); the clock includes freeing it;
//   try_for_each: an error at the item at 3/4 of N (as find_any's), the other leaves stopped;
//   par_bridge:   the squares of 1..N / 64 from a sequential range, summed (one lock per item).
//
// mini's chains are in on_mini.hpp, rayon's in on_rayon.hpp; here: the checks and the serial loops.
// Each returns the check value both columns compute: the wrapping sum of id * count plus the
// number of ids times 2^32; the vector's wrapping sum plus its length; the failing item; the sum.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <ranges>
#include <span>
#include <unordered_map>
#include <variant>
#include <vector>

#include <mini/par.hpp>
#include <mini/result.hpp>

namespace cmp::unindexed {

using u64 = std::uint64_t;
using Values = std::span<const u64>;
using Counts = std::unordered_map<u64, u64>;

inline constexpr u64 words = 4096;

inline u64 counts_check(const Counts& m) {
    u64 s = u64(m.size()) << 32;
    for (const auto& [k, c] : m) s += k * c;
    return s;
}
inline u64 vector_check(const std::vector<u64>& v) {
    u64 s = v.size();
    for (u64 x : v) s += x;
    return s;
}

// ---- serial ------------------------------------------------------------------------------------

inline u64 word_count_serial(Values v) {
    Counts m;
    for (u64 x : v) ++m[x % words];
    return counts_check(m);
}
inline u64 filter_map_serial(Values v) {
    std::vector<u64> out;
    for (u64 x : v)
        if (x % 3 == 0) out.push_back(x * x);
    return vector_check(out);
}
inline u64 try_for_each_serial(Values v, u64 target) {
    for (u64 x : v)
        if (x == target) return x;
    return 0;
}
inline u64 par_bridge_serial(u64 n) {
    u64 s = 0;
    for (u64 x = 1; x <= n; ++x) s += x * x;
    return s;
}

} // namespace cmp::unindexed
