// The flight recorder's ring: a reader racing the owner keeps only whole events.
#include <instrument/recorder.hpp>

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
