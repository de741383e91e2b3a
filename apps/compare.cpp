// compare: the workbook's pool side by side with rayon, oneTBB and OpenMP (chapter 6).
//
// Four workloads, each run by plain serial code, the workbook's pool (mini), the same pool built
// with rayon's per-worker sleep (mini-pw, chapter 10: compare/pw.hpp), rayon itself (the Rust
// crate apps/rayon/), oneTBB and OpenMP in this one process; within every run the
// implementations take turns, in an order balanced so that each follows each other equally often
// (compare/order.hpp): all of them meet the same machine and the same neighbours. Every result is
// checked. At the end, one table: medians, min–max and the ratio to mini. mini-pw, rayon, oneTBB
// and OpenMP are optional at configure time (apps/CMakeLists.txt, cmake/Rayon.cmake,
// cmake/Compare.cmake): a missing one leaves its column empty and says why. Chapter 11's three
// iterator rows (par_iter, collect_vec, find_any: compare/iter.hpp) run only when --rows names
// them, with one more column, std-par (libstdc++'s parallel algorithms on oneTBB); so do chapter
// 13's indexed rows (zip, par_chunks_mut, find_first: compare/indexed.hpp). Chapter 14's
// word_count, filter_map, try_for_each, par_bridge (compare/unindexed.hpp) run on mini, rayon and
// serial code.
//
// The parts, in apps/compare/: options.hpp (the options), workloads.hpp (the table of timed rows:
// which member of a runtime's Column each one calls), on_serial.hpp, on_mini.hpp, on_pw.hpp,
// on_rayon.hpp, on_tbb.hpp, on_openmp.hpp and on_stdpar.hpp (one file a runtime: its function for
// each row it runs, and its Column), runtimes.hpp (the pools and arenas), rows.hpp (the table's
// rows), bench.hpp (the state of one invocation: inputs, timing, checking, counting), measure.hpp
// (one measurement). This file parses the command line, takes the turns run by run, and prints
// the table and what follows it.
#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <string>
#include <thread>
#include <vector>

#include <fmt/core.h>

#include "common.hpp"
#include "compare/bench.hpp"
#include "compare/counters.hpp"
#include "compare/measure.hpp"
#include "compare/options.hpp"
#include "compare/order.hpp"
#include "compare/placement.hpp"
#include "compare/rows.hpp"
#include "compare/runtimes.hpp"
#include "compare/table.hpp"
#include "compare/workloads.hpp"
#include "platform.hpp"

