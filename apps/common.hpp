// What the drivers share: the banner, exit codes, argument parsing, timing, the round trip.
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <string>
#include <thread>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/core.h>
#include <sys/resource.h>

#include <mini/sabotage.hpp>
#include <mini/watchdog.hpp>

namespace app {

enum Exit : int { ok = 0, wrong_result = 1, usage = 2, watchdog = mini::Watchdog::exit_code };

// The first line of every driver: which sabotage this build carries.
inline void banner(const char* driver) {
    fmt::print("mini-rayon {} | sabotage: {}\n", driver, mini::sabotage::active);
    std::fflush(stdout);
}

// Parses, or returns the exit code to leave with: 0 after --help, 2 after any usage error.
inline int parse(CLI::App& cli, int argc, char** argv) {
    try {
        cli.parse(argc, argv);
        return -1;
    } catch (const CLI::ParseError& e) {
        const int code = cli.exit(e); // prints help, or the error with a hint
        return code == 0 ? ok : usage;
    }
}

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
};

// submit(executed) submits one job that bumps `executed`, and waits for it.
template <class Submit>
Trips round_trips(std::size_t producers, std::size_t rounds, std::atomic<std::uint64_t>& progress,
                  Submit submit) {
    std::atomic<std::uint64_t> executed{0};
    const double t0 = now(), cpu0 = cpu_seconds();
    std::vector<std::thread> ps;
    for (std::size_t p = 0; p < producers; ++p)
        ps.emplace_back([&] {
            for (std::size_t r = 0; r < rounds; ++r) {
                submit(executed);
                progress.fetch_add(1, std::memory_order_relaxed);
            }
        });
    for (auto& t : ps) t.join();
    return {now() - t0, cpu_seconds() - cpu0, executed.load()};
}

} // namespace app
