// compare's mini-pw column: the core built with rayon's per-worker sleep (-DSLEEP=per-worker,
// chapter 10), beside mini, the core as built with the pool's sleep (chapter 2).
//
// compare/pw.cpp is compiled only into mini_pw, the second copy of the core that sleeps already
// runs (apps/CMakeLists.txt): -Dmini=mini_pw renames its namespace, so the two copies share no
// symbol and both sleeps run in one process. compare reaches that copy only through this
// interface; its counts come from sleep_work.cpp's probe handler (sleep_work.hpp). So the two
// columns' probes differ: mini's go through the instruments' handler (the flight recorder and
// the Stats), mini-pw's only add to three counters. No probe is on join's fast path; a stolen
// job or a round trip passes a few.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "sleep_work.hpp"

namespace app {

// A pool of the mini_pw copy, as compare's rows use mini's: every call installs from outside and
// blocks until the job is done. `started` receives the time (app::now()'s clock) at which the
// job began to run on a worker.
class ComparePool {
public:
    virtual ~ComparePool() = default;
    // fib(n) with join below `cutoff`: app::fib's code on this copy (sleep_work.cpp).
    virtual std::uint64_t fib(unsigned n, unsigned cutoff, double& started) = 0;
    virtual std::uint64_t sum(const std::vector<std::uint64_t>& values, double& started) = 0;
    // One wake-up round trip: a job that bumps `executed` (trip_mini's, on_mini.hpp).
    virtual void trip(std::atomic<std::uint64_t>& executed) = 0;
    // The copy's counts so far, all its pools together (mini_pw::sleep_counts()).
    virtual SleepCounts counts() const = 0;
};

} // namespace app

namespace mini_pw {
std::unique_ptr<app::ComparePool> compare_pool(std::size_t threads);
}
