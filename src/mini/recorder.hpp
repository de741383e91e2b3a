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
// Events come from the cold paths only: injecting, sleeping, stealing, setting a latch, install
// and terminate; never join's fast path (push, pop of B, run inline). RECORDER=OFF (CMake)
// compiles every record() out: the "without" of the measurements that show it costs nothing.
#pragma once

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>

#ifndef MINI_RECORDER
#error "mini/recorder.hpp: build through the mini library target, which defines MINI_RECORDER"
#endif

namespace mini::recorder {

inline constexpr bool enabled = MINI_RECORDER;
inline constexpr std::size_t capacity = 1024; // events kept per thread

// What happened. `object` and `arg` of each kind are in the comment.
enum class Kind : std::uint8_t {
    idle,          // wait_until found no work and goes to sleep; object: its latch, arg: 1 if that
                   // is the pool's terminate latch (a worker's main loop), 0 for a join's stolen B
    registered,    // Sleep::sleep holds the lock and has counted itself
    recheck,       // ... looked for work again; arg: 1 if it found some (then it backs out)
    waiting,       // ... blocks on the condition variable
    woken,         // ... came back from the wait
    inject,        // a job published in the injector; object: the job, arg: sleepers read (> 0:
                   // notified one)
    latch_set,     // a SpinLatch set; object: the latch, arg: sleepers read (> 0: notified all)
    steal,         // a job taken; object: the job, arg: the victim worker, or from_injector
    job_begin,     // a worker runs a job through its JobRef; object: the job
    job_end,       // ... and it returned; object: the job (only its address: it may be gone)
    install_begin, // an outside thread's install() injects its job ...
    install_end,   // ... and the job is done
    terminate,     // ~ThreadPool sets the terminate latch; object: the latch
    push,          // [BLOCK_WAIT build only] join pushed B; object: B's job
    block_wait,    // [BLOCK_WAIT build only] join blocks on B's latch; object: B's job
};
inline constexpr std::uint64_t from_injector = ~std::uint64_t{0} >> 8;

// One event, as four words the owner stores one by one; `seq` (the event's index + 1, 0 while
// the slot was never written) goes last.
struct Slot {
    std::atomic<std::uint64_t> time{0};   // steady clock, ns
    std::atomic<std::uint64_t> what{0};   // kind | arg << 8
    std::atomic<std::uint64_t> object{0}; // an address, only compared, never followed
    std::atomic<std::uint64_t> seq{0};
};

// A thread's ring. `count` and the slots are written by the owner only; name and bookkeeping
// live in the registry (recorder.cpp), under its mutex.
struct alignas(64) Track {
    std::atomic<std::uint64_t> count{0}; // events ever appended
    Slot ring[capacity];

    void append(Kind kind, const void* object, std::uint64_t arg) noexcept {
        const std::uint64_t n = count.load(std::memory_order_relaxed); // only we write it
        Slot& s = ring[n % capacity];
        const auto now = std::chrono::steady_clock::now().time_since_epoch();
        s.time.store(std::chrono::duration_cast<std::chrono::nanoseconds>(now).count(),
                     std::memory_order_relaxed);
        s.what.store(static_cast<std::uint64_t>(kind) | arg << 8, std::memory_order_relaxed);
        s.object.store(reinterpret_cast<std::uintptr_t>(object), std::memory_order_relaxed);
        s.seq.store(n + 1, std::memory_order_relaxed);
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
