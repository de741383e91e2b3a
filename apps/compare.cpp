// compare: the workbook's pool side by side with rayon, oneTBB and OpenMP (chapter 6).
//
// Four workloads, each run by plain serial code, the workbook's pool (mini), the same pool built
// with rayon's per-worker sleep (mini-pw, chapter 10: compare_pw.hpp), rayon itself (the Rust
// crate apps/rayon/), oneTBB and OpenMP in this one process; within every run the
// implementations take turns, in an order balanced so that each follows each other equally often
// (compare_order.hpp): all of them meet the same machine and the same neighbours. Every result is
// checked. At the end, one table: medians, min–max and the ratio to mini. mini-pw, rayon, oneTBB
// and OpenMP are optional at configure time (apps/CMakeLists.txt, cmake/Rayon.cmake,
// cmake/Compare.cmake): a missing one leaves its column empty and says why. Chapter 11's three
// iterator rows (par_iter, collect_vec, find_any: compare_iter.hpp) run only when --rows names
// them, with one more column, std-par (libstdc++'s parallel algorithms on oneTBB).
#include <array>
#include <atomic>
#include <functional>
#include <numeric>
#include <optional>
#include <thread>
#include <vector>

#include <mini/join.hpp>
#include <mini/splitter.hpp>

#if MINI_HAVE_TBB
#include <oneapi/tbb/blocked_range.h>
#include <oneapi/tbb/global_control.h>
#include <oneapi/tbb/parallel_invoke.h>
#include <oneapi/tbb/parallel_reduce.h>
#include <oneapi/tbb/task_arena.h>
#include <oneapi/tbb/version.h>
#endif

#include "common.hpp"
#include "compare_busy.hpp"
#include "compare_callgrind.hpp"
#include "compare_counters.hpp"
#include "compare_iter.hpp"
#include "compare_order.hpp"
#include "compare_placement.hpp"
#include "compare_pw.hpp"
#include "compare_table.hpp"
#include "fib.hpp"
#include "platform.hpp"
#if MINI_HAVE_RAYON
#include "rayon/rayon.h"
#endif

namespace {

using namespace cmp; // the implementations and the table (compare_table.hpp)

// ---- fib (apps/fib.hpp): every implementation runs the very same leaves ------------------------

using app::fib_leaf;
using app::fib_serial;

#if MINI_HAVE_TBB
// parallel_invoke(f, g) spawns f and runs g itself, so f is B.
// ANCHOR: fib_tbb
std::uint64_t fib_tbb(unsigned n, unsigned cutoff) {
    if (n <= cutoff || n < 2) return fib_leaf(n);
    std::uint64_t a, b;
    tbb::parallel_invoke([&] { b = fib_tbb(n - 2, cutoff); }, [&] { a = fib_tbb(n - 1, cutoff); });
    return a + b;
}
// ANCHOR_END: fib_tbb
#endif

#if MINI_HAVE_OPENMP
// ANCHOR: fib_omp
std::uint64_t fib_omp(unsigned n, unsigned cutoff) {
    if (n <= cutoff || n < 2) return fib_leaf(n);
    std::uint64_t a, b;
#pragma omp task shared(b) // B: a task any thread of the team may run
    b = fib_omp(n - 2, cutoff);
    a = fib_omp(n - 1, cutoff); // A: here
#pragma omp taskwait
    return a + b;
}
// ANCHOR_END: fib_omp

std::uint64_t fib_omp_team(int threads, unsigned n, unsigned cutoff) {
    std::uint64_t r = 0;
#pragma omp parallel num_threads(threads)
#pragma omp single
    r = fib_omp(n, cutoff);
    return r;
}
#endif

// ---- sum of a vector --------------------------------------------------------------------------

// The same sequential loop as mini::sum's leaf, so that the speedup compares like with like.
std::uint64_t sum_serial(const std::vector<std::uint64_t>& v) {
    return mini::sum_of(v.data(), v.size());
}

#if MINI_HAVE_TBB
// ANCHOR: sum_tbb
std::uint64_t sum_tbb(const std::vector<std::uint64_t>& v) {
    return tbb::parallel_reduce(
        tbb::blocked_range<std::size_t>(0, v.size()), std::uint64_t{0},
        [&v](const tbb::blocked_range<std::size_t>& r, std::uint64_t s) {
            for (std::size_t i = r.begin(); i < r.end(); ++i) s += v[i];
            return s;
        },
        std::plus<>{});
}
// ANCHOR_END: sum_tbb
#endif

#if MINI_HAVE_OPENMP
// ANCHOR: sum_omp
std::uint64_t sum_omp(int threads, const std::vector<std::uint64_t>& v) {
    const std::uint64_t* p = v.data();
    const std::size_t n = v.size();
    std::uint64_t s = 0;
#pragma omp parallel for reduction(+ : s) num_threads(threads)
    for (std::size_t i = 0; i < n; ++i) s += p[i];
    return s;
}
// ANCHOR_END: sum_omp
#endif

// ---- serial code on each CPU ------------------------------------------------------------------

// The two vCPUs of a VM need not run at the same speed (here one ran a serial fib 1.5 times
// slower than the other). So the serial code runs once on each CPU of the process, pinned, and
// the serial column keeps the faster time: speedup is measured against the fastest single core.
std::vector<int> serial_cpus() {
    std::vector<int> cpus = app::platform::allowed_cpus();
    if (cpus.size() < 2 || cpus.size() > 4) cpus.clear(); // many CPUs: unpinned, once
    return cpus;
}
// Threads created while one is pinned would inherit the pin, so none is: every runtime's threads
// exist before the first serial run. (platform.hpp: Linux only; elsewhere there are no CPUs.)
using app::platform::Pin;
// The run reports how much of the machine other processes took meanwhile.
using app::platform::machine_busy_seconds;

// ---- the runtimes -----------------------------------------------------------------------------

struct Runtimes {
    explicit Runtimes(std::size_t t)
        : threads(t), pool(t)
#if MINI_HAVE_TBB
          // THREADS workers in TBB's market: an arena of THREADS keeps one slot for the thread that
          // calls execute() and gets THREADS - 1 workers; `outside` keeps none and gets THREADS.
          ,
          control(tbb::global_control::max_allowed_parallelism, t + 1), arena(int(t)),
          outside(int(t), 0)
#endif
    {
#if MINI_HAVE_TBB
        arena1.initialize();
        arena.initialize();
        outside.initialize();
#endif
    }

