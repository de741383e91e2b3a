// compare's iterator rows (chapter 11): the same three chains on every runtime.
//
//   par_iter:    the sum of squares of N u64 (wrapping);
//   collect_vec: map x -> x * x over the first N / 4, collected into a new vector;
//   find_any:    any item equal to the one at 3/4 of N (the values are 1..N, so it is unique).
//
// mini: mini::par_iter; rayon: its own par_iter (apps/rayon/src/lib.rs); oneTBB: parallel_reduce
// and parallel_for; std-par: libstdc++'s parallel algorithms, which run on oneTBB; OpenMP: a
// parallel for. Each function returns a check value (the sum, a checksum of the vector, the item
// found) and, where the timing must end before the check, the seconds it took (Timing): a
// collected vector is checked and freed after its clock stops, in every column alike.
//
// Each runtime's chains are in its own file (on_mini.hpp, on_rayon.hpp, on_tbb.hpp, on_stdpar.hpp,
// on_openmp.hpp); this one has what they share: the types, the checks, the serial loops.
//
// The `limit` functions are the machine's limit beside a row: one plain serial pass over the same
// memory (read it, or copy it into a new vector), with nothing else to do.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <numeric>
#include <span>
#include <thread>
#include <vector>

#include <mini/par.hpp>
#include <mini/splitter.hpp>


#include "common.hpp"

namespace cmp::iter {

using u64 = std::uint64_t;
using Values = std::span<const u64>;

struct Timing {
    double secs;
    u64 value;
};

// A lambda, not a function: a function passed to map would be called through its pointer.
inline constexpr auto square = [](u64 x) { return x * x; };

// What every column's collected vector is checked by: the wrapping sum of its elements.
inline u64 checksum(const u64* p, std::size_t n) { return mini::sum_of(p, n); }

// Times make(), then checks the vector it made (and frees it) off the clock.
template <class Make>
Timing timed_vector(Make make) {
    const double t0 = app::now();
    std::vector<u64> out = make();
    const double secs = app::now() - t0;
    return {secs, checksum(out.data(), out.size())};
}

// ---- serial ------------------------------------------------------------------------------------

inline u64 sum_squares_serial(Values v) {
    u64 s = 0;
    for (u64 x : v) s += square(x);
    return s;
}
inline Timing collect_serial(Values v) {
    return timed_vector([&] {
        std::vector<u64> out(v.size());
        std::transform(v.begin(), v.end(), out.begin(), square);
        return out;
    });
}
inline u64 find_serial(Values v, u64 target) {
    auto it = std::find(v.begin(), v.end(), target);
    return it == v.end() ? 0 : *it;
}

// The machine's limits: read the same memory once; copy it once into a new vector.
inline u64 read_limit(Values v) { return mini::sum_of(v.data(), v.size()); }
inline Timing copy_limit(Values v) {
    return timed_vector([&] { return std::vector<u64>(v.begin(), v.end()); });
}


template <class F>
Timing clocked(F f) {
    const double t0 = app::now();
    const u64 value = f();
    return {app::now() - t0, value};
}

} // namespace cmp::iter
