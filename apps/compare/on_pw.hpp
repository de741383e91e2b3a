// compare's mini-pw column (chapter 10): the core built with rayon's per-worker sleep, a second copy
// in this process (pw.hpp says how), through ComparePool: the joins, fib, the sum and the round
// trips, with its own counters. Only in a build with no sabotage and the pool's sleep
// (apps/CMakeLists.txt); elsewhere the column says why (MINI_PW_ABSENT).
#pragma once

#include "compare/column.hpp"

#if MINI_HAVE_PW
#include <atomic>
#include <cstdint>

#include "compare/bench.hpp"

namespace cmp::on_pw {

inline Timing fib(Bench& b, RowId r) {
    const unsigned n = b.fib_n(r), c = b.cutoff(r);
    return clocked([&] { return (r == join_1 ? b.rt.pw1 : b.rt.pw)->fib(n, c, b.started); });
}
inline Timing sum(Bench& b, RowId) {
    return clocked([&] { return b.rt.pw->sum(b.in.values, b.started); });
}
inline void trip(Bench& b, std::atomic<std::uint64_t>& executed) { b.rt.pw->trip(executed); }

inline constexpr Column column{
    .counted = true, .join = &fib, .fib = &fib, .sum = &sum, .trip = &trip};

} // namespace cmp::on_pw
#else
namespace cmp::on_pw {
inline constexpr Column column{};
}
#endif
