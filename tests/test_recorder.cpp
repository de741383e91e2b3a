// The flight recorder: its ring (a reader racing the owner keeps only whole events), and how the
// replay numbers jobs.
#include <instrument/recorder.hpp>
#include <instrument/replay.hpp>

#include <catch2/catch.hpp>

#include <atomic>
#include <cstdint>
#include <memory>
#include <thread>

#include "helpers.hpp"

using mini::recorder::Event;
using mini::recorder::Kind;
using mini::recorder::Track;
using mini::recorder::capacity;

// The owner appends events whose object and arg are the same number; the reader copies the ring
// as snapshot() does, while the owner laps it. An event whose two fields differ is torn: read
// half before and half after the owner rewrote its slot. The reader starts at the oldest slot,
// the very one the owner writes next, so without the check before the fields this fails at once.
TEST_CASE("a reader racing the ring's owner keeps no torn event", "[recorder]") {
    auto track = std::make_unique<Track>();
    constexpr std::uint64_t events = 1 << 20;
    std::atomic<bool> started{false}, done{false};
    std::thread owner([&] {
        started = true;
        for (std::uint64_t k = 1; k <= events; ++k)
            track->append(Kind::steal, reinterpret_cast<const void*>(k), k);
        done = true;
    });
    while (!started) std::this_thread::yield(); // hand-off: the owner is running
    std::uint64_t kept = 0, torn = 0;
    while (!done) {
        const std::uint64_t count = track->count.load(std::memory_order_relaxed);
        for (std::uint64_t n = count > capacity ? count - capacity : 0; n < count; ++n) {
            Event e;
            if (!track->ring[n % capacity].read(n, e)) continue;
            ++kept;
            torn += e.object != e.arg || e.arg != n + 1;
        }
    }
    owner.join();
    CHECK(kept > 0);
    CHECK(torn == 0);
}

// inject records its event after the push and the wake-up (it reports the sleepers it read), so
// a fast taker's steal and run can come first in time order. The late inject is the same job,
// not a new one: else the watchdog names a job nobody took that a worker did take.
TEST_CASE("an inject recorded after its taker's events is the job they took", "[recorder]") {
    using mini::recorder::Jobs;
    const std::uintptr_t a = 0x1000;
    const Event take{1, Kind::steal, mini::from_injector, a}, begin{2, Kind::job_begin, 0, a},
        inject{3, Kind::inject, 0, a}, end{4, Kind::job_end, 0, a}, again{5, Kind::inject, 0, a};
    Jobs jobs;
    for (const Event* e : {&take, &begin, &inject, &end, &again}) jobs.see(*e);
    CHECK(jobs.uid(inject) == jobs.uid(take));
    CHECK(jobs.uid(end) == jobs.uid(take));
    CHECK(jobs.uid(again) != jobs.uid(take)); // announced once: the next inject is a new job
}
