// compare's rows (apps/compare.cpp) by id: every line of the table, the measured ones and the
// ones under them (speedups, limits, counts). rows.hpp labels them; workloads.hpp says which
// runtime function measures each timed one.
#pragma once

namespace cmp {

enum RowId {
    join_1,
    join_t,
    fib,
    fib_speedup,
    fib_sleeps,
    fib_notifies,
    sum,
    sum_speedup,
    trip,
    trip_p50,
    trip_p90,
    trip_cpu,
    trip_sleeps,
    // chapter 11's chains (iter.hpp), each with its speedup and the machine's limit
    it_sum,
    it_sum_speedup,
    it_sum_limit,
    it_collect,
    it_collect_speedup,
    it_collect_limit,
    it_find,
    it_find_speedup,
    it_find_limit,
    // chapter 15's sorts (sort.hpp): u64, then strings, each with its speedup
    sort_u64,
    sort_u64_speedup,
    sort_str,
    sort_str_speedup,
    usort_u64,
    usort_u64_speedup,
    usort_str,
    usort_str_speedup,
    // chapter 13's indexed chains (indexed.hpp); find_first at 1/4, then at 3/4
    ix_zip,
    ix_zip_speedup,
    ix_chunks,
    ix_chunks_speedup,
    ix_find_quarter,
    ix_find_three_quarters,
    // chapter 14's unindexed chains (unindexed.hpp): mini, rayon and serial only
    un_words,
    un_words_speedup,
    un_filter_map,
    un_filter_map_speedup,
    un_filter_map_faults,
    un_try,
    un_try_speedup,
    un_bridge,
    un_bridge_speedup,
    idle,
    num_rows
};

} // namespace cmp
