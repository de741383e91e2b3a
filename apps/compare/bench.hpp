// One invocation of compare (apps/compare.cpp): the inputs and their answers, the rows of
// samples, the watchdog's progress, and what every measurement goes through: the check of its
// result, its timing (serial code on each CPU), and mini's and mini-pw's counters around it.
#pragma once

#include <algorithm>
#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <numeric>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include <fmt/core.h>

#include <mini/join.hpp>

#include "common.hpp"
#include "compare/busy.hpp"
#include "compare/callgrind.hpp"
#include "compare/counters.hpp"
#include "compare/indexed.hpp"
#include "compare/iter.hpp"
#include "compare/options.hpp"
#include "compare/placement.hpp"
#include "compare/row_id.hpp"
#include "compare/rows.hpp"
#include "compare/runtimes.hpp"
#include "compare/sort.hpp"
#include "compare/table.hpp"
#include "compare/unindexed.hpp"
#include "compare/workloads.hpp"
#include "fib.hpp"
#include "platform.hpp"

namespace cmp {

// The two vCPUs of a VM need not run at the same speed (here one ran a serial fib 1.5 times
// slower than the other). So the serial code runs once on each CPU of the process, pinned, and
// the serial column keeps the faster time: speedup is measured against the fastest single core.
inline std::vector<int> serial_cpus() {
    std::vector<int> cpus = app::platform::allowed_cpus();
    if (cpus.size() < 2 || cpus.size() > 4) cpus.clear(); // many CPUs: unpinned, once
    return cpus;
}
// Threads created while one is pinned would inherit the pin, so none is: every runtime's threads
// exist before the first serial run. (platform.hpp: Linux only; elsewhere there are no CPUs.)
using app::platform::Pin;

// The workloads' inputs, and the answers every column's result is checked against: a formula's,
// or the serial loop's (the serial column is checked against itself there).
struct Inputs {
    explicit Inputs(const Options& o)
        : values(o.len), joins(double(app::joins_of(o.join_n, 0))), all(values),
          first(values.data(), o.collect_n), to_find(values.data(), o.iter_n / 4 * 3 + 1) {
        std::iota(values.begin(), values.end(), std::uint64_t{1});
        target = values[o.iter_n / 4 * 3];
        const std::uint64_t n = values.size(), sum_of_values = n * (n + 1) / 2;
        expected[join_1] = expected[join_t] = app::fib_value(o.join_n);
        expected[fib] = app::fib_value(o.fib_n);
        expected[sum] = expected[it_sum_limit] = sum_of_values;
        // The chains' answers, from the serial functions (the sums wrap, as in every column).
        expected[it_sum] = iter::sum_squares_serial(all);
        expected[it_collect] = iter::sum_squares_serial(first);
        expected[it_find] = target;
        expected[it_collect_limit] = iter::read_limit(first);
        expected[it_find_limit] = iter::read_limit(to_find);
        expected[un_words] = unindexed::word_count_serial(all);
        expected[un_filter_map] = unindexed::filter_map_serial(first);
        expected[un_try] = unindexed::try_for_each_serial(all, target);
        expected[un_bridge] = unindexed::par_bridge_serial(bridge_n());
        sort_inputs(o);
        indexed_inputs(o);
    }
    static bool chosen_only(const std::vector<std::string>& only, const char* name) {
        return std::find(only.begin(), only.end(), name) != only.end();
    }

    // The sort rows' inputs (2^22 u64, 2^20 strings) and answers, only if one of them runs.
    void sort_inputs(const Options& o) {
        if (!chosen_only(o.only_rows, "par_sort") && !chosen_only(o.only_rows, "par_sort_unstable"))
            return;
        sorts.emplace(o.sort_n, o.sort_strings_n);
        expected[sort_u64] = expected[usort_u64] = sort::sort_serial(sorts->values, false).value;
        expected[sort_str] = expected[usort_str] = sort::sort_serial(sorts->strings, false).value;
    }

