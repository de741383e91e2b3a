// scope_fused: a scope whose first exception skips the jobs that have not started yet
// (src/mini/scope_fused.hpp; the scope lab, chapters/labs/scope.hpp). Not in rayon-core, whose
// scope runs every job: these are the workbook's own tests. On a one-thread pool the order is
// fixed (the body runs to its end, then the owner pops its newest job first); the two-thread
// [forced] cases hold a job on the thief by explicit hand-offs (a semaphore, the owner's first
// idle probe, the thief's job_begin probe) until the fuse has blown. Every case runs under a
// watchdog: a skipped job that is never counted done hangs the scope, and ends with exit 3.
#include <mini/scope_fused.hpp>
#include <instrument/instrument.hpp>

#include <catch2/catch.hpp>

#include <atomic>
#include <barrier>
#include <cstdint>
#include <cstdio>
#include <new>
#include <semaphore>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>

#include "helpers.hpp"

using mini::ScopeFused;

namespace {

void divide_and_conquer(ScopeFused& s, std::atomic<std::size_t>& leaves, std::size_t size) {
    if (size > 1) {
        s.spawn([&leaves, size](ScopeFused& s) { divide_and_conquer(s, leaves, size / 2); });
        s.spawn([&leaves, size](ScopeFused& s) { divide_and_conquer(s, leaves, size / 2); });
    } else {
        ++leaves;
    }
}

// Counts its live copies: a skipped job's closure must be destroyed, not leaked.
struct Counts {
    std::atomic<int> live{0}, ran{0};
};
struct Tracked {
    Counts* c;
    explicit Tracked(Counts* counts) : c(counts) { ++c->live; }
    Tracked(const Tracked& t) : c(t.c) { ++c->live; }
    ~Tracked() { --c->live; }
};

} // namespace

TEST_CASE("scope_fused runs every job and returns the body's result when nothing throws",
          "[scope_fused]") {
    test::Pool pool(2);
    test::Progress progress("a scope_fused with no exception", pool);
    std::atomic<std::size_t> leaves{0};
    const int r = mini::scope_fused(pool, [&](ScopeFused& s) {
        s.spawn([&](ScopeFused& s) { divide_and_conquer(s, leaves, 1024); });
        return 22;
    });
    CHECK(r == 22);
    CHECK(leaves == 1024);
    int x = 1;
    int& ref = mini::scope_fused(pool, [&](ScopeFused&) -> int& { return x; });
    ref = 5;
    CHECK(x == 5);
    // from a worker, on its own pool
    CHECK(pool.install([] { return mini::scope_fused([](ScopeFused& s) { return s.panicked(); }); })
          == false);
}

TEST_CASE("an exception from the body or a job reaches scope_fused's caller with its type",
          "[scope_fused]") {
    test::Pool pool(2);
    test::Progress progress("scope_fused calls that throw std::out_of_range", pool);
    std::string what;
    try {
        mini::scope_fused(pool, [](ScopeFused&) { throw std::out_of_range("from the body"); });
    } catch (const std::out_of_range& e) {
        what = e.what();
    }
    CHECK(what == "from the body");
    what.clear();
    try {
        mini::scope_fused(pool, [](ScopeFused& s) {
            s.spawn([](ScopeFused&) { throw std::out_of_range("from a job"); });
        });
    } catch (const std::out_of_range& e) {
        what = e.what();
    }
    CHECK(what == "from a job");
}

// One thread: the body spawns three jobs and throws; nobody can start them before it ends. Each
// is skipped, its closure destroyed unrun, and counted done, so the scope ends (a skip that is
// never counted leaves the owner waiting for good: the watchdog's exit 3).
TEST_CASE("the body's exception skips the jobs nobody started, and the scope still ends",
          "[scope_fused][forced]") {
    test::Pool pool(1);
    test::Progress progress("a one-thread scope_fused whose body threw after three spawns", pool);
    Counts counts;
    std::string what;
    try {
        mini::scope_fused(pool, [&](ScopeFused& s) {
            for (int i = 0; i < 3; ++i) s.spawn([t = Tracked(&counts)](ScopeFused&) { ++t.c->ran; });
            throw std::out_of_range("from the body");
        });
    } catch (const std::out_of_range& e) {
        what = e.what();
    }
    CHECK(what == "from the body");
    CHECK(counts.ran == 0);
    CHECK(counts.live == 0); // destroyed, none leaked
    pool.install([] {}); // a job left behind would run now
    CHECK(counts.ran == 0);
}

