// The one hook between the mechanism and its instruments: probe(what, object, arg).
//
// The pool, the sleep protocol, the latch and the deque call probe() at the places a reader of a
// hung run wants to see (a steal, a sleep, a latch set) and at the places a test must hold a
// thread to force an interleaving. The core does nothing with it: the instrument library
// (src/instrument) installs a handler that appends the event to the flight recorder, counts it
// for the statistics and lets a test's sync hook run there. Without a handler a probe is one load
// and a not-taken branch, and RECORDER=OFF (CMake) compiles every probe out.
//
// Never on join's fast path (push, pop of B, run inline): the drivers derive those counts.
#pragma once

#include <atomic>
#include <cstdint>

#ifndef MINI_RECORDER
#error "mini/probe.hpp: build through the mini library target, which defines MINI_RECORDER"
#endif

namespace mini {

inline constexpr bool probes_enabled = MINI_RECORDER;

// What happened, with the meaning of `object` and `arg` for each.
enum class Probe : std::uint8_t {
    idle,       // wait_until found no work and calls Sleep::sleep; object: its latch, arg: 1 if
                // that is the pool's terminate latch (a worker's main loop), 0 for a join's B
                // or a cross call's latch
    woken,      // ... Sleep::sleep returned; object: the latch, arg: 1 if it waited on the
                // condition variable, 0 if its re-check found work and it backed out
    notified,   // Sleep::wake notified, still holding the sleep mutex; arg: 1 notify_all, 0 one
    inject,     // a job published in the injector; object: the job, arg: the sleepers it read
    latch_stored, // SpinLatch::set has stored SET and woken nobody yet; object: the latch
    latch_set,  // ... and returns; object: the latch (the address only), arg: the sleepers read
    steal,      // a job taken; object: the job, arg: the victim worker, or from_injector
    job_begin,  // a worker runs a job through its JobRef; object: the job
    job_end,    // ... and it returned; object: the job (only its address: it may be gone)
    b_stolen,   // join got its stolen B back; object: B's job, arg: jobs run while waiting
    block_wait, // [BLOCK_WAIT build only] join blocks on B's latch; object: B's job
    worker_start, // a worker thread starts; arg: its index
    spawn,      // a pool is about to start a worker thread (a test may throw here, as
                // std::thread's constructor does when the system refuses a thread); object: the
                // pool, arg: the number of threads it starts
    steal_before_buffer, // Stealer::steal has read bottom, not yet the buffer pointer
    lock_latch_spin,  // LockLatch::wait found the latch unset and starts its timed spin; object:
                      // the latch
    lock_latch_block, // LockLatch::wait found the latch unset after its spin, ran its
                      // before_block and blocks on the condition variable; object: the latch
    scope_publish, // Scope::spawn has counted a job and is about to publish it (a test may throw
                   // here, as the push does when its allocation fails); object: the job
    scope_spawned, // Scope::spawn has published a job (counted before, or in the COUNT_AFTER_PUSH
                   // build not yet); object: the job
    broadcast_push, // BroadcastQueues::push is about to queue one copy (a test may throw here, as
                    // a queue's allocation can); object: the queues, arg: the copy's index
    terminate,  // a pool's terminate count lost 1 (a spawned job done, or the destructor);
                // object: the pool, arg: the count left
    sleepy,     // [SLEEP=per-worker] a worker's latch went UNSET -> SLEEPY; it has not yet locked
                // its mutex nor fallen asleep (worker_sleep.hpp); object: the latch
};
inline constexpr std::uint64_t from_injector = ~std::uint64_t{0} >> 8;

using ProbeHandler = void (*)(Probe, const void* object, std::uint64_t arg);
inline constinit std::atomic<ProbeHandler> probe_handler{nullptr};

inline void probe(Probe what, const void* object = nullptr, std::uint64_t arg = 0) {
    if constexpr (probes_enabled)
        if (ProbeHandler handler = probe_handler.load(std::memory_order_acquire)) [[unlikely]]
            handler(what, object, arg);
}

} // namespace mini
