// What a runtime gives compare (apps/compare.cpp): its column, one function for each timed row it
// runs. A runtime is one file, apps/compare/on_NAME.hpp, that writes its functions and lists them
// in its Column; a row it leaves null says n/a in that column. workloads.hpp's table says which
// member of Column each timed row calls; measure.hpp calls it, timed and checked.
#pragma once

#include <atomic>
#include <cstdint>

#include "compare/iter.hpp"
#include "compare/row_id.hpp"

namespace cmp {

struct Bench;
using iter::Timing, iter::clocked;

// One run of row `r` on this runtime: its check value, and the seconds it took where it timed
// itself (collected vectors and images are checked off the clock); clocked() times the rest.
using Run = Timing (*)(Bench& b, RowId r);
// One wake-up round trip from an outside thread: a job that bumps `executed`, and the wait for it.
using Trip = void (*)(Bench& b, std::atomic<std::uint64_t>& executed);

struct Column {
    bool counted = false; // mini's and mini-pw's counters around join, fib and sum (counters.hpp)
    Run join = nullptr, fib = nullptr, sum = nullptr;
    Trip trip = nullptr;
    // chapter 11 (iter.hpp); the limits are serial's alone
    Run par_iter = nullptr, par_iter_limit = nullptr, collect_vec = nullptr,
        collect_vec_limit = nullptr, find_any = nullptr, find_any_limit = nullptr;
    // chapter 15 (sort.hpp): the u64 row and the strings row
    Run par_sort = nullptr, par_sort_unstable = nullptr;
    // chapter 13 (indexed.hpp): find_first at 1/4 and at 3/4
    Run zip = nullptr, par_chunks_mut = nullptr, find_first = nullptr;
    // chapter 14 (unindexed.hpp)
    Run word_count = nullptr, filter_map = nullptr, try_for_each = nullptr, par_bridge = nullptr;
};

} // namespace cmp
