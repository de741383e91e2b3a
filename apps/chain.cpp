// The chain on one copy of the core (see chain.hpp): compiled once as namespace mini and once as
// mini_nsw, so everything here lives in that namespace or in this file only.
#include "chain.hpp"

#include <atomic>
#include <chrono>

#include <mini/join.hpp>
#include <mini/pool.hpp>

namespace mini {
namespace {

// The jobs owners ran while waiting, from join's b_stolen probe. Each copy installs its own
// handler into its own probe_handler, so both pay the same for it.
std::atomic<std::uint64_t> waited{0};
void count_waited(Probe what, const void*, std::uint64_t arg) {
    if (what == Probe::b_stolen) waited.fetch_add(arg, std::memory_order_relaxed);
}

class Chain final : public app::ChainPool {
public:
    explicit Chain(std::size_t threads) : pool_(threads) {
        probe_handler.store(&count_waited, std::memory_order_release);
    }

    app::ChainRun run(std::size_t levels, std::uint64_t iters) override {
        const std::uint64_t waited0 = waited.load();
        const auto t0 = std::chrono::steady_clock::now();
        const std::uint64_t sum = pool_.install([&] { return chain(levels, iters); });
        const std::chrono::duration<double> secs = std::chrono::steady_clock::now() - t0;
        return {secs.count(), sum, waited.load() - waited0};
    }

    std::uint64_t leaves_done() const override { return done_.load(std::memory_order_relaxed); }

private:
    // ANCHOR: chain
    std::uint64_t chain(std::size_t level, std::uint64_t iters) {
        if (level == 0) return 0;
        auto [a, b] = join([&] { return leaf(level, iters); },       // A: one leaf
                           [&] { return chain(level - 1, iters); }); // B: all the rest
        return a + b;
    }
    // ANCHOR_END: chain

    std::uint64_t leaf(std::size_t level, std::uint64_t iters) {
        const std::uint64_t v = app::chain_leaf(level, iters);
        done_.fetch_add(1, std::memory_order_relaxed);
        return v;
    }

    ThreadPool pool_;
    std::atomic<std::uint64_t> done_{0};
};

} // namespace

std::unique_ptr<app::ChainPool> chain_pool(std::size_t threads) {
    return std::make_unique<Chain>(threads);
}

} // namespace mini
