// lost_wakeup: outside threads submit one tiny job at a time to a small pool and wait for it, so
// workers fall asleep and are woken all the time. With the re-check every run passes; without it
// (the no-recheck build) a wake-up is lost, a producer waits forever and the watchdog exits 3.
#include <atomic>
#include <thread>
#include <vector>

#include <mini/pool.hpp>

#include "common.hpp"

int main(int argc, char** argv) {
    app::banner("lost_wakeup");
    CLI::App cli{"Stress the sleep protocol: PRODUCERS outside threads each submit ROUNDS tiny jobs\n"
                 "one at a time to a pool of THREADS workers and wait for each.\n"
                 "Exit codes: 0 all runs passed, 1 wrong result, 2 usage error, 3 watchdog (no progress)."};
    std::size_t threads = 2, producers = 4, rounds = 200000, runs = 10;
    double watchdog_s = 5;
    cli.add_option("THREADS", threads, "worker threads")->check(CLI::Range(1, 256));
    cli.add_option("PRODUCERS", producers, "outside threads submitting jobs")->check(CLI::Range(1, 256));
    cli.add_option("ROUNDS", rounds, "round trips per producer")->check(CLI::Range(1, 100000000));
    cli.add_option("RUNS", runs, "runs, each with a new pool")->check(CLI::Range(1, 10000));
    cli.add_option("--watchdog", watchdog_s, "seconds without progress before exiting 3")
        ->check(CLI::Range(0.1, 3600.0));
    if (int code = app::parse(cli, argc, argv); code >= 0) return code;

    fmt::print("{} workers, {} producers x {} round trips, {} runs, watchdog {} s\n", threads,
               producers, rounds, runs, watchdog_s);
    const std::uint64_t per_run = producers * rounds;
    std::atomic<std::uint64_t> done{0}; // round trips completed, over all runs: the progress
    std::atomic<mini::ThreadPool*> current{nullptr};
    std::atomic<std::size_t> run{0}; // read by the watchdog's report
    mini::Watchdog dog(
        "running lost_wakeup", app::seconds(watchdog_s), [&] { return done.load(); },
        [&] {
            mini::ThreadPool* pool = current.load();
            const mini::Stats s = pool ? pool->stats() : mini::Stats{};
            return fmt::format("run {}/{}, {}/{} round trips of this run, sleepers {}, queued {}",
                               run.load() + 1, runs, done.load() - run.load() * per_run, per_run, s.sleepers,
                               s.queued);
        });

    std::size_t passed = 0;
    for (; run < runs; ++run) {
        mini::ThreadPool pool(threads);
        current = &pool;
        std::atomic<std::uint64_t> executed{0};
        const double t0 = app::now(), cpu0 = app::cpu_seconds();
        std::vector<std::thread> ps;
        for (std::size_t p = 0; p < producers; ++p)
            ps.emplace_back([&] {
                for (std::size_t r = 0; r < rounds; ++r) {
                    pool.install([&] { executed.fetch_add(1, std::memory_order_relaxed); });
                    done.fetch_add(1, std::memory_order_relaxed);
                }
            });
        for (auto& t : ps) t.join();
        const double secs = app::now() - t0, cpu = app::cpu_seconds() - cpu0;
        const mini::Stats s = pool.stats();
        current = nullptr;
        const bool ok = executed.load() == per_run;
        passed += ok;
        fmt::print("run {:>2}: {:.3f} s, {:>7.0f} round trips/s, {:.1f} us/trip (CPU {:.1f} us/trip), "
                   "sleeps {} ({:.4f}/trip), wake-ups {}, re-checks that found work {}{}\n",
                   run.load(), secs, per_run / secs, secs / per_run * 1e6, cpu / per_run * 1e6, s.sleeps,
                   double(s.sleeps) / per_run, s.wakeups, s.rechecks,
                   ok ? "" : fmt::format("  WRONG: {} jobs ran, {} expected", executed.load(), per_run));
        std::fflush(stdout);
    }
    fmt::print("{}/{} runs passed\n", passed, runs);
    return passed == runs ? app::ok : app::wrong_result;
}
