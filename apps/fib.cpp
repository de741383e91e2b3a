// fib: naive Fibonacci with join above the cutoff and plain recursion below it. Checks every result
// against the serial value, prints the join counters per run, the median, the serial time measured
// in the same process and the speedup. CUTOFF 0 makes every call a join: it then also prints the
// cost of one join in nanoseconds.
#include <atomic>
#include <vector>

#include "common.hpp"
#include "fib.hpp"

int main(int argc, char** argv) {
    app::banner("fib");
    app::Args cli{
        "Naive Fibonacci with join above CUTOFF, checked against the serial value.\n"
        "CUTOFF 0: every call is a join, and the cost per join is printed.\n"
        "Exit codes: 0 correct, 1 wrong result, 2 usage error, 3 watchdog (no progress)."};
    std::size_t threads = 12, runs = 5;
    unsigned n = 36, cutoff = 15;
    double watchdog_s = 5;
    cli.add("THREADS", threads, "worker threads", {1, 256});
    cli.add("N", n, "fib(N); at most 93, the largest whose value fits in 64 bits", {0, 93});
    cli.add("CUTOFF", cutoff, "below or at this n, plain recursion", {0, 93});
    cli.add("RUNS", runs, "timed runs", {1, 1000});
    cli.add("WATCHDOG_SECONDS", watchdog_s, "seconds without progress before exiting 3",
            {0.1, 3600.0});
    app::TraceOption trace(cli);
    if (int code = cli.parse(argc, argv); code >= 0) return code;

    fmt::print("fib({}) with cutoff {} on {} threads, {} runs, watchdog {} s\n", n, cutoff, threads,
               runs, watchdog_s);
    std::fflush(stdout);
    mini::ThreadPool pool(threads);
    const std::uint64_t expected = app::fib_value(n);

    // Parallel and serial runs alternate, so that both meet the same machine: the two cores of a
    // shared VM do not always run at the same speed. The serial run goes through install too, so
    // it runs on a worker thread's stack like the parallel leaves do.
    std::atomic<std::size_t> run{0}, phase{0}; // phase: bumped around each serial run
    std::vector<double> times, serial;
    bool all_ok = true;
    mini::Watchdog dog(
        "running fib", app::seconds(watchdog_s),
        [&] { return mini::stats(pool).executed + run.load() + phase.load(); },
        [&] {
            const mini::Stats s = mini::stats(pool);
            return fmt::format("run {}/{}, {} B stolen so far, {} jobs executed, sleepers {}, "
                               "queued {}",
                               run.load() + 1, runs, s.b_stolen, s.executed, s.sleepers, s.queued);
        });
    const std::uint64_t joins = app::joins_of(n, cutoff); // join's fast path has no probe
    for (; run < runs; ++run) {
        const mini::Stats before = mini::stats(pool);
        const double t0 = app::now();
        const std::uint64_t got = pool.install([&] { return app::fib(n, cutoff); });
        const double secs = app::now() - t0;
        const mini::Stats s = mini::stats(pool) - before;
        times.push_back(secs);
        const bool ok = got == expected;
        all_ok &= ok;
        fmt::print("run {}: {:.4f} s  {}  joins {}, B inline {}, B stolen {}, run while "
                   "waiting {}, sleeps {}",
                   run.load(), secs, ok ? "correct" : "WRONG", joins, joins - s.b_stolen,
                   s.b_stolen, s.waited_jobs, s.sleeps);
        if (cutoff <= 1 && joins > 0) fmt::print(", {:.1f} ns/join", secs / joins * 1e9);
        fmt::print("\n");
        if (!ok) fmt::print("  fib({}) = {}, got {}\n", n, expected, got);
        std::fflush(stdout);

        ++phase;
        const double t1 = app::now();
        all_ok &= pool.install([&] { return app::fib_serial(n, cutoff); }) == expected;
        serial.push_back(app::now() - t1);
        ++phase;
    }
    const double par = app::median(times), ser = app::median(serial);
    fmt::print("median {:.4f} s, serial {:.4f} s, speedup {:.2f}x on {} threads\n", par, ser,
               ser / par, threads);
    fmt::print("{}\n", all_ok ? "all results correct" : "WRONG RESULT");
    return all_ok ? app::ok : app::wrong_result;
}
