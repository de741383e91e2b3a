// hurts blocking: blocking work inside the pool (rayon issue #779 and the like).
//
// CPU jobs (a busy loop each) and blocking jobs (a sleep, standing in for a read from disk or the
// network) go to a pool of THREADS workers. A worker that runs a blocking job does nothing else
// until it wakes: the pool has one thread fewer for the CPU jobs. Three setups, each timed from
// the first spawn to the end of the last CPU job:
//   alone:       the CPU jobs only;
//   one pool:    the blocking jobs spawned among the CPU jobs on the same pool;
//   own pool:    the blocking jobs on a pool of their own (the fix), the CPU jobs on the first.
// Sleeping is the workload here, never a synchronisation: the driver measures and asserts nothing.
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <thread>
#include <vector>

#include <fmt/core.h>

#include <mini/pool.hpp>
#include <mini/scope.hpp>

#include "common.hpp"
#include "hurts/handoff.hpp"

namespace hurts {

struct BlockingOptions {
    std::size_t threads = 2, runs = 5, cpu_jobs = 400, io_jobs = 4, io_ms = 50,
                work = 200000;
    double watchdog_s = 60;
};

inline void busy(std::size_t work) {
    for (std::size_t i = 0; i < work; ++i) asm volatile("");
}

// The setups' CPU jobs and blocking jobs, and when the last CPU job ended.
struct Blocking {
    const BlockingOptions& o;
    Steps& steps;
    std::atomic<std::size_t> cpu_left{0};
    double t0 = 0, cpu_end = 0;

    void cpu_job() {
        busy(o.work);
        steps.step();
        if (cpu_left.fetch_sub(1) == 1) cpu_end = app::now(); // the last one
    }
    void io_job() {
        std::this_thread::sleep_for(std::chrono::milliseconds(o.io_ms)); // the I/O it waits for
        steps.step();
    }

    // ANCHOR: one_pool
    // Every job on one pool: a worker that runs io_job sleeps, and its CPU jobs wait for it
    // or for the other workers.
    double one_pool(mini::ThreadPool& pool, bool with_io) {
        start();
        pool.scope([&](mini::Scope& s) {
            const std::size_t every = std::max<std::size_t>(1, o.cpu_jobs / o.io_jobs);
            for (std::size_t i = 0; i < o.cpu_jobs; ++i) {
                if (with_io && i % every == 0 && i / every < o.io_jobs) s.spawn([&](mini::Scope&) { io_job(); });
                s.spawn([&](mini::Scope&) { cpu_job(); });
            }
        });
        return cpu_end - t0;
    }
    // ANCHOR_END: one_pool

    // ANCHOR: own_pool
    // The fix: the blocking jobs on a pool of their own, whose threads may sleep; the CPU pool
    // keeps all its workers for the CPU jobs.
    double own_pool(mini::ThreadPool& pool, mini::ThreadPool& io_pool) {
        start();
        io_pool.scope([&](mini::Scope& io) {
            for (std::size_t i = 0; i < o.io_jobs; ++i) io.spawn([&](mini::Scope&) { io_job(); });
            pool.scope([&](mini::Scope& s) {
                for (std::size_t i = 0; i < o.cpu_jobs; ++i) s.spawn([&](mini::Scope&) { cpu_job(); });
            });
        });
        return cpu_end - t0;
    }
    // ANCHOR_END: own_pool

    void start() {
        cpu_left = o.cpu_jobs;
        t0 = app::now();
    }
};

inline int run_blocking(const BlockingOptions& o) {
    app::banner("hurts blocking");
    fmt::print("a pool of {} workers; {} CPU jobs of {} iterations; {} blocking jobs of {} ms "
               "each; {} runs\n",
               o.threads, o.cpu_jobs, o.work, o.io_jobs, o.io_ms, o.runs);
    std::fflush(stdout);
    mini::ThreadPool pool(o.threads), io_pool(o.io_jobs);
    Steps steps;
    mini::Watchdog dog("hurts blocking", app::seconds(o.watchdog_s), [&] { return steps(); },
                       [&] { return fmt::format("{} jobs done", steps()); });
    Blocking b{o, steps};
    std::array<std::vector<double>, 3> ms;
    b.one_pool(pool, false); // warm-up: every worker started, not recorded
    for (std::size_t run = 0; run < o.runs; ++run) {
        ms[0].push_back(b.one_pool(pool, false) * 1e3);
        ms[1].push_back(b.one_pool(pool, true) * 1e3);
        ms[2].push_back(b.own_pool(pool, io_pool) * 1e3);
    }
    if (b.cpu_left != 0) { // the scopes returned: every CPU job must have ended
        fmt::print("WRONG: {} CPU jobs did not run\n", b.cpu_left.load());
        return app::wrong_result;
    }
    const char* labels[] = {"CPU jobs alone", "CPU jobs beside blocking jobs, one pool",
                            "blocking jobs on a pool of their own"};
    fmt::print("\n{:<42}{}\n", "setup", "until the last CPU job ends [ms]   CPU jobs per ms");
    for (std::size_t i = 0; i < 3; ++i) {
        const auto [lo, hi] = std::minmax_element(ms[i].begin(), ms[i].end());
        const double med = app::median(ms[i]);
        fmt::print("{:<42}{:<35}{:.1f}\n", labels[i],
                   fmt::format("{:.1f} [{:.1f}–{:.1f}]", med, *lo, *hi),
                   double(o.cpu_jobs) / med);
    }
    fmt::print("[a–b]: min–max over {} runs. Every CPU job ran in every run.\n", o.runs);
    return app::ok;
}

} // namespace hurts
