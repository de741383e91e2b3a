// demos: rayon-demo's programs (quicksort, mergesort, pythagoras, life, nbody, sieve) written on
// the workbook's API as a C++ user would write them, beside the same programs written on rayon
// 1.6.1 in Rust (apps/rayon/src/demos/), and plain serial code, in this one process.
//
// Every program makes its input from the same seeded generator in C++ and in Rust
// (demos/rng.hpp), so the three columns compute the same thing; each run's result (a number or
// a fingerprint of the data) is compared across the columns and checked by the program itself
// (sorted, equal to the serial sum). Within a run the columns take turns in compare's balanced
// order (compare/order.hpp), and the table is compare's (compare/table.hpp): medians, min–max,
// the ratio to mini, the speedup over serial, and a line per program saying whether the results
// are equal. The parts: demos/programs.hpp (the list), one header per program in demos/.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <string>
#include <thread>
#include <vector>

#include <fmt/core.h>

#include "common.hpp"
#include "compare/busy.hpp"
#include "compare/order.hpp"
#include "compare/table.hpp"
#include "demos/programs.hpp"
#if MINI_HAVE_RAYON
#include "rayon/rayon.h"
#endif

namespace {

using namespace cmp; // the columns and the table (compare/table.hpp)

const char* const about =
    "rayon-demo's programs on the workbook's pool (mini), on rayon 1.6.1 (Rust, the same "
    "process) and serially: quicksort and mergesort (join), pythagoras (nested par_range with "
    "filter, map, sum and length hints), life (par_range, map, collect_vec), nbody (par_iter, zip; "
    "and map, reduce inside), sieve (par_chunks_mut, enumerate, with_max_len).\n"
    "Prints one table of medians, min–max and ratios to mini, and whether the results are "
    "equal; never asserts a timing.\n"
    "Exit codes: 0 all results equal and checked, 1 wrong result, 2 usage error, 3 watchdog "
    "(no progress).";

struct Options {
    std::size_t threads = 2, runs = 5, busy_n = 0;
    std::vector<std::string> only;
    std::string size = "demo";
    bool list = false;
    unsigned pause_ms = 20;
    double watchdog_s = 60;
};

void add_options(app::Args& cli, Options& o) {
    std::vector<std::string> names;
    for (const auto& p : demos::programs) names.push_back(p.name);
    cli.add("THREADS", o.threads, "threads of mini's pool and of rayon's", {1, 256});
    cli.add("RUNS", o.runs, "runs; every column runs every program once per run", {1, 1000});
    cli.add("--busy", o.busy_n,
            "threads that spin on their own from before the first run until after the last "
            "(default 0), so that every program runs on a busy machine",
            {0, 256});
    cli.add("--only", o.only, "only these programs (default all; --list names them)", names);
    cli.add("--size", o.size,
            "demo: rayon-demo's bench sizes (default); small: tiny inputs, for the tests",
            {"demo", "small"});
    cli.flag("--list", o.list, "name the programs, one a line, and exit");
    cli.add("--pause", o.pause_ms,
            "milliseconds of sleep before each measurement (default 20), so that the previous "
            "column's threads go idle",
            {0, 1000});
    cli.add("--watchdog", o.watchdog_s, "seconds without progress before exiting 3", {0.1, 3600.0});
}

bool chosen(const Options& o, const char* name) {
    return o.only.empty() || std::find(o.only.begin(), o.only.end(), name) != o.only.end();
}

// The three columns; a column not built says why in its cells.
constexpr std::array<int, 3> columns{serial, workbook, rayon};

// One program's rows: the times, the speedup, the results (kept to be compared).
struct Entry {
    const demos::Program* program;
    std::size_t row; // its timed row in `rows`; the speedup and result rows follow it
    std::array<std::vector<std::uint64_t>, num_impls> results{};
    bool checked = true; // every run passed the program's own check
};

struct Run {
    const Options& o;
    demos::Sizes sizes;
    demos::Where where;
    std::vector<Row> rows;
    std::vector<Entry> entries;
    std::atomic<std::uint64_t> progress{0};
    std::atomic<std::size_t> run{0}, at_entry{0};
    std::atomic<int> at_column{0};

    void measure(Entry& e, int column) {
        const demos::Outcome out = e.program->run(column, sizes, where);
        rows[e.row].samples[column].push_back(out.secs * 1e3);
        e.results[column].push_back(out.result);
        if (!out.ok) {
            fmt::print("WRONG: {} on {}: the program's own check failed\n", e.program->name,
                       impl_names[column]);
            e.checked = false;
        }
    }

    // Not recorded: every program once by every column at the small sizes, so that the first
    // timed run finds every pool's threads started and the code paths warm, as compare's
    // warm-up.
    void warm_up() {
        const demos::Sizes small = demos::sizes_for("small");
        for (const Entry& e : entries)
            for (int c : columns)
                if (built[c]) {
                    e.program->run(c, small, where);
                    progress.fetch_add(1, std::memory_order_relaxed);
                }
    }