// One thread: the owner pops its newest job first, so the job spawned last throws before the
// other two start: a job's exception blows the fuse as the body's does. A job it spawns itself
// before it throws is skipped too.
TEST_CASE("a job's exception skips the jobs of the scope that have not started yet",
          "[scope_fused][forced]") {
    test::Pool pool(1);
    test::Progress progress("a one-thread scope_fused whose newest job threw", pool);
    Counts counts;
    std::string what;
    bool body_saw = true;
    try {
        mini::scope_fused(pool, [&](ScopeFused& s) {
            s.spawn([t = Tracked(&counts)](ScopeFused&) { ++t.c->ran; });
            s.spawn([t = Tracked(&counts)](ScopeFused&) { ++t.c->ran; });
            s.spawn([&counts](ScopeFused& s) { // runs first: the newest
                s.spawn([t = Tracked(&counts)](ScopeFused&) { ++t.c->ran; });
                throw std::out_of_range("from the newest job");
            });
            body_saw = s.panicked();
        });
    } catch (const std::out_of_range& e) {
        what = e.what();
    }
    CHECK(what == "from the newest job");
    CHECK(!body_saw);
    CHECK(counts.ran == 0);
    CHECK(counts.live == 0);
}

// Two threads: job J is stolen and started before the body throws, and is held until the owner
// waits (its first idle probe after the body). J is not cancelled: it sees the fuse blown, throws
// an exception of its own, and the scope waits for it. The body's exception, kept first, is the
// one rethrown; J's, caught second, is dropped.
namespace {
std::atomic<std::thread::id> owner_id{};
std::atomic<bool> idle_armed{false}, owner_idle{false};
std::binary_semaphore j_started{0};

void on_owner_idle(mini::Probe point) {
    if (point == mini::Probe::idle && std::this_thread::get_id() == owner_id.load() &&
        idle_armed.exchange(false))
        owner_idle = true;
}
} // namespace

TEST_CASE("a job that started before the fuse blew runs to its end and the first exception wins",
          "[scope_fused][forced]") {
    test::Pool pool(2);
    test::Progress progress("a scope_fused whose stolen job throws after the body threw", pool);
    owner_idle = false;
    mini::instrument::sync_hook = &on_owner_idle;
    std::atomic<bool> j_saw_fuse{false}, j_finished{false};
    bool finished_when_caught = false;
    std::string what;
    try {
        mini::scope_fused(pool, [&](ScopeFused& s) {
            owner_id = std::this_thread::get_id();
            s.spawn([&](ScopeFused& s) {
                j_started.release();
                while (!owner_idle.load()) std::this_thread::yield(); // the owner waits for us
                j_saw_fuse = s.panicked();
                j_finished = true;
                throw std::out_of_range("from the stolen job");
            });
            test::wake_a_worker(pool); // the other worker steals J: the body holds the owner
            j_started.acquire();
            idle_armed = true;
            throw std::out_of_range("from the body");
        });
    } catch (const std::out_of_range& e) {
        what = e.what();
        finished_when_caught = j_finished;
    }
    mini::instrument::sync_hook = nullptr;
    CHECK(what == "from the body");
    CHECK(finished_when_caught);
    CHECK(j_saw_fuse);
}

// Two jobs throw at once on the two workers, held together by a barrier: both started before
// the fuse blew, and both reach the first exception's slot with nothing ordering one after the
// other but its mutex. Without it the run passes, and ThreadSanitizer reports the race on the
// slot (the lab's --tsan).
TEST_CASE("two jobs that throw at once on two workers: one of their exceptions is rethrown",
          "[scope_fused]") {
    test::Pool pool(2);
    test::Progress progress("two jobs of a scope_fused that throw at once", pool);
    for (int round = 0; round < 5; ++round) {
        std::barrier both(2);
        CHECK_THROWS_AS(mini::scope_fused(pool, [&](ScopeFused& s) {
                            for (int k = 0; k < 2; ++k)
                                s.spawn([&both](ScopeFused&) {
                                    both.arrive_and_wait(); // one on each worker
                                    throw std::out_of_range("a job");
                                });
                            test::wake_a_worker(pool); // the other worker steals one of them
                        }),
                        std::out_of_range);
        ++progress;
    }
}

// A job throws on the thief once the owner waits for it: its exception must be kept (and the
// fuse blown) before it is counted done. Counted first, it lets the owner go, which returns
// without the exception or reads the slot while the job writes it, and destroys the scope the
// job still writes into (ThreadSanitizer's report, with the lab's --tsan).
TEST_CASE("a job that throws on another worker while the owner waits: scope_fused rethrows it",
          "[scope_fused][forced]") {
    test::Pool pool(2);
    test::Progress progress("a scope_fused job that throws on the thief", pool);
    mini::instrument::sync_hook = &on_owner_idle;
    for (int round = 0; round < 5; ++round) {
        owner_idle = false;
        CHECK_THROWS_AS(mini::scope_fused(pool, [&](ScopeFused& s) {
                            owner_id = std::this_thread::get_id();
                            s.spawn([](ScopeFused&) {
                                j_started.release();
                                while (!owner_idle.load()) std::this_thread::yield();
                                throw std::out_of_range("the thief's job");
                            });
                            test::wake_a_worker(pool);
                            j_started.acquire(); // the body holds the owner: the thief runs it
                            idle_armed = true;
                        }),
                        std::out_of_range);
        ++progress;
    }
    mini::instrument::sync_hook = nullptr;
}

