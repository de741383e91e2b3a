// The sleeps driver's workload, compiled once per core (sleep_work.hpp says why).
#include "sleep_work.hpp"

#include "fib_leaf.hpp"

#include <atomic>
#include <chrono>

#include <mini/cpu_relax.hpp>
#include <mini/join.hpp>
#include <mini/pool.hpp>
#include <mini/probe.hpp>

namespace mini {
namespace {

// This copy's own probe handler: each copy of the core has its own probe_handler.
std::atomic<std::uint64_t> stolen{0}, sleeps{0}, notifies{0};
void count(Probe what, const void*, std::uint64_t arg) {
    switch (what) {
    case Probe::b_stolen: stolen.fetch_add(1, std::memory_order_relaxed); break;
    case Probe::woken: if (arg) sleeps.fetch_add(1, std::memory_order_relaxed); break;
    case Probe::notified: notifies.fetch_add(1, std::memory_order_relaxed); break;
    default: break;
    }
}

class Pool final : public app::SleepPool {
public:
    explicit Pool(std::size_t threads) : pool_(threads) {}
    app::SleepRun run(unsigned n, unsigned cutoff) override {
        const app::SleepCounts before = sleep_counts();
        const auto t0 = std::chrono::steady_clock::now();
        const std::uint64_t v = pool_.install([&] { return fib(n, cutoff); });
        const std::chrono::duration<double> t = std::chrono::steady_clock::now() - t0;
        runs_.fetch_add(1);
        const app::SleepCounts c = sleep_counts() - before;
        return {t.count(), v, c.stolen, c.sleeps, c.notifies};
    }
    std::uint64_t progress() const override { return runs_.load(); }

private:
    ThreadPool pool_;
    std::atomic<std::uint64_t> runs_{0};
};

} // namespace

// app::fib (fib.hpp), word for word, on this copy's join.
std::uint64_t fib(unsigned n, unsigned cutoff) {
    if (n <= cutoff || n < 2) return app::fib_leaf(n);
    auto [a, b] = join([=] { return fib(n - 1, cutoff); }, [=] { return fib(n - 2, cutoff); });
    return a + b;
}

app::SleepCounts sleep_counts() {
    probe_handler.store(&count, std::memory_order_release);
    return {stolen.load(), sleeps.load(), notifies.load()};
}

std::unique_ptr<app::SleepPool> sleep_pool(std::size_t threads) {
    return std::make_unique<Pool>(threads);
}

std::size_t missed_pushes(std::size_t trials, std::chrono::milliseconds wait,
                          std::atomic<std::uint64_t>& done) {
    std::size_t missed = 0;
    for (std::size_t i = 0; i < trials; ++i, done.fetch_add(1)) {
        ThreadPool pool(2); // fresh: the worker that does not run the join is on its way to sleep
        std::atomic<bool> b_started{false};
        pool.install([&] {
            join(
                [&] { // B is pushed: wait for the other worker to start it, at most `wait`
                    const auto until = std::chrono::steady_clock::now() + wait;
                    while (!b_started.load(std::memory_order_acquire) &&
                           std::chrono::steady_clock::now() < until)
                        cpu_relax();
                    if (!b_started.load(std::memory_order_acquire)) ++missed;
                },
                [&] { b_started.store(true, std::memory_order_release); });
        });
    }
    return missed;
}

} // namespace mini
