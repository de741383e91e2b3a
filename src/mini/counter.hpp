// Counter: a statistic that one writer at a time bumps and anyone may read.
//
// The writers are serialised elsewhere (a worker's counters by their owner thread, the sleep
// counters by the sleep mutex), so an increment is a relaxed load and store, not a locked
// read-modify-write; the atomic only makes a reader's concurrent load well-defined.
#pragma once

#include <atomic>
#include <cstdint>

namespace mini {

class Counter {
public:
    void add(std::uint64_t n) noexcept {
        v_.store(v_.load(std::memory_order_relaxed) + n, std::memory_order_relaxed);
    }
    void bump() noexcept { add(1); }
    std::uint64_t get() const noexcept { return v_.load(std::memory_order_relaxed); }

private:
    std::atomic<std::uint64_t> v_{0};
};

} // namespace mini
