// What the three drivers share: the banner, exit codes, argument parsing, timing.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <string>
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

} // namespace app
