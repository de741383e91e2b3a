// The sleeps driver's workload: fib with join on a pool of its own, with the sleep protocol's
// counts per run (chapter 10).
//
// sleep_work.cpp is compiled twice: once as it is, on the core as built (the pool's sleep,
// sleep.hpp), and once with its namespace renamed (-Dmini=mini_pw) next to a copy of the core
// built with -DSLEEP=per-worker (worker_sleep.hpp), as chain.cpp is for steal_wait
// (apps/CMakeLists.txt). The two copies share no symbol: both sleeps run in one process.
#pragma once

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>

namespace app {

// A copy's sleep counts so far, from its own probe handler (sleep_work.cpp): its Bs stolen
// (Probe::b_stolen), its sleeps (Probe::woken after a wait: a wait on a condition variable that
// ended, one futex wait) and its notifies (Probe::notified: one notify_one or notify_all call,
// one futex wake when a thread waits). Every pool of that copy adds to them.
struct SleepCounts {
    std::uint64_t stolen = 0, sleeps = 0, notifies = 0;
    SleepCounts operator-(const SleepCounts& b) const {
        return {stolen - b.stolen, sleeps - b.sleeps, notifies - b.notifies};
    }
};

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

// sleep_counts() installs the copy's counting probe handler, in place of any other (the
// instruments' too: compare calls only mini_pw's), and returns its counts so far.
// fib(n) is app::fib on the copy's join (call it on a worker of that copy's pool); mini-pw's column
// of compare runs it too (compare/pw.cpp).
// missed_pushes(trials, wait, done): in `trials` fresh 2-thread pools, one join each, pushed at
// once: in how many B was left to its owner for `wait` (A waits that long for B to start on the
// other worker, then the owner runs it); `done` counts the trials, for the watchdog (issue 40).
namespace mini { // the core as built: the pool's sleep
std::unique_ptr<app::SleepPool> sleep_pool(std::size_t threads);
app::SleepCounts sleep_counts();
std::uint64_t fib(unsigned n, unsigned cutoff);
std::size_t missed_pushes(std::size_t trials, std::chrono::milliseconds wait,
                          std::atomic<std::uint64_t>& done);
}
namespace mini_pw { // the copy with -DSLEEP=per-worker
std::unique_ptr<app::SleepPool> sleep_pool(std::size_t threads);
app::SleepCounts sleep_counts();
std::uint64_t fib(unsigned n, unsigned cutoff);
std::size_t missed_pushes(std::size_t trials, std::chrono::milliseconds wait,
                          std::atomic<std::uint64_t>& done);
}
