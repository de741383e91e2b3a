// The per-worker sleep's counters (rayon-core 1.13.0, sleep/counters.rs): one atomic word that
// packs three numbers, so that a worker can read them together and change them in one CAS.
//
//   bits  0..15  sleeping threads (blocked on their condition variable)
//   bits 16..31  inactive threads (idle + sleepy + sleeping; counters.rs:112-118)
//   bits 32..63  the jobs event counter, JEC (it wraps; counters.rs:225-232)
//
// The JEC's parity says who touched it last (counters.rs:37-52): even, a worker that announced
// it is sleepy; odd, a publisher of new work. A sleepy worker remembers the value it announced
// and falls asleep only if the JEC still has it; a publisher bumps it only when it is even, so
// that a busy pool with nobody sleepy never writes the word on a push.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>

namespace mini {

// 16 bits a thread count, as rayon on 64-bit targets (counters.rs:55-60).
inline constexpr unsigned threads_bits = 16;
inline constexpr std::uint64_t threads_max = (std::uint64_t{1} << threads_bits) - 1;
inline constexpr unsigned inactive_shift = threads_bits, jec_shift = 2 * threads_bits;
inline constexpr std::uint64_t one_sleeping = 1, one_inactive = std::uint64_t{1} << inactive_shift,
                               one_jec = std::uint64_t{1} << jec_shift;

struct JobsEventCounter {
    std::uint64_t value;
    // rayon's DUMMY: no announced value (a worker not sleepy); never equal to a real one.
    static constexpr std::uint64_t dummy = ~std::uint64_t{0};
    bool is_sleepy() const { return value % 2 == 0; } // touched last by a sleepy worker
    bool is_active() const { return !is_sleepy(); }   // touched last by a publisher
    friend bool operator==(JobsEventCounter, JobsEventCounter) = default;
};

struct Counters {
    std::uint64_t word;
    JobsEventCounter jobs_counter() const { return {word >> jec_shift}; }
    std::uint64_t sleeping_threads() const { return word & threads_max; }
    std::uint64_t inactive_threads() const { return (word >> inactive_shift) & threads_max; }
    std::uint64_t awake_but_idle_threads() const { return inactive_threads() - sleeping_threads(); }
};

// Every operation is seq_cst, as rayon's: the sleep protocol's fences pair with these.
class AtomicCounters {
public:
    Counters load() const { return {value_.load(std::memory_order_seq_cst)}; }

    // rayon's increment_jobs_event_counter_if (counters.rs:128-143): bump the JEC if `pred`
    // holds, in a CAS loop; returns the counters as they are after (bumped or not). No write
    // when pred is false: a busy pool's pushes only read this line.
    template <class Pred>
    Counters increment_jobs_event_counter_if(Pred pred) {
        std::uint64_t old = value_.load(std::memory_order_seq_cst);
        for (;;) {
            if (!pred(Counters{old}.jobs_counter())) return {old};
            if (value_.compare_exchange_weak(old, old + one_jec, std::memory_order_seq_cst))
                return {old + one_jec}; // the top bits overflow: the JEC wraps
        }
    }

    void add_inactive_thread() { value_.fetch_add(one_inactive, std::memory_order_seq_cst); }

    // A thread found work: one inactive fewer. rayon's heuristic (counters.rs:150-169): wake up
    // to two sleepers, since a thread that found work will likely make more.
    std::uint64_t sub_inactive_thread() {
        const Counters old{value_.fetch_sub(one_inactive, std::memory_order_seq_cst)};
        return std::min<std::uint64_t>(old.sleeping_threads(), 2);
    }

    // One CAS for "the JEC is still the one I announced" and "count me asleep": a publisher's
    // bump between the load and this CAS makes it fail, and the caller compares again.
    bool try_add_sleeping_thread(Counters old) {
        return value_.compare_exchange_strong(old.word, old.word + one_sleeping,
                                              std::memory_order_seq_cst);
    }

    void sub_sleeping_thread() { value_.fetch_sub(one_sleeping, std::memory_order_seq_cst); }

private:
    std::atomic<std::uint64_t> value_{0};
};

} // namespace mini
