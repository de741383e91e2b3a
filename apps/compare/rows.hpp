// compare's rows (apps/compare.cpp): their ids, the names --rows takes, and the table's rows as
// the options make them: labels with the sizes, the notes that stand in for numbers (n/a, not
// counted, missing), and the rows and columns --rows and --runtimes leave out.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include <fmt/core.h>

#include "compare/indexed.hpp"
#include "compare/iter.hpp"
#include "compare/unindexed.hpp"
#include "compare/options.hpp"
#include "compare/table.hpp"

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
    // chapter 11's chains (compare/iter.hpp), each with its speedup and the machine's limit
    it_sum,
    it_sum_speedup,
    it_sum_limit,
    it_collect,
    it_collect_speedup,
    it_collect_limit,
    it_find,
    it_find_speedup,
    it_find_limit,
    // chapter 15's sorts (compare/sort.hpp): u64, then strings, each with its speedup
    sort_u64,
    sort_u64_speedup,
    sort_str,
    sort_str_speedup,
    usort_u64,
    usort_u64_speedup,
    usort_str,
    usort_str_speedup,
    // chapter 13's indexed chains (compare/indexed.hpp); find_first at 1/4, then at 3/4
    ix_zip,
    ix_zip_speedup,
    ix_chunks,
    ix_chunks_speedup,
    ix_find_quarter,
    ix_find_three_quarters,
    // chapter 14's unindexed chains (compare/unindexed.hpp): mini, rayon and serial only
    un_words,
    un_words_speedup,
    un_filter_map,
    un_filter_map_speedup,
    un_try,
    un_try_speedup,
    un_bridge,
    un_bridge_speedup,
    idle,
    num_rows
};
// The measured rows, by the names --rows takes and the instruction counts' labels carry.
constexpr std::array<std::pair<RowId, const char*>, 17> row_keys{
    {{join_1, "join1"},
     {join_t, "join"},
     {fib, "fib"},
     {sum, "sum"},
     {trip, "trip"},
     {it_sum, "par_iter"},
     {it_collect, "collect_vec"},
     {it_find, "find_any"},
     {sort_u64, "par_sort"},
     {usort_u64, "par_sort_unstable"},
     {ix_zip, "zip"},
     {ix_chunks, "par_chunks_mut"},
     {ix_find_quarter, "find_first"},
     {un_words, "word_count"},
     {un_filter_map, "filter_map"},
     {un_try, "try_for_each"},
     {un_bridge, "par_bridge"}}};
// The iterator rows run only when --rows names them (the default table is chapter 6's).
inline bool iter_row(RowId r) {
    return r >= it_sum && r <= it_find_limit;
}
// The sort rows, measured (no speedup rows), and run only when --rows names them.
inline bool sort_row(RowId r) {
    return r == sort_u64 || r == sort_str || r == usort_u64 || r == usort_str;
}
inline bool indexed_row(RowId r) { return r >= ix_zip && r <= ix_find_three_quarters; }
inline indexed::Chain indexed_chain_of(RowId r) {
    return r < ix_chunks ? indexed::Chain::zip
           : r < ix_find_quarter ? indexed::Chain::chunks
                                 : indexed::Chain::find_first;
}
inline bool unindexed_row(RowId r) {
    return r >= un_words && r <= un_bridge_speedup;
}
inline unindexed::Chain unindexed_chain_of(RowId r) {
    return r < un_filter_map ? unindexed::Chain::word_count
           : r < un_try      ? unindexed::Chain::filter_map
           : r < un_bridge   ? unindexed::Chain::try_for_each
                             : unindexed::Chain::par_bridge;
}
inline bool limit_row(RowId r) {
    return r == it_sum_limit || r == it_collect_limit || r == it_find_limit;
}
inline iter::Chain chain_of(RowId r) {
    return r < it_collect ? cmp::iter::Chain::sum
           : r < it_find  ? cmp::iter::Chain::collect
                          : cmp::iter::Chain::find;
}
inline const char* key_of(RowId r) {
    for (const auto& [id, key] : row_keys)
        if (id == r) return key;
    return "";
}

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
    if (o.pause_ms > 0)
        rows[idle] = {fmt::format("CPU in the {} ms pause after a job [ms]", o.pause_ms),
                      Row::plain};
    return rows;
}

// The cells that have no numbers, whatever the options.
inline void note_not_measured(std::vector<Row>& rows) {
    for (RowId r : {join_1, join_t, fib, sum, trip}) rows[r].note[stdpar] = "n/a";
    for (RowId r : {it_sum, it_collect, it_find, ix_zip, ix_chunks, ix_find_quarter,
                    ix_find_three_quarters})
        rows[r].note[workbook_pw] = "n/a";
    // No sort in mini-pw's copy of the core nor in OpenMP; no stable one in oneTBB.
    for (RowId r : {sort_u64, sort_str, usort_u64, usort_str})
        rows[r].note[workbook_pw] = rows[r].note[openmp] = "n/a";
    rows[sort_u64].note[onetbb] = rows[sort_str].note[onetbb] = "n/a";
    for (RowId r : {un_words, un_filter_map, un_try, un_bridge})
        for (int i : {workbook_pw, onetbb, openmp, stdpar}) rows[r].note[i] = "n/a";
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
    for (const auto& [r, key] : row_keys)
        if (!chosen(only_rows, key) ||
            (only_rows.empty() && (iter_row(r) || sort_row(r) || indexed_row(r) || unindexed_row(r))))
            for (int d = r; d < num_rows && (d == r || rows[d].label.starts_with("  ")); ++d)
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
