// sieve (rayon-demo's sieve/): the primes below 10^magnitude by Eratosthenes' sieve over odd
// numbers only (entry i stands for 2i + 1), counted and checked against the known count
// (OEIS A006880). Serially: one vector, each prime clearing its odd multiples from p^2. In
// parallel: the primes up to the square root first, serially, then the rest of the vector cut
// by par_chunks_mut into chunks of 100,000 entries, one job each (with_max_len(1)), each chunk
// cleared by every small prime from its first odd multiple in the chunk. The allocation is inside
// the timer, as in the demo; the count is taken after it.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include <mini/par.hpp>

#include "demos/outcome.hpp"

namespace demos::sieve {

inline constexpr std::size_t chunk_size = 100'000;
// The number of primes below 10^k (OEIS A006880).
inline constexpr std::array<std::uint64_t, 10> num_primes{0,    4,     25,     168,     1229,
                                                          9592, 78498, 664579, 5761455, 50847534};

inline std::size_t pow10(unsigned k) {
    std::size_t n = 1;
    while (k-- > 0) n *= 10;
    return n;
}

// The odd numbers below max: entry i is 1 if 2i + 1 is prime.
inline std::vector<std::uint8_t> sieve_serial(std::size_t max) {
    std::vector<std::uint8_t> s(max / 2, 1);
    s[0] = 0; // 1 is not prime
    for (std::size_t p = 3; p * p < max; p += 2)
        if (s[p / 2])
            for (std::size_t m = p * p; m < max; m += 2 * p) s[m / 2] = 0;
    return s;
}

// Clears in `chunk` (entries base, base + 1, ...) the odd multiples of every prime in `low`.
inline void update_chunk(std::span<const std::uint8_t> low, std::span<std::uint8_t> chunk,
                         std::size_t base) {
    const std::size_t first = 2 * base + 1, end = 2 * (base + chunk.size()); // numbers
    for (std::size_t i = 1; i < low.size(); ++i) {
        if (!low[i]) continue;
        const std::size_t p = 2 * i + 1;
        std::size_t m = std::max(p * p, (first + p - 1) / p * p);
        if (m % 2 == 0) m += p; // the first odd multiple
        for (; m < end; m += 2 * p) chunk[m / 2 - base] = 0;
    }
}

// ANCHOR: sieve_parallel
inline std::vector<std::uint8_t> sieve_parallel(std::size_t max) {
    std::vector<std::uint8_t> s = sieve_serial(std::size_t(std::sqrt(double(max))) + 1);
    const std::size_t low_len = s.size();
    s.resize(max / 2, 1);
    const std::span<const std::uint8_t> low(s.data(), low_len);
    mini::par_chunks_mut(std::span(s).subspan(low_len), chunk_size)
        .enumerate()
        .with_max_len(1)
        .for_each([low](auto chunk) {
            update_chunk(low, chunk.second, low.size() + chunk.first * chunk_size);
        });
    return s;
}
// ANCHOR_END: sieve_parallel

// The count of primes below 10^magnitude, checked against the table.
inline Outcome counted(double secs, const std::vector<std::uint8_t>& s, unsigned magnitude) {
    const std::uint64_t n = 1 + std::uint64_t(std::count(s.begin(), s.end(), 1)); // and 2
    return {secs, n, n == num_primes[magnitude]};
}

inline Outcome serial(unsigned magnitude) {
    std::vector<std::uint8_t> s;
    const double secs = seconds_of([&] { s = sieve_serial(pow10(magnitude)); });
    return counted(secs, s, magnitude);
}

inline Outcome on_mini(mini::ThreadPool& pool, unsigned magnitude) {
    std::vector<std::uint8_t> s;
    const double secs =
        seconds_of([&] { s = pool.install([&] { return sieve_parallel(pow10(magnitude)); }); });
    return counted(secs, s, magnitude);
}

} // namespace demos::sieve