// ---------------------------------------------------------------------------------------------
// A skipped job's captures are destroyed before it is counted done, as a job's that ran are
// (chapter 8: once the count is back, the scope may return). Job S, whose closure holds a Guard
// that writes into the frame of scope_fused's caller, is stolen and held at its job_begin probe
// on the thief until the body has thrown and the owner waits: S starts with the fuse blown, is
// skipped, and its count is the last one. Destroyed after that count (left to the box's
// destructor), the Guard waits for scope_fused to return before it writes: too late. Without
// AddressSanitizer the write into the dead frame is left out, and the check reports it.

extern "C" const char* __asan_default_options() { return "detect_stack_use_after_return=1"; }

namespace {
#if defined(__SANITIZE_ADDRESS__)
constexpr bool asan = true;
#else
constexpr bool asan = false;
#endif

std::atomic<const void*> job_s{nullptr};
std::atomic<bool> publish_armed{false}, count_given_back{false}, scope_has_returned{false};
thread_local bool in_job_s = false;
std::binary_semaphore s_held{0}, s_go{0}, guard_may_write{0}, guard_wrote{0};

// The sync hook sees no object: S is told by its address, so this test wraps the instruments'
// probe handler itself (called first, as it would be).
mini::ProbeHandler instruments_handler = nullptr;

void hold_s(mini::Probe point, const void* object, std::uint64_t arg) {
    using mini::Probe;
    instruments_handler(point, object, arg);
    if (point == Probe::scope_publish && publish_armed.exchange(false)) job_s = object;
    if (point == Probe::job_begin && object != nullptr && object == job_s.load()) {
        job_s = nullptr;
        in_job_s = true;
        s_held.release();
        s_go.acquire(); // until the owner waits, with the fuse blown
    }
    if (point == Probe::idle && std::this_thread::get_id() == owner_id.load() &&
        idle_armed.exchange(false))
        s_go.release();
    if (point == Probe::latch_stored && in_job_s) count_given_back = true;
}

struct Guard {
    bool* destroyed;
    explicit Guard(bool* d) : destroyed(d) {}
    Guard(Guard&& g) noexcept : destroyed(std::exchange(g.destroyed, nullptr)) {}
    Guard& operator=(Guard&&) = delete;
    ~Guard() {
        if (destroyed == nullptr) return; // moved from
        in_job_s = false;
        if (count_given_back) guard_may_write.acquire(); // the wrong order: the scope may return
        if (!scope_has_returned || asan) *destroyed = true;
        if (scope_has_returned) guard_wrote.release();
    }
};

[[gnu::noinline]] bool skipped_with_guard(mini::ThreadPool& pool) {
    bool destroyed = false;
    try {
        mini::scope_fused(pool, [&](ScopeFused& s) {
            owner_id = std::this_thread::get_id();
            publish_armed = true;
            s.spawn([g = Guard(&destroyed)](ScopeFused&) {});
            test::wake_a_worker(pool); // the other worker steals S
            s_held.acquire(); // S is on the thief, held before it starts
            idle_armed = true;
            throw std::out_of_range("from the body");
        });
    } catch (const std::out_of_range&) {
    }
    return destroyed;
}
} // namespace

TEST_CASE("a skipped job's captures are destroyed before scope_fused returns",
          "[scope_fused][forced]") {
    test::Pool pool(2);
    test::Progress progress("a skipped job whose capture writes into scope_fused's caller", pool);
    count_given_back = scope_has_returned = false;
    instruments_handler = mini::probe_handler.load();
    mini::probe_handler = &hold_s;
    const bool destroyed = pool.install([&] {
        const bool d = skipped_with_guard(pool);
        if (!d) { // stderr, unbuffered: ASan ends the process before Catch2 reports
            std::fprintf(stderr, "scope_fused returned before its skipped job's capture was "
                                 "destroyed\n");
            scope_has_returned = true;
            guard_may_write.release();
            guard_wrote.acquire(); // park, touching nothing, until the late destructor wrote
        }
        return d;
    });
    mini::probe_handler = instruments_handler;
    CHECK(destroyed);
}

// ---------------------------------------------------------------------------------------------
// A spawn whose publish throws (forced at Probe::scope_publish): the job is freed unrun, its count
// given back, and the spawner gets the exception, as in a Scope.
namespace {
std::atomic<bool> refuse_publish{false};
void throw_at_publish(mini::Probe point) {
    if (point == mini::Probe::scope_publish && refuse_publish.exchange(false)) throw std::bad_alloc();
}
} // namespace

TEST_CASE("a scope_fused spawn whose publish throws gives its count back", "[scope_fused][forced]") {
    test::Pool pool(2);
    test::Progress progress("a scope_fused whose spawn threw at the push", pool);
    Counts counts;
    bool spawner_saw = false;
    mini::instrument::sync_hook = &throw_at_publish;
    refuse_publish = true;
    mini::scope_fused(pool, [&](ScopeFused& s) {
        try {
            s.spawn([t = Tracked(&counts)](ScopeFused&) { ++t.c->ran; });
        } catch (const std::bad_alloc&) {
            spawner_saw = true;
        }
    });
    mini::instrument::sync_hook = nullptr;
    CHECK(spawner_saw);
    CHECK(counts.ran == 0);
    CHECK(counts.live == 0);
}
