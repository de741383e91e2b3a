// splits: what the adaptive splitter does. `count` prints leaf counts next to the no-steal theory
// and next to rayon's own counts from this process, `par_iter` the same for `par_iter(v)` over a
// vector (chapter 11), `tree` draws one run's split tree, `sum` measures a parallel sum against a
// serial loop, `init` counts map_init's init calls beside the same call's leaves (chapter 14).
#include <algorithm>
#include <atomic>
#include <bit>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <numeric>
#include <string>
#include <tuple>
#include <vector>

#include <mini/par.hpp>
#include <mini/splitter.hpp>

#include "common.hpp"
#include "splits_counts.hpp"

namespace {

using namespace app::splits;

// `work` iterations of an empty loop per item, so that thieves have something to steal.
void busy(std::size_t work) {
    for (std::size_t k = 0; k < work; ++k) asm volatile("");
}

int worker_index() {
    const mini::WorkerThread* w = mini::WorkerThread::current();
    return w ? static_cast<int>(w->index()) : -1;
}

Count count_run(mini::ThreadPool& pool, std::size_t len, std::size_t work) {
    std::atomic<std::size_t> migrated_splits{0};
    std::atomic<std::uint64_t> ran_on{0}; // bit i: worker i ran a leaf (bit 63: no worker)
    Count c = mini::bridge<Count>(
        pool, 0, len, 1,
        [&, work](const mini::Piece& p) {
            const int w = worker_index();
            ran_on.fetch_or(std::uint64_t{1} << (w < 0 ? 63 : std::min(w, 63)),
                            std::memory_order_relaxed);
            for (std::size_t i = p.begin; i < p.end; ++i) busy(work);
            return Count{1, p.migrated ? 1u : 0u};
        },
        [](Count a, Count b) { return a + b; },
        [&](const mini::Piece& p) { migrated_splits += p.migrated; });
    c.migrated += migrated_splits.load();
    c.threads = static_cast<std::size_t>(std::popcount(ran_on.load()));
    return c;
}

int count(std::size_t threads, std::size_t len, std::size_t runs, std::size_t work,
          double watchdog_s) {
    fmt::print("leaf counts over [0, {}) on {} threads, {} runs, {} iterations of work per item\n",
               len, threads, runs, work);
    mini::ThreadPool pool(threads);
    const RayonCounts rayon(threads);
    std::atomic<std::size_t> run{0}, step{0};
    mini::Watchdog dog(
        "counting leaves", app::seconds(watchdog_s),
        [&] { return mini::stats(pool).executed + run.load() + step.load(); },
        [&] {
            return fmt::format("run {}/{}, {} jobs executed", run.load() + 1, runs,
                               mini::stats(pool).executed);
        });
    Tally tally{rayon};
    for (; run < runs; ++run) {
        const Four f = measure(
            pool, rayon, step, [&] { return count_run(pool, len, work); },
            [&](bool inside) { return rayon.leaves(len, work, inside); });
        fmt::print("run {}: outside {:>4}{} (no-steal theory {:>4}, {:>3} pieces migrated)   "
                   "inside {:>4}{} (theory {:>4}, {:>3} migrated){}\n",
                   run.load(), f.out.leaves, tally.column(f.r_out), theory(threads, true),
                   f.out.migrated, f.in.leaves, tally.column(f.r_in), theory(threads, false),
                   f.in.migrated, tally.verdict_of(f));
        std::fflush(stdout);
    }
    tally.summary(runs, "counts");
    if (rayon.built && work > 0)
        fmt::print("with work per item thieves steal, in both runtimes, at moments that differ "
                   "from run to run, and each steal adds leaves: counts that differ are expected "
                   "here\n");
    return app::ok;
}

// A consumer whose result is its number of leaves: each leaf completes to 1, the reducer adds.
struct LeafCount {
    using Result = std::size_t;
    struct Folder {
        using Result = std::size_t;
        void consume(const auto&) {}
        bool full() const { return false; }
        Result complete() && { return 1; }
    };
    struct Add {
        Result reduce(Result a, Result b) const { return a + b; }
    };
    std::tuple<LeafCount, LeafCount, Add> split_at(std::size_t) const { return {}; }
    LeafCount split_off_left() const { return {}; }
    Add to_reducer() const { return {}; }
    Folder into_folder() const { return {}; }
    bool full() const { return false; }
};

// ANCHOR: init_counts
// map_init over [0, len) inside the pool, driven into LeafCount: the same call counts its init
// calls and its leaves (rayon #718, #1214: init runs once per leaf, not once per thread).
int init_counts(std::size_t threads, std::size_t len, std::size_t runs, std::size_t work,
                double watchdog_s) {
    mini::ThreadPool pool(threads);
    std::atomic<std::size_t> run{0};
    mini::Watchdog dog("counting map_init's init calls", app::seconds(watchdog_s),
                       [&] { return mini::stats(pool).executed + run.load(); },
                       [&] { return fmt::format("run {}/{}", run.load() + 1, runs); });
    bool all_equal = true;
    for (; run < runs; ++run) {
        std::atomic<std::size_t> inits{0};
        const std::size_t leaves = pool.install([&] {
            auto chain = mini::par_range(std::size_t{0}, len)
                             .map_init([&] { return ++inits; },
                                       [work](std::size_t&, std::size_t x) { busy(work); return x; });
            return chain.drive_unindexed(pool, LeafCount{});
        });
        all_equal &= inits.load() == leaves;
        fmt::print("run {}: init called {} times for {} items on {} threads, {} leaves: {}\n",
                   run.load(), inits.load(), len, threads, leaves,
                   inits.load() == leaves ? "equal" : "DIFFERENT");
        std::fflush(stdout);
    }
    fmt::print("{}\n", all_equal ? "every run: init count = leaf count" : "WRONG: a count differs");
    return all_equal ? app::ok : app::wrong_result;
}
// ANCHOR_END: init_counts

// ANCHOR: par_iter_leaves
// The leaves of one par_iter(v) on `pool`: every item maps to 0 and reduce's identity, 1, runs
// once per leaf (ReduceConsumer::into_folder), as rayon_side_par_iter_leaves counts rayon's. Driven
// on `pool` from the calling thread: from outside, the first join is injected, as from outside
// rayon's pools its global pool's is.
Count par_iter_run(mini::ThreadPool& pool, const std::vector<std::uint64_t>& v, std::size_t work) {
    std::atomic<std::uint64_t> ran_on{0};
    auto zero = [work](const std::uint64_t&) { return busy(work), std::size_t{0}; };
    auto one = [&] {
        const int w = worker_index();
        ran_on.fetch_or(std::uint64_t{1} << (w < 0 ? 63 : std::min(w, 63)),
                        std::memory_order_relaxed);
        return std::size_t{1};
    };
    const std::plus<std::size_t> add;
    Count c;
    c.leaves = mini::par_iter(v).map(zero).drive(
        pool, mini::iter::ReduceConsumer<std::size_t, decltype(one), std::plus<std::size_t>>(
                  &one, &add));
    c.threads = static_cast<std::size_t>(std::popcount(ran_on.load()));
    return c;
}
// ANCHOR_END: par_iter_leaves

int par_iter_counts(std::size_t threads, std::size_t len, std::size_t runs, std::size_t work,
                    double watchdog_s) {
    fmt::print("par_iter leaf counts over a vector of {} u64 on {} threads, {} runs, {} "
               "iterations of work per item\n",
               len, threads, runs, work);
    mini::ThreadPool pool(threads);
    const RayonCounts rayon(threads);
    const std::vector<std::uint64_t> v(len, 1);
    std::atomic<std::size_t> run{0}, step{0};
    mini::Watchdog dog(
        "counting par_iter's leaves", app::seconds(watchdog_s),
        [&] { return mini::stats(pool).executed + run.load() + step.load(); },
        [&] { return fmt::format("run {}/{}", run.load() + 1, runs); });
    Tally tally{rayon};
    for (; run < runs; ++run) {
        const Four f = measure(
            pool, rayon, step, [&] { return par_iter_run(pool, v, work); },
            [&](bool inside) { return rayon.par_iter(v, work, inside); });
        fmt::print("run {}: par_iter outside {:>4}{} (no-steal theory {:>4})   inside {:>4}{} "
                   "(theory {:>4}){}\n",
                   run.load(), f.out.leaves, tally.column(f.r_out), theory(threads, true),
                   f.in.leaves, tally.column(f.r_in), theory(threads, false), tally.verdict_of(f));
        std::fflush(stdout);
    }
    tally.summary(runs, "par_iter counts");
    return app::ok;
}

struct Node {
    bool migrated;
    std::size_t splits;
    int worker;
    bool leaf;
};

void draw(const std::map<std::pair<std::size_t, std::size_t>, Node>& nodes, std::size_t begin,
          std::size_t end, const std::string& indent, bool last, bool root) {
    const Node& n = nodes.at({begin, end});
    const std::string where = n.worker < 0 ? "outside" : fmt::format("worker {}", n.worker);
    fmt::print("{}{}[{}, {}) {}{} splits {}, on {}\n", indent, root ? "" : (last ? "└─ " : "├─ "),
               begin, end, n.leaf ? "leaf " : "", n.migrated ? "MIGRATED," : "", n.splits, where);
    if (n.leaf) return;
    const std::string child = indent + (root ? "" : (last ? "   " : "│  "));
    const std::size_t mid = begin + (end - begin) / 2;
    draw(nodes, begin, mid, child, false, false);
    draw(nodes, mid, end, child, true, false);
}

int tree(std::size_t threads, std::size_t len, std::size_t work, bool inside, double watchdog_s) {
    fmt::print("split tree of [0, {}) on {} threads, entered {} the pool, {} iterations per item\n",
               len, threads, inside ? "inside" : "outside", work);
    mini::ThreadPool pool(threads);
    std::atomic<std::size_t> pieces{0};
    mini::Watchdog dog(
        "drawing the split tree", app::seconds(watchdog_s), [&] { return pieces.load(); },
        [&] { return fmt::format("{} pieces", pieces.load()); });
    std::mutex m;
    std::map<std::pair<std::size_t, std::size_t>, Node> nodes;
    auto record = [&](const mini::Piece& p, bool leaf) {
        std::lock_guard lock(m);
        nodes[{p.begin, p.end}] = Node{p.migrated, p.splits, worker_index(), leaf};
        ++pieces;
    };
    auto run = [&] {
        return mini::bridge<std::size_t>(
            pool, 0, len, 1,
            [&](const mini::Piece& p) {
                for (std::size_t i = p.begin; i < p.end; ++i) busy(work);
                record(p, true);
                return std::size_t{1};
            },
            [](std::size_t a, std::size_t b) { return a + b; },
            [&](const mini::Piece& p) { record(p, false); });
    };
    const std::size_t leaves = inside ? pool.install(run) : run();
    draw(nodes, 0, len, "", true, true);
    fmt::print("{} leaves (no-steal theory {})\n", leaves, theory(threads, !inside));
    return app::ok;
}

int sum(std::size_t threads, std::size_t len, std::size_t runs, double watchdog_s) {
    fmt::print("sum of {} u64 on {} threads, {} runs\n", len, threads, runs);
    std::vector<std::uint64_t> values(len);
    std::iota(values.begin(), values.end(), std::uint64_t{1});
    const std::uint64_t expected = std::accumulate(values.begin(), values.end(), std::uint64_t{0});
    mini::ThreadPool pool(threads);
    std::atomic<std::size_t> run{0}, phase{0};
    mini::Watchdog dog(
        "summing", app::seconds(watchdog_s),
        [&] { return mini::stats(pool).executed + run.load() + phase.load(); },
        [&] {
            return fmt::format("run {}/{}, {} jobs executed", run.load() + 1, runs,
                               mini::stats(pool).executed);
        });
    std::vector<double> par, ser;
    bool ok = true;
    for (; run < runs; ++run) {
        double t0 = app::now();
        const std::uint64_t got = pool.install([&] { return mini::sum(pool, values); });
        par.push_back(app::now() - t0);
        ++phase;
        t0 = app::now();
        const std::uint64_t serial = pool.install(
            [&] { return std::accumulate(values.begin(), values.end(), std::uint64_t{0}); });
        ser.push_back(app::now() - t0);
        ++phase;
        ok &= got == expected && serial == expected;
        fmt::print("run {}: parallel {:.4f} s, serial {:.4f} s, {}\n", run.load(), par.back(),
                   ser.back(), got == expected ? "correct" : "WRONG");
        std::fflush(stdout);
    }
    const double p = app::median(par), s = app::median(ser);
    fmt::print("median {:.4f} s, serial {:.4f} s, speedup {:.2f}x on {} threads\n", p, s, s / p,
               threads);
    fmt::print("{}\n", ok ? "all results correct" : "WRONG RESULT");
    return ok ? app::ok : app::wrong_result;
}

} // namespace

