// pythagoras (rayon-demo's pythagoras/, a bench there): how many Pythagorean triples have a
// hypotenuse of at most 4,000,000. Euclid's formula makes each primitive triple once from m > n
// with m - n odd and gcd(m, n) = 1, with hypotenuse m^2 + n^2, which has 4,000,000 / (m^2 + n^2)
// multiples within the bound; m < 2000 covers them all. In u32, as the demo.
//
// Nested parallel ranges: an outer par_range over m, and for each m an inner one over n < m that
// filters, maps and sums. The inner ranges are small and very unequal (1 to 1998 items). Three
// variants, as the demo's benches: no length hint; with_min_len(SIZE_MAX) on both levels (the
// iterators' machinery, never split: "faux serial"); with_max_len(1) on both (every m and every n
// its own job). Nothing to prepare: the whole sum is timed.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <utility>

#include <mini/par.hpp>

#include "demos/outcome.hpp"

namespace demos::pythagoras {

struct Bounds {
    std::uint32_t m_end = 2000, c_max = 4'000'000;
};

enum class Hint { none, faux_serial, full }; // the variants, as the demo's benches

constexpr std::uint32_t gcd(std::uint32_t a, std::uint32_t b) {
    while (b != 0) a = std::exchange(b, a % b);
    return a;
}

inline std::uint32_t serial_sum(Bounds b) {
    std::uint32_t total = 0;
    for (std::uint32_t m = 1; m < b.m_end; ++m)
        for (std::uint32_t n = 1; n < m; ++n)
            if ((m - n) % 2 == 1 && gcd(m, n) == 1) total += b.c_max / (m * m + n * n);
    return total;
}

// ANCHOR: chain
// `hint` is applied to both ranges: the identity, with_min_len or with_max_len.
template <class Hint>
std::uint32_t parallel_sum(Bounds b, Hint hint) {
    return hint(mini::par_range(std::uint32_t{1}, b.m_end))
        .map([=](std::uint32_t m) {
            return hint(mini::par_range(std::uint32_t{1}, m))
                .filter([m](std::uint32_t n) { return (m - n) % 2 == 1 && gcd(m, n) == 1; })
                .map([=](std::uint32_t n) { return b.c_max / (m * m + n * n); })
                .sum();
        })
        .sum();
}
// ANCHOR_END: chain

inline std::uint32_t mini_sum(Bounds b, Hint h) {
    switch (h) {
    case Hint::faux_serial:
        return parallel_sum(
            b, [](auto it) { return it.with_min_len(std::numeric_limits<std::size_t>::max()); });
    case Hint::full:
        return parallel_sum(b, [](auto it) { return it.with_max_len(1); });
    default:
        return parallel_sum(b, [](auto it) { return it; });
    }
}

// The serial sum is the check: it is what every column must give.
inline Outcome serial(Bounds b) {
    std::uint32_t s = 0;
    const double secs = seconds_of([&] { s = serial_sum(b); });
    return {secs, s, true};
}

inline Outcome on_mini(mini::ThreadPool& pool, Bounds b, Hint h) {
    std::uint32_t s = 0;
    const double secs = seconds_of([&] { s = pool.install([&] { return mini_sum(b, h); }); });
    return {secs, s, true};
}

} // namespace demos::pythagoras
