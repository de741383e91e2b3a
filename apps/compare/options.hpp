// compare's options (apps/compare.cpp parses them) and the sizes that follow from them: --quick
// makes every workload small, for the smoke test.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace cmp {

struct Options {
    std::size_t threads = 2, runs = 5, producers = 4, rounds = 10000;
    bool quick = false;
    double watchdog_s = 30;
    unsigned pause_ms = 20;
    std::vector<std::string> only_rows, only_runtimes; // --rows, --runtimes; empty: the default
    std::string order = "balanced";
    bool placement = false;
    std::size_t busy_n = 0;
    bool carryover = false;

    // The sizes (set_sizes): fib(join_n) with every call a join; fib(fib_n) with `cutoff`; a sum
    // of `len` u64. The iterator rows: N u64, 1..N; collect_vec over the first N / 4; find_any's
    // item at 3/4.
    unsigned join_n = 0, fib_n = 0, cutoff = 0;
    std::size_t len = 0, iter_n = 0, collect_n = 0;
    // The sort rows (compare/sort.hpp): `sort_n` random u64, `sort_strings_n` strings.
    std::size_t sort_n = 0, sort_strings_n = 0;
    std::size_t strip_w = 0, strip_h = 0; // par_chunks_mut's Mandelbrot strip, a chunk a row
    std::uint64_t trips_per_run = 0;
};

// After parsing; `rounds_given`: --rounds was on the command line (--quick leaves it as given).
inline void set_sizes(Options& o, bool rounds_given) {
    o.join_n = o.quick ? 20 : 30, o.fib_n = o.quick ? 27 : 36, o.cutoff = o.quick ? 10 : 15;
    o.len = o.quick ? std::size_t{1} << 16 : std::size_t{1} << 24;
    if (o.quick && !rounds_given) o.rounds = 50;
    o.trips_per_run = o.producers * o.rounds;
    o.iter_n = o.len, o.collect_n = o.len / 4;
    o.sort_n = o.quick ? std::size_t{1} << 16 : std::size_t{1} << 22;
    o.sort_strings_n = o.quick ? std::size_t{1} << 14 : std::size_t{1} << 20;
    o.strip_w = o.quick ? 128 : 1024, o.strip_h = o.quick ? 64 : 512;
}

} // namespace cmp
