// The hand-offs that force an interleaving in `hurts`: a flag one thread raises and another waits
// for. No sleep stands in for one: every order the chapter shows happens because a thread waited
// for another's flag, so it happens in every run.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <mutex>

namespace hurts {

// Raised once, waited for by anyone; wait() returns at once if it was raised before.
class Flag {
public:
    void set() {
        {
            std::lock_guard guard(m_);
            raised_ = true;
        }
        cv_.notify_all();
    }
    void wait() {
        std::unique_lock guard(m_);
        cv_.wait(guard, [&] { return raised_; });
    }

private:
    std::mutex m_;
    std::condition_variable cv_;
    bool raised_ = false;
};

// What the watchdog reads: a count of the steps done so far. A deadlock stops it.
struct Steps {
    std::atomic<std::uint64_t> done{0};
    void step() { done.fetch_add(1, std::memory_order_relaxed); }
    std::uint64_t operator()() const { return done.load(std::memory_order_relaxed); }
};

} // namespace hurts
