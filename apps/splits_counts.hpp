// splits' leaf counts beside rayon's: what one run counts (Count), the no-steal theory, rayon's
// side (RayonCounts, apps/rayon/), one run's four counts (Four: ours and rayon's, outside the pool
// and inside it), and the verdicts over the runs (Tally). Included by splits.cpp only.
#pragma once

#include <algorithm>
#include <atomic>
#include <bit>
#include <cstdint>
#include <string>
#include <vector>

#include <fmt/core.h>

#include <mini/pool.hpp>
#include <mini/sabotage.hpp>
#if MINI_HAVE_RAYON
#include "rayon/rayon.h"
#endif

namespace app::splits {

// Leaves and migrated pieces of one bridge run, and how many threads ran its leaves: more than
// one means a thief took a piece, and each steal adds leaves.
struct Count {
    std::size_t leaves = 0, migrated = 0, threads = 1;
    Count operator+(const Count& o) const { return {leaves + o.leaves, migrated + o.migrated}; }
};

// Leaves when nothing is stolen (chapter 4): a perfect tree of depth bit_width(T) inside the pool;
// from outside, the injected first join marks both halves migrated, each resets to T and splits
// once more: four times as many. With IGNORE_MIGRATED nothing resets and both are 2^bit_width(T).
inline std::size_t theory(std::size_t threads, bool outside) {
    const std::size_t inside = std::size_t{1} << std::bit_width(threads);
    return outside && !mini::sabotage::ignore_migrated ? 4 * inside : inside;
}

// rayon's leaf counts over the same range, the same two ways, in this process (apps/rayon/).
struct RayonCounts {
#if MINI_HAVE_RAYON
    // Outside: rayon's global pool, which a process can build once, hence one T per run of
    // `splits`. Inside: install on a ThreadPool of T threads.
    explicit RayonCounts(std::size_t threads) : pool(threads) {
        built = rayon_side_init_global(threads) && pool.get();
        fmt::print("{}: outside from its global pool of {} threads, inside install on a pool of "
                   "{}\n",
                   rayon_side_version(), threads, threads);
        if (!built) fmt::print("rayon: could not build its pools of {} threads\n", threads);
    }
    // The bridge over [0, len): from outside (the global pool) or inside install.
    Count leaves(std::size_t len, std::size_t work, bool inside) const {
        Count c;
        c.leaves = inside ? rayon_side_leaves_inside(pool.get(), len, work, &c.threads)
                          : rayon_side_leaves_outside(len, work, &c.threads);
        return c;
    }
    // v.par_iter() over a slice: from outside (the global pool) or inside install.
    Count par_iter(const std::vector<std::uint64_t>& v, std::size_t work, bool inside) const {
        Count c;
        c.leaves = rayon_side_par_iter_leaves(inside ? pool.get() : nullptr, v.data(), v.size(),
                                              work, &c.threads);
        return c;
    }
    rayon_side::Pool pool;
    bool built;
#else
    explicit RayonCounts(std::size_t) {
        fmt::print("rayon: {}\n", MINI_RAYON_ABSENT);
    }
    Count leaves(std::size_t, std::size_t, bool) const {
        return {};
    }
    Count par_iter(const std::vector<std::uint64_t>&, std::size_t, bool) const {
        return {};
    }
    static constexpr bool built = false;
#endif
};

// One run's leaf counts, ours and rayon's, from outside the pool and inside it.
struct Four {
    Count out, r_out, in, r_in;
};

// Ours from `ours()`, outside and then inside install; rayon's from `theirs(inside)`, if built.
// `step` counts the halves, for the watchdog.
template <class Ours, class Theirs>
Four measure(mini::ThreadPool& pool, const RayonCounts& rayon, std::atomic<std::size_t>& step,
             Ours ours, Theirs theirs) {
    Four f;
    f.out = ours();
    f.r_out = rayon.built ? theirs(false) : Count{};
    ++step;
    f.in = pool.install(ours);
    f.r_in = rayon.built ? theirs(true) : Count{};
    ++step;
    return f;
}

// A run's counts are comparable only without steals, and with trivial work a woken worker still
// steals now and then: say whose leaves ran on more than one thread (outside and inside).
inline std::string verdict(const Four& f) {
    if (f.out.leaves == f.r_out.leaves && f.in.leaves == f.r_in.leaves) return "equal";
    if (std::max({f.out.threads, f.in.threads, f.r_out.threads, f.r_in.threads}) == 1)
        return "differs without a steal";
    return fmt::format("differs after a steal (threads with leaves: ours {} and {}, rayon {} and "
                       "{})",
                       f.out.threads, f.in.threads, f.r_out.threads, f.r_in.threads);
}

// The verdicts of `count`'s or `par_iter`'s runs, and the columns rayon adds to each row.
struct Tally {
    const RayonCounts& rayon;
    std::size_t equal = 0, stolen = 0;

    std::string column(const Count& r) const {
        return rayon.built ? fmt::format(" rayon {:>4}", r.leaves) : std::string();
    }
    std::string verdict_of(const Four& f) { // after a row, with its separator
        if (!rayon.built) return "";
        const std::string says = verdict(f);
        equal += says == "equal";
        stolen += says.starts_with("differs after");
        return "   " + says;
    }
    void summary(std::size_t runs, const char* counts) const {
        if (rayon.built)
            fmt::print("{} of {} runs equal to rayon's {}, {} differ after a steal, {} without "
                       "one\n",
                       equal, runs, counts, stolen, runs - equal - stolen);
        else
            fmt::print("rayon: {}\n", MINI_RAYON_ABSENT);
    }
};

} // namespace app::splits
