// hurts panic: an exception does not stop the other leaves (rayon issue #638).
//
// par_range(0, N).for_each(f) where f throws at item 0, the first item of the leftmost leaf. The
// exception unwinds that leaf only. Every join above it waits for its other half before it
// rethrows (chapter 3), so every other leaf runs to its end, and the caller gets the exception
// after all that work. With panic_fuse() the leaves ask a shared flag before each item and stop.
// The driver counts the items that ran besides item 0, with and without panic_fuse.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include <fmt/core.h>

#include <mini/par.hpp>

#include "common.hpp"
#include "hurts/blocking.hpp" // busy
#include "hurts/handoff.hpp"

namespace hurts {

struct PanicOptions {
    std::size_t threads = 2, runs = 5, n = 1 << 16, work = 2000;
    double watchdog_s = 60;
};

// One run: how many items ran besides the one that threw, and whether the caller got its
// exception (a std::out_of_range, so that a lost type shows).
struct PanicRun {
    std::size_t ran = 0;
    bool caught = false;
    double ms = 0;
};

// ANCHOR: panic_items
inline PanicRun items_after_throw(mini::ThreadPool& pool, const PanicOptions& o, bool fuse,
                                  Steps& steps) {
    std::atomic<std::size_t> ran{0};
    auto item = [&](std::size_t i) {
        if (i == 0) throw std::out_of_range("item 0 failed");
        busy(o.work);
        ran.fetch_add(1, std::memory_order_relaxed);
        steps.step();
    };
    PanicRun r;
    const double t0 = app::now();
    try {
        pool.install([&] {
            if (fuse) mini::par_range(std::size_t(0), o.n).panic_fuse().for_each(item);
            else mini::par_range(std::size_t(0), o.n).for_each(item);
        });
    } catch (const std::out_of_range&) {
        r.caught = true;
    }
    r.ms = (app::now() - t0) * 1e3;
    r.ran = ran.load();
    return r;
}
// ANCHOR_END: panic_items

inline int run_panic(const PanicOptions& o) {
    app::banner("hurts panic");
    fmt::print("a pool of {} workers; par_range(0, {}).for_each, item 0 throws, every other item "
               "{} iterations of busy work; {} runs\n",
               o.threads, o.n, o.work, o.runs);
    std::fflush(stdout);
    mini::ThreadPool pool(o.threads);
    Steps steps;
    mini::Watchdog dog("hurts panic", app::seconds(o.watchdog_s), [&] { return steps(); },
                       [&] { return fmt::format("{} items done", steps()); });
    std::array<std::vector<double>, 2> ran, ms;
    bool caught = true;
    for (std::size_t run = 0; run < o.runs; ++run)
        for (const int fuse : {int(run % 2), int(1 - run % 2)}) { // which goes first alternates
            const PanicRun r = items_after_throw(pool, o, fuse == 1, steps);
            ran[fuse].push_back(double(r.ran));
            ms[fuse].push_back(r.ms);
            caught &= r.caught;
        }
    fmt::print("\n{:<24}{:<40}{}\n", "for_each", "items run besides item 0, of " +
               std::to_string(o.n - 1), "until the caller gets the exception [ms]");
    const char* labels[] = {"plain", "panic_fuse()"};
    for (int f : {0, 1}) {
        const auto [lo, hi] = std::minmax_element(ran[f].begin(), ran[f].end());
        const auto [mlo, mhi] = std::minmax_element(ms[f].begin(), ms[f].end());
        fmt::print("{:<24}{:<40}{}\n", labels[f],
                   fmt::format("{:.0f} [{:.0f}–{:.0f}]", app::median(ran[f]), *lo, *hi),
                   fmt::format("{:.2f} [{:.2f}–{:.2f}]", app::median(ms[f]), *mlo, *mhi));
    }
    fmt::print("[a–b]: min–max over {} runs. {}\n", o.runs,
               caught ? "The caller caught item 0's std::out_of_range in every run."
                      : "WRONG: in some run the caller did not get item 0's std::out_of_range");
    return caught ? app::ok : app::wrong_result;
}

} // namespace hurts
