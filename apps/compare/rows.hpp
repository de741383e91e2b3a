// compare's rows (apps/compare.cpp) as the options make them: labels with the sizes, the notes
// that stand in for numbers (n/a, not counted, missing), and the rows and columns --rows and
// --runtimes leave out. Their ids are row_id.hpp's, the names --rows takes workloads.hpp's.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include <fmt/core.h>

#include "compare/options.hpp"
#include "compare/row_id.hpp"
#include "compare/table.hpp"
#include "compare/workloads.hpp"

namespace cmp {

// The labels: a row with none is neither run nor printed; an indented one ("  ") belongs to the
// workload above it. `find_n`: how many items find_any's limit reads.
inline std::vector<Row> label_rows(const Options& o, std::size_t find_n) {
    std::vector<Row> rows(num_rows);
    rows[join_1].label = fmt::format("join, fib({}), 1 thread [ns/join]", o.join_n);
    if (o.threads != 1)
        rows[join_t].label =
            fmt::format("join, fib({}), {} threads [ns/join]", o.join_n, o.threads);
    rows[fib].label = fmt::format("fib({}), cutoff {} [ms]", o.fib_n, o.cutoff);
    rows[fib_speedup] = {"  speedup over serial", Row::speedup};
    rows[fib_sleeps] = {"  sleeps per stolen B", Row::plain};
    rows[fib_notifies] = {"  notifies per stolen B", Row::plain};
    rows[sum].label = fmt::format("sum of {} u64 [ms]", o.len);
    rows[sum_speedup] = {"  speedup over serial", Row::speedup};
    rows[trip].label = fmt::format("wake-up round trip [us/trip]");
    rows[trip_p50] = {"  one trip's wait, median [us]", Row::measured};
    rows[trip_p90] = {"  one trip's wait, p90 [us]", Row::measured};
    rows[trip_cpu] = {"  CPU per round trip [us/trip]", Row::measured};
    rows[trip_sleeps] = {"  worker sleeps per round trip", Row::plain};
    rows[it_sum].label = fmt::format("par_iter: sum of squares of {} u64 [ms]", o.iter_n);
    rows[it_collect].label = fmt::format("map, collect_vec of {} u64 [ms]", o.collect_n);
    rows[it_find].label = fmt::format("find_any of the item at 3/4 of {} u64 [ms]", o.iter_n);
    auto mib = [](std::size_t n) {
        return n * 8 >= 1 << 20 ? fmt::format("{} MiB", n * 8 >> 20)
                                : fmt::format("{} KiB", n * 8 >> 10);
    };
    rows[it_sum_limit].label = fmt::format("  limit: serial read of the {} [ms]", mib(o.iter_n));
    rows[it_collect_limit].label =
        fmt::format("  limit: serial copy of the {} into a new vector [ms]", mib(o.collect_n));
    rows[it_find_limit].label =
        fmt::format("  limit: serial read of the first {} [ms]", mib(find_n));
    rows[sort_u64].label = fmt::format("par_sort of {} random u64 [ms]", o.sort_n);
    rows[sort_str].label = fmt::format("  par_sort of {} strings [ms]", o.sort_strings_n);
    rows[usort_u64].label = fmt::format("par_sort_unstable of {} random u64 [ms]", o.sort_n);
    rows[usort_str].label = fmt::format("  par_sort_unstable of {} strings [ms]", o.sort_strings_n);
    rows[ix_zip].label = fmt::format("zip: dot product of 2 x {} f64 [ms]", o.iter_n);
    rows[ix_chunks].label =
        fmt::format("par_chunks_mut: Mandelbrot strip, {} rows of {} [ms]", o.strip_h, o.strip_w);
    rows[ix_find_quarter].label =
        fmt::format("find_first of the item at 1/4 of {} u64 [ms]", o.iter_n);
    rows[ix_find_three_quarters].label = "  find_first of the item at 3/4 [ms]";
    rows[un_words].label = fmt::format("word_count: fold a hash map per leaf, {} u64 [ms]", o.iter_n);
    rows[un_filter_map].label = fmt::format("filter_map, collect_vec of {} u64 [ms]", o.collect_n);
    rows[un_try].label = fmt::format("try_for_each, error at 3/4 of {} u64 [ms]", o.iter_n);
    rows[un_bridge].label = fmt::format("par_bridge of 1..{}, map, sum [ms]", o.iter_n / 64);
    for (RowId r : {it_sum_speedup, it_collect_speedup, it_find_speedup, sort_u64_speedup,
                    sort_str_speedup, usort_u64_speedup, usort_str_speedup, ix_zip_speedup,
                    ix_chunks_speedup, un_words_speedup, un_filter_map_speedup, un_try_speedup,
                    un_bridge_speedup})
        rows[r] = {"  speedup over serial", Row::speedup};
    rows[un_filter_map_faults] = {"  page faults in the call", Row::plain};
    if (o.pause_ms > 0)
        rows[idle] = {fmt::format("CPU in the {} ms pause after a job [ms]", o.pause_ms),
                      Row::plain};
    return rows;
}

// The cells under a workload that have no numbers, whatever the options. (A cell of a runtime
// that has no function for the row says n/a too: measure.hpp's note_not_run.)
inline void note_not_measured(std::vector<Row>& rows) {
    for (RowId r : {trip, trip_p50, trip_p90, trip_cpu, trip_sleeps}) rows[r].note[serial] = "n/a";
    for (RowId r : {trip, trip_p50, trip_p90, trip_cpu, trip_sleeps})
        rows[r].note[openmp] = "n/a [1]";
    rows[trip_sleeps].note[onetbb] = rows[trip_sleeps].note[rayon] = "not counted";
    for (RowId r : {fib_sleeps, fib_notifies}) {
        rows[r].note[serial] = "n/a";
        for (int i : {rayon, onetbb, openmp}) rows[r].note[i] = "not counted";
    }
}

// Named in `only`, or `only` is empty (the option was not given).
inline bool chosen(const std::vector<std::string>& only, const char* name) {
    return only.empty() || std::find(only.begin(), only.end(), name) != only.end();
}

// --rows: a workload left out has no label (neither run nor printed), nor have its extra rows.
inline void leave_out_rows(std::vector<Row>& rows, const std::vector<std::string>& only_rows) {
    for (const Workload& w : workloads)
        if (w.key && (!chosen(only_rows, w.key) || (only_rows.empty() && !w.by_default)))
            for (int d = w.row; d < num_rows && (d == w.row || rows[d].label.starts_with("  ")); ++d)
                rows[d].label.clear();
}

// --runtimes: the columns that run.
inline std::array<bool, num_impls> wanted_columns(std::vector<std::string> only_runtimes) {
    spell_as_table(only_runtimes); // IsMember took any case and kept it
    std::array<bool, num_impls> wanted{};
    for (int i = 0; i < num_impls; ++i) wanted[i] = chosen(only_runtimes, impl_names[i]);
    return wanted;
}

// A runtime not built says why in its column: in full in its first row, then shortened.
inline void note_absent(std::vector<Row>& rows) {
    for (int i : {workbook_pw, rayon, onetbb, openmp, stdpar}) {
        if (built[i]) continue;
        bool first = true;
        for (Row& r : rows) {
            // a limit row has only the serial column: the others stay blank
            if (r.label.empty() || limit_row(RowId(&r - rows.data()))) continue;
            const std::string why = absent[i];
            r.note[i] = first ? why : why.substr(0, why.find(" ("));
            first = false;
        }
    }
}

// The table's rows for these options, before any run.
inline std::vector<Row> make_rows(const Options& o, std::size_t find_n) {
    std::vector<Row> rows = label_rows(o, find_n);
    note_not_measured(rows);
    leave_out_rows(rows, o.only_rows);
    note_absent(rows);
    return rows;
}

} // namespace cmp
