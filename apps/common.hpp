// What the drivers share: the banner, exit codes, the command line (args.hpp), timing, the
// round trip.
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <thread>
#include <vector>

#include <fmt/core.h>
#include <sys/resource.h>

#include "args.hpp"

#include <instrument/instrument.hpp>
#include <instrument/replay.hpp>
#include <instrument/watchdog.hpp>
#include <mini/sabotage.hpp>

namespace app {

enum Exit : int { ok = 0, wrong_result = 1, usage = 2, watchdog = mini::Watchdog::exit_code };

// The first line of every driver: which sabotage this build carries (and the per-worker sleep, in
// a build that has it: -DSLEEP=per-worker, chapter 10). (It also installs the
// instruments and names the main thread for the flight recorder's timeline and trace.)
inline void banner(const char* driver) {
    mini::instrument::install();
    mini::recorder::name_thread("main");
    fmt::print("mini-rayon {} | sabotage: {}{}\n", driver, mini::sabotage::active,
               mini::sabotage::per_worker_sleep ? " | sleep: per-worker" : "");
    std::fflush(stdout);
}

// --trace FILE: the flight recorder's events as a Chrome trace, written when this object dies at
// the end of main (declare it before the pool, so that the pool's last events are in), or by the
// watchdog before it exits 3. The file is opened while parsing: a bad path is a usage error.
class TraceOption {
public:
    explicit TraceOption(Args& args) { args.trace(); }
    TraceOption(const TraceOption&) = delete;
    TraceOption& operator=(const TraceOption&) = delete;
    ~TraceOption() { mini::recorder::finish_trace(); }
};

inline double now() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

// User + system CPU time of the whole process, in seconds.
inline double cpu_seconds() {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    auto sec = [](const timeval& t) { return double(t.tv_sec) + double(t.tv_usec) * 1e-6; };
    return sec(u.ru_utime) + sec(u.ru_stime);
}

// Minor page faults of the whole process so far: each is a first touch of a page that the
// kernel must then map (and zero).
inline long minor_faults() {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return u.ru_minflt;
}

inline double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

inline std::chrono::milliseconds seconds(double s) {
    return std::chrono::milliseconds(static_cast<std::int64_t>(s * 1000));
}

// The wake-up round trip, the workload of lost_wakeup and of compare's last row: PRODUCERS
// outside threads, each submitting ROUNDS tiny jobs one at a time and waiting for each.
struct Trips {
    double secs, cpu_secs;
    std::uint64_t executed; // jobs that ran: producers * rounds when nothing was lost
    std::vector<double> trip_secs; // each trip's time, from submit to return (if asked for)
};

// What round_trips measures besides the wall time: each trip's time (off by default, two clock
// reads a trip), and the CPU time by `cpu` (default the whole process's).
struct TripOptions {
    bool each_trip = false;
    double (*cpu)(void*) = nullptr; // cpu(cpu_arg), instead of cpu_seconds()
    void* cpu_arg = nullptr;
};

// submit(executed) submits one job that bumps `executed`, and waits for it.
template <class Submit>
Trips round_trips(std::size_t producers, std::size_t rounds, std::atomic<std::uint64_t>& progress,
                  Submit submit, TripOptions opt = {}) {
    std::atomic<std::uint64_t> executed{0};
    auto cpu = [&] { return opt.cpu ? opt.cpu(opt.cpu_arg) : cpu_seconds(); };
    std::vector<std::vector<double>> each(producers);
    if (opt.each_trip)
        for (auto& v : each) v.reserve(rounds);
    const double t0 = now(), cpu0 = cpu();
    std::vector<std::thread> ps;
    for (std::size_t p = 0; p < producers; ++p)
        ps.emplace_back([&, p] {
            mini::recorder::name_thread(fmt::format("producer {}", p).c_str());
            for (std::size_t r = 0; r < rounds; ++r) {
                const double start = opt.each_trip ? now() : 0;
                submit(executed);
                if (opt.each_trip) each[p].push_back(now() - start);
                progress.fetch_add(1, std::memory_order_relaxed);
            }
        });
    for (auto& t : ps) t.join();
    Trips trips{now() - t0, cpu() - cpu0, executed.load(), {}};
    for (const auto& v : each) trips.trip_secs.insert(trips.trip_secs.end(), v.begin(), v.end());
    return trips;
}

// The q-quantile of v (0 <= q <= 1), the nearest rank; v must not be empty.
inline double quantile(std::vector<double> v, double q) {
    const auto rank = std::size_t(std::ceil(q * double(v.size()))); // 1-based
    const std::size_t k = std::min(v.size() - 1, rank > 0 ? rank - 1 : 0);
    std::nth_element(v.begin(), v.begin() + std::ptrdiff_t(k), v.end());
    return v[k];
}

} // namespace app
