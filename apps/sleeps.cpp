// sleeps: the pool's sleep (one mutex and condition variable, chapter 2) and rayon's per-worker
// sleep (chapter 10) side by side in one process, on fib with join: the core as built and a copy
// built with -DSLEEP=per-worker (sleep_work.hpp), each on a pool of its own, taking turns run by
// run; with --busy N, N threads spin on the same cores throughout. Prints per run both times and
// counts, then the medians and, per stolen B, the sleeps and the notify calls.
#include <algorithm>
#include <vector>

#include "common.hpp"
#include "compare/busy.hpp"
#include "platform.hpp"
#include "sleep_work.hpp"

namespace {

struct Side {
    const char* name;
    std::unique_ptr<app::SleepPool> pool;
    std::vector<double> times{};
    std::uint64_t stolen = 0, sleeps = 0, notifies = 0;
};

double per(std::uint64_t n, std::uint64_t stolen) { return stolen ? double(n) / double(stolen) : 0; }

} // namespace

int main(int argc, char** argv) {
    fmt::print("mini-rayon sleeps | sabotage: {} beside a copy with the per-worker sleep\n",
               mini::sabotage::active);
    app::Args cli{
        "fib with join on the pool's sleep and on rayon's per-worker sleep, alternately in\n"
        "this process.\n"
        "Exit codes: 0 correct, 1 wrong result, 2 usage error, 3 watchdog (no progress)."};
    std::size_t threads = 2, runs = 5, busy = 0, missed_trials = 0;
    unsigned n = 32, cutoff = 15;
    double watchdog_s = 20;
    cli.add("THREADS", threads, "worker threads of each pool", {1, 256});
    cli.add("N", n, "fib(N)", {1, 45});
    cli.add("CUTOFF", cutoff, "below or at this n, plain recursion", {0, 45});
    cli.add("RUNS", runs, "timed runs of each sleep", {1, 1000});
    cli.add("--busy", busy, "threads spinning on the same cores throughout", {0, 64});
    cli.add("--missed", missed_trials,
            "then the missed push: in this many fresh 2-thread pools per sleep, how often "
            "a B pushed at once is left to its owner for 200 ms",
            {0, 10000});
    cli.add("--watchdog", watchdog_s, "seconds without progress before exiting 3", {0.1, 3600.0});
    if (int code = cli.parse(argc, argv); code >= 0) return code;

    fmt::print("fib({}) cutoff {}, {} threads per pool, {} runs, {} busy threads\n", n, cutoff,
               threads, runs, busy);
    std::fflush(stdout);
    Side pool{"pool", mini::sleep_pool(threads)}, worker{"per-worker", mini_pw::sleep_pool(threads)};
    std::atomic<std::size_t> run{0};
    std::atomic<std::uint64_t> trials_done{0}; // the missed-push trials, for the watchdog
    mini::Watchdog dog(
        "running sleeps", app::seconds(watchdog_s),
        [&] { return pool.pool->progress() + worker.pool->progress() + trials_done.load(); },
        [&] { return fmt::format("run {}/{}", run.load() + 1, runs); });
    cmp::Busy load(busy);
    const double machine0 = app::platform::machine_busy_seconds();
    const auto t0 = std::chrono::steady_clock::now();

    std::uint64_t expected = 0;
    for (unsigned a = 0, b = 1, i = 0; i < n; ++i) expected = b, b += a, a = expected;
    expected = n == 0 ? 0 : expected;
    bool all_ok = true;
    for (; run < runs; ++run) {
        fmt::print("run {}:", run.load());
        // Alternate which goes first, so that neither always follows the other.
        Side* order[2] = {&pool, &worker};
        if (run % 2) std::swap(order[0], order[1]);
        for (Side* s : order) {
            const app::SleepRun r = s->pool->run(n, cutoff);
            const bool ok = r.value == expected;
            all_ok &= ok;
            s->times.push_back(r.secs);
            s->stolen += r.stolen, s->sleeps += r.sleeps, s->notifies += r.notifies;
            fmt::print("  {} {:.4f} s {}, B stolen {}, sleeps {}, notifies {}", s->name, r.secs,
                       ok ? "correct" : "WRONG", r.stolen, r.sleeps, r.notifies);
        }
        fmt::print("\n");
        std::fflush(stdout);
    }
    if (missed_trials > 0) {
        // Alternately, so that both see the same load; each trial a fresh pool (sleep_work.hpp).
        constexpr std::chrono::milliseconds wait{200};
        std::size_t missed_pool = 0, missed_pw = 0;
        for (std::size_t i = 0; i < missed_trials; ++i) {
            missed_pool += mini::missed_pushes(1, wait, trials_done);
            missed_pw += mini_pw::missed_pushes(1, wait, trials_done);
        }
        fmt::print("missed push: B left to its owner for 200 ms in {} of {} fresh 2-thread pools "
                   "(pool), {} of {} (per-worker)\n",
                   missed_pool, missed_trials, missed_pw, missed_trials);
    }
    const std::chrono::duration<double> wall = std::chrono::steady_clock::now() - t0;
    const double machine = app::platform::machine_busy_seconds() - machine0;
    load.stop();
    for (const Side* s : {&pool, &worker})
        fmt::print("{:>10}: median {:.4f} s, per stolen B: sleeps {:.2f}, notifies {:.2f} "
                   "(B stolen {})\n",
                   s->name, app::median(s->times), per(s->sleeps, s->stolen),
                   per(s->notifies, s->stolen), s->stolen);
    fmt::print("per-worker / pool time: {:.2f}x\n",
               app::median(worker.times) / app::median(pool.times));
    if (machine >= 0) {
        // The machine's busy CPU seconds minus ours: what other processes took meanwhile.
        const double cores = double(std::max<std::size_t>(1, std::thread::hardware_concurrency()));
        fmt::print("machine busy {:.0f} % of {} cores during the runs (this process included)\n",
                   100 * machine / (wall.count() * cores), cores);
    }
    fmt::print("{}\n", all_ok ? "all results correct" : "WRONG RESULT");
    return all_ok ? app::ok : app::wrong_result;
}