int main(int argc, char** argv) {
    app::banner("splits");
    app::Args cli{"The adaptive splitter over an index range.\n"
                  "Exit codes: 0 ok, 1 wrong result, 2 usage error, 3 watchdog (no progress)."};
    std::size_t threads = 12, len = 1 << 20, runs = 5, work = 0;
    bool inside = false;
    double watchdog_s = 10;
    const app::Range threads_range{1, 256}, len_range{1, 1LL << 40};
    cli.add("--watchdog", watchdog_s, "seconds without progress before exiting 3", {0.1, 3600.0});

    app::TraceOption trace(cli);
    auto& c = cli.command("count", "leaf counts from outside and inside the pool");
    c.add("THREADS", threads, "worker threads", threads_range);
    c.add("LEN", len, "range length", len_range);
    c.add("RUNS", runs, "runs", {1, 10000});
    c.add("--work", work, "iterations of busy work per item", {0, 1000000});

    auto& pi = cli.command("par_iter", "par_iter(v)'s leaf counts, from outside and "
                                       "inside the pool, beside rayon's par_iter");
    pi.add("THREADS", threads, "worker threads", threads_range);
    pi.add("LEN", len, "vector length (at most 2^28: 2 GiB)", {1, 1 << 28});
    pi.add("RUNS", runs, "runs", {1, 10000});
    pi.add("--work", work, "iterations of busy work per item", {0, 1000000});

    auto& t = cli.command("tree", "draw the split tree of one run");
    t.add("THREADS", threads, "worker threads", threads_range).required();
    t.add("LEN", len, "range length", {1, 1 << 20}).required();
    t.add("--work", work, "iterations of busy work per item", {0, 1000000});
    t.flag("--inside", inside, "enter the bridge inside install instead of from outside");

    auto& s = cli.command("sum", "parallel sum of LEN u64 against a serial loop");
    s.add("THREADS", threads, "worker threads", threads_range).required();
    s.add("LEN", len, "number of values (at most 2^28: 2 GiB)", {1, 1 << 28}).required();
    s.add("RUNS", runs, "runs", {1, 1000}).required();

    auto& in = cli.command("init", "map_init's init calls beside the same call's leaf count");
    in.add("THREADS", threads, "worker threads", threads_range).required();
    in.add("LEN", len, "range length", len_range).required();
    in.add("RUNS", runs, "runs", {1, 10000});
    in.add("--work", work, "iterations of busy work per item", {0, 1000000});

    if (int code = cli.parse(argc, argv); code >= 0) return code;
    if (c.chosen()) return count(threads, len, runs, work, watchdog_s);
    if (pi.chosen()) return par_iter_counts(threads, len, runs, work, watchdog_s);
    if (t.chosen()) return tree(threads, len, work, inside, watchdog_s);
    if (in.chosen()) return init_counts(threads, len, runs, work, watchdog_s);
    return sum(threads, len, runs, watchdog_s);
}
