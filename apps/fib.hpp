// Naive Fibonacci, shared by the fib driver and compare, so that every version runs the very same
// leaves and is checked against the same value.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include <mini/join.hpp>

#include "fib_leaf.hpp"

namespace app {

// The serial baseline: the same recursion and leaves, no join.
inline std::uint64_t fib_serial(unsigned n, unsigned cutoff) {
    if (n <= cutoff || n < 2) return fib_leaf(n);
    return fib_serial(n - 1, cutoff) + fib_serial(n - 2, cutoff);
}

// fib(n - 2) is join's B (offered to thieves), fib(n - 1) is A (run here).
// ANCHOR: fib
inline std::uint64_t fib(unsigned n, unsigned cutoff) {
    if (n <= cutoff || n < 2) return fib_leaf(n);
    auto [a, b] =
        mini::join([=] { return fib(n - 1, cutoff); }, [=] { return fib(n - 2, cutoff); });
    return a + b;
}
// ANCHOR_END: fib

// The value, computed fast, to check the others against.
inline std::uint64_t fib_value(unsigned n) {
    std::uint64_t a = 0, b = 1;
    for (unsigned i = 0; i < n; ++i) b = std::exchange(a, b) + b;
    return a;
}

// Joins made by fib(n) with this cutoff: one per call above the cutoff.
inline std::uint64_t joins_of(unsigned n, unsigned cutoff) {
    std::vector<std::uint64_t> j(n + 1, 0);
    for (unsigned i = 2; i <= n; ++i) j[i] = i <= cutoff ? 0 : 1 + j[i - 1] + j[i - 2];
    return j[n];
}

} // namespace app
