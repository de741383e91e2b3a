// The sleeps driver's workload: fib with join on a pool of its own, with the sleep protocol's
// counts per run (chapter 10).
//
// sleep_work.cpp is compiled twice: once as it is, on the core as built (the pool's sleep,
// sleep.hpp), and once with its namespace renamed (-Dmini=mini_pw) next to a copy of the core
// built with -DSLEEP=per-worker (worker_sleep.hpp), as chain.cpp is for steal_wait
// (apps/CMakeLists.txt). The two copies share no symbol: both sleeps run in one process.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

namespace app {

struct SleepRun {
    double secs;
    std::uint64_t value;   // fib(n): checked by the driver
    std::uint64_t stolen;  // Bs stolen (Probe::b_stolen)
    std::uint64_t sleeps;  // waits on a condition variable that ended (each a futex wait)
    std::uint64_t notifies; // notify calls (Probe::notified; the pool's notify_all is one)
};

class SleepPool {
public:
    virtual ~SleepPool() = default;
    virtual SleepRun run(unsigned n, unsigned cutoff) = 0;
    virtual std::uint64_t progress() const = 0; // runs done, for the watchdog
};

} // namespace app

namespace mini { // the core as built: the pool's sleep
std::unique_ptr<app::SleepPool> sleep_pool(std::size_t threads);
}
namespace mini_pw { // the copy with -DSLEEP=per-worker
std::unique_ptr<app::SleepPool> sleep_pool(std::size_t threads);
}