    std::size_t threads;
    mini::ThreadPool pool1{1}, pool;
#if MINI_HAVE_PW
    std::unique_ptr<app::ComparePool> pw1 = mini_pw::compare_pool(1),
                                      pw = mini_pw::compare_pool(threads);
#endif
#if MINI_HAVE_RAYON
    rayon_side::Pool rayon1{1}, rayon{threads}; // rayon::ThreadPool, apps/rayon/src/lib.rs
#endif
#if MINI_HAVE_TBB
    tbb::global_control control;
    tbb::task_arena arena1{1}, arena, outside;
#endif
};

// ---- one wake-up round trip (app::round_trips runs them in PRODUCERS threads) ------------------

// ANCHOR: trip_mini
void trip_mini(mini::ThreadPool& pool, std::atomic<std::uint64_t>& executed) {
    pool.install([&] { executed.fetch_add(1, std::memory_order_relaxed); });
}
// ANCHOR_END: trip_mini

#if MINI_HAVE_TBB
// oneTBB's nearest to install: enqueue into an arena that reserves no slot for outside threads,
// then wait on the same LockLatch that mini's install waits on.
// ANCHOR: trip_tbb
void trip_tbb(tbb::task_arena& arena, std::atomic<std::uint64_t>& executed) {
    mini::LockLatch latch;
    arena.enqueue([&] {
        executed.fetch_add(1, std::memory_order_relaxed);
        mini::LockLatch::set(&latch);
    });
    latch.wait();
}
// ANCHOR_END: trip_tbb
#endif

// ---- the rows ---------------------------------------------------------------------------------

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
    // chapter 11's chains (compare_iter.hpp), each with its speedup and the machine's limit
    it_sum,
    it_sum_speedup,
    it_sum_limit,
    it_collect,
    it_collect_speedup,
    it_collect_limit,
    it_find,
    it_find_speedup,
    it_find_limit,
    idle,
    num_rows
};
// The measured rows, by the names --rows takes and the instruction counts' labels carry.
constexpr std::array<std::pair<RowId, const char*>, 8> row_keys{
    {{join_1, "join1"},
     {join_t, "join"},
     {fib, "fib"},
     {sum, "sum"},
     {trip, "trip"},
     {it_sum, "par_iter"},
     {it_collect, "collect_vec"},
     {it_find, "find_any"}}};
