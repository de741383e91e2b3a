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
#if MINI_HAVE_RAYON
#include "rayon/rayon.h"
#endif

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

// ---- mini: chapter 14's chains on `pool` ------------------------------------------------------

inline u64 word_count_mini(mini::ThreadPool& pool, Values v) {
    return pool.install([&] {
        const Counts m = mini::par_iter(v)
                             .fold([] { return Counts{}; },
                                   [](Counts c, u64 x) { ++c[x % words]; return c; })
                             .reduce([] { return Counts{}; }, [](Counts a, Counts b) {
                                 for (const auto& [k, n] : b) a[k] += n;
                                 return a;
                             });
        return counts_check(m);
    });
}
inline u64 filter_map_mini(mini::ThreadPool& pool, Values v) {
    return pool.install([&] {
        return vector_check(mini::par_iter(v)
                                .filter_map([](u64 x) { return x % 3 == 0 ? std::optional<u64>(x * x) : std::nullopt; })
                                .collect_vec());
    });
}
inline u64 try_for_each_mini(mini::ThreadPool& pool, Values v, u64 target) {
    return pool.install([&] {
        const auto r = mini::par_iter(v).try_for_each([target](u64 x) -> mini::Result<std::monostate, u64> {
            if (x == target) return mini::err(x);
            return std::monostate{};
        });
        return r.ok() ? 0 : r.error();
    });
}
// 1, 2, ..., as an input iterator: what std::views::iota gives, which libc++ 14 does not have.
struct Counting {
    using value_type = u64;
    using difference_type = std::ptrdiff_t;
    u64 x = 0;
    u64 operator*() const { return x; }
    Counting& operator++() { return ++x, *this; }
    Counting operator++(int) { return Counting{x++}; }
    bool operator==(const Counting&) const = default;
};
inline u64 par_bridge_mini(mini::ThreadPool& pool, u64 n) {
    return pool.install([&] {
        return mini::par_bridge(Counting{1}, Counting{n + 1}).map([](u64 x) { return x * x; }).sum();
    });
}

// ---- one measurement ---------------------------------------------------------------------------

enum class Chain { word_count, filter_map, try_for_each, par_bridge };

// One run of `chain` by mini (`rayon` false, `serial` false), rayon or serial code; its check value.
inline u64 run(Chain chain, bool serial, [[maybe_unused]] const void* rayon_pool, mini::ThreadPool* pool,
               Values all, Values first, u64 target) {
    const u64 n = all.size() / 64;
    if (serial) {
        switch (chain) {
        case Chain::word_count: return word_count_serial(all);
        case Chain::filter_map: return filter_map_serial(first);
        case Chain::try_for_each: return try_for_each_serial(all, target);
        case Chain::par_bridge: return par_bridge_serial(n);
        }
    }
    if (pool != nullptr) {
        switch (chain) {
        case Chain::word_count: return word_count_mini(*pool, all);
        case Chain::filter_map: return filter_map_mini(*pool, first);
        case Chain::try_for_each: return try_for_each_mini(*pool, all, target);
        case Chain::par_bridge: return par_bridge_mini(*pool, n);
        }
    }
#if MINI_HAVE_RAYON
    const auto* rp = static_cast<const rayon_side_pool*>(rayon_pool);
    switch (chain) {
    case Chain::word_count: return rayon_side_word_count(rp, all.data(), all.size());
    case Chain::filter_map: return rayon_side_filter_map(rp, first.data(), first.size());
    case Chain::try_for_each: return rayon_side_try_for_each(rp, all.data(), all.size(), target);
    case Chain::par_bridge: return rayon_side_par_bridge(rp, n);
    }
#endif
    return 0;
}

} // namespace cmp::unindexed
