// Small things the tests share.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include <instrument/instrument.hpp>
#include <instrument/recorder.hpp>
#include <mini/pool.hpp>

namespace test {

// Every test program installs the instruments before main: the statistics, the flight recorder
// and the sync hooks all come through the probe handler.
inline const bool instruments_installed = (mini::instrument::install(), true);

// How long a test's watchdog waits for progress before it declares a deadlock (exit 3).
inline constexpr std::chrono::milliseconds watchdog_time{3000};

// How many slots were bumped other than exactly once.
inline std::size_t count_not_once(const std::vector<std::atomic<int>>& slots) {
    std::size_t bad = 0;
    for (const auto& s : slots) bad += s.load() != 1;
    return bad;
}

inline std::string describe(const mini::Stats& s) {
    return "B stolen " + std::to_string(s.b_stolen) + ", executed " + std::to_string(s.executed) +
           ", sleepers " + std::to_string(s.sleepers) + ", queued " + std::to_string(s.queued);
}

// A job that does nothing, injected to wake a sleeping worker: injection wake-ups are never lost
// (that is chapter 2), while a push onto a worker's own deque may wake nobody (by design). Tests
// that need a second worker awake to force a steal inject one of these first.
inline void wake_a_worker(mini::ThreadPool& pool) {
    pool.inject(mini::JobRef{nullptr, [](void*) noexcept {}});
}

} // namespace test
