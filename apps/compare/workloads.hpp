// compare's workloads (apps/compare.cpp): the one table of its timed rows, in the order a run takes
// them. Each names the member of Column (column.hpp) that every runtime fills with its function
// for it: a runtime whose column leaves it null says n/a there. A new row is its id (row_id.hpp),
// its label (rows.hpp), its input and answer (bench.hpp's Inputs), one function in each runtime's
// file (on_NAME.hpp) and one line here.
#pragma once

#include <array>

#include "compare/column.hpp"
#include "compare/row_id.hpp"

namespace cmp {

struct Workload {
    RowId row;
    const char* key = nullptr; // the name --rows takes; none: a row of the workload above it
    Run Column::*on = nullptr; // each runtime's function (the round trips: Column::trip)
    bool by_default = false;   // chapter 6's rows; the others run only when --rows names them
    bool limit = false;        // the machine's limit: serial's alone, the other cells blank
    bool counted = false;      // mini's and mini-pw's counters taken around it (counters.hpp)
    bool per_join = false;     // in ns per join (unit 1e-9); the others in ms
    bool primed = false;       // each timed call right after an untimed one of the same column
    RowId faults = num_rows;   // the row of each call's page faults (num_rows: none)
};

inline constexpr std::array workloads{
    Workload{join_1, "join1", &Column::join, true, false, true, true},
    Workload{join_t, "join", &Column::join, true, false, true, true},
    Workload{fib, "fib", &Column::fib, true, false, true},
    Workload{sum, "sum", &Column::sum, true, false, true},
    Workload{trip, "trip", nullptr, true},
    Workload{it_sum, "par_iter", &Column::par_iter},
    Workload{it_sum_limit, nullptr, &Column::par_iter_limit, false, true},
    Workload{it_collect, "collect_vec", &Column::collect_vec},
    Workload{it_collect_limit, nullptr, &Column::collect_vec_limit, false, true},
    Workload{it_find, "find_any", &Column::find_any},
    Workload{it_find_limit, nullptr, &Column::find_any_limit, false, true},
    Workload{sort_u64, "par_sort", &Column::par_sort},
    Workload{sort_str, nullptr, &Column::par_sort},
    Workload{usort_u64, "par_sort_unstable", &Column::par_sort_unstable},
    Workload{usort_str, nullptr, &Column::par_sort_unstable},
    Workload{ix_zip, "zip", &Column::zip},
    Workload{ix_chunks, "par_chunks_mut", &Column::par_chunks_mut},
    Workload{ix_find_quarter, "find_first", &Column::find_first},
    Workload{ix_find_three_quarters, nullptr, &Column::find_first},
    Workload{un_words, "word_count", &Column::word_count},
    Workload{.row = un_filter_map, .key = "filter_map", .on = &Column::filter_map, .primed = true,
             .faults = un_filter_map_faults},
    Workload{un_try, "try_for_each", &Column::try_for_each},
    Workload{un_bridge, "par_bridge", &Column::par_bridge},
};

// The timed row `r`'s entry (every row measure() is called with has one).
inline const Workload& workload_of(RowId r) {
    for (const Workload& w : workloads)
        if (w.row == r) return w;
    return workloads.back(); // not reached: one_run and warm_up take rows from this table
}

// The machine's limit rows, serial's alone.
inline bool limit_row(RowId r) {
    for (const Workload& w : workloads)
        if (w.row == r) return w.limit;
    return false;
}

// The name --rows takes for row `r`, and the label of its callgrind dumps; "" for a row under one.
inline const char* key_of(RowId r) {
    for (const Workload& w : workloads)
        if (w.row == r && w.key) return w.key;
    return "";
}

} // namespace cmp