// The iterator rows run only when --rows names them (the default table is chapter 6's).
bool iter_row(RowId r) { return r >= it_sum && r <= it_find_limit; }
bool limit_row(RowId r) { return r == it_sum_limit || r == it_collect_limit || r == it_find_limit; }
cmp::iter::Chain chain_of(RowId r) {
    return r < it_collect ? cmp::iter::Chain::sum
           : r < it_find  ? cmp::iter::Chain::collect
                          : cmp::iter::Chain::find;
}
const char* key_of(RowId r) {
    for (const auto& [id, key] : row_keys)
        if (id == r) return key;
    return "";
}

} // namespace

int main(int argc, char** argv) {
    app::banner("compare");
    app::Args cli{
        "The workbook's pool (mini; mini-pw: built with the per-worker sleep, chapter 10) side "
        "by side with rayon, oneTBB and OpenMP, and serial code:\n"
        "join overhead, fib(36) with cutoff 15, a sum of 2^24 u64, wake-up round trips.\n"
        "Prints one table of medians, min–max and ratios to mini; never asserts a timing.\n"
        "Exit codes: 0 all results correct, 1 wrong result, 2 usage error, 3 watchdog (no "
        "progress)."};
    std::size_t threads = 2, runs = 5, producers = 4, rounds = 10000;
    bool quick = false;
    double watchdog_s = 30;
    unsigned pause_ms = 20;
    cli.add("THREADS", threads, "threads of each runtime", {1, 256});
    cli.add("RUNS", runs, "runs; every implementation is timed once per run", {1, 1000});
    cli.flag("--quick", quick,
             "small sizes, for the smoke test: fib(20), fib(27)/10, 2^16 u64, 200 trips");
    cli.add("--producers", producers, "outside threads in the wake-up workload", {1, 64});
    cli.add("--rounds", rounds, "round trips per producer (default 10000; --quick: 50)",
            {1, 10000000});
    cli.add("--pause", pause_ms,
            "milliseconds of sleep before each measurement (default 20), so "
            "that the previous implementation's threads go idle",
            {0, 1000});
    cli.add("--watchdog", watchdog_s, "seconds without progress before exiting 3", {0.1, 3600.0});
    std::vector<std::string> only_rows, only_runtimes;
    std::vector<std::string> row_names, runtime_names(impl_names.begin(), impl_names.end());
    for (const auto& [id, key] : row_keys) row_names.push_back(key);
    cli.add("--rows", only_rows,
            "only these workloads (default: join1 (1 thread), join, fib, sum, trip); "
            "chapter 11's par_iter, collect_vec, find_any run only when named here",
            row_names);
    cli.add("--runtimes", only_runtimes,
            "only these columns (default all): serial, mini, "
            "mini-pw, rayon, oneTBB, OpenMP, std-par",
            runtime_names, true);
    std::string order = "balanced";
    cli.add("--order", order,
            "the order of turns within a run: balanced (default: each column follows "
            "each other equally often) or rotate (rotated by one per run, as before)",
            {"balanced", "rotate"});
    bool placement = false;
    cli.flag("--placement", placement,
             "fib on mini and rayon through a leaf that notes its thread and CPU: prints when "
             "the second thread started and whether two shared a CPU (compare_placement.hpp)");
    std::size_t busy_n = 0;
    cli.add("--busy", busy_n,
            "threads that spin on their own from before the first run until after the "
            "last (default 0), so that every workload runs on a busy machine; their CPU "
            "is left out of the CPU rows",
            {0, 256});
    bool carryover = false;
    cli.flag("--carryover", carryover,
             "also print each column's medians split by the column measured just before it");
    app::TraceOption trace(cli);
    if (int code = cli.parse(argc, argv); code >= 0) return code;

    const unsigned join_n = quick ? 20 : 30, fib_n = quick ? 27 : 36, cutoff = quick ? 10 : 15;
    const std::size_t len = quick ? std::size_t{1} << 16 : std::size_t{1} << 24;
    if (quick && !cli.given("--rounds")) rounds = 50;
    const std::uint64_t trips_per_run = producers * rounds;
    // The iterator rows: N u64, 1..N; collect_vec over the first N / 4; find_any's item at 3/4.
    const std::size_t iter_n = len, collect_n = len / 4;

    fmt::print(
        "{} threads, {} runs{}; join: fib({}) with every call a join; fib({}) with cutoff {}; "
        "sum of {} u64; wake-up: {} producers x {} round trips; busy threads: {}\n",
        threads, runs, quick ? " (--quick)" : "", join_n, fib_n, cutoff, len, producers, rounds,
        busy_n);
#if MINI_HAVE_TBB
    fmt::print("oneTBB {} (runtime {})", TBB_VERSION_STRING, TBB_runtime_version());
#else
    fmt::print("oneTBB {}", MINI_TBB_ABSENT);
#endif
#if MINI_HAVE_OPENMP
    fmt::print(", OpenMP {} ({})", _OPENMP, "libgomp, g++ " __VERSION__);
#else
    fmt::print(", OpenMP {}", MINI_OPENMP_ABSENT);
#endif
#if MINI_HAVE_RAYON
    fmt::print(", {}", rayon_side_version());
#else
    fmt::print(", rayon: {}", MINI_RAYON_ABSENT);
#endif
    fmt::print("\n");
    std::fflush(stdout);

    Runtimes rt(threads);
#if MINI_HAVE_RAYON
    if (!rt.rayon1.get() || !rt.rayon.get()) {
        fmt::print("rayon could not start the threads of its pools\n");
        return app::wrong_result;
    }
#endif
    // --busy: started after every runtime's threads (none may inherit a pin: serial_cpus) and
    // before the warm-up; stopped after the last run. The CPU rows use load.cpu_seconds().
    Busy load(busy_n);
    std::vector<std::uint64_t> values(len);
    std::iota(values.begin(), values.end(), std::uint64_t{1});
    const std::uint64_t sum_expected = std::uint64_t(len) * (len + 1) / 2;
    const std::uint64_t join_expected = app::fib_value(join_n),
                        fib_expected = app::fib_value(fib_n);
    const double joins = double(app::joins_of(join_n, 0));
    const cmp::iter::Values all(values), first(values.data(), collect_n),
        to_find(values.data(), iter_n / 4 * 3 + 1);
    const std::uint64_t target = values[iter_n / 4 * 3];
    // The answers, from the serial functions (the sums wrap, as in every column).
    std::array<std::uint64_t, num_rows> iter_expected{};
    iter_expected[it_sum] = cmp::iter::sum_squares_serial(all);
    iter_expected[it_collect] = cmp::iter::sum_squares_serial(first);
    iter_expected[it_find] = target;
    iter_expected[it_sum_limit] = sum_expected;
    iter_expected[it_collect_limit] = cmp::iter::read_limit(first);
    iter_expected[it_find_limit] = cmp::iter::read_limit(to_find);

    std::vector<Row> rows(num_rows);
    rows[join_1].label = fmt::format("join, fib({}), 1 thread [ns/join]", join_n);
    if (threads != 1)
        rows[join_t].label = fmt::format("join, fib({}), {} threads [ns/join]", join_n, threads);
    rows[fib].label = fmt::format("fib({}), cutoff {} [ms]", fib_n, cutoff);
    rows[fib_speedup] = {"  speedup over serial", Row::speedup};
    rows[fib_sleeps] = {"  sleeps per stolen B", Row::plain};
    rows[fib_notifies] = {"  notifies per stolen B", Row::plain};
    rows[sum].label = fmt::format("sum of {} u64 [ms]", len);
    rows[sum_speedup] = {"  speedup over serial", Row::speedup};
    rows[trip].label = fmt::format("wake-up round trip [us/trip]");
    rows[trip_p50] = {"  one trip's wait, median [us]", Row::measured};
    rows[trip_p90] = {"  one trip's wait, p90 [us]", Row::measured};
    rows[trip_cpu] = {"  CPU per round trip [us/trip]", Row::measured};
    rows[trip_sleeps] = {"  worker sleeps per round trip", Row::plain};
    rows[it_sum].label = fmt::format("par_iter: sum of squares of {} u64 [ms]", iter_n);
    rows[it_collect].label = fmt::format("map, collect_vec of {} u64 [ms]", collect_n);
    rows[it_find].label = fmt::format("find_any of the item at 3/4 of {} u64 [ms]", iter_n);
    auto mib = [](std::size_t n) {
        return n * 8 >= 1 << 20 ? fmt::format("{} MiB", n * 8 >> 20)
                                : fmt::format("{} KiB", n * 8 >> 10);
    };
    rows[it_sum_limit].label = fmt::format("  limit: serial read of the {} [ms]", mib(iter_n));
    rows[it_collect_limit].label =
        fmt::format("  limit: serial copy of the {} into a new vector [ms]", mib(collect_n));
    rows[it_find_limit].label =
        fmt::format("  limit: serial read of the first {} [ms]", mib(to_find.size()));
    for (RowId r : {it_sum_speedup, it_collect_speedup, it_find_speedup})
        rows[r] = {"  speedup over serial", Row::speedup};
    for (RowId r : {join_1, join_t, fib, sum, trip}) rows[r].note[stdpar] = "n/a";
    for (RowId r : {it_sum, it_collect, it_find}) rows[r].note[workbook_pw] = "n/a";
    if (pause_ms > 0)
        rows[idle] = {fmt::format("CPU in the {} ms pause after a job [ms]", pause_ms), Row::plain};
    for (RowId r : {trip, trip_p50, trip_p90, trip_cpu, trip_sleeps}) rows[r].note[serial] = "n/a";
    for (RowId r : {trip, trip_p50, trip_p90, trip_cpu, trip_sleeps})
        rows[r].note[openmp] = "n/a [1]";
    rows[trip_sleeps].note[onetbb] = rows[trip_sleeps].note[rayon] = "not counted";
    for (RowId r : {fib_sleeps, fib_notifies}) {
        rows[r].note[serial] = "n/a";
        for (int i : {rayon, onetbb, openmp}) rows[r].note[i] = "not counted";
    }
    // --rows: a workload left out has no label (neither run nor printed), nor have its extra rows.
    auto chosen = [](const std::vector<std::string>& only, const char* name) {
        return only.empty() || std::find(only.begin(), only.end(), name) != only.end();
    };
    for (const auto& [r, key] : row_keys)
        if (!chosen(only_rows, key) || (only_rows.empty() && iter_row(r)))
            for (int d = r; d < num_rows && (d == r || rows[d].label.starts_with("  ")); ++d)
                rows[d].label.clear();
    spell_as_table(only_runtimes); // IsMember took any case and kept it
    std::array<bool, num_impls> wanted{}; // --runtimes
    for (int i = 0; i < num_impls; ++i) wanted[i] = chosen(only_runtimes, impl_names[i]);
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

    std::atomic<std::uint64_t> progress{0};
    std::atomic<int> at_row{0}, at_impl{0};
    std::atomic<std::size_t> run{0};
    mini::Watchdog dog(
        "running compare", app::seconds(watchdog_s), [&] { return progress.load(); },
        [&] {
            return fmt::format("run {}/{}, {} on {}, {} steps done", run.load() + 1, runs,
                               rows[at_row.load()].label, impl_names[at_impl.load()],
                               progress.load());
        });

    bool all_ok = true;
    auto check = [&](RowId r, int impl, std::uint64_t got, std::uint64_t expected) {
        if (got == expected) return true;
        fmt::print("WRONG: {} on {}: got {}, expected {}\n", rows[r].label, impl_names[impl], got,
                   expected);
        all_ok = false;
        return false;
    };
    // Times one call of f, checks its result and records the time in `unit`s per `per`. Serial
    // code runs on each CPU in turn and records the fastest.
    const std::vector<int> cpus = serial_cpus();
    std::array<std::vector<std::vector<double>>, num_rows> per_cpu; // serial times by CPU
    for (auto& v : per_cpu) v.resize(cpus.size());
    // Under callgrind, each call is also one labelled dump (compare_callgrind.hpp), per join, per
    // run of fib, per element of the sum.
    std::string run_label = "warm-up";
    auto timed = [&](RowId r, int impl, double unit, double per, std::uint64_t expected, auto&& f) {
        auto once = [&] {
            std::uint64_t got;
            double secs;
            {
                const Counted counted(key_of(r), impl_names[impl], run_label,
                                      r == sum ? values.size() : std::uint64_t(per));
                const double t0 = app::now();
                const auto result = f();
                secs = app::now() - t0;
                if constexpr (std::is_same_v<decltype(result), const cmp::iter::Timing>)
                    secs = result.secs, got = result.value; // it timed itself (compare_iter.hpp)
                else got = result;
            }
            return check(r, impl, got, expected) ? std::optional(secs / unit / per) : std::nullopt;
        };
        if (impl != serial || cpus.empty()) {
            if (auto v = once()) rows[r].samples[impl].push_back(*v);
            return;
        }
        std::optional<double> best;
        for (std::size_t i = 0; i < cpus.size(); ++i) {
            const Pin pin(cpus[i]);
            const std::optional<double> v = once();
            if (!v) return;
            per_cpu[r][i].push_back(*v);
            best = std::min(best.value_or(*v), *v);
        }
        rows[r].samples[impl].push_back(*best);
    };

    // The counters of each of mini's and mini-pw's runs (compare_counters.hpp), [0] mini's, [1]
    // mini-pw's; `started`: when the closure given to install began to run on a worker.
    std::array<std::array<std::vector<RunCounts>, num_rows>, 2> counters;
    double started = 0;
    auto counts = [&]([[maybe_unused]] int impl) -> app::SleepCounts {
#if MINI_HAVE_PW
        if (impl == workbook_pw) return rt.pw->counts();
#endif
        const mini::Stats st = mini::stats(rt.pool); // the process's, the pool's sleepers aside
        return {st.b_stolen, st.sleeps, st.wakeups};
    };
    auto counted = [&](RowId r, int impl, auto&& run_it) {
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
    };

    // --placement: fib's runs on mini and rayon go through the noted leaf (compare_placement.hpp).
    auto placed = [&](RowId r, int impl) {
        return placement && r == fib && (impl == workbook || impl == rayon);
    };
    // One measurement of workload `r` by implementation `impl`, if that one runs it.
    auto measure = [&](RowId r, int impl) {
        const bool one = r == join_1;
        mini::ThreadPool& pool = one ? rt.pool1 : rt.pool;
        [[maybe_unused]] const int t = one ? 1 : int(threads);
#if MINI_HAVE_TBB
        tbb::task_arena& arena = one ? rt.arena1 : rt.arena;
#endif
#if MINI_HAVE_RAYON
        const rayon_side_pool* rpool = (one ? rt.rayon1 : rt.rayon).get();
#endif
        const unsigned n = r == fib ? fib_n : join_n, c = r == fib ? cutoff : 0;
        const bool noted = placed(r, impl);
        if (noted) placement::start();
        const std::uint64_t expected = r == fib ? fib_expected : join_expected;
        const double unit = r == fib ? 1e-3 : 1e-9, per = r == fib ? 1 : joins;
        if (r == join_1 || r == join_t || r == fib) {
            switch (impl) {
            case serial:
                timed(r, impl, unit, per, expected, [&] { return fib_serial(n, c); });
                break;
            case workbook:
                counted(r, impl, [&] {
                    timed(r, impl, unit, per, expected, [&] {
                        return pool.install([&] {
                            started = app::now();
                            return noted ? placement::fib_with(n, c, &placement::noted_leaf)
                                         : app::fib(n, c);
                        });
                    });
                });
                break;
#if MINI_HAVE_PW
            case workbook_pw:
                counted(r, impl, [&] {
                    timed(r, impl, unit, per, expected,
                          [&] { return (one ? rt.pw1 : rt.pw)->fib(n, c, started); });
                });
                break;
#endif
#if MINI_HAVE_RAYON
            case rayon: {
                // rayon::join, its leaves the same fib_leaf called through the C ABI; the joins
                // it made are checked too.
                std::uint64_t made = 0;
                timed(r, impl, unit, per, expected,
                      [&] {
                          return rayon_side_fib(rpool, n, c,
                                                noted ? &placement::noted_leaf : &fib_leaf, &made);
                      });
                if (made != app::joins_of(n, c)) {
                    fmt::print("WRONG: {} on rayon: {} joins, expected {}\n", rows[r].label, made,
                               app::joins_of(n, c));
                    all_ok = false;
                }
                break;
            }
#endif
#if MINI_HAVE_TBB
            case onetbb:
                timed(r, impl, unit, per, expected,
                      [&] { return arena.execute([&] { return fib_tbb(n, c); }); });
                break;
#endif
#if MINI_HAVE_OPENMP
            case openmp:
                timed(r, impl, unit, per, expected, [&] { return fib_omp_team(t, n, c); });
                break;
#endif
            }
        } else if (r == sum) {
            switch (impl) {
            case serial:
                timed(r, impl, 1e-3, 1, sum_expected, [&] { return sum_serial(values); });
                break;
            case workbook:
                counted(r, impl, [&] {
                    timed(r, impl, 1e-3, 1, sum_expected, [&] {
                        return pool.install(
                            [&] { return started = app::now(), mini::sum(pool, values); });
                    });
                });
                break;
#if MINI_HAVE_PW
            case workbook_pw:
                counted(r, impl, [&] {
                    timed(r, impl, 1e-3, 1, sum_expected,
                          [&] { return rt.pw->sum(values, started); });
                });
                break;
#endif
#if MINI_HAVE_RAYON
            case rayon:
                timed(r, impl, 1e-3, 1, sum_expected,
                      [&] { return rayon_side_sum(rpool, values.data(), values.size()); });
                break;
#endif
#if MINI_HAVE_TBB
            case onetbb:
                timed(r, impl, 1e-3, 1, sum_expected,
                      [&] { return arena.execute([&] { return sum_tbb(values); }); });
                break;
#endif
#if MINI_HAVE_OPENMP
            case openmp:
                timed(r, impl, 1e-3, 1, sum_expected, [&] { return sum_omp(t, values); });
                break;
#endif
            }
        } else if (iter_row(r)) {
            const cmp::iter::Where where{pool,
#if MINI_HAVE_RAYON
                                         rpool,
#else
                                         nullptr,
#endif
                                         t};
            const cmp::iter::Values v = chain_of(r) == cmp::iter::Chain::collect ? first : all;
            const bool limit = limit_row(r);
            timed(r, impl, 1e-3, 1, iter_expected[r], [&] {
                return cmp::iter::run(chain_of(r), limit, impl, where, limit && r == it_find_limit ? to_find : v,
                                      target);
            });
        } else if (r == trip) {
            std::optional<app::Trips> got;
            // Each trip timed (for its median and p90); the CPU without the busy threads'.
            const app::TripOptions opt{
                true, [](void* b) { return static_cast<Busy*>(b)->cpu_seconds(); }, &load};
            const Counted counted(key_of(r), impl_names[impl], run_label, trips_per_run);
            const std::uint64_t slept = counts(impl).sleeps;
            if (impl == workbook)
                got = app::round_trips(
                    producers, rounds, progress,
                    [&](std::atomic<std::uint64_t>& e) { trip_mini(pool, e); }, opt);
#if MINI_HAVE_PW
            if (impl == workbook_pw)
                got = app::round_trips(producers, rounds, progress,
                                       [&](std::atomic<std::uint64_t>& e) { rt.pw->trip(e); }, opt);
#endif
            const double sleeps = double(counts(impl).sleeps - slept);
#if MINI_HAVE_RAYON
            if (impl == rayon)
                got = app::round_trips(producers, rounds, progress,
                                       [&](std::atomic<std::uint64_t>& e) {
                                           e.fetch_add(rayon_side_trip(rpool),
                                                       std::memory_order_relaxed);
                                       }, opt);
#endif
#if MINI_HAVE_TBB
            if (impl == onetbb)
                got = app::round_trips(
                    producers, rounds, progress,
                    [&](std::atomic<std::uint64_t>& e) { trip_tbb(rt.outside, e); }, opt);
#endif
            if (got && check(trip, impl, got->executed, trips_per_run)) {
                rows[trip].samples[impl].push_back(got->secs / trips_per_run * 1e6);
                rows[trip_p50].samples[impl].push_back(app::quantile(got->trip_secs, 0.5) * 1e6);
                rows[trip_p90].samples[impl].push_back(app::quantile(got->trip_secs, 0.9) * 1e6);
                rows[trip_cpu].samples[impl].push_back(got->cpu_secs / trips_per_run * 1e6);
                if (impl == workbook || impl == workbook_pw)
                    rows[trip_sleeps].samples[impl].push_back(sleeps / trips_per_run);
            }
        }
    };

    auto runs_it = [&](RowId r, int impl) {
        if (limit_row(r) && impl != serial) return false;
        return !rows[r].label.empty() && built[impl] && wanted[impl] && rows[r].note[impl].empty();
    };
    // Warm-up, not recorded: the first parallel region creates OpenMP's team, and so on. Each
    // step is progress for the watchdog, as in the runs.
    for (RowId r : {join_1, join_t})
        for (int impl = 0; impl < num_impls; ++impl)
            if (runs_it(r, impl)) {
                at_row = r, at_impl = impl;
                measure(r, impl);
                progress.fetch_add(1, std::memory_order_relaxed);
            }
    for (RowId r : {join_1, join_t})
        rows[r].samples = {}, counters[0][r].clear(), counters[1][r].clear();

    const double wall0 = app::now(), busy0 = machine_busy_seconds(), own0 = app::cpu_seconds(),
                 spun0 = load.busy_cpu_seconds();
    int last = -1; // the implementation measured last
    for (; run < runs; ++run) {
        const double t0 = app::now();
        run_label = std::to_string(run + 1);
        for (RowId r : {join_1, join_t, fib, sum, trip, it_sum, it_sum_limit, it_collect,
                        it_collect_limit, it_find, it_find_limit}) {
            std::vector<int> present, turns; // the implementations that run this row; their order
            for (int k = 0; k < num_impls; ++k) {
                const int impl = order == "rotate" ? int((run + k) % num_impls) : k;
                if (runs_it(r, impl)) present.push_back(impl);
            }
            if (order == "rotate") turns = std::move(present);
            else // each follows each other equally often (compare_order.hpp)
                for (const std::size_t k : app::balanced_order(present.size(), run))
                    turns.push_back(present[k]);
            for (const int impl : turns) {
                at_row = r, at_impl = impl;
                // Let the threads of the previous implementation go idle and fall asleep (libgomp
                // and oneTBB spin for a while first), so they take no core from this one; what
                // they burn meanwhile is the `idle` row.
                const double cpu0 = load.cpu_seconds();
                std::this_thread::sleep_for(std::chrono::milliseconds(pause_ms));
                if (last >= 0 && pause_ms > 0)
                    rows[idle].samples[last].push_back((load.cpu_seconds() - cpu0) * 1e3);
                const std::size_t samples = rows[r].samples[impl].size();
                measure(r, impl);
                if (rows[r].samples[impl].size() > samples) rows[r].before[impl].push_back(last);
                if (placed(r, impl)) placement::finish(impl, last);
                last = impl;
                progress.fetch_add(1, std::memory_order_relaxed);
            }
        }
        fmt::print("run {}/{} done in {:.1f} s\n", run.load() + 1, runs, app::now() - t0);
        std::fflush(stdout);
    }

    for (RowId r : {fib_sleeps, fib_notifies})
        for (int i : {workbook, workbook_pw})
            if (runs_it(fib, i) && rows[r].samples[i].empty()) rows[r].note[i] = "no B stolen";
    const double wall = app::now() - wall0, own = app::cpu_seconds() - own0;
    const double busy = machine_busy_seconds() - busy0, spun = load.busy_cpu_seconds() - spun0;
    load.stop();

    fmt::print("\n");
    // mini-pw's column is left out where --runtimes leaves it out: a command that names its
    // columns prints the table it printed before that column existed.
    std::array<bool, num_impls> shown;
    shown.fill(true);
    shown[workbook_pw] = wanted[workbook_pw];
    // std-par only beside the rows that have it: chapter 6's tables stay as they were.
    shown[stdpar] = wanted[stdpar] && (!rows[it_sum].label.empty() ||
                                       !rows[it_collect].label.empty() ||
                                       !rows[it_find].label.empty());
    print_table(rows, fmt::format("workload [unit], busy {}", busy_n), shown);
    if (carryover) print_carryover(rows);
    if (placement) placement::print(500);
    for (int k : {0, 1}) {
        if ((k == 1 || (rows[join_t].label.empty() && rows[fib].label.empty() &&
                        rows[sum].label.empty())) &&
            std::all_of(counters[k].begin(), counters[k].end(),
                        [](const auto& v) { return v.empty(); }))
            continue;
        fmt::print("{}'s counters per run, median [min–max]:\n", k ? "mini-pw" : "mini");
        for (RowId r : {join_t, fib, sum})
            if (!rows[r].label.empty() && !counters[k][r].empty())
                print_counters(rows[r].label.substr(0, rows[r].label.find(" [")), counters[k][r]);
    }
    if (!cpus.empty() && !rows[fib].samples[serial].empty()) {
        fmt::print("serial on each CPU, pinned (median; the serial column takes the faster CPU of "
                   "each run):\n");
        std::size_t w = 0;
        for (RowId r : {join_1, join_t, fib, sum}) w = std::max(w, width(rows[r].label));
        for (RowId r : {join_1, join_t, fib, sum}) {
            if (rows[r].label.empty() || per_cpu[r].front().empty()) continue;
            std::string line = "  " + pad(rows[r].label, w);
            for (std::size_t i = 0; i < cpus.size(); ++i)
                line += fmt::format("  cpu {} {}", cpus[i], num(app::median(per_cpu[r][i])));
            fmt::print("{}\n", line);
        }
        if (cpus.size() == threads) {
            // With one thread per CPU, the best a perfect split can do: every CPU works all the
            // time, each at its own speed.
            const double fastest = app::median(rows[fib].samples[serial]);
            double ideal = 0;
            for (const auto& v : per_cpu[fib]) ideal += fastest / app::median(v);
            fmt::print("  fib: ideal speedup with one thread per CPU at these speeds {:.2f}x\n",
                       ideal);
        }
    }
    print_notes(runs, producers);
    if (busy0 >= 0 && busy >= 0) {
        const unsigned ncpu = std::thread::hardware_concurrency();
        fmt::print(
            "machine: {} CPUs; during the {:.1f} s of runs this process used {:.1f} CPU s ({:.1f} "
            "of them its busy threads'), other processes {:.1f} CPU s ({:.0f}% of the machine)\n",
            ncpu, wall, own, spun, std::max(0.0, busy - own),
            100 * std::max(0.0, busy - own) / (wall * double(ncpu)));
    }
    if (app::platform::missing) fmt::print("platform: {}\n", app::platform::missing);
    fmt::print("{}\n", all_ok ? "all results correct" : "WRONG RESULT");
    return all_ok ? app::ok : app::wrong_result;
}
