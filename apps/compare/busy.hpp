// compare --busy N: a busy machine, made inside the process. N threads spin on their own (no
// lock, no memory shared with the runtimes but one flag) from before the first run until after
// the last, so that every workload and every runtime meets the same load: a core shared with a
// runnable thread, as on a machine where other programs run.
//
// The CPU rows must count the runtimes' CPU only, so the busy threads' own CPU (each one's
// per-thread CPU clock) is taken out of the process's: cpu_seconds() below. With no busy thread
// that is the process's CPU clock, as before.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <string>
#include <thread>
#include <vector>

#include <fmt/core.h>

#include <instrument/recorder.hpp>

#include "common.hpp"
#include "platform.hpp"

namespace cmp {

class Busy {
public:
    explicit Busy(std::size_t n) {
        for (std::size_t i = 0; i < n; ++i)
            threads_.emplace_back([this, i] {
                mini::recorder::name_thread(fmt::format("busy {}", i).c_str());
                // Work that stays in registers: the load of `stop_` is the one shared line.
                std::uint64_t x = i + 1;
                while (!stop_.load(std::memory_order_relaxed))
                    for (int k = 0; k < 4096; ++k) x = x * 6364136223846793005u + 1442695040888963407u;
                sink_.fetch_add(x, std::memory_order_relaxed); // keeps the loop from being dropped
            });
    }
    Busy(const Busy&) = delete;
    Busy& operator=(const Busy&) = delete;
    ~Busy() { stop(); }

    void stop() {
        stop_.store(true, std::memory_order_relaxed);
        for (auto& t : threads_)
            if (t.joinable()) t.join();
    }

    std::size_t size() const { return threads_.size(); }

    // The busy threads' CPU seconds so far (0 with none; while they run, so before stop()).
    double busy_cpu_seconds() {
        double s = 0;
        for (auto& t : threads_) {
            const double c = app::platform::thread_cpu_seconds(t.native_handle());
            if (c > 0) s += c;
        }
        return s;
    }

    // The process's CPU seconds without the busy threads': the runtimes' own (and the drivers').
    // The busy threads' clocks are read first: reading a running thread's clock brings its
    // runtime up to date, which the process's clock, read next, then includes. (Read the other
    // way round, the process's clock can lag a running busy thread's by a scheduler tick, and
    // the difference would swing by milliseconds.)
    double cpu_seconds() {
        const double busy = busy_cpu_seconds();
        return app::platform::process_cpu_seconds() - busy;
    }

private:
    std::atomic<bool> stop_{false};
    std::atomic<std::uint64_t> sink_{0};
    std::vector<std::thread> threads_;
};

} // namespace cmp
