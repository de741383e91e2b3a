// Death cases, each run as its own process by cmake/expect.cmake (tests/CMakeLists.txt checks the
// exact exit and the message):
//   escape unawaited      a job that nobody waits for throws: there is nobody to rethrow it to,
//                         so it aborts with its what() (join's and install's exceptions reach
//                         their caller instead: test_exceptions)
//   escape exit           a job of the global pool calls std::exit(7): the process exits with 7
//   escape own_worker     a pool destroyed by one of its own workers: refused, with a message
//   escape while_waiting  a pool destroyed while a caller waits inside its install, its job still
//                         queued: the check names it, and aborts
//   escape broadcast_waiting  the same with a caller inside its broadcast, its copy still queued
// The debug assertions (the `debug` preset, no NDEBUG), each provoked once:
//   escape assert_count_from_0     a CountLatch incremented after it reached 0
//   escape assert_executed_twice   a StackJob's JobRef executed twice
//   escape assert_latch_set_twice  a SpinLatch set twice
//   escape assert_queued_at_exit   a worker leaves its loop with a job still in its deque
//   escape assert_spawn_after_terminate  a job spawned into a pool whose terminate count is 0
//   escape assert_broadcast_count  a broadcast of fewer jobs than workers
#include <mini/broadcast.hpp>
#include <mini/count_latch.hpp>
#include <mini/join.hpp>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <semaphore>
#include <stdexcept>
#include <thread>

#include "helpers.hpp"

namespace {

// A job nobody waits for (rayon's spawn is one): its JobRef runs the closure through
// call_or_abort, the way such a job must, since a JobRef may not throw.
void unawaited_throws(mini::ThreadPool& pool) {
    static auto body = [] { throw std::runtime_error("boom from a job nobody waits for"); };
    pool.inject({nullptr, [](void*) noexcept { mini::call_or_abort("a job nobody waits for", body); }});
    mini::LockLatch never;
    never.wait(); // the abort ends the process; nothing sets this latch
}

// rayon allows dropping a pool from its own worker (the drop only counts down); here the
// destructor joins every worker, and a thread cannot join itself.
void destroyed_by_own_worker() {
    auto* pool = new mini::ThreadPool(2);
    pool->install([pool] { delete pool; });
    std::puts("escape: the pool's own worker destroyed it and returned");
    std::exit(0);
}

// The pool's one worker is held in a job (X's install) while T's install is queued behind it;
// the destructor sets the terminate latch, and only then (the hook, on this thread) lets the
// worker go on: it finishes X's job, sees the latch and leaves, with T's job still queued.
std::thread::id destroyer;
std::atomic<bool> t_injected_armed{false}, terminate_armed{false};
std::binary_semaphore x_running{0}, x_go_on{0}, t_injected{0};

void destroy_hand_offs(mini::Probe point) {
    using mini::Probe;
    if (point == Probe::inject && t_injected_armed.exchange(false)) t_injected.release();
    if (point == Probe::latch_set && std::this_thread::get_id() == destroyer &&
        terminate_armed.exchange(false))
        x_go_on.release();
}

void destroyed_while_waiting() {
    auto* pool = new mini::ThreadPool(1);
    destroyer = std::this_thread::get_id();
    mini::instrument::sync_hook = &destroy_hand_offs;
    std::thread x([pool] { pool->install([] { x_running.release(), x_go_on.acquire(); }); });
    x_running.acquire();
    std::atomic<bool> t_ran{false};
    t_injected_armed = true;
    std::thread t([pool, &t_ran] { pool->install([&t_ran] { t_ran = true; }); });
    t_injected.acquire(); // T's job is queued behind X's, and T waits for it
    terminate_armed = true;
    delete pool;
    x.join();
    if (!t_ran) {
        std::puts("escape: the pool was destroyed with T's job still queued: T waits for good");
        std::fflush(stdout);
        std::_Exit(1);
    }
    std::_Exit(0);
}

// As destroyed_while_waiting, with T in a broadcast: its one copy waits in worker 0's broadcast
// queue (T's LockLatch begins its spin: inject_broadcast is done) when the destructor runs.
std::atomic<bool> t_spins_armed{false};

// Only T's spin: X's own caller spins on its install's latch too, and may reach that spin after
// X's job has started (a loaded machine), which would let the pool go before T has pushed its copy.
thread_local bool on_t = false;
void broadcast_hand_offs(mini::Probe point) {
    if (point == mini::Probe::lock_latch_spin && on_t && t_spins_armed.exchange(false))
        t_injected.release();
    destroy_hand_offs(point);
}

void destroyed_while_broadcasting() {
    auto* pool = new mini::ThreadPool(1);
    destroyer = std::this_thread::get_id();
    mini::instrument::sync_hook = &broadcast_hand_offs;
    std::thread x([pool] { pool->install([] { x_running.release(), x_go_on.acquire(); }); });
    x_running.acquire();
    std::atomic<bool> t_ran{false};
    t_spins_armed = true;
    std::thread t([pool, &t_ran] {
        on_t = true;
        pool->broadcast([&t_ran](mini::BroadcastContext) { t_ran = true; });
    });
    t_injected.acquire(); // T's copy is queued behind X's job, and T waits for it
    terminate_armed = true;
    delete pool;
    x.join();
    if (!t_ran) {
        std::puts("escape: the pool was destroyed with T's broadcast copy still queued: T waits for good");
        std::fflush(stdout);
        std::_Exit(1);
    }
    std::_Exit(0);
}

// X's job, running on the only worker, spawns once the destructor has taken the terminate
// count to 0 (its latch set): the workers are leaving, and nothing counts the new job.
[[maybe_unused]] void spawn_after_terminate() {
    auto* pool = new mini::ThreadPool(1);
    destroyer = std::this_thread::get_id();
    mini::instrument::sync_hook = &destroy_hand_offs;
    std::thread x([pool] {
        pool->install([] {
            x_running.release(), x_go_on.acquire();
            mini::spawn([] {});
        });
    });
    x_running.acquire();
    terminate_armed = true;
    delete pool;
    x.join();
}

[[maybe_unused]] void broadcast_count() {
    mini::BroadcastQueues queues(2);
    queues.push({mini::JobRef{nullptr, [](void*) noexcept {}}}); // one job for two workers
}

[[maybe_unused]] void count_from_0() {
    mini::ThreadPool pool(1);
    mini::CountLatch count(&pool.sleep());
    mini::CountLatch::set(&count); // 1 -> 0: the scope is over
    count.increment();             // a spawn into a finished scope
}

[[maybe_unused]] void executed_twice() {
    auto f = [](bool) { return 1; };
    mini::StackJob<mini::LockLatch, decltype(f)> job(f);
    job.as_job_ref().execute();
    job.as_job_ref().execute();
}

[[maybe_unused]] void latch_set_twice() {
    mini::ThreadPool pool(1);
    mini::SpinLatch latch(&pool.sleep());
    mini::SpinLatch::set(&latch);
    mini::SpinLatch::set(&latch);
}

// The job pushes a job onto its worker's own deque and returns only once the terminate latch is
// set: the worker's loop then ends with that job still in its deque.
[[maybe_unused]] void queued_at_exit() {
    auto* pool = new mini::ThreadPool(1);
    destroyer = std::this_thread::get_id();
    mini::instrument::sync_hook = &destroy_hand_offs;
    std::thread x([pool] {
        pool->install([] {
            mini::WorkerThread::current()->push({nullptr, [](void*) noexcept {}});
            x_running.release(), x_go_on.acquire();
        });
    });
    x_running.acquire();
    terminate_armed = true;
    delete pool;
    x.join();
    std::puts("escape: the worker left with a job in its deque, and nothing said so");
    std::_Exit(1);
}

} // namespace

