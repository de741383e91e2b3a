// The per-worker sleep (-DSLEEP=per-worker, src/mini/worker_sleep.hpp, chapter 10): its counters,
// its targeted wake-up and the race its latch's SLEEPY -> SLEEPING step closes. Built only with
// that sleep; every other test of the workbook runs against both sleeps.
#include <catch2/catch.hpp>

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <semaphore>
#include <stdexcept>
#include <thread>

#include <instrument/instrument.hpp>
#include <instrument/watchdog.hpp>
#include <mini/join.hpp>
#include <mini/pool.hpp>
#include <mini/sleep_counters.hpp>

#include "helpers.hpp"

TEST_CASE("the jobs event counter: a sleepy worker makes it even, a publisher odd, and only "
          "then",
          "[worker_sleep]") {
    mini::AtomicCounters c;
    const auto is_active = [](mini::JobsEventCounter j) { return j.is_active(); };
    const auto is_sleepy = [](mini::JobsEventCounter j) { return j.is_sleepy(); };
    CHECK(c.load().jobs_counter().value == 0); // starts sleepy: the first publisher bumps it
    CHECK(c.increment_jobs_event_counter_if(is_sleepy).jobs_counter().value == 1);
    CHECK(c.increment_jobs_event_counter_if(is_sleepy).jobs_counter().value == 1); // no write
    CHECK(c.increment_jobs_event_counter_if(is_active).jobs_counter().value == 2); // announce
    CHECK(c.increment_jobs_event_counter_if(is_active).jobs_counter().value == 2); // another
    c.add_inactive_thread();
    c.add_inactive_thread();
    CHECK(c.try_add_sleeping_thread(c.load()));
    const mini::Counters now = c.load();
    CHECK(now.sleeping_threads() == 1);
    CHECK(now.inactive_threads() == 2);
    CHECK(now.awake_but_idle_threads() == 1);
    CHECK(now.jobs_counter().value == 2);
    // A bump between a sleeper's load and its CAS makes the CAS fail.
    c.increment_jobs_event_counter_if(is_sleepy);
    CHECK_FALSE(c.try_add_sleeping_thread(now));
    CHECK(c.sub_inactive_thread() == 1); // wakes min(sleepers, 2)
}

TEST_CASE("the jobs event counter wraps around without touching the thread counts",
          "[worker_sleep]") {
    // Reaching the top by bumps would take 2^32 CASes: check the arithmetic instead, one more
    // JEC step from the top wraps to 0 and keeps both counts (rayon 1.8.1's overflow fix).
    const std::uint64_t top = ~std::uint64_t{0} << mini::jec_shift;
    const mini::Counters at_top{top | (std::uint64_t{1} << mini::inactive_shift) | 1};
    const mini::Counters wrapped{at_top.word + mini::one_jec};
    CHECK(wrapped.jobs_counter().value == 0);
    CHECK(wrapped.sleeping_threads() == 1);
    CHECK(wrapped.inactive_threads() == 1);
}

// ---------------------------------------------------------------------------------------------
// The latch race (chapter 10). The owner of a stolen B runs out of work and gets sleepy on B's
// latch (UNSET -> SLEEPY); a hook holds it there, before it locks its mutex and falls asleep,
// until B's thief has set the latch. The setter's swap sees SLEEPY, not SLEEPING, so it wakes
// nobody: the owner's own SLEEPY -> SLEEPING CAS fails and tells it the latch is set. With
// SKIP_LATCH_SLEEPY the owner ignores that and sleeps with its latch set, and the watchdog ends
// the test (exit 3) with the recorder's diagnosis.

namespace {
std::atomic<bool> sleepy_armed{false}, set_armed{false}, block_armed{false};
std::binary_semaphore owner_sleepy{0}, latch_was_set{0}, caller_blocks{0};

void hold_owner_sleepy(mini::Probe point) {
    using mini::Probe;
    if (point == Probe::lock_latch_block && block_armed.exchange(false)) {
        caller_blocks.release(); // the outside caller woke its second worker: no publisher left
    } else if (point == Probe::sleepy && sleepy_armed.exchange(false)) {
        owner_sleepy.release(); // the owner is SLEEPY on B's latch ...
        latch_was_set.acquire(); // ... and stays there until the thief has set it
    } else if (point == Probe::latch_set && set_armed.exchange(false)) {
        latch_was_set.release();
    }
}
} // namespace

TEST_CASE("a latch set while its owner is sleepy: the owner's failed SLEEPY -> SLEEPING step "
          "keeps it awake",
          "[worker_sleep][latch_sleepy]") {
    test::Pool pool(2);
    test::Progress progress("an owner held sleepy on its stolen B's latch while the thief sets it",
                            pool);
    std::atomic<bool> b_started{false};
    block_armed = sleepy_armed = true;
    mini::instrument::sync_hook = &hold_owner_sleepy;
    const bool b_migrated = pool.install([&] {
        caller_blocks.acquire(); // main has blocked: nobody publishes from here on
        return mini::join_context(
                   [&](mini::FnContext) {
                       test::wake_a_worker(pool); // so that the other worker steals B
                       while (!b_started.load()) std::this_thread::yield();
                       ++progress;
                   },
                   [&](mini::FnContext ctx) {
                       b_started = true;
                       owner_sleepy.acquire(); // the owner is out of work and SLEEPY
                       set_armed = true;       // this B's latch set is the next
                       ++progress;
                       return ctx.migrated();
                   })
            .second;
    });
    ++progress;
    mini::instrument::sync_hook = nullptr;
    CHECK(b_migrated);
}

