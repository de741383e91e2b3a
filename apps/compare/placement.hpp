// compare --placement: where fib's leaves ran, for mini and rayon alike.
//
// Both runtimes call the same leaf through a pointer (rayon always does; mini's fib_with below is
// app::fib with the leaf as a parameter). That leaf notes, before it runs, its thread, its CPU
// (sched_getcpu) and the time. From one run's notes come two figures a timing alone hides:
// - how long after the first leaf the second thread ran its first one: a woken worker that
//   starts late leaves one core idle meanwhile;
// - whether a thread changed CPU during the run, or the first two threads began on one CPU:
//   then for a while two workers shared a core while the other core had nothing to do.
// The clock and sched_getcpu cost some tens of nanoseconds per leaf, the same for both runtimes;
// timings taken with --placement include them.
#pragma once

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <utility>
#include <vector>

#include <fmt/core.h>

#include <mini/join.hpp>

#include "compare/table.hpp"
#include "fib.hpp"
#include "platform.hpp"

namespace cmp::placement {

struct Note {
    std::int64_t ns;
    std::uint32_t thread;
    int cpu;
};
inline std::vector<Note> notes; // sized by start(), so that a run without --placement pays nothing
inline std::atomic<std::size_t> noted{0};
inline std::atomic<std::uint32_t> threads_seen{0};
inline thread_local std::uint32_t thread_id = ~std::uint32_t{0};

extern "C" inline std::uint64_t noted_leaf(unsigned n) {
    if (thread_id == ~std::uint32_t{0}) thread_id = threads_seen.fetch_add(1);
    const std::size_t k = noted.fetch_add(1, std::memory_order_relaxed);
    if (k < notes.size())
        notes[k] = {std::chrono::steady_clock::now().time_since_epoch().count(), thread_id,
                    app::platform::current_cpu()};
    return app::fib_leaf(n);
}

// app::fib (apps/fib.hpp) with its leaf as a parameter, as rayon's fib has it.
inline std::uint64_t fib_with(unsigned n, unsigned cutoff, std::uint64_t (*leaf)(unsigned)) {
    if (n <= cutoff || n < 2) return leaf(n);
    auto [a, b] = mini::join([=] { return fib_with(n - 1, cutoff, leaf); },
                             [=] { return fib_with(n - 2, cutoff, leaf); });
    return a + b;
}

struct Run {
    double second_us; // the second thread's first leaf, after the first leaf of all
    bool shared;      // a thread changed CPU, or the first two threads began on one
    int before;       // the column measured just before
};
inline std::array<std::vector<Run>, num_impls> runs{};

inline void start() {
    notes.resize(std::size_t{1} << 17); // fib(36)/15 runs 28657 leaves; once, before the first run
    noted = 0;
}

// Sums up the notes of the run just finished. A thread's notes come in its own order (each took
// the next index), so its first note is its first leaf.
inline void finish(int impl, int before) {
    const std::size_t n = std::min(noted.load(), notes.size());
    std::vector<std::pair<std::int64_t, int>> first; // by thread: its first leaf's (time, CPU)
    bool moved = false;
    for (std::size_t k = 0; k < n; ++k) {
        const Note& note = notes[k];
        if (note.thread >= first.size()) first.resize(note.thread + 1, {-1, -1});
        if (first[note.thread].first < 0) first[note.thread] = {note.ns, note.cpu};
        moved |= first[note.thread].second != note.cpu;
    }
    std::erase_if(first, [](const auto& f) { return f.first < 0; }); // threads of other runs
    std::sort(first.begin(), first.end());
    if (first.size() < 2) return runs[impl].push_back({-1, moved, before});
    runs[impl].push_back({double(first[1].first - first[0].first) / 1e3,
                          moved || first[0].second == first[1].second, before});
}

inline void print(double late_us) {
    fmt::print("placement (--placement), fib: the second thread's first leaf, after the first "
               "leaf [us], and runs where two threads shared a CPU, by the column just before\n");
    for (int i = 0; i < num_impls; ++i)
        for (int b = -1; b < num_impls; ++b) {
            std::vector<double> second;
            int shared = 0, late = 0, alone = 0;
            for (const Run& r : runs[i]) {
                if (r.before != b) continue;
                if (r.second_us < 0) ++alone;
                else second.push_back(r.second_us), late += r.second_us > late_us;
                shared += r.shared;
            }
            if (second.empty() && alone == 0) continue;
            fmt::print("  {} after {}: {} runs; second thread after {} us (median); later than "
                       "{:.0f} us: {}; shared a CPU: {}; one thread only: {}\n",
                       impl_names[i], b < 0 ? "nothing" : impl_names[b], second.size() + alone,
                       second.empty() ? "-" : num(app::median(second)), late_us, late, shared,
                       alone);
        }
}

} // namespace cmp::placement
