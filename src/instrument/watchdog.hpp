// The watchdog: ends a deadlocked run with exit code 3 instead of letting it hang.
//
// A monitor thread samples a progress counter. When the counter has not moved for `timeout`, it
// prints to stderr what was being done and how far it got, the flight recorder's last events of
// every thread and its diagnosis (replay.hpp), writes the --trace file if any, then exits with
// std::_Exit(3): deadlocked threads can be neither joined nor unwound, and exit() would run
// static destructors (the global pool's) that wait for them.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <thread>

namespace mini {

class Watchdog {
public:
    static constexpr int exit_code = 3;

    // `progress` returns a number that grows while work gets done; `report` describes the state
    // for the message (e.g. "run 3/10, 1234 round trips, sleepers 2, queued 1").
    Watchdog(std::string what, std::chrono::milliseconds timeout,
             std::function<std::uint64_t()> progress, std::function<std::string()> report);
    Watchdog(const Watchdog&) = delete;
    Watchdog& operator=(const Watchdog&) = delete;
    ~Watchdog(); // stops the monitor

private:
    void monitor();

    const std::string what_;
    const std::chrono::milliseconds timeout_;
    const std::function<std::uint64_t()> progress_;
    const std::function<std::string()> report_;
    std::mutex mutex_;
    std::condition_variable cv_;
    bool stop_ = false;
    std::thread thread_;
};

} // namespace mini