    // Every program once by every column built, the columns in compare's balanced order.
    void one_run() {
        std::vector<int> present;
        for (int c : columns)
            if (built[c]) present.push_back(c);
        for (std::size_t k = 0; k < entries.size(); ++k) {
            Entry& e = entries[k];
            for (const std::size_t i : app::balanced_order(present.size(), run)) {
                at_entry = k, at_column = present[i];
                std::this_thread::sleep_for(std::chrono::milliseconds(o.pause_ms));
                measure(e, present[i]);
                progress.fetch_add(1, std::memory_order_relaxed);
            }
        }
    }
};

std::vector<Row> make_rows(const Options& o, const demos::Sizes& s, std::vector<Entry>& entries) {
    std::vector<Row> rows;
    for (const auto& p : demos::programs) {
        if (!chosen(o, p.name)) continue;
        entries.push_back({&p, rows.size()});
        rows.push_back({p.label(s), Row::measured});
        rows.push_back({"  speedup over serial", Row::speedup});
        rows.push_back({"  result", Row::plain});
    }
    if (!built[rayon]) { // the reason in full in the first row, then shortened
        const std::string why = absent[rayon];
        for (Row& r : rows) r.note[rayon] = &r == rows.data() ? why : why.substr(0, why.find(" ("));
    }
    return rows;
}

// The result row of each program: each column's result, and whether they are all one.
bool judge(Run& r) {
    bool all_ok = true;
    for (Entry& e : r.entries) {
        Row& row = r.rows[e.row + 2];
        std::vector<std::uint64_t> seen;
        std::vector<std::string> names;
        for (int c : columns) {
            const auto& v = e.results[c];
            if (v.empty()) continue;
            names.push_back(impl_names[c]);
            const bool steady = std::all_of(v.begin(), v.end(), [&](auto x) { return x == v[0]; });
            row.note[c] = !steady              ? "differs between runs"
                          : e.program->numeric ? fmt::format("{}", v[0])
                                               : fmt::format("{:016x}", v[0]);
            seen.insert(seen.end(), v.begin(), v.end());
        }
        const bool equal =
            std::all_of(seen.begin(), seen.end(), [&](auto x) { return x == seen[0]; });
        std::string who;
        for (const auto& n : names) who += (who.empty() ? "" : " = ") + n;
        row.label = !e.checked ? "  result: CHECK FAILED"
                    : equal    ? "  result: " + who
                               : "  result: NOT EQUAL";
        if (!equal) fmt::print("WRONG: {}: the columns' results differ\n", e.program->name);
        all_ok &= equal && e.checked;
    }
    return all_ok;
}

void print_notes(const Options& o, const demos::Sizes& s) {
    fmt::print(
        "[a–b]: min–max over {} runs; ×r: median / mini's median (above 1: slower than mini); "
        "speedup: serial median / median.\n"
        "result: each column's result, a number or a fingerprint (FNV-1a) of the data it made; "
        "'serial = mini = rayon': equal in every run. Inputs from one seeded xorshift128, the "
        "same in C++ and Rust.\n"
        "Timed: the sorts alone (the data is made before), pythagoras whole, life's {} "
        "generations (the board is made before), nbody's {} ticks (the bodies are made before), "
        "the sieve with its allocation (the count after).\n"
        "nbody, tick_par_reduce: its sums are reassociated; its result is the count of bodies "
        "within a relative 1e-9 of the serial ones (every column computes the serial bodies "
        "after its timer).\n",
        o.runs, s.life.gens, s.nbody.ticks);
}

} // namespace

int main(int argc, char** argv) {
    app::Args cli{about};
    Options o;
    add_options(cli, o);
    app::TraceOption trace(cli);
    if (int code = cli.parse(argc, argv); code >= 0) return code;
    if (o.list) {
        for (const auto& p : demos::programs) fmt::print("{}\n", p.name);
        return app::ok;
    }
    app::banner("demos");
    fmt::print("{} threads, {} runs, sizes: {}; busy threads: {}\n", o.threads, o.runs,
               o.size == "small" ? "small (--size small)" : "rayon-demo's bench sizes", o.busy_n);
#if MINI_HAVE_RAYON
    fmt::print("{}\n", rayon_side_version());
    rayon_side::Pool rpool(o.threads);
    if (!rpool.get()) {
        fmt::print("rayon could not start the threads of its pool\n");
        return app::wrong_result;
    }
    const void* rayon_pool = rpool.get();
#else
    fmt::print("rayon: {}\n", MINI_RAYON_ABSENT);
    const void* rayon_pool = nullptr;
#endif
    std::fflush(stdout);
    mini::ThreadPool pool(o.threads);
    Busy load(o.busy_n); // after every runtime's threads, as compare's

    Run r{o, demos::sizes_for(o.size), {pool, rayon_pool}, {}, {}};
    r.rows = make_rows(o, r.sizes, r.entries);
    mini::Watchdog dog(
        "running demos", app::seconds(o.watchdog_s), [&] { return r.progress.load(); },
        [&] {
            return fmt::format("run {}/{}, {} on {}, {} steps done", r.run.load() + 1, o.runs,
                               r.entries[r.at_entry].program->name, impl_names[r.at_column],
                               r.progress.load());
        });
    r.warm_up();
    for (; r.run < o.runs; ++r.run) {
        const double t0 = app::now();
        r.one_run();
        fmt::print("run {}/{} done in {:.1f} s\n", r.run.load() + 1, o.runs, app::now() - t0);
        std::fflush(stdout);
    }
    load.stop();
    const bool all_ok = judge(r);
    fmt::print("\n");
    std::array<bool, num_impls> shown{};
    for (int c : columns) shown[c] = true;
    print_table(r.rows, fmt::format("workload [unit], busy {}", o.busy_n), shown);
    print_notes(o, r.sizes);
    fmt::print("{}\n", all_ok ? "all results equal" : "WRONG RESULT");
    return all_ok ? app::ok : app::wrong_result;
}
