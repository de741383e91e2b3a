// steal_wait: what NO_STEAL_WAIT costs, measured on the chain (chain.hpp), where an owner waits
// for a stolen B that holds nearly all the work. The core as built and a copy with NO_STEAL_WAIT
// on run in this one process, alternately, each on a pool of its own; every sum is checked.
// Prints per run both times and the jobs run while waiting, then the medians and their ratio.
#include <vector>

#include "chain.hpp"
#include "common.hpp"

#include <mini/probe.hpp>

namespace {

struct Variant {
    const char* name;
    std::unique_ptr<app::ChainPool> pool;
    std::vector<double> times;
    std::uint64_t waited = 0;
};

} // namespace

int main(int argc, char** argv) {
    fmt::print("mini-rayon steal_wait | sabotage: {} beside a copy with NO_STEAL_WAIT\n",
               mini::sabotage::active);
    app::Args cli{
        "The chain (each join's A one leaf, its B the rest), run by the core as built and\n"
        "by a copy with NO_STEAL_WAIT on, alternately in this process.\n"
        "Exit codes: 0 correct, 1 wrong result, 2 usage error, 3 watchdog (no progress)."};
    std::size_t threads = 2, levels = 100, runs = 5;
    std::uint64_t iters = 1000000;
    double watchdog_s = 10;
    cli.add("THREADS", threads, "worker threads of each pool", {1, 256});
    cli.add("LEVELS", levels, "joins in the chain", {1, 20000});
    cli.add("LEAF", iters, "LCG rounds per leaf", {1, 100000000});
    cli.add("RUNS", runs, "timed runs of each variant", {1, 1000});
    cli.add("--watchdog", watchdog_s, "seconds without progress before exiting 3", {0.1, 3600.0});
    if (int code = cli.parse(argc, argv); code >= 0) return code;

    fmt::print("chain of {} levels, {} LCG rounds per leaf, {} threads per pool, {} runs\n", levels,
               iters, threads, runs);
    std::fflush(stdout);
    Variant as_built{"as built", mini::chain_pool(threads), {}};
    Variant no_steal{"NO_STEAL_WAIT", mini_nsw::chain_pool(threads), {}};
    std::atomic<std::size_t> run{0};
    mini::Watchdog dog(
        "running steal_wait", app::seconds(watchdog_s),
        [&] { return as_built.pool->leaves_done() + no_steal.pool->leaves_done(); },
        [&] { return fmt::format("run {}/{}", run.load() + 1, runs); });

    const std::uint64_t expected = app::chain_value(levels, iters);
    bool all_ok = true;
    for (; run < runs; ++run) {
        fmt::print("run {}:", run.load());
        for (Variant* v : {&as_built, &no_steal}) {
            const app::ChainRun r = v->pool->run(levels, iters);
            const bool ok = r.sum == expected;
            all_ok &= ok;
            v->times.push_back(r.secs);
            v->waited += r.waited;
            fmt::print("  {} {:.4f} s {}, run while waiting {}", v->name, r.secs,
                       ok ? "correct" : "WRONG", r.waited);
        }
        fmt::print("\n");
        std::fflush(stdout);
    }
    const double a = app::median(as_built.times), b = app::median(no_steal.times);
    fmt::print("median: as built {:.4f} s, NO_STEAL_WAIT {:.4f} s: NO_STEAL_WAIT takes {:.2f}x\n",
               a, b, b / a);
    fmt::print("run while waiting in all: as built {}, NO_STEAL_WAIT {}{}\n", as_built.waited,
               no_steal.waited, mini::probes_enabled ? "" : " (RECORDER=OFF: not counted)");
    fmt::print("{}\n", all_ok ? "all results correct" : "WRONG RESULT");
    return all_ok ? app::ok : app::wrong_result;
}