int main(int argc, char** argv) {
    const char* what = argc == 2 ? argv[1] : "";
    if (std::strcmp(what, "exit") == 0) {
        mini::join([] {
            std::puts("escape: a job of the global pool calls std::exit(7)");
            std::fflush(stdout);
            std::exit(7);
        }, [] {});
    }
    if (std::strcmp(what, "unawaited") == 0) {
        mini::ThreadPool pool(1);
        unawaited_throws(pool);
    }
    if (std::strcmp(what, "own_worker") == 0) destroyed_by_own_worker();
    if (std::strcmp(what, "while_waiting") == 0) destroyed_while_waiting();
    if (std::strcmp(what, "broadcast_waiting") == 0) destroyed_while_broadcasting();
    struct Case { const char* name; void (*run)(); };
    for (const Case c : {Case{"assert_count_from_0", count_from_0},
                         Case{"assert_executed_twice", executed_twice},
                         Case{"assert_latch_set_twice", latch_set_twice},
                         Case{"assert_queued_at_exit", queued_at_exit},
                         Case{"assert_spawn_after_terminate", spawn_after_terminate},
                         Case{"assert_broadcast_count", broadcast_count}}) {
        if (std::strcmp(what, c.name) == 0) {
            c.run();
            std::printf("escape: %s: no assertion fired\n", c.name);
            std::_Exit(1);
        }
    }
    std::fputs("usage: escape unawaited|exit|own_worker|while_waiting|broadcast_waiting|"
               "assert_count_from_0|assert_executed_twice|assert_latch_set_twice|"
               "assert_queued_at_exit|assert_spawn_after_terminate|assert_broadcast_count\n", stderr);
    std::_Exit(2);
}
