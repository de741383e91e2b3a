// The instruments' side of mini/probe.hpp: the handler that turns probes into the flight
// recorder's events, the statistics the drivers print, and the hook a test holds a thread with.
//
// Drivers and tests call install() once, first thing; a program that does not, links no
// instrument and pays one not-taken branch per probe.
#pragma once

#include <atomic>
#include <cstdint>

#include <mini/pool.hpp>
#include <mini/probe.hpp>

namespace mini {

namespace instrument {
void install();

// A test's hook, run in the probing thread after the event was recorded: it may hold the thread
// there (an explicit hand-off) to force an interleaving, or throw at Probe::spawn.
using SyncHook = void (*)(Probe);
inline constinit std::atomic<SyncHook> sync_hook{nullptr};
} // namespace instrument

// What the pools did, counted from the probes of every thread of the process (one pool at a
// time, in the drivers and tests); a driver prints the difference of two snapshots. join's fast
// path has no probe: a driver that knows its joins derives "B inline" as joins - b_stolen.
struct Stats {
    std::uint64_t executed = 0;    // jobs run through their JobRef (stolen or injected)
    std::uint64_t steals = 0;      // successful steals from another worker's deque
    std::uint64_t b_stolen = 0;    // joins whose B was stolen and run elsewhere
    std::uint64_t waited_jobs = 0; // jobs a join's owner ran while waiting for a stolen B
    std::uint64_t sleeps = 0;      // times a worker blocked on the condition variable
    std::uint64_t wakeups = 0;     // notify calls, each of which counted out one sleeper (or all)
    std::uint64_t rechecks = 0;    // re-checks that found work (each a wake-up otherwise lost)
    std::uint64_t sleepers = 0;    // now, in the pool asked about
    std::uint64_t queued = 0;      // now: jobs in that pool's injector
    Stats operator-(const Stats& before) const;
};
Stats stats(const ThreadPool& pool);

} // namespace mini
