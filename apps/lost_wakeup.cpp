// lost_wakeup: outside threads submit one tiny job at a time to a small pool and wait for it, so
// workers fall asleep and are woken all the time. With the re-check every run passes; without it
// (the no-recheck build) a wake-up is lost, a producer waits forever and the watchdog exits 3.
#include <atomic>

#include <mini/pool.hpp>

#include "common.hpp"

int main(int argc, char** argv) {
    app::banner("lost_wakeup");
    app::Args cli{
        "Stress the sleep protocol: PRODUCERS outside threads each submit ROUNDS tiny jobs\n"
        "one at a time to a pool of THREADS workers and wait for each.\n"
        "Exit codes: 0 all runs passed, 1 wrong result, 2 usage error, 3 watchdog (no progress)."};
    std::size_t threads = 2, producers = 4, rounds = 200000, runs = 10;
    double watchdog_s = 5;
    cli.add("THREADS", threads, "worker threads", {1, 256});
    cli.add("PRODUCERS", producers, "outside threads submitting jobs", {1, 256});
    cli.add("ROUNDS", rounds, "round trips per producer", {1, 100000000});
    cli.add("RUNS", runs, "runs, each with a new pool", {1, 10000});
    cli.add("--watchdog", watchdog_s, "seconds without progress before exiting 3", {0.1, 3600.0});
    app::TraceOption trace(cli);
    if (int code = cli.parse(argc, argv); code >= 0) return code;

    fmt::print("{} workers, {} producers x {} round trips, {} runs, watchdog {} s\n", threads,
               producers, rounds, runs, watchdog_s);
    const std::uint64_t per_run = producers * rounds;
    std::atomic<std::uint64_t> done{0}; // round trips completed, over all runs: the progress
    // Read by the watchdog's report: the pool of the current run while its producers run, null
    // once they are done and the pool is being destroyed (a worker that sleeps through the
    // terminate latch hangs it there, chapter 2).
    std::atomic<mini::ThreadPool*> current{nullptr};
    std::atomic<std::size_t> run{0};
    mini::Watchdog dog(
        "running lost_wakeup", app::seconds(watchdog_s), [&] { return done.load(); },
        [&] {
            const std::size_t r = run.load();
            mini::ThreadPool* pool = current.load();
            if (pool == nullptr)
                return fmt::format("run {}/{}: all {} round trips done, destroying its pool", r + 1,
                                   runs, per_run);
            const mini::Stats s = mini::stats(*pool);
            return fmt::format("run {}/{}, {}/{} round trips of this run, sleepers {}, queued {}",
                               r + 1, runs, done.load() - r * per_run, per_run, s.sleepers,
                               s.queued);
        });

    std::size_t passed = 0;
    for (; run < runs; ++run) {
        mini::ThreadPool pool(threads);
        current = &pool;
        const mini::Stats before = mini::stats(pool);
        const app::Trips t =
            app::round_trips(producers, rounds, done, [&](std::atomic<std::uint64_t>& executed) {
                pool.install([&] { executed.fetch_add(1, std::memory_order_relaxed); });
            });
        const mini::Stats s = mini::stats(pool) - before;
        current = nullptr;
        const bool ok = t.executed == per_run;
        passed += ok;
        fmt::print(
            "run {:>2}: {:.3f} s, {:>7.0f} round trips/s, {:.1f} us/trip (CPU {:.1f} us/trip), "
            "sleeps {} ({:.4f}/trip), wake-ups {}, re-checks that found work {}{}\n",
            run.load(), t.secs, per_run / t.secs, t.secs / per_run * 1e6,
            t.cpu_secs / per_run * 1e6, s.sleeps, double(s.sleeps) / per_run, s.wakeups, s.rechecks,
            ok ? "" : fmt::format("  WRONG: {} jobs ran, {} expected", t.executed, per_run));
        std::fflush(stdout);
    }
    fmt::print("{}/{} runs passed\n", passed, runs);
    return passed == runs ? app::ok : app::wrong_result;
}
