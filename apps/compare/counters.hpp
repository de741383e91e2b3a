// The counters under compare's table: for each run of mini and of mini-pw, the copy's own sleep
// counts (B stolen, sleeps, notifies: sleep_work.hpp's SleepCounts), when the job began on a
// worker and how many threads were busy. They explain the times.
#pragma once

#include <algorithm>
#include <string>
#include <tuple>
#include <vector>

#include <fmt/core.h>

#include "common.hpp"
#include "sleep_work.hpp"

namespace cmp {

struct RunCounts {
    app::SleepCounts counts;
    // From the call to when the closure given to install began to run on a worker (a worker's
    // wake-up: the caller does not work).
    double start_us;
    // The process's CPU time over the wall time, that is how many threads were working on
    // average (the caller blocks, so at most THREADS; a sleeping worker lowers it).
    double threads_busy;
};

// One line per workload: `label` is the row's, without its unit. The notifies are printed as
// wake-ups, the name mini's Stats gives them.
inline void print_counters(const std::string& label, const std::vector<RunCounts>& runs) {
    auto field = [&](auto get) {
        std::vector<double> v;
        for (const RunCounts& c : runs) v.push_back(double(get(c)));
        const auto [lo, hi] = std::minmax_element(v.begin(), v.end());
        return std::tuple{app::median(v), *lo, *hi};
    };
    auto count = [&](auto get) {
        const auto [m, lo, hi] = field(get);
        return fmt::format("{:.0f} [{:.0f}–{:.0f}]", m, lo, hi);
    };
    const auto none = std::count_if(runs.begin(), runs.end(),
                                    [](const RunCounts& c) { return c.counts.stolen == 0; });
    const auto [s, slo, shi] = field([](const RunCounts& c) { return c.start_us; });
    const auto [b, blo, bhi] = field([](const RunCounts& c) { return c.threads_busy; });
    fmt::print("  {}: B stolen {}, sleeps {}, wake-ups {}; runs with no B stolen: {} of {}; "
               "started on a worker after {:.0f} [{:.0f}–{:.0f}] us; CPU/wall {:.2f} "
               "[{:.2f}–{:.2f}]\n",
               label, count([](const RunCounts& c) { return c.counts.stolen; }),
               count([](const RunCounts& c) { return c.counts.sleeps; }),
               count([](const RunCounts& c) { return c.counts.notifies; }), none, runs.size(), s,
               slo, shi, b, blo, bhi);
}

} // namespace cmp
