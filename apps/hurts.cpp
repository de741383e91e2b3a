// hurts: the programs rayon users report as bugs, each made to happen here with one command, and
// its fix (chapter 17). One subcommand per case, one header per case in hurts/:
//   lock      a lock held across a parallel call (rayon #592): a deadlock the watchdog ends, 3;
//   small     small inputs slower in parallel (rayon #648): the crossover, mini and rayon;
//   blocking  blocking work inside the pool (rayon #779): measured, and a pool of its own;
//   panic     an exception does not stop the other leaves (rayon #638): panic_fuse.
#include <string>

#include <fmt/core.h>

#include "common.hpp"
#include "hurts/blocking.hpp"
#include "hurts/lock.hpp"
#include "hurts/panic.hpp"
#include "hurts/small.hpp"

namespace {

const char* const about =
    "The programs rayon users report as bugs, made to happen on the workbook's pool (chapter "
    "17): lock, small, blocking, panic (--list names them).\n"
    "Exit codes: 0 ok, 1 wrong result, 2 usage error, 3 watchdog (no progress: `hurts lock` "
    "without --fixed ends so in every run).";

constexpr const char* cases[] = {"lock", "small", "blocking", "panic"};

} // namespace

int main(int argc, char** argv) {
    app::Args cli{about};
    bool list = false, fixed = false;
    double lock_watchdog_s = 2;
    hurts::SmallOptions so;
    hurts::BlockingOptions bo;
    hurts::PanicOptions po;
    cli.flag("--list", list, "name the cases, one a line, and exit");
    const app::Range threads{1, 256}, runs{1, 1000};

    auto& lock = cli.command("lock", "a lock held across join: deadlocks, the watchdog exits 3");
    lock.flag("--fixed", fixed, "take the lock after the parallel call: exits 0");
    lock.add("--watchdog", lock_watchdog_s, "seconds without progress before exiting 3",
             {0.1, 3600.0});

    auto& small = cli.command("small", "small inputs: serial, mini and rayon, the crossover");
    small.add("THREADS", so.threads, "threads of mini's pool and of rayon's", threads);
    small.add("RUNS", so.runs, "runs (the medians are over them)", runs);
    small.add("--up-to", so.up_to, "the largest n is 2^UP_TO (n = 2^4, 2^6, ...)", {4, 24});
    small.add("--min-len", so.min_len, "K of the with_min_len(K) rows", {1, 1 << 24});
    small.add("--watchdog", so.watchdog_s, "seconds without progress before exiting 3",
              {0.1, 3600.0});

    auto& blocking = cli.command("blocking", "blocking jobs beside CPU jobs, one pool or two");
    blocking.add("THREADS", bo.threads, "workers of the CPU pool", threads);
    blocking.add("RUNS", bo.runs, "runs (the medians are over them)", runs);
    blocking.add("--cpu-jobs", bo.cpu_jobs, "CPU jobs", {1, 1000000});
    blocking.add("--io-jobs", bo.io_jobs, "blocking jobs (and the threads of their own pool)",
                 {1, 64});
    blocking.add("--io-ms", bo.io_ms, "milliseconds each blocking job sleeps", {1, 10000});
    blocking.add("--work", bo.work, "iterations of busy work per CPU job", {0, 100000000});
    blocking.add("--watchdog", bo.watchdog_s, "seconds without progress before exiting 3",
                 {0.1, 3600.0});

    auto& panic = cli.command("panic", "item 0 throws: the items that still run, panic_fuse");
    panic.add("THREADS", po.threads, "workers", threads);
    panic.add("RUNS", po.runs, "runs (the medians are over them)", runs);
    panic.add("--n", po.n, "items", {2, 1 << 26});
    panic.add("--work", po.work, "iterations of busy work per item", {0, 100000000});
    panic.add("--watchdog", po.watchdog_s, "seconds without progress before exiting 3",
              {0.1, 3600.0});

    // --list alone needs no subcommand: answered before parsing the rest.
    if (argc == 2 && std::string(argv[1]) == "--list") list = true;
    else if (int code = cli.parse(argc, argv); code >= 0) return code;
    if (list) {
        for (const char* c : cases) fmt::print("{}\n", c);
        return app::ok;
    }
    if (lock.chosen()) return hurts::run_lock(fixed, lock_watchdog_s);
    if (small.chosen()) return hurts::run_small(so);
    if (blocking.chosen()) return hurts::run_blocking(bo);
    return hurts::run_panic(po);
}
