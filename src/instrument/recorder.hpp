// The flight recorder: the last events of every thread that touches a pool, replayed by the
// watchdog when a run hangs (replay.hpp) and written as a Chrome trace by `--trace`.
//
// Each thread appends fixed-size events to its own ring, a Track: the last `capacity` events,
// claimed when the thread registers (its first event, or name_thread), no allocation after that
// and no lock. The recorder must not change what it records: an added locked instruction or fence
// is exactly what hides a missing one. So the recording path has no shared counter, no atomic
// read-modify-write and no fence: a track's slots and its count are atomics that only the owner
// writes, with relaxed stores, and a reader loads with relaxed loads. That is no data race (TSan
// stays quiet when the watchdog reads a hung thread's ring), but a reader may see the slot a
// running thread is overwriting; the slot's sequence number rejects most such events, and the
// watchdog reads threads that have not moved for seconds.
//
// Events come from the mechanism's probes (mini/probe.hpp), through the handler instrument.cpp
// installs: the cold paths only (injecting, sleeping, stealing, setting a latch), never join's
// fast path. RECORDER=OFF (CMake) compiles every probe out: the "without" of the measurements
// that show it costs nothing.
#pragma once

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>

#include <mini/probe.hpp>

namespace mini::recorder {

inline constexpr bool enabled = probes_enabled;
inline constexpr std::size_t capacity = 1024; // events kept per thread

using Kind = Probe; // what happened: probe.hpp says what `object` and `arg` mean for each kind
using mini::from_injector;

// One event, as read back.
struct Event {
    std::uint64_t time; // steady clock, ns
    Kind kind;
    std::uint64_t arg;
    std::uintptr_t object;
};

// One event, as four words the owner stores one by one, a sequence lock without fences: `seq`
// is 0 while the owner writes the other three, then the event's index + 1. A reader reads seq,
// the fields, seq again, and keeps the event only if both reads give the index it expects; a
// slot being overwritten then fails one of them. The signal fences only stop the compiler from
// moving the loads and stores across each other (no instruction: see the top of this file, a
// fence here could hide a missing one). That is exact where the hardware keeps stores in order
// and loads in order (x86-64); on weaker hardware a reader may still, rarely, keep a torn event.
struct Slot {
    std::atomic<std::uint64_t> time{0};   // steady clock, ns
    std::atomic<std::uint64_t> what{0};   // kind | arg << 8
    std::atomic<std::uint64_t> object{0}; // an address, only compared, never followed
    std::atomic<std::uint64_t> seq{0};

    void write(std::uint64_t n, std::uint64_t t, Kind kind, const void* o, std::uint64_t arg) {
        seq.store(0, std::memory_order_relaxed);
        std::atomic_signal_fence(std::memory_order_seq_cst);
        time.store(t, std::memory_order_relaxed);
        what.store(static_cast<std::uint64_t>(kind) | arg << 8, std::memory_order_relaxed);
        object.store(reinterpret_cast<std::uintptr_t>(o), std::memory_order_relaxed);
        std::atomic_signal_fence(std::memory_order_seq_cst);
        seq.store(n + 1, std::memory_order_relaxed);
    }

    // Event `n` of its track, if this slot still holds it, whole.
    bool read(std::uint64_t n, Event& e) const {
        if (seq.load(std::memory_order_relaxed) != n + 1) return false;
        std::atomic_signal_fence(std::memory_order_seq_cst);
        const std::uint64_t w = what.load(std::memory_order_relaxed);
        e = {time.load(std::memory_order_relaxed), static_cast<Kind>(w & 0xff), w >> 8,
             object.load(std::memory_order_relaxed)};
        std::atomic_signal_fence(std::memory_order_seq_cst);
        return seq.load(std::memory_order_relaxed) == n + 1;
    }
};

// A thread's ring. `count` and the slots are written by the owner only; name and bookkeeping
// live in the registry (recorder.cpp), under its mutex.
struct alignas(64) Track {
    std::atomic<std::uint64_t> count{0}; // events ever appended
    Slot ring[capacity];

    void append(Kind kind, const void* object, std::uint64_t arg) noexcept {
        const std::uint64_t n = count.load(std::memory_order_relaxed); // only we write it
        const auto now = std::chrono::steady_clock::now().time_since_epoch();
        ring[n % capacity].write(
            n, std::chrono::duration_cast<std::chrono::nanoseconds>(now).count(), kind, object,
            arg);
        count.store(n + 1, std::memory_order_relaxed);
    }
};

namespace detail {
inline thread_local Track* current = nullptr; // this thread's track, once registered
Track* register_thread() noexcept;            // claims a track (cold: once per thread)
} // namespace detail

// Appends one event to the calling thread's track.
inline void record(Kind kind, const void* object = nullptr, std::uint64_t arg = 0) noexcept {
    if constexpr (enabled) {
        Track* track = detail::current;
        if (track == nullptr) [[unlikely]]
            track = detail::register_thread();
        track->append(kind, object, arg);
    }
}

// Names the calling thread in the timeline and the trace ("worker 0", "producer 3"), registering
// it if it was not yet. A thread never named is "thread N", in the order threads registered.
void name_thread(const char* name) noexcept;

} // namespace mini::recorder