    // Chapter 13's rows (indexed.hpp): zip's 2 x 128 MiB only where --rows names zip.
    void indexed_inputs(const Options& o) {
        if (!o.only_rows.empty() && chosen(o.only_rows, "zip"))
            xs = indexed::dot_input(o.iter_n, 1000), ys = indexed::dot_input(o.iter_n, 7);
        expected[ix_zip] = indexed::dot_serial(xs, ys);
        strip = {o.strip_w, o.strip_h};
        if (!o.only_rows.empty() && chosen(o.only_rows, "par_chunks_mut"))
            expected[ix_chunks] =
                indexed::timed_fill(strip, [&](auto img) { indexed::strip_serial(img, strip); }).value;
        expected[ix_find_quarter] = quarter = values[o.iter_n / 4];
        expected[ix_find_three_quarters] = target;
    }

    // A sort row's input: the strings in the strings rows, else the u64.
    template <class F>
    iter::Timing each_sort_input(RowId r, F f) const {
        return r == sort_str || r == usort_str ? f(sorts->strings) : f(sorts->values);
    }
    // find_first's item: at 1/4, then at 3/4.
    std::uint64_t find_first_target(RowId r) const { return r == ix_find_quarter ? quarter : target; }
    // par_bridge's range: 1..N / 64.
    std::uint64_t bridge_n() const { return all.size() / 64; }

    std::vector<std::uint64_t> values; // 1..len
    const double joins;                // the joins of fib(join_n) with no cutoff
    const iter::Values all, first, to_find;
    std::uint64_t target = 0; // find_any's item
    std::array<std::uint64_t, num_rows> expected{}; // each timed row's answer
    std::optional<sort::Inputs> sorts;
    std::vector<double> xs, ys;    // zip's
    indexed::Strip strip{};        // par_chunks_mut's
    std::uint64_t quarter = 0;     // find_first's item at 1/4 (the one at 3/4: target)
};

// What the runs share: measure.hpp's functions fill its rows, compare.cpp takes the turns
// and prints them. The watchdog (`dog`) reports the row and column at work when it fires.
struct Bench {
    Bench(const Options& opt, Runtimes& runtimes)
        : o(opt), rt(runtimes), load(o.busy_n), in(o), rows(make_rows(o, in.to_find.size())),
          wanted(wanted_columns(o.only_runtimes)),
          dog(
              "running compare", app::seconds(o.watchdog_s), [this] { return progress.load(); },
              [this] {
                  return fmt::format("run {}/{}, {} on {}, {} steps done", run.load() + 1, o.runs,
                                     rows[at_row.load()].label, impl_names[at_impl.load()],
                                     progress.load());
              }) {
        for (auto& v : per_cpu) v.resize(cpus.size());
    }

    // Whether column `impl` measures row `r` (a limit row: serial only).
    bool runs_it(RowId r, int impl) const {
        if (limit_row(r) && impl != serial) return false;
        return !rows[r].label.empty() && built[impl] && wanted[impl] && rows[r].note[impl].empty();
    }

    bool check(RowId r, int impl, std::uint64_t got, std::uint64_t expected) {
        if (got == expected) return true;
        fmt::print("WRONG: {} on {}: got {}, expected {}\n", rows[r].label, impl_names[impl], got,
                   expected);
        all_ok = false;
        return false;
    }

    // Times one call of f, checks its result and records the time in `unit`s per `per`. Serial
    // code runs on each CPU in turn and records the fastest.
    template <class F>
    void timed(RowId r, int impl, double unit, double per, std::uint64_t expected, F&& f) {
        if (impl != serial || cpus.empty()) {
            if (auto v = once(r, impl, unit, per, expected, f)) rows[r].samples[impl].push_back(*v);
            return;
        }
        std::optional<double> best;
        for (std::size_t i = 0; i < cpus.size(); ++i) {
            const Pin pin(cpus[i]);
            const std::optional<double> v = once(r, impl, unit, per, expected, f);
            if (!v) return;
            per_cpu[r][i].push_back(*v);
            best = std::min(best.value_or(*v), *v);
        }
        rows[r].samples[impl].push_back(*best);
    }