namespace {

using namespace cmp; // the implementations and the table (compare/table.hpp)

// The run reports how much of the machine other processes took meanwhile.
using app::platform::machine_busy_seconds;

const char* const about =
    "The workbook's pool (mini; mini-pw: built with the per-worker sleep, chapter 10) side "
    "by side with rayon, oneTBB and OpenMP, and serial code:\n"
    "join overhead, fib(36) with cutoff 15, a sum of 2^24 u64, wake-up round trips.\n"
    "Prints one table of medians, min–max and ratios to mini; never asserts a timing.\n"
    "Exit codes: 0 all results correct, 1 wrong result, 2 usage error, 3 watchdog (no "
    "progress).";

void add_options(app::Args& cli, Options& o) {
    cli.add("THREADS", o.threads, "threads of each runtime", {1, 256});
    cli.add("RUNS", o.runs, "runs; every implementation is timed once per run", {1, 1000});
    cli.flag("--quick", o.quick,
             "small sizes, for the smoke test: fib(20), fib(27)/10, 2^16 u64, 200 trips");
    cli.add("--producers", o.producers, "outside threads in the wake-up workload", {1, 64});
    cli.add("--rounds", o.rounds, "round trips per producer (default 10000; --quick: 50)",
            {1, 10000000});
    cli.add("--pause", o.pause_ms,
            "milliseconds of sleep before each measurement (default 20), so "
            "that the previous implementation's threads go idle",
            {0, 1000});
    cli.add("--watchdog", o.watchdog_s, "seconds without progress before exiting 3", {0.1, 3600.0});
    std::vector<std::string> row_names, runtime_names(impl_names.begin(), impl_names.end());
    for (const Workload& w : workloads)
        if (w.key) row_names.push_back(w.key);
    cli.add("--rows", o.only_rows,
            "only these workloads (default: join1 (1 thread), join, fib, sum, trip); "
            "chapter 11's par_iter, collect_vec, find_any, chapter 13's zip, par_chunks_mut, "
            "find_first, chapter 14's word_count, filter_map, try_for_each, par_bridge and "
            "chapter 15's par_sort, par_sort_unstable run only when named here",
            row_names);
    cli.add("--runtimes", o.only_runtimes,
            "only these columns (default all): serial, mini, "
            "mini-pw, rayon, oneTBB, OpenMP, std-par",
            runtime_names, true);
    cli.add("--order", o.order,
            "the order of turns within a run: balanced (default: each column follows "
            "each other equally often) or rotate (rotated by one per run, as before)",
            {"balanced", "rotate"});
    cli.flag("--placement", o.placement,
             "fib on mini and rayon through a leaf that notes its thread and CPU: prints when "
             "the second thread started and whether two shared a CPU (compare/placement.hpp)");
    cli.add("--busy", o.busy_n,
            "threads that spin on their own from before the first run until after the "
            "last (default 0), so that every workload runs on a busy machine; their CPU "
            "is left out of the CPU rows",
            {0, 256});
    cli.flag("--carryover", o.carryover,
             "also print each column's medians split by the column measured just before it");
}

void print_heading(const Options& o) {
    fmt::print(
        "{} threads, {} runs{}; join: fib({}) with every call a join; fib({}) with cutoff {}; "
        "sum of {} u64; wake-up: {} producers x {} round trips; busy threads: {}\n",
        o.threads, o.runs, o.quick ? " (--quick)" : "", o.join_n, o.fib_n, o.cutoff, o.len,
        o.producers, o.rounds, o.busy_n);
    print_versions();
}

// ---- the runs -----------------------------------------------------------------------------------

// Warm-up, not recorded: the first parallel region creates OpenMP's team, and so on. The rows
// that only --rows names (chapters 11 to 15) each run once too: their first runs find no memory
// that the allocator already holds, and each fresh page is a fault (chapter 14.5), so whichever
// column came first paid for the others. Each step is progress for the watchdog, as in the runs.
void warm_up(Bench& b) {
    std::vector<RowId> warmed{join_1, join_t};
    for (const Workload& w : workloads)
        if (!w.by_default) warmed.push_back(w.row);
    for (RowId r : warmed)
        for (int impl = 0; impl < num_impls; ++impl)
            if (b.runs_it(r, impl)) {
                b.at_row = r, b.at_impl = impl;
                measure(b, r, impl);
                b.progress.fetch_add(1, std::memory_order_relaxed);
            }
    for (Row& row : b.rows) row.samples = {}, row.before = {};
    for (auto& per_row : b.counters)
        for (auto& runs : per_row) runs.clear();
}

// The columns that run row `r` in run `run`, in their order of turns.
std::vector<int> turns(const Bench& b, RowId r, std::size_t run) {
    const bool rotate = b.o.order == "rotate";
    std::vector<int> present, order; // the implementations that run this row; their order
    for (int k = 0; k < num_impls; ++k) {
        const int impl = rotate ? int((run + k) % num_impls) : k;
        if (b.runs_it(r, impl)) present.push_back(impl);
    }
    if (rotate) return present;
    for (const std::size_t k : app::balanced_order(present.size(), run)) // compare/order.hpp
        order.push_back(present[k]);
    return order;
}

// One run: every row once by every column that runs it. `last`: the column measured last.
void one_run(Bench& b, int& last) {
    for (const Workload& w : workloads) {
        const RowId r = w.row;
        for (const int impl : turns(b, r, b.run)) {
            b.at_row = r, b.at_impl = impl;
            // Let the threads of the previous implementation go idle and fall asleep (libgomp
            // and oneTBB spin for a while first), so they take no core from this one; what
            // they burn meanwhile is the `idle` row.
            const double cpu0 = b.load.cpu_seconds();
            std::this_thread::sleep_for(std::chrono::milliseconds(b.o.pause_ms));
            if (last >= 0 && b.o.pause_ms > 0)
                b.rows[idle].samples[last].push_back((b.load.cpu_seconds() - cpu0) * 1e3);
            const std::size_t samples = b.rows[r].samples[impl].size();
            measure(b, r, impl);
            if (b.rows[r].samples[impl].size() > samples) b.rows[r].before[impl].push_back(last);
            if (b.placed(r, impl)) placement::finish(impl, last);
            last = impl;
            b.progress.fetch_add(1, std::memory_order_relaxed);
        }
    }
}

// What the runs took: wall time, this process's CPU, the busy threads', the machine's.
struct Spent {
    double wall, own, busy0, busy, spun;
};

Spent run_all(Bench& b) {
    const double wall0 = app::now(), busy0 = machine_busy_seconds(), own0 = app::cpu_seconds(),
                 spun0 = b.load.busy_cpu_seconds();
    int last = -1; // the implementation measured last
    for (; b.run < b.o.runs; ++b.run) {
        const double t0 = app::now();
        b.run_label = std::to_string(b.run + 1);
        one_run(b, last);
        fmt::print("run {}/{} done in {:.1f} s\n", b.run.load() + 1, b.o.runs, app::now() - t0);
        std::fflush(stdout);
    }
    for (RowId r : {fib_sleeps, fib_notifies})
        for (int i : {workbook, workbook_pw})
            if (b.runs_it(fib, i) && b.rows[r].samples[i].empty())
                b.rows[r].note[i] = "no B stolen";
    const double wall = app::now() - wall0, own = app::cpu_seconds() - own0;
    const Spent s{wall, own, busy0, machine_busy_seconds() - busy0,
                  b.load.busy_cpu_seconds() - spun0};
    b.load.stop();
    return s;
}

// ---- what follows the runs ----------------------------------------------------------------------

void print_table_of(const Bench& b) {
    const auto& rows = b.rows;
    fmt::print("\n");
    // mini-pw's column is left out where --runtimes leaves it out: a command that names its
    // columns prints the table it printed before that column existed.
    std::array<bool, num_impls> shown;
    shown.fill(true);
    shown[workbook_pw] = b.wanted[workbook_pw];
    // std-par only beside the rows that have it: chapter 6's tables stay as they were.
    shown[stdpar] =
        b.wanted[stdpar] && (!rows[it_sum].label.empty() || !rows[it_collect].label.empty() ||
                             !rows[it_find].label.empty() || !rows[sort_u64].label.empty() ||
                             !rows[usort_u64].label.empty() || !rows[ix_zip].label.empty() ||
                             !rows[ix_chunks].label.empty() || !rows[ix_find_quarter].label.empty());
    print_table(rows, fmt::format("workload [unit], busy {}", b.o.busy_n), shown);
}

void print_counters_of(const Bench& b) {
    const auto& rows = b.rows;
    for (int k : {0, 1}) {
        if ((k == 1 ||
             (rows[join_t].label.empty() && rows[fib].label.empty() && rows[sum].label.empty())) &&
            std::all_of(b.counters[k].begin(), b.counters[k].end(),
                        [](const auto& v) { return v.empty(); }))
            continue;
        fmt::print("{}'s counters per run, median [min–max]:\n", k ? "mini-pw" : "mini");
        for (RowId r : {join_t, fib, sum})
            if (!rows[r].label.empty() && !b.counters[k][r].empty())
                print_counters(rows[r].label.substr(0, rows[r].label.find(" [")), b.counters[k][r]);
    }
}

void print_serial_cpus(const Bench& b) {
    const auto& rows = b.rows;
    const auto& cpus = b.cpus;
    if (cpus.empty() || rows[fib].samples[serial].empty()) return;
    fmt::print("serial on each CPU, pinned (median; the serial column takes the faster CPU of "
               "each run):\n");
    std::size_t w = 0;
    for (RowId r : {join_1, join_t, fib, sum}) w = std::max(w, width(rows[r].label));
    for (RowId r : {join_1, join_t, fib, sum}) {
        if (rows[r].label.empty() || b.per_cpu[r].front().empty()) continue;
        std::string line = "  " + pad(rows[r].label, w);
        for (std::size_t i = 0; i < cpus.size(); ++i)
            line += fmt::format("  cpu {} {}", cpus[i], num(app::median(b.per_cpu[r][i])));
        fmt::print("{}\n", line);
    }
    if (cpus.size() == b.o.threads) {
        // With one thread per CPU, the best a perfect split can do: every CPU works all the
        // time, each at its own speed.
        const double fastest = app::median(rows[fib].samples[serial]);
        double ideal = 0;
        for (const auto& v : b.per_cpu[fib]) ideal += fastest / app::median(v);
        fmt::print("  fib: ideal speedup with one thread per CPU at these speeds {:.2f}x\n", ideal);
    }
}

void print_machine(const Spent& s) {
    if (s.busy0 < 0 || s.busy < 0) return;
    const unsigned ncpu = std::thread::hardware_concurrency();
    const double others = std::max(0.0, s.busy - s.own);
    fmt::print(
        "machine: {} CPUs; during the {:.1f} s of runs this process used {:.1f} CPU s ({:.1f} "
        "of them its busy threads'), other processes {:.1f} CPU s ({:.0f}% of the machine)\n",
        ncpu, s.wall, s.own, s.spun, others, 100 * others / (s.wall * double(ncpu)));
}

void report(const Bench& b, const Spent& spent) {
    print_table_of(b);
    if (b.o.carryover) print_carryover(b.rows);
    if (b.o.placement) placement::print(500);
    print_counters_of(b);
    print_serial_cpus(b);
    print_notes(b.o.runs, b.o.producers);
    print_machine(spent);
    if (app::platform::missing) fmt::print("platform: {}\n", app::platform::missing);
    fmt::print("{}\n", b.all_ok ? "all results correct" : "WRONG RESULT");
}

} // namespace

int main(int argc, char** argv) {
    app::banner("compare");
    app::Args cli{about};
    Options o;
    add_options(cli, o);
    app::TraceOption trace(cli);
    if (int code = cli.parse(argc, argv); code >= 0) return code;
    set_sizes(o, cli.given("--rounds"));
    print_heading(o);

    Runtimes rt(o.threads);
    if (!started(rt)) {
        fmt::print("rayon could not start the threads of its pools\n");
        return app::wrong_result;
    }
    Bench b(o, rt);
    note_not_run(b.rows);
    warm_up(b);
    const Spent spent = run_all(b);
    report(b, spent);
    return b.all_ok ? app::ok : app::wrong_result;
}