// ---------------------------------------------------------------------------------------------
// The jobs event counter's race (chapter 10). A worker W2 announces it is sleepy and is held at
// the start of its sleep (Probe::idle), after its last search. Meanwhile W1 pushes B onto its own
// deque: the push bumps the JEC (someone is sleepy) and wakes nobody (nobody sleeps yet). W2 goes
// on: the JEC has moved, so it searches again and steals B. With SKIP_JEC_CHECK it skips the
// comparison and falls asleep beside B; W1 then pops B back and runs it itself: the result is
// right, but a worker slept while there was work for it.

namespace {
std::atomic<bool> idle_armed{false};
std::binary_semaphore w2_sleepy{0}, w2_go{0};

void hold_w2_sleepy(mini::Probe point) {
    using mini::Probe;
    if (point == Probe::lock_latch_block && block_armed.exchange(false)) {
        caller_blocks.release();
    } else if (point == Probe::idle && idle_armed.exchange(false)) {
        w2_sleepy.release(); // W2 has announced sleepy and searched a last time
        w2_go.acquire();     // B is in W1's deque now
    }
}

struct JecRun {
    bool b_migrated;   // B ran on W2 (stolen), not popped back by W1
    bool w2_asleep;    // A saw W2 asleep while B waited in W1's deque
    mini::Stats stats; // of the whole run
};

JecRun push_while_sleepy() {
    test::Pool pool(2);
    test::Progress progress("a worker held sleepy while the other pushes B", pool);
    const mini::Stats before = mini::stats(pool);
    std::atomic<bool> b_started{false}, w2_asleep{false};
    block_armed = true;
    mini::instrument::sync_hook = &hold_w2_sleepy;
    const bool b_migrated = pool.install([&] {
        caller_blocks.acquire(); // main has blocked: no publisher but us from here on
        // A job that arms the hold: it runs on W2 (we are W1 and run nothing meanwhile), so W2's
        // next sleep, after this job, is the one held.
        pool.inject(mini::JobRef{nullptr, [](void*) noexcept { idle_armed = true; }});
        w2_sleepy.acquire();
        ++progress;
        return mini::join_context(
                   [&](mini::FnContext) { // B is pushed: the JEC moved, nobody woken
                       w2_go.release();
                       while (!b_started.load() && pool.sleep().sleepers() != 1)
                           std::this_thread::yield();
                       w2_asleep = !b_started.load();
                       ++progress;
                   },
                   [&](mini::FnContext ctx) {
                       b_started = true;
                       return ctx.migrated();
                   })
            .second;
    });
    ++progress;
    mini::instrument::sync_hook = nullptr;
    return {b_migrated, w2_asleep.load(), mini::stats(pool) - before};
}
} // namespace

TEST_CASE("a job pushed while a worker is sleepy moves the JEC: the worker sees it and steals "
          "the job",
          "[worker_sleep][jec_check]") {
    const JecRun run = push_while_sleepy();
    CHECK(run.b_migrated);
    CHECK_FALSE(run.w2_asleep);
    CHECK(run.stats.b_stolen == 1);
}

TEST_CASE("reverse: with SKIP_JEC_CHECK a sleepy worker sleeps beside a pushed job, which its "
          "owner runs",
          "[reverse][skip_jec_check]") {
    for (int i = 0; i < 5; ++i) {
        const JecRun run = push_while_sleepy();
        CHECK_FALSE(run.b_migrated); // popped back and run by W1: correct
        CHECK(run.w2_asleep);        // W2 asleep with B in W1's deque
        CHECK(run.stats.b_stolen == 0);
        std::printf("SKIP_JEC_CHECK run %d: worker asleep beside a pushed B: %s; B stolen %llu, "
                    "run by its owner\n",
                    i + 1, run.w2_asleep ? "yes" : "no",
                    static_cast<unsigned long long>(run.stats.b_stolen));
    }
}

// ---------------------------------------------------------------------------------------------
// The packed counters hold 16 bits a thread count (sleep_counters.hpp): with more threads the
// inactive count would carry into the JEC and the sleeping count into the inactive one. rayon
// clamps the pool's size to what they hold (rayon-core-v1.13.0, registry.rs line 246). The
// constructor is stopped at its first thread start (Probe::spawn, whose arg is the number of
// threads the pool starts), before any thread runs: it allocated the workers, not their threads.

namespace {
std::uint64_t threads_to_start = 0;
mini::ProbeHandler instruments = nullptr;

void stop_at_first_spawn(mini::Probe what, const void* object, std::uint64_t arg) {
    if (what == mini::Probe::spawn) {
        threads_to_start = arg;
        throw std::runtime_error("test: stopped at the first thread start");
    }
    instruments(what, object, arg);
}
} // namespace

TEST_CASE("a pool asked for more threads than the counters hold starts threads_max of them",
          "[worker_sleep][clamp]") {
    instruments = mini::probe_handler.exchange(&stop_at_first_spawn);
    CHECK_THROWS_WITH(mini::ThreadPool(mini::threads_max + 2), "test: stopped at the first thread start");
    mini::probe_handler = instruments;
    CHECK(threads_to_start == mini::threads_max);
}