    // Under callgrind, each call is also one labelled dump (compare/callgrind.hpp), per join, per
    // run of fib, per element of the sum.
    template <class F>
    std::optional<double> once(RowId r, int impl, double unit, double per, std::uint64_t expected,
                               F& f) {
        std::uint64_t got;
        double secs;
        {
            const Counted dump(key_of(r), impl_names[impl], run_label,
                               r == sum ? in.values.size() : std::uint64_t(per));
            const double t0 = app::now();
            const auto result = f();
            secs = app::now() - t0;
            if constexpr (std::is_same_v<decltype(result), const iter::Timing>)
                secs = result.secs, got = result.value; // it timed itself (compare/iter.hpp)
            else
                got = result;
        }
        return check(r, impl, got, expected) ? std::optional(secs / unit / per) : std::nullopt;
    }

    app::SleepCounts counts([[maybe_unused]] int impl) const {
#if MINI_HAVE_PW
        if (impl == workbook_pw) return rt.pw->counts();
#endif
        const mini::Stats st = mini::stats(rt.pool); // the process's, the pool's sleepers aside
        return {st.b_stolen, st.sleeps, st.wakeups};
    }

    // Runs run_it() (a timed call on mini or mini-pw) and keeps the copy's counters of that run.
    template <class F>
    void counted(RowId r, int impl, F&& run_it) {
        const app::SleepCounts before = counts(impl);
        const double t0 = app::now(), cpu0 = load.cpu_seconds();
        run_it();
        const double wall = app::now() - t0;
        const app::SleepCounts c = counts(impl) - before;
        counters[impl == workbook_pw][r].push_back(
            {c, (started - t0) * 1e6, (load.cpu_seconds() - cpu0) / wall});
        if (r == fib && c.stolen > 0) {
            rows[fib_sleeps].samples[impl].push_back(double(c.sleeps) / double(c.stolen));
            rows[fib_notifies].samples[impl].push_back(double(c.notifies) / double(c.stolen));
        }
    }

    // join_1 and join_t: fib(join_n) with every call a join; fib: fib(fib_n) with its cutoff.
    unsigned fib_n(RowId r) const { return r == fib ? o.fib_n : o.join_n; }
    unsigned cutoff(RowId r) const { return r == fib ? o.cutoff : 0; }

    // --placement: fib's runs on mini and rayon go through the noted leaf (compare/placement.hpp).
    bool placed(RowId r, int impl) const {
        return o.placement && r == fib && (impl == workbook || impl == rayon);
    }

    const Options& o;
    Runtimes& rt;
    // --busy: started after every runtime's threads (none may inherit a pin: serial_cpus) and
    // before the warm-up; stopped after the last run. The CPU rows use load.cpu_seconds().
    Busy load;
    const Inputs in;
    std::vector<Row> rows;
    const std::array<bool, num_impls> wanted; // --runtimes
    std::atomic<std::uint64_t> progress{0};
    std::atomic<int> at_row{0}, at_impl{0};
    std::atomic<std::size_t> run{0};
    mini::Watchdog dog;
    bool all_ok = true;
    const std::vector<int> cpus = serial_cpus();
    std::array<std::vector<std::vector<double>>, num_rows> per_cpu; // serial times by CPU
    std::string run_label = "warm-up";
    // The counters of each of mini's and mini-pw's runs (compare/counters.hpp), [0] mini's, [1]
    // mini-pw's; `started`: when the closure given to install began to run on a worker.
    std::array<std::array<std::vector<RunCounts>, num_rows>, 2> counters;
    double started = 0;
};

} // namespace cmp
