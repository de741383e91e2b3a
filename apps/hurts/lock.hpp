// hurts lock: a lock held across a parallel call (rayon issue #592 and its duplicates).
//
// update_table takes table_lock, then calls join. Its second half is stolen by the other worker,
// so the first worker waits in join, and a waiting worker runs whatever job it finds (wait_until,
// chapter 3). It finds insert_row, a job another thread handed to the pool, which takes
// table_lock too: the worker now waits for a lock that it holds itself, below it on its own
// stack. Nobody else will ever unlock it. The hand-offs (handoff.hpp) force that order in every
// run; the watchdog ends the run with exit 3 and names the lock and the job.
//
// --fixed: update_table computes its rows first and takes the lock only to write them, after the
// join. insert_row still runs inside the join's wait, and finds the lock free.
#pragma once

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <fmt/core.h>

#include <mini/join.hpp>
#include <mini/pool.hpp>

#include "common.hpp"
#include "hurts/handoff.hpp"

namespace hurts {

// A std::mutex that remembers who holds it and in which job, for the watchdog's message. Its
// owner locking it again is undefined behaviour for a std::mutex (glibc's default mutex hangs):
// here that owner waits forever on a condition nobody raises, which is the same hang, defined.
class TableLock {
public:
    explicit TableLock(const char* name) : name_(name) {}
    const char* name() const { return name_; }

    void lock(const char* job) {
        if (owner_.load() == std::this_thread::get_id()) {
            waiting_in_ = job; // the hang below is the deadlock the watchdog reports
            std::mutex never;
            std::condition_variable cv;
            std::unique_lock guard(never);
            cv.wait(guard, [] { return false; });
        }
        m_.lock();
        owner_ = std::this_thread::get_id();
        held_in_ = job;
        holder_ = worker_index();
    }
    void unlock() {
        owner_ = std::thread::id{};
        held_in_ = nullptr;
        m_.unlock();
    }

    // The watchdog's report: who holds the lock, and whether it waits on itself.
    std::string report() const {
        const char* held = held_in_.load();
        const char* waiting = waiting_in_.load();
        if (held == nullptr) return fmt::format("nobody holds `{}`", name_);
        std::string s = fmt::format("worker {} holds `{}` (taken in `{}`)", holder_.load(), name_,
                                    held);
        if (waiting != nullptr)
            s += fmt::format(" and waits for it again in `{}`, a job it stole while it waited "
                             "in join: it waits on itself",
                             waiting);
        return s;
    }

    static int worker_index() {
        const mini::WorkerThread* w = mini::WorkerThread::current();
        return w != nullptr ? int(w->index()) : -1;
    }

private:
    const char* name_;
    std::mutex m_;
    std::atomic<std::thread::id> owner_{};
    std::atomic<const char*> held_in_{nullptr}, waiting_in_{nullptr};
    std::atomic<int> holder_{-1};
};

// Holds a TableLock for one scope, naming the job that holds it.
class Holding {
public:
    Holding(TableLock& lock, const char* job) : lock_(lock) { lock_.lock(job); }
    ~Holding() { lock_.unlock(); }
    Holding(const Holding&) = delete;
    Holding& operator=(const Holding&) = delete;

private:
    TableLock& lock_;
};

struct LockCase {
    mini::ThreadPool pool{2};
    TableLock table_lock{"table_lock"};
    std::vector<int> table; // guarded by table_lock
    Flag right_started, client_go, insert_started;
    Steps steps;

    // The second request, from another thread: one row, under the lock.
    void insert_row() {
        steps.step();
        insert_started.set(); // the update's stolen half may now finish
        Holding held(table_lock, "insert_row");
        table.push_back(-1);
        steps.step();
    }

    // The two halves of update_table's parallel call. The left one waits until the right one has
    // started on the other worker (so it was stolen); the right one lets the client hand
    // insert_row to the pool, and finishes only once a worker has started insert_row: the only
    // worker free to start it is the one waiting in join.
    int left_half() {
        right_started.wait();
        steps.step();
        return 1;
    }
    int right_half() {
        right_started.set();
        client_go.set();
        insert_started.wait();
        steps.step();
        return 2;
    }

    // ANCHOR: update_table
    // The bug: table_lock is held across join. While this worker waits in join, it may run
    // any job it finds, insert_row among them, which takes table_lock again.
    void update_table() {
        Holding held(table_lock, "update_table");
        auto [a, b] = mini::join([&] { return left_half(); }, [&] { return right_half(); });
        table.push_back(a), table.push_back(b);
    }
    // ANCHOR_END: update_table

    // ANCHOR: update_table_fixed
    // The fix: the parallel part first, with no lock held; then the lock, only to write.
    void update_table_fixed() {
        auto [a, b] = mini::join([&] { return left_half(); }, [&] { return right_half(); });
        Holding held(table_lock, "update_table_fixed");
        table.push_back(a), table.push_back(b);
    }
    // ANCHOR_END: update_table_fixed
};

inline int run_lock(bool fixed, double watchdog_s) {
    app::banner("hurts lock");
    LockCase c;
    mini::Watchdog dog("hurts lock", app::seconds(watchdog_s), [&] { return c.steps(); },
                       [&] { return c.table_lock.report(); });
    fmt::print("pool of 2 workers; update_table {} table_lock across join\n",
               fixed ? "does not hold" : "holds");
    std::fflush(stdout);
    std::thread client([&] {
        c.client_go.wait();
        c.pool.install([&] { c.insert_row(); });
    });
    c.pool.install([&] { fixed ? c.update_table_fixed() : c.update_table(); });
    client.join();
    std::vector<int> sorted = c.table;
    std::sort(sorted.begin(), sorted.end());
    const bool ok = sorted == std::vector<int>{-1, 1, 2};
    fmt::print("table: {} rows, {}\n", c.table.size(),
               ok ? "both updates in" : "WRONG: not the three rows expected");
    return ok ? app::ok : app::wrong_result;
}

} // namespace hurts
