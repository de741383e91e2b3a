// One measurement of one of compare's timed rows (apps/compare.cpp) by one column: the runtime's
// function for the row (workloads.hpp's table names it, the runtime's file on_NAME.hpp has it),
// through Bench::timed, so that its result is checked and its time recorded in its row; the
// wake-up round trips through app::round_trips, with the rows under them.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <optional>

#include "common.hpp"
#include "compare/bench.hpp"
#include "compare/column.hpp"
#include "compare/on_mini.hpp"
#include "compare/on_openmp.hpp"
#include "compare/on_pw.hpp"
#include "compare/on_rayon.hpp"
#include "compare/on_serial.hpp"
#include "compare/on_stdpar.hpp"
#include "compare/on_tbb.hpp"
#include "compare/placement.hpp"
#include "compare/table.hpp"
#include "compare/workloads.hpp"

namespace cmp {

// The runtimes' columns, in the table's order (Impl, table.hpp).
inline constexpr std::array<const Column*, num_impls> columns{
    &on_serial::column, &on_mini::column,   &on_pw::column,    &on_rayon::column,
    &on_tbb::column,    &on_openmp::column, &on_stdpar::column};

// Whether runtime `impl` has a function for workload `w`.
inline bool runs_on(const Workload& w, int impl) {
    return w.on ? columns[impl]->*w.on != nullptr : columns[impl]->trip != nullptr;
}

// A runtime built here that has no function for a timed row says n/a in its cell (a limit row's
// other cells stay blank; a cell noted already keeps its note).
inline void note_not_run(std::vector<Row>& rows) {
    for (const Workload& w : workloads)
        for (int i = 0; i < num_impls; ++i)
            if (built[i] && !w.limit && !runs_on(w, i) && rows[w.row].note[i].empty())
                rows[w.row].note[i] = "n/a";
}

// One timed call of the runtime's function; on mini and mini-pw, their counters around it.
inline void measure_timed(Bench& b, const Workload& w, int impl) {
    const Run run = columns[impl]->*w.on;
    const double unit = w.per_join ? 1e-9 : 1e-3, per = w.per_join ? b.in.joins : 1;
    auto call = [&] { // a fresh page's first touch is a fault: what picks filter_map's mode
        if (w.faults == num_rows) return run(b, w.row);
        const long faults0 = app::minor_faults();
        const Timing t = run(b, w.row);
        b.rows[w.faults].samples[impl].push_back(double(app::minor_faults() - faults0));
        return t; // serial: one sample per call, one call per CPU
    };
    auto timed = [&] { b.timed(w.row, impl, unit, per, b.in.expected[w.row], call); };
    // Primed: the call before finds the memory the previous column's call left the allocator,
    // and each fresh page is a fault (chapter 14.5); the timed one finds what its own column left.
    if (w.primed) run(b, w.row);
    if (b.placed(w.row, impl)) placement::start();
    if (w.counted && columns[impl]->counted)
        b.counted(w.row, impl, timed);
    else
        timed();
}

// PRODUCERS outside threads, ROUNDS round trips each: the trip row and the rows under it.
inline void measure_trip(Bench& b, int impl) {
    const std::size_t producers = b.o.producers, rounds = b.o.rounds;
    const std::uint64_t trips_per_run = b.o.trips_per_run;
    const Trip one_trip = columns[impl]->trip;
    // Each trip timed (for its median and p90); the CPU without the busy threads'.
    const app::TripOptions opt{
        true, [](void* busy) { return static_cast<Busy*>(busy)->cpu_seconds(); }, &b.load};
    const Counted dump(key_of(trip), impl_names[impl], b.run_label, trips_per_run);
    const std::uint64_t slept = b.counts(impl).sleeps;
    const app::Trips got = app::round_trips(
        producers, rounds, b.progress, [&](std::atomic<std::uint64_t>& e) { one_trip(b, e); },
        opt);
    const double sleeps = double(b.counts(impl).sleeps - slept);
    if (!b.check(trip, impl, got.executed, trips_per_run)) return;
    auto& rows = b.rows;
    rows[trip].samples[impl].push_back(got.secs / trips_per_run * 1e6);
    rows[trip_p50].samples[impl].push_back(app::quantile(got.trip_secs, 0.5) * 1e6);
    rows[trip_p90].samples[impl].push_back(app::quantile(got.trip_secs, 0.9) * 1e6);
    rows[trip_cpu].samples[impl].push_back(got.cpu_secs / trips_per_run * 1e6);
    if (impl == workbook || impl == workbook_pw)
        rows[trip_sleeps].samples[impl].push_back(sleeps / trips_per_run);
}

// One measurement of timed row `r` by runtime `impl` (Bench::runs_it said it runs it).
inline void measure(Bench& b, RowId r, int impl) {
    const Workload& w = workload_of(r);
    if (!runs_on(w, impl)) return;
    if (w.on)
        measure_timed(b, w, impl);
    else
        measure_trip(b, impl);
}

} // namespace cmp
