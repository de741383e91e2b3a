// Small things the tests share.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <instrument/instrument.hpp>
#include <instrument/recorder.hpp>
#include <instrument/watchdog.hpp>
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

namespace detail {
struct TeardownWatch {
    std::optional<mini::Watchdog> dog;
};
} // namespace detail

// A ThreadPool whose destructor runs under a watchdog of its own. ~ThreadPool sets the terminate
// latch and joins every worker: a worker asleep that the latch's wake-up misses never returns, and
// the test hangs there, after its own watchdog (declared after the pool, so destroyed first) is
// gone. The base TeardownWatch is built before the ThreadPool base and destroyed after it, so the
// watchdog that ~Pool's body starts lives through the whole of ~ThreadPool. Its progress never
// moves: the teardown is one step, the join of every worker, which takes microseconds; 3 s
// without it returning is a hang. The report reads nothing of the pool, whose members may already
// be destroyed when the watchdog's monitor runs its last poll.
class Pool : private detail::TeardownWatch, public mini::ThreadPool {
public:
    explicit Pool(std::size_t num_threads) : mini::ThreadPool(num_threads) {}
    ~Pool() {
        const std::string report = std::to_string(num_threads()) + " workers, " +
                                   describe(mini::stats(*this)) + " when the destructor began";
        dog.emplace(
            "destroying the pool (joining its workers)", watchdog_time,
            [] { return std::uint64_t{0}; }, [report] { return report; });
    }
};

// A forced test's progress: a count the test bumps at each step, watched by a watchdog that
// reports the pool's counters if a step never comes.
class Progress {
public:
    Progress(std::string what, mini::ThreadPool& pool)
        : dog_(std::move(what), watchdog_time, [this] { return steps_.load(); },
               [&pool] { return describe(mini::stats(pool)); }) {}
    void operator++() { ++steps_; }

private:
    std::atomic<std::uint64_t> steps_{0};
    mini::Watchdog dog_;
};

// A job that does nothing, injected to wake a sleeping worker: injection wake-ups are never lost
// (that is chapter 2), while a push onto a worker's own deque may wake nobody (by design). Tests
// that need a second worker awake to force a steal inject one of these first.
inline void wake_a_worker(mini::ThreadPool& pool) {
    pool.inject(mini::JobRef{nullptr, [](void*) noexcept {}});
}

} // namespace test
